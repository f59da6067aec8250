/* test-window.c: the main window, driven as a user would, under a real X server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "decipher-application.h"
#include "decipher-window-private.h"
#include "decipher-symbol-item.h"
#include "gui-test-util.h"

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static gboolean
view_drew_highlights (DecipherDocumentView *view)
{
  return decipher_document_view_get_n_drawn_highlights (view) > 0;
}

static DecipherWindow *
open_window (GFile *file)
{
  DecipherWindow *window = decipher_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  g_assert_true (decipher_window_is_loading (window));
  g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "loading");
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  return window;
}

static void
close_window (DecipherWindow *window)
{
  /* GTK 4.8's tooltip timer must not outlive the window (see test-document-view.c). */
  gui_test_pointer_away (GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (window));
  gui_test_settle ();
}

/* The first symbol of an untrusted font, by frequency: a letter of the body text. */
static guint
most_frequent_unknown (DecipherSession *session)
{
  DcDocument *document = decipher_session_get_document (session);
  const DcSymbol *symbols;
  guint n, best = DC_SYMBOL_NONE;

  symbols = dc_document_get_symbols (document, &n);
  for (guint s = 0; s < n; s++)
    if (dc_session_symbol_is_unknown (decipher_session_get_engine (session), s)
        && !(symbols[s].flags & DC_SYMBOL_PDF_SPACE)
        && g_strcmp0 (symbols[s].glyph_name, "space") != 0
        && (best == DC_SYMBOL_NONE || symbols[s].n_glyphs > symbols[best].n_glyphs))
      best = s;
  g_assert_cmpuint (best, !=, DC_SYMBOL_NONE);
  return best;
}

static char *
palette_value_of (DecipherGlyphPalette *palette, guint symbol)
{
  GListModel *model = decipher_glyph_palette_get_model (palette);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DecipherSymbolItem) item = g_list_model_get_item (model, i);

      if (decipher_symbol_item_get_symbol (item) == symbol)
        return decipher_symbol_item_dup_value_label (item);
    }
  return NULL;
}

