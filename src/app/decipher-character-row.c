/* decipher-character-row.c: the document's own characters, one click each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Above the word entry (issue 31.4): typing a minority orthography needs letters that no
 * keyboard layout at hand has (Nivkh ʼ ӻ ӿ ӊ ӈ, Nenets ӈ ˮ ʼ, a combining caron), each
 * five actions in the character picker. The row offers, one click each, the letters of
 * the language's orthography beyond the script's common alphabet (a preset, from the
 * language the recovered text reads as, or the one chosen) and then every character the
 * document's key holds that is not plain ASCII, most frequent first. A click inserts at
 * the entry's cursor and leaves the focus there.
 */

#define G_LOG_DOMAIN "decipher-character-row"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "decipher-character-row.h"

/* The most buttons the row offers; a document's alphabet fits. */
#define MAX_DOCUMENT_CHARACTERS 48
/* Enough recovered text for a language guess, read from the start of the document. */
#define GUESS_GLYPHS 4000

/* The presets: a language's letters beyond the alphabet of its script, and the
 * combining marks its texts use. BCP 47 tags, as dc_language_guess() gives them. */
static const struct
{
  const char *tag;
  const char *name;
  const char *characters; /* separated by spaces */
} presets[] = {
  /* Translators: a language whose extra letters the character row offers. */
  { "niv", N_ ("Nivkh"), "ʼ ӄ ӈ ӊ ӻ ӷ ӽ ӿ ԝ ў р̌ \u030C" },
  { "yrk", N_ ("Tundra Nenets"), "ӈ ˮ ʼ ё" },
  { "kca", N_ ("Khanty"), "ӑ ӓ ӛ ә ӧ ө ӫ ў ӱ ӄ ӈ ԓ ӽ" },
  { "mns", N_ ("Mansi"), "ā ē ӣ ō ӯ ё̄ ы̄ э̄ ю̄ я̄ ӈ \u0304" },
  { "ckt", N_ ("Chukchi"), "ӄ ӈ ԓ ʼ" },
  { "evn", N_ ("Evenki"), "ӈ ё" },
  { "sah", N_ ("Yakut"), "ҕ ҥ ө һ ү" },
  { "kv", N_ ("Komi"), "і ӧ" },
  { "udm", N_ ("Udmurt"), "ӝ ӟ ӥ ӧ ӵ" },
  { "kk", N_ ("Kazakh"), "ә ғ қ ң ө ұ ү һ і" },
  { "ru", N_ ("Russian"), "ё \u0301" },
};

/* Marks a linguist adds to any script; offered when no preset applies. */
static const char *const common_marks = "\u0301 \u0300 \u0304 \u0306 \u0308 \u030C";

struct _DecipherCharacterRow
{
  GtkWidget parent_instance;

  DcSession *session;
  GSignalGroup *key_signals;
  GtkEditable *entry; /* not owned: the pane's */
  guint refresh_source;
  char *language; /* chosen, or NULL for the guess */
  DcLanguageGuess guess;
  GPtrArray *characters; /* char *, as offered */

  GtkWidget *language_dropdown;
  GtkWidget *buttons; /* GtkBox */
};

G_DEFINE_FINAL_TYPE (DecipherCharacterRow, decipher_character_row, GTK_TYPE_WIDGET)

static const char *
preset_for (const char *tag)
{
  if (tag == NULL || *tag == '\0')
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      gsize len = strlen (presets[i].tag);

      /* "ru" also for "ru-RU". */
      if (strncmp (tag, presets[i].tag, len) == 0 && (tag[len] == '\0' || tag[len] == '-'))
        return presets[i].characters;
    }
  return NULL;
}

static void
add_character (DecipherCharacterRow *self, GHashTable *seen, const char *text)
{
  if (text == NULL || *text == '\0' || g_hash_table_contains (seen, text))
    return;
  g_hash_table_add (seen, (gpointer) text);
  g_ptr_array_add (self->characters, g_strdup (text));
}

