/* test-character-picker.c: search by name and code point, pick, build base + mark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "decipher-character-picker.h"
#include "gui-test-util.h"

typedef struct
{
  GtkWindow *window;
  GtkEditable *entry;
  DecipherCharacterPicker *picker;
} Fixture;

static void
fixture_open (Fixture *f)
{
  f->window = GTK_WINDOW (gtk_window_new ());
  f->entry = GTK_EDITABLE (gtk_entry_new ());
  gtk_window_set_child (f->window, GTK_WIDGET (f->entry));
  gtk_window_present (f->window);
  f->picker = g_object_ref (decipher_character_picker_new (f->window, f->entry));
  gtk_window_present (GTK_WINDOW (f->picker));
  GUI_TEST_WAIT (decipher_character_picker_wait_names, f->picker, "the character names");
}

static void
fixture_close (Fixture *f)
{
  gui_test_pointer_away (GTK_WINDOW (f->picker));
  gtk_window_destroy (GTK_WINDOW (f->picker));
  gui_test_settle ();
  /* Before its parent: GTK 4.8 lets go of the parent only when the picker finalizes. */
  g_assert_finalize_object (f->picker);
  gtk_window_destroy (f->window);
  gui_test_settle ();
}

static guint
n_results (Fixture *f)
{
  guint n = 0;

  for (GtkWidget *w = gtk_widget_get_first_child (
           GTK_WIDGET (decipher_character_picker_get_results (f->picker)));
       w != NULL; w = gtk_widget_get_next_sibling (w))
    n++;
  return n;
}

static GtkButton *
result (Fixture *f, guint index)
{
  GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index (decipher_character_picker_get_results (
                                                                f->picker),
                                                            (int) index);

  g_assert_nonnull (child);
  return GTK_BUTTON (gtk_flow_box_child_get_child (child));
}

static gunichar
result_char (Fixture *f, guint index)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result (f, index)), "char"));
}

static GtkLabel *
label_reading (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text))
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = label_reading (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_search_by_name (void)
{
  Fixture f;

  fixture_open (&f);
  decipher_character_picker_search (f.picker, "cyrillic capital letter en with descender");
  g_assert_cmpuint (n_results (&f), ==, 1);
  g_assert_cmpuint (result_char (&f, 0), ==, 0x04A2);
  /* Any case, any order of the words. */
  decipher_character_picker_search (f.picker, "Descender EN cyrillic capital");
  g_assert_cmpuint (result_char (&f, 0), ==, 0x04A2);
  /* Issue 31.4: the cell shows the character large, and its name under it. */
  {
    GtkLabel *glyph = label_reading (GTK_WIDGET (result (&f, 0)), "Ң");
    GtkLabel *name = label_reading (GTK_WIDGET (result (&f, 0)),
                                    "CYRILLIC CAPITAL LETTER EN WITH DESCENDER");
    int glyph_height, name_height;

    g_assert_nonnull (glyph);
    g_assert_nonnull (name);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (name)));
    gtk_widget_measure (GTK_WIDGET (glyph), GTK_ORIENTATION_VERTICAL, -1, NULL, &glyph_height, NULL,
                        NULL);
    gtk_widget_measure (GTK_WIDGET (name), GTK_ORIENTATION_VERTICAL, 80, NULL, &name_height, NULL,
                        NULL);
    g_test_message ("glyph %d px high, name %d px", glyph_height, name_height);
    g_assert_cmpint (glyph_height, >=, 30);
  }
  gui_test_screenshot ("character-picker-search");

  g_signal_emit_by_name (result (&f, 0), "clicked");
  g_assert_cmpstr (decipher_character_picker_get_value (f.picker), ==, "Ң");
  gtk_editable_set_text (f.entry, "x");
  gtk_editable_set_position (f.entry, -1);
  decipher_character_picker_insert (f.picker);
  g_assert_cmpstr (gtk_editable_get_text (f.entry), ==, "xҢ");
  fixture_close (&f);
}

static gboolean
entry_says (gpointer data)
{
  gpointer *args = data;

  return g_str_equal (gtk_editable_get_text (args[0]), args[1]);
}

