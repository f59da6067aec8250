/* bench-print.c: how long printing a book holds the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   TRUTH=/tmp/book.json sh bench/make-bench-pdf.sh /tmp/book.pdf 500
 *   DECIPHER_LIBRARY= GSETTINGS_SCHEMA_DIR=BUILDDIR/data xvfb-run -a \
 *       BUILDDIR/bench/bench-print /tmp/book.pdf [OUT.pdf]
 *
 * Opens the PDF in a real window and prints its recovered text to OUT.pdf (a temporary
 * file unless told) with the window's own print operation, through GTK's export action:
 * the same pagination and drawing Print… runs behind its dialog, without the dialog.
 * Prints the wall time, the sheets printed, and the longest the main loop stopped
 * meanwhile (a timer at high priority that wants to run every millisecond) with the main
 * thread's CPU time in that stop: what a user typing or scrolling during the print
 * would wait for at most, and how much of it was the window's own work rather than the
 * machine's load; and first the same for five seconds without printing, the floor the
 * window's own frames and the machine give. It asserts nothing.
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include <glib/gstdio.h>

#include "decipher-window-private.h"
#include "gui-test-util.h"

static gint64 last_tick, last_cpu;
static gint64 worst_stop, worst_stop_cpu;
static guint n_paginate;
static guint n_sheets;

static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The longest gap between two turns, and the main thread's CPU time in it: a gap with
 * little CPU time is the machine's load, not the window's work. */
static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time (), cpu = thread_cpu_time ();

  if (last_tick != 0 && now - last_tick > worst_stop)
    {
      worst_stop = now - last_tick;
      worst_stop_cpu = cpu - last_cpu;
    }
  last_tick = now;
  last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static gboolean
count (GSignalInvocationHint *hint, guint n_values, const GValue *values, gpointer data)
{
  (*(guint *) data)++;
  return TRUE;
}

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GtkPrintOperation) operation = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  DecipherWindow *window;
  DecipherSession *session;
  gpointer klass;
  gint64 wall;

  gui_test_init (&argc, &argv);
  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "usage: bench-print FILE.pdf [OUT.pdf]\n");
      return 2;
    }
  if (argc == 3)
    out = g_strdup (argv[2]);
  else
    {
      dir = g_dir_make_tmp ("bench-print-XXXXXX", NULL);
      out = g_build_filename (dir, "printed.pdf", NULL);
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  klass = g_type_class_ref (GTK_TYPE_PRINT_OPERATION);
  g_signal_add_emission_hook (g_signal_lookup ("paginate", GTK_TYPE_PRINT_OPERATION), 0, count,
                              &n_paginate, NULL);
  g_signal_add_emission_hook (g_signal_lookup ("draw-page", GTK_TYPE_PRINT_OPERATION), 0, count,
                              &n_sheets, NULL);

  window = decipher_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  wall = g_get_monotonic_time ();
  decipher_window_open (window, file);
  gui_test_wait_until ((gboolean (*) (gpointer)) window_loaded, window, 600, "the document");
  session = decipher_window_get_session (window);
  if (session == NULL)
    {
      fprintf (stderr, "bench-print: %s\n", _decipher_window_get_last_error (window));
      return 1;
    }
  printf ("opened %s in %.1f s: %u pages\n", argv[1], (g_get_monotonic_time () - wall) / 1e6,
          dc_document_get_n_pages (decipher_session_get_document (session)));
  gui_test_iterate (1000);

  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, NULL, NULL);
  gui_test_iterate (200);
  /* The floor: the same window left alone as long, its frames drawn meanwhile. */
  worst_stop = worst_stop_cpu = 0;
  gui_test_iterate (5000);
  printf ("without printing, in 5 s: the main loop stopped for %.1f ms at most (%.1f ms of it "
          "on the CPU)\n",
          worst_stop / 1000.0, worst_stop_cpu / 1000.0);
  worst_stop = worst_stop_cpu = 0;
  wall = g_get_monotonic_time ();
  /* GTK runs an export to its end before it returns, its own main loop turning meanwhile:
   * the timer above runs in it as it would in the window's. */
  operation = _decipher_window_print (window, GTK_PRINT_OPERATION_ACTION_EXPORT, out);
  printf ("printed %u sheets to %s in %.1f s, \"paginate\" %u times; "
          "the main loop stopped for %.1f ms at most (%.1f ms of it on the CPU)\n",
          n_sheets, out, (g_get_monotonic_time () - wall) / 1e6, n_paginate, worst_stop / 1000.0,
          worst_stop_cpu / 1000.0);
  if (operation == NULL)
    fprintf (stderr, "bench-print: %s\n", _decipher_window_get_last_error (window));
  g_type_class_unref (klass);
  if (dir != NULL)
    {
      g_unlink (out);
      g_rmdir (dir);
    }
  return operation != NULL ? 0 : 1;
}