static void
test_empty_state (void)
{
  DecipherWindow *window = decipher_window_new (NULL);

  gtk_window_present (GTK_WINDOW (window));
  gui_test_wait_frame (GTK_WIDGET (window));
  g_assert_true (decipher_window_is_empty (window));
  g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "empty");
  /* Nothing to undo or show yet: the actions do nothing, the toggles are hidden. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->text_button)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->palette_button)));
  gui_test_screenshot ("window-empty");
  close_window (window);
}

static void
test_open_assign_undo_reopen (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherGlyphPalette *palette = _decipher_window_get_palette (window);
  DecipherGlyphPopover *popover;
  g_autofree char *progress_before = NULL;
  g_autofree char *autosave = NULL;
  g_autofree char *value = NULL;
  guint n_symbols, to_decode_symbols, to_decode_glyphs, decoded, guessed, guessed_glyphs, symbol;
  const guint32 *occurrences;
  guint n_occurrences;
  DcKey *key;

  g_assert_nonnull (session);
  {
    g_autoptr (DecipherSession) property = NULL;

    g_object_get (window, "session", &property, NULL);
    g_assert_true (property == session);
  }
  g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "document");
  key = decipher_session_get_key (session);
  dc_document_get_symbols (decipher_session_get_document (session), &n_symbols);
  dc_key_count_to_decode (key, &to_decode_symbols, &to_decode_glyphs);
  g_assert_cmpuint (to_decode_symbols, >, 0);
  /* New work: the automatic pass guessed the space and the full stop. */
  dc_key_count_decoded (key, &guessed, &guessed_glyphs);
  g_assert_cmpuint (guessed, ==, decipher_session_get_n_guessed (session));
  g_assert_cmpuint (guessed, >, 0);

  /* The palette lists every symbol, and by default the ones still to decode. */
  g_assert_cmpuint (g_list_model_get_n_items (decipher_glyph_palette_get_model (palette)), ==,
                    to_decode_symbols - guessed);
  decipher_glyph_palette_set_filter (palette, DECIPHER_PALETTE_ALL);
  g_assert_cmpuint (g_list_model_get_n_items (decipher_glyph_palette_get_model (palette)), ==,
                    n_symbols);

  /* Every glyph still to decode is highlighted, and the screen shows some. */
  g_assert_cmpuint (decipher_document_view_get_n_highlighted (view), ==,
                    to_decode_glyphs - guessed_glyphs);
  GUI_TEST_WAIT (view_drew_highlights, view, "highlighted glyphs on screen");
  progress_before = g_strdup (gtk_label_get_text (_decipher_window_get_progress_label (window)));
  {
    g_autofree char *expected = g_strdup_printf ("Symbols decoded: %u of %u", guessed,
                                                 to_decode_symbols);

    g_assert_true (g_str_has_prefix (progress_before, expected));
  }
  /* What no level decodes is said: counted on the progress line, per font in its tooltip
   * (issue 28, GLYPH_UNMAPPED). */
  {
    g_autofree char *unmapped = g_strdup_printf (" · %u glyphs unmapped",
                                                 to_decode_glyphs - guessed_glyphs);
    const char *tooltip = gtk_widget_get_tooltip_text (
        GTK_WIDGET (_decipher_window_get_progress_label (window)));

    g_assert_nonnull (strstr (progress_before, unmapped));
    g_assert_nonnull (tooltip);
    g_assert_true (g_str_has_prefix (tooltip, "Unmapped glyphs read as � in the text:\n"));
    g_assert_nonnull (strstr (tooltip, "glyphs have no value yet"));
  }
  gui_test_screenshot ("window-document");

  /* Click the first occurrence of the commonest unknown letter and type "а". */
  symbol = most_frequent_unknown (session);
  occurrences = dc_document_get_symbol_glyphs (decipher_session_get_document (session), symbol,
                                               &n_occurrences);
  decipher_document_view_activate_glyph (view, occurrences[0]);
  popover = decipher_document_view_get_popover (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  g_assert_cmpuint (decipher_glyph_popover_get_symbol (popover), ==, symbol);
  g_assert_cmpuint (decipher_view_state_get_selected_symbol (window->view_state), ==, symbol);
  decipher_glyph_popover_set_text (popover, "а");
  gui_test_screenshot ("window-popover");
  g_assert_true (decipher_glyph_popover_assign (popover));

  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "а");
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_CONFIRMED);
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, guessed + 1);
  value = palette_value_of (palette, symbol);
  g_assert_cmpstr (value, ==, "а");
  g_assert_cmpstr (gtk_label_get_text (_decipher_window_get_progress_label (window)), !=,
                   progress_before);
  g_assert_cmpuint (decipher_document_view_get_n_highlighted (view), ==,
                    to_decode_glyphs - guessed_glyphs - n_occurrences);
  gui_test_screenshot ("window-assigned");

  /* Undo and redo through the window's actions, as Ctrl+Z and Ctrl+Shift+Z do. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_null (dc_key_get_value (key, symbol));
  g_clear_pointer (&value, g_free);
  value = palette_value_of (palette, symbol);
  g_assert_cmpstr (value, ==, "?");
  g_assert_cmpstr (gtk_label_get_text (_decipher_window_get_progress_label (window)), ==,
                   progress_before);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "а");

  /* Closing saves without asking; opening the document again restores the work. */
  autosave = g_strdup (decipher_session_get_autosave_path (session));
  g_assert_true (g_str_has_prefix (autosave, gui_test_data_dir ()));
  close_window (window);
  g_assert_true (g_file_test (autosave, G_FILE_TEST_IS_REGULAR));

  window = open_window (file);
  session = decipher_window_get_session (window);
  g_assert_true (decipher_session_get_restored (session));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (session), symbol), ==, "а");
  g_assert_cmpint (dc_key_get_status (decipher_session_get_key (session), symbol), ==,
                   DC_KEY_CONFIRMED);

  /* Undo (Ctrl+Z) takes the assignment back as it would have before closing, and Redo
   * brings it again: the undo history lives in the project too. (The accelerators are
   * the application's, and this window has none: the actions they activate, then.) */
  key = decipher_session_get_key (session);
  palette = _decipher_window_get_palette (window);
  decipher_glyph_palette_set_filter (palette, DECIPHER_PALETTE_ALL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_null (dc_key_get_value (key, symbol));
  g_clear_pointer (&value, g_free);
  value = palette_value_of (palette, symbol);
  g_assert_cmpstr (value, ==, "?");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "а");
  g_clear_pointer (&value, g_free);
  value = palette_value_of (palette, symbol);
  g_assert_cmpstr (value, ==, "а");
  close_window (window);
}

/* Assigns as a user does: click a glyph of @symbol, type @text in the popover, Assign. */
static void
assign_by_popover (DecipherWindow *window, guint symbol, const char *text)
{
  DecipherSession *session = decipher_window_get_session (window);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherGlyphPopover *popover;
  const guint32 *occurrences;
  guint n_occurrences;

  occurrences = dc_document_get_symbol_glyphs (decipher_session_get_document (session), symbol,
                                               &n_occurrences);
  decipher_document_view_activate_glyph (view, occurrences[0]);
  popover = decipher_document_view_get_popover (view);
  decipher_glyph_popover_set_text (popover, text);
  g_assert_true (decipher_glyph_popover_assign (popover));
}

/* A toast's Undo undoes the step it announced, never a later one: once another step
 * happens that it did not count (Ctrl+Z), it offers no Undo, and a click on a stale
 * button does nothing. */
