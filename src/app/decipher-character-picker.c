/* decipher-character-picker.c: find a character one cannot type, by name or by script
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GLib knows the properties of every character but not its name. The names come from
 * the Unicode Character Database the system has (Debian's unicode-data package:
 * /usr/share/unicode/UnicodeData.txt), read once, in a worker, for the whole process.
 * Without it the picker still finds characters by code point ("U+04A2", "04A2") or the
 * character itself, and browses scripts through g_unichar_get_script().
 *
 * A value may be more than one character: a letter that exists only as a base and a
 * combining mark. Picking a letter starts a value; picking a mark puts it on the value.
 * Marks are shown on a dotted circle, as character tables print them.
 */

#define G_LOG_DOMAIN "decipher-character-picker"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-character-picker.h"

#define MAX_RESULTS 240
#define MAX_RECENT 16
#define DOTTED_CIRCLE 0x25CC

static const char *const unicode_data_paths[] = {
  "/usr/share/unicode/UnicodeData.txt",
  "/usr/share/unicode-data/UnicodeData.txt",
  "/app/share/unicode/UnicodeData.txt",
};

/* ---- the names, shared by every picker ---------------------------------------------- */

typedef struct
{
  gunichar c;
  const char *name; /* in names_text */
} NameEntry;

typedef struct
{
  GArray *entries;
  char *text;
} NameTable;

static GArray *names; /* of NameEntry, sorted by code point; NULL until loaded */

static void
name_table_free (NameTable *table)
{
  g_array_unref (table->entries);
  g_free (table->text);
  g_free (table);
}
static gboolean names_loading;

static void
load_names_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_autofree char *text = NULL;
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (NameEntry));
  NameTable *table;

  for (guint i = 0; i < G_N_ELEMENTS (unicode_data_paths) && text == NULL; i++)
    if (!g_file_get_contents (unicode_data_paths[i], &text, NULL, NULL))
      text = NULL;
  /* Lines are "04A2;CYRILLIC CAPITAL LETTER EN WITH DESCENDER;Lu;…": the name is cut
   * out in place. Ranges ("<CJK Ideograph, First>") and controls have no name to find. */
  for (char *line = text; line != NULL && *line != '\0';)
    {
      char *end = strchr (line, '\n');
      char *semi = strchr (line, ';');
      char *name_end = semi != NULL ? strchr (semi + 1, ';') : NULL;

      if (end != NULL)
        *end = '\0';
      if (semi != NULL && name_end != NULL && semi[1] != '<')
        {
          NameEntry entry = { (gunichar) g_ascii_strtoull (line, NULL, 16), semi + 1 };

          *name_end = '\0';
          g_array_append_val (entries, entry);
        }
      line = end != NULL ? end + 1 : NULL;
    }
  /* The names point into the text: both go to the main thread, which keeps them. */
  table = g_new0 (NameTable, 1);
  table->entries = entries;
  table->text = g_steal_pointer (&text);
  g_task_return_pointer (task, table, (GDestroyNotify) name_table_free);
}

/* ---- the picker --------------------------------------------------------------------- */

struct _DecipherCharacterPicker
{
  AdwWindow parent_instance;

  GtkEditable *target;
  GSettings *settings;
  GString *value;

  GtkSearchEntry *search_entry;
  GtkDropDown *script_dropdown;
  GtkWidget *recent_box;
  GtkBox *recent_row;
  GtkFlowBox *results;
  GtkLabel *status_label;
  GtkLabel *value_label;
  GtkLabel *value_name;
  GtkButton *clear_button;
  GtkButton *insert_button;
};

G_DEFINE_FINAL_TYPE (DecipherCharacterPicker, decipher_character_picker, ADW_TYPE_WINDOW)

