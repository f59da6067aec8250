/* test-keyboard.c: the window worked by keyboard alone, real keys on a real X server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "decipher-application.h"
#include "decipher-recognize-bar.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static GtkWidget *
focus_of (DecipherWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static gboolean
focus_inside (DecipherWindow *window, GtkWidget *ancestor)
{
  GtkWidget *focus = focus_of (window);

  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}

static gboolean
grid_has_items (GtkGridView *grid)
{
  GtkSelectionModel *model = gtk_grid_view_get_model (grid);

  return model != NULL && g_list_model_get_n_items (G_LIST_MODEL (model)) > 2;
}

/* The palette is one Tab stop however many cells it shows; the arrows move among them. */
static void
test_palette_one_tab_stop (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherGlyphPalette *palette = _decipher_window_get_palette (window);
  GtkGridView *grid = GTK_GRID_VIEW (
      gui_test_find_descendant (GTK_WIDGET (palette), GTK_TYPE_GRID_VIEW));
  guint first, second;

  GUI_TEST_WAIT (grid_has_items, grid, "the palette's cells");
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (grid)));
  GUI_TEST_WAIT_FOR (focus_inside (window, GTK_WIDGET (grid)), "the focus in the palette");

  gui_test_key (GTK_WINDOW (window), "Right");
  first = decipher_glyph_palette_get_selected_symbol (palette);
  g_assert_cmpuint (first, !=, DC_SYMBOL_NONE);
  gui_test_key (GTK_WINDOW (window), "Right");
  second = decipher_glyph_palette_get_selected_symbol (palette);
  g_assert_cmpuint (second, !=, DC_SYMBOL_NONE);
  g_assert_cmpuint (second, !=, first);
  g_assert_true (focus_inside (window, GTK_WIDGET (grid)));

  /* One Tab leaves the grid, forwards and backwards. */
  gui_test_key (GTK_WINDOW (window), "Tab");
  g_assert_nonnull (focus_of (window));
  g_assert_false (focus_inside (window, GTK_WIDGET (grid)));
  gui_test_key (GTK_WINDOW (window), "<Shift>Tab");
  g_assert_true (focus_inside (window, GTK_WIDGET (grid)));
  /* Back at the cell it left, not at the first one. */
  g_assert_cmpuint (decipher_glyph_palette_get_selected_symbol (palette), ==, second);
  gui_test_key (GTK_WINDOW (window), "<Shift>Tab");
  g_assert_nonnull (focus_of (window));
  g_assert_false (focus_inside (window, GTK_WIDGET (grid)));
  g_assert_true (focus_inside (window, GTK_WIDGET (palette)));
  gui_test_key (GTK_WINDOW (window), "Tab");
  g_assert_true (focus_inside (window, GTK_WIDGET (grid)));
  gui_test_close_window (window);
}

static gboolean
cursor_drawn (DecipherDocumentView *view)
{
  return decipher_document_view_get_cursor_drawn (view);
}

static guint
line_of_glyph (DcDocument *document, guint glyph)
{
  guint n_lines, n_order;
  const DcLine *lines = dc_document_get_lines (document, &n_lines);
  const guint32 *order = dc_document_get_reading_order (document, &n_order);

  for (guint l = 0; l < n_lines; l++)
    for (guint p = lines[l].first_glyph; p < lines[l].first_glyph + lines[l].n_glyphs; p++)
      if (order[p] == glyph)
        return l;
  g_assert_not_reached ();
}

