/* test-references-sharing.c: the index of installed fonts shared by processes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every run of decipher-cli, and the app, opens the same index (dc-references.c): a run
 * that only reads it writes nothing, and one that rebuilds it while others read leaves
 * them a whole index. The "installed fonts" are a copy of DejaVu Sans in a fontconfig
 * configuration this test writes, the font the fixture library-recoded.pdf is drawn with.
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dc-auto.h"
#include "dc-test-fixtures.h"

static char *test_dir;

/* Must run before anything starts fontconfig: it reads FONTCONFIG_FILE once. */
static void
set_up_fonts (void)
{
  g_autofree char *fonts_dir = NULL;
  g_autofree char *regular = NULL;
  g_autofree char *data = NULL;
  g_autofree char *conf = NULL;
  g_autofree char *conf_path = NULL;
  gsize length;

  test_dir = g_dir_make_tmp ("decipher-references-sharing-XXXXXX", NULL);
  fonts_dir = g_build_filename (test_dir, "fonts", NULL);
  g_assert_cmpint (g_mkdir (fonts_dir, 0755), ==, 0);
  regular = g_build_filename (fonts_dir, "DejaVuSans.ttf", NULL);
  g_assert_true (g_file_get_contents ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", &data,
                                      &length, NULL));
  g_assert_true (g_file_set_contents (regular, data, (gssize) length, NULL));
  conf = g_strdup_printf ("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n"
                          "<fontconfig><dir>%s</dir><cachedir>%s/fc-cache</cachedir>"
                          "</fontconfig>\n",
                          fonts_dir, test_dir);
  conf_path = g_build_filename (test_dir, "fonts.conf", NULL);
  g_assert_true (g_file_set_contents (conf_path, conf, -1, NULL));
  g_setenv ("FONTCONFIG_FILE", conf_path, TRUE);
}

/* Builds the index at @path and closes it. */
static void
build_index (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcReferences) references = dc_references_open (path, &error);

  g_assert_no_error (error);
  g_assert_true (dc_references_update (references, NULL, NULL, &error));
  g_assert_no_error (error);
}

/* Whether @folder holds @path's index and nothing beside it (no journal, -wal or -shm). */
static void
assert_index_alone (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_cmpstr (name, ==, "references.sqlite");
      n++;
    }
  g_assert_cmpuint (n, ==, 1);
}

/* Opens the index at @path as a run does: finds it current (nothing to index again) and
 * decodes library-recoded by it; with @alone_in, checks while it is open that the folder
 * holds the index alone. */
static void
assert_index_reads (const char *path, const char *alone_in)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcReferences) references = dc_references_open (path, &error);
  guint n_indexed = 1;

  g_assert_no_error (error);
  g_assert_true (dc_references_update (references, &n_indexed, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_indexed, ==, 0);
  g_assert_cmpuint (dc_test_decode_with_references (references, "library-recoded"), >, 25);
  if (alone_in != NULL)
    assert_index_alone (alone_in);
}

/* A run that finds the index current and reads it writes nothing: no journal, -wal or
 * -shm file, the index as it was. In WAL mode each run made, sized and wrote the -shm
 * file (issue 32: a one-page `text`). */
static void
test_reading_writes_nothing (void)
{
  g_autofree char *folder = g_build_filename (test_dir, "read-only", NULL);
  g_autofree char *path = g_build_filename (folder, "references.sqlite", NULL);
  GStatBuf before, after;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  build_index (path);
  g_assert_cmpint (g_stat (path, &before), ==, 0);
  assert_index_reads (path, folder);
  assert_index_alone (folder);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpint (after.st_size, ==, before.st_size);
  g_assert_cmpint (after.st_mtim.tv_sec, ==, before.st_mtim.tv_sec);
  g_assert_cmpint (after.st_mtim.tv_nsec, ==, before.st_mtim.tv_nsec);
}

/* The journal mode SQLite's header records: 1 for a rollback journal, 2 for WAL. */
static int
journal_version (const char *path)
{
  g_autofree char *data = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_cmpuint (length, >=, 100);
  return data[18];
}

/* An index an earlier version left in WAL mode is read as it is while another process
 * holds it open in WAL mode, and goes back to a rollback journal once none does. */
