/* test-export.c: the window's exports of a repaired PDF and of the font map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "decipher-window-private.h"
#include "gui-test-util.h"

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static gboolean
file_exists (GFile *file)
{
  return g_file_query_exists (file, NULL);
}

static gboolean
error_shown (DecipherWindow *window)
{
  return _decipher_window_get_last_error (window) != NULL;
}

static AdwMessageDialog *
find_dialog (const char *heading_part)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window)
          && strstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)), heading_part))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static gboolean
dialog_shown (const char *heading_part)
{
  return find_dialog (heading_part) != NULL;
}

/* The most frequent symbol still to decode that is not a space: a letter of the body. */
static guint
frequent_unknown (DecipherSession *session)
{
  DcDocument *document = decipher_session_get_document (session);
  const DcSymbol *symbols;
  guint n, best = G_MAXUINT;

  symbols = dc_document_get_symbols (document, &n);
  for (guint s = 0; s < n; s++)
    if (dc_session_symbol_is_unknown (decipher_session_get_engine (session), s)
        && !(symbols[s].flags & DC_SYMBOL_PDF_SPACE)
        && g_strcmp0 (symbols[s].glyph_name, "space") != 0
        && (best == G_MAXUINT || symbols[s].n_glyphs > symbols[best].n_glyphs))
      best = s;
  g_assert_cmpuint (best, !=, G_MAXUINT);
  return best;
}

/* The map is there once it reads as one JSON object: a file that merely exists may be
 * half written. */
static gboolean
map_written (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  return json_parser_load_from_file (parser, path, NULL) && json_parser_get_root (parser) != NULL
         && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser));
}

static void
test_export_pdf_and_map (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autofree char *dir = g_dir_make_tmp ("decipher-gui-export-XXXXXX", NULL);
  g_autofree char *pdf_path = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *map_path = g_build_filename (dir, "map.json", NULL);
  g_autofree char *missing_path = g_build_filename (dir, "missing", "repaired.pdf", NULL);
  g_autoptr (GFile) pdf = g_file_new_for_path (pdf_path);
  g_autoptr (GFile) map = g_file_new_for_path (map_path);
  g_autoptr (GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr (DcDocument) repaired = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  DecipherWindow *window = decipher_window_new (NULL);
  DecipherSession *session;
  const DcSymbol *symbol;
  AdwMessageDialog *dialog;
  JsonArray *fonts, *entries;
  gboolean found_value = FALSE;
  guint s, found;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  session = decipher_window_get_session (window);
  g_assert_nonnull (session);

  s = frequent_unknown (session);
  symbol = dc_document_get_symbol (decipher_session_get_document (session), s);
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), s, "ж", &error));
  g_assert_no_error (error);

  /* The copy is written in a worker; the notes name what still reads wrong. */
  _decipher_window_export_pdf_to (window, pdf);
  GUI_TEST_WAIT (file_exists, pdf, "the repaired PDF");
  GUI_TEST_WAIT (dialog_shown, "Repaired PDF Exported", "the notes on the repaired PDF");
  dialog = find_dialog ("Repaired PDF Exported");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "not decoded yet"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (_decipher_window_get_last_error (window));

  repaired = dc_document_new_from_file (pdf_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dc_document_lookup_symbol (repaired, symbol->font, symbol->code, &found));
  g_assert_cmpstr (dc_document_get_symbol (repaired, found)->pdf_text, ==, "ж");

  _decipher_window_export_map_to (window, map);
  GUI_TEST_WAIT (map_written, map_path, "the font map, written whole");
  json_parser_load_from_file (parser, map_path, &error);
  g_assert_no_error (error);
  fonts = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "fonts");
  g_assert_cmpuint (json_array_get_length (fonts), ==, 1);
  entries = json_object_get_array_member (json_array_get_object_element (fonts, 0), "map");
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      if (json_object_get_int_member (entry, "code") == symbol->code)
        {
          g_assert_cmpstr (json_object_get_string_member (entry, "value"), ==, "ж");
          g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "confirmed");
          found_value = TRUE;
        }
    }
  g_assert_true (found_value);

  /* A folder that does not exist: one sentence, and no file. */
  _decipher_window_export_pdf_to (window, missing);
  GUI_TEST_WAIT (error_shown, window, "the error about the missing folder");
  g_assert_nonnull (strstr (_decipher_window_get_last_error (window),
                            "that folder does not exist"));
  g_assert_false (g_file_query_exists (missing, NULL));

  gui_test_pointer_away (GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (window));
  gui_test_settle ();
  g_unlink (pdf_path);
  g_unlink (map_path);
  g_rmdir (dir);
}