/* The arrows move a cursor over the page's glyphs, drawn where it is; Enter assigns. */
static void
test_glyph_cursor (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherSession *session = decipher_window_get_session (window);
  DcDocument *document = decipher_session_get_document (session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  DecipherGlyphPopover *popover = decipher_document_view_get_popover (view);
  int start, next, below;

  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (view)));
  g_assert_cmpint (decipher_document_view_get_cursor_glyph (view), ==, -1);

  /* The first key puts the cursor on the first glyph in view. */
  gui_test_key (GTK_WINDOW (window), "Right");
  start = decipher_document_view_get_cursor_glyph (view);
  g_assert_cmpint (start, >=, 0);
  g_assert_false (dc_document_symbol_is_space (document, glyphs[start].symbol));
  g_assert_cmpuint (glyphs[start].page, ==, 0);
  GUI_TEST_WAIT (cursor_drawn, view, "the glyph cursor to be drawn");

  gui_test_key (GTK_WINDOW (window), "Right");
  next = decipher_document_view_get_cursor_glyph (view);
  g_assert_cmpint (next, >=, 0);
  g_assert_cmpint (next, !=, start);
  g_assert_cmpuint (line_of_glyph (document, next), ==, line_of_glyph (document, start));
  g_assert_cmpfloat (dc_glyph_get_box (&glyphs[next]).x0, >, dc_glyph_get_box (&glyphs[start]).x0);

  gui_test_key (GTK_WINDOW (window), "Left");
  g_assert_cmpint (decipher_document_view_get_cursor_glyph (view), ==, start);

  gui_test_key (GTK_WINDOW (window), "Down");
  below = decipher_document_view_get_cursor_glyph (view);
  g_assert_cmpint (below, >=, 0);
  g_assert_cmpuint (line_of_glyph (document, below), >, line_of_glyph (document, start));
  g_assert_cmpfloat (dc_glyph_get_box (&glyphs[below]).y0, >, dc_glyph_get_box (&glyphs[start]).y0);
  gui_test_key (GTK_WINDOW (window), "Up");
  g_assert_cmpuint (line_of_glyph (document, decipher_document_view_get_cursor_glyph (view)), ==,
                    line_of_glyph (document, start));
  gui_test_key (GTK_WINDOW (window), "Down");
  g_assert_cmpint (decipher_document_view_get_cursor_glyph (view), ==, below);
  gui_test_screenshot ("keyboard-glyph-cursor");

  /* Enter opens the popover on the glyph under the cursor, as a click would. */
  gui_test_key (GTK_WINDOW (window), "Return");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  g_assert_cmpuint (decipher_glyph_popover_get_symbol (popover), ==, glyphs[below].symbol);
  g_assert_cmpuint (decipher_view_state_get_selected_symbol (window->view_state), ==, glyphs[below].symbol);
  gui_test_screenshot ("keyboard-glyph-cursor-popover");
  gtk_popover_popdown (GTK_POPOVER (popover));
  gui_test_close_window (window);
}

static gboolean
shortcuts_window_shown (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_SHORTCUTS_WINDOW (window) && gtk_widget_get_mapped (GTK_WIDGET (window)))
        return TRUE;
    }
  return FALSE;
}