/* Whether a value is worth a button: not what every keyboard types. */
static gboolean
wants_button (const char *value)
{
  if (value == NULL || *value == '\0')
    return FALSE;
  for (const char *p = value; *p != '\0'; p++)
    if ((guchar) *p >= 0x80)
      return !g_unichar_isspace (g_utf8_get_char (value));
  return FALSE;
}

typedef struct
{
  const char *value;
  guint n_glyphs;
} Count;

static int
compare_counts (gconstpointer a, gconstpointer b)
{
  const Count *x = a, *y = b;

  if (x->n_glyphs != y->n_glyphs)
    return x->n_glyphs > y->n_glyphs ? -1 : 1;
  return g_strcmp0 (x->value, y->value);
}

/* The key's values worth a button, most glyphs first, each once. */
static GArray *
count_values (DecipherCharacterRow *self)
{
  DcDocument *document = dc_session_get_document (self->session);
  DcKey *key = dc_session_get_key (self->session);
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *counts = g_array_new (FALSE, FALSE, sizeof (Count));
  const DcSymbol *symbols;
  guint n_symbols;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_peek_value (key, s);
      gpointer at;

      if (!wants_button (value))
        continue;
      if (g_hash_table_lookup_extended (index, value, NULL, &at))
        g_array_index (counts, Count, GPOINTER_TO_UINT (at)).n_glyphs += symbols[s].n_glyphs;
      else
        {
          Count count = { value, symbols[s].n_glyphs };

          g_hash_table_insert (index, (gpointer) value, GUINT_TO_POINTER (counts->len));
          g_array_append_val (counts, count);
        }
    }
  g_array_sort (counts, compare_counts);
  return counts;
}

/* The language of what is decoded so far, from the start of the document. */
static void
guess_language (DecipherCharacterRow *self)
{
  DcDocument *document = dc_session_get_document (self->session);
  DcKey *key = dc_session_get_key (self->session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  guint n_order;
  const guint32 *order = dc_document_get_reading_order (document, &n_order);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < MIN (n_order, GUESS_GLYPHS); i++)
    {
      const char *value = dc_key_peek_value (key, glyphs[order[i]].symbol);

      g_string_append (text, value != NULL ? value : " ");
    }
  dc_language_guess (text->str, dc_document_get_language (document), &self->guess);
}

/* A mark alone shows on a dotted circle, as in the palette. */
static char *
button_label (const char *text)
{
  if (g_unichar_ismark (g_utf8_get_char (text)))
    return g_strconcat ("\u25CC", text, NULL);
  return g_strdup (text);
}

static char *
code_points (const char *text)
{
  GString *codes = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    g_string_append_printf (codes, "%sU+%04X", codes->len > 0 ? " " : "", g_utf8_get_char (p));
  return g_string_free (codes, FALSE);
}

static void
character_clicked_cb (GtkButton *button, DecipherCharacterRow *self)
{
  const char *text = g_object_get_data (G_OBJECT (button), "character");
  int start, end, position;

  if (self->entry == NULL || text == NULL)
    return;
  if (gtk_editable_get_selection_bounds (self->entry, &start, &end))
    gtk_editable_delete_text (self->entry, start, end);
  position = gtk_editable_get_position (self->entry);
  gtk_editable_insert_text (self->entry, text, -1, &position);
  gtk_editable_set_position (self->entry, position);
  /* The focus stays (or comes back) in the entry, its text not selected. */
  if (GTK_IS_ENTRY (self->entry))
    gtk_entry_grab_focus_without_selecting (GTK_ENTRY (self->entry));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

static void
rebuild_buttons (DecipherCharacterRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->buttons)) != NULL)
    gtk_box_remove (GTK_BOX (self->buttons), child);
  for (guint i = 0; i < self->characters->len; i++)
    {
      const char *text = g_ptr_array_index (self->characters, i);
      g_autofree char *label = button_label (text);
      g_autofree char *codes = code_points (text);
      g_autofree char *name = NULL;
      GtkWidget *button = gtk_button_new_with_label (label);

      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (button, "character-button");
      /* A click leaves the focus, and the cursor, in the entry. */
      gtk_widget_set_focus_on_click (button, FALSE);
      gtk_widget_set_tooltip_text (button, codes);
      /* Translators: the accessible name of a button of the character row: the character,
       * then its code points. */
      name = g_strdup_printf (_("Insert %s (%s)"), label, codes);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                      -1);
      g_object_set_data_full (G_OBJECT (button), "character", g_strdup (text), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (character_clicked_cb), self);
      gtk_box_append (GTK_BOX (self->buttons), button);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), self->session != NULL);
}