static void
test_stale_undo_toast (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  guint first = most_frequent_unknown (session), second;
  AdwToast *toast;

  assign_by_popover (window, first, "а");
  g_assert_nonnull (window->undo_toast);
  toast = window->undo_toast;
  second = most_frequent_unknown (session);
  assign_by_popover (window, second, "о");
  g_assert_true (window->undo_toast == toast);

  /* Ctrl+Z undoes the second letter: the toast cannot undo the first too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_null (dc_key_get_value (key, second));
  g_assert_null (window->undo_toast);
  g_assert_null (adw_toast_get_button_label (toast));
  g_signal_emit_by_name (toast, "button-clicked");
  g_assert_cmpstr (dc_key_get_value (key, first), ==, "а");

  /* The toast on show undoes the step it just counted. */
  assign_by_popover (window, second, "о");
  g_assert_nonnull (window->undo_toast);
  g_assert_nonnull (adw_toast_get_button_label (window->undo_toast));
  g_signal_emit_by_name (window->undo_toast, "button-clicked");
  g_assert_null (dc_key_get_value (key, second));
  g_assert_cmpstr (dc_key_get_value (key, first), ==, "а");
  close_window (window);
}

/* Ctrl+Z right after opening takes back what the engine decided by itself for the whole
 * document: a toast says which step, and its Redo puts them back, for as long as that step is the next
 * to redo. Ctrl+Shift+Z says what it made again, with an Undo. */
static void
test_undo_says_what (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  guint opened, decoded, symbol;
  g_autofree char *step = NULL;
  AdwToast *toast;

  dc_key_count_decoded (key, &opened, NULL);
  g_assert_cmpuint (opened, >, 0);
  step = g_strdup_printf ("Undone: %s", dc_key_get_undo_label (key));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, <, opened);
  toast = window->redo_toast;
  g_assert_nonnull (toast);
  g_assert_cmpstr (adw_toast_get_title (toast), ==, step);
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Redo");
  gui_test_screenshot ("window-undone-toast");
  g_signal_emit_by_name (toast, "button-clicked");
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, opened);
  g_assert_null (window->redo_toast);

  /* Once another step follows, the toast's Redo would make something else again: it is
   * taken away, and a click on it does nothing. */
  symbol = most_frequent_unknown (session);
  assign_by_popover (window, symbol, "а");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_null (dc_key_get_value (key, symbol));
  toast = window->redo_toast;
  g_assert_nonnull (toast);
  g_assert_true (g_str_has_prefix (adw_toast_get_title (toast), "Undone: "));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "а");
  g_assert_null (window->redo_toast);
  g_assert_null (adw_toast_get_button_label (toast));
  g_signal_emit_by_name (toast, "button-clicked");
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "а");
  g_assert_nonnull (window->undo_toast);
  g_assert_true (g_str_has_prefix (adw_toast_get_title (window->undo_toast), "Redone: "));
  g_signal_emit_by_name (window->undo_toast, "button-clicked");
  g_assert_null (dc_key_get_value (key, symbol));
  close_window (window);
}

/* The toasts' labels on show in @widget's tree. */
static void
collect_toast_titles (GtkWidget *widget, GPtrArray *titles)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "AdwToastWidget"))
    {
      for (GtkWidget *w = gtk_widget_get_first_child (widget); w != NULL;
           w = gtk_widget_get_first_child (w))
        {
          for (GtkWidget *c = w; c != NULL; c = gtk_widget_get_next_sibling (c))
            if (GTK_IS_LABEL (c))
              {
                g_ptr_array_add (titles, g_strdup (gtk_label_get_text (GTK_LABEL (c))));
                return;
              }
        }
      g_ptr_array_add (titles, g_strdup (""));
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_toast_titles (c, titles);
}

static guint
n_toasts (DecipherWindow *window)
{
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);

  collect_toast_titles (GTK_WIDGET (window->toast_overlay), titles);
  return titles->len;
}

static gboolean
no_toast (DecipherWindow *window)
{
  return n_toasts (window) == 0;
}

/* Issue 16.3: assignments in a row make one toast that counts them, and once it has
 * gone no other comes back: one toast per assignment used to queue up and keep cycling
 * over the page for minutes. */
static void
test_one_learning_toast (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  const char *letters[] = { "а", "о", "е", "и" };
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);

  /* What the automatic pass guessed is said first. */
  GUI_TEST_WAIT (no_toast, window, "the opening toast to go");
  for (guint i = 0; i < G_N_ELEMENTS (letters); i++)
    {
      assign_by_popover (window, most_frequent_unknown (session), letters[i]);
      gui_test_wait_frame (GTK_WIDGET (window));
    }
  collect_toast_titles (GTK_WIDGET (window->toast_overlay), titles);
  g_assert_cmpuint (titles->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (titles, 0), ==, "4 symbols learned");
  gui_test_screenshot ("window-learning-toast");

  /* It times out; nothing queued behind it comes up after. */
  GUI_TEST_WAIT (no_toast, window, "the toast to go");
  gui_test_iterate (1500);
  g_assert_cmpuint (n_toasts (window), ==, 0);
  close_window (window);
}