static void
collect_text (GtkWidget *widget, GString *text)
{
  if (GTK_IS_LABEL (widget))
    g_string_append (text, gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_text (child, text);
}

/* Each GtkShortcutLabel's key caps as one string: "Ctrl+Page Up", "←/→/↑/↓". */
static void
collect_shortcut_labels (GtkWidget *widget, GPtrArray *labels)
{
  if (GTK_IS_SHORTCUT_LABEL (widget))
    {
      GString *text = g_string_new (NULL);

      collect_text (widget, text);
      g_ptr_array_add (labels, g_string_free (text, FALSE));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_shortcut_labels (child, labels);
}

static gboolean
application_has_no_windows (GtkApplication *application)
{
  return gtk_application_get_windows (application) == NULL;
}

typedef struct
{
  DecipherDocumentView *view;
  double zoom;
} ZoomWait;

static gboolean
zoom_is (ZoomWait *wait)
{
  return G_APPROX_VALUE (decipher_document_view_get_zoom (wait->view), wait->zoom, 1e-6);
}

/* Ctrl+? shows every shortcut once, its keys by their names. */
static void
test_shortcuts_window (void)
{
  g_autoptr (DecipherApplication) application = decipher_application_new ();
  g_autoptr (GFile) file = gui_test_fixture_copy ("clean.pdf");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GFile *files[] = { file };
  GtkShortcutsWindow *overlay;
  DecipherWindow *window;
  gboolean page_up = FALSE, zoom_out = FALSE, recognize = FALSE, accept = FALSE;

  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  g_application_open (G_APPLICATION (application), files, 1, "");
  window = gtk_application_get_windows (GTK_APPLICATION (application))->data;
  GUI_TEST_WAIT (window_loaded, window, "the document given to the application");
  gui_test_focus_window (GTK_WINDOW (window));

  gui_test_key (GTK_WINDOW (window), "<Control>question");
  GUI_TEST_WAIT (shortcuts_window_shown, NULL, "Ctrl+? to show the shortcuts window");
  gui_test_screenshot ("keyboard-shortcuts-window");
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  collect_shortcut_labels (GTK_WIDGET (overlay), labels);
  g_assert_cmpuint (labels->len, >=, 20);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *label = g_ptr_array_index (labels, i);
      g_auto (GStrv) alternatives = g_strsplit (label, "/", -1);

      g_test_message ("shortcut: %s", label);
      /* A keysym shown raw, as "Page_Up", is no key name. */
      g_assert_null (strchr (label, '_'));
      page_up |= strstr (label, "Page Up") != NULL;
      zoom_out |= g_str_equal (label, "Ctrl+-");
      recognize |= g_str_equal (label, "Ctrl+R");
      accept |= g_str_equal (label, "Ctrl+\u23CE"); /* GTK draws Return as ⏎ */
      /* No key listed twice under one shortcut, as "Ctrl+- / Ctrl+-" was. */
      for (guint a = 0; alternatives[a] != NULL; a++)
        for (guint b = a + 1; alternatives[b] != NULL; b++)
          g_assert_cmpstr (alternatives[a], !=, alternatives[b]);
    }
  g_assert_true (page_up);
  g_assert_true (zoom_out);
  g_assert_true (recognize);
  g_assert_true (accept);
  gtk_widget_set_visible (GTK_WIDGET (overlay), FALSE);
  /* With no window manager, the keyboard stays with the hidden window until given back. */
  gui_test_focus_window (GTK_WINDOW (window));

  /* The keypad's zoom keys still zoom, though the window lists them no more. */
  {
    DecipherDocumentView *view = _decipher_window_get_document_view (window);
    double zoom = decipher_document_view_get_zoom (view);

    ZoomWait wait = { view, zoom * 1.2 };

    gtk_widget_grab_focus (GTK_WIDGET (view));
    gui_test_key (GTK_WINDOW (window), "<Control>KP_Add");
    GUI_TEST_WAIT (zoom_is, &wait, "Ctrl+keypad + to zoom in");
    gui_test_key (GTK_WINDOW (window), "<Control>KP_0");
    wait.zoom = zoom;
    GUI_TEST_WAIT (zoom_is, &wait, "Ctrl+keypad 0 to zoom back");
    gui_test_key (GTK_WINDOW (window), "<Control>equal");
    wait.zoom = zoom * 1.2;
    GUI_TEST_WAIT (zoom_is, &wait, "Ctrl+= to zoom in");
    gui_test_key (GTK_WINDOW (window), "<Control>KP_Subtract");
    wait.zoom = zoom;
    GUI_TEST_WAIT (zoom_is, &wait, "Ctrl+keypad - to zoom out");
  }

  gui_test_pointer_away (NULL);
  g_action_group_activate_action (G_ACTION_GROUP (application), "quit", NULL);
  GUI_TEST_WAIT (application_has_no_windows, application, "Quit to close every window");
}

static gboolean
on_second_page (DecipherDocumentView *view)
{
  return decipher_document_view_get_page (view) == 1;
}

static gboolean
entry_shows_first_page (GtkEditable *entry)
{
  return g_str_equal (gtk_editable_get_text (entry), "1");
}

/* The page entry, as in Papers: Ctrl+L, a number, Enter shows that page and gives the
 * keyboard back to the page; a number past the end leaves the page as it was and the
 * entry showing it. */
static void
test_page_entry (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  GtkEditable *entry = GTK_EDITABLE (window->page_entry);

  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "1");
  g_assert_cmpstr (gtk_label_get_text (window->page_label), ==, "of 2");

  gui_test_key (GTK_WINDOW (window), "<Control>l");
  GUI_TEST_WAIT (_decipher_window_page_entry_has_focus, window, "Ctrl+L to reach the page entry");
  gui_test_type (GTK_WINDOW (window), "2");
  gui_test_key (GTK_WINDOW (window), "Return");
  GUI_TEST_WAIT (on_second_page, view, "Enter to show page 2");
  g_assert_false (_decipher_window_page_entry_has_focus (window));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "2");

  gui_test_key (GTK_WINDOW (window), "<Control>l");
  GUI_TEST_WAIT (_decipher_window_page_entry_has_focus, window, "Ctrl+L again");
  gui_test_type (GTK_WINDOW (window), "9");
  gui_test_key (GTK_WINDOW (window), "Return");
  /* No page 9: the key handled, nothing turns. */
  g_assert_cmpuint (decipher_document_view_get_page (view), ==, 1);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "2");

  /* Pages turned another way show in the entry too, in the frame after the page's. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-page", NULL));
  gtk_widget_grab_focus (GTK_WIDGET (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-page", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-page", NULL));
  GUI_TEST_WAIT (entry_shows_first_page, entry, "the entry to follow the page");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "1");
  gui_test_close_window (window);
}

typedef struct
{
  DecipherDocumentView *view;
  double page_width, page_height;
} FitCase;

static double
room (DecipherDocumentView *view, GtkOrientation orientation)
{
  int size = orientation == GTK_ORIENTATION_HORIZONTAL ? gtk_widget_get_width (GTK_WIDGET (view))
                                                       : gtk_widget_get_height (GTK_WIDGET (view));

  return size - 2 * 24.0; /* the view's margins */
}

