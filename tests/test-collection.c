/* test-collection.c: decipher-cli text|repair over folders of PDFs, as a process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "dc-test-fixtures.h"

typedef struct
{
  char *dir;   /* everything the test writes */
  char *input; /* the collection */
  char *output;
} Fixture;

typedef struct
{
  char *out;
  char *err;
  int status; /* the exit status */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static void
copy_fixture (const char *name, const char *folder, const char *as)
{
  g_autofree char *from = dc_test_fixture_path (name);
  g_autofree char *to = g_build_filename (folder, as != NULL ? as : name, NULL);
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_file_get_contents (from, &data, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, data, (gssize) length, &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  fixture->dir = g_dir_make_tmp ("decipher-collection-test-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->input = g_build_filename (fixture->dir, "archive", NULL);
  fixture->output = g_build_filename (fixture->dir, "out", NULL);
  copy_fixture ("legacy-cyrillic.pdf", fixture->input, NULL);
  copy_fixture ("clean.pdf", fixture->input, NULL);
  /* Another volume in the same font, other codes: only its shapes tie it to the first. */
  g_autofree char *volumes = g_build_filename (fixture->input, "volume 2", NULL);
  copy_fixture ("library-recoded.pdf", volumes, NULL);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  dc_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->input);
  g_free (fixture->output);
}

static void
run_cli (Run *run, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  const char *arg;
  va_list ap;
  int wait_status;

  g_ptr_array_add (args, (gpointer) g_getenv ("DECIPHER_CLI"));
  va_start (ap, run);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &run->out,
                &run->err, &wait_status, &error);
  g_assert_no_error (error);
  if (!WIFEXITED (wait_status))
    g_test_message ("decipher-cli stopped by a signal; it said: %s", run->err);
  g_assert_true (WIFEXITED (wait_status));
  run->status = WEXITSTATUS (wait_status);
}

/* A result as written, pages joined as the truth joins them (the export ends each
 * page's last line before its form feed). */
static char *
read_output (Fixture *fixture, const char *name)
{
  g_autofree char *path = g_build_filename (fixture->output, name, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) pages = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  pages = g_strsplit (text, "\n\f", -1);
  return g_strjoinv ("\f", pages);
}

/* The user decoded the first volume (a project filled from the truth): the whole
 * archive, the other volume included, comes out right, every file complete. */
static void
test_project_over_folder (Fixture *fixture, gconstpointer data)
{
  g_autofree char *project_path = g_build_filename (fixture->dir, "volume1.decipher", NULL);
  g_autofree char *pdf = g_build_filename (fixture->input, "legacy-cyrillic.pdf", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *expected_first = dc_test_truth_text ("legacy-cyrillic");
  g_autofree char *expected_second = dc_test_truth_text ("library-recoded");
  g_autoptr (GError) error = NULL;
  Run run = { 0 };

  {
    g_autoptr (DcDocument) document = dc_document_new_from_file (pdf, NULL, NULL, NULL, NULL,
                                                                 &error);
    g_autoptr (DcKey) key = NULL;
    g_autoptr (DcProject) project = NULL;

    g_assert_no_error (error);
    key = dc_key_new (document);
    dc_test_key_fill_from_truth (key, "legacy-cyrillic");
    project = dc_project_new (document, key);
    g_assert_true (dc_project_save (project, project_path, &error));
    g_assert_no_error (error);
  }

  run_cli (&run, "text", fixture->input, "--project", project_path, "-o", fixture->output, NULL);
  g_assert_cmpint (run.status, ==, 0);
  /* A header, one line per file in name order, the counts. */
  g_assert_true (g_str_has_prefix (run.out, "file\tfonts\t"));
  g_assert_nonnull (strstr (run.out, "\nclean.pdf\t"));
  g_assert_nonnull (strstr (run.out, "\nlegacy-cyrillic.pdf\t2\t1\t"));
  g_assert_nonnull (strstr (run.out, "\nvolume 2/library-recoded.pdf\t"));
  g_assert_nonnull (strstr (run.out, "3 files: 3 complete, 0 with glyphs left to decode, 0 "));
  /* A progress line per file. */
  g_assert_nonnull (strstr (run.err, "/3 legacy-cyrillic.pdf: 100.0 % decoded"));

  first = read_output (fixture, "legacy-cyrillic.txt");
  g_assert_cmpstr (first, ==, expected_first);
  second = read_output (fixture, "volume 2/library-recoded.txt");
  g_assert_cmpstr (second, ==, expected_second);
  run_clear (&run);

  /* The project belongs to none of the files given: said, nothing written. */
  {
    g_autofree char *other = g_build_filename (fixture->input, "volume 2", NULL);
    g_autofree char *elsewhere = g_build_filename (fixture->dir, "elsewhere", NULL);

    run_cli (&run, "text", other, "--project", project_path, "-o", elsewhere, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "was made for “legacy-cyrillic.pdf”, which is not among"));
    g_assert_false (g_file_test (elsewhere, G_FILE_TEST_EXISTS));
    run_clear (&run);
  }
}

/* Without the user's work the legacy file is partly decoded: exit status 3; a file that
 * cannot be read: 1, and the others are still written. */
static void
test_partial_and_failed (Fixture *fixture, gconstpointer data)
{
  g_autofree char *clean = NULL;
  Run run = { 0 };

  run_cli (&run, "text", fixture->input, "-o", fixture->output, "--format", "json", NULL);
  g_assert_cmpint (run.status, ==, 3);
  g_assert_nonnull (strstr (run.out, "3 files: 1 complete, 2 with glyphs left to decode, 0 "));
  clean = read_output (fixture, "clean.json");
  g_assert_true (g_str_has_prefix (clean, "{"));
  run_clear (&run);

  copy_fixture ("not-a-pdf.pdf", fixture->input, "broken.pdf");
  run_cli (&run, "text", fixture->input, "-o", fixture->output, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "\nbroken.pdf\t-\t"));
  g_assert_nonnull (strstr (run.out, "is not a PDF file"));
  g_assert_true (g_file_test (fixture->output, G_FILE_TEST_IS_DIR));
  g_clear_pointer (&clean, g_free);
  clean = read_output (fixture, "clean.txt");
  g_assert_true (g_str_has_prefix (clean, "The village library opens"));
  run_clear (&run);
}