static gboolean
find_label_with (GtkWidget *widget, const char *part, char **text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part) != NULL)
    {
      *text = g_strdup (gtk_label_get_text (GTK_LABEL (widget)));
      return TRUE;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (find_label_with (c, part, text))
      return TRUE;
  return FALSE;
}

/* Issue 16.9: the palette and the status bar count the same symbols (the palette's
 * unknown and the status bar's decoded add up to the one total both name), and a
 * zoom chosen for one document does not carry over to the next. */
static void
test_counts_and_zoom (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autoptr (GFile) other = gui_test_fixture_copy ("uralic-legacy.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  g_autofree char *summary = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *status = NULL;
  guint decoded, to_decode;

  assign_by_popover (window, most_frequent_unknown (session), "а");
  dc_key_count_decoded (key, &decoded, NULL);
  dc_key_count_to_decode (key, &to_decode, NULL);
  expected = g_strdup_printf ("Symbols decoded: %u of %u", decoded, to_decode);
  GUI_TEST_WAIT_FOR (g_str_has_prefix (gtk_label_get_text (
                                           _decipher_window_get_progress_label (window)),
                                       expected),
                     "the status to count the new symbol");
  status = g_strdup (gtk_label_get_text (_decipher_window_get_progress_label (window)));
  g_assert_true (g_str_has_prefix (status, expected));
  g_assert_true (find_label_with (GTK_WIDGET (_decipher_window_get_palette (window)),
                                  "still unknown", &summary));
  g_free (expected);
  expected = g_strdup_printf ("%u of %u symbols still unknown", to_decode - decoded, to_decode);
  g_assert_cmpstr (summary, ==, expected);

  decipher_document_view_set_zoom (view, 2.0);
  decipher_window_open (window, other);
  GUI_TEST_WAIT (window_loaded, window, "the second document to load");
  g_assert_cmpfloat (decipher_document_view_get_zoom (view), ==, 1.0);
  close_window (window);
}

/* A toast sits over the pages, not over the input pane: a long one would otherwise hide
 * the text being typed and take the clicks meant for the entry. */
static void
test_toast_spares_entry (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  GtkWidget *entry = GTK_WIDGET (
      decipher_input_pane_get_entry (_decipher_window_get_input_pane (window)));
  graphene_rect_t bounds;
  GtkWidget *picked;
  double x, y;

  _decipher_window_toast (window,
                          "A note long enough to reach across the middle of the window "
                          "where the entry is",
                          FALSE);
  gui_test_iterate (600); /* the toast slides in */
  gui_test_screenshot ("window-toast");
  g_assert_false (gtk_widget_is_ancestor (entry, GTK_WIDGET (window->toast_overlay)));
  g_assert_true (gtk_widget_compute_bounds (entry, GTK_WIDGET (window), &bounds));
  /* Where the toast would be: centred across the window, on the entry's middle. */
  x = gtk_widget_get_width (GTK_WIDGET (window)) / 2.0;
  y = bounds.origin.y + bounds.size.height / 2;
  g_assert_cmpfloat (x, >, bounds.origin.x);
  g_assert_cmpfloat (x, <, bounds.origin.x + bounds.size.width);
  picked = gtk_widget_pick (GTK_WIDGET (window), x, y, GTK_PICK_DEFAULT);
  g_assert_nonnull (picked);
  g_assert_true (picked == entry || gtk_widget_is_ancestor (picked, entry));
  close_window (window);
}

/* A window showing legacy-cyrillic.pdf with one letter assigned: work that a bad file
 * opened over it must leave as it is. */
static DecipherWindow *
open_window_with_work (char **snapshot)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);

  g_assert_true (dc_session_assign (decipher_session_get_engine (session),
                                    most_frequent_unknown (session), "а", NULL));
  *snapshot = gui_test_key_snapshot (decipher_session_get_key (session));
  return window;
}

static void
assert_work_intact (DecipherWindow *window, DecipherSession *session, const char *snapshot)
{
  g_autofree char *now = NULL;

  g_assert_true (decipher_window_get_session (window) == session);
  g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "document");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "legacy-cyrillic.pdf");
  now = gui_test_key_snapshot (decipher_session_get_key (session));
  g_assert_cmpstr (now, ==, snapshot);
}

/* Each file the engine refuses: the window says the engine's sentence under a heading
 * naming the file, and what was open stays open with its work. */
