/* standalone-driver.c: run a fuzz target over files, without libFuzzer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer needs clang; this main() lets every target build with any compiler and replay
 * its corpus as a regression test under the normal build (and under ASan with gcc).
 *
 *   fuzz-pdf [FILE|FOLDER]…
 *
 * Each file, and each file directly inside a folder (sorted, hidden ones skipped), is one
 * input. The output is TAP, one case per input, so meson counts them. Each input runs in
 * a child process, so that one crash (or leak, under LeakSanitizer, which checks when
 * the child exits) fails its own case and the other inputs still run; set
 * DECIPHER_FUZZ_NO_FORK to run them all in this process, for a debugger.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz-common.h"

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
collect (const char *arg, GPtrArray *inputs)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (!g_file_test (arg, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (inputs, g_strdup (arg));
      return;
    }

  dir = g_dir_open (arg, 0, &error);
  if (dir == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (2);
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  /* Readdir order differs between file systems; a sorted run is the same everywhere. */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      char *path = g_build_filename (arg, g_ptr_array_index (names, i), NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (inputs, path);
      else
        g_free (path);
    }
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func (g_free);
  gboolean fork_each = g_getenv ("DECIPHER_FUZZ_NO_FORK") == NULL;
  guint failed = 0;

  if (argc < 2)
    {
      fprintf (stderr, "Usage: %s FILE|FOLDER…\n", argv[0]);
      return 2;
    }

  LLVMFuzzerInitialize (&argc, &argv);

  for (int i = 1; i < argc; i++)
    collect (argv[i], inputs);

  printf ("1..%u\n", inputs->len);
  for (guint i = 0; i < inputs->len; i++)
    {
      const char *path = g_ptr_array_index (inputs, i);
      g_autoptr (GError) error = NULL;
      g_autofree char *data = NULL;
      gsize length;
      pid_t child;
      int wait_status;

      printf ("# running %s\n", path);
      fflush (stdout);
      fflush (stderr);
      if (!g_file_get_contents (path, &data, &length, &error))
        {
          printf ("not ok %u - %s # %s\n", i + 1, path, error->message);
          failed++;
          continue;
        }

      if (!fork_each)
        {
          LLVMFuzzerTestOneInput ((const uint8_t *) data, length);
          printf ("ok %u - %s\n", i + 1, path);
          continue;
        }

      child = fork ();
      if (child < 0)
        g_error ("fork: %s", g_strerror (errno));
      if (child == 0)
        {
          LLVMFuzzerTestOneInput ((const uint8_t *) data, length);
          exit (0); /* through atexit(), where LeakSanitizer looks */
        }
      while (waitpid (child, &wait_status, 0) < 0)
        if (errno != EINTR)
          g_error ("waitpid: %s", g_strerror (errno));

      if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0)
        printf ("ok %u - %s\n", i + 1, path);
      else
        {
          if (WIFSIGNALED (wait_status))
            printf ("not ok %u - %s # killed by signal %d\n", i + 1, path,
                    WTERMSIG (wait_status));
          else
            printf ("not ok %u - %s # exit status %d\n", i + 1, path,
                    WEXITSTATUS (wait_status));
          failed++;
        }
    }
  return failed > 0 ? 1 : 0;
}
