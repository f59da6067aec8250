/* test-conflict-view.c: a conflict made by typing, reviewed and settled in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "decipher-document-view-private.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static char *
truth_line (guint index)
{
  g_autofree char *path = gui_test_fixture_path ("legacy-cyrillic.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *pages;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  pages = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "pages");
  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *lines = json_object_get_array_member (json_array_get_object_element (pages, p),
                                                       "lines");

      if (index < json_array_get_length (lines))
        return g_strdup (
            json_object_get_string_member (json_array_get_object_element (lines, index), "text"));
      index -= json_array_get_length (lines);
    }
  g_assert_not_reached ();
}

/* @text with a letter that occurs once in it replaced by Ж, which the line lacks. */
static char *
change_one_letter (const char *text)
{
  g_autofree gunichar *chars = g_utf8_to_ucs4_fast (text, -1, NULL);
  glong n = 0;

  while (chars[n])
    n++;
  for (glong i = 0; i < n; i++)
    {
      guint count = 0;

      for (glong k = 0; k < n; k++)
        count += chars[k] == chars[i];
      if (count == 1 && g_unichar_isalpha (chars[i]))
        {
          chars[i] = 0x0416;
          return g_ucs4_to_utf8 (chars, n, NULL, NULL, NULL);
        }
    }
  g_assert_not_reached ();
}

/* A query typed before the matcher's index is ready runs when the index arrives. */
static gboolean
pane_idle (DecipherInputPane *pane)
{
  return !decipher_input_pane_is_busy (pane);
}

static void
type (DecipherInputPane *pane, const char *text)
{
  GtkEditable *entry = decipher_input_pane_get_entry (pane);

  gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  GUI_TEST_WAIT (pane_idle, pane, "the answer to a query");
  gui_test_settle ();
}

static gboolean
no_conflicts (DcMatcher *matcher)
{
  return dc_matcher_get_n_conflicts (matcher) == 0;
}

/* The first button under @widget whose label is @label. */
static GtkButton *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return GTK_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;
  return FALSE;
}

static gboolean
review_closed (DecipherWindow *window)
{
  return _decipher_window_get_conflict_view (window) == NULL;
}

static void
test_keep (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = decipher_window_new (NULL);
  g_autofree char *line = truth_line (2);
  g_autofree char *changed = change_one_letter (line);
  g_autofree char *keep_label = NULL;
  g_autofree char *held = NULL;
  g_autofree char *autosave = NULL;
  DecipherInputPane *pane;
  DecipherConflictView *view;
  DecipherGlyphPalette *palette;
  DcMatcher *matcher;
  DcKey *key;
  GtkListBox *list;
  GtkButton *keep;
  guint symbol;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  autosave = g_strdup (decipher_session_get_autosave_path (decipher_window_get_session (window)));
  key = decipher_session_get_key (decipher_window_get_session (window));
  pane = _decipher_window_get_input_pane (window);
  matcher = dc_session_get_matcher (decipher_session_get_engine (decipher_window_get_session (window)));
  g_assert_null (_decipher_window_get_conflict_view (window));

  decipher_input_pane_set_line (pane, 2);
  type (pane, line);
  g_assert_cmpint (decipher_input_pane_get_last_kind (pane), ==, DC_MATCH_ASSIGNED);
  decipher_input_pane_set_line (pane, 2);
  type (pane, changed);
  g_assert_cmpint (decipher_input_pane_get_last_kind (pane), ==, DC_MATCH_CONFLICT);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 1);

  /* The review opened by itself, listing the conflict with both values. */
  view = _decipher_window_get_conflict_view (window);
  g_assert_nonnull (view);
  g_object_ref (view);
  list = decipher_conflict_view_get_list (view);
  g_assert_nonnull (gtk_list_box_get_row_at_index (list, 0));
  g_assert_null (gtk_list_box_get_row_at_index (list, 1));
  symbol = dc_matcher_get_conflict (matcher, 0)->symbol;
  held = g_strdup (dc_matcher_get_conflict (matcher, 0)->current);
  g_assert_true (has_label (GTK_WIDGET (list), held));
  g_assert_true (has_label (GTK_WIDGET (list), "Ж"));
  /* The palette's last filter shows the symbol in conflict, and only it. */
  palette = _decipher_window_get_palette (window);
  decipher_glyph_palette_set_filter (palette,
                                     DECIPHER_PALETTE_FONT
                                         + dc_document_get_n_fonts (decipher_session_get_document (
                                             decipher_window_get_session (window))));
  g_assert_cmpuint (g_list_model_get_n_items (decipher_glyph_palette_get_model (palette)), ==, 1);
  gui_test_screenshot ("conflict-view");

  keep_label = g_strdup_printf ("Keep “%s”", held);
  keep = find_button (GTK_WIDGET (list), keep_label);
  g_assert_nonnull (keep);
  gtk_widget_activate (GTK_WIDGET (keep));
  /* A button activated by key shows itself pressed, then clicks: however long that takes. */
  GUI_TEST_WAIT (no_conflicts, matcher, "the conflict to be settled");
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 0);
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, held);
  g_assert_cmpuint (g_list_model_get_n_items (decipher_glyph_palette_get_model (palette)), ==, 0);
  /* Issue 16.9: with the last conflict settled the review closes, rather than stay open
   * saying "No Conflicts". */
  GUI_TEST_WAIT (review_closed, window, "the review to close");

  gui_test_close_window (window);
  g_assert_finalize_object (view);
  g_unlink (autosave);
}