/* repair writes a PDF per file, and never over the PDFs themselves. */
static void
test_repair_folder (Fixture *fixture, gconstpointer data)
{
  g_autofree char *original = g_build_filename (fixture->input, "clean.pdf", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *repaired = g_build_filename (fixture->output, "legacy-cyrillic.pdf", NULL);
  Run run = { 0 };

  g_file_get_contents (original, &before, NULL, NULL);
  run_cli (&run, "repair", fixture->input, "-o", fixture->input, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "would replace the PDF"));
  g_file_get_contents (original, &after, NULL, NULL);
  g_assert_cmpstr (before, ==, after);
  run_clear (&run);

  /* The automatic pass decodes part of the legacy file: its copy is written, and says
   * what still reads wrong; the clean one needs no copy. */
  run_cli (&run, "repair", fixture->input, "-o", fixture->output, NULL);
  g_assert_cmpint (run.status, ==, 3);
  g_assert_nonnull (strstr (run.out, "\nclean.pdf\t1\t0\t0\t0\t100.0 %\t0\tits text already reads right"));
  g_assert_nonnull (strstr (run.out, "are not decoded yet"));
  g_assert_true (g_file_test (repaired, G_FILE_TEST_IS_REGULAR));
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DcDocument) document = dc_document_new_from_file (repaired, NULL, NULL, NULL, NULL,
                                                                 &error);

    g_assert_no_error (error);
    g_assert_cmpuint (dc_document_get_n_pages (document), >, 0);
  }
  run_clear (&run);

  /* Two files of one name from two folders do not overwrite each other. */
  {
    g_autofree char *again = g_build_filename (fixture->dir, "again", NULL);
    g_autofree char *a = g_build_filename (fixture->input, "clean.pdf", NULL);
    g_autofree char *second_folder = g_build_filename (fixture->dir, "other", NULL);
    g_autofree char *b = g_build_filename (second_folder, "clean.pdf", NULL);
    g_autofree char *b_text = g_build_filename (again, "clean-2.txt", NULL);

    copy_fixture ("clean.pdf", second_folder, NULL);
    run_cli (&run, "text", a, b, "-o", again, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_file_test (b_text, G_FILE_TEST_IS_REGULAR));
    run_clear (&run);
  }
}

static void
test_usage (Fixture *fixture, gconstpointer data)
{
  g_autofree char *empty = g_build_filename (fixture->dir, "empty", NULL);
  Run run = { 0 };

  run_cli (&run, "text", fixture->input, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "-o OUTDIR"));
  run_clear (&run);

  run_cli (&run, "text", fixture->input, "-o", fixture->output, "--format", "cmap", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "cannot be written for several PDFs"));
  run_clear (&run);

  {
    g_autofree char *not_project = g_build_filename (fixture->input, "clean.pdf", NULL);

    run_cli (&run, "text", fixture->input, "--project", not_project, "-o", fixture->output, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "is not a Decipher project"));
    g_assert_false (g_file_test (fixture->output, G_FILE_TEST_EXISTS));
    run_clear (&run);
  }

  g_assert_cmpint (g_mkdir (empty, 0755), ==, 0);
  run_cli (&run, "text", empty, "-o", fixture->output, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "No PDF file was found"));
  run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/collection/project-over-folder", Fixture, NULL, fixture_set_up,
              test_project_over_folder, fixture_tear_down);
  g_test_add ("/collection/partial-and-failed", Fixture, NULL, fixture_set_up,
              test_partial_and_failed, fixture_tear_down);
  g_test_add ("/collection/repair-folder", Fixture, NULL, fixture_set_up, test_repair_folder,
              fixture_tear_down);
  g_test_add ("/collection/usage", Fixture, NULL, fixture_set_up, test_usage, fixture_tear_down);
  return g_test_run ();
}
