/* test-document-cache.c: a document opened again from the cache is the one read from its PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-document-cache.c keeps what the loader made of a PDF, and the next opening of the
 * same file reads that instead. Every fixture is read, read back from the cache, and
 * compared whole, and the session started on each gives the same text. A damaged cache
 * file, a changed PDF, a lower limit, an encrypted PDF and a full cache folder each fall
 * back to reading the PDF, or keep nothing; so does a document whose file would be out
 * of proportion to its PDF.
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "dc-document-cache-private.h"
#include "dc-document-private.h"
#include "dc-test-fixtures.h"

static char *cache_home;
static char *work_dir;

static void
count_progress (guint pages_done, guint n_pages, gpointer user_data)
{
  guint *n_calls = user_data;

  (*n_calls)++;
}

/* Opens @path through the public loader; @n_progress is how often it reported progress:
 * reading the PDF reports every page, the cache once, so for a PDF of two pages or more
 * it tells which served the document. */
static DcDocument *
open_document (const char *path, const char *password, const DcDocumentLimits *limits,
               guint *n_progress, GError **error)
{
  guint n_calls = 0;
  DcDocument *document = dc_document_new_from_file_full (path, password, limits, count_progress,
                                                         &n_calls, NULL, error);

  /* The cache file is written on a thread of its own: the tests look at it once written. */
  dc_document_flush_cache ();
  if (n_progress != NULL)
    *n_progress = n_calls;
  return document;
}

static char *
cache_file_of (const char *path)
{
  g_autofree char *identity = _dc_document_cache_identity (path);

  g_assert_nonnull (identity);
  return _dc_document_cache_file (identity);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The fixtures that load: those made to fail are other tests' business. */
static GPtrArray *
loadable_fixtures (void)
{
  g_autofree char *fixtures = dc_test_fixture_path ("");
  g_autoptr (GDir) dir = g_dir_open (fixtures, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".pdf") && strstr (name, "encrypted") == NULL)
      {
        g_autofree char *path = g_build_filename (fixtures, name, NULL);
        g_autoptr (DcDocument)
            document = _dc_document_new_from_file_threads (path, NULL, NULL, 1, NULL, NULL, NULL,
                                                           NULL);

        if (document != NULL)
          g_ptr_array_add (paths, g_steal_pointer (&path));
      }
  g_ptr_array_sort (paths, compare_names);
  return paths;
}

static char *
session_text (DcDocument *document)
{
  g_autoptr (DcSession) session = dc_session_new (document);

  dc_session_start_new_work (session, TRUE);
  return dc_session_dup_text (session);
}

static void
test_fixtures_round_trip (void)
{
  g_autoptr (GPtrArray) paths = loadable_fixtures ();
  guint n_multi_page = 0;

  g_assert_cmpuint (paths->len, >=, 40);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (DcDocument) read = NULL;
      g_autoptr (DcDocument) cached = NULL;
      g_autoptr (DcDocument) reopened = NULL;
      g_autofree char *file = NULL;
      g_autofree char *identity = NULL;
      g_autofree char *read_text = NULL;
      g_autofree char *cached_text = NULL;
      guint n_progress = 0;

      g_test_message ("%s", path);
      read = open_document (path, NULL, NULL, &n_progress, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_progress, ==, dc_document_get_n_pages (read));
      file = cache_file_of (path);
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));

      identity = _dc_document_cache_identity (path);
      cached = _dc_document_cache_load (path, identity, NULL);
      g_assert_nonnull (cached);
      g_assert_cmpstr (dc_document_get_path (cached), ==, path);
      dc_test_assert_same_document (read, cached);

      reopened = open_document (path, NULL, NULL, &n_progress, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_progress, ==, 1);
      dc_test_assert_same_document (read, reopened);
      n_multi_page += dc_document_get_n_pages (read) > 1;

      read_text = session_text (read);
      cached_text = session_text (cached);
      g_assert_cmpstr (read_text, ==, cached_text);
    }
  g_assert_cmpuint (n_multi_page, >=, 3);
}

