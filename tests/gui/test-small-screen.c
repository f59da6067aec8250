/* test-small-screen.c: the window on a narrow screen, worked by real keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 16.8: the window could not be narrower than 566 px, and at 600 px the palette
 * took half of it. Below about 800 px the palette now folds into a sidebar over the
 * page, brought out by F9 and put away by Escape; wider, it stays beside the page.
 * The windows belong to a DecipherApplication, so F9 is the application's own
 * accelerator, pressed on the X server as a user would.
 */

#include "config.h"

#include <string.h>

#include "decipher-application.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

/* GNOME's smallest window width (a phone held upright). */
#define SMALLEST_WIDTH 360

static DecipherApplication *application;

typedef struct
{
  GtkWidget *widget;
  int width;
  int height;
} SizeWait;

/* The window's surface has the size asked for. (Without a compositor, as under Xvfb,
 * the window keeps a few pixels of it as a frame to resize by: the widgets get less.) */
static gboolean
has_size (SizeWait *wait)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (wait->widget));

  return surface != NULL && gdk_surface_get_width (surface) == wait->width
         && gdk_surface_get_height (surface) == wait->height
         && gtk_widget_get_width (wait->widget) > 0
         && gtk_widget_get_width (wait->widget) <= wait->width;
}

/* The width the window's content has. */
static int
window_width (DecipherWindow *window)
{
  return gtk_widget_get_width (gtk_window_get_child (GTK_WINDOW (window)));
}

/* Shows the window at @width × @height, as a user dragging its edge would: asked again
 * until it is, since a window made narrower may drop a part and allow narrower still. */
static void
resize_window (DecipherWindow *window, int width, int height)
{
  SizeWait wait = { GTK_WIDGET (window), width, height };
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  /* Asking for the size it already asked for would not move it: nudged by a pixel. */
  for (int nudge = 0; !has_size (&wait); nudge = !nudge)
    {
      if (g_get_monotonic_time () > end)
        g_error ("Timed out waiting for the window to take the size %d × %d", width, height);
      gtk_window_set_default_size (GTK_WINDOW (window), width + nudge, height);
      gui_test_wait_frame (GTK_WIDGET (window));
    }
}

static gboolean
grid_has_items (GtkGridView *grid)
{
  GtkSelectionModel *model = gtk_grid_view_get_model (grid);

  return model != NULL && g_list_model_get_n_items (G_LIST_MODEL (model)) > 2;
}

static GtkGridView *
palette_grid (DecipherWindow *window)
{
  return GTK_GRID_VIEW (
      gui_test_find_descendant (GTK_WIDGET (_decipher_window_get_palette (window)), GTK_TYPE_GRID_VIEW));
}

static DecipherWindow *
open_window (int width, int height)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf",
                                                 GTK_APPLICATION (application), width, height);
  SizeWait wait = { GTK_WIDGET (window), width, height };

  GUI_TEST_WAIT (has_size, &wait, "the window to take its size");
  GUI_TEST_WAIT (grid_has_items, palette_grid (window), "the palette's cells");
  return window;
}

/* Where @widget is in the window's content, or an empty rectangle while it is not shown. */
static graphene_rect_t
bounds_in_window (DecipherWindow *window, GtkWidget *widget)
{
  graphene_rect_t bounds;

  GtkWidget *content = gtk_window_get_child (GTK_WINDOW (window));

  if (!gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, content, &bounds))
    graphene_rect_init (&bounds, 0, 0, 0, 0);
  return bounds;
}

static GtkWidget *
page_scroller (DecipherWindow *window)
{
  return gtk_widget_get_ancestor (GTK_WIDGET (_decipher_window_get_document_view (window)),
                                  GTK_TYPE_SCROLLED_WINDOW);
}

static int
page_width (DecipherWindow *window)
{
  return gtk_widget_get_width (page_scroller (window));
}

/* The palette is on screen, whole, at the window's right edge. */
static gboolean
palette_shown (DecipherWindow *window)
{
  graphene_rect_t bounds = bounds_in_window (window,
                                             GTK_WIDGET (_decipher_window_get_palette (window)));
  return bounds.size.width > 0 && bounds.origin.x >= 0
         && G_APPROX_VALUE (bounds.origin.x + bounds.size.width, window_width (window), 1.5);
}

/* Once the palette has finished moving, the page has the window's whole width. */
static gboolean
page_has_whole_width (DecipherWindow *window)
{
  return page_width (window) == window_width (window);
}

