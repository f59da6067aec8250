/* bench-strip.c: the occurrence strip on a symbol drawn thousands of times
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sh bench/make-bench-pdf.sh /tmp/big.pdf 500
 *   GSETTINGS_SCHEMA_DIR=BUILDDIR/data GSK_RENDERER=cairo DECIPHER_LIBRARY= \
 *       xvfb-run -a -s "-screen 0 1400x900x24" \
 *       BUILDDIR/bench/bench-strip /tmp/big.pdf
 *
 * Opens the PDF in the window, shows the strip's window for its rarest symbol (the cost of
 * a new window), then the most frequent symbol, and prints: how many occurrences it
 * lists, how long choosing it held the main thread (in the strip alone, and in the window,
 * where the palette and the page follow the choice too), how long until the first cut
 * arrived and a screenful had, then, jumping through the list to its end in ten steps,
 * the main loop's longest gap and how many cuts were rendered in all (against the
 * occurrences passed), and what choosing the rare symbol again costs the strip. A 1 ms timer notes
 * the gaps between its runs. It asserts nothing: the figures depend on the machine and its load.
 */

#include "config.h"

#include <stdio.h>

#include "decipher-occurrence-strip.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

static gint64 last_tick, worst_gap;

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (last_tick != 0 && now - last_tick > worst_gap)
    worst_gap = now - last_tick;
  last_tick = now;
  return G_SOURCE_CONTINUE;
}

static void
gaps_reset (void)
{
  last_tick = g_get_monotonic_time ();
  worst_gap = 0;
}

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static guint wanted;

static gboolean
rendered_enough (DecipherOccurrenceStrip *strip)
{
  return decipher_occurrence_strip_get_n_rendered (strip) >= wanted;
}

/* Whether every picture on screen shows its cut. */
static gboolean
on_screen_shown (GtkWidget *widget)
{
  if (GTK_IS_PICTURE (widget) && gtk_widget_get_mapped (widget)
      && gtk_picture_get_paintable (GTK_PICTURE (widget)) == NULL)
    return FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!on_screen_shown (child))
      return FALSE;
  return TRUE;
}

int
main (int argc, char *argv[])
{
  g_autoptr (GFile) file = NULL;
  DecipherWindow *window;
  DecipherSession *session;
  DecipherOccurrenceStrip *strip;
  GtkWidget *list_view;
  const DcSymbol *symbols;
  guint n_symbols, best = 0, rare = 0, n;
  gint64 start, shown;

  gui_test_init (&argc, &argv);
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-strip FILE.pdf\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, NULL, NULL);

  window = decipher_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  gui_test_wait_until ((gboolean (*) (gpointer)) window_loaded, window, 600, "the document");
  session = decipher_window_get_session (window);
  if (session == NULL)
    {
      fprintf (stderr, "bench-strip: %s\n", _decipher_window_get_last_error (window));
      return 1;
    }
  gui_test_iterate (1000);

  symbols = dc_document_get_symbols (decipher_session_get_document (session), &n_symbols);
  for (guint s = 1; s < n_symbols; s++)
    if (symbols[s].n_glyphs > symbols[best].n_glyphs)
      best = s;
  for (guint s = 1; s < n_symbols; s++)
    if (symbols[s].n_glyphs > 0 && symbols[s].n_glyphs < symbols[rare].n_glyphs)
      rare = s;

  /* The window's first frame is a cost of any new window: paid on a rare symbol first. */
  decipher_view_state_set_selected_symbol (window->view_state, rare);
  gaps_reset ();
  start = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-occurrences", NULL);
  shown = g_get_monotonic_time ();
  strip = decipher_occurrence_strip_present (GTK_WINDOW (window), decipher_session_get_engine (session),
                                             window->view_state,
                                             decipher_document_view_get_renderer (
                                                 _decipher_window_get_document_view (window)));
  wanted = 1;
  gui_test_wait_until ((gboolean (*) (gpointer)) rendered_enough, strip, 600, "a cut");
  printf ("symbol %u: %u occurrences\n", rare,
          g_list_model_get_n_items (decipher_occurrence_strip_get_model (strip)));
  printf ("  opening the strip's window: %.1f ms in the call, first cut after %.1f ms, "
          "longest main-loop gap %.1f ms\n",
          (shown - start) / 1e3, (g_get_monotonic_time () - start) / 1e3, worst_gap / 1e3);
  gui_test_iterate (500);

  /* The strip alone first (the palette and the page follow a choice too), then as the
   * window chooses it. */
  start = g_get_monotonic_time ();
  decipher_occurrence_strip_set_symbol (strip, best);
  printf ("symbol %u in the strip alone: %.1f ms on the main thread\n", best,
          (g_get_monotonic_time () - start) / 1e3);
  decipher_occurrence_strip_set_symbol (strip, rare);
  gui_test_iterate (500);
  gaps_reset ();
  start = g_get_monotonic_time ();
  decipher_view_state_set_selected_symbol (window->view_state, best);
  shown = g_get_monotonic_time ();
  n = g_list_model_get_n_items (decipher_occurrence_strip_get_model (strip));
  printf ("symbol %u: %u occurrences listed\n", best, n);
  printf ("  choosing it in the window: %.1f ms on the main thread\n", (shown - start) / 1e3);
  wanted = decipher_occurrence_strip_get_n_rendered (strip) + 1;
  gui_test_wait_until ((gboolean (*) (gpointer)) rendered_enough, strip, 600, "a cut");
  printf ("  first cut shown after %.1f ms\n", (g_get_monotonic_time () - start) / 1e3);
  gui_test_wait_until ((gboolean (*) (gpointer)) on_screen_shown, strip, 600, "a screenful");
  printf ("  a screenful shown after %.1f ms; longest main-loop gap %.1f ms\n",
          (g_get_monotonic_time () - start) / 1e3, worst_gap / 1e3);

  list_view = gui_test_find_descendant (GTK_WIDGET (strip), GTK_TYPE_LIST_VIEW);
  gaps_reset ();
  start = g_get_monotonic_time ();
  for (guint step = 1; step <= 10; step++)
    {
      gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", (n - 1) * step / 10);
      gui_test_iterate (200);
    }
  gui_test_wait_until ((gboolean (*) (gpointer)) on_screen_shown, strip, 600, "the last cuts");
  printf ("  jumped to the end in 10 steps: longest main-loop gap %.1f ms, "
          "%u cuts rendered in all for %u occurrences\n",
          worst_gap / 1e3, decipher_occurrence_strip_get_n_rendered (strip), n);

  /* What choosing costs whatever the count: back to the rare symbol. */
  gui_test_iterate (500);
  start = g_get_monotonic_time ();
  decipher_occurrence_strip_set_symbol (strip, rare);
  printf ("symbol %u again in the strip alone: %.1f ms on the main thread\n", rare,
          (g_get_monotonic_time () - start) / 1e3);

  gui_test_close_window (window);
  return 0;
}
