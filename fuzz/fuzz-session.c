/* fuzz-session.c: any request lines, through one session of decipher-cli on a real document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `decipher-cli session` answers whatever a script or a person sends it (DESIGN §5). Each
 * input is a sequence of lines for one fresh session on a fixture, with a project file, as
 * `decipher-cli session FILE.pdf --project P` runs it. Every line gets one reply, a JSON
 * object on one line with "ok" and, when that is false, an "error" sentence; the session
 * goes on after a bad line; and at the end the project file holds exactly what the key
 * holds, since the session writes it before each reply.
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "decipher-cli-session.h"
#include "fuzz-common.h"

#define PROJECT_NAME "session.decipher"
/* What decipher-cli-session.c refuses before parsing a request. */
#define SESSION_MAX_LINE_BYTES 65536
#define SESSION_MAX_DEPTH 16
/* Replies nest four deep ("lines": an array of objects holding a bbox array). */
#define MAX_REPLY_DEPTH 8

/* Loaded once: it costs far more than an input. The key and the session are new for every
 * input, so that no input depends on the ones before it. */
static DcDocument *document;
static char *project_path;

static void
load_document (void)
{
  g_autofree char *path = dc_fuzz_fixture_path ("legacy-cyrillic.pdf");
  g_autoptr (GError) error = NULL;

  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  if (document == NULL)
    g_error ("Cannot load the fixture %s: %s", path, error->message);

  project_path = g_build_filename (dc_fuzz_get_input_dir (), PROJECT_NAME, NULL);
}

/* The project, its backup and whatever "save" wrote go, so that each input starts a new
 * project and a long run does not fill the folder. */
static void
clean_input_dir (void)
{
  g_autoptr (GDir) dir = g_dir_open (dc_fuzz_get_input_dir (), 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dc_fuzz_get_input_dir (), name, NULL);

      if (g_unlink (path) != 0)
        g_error ("Cannot remove %s: %s", path, g_strerror (errno));
    }
}

/* Whether a request could be a "save": it must spell the word, literally or with any of
 * its letters as a \u escape. Most requests cannot, and skip the parse below. */
static gboolean
may_save (const char *line)
{
  if (strstr (line, "save") != NULL)
    return TRUE;
  for (const char *p = line; (p = strchr (p, '\\')) != NULL; p++)
    {
      guint c = 0;

      if (p[1] == '\\')
        {
          p++; /* an escaped backslash, not the start of an escape */
          continue;
        }
      if (p[1] != 'u')
        continue;
      /* Stops at the nul, which is no hex digit. */
      for (guint i = 2; i < 6 && c != G_MAXUINT; i++)
        c = g_ascii_isxdigit (p[i]) ? c << 4 | (guint) g_ascii_xdigit_value (p[i]) : G_MAXUINT;
      if (c == 's' || c == 'a' || c == 'v' || c == 'e')
        return TRUE;
    }
  return FALSE;
}

/* "save" writes where its request says, and this machine's files are not the fuzzer's to
 * write: a plain file name is moved into the private folder, and a request naming any
 * other path is not sent (NULL). The request is read as the session reads it, so what
 * the session would refuse goes to it unchanged. */