static gboolean
palette_hidden (DecipherWindow *window)
{
  graphene_rect_t bounds = bounds_in_window (window,
                                             GTK_WIDGET (_decipher_window_get_palette (window)));

  return bounds.size.width == 0 || bounds.origin.x >= window_width (window);
}

static gboolean
focus_inside (DecipherWindow *window, GtkWidget *ancestor)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}

static gboolean
show_palette_state (DecipherWindow *window)
{
  gboolean shown;

  g_object_get (window, "show-palette", &shown, NULL);
  return shown;
}

static int
minimum_width (DecipherWindow *window)
{
  int minimum;

  gtk_widget_measure (gtk_window_get_child (GTK_WINDOW (window)), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, NULL, NULL, NULL);
  return minimum;
}

/* With a document open, the window goes down to GNOME's smallest width, and there the
 * page still has the width, not the palette. */
static void
test_minimum_width (void)
{
  DecipherWindow *window = open_window (600, 600);

  resize_window (window, SMALLEST_WIDTH, 600);
  g_assert_cmpint (minimum_width (window), <=, SMALLEST_WIDTH);
  g_assert_true (palette_hidden (window));
  g_assert_cmpint (page_width (window), ==, window_width (window));
  gui_test_screenshot ("small-screen-360");

  /* And the palette comes out over the page there too, a little narrower than it. */
  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_shown, window, "F9 to bring the palette out");
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (_decipher_window_get_palette (window))), <,
                   window_width (window));
  gui_test_screenshot ("small-screen-360-palette-out");
  gui_test_key (GTK_WINDOW (window), "Escape");
  GUI_TEST_WAIT (palette_hidden, window, "Escape to put the palette away");
  gui_test_close_window (window);
}

/* At 600 px the page keeps the width; F9 brings the palette out over it, where the
 * arrows move among its cells, and Escape puts it away again. */
static void
test_narrow_palette_over_page (void)
{
  DecipherWindow *window = open_window (600, 600);
  DecipherGlyphPalette *palette = _decipher_window_get_palette (window);
  GtkWidget *view = GTK_WIDGET (_decipher_window_get_document_view (window));
  guint first, second;

  g_assert_cmpint (page_width (window), ==, window_width (window));
  g_assert_true (palette_hidden (window));
  g_assert_false (show_palette_state (window));
  gui_test_screenshot ("small-screen-600-folded");

  g_assert_true (gtk_widget_grab_focus (view));
  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_shown, window, "F9 to bring the palette out");
  g_assert_true (show_palette_state (window));
  /* Over the page, not beside it: the page keeps its width. */
  g_assert_cmpint (page_width (window), ==, window_width (window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (palette)), >=, 276);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (palette)), <=, window_width (window) - 48);
  /* Ready for the keyboard: the arrows move among its cells. */
  g_assert_true (focus_inside (window, GTK_WIDGET (palette)));
  gui_test_key (GTK_WINDOW (window), "Right");
  first = decipher_glyph_palette_get_selected_symbol (palette);
  g_assert_cmpuint (first, !=, DC_SYMBOL_NONE);
  gui_test_key (GTK_WINDOW (window), "Right");
  second = decipher_glyph_palette_get_selected_symbol (palette);
  g_assert_cmpuint (second, !=, DC_SYMBOL_NONE);
  g_assert_cmpuint (second, !=, first);
  gui_test_screenshot ("small-screen-600-palette-out");

  gui_test_key (GTK_WINDOW (window), "Escape");
  GUI_TEST_WAIT (palette_hidden, window, "Escape to put the palette away");
  g_assert_false (show_palette_state (window));
  g_assert_cmpint (page_width (window), ==, window_width (window));
  /* The focus goes back to the page, not nowhere. */
  g_assert_true (focus_inside (window, view));

  /* F9 twice: out and away again. */
  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_shown, window, "F9 to bring the palette out again");
  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_hidden, window, "F9 to put the palette away");
  g_assert_false (show_palette_state (window));
  gui_test_close_window (window);
}

