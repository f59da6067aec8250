/* test-session-durability.c: decipher-cli session keeps what it acknowledged, whatever the
 * project, the disk or another writer does (DESIGN §6: nothing acknowledged is ever lost)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case runs decipher-cli as a process. The full disk is made by full-disk-shim.c,
 * preloaded into the session: writes under one folder take bytes from a budget the test
 * sets between requests.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

#define PLENTY "1000000000"

/* A decipher-cli session: its input (in) and its replies (out). */
typedef DcTestProcess Session;

/* @budget: (nullable): the full-disk shim's budget file, for a session whose project's
 * folder can fill up. */
static void
session_start (Session *s, const char *project, const char *budget)
{
  g_autofree char *pdf = dc_test_fixture_path ("legacy-cyrillic.pdf");
  const char *argv[] = {
    g_getenv ("DECIPHER_CLI"), "session", pdf, "--project", project, "--no-auto", NULL
  };
  g_autoptr (GPtrArray) env = g_ptr_array_new_with_free_func (g_free);
  DcTestSpawn spawn = { DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT };

  if (budget != NULL)
    {
      g_autofree char *folder = g_path_get_dirname (project);
      const char *asan = g_getenv ("ASAN_OPTIONS");

      g_ptr_array_add (env, g_strconcat ("LD_PRELOAD=", g_getenv ("FULL_DISK_SHIM"), NULL));
      g_ptr_array_add (env, g_strconcat ("DECIPHER_TEST_FULL_DIR=", folder, NULL));
      g_ptr_array_add (env, g_strconcat ("DECIPHER_TEST_FREE_BYTES=", budget, NULL));
      /* Sanitizer builds: their runtime need not come first for this. */
      g_ptr_array_add (env, g_strconcat ("ASAN_OPTIONS=", asan != NULL ? asan : "",
                                         asan != NULL && *asan != '\0' ? ":" : "",
                                         "verify_asan_link_order=0", NULL));
    }
  g_ptr_array_add (env, NULL);
  spawn.env = (const char *const *) env->pdata;
  dc_test_process_spawn (s, argv, &spawn);
}

/* Closes its input, as the end of a script does. Returns its exit status. */
static int
session_stop (Session *s)
{
  return dc_test_process_wait (s);
}

static JsonObject *
session_ask (Session *s, JsonParser *parser, const char *request)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;

  g_output_stream_write_all (s->in, request, strlen (request), NULL, NULL, &error);
  g_output_stream_write_all (s->in, "\n", 1, NULL, NULL, &error);
  g_assert_no_error (error);
  line = g_data_input_stream_read_line_utf8 (s->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gboolean
assign (Session *s, gint64 symbol, const char *text, char **error_out)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *request = g_strdup_printf ("{\"cmd\": \"assign\", \"symbol\": %" G_GINT64_FORMAT
                                              ", \"text\": \"%s\"}",
                                              symbol, text);
  JsonObject *reply = session_ask (s, parser, request);
  gboolean ok = json_object_get_boolean_member (reply, "ok");

  if (!ok && error_out != NULL)
    *error_out = g_strdup (json_object_get_string_member (reply, "error"));
  return ok;
}

/* The first @n symbols that need decoding, as the session numbers them. */
static void
first_symbols (Session *s, gint64 *symbols, guint n)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *reply = session_ask (s, parser, "{\"cmd\": \"symbols\"}");
  JsonArray *list = json_object_get_array_member (reply, "symbols");

  g_assert_cmpuint (json_array_get_length (list), >=, n);
  for (guint i = 0; i < n; i++)
    symbols[i] = json_object_get_int_member (json_array_get_object_element (list, i), "symbol");
}

/* The value a session opened on @project has for @symbol (NULL while unknown). */
static char *
value_of (Session *s, gint64 symbol)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *reply = session_ask (s, parser, "{\"cmd\": \"symbols\"}");
  JsonArray *list = json_object_get_array_member (reply, "symbols");

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *entry = json_array_get_object_element (list, i);

      if (json_object_get_int_member (entry, "symbol") == symbol)
        return json_object_get_null_member (entry, "value")
                   ? NULL
                   : g_strdup (json_object_get_string_member (entry, "value"));
    }
  g_assert_not_reached ();
}

static void
set_budget (const char *budget, const char *free_bytes)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (budget, free_bytes, -1, &error);
  g_assert_no_error (error);
}

static char *
read_file (const char *path, gsize *length)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, length, &error);
  g_assert_no_error (error);
  return data;
}

/* Runs `session --project PROJECT` to the end of a one-line script. */
static int
run_session (const char *project, char **out, char **err)
{
  g_autofree char *pdf = dc_test_fixture_path ("legacy-cyrillic.pdf");
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "session", pdf, "--project", project, NULL };
  DcTestSpawn spawn = { DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT | DC_TEST_PIPE_ERR };
  DcTestProcess process;

  dc_test_process_spawn (&process, argv, &spawn);
  return dc_test_process_communicate (&process, "{\"cmd\": \"status\"}\n", -1, out, err);
}