static gboolean
fits_width (FitCase *fit)
{
  double zoom = decipher_document_view_get_zoom (fit->view);

  return fabs (fit->page_width * zoom - room (fit->view, GTK_ORIENTATION_HORIZONTAL)) < 1.0;
}

static gboolean
fits_page (FitCase *fit)
{
  double zoom = decipher_document_view_get_zoom (fit->view);
  double width = fit->page_width * zoom, height = fit->page_height * zoom;
  double room_width = room (fit->view, GTK_ORIENTATION_HORIZONTAL);
  double room_height = room (fit->view, GTK_ORIENTATION_VERTICAL);

  return width <= room_width + 1.0 && height <= room_height + 1.0
         && (fabs (width - room_width) < 1.0 || fabs (height - room_height) < 1.0);
}

/* Ctrl+9 fits the page's width to the view, Ctrl+8 the whole page, as the main menu's
 * Fit Width and Fit Page do. */
static void
test_fit_zoom (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  FitCase fit = { _decipher_window_get_document_view (window), 0, 0 };
  DcDocument *document = decipher_session_get_document (decipher_window_get_session (window));

  dc_document_get_page_size (document, 0, &fit.page_width, &fit.page_height);
  g_assert_false (fits_width (&fit));
  gui_test_key (GTK_WINDOW (window), "<Control>9");
  GUI_TEST_WAIT (fits_width, &fit, "Ctrl+9 to fit the page's width");
  gui_test_key (GTK_WINDOW (window), "<Control>8");
  GUI_TEST_WAIT (fits_page, &fit, "Ctrl+8 to fit the whole page");
  g_assert_cmpuint (decipher_document_view_get_page (fit.view), ==, 0);
  gui_test_close_window (window);
}