static guint
n_conflict_marks (DecipherWindow *window)
{
  guint n;

  decipher_view_state_get_marks (
      decipher_document_view_get_view_state (_decipher_window_get_document_view (window)),
      DECIPHER_MARK_CONFLICT, &n);
  return n;
}

/* The symbol of the first glyph of line @index: a letter of the text typed there. */
static guint
first_symbol_of_line (DecipherSession *session, guint index)
{
  DcDocument *document = decipher_session_get_document (session);
  const DcLine *line = &dc_document_get_lines (document, NULL)[index];
  const DcToken *token = &dc_document_get_tokens (document, NULL)[line->first_token];
  const guint32 *order = dc_document_get_reading_order (document, NULL);

  return dc_document_get_glyphs (document, NULL)[order[token->first_glyph]].symbol;
}

/* A window on legacy-cyrillic.pdf where a letter of line @index was assigned wrong by
 * hand and the line then typed right: one conflict, its review open. */
static DecipherWindow *
open_with_conflict (guint index, const char *line, char **autosave)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = decipher_window_new (NULL);
  DecipherSession *session;
  DecipherInputPane *pane;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  session = decipher_window_get_session (window);
  *autosave = g_strdup (decipher_session_get_autosave_path (session));
  pane = _decipher_window_get_input_pane (window);

  g_assert_true (dc_session_assign (decipher_session_get_engine (session),
                                    first_symbol_of_line (session, index), "Ж", NULL));
  decipher_input_pane_set_line (pane, index);
  type (pane, line);
  g_assert_cmpint (decipher_input_pane_get_last_kind (pane), ==, DC_MATCH_CONFLICT);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (dc_session_get_matcher (
                        decipher_session_get_engine (decipher_window_get_session (window)))),
                    ==, 1);
  g_assert_nonnull (_decipher_window_get_conflict_view (window));
  return window;
}

static void
close_and_forget (DecipherWindow *window, const char *autosave)
{
  gui_test_close_window (window);
  g_unlink (autosave);
}

/* Once the review has settled the conflict, the red marks on the page, the input
 * pane's hint and the text typed go, and a later query leaves them gone. */