/**
 * decipher_character_row_refresh:
 *
 * Offers again the preset of the language (chosen or guessed) and the key's characters,
 * as they are now.
 */
void
decipher_character_row_refresh (DecipherCharacterRow *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto (GStrv) preset = NULL;
  g_autoptr (GArray) counts = NULL;
  const char *characters;

  g_return_if_fail (DECIPHER_IS_CHARACTER_ROW (self));

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  g_ptr_array_set_size (self->characters, 0);
  if (self->session == NULL)
    {
      rebuild_buttons (self);
      return;
    }
  guess_language (self);
  characters = preset_for (decipher_character_row_get_language (self));
  preset = g_strsplit (characters != NULL ? characters : common_marks, " ", -1);
  for (guint i = 0; preset[i] != NULL; i++)
    add_character (self, seen, preset[i]);
  counts = count_values (self);
  for (guint i = 0; i < counts->len && self->characters->len < MAX_DOCUMENT_CHARACTERS; i++)
    add_character (self, seen, g_array_index (counts, Count, i).value);
  rebuild_buttons (self);
}

static gboolean
refresh_cb (gpointer data)
{
  DecipherCharacterRow *self = data;

  self->refresh_source = 0;
  decipher_character_row_refresh (self);
  return G_SOURCE_REMOVE;
}

/* Counted again once the main loop is idle: a typed word changes many symbols at once. */
static void
key_changed_cb (DecipherCharacterRow *self)
{
  if (self->refresh_source == 0)
    self->refresh_source = g_idle_add_full (G_PRIORITY_LOW, refresh_cb, self, NULL);
}

/* The drop-down: "Guessed: Russian" first, then every preset by name. */
static void
language_selected_cb (DecipherCharacterRow *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->language_dropdown));

  g_clear_pointer (&self->language, g_free);
  if (selected > 0 && selected <= G_N_ELEMENTS (presets))
    self->language = g_strdup (presets[selected - 1].tag);
  decipher_character_row_refresh (self);
}

/**
 * decipher_character_row_set_language:
 * @language: (nullable): a preset's BCP 47 tag ("niv"), or %NULL for the language the
 *   recovered text reads as
 */
void
decipher_character_row_set_language (DecipherCharacterRow *self, const char *language)
{
  guint selected = 0;

  g_return_if_fail (DECIPHER_IS_CHARACTER_ROW (self));

  for (guint i = 0; language != NULL && i < G_N_ELEMENTS (presets); i++)
    if (g_str_equal (presets[i].tag, language))
      selected = i + 1;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->language_dropdown), selected);
  language_selected_cb (self);
}

/* The language whose preset is offered: the one chosen, else the guess ("" if none). */
const char *
decipher_character_row_get_language (DecipherCharacterRow *self)
{
  g_return_val_if_fail (DECIPHER_IS_CHARACTER_ROW (self), NULL);

  return self->language != NULL ? self->language : self->guess.tag;
}

const char *
decipher_character_row_get_guessed_language (DecipherCharacterRow *self)
{
  g_return_val_if_fail (DECIPHER_IS_CHARACTER_ROW (self), NULL);

  return self->guess.tag;
}

