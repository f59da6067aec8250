/* test-occurrence-split.c: occurrences of one symbol given a value of their own, in the strip
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "decipher-application.h"
#include "decipher-document-view-private.h"
#include "decipher-occurrence-split.h"
#include "decipher-occurrence-strip.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

#define CYRILLIC_A "\xD0\xB0" /* а */

/* The strip's list of occurrences: not the one of a drop-down in a popover. */
static GtkWidget *
find_list (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = GTK_IS_POPOVER (child) ? NULL : find_list (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The rows of the strip's list, in the order they are shown. */
static GPtrArray *
list_rows (DecipherOccurrenceStrip *strip)
{
  GtkWidget *list = find_list (GTK_WIDGET (strip));
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_first_child (child) != NULL && gtk_widget_get_mapped (child))
      g_ptr_array_add (rows, child);
  return rows;
}

/* The first row's cut once it is laid out at a size a click can land in; NULL before
 * (a row bound again after a split shows an empty picture until its cut comes). */
static GtkWidget *
first_picture_shown (DecipherOccurrenceStrip *strip)
{
  g_autoptr (GPtrArray) rows = list_rows (strip);
  GtkWidget *picture;

  if (rows->len == 0)
    return NULL;
  picture = gui_test_find_descendant (g_ptr_array_index (rows, 0), GTK_TYPE_PICTURE);
  return picture != NULL && gtk_widget_get_width (picture) > 40
                 && gtk_widget_get_height (picture) > 20
             ? picture
             : NULL;
}

static guint
count_rows (DecipherOccurrenceStrip *strip)
{
  g_autoptr (GPtrArray) rows = list_rows (strip);

  return rows->len;
}

/* The value label a row shows beside its cut. */
static GtkLabel *
row_letter (GtkWidget *row)
{
  return GTK_LABEL (gtk_widget_get_first_child (gtk_widget_get_first_child (row)));
}

static guint
count_selected (DecipherOccurrenceStrip *strip)
{
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (
      GTK_SELECTION_MODEL (decipher_occurrence_strip_get_model (strip)));

  return (guint) gtk_bitset_get_size (selected);
}

/* The Latin a and Cyrillic а of @text's first line, in order: only code 89 is decoded, so
 * they are its occurrences, as they read. */
static char *
a_letters (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0' && *p != '\n' && *p != '\f'; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) == 'a' || g_utf8_get_char (p) == 0x430)
      g_string_append_unichar (out, g_utf8_get_char (p));
  return g_string_free (out, FALSE);
}

/* The window's document printed to a PDF, as pdftotext reads it back. */
static char *
print_to_text (DecipherWindow *window)
{
  g_autofree char *dir = g_dir_make_tmp ("decipher-split-print-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "printed.pdf", NULL);
  const char *argv[] = { "pdftotext", "-enc", "UTF-8", pdf, "-", NULL };
  g_autoptr (GtkPrintOperation) operation = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  int status;

  operation = _decipher_window_print (window, GTK_PRINT_OPERATION_ACTION_EXPORT, pdf);
  g_assert_nonnull (operation);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_unlink (pdf);
  g_rmdir (dir);
  return g_steal_pointer (&text);
}

static gboolean
entry_focused (GtkWidget *entry)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (entry));

  return focus != NULL && (focus == entry || gtk_widget_is_ancestor (focus, entry));
}

static gboolean
is_split (gpointer data)
{
  gpointer *args = data;

  return dc_key_get_split (args[0], GPOINTER_TO_UINT (args[1]), NULL) != NULL;
}

/* ascii-legacy draws every Cyrillic а with code 89. Say a home-made font drew Latin a
 * with it too: the user selects two of its occurrences in the strip with the pointer and
 * the keyboard, presses Split…, types a, and those two read a — in their rows, in the
 * document view's text and in the export — while the others keep а. Ctrl+Z takes it back,
 * in the strip's window or the document's. */
