/* decipher-occurrence-split.c: giving chosen occurrences of a symbol a value of their own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One code may stand for two characters that only the context tells apart: a home-made
 * font drew Latin a and Cyrillic а alike, one apostrophe serves as ’ and as the glottal
 * stop ʼ. In the occurrence strip the user selects the occurrences that read otherwise
 * and presses Split…: a popover asks what they read (the document's own characters one
 * click away) and the engine records a split for them (dc_session_split()), one undoable
 * step. "Read as Symbol" takes a split back.
 */

#define G_LOG_DOMAIN "decipher-occurrence-split"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-character-row.h"
#include "decipher-occurrence-split.h"

struct _DecipherOccurrenceSplit
{
  GtkWidget parent_instance;

  DcSession *session;
  GtkSelectionModel *selection; /* not owned: the strip's */
  DecipherSelectedGlyphsFunc selected;
  gpointer selected_data;
  gulong selection_changed_id;
  gulong items_changed_id;

  GtkWidget *button;
  GtkPopover *popover;
  GtkEntry *entry;
  GtkLabel *heading;
  GtkLabel *message;
  GtkWidget *split_button;
  GtkWidget *unsplit_button;
  DecipherCharacterRow *characters;
};

G_DEFINE_FINAL_TYPE (DecipherOccurrenceSplit, decipher_occurrence_split, GTK_TYPE_WIDGET)

static guint
count_selected (DecipherOccurrenceSplit *self)
{
  g_autoptr (GtkBitset) selected = NULL;

  if (self->selection == NULL)
    return 0;
  selected = gtk_selection_model_get_selection (self->selection);
  return (guint) gtk_bitset_get_size (selected);
}

static void
update_sensitivity (DecipherOccurrenceSplit *self)
{
  guint n = count_selected (self);
  g_autofree char *heading = NULL;

  gtk_widget_set_sensitive (self->button, self->session != NULL && n > 0);
  /* Translators: above the entry of the Split popover. */
  heading = g_strdup_printf (ngettext ("What does the selected occurrence read?",
                                       "What do the %u selected occurrences read?", n),
                             n);
  gtk_label_set_text (self->heading, heading);
}

static void
show_message (DecipherOccurrenceSplit *self, const char *message)
{
  gtk_label_set_text (self->message, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message), message != NULL);
}

/* The focus leaves the entry before the popover closes: a popover closed with the focus in
 * its entry leaves GTK 4.8's text widget blinking its cursor, waiting for a focus-out it
 * never gets (and warning so). */
static void
close_popover (DecipherOccurrenceSplit *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (!gtk_widget_grab_focus (self->button) && root != NULL)
    gtk_root_set_focus (root, NULL);
  gtk_popover_popdown (self->popover);
}

static void
split_cb (DecipherOccurrenceSplit *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree guint *glyphs = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  guint n = 0;

  if (self->session == NULL)
    return;
  glyphs = self->selected (self->selected_data, &n);
  if (*text == '\0')
    {
      show_message (self, _("Type what the selected occurrences read."));
      return;
    }
  if (!dc_session_split (self->session, glyphs, n, text, &error))
    {
      show_message (self, error->message);
      return;
    }
  show_message (self, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  close_popover (self);
}

static gboolean
split_idle_cb (gpointer data)
{
  split_cb (data);
  return G_SOURCE_REMOVE;
}

/* Return in the entry splits once the entry is done with the key: closing the popover
 * under the entry's own key handler leaves GTK 4.8's text widget waiting for a focus-out
 * it never gets. */
static void
entry_activate_cb (DecipherOccurrenceSplit *self)
{
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, split_idle_cb, g_object_ref (self), g_object_unref);
}

static void
unsplit_cb (DecipherOccurrenceSplit *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree guint *glyphs = NULL;
  guint n = 0;

  if (self->session == NULL)
    return;
  glyphs = self->selected (self->selected_data, &n);
  if (!dc_session_unsplit (self->session, glyphs, n, &error))
    {
      show_message (self, error->message);
      return;
    }
  show_message (self, NULL);
  close_popover (self);
}

/* The value the selected occurrences were split off with, when they all share one: what
 * the entry starts with, to correct it. Whether any is split: what "Read as Symbol" needs. */
static const char *
selected_split (DecipherOccurrenceSplit *self, gboolean *any_split)
{
  DcKey *key = dc_session_get_key (self->session);
  g_autofree guint *glyphs = NULL;
  const char *common = NULL;
  guint n = 0;

  glyphs = self->selected (self->selected_data, &n);
  *any_split = FALSE;
  for (guint i = 0; i < n; i++)
    {
      const char *split = dc_key_get_split (key, glyphs[i], NULL);

      *any_split |= split != NULL;
      if (i == 0)
        common = split;
      else if (g_strcmp0 (common, split) != 0)
        common = NULL;
    }
  return common;
}