typedef struct
{
  gboolean done;
  char *text;
} ClipboardRead;

static void
clipboard_read_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  ClipboardRead *read = data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
clipboard_read_done (ClipboardRead *read)
{
  return read->done;
}

#define COPY_MARK "(nothing copied yet)"

static char *
clipboard_text (DecipherWindow *window)
{
  ClipboardRead read = { 0 };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (window)), NULL,
                                 clipboard_read_cb, &read);
  GUI_TEST_WAIT (clipboard_read_done, &read, "the clipboard");
  return read.text;
}

typedef struct
{
  DecipherWindow *window;
  char *text;
} ClipboardChange;

static gboolean
clipboard_changed (ClipboardChange *change)
{
  g_free (change->text);
  change->text = clipboard_text (change->window);
  return g_strcmp0 (change->text, COPY_MARK) != 0;
}

/* Ctrl+C, and what it put on the clipboard. The key comes back through X at its own pace
 * on a loaded machine: reading the clipboard at once could give what was there before,
 * so a mark goes there first and the copy is what replaces it. */
static char *
copy_with_keys (DecipherWindow *window)
{
  ClipboardChange change = { window, NULL };

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), COPY_MARK);
  gui_test_key (GTK_WINDOW (window), "<Control>c");
  GUI_TEST_WAIT (clipboard_changed, &change, "Ctrl+C's copy");
  return change.text;
}

/* Shift with the arrows selects words on the page from the glyph cursor, Ctrl+C copies
 * their recovered text, Escape lets the selection go. */
static void
test_select_and_copy (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1200, 800);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  g_autofree char *copied = NULL;
  g_autofree char *again = NULL;

  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (view)));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), "before");

  gui_test_key (GTK_WINDOW (window), "Right"); /* the cursor on "The", nothing selected */
  g_assert_false (decipher_document_view_has_selection (view));
  gui_test_key (GTK_WINDOW (window), "<Shift>Down");
  gui_test_key (GTK_WINDOW (window), "<Shift>Right");
  g_assert_true (decipher_document_view_has_selection (view));
  gui_test_screenshot ("keyboard-selection");
  copied = copy_with_keys (window);
  g_assert_cmpstr (copied, ==,
                   "The village library opens at nine o’clock, but the old reading room fills\n"
                   "up");

  /* A plain arrow, or Escape, drops the selection; Ctrl+C then copies nothing. */
  gui_test_key (GTK_WINDOW (window), "<Shift>Right");
  g_assert_true (decipher_document_view_has_selection (view));
  gui_test_key (GTK_WINDOW (window), "Escape");
  g_assert_false (decipher_document_view_has_selection (view));
  gui_test_key (GTK_WINDOW (window), "<Shift>Left");
  gui_test_key (GTK_WINDOW (window), "Left");
  g_assert_false (decipher_document_view_has_selection (view));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), "kept");
  gui_test_key (GTK_WINDOW (window), "<Control>c");
  again = clipboard_text (window);
  g_assert_cmpstr (again, ==, "kept");
  gui_test_close_window (window);
}

static gboolean
entry_has_focus (GtkEditable *entry)
{
  return gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (entry)));
}

/* The glyph @glyph's middle in @view's coordinates. */
static void
glyph_middle (DecipherDocumentView *view, guint glyph, double *x, double *y)
{
  graphene_rect_t area;

  g_assert_true (decipher_document_view_get_glyph_area (view, glyph, &area));
  *x = area.origin.x + area.size.width / 2;
  *y = area.origin.y + area.size.height / 2;
}

/* Issue 31.3: a real drag (the pointer pressed, moved and released on the X server) from
 * a line's first glyph to past its end selects the whole line, opens no popover, and
 * offers the words for typing: the input pane takes the focus with a "?" selected. Ctrl+C
 * right after it copies the words on the page, as in any reader; once something is typed,
 * it is the entry's own again. */