/* The scripts field linguists meet most; "Combining marks" lists the marks of all. */
static const struct
{
  const char *name;
  GUnicodeScript script;
} scripts[] = {
  { N_ ("Combining Marks"), G_UNICODE_SCRIPT_INHERITED },
  { N_ ("Latin"), G_UNICODE_SCRIPT_LATIN },
  { N_ ("Cyrillic"), G_UNICODE_SCRIPT_CYRILLIC },
  { N_ ("Greek"), G_UNICODE_SCRIPT_GREEK },
  { N_ ("Armenian"), G_UNICODE_SCRIPT_ARMENIAN },
  { N_ ("Georgian"), G_UNICODE_SCRIPT_GEORGIAN },
  { N_ ("Arabic"), G_UNICODE_SCRIPT_ARABIC },
  { N_ ("Hebrew"), G_UNICODE_SCRIPT_HEBREW },
  { N_ ("Syriac"), G_UNICODE_SCRIPT_SYRIAC },
  { N_ ("Thaana"), G_UNICODE_SCRIPT_THAANA },
  { N_ ("Devanagari"), G_UNICODE_SCRIPT_DEVANAGARI },
  { N_ ("Bengali"), G_UNICODE_SCRIPT_BENGALI },
  { N_ ("Gurmukhi"), G_UNICODE_SCRIPT_GURMUKHI },
  { N_ ("Gujarati"), G_UNICODE_SCRIPT_GUJARATI },
  { N_ ("Oriya"), G_UNICODE_SCRIPT_ORIYA },
  { N_ ("Tamil"), G_UNICODE_SCRIPT_TAMIL },
  { N_ ("Telugu"), G_UNICODE_SCRIPT_TELUGU },
  { N_ ("Kannada"), G_UNICODE_SCRIPT_KANNADA },
  { N_ ("Malayalam"), G_UNICODE_SCRIPT_MALAYALAM },
  { N_ ("Sinhala"), G_UNICODE_SCRIPT_SINHALA },
  { N_ ("Thai"), G_UNICODE_SCRIPT_THAI },
  { N_ ("Lao"), G_UNICODE_SCRIPT_LAO },
  { N_ ("Tibetan"), G_UNICODE_SCRIPT_TIBETAN },
  { N_ ("Myanmar"), G_UNICODE_SCRIPT_MYANMAR },
  { N_ ("Khmer"), G_UNICODE_SCRIPT_KHMER },
  { N_ ("Mongolian"), G_UNICODE_SCRIPT_MONGOLIAN },
  { N_ ("Ethiopic"), G_UNICODE_SCRIPT_ETHIOPIC },
  { N_ ("Cherokee"), G_UNICODE_SCRIPT_CHEROKEE },
  { N_ ("Canadian Syllabics"), G_UNICODE_SCRIPT_CANADIAN_ABORIGINAL },
  { N_ ("Tifinagh"), G_UNICODE_SCRIPT_TIFINAGH },
  { N_ ("Vai"), G_UNICODE_SCRIPT_VAI },
  { N_ ("N’Ko"), G_UNICODE_SCRIPT_NKO },
};

static const char *
name_of (gunichar c)
{
  guint lo = 0, hi = names != NULL ? names->len : 0;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const NameEntry *e = &g_array_index (names, NameEntry, mid);

      if (e->c == c)
        return e->name;
      if (e->c < c)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

static gboolean
is_mark (gunichar c)
{
  return g_unichar_ismark (c);
}

/* How @c is shown in a cell: a combining mark on a dotted circle. */
static char *
display_text (gunichar c)
{
  char buf[16] = { 0 };
  int n = 0;

  if (is_mark (c))
    n += g_unichar_to_utf8 (DOTTED_CIRCLE, buf);
  g_unichar_to_utf8 (c, buf + n);
  return g_strdup (buf);
}

static char *
describe (gunichar c)
{
  const char *name = name_of (c);

  return name != NULL ? g_strdup_printf ("U+%04X %s", c, name) : g_strdup_printf ("U+%04X", c);
}

static void
update_value (DecipherCharacterPicker *self)
{
  g_autoptr (GString) names_shown = g_string_new (NULL);
  g_autofree char *shown = NULL;

  if (self->value->len > 0 && is_mark (g_utf8_get_char (self->value->str)))
    shown = g_strconcat ("\u25CC", self->value->str, NULL);
  else
    shown = g_strdup (self->value->str);
  gtk_label_set_text (self->value_label, shown);
  for (const char *p = self->value->str; *p != '\0'; p = g_utf8_next_char (p))
    {
      g_autofree char *d = describe (g_utf8_get_char (p));

      if (names_shown->len > 0)
        g_string_append (names_shown, " + ");
      g_string_append (names_shown, d);
    }
  gtk_label_set_text (self->value_name,
                      names_shown->len > 0
                          ? names_shown->str
                          : _("Pick a letter, then any combining marks to put on it."));
  gtk_widget_set_sensitive (GTK_WIDGET (self->insert_button), self->value->len > 0);
}

/**
 * decipher_character_picker_pick:
 *
 * A letter starts a new value; a combining mark goes on the value being built, so a
 * letter Unicode has only as base + mark is two picks.
 */
void
decipher_character_picker_pick (DecipherCharacterPicker *self, gunichar c)
{
  g_return_if_fail (DECIPHER_IS_CHARACTER_PICKER (self));

  if (!is_mark (c))
    g_string_truncate (self->value, 0);
  g_string_append_unichar (self->value, c);
  update_value (self);
}

const char *
decipher_character_picker_get_value (DecipherCharacterPicker *self)
{
  return self->value->str;
}

static void
cell_clicked_cb (GtkButton *button, DecipherCharacterPicker *self)
{
  decipher_character_picker_pick (self,
                                  GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "char")));
}

