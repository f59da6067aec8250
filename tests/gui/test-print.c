/* test-print.c: Print puts the recovered text on paper, page by page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 31.10 ("no print"). The window's print operation is run to a PDF file (GTK's
 * export action, the same operation Print… starts with its dialog) and read back with
 * pdftotext: each printed page is one PDF page's decoded text, under its header, the
 * same text the text export writes. Ctrl+P opens GTK's print dialog.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "decipher-application.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

static gboolean
count_emission (GSignalInvocationHint *hint, guint n_values, const GValue *values, gpointer data)
{
  (*(guint *) data)++;
  return TRUE;
}

/* Runs of white space as one space, none at the ends: a line the printer wrapped reads
 * as the line it was. With @loose, no space at all, no Thai vowel or tone mark and no
 * bidirectional embedding: poppler reads a Thai mark by where it was drawn, over its
 * letter, and puts it with a space around it or after the next letter, and it wraps
 * right-to-left runs in U+202B … U+202C. */
static char *
normalize (const char *text, gboolean loose)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        space = TRUE;
      else if (!loose
               || (g_unichar_type (c) != G_UNICODE_FORMAT
                   && (g_unichar_type (c) != G_UNICODE_NON_SPACING_MARK
                       || g_unichar_get_script (c) != G_UNICODE_SCRIPT_THAI)))
        {
          if (space && out->len > 0 && !loose)
            g_string_append_c (out, ' ');
          space = FALSE;
          g_string_append_unichar (out, c);
        }
    }
  return g_string_free (out, FALSE);
}

/* The window's document printed to a PDF, as pdftotext reads it. */
static char *
print_to_text (DecipherWindow *window, guint *n_paginate)
{
  g_autofree char *dir = g_dir_make_tmp ("decipher-print-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "printed.pdf", NULL);
  g_autoptr (GtkPrintOperation) operation = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "pdftotext", "-enc", "UTF-8", pdf, "-", NULL };
  char *text = NULL;
  int status;
  gpointer klass = g_type_class_ref (GTK_TYPE_PRINT_OPERATION);
  guint paginate = g_signal_lookup ("paginate", GTK_TYPE_PRINT_OPERATION), hook;

  *n_paginate = 0;
  hook = g_signal_add_emission_hook (paginate, 0, count_emission, n_paginate, NULL);
  /* GTK runs an export to its end before it returns (a main loop of its own meanwhile). */
  operation = _decipher_window_print (window, GTK_PRINT_OPERATION_ACTION_EXPORT, pdf);
  g_assert_nonnull (operation);
  g_signal_remove_emission_hook (paginate, hook);
  g_type_class_unref (klass);
  g_assert_null (_decipher_window_get_last_error (window));
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  /* Kept to look at beside the screenshots. */
  if (g_getenv ("GUI_TEST_SCREENSHOTS") != NULL)
    {
      g_autofree char *keep = g_strdup_printf ("%s/print-%s", g_getenv ("GUI_TEST_SCREENSHOTS"),
                                               decipher_session_dup_title (
                                                   decipher_window_get_session (window)));

      g_mkdir_with_parents (g_getenv ("GUI_TEST_SCREENSHOTS"), 0755);
      g_rename (pdf, keep);
    }
  g_unlink (pdf);
  g_rmdir (dir);
  return text;
}

/* Each printed page holds its PDF page's decoded text under "NAME — Page P of N", in
 * the order the text export writes it; without @spaces, as normalize() loosely reads. */