static void
test_split (void)
{
  g_autoptr (DecipherApplication) application = decipher_application_new ();
  g_autoptr (GError) error = NULL;
  DecipherWindow *window;
  DecipherSession *session;
  DcDocument *document;
  DcKey *key;
  g_autofree char *autosave = NULL;
  DecipherDocumentView *view;
  DecipherPageRenderer *renderer;
  const DcLine *line;
  const guint32 *order;
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *text = NULL;
  g_autofree char *selected = NULL;
  g_autofree char *undone = NULL;
  g_autofree char *letters = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *count = NULL;
  const char *body;
  DecipherOccurrenceStrip *strip;
  GtkWidget *split, *strip_window, *picture;
  GtkPopover *popover;
  GtkButton *unsplit;
  const DcGlyph *all;
  guint glyphs[4], n_all;
  guint symbol, n = 0, first, third, n_occurrences;
  gpointer args[2];

  /* In an application, which gives the document's window its shortcuts (Ctrl+Z). */
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  window = gui_test_open_window ("ascii-legacy.pdf", GTK_APPLICATION (application), 1200, 800);
  session = decipher_window_get_session (window);
  document = decipher_session_get_document (session);
  key = decipher_session_get_key (session);
  autosave = g_strdup (decipher_session_get_autosave_path (session));
  view = _decipher_window_get_document_view (window);
  renderer = decipher_document_view_get_renderer (view);
  line = &dc_document_get_lines (document, NULL)[0];
  order = dc_document_get_reading_order (document, NULL);

  g_assert_true (dc_document_lookup_symbol (document, 0, 89, &symbol));
  g_assert_true (
      dc_session_assign (decipher_session_get_engine (session), symbol, CYRILLIC_A, NULL));
  /* The strip lists them in the document's order. */
  all = dc_document_get_glyphs (document, &n_all);
  for (guint g = 0; g < n_all && n < G_N_ELEMENTS (glyphs); g++)
    if (all[g].symbol == symbol)
      glyphs[n++] = g;
  g_assert_cmpuint (n, >, 3);
  first = glyphs[0];
  third = glyphs[2];

  decipher_view_state_set_selected_symbol (window->view_state, symbol);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-occurrences", NULL));
  strip = decipher_occurrence_strip_present (GTK_WINDOW (window),
                                             decipher_session_get_engine (session),
                                             window->view_state, renderer);
  strip_window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (strip)));
  gui_test_focus_window (GTK_WINDOW (strip_window));
  gui_test_settle ();
  split = decipher_occurrence_strip_get_split (strip);
  g_assert_false (gtk_widget_is_sensitive (gtk_widget_get_first_child (split)));

  /* A click on the first occurrence selects it; Ctrl+Down twice and Ctrl+Space add the
   * third, as GTK's lists do. */
  GUI_TEST_WAIT_FOR (count_rows (strip) >= 3, "the first occurrences to be shown");
  rows = list_rows (strip);
  GUI_TEST_WAIT_FOR ((picture = first_picture_shown (strip)) != NULL,
                     "the first occurrence's cut to be laid out");
  gui_test_pointer_move (picture, 20, 10);
  gui_test_pointer_button (picture, 1, TRUE);
  gui_test_pointer_button (picture, 1, FALSE);
  GUI_TEST_WAIT_FOR (count_selected (strip) == 1, "the first occurrence to be selected");
  gui_test_key (GTK_WINDOW (strip_window), "<Control>Down");
  gui_test_key (GTK_WINDOW (strip_window), "<Control>Down");
  gui_test_key (GTK_WINDOW (strip_window), "<Control>space");
  GUI_TEST_WAIT_FOR (count_selected (strip) == 2, "the third occurrence to join the selection");
  g_assert_true (gtk_selection_model_is_selected (GTK_SELECTION_MODEL (
                                                      decipher_occurrence_strip_get_model (strip)),
                                                  0));
  g_assert_true (gtk_selection_model_is_selected (GTK_SELECTION_MODEL (
                                                      decipher_occurrence_strip_get_model (strip)),
                                                  2));
  g_assert_true (gtk_widget_is_sensitive (gtk_widget_get_first_child (split)));

  /* Split…, a, Return. */
  gtk_menu_button_popup (GTK_MENU_BUTTON (gtk_widget_get_first_child (split)));
  popover = decipher_occurrence_split_get_popover (DECIPHER_OCCURRENCE_SPLIT (split));
  GUI_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (popover)), "the Split popover to open");
  GUI_TEST_WAIT (entry_focused,
                 decipher_occurrence_split_get_entry (DECIPHER_OCCURRENCE_SPLIT (split)),
                 "the entry to take the focus");
  gui_test_screenshot ("occurrence-split-popover");
  gui_test_type (GTK_WINDOW (strip_window), "a");
  GUI_TEST_WAIT_FOR (g_strcmp0 (gtk_editable_get_text (decipher_occurrence_split_get_entry (
                                    DECIPHER_OCCURRENCE_SPLIT (split))),
                                "a")
                         == 0,
                     "the letter to be typed");
  gui_test_key (GTK_WINDOW (strip_window), "Return");
  args[0] = key;
  args[1] = GUINT_TO_POINTER (first);
  GUI_TEST_WAIT (is_split, args, "the occurrences to be split off");

  g_assert_cmpstr (dc_key_get_split (key, first, NULL), ==, "a");
  g_assert_cmpstr (dc_key_get_split (key, third, NULL), ==, "a");
  g_assert_null (dc_key_get_split (key, glyphs[1], NULL));
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, CYRILLIC_A);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
  /* The header's count says how many read otherwise. */
  n_occurrences = g_list_model_get_n_items (decipher_occurrence_strip_get_model (strip));
  count = g_strdup_printf ("%u occurrences · 2 split off", n_occurrences);
  g_assert_cmpstr (decipher_occurrence_strip_get_count_text (strip), ==, count);
  /* The same occurrences stay chosen, and the focus is back on Split…, not on a button a
   * stray Space would press. */
  g_assert_cmpuint (count_selected (strip), ==, 2);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (strip_window)), split));

  /* Their rows show a, marked; the others still the symbol's а. */
  gui_test_settle ();
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = list_rows (strip);
  g_assert_cmpstr (gtk_label_get_label (row_letter (g_ptr_array_index (rows, 0))), ==, "a");
  g_assert_true (
      gtk_widget_has_css_class (GTK_WIDGET (row_letter (g_ptr_array_index (rows, 0))), "accent"));
  g_assert_cmpstr (gtk_label_get_label (row_letter (g_ptr_array_index (rows, 1))), ==, CYRILLIC_A);
  g_assert_cmpstr (gtk_label_get_label (row_letter (g_ptr_array_index (rows, 2))), ==, "a");
  gui_test_screenshot ("occurrence-split-rows");

  /* The document view's text of the first line, as copied, and the export: Ӈ[a]рк[а] мя
   * т[a]рем … */
  g_assert_true (decipher_document_view_select_glyphs (view, order[line->first_glyph],
                                                       order[line->first_glyph + 12]));
  selected = decipher_document_view_dup_selected_text (view);
  letters = a_letters (selected);
  g_assert_cmpstr (letters, ==, "a" CYRILLIC_A "a");
  g_clear_pointer (&letters, g_free);
  text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  letters = a_letters (text);
  g_assert_true (g_str_has_prefix (letters, "a" CYRILLIC_A "a" CYRILLIC_A));
  g_assert_null (strstr (letters + strlen ("a" CYRILLIC_A "a"), "a"));
  g_clear_pointer (&letters, g_free);

  /* The first alone, chosen again: the popover offers its value to correct, and Read as
   * Symbol joins it to its symbol again; the third stays split. */
  GUI_TEST_WAIT_FOR ((picture = first_picture_shown (strip)) != NULL,
                     "the first occurrence's cut to be laid out");
  /* Not where the first click was: within GTK's double-click time and distance of it, this
   * click would be the second of a double click, which activates the row instead of
   * choosing it. */
  gui_test_pointer_move (picture, gtk_widget_get_width (picture) - 10,
                         MAX (10, gtk_widget_get_height (picture) - 10));
  gui_test_pointer_button (picture, 1, TRUE);
  gui_test_pointer_button (picture, 1, FALSE);
  GUI_TEST_WAIT_FOR (count_selected (strip) == 1, "the first occurrence to be chosen again");
  gtk_menu_button_popup (GTK_MENU_BUTTON (gtk_widget_get_first_child (split)));
  GUI_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (popover)), "the popover to open again");
  g_assert_cmpstr (gtk_editable_get_text (
                       decipher_occurrence_split_get_entry (DECIPHER_OCCURRENCE_SPLIT (split))),
                   ==, "a");
  unsplit = gui_test_find_button (GTK_WIDGET (popover), "Read as _Symbol");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (unsplit)));
  g_signal_emit_by_name (unsplit, "clicked");
  GUI_TEST_WAIT_FOR (dc_key_get_split (key, first, NULL) == NULL,
                     "the first to read as its symbol");
  g_assert_cmpstr (dc_key_get_split (key, third, NULL), ==, "a");
  g_clear_pointer (&count, g_free);
  count = g_strdup_printf ("%u occurrences · 1 split off", n_occurrences);
  g_assert_cmpstr (decipher_occurrence_strip_get_count_text (strip), ==, count);
  /* Ctrl+Z brings the split back. */
  gui_test_key (GTK_WINDOW (strip_window), "<Control>z");
  GUI_TEST_WAIT (is_split, args, "the join to be undone");

  /* Ctrl+Z where the split was made undoes it, and only it. */
  gui_test_key (GTK_WINDOW (strip_window), "<Control>z");
  GUI_TEST_WAIT_FOR (dc_key_get_split (key, first, NULL) == NULL, "the split to be undone");
  g_assert_null (dc_key_get_split (key, third, NULL));
  g_clear_pointer (&count, g_free);
  count = g_strdup_printf ("%u occurrences", n_occurrences);
  g_assert_cmpstr (decipher_occurrence_strip_get_count_text (strip), ==, count);
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, CYRILLIC_A);
  undone = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  letters = a_letters (undone);
  g_assert_true (g_str_has_prefix (letters, CYRILLIC_A CYRILLIC_A CYRILLIC_A CYRILLIC_A));
  g_assert_null (strstr (letters, "a"));
  gui_test_settle ();
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = list_rows (strip);
  g_assert_cmpstr (gtk_label_get_label (row_letter (g_ptr_array_index (rows, 0))), ==, CYRILLIC_A);
  g_assert_false (
      gtk_widget_has_css_class (GTK_WIDGET (row_letter (g_ptr_array_index (rows, 0))), "accent"));

  /* Shift+Ctrl+Z there redoes it; printed, the page reads the split too. Ctrl+Z in the
   * document's window undoes it again. */
  gui_test_key (GTK_WINDOW (strip_window), "<Shift><Control>z");
  GUI_TEST_WAIT (is_split, args, "the split to be redone");
  g_assert_cmpstr (dc_key_get_split (key, third, NULL), ==, "a");
  printed = print_to_text (window);
  /* Past the header, which names the document. */
  body = strstr (printed, "Page 1 of 1");
  g_assert_nonnull (body);
  for (body += strlen ("Page 1 of 1"); *body == '\n';)
    body++;
  letters = a_letters (body);
  g_assert_true (g_str_has_prefix (letters, "a" CYRILLIC_A "a" CYRILLIC_A));
  g_clear_pointer (&letters, g_free);
  gui_test_focus_window (GTK_WINDOW (window));
  gtk_widget_grab_focus (GTK_WIDGET (view));
  gui_test_key (GTK_WINDOW (window), "<Control>z");
  GUI_TEST_WAIT_FOR (dc_key_get_split (key, first, NULL) == NULL, "the split to be undone again");
  g_assert_null (dc_key_get_split (key, third, NULL));

  decipher_occurrence_strip_close_for (GTK_WINDOW (window));
  gui_test_close_window (window);
  g_unlink (autosave);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);
  /* Two toplevels under Xvfb with no window manager: GTK 4.8's text widget in the window
   * that lost the X focus keeps its blink timer and warns that it "did not receive a
   * focus-out event", which the tests make fatal. The blink is not what is tested. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  g_test_add_func ("/occurrence-split/split", test_split);

  return g_test_run ();
}
