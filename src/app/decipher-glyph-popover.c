/* decipher-glyph-popover.c: assign one symbol's value, from a glyph on the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens over the glyph clicked. It shows the symbol's shape as the font draws it, what
 * is known (value, status, how often it occurs, the font's own name for the glyph) and
 * takes what the user reads there. A refused value keeps the popover open with the
 * engine's sentence under the entry, so nothing typed is lost. Opened on an occurrence
 * the user split off its symbol, it says so, since the symbol's value is not what that
 * glyph reads, and offers to read it as its symbol again.
 */

#define G_LOG_DOMAIN "decipher-glyph-popover"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-character-picker.h"
#include "decipher-glyph-popover.h"
#include "decipher-labels.h"

/* A glyph stands for at most DC_KEY_MAX_VALUE_CHARS characters, a few more before NFC
 * composes them: the entry takes no more than the engine looks at. */
#define MAX_ENTRY_CHARS (DC_KEY_MAX_VALUE_CHARS * 4)

struct _DecipherGlyphPopover
{
  GtkPopover parent_instance;

  DcSession *session;
  DecipherViewState *state; /* where "Show occurrences" selects the symbol */
  DecipherGlyphShapes *shapes;
  GSignalGroup *key_signals;    /* on the session's key */
  GSignalGroup *shapes_signals; /* on the shapes */
  guint symbol;
  guint glyph; /* the occurrence clicked, or G_MAXUINT when opened on the symbol */
  char *error;

  GtkStack *tile;
  GtkPicture *shape;
  GtkLabel *no_shape;
  GtkLabel *title_label;
  GtkLabel *details_label;
  GtkLabel *name_label;
  GtkLabel *why_label;
  GtkBox *split_box;
  GtkLabel *split_label;
  GtkButton *unsplit_button;
  GtkBox *proposals_box;
  GtkEntry *entry;
  GtkLabel *error_label;
  GtkButton *forget_button;
  GtkButton *occurrences_button;
  GtkButton *assign_button;
};

G_DEFINE_FINAL_TYPE (DecipherGlyphPopover, decipher_glyph_popover, GTK_TYPE_POPOVER)

enum
{
  ASSIGNED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_error (DecipherGlyphPopover *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
}

static void
proposal_clicked_cb (DecipherGlyphPopover *self, GtkButton *button)
{
  decipher_glyph_popover_accept_proposal (self);
}

static void
update_proposals (DecipherGlyphPopover *self)
{
  DcKey *key = dc_session_get_key (self->session);
  GtkWidget *child;
  const char *value;

  /* Keep the "Proposed:" label, drop the buttons. */
  child = gtk_widget_get_first_child (GTK_WIDGET (self->proposals_box));
  while (child != NULL && gtk_widget_get_next_sibling (child) != NULL)
    gtk_box_remove (self->proposals_box, gtk_widget_get_next_sibling (child));

  /* The engine keeps one proposal per symbol, as the key's value with the proposed
   * status; a list of alternatives would slot in here. */
  value = dc_key_peek_value (key, self->symbol);
  if (dc_key_get_status (key, self->symbol) != DC_KEY_PROPOSED || value == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->proposals_box), FALSE);
      return;
    }
  {
    g_autofree char *label = decipher_labels_dup_value (key, self->symbol);
    GtkWidget *button = gtk_button_new_with_label (label);

    gtk_widget_set_tooltip_text (button, _("Confirm this proposal"));
    g_signal_connect_swapped (button, "clicked", G_CALLBACK (proposal_clicked_cb), self);
    gtk_box_append (self->proposals_box, button);
    gtk_widget_set_visible (GTK_WIDGET (self->proposals_box), TRUE);
  }
}

/* What the value rests on and why (issue 31.1), as the palette cell's tooltip says it: a
 * value learned or proposed is judged by its evidence before it is trusted. %NULL for
 * the user's own word, the PDF's text and an unknown symbol. */
static char *
dup_why (DcKey *key, guint symbol)
{
  DcKeyStatus status = dc_key_get_status (key, symbol);
  const char *provenance = dc_key_get_provenance (key, symbol);

  if (status != DC_KEY_PROPOSED && status != DC_KEY_INFERRED)
    return NULL;
  /* Translators: in the glyph popover: the evidence's level ("from the font's own
   * tables"), its confidence, and the engine's reason ("Why: …"). */
  return g_strdup_printf (_("%s · %.0f %%\nWhy: %s"), decipher_labels_level (dc_key_get_level (key, symbol)),
      dc_key_get_confidence (key, symbol) * 100.0,
      provenance != NULL && *provenance != '\0' ? provenance : _("not recorded"));
}