static void
test_left_in_wal_mode (void)
{
  g_autofree char *folder = g_build_filename (test_dir, "wal", NULL);
  g_autofree char *path = g_build_filename (folder, "references.sqlite", NULL);
  sqlite3 *other = NULL;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  build_index (path);
  g_assert_cmpint (journal_version (path), ==, 1);
  g_assert_cmpint (sqlite3_open (path, &other), ==, SQLITE_OK);
  /* Having read, the other connection holds the index open in WAL mode. */
  g_assert_cmpint (sqlite3_exec (other, "PRAGMA journal_mode = WAL; SELECT count(*) FROM meta",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (journal_version (path), ==, 2);
  assert_index_reads (path, NULL);
  g_assert_cmpint (journal_version (path), ==, 2);
  sqlite3_close (other);

  assert_index_reads (path, NULL);
  g_assert_cmpint (journal_version (path), ==, 1);
  assert_index_alone (folder);
}

typedef struct
{
  const char *path;
  gboolean updated;
  guint n_indexed;
} Rebuild;

static gpointer
rebuild_thread (gpointer data)
{
  Rebuild *rebuild = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcReferences) references = dc_references_open (rebuild->path, &error);

  g_assert_no_error (error);
  rebuild->updated = dc_references_update (references, &rebuild->n_indexed, NULL, &error);
  g_assert_no_error (error);
  return NULL;
}

static gint64
count_glyphs (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM glyphs", -1, &stmt, NULL), ==,
                   SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

/* Another process (the app, a collection's worker) reads the index while one rebuilds it:
 * the reader's transaction reads the index as it was throughout, the build waits for it
 * to end and then writes the index whole. */
static void
test_rebuilt_while_read (void)
{
  g_autofree char *path = g_build_filename (test_dir, "busy.sqlite", NULL);
  Rebuild rebuild = { path, FALSE, 0 };
  GThread *thread;
  sqlite3 *reader = NULL;
  gint64 n_glyphs;

  build_index (path);
  g_assert_cmpint (sqlite3_open (path, &reader), ==, SQLITE_OK);
  /* As when the installed fonts changed: the next update reads them all again. */
  g_assert_cmpint (sqlite3_exec (reader,
                                 "UPDATE meta SET value = 'other fonts' WHERE name = 'fonts';"
                                 "DELETE FROM meta WHERE name = 'stamp'",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);

  g_assert_cmpint (sqlite3_exec (reader, "BEGIN", NULL, NULL, NULL), ==, SQLITE_OK);
  n_glyphs = count_glyphs (reader);
  g_assert_cmpint (n_glyphs, >, 1000);
  thread = g_thread_new ("rebuild", rebuild_thread, &rebuild);
  /* Gives the build time to reach the reader's lock; nothing here depends on it. */
  g_usleep (G_USEC_PER_SEC / 5);
  g_assert_cmpint (count_glyphs (reader), ==, n_glyphs);
  g_assert_cmpint (sqlite3_exec (reader, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  g_thread_join (thread);
  g_assert_true (rebuild.updated);
  g_assert_cmpuint (rebuild.n_indexed, ==, 1);
  g_assert_cmpint (count_glyphs (reader), ==, n_glyphs);
  sqlite3_close (reader);

  assert_index_reads (path, NULL);
}

/* Two `decipher-cli text` started together on an index neither finds: one builds it, the
 * other waits for it, and both read the fixture right. */
static void
test_cli_together (void)
{
  g_autofree char *path = g_build_filename (test_dir, "together.sqlite", NULL);
  g_autofree char *pdf = dc_test_fixture_path ("library-recoded.pdf");
  g_autofree char *expected = dc_test_truth_text ("library-recoded");
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "text", pdf, NULL };
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "DECIPHER_REFERENCES", path, TRUE);
  GPid pids[2];
  int outs[2];

  /* Plain pipes read to their end, not GSubprocess: its worker thread is GLib's, which
   * ThreadSanitizer cannot see synchronise. The text is far smaller than a pipe holds. */
  for (guint i = 0; i < G_N_ELEMENTS (pids); i++)
    {
      g_autoptr (GError) error = NULL;

      g_spawn_async_with_pipes (NULL, (char **) argv, env,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                &pids[i], NULL, &outs[i], NULL, &error);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (pids); i++)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      g_auto (GStrv) pages = NULL;
      g_autofree char *text = NULL;
      char buffer[4096];
      gssize n;
      int status;

      while ((n = read (outs[i], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
          g_string_append_len (out, buffer, n);
      g_assert_cmpint (n, ==, 0);
      close (outs[i]);
      g_assert_cmpint (waitpid (pids[i], &status, 0), ==, pids[i]);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_spawn_close_pid (pids[i]);
      pages = g_strsplit (out->str, "\n\f", -1);
      text = g_strjoinv ("\f", pages);
      g_assert_cmpstr (text, ==, expected);
    }
}

int
main (int argc, char **argv)
{
  int status;

  set_up_fonts ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/references-sharing/reading-writes-nothing", test_reading_writes_nothing);
  g_test_add_func ("/references-sharing/left-in-wal-mode", test_left_in_wal_mode);
  g_test_add_func ("/references-sharing/rebuilt-while-read", test_rebuilt_while_read);
  g_test_add_func ("/references-sharing/cli-together", test_cli_together);

  status = g_test_run ();
  dc_test_remove_tree (test_dir);
  return status;
}