/* Wide enough, the palette is beside the page, as it always was, and F9 hides it. */
static void
test_wide_palette_beside_page (void)
{
  DecipherWindow *window = open_window (1200, 800);
  DecipherGlyphPalette *palette = _decipher_window_get_palette (window);
  graphene_rect_t page, cells;

  GUI_TEST_WAIT (palette_shown, window, "the palette beside the page");
  g_assert_true (show_palette_state (window));
  page = bounds_in_window (window, page_scroller (window));
  cells = bounds_in_window (window, GTK_WIDGET (palette));
  g_assert_cmpfloat (cells.size.width, >=, 276);
  g_assert_cmpfloat (cells.origin.x, >=, page.origin.x + page.size.width);
  g_assert_cmpfloat (page.size.width + cells.size.width, >=, window_width (window) - 2);
  gui_test_screenshot ("small-screen-1200");

  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_hidden, window, "F9 to hide the palette");
  g_assert_false (show_palette_state (window));
  GUI_TEST_WAIT (page_has_whole_width, window, "the page to take the palette's room");
  gui_test_key (GTK_WINDOW (window), "F9");
  GUI_TEST_WAIT (palette_shown, window, "F9 to show the palette again");
  g_assert_cmpint (page_width (window) + gtk_widget_get_width (GTK_WIDGET (palette)), >=,
                   window_width (window) - 2);
  gui_test_close_window (window);
}

/* Made narrower, the palette folds away; made wide again, it comes back beside. */
static void
test_resize_folds_and_unfolds (void)
{
  DecipherWindow *window = open_window (1200, 800);

  GUI_TEST_WAIT (palette_shown, window, "the palette beside the page");
  resize_window (window, 640, 800);
  GUI_TEST_WAIT (palette_hidden, window, "the palette to fold away");
  GUI_TEST_WAIT (page_has_whole_width, window, "the page to take the palette's room");
  resize_window (window, 1000, 800);
  GUI_TEST_WAIT (palette_shown, window, "the palette back beside the page");
  g_assert_cmpint (page_width (window)
                       + gtk_widget_get_width (GTK_WIDGET (_decipher_window_get_palette (window))),
                   >=, window_width (window) - 2);
  gui_test_close_window (window);
}


static gboolean
progress_shown (DecipherWindow *window)
{
  GtkLabel *label = _decipher_window_get_shown_progress_label (window);

  return label != NULL && gtk_widget_get_mapped (GTK_WIDGET (label))
         && *gtk_label_get_text (label) != '\0';
}

/* The progress line as shown is whole: not cut ("Symbols decoded: 62 of 8…"). */
static void
assert_progress_whole (GtkLabel *label)
{
  int natural;

  gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL,
                      NULL);
  g_test_message ("progress line: \"%s\", %d px of %d", gtk_label_get_text (label),
                  gtk_widget_get_width (GTK_WIDGET (label)), natural);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (label)), >=, natural);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
}

/* Issue 31.8: at 600 × 800 the progress line was cut in a number. There the short line
 * shows, whole, with the whole line as its tooltip; wide, the whole line itself. */
static void
test_status_line (void)
{
  DecipherWindow *window = open_window (600, 800);
  GtkLabel *full = _decipher_window_get_progress_label (window);
  GtkLabel *shown;

  GUI_TEST_WAIT (progress_shown, window, "the progress line");
  shown = _decipher_window_get_shown_progress_label (window);
  assert_progress_whole (shown);
  g_assert_true (shown != full);
  g_assert_nonnull (strstr (gtk_label_get_text (shown), "decoded"));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (shown)),
                                   gtk_label_get_text (full)));
  gui_test_screenshot ("small-screen-600x800");

  resize_window (window, 1200, 800);
  GUI_TEST_WAIT_FOR (_decipher_window_get_shown_progress_label (window) == full,
                     "the whole progress line on a wide window");
  gui_test_wait_frame (GTK_WIDGET (window));
  assert_progress_whole (full);
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  gui_test_init (&argc, &argv);
  /* GNOME's title bar buttons, a close button alone: with no window manager to ask,
   * GTK would put in minimise and maximise too, 74 px of the header bar. */
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  application = decipher_application_new ();
  /* Not unique: the test has no session bus to be unique on. Registering runs the
   * application's startup, which sets its accelerators (F9 among them). */
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/small-screen/minimum-width", test_minimum_width);
  g_test_add_func ("/small-screen/narrow-palette-over-page", test_narrow_palette_over_page);
  g_test_add_func ("/small-screen/wide-palette-beside-page", test_wide_palette_beside_page);
  g_test_add_func ("/small-screen/resize-folds-and-unfolds", test_resize_folds_and_unfolds);
  g_test_add_func ("/small-screen/status-line", test_status_line);
  status = g_test_run ();
  g_object_unref (application);
  return status;
}
