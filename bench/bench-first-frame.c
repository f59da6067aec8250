/* bench-first-frame.c: what a whole-window change costs a bare GTK window, with nothing of ours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   GSK_RENDERER=cairo xvfb-run -a -s "-screen 0 1400x900x24" BUILDDIR/bench/bench-first-frame
 *
 * bench-stalls' "open" phase is the window changing all over: the welcome page gives way to
 * the document. This window, the same size, holds only a GtkStack of two pages of labels
 * and shows the other page every half second, several times, printing each frame that
 * changes the whole window: its layout, its paint and what follows until after-paint, with
 * the main thread's page faults. It measures the floor under "open" on this machine and
 * renderer, which no change to Decipher can go below.
 *
 * It first prints what touching memory costs here: fresh from the system, a page at a
 * time, against rewriting memory already touched. Under GTK 4.8's cairo renderer on X11, a
 * frame paints into a new image the size of what it redraws and hands it to the X server
 * through shared memory that cairo lets go of once unused: a whole-window frame after a
 * quiet spell touches a few thousand fresh pages, and where a first touch is slow, as on
 * virtual machines, that is most of the frame. It asserts nothing.
 */

#define _GNU_SOURCE /* RUSAGE_THREAD */

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <gtk/gtk.h>

#define N_SWITCHES 8

enum
{
  FRAME_BEGIN,
  FRAME_LAID_OUT,
  FRAME_PAINTED,
  FRAME_DONE,
};

typedef struct
{
  GtkStack *stack;
  guint n_switches;
  gboolean switched; /* the next frame is the one that shows the other page */
  gint64 times[4];
  glong faults[4];
} Bench;

static glong
thread_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_THREAD, &usage);
  return usage.ru_minflt + usage.ru_majflt;
}

/* Microseconds per 4 KiB page: touched for the first time, then written again. */
static void
measure_memory (double *fresh, double *warm)
{
  const gsize size = 4 << 20;
  const gsize n_pages = size / 4096;
  char *memory = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  gint64 start, touched;

  g_assert (memory != MAP_FAILED);
  start = g_get_monotonic_time ();
  for (gsize offset = 0; offset < size; offset += 4096)
    memory[offset] = 1;
  touched = g_get_monotonic_time ();
  memset (memory, 2, size);
  *fresh = (double) (touched - start) / n_pages;
  *warm = (double) (g_get_monotonic_time () - touched) / n_pages;
  munmap (memory, size);
}

static Bench bench;

/* At each of the frame clock's signals: @which is the FRAME_ mark it ends. */
static void
frame_mark (GdkFrameClock *clock, gpointer which)
{
  guint mark = GPOINTER_TO_UINT (which);

  bench.times[mark] = g_get_monotonic_time ();
  bench.faults[mark] = thread_faults ();
  if (mark != FRAME_DONE || !bench.switched)
    return;
  bench.switched = FALSE;
  printf ("  switch %u: frame %5.1f ms: layout %4.1f ms, paint %5.1f ms (%4ld faults), then "
          "%4.1f ms\n",
          bench.n_switches, (bench.times[FRAME_DONE] - bench.times[FRAME_BEGIN]) / 1e3,
          (bench.times[FRAME_LAID_OUT] - bench.times[FRAME_BEGIN]) / 1e3,
          (bench.times[FRAME_PAINTED] - bench.times[FRAME_LAID_OUT]) / 1e3,
          bench.faults[FRAME_PAINTED] - bench.faults[FRAME_LAID_OUT],
          (bench.times[FRAME_DONE] - bench.times[FRAME_PAINTED]) / 1e3);
  fflush (stdout);
}

static gboolean
switch_cb (gpointer data)
{
  if (bench.n_switches == N_SWITCHES)
    return G_SOURCE_REMOVE;
  bench.n_switches++;
  bench.switched = TRUE;
  gtk_stack_set_visible_child_name (bench.stack, bench.n_switches % 2 ? "text" : "welcome");
  return G_SOURCE_CONTINUE;
}

/* A page of @n labels filling the window, as the document's page, palette and panes do. */
static GtkWidget *
page_new (const char *text, guint n)
{
  GtkWidget *grid = gtk_grid_new ();

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label = gtk_label_new (text);

      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_vexpand (label, TRUE);
      gtk_grid_attach (GTK_GRID (grid), label, (int) (i % 12), (int) (i / 12), 1, 1);
    }
  return grid;
}

int
main (int argc, char *argv[])
{
  GtkWidget *window;
  GdkFrameClock *clock;
  double fresh, warm;

  gtk_init ();
  measure_memory (&fresh, &warm);
  printf ("memory: first touch %.1f µs a 4 KiB page, written again %.2f µs\n", fresh, warm);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  bench.stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (bench.stack, page_new ("Welcome", 1), "welcome");
  gtk_stack_add_named (bench.stack, page_new ("Text", 240), "text");
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (bench.stack));
  gtk_window_present (GTK_WINDOW (window));

  clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "before-paint", G_CALLBACK (frame_mark), GUINT_TO_POINTER (FRAME_BEGIN));
  g_signal_connect (clock, "layout", G_CALLBACK (frame_mark), GUINT_TO_POINTER (FRAME_LAID_OUT));
  g_signal_connect (clock, "paint", G_CALLBACK (frame_mark), GUINT_TO_POINTER (FRAME_PAINTED));
  g_signal_connect (clock, "after-paint", G_CALLBACK (frame_mark), GUINT_TO_POINTER (FRAME_DONE));
  printf ("renderer: %s; the whole window changes every 500 ms:\n",
          G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));

  g_timeout_add (500, switch_cb, NULL);
  while (bench.n_switches < N_SWITCHES || bench.switched)
    g_main_context_iteration (NULL, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