static void
test_bad_files (void)
{
  const struct
  {
    const char *fixture;
    const char *sentence;
  } cases[] = {
    { "not-a-pdf.pdf", "“not-a-pdf.pdf” is not a PDF file. Choose a PDF document to open." },
    { "truncated.pdf", "“truncated.pdf” is incomplete: the file stops before the end of the PDF, "
                       "as if a download or copy was cut short. Open a complete copy of it." },
    { "no-text.pdf", "“no-text.pdf” contains no text at all, so there is nothing to recover." },
    { "image-only.pdf", "“image-only.pdf” contains only images of pages, as a scan does, and no "
                        "text to recover. Decipher repairs the text of PDFs made on a computer; "
                        "recognising text in images (OCR) is a job for another tool." },
  };
  g_autofree char *snapshot = NULL;
  DecipherWindow *window;
  DecipherSession *session;

  /* Into an empty window first: it stays empty and says why. */
  {
    g_autoptr (GFile) file = gui_test_fixture_copy ("not-a-pdf.pdf");

    window = open_window (file);
    g_assert_null (decipher_window_get_session (window));
    g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "empty");
    g_assert_cmpstr (_decipher_window_get_last_error (window), ==, cases[0].sentence);
    g_assert_nonnull (gui_test_find_dialog ());
    gui_test_screenshot ("window-error");
    gui_test_close_dialogs ();
    close_window (window);
  }

  window = open_window_with_work (&snapshot);
  session = decipher_window_get_session (window);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GFile) file = gui_test_fixture_copy (cases[i].fixture);
      g_autofree char *heading = g_strdup_printf ("Cannot Open “%s”", cases[i].fixture);
      AdwMessageDialog *dialog;

      decipher_window_open (window, file);
      GUI_TEST_WAIT (window_loaded, window, cases[i].fixture);
      dialog = gui_test_find_dialog ();
      g_assert_nonnull (dialog);
      g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
      g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
      g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, cases[i].sentence);
      g_assert_cmpstr (_decipher_window_get_last_error (window), ==, cases[i].sentence);
      if (i == 3)
        gui_test_screenshot ("window-error-scanned");
      gui_test_close_dialogs ();
      assert_work_intact (window, session, snapshot);
    }
  close_window (window);
}

static gboolean
dialog_shown (gpointer data)
{
  return gui_test_find_dialog () != NULL;
}

/* The password prompt now shown, with the engine's @sentence as its body. */
static DecipherPasswordDialog *
expect_password_prompt (const char *sentence, gboolean wrong)
{
  AdwMessageDialog *dialog;

  GUI_TEST_WAIT (dialog_shown, NULL, "the password dialog");
  dialog = gui_test_find_dialog ();
  g_assert_true (DECIPHER_IS_PASSWORD_DIALOG (dialog));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==,
                   wrong ? "Wrong Password" : "Password Required");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, sentence);
  g_assert_true (decipher_password_dialog_get_wrong (DECIPHER_PASSWORD_DIALOG (dialog)) == wrong);
  /* Nothing to try yet. */
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "open"));
  return DECIPHER_PASSWORD_DIALOG (dialog);
}

/* Types @password, if any, and clicks the button labelled @button. */
static void
answer (DecipherPasswordDialog *dialog, const char *button, const char *password)
{
  GtkButton *widget = gui_test_find_button (GTK_WIDGET (dialog), button);

  g_assert_nonnull (widget);
  if (password != NULL)
    decipher_password_dialog_set_password (dialog, password);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (widget)));
  g_signal_emit_by_name (widget, "clicked");
  gui_test_settle ();
}

#define ASKS "“encrypted.pdf” is protected by a password. Give its password to open it."
#define WRONG "The password given for “encrypted.pdf” is not correct. Check it and try again."

static void
test_encrypted (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("encrypted.pdf");
  DecipherWindow *window = open_window (file);
  DecipherPasswordDialog *dialog;

  g_assert_null (decipher_window_get_session (window));
  dialog = expect_password_prompt (ASKS, FALSE);
  gui_test_screenshot ("window-password");
  answer (dialog, "_Open", "wrong");
  GUI_TEST_WAIT (window_loaded, window, "the second attempt");
  g_assert_null (decipher_window_get_session (window));

  /* Said in the prompt that comes back, which takes another try. */
  dialog = expect_password_prompt (WRONG, TRUE);
  g_assert_cmpstr (_decipher_window_get_last_error (window), ==, WRONG);
  gui_test_screenshot ("window-password-wrong");
  answer (dialog, "_Open", "secret");
  GUI_TEST_WAIT (window_loaded, window, "the document to load with its password");
  g_assert_nonnull (decipher_window_get_session (window));
  g_assert_cmpstr (decipher_session_get_password (decipher_window_get_session (window)), ==,
                   "secret");
  g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "document");
  g_assert_null (gui_test_find_dialog ());
  close_window (window);
}

/* Cancel, at the first prompt or after a wrong password, leaves the document that was
 * open as it was. */
