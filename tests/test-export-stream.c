/* test-export-stream.c: the JSON text export's memory stays flat in pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `decipher-cli text --format json` writes a book's JSON (about half a kilobyte a glyph)
 * a few pages at a time as it is made (dc-export-stream.c), so what it holds beyond the
 * document is a few parts' worth, whatever the book's length. Here a book is made of one
 * fixture's pages over and over, at two lengths, and the peak resident memory of the
 * JSON export is compared with that of the plain-text export of the same book, which
 * holds the same document: the difference is far below the JSON's size and does not grow
 * with the book.
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

/* The sanitizers keep memory of their own beside the program's (freed blocks set aside,
 * shadow state per thread), so a peak RSS under them says nothing about the export. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* @copies copies of a fixture's pages in one PDF (qpdf, as the fixtures' generator uses),
 * in @dir; NULL without qpdf. */
static char *
make_book (const char *dir, guint copies)
{
  g_autofree char *fixture = dc_test_fixture_path ("legacy-cyrillic.pdf");
  g_autofree char *name = g_strdup_printf ("book-%u.pdf", copies);
  g_autofree char *qpdf = g_find_program_in_path ("qpdf");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  if (qpdf == NULL)
    return NULL;
  g_ptr_array_add (argv, qpdf);
  g_ptr_array_add (argv, "--empty");
  g_ptr_array_add (argv, "--pages");
  for (guint i = 0; i < copies; i++)
    g_ptr_array_add (argv, fixture);
  g_ptr_array_add (argv, "--");
  g_ptr_array_add (argv, path);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  return path;
}

/* Runs `decipher-cli text PDF [--format json]` with its output in @out; returns its peak
 * resident memory in KiB (the kernel's count for that child alone). */
static glong
peak_kib (const char *pdf, gboolean json, const char *out)
{
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "text", pdf,
                         json ? "--format" : NULL,  "json", NULL };
  g_autoptr (GError) error = NULL;
  struct rusage usage;
  GPid pid;
  int fd, status;

  g_assert_nonnull (argv[0]);
  fd = g_open (out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_spawn_async_with_fds (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                          -1, fd, -1, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  return usage.ru_maxrss;
}

static void
test_json_memory_flat (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("test-export-stream-XXXXXX", &error);
  g_autofree char *out = NULL;
  guint copies[] = { 50, 400 };
  glong extra[2];
  goffset size[2];

#ifdef UNDER_SANITIZER
  g_test_skip ("peak memory means nothing under a sanitizer");
  return;
#endif
  g_assert_no_error (error);
  out = g_build_filename (dir, "out", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (copies); i++)
    {
      g_autofree char *book = make_book (dir, copies[i]);
      glong text, json;
      GStatBuf st;

      if (book == NULL)
        {
          g_test_skip ("no qpdf to make a book with");
          return;
        }
      text = peak_kib (book, FALSE, out);
      json = peak_kib (book, TRUE, out);
      g_assert_cmpint (g_stat (out, &st), ==, 0);
      size[i] = st.st_size;
      extra[i] = json - text;
      g_test_message ("%u copies: JSON %" G_GOFFSET_FORMAT
                      " bytes, peak %ld KiB, plain text %ld KiB",
                      copies[i], size[i], json, text);
    }
  /* The longer book's JSON is tens of megabytes: were it held whole, the export would
   * need as much again. It needs a small part of it, and no more than the short one's. */
  g_assert_cmpint (size[1], >, 8 * size[0] * 9 / 10);
  g_assert_cmpint (extra[1] * 1024, <, size[1] / 4);
  g_assert_cmpint ((extra[1] - extra[0]) * 1024, <, (size[1] - size[0]) / 8);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export-stream/json-memory-flat", test_json_memory_flat);

  return g_test_run ();
}
