/* dc-parallel.c: one piece of work shared by several threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading a book and writing its text have steps done page by page, each page's result
 * its own: laying out lines, reordering them into text. Such a step is cut into parts
 * the threads take in turn from one counter (whoever is free takes the next), each part
 * writing only its own results, which the caller puts together in page order once all
 * threads are done; the result is the same whatever thread did which part. See
 * docs/architecture.md, "Threads".
 */

#define G_LOG_DOMAIN "dc-parallel"

#include "config.h"

#include "dc-parallel-private.h"
#include "dc-parallel.h"
#include "dc-tsan-private.h"

#define MAX_THREADS 4

guint
_dc_parallel_threads (guint n_pages)
{
  const char *env = g_getenv ("DECIPHER_EXTRACT_THREADS");
  guint64 n = 0;

  if (env != NULL && *env != '\0')
    n = g_ascii_strtoull (env, NULL, 10);
  if (n == 0)
    {
      if (n_pages < DC_PARALLEL_MIN_PAGES)
        return 1;
      n = (guint64) g_get_num_processors ();
    }
  return (guint) CLAMP (n, 1, MAX_THREADS);
}

typedef struct
{
  DcParallelFunc func;
  gpointer user_data;
} Job;

static gpointer
run_thread (gpointer data)
{
  Job *job = data;

  DC_TAKE_OVER (job->user_data);
  job->func (job->user_data);
  DC_HAND_OVER (job->user_data);
  return NULL;
}

void
_dc_parallel_run (guint n_threads, DcParallelFunc func, gpointer user_data)
{
  GThread *threads[MAX_THREADS] = { NULL };
  Job job = { func, user_data };

  n_threads = CLAMP (n_threads, 1, MAX_THREADS);
  DC_HAND_OVER (user_data);
  for (guint t = 1; t < n_threads; t++)
    threads[t] = g_thread_try_new ("dc-parallel", run_thread, &job, NULL);
  func (user_data);
  for (guint t = 1; t < n_threads; t++)
    if (threads[t] != NULL)
      g_thread_join (threads[t]);
  DC_TAKE_OVER (user_data);
}

/**
 * dc_parallel_get_n_threads:
 *
 * How many threads the engine reads a document of @n_pages with (DECIPHER_EXTRACT_THREADS
 * when set, else one per processor for 16 pages or more, at most four): a front end
 * writing that document out in parts uses as many.
 */
guint
dc_parallel_get_n_threads (guint n_pages)
{
  return _dc_parallel_threads (n_pages);
}

/**
 * dc_parallel_hand_over:
 *
 * Tells ThreadSanitizer (in its builds; nothing otherwise) that what @data leads to is
 * handed to another thread through GLib (a GMutex, GCond, GThreadPool or GTask), which
 * it cannot see: call it after the last write, and dc_parallel_take_over() on the
 * receiving side before the first read (see dc-tsan-private.h).
 */
void
dc_parallel_hand_over (gconstpointer data)
{
  DC_HAND_OVER (data);
}

void
dc_parallel_take_over (gconstpointer data)
{
  DC_TAKE_OVER (data);
}
