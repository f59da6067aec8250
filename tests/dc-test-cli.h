/* dc-test-cli.h: decipher-cli run as a process in a folder of its own, for the tests of
 * what it does with hostile files (test-hostile.c, test-hostile-writers.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sanitizers reserve terabytes of address space and multiply what memory costs: under
 * them no address-space limit is set, and the glyph bomb is not loaded up to the default
 * limit (10 million glyphs) but to a lower one. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#else
#define UNDER_SANITIZER 0
#endif

typedef struct
{
  char *out;
  char *err;
  int status; /* exit code, or -1 when killed by a signal */
} Run;

void run_clear (Run *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

typedef struct
{
  const char *cwd;         /* where to run, or NULL */
  const char *stdin_path;  /* a file to read as standard input, or NULL */
  const char *stdout_path; /* a file to write standard output to, or NULL for a pipe */
  const char *input;       /* else this text, or nothing */
  gsize input_length;
  guint64 address_space;   /* RLIMIT_AS in bytes, or 0 */
  guint64 file_size;       /* RLIMIT_FSIZE in bytes (ulimit -f), or 0 */
  gboolean other_account;  /* as root: without the right to override file permissions,
                            * as a user whose files are not root's would be */
} RunOptions;

void run_child_setup (gpointer options);
void run_argv (Run *run, const RunOptions *options, const char *const *argv);
void run_cli (Run *run, const RunOptions *options, ...) G_GNUC_NULL_TERMINATED;
guint count_lines (const char *text);
void assert_one_sentence (const Run *run, const char *words);
char *make_work_dir (void);
void remove_work_dir (const char *dir);
char *read_file (const char *dir, const char *name);

G_END_DECLS
