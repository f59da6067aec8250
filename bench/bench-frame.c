/* bench-frame.c: what one frame of the page costs, drawn by GTK's cairo renderer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sh bench/make-bench-pdf.sh /tmp/big.pdf 500
 *   GSETTINGS_SCHEMA_DIR=BUILDDIR/data GSK_RENDERER=cairo \
 *       xvfb-run -a -s "-screen 0 1400x900x24" BUILDDIR/bench/bench-frame /tmp/big.pdf
 *
 * bench-stalls measures the main loop as a user meets it, which on a shared machine
 * also measures the machine. This one takes the document view alone, as the window
 * shows it, and draws it again and again off screen with a cairo renderer: the snapshot
 * (building the render nodes) and the render (pixman filling pixels), each the fastest
 * of 30 runs, so that another process taking the core now and then does not count. It
 * draws the view in the states a reader meets: the page as it opens, with every glyph
 * still to decode highlighted, and the page just zoomed in, stretched until its new
 * render arrives; then the whole window and the glyph palette, as a frame that redraws
 * everything draws them. It asserts nothing.
 */

#include "config.h"

#include <stdio.h>

#include "decipher-window-private.h"
#include "gui-test-util.h"

#define RUNS 30

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static void
measure (const char *what, GtkWidget *view, GskRenderer *renderer)
{
  int width = gtk_widget_get_width (view), height = gtk_widget_get_height (view);
  graphene_rect_t viewport = GRAPHENE_RECT_INIT (0, 0, width, height);
  gint64 best_snapshot = G_MAXINT64, best_render = G_MAXINT64;

  for (guint run = 0; run < RUNS; run++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr (GskRenderNode) node = NULL;
      g_autoptr (GdkTexture) texture = NULL;
      gint64 start, built, drawn;

      /* The view's own drawing, as GTK asks for it at each frame it is stale. */
      start = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      built = g_get_monotonic_time ();
      texture = gsk_renderer_render_texture (renderer, node, &viewport);
      drawn = g_get_monotonic_time ();
      best_snapshot = MIN (best_snapshot, built - start);
      best_render = MIN (best_render, drawn - built);
    }
  printf ("%-24s %4d×%-4d %5u highlights: snapshot %5.2f ms, render %6.2f ms (fastest of %d)\n",
          what, width, height,
          decipher_document_view_get_n_drawn_highlights (DECIPHER_DOCUMENT_VIEW (view)),
          best_snapshot / 1000.0, best_render / 1000.0, RUNS);
}

/* @widget as last drawn (its render nodes as they are), for what the rest of the window
 * costs a frame that redraws all of it. */
static void
measure_widget (const char *what, GtkWidget *widget, GskRenderer *renderer)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  /* With its shadow and margins, a window is larger than its allocation. */
  int width = gdk_paintable_get_intrinsic_width (paintable);
  int height = gdk_paintable_get_intrinsic_height (paintable);
  graphene_rect_t viewport = GRAPHENE_RECT_INIT (0, 0, width, height);
  gint64 best_render = G_MAXINT64;

  for (guint run = 0; run < RUNS; run++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr (GskRenderNode) node = NULL;
      g_autoptr (GdkTexture) texture = NULL;
      gint64 start;

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      start = g_get_monotonic_time ();
      texture = gsk_renderer_render_texture (renderer, node, &viewport);
      best_render = MIN (best_render, g_get_monotonic_time () - start);
    }
  printf ("%-24s %4d×%-4d render %6.2f ms (fastest of %d)\n", what, width, height,
          best_render / 1000.0, RUNS);
}

int
main (int argc, char **argv)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GskRenderer) renderer = NULL;
  g_autoptr (GError) error = NULL;
  DecipherWindow *window;
  DecipherDocumentView *view;

  gui_test_init (&argc, &argv);
  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-frame FILE.pdf\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  renderer = gsk_cairo_renderer_new ();
  if (!gsk_renderer_realize (renderer, NULL, &error))
    {
      fprintf (stderr, "bench-frame: %s\n", error->message);
      return 1;
    }

  window = decipher_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_iterate (300);
  decipher_window_open (window, file);
  gui_test_wait_until ((gboolean (*) (gpointer)) window_loaded, window, 600, "the document");
  if (decipher_window_get_session (window) == NULL)
    {
      fprintf (stderr, "bench-frame: %s\n", _decipher_window_get_last_error (window));
      return 1;
    }
  view = _decipher_window_get_document_view (window);
  /* The pages on screen rendered at this zoom. */
  gui_test_iterate (1500);
  measure ("page as opened", GTK_WIDGET (view), renderer);

  /* Measured before the main loop runs again, so before the new render can land. */
  decipher_document_view_zoom_in (view);
  measure ("zoomed in, stretched", GTK_WIDGET (view), renderer);
  gui_test_iterate (1500);
  measure ("zoomed in, rendered", GTK_WIDGET (view), renderer);

  measure_widget ("whole window", GTK_WIDGET (window), renderer);
  measure_widget ("glyph palette", GTK_WIDGET (_decipher_window_get_palette (window)), renderer);

  gsk_renderer_unrealize (renderer);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
