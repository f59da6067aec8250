/* test-input-pane.c: typing what one reads, through the entry, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "decipher-application.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

typedef struct
{
  DecipherWindow *window;
  DecipherInputPane *pane;
  DecipherSession *session;
  JsonParser *truth;
  GPtrArray *lines; /* the fixture's line texts, by the engine's line id */
  char *autosave;
} Fixture;

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

/* In @application (nullable), which sets the shortcuts a user has. */
static void
fixture_open_in (Fixture *f, GtkApplication *application)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autofree char *truth_path = gui_test_fixture_path ("legacy-cyrillic.json");
  g_autoptr (GError) error = NULL;
  JsonArray *pages;

  f->truth = json_parser_new ();
  g_assert_true (json_parser_load_from_file (f->truth, truth_path, &error));
  g_assert_no_error (error);
  f->lines = g_ptr_array_new ();
  pages = json_object_get_array_member (json_node_get_object (json_parser_get_root (f->truth)),
                                        "pages");
  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *lines = json_object_get_array_member (json_array_get_object_element (pages, p),
                                                       "lines");

      for (guint l = 0; l < json_array_get_length (lines); l++)
        g_ptr_array_add (f->lines,
                         (gpointer)
                             json_object_get_string_member (json_array_get_object_element (lines,
                                                                                           l),
                                                            "text"));
    }

  f->window = decipher_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 800);
  gtk_window_present (GTK_WINDOW (f->window));
  decipher_window_open (f->window, file);
  GUI_TEST_WAIT (window_loaded, f->window, "the document to load");
  f->session = decipher_window_get_session (f->window);
  g_assert_nonnull (f->session);
  f->autosave = g_strdup (decipher_session_get_autosave_path (f->session));
  f->pane = g_object_ref (_decipher_window_get_input_pane (f->window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f->pane)));
}

static void
fixture_open (Fixture *f)
{
  fixture_open_in (f, NULL);
}

static void
fixture_close (Fixture *f)
{
  gui_test_pointer_away (GTK_WINDOW (f->window));
  gtk_window_close (GTK_WINDOW (f->window));
  gui_test_settle ();
  g_assert_finalize_object (f->pane);
  /* Each test starts from new work, not from what the one before it typed. */
  g_unlink (f->autosave);
  g_free (f->autosave);
  g_ptr_array_unref (f->lines);
  g_object_unref (f->truth);
}

/* A query typed before the matcher's index is ready runs when the index arrives. */
static gboolean
pane_idle (DecipherInputPane *pane)
{
  return !decipher_input_pane_is_busy (pane);
}

/* What a user does: types @text in the entry and presses Enter. */
static void
type (Fixture *f, const char *text)
{
  GtkEditable *entry = decipher_input_pane_get_entry (f->pane);

  gtk_widget_grab_focus (GTK_WIDGET (entry));
  gtk_editable_set_text (entry, text);
  /* What Enter does: GtkEntry has no activate signal of its class to trigger. */
  g_signal_emit_by_name (entry, "activate");
  GUI_TEST_WAIT (pane_idle, f->pane, "the answer to a query");
  gui_test_settle ();
}

static guint
decoded_symbols (Fixture *f)
{
  guint n = 0;

  dc_key_count_decoded (decipher_session_get_key (f->session), &n, NULL);
  return n;
}

static void
test_type_line (void)
{
  Fixture f = { 0 };
  g_autofree char *progress_before = NULL;
  guint before;

  fixture_open (&f);
  before = decoded_symbols (&f);
  progress_before = g_strdup (gtk_label_get_text (_decipher_window_get_progress_label (f.window)));

  /* The line cue, as a click on the line would set it. */
  decipher_input_pane_set_line (f.pane, 2);
  type (&f, g_ptr_array_index (f.lines, 2));
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (decoded_symbols (&f), >, before);
  g_assert_cmpstr (gtk_editable_get_text (decipher_input_pane_get_entry (f.pane)), ==, "");
  g_assert_cmpstr (gtk_label_get_text (_decipher_window_get_progress_label (f.window)), !=,
                   progress_before);
  g_assert_false (
      gtk_widget_get_visible (GTK_WIDGET (decipher_input_pane_get_reason_label (f.pane))));
  gui_test_screenshot ("input-pane-learned");

  /* One undo step takes back all that one Enter learned (Ctrl+Z over the page: in the
   * entry, it undoes the entry's text). */
  gtk_widget_grab_focus (GTK_WIDGET (_decipher_window_get_document_view (f.window)));
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL);
  g_assert_cmpuint (decoded_symbols (&f), ==, before);
  fixture_close (&f);
}

