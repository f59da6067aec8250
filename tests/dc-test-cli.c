/* dc-test-cli.c: decipher-cli run as a process, for the hostile-file tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/capability.h>
#include <unistd.h>

#include "dc-test-cli.h"
#include "dc-test-fixtures.h"

void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}


/* In the child, before it runs decipher-cli: the limits and rights @data (RunOptions)
 * asks for. */
void
run_child_setup (gpointer data)
{
  const RunOptions *options = data;
  struct rlimit limit;

  if (options->address_space > 0 && !UNDER_SANITIZER)
    {
      limit.rlim_cur = limit.rlim_max = (rlim_t) options->address_space;
      setrlimit (RLIMIT_AS, &limit);
    }
  if (options->file_size > 0)
    {
      limit.rlim_cur = limit.rlim_max = (rlim_t) options->file_size;
      setrlimit (RLIMIT_FSIZE, &limit);
    }
  /* Dropped from the bounding set, the capabilities are gone after exec even for root. */
  if (options->other_account)
    {
      prctl (PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0);
      prctl (PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0);
      prctl (PR_CAPBSET_DROP, CAP_FOWNER, 0, 0, 0);
    }
}

void
run_argv (Run *run, const RunOptions *options, const char *const *argv)
{
  DcTestSpawn spawn = { DC_TEST_PIPE_ERR };
  DcTestProcess process;

  if (options->stdin_path == NULL)
    spawn.pipes |= DC_TEST_PIPE_IN;
  if (options->stdout_path == NULL)
    spawn.pipes |= DC_TEST_PIPE_OUT;
  spawn.stdin_path = options->stdin_path;
  spawn.stdout_path = options->stdout_path;
  spawn.cwd = options->cwd;
  spawn.child_setup = run_child_setup;
  spawn.child_setup_data = (gpointer) options;
  dc_test_process_spawn (&process, argv, &spawn);
  run->status = dc_test_process_communicate (
      &process, options->input, options->input != NULL ? (gssize) options->input_length : 0,
      &run->out, &run->err);
}

/* decipher-cli ARGS… (NULL-terminated), with @options. */
void
run_cli (Run *run, const RunOptions *options, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (args, (gpointer) g_getenv ("DECIPHER_CLI"));
  va_start (ap, options);
  for (const char *arg = va_arg (ap, const char *); arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_argv (run, options, (const char *const *) args->pdata);
}

guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

/* One line on stderr, a sentence holding @words, and no control character but its
 * newline. */
void
assert_one_sentence (const Run *run, const char *words)
{
  g_test_message ("stderr: %s", run->err);
  g_assert_cmpint (run->status, >, 0);
  g_assert_true (g_str_has_prefix (run->err, "decipher-cli: "));
  g_assert_cmpuint (count_lines (run->err), ==, 1);
  g_assert_nonnull (strstr (run->err, words));
  g_assert_null (strstr (run->err, "WARNING"));
  for (const char *p = run->err; *p; p++)
    g_assert_true ((guchar) *p >= 0x20 || *p == '\n');
}

char *
make_work_dir (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *pdf = dc_test_fixture_path ("legacy-cyrillic.pdf");
  char *dir = g_dir_make_tmp ("decipher-hostile-XXXXXX", &error);
  g_autofree char *copy = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_no_error (error);
  copy = g_build_filename (dir, "doc.pdf", NULL);
  g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  return dir;
}

void
remove_work_dir (const char *dir)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);

  g_assert_cmpint (system (command), ==, 0);
}

char *
read_file (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, NULL);
  return contents;
}