static void
test_encrypted_cancel_keeps_document (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("encrypted.pdf");
  g_autofree char *snapshot = NULL;
  DecipherWindow *window = open_window_with_work (&snapshot);
  DecipherSession *session = decipher_window_get_session (window);
  DecipherPasswordDialog *dialog;

  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the encrypted document");
  dialog = expect_password_prompt (ASKS, FALSE);
  assert_work_intact (window, session, snapshot);
  answer (dialog, "_Cancel", NULL);
  g_assert_null (gui_test_find_dialog ());
  assert_work_intact (window, session, snapshot);

  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the encrypted document again");
  dialog = expect_password_prompt (ASKS, FALSE);
  answer (dialog, "_Open", "not it");
  GUI_TEST_WAIT (window_loaded, window, "the wrong password");
  dialog = expect_password_prompt (WRONG, TRUE);
  assert_work_intact (window, session, snapshot);
  /* Escape, or the window's close button: the close response. */
  gtk_window_close (GTK_WINDOW (dialog));
  GUI_TEST_WAIT_FOR (gui_test_find_dialog () == NULL, "the password prompt to close");
  assert_work_intact (window, session, snapshot);
  close_window (window);
}

/* The project files next to @autosave set aside as damaged, sorted. */
static GPtrArray *
list_set_aside (const char *autosave)
{
  g_autofree char *folder = g_path_get_dirname (autosave);
  g_autofree char *base = g_path_get_basename (autosave);
  g_autofree char *prefix = g_strconcat (base, ".damaged-", NULL);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix))
      g_ptr_array_add (found, g_build_filename (folder, name, NULL));
  return found;
}

