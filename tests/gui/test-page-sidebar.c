/* test-page-sidebar.c: the page thumbnails, shown, followed and worked by keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "decipher-window-private.h"
#include "gui-test-util.h"

static gboolean
all_thumbnails (DecipherWindow *window)
{
  DcDocument *document = decipher_session_get_document (decipher_window_get_session (window));

  return decipher_page_sidebar_get_n_thumbnails (window->page_sidebar)
         == dc_document_get_n_pages (document);
}

static gboolean
revealed (GtkRevealer *revealer)
{
  return gtk_revealer_get_child_revealed (revealer);
}

static guint
selected_row (DecipherWindow *window)
{
  GtkListView *list = decipher_page_sidebar_get_list_view (window->page_sidebar);

  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list)));
}

static void
test_thumbnails (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1100, 750);
  DecipherDocumentView *view;
  GtkListView *list;

  view = _decipher_window_get_document_view (window);
  list = decipher_page_sidebar_get_list_view (window->page_sidebar);

  /* Hidden at first: the pages have the room. */
  g_assert_false (gtk_revealer_get_reveal_child (window->pages_revealer));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->pages_button)));
  gtk_widget_activate (GTK_WIDGET (window->pages_button));
  GUI_TEST_WAIT (revealed, window->pages_revealer, "the page thumbnails");
  GUI_TEST_WAIT (all_thumbnails, window, "every page's thumbnail");
  g_assert_cmpuint (selected_row (window), ==, 0);
  gui_test_screenshot ("page-sidebar");

  /* By keyboard: into the list, down a row, Enter shows that page. */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (list)));
  GUI_TEST_WAIT_FOR (gtk_widget_has_focus (GTK_WIDGET (list))
                         || gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)),
                                                    GTK_WIDGET (list)),
                     "the focus in the page list");
  gui_test_key (GTK_WINDOW (window), "Down");
  gui_test_key (GTK_WINDOW (window), "Return");
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 1);
  gui_test_key (GTK_WINDOW (window), "Down");
  gui_test_key (GTK_WINDOW (window), "Return");
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 2);

  /* The list follows the view when the pages are turned elsewhere. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-page", NULL);
  GUI_TEST_WAIT_FOR (selected_row (window) == 1, "the list to follow the view");
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 1);
  g_assert_cmpuint (selected_row (window), ==, 1);

  /* And hides again. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pages", NULL);
  g_assert_false (gtk_revealer_get_reveal_child (window->pages_revealer));

  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/page-sidebar/thumbnails", test_thumbnails);
  return g_test_run ();
}