static void
popover_shown_cb (DecipherOccurrenceSplit *self)
{
  gboolean any_split = FALSE;
  const char *common;

  show_message (self, NULL);
  if (self->session == NULL)
    return;
  decipher_character_row_refresh (self->characters);
  common = selected_split (self, &any_split);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), common != NULL ? common : "");
  gtk_widget_set_sensitive (self->unsplit_button, any_split);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

static GtkWidget *
build_popover_content (DecipherOccurrenceSplit *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->heading));

  self->characters = g_object_new (DECIPHER_TYPE_CHARACTER_ROW, NULL);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->characters));

  self->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_activates_default (self->entry, FALSE);
  /* Translators: placeholder of the Split popover's entry. */
  gtk_entry_set_placeholder_text (self->entry, _("Character"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("What the selected occurrences read"), -1);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entry));
  decipher_character_row_set_entry (self->characters, GTK_EDITABLE (self->entry));

  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_max_width_chars (self->message, 40);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));

  self->unsplit_button = gtk_button_new_with_mnemonic (_("Read as _Symbol"));
  gtk_widget_set_tooltip_text (self->unsplit_button,
                               _("The selected occurrences read as their symbol again"));
  g_signal_connect_swapped (self->unsplit_button, "clicked", G_CALLBACK (unsplit_cb), self);
  gtk_widget_set_hexpand (self->unsplit_button, TRUE);
  gtk_widget_set_halign (self->unsplit_button, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (buttons), self->unsplit_button);

  self->split_button = gtk_button_new_with_mnemonic (_("S_plit"));
  gtk_widget_add_css_class (self->split_button, "suggested-action");
  g_signal_connect_swapped (self->split_button, "clicked", G_CALLBACK (split_cb), self);
  gtk_box_append (GTK_BOX (buttons), self->split_button);
  gtk_box_append (GTK_BOX (box), buttons);
  return box;
}

static void
decipher_occurrence_split_dispose (GObject *object)
{
  DecipherOccurrenceSplit *self = DECIPHER_OCCURRENCE_SPLIT (object);

  if (self->selection != NULL)
    {
      g_clear_signal_handler (&self->selection_changed_id, self->selection);
      g_clear_signal_handler (&self->items_changed_id, self->selection);
      g_object_remove_weak_pointer (G_OBJECT (self->selection), (gpointer *) &self->selection);
      self->selection = NULL;
    }
  g_clear_pointer (&self->button, gtk_widget_unparent);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (decipher_occurrence_split_parent_class)->dispose (object);
}

static void
decipher_occurrence_split_class_init (DecipherOccurrenceSplitClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = decipher_occurrence_split_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
decipher_occurrence_split_init (DecipherOccurrenceSplit *self)
{
  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->button), _("_Split…"));
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (self->button), TRUE);
  gtk_widget_set_tooltip_text (self->button,
                               _("The selected occurrences read another character than the "
                                 "symbol: give them their own value"));
  gtk_widget_set_valign (self->button, GTK_ALIGN_CENTER);
  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->popover, build_popover_content (self));
  g_signal_connect_swapped (self->popover, "show", G_CALLBACK (popover_shown_cb), self);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), GTK_WIDGET (self->popover));
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
}

/**
 * decipher_occurrence_split_new:
 * @selection: the occurrences the user chooses among
 * @selected: gives the glyphs of @selection's selected items
 *
 * The Split… button: sensitive while occurrences are selected.
 */
GtkWidget *
decipher_occurrence_split_new (GtkSelectionModel *selection, DecipherSelectedGlyphsFunc selected,
                               gpointer user_data)
{
  DecipherOccurrenceSplit *self;

  g_return_val_if_fail (GTK_IS_SELECTION_MODEL (selection), NULL);
  g_return_val_if_fail (selected != NULL, NULL);

  self = g_object_new (DECIPHER_TYPE_OCCURRENCE_SPLIT, NULL);
  self->selection = selection;
  g_object_add_weak_pointer (G_OBJECT (selection), (gpointer *) &self->selection);
  self->selected = selected;
  self->selected_data = user_data;
  self->selection_changed_id = g_signal_connect_swapped (selection, "selection-changed",
                                                         G_CALLBACK (update_sensitivity), self);
  self->items_changed_id = g_signal_connect_swapped (selection, "items-changed",
                                                     G_CALLBACK (update_sensitivity), self);
  update_sensitivity (self);
  return GTK_WIDGET (self);
}

void
decipher_occurrence_split_set_session (DecipherOccurrenceSplit *self, DcSession *session)
{
  g_return_if_fail (DECIPHER_IS_OCCURRENCE_SPLIT (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));

  g_set_object (&self->session, session);
  decipher_character_row_set_session (self->characters, session);
  update_sensitivity (self);
}

/* For the tests: the popover's entry and the popover. */
GtkEditable *
decipher_occurrence_split_get_entry (DecipherOccurrenceSplit *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_SPLIT (self), NULL);

  return GTK_EDITABLE (self->entry);
}

GtkPopover *
decipher_occurrence_split_get_popover (DecipherOccurrenceSplit *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_SPLIT (self), NULL);

  return self->popover;
}
