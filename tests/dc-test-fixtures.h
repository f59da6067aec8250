/* dc-test-fixtures.h: opening the generated fixtures, shared by the engine tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "decipher.h"

G_BEGIN_DECLS

char *dc_test_fixture_path (const char *file);
DcDocument *dc_test_load_document (const char *name);
JsonObject *dc_test_load_truth (const char *name, JsonParser **parser);

GPtrArray *dc_test_truth_symbol_values (DcDocument *document, const char *name);
GPtrArray *dc_test_truth_lines (const char *name);
void dc_test_key_fill_from_truth (DcKey *key, const char *name);
guint dc_test_decode_with_references (DcReferences *references, const char *name);
char *dc_test_with_one_letter_changed (const char *line);
char *dc_test_truth_text (const char *name);
double dc_test_character_error_rate (const char *text, const char *truth);
void dc_test_remove_tree (const char *path);

/* A temporary folder a test made (g_dir_make_tmp()), removed with all it holds when the
 * test leaves its scope, by an early return (a skip) too: g_autoptr (DcTestDir). */
typedef char DcTestDir;

static inline void
dc_test_dir_free (DcTestDir *dir)
{
  if (dir != NULL)
    dc_test_remove_tree (dir);
  g_free (dir);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcTestDir, dc_test_dir_free)
void dc_test_assert_same_document (DcDocument *a, DcDocument *b);

/* A child process (decipher-cli) driven through pipes on the test's own thread. */
typedef enum
{
  DC_TEST_PIPE_IN = 1 << 0,
  DC_TEST_PIPE_OUT = 1 << 1,
  DC_TEST_PIPE_ERR = 1 << 2,
} DcTestPipes;

typedef struct
{
  DcTestPipes pipes;
  const char *const *env;  /* NAME=VALUE set over the test's environment, or NULL */
  const char *cwd;         /* where to run, or NULL */
  const char *stdin_path;  /* a file as standard input when it is not a pipe, or NULL */
  const char *stdout_path; /* a file made anew as standard output, or NULL */
  GSpawnChildSetupFunc child_setup;
  gpointer child_setup_data;
} DcTestSpawn;

typedef struct
{
  GPid pid;
  GOutputStream *in;     /* its standard input, when a pipe */
  GDataInputStream *out; /* its standard output, when a pipe */
  GInputStream *err;     /* its standard error, when a pipe */
} DcTestProcess;

void dc_test_process_spawn (DcTestProcess *process, const char *const *argv,
                            const DcTestSpawn *options);
int dc_test_process_communicate (DcTestProcess *process, const char *input, gssize input_length,
                                 char **out, char **err);
int dc_test_process_wait (DcTestProcess *process);
void dc_test_process_kill (DcTestProcess *process);

G_END_DECLS