static guint
n_rows (GtkListBox *list)
{
  guint n = 0;

  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (list)); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    n += GTK_IS_LIST_BOX_ROW (w);
  return n;
}

static void
test_ambiguous (void)
{
  Fixture f = { 0 };
  GtkListBox *list;
  guint before;

  fixture_open (&f);
  before = decoded_symbols (&f);
  /* A two-letter word with no letter known fits every two-glyph word. */
  type (&f, "ом");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_AMBIGUOUS);
  list = decipher_input_pane_get_candidates (f.pane);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (list)));
  g_assert_cmpuint (n_rows (list), >, 1);
  g_assert_cmpuint (decoded_symbols (&f), ==, before);
  gui_test_screenshot ("input-pane-candidates");

  /* A click on a place types the text there. */
  gtk_widget_activate (GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0)));
  GUI_TEST_WAIT_FOR (decipher_input_pane_get_last_kind (f.pane) == DC_MATCH_ASSIGNED,
                     "the place clicked to be typed");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (decoded_symbols (&f), ==, before + 2);
  g_assert_cmpuint (n_rows (list), ==, 0);
  fixture_close (&f);
}

static void
test_no_match (void)
{
  Fixture f = { 0 };
  GtkLabel *reason;

  fixture_open (&f);
  type (&f, "щъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъщъ");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_NO_MATCH);
  reason = decipher_input_pane_get_reason_label (f.pane);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (reason)));
  g_assert_cmpuint (strlen (gtk_label_get_text (reason)), >, 0);
  /* What the user typed stays, to be corrected. */
  g_assert_cmpstr (gtk_editable_get_text (decipher_input_pane_get_entry (f.pane)), !=, "");
  gui_test_screenshot ("input-pane-no-match");
  fixture_close (&f);
}

static gboolean
suggested (DecipherInputPane *pane)
{
  return !decipher_input_pane_is_suggesting (pane);
}

/* What Next? is worked out in a worker. */
static void
wait_suggestion (Fixture *f)
{
  GUI_TEST_WAIT (suggested, f->pane, "the words to type next");
}

static gboolean
drew_marks (DecipherDocumentView *view)
{
  return decipher_document_view_get_n_drawn_marks (view) > 0;
}

static void
test_what_next (void)
{
  Fixture f = { 0 };
  gboolean busy = FALSE;

  fixture_open (&f);
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, DECIPHER_NO_LINE);
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.what-next", NULL);
  /* Busy while the worker looks: the window's status bar says so if it takes long. */
  g_object_get (f.pane, "busy", &busy, NULL);
  g_assert_true (busy);
  wait_suggestion (&f);
  g_object_get (f.pane, "busy", &busy, NULL);
  g_assert_false (busy);
  g_assert_false (_decipher_window_is_busy_shown (f.window));
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), !=, DECIPHER_NO_LINE);
  GUI_TEST_WAIT (drew_marks, _decipher_window_get_document_view (f.window), "suggestion marks");
  gui_test_screenshot ("input-pane-what-next");
  fixture_close (&f);
}

static gboolean
no_marks (DecipherDocumentView *view)
{
  gui_test_wait_frame (GTK_WIDGET (view));
  return decipher_document_view_get_n_drawn_marks (view) == 0;
}

/* Issue 31.10: with the last symbol given a value elsewhere than by typing (here as the
 * palette gives one), the suggestion's highlight and its line chip stayed. */
static void
test_suggestion_goes_when_decoded (void)
{
  DecipherDocumentView *view;
  Fixture f = { 0 };
  guint n_symbols;

  fixture_open (&f);
  view = _decipher_window_get_document_view (f.window);
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.what-next", NULL);
  wait_suggestion (&f);
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), !=, DECIPHER_NO_LINE);
  GUI_TEST_WAIT (drew_marks, view, "suggestion marks");

  dc_document_get_symbols (decipher_session_get_document (f.session), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_session_symbol_is_unknown (decipher_session_get_engine (f.session), s))
      {
        g_autoptr (GError) error = NULL;

        g_assert_true (dc_session_assign (decipher_session_get_engine (f.session), s, "x", &error));
        g_assert_no_error (error);
      }
  GUI_TEST_WAIT (no_marks, view, "the suggestion's highlight to go");
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, DECIPHER_NO_LINE);
  gui_test_screenshot ("input-pane-all-decoded");
  fixture_close (&f);
}