/* The label saying what the value rests on and why; %NULL when it is hidden. */
const char *
decipher_glyph_popover_get_why (DecipherGlyphPopover *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->why_label)))
    return NULL;
  return gtk_label_get_text (self->why_label);
}

/* A value the evidence gave comes straight back when it is only forgotten: the next pass
 * proposes it again. So where the user says such a value is wrong, it is rejected (and
 * stays refused); the user's own value is forgotten, which is what they mean by undoing
 * their word. */
static gboolean
value_is_from_evidence (DcKey *key, guint symbol)
{
  return dc_key_get_status (key, symbol) != DC_KEY_UNKNOWN
         && dc_key_get_level (key, symbol) != DC_KEY_LEVEL_USER;
}

static void
update_forget_button (DecipherGlyphPopover *self, DcKey *key)
{
  if (value_is_from_evidence (key, self->symbol))
    {
      gtk_button_set_label (self->forget_button, _("_Reject"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->forget_button),
                                   _("This value is wrong: make the symbol unknown and never "
                                     "take this value for it again unless you type it"));
    }
  else
    {
      gtk_button_set_label (self->forget_button, _("_Forget"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->forget_button),
                                   _("Make this symbol unknown again"));
    }
}

/* An occurrence split off its symbol reads its own value: said above the symbol's, and to
 * a screen reader as the popover's description. */
