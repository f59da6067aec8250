/* test-search-bar.c: Ctrl+F over the recovered text and over a symbol, by keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "decipher-document-view-private.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"


/* GtkSearchEntry waits a moment after the last key before it says the text changed, so
 * the tests wait for what the bar says. */
typedef struct
{
  DecipherSearchBar *bar;
  const char *text;
} CountIs;

static gboolean
count_is (CountIs *wait)
{
  return !decipher_search_bar_is_searching (wait->bar)
         && g_strcmp0 (decipher_search_bar_get_count_text (wait->bar), wait->text) == 0;
}

/* Waits until the bar says @text about the matches. */
static void
wait_for_count (DecipherSearchBar *bar, const char *text)
{
  CountIs wait = { bar, text };

  GUI_TEST_WAIT (count_is, &wait, text);
}

static gboolean
entry_mapped (DecipherSearchBar *bar)
{
  return gtk_widget_get_mapped (GTK_WIDGET (decipher_search_bar_get_entry (bar)));
}

/* Ctrl+F, then what a user does next: look at the entry that slid in before typing. */
static void
press_find (DecipherWindow *window)
{
  gui_test_key (GTK_WINDOW (window), "<Control>f");
  GUI_TEST_WAIT (entry_mapped, window->search_bar, "the search entry");
}

/* What the glyphs of the match shown spell, in the PDF's own text. */
static char *
current_text (DecipherWindow *window)
{
  DecipherSession *session = decipher_window_get_session (window);
  DcDocument *document = decipher_session_get_document (session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  GString *out = g_string_new (NULL);
  const guint32 *match;
  guint n;

  match = decipher_search_bar_get_current_glyphs (window->search_bar, &n);
  for (guint i = 0; i < n; i++)
    g_string_append (out, dc_key_get_value (decipher_session_get_key (session),
                                            glyphs[match[i]].symbol));
  return g_string_free (out, FALSE);
}

static guint
n_marked (DecipherWindow *window, DecipherMarkKind kind)
{
  guint n;

  decipher_view_state_get_marks (
      decipher_document_view_get_view_state (_decipher_window_get_document_view (window)), kind, &n);
  return n;
}

static guint
symbol_of (DecipherSession *session, const char *text)
{
  const DcSymbol *symbols;
  guint n;

  symbols = dc_document_get_symbols (decipher_session_get_document (session), &n);
  for (guint s = 0; s < n; s++)
    if (g_str_equal (symbols[s].pdf_text, text))
      return s;
  g_assert_not_reached ();
}

static void
test_find_text (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1000, 700);
  DecipherSearchBar *bar = window->search_bar;
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  GtkWidget *focus;

  g_assert_false (decipher_search_bar_is_active (bar));
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 0);

  /* Ctrl+F opens the bar with the keyboard in its entry. */
  press_find (window);
  g_assert_true (decipher_search_bar_is_active (bar));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (decipher_search_bar_get_entry (bar))));

  /* Typing searches (library twice on page 1, librarian on page 2) and shows the first
   * match from the page on screen. */
  gui_test_type (GTK_WINDOW (window), "librar");
  wait_for_count (bar, "1 of 3");
  g_assert_cmpstr (gtk_editable_get_text (decipher_search_bar_get_entry (bar)), ==, "librar");
  g_assert_cmpuint (decipher_search_bar_get_n_matches (bar), ==, 3);
  g_assert_cmpint (decipher_search_bar_get_current (bar), ==, 0);
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "1 of 3");
  {
    g_autofree char *text = current_text (window);

    g_assert_cmpstr (text, ==, "library");
  }
  g_assert_cmpuint (n_marked (window, DECIPHER_MARK_SEARCH), ==,
                    strlen ("library") * 2 + strlen ("librarian,"));
  g_assert_cmpuint (n_marked (window, DECIPHER_MARK_SEARCH_CURRENT), ==, strlen ("library"));
  gui_test_screenshot ("search-bar-text");

  /* Enter and Ctrl+G go on, to the next page and around; Shift+Enter goes back. */
  gui_test_key (GTK_WINDOW (window), "Return");
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "2 of 3");
  gui_test_key (GTK_WINDOW (window), "<Control>g");
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "3 of 3");
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 1);
  {
    g_autofree char *text = current_text (window);

    g_assert_cmpstr (text, ==, "librarian,");
  }
  gui_test_key (GTK_WINDOW (window), "Return");
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "1 of 3");
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 0);
  gui_test_key (GTK_WINDOW (window), "<Shift>Return");
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "3 of 3");
  gui_test_key (GTK_WINDOW (window), "<Control><Shift>g");
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "2 of 3");

  /* Nothing found says so. */
  gui_test_type (GTK_WINDOW (window), "xyz");
  wait_for_count (bar, "No matches");
  g_assert_cmpuint (decipher_search_bar_get_n_matches (bar), ==, 0);
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "No matches");
  g_assert_cmpuint (n_marked (window, DECIPHER_MARK_SEARCH), ==, 0);

  /* Escape closes the bar, takes the marks away and gives the keyboard back to the page. */
  gui_test_key (GTK_WINDOW (window), "Escape");
  g_assert_false (decipher_search_bar_is_active (bar));
  g_assert_cmpuint (n_marked (window, DECIPHER_MARK_SEARCH_CURRENT), ==, 0);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == GTK_WIDGET (view));
  gui_test_close_window (window);
}