static char *
copy_fixture (const char *name, const char *as)
{
  g_autofree char *source = dc_test_fixture_path (name);
  char *path = g_build_filename (work_dir, as, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  g_file_get_contents (source, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, contents, (gssize) length, &error);
  g_assert_no_error (error);
  return path;
}

/* Any damage to a cache file: the document comes from the PDF, whole, and the cache file
 * is made again. A change that keeps every index in range may pass unseen; it must then
 * not lead any reader out of an array (ASan runs this too). */
static void
test_damaged (void)
{
  g_autofree char *path = copy_fixture ("legacy-cyrillic.pdf", "damaged-cache.pdf");
  g_autoptr (DcDocument) read = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *good = NULL;
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  gsize length;

  read = open_document (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  file = cache_file_of (path);
  identity = _dc_document_cache_identity (path);
  g_file_get_contents (file, &good, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 1000);

  /* Cut short anywhere, or grown. */
  for (guint i = 0; i < 40; i++)
    {
      gsize cut = i < 39 ? (gsize) g_rand_int_range (rand, 0, (gint32) length) : length + 1;
      g_autofree char *longer = g_malloc0 (length + 1);
      g_autoptr (DcDocument) reopened = NULL;
      guint n_progress = 0;

      memcpy (longer, good, length);
      g_file_set_contents (file, longer, (gssize) cut, &error);
      g_assert_no_error (error);
      g_assert_null (_dc_document_cache_load (path, identity, NULL));
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));

      g_file_set_contents (file, longer, (gssize) cut, &error);
      g_assert_no_error (error);
      reopened = open_document (path, NULL, NULL, &n_progress, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_progress, ==, dc_document_get_n_pages (read));
      dc_test_assert_same_document (read, reopened);
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
    }

  /* Bytes changed anywhere. */
  for (guint i = 0; i < 400; i++)
    {
      g_autofree char *bad = g_memdup2 (good, length);
      gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) length);
      g_autoptr (DcDocument) damaged = NULL;

      bad[at] ^= (char) g_rand_int_range (rand, 1, 256);
      g_file_set_contents (file, bad, (gssize) length, &error);
      g_assert_no_error (error);
      damaged = _dc_document_cache_load (path, identity, NULL);
      /* The checksum sees every change (issue 33: 13 of 550 changed the text unseen). */
      g_assert_null (damaged);
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
    }
}

/* A PDF of @pages pages each drawing @glyphs Helvetica glyphs from one stream
 * (generate-hostile.py), in the work folder. */