static gboolean
file_exists (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* A saved project that cannot be read: the document opens as new work, the window says
 * so and where the file was kept, and the file is kept byte for byte, never written over
 * by the autosave that follows. */
static void
test_damaged_project (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autoptr (GFile) other = gui_test_fixture_copy ("identity-h.pdf");
  g_autofree char *autosave = NULL;
  g_autofree char *valid = NULL;
  g_autofree char *foreign = NULL;
  g_autofree char *nested = g_strnfill (100000, '[');
  DecipherWindow *window;
  DecipherSession *session;
  gsize length;

  /* A real project of each document, to damage. */
  window = open_window (file);
  session = decipher_window_get_session (window);
  autosave = g_strdup (decipher_session_get_autosave_path (session));
  g_assert_true (dc_session_assign (decipher_session_get_engine (session),
                                    most_frequent_unknown (session), "а", NULL));
  gui_test_close_dialogs ();
  close_window (window);
  g_assert_true (g_file_get_contents (autosave, &valid, &length, NULL));
  window = open_window (other);
  session = decipher_window_get_session (window);
  g_assert_true (dc_session_assign (decipher_session_get_engine (session),
                                    most_frequent_unknown (session), "x", NULL));
  g_assert_true (decipher_session_save (session, NULL));
  g_assert_true (
      g_file_get_contents (decipher_session_get_autosave_path (session), &foreign, NULL, NULL));
  close_window (window);

  {
    g_autofree char *name = g_path_get_basename (autosave);
    g_autofree char *cut = g_strndup (valid, length / 2);
    g_autofree char *nests = g_strdup_printf ("Cannot open the project “%s”. It nests deeper than "
                                              "any project does.",
                                              name);
    g_autofree char *elsewhere = g_strdup_printf ("The project “%s” was made for “identity-h.pdf”, "
                                                  "not for “legacy-cyrillic.pdf”.",
                                                  name);
    const struct
    {
      const char *contents;
      const char *sentence;
    } cases[] = {
      { cut, "It is not valid JSON; perhaps it was cut short" },
      { nested, nests },
      { foreign, elsewhere },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr (GPtrArray) before = list_set_aside (autosave);
        g_autoptr (GPtrArray) after = NULL;
        g_autofree char *kept = NULL;
        g_autofree char *suffix = NULL;
        AdwMessageDialog *dialog;
        const char *body;

        g_assert_true (g_file_set_contents (autosave, cases[i].contents, -1, NULL));
        window = open_window (file);
        session = decipher_window_get_session (window);
        g_assert_nonnull (session);
        g_assert_cmpstr (_decipher_window_get_visible_page (window), ==, "document");
        g_assert_false (decipher_session_get_restored (session));

        /* Kept, once, under a new name, as it was. */
        after = list_set_aside (autosave);
        g_assert_cmpuint (after->len, ==, before->len + 1);
        for (guint j = 0; j < after->len && kept == NULL; j++)
          if (!g_ptr_array_find_with_equal_func (before, after->pdata[j], g_str_equal, NULL))
            kept = g_strdup (after->pdata[j]);
        g_assert_nonnull (kept);

        dialog = gui_test_find_dialog ();
        g_assert_nonnull (dialog);
        g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Earlier Work Not Restored");
        body = adw_message_dialog_get_body (dialog);
        suffix = g_strdup_printf (" The file was kept as “%s”.", kept);
        g_assert_true (g_str_has_prefix (body, "Your earlier work on this document could not be "
                                               "read, so the document opens without it. "));
        g_assert_nonnull (strstr (body, cases[i].sentence));
        g_assert_true (g_str_has_suffix (body, suffix));
        if (i == 0)
          gui_test_screenshot ("window-damaged-project");

        /* The new work is saved in its place; the damaged file stays as it was. */
        GUI_TEST_WAIT (file_exists, autosave, "the new work to be saved");
        {
          g_autofree char *still = NULL;

          g_assert_true (g_file_get_contents (kept, &still, NULL, NULL));
          g_assert_cmpstr (still, ==, cases[i].contents);
        }
        gui_test_close_dialogs ();
        close_window (window);

        /* And the new work comes back next time, without a word. */
        window = open_window (file);
        g_assert_true (decipher_session_get_restored (decipher_window_get_session (window)));
        g_assert_null (gui_test_find_dialog ());
        close_window (window);
      }
  }
}

static void
test_show_text (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = open_window (file);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherSession *session = decipher_window_get_session (window);
  guint symbol = most_frequent_unknown (session);

  g_assert_true (dc_session_assign (decipher_session_get_engine (session), symbol, "о", NULL));
  g_assert_false (decipher_document_view_get_show_text (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-text", NULL));
  g_assert_true (decipher_document_view_get_show_text (view));
  gui_test_wait_frame (GTK_WIDGET (view));
  /* Over the text, only the selected symbol is marked. */
  g_assert_cmpuint (decipher_document_view_get_n_drawn_highlights (view), ==, 0);
  gui_test_screenshot ("window-show-text");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-text", NULL));
  g_assert_false (decipher_document_view_get_show_text (view));
  close_window (window);
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

static void
test_drop_and_recent (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("uralic-legacy.pdf");
  DecipherWindow *window = decipher_window_new (NULL);
  GtkDropTarget *target;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;
  g_autofree char *uri = g_file_get_uri (file);
  gboolean listed = FALSE;
  GList *items;

  gtk_window_present (GTK_WINDOW (window));
  target = find_drop_target (GTK_WIDGET (window));
  g_assert_nonnull (target);

  /* A file dropped from a file manager opens as if chosen. */
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, file);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);
  GUI_TEST_WAIT (window_loaded, window, "the dropped document");
  g_assert_nonnull (decipher_window_get_session (window));

  /* It is now a recent document of this application. */
  items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  for (GList *l = items; l != NULL; l = l->next)
    if (g_str_equal (gtk_recent_info_get_uri (l->data), uri))
      listed = gtk_recent_info_has_application (l->data, "decipher");
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_assert_true (listed);
  close_window (window);
}

static void
test_window_state_saved (void)
{
  DecipherWindow *window = decipher_window_new (NULL);
  int width, height;

  gtk_window_set_default_size (GTK_WINDOW (window), 1234, 777);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_wait_frame (GTK_WIDGET (window));
  close_window (window);

  /* The next window opens at the size the last one closed with. */
  window = decipher_window_new (NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1234);
  g_assert_cmpint (height, ==, 777);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_palette_opens_glyph (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("identity-h.pdf");
  DecipherWindow *window = open_window (file);
  DecipherSession *session = decipher_window_get_session (window);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherGlyphPopover *popover = decipher_document_view_get_popover (view);
  guint symbol = most_frequent_unknown (session);

  /* Enter on a palette cell shows the symbol on the page, ready to assign. */
  g_signal_emit_by_name (_decipher_window_get_palette (window), "symbol-activated", symbol);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  g_assert_cmpuint (decipher_glyph_popover_get_symbol (popover), ==, symbol);
  gui_test_screenshot ("window-identity-h");
  gtk_popover_popdown (GTK_POPOVER (popover));
  close_window (window);
}

/* Every shortcut the shortcuts window lists is an action the window or the application
 * has, so none of them silently does nothing. */
static void
test_help_overlay (void)
{
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource (
      "/io/github/decipherpdf/Decipher/gtk/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");
  const char *app_actions[] = { "app.quit", "win.show-help-overlay", NULL };
  g_autoptr (GSList) objects = gtk_builder_get_objects (builder);
  guint n_checked = 0;

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *action = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "action-name", &action, NULL);
      if (action == NULL || g_strv_contains (app_actions, action))
        continue;
      g_assert_true (g_str_has_prefix (action, "win."));
      {
        gboolean found = FALSE;
        GtkWidgetClass *klass = g_type_class_peek (DECIPHER_TYPE_WINDOW);
        const char *name, *property;
        const GVariantType *type;
        GType owner;

        for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &type, &property);
             i++)
          if (g_str_equal (name, action))
            found = TRUE;
        g_assert_true (found);
        n_checked++;
      }
    }
  g_assert_cmpuint (n_checked, >=, 10);
  gtk_window_destroy (GTK_WINDOW (overlay));
}

static gboolean
shortcuts_window_shown (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_SHORTCUTS_WINDOW (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return TRUE;
    }
  return FALSE;
}

static gboolean
application_has_no_windows (GtkApplication *application)
{
  return gtk_application_get_windows (application) == NULL;
}