static void
check_print (const char *fixture, gboolean spaces)
{
  DecipherWindow *window = gui_test_open_window (fixture, NULL, 1200, 800);
  DecipherSession *session = decipher_window_get_session (window);
  DcDocument *document = decipher_session_get_document (session);
  guint n_pages = dc_document_get_n_pages (document);
  g_autofree char *title = decipher_session_dup_title (session);
  g_autofree char *export = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func,
                                                decipher_session_get_key (session));
  g_auto (GStrv) expected = g_strsplit (export, "\f", -1);
  g_autofree char *printed_text = NULL;
  g_auto (GStrv) printed = NULL;
  guint n_paginate;

  printed_text = print_to_text (window, &n_paginate);
  printed = g_strsplit (printed_text, "\f", -1);
  g_test_message ("%s: %u pages, \"paginate\" %u times", fixture, n_pages, n_paginate);
  /* pdftotext ends every page with a form feed. */
  g_assert_cmpuint (g_strv_length (printed), ==, n_pages + 1);
  g_assert_cmpuint (g_strv_length (expected), ==, n_pages);
  /* Laid out a few pages at a time, a main-loop turn each. */
  g_assert_cmpuint (n_paginate, >=, (n_pages + 7) / 8);
  for (guint p = 0; p < n_pages; p++)
    {
      g_autofree char *header = g_strdup_printf ("%s — Page %u of %u", title, p + 1, n_pages);
      const char *body = printed[p];
      g_autofree char *want = normalize (expected[p], !spaces);
      g_autofree char *got = NULL;

      while (*body == '\n')
        body++;
      g_assert_true (g_str_has_prefix (body, header));
      got = normalize (body + strlen (header), !spaces);
      if (p == 0)
        g_test_message ("page 1 printed: %s", got);
      g_assert_cmpstr (got, ==, want);
    }
  gui_test_close_window (window);
}

/* A clean PDF whose text is all known, three pages. */
static void
test_print_clean (void)
{
  check_print ("clean.pdf", TRUE);
}

/* A legacy font mostly still to decode: what is known prints, the rest as U+FFFD. */
static void
test_print_partly_decoded (void)
{
  check_print ("legacy-cyrillic.pdf", TRUE);
}

/* Twelve pages in columns and eleven scripts: reading order, and several rounds of
 * laying out. */
static void
test_print_many_pages (void)
{
  check_print ("reading.pdf", FALSE);
}

static GtkWindow *
find_print_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (g_str_equal (G_OBJECT_TYPE_NAME (toplevel), "GtkPrintUnixDialog")
          && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        return toplevel;
    }
  return NULL;
}

static gboolean
menu_has_action (GMenuModel *model, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &name)
          && g_str_equal (name, action))
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

/* The window's main menu. */
static GMenuModel *
main_menu (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget)))
    return gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GMenuModel *menu = main_menu (child);

      if (menu != NULL)
        return menu;
    }
  return NULL;
}

/* Print is in the main menu, and Ctrl+P, pressed on the X server, opens GTK's print
 * dialog. */
static void
test_print_key (void)
{
  g_autoptr (DecipherApplication) application = decipher_application_new ();
  g_autoptr (GError) error = NULL;
  DecipherWindow *window;
  GtkWindow *dialog;

  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  window = gui_test_open_window ("clean.pdf", GTK_APPLICATION (application), 1200, 800);
  g_assert_nonnull (main_menu (GTK_WIDGET (window)));
  g_assert_true (menu_has_action (main_menu (GTK_WIDGET (window)), "win.print"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.print", NULL));
  GUI_TEST_WAIT_FOR ((dialog = find_print_dialog ()) != NULL, "the print dialog from the menu");
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  GUI_TEST_WAIT_FOR (find_print_dialog () == NULL, "the print dialog to close");

  gui_test_focus_window (GTK_WINDOW (window));
  gui_test_key (GTK_WINDOW (window), "<Control>p");
  GUI_TEST_WAIT_FOR ((dialog = find_print_dialog ()) != NULL, "Ctrl+P to open the print dialog");
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  GUI_TEST_WAIT_FOR (find_print_dialog () == NULL, "the print dialog to close");
  g_assert_null (_decipher_window_get_last_error (window));
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/print/clean", test_print_clean);
  g_test_add_func ("/print/partly-decoded", test_print_partly_decoded);
  g_test_add_func ("/print/many-pages", test_print_many_pages);
  g_test_add_func ("/print/key", test_print_key);
  return g_test_run ();
}