/* The glyph at @index within token @token of @line. */
static guint
token_glyph (Fixture *f, guint line, guint token, int index)
{
  DcDocument *document = decipher_session_get_document (f->session);
  const DcLine *l = &dc_document_get_lines (document, NULL)[line];
  const DcToken *t = &dc_document_get_tokens (document, NULL)[l->first_token + token];

  return dc_document_get_reading_order (document,
                                        NULL)[t->first_glyph
                                              + (index < 0 ? t->n_glyphs - 1 : (guint) index)];
}

/* A click on a glyph of the page cues its line (the view says it through the view state
 * the pane listens to). */
static void
test_click_cues_line (void)
{
  Fixture f = { 0 };
  DecipherDocumentView *view;
  g_autoptr (GListModel) controllers = NULL;
  GtkGesture *click = NULL;
  graphene_rect_t area;
  guint glyph;

  fixture_open (&f);
  view = _decipher_window_get_document_view (f.window);
  gui_test_wait_frame (GTK_WIDGET (view));
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        click = GTK_GESTURE (controller);
    }
  g_assert_nonnull (click);

  glyph = token_glyph (&f, 3, 1, 0);
  g_assert_true (decipher_document_view_get_glyph_area (view, glyph, &area));
  g_signal_emit_by_name (click, "pressed", 1, (double) area.origin.x + area.size.width / 2,
                         (double) area.origin.y + area.size.height / 2);
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, 3);
  gui_test_screenshot ("input-pane-line-cue");
  fixture_close (&f);
}

/* A drag across glyphs fills the entry with whole words, unknown glyphs as “?”. */
static void
test_drag_fill (void)
{
  Fixture f = { 0 };
  GtkEditable *entry;
  g_auto (GStrv) words = NULL;
  g_autofree char *two = NULL;
  int start, end;

  fixture_open (&f);
  entry = decipher_input_pane_get_entry (f.pane);
  words = g_strsplit (g_ptr_array_index (f.lines, 2), " ", -1);
  two = g_strconcat (words[0], " ", words[1], NULL);

  /* From inside the first word to the end of the second, backwards. */
  decipher_input_pane_fill_from_glyphs (f.pane, token_glyph (&f, 2, 1, -1),
                                        token_glyph (&f, 2, 0, 1));
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, 2);
  g_assert_cmpuint (g_utf8_strlen (gtk_editable_get_text (entry), -1), ==, g_utf8_strlen (two, -1));
  g_assert_nonnull (strchr (gtk_editable_get_text (entry), '?'));
  g_assert_true (gtk_editable_get_selection_bounds (entry, &start, &end));
  g_assert_cmpint (end - start, ==, 1);
  gui_test_screenshot ("input-pane-drag");

  /* Enter with placeholders left asks for them, and learns nothing. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (
      gtk_widget_get_visible (GTK_WIDGET (decipher_input_pane_get_reason_label (f.pane))));

  /* Typed over, the words are learned; dragged again, they read as typed. */
  gtk_editable_set_text (entry, two);
  g_signal_emit_by_name (entry, "activate");
  GUI_TEST_WAIT (pane_idle, f.pane, "the answer to a query");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  /* This time as the page tells of a drag: its selection reaches the pane. */
  g_signal_emit_by_name (_decipher_window_get_document_view (f.window), "run-selected",
                         token_glyph (&f, 2, 0, 0), token_glyph (&f, 2, 1, -1));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, two);
  fixture_close (&f);
}

/* The words What Next? suggests, read from the fixture's truth. */
static char *
suggested_words (Fixture *f)
{
  DcSuggestion suggestion;
  g_auto (GStrv) words = NULL;
  char *saved, *typed;

  dc_suggest_next (decipher_session_get_key (f->session), &suggestion);
  g_assert_false (suggestion.done);
  words = g_strsplit (g_ptr_array_index (f->lines, suggestion.line), " ", -1);
  saved = words[suggestion.token + suggestion.n_tokens];
  words[suggestion.token + suggestion.n_tokens] = NULL;
  typed = g_strjoinv (" ", &words[suggestion.token]);
  words[suggestion.token + suggestion.n_tokens] = saved;
  return typed;
}