static char *
make_pages (const char *name, const char *pages, const char *glyphs)
{
  g_autofree char *script = dc_test_fixture_path ("generate-hostile.py");
  char *path = g_build_filename (work_dir, name, NULL);
  const char *argv[] = { "python3", script, path, pages, glyphs, "Helvetica", NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

/* Issue 33: a 30 KB PDF drawing one stream on every page made a 325 MB cache file. A
 * document whose file would take more than 250 times its PDF (and over 16 MB) is not
 * written; it still opens, from the PDF. */
static void
test_size_bound (void)
{
  g_autofree char *path = make_pages ("many-pages.pdf", "400", "2000");
  g_autofree char *file = NULL;
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;
  guint n_glyphs = 0;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, 100 * 1024);

  document = open_document (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dc_document_get_glyphs (document, &n_glyphs);
  g_assert_cmpuint (n_glyphs, ==, 400 * 2000);
  file = cache_file_of (path);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
}

/* Issue 32: Flate packs a page of dense text to a fifth of a byte a glyph, so that the
 * 9 M-glyph varied book's file takes 164 times its PDF; at a bound of 100 times it was
 * never written, and every opening read the PDF again. A file of some 160 times its PDF
 * (and over 16 MB) is written, and the next opening reads it, not the PDF. */
static void
test_dense_text_written (void)
{
  g_autofree char *path = make_pages ("dense-text.pdf", "1000", "600");
  g_autofree char *file = NULL;
  g_autoptr (DcDocument) read = NULL;
  g_autoptr (DcDocument) reopened = NULL;
  g_autoptr (DcDocument) expected = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf pdf_st, file_st;
  guint n_progress = 0;

  g_assert_cmpint (g_stat (path, &pdf_st), ==, 0);

  read = open_document (path, NULL, NULL, &n_progress, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_progress, >=, 1000);
  file = cache_file_of (path);
  g_assert_cmpint (g_stat (file, &file_st), ==, 0);
  /* The case the old bound refused: over 16 MB and over 100 times the PDF. */
  g_assert_cmpint (file_st.st_size, >, 16 << 20);
  g_assert_cmpint (file_st.st_size, >, 100 * pdf_st.st_size);
  g_assert_cmpint (file_st.st_size, <=, 250 * pdf_st.st_size);

  reopened = open_document (path, NULL, NULL, &n_progress, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_progress, ==, 1);
  expected = _dc_document_new_from_file_threads (path, NULL, NULL, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dc_test_assert_same_document (expected, reopened);
}

/* A changed PDF is read again, never taken for the one cached. */
static void
test_changed_file (void)
{
  g_autofree char *path = copy_fixture ("legacy-cyrillic.pdf", "changed.pdf");
  g_autofree char *other = dc_test_fixture_path ("clean.pdf");
  g_autoptr (DcDocument) first = NULL;
  g_autoptr (DcDocument) second = NULL;
  g_autoptr (DcDocument) expected = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  FILE *file;

  first = open_document (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Written in place, as an editor that keeps the inode would. */
  g_file_get_contents (other, &contents, &length, &error);
  g_assert_no_error (error);
  file = g_fopen (path, "wb");
  g_assert_nonnull (file);
  g_assert_cmpuint (fwrite (contents, 1, length, file), ==, length);
  fclose (file);

  second = open_document (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  expected = _dc_document_new_from_file_threads (path, NULL, NULL, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dc_document_get_sha256 (second), !=, dc_document_get_sha256 (first));
  dc_test_assert_same_document (expected, second);
}

/* A limit lower than the cached document's size reads the PDF, which says so. */
static void
test_lower_limit (void)
{
  g_autofree char *path = dc_test_fixture_path ("legacy-cyrillic.pdf");
  g_autoptr (DcDocument) read = NULL;
  g_autoptr (DcDocument) limited = NULL;
  g_autoptr (DcDocument) limited_read = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) read_error = NULL;
  DcDocumentLimits limits = { 0 };
  guint n_glyphs;

  read = open_document (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dc_document_get_glyphs (read, &n_glyphs);
  limits.max_glyphs = n_glyphs - 1;
  limited = open_document (path, NULL, &limits, NULL, &error);
  g_assert_null (limited);
  g_assert_error (error, DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS);
  limited_read = _dc_document_new_from_file_threads (path, NULL, &limits, 1, NULL, NULL, NULL,
                                                     &read_error);
  g_assert_null (limited_read);
  g_assert_cmpstr (error->message, ==, read_error->message);
}

/* Nothing of an encrypted PDF is written down: its text would lie there unencrypted. */
static void
test_encrypted (void)
{
  g_autofree char *path = dc_test_fixture_path ("encrypted.pdf");
  g_autofree char *file = cache_file_of (path);
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;

  document = open_document (path, "secret", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
}

/* Issue 33: the cache follows the rule of every writer. A link, a pipe or a folder
 * someone put where a document's file goes is left as it is (and what a link points to
 * too); the document opens from its PDF all the same. */
static void
test_not_written_over (void)
{
  g_autofree char *path = copy_fixture ("legacy-cyrillic.pdf", "in-the-way.pdf");
  g_autofree char *file = cache_file_of (path);
  g_autofree char *victim = g_build_filename (work_dir, "victim.txt", NULL);
  g_autofree char *folder = g_path_get_dirname (file);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (victim, "someone's notes\n", -1, NULL));
  for (guint kind = 0; kind < 3; kind++)
    {
      g_autoptr (DcDocument) document = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *contents = NULL;
      GStatBuf st;
      guint n_progress = 0;

      if (kind == 0)
        g_assert_cmpint (symlink (victim, file), ==, 0);
      else if (kind == 1)
        g_assert_cmpint (mkfifo (file, 0600), ==, 0);
      else
        g_assert_cmpint (g_mkdir (file, 0700), ==, 0);
      document = open_document (path, NULL, NULL, &n_progress, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_progress, ==, dc_document_get_n_pages (document));
      g_assert_cmpint (g_lstat (file, &st), ==, 0);
      g_assert_true (kind == 0   ? S_ISLNK (st.st_mode)
                     : kind == 1 ? S_ISFIFO (st.st_mode)
                                 : S_ISDIR (st.st_mode));
      g_assert_true (g_file_get_contents (victim, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "someone's notes\n");
      if (kind == 2)
        g_assert_cmpint (g_rmdir (file), ==, 0);
      else
        g_assert_cmpint (g_unlink (file), ==, 0);
    }
}

/* DECIPHER_DOCUMENT_CACHE=0 keeps nothing; by default a small document is not kept. */
static void
test_policy (void)
{
  g_autofree char *path = copy_fixture ("clean.pdf", "policy.pdf");
  g_autofree char *file = cache_file_of (path);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (DcDocument) document = NULL;
      g_autoptr (GError) error = NULL;

      if (i == 0)
        g_setenv ("DECIPHER_DOCUMENT_CACHE", "0", TRUE);
      else
        g_unsetenv ("DECIPHER_DOCUMENT_CACHE");
      if (i == 0)
        g_assert_null (_dc_document_cache_identity (path));
      document = open_document (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
    }
  g_setenv ("DECIPHER_DOCUMENT_CACHE", "always", TRUE);
}

/* The file is written after the document is handed over, on a thread of its own that
 * holds what it writes until dc_document_flush_cache(): dropping the document at once
 * still leaves a whole file, the same document as a fresh read. */
static void
test_written_in_background (void)
{
  g_autofree char *path = copy_fixture ("two-columns.pdf", "background.pdf");
  g_autofree char *file = cache_file_of (path);
  g_autofree char *identity = _dc_document_cache_identity (path);
  g_autoptr (DcDocument) fresh = NULL;
  g_autoptr (DcDocument) cached = NULL;
  g_autoptr (GError) error = NULL;
  DcDocument *dropped;

  dropped = dc_document_new_from_file_full (path, NULL, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_object_add_weak_pointer (G_OBJECT (dropped), (gpointer *) &dropped);
  g_object_unref (dropped);
  g_assert_nonnull (dropped);
  dc_document_flush_cache ();
  g_assert_null (dropped);
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));

  fresh = _dc_document_new_from_file_threads (path, NULL, NULL, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cached = _dc_document_cache_load (path, identity, NULL);
  g_assert_nonnull (cached);
  dc_test_assert_same_document (fresh, cached);
}

/* The folder keeps the sixteen documents used last, however many were opened. */
static void
test_evicts_oldest (void)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder = g_build_filename (cache_home, "decipher", "documents", NULL);
  g_autoptr (GDir) dir = NULL;
  guint n_files = 0;

  dc_test_remove_tree (folder);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("copy-%02u.pdf", i);
      g_autofree char *path = copy_fixture ("clean.pdf", name);
      g_autoptr (DcDocument) document = NULL;
      g_autoptr (GError) error = NULL;
      struct utimbuf times;

      document = open_document (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_ptr_array_add (files, cache_file_of (path));
      /* Used one second after another: the file system's clock may be coarse. */
      times.actime = times.modtime = 1000000000 + i;
      g_utime (files->pdata[i], &times);
    }
  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 16);
  /* The last eviction ran when copy 19 was written, before its time was set: copies 0 to
   * 3 had the oldest times then. */
  for (guint i = 0; i < 20; i++)
    g_assert_cmpint (g_file_test (files->pdata[i], G_FILE_TEST_EXISTS), ==, i >= 4);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  /* Before anything asks GLib where the cache folder is: it asks once. */
  cache_home = g_dir_make_tmp ("test-document-cache-XXXXXX", &error);
  g_assert_no_error (error);
  work_dir = g_build_filename (cache_home, "pdfs", NULL);
  g_mkdir (work_dir, 0700);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_setenv ("DECIPHER_DOCUMENT_CACHE", "always", TRUE);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document-cache/fixtures-round-trip", test_fixtures_round_trip);
  g_test_add_func ("/document-cache/damaged", test_damaged);
  g_test_add_func ("/document-cache/size-bound", test_size_bound);
  g_test_add_func ("/document-cache/dense-text-written", test_dense_text_written);
  g_test_add_func ("/document-cache/not-written-over", test_not_written_over);
  g_test_add_func ("/document-cache/changed-file", test_changed_file);
  g_test_add_func ("/document-cache/lower-limit", test_lower_limit);
  g_test_add_func ("/document-cache/encrypted", test_encrypted);
  g_test_add_func ("/document-cache/policy", test_policy);
  g_test_add_func ("/document-cache/written-in-background", test_written_in_background);
  g_test_add_func ("/document-cache/evicts-oldest", test_evicts_oldest);

  status = g_test_run ();
  dc_test_remove_tree (cache_home);
  g_free (work_dir);
  g_free (cache_home);
  return status;
}