/* What is searched is the recovered text: a change of the key searches again. */
static void
test_follows_key (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1000, 700);
  DecipherSession *session = decipher_window_get_session (window);
  DecipherSearchBar *bar = window->search_bar;
  guint y = symbol_of (session, "y");

  press_find (window);
  gui_test_type (GTK_WINDOW (window), "library");
  wait_for_count (bar, "1 of 2");

  /* Say the font's "y" is an "i": the text no longer holds the word. */
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), y, "i", NULL));
  wait_for_count (bar, "No matches");
  gtk_editable_set_text (decipher_search_bar_get_entry (bar), "librari");
  wait_for_count (bar, "1 of 3");

  /* With the keyboard on the page, Undo is the key's (in the entry, it is the entry's). */
  gtk_widget_grab_focus (GTK_WIDGET (_decipher_window_get_document_view (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  wait_for_count (bar, "1 match"); /* librarian, and the view stays where it is */
  g_assert_cmpint (decipher_search_bar_get_current (bar), ==, -1);
  gui_test_close_window (window);
}

static gboolean
finding_text (DecipherSearchBar *bar)
{
  return !gtk_toggle_button_get_active (decipher_search_bar_get_symbol_button (bar));
}

static gboolean
has_current (DecipherSearchBar *bar)
{
  guint n = 0;

  decipher_search_bar_get_current_glyphs (bar, &n);
  return n > 0;
}

/* "Selected Symbol" walks the occurrences of the symbol selected on the page. */
static void
test_find_symbol (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1000, 700);
  DecipherSession *session = decipher_window_get_session (window);
  DecipherSearchBar *bar = window->search_bar;
  guint z = symbol_of (session, "Z"), n_occurrences;
  const guint32 *occurrences = dc_document_get_symbol_glyphs (decipher_session_get_document (session), z, &n_occurrences);
  const guint32 *current;
  guint n;

  g_assert_cmpuint (n_occurrences, >, 0);
  press_find (window);
  gtk_toggle_button_set_active (decipher_search_bar_get_symbol_button (bar), TRUE);
  g_assert_cmpstr (decipher_search_bar_get_count_text (bar), ==, "No symbol selected");

  decipher_view_state_set_selected_symbol (window->view_state, z);
  g_assert_cmpuint (decipher_search_bar_get_n_matches (bar), ==, n_occurrences);
  gui_test_key (GTK_WINDOW (window), "<Control>g");
  /* The key reaches the window through the X server, in its own time on a busy machine. */
  GUI_TEST_WAIT (has_current, bar, "the first occurrence");
  current = decipher_search_bar_get_current_glyphs (bar, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (current[0], ==, occurrences[0]);
  g_assert_cmpuint (n_marked (window, DECIPHER_MARK_SEARCH), ==, n_occurrences);

  /* Typing in the entry asks for text again. */
  gui_test_focus_window (GTK_WINDOW (window));
  gtk_widget_grab_focus (GTK_WIDGET (decipher_search_bar_get_entry (bar)));
  gui_test_type (GTK_WINDOW (window), "zü");
  GUI_TEST_WAIT (finding_text, bar, "the text search");
  wait_for_count (bar, "1 of 1");
  g_assert_cmpstr (gtk_editable_get_text (decipher_search_bar_get_entry (bar)), ==, "zü");
  g_assert_cmpuint (decipher_search_bar_get_n_matches (bar), ==, 1);
  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/search-bar/find-text", test_find_text);
  g_test_add_func ("/search-bar/follows-key", test_follows_key);
  g_test_add_func ("/search-bar/find-symbol", test_find_symbol);
  return g_test_run ();
}