/* Issue 16.5: What Next?'s line cue goes once its words are typed, so the next query
 * is looked for anywhere; typing never moves the view; a drag that stays on one glyph
 * (a click that slipped) leaves the typed text alone. */
static void
test_suggestion_scope_and_view (void)
{
  Fixture f = { 0 };
  DecipherDocumentView *view;
  GtkAdjustment *vadjustment;
  GtkEditable *entry;
  g_autofree char *words = NULL;
  double where;
  guint glyph;

  fixture_open (&f);
  view = _decipher_window_get_document_view (f.window);
  entry = decipher_input_pane_get_entry (f.pane);
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.what-next", NULL);
  wait_suggestion (&f);
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), !=, DECIPHER_NO_LINE);
  words = suggested_words (&f);
  type (&f, words);
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, DECIPHER_NO_LINE);

  /* A line of page 2 typed while it is in view: the view stays put. (One of page 1,
   * read from a printout, is learned off screen: the view goes there, issue 31.1.) */
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment)
                                             - gtk_adjustment_get_page_size (vadjustment));
  gui_test_wait_frame (GTK_WIDGET (view));
  where = gtk_adjustment_get_value (vadjustment);
  g_assert_cmpfloat (where, >, 0);
  type (&f, g_ptr_array_index (f.lines, f.lines->len - 2));
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  /* Frames go by after the answer: the view has not moved. */
  gui_test_wait_frame (GTK_WIDGET (view));
  gui_test_wait_frame (GTK_WIDGET (view));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, where);
  type (&f, g_ptr_array_index (f.lines, 3));
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  gui_test_wait_frame (GTK_WIDGET (view));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), <, where);

  /* Typed text, then a "drag" that starts and ends on one glyph: the text stays. */
  gtk_editable_set_text (entry, "слово");
  glyph = token_glyph (&f, 5, 0, 0);
  decipher_input_pane_fill_from_glyphs (f.pane, glyph, glyph);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "слово");
  g_assert_cmpuint (decipher_input_pane_get_line (f.pane), ==, 5);
  fixture_close (&f);
}

/* Following “What Next?” and typing the words it highlights recovers the whole text,
 * through the input pane alone. */
static void
test_recover_all (void)
{
  Fixture f = { 0 };
  DcKey *key;
  g_autofree char *text = NULL;
  guint rounds = 0;

  fixture_open (&f);
  gui_test_wait_frame (GTK_WIDGET (f.window));
  key = decipher_session_get_key (f.session);
  while (rounds++ < 100)
    {
      DcSuggestion suggestion;
      g_auto (GStrv) words = NULL;
      g_autofree char *typed = NULL;
      guint line;
      char *saved;

      gtk_widget_activate_action (GTK_WIDGET (f.window), "win.what-next", NULL);
      wait_suggestion (&f);
      dc_suggest_next (key, &suggestion);
      if (suggestion.done)
        break;
      /* The pane cued the suggested line; the test reads its words from the truth. */
      line = decipher_input_pane_get_line (f.pane);
      g_assert_cmpuint (line, ==, suggestion.line);
      words = g_strsplit (g_ptr_array_index (f.lines, line), " ", -1);
      g_assert_cmpuint (suggestion.token + suggestion.n_tokens, <=, g_strv_length (words));
      saved = words[suggestion.token + suggestion.n_tokens];
      words[suggestion.token + suggestion.n_tokens] = NULL;
      typed = g_strjoinv (" ", &words[suggestion.token]);
      words[suggestion.token + suggestion.n_tokens] = saved;
      type (&f, typed);
      g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
    }
  g_assert_cmpuint (rounds, <, 100);
  gui_test_screenshot ("input-pane-recovered");

  text = dc_export_document (decipher_session_get_document (f.session), DC_EXPORT_TEXT,
                             dc_key_value_func, key);
  g_assert_null (strstr (text, "\xEF\xBF\xBD"));
  fixture_close (&f);
}

static guint
n_history (Fixture *f)
{
  guint n = 0;

  dc_project_get_history (decipher_session_get_project (f->session), &n);
  return n;
}