static void
test_drag_then_copy (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  GtkEditable *entry = decipher_input_pane_get_entry (_decipher_window_get_input_pane (window));
  DecipherSession *session = decipher_window_get_session (window);
  DcDocument *document = decipher_session_get_document (session);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *typed = NULL;
  g_autofree char *second = NULL;
  const guint line = 2;
  double x0, y0, x1, y1;

  gui_test_focus_window (GTK_WINDOW (window));
  glyph_middle (view, order[lines[line].first_glyph], &x0, &y0);
  glyph_middle (view, order[lines[line].first_glyph + lines[line].n_glyphs - 1], &x1, &y1);
  /* Past the line's end, into the margin. */
  x1 = gtk_widget_get_width (GTK_WIDGET (view)) - 4;
  gui_test_pointer_drag (GTK_WIDGET (view), x0, y0, x1, y1, 6);
  gui_test_pointer_away (GTK_WINDOW (window));

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (decipher_document_view_get_popover (view))));
  g_assert_true (decipher_document_view_has_selection (view));
  expected = dc_export_line_text (document, line, dc_key_value_func,
                                  decipher_session_get_key (session));
  g_assert_cmpstr (decipher_document_view_dup_selected_text (view), ==, expected);
  GUI_TEST_WAIT (entry_has_focus, entry, "the entry's focus");
  g_assert_nonnull (strchr (gtk_editable_get_text (entry), '?'));
  gui_test_screenshot ("keyboard-drag-selection");

  copied = copy_with_keys (window);
  g_assert_cmpstr (copied, ==, expected);

  /* Typed over, the entry's text is the user's: Ctrl+C copies what is selected in it. */
  gui_test_type (GTK_WINDOW (window), "x");
  gtk_editable_select_region (entry, 0, -1);
  typed = copy_with_keys (window);
  g_assert_cmpstr (typed, ==, gtk_editable_get_text (entry));

  /* Backwards, from past the end of the next line to the middle of this one: the drag
   * ends on a glyph, and still no popover opens. */
  gtk_editable_set_text (entry, "");
  glyph_middle (view, order[lines[line + 1].first_glyph + lines[line + 1].n_glyphs - 1], &x0, &y0);
  glyph_middle (view, order[lines[line].first_glyph + lines[line].n_glyphs / 2], &x1, &y1);
  /* In the page's margin: the window's edge is the scroll bar's. */
  gui_test_pointer_drag (GTK_WIDGET (view), x0 + 40, y0, x1, y1, 6);
  gui_test_pointer_away (GTK_WINDOW (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (decipher_document_view_get_popover (view))));
  second = decipher_document_view_dup_selected_text (view);
  g_assert_nonnull (second);
  g_assert_nonnull (strchr (second, '\n'));
  gui_test_close_window (window);
}

/* Issue 31.7: forward Tab from the page reached the palette's cells but never the
 * controls above them while the palette had items. Walked forward from the page, the
 * focus passes Recognize Shapes, the % box, Accept and both filters, then the cells. */