static GtkWidget *
char_button (DecipherCharacterPicker *self, gunichar c)
{
  g_autofree char *text = display_text (c);
  g_autofree char *tip = describe (c);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *glyph = gtk_label_new (text);
  GtkWidget *name = gtk_label_new (name_of (c));

  gtk_widget_add_css_class (button, "flat");
  /* Big enough to tell marks and look-alike letters apart (ӈ and ң, х and ӿ), with the
   * name under it: a linguist looks for "EN WITH HOOK", not a code point. */
  gtk_widget_add_css_class (glyph, "title-1");
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (name), 3);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_label_set_justify (GTK_LABEL (name), GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 12);
  gtk_widget_add_css_class (name, "caption");
  gtk_widget_add_css_class (name, "dim-label");
  gtk_widget_set_visible (name, name_of (c) != NULL);
  gtk_box_append (GTK_BOX (box), glyph);
  gtk_box_append (GTK_BOX (box), name);
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  gtk_widget_set_size_request (button, 104, 88);
  g_object_set_data (G_OBJECT (button), "char", GUINT_TO_POINTER (c));
  g_signal_connect_object (button, "clicked", G_CALLBACK (cell_clicked_cb), self, 0);
  return button;
}

static void
clear_results (DecipherCharacterPicker *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->results))) != NULL)
    gtk_flow_box_remove (self->results, child);
}

static void
add_result (DecipherCharacterPicker *self, gunichar c, guint *n)
{
  if (*n >= MAX_RESULTS)
    return;
  gtk_flow_box_append (self->results, char_button (self, c));
  (*n)++;
}

static void
show_count (DecipherCharacterPicker *self, guint n, gboolean more)
{
  g_autofree char *text = NULL;

  if (n == 0)
    text = g_strdup (names != NULL ? _("No character has that name.")
                                   : _("Character names are not installed: search by code point, "
                                       "such as U+04A2, or browse a script."));
  else if (more)
    /* Translators: more characters match than the picker shows. */
    text = g_strdup_printf (_("The first %u matches: add words to narrow them down."), n);
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL);
}

/* Whether a word of @name begins with @word: "en" finds LETTER EN, not DESCENDER. */
static gboolean
has_word_prefix (const char *name, const char *word)
{
  for (const char *p = name; (p = strstr (p, word)) != NULL; p++)
    if (p == name || p[-1] == ' ' || p[-1] == '-')
      return TRUE;
  return FALSE;
}

/* "U+04A2", "u+4a2", "04A2" (four or more hex digits), or a character itself. */
static gboolean
parse_code_point (const char *query, gunichar *c)
{
  const char *hex = query;
  char *end = NULL;
  guint64 value;

  if (g_ascii_strncasecmp (query, "U+", 2) == 0)
    hex = query + 2;
  else if (strlen (query) < 4)
    return FALSE;
  value = g_ascii_strtoull (hex, &end, 16);
  if (end == hex || *end != '\0' || value > 0x10FFFF || !g_unichar_validate ((gunichar) value))
    return FALSE;
  *c = (gunichar) value;
  return TRUE;
}