static void
update_split (DecipherGlyphPopover *self, DcKey *key)
{
  g_autofree char *sentence = NULL;

  if (self->glyph != G_MAXUINT)
    sentence = decipher_labels_dup_split (key, self->glyph);
  gtk_label_set_text (self->split_label, sentence != NULL ? sentence : "");
  gtk_widget_set_visible (GTK_WIDGET (self->split_box), sentence != NULL);
  if (sentence != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    sentence, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
update (DecipherGlyphPopover *self)
{
  DcDocument *document;
  DcKey *key;
  const DcSymbol *s;
  const char *glyph_name;
  g_autofree char *title = NULL;
  g_autofree char *value = NULL;
  g_autofree char *details = NULL;
  g_autofree char *name = NULL;
  g_autofree char *why = NULL;
  DecipherShapeState state = DECIPHER_SHAPE_FAILED;
  GdkTexture *texture = NULL;
  DcKeyStatus status;

  if (self->session == NULL || self->symbol == DC_SYMBOL_NONE)
    return;

  document = dc_session_get_document (self->session);
  key = dc_session_get_key (self->session);
  s = dc_document_get_symbol (document, self->symbol);
  status = dc_key_get_status (key, self->symbol);

  title = decipher_labels_dup_symbol_title (document, self->symbol);
  value = decipher_labels_dup_value (key, self->symbol);
  /* Translators: value · status · occurrences, under a glyph's title. */
  details = g_strdup_printf (ngettext ("Value: %s · %s · %u occurrence",
                                       "Value: %s · %s · %u occurrences", s->n_glyphs),
                             value, decipher_labels_status (status), s->n_glyphs);
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->details_label, details);
  why = dup_why (key, self->symbol);
  gtk_label_set_text (self->why_label, why != NULL ? why : "");
  gtk_widget_set_visible (GTK_WIDGET (self->why_label), why != NULL);

  glyph_name = dc_font_get_glyph_name (dc_document_get_font (document, s->font), s->code);
  if (glyph_name != NULL && *glyph_name != '\0')
    /* Translators: the glyph's name in the font, evidence for what it is. */
    name = g_strdup_printf (_("Glyph name: %s"), glyph_name);
  gtk_label_set_text (self->name_label, name != NULL ? name : "");
  gtk_widget_set_visible (GTK_WIDGET (self->name_label), name != NULL);

  if (self->shapes != NULL)
    texture = decipher_glyph_shapes_lookup (self->shapes, self->symbol, &state);
  gtk_picture_set_paintable (self->shape, GDK_PAINTABLE (texture));
  gtk_stack_set_visible_child (self->tile, texture != NULL ? GTK_WIDGET (self->shape)
                                                           : GTK_WIDGET (self->no_shape));
  /* Translators: shown instead of the shape of a glyph that draws nothing. */
  gtk_label_set_text (self->no_shape, state == DECIPHER_SHAPE_EMPTY ? _("blank")
                  : state == DECIPHER_SHAPE_PENDING ? "…"
                                                    : "");

  gtk_widget_set_sensitive (GTK_WIDGET (self->forget_button),
                            dc_document_symbol_needs_decoding (document, self->symbol)
                                && status != DC_KEY_UNKNOWN);
  update_forget_button (self, key);
  update_proposals (self);
  update_split (self, key);
}

static void
key_changed_cb (DecipherGlyphPopover *self, guint symbol, DcKey *key)
{
  if (symbol == self->symbol || symbol == DC_SYMBOL_NONE)
    update (self);
}

static void
shape_ready_cb (DecipherGlyphPopover *self, guint symbol, DecipherGlyphShapes *shapes)
{
  if (symbol == self->symbol)
    update (self);
}

/* Back from the picker: the caret stays after what it inserted. Popping up focuses the
 * entry, which would select all its text, and the next key would replace the word. */
static void
picker_done_cb (DecipherGlyphPopover *self)
{
  int position = gtk_editable_get_position (GTK_EDITABLE (self->entry));

  gtk_popover_popup (GTK_POPOVER (self));
  gtk_entry_grab_focus_without_selecting (self->entry);
  gtk_editable_select_region (GTK_EDITABLE (self->entry), position, position);
}

/* The picker is a window of its own, which closes the popover: it comes back when the
 * picker is done, with the value inserted in its entry. */
static void
pick_character_cb (DecipherGlyphPopover *self)
{
  DecipherCharacterPicker *picker;

  picker = decipher_character_picker_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                          GTK_EDITABLE (self->entry));
  g_signal_connect_object (picker, "destroy", G_CALLBACK (picker_done_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (picker));
}

static void
entry_changed_cb (DecipherGlyphPopover *self)
{
  if (self->error != NULL)
    show_error (self, NULL);
}

/* A page pasted by mistake is refused as it arrives, with the sentence the engine gives
 * for that text, and what was typed before stays. */
static void
entry_insert_text_cb (GtkEditable *delegate, const char *text, int length, int *position,
                      DecipherGlyphPopover *self)
{
  const char *current = gtk_editable_get_text (delegate);
  glong n_current = g_utf8_strlen (current, -1);
  g_autoptr (GString) would_be = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *normalized = NULL;

  if (n_current + g_utf8_strlen (text, length) <= MAX_ENTRY_CHARS)
    return;
  g_signal_stop_emission_by_name (delegate, "insert-text");
  gtk_widget_error_bell (GTK_WIDGET (self->entry));
  would_be = g_string_new (current);
  g_string_insert_len (would_be,
                       g_utf8_offset_to_pointer (current, CLAMP (*position, 0, n_current))
                           - current,
                       text, length);
  normalized = dc_key_normalize_value (would_be->str, &error);
  g_assert (error != NULL);
  show_error (self, error->message);
}

static void
assign_clicked_cb (DecipherGlyphPopover *self)
{
  decipher_glyph_popover_assign (self);
}

static void
forget_clicked_cb (DecipherGlyphPopover *self)
{
  g_autoptr (GError) error = NULL;
  DcKey *key = dc_session_get_key (self->session);
  gboolean done;

  if (value_is_from_evidence (key, self->symbol))
    done = dc_session_reject (self->session, self->symbol, &error);
  else
    done = dc_session_forget (self->session, self->symbol, &error);
  /* Done all the same when the journal cannot record it: the autosave will. */
  if (!done)
    g_message ("%s", error->message);
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
unsplit_clicked_cb (DecipherGlyphPopover *self)
{
  decipher_glyph_popover_read_as_symbol (self);
}

/* The strip shows the selected symbol: this one, whatever was selected before. */
static void
occurrences_clicked_cb (DecipherGlyphPopover *self)
{
  if (self->state != NULL)
    decipher_view_state_set_selected_symbol (self->state, self->symbol);
  gtk_popover_popdown (GTK_POPOVER (self));
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-occurrences", NULL);
}

static void
decipher_glyph_popover_dispose (GObject *object)
{
  DecipherGlyphPopover *self = DECIPHER_GLYPH_POPOVER (object);

  /* Dropping a group disconnects its handlers. */
  g_clear_object (&self->key_signals);
  g_clear_object (&self->shapes_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->state);
  g_clear_object (&self->shapes);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_GLYPH_POPOVER);

  G_OBJECT_CLASS (decipher_glyph_popover_parent_class)->dispose (object);
}

static void
decipher_glyph_popover_finalize (GObject *object)
{
  DecipherGlyphPopover *self = DECIPHER_GLYPH_POPOVER (object);

  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (decipher_glyph_popover_parent_class)->finalize (object);
}

static void
decipher_glyph_popover_class_init (DecipherGlyphPopoverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_glyph_popover_dispose;
  object_class->finalize = decipher_glyph_popover_finalize;

  /**
   * DecipherGlyphPopover::assigned:
   * @symbol: the symbol that was given a value
   */
  signals[ASSIGNED] = g_signal_new ("assigned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-glyph-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, tile);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, shape);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, no_shape);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, title_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, details_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, name_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, why_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, split_box);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, split_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, unsplit_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, proposals_box);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, entry);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, error_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, forget_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, occurrences_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPopover, assign_button);
}

static void
decipher_glyph_popover_init (DecipherGlyphPopover *self)
{
  self->symbol = DC_SYMBOL_NONE;
  self->glyph = G_MAXUINT;
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Connected to whichever key and shapes decipher_glyph_popover_set_session() gives. */
  self->key_signals = g_signal_group_new (DC_TYPE_KEY);
  g_signal_group_connect_object (self->key_signals, "changed", G_CALLBACK (key_changed_cb), self,
                                 G_CONNECT_SWAPPED);
  self->shapes_signals = g_signal_group_new (DECIPHER_TYPE_GLYPH_SHAPES);
  g_signal_group_connect_object (self->shapes_signals, "shape-ready", G_CALLBACK (shape_ready_cb),
                                 self, G_CONNECT_SWAPPED);

  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->entry)), "insert-text",
                    G_CALLBACK (entry_insert_text_cb), self);
  gtk_entry_set_icon_from_icon_name (self->entry, GTK_ENTRY_ICON_SECONDARY, "insert-text-symbolic");
  gtk_entry_set_icon_tooltip_text (self->entry, GTK_ENTRY_ICON_SECONDARY, _("Insert a Character"));
  g_signal_connect_swapped (self->entry, "icon-press", G_CALLBACK (pick_character_cb), self);
  g_signal_connect_swapped (self->assign_button, "clicked", G_CALLBACK (assign_clicked_cb), self);
  g_signal_connect_swapped (self->forget_button, "clicked", G_CALLBACK (forget_clicked_cb), self);
  g_signal_connect_swapped (self->occurrences_button, "clicked",
                            G_CALLBACK (occurrences_clicked_cb), self);
  g_signal_connect_swapped (self->unsplit_button, "clicked", G_CALLBACK (unsplit_clicked_cb), self);
}