static GtkWidget *
find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_WIDGET (window);
    }
  return NULL;
}

static gboolean
file_chooser_shown (gpointer data)
{
  return find_file_chooser () != NULL;
}

static gboolean
chooser_has_folder (GtkFileChooser *chooser)
{
  g_autoptr (GFile) folder = gtk_file_chooser_get_current_folder (chooser);

  return folder != NULL;
}

static GtkButton *
open_folder_button (DecipherWindow *window)
{
  GtkWidget *content = gtk_window_get_child (GTK_WINDOW (window));

  return gui_test_find_button (content, "Open _Folder");
}

static gboolean
has_open_folder (DecipherWindow *window)
{
  return open_folder_button (window) != NULL;
}

/* Issue 31.10: the export dialog opened in the process's working directory. It opens
 * in the PDF's folder; the toast after an export offers to open the folder it went to. */
static void
test_export_folder (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autoptr (GFile) pdf_folder = g_file_get_parent (file);
  g_autofree char *dir = g_dir_make_tmp ("decipher-gui-export-XXXXXX", NULL);
  g_autofree char *map_path = g_build_filename (dir, "map.json", NULL);
  g_autoptr (GFile) map = g_file_new_for_path (map_path);
  g_autoptr (GFile) folder = NULL;
  g_autoptr (GFile) shown = NULL;
  g_autoptr (GVariant) target = NULL;
  g_autofree char *dir_uri = g_filename_to_uri (dir, NULL, NULL);
  DecipherWindow *window = decipher_window_new (NULL);
  GtkWidget *chooser;
  GtkButton *button;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  {
    g_autofree char *cwd = g_get_current_dir ();
    g_autoptr (GFile) working = g_file_new_for_path (cwd);

    g_assert_false (g_file_equal (pdf_folder, working));
  }

  folder = _decipher_window_export_folder (window);
  g_assert_nonnull (folder);
  g_assert_true (g_file_equal (folder, pdf_folder));

  /* The dialog itself, as Export Text… opens it. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL);
  GUI_TEST_WAIT (file_chooser_shown, NULL, "the export dialog");
  chooser = find_file_chooser ();
  GUI_TEST_WAIT (chooser_has_folder, chooser, "the export dialog's folder");
  shown = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser));
  g_assert_nonnull (shown);
  g_assert_true (g_file_equal (shown, pdf_folder));
  gui_test_screenshot ("export-dialog-folder");
  gtk_window_destroy (GTK_WINDOW (chooser));
  gui_test_settle ();

  _decipher_window_export_map_to (window, map);
  GUI_TEST_WAIT (has_open_folder, window, "Open Folder on the export's toast");
  button = open_folder_button (window);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-folder");
  target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));
  g_assert_nonnull (target);
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, dir_uri);

  g_assert_no_errno (g_remove (map_path));
  g_assert_no_errno (g_rmdir (dir));
  gui_test_pointer_away (GTK_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (window));
  gui_test_settle ();
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/export/pdf-and-map", test_export_pdf_and_map);
  g_test_add_func ("/export/folder", test_export_folder);

  return g_test_run ();
}