static void
browse_script (DecipherCharacterPicker *self, GUnicodeScript script)
{
  guint n = 0;
  gboolean more = FALSE;

  clear_results (self);
  /* The Basic Multilingual Plane holds the letters of every script listed. */
  for (gunichar c = 0x20; c < 0x10000 && !more; c++)
    {
      if (!g_unichar_isdefined (c) || g_unichar_get_script (c) != script)
        continue;
      if (script == G_UNICODE_SCRIPT_INHERITED && !is_mark (c))
        continue;
      if (n >= MAX_RESULTS)
        more = TRUE;
      else
        add_result (self, c, &n);
    }
  show_count (self, n, more);
}

/**
 * decipher_character_picker_search:
 * @query: words of a character's name, in any case, or a code point
 */
void
decipher_character_picker_search (DecipherCharacterPicker *self, const char *query)
{
  g_autofree char *upper = NULL;
  g_auto (GStrv) words = NULL;
  gunichar c;
  guint n = 0;
  gboolean more = FALSE;

  g_return_if_fail (DECIPHER_IS_CHARACTER_PICKER (self));

  /* Shown in the search entry too, as if typed (its delayed search-changed then finds
   * the same). */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), query) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), query);
  upper = g_utf8_strup (query, -1);
  g_strstrip (upper);
  if (*upper == '\0')
    {
      guint selected = gtk_drop_down_get_selected (self->script_dropdown);

      browse_script (self, scripts[selected < G_N_ELEMENTS (scripts) ? selected : 0].script);
      return;
    }
  clear_results (self);
  if (parse_code_point (upper, &c))
    add_result (self, c, &n);
  else if (g_utf8_strlen (query, -1) == 1)
    add_result (self, g_utf8_get_char (query), &n);
  words = g_strsplit (upper, " ", -1);
  for (guint i = 0; names != NULL && i < names->len && !more; i++)
    {
      const NameEntry *e = &g_array_index (names, NameEntry, i);
      gboolean all = TRUE;

      for (guint w = 0; words[w] != NULL && all; w++)
        all = *words[w] == '\0' || has_word_prefix (e->name, words[w]);
      if (!all)
        continue;
      if (n >= MAX_RESULTS)
        more = TRUE;
      else
        add_result (self, e->c, &n);
    }
  show_count (self, n, more);
}

static void
search_changed_cb (DecipherCharacterPicker *self)
{
  decipher_character_picker_search (self,
                                    gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
names_loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (DecipherCharacterPicker) self = data;

  NameTable *table = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Kept for the life of the process, as GLib keeps its own Unicode tables. */
  if (names == NULL)
    names = table->entries;
  else
    name_table_free (table);
  names_loading = FALSE;
  if (gtk_widget_get_realized (GTK_WIDGET (self)) || gtk_widget_get_visible (GTK_WIDGET (self)))
    search_changed_cb (self);
}

/* For the tests: whether the names are there (waiting for them to be read). */
gboolean
decipher_character_picker_wait_names (DecipherCharacterPicker *self)
{
  return names != NULL && !names_loading;
}

/* ---- recent ------------------------------------------------------------------------- */

static void
recent_clicked_cb (GtkButton *button, DecipherCharacterPicker *self)
{
  g_string_assign (self->value, g_object_get_data (G_OBJECT (button), "value"));
  update_value (self);
}

static void
update_recent (DecipherCharacterPicker *self)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-characters");
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_row))) != NULL)
    gtk_box_remove (self->recent_row, child);
  for (guint i = 0; recent[i] != NULL && i < MAX_RECENT; i++)
    {
      GtkWidget *button = gtk_button_new_with_label (recent[i]);

      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (gtk_button_get_child (GTK_BUTTON (button)), "title-3");
      g_object_set_data_full (G_OBJECT (button), "value", g_strdup (recent[i]), g_free);
      g_signal_connect_object (button, "clicked", G_CALLBACK (recent_clicked_cb), self, 0);
      gtk_box_append (self->recent_row, button);
    }
  gtk_widget_set_visible (self->recent_box, recent[0] != NULL);
}