static void
test_settled (void)
{
  g_autofree char *line = truth_line (2);
  g_autofree char *autosave = NULL;
  g_autofree char *use_label = NULL;
  DecipherWindow *window = open_with_conflict (2, line, &autosave);
  DecipherInputPane *pane = _decipher_window_get_input_pane (window);
  DcMatcher *matcher = dc_session_get_matcher (decipher_session_get_engine (decipher_window_get_session (window)));
  GtkLabel *hint = decipher_input_pane_get_hint_label (pane);
  GtkListBox *list = decipher_conflict_view_get_list (_decipher_window_get_conflict_view (window));
  GtkButton *use;

  g_assert_cmpuint (n_conflict_marks (window), >, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hint)));
  g_assert_nonnull (strstr (gtk_label_get_text (hint), "review"));
  g_assert_cmpstr (gtk_editable_get_text (decipher_input_pane_get_entry (pane)), ==, line);

  use_label = g_strdup_printf ("Use “%s”", dc_matcher_get_conflict (matcher, 0)->proposed);
  use = find_button (GTK_WIDGET (list), use_label);
  g_assert_nonnull (use);
  g_signal_emit_by_name (use, "clicked");
  GUI_TEST_WAIT (no_conflicts, matcher, "the conflict to be settled");
  GUI_TEST_WAIT_FOR (!gtk_widget_get_visible (GTK_WIDGET (hint)), "the input pane's hint to go");
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 0);
  g_assert_cmpuint (n_conflict_marks (window), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (hint)));
  g_assert_cmpstr (gtk_editable_get_text (decipher_input_pane_get_entry (pane)), ==, "");

  /* "Use" took the whole line as typed: typing it again teaches nothing, and nothing
   * comes back. */
  decipher_input_pane_set_line (pane, 2);
  type (pane, line);
  g_assert_cmpint (decipher_input_pane_get_last_kind (pane), ==, DC_MATCH_KNOWN);
  g_assert_cmpuint (n_conflict_marks (window), ==, 0);
  gui_test_screenshot ("conflict-settled");
  close_and_forget (window, autosave);
}

/* How many distinct symbols of line @index the key has no usable value for. */
static guint
n_unknown_in_line (DecipherSession *session, guint index)
{
  DcDocument *document = decipher_session_get_document (session);
  DcKey *key = decipher_session_get_key (session);
  const DcLine *line = &dc_document_get_lines (document, NULL)[index];
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = line->first_glyph; i < line->first_glyph + line->n_glyphs; i++)
    {
      guint symbol = glyphs[order[i]].symbol;

      if (dc_document_symbol_needs_decoding (document, symbol)
          && dc_key_get_value (key, symbol) == NULL)
        g_hash_table_add (seen, GUINT_TO_POINTER (symbol + 1));
    }
  return g_hash_table_size (seen);
}

static gboolean
has_rendered_picture (GtkWidget *widget)
{
  if (GTK_IS_PICTURE (widget) && gtk_picture_get_paintable (GTK_PICTURE (widget)) != NULL)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_rendered_picture (child))
      return TRUE;
  return FALSE;
}

/* Issue 31.6: "Use" takes the word as typed, so its letters that were unknown are
 * learned with the one in conflict; the places are shown as the
 * occurrence strip shows them, large, the glyph boxed. */