GtkWidget *
decipher_glyph_popover_new (void)
{
  return g_object_new (DECIPHER_TYPE_GLYPH_POPOVER, NULL);
}

/**
 * decipher_glyph_popover_set_session:
 * @session: (nullable):
 * @shapes: (nullable): where the shape shown comes from
 */
void
decipher_glyph_popover_set_session (DecipherGlyphPopover *self, DcSession *session,
                                    DecipherGlyphShapes *shapes)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_POPOVER (self));

  g_set_object (&self->session, session);
  g_set_object (&self->shapes, shapes);
  self->symbol = DC_SYMBOL_NONE;
  self->glyph = G_MAXUINT;
  g_signal_group_set_target (self->key_signals,
                             session != NULL ? dc_session_get_key (session) : NULL);
  g_signal_group_set_target (self->shapes_signals, shapes);
}

/* The state whose selected symbol "Show occurrences" sets: the document view's. */
void
decipher_glyph_popover_set_view_state (DecipherGlyphPopover *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_POPOVER (self));
  g_return_if_fail (state == NULL || DECIPHER_IS_VIEW_STATE (state));

  g_set_object (&self->state, state);
}

static void
show_symbol (DecipherGlyphPopover *self, guint symbol, guint glyph)
{
  const char *value;

  self->symbol = symbol;
  self->glyph = glyph;
  show_error (self, NULL);
  value = dc_key_get_value (dc_session_get_key (self->session), symbol);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), value != NULL ? value : "");
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
  update (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

/* Shows @symbol, with its current value in the entry, selected, ready to be typed over. */
void
decipher_glyph_popover_set_symbol (DecipherGlyphPopover *self, guint symbol)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_POPOVER (self));
  g_return_if_fail (self->session != NULL);

  show_symbol (self, symbol, G_MAXUINT);
}