/* Issue 16.4: after Insert the entry has the caret after the inserted letter and nothing
 * selected, so the next key goes on with the word instead of replacing it. Typed on
 * the real keyboard. */
static void
test_insert_keeps_word (void)
{
  Fixture f;
  gpointer after[] = { NULL, (gpointer) "wordҢs" };
  int start, end;

  fixture_open (&f);
  after[0] = f.entry;
  /* Typed before the picker opened (it is modal: the keyboard goes to it now). */
  gtk_editable_set_text (f.entry, "word");
  gtk_editable_set_position (f.entry, -1);

  decipher_character_picker_search (f.picker, "cyrillic capital letter en with descender");
  g_signal_emit_by_name (result (&f, 0), "clicked");
  decipher_character_picker_insert (f.picker);
  g_assert_cmpstr (gtk_editable_get_text (f.entry), ==, "wordҢ");
  g_assert_false (gtk_editable_get_selection_bounds (f.entry, &start, &end));
  g_assert_cmpint (gtk_editable_get_position (f.entry), ==, 5);

  /* The picker has closed; the window it came from has the keyboard again. */
  gui_test_focus_window (f.window);
  gui_test_type (f.window, "s");
  GUI_TEST_WAIT (entry_says, after, "the next letter after the inserted one");
  fixture_close (&f);
}

static void
test_code_point_and_script (void)
{
  Fixture f;

  fixture_open (&f);
  decipher_character_picker_search (f.picker, "U+04A2");
  g_assert_cmpuint (result_char (&f, 0), ==, 0x04A2);
  decipher_character_picker_search (f.picker, "04a2");
  g_assert_cmpuint (result_char (&f, 0), ==, 0x04A2);
  /* An empty search browses the chosen script: the first is combining marks. */
  decipher_character_picker_search (f.picker, "");
  g_assert_cmpuint (n_results (&f), >, 10);
  for (guint i = 0; i < 10; i++)
    g_assert_true (g_unichar_ismark (result_char (&f, i)));
  /* Marks are shown on a dotted circle. */
  /* The cell's first label is the character, its name under it. */
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (
                                       gui_test_find_descendant (GTK_WIDGET (result (&f, 0)),
                                                                 GTK_TYPE_LABEL))),
                                   "\u25CC"));
  gui_test_screenshot ("character-picker-marks");
  fixture_close (&f);
}

/* A letter Unicode has only as base + mark: pick the base, then the mark. */
static void
test_compose (void)
{
  Fixture f;
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_auto (GStrv) recent = NULL;

  fixture_open (&f);
  decipher_character_picker_search (f.picker, "latin small letter n");
  decipher_character_picker_pick (f.picker, 'n');
  decipher_character_picker_search (f.picker, "combining macron below");
  g_assert_cmpuint (result_char (&f, 0), ==, 0x0331);
  g_signal_emit_by_name (result (&f, 0), "clicked");
  g_assert_cmpstr (decipher_character_picker_get_value (f.picker), ==, "n\u0331");
  gui_test_screenshot ("character-picker-compose");
  /* A new letter starts a new value. */
  decipher_character_picker_pick (f.picker, 'm');
  decipher_character_picker_pick (f.picker, 0x0331);
  decipher_character_picker_pick (f.picker, 0x0301);
  g_assert_cmpstr (decipher_character_picker_get_value (f.picker), ==, "m\u0331\u0301");
  decipher_character_picker_insert (f.picker);
  g_assert_cmpstr (gtk_editable_get_text (f.entry), ==, "m\u0331\u0301");

  /* It is remembered, first among the recent ones. */
  recent = g_settings_get_strv (settings, "recent-characters");
  g_assert_cmpstr (recent[0], ==, "m\u0331\u0301");
  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/character-picker/search-by-name", test_search_by_name);
  g_test_add_func ("/character-picker/code-point-and-script", test_code_point_and_script);
  g_test_add_func ("/character-picker/compose", test_compose);

  g_test_add_func ("/character-picker/insert-keeps-word", test_insert_keeps_word);
  return g_test_run ();
}
