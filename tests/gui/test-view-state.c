/* test-view-state.c: the page, zoom, selection, search and marks the window's widgets share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document view, the input pane, the search bar and the page sidebar hold one
 * DecipherViewState instead of each other: what one of them changes there, the others
 * follow. These drive the real window on clean.pdf (three pages; "library" twice on the
 * first, "librarian" on the second).
 */

#include "config.h"

#include "decipher-window-private.h"
#include "gui-test-util.h"

static guint
selected_row (DecipherWindow *window)
{
  GtkListView *list = decipher_page_sidebar_get_list_view (window->page_sidebar);

  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list)));
}

static gboolean
search_done (DecipherSearchBar *bar)
{
  return !decipher_search_bar_is_searching (bar) && decipher_search_bar_get_n_matches (bar) > 0;
}

/* One state, the same for every widget, following the view's page and zoom both ways. */
static void
test_page_and_zoom (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1100, 750);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherViewState *state = decipher_document_view_get_view_state (view);
  DcDocument *document = decipher_session_get_document (decipher_window_get_session (window));

  g_assert_true (state == window->view_state);
  g_assert_cmpuint (decipher_view_state_get_n_pages (state), ==,
                    dc_document_get_n_pages (document));
  g_assert_cmpuint (decipher_view_state_get_page (state), ==, 0);

  decipher_document_view_set_zoom (view, 2.0);
  g_assert_cmpfloat (decipher_view_state_get_zoom (state), ==, 2.0);
  decipher_view_state_set_zoom (state, 1.5);
  g_assert_cmpfloat (decipher_document_view_get_zoom (view), ==, 1.5);

  /* The sidebar turns pages through the state: the view goes there. */
  gtk_widget_activate (GTK_WIDGET (window->pages_button));
  GUI_TEST_WAIT_FOR (gtk_revealer_get_child_revealed (window->pages_revealer), "the sidebar");
  decipher_view_state_set_page (state, 2);
  GUI_TEST_WAIT_FOR (decipher_document_view_get_page (view) == 2, "the view on page 3");
  GUI_TEST_WAIT_FOR (selected_row (window) == 2, "the sidebar on page 3");
  /* The view turns pages: the state, and through it the sidebar, follow. */
  decipher_document_view_set_page (view, 1);
  GUI_TEST_WAIT_FOR (decipher_view_state_get_page (state) == 1, "the state on page 2");
  GUI_TEST_WAIT_FOR (selected_row (window) == 1, "the sidebar on page 2");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pages", NULL);
  gui_test_close_window (window);
}

/* Marks set in the state are drawn by the view; a search and its match shown and the
 * text selected on the page are told there too. */
static void
test_marks_search_selection (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1100, 750);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherViewState *state = decipher_document_view_get_view_state (view);
  DecipherSearchBar *bar = window->search_bar;
  guint32 glyphs[] = { 2, 0, 1 };
  const guint32 *marks;
  guint n;

  decipher_view_state_set_marks (state, DECIPHER_MARK_CANDIDATE, glyphs, G_N_ELEMENTS (glyphs));
  marks = decipher_view_state_get_marks (state, DECIPHER_MARK_CANDIDATE, &n);
  g_assert_cmpuint (n, ==, 3);
  /* Sorted, so that a page draws its own marks only. */
  g_assert_cmpuint (marks[0], ==, 0);
  g_assert_cmpuint (marks[2], ==, 2);
  gui_test_wait_frame (GTK_WIDGET (view));
  GUI_TEST_WAIT_FOR (decipher_document_view_get_n_drawn_marks (view) >= 3, "the marks drawn");
  decipher_view_state_clear_marks (state);
  g_assert_null (decipher_view_state_get_marks (state, DECIPHER_MARK_CANDIDATE, &n));
  gui_test_wait_frame (GTK_WIDGET (view));
  GUI_TEST_WAIT_FOR (decipher_document_view_get_n_drawn_marks (view) == 0, "no mark drawn");

  decipher_search_bar_start (bar);
  gtk_editable_set_text (decipher_search_bar_get_entry (bar), "librar");
  GUI_TEST_WAIT (search_done, bar, "the search");
  g_assert_cmpstr (decipher_view_state_get_search_text (state), ==, "librar");
  decipher_search_bar_next (bar, FALSE);
  g_assert_cmpint (decipher_view_state_get_current_hit (state), ==,
                   decipher_search_bar_get_current (bar));
  g_assert_cmpint (decipher_view_state_get_current_hit (state), >=, 0);
  decipher_view_state_get_marks (state, DECIPHER_MARK_SEARCH_CURRENT, &n);
  g_assert_cmpuint (n, >, 0);
  decipher_search_bar_stop (bar);
  g_assert_cmpint (decipher_view_state_get_current_hit (state), ==, -1);

  g_assert_false (decipher_view_state_get_has_selection (state));
  g_assert_true (decipher_document_view_select_glyphs (view, 0, 5));
  g_assert_true (decipher_view_state_get_has_selection (state));
  decipher_document_view_clear_selection (view);
  g_assert_false (decipher_view_state_get_has_selection (state));

  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/view-state/page-and-zoom", test_page_and_zoom);
  g_test_add_func ("/view-state/marks-search-selection", test_marks_search_selection);
  return g_test_run ();
}