static gboolean
says_too_long (DecipherInputPane *pane)
{
  GtkLabel *reason = decipher_input_pane_get_reason_label (pane);

  return gtk_widget_get_visible (GTK_WIDGET (reason))
         && g_str_has_prefix (gtk_label_get_text (reason), "That is too long to match");
}

#define MAX_INPUT_CHARS 16000

static gboolean
entry_is_full (GtkEditable *entry)
{
  return g_utf8_strlen (gtk_editable_get_text (entry), -1) == MAX_INPUT_CHARS;
}

/* Pastes @text into the entry as Ctrl+V does: through the clipboard, at the end. */
static void
paste (Fixture *f, const char *text)
{
  GtkEditable *entry = decipher_input_pane_get_entry (f->pane);
  GtkWidget *delegate = GTK_WIDGET (gtk_editable_get_delegate (entry));

  gtk_widget_grab_focus (GTK_WIDGET (entry));
  gtk_editable_set_position (entry, -1);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (delegate), text);
  g_signal_emit_by_name (delegate, "paste-clipboard");
}

/* Input no page can show is refused with a sentence: the key, the input history and
 * what was already in the entry stay as they were. */
static void
test_bad_input (void)
{
  Fixture f = { 0 };
  GtkEditable *entry;
  GtkLabel *reason;
  g_autofree char *snapshot = NULL;
  g_autofree char *now = NULL;
  g_autofree char *fits = NULL;
  const char *expected = "That is too long to match: type or paste at most 16000 characters "
                         "at a time.";
  GString *huge = g_string_new (NULL);
  guint history;
  int width, height;

  fixture_open (&f);
  entry = decipher_input_pane_get_entry (f.pane);
  reason = decipher_input_pane_get_reason_label (f.pane);
  snapshot = gui_test_key_snapshot (decipher_session_get_key (f.session));
  history = n_history (&f);
  gui_test_wait_frame (GTK_WIDGET (f.window));
  width = gtk_widget_get_width (GTK_WIDGET (f.window));
  height = gtk_widget_get_height (GTK_WIDGET (f.window));

  /* A control character, which a paste can bring: the engine's sentence, and the text
   * stays to be corrected. */
  type (&f, "вода\x07 сети");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (reason)));
  g_assert_cmpstr (gtk_label_get_text (reason), ==,
                   "The input contains the control character U+0007, which no page shows.");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "вода\x07 сети");
  now = gui_test_key_snapshot (decipher_session_get_key (f.session));
  g_assert_cmpstr (now, ==, snapshot);
  g_assert_cmpuint (n_history (&f), ==, history);

  /* A megabyte pasted after a word: refused as it arrives, before the entry cuts it
   * short or the matcher sees it, and the word typed so far is kept. */
  gtk_editable_set_text (entry, "вода");
  while (huge->len < 1024 * 1024)
    g_string_append (huge, "слово ");
  paste (&f, huge->str);
  GUI_TEST_WAIT (says_too_long, f.pane, "the paste to be refused");
  g_assert_cmpstr (gtk_label_get_text (reason), ==, expected);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "вода");
  gui_test_screenshot ("input-pane-too-long");

  /* Up to the limit, a paste goes in (and the refusal is no longer shown); one more
   * character is refused. */
  fits = g_strnfill (MAX_INPUT_CHARS - 4, 'x');
  paste (&f, fits);
  GUI_TEST_WAIT (entry_is_full, entry, "the longest paste that fits");
  g_assert_false (says_too_long (f.pane));
  paste (&f, "y");
  GUI_TEST_WAIT (says_too_long, f.pane, "one character too many to be refused");
  g_assert_cmpstr (gtk_label_get_text (reason), ==, expected);
  g_assert_true (entry_is_full (entry));
  g_clear_pointer (&now, g_free);
  now = gui_test_key_snapshot (decipher_session_get_key (f.session));
  g_assert_cmpstr (now, ==, snapshot);
  g_assert_cmpuint (n_history (&f), ==, history);

  /* The longest text the entry holds is within the matcher's limit: it is matched, and
   * no word is drawn that long. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_NO_MATCH);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (reason)));
  g_assert_true (
      g_str_has_prefix (gtk_label_get_text (reason), "No word in the document has as many glyphs"));
  /* The sentence quotes all 16000 characters: it is cut, and the window keeps its size
   * in the frames that show it. */
  gui_test_wait_frame (GTK_WIDGET (f.window));
  gui_test_wait_frame (GTK_WIDGET (f.window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f.window)), ==, width);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (f.window)), ==, height);
  gui_test_screenshot ("input-pane-long-no-match");
  g_clear_pointer (&now, g_free);
  now = gui_test_key_snapshot (decipher_session_get_key (f.session));
  g_assert_cmpstr (now, ==, snapshot);
  g_string_free (huge, TRUE);
  fixture_close (&f);
}