static void
test_tab_reaches_palette_controls (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherGlyphPalette *palette = _decipher_window_get_palette (window);
  GtkWidget *bar = GTK_WIDGET (decipher_glyph_palette_get_recognize_bar (palette));
  GtkGridView *grid = GTK_GRID_VIEW (
      gui_test_find_descendant (GTK_WIDGET (palette), GTK_TYPE_GRID_VIEW));
  GtkWidget *recognize = GTK_WIDGET (gui_test_find_button (bar, "_Recognize Shapes"));
  GtkWidget *accept = GTK_WIDGET (gui_test_find_button (bar, "_Accept"));
  GtkWidget *spin = gui_test_find_descendant (bar, GTK_TYPE_SPIN_BUTTON);
  GtkWidget *targets[5] = { recognize, spin, accept, NULL, NULL };
  gboolean reached[5] = { FALSE };
  guint n_dropdowns = 0;
  int order[5] = { -1, -1, -1, -1, -1 };
  int grid_at = -1;

  /* The two filters: the palette's drop-downs, in the order they are shown. */
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (palette)); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
         c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_DROP_DOWN (c) && n_dropdowns < 2)
        targets[3 + n_dropdowns++] = c;
  g_assert_cmpuint (n_dropdowns, ==, 2);
  g_assert_nonnull (recognize);
  g_assert_nonnull (accept);
  g_assert_nonnull (spin);
  GUI_TEST_WAIT (grid_has_items, grid, "the palette's cells");
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (_decipher_window_get_document_view (window))));

  for (int step = 0; step < 40 && grid_at < 0; step++)
    {
      gui_test_key (GTK_WINDOW (window), "Tab");
      for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
        if (!reached[t] && focus_inside (window, targets[t]))
          {
            reached[t] = TRUE;
            order[t] = step;
          }
      if (focus_inside (window, GTK_WIDGET (grid)))
        grid_at = step;
    }
  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_test_message ("control %u reached at Tab %d", t, order[t]);
      g_assert_true (reached[t]);
      g_assert_cmpint (order[t], <, grid_at);
      if (t > 0)
        g_assert_cmpint (order[t], >, order[t - 1]);
    }
  gui_test_close_window (window);
}

/* What a click on Accept leads to: the confirmation of what it would take, or the
 * message that nothing is sure enough. */
typedef struct
{
  DecipherRecognizeBar *bar;
  char *before; /* the bar's message before the key */
} AcceptWait;

static gboolean
accept_answered (AcceptWait *wait)
{
  const char *message = decipher_recognize_bar_get_message (wait->bar);

  return gui_test_find_dialog () != NULL
         || (message != NULL && g_strcmp0 (message, wait->before) != 0);
}

/* Ctrl+R reads the shapes and Ctrl+Enter accepts, from the word entry too, and the
 * shortcuts window lists both. */
static void
test_recognize_accept_keys (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherRecognizeBar *bar = decipher_glyph_palette_get_recognize_bar (
      _decipher_window_get_palette (window));
  GtkEditable *entry = decipher_input_pane_get_entry (_decipher_window_get_input_pane (window));

  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (entry)));
  GUI_TEST_WAIT (entry_has_focus, entry, "the entry's focus");
  gui_test_key (GTK_WINDOW (window), "<Control>r");
  g_assert_true (decipher_recognize_bar_get_running (bar));
  decipher_recognize_bar_cancel (bar);
  GUI_TEST_WAIT_FOR (!decipher_recognize_bar_get_running (bar), "the reading to stop");
  /* Canceled, nothing was proposed; the entry kept the focus. */
  g_assert_true (entry_has_focus (entry));

  {
    AcceptWait wait = { bar, g_strdup (decipher_recognize_bar_get_message (bar)) };

    gui_test_key (GTK_WINDOW (window), "<Control>Return");
    GUI_TEST_WAIT (accept_answered, &wait, "Ctrl+Enter to do what Accept does");
    g_test_message ("Accept answered: %s", gui_test_find_dialog () != NULL
                                               ? "a confirmation"
                                               : decipher_recognize_bar_get_message (bar));
    g_free (wait.before);
    gui_test_close_dialogs ();
  }
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/keyboard/palette-one-tab-stop", test_palette_one_tab_stop);
  g_test_add_func ("/keyboard/glyph-cursor", test_glyph_cursor);
  g_test_add_func ("/keyboard/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/keyboard/page-entry", test_page_entry);
  g_test_add_func ("/keyboard/fit-zoom", test_fit_zoom);
  g_test_add_func ("/keyboard/select-and-copy", test_select_and_copy);
  g_test_add_func ("/keyboard/drag-then-copy", test_drag_then_copy);
  g_test_add_func ("/keyboard/tab-reaches-palette-controls", test_tab_reaches_palette_controls);
  g_test_add_func ("/keyboard/recognize-accept-keys", test_recognize_accept_keys);

  return g_test_run ();
}
