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


/* The sidebar as drawn, as bytes (B, G, R, A), by a cairo renderer of the test's own. */
static guchar *
widget_pixels (GtkWidget *widget, int *width, int *height)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  guchar *pixels;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, snapshot, *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  gsk_renderer_unrealize (renderer);
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

/* The share of the pixels 3 to 4 px around @bounds in Adwaita's accent blue. */
static double
accent_ring (const guchar *pixels, int width, int height, const graphene_rect_t *bounds)
{
  int x0 = (int) bounds->origin.x - 4, y0 = (int) bounds->origin.y - 4;
  int x1 = (int) (bounds->origin.x + bounds->size.width) + 3;
  int y1 = (int) (bounds->origin.y + bounds->size.height) + 3;
  guint n = 0, blue = 0;

  for (int y = y0; y <= y1; y++)
    for (int x = x0; x <= x1; x++)
      {
        const guchar *p;

        if ((x > x0 + 1 && x < x1 - 1 && y > y0 + 1 && y < y1 - 1) || x < 0 || y < 0 || x >= width
            || y >= height)
          continue;
        p = pixels + ((gsize) y * width + x) * 4;
        n++;
        blue += p[0] > p[2] + 80; /* far more blue than red */
      }
  return n > 0 ? (double) blue / n : 0;
}

static void
collect_pictures (GtkWidget *widget, GPtrArray *pictures)
{
  if (GTK_IS_PICTURE (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (pictures, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_pictures (child, pictures);
}

/* Issue 31.10: the thumbnails did not mark the page on screen. Its thumbnail is framed
 * in the accent colour, the others not. */
static void
test_current_page_marked (void)
{
  DecipherWindow *window = gui_test_open_window ("clean.pdf", NULL, 1100, 750);
  GtkWidget *list = GTK_WIDGET (decipher_page_sidebar_get_list_view (window->page_sidebar));
  g_autoptr (GPtrArray) pictures = g_ptr_array_new ();
  g_autofree guchar *pixels = NULL;
  guint n_marked = 0, n_plain = 0;
  int width, height;

  gtk_widget_activate (GTK_WIDGET (window->pages_button));
  GUI_TEST_WAIT (revealed, window->pages_revealer, "the page thumbnails");
  GUI_TEST_WAIT (all_thumbnails, window, "every page's thumbnail");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-page", NULL);
  GUI_TEST_WAIT_FOR (selected_row (window) == 1, "the list to follow the view");
  gui_test_wait_frame (list);
  gui_test_screenshot ("page-sidebar-current");

  pixels = widget_pixels (list, &width, &height);
  collect_pictures (list, pictures);
  g_assert_cmpuint (pictures->len, >=, 2);
  for (guint i = 0; i < pictures->len; i++)
    {
      GtkWidget *picture = g_ptr_array_index (pictures, i);
      GtkWidget *row = gtk_widget_get_parent (gtk_widget_get_parent (picture));
      gboolean selected = (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0;
      graphene_rect_t bounds;
      double share;

      g_assert_true (gtk_widget_compute_bounds (picture, list, &bounds));
      share = accent_ring (pixels, width, height, &bounds);
      g_test_message ("thumbnail %u%s: %.0f %% of its ring in the accent colour", i,
                      selected ? " (selected)" : "", share * 100);
      if (selected)
        {
          g_assert_cmpfloat (share, >, 0.6); /* the corners are rounded */
          n_marked++;
        }
      else
        {
          g_assert_cmpfloat (share, <, 0.1);
          n_plain++;
        }
    }
  g_assert_cmpuint (n_marked, ==, 1);
  g_assert_cmpuint (n_plain, >=, 1);
  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/page-sidebar/thumbnails", test_thumbnails);
  g_test_add_func ("/page-sidebar/current-page-marked", test_current_page_marked);
  return g_test_run ();
}
