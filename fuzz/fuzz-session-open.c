/* fuzz-session-open.c: any project and journal, opened by a decipher-cli session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `decipher-cli session FILE.pdf --project P` opens whatever P is: damaged, cut short, made
 * by a newer Decipher, meant for another document, a folder, or beside a damaged journal.
 * Each input is P's bytes, then optionally the line "--journal--" and its journal's bytes
 * (a project of exactly "--folder--" is a folder). Either the session opens, answers, and
 * at its end the project holds exactly what its key held; or it refuses with one DC_ERROR
 * sentence and leaves P and its journal byte for byte as they were, with no backup, no
 * lock and no journal made beside them.
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "decipher-cli-session.h"
#include "fuzz-common.h"

#define PROJECT_NAME "open.decipher"
#define JOURNAL_MARK "\n--journal--\n"
#define FOLDER_MARK "--folder--"

static DcDocument *document;
static char *project_path;
static char *journal_path;

static void
load_document (void)
{
  g_autofree char *path = dc_fuzz_fixture_path ("legacy-cyrillic.pdf");
  g_autoptr (GError) error = NULL;

  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  if (document == NULL)
    g_error ("Cannot load the fixture %s: %s", path, error->message);
  project_path = g_build_filename (dc_fuzz_get_input_dir (), PROJECT_NAME, NULL);
  journal_path = g_strconcat (project_path, ".journal", NULL);
}

static void
clean_input_dir (void)
{
  g_autoptr (GDir) dir = g_dir_open (dc_fuzz_get_input_dir (), 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dc_fuzz_get_input_dir (), name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK)
              ? g_rmdir (path) != 0
              : g_unlink (path) != 0)
        g_error ("Cannot remove %s: %s", path, g_strerror (errno));
    }
}

static void
assert_file_holds (const char *path, const char *data, gsize length)
{
  g_autofree char *contents = NULL;
  gsize contents_length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &contents_length, NULL));
  g_assert_cmpmem (contents, contents_length, data, length);
}

static void
assert_absent (const char *suffix)
{
  g_autofree char *path = g_strconcat (project_path, suffix, NULL);

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* What the session ended with is what the project file now says. */
static void
check_project_file (DcKey *key)
{
  g_autoptr (DcKey) loaded = dc_key_new (document);
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;
  guint n_symbols;

  project = dc_project_load (project_path, document, loaded, &error);
  g_assert_no_error (error);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (loaded, s), ==, dc_key_get_status (key, s));
      g_assert_cmpstr (dc_key_peek_value (loaded, s), ==, dc_key_peek_value (key, s));
    }
}

static void
check_reply (const char *reply)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *object;

  json_parser_load_from_data (parser, reply, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_boolean_member (object, "ok"));
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  dc_fuzz_init ();
  load_document ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (DecipherCliSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) key = NULL;
  const char *mark, *journal = NULL;
  size_t project_size = size, journal_size = 0;
  gboolean folder;

  if (document == NULL)
    LLVMFuzzerInitialize (NULL, NULL);

  clean_input_dir ();
  mark = g_strstr_len ((const char *) data, (gssize) size, JOURNAL_MARK);
  if (mark != NULL)
    {
      project_size = (size_t) (mark - (const char *) data);
      journal = mark + strlen (JOURNAL_MARK);
      journal_size = size - project_size - strlen (JOURNAL_MARK);
    }
  folder = project_size == strlen (FOLDER_MARK)
           && memcmp (data, FOLDER_MARK, strlen (FOLDER_MARK)) == 0;
  if (folder)
    g_assert_cmpint (g_mkdir (project_path, 0700), ==, 0);
  else
    dc_fuzz_write_input (PROJECT_NAME, data, project_size);
  if (journal != NULL)
    dc_fuzz_write_input (PROJECT_NAME ".journal", (const uint8_t *) journal, journal_size);

  session = decipher_cli_session_new (document, project_path, TRUE, &error);
  if (session == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == DC_ERROR);
      g_assert_cmpuint (error->message[0], !=, '\0');
      dc_fuzz_note ("refused: %s", error->message);
      /* Left as it was found. */
      if (folder)
        g_assert_true (g_file_test (project_path, G_FILE_TEST_IS_DIR));
      else
        assert_file_holds (project_path, (const char *) data, project_size);
      if (journal != NULL)
        assert_file_holds (journal_path, journal, journal_size);
      else
        assert_absent (".journal");
      assert_absent ("~");
      assert_absent (".lock");
      clean_input_dir ();
      return 0;
    }
  g_assert_no_error (error);
  g_assert_false (folder);
  dc_fuzz_note ("opened");
  key = g_object_ref (decipher_cli_session_get_key (session));
  {
    g_autofree char *reply = decipher_cli_session_answer (session, "{\"cmd\": \"status\"}");

    check_reply (reply);
  }
  g_assert_true (decipher_cli_session_close (session, &error));
  g_assert_no_error (error);
  g_clear_pointer (&session, decipher_cli_session_free);
  assert_absent (".lock");
  check_project_file (key);
  clean_input_dir ();
  return 0;
}