/* `decipher FILE.pdf` as the application receives it, its shortcuts window and Quit. */
static void
test_application (void)
{
  g_autoptr (DecipherApplication) application = decipher_application_new ();
  g_autoptr (GFile) file = gui_test_fixture_copy ("clean.pdf");
  g_autoptr (GError) error = NULL;
  GFile *files[] = { file };
  DecipherWindow *window;
  GList *windows;

  /* Not unique: the test has no session bus to be unique on. */
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);

  g_application_open (G_APPLICATION (application), files, 1, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (application));
  g_assert_nonnull (windows);
  window = windows->data;
  g_assert_true (DECIPHER_IS_WINDOW (window));
  GUI_TEST_WAIT (window_loaded, window, "the document given to the application");
  g_assert_nonnull (decipher_window_get_session (window));

  /* And the converse: every accelerator the application sets is in the shortcuts window. */
  {
    g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource (
        "/io/github/decipherpdf/Decipher/gtk/help-overlay.ui");
    g_autoptr (GSList) objects = gtk_builder_get_objects (builder);
    g_autoptr (GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_auto (GStrv)
        actions = gtk_application_list_action_descriptions (GTK_APPLICATION (application));

    for (GSList *l = objects; l != NULL; l = l->next)
      if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        {
          char *action = NULL;

          g_object_get (l->data, "action-name", &action, NULL);
          if (action != NULL)
            g_hash_table_add (listed, action);
        }
    for (guint i = 0; actions[i] != NULL; i++)
      {
        g_auto (GStrv)
            accels = gtk_application_get_accels_for_action (GTK_APPLICATION (application),
                                                            actions[i]);

        if (accels[0] != NULL && !g_hash_table_contains (listed, actions[i]))
          g_error ("The shortcuts window does not list %s (%s)", actions[i], accels[0]);
      }
    g_assert_true (g_strv_contains ((const char *const *) actions, "win.save-project-as"));
    gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  GUI_TEST_WAIT (shortcuts_window_shown, NULL, "the shortcuts window");
  gui_test_screenshot ("window-shortcuts");

  gui_test_pointer_away (NULL);
  g_action_group_activate_action (G_ACTION_GROUP (application), "quit", NULL);
  GUI_TEST_WAIT (application_has_no_windows, application, "Quit to close every window");
}

typedef struct
{
  DecipherDocumentView *view;
  guint page;
  double zoom;
} ViewWait;

static gboolean
view_is (ViewWait *wait)
{
  return decipher_document_view_get_page (wait->view) == wait->page
         && G_APPROX_VALUE (decipher_document_view_get_zoom (wait->view), wait->zoom, 1e-6);
}

/* Issue 31.10: reopening a document showed its first page at the default zoom. It
 * shows the page and zoom it was left at, kept beside its autosave. */
static void
test_reopen_restores_view (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  DecipherWindow *window = decipher_window_new (NULL);
  DecipherDocumentView *view;
  ViewWait wait;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  view = _decipher_window_get_document_view (window);
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 0);
  decipher_document_view_set_zoom (view, 1.44);
  decipher_document_view_set_page (view, 1);
  wait = (ViewWait){ view, 1, 1.44 };
  GUI_TEST_WAIT (view_is, &wait, "page 2 at 144 %");
  gui_test_pointer_away (GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (window));
  gui_test_settle ();

  window = decipher_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load again");
  wait.view = _decipher_window_get_document_view (window);
  GUI_TEST_WAIT (view_is, &wait, "the document reopened at page 2, 144 %");
  gui_test_screenshot ("window-reopened-view");
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/window/empty-state", test_empty_state);
  g_test_add_func ("/window/open-assign-undo-reopen", test_open_assign_undo_reopen);
  g_test_add_func ("/window/stale-undo-toast", test_stale_undo_toast);
  g_test_add_func ("/window/undo-says-what", test_undo_says_what);
  g_test_add_func ("/window/one-learning-toast", test_one_learning_toast);
  g_test_add_func ("/window/counts-and-zoom", test_counts_and_zoom);
  g_test_add_func ("/window/toast-spares-entry", test_toast_spares_entry);
  g_test_add_func ("/window/bad-files", test_bad_files);
  g_test_add_func ("/window/encrypted", test_encrypted);
  g_test_add_func ("/window/encrypted-cancel-keeps-document", test_encrypted_cancel_keeps_document);
  g_test_add_func ("/window/damaged-project", test_damaged_project);
  g_test_add_func ("/window/show-text", test_show_text);
  g_test_add_func ("/window/drop-and-recent", test_drop_and_recent);
  g_test_add_func ("/window/state-saved", test_window_state_saved);
  g_test_add_func ("/window/palette-opens-glyph", test_palette_opens_glyph);
  g_test_add_func ("/window/help-overlay", test_help_overlay);
  g_test_add_func ("/window/application", test_application);
  g_test_add_func ("/window/reopen-restores-view", test_reopen_restores_view);
  return g_test_run ();
}