static gboolean
glyph_on_screen (Fixture *f, guint line)
{
  DecipherDocumentView *view = _decipher_window_get_document_view (f->window);
  DcDocument *document = decipher_session_get_document (f->session);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  graphene_rect_t area;

  g_assert_true (
      decipher_document_view_get_glyph_area (view, order[lines[line].first_glyph], &area));
  return area.origin.y >= 0
         && area.origin.y + area.size.height <= gtk_widget_get_height (GTK_WIDGET (view));
}

/* Issue 31.1: the user read line 17 (page 2), then gave м a wrong value (ё). "малды" of
 * that line, typed on the keyboard without pointing at the line, is a conflict there:
 * without the line in view it fitted line 25 and taught three wrong values silently. */
static void
test_conflict_in_view (void)
{
  const guint line = 17;
  Fixture f = { 0 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  DecipherDocumentView *view;
  DcMatcher *matcher;
  DcKey *key;
  guint symbol = G_MAXUINT, n_symbols;

  fixture_open (&f);
  key = decipher_session_get_key (f.session);
  view = _decipher_window_get_document_view (f.window);
  decipher_input_pane_set_line (f.pane, line);
  type (&f, g_ptr_array_index (f.lines, line));
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  dc_document_get_symbols (decipher_session_get_document (f.session), &n_symbols);
  for (guint s = 0; s < n_symbols && symbol == G_MAXUINT; s++)
    if (g_strcmp0 (dc_key_get_value (key, s), "м") == 0)
      symbol = s;
  g_assert_cmpuint (symbol, !=, G_MAXUINT);
  g_assert_true (dc_session_assign (decipher_session_get_engine (f.session), symbol, "ё", NULL));
  decipher_document_view_set_page (view, 1);
  gui_test_wait_frame (GTK_WIDGET (view));
  g_assert_true (glyph_on_screen (&f, line));
  before = gui_test_key_snapshot (key);

  gtk_widget_grab_focus (GTK_WIDGET (decipher_input_pane_get_entry (f.pane)));
  gui_test_type (GTK_WINDOW (f.window), "малды");
  gui_test_key (GTK_WINDOW (f.window), "Return");
  GUI_TEST_WAIT (pane_idle, f.pane, "the answer to a query");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_CONFLICT);
  matcher = dc_session_get_matcher (decipher_session_get_engine (f.session));
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 1);
  g_assert_cmpstr (dc_matcher_get_conflict (matcher, 0)->proposed, ==, "м");
  g_assert_cmpuint (dc_matcher_get_conflict (matcher, 0)->place.line, ==, line);
  after = gui_test_key_snapshot (key);
  g_assert_cmpstr (after, ==, before);
  gui_test_screenshot ("input-pane-conflict-in-view");
  fixture_close (&f);
}

/* Issue 31.1: words that fit only on a line not on screen are learned there, and the
 * page goes there with a toast that says where, whose Undo takes them back. */
static void
test_learned_elsewhere (void)
{
  Fixture f = { 0 };
  DecipherDocumentView *view;
  const DcLine *line;
  g_autofree char *expected = NULL;
  guint before;

  fixture_open (&f);
  view = _decipher_window_get_document_view (f.window);
  gui_test_wait_frame (GTK_WIDGET (view));
  decipher_document_view_set_page (view, 1);
  gui_test_wait_frame (GTK_WIDGET (view));
  g_assert_false (glyph_on_screen (&f, 2));
  before = decoded_symbols (&f);

  /* With the matcher's index ready, Enter answers at once: the toast is checked before
   * its timeout could run out on a loaded machine. */
  GUI_TEST_WAIT_FOR (dc_session_has_index (decipher_session_get_engine (f.session)),
                     "the matcher's index");
  gtk_editable_set_text (decipher_input_pane_get_entry (f.pane), g_ptr_array_index (f.lines, 2));
  g_signal_emit_by_name (decipher_input_pane_get_entry (f.pane), "activate");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (decoded_symbols (&f), >, before);

  line = &dc_document_get_lines (decipher_session_get_document (f.session), NULL)[2];
  expected = g_strdup_printf ("learned from p. %u, line %u", line->page + 1, line->index + 1);
  g_assert_nonnull (f.window->undo_toast);
  g_assert_nonnull (strstr (adw_toast_get_title (f.window->undo_toast), expected));
  g_signal_emit_by_name (f.window->undo_toast, "button-clicked");
  g_assert_cmpuint (decoded_symbols (&f), ==, before);
  /* The page went there, and the words taken are marked. */
  gui_test_wait_frame (GTK_WIDGET (view));
  g_assert_true (glyph_on_screen (&f, 2));
  g_assert_cmpuint (decipher_document_view_get_n_drawn_marks (view), >, 0);
  fixture_close (&f);
}