void
decipher_character_row_set_entry (DecipherCharacterRow *self, GtkEditable *entry)
{
  g_return_if_fail (DECIPHER_IS_CHARACTER_ROW (self));

  self->entry = entry;
}

/**
 * decipher_character_row_set_session:
 * @session: (nullable): the document whose characters to offer
 *
 * A language chosen for the last document is forgotten: the next one is guessed.
 */
void
decipher_character_row_set_session (DecipherCharacterRow *self, DcSession *session)
{
  g_return_if_fail (DECIPHER_IS_CHARACTER_ROW (self));

  if (!g_set_object (&self->session, session))
    return;
  g_signal_group_set_target (self->key_signals,
                             session != NULL ? dc_session_get_key (session) : NULL);
  memset (&self->guess, 0, sizeof self->guess);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->language_dropdown), 0);
  g_clear_pointer (&self->language, g_free);
  decipher_character_row_refresh (self);
}

guint
decipher_character_row_get_n_characters (DecipherCharacterRow *self)
{
  g_return_val_if_fail (DECIPHER_IS_CHARACTER_ROW (self), 0);

  return self->characters->len;
}

const char *
decipher_character_row_get_character (DecipherCharacterRow *self, guint index)
{
  g_return_val_if_fail (DECIPHER_IS_CHARACTER_ROW (self), NULL);
  g_return_val_if_fail (index < self->characters->len, NULL);

  return g_ptr_array_index (self->characters, index);
}

GtkButton *
decipher_character_row_get_button (DecipherCharacterRow *self, guint index)
{
  GtkWidget *child = gtk_widget_get_first_child (self->buttons);

  g_return_val_if_fail (DECIPHER_IS_CHARACTER_ROW (self), NULL);

  for (guint i = 0; child != NULL && i < index; i++)
    child = gtk_widget_get_next_sibling (child);
  return child != NULL ? GTK_BUTTON (child) : NULL;
}

static void
decipher_character_row_dispose (GObject *object)
{
  DecipherCharacterRow *self = DECIPHER_CHARACTER_ROW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  if (self->key_signals != NULL)
    g_signal_group_set_target (self->key_signals, NULL);
  g_clear_object (&self->key_signals);
  g_clear_object (&self->session);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (decipher_character_row_parent_class)->dispose (object);
}

static void
decipher_character_row_finalize (GObject *object)
{
  DecipherCharacterRow *self = DECIPHER_CHARACTER_ROW (object);

  g_free (self->language);
  g_ptr_array_unref (self->characters);

  G_OBJECT_CLASS (decipher_character_row_parent_class)->finalize (object);
}

static void
decipher_character_row_class_init (DecipherCharacterRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_character_row_dispose;
  object_class->finalize = decipher_character_row_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "characterrow");
}

static void
decipher_character_row_init (DecipherCharacterRow *self)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  GtkWidget *scroller;

  self->characters = g_ptr_array_new_with_free_func (g_free);
  self->key_signals = g_signal_group_new (DC_TYPE_KEY);
  g_signal_group_connect_swapped (self->key_signals, "changed", G_CALLBACK (key_changed_cb), self);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                              6);

  /* Translators: the first choice of the character row's language: the language the
   * recovered text reads as. */
  gtk_string_list_append (names, _("Guessed Language"));
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    gtk_string_list_append (names, _(presets[i].name));
  self->language_dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&names)), NULL);
  gtk_widget_set_valign (self->language_dropdown, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->language_dropdown,
                               _("Whose extra letters to offer: the language the recovered text "
                                 "reads as, or the one chosen"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->language_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Language of the letters"), -1);
  g_signal_connect_swapped (self->language_dropdown, "notify::selected",
                            G_CALLBACK (language_selected_cb), self);
  gtk_widget_set_parent (self->language_dropdown, GTK_WIDGET (self));

  self->buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->buttons);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->buttons), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Characters of the document"), -1);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