static void
remember (DecipherCharacterPicker *self, const char *value)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-characters");
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) updated = NULL;
  guint n = 1;

  g_strv_builder_add (builder, value);
  for (guint i = 0; recent[i] != NULL && n < MAX_RECENT; i++)
    if (!g_str_equal (recent[i], value))
      {
        g_strv_builder_add (builder, recent[i]);
        n++;
      }
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-characters", (const char *const *) updated);
}

/* ---- object ------------------------------------------------------------------------- */

/* Puts the value into the entry the picker was opened from, at its cursor. */
void
decipher_character_picker_insert (DecipherCharacterPicker *self)
{
  int position;

  g_return_if_fail (DECIPHER_IS_CHARACTER_PICKER (self));

  if (self->value->len == 0)
    return;
  remember (self, self->value->str);
  if (self->target != NULL)
    {
      position = gtk_editable_get_position (self->target);
      gtk_editable_insert_text (self->target, self->value->str, -1, &position);
      /* Not gtk_widget_grab_focus(): an entry selects all its text when it takes the
       * focus, and the next key would replace the word being typed. */
      if (GTK_IS_ENTRY (self->target))
        gtk_entry_grab_focus_without_selecting (GTK_ENTRY (self->target));
      else if (GTK_IS_TEXT (self->target))
        gtk_text_grab_focus_without_selecting (GTK_TEXT (self->target));
      else
        gtk_widget_grab_focus (GTK_WIDGET (self->target));
      gtk_editable_select_region (self->target, position, position);
    }
  gtk_window_close (GTK_WINDOW (self));
}

static void
clear_clicked_cb (DecipherCharacterPicker *self)
{
  g_string_truncate (self->value, 0);
  update_value (self);
}

static void
decipher_character_picker_dispose (GObject *object)
{
  DecipherCharacterPicker *self = DECIPHER_CHARACTER_PICKER (object);

  g_clear_weak_pointer (&self->target);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_CHARACTER_PICKER);

  G_OBJECT_CLASS (decipher_character_picker_parent_class)->dispose (object);
}

static void
decipher_character_picker_finalize (GObject *object)
{
  DecipherCharacterPicker *self = DECIPHER_CHARACTER_PICKER (object);

  g_clear_object (&self->settings);
  g_string_free (self->value, TRUE);

  G_OBJECT_CLASS (decipher_character_picker_parent_class)->finalize (object);
}

static void
decipher_character_picker_class_init (DecipherCharacterPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_character_picker_dispose;
  object_class->finalize = decipher_character_picker_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-character-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, script_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, recent_box);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, recent_row);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, results);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, status_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, value_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, value_name);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, clear_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherCharacterPicker, insert_button);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
decipher_character_picker_init (DecipherCharacterPicker *self)
{
  g_autoptr (GtkStringList) script_names = gtk_string_list_new (NULL);

  self->value = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = g_settings_new (APP_ID);

  for (guint i = 0; i < G_N_ELEMENTS (scripts); i++)
    gtk_string_list_append (script_names, _(scripts[i].name));
  gtk_drop_down_set_model (self->script_dropdown, G_LIST_MODEL (script_names));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));

  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb),
                            self);
  g_signal_connect_swapped (self->script_dropdown, "notify::selected",
                            G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->clear_button, "clicked", G_CALLBACK (clear_clicked_cb), self);
  g_signal_connect_swapped (self->insert_button, "clicked",
                            G_CALLBACK (decipher_character_picker_insert), self);
  update_recent (self);
  update_value (self);
  search_changed_cb (self);

  if (names == NULL && !names_loading)
    {
      g_autoptr (GTask) task = g_task_new (NULL, NULL, names_loaded_cb, g_object_ref (self));

      names_loading = TRUE;
      g_task_run_in_thread (task, load_names_thread);
    }
}

/**
 * decipher_character_picker_new:
 * @target: where the value picked is inserted
 */
DecipherCharacterPicker *
decipher_character_picker_new (GtkWindow *parent, GtkEditable *target)
{
  DecipherCharacterPicker *self = g_object_new (DECIPHER_TYPE_CHARACTER_PICKER, "transient-for",
                                                parent, NULL);

  g_set_weak_pointer (&self->target, target);
  return self;
}

GtkFlowBox *
decipher_character_picker_get_results (DecipherCharacterPicker *self)
{
  return self->results;
}