/* Shows the symbol of the occurrence @glyph, as decipher_glyph_popover_set_symbol() does,
 * and whether that occurrence is split off it. */
void
decipher_glyph_popover_set_glyph (DecipherGlyphPopover *self, guint glyph)
{
  guint n_glyphs;
  const DcGlyph *glyphs;

  g_return_if_fail (DECIPHER_IS_GLYPH_POPOVER (self));
  g_return_if_fail (self->session != NULL);

  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), &n_glyphs);
  g_return_if_fail (glyph < n_glyphs);
  show_symbol (self, glyphs[glyph].symbol, glyph);
}

/* Returns: (nullable): the sentence saying the occurrence is split off, when it is shown. */
const char *
decipher_glyph_popover_get_split (DecipherGlyphPopover *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->split_box)))
    return NULL;
  return gtk_label_get_text (self->split_label);
}

/**
 * decipher_glyph_popover_read_as_symbol:
 *
 * Makes the occurrence shown read as its symbol again, as its button does, and closes
 * the popover.
 *
 * Returns: %TRUE if the occurrence was split and now reads as its symbol
 */
gboolean
decipher_glyph_popover_read_as_symbol (DecipherGlyphPopover *self)
{
  g_autoptr (GError) error = NULL;
  gboolean was_split;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), FALSE);

  if (self->session == NULL || self->glyph == G_MAXUINT)
    return FALSE;
  was_split = dc_key_get_split (dc_session_get_key (self->session), self->glyph, NULL) != NULL;
  /* Done all the same when the journal cannot record it: the autosave will. */
  if (!dc_session_unsplit (self->session, &self->glyph, 1, &error))
    g_message ("%s", error->message);
  gtk_popover_popdown (GTK_POPOVER (self));
  return was_split
         && dc_key_get_split (dc_session_get_key (self->session), self->glyph, NULL) == NULL;
}

guint
decipher_glyph_popover_get_symbol (DecipherGlyphPopover *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), DC_SYMBOL_NONE);

  return self->symbol;
}

void
decipher_glyph_popover_set_text (DecipherGlyphPopover *self, const char *text)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_POPOVER (self));

  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
}

/**
 * decipher_glyph_popover_assign:
 *
 * Assigns the entry's text to the symbol, as the Assign button does, and closes the
 * popover; when the engine refuses the value, shows why and stays open.
 *
 * Returns: %TRUE if the value was assigned
 */
gboolean
decipher_glyph_popover_assign (DecipherGlyphPopover *self)
{
  g_autoptr (GError) error = NULL;
  const char *text;
  guint symbol;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), FALSE);

  if (self->session == NULL || self->symbol == DC_SYMBOL_NONE)
    return FALSE;

  text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  if (*text == '\0')
    {
      /* An empty value is a real one (the glyph is left out of the text), and far too
       * easy to give by pressing Enter on an empty entry to be taken from here. */
      show_error (self, _("Type the character or characters this glyph stands for."));
      return FALSE;
    }
  symbol = self->symbol;
  if (!dc_session_assign (self->session, symbol, text, &error))
    {
      show_error (self, error->message);
      return FALSE;
    }
  gtk_popover_popdown (GTK_POPOVER (self));
  g_signal_emit (self, signals[ASSIGNED], 0, symbol);
  return TRUE;
}

/* Whether the popover offers a proposal for its symbol. */
gboolean
decipher_glyph_popover_has_proposal (DecipherGlyphPopover *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->proposals_box));
}

/**
 * decipher_glyph_popover_accept_proposal:
 *
 * Confirms the proposal shown, as its button does, and closes the popover.
 *
 * Returns: %TRUE if there was a proposal and it is now the symbol's value
 */
gboolean
decipher_glyph_popover_accept_proposal (DecipherGlyphPopover *self)
{
  g_autoptr (GError) error = NULL;
  guint symbol;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), FALSE);

  symbol = self->symbol;
  if (self->session == NULL || symbol == DC_SYMBOL_NONE)
    return FALSE;
  if (!dc_session_accept (self->session, symbol, &error))
    {
      show_error (self, error->message);
      return FALSE;
    }
  gtk_popover_popdown (GTK_POPOVER (self));
  g_signal_emit (self, signals[ASSIGNED], 0, symbol);
  return TRUE;
}

/* Returns: (nullable): the sentence shown under the entry, if any. */
const char *
decipher_glyph_popover_get_error (DecipherGlyphPopover *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_POPOVER (self), NULL);

  return self->error;
}