static void
use_learns_word (guint index)
{
  g_autofree char *line = truth_line (index);
  g_autofree char *autosave = NULL;
  g_autofree char *use_label = NULL;
  g_autofree char *proposed = NULL;
  DecipherWindow *window = open_with_conflict (index, line, &autosave);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  DcMatcher *matcher = dc_session_get_matcher (decipher_session_get_engine (session));
  GtkListBox *list = decipher_conflict_view_get_list (_decipher_window_get_conflict_view (window));
  guint symbol = first_symbol_of_line (session, index);
  GtkButton *use;

  g_assert_cmpuint (n_unknown_in_line (session, index), >=, 2);
  GUI_TEST_WAIT (has_rendered_picture, list, "the places to be cut from the pages");
  gui_test_screenshot ("conflict-view-large");

  /* The key's note of a long input is shortened: the whole is in the history. */
  g_assert_true (
      g_utf8_strlen (line, -1) <= 60
      || g_str_has_suffix (dc_matcher_get_conflict (matcher, 0)->proposed_provenance, "…»"));
  proposed = g_strdup (dc_matcher_get_conflict (matcher, 0)->proposed);
  use_label = g_strdup_printf ("Use “%s”", proposed);
  use = find_button (GTK_WIDGET (list), use_label);
  g_assert_nonnull (use);
  g_signal_emit_by_name (use, "clicked");
  GUI_TEST_WAIT (no_conflicts, matcher, "the conflict to be settled");
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, proposed);
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_CONFIRMED);
  /* Every other letter of the line was learned with it, without typing it again. */
  g_assert_cmpuint (n_unknown_in_line (session, index), ==, 0);

  /* Undone, the letters learned go first, then the value chosen. */
  g_assert_true (dc_session_undo (decipher_session_get_engine (session), NULL));
  g_assert_cmpuint (n_unknown_in_line (session, index), >=, 2);
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, proposed);
  g_assert_true (dc_session_undo (decipher_session_get_engine (session), NULL));
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "Ж");
  g_assert_cmpuint (n_unknown_in_line (session, index), >=, 2);
  close_and_forget (window, autosave);
}

static void
test_use_learns_word (void)
{
  use_learns_word (2);
}

/* An input over 60 characters is kept shortened in the key's provenance: "Use" takes it
 * whole from the project's history. */
static void
test_use_learns_long_input (void)
{
  g_autofree char *line = truth_line (6);

  g_assert_cmpint (g_utf8_strlen (line, -1), >, 60);
  use_learns_word (6);
}

/* The review says in words where each value came from, not in the key's own notes
 * ("assign", "type: «…»"). */
static void
test_provenance (void)
{
  g_autofree char *line = truth_line (2);
  g_autofree char *autosave = NULL;
  DecipherWindow *window = open_with_conflict (2, line, &autosave);
  GtkListBox *list = decipher_conflict_view_get_list (_decipher_window_get_conflict_view (window));
  g_autofree char *typed_from = g_strdup_printf ("Learned from typing “%s”", line);

  g_assert_true (has_label (GTK_WIDGET (list), "You assigned it"));
  g_assert_true (has_label (GTK_WIDGET (list), typed_from));
  g_assert_false (has_label (GTK_WIDGET (list), "type: «"));
  gui_test_screenshot ("conflict-view-provenance");
  close_and_forget (window, autosave);
}

/* The Escape shortcut of the window @widget is in, activated as a key press would. */
static gboolean
press_escape (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr (GtkShortcutTrigger) escape = gtk_keyval_trigger_new (GDK_KEY_Escape, 0);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), escape))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                 NULL);
        }
    }
  return FALSE;
}

/* Escape closes the review, as it closes any GNOME dialog. */
static void
test_escape (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = decipher_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.review-conflicts", NULL));
  GUI_TEST_WAIT_FOR (_decipher_window_get_conflict_view (window) != NULL, "the review to open");
  g_assert_true (press_escape (GTK_WIDGET (window->conflict_window)));
  GUI_TEST_WAIT (review_closed, window, "the review to close");
  g_assert_null (window->conflict_window);

  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/conflict-view/keep", test_keep);
  g_test_add_func ("/conflict-view/settled", test_settled);
  g_test_add_func ("/conflict-view/use-learns-word", test_use_learns_word);
  g_test_add_func ("/conflict-view/use-learns-long-input", test_use_learns_long_input);
  g_test_add_func ("/conflict-view/provenance", test_provenance);
  g_test_add_func ("/conflict-view/escape", test_escape);

  return g_test_run ();
}
