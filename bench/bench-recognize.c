/* bench-recognize.c: recognition of a book in the real window — how long it takes, and
 * how long the window's main loop ever stops meanwhile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sh bench/make-bench-pdf.sh /tmp/book.pdf 300
 *   GSETTINGS_SCHEMA_DIR=BUILDDIR/data GSK_RENDERER=cairo DECIPHER_LIBRARY= \
 *       xvfb-run -a -s "-screen 0 1400x900x24" BUILDDIR/bench/bench-recognize /tmp/book.pdf
 *
 * Opens the PDF in a window (DecipherWindow), presses "Recognize Shapes" in the glyph
 * palette and waits until the proposals are in, while a 1 ms timer notes every gap
 * between its runs (DESIGN: the main loop never stops over 50 ms). Prints the lines
 * read, the symbols proposed, the time from the press to the proposals, the longest gap
 * and how many gaps exceeded 16 and 50 ms, and the load average before and after (the
 * figures depend on the machine and on what else runs). Asserts nothing.
 */

#include "config.h"

#include <stdio.h>

#include "decipher-recognize-bar.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

static struct
{
  gint64 last;
  gint64 worst;
  guint over_16;
  guint over_50;
  gboolean on;
} probe;

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (probe.on && probe.last != 0)
    {
      gint64 gap = now - probe.last;

      probe.worst = MAX (probe.worst, gap);
      probe.over_16 += gap > 16000;
      probe.over_50 += gap > 50000;
    }
  probe.last = now;
  return G_SOURCE_CONTINUE;
}

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static gboolean
not_running (DecipherRecognizeBar *bar)
{
  return !decipher_recognize_bar_get_running (bar);
}

static GtkWidget *
find_widget (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
print_load (const char *when)
{
  g_autofree char *loadavg = NULL;

  if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
    printf ("  load average %s: %s", when, loadavg);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GFile) file = NULL;
  DecipherWindow *window;
  DecipherSession *session;
  DecipherRecognizeBar *bar;
  DcDocument *document;
  guint n_glyphs;
  gint64 start;

  gui_test_init (&argc, &argv);
  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-recognize FILE.pdf\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, NULL, NULL);

  window = decipher_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_iterate (500);
  decipher_window_open (window, file);
  gui_test_wait_until ((gboolean (*) (gpointer)) window_loaded, window, 600, "the document");
  session = decipher_window_get_session (window);
  if (session == NULL)
    {
      fprintf (stderr, "bench-recognize: %s\n", _decipher_window_get_last_error (window));
      return 1;
    }
  gui_test_iterate (2000); /* the first pages, the palette's cells */
  document = decipher_session_get_document (session);
  dc_document_get_glyphs (document, &n_glyphs);
  printf ("%s: %u pages, %u glyphs\n", argv[1], dc_document_get_n_pages (document), n_glyphs);
  bar = DECIPHER_RECOGNIZE_BAR (find_widget (GTK_WIDGET (window), DECIPHER_TYPE_RECOGNIZE_BAR));
  if (bar == NULL)
    {
      fprintf (stderr, "bench-recognize: the window has no Recognize Shapes bar\n");
      return 1;
    }
  print_load ("before");

  probe.on = TRUE;
  probe.last = 0;
  start = g_get_monotonic_time ();
  g_signal_emit_by_name (gui_test_find_button (GTK_WIDGET (bar), "_Recognize Shapes"), "clicked");
  gui_test_wait_until ((gboolean (*) (gpointer)) not_running, bar, 600, "recognition");
  printf ("  recognized in %.1f s: %s\n", (g_get_monotonic_time () - start) / 1e6,
          decipher_recognize_bar_get_message (bar));
  gui_test_iterate (1500); /* the palette and the autosave catch up */
  probe.on = FALSE;
  printf ("  main loop meanwhile: longest stall %.1f ms, over 16 ms: %u, over 50 ms: %u\n",
          probe.worst / 1000.0, probe.over_16, probe.over_50);
  print_load ("after");
  gtk_window_destroy (GTK_WINDOW (window));
  gui_test_iterate (200);
  return 0;
}