/* A valid project of legacy-cyrillic.pdf with one symbol decided, made by a session. */
static void
make_project (const char *project)
{
  Session s = { 0 };
  gint64 symbol;

  session_start (&s, project, NULL);
  first_symbols (&s, &symbol, 1);
  g_assert_true (assign (&s, symbol, "д", NULL));
  g_assert_cmpint (session_stop (&s), ==, 0);
}

/* A project that cannot be opened gets one sentence and a failing exit status, and is
 * left exactly as it was: not rewritten, not backed up, no journal or lock beside it. */
static void
test_damaged_projects (void)
{
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-durability-XXXXXX", NULL);
  g_autofree char *valid = g_build_filename (dir, "valid.decipher", NULL);
  g_autofree char *valid_text = NULL;
  g_autofree char *other_pdf = dc_test_fixture_path ("clean.pdf");
  g_autofree char *other_project = g_build_filename (dir, "other.decipher", NULL);
  struct
  {
    const char *name;
    const char *contents; /* NULL: a folder */
    const char *journal;  /* beside a valid project, when set */
    const char *words;
  } cases[] = {
    { "truncated", "{\"format\":", NULL, "cut short" },
    { "not-json", "hello", NULL, "not valid JSON" },
    { "not-text", "{\"format\": \"\xff\"}", NULL, "not text" },
    { "wrong-document", "{\"format\": \"spreadsheet\", \"version\": 1}", NULL, "" },
    { "newer", "{\"format\": \"decipher-project\", \"version\": 99}", NULL, "newer Decipher" },
    { "folder", NULL, NULL, "not a file" },
    { "bad-journal", "", "{\"font\": 0, \"code\": 1, \"value\": 7}\n", "journal" },
    { "garbage-journal", "", "hello\n", "journal" },
    { "other-document", "", NULL, "" },
  };

  make_project (valid);
  valid_text = read_file (valid, NULL);
  {
    /* A project of another PDF. */
    g_autoptr (GError) error = NULL;
    g_autoptr (DcDocument) other = dc_document_new_from_file (other_pdf, NULL, NULL, NULL, NULL,
                                                              &error);
    g_autoptr (DcKey) key = NULL;
    g_autoptr (DcProject) project = NULL;

    g_assert_no_error (error);
    key = dc_key_new (other);
    project = dc_project_new (other, key);
    g_assert_true (dc_project_save (project, other_project, &error));
  }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strconcat (cases[i].name, ".decipher", NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *journal = g_strconcat (path, ".journal", NULL);
      g_autofree char *backup = g_strconcat (path, "~", NULL);
      g_autofree char *lock = g_strconcat (path, ".lock", NULL);
      g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;
      gsize before_length = 0, after_length = 0;
      int status;

      g_test_message ("%s", cases[i].name);
      if (cases[i].contents == NULL)
        g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
      else if (g_str_equal (cases[i].name, "other-document"))
        {
          g_autofree char *text = read_file (other_project, NULL);

          g_assert_true (g_file_set_contents (path, text, -1, NULL));
        }
      else if (cases[i].contents[0] == '\0')
        g_assert_true (g_file_set_contents (path, valid_text, -1, NULL));
      else
        g_assert_true (g_file_set_contents (path, cases[i].contents, -1, NULL));
      if (cases[i].journal != NULL)
        g_assert_true (g_file_set_contents (journal, cases[i].journal, -1, NULL));
      if (cases[i].contents != NULL)
        before = read_file (path, &before_length);

      status = run_session (path, &out, &err);

      g_assert_cmpint (status, ==, 1);
      g_assert_cmpstr (out, ==, "");
      /* One line, one sentence, naming the project. */
      g_assert_true (g_str_has_prefix (err, "decipher-cli: "));
      g_assert_nonnull (strstr (err, name));
      g_assert_nonnull (strstr (err, cases[i].words));
      g_assert_cmpint (strchr (err, '\n') - err, ==, strlen (err) - 1);
      if (cases[i].contents != NULL)
        {
          after = read_file (path, &after_length);
          g_assert_cmpmem (after, after_length, before, before_length);
        }
      g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (lock, G_FILE_TEST_EXISTS));
      g_assert_cmpint (g_file_test (journal, G_FILE_TEST_EXISTS), ==, cases[i].journal != NULL);
    }
}

/* The disk fills up in the middle of a journal line: that request is refused, the
 * fragment does not stay to be glued to the next line, the changes the key holds are
 * recorded once there is room again, and a reopened session has every one of them. */