static char *
confine_save (const char *line)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = NULL;
  g_autofree char *confined = NULL;
  JsonObject *request;
  JsonNode *cmd, *path;

  if (!may_save (line) || strlen (line) > SESSION_MAX_LINE_BYTES
      || !g_utf8_validate (line, -1, NULL)
      || dc_json_check_text (line, strlen (line), SESSION_MAX_DEPTH, NULL) != DC_JSON_TEXT_ONE_VALUE
      || !json_parser_load_from_data (parser, line, -1, NULL)
      || json_parser_get_root (parser) == NULL
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return g_strdup (line);

  request = json_node_get_object (json_parser_get_root (parser));
  cmd = json_object_get_member (request, "cmd");
  path = json_object_get_member (request, "path");
  if (cmd == NULL || json_node_get_value_type (cmd) != G_TYPE_STRING
      || !g_str_equal (json_node_get_string (cmd), "save") || path == NULL
      || json_node_get_value_type (path) != G_TYPE_STRING)
    return g_strdup (line);
  if (strchr (json_node_get_string (path), '/') != NULL)
    return NULL;

  if (*json_node_get_string (path) != '\0')
    {
      confined = g_build_filename (dc_fuzz_get_input_dir (), json_node_get_string (path), NULL);
      json_object_set_string_member (request, "path", confined);
    }
  generator = json_generator_new ();
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

/* The protocol's promise about every reply, whatever the request was. */
static void
check_reply (const char *reply)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *object;
  JsonNode *ok;

  g_assert_true (dc_fuzz_json_is_valid (reply, strlen (reply)));
  g_assert_null (strchr (reply, '\n'));
  g_assert_cmpint (dc_json_check_text (reply, strlen (reply), MAX_REPLY_DEPTH, NULL), ==,
                   DC_JSON_TEXT_ONE_VALUE);
  json_parser_load_from_data (parser, reply, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  object = json_node_get_object (json_parser_get_root (parser));

  ok = json_object_get_member (object, "ok");
  g_assert_nonnull (ok);
  g_assert_cmpint (json_node_get_value_type (ok), ==, G_TYPE_BOOLEAN);
  if (!json_node_get_boolean (ok))
    {
      JsonNode *sentence = json_object_get_member (object, "error");

      g_assert_nonnull (sentence);
      g_assert_cmpint (json_node_get_value_type (sentence), ==, G_TYPE_STRING);
      g_assert_cmpuint (json_node_get_string (sentence)[0], !=, '\0');
      dc_fuzz_note ("  refused: %s", json_node_get_string (sentence));
    }
}

static gint64
get_count (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
  return json_node_get_int (node);
}

/* "status" counts what the key holds, however the key got there. */
static void
check_status (DecipherCliSession *session, DcKey *key)
{
  g_autofree char *reply = decipher_cli_session_answer (session, "{\"cmd\": \"status\"}");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  guint symbols, glyphs, decoded_symbols, decoded_glyphs;
  JsonObject *status;

  json_parser_load_from_data (parser, reply, -1, &error);
  g_assert_no_error (error);
  status = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_boolean_member (status, "ok"));

  dc_key_count_to_decode (key, &symbols, &glyphs);
  dc_key_count_decoded (key, &decoded_symbols, &decoded_glyphs);
  g_assert_cmpuint (decoded_symbols, <=, symbols);
  g_assert_cmpuint (decoded_glyphs, <=, glyphs);
  g_assert_cmpint (get_count (status, "symbols"), ==, symbols);
  g_assert_cmpint (get_count (status, "glyphs"), ==, glyphs);
  g_assert_cmpint (get_count (status, "decoded_symbols"), ==, decoded_symbols);
  g_assert_cmpint (get_count (status, "decoded_glyphs"), ==, decoded_glyphs);
  g_assert_cmpint (get_count (status, "conflicts"), >=, 0);
}

/* Nothing the user decided is lost: the project file, read into a new key, is the key. */
static void
check_project_file (DcKey *key)
{
  g_autoptr (DcKey) loaded = dc_key_new (document);
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;
  guint n_symbols;

  project = dc_project_load (project_path, document, loaded, &error);
  g_assert_no_error (error);
  g_assert_nonnull (project);

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (loaded, s), ==, dc_key_get_status (key, s));
      g_assert_cmpstr (dc_key_peek_value (loaded, s), ==, dc_key_peek_value (key, s));
      g_assert_cmpstr (dc_key_get_provenance (loaded, s), ==, dc_key_get_provenance (key, s));
    }
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
  size_t start = 0;

  if (document == NULL)
    LLVMFuzzerInitialize (NULL, NULL);

  /* Also before: a crashed input (a child of the standalone driver) left its files. */
  clean_input_dir ();
  session = decipher_cli_session_new (document, project_path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  key = g_object_ref (decipher_cli_session_get_key (session));

  /* As decipher_cli_session_run() reads standard input: one request per line, blank
   * lines skipped. The bytes go as they are, so that the session's own checks (length,
   * UTF-8, NUL) see them too. */
  while (start < size)
    {
      const uint8_t *newline = memchr (data + start, '\n', size - start);
      size_t end = newline != NULL ? (size_t)(newline - data) : size;
      g_autofree char *line = g_strndup ((const char *) data + start, end - start);
      g_autofree char *request = NULL;
      g_autofree char *reply = NULL;
      size_t line_start = start;

      start = end + 1;
      if (memchr (data + line_start, '\0', end - line_start) != NULL)
        {
          /* Refused whole, whatever it says, so no save can happen: sent as it is. */
          reply = decipher_cli_session_answer_bytes (session, (const char *) data + line_start,
                                                     end - line_start);
          dc_fuzz_note ("(a line with NUL)\n  → %.200s", reply);
          check_reply (reply);
          g_assert_true (strstr (reply, "U+0000") != NULL || strstr (reply, "longer than") != NULL);
          continue;
        }
      if (*g_strstrip (line) == '\0')
        continue;
      request = confine_save (line);
      if (request == NULL)
        {
          dc_fuzz_note ("not sent, it saves outside the fuzzer's folder: %.80s", line);
          continue;
        }

      reply = decipher_cli_session_answer (session, request);
      dc_fuzz_note ("%.80s\n  → %.200s", request, reply);
      check_reply (reply);
    }

  check_status (session, key);
  g_clear_pointer (&session, decipher_cli_session_free);
  check_project_file (key);
  clean_input_dir ();
  return 0;
}
