/* fuzz-common.c: temporary input files, fixtures and a deadline for the fuzz targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"

static char *input_dir;
static GHashTable *input_paths; /* name → path */
/* The driver's children inherit the folder; only its maker removes it, at exit, so that a
 * child that crashes leaves nothing behind in /dev/shm. */
static pid_t input_dir_owner;

static void
remove_input_dir (void)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (input_dir == NULL || getpid () != input_dir_owner)
    return;
  dir = g_dir_open (input_dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (input_dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (input_dir);
  g_clear_pointer (&input_dir, g_free);
}

/* Inputs are written to a private folder (see dc_fuzz_write_input()), made once, before
 * the driver forks its children. */
static void
make_input_dir (void)
{
  g_autoptr (GError) error = NULL;

  /* In memory where possible: libFuzzer writes thousands of inputs a second, and
   * rewriting a file on ext4 flushes it to disk on close. */
  if (g_access ("/dev/shm", W_OK) == 0)
    {
      input_dir = g_build_filename ("/dev/shm", "decipher-fuzz-XXXXXX", NULL);
      if (g_mkdtemp (input_dir) == NULL)
        g_clear_pointer (&input_dir, g_free);
    }
  if (input_dir == NULL)
    input_dir = g_dir_make_tmp ("decipher-fuzz-XXXXXX", &error);
  if (input_dir == NULL)
    g_error ("Cannot make a folder for fuzz inputs: %s", error->message);
  input_dir_owner = getpid ();
  atexit (remove_input_dir);
  input_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* Called once per process, before the first input. */
void
dc_fuzz_init (void)
{
  static gsize done;

  if (!g_once_init_enter (&done))
    return;

  /* A critical is a broken g_return_if_fail() contract: the engine called itself wrongly
   * on this input, which is a bug the fuzzer must report, not a line on stderr. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_FATAL_MASK);
  dc_fuzz_hold_poppler_globals ();
  make_input_dir ();
  dc_fuzz_json_self_test ();

  g_once_init_leave (&done, 1);
}

/* With DECIPHER_FUZZ_VERBOSE set, say what became of each input: whether the seeds reach
 * what they were written for is otherwise invisible, since every outcome is a pass. */
void
dc_fuzz_note (const char *format, ...)
{
  static int verbose = -1;
  va_list args;

  if (verbose < 0)
    verbose = g_getenv ("DECIPHER_FUZZ_VERBOSE") != NULL;
  if (!verbose)
    return;
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
}

/**
 * dc_fuzz_write_input:
 * @name: the file's base name (it appears in the engine's error sentences)
 *
 * The engine, like poppler below it, opens documents and projects by path, so each input
 * goes to a file in a private folder, rewritten for every input and removed at exit.
 *
 * Returns: the file's path, valid until the next call with the same @name
 */
const char *
dc_fuzz_write_input (const char *name, const uint8_t *data, size_t size)
{
  const char *path;
  gsize done = 0;
  int fd;

  path = g_hash_table_lookup (input_paths, name);
  if (path == NULL)
    {
      char *new_path = g_build_filename (input_dir, name, NULL);

      g_hash_table_insert (input_paths, g_strdup (name), new_path);
      path = new_path;
    }

  /* Overwritten, then cut to size: truncating to zero first makes ext4 flush the file
   * to disk when it is closed. */
  fd = g_open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    g_error ("Cannot write %s: %s", path, g_strerror (errno));
  while (done < size)
    {
      gssize n = pwrite (fd, data + done, size - done, (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        g_error ("Cannot write %s: %s", path, g_strerror (errno));
      done += (gsize) n;
    }
  if (ftruncate (fd, (off_t) size) != 0)
    g_error ("Cannot write %s: %s", path, g_strerror (errno));
  g_close (fd, NULL);
  return path;
}

/* The private folder, for a target that writes files of its own there (and cleans up
 * after each input). */
const char *
dc_fuzz_get_input_dir (void)
{
  g_assert (input_dir != NULL);
  return input_dir;
}

/* The fixtures of tests/fixtures; DECIPHER_FUZZ_FIXTURES overrides where they are, for a
 * binary copied away from its source tree. */
char *
dc_fuzz_fixture_path (const char *file)
{
  const char *dir = g_getenv ("DECIPHER_FUZZ_FIXTURES");

  return g_build_filename (dir != NULL ? dir : DC_FUZZ_FIXTURES_DIR, file, NULL);
}

/* The deadline: one thread that cancels the armed GCancellable when its time is up, so a
 * pathological (not hanging) input ends as a cancelled load, as it would when the user
 * gives up, instead of as a libFuzzer timeout. A real hang, where nothing checks the
 * cancellable any more, still runs into libFuzzer's -timeout. */

static GMutex deadline_lock;
static GCond deadline_cond;
static GCancellable *deadline_cancellable; /* armed when non-NULL */
static gint64 deadline_time;

static gpointer
deadline_thread (gpointer data)
{
  g_mutex_lock (&deadline_lock);
  for (;;)
    {
      if (deadline_cancellable == NULL)
        g_cond_wait (&deadline_cond, &deadline_lock);
      else if (!g_cond_wait_until (&deadline_cond, &deadline_lock, deadline_time)
               && deadline_cancellable != NULL && g_get_monotonic_time () >= deadline_time)
        {
          g_cancellable_cancel (deadline_cancellable);
          g_clear_object (&deadline_cancellable);
        }
    }
  g_mutex_unlock (&deadline_lock);
  return NULL;
}

void
dc_fuzz_deadline_start (GCancellable *cancellable, guint milliseconds)
{
  static GThread *thread;

  g_mutex_lock (&deadline_lock);
  if (thread == NULL)
    thread = g_thread_new ("fuzz-deadline", deadline_thread, NULL);
  g_set_object (&deadline_cancellable, cancellable);
  deadline_time = g_get_monotonic_time () + (gint64) milliseconds * G_TIME_SPAN_MILLISECOND;
  g_cond_signal (&deadline_cond);
  g_mutex_unlock (&deadline_lock);
}

void
dc_fuzz_deadline_stop (void)
{
  g_mutex_lock (&deadline_lock);
  g_clear_object (&deadline_cancellable);
  g_cond_signal (&deadline_cond);
  g_mutex_unlock (&deadline_lock);
}