/* Issue 31.2: Ctrl+Z with the focus in the word entry undoes the last decoding step once
 * the words were submitted; while a word is being typed, it undoes the typing. */
static void
test_undo_from_entry (void)
{
  g_autoptr (DecipherApplication) application = decipher_application_new ();
  g_autoptr (GError) error = NULL;
  Fixture f = { 0 };
  GtkEditable *entry;
  guint before, learned;

  /* Ctrl+Z is the application's shortcut for win.undo, as a user runs the window. */
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  fixture_open_in (&f, GTK_APPLICATION (application));
  gui_test_focus_window (GTK_WINDOW (f.window));
  entry = decipher_input_pane_get_entry (f.pane);
  before = decoded_symbols (&f);
  decipher_input_pane_set_line (f.pane, 2);
  type (&f, g_ptr_array_index (f.lines, 2));
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_ASSIGNED);
  learned = decoded_symbols (&f);
  g_assert_cmpuint (learned, >, before);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (entry))));

  /* Something being typed: Ctrl+Z is the entry's. */
  gui_test_type (GTK_WINDOW (f.window), "abc");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "abc");
  gui_test_key (GTK_WINDOW (f.window), "<Control>z");
  g_assert_cmpstr (gtk_editable_get_text (entry), !=, "abc");
  g_assert_cmpuint (decoded_symbols (&f), ==, learned);
  gtk_editable_set_text (entry, "");

  /* Nothing being typed: Ctrl+Z undoes the decoding, Shift+Ctrl+Z redoes it. */
  gtk_widget_grab_focus (GTK_WIDGET (entry));
  gui_test_key (GTK_WINDOW (f.window), "<Control>z");
  g_assert_cmpuint (decoded_symbols (&f), ==, before);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (entry))));
  gui_test_key (GTK_WINDOW (f.window), "<Shift><Control>z");
  g_assert_cmpuint (decoded_symbols (&f), ==, learned);

  /* A word submitted and kept (it did not fit) is not being typed either. */
  type (&f, "Жжжжжжжжжжжжжжжжжжжжжжжжжжжжжж");
  g_assert_cmpint (decipher_input_pane_get_last_kind (f.pane), ==, DC_MATCH_NO_MATCH);
  g_assert_cmpstr (gtk_editable_get_text (entry), !=, "");
  gui_test_key (GTK_WINDOW (f.window), "<Control>z");
  g_assert_cmpuint (decoded_symbols (&f), ==, before);
  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/input-pane/type-line", test_type_line);
  g_test_add_func ("/input-pane/ambiguous", test_ambiguous);
  g_test_add_func ("/input-pane/no-match", test_no_match);
  g_test_add_func ("/input-pane/what-next", test_what_next);
  g_test_add_func ("/input-pane/suggestion-goes-when-decoded", test_suggestion_goes_when_decoded);
  g_test_add_func ("/input-pane/suggestion-scope-and-view", test_suggestion_scope_and_view);
  g_test_add_func ("/input-pane/click-cues-line", test_click_cues_line);
  g_test_add_func ("/input-pane/drag-fill", test_drag_fill);
  g_test_add_func ("/input-pane/recover-all", test_recover_all);
  g_test_add_func ("/input-pane/bad-input", test_bad_input);
  g_test_add_func ("/input-pane/conflict-in-view", test_conflict_in_view);
  g_test_add_func ("/input-pane/learned-elsewhere", test_learned_elsewhere);
  g_test_add_func ("/input-pane/undo-from-entry", test_undo_from_entry);

  return g_test_run ();
}
