/* dc-parallel-private.h: one piece of work shared by several threads (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Reading a page costs far more than opening the file again, and laying one out more
 * than starting a thread: a document of fewer pages is done by one thread, without a
 * second copy of poppler's objects. From this many it is a book. */
#define DC_PARALLEL_MIN_PAGES 16

/* How many threads work on a document of @n_pages: DECIPHER_EXTRACT_THREADS when set
 * (benchmarks and tests compare one thread with several), else one per processor for a
 * document of 16 pages or more, at most four. */
guint _dc_parallel_threads (guint n_pages);

/* Run on every thread of _dc_parallel_run(); it takes its share of the work itself, in
 * parts counted out with g_atomic_int_add(), until none is left. */
typedef void (*DcParallelFunc) (gpointer user_data);

/* Runs @func on @n_threads threads at once, the calling one included, and returns when
 * all have returned: what they wrote is then the caller's to read. A thread that cannot
 * be started leaves its share to the others. */
void _dc_parallel_run (guint n_threads, DcParallelFunc func, gpointer user_data);

G_END_DECLS