static void
test_full_disk (void)
{
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-durability-XXXXXX", NULL);
  g_autoptr (DcTestDir) budget_dir = g_dir_make_tmp ("decipher-budget-XXXXXX", NULL);
  g_autofree char *budget = g_build_filename (budget_dir, "free", NULL);
  g_autofree char *project = g_build_filename (dir, "work.decipher", NULL);
  g_autofree char *journal = g_strconcat (project, ".journal", NULL);
  g_autofree char *error = NULL;
  g_autofree char *data = NULL;
  const char *values[] = { "д", "ж", "щ", "ю" };
  gint64 symbols[4];
  gsize length = 0;
  Session s = { 0 };

  if (g_getenv ("FULL_DISK_SHIM") == NULL)
    {
      g_test_skip ("No full-disk shim on this platform");
      return;
    }
  set_budget (budget, PLENTY);
  session_start (&s, project, budget);
  first_symbols (&s, symbols, 4);
  g_assert_true (assign (&s, symbols[0], values[0], NULL));

  /* Room for half a line: the write stops inside it. */
  set_budget (budget, "40");
  g_assert_false (assign (&s, symbols[1], values[1], &error));
  g_assert_nonnull (strstr (error, "No space left"));
  g_clear_pointer (&error, g_free);
  data = read_file (journal, &length);
  g_assert_cmpuint (length, >, 0);
  g_assert_cmpint (data[length - 1], ==, '\n');
  g_clear_pointer (&data, g_free);

  /* Nothing at all. */
  g_assert_false (assign (&s, symbols[2], values[2], &error));
  g_assert_nonnull (strstr (error, "No space left"));

  /* Room again: the change is recorded, and so are the two refused before it, which the
   * session's key holds. */
  set_budget (budget, PLENTY);
  g_assert_true (assign (&s, symbols[3], values[3], NULL));
  {
    /* Every line of the journal is whole. */
    g_auto (GStrv) lines = NULL;

    data = read_file (journal, &length);
    g_assert_cmpint (data[length - 1], ==, '\n');
    lines = g_strsplit (data, "\n", -1);
    for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_autoptr (JsonParser) parser = json_parser_new ();

        g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      }
  }
  /* Killed: only the journal holds the work. */
  dc_test_process_kill (&s);

  session_start (&s, project, NULL);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *value = value_of (&s, symbols[i]);

      g_assert_cmpstr (value, ==, values[i]);
    }
  g_assert_cmpint (session_stop (&s), ==, 0);
}

/* The final save of a session fails: its exit status says so, and the journal still holds
 * every change acknowledged. */
static void
test_full_disk_at_exit (void)
{
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-durability-XXXXXX", NULL);
  g_autoptr (DcTestDir) budget_dir = g_dir_make_tmp ("decipher-budget-XXXXXX", NULL);
  g_autofree char *budget = g_build_filename (budget_dir, "free", NULL);
  g_autofree char *project = g_build_filename (dir, "work.decipher", NULL);
  g_autofree char *value = NULL;
  gint64 symbol;
  Session s = { 0 };

  if (g_getenv ("FULL_DISK_SHIM") == NULL)
    {
      g_test_skip ("No full-disk shim on this platform");
      return;
    }
  set_budget (budget, PLENTY);
  session_start (&s, project, budget);
  first_symbols (&s, &symbol, 1);
  g_assert_true (assign (&s, symbol, "д", NULL));
  set_budget (budget, "0");
  g_assert_cmpint (session_stop (&s), ==, 1);

  session_start (&s, project, NULL);
  value = value_of (&s, symbol);
  g_assert_cmpstr (value, ==, "д");
  g_assert_cmpint (session_stop (&s), ==, 0);
}

/* A second session on a project another one is writing is refused with a sentence and
 * changes nothing; once the first has ended, or died, the project opens with all its
 * work. */
static void
test_two_sessions (void)
{
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-durability-XXXXXX", NULL);
  g_autofree char *project = g_build_filename (dir, "work.decipher", NULL);
  g_autofree char *lock = g_strconcat (project, ".lock", NULL);
  g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;
  g_autofree char *value = NULL;
  gint64 symbols[2];
  Session first = { 0 };
  Session again = { 0 };

  session_start (&first, project, NULL);
  first_symbols (&first, symbols, 2);
  g_assert_true (assign (&first, symbols[0], "д", NULL));

  before = read_file (project, NULL);
  g_assert_cmpint (run_session (project, &out, &err), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "decipher-cli: "));
  g_assert_nonnull (strstr (err, "work.decipher"));
  g_assert_nonnull (strstr (err, "open in another program (decipher-cli session, process"));
  after = read_file (project, NULL);
  g_assert_cmpstr (after, ==, before);

  /* The first goes on, its work whole. */
  g_assert_true (assign (&first, symbols[1], "ж", NULL));
  g_assert_cmpint (session_stop (&first), ==, 0);
  g_assert_false (g_file_test (lock, G_FILE_TEST_EXISTS));

  /* A writer killed leaves its lock file, but no lock: the next one opens. */
  session_start (&first, project, NULL);
  value = value_of (&first, symbols[1]);
  g_assert_cmpstr (value, ==, "ж");
  dc_test_process_kill (&first);

  session_start (&again, project, NULL);
  g_clear_pointer (&value, g_free);
  value = value_of (&again, symbols[0]);
  g_assert_cmpstr (value, ==, "д");
  g_assert_cmpint (session_stop (&again), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/durability/damaged-projects", test_damaged_projects);
  g_test_add_func ("/durability/full-disk", test_full_disk);
  g_test_add_func ("/durability/full-disk-at-exit", test_full_disk_at_exit);
  g_test_add_func ("/durability/two-sessions", test_two_sessions);
  return g_test_run ();
}
