/* decipher-cli-session.c: the JSON-lines session (docs/session-protocol.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One JSON object per line on stdin, one reply per line on stdout; docs/session-protocol.md
 * lists every command, field and error. These files only translate: they check a request's
 * fields, call DcSession (src/libdecipher/session/dc-session.c), which holds every rule of how a
 * decision is taken and records it in the project's journal before it returns, and
 * write the reply. This one reads the requests, reads their fields and dispatches each to
 * its command: decipher-cli-session-replies.c has the commands that describe the document
 * and the key, decipher-cli-session-edits.c those that change the key.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include <string.h>
#include <unistd.h>

#include "decipher-cli-session-private.h"

#define MAX_LINE_BYTES 65536
/* Requests are flat objects; the limit keeps json-glib, which recurses per level, from
 * overflowing the stack on a line of nested brackets. */
#define MAX_DEPTH 16

#define get_boolean decipher_cli_session_get_boolean
#define get_fraction decipher_cli_session_get_fraction
#define get_int decipher_cli_session_get_int
#define get_string decipher_cli_session_get_string
#define handle_accept decipher_cli_session_handle_accept
#define handle_assign decipher_cli_session_handle_assign
#define handle_conflicts decipher_cli_session_handle_conflicts
#define handle_lines decipher_cli_session_handle_lines
#define handle_occurrences decipher_cli_session_handle_occurrences
#define handle_recognize decipher_cli_session_handle_recognize
#define handle_redo decipher_cli_session_handle_redo
#define handle_reject decipher_cli_session_handle_reject
#define handle_resolve decipher_cli_session_handle_resolve
#define handle_save decipher_cli_session_handle_save
#define handle_split decipher_cli_session_handle_split
#define handle_status decipher_cli_session_handle_status
#define handle_suggest decipher_cli_session_handle_suggest
#define handle_symbols decipher_cli_session_handle_symbols
#define handle_text decipher_cli_session_handle_text
#define handle_type decipher_cli_session_handle_type
#define handle_undo decipher_cli_session_handle_undo
#define handle_unsplit decipher_cli_session_handle_unsplit
#define set_int decipher_cli_session_set_int

typedef gboolean (*Handler) (Session *session, JsonObject *request, JsonBuilder *reply,
                             GError **error);

void
set_int (JsonBuilder *reply, const char *name, gint64 value)
{
  json_builder_set_member_name (reply, name);
  json_builder_add_int_value (reply, value);
}

gboolean
get_int (JsonObject *request, const char *name, gboolean required, gint64 minimum, gint64 maximum,
         gint64 *value, GError **error)
{
  JsonNode *node = json_object_get_member (request, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT, _("“%s” is missing."), name);
      return !required;
    }
  if (json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < minimum
      || json_node_get_int (node) > maximum)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” must be a whole number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
                     "."),
                      name, minimum, maximum);
      return FALSE;
    }
  *value = json_node_get_int (node);
  return TRUE;
}

const char *
get_string (JsonObject *request, const char *name, GError **error)
{
  JsonNode *node = json_object_get_member (request, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT, _("“%s” must be a string."), name);
      return NULL;
    }
  return json_node_get_string (node);
}

gboolean
get_boolean (JsonObject *request, const char *name, gboolean *value, GError **error)
{
  JsonNode *node = json_object_get_member (request, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” must be true or false."), name);
      return FALSE;
    }
  *value = json_node_get_boolean (node);
  return TRUE;
}

gboolean
get_fraction (JsonObject *request, const char *name, double *value, GError **error)
{
  JsonNode *node = json_object_get_member (request, name);
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  type = json_node_get_value_type (node);
  if ((type != G_TYPE_DOUBLE && type != G_TYPE_INT64) || json_node_get_double (node) < 0
      || json_node_get_double (node) > 1)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” must be a number from 0 to 1."), name);
      return FALSE;
    }
  *value = json_node_get_double (node);
  return TRUE;
}

static const struct
{
  const char *name;
  Handler handler;
} handlers[] = {
  { "status", handle_status },       { "lines", handle_lines },
  { "type", handle_type },           { "suggest", handle_suggest },
  { "assign", handle_assign },       { "symbols", handle_symbols },
  { "undo", handle_undo },           { "redo", handle_redo },
  { "text", handle_text },           { "save", handle_save },
  { "conflicts", handle_conflicts }, { "resolve", handle_resolve },
  { "accept", handle_accept },       { "recognize", handle_recognize },
  { "reject", handle_reject },       { "split", handle_split },
  { "unsplit", handle_unsplit },     { "occurrences", handle_occurrences },
};

/**
 * decipher_cli_escape_controls:
 * @text: UTF-8 text about to be printed
 * @keep_layout: leave newlines, tabs and form feeds (a document's text)
 *
 * A file name, font name or sentence may come from a hostile PDF or project, and a
 * terminal obeys the control characters it prints (ESC ] 0 ; … BEL retitles it, other
 * sequences rewrite the screen): each C0 control, DEL and C1 control is shown as an
 * escape (\x1b, \u009b) instead.
 *
 * Returns: (transfer full): the text to print
 */
char *
decipher_cli_escape_controls (const char *text, gboolean keep_layout)
{
  GString *out = g_string_sized_new (strlen (text) + 1);

  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if ((c < 0x20 && !(keep_layout && (c == '\n' || c == '\t' || c == '\f'))) || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c == 0xc2 && (guchar) p[1] >= 0x80 && (guchar) p[1] <= 0x9f)
        g_string_append_printf (out, "\\u%04x", (guchar) * ++p);
      else
        g_string_append_c (out, (char) c);
    }
  return g_string_free (out, FALSE);
}

/**
 * decipher_cli_session_answer:
 * @line: one request, without its newline
 *
 * Returns: (transfer full): the reply, one line of JSON without a newline
 */
char *
decipher_cli_session_answer (DecipherCliSession *session, const char *line)
{
  return decipher_cli_session_answer_bytes (session, line, strlen (line));
}

static void
set_too_long_error (GError **error)
{
  g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
               _("The request is longer than %d KiB; send a smaller one."), MAX_LINE_BYTES / 1024);
}

static void
set_nul_error (GError **error)
{
  g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The request holds the character U+0000, which no command takes; "
                         "remove it."));
}

/**
 * decipher_cli_session_answer_bytes:
 * @line: one request, without its newline; it may hold NUL bytes, which are refused
 * @length: its length in bytes
 *
 * Returns: (transfer full): the reply, one line of JSON without a newline
 */
char *
decipher_cli_session_answer_bytes (DecipherCliSession *session, const char *line, gsize length)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonBuilder) reply = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *request = NULL;
  const char *command = NULL;
  Handler handler = NULL;
  DcJsonText shape;
  gboolean ok = FALSE;

  json_builder_begin_object (reply);

  /* json-glib and every handler read C strings: a NUL would cut a string short, so that
   * {"cmd":"status\u0000x"} ran status and "\u0000" assigned nothing. */
  if (length > MAX_LINE_BYTES)
    set_too_long_error (&error);
  else if (memchr (line, '\0', length) != NULL)
    set_nul_error (&error);
  else if (!g_utf8_validate_len (line, length, NULL))
    g_set_error_literal (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                         _("The request is not valid UTF-8."));
  else if ((shape = dc_json_check_text (line, length, MAX_DEPTH, NULL)) == DC_JSON_TEXT_NUL)
    set_nul_error (&error);
  else if (shape == DC_JSON_TEXT_TOO_DEEP)
    g_set_error_literal (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                         _("The request nests deeper than any command needs."));
  else if (shape == DC_JSON_TEXT_MORE)
    g_set_error_literal (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                         _("The line holds more than one JSON value; send one request object "
                           "per line."));
  else if (shape != DC_JSON_TEXT_ONE_VALUE
           || !json_parser_load_from_data (parser, line, (gssize) length, NULL)
           || json_parser_get_root (parser) == NULL
           || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    g_set_error_literal (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                         _("The request is not a JSON object such as {\"cmd\": \"status\"}."));
  else
    {
      request = json_node_get_object (json_parser_get_root (parser));
      command = json_object_has_member (request, "cmd")
                    ? json_node_get_string (json_object_get_member (request, "cmd"))
                    : NULL;
      for (guint i = 0; command != NULL && i < G_N_ELEMENTS (handlers); i++)
        if (g_str_equal (command, handlers[i].name))
          handler = handlers[i].handler;
      if (command == NULL)
        g_set_error_literal (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                             _("The request has no “cmd” string."));
      else if (handler == NULL)
        g_set_error (&error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                     _("“%s” is not a session command."), command);
      else
        {
          /* The reply's members are built first; the outcome decides "ok". */
          g_autoptr (JsonBuilder) body = json_builder_new ();

          json_builder_begin_object (body);
          ok = handler (session, request, body, &error);
          json_builder_end_object (body);
          if (ok)
            {
              g_autoptr (JsonNode) members = json_builder_get_root (body);
              JsonObject *object = json_node_get_object (members);
              GList *names = json_object_get_members (object);

              json_builder_set_member_name (reply, "ok");
              json_builder_add_boolean_value (reply, TRUE);
              for (GList *n = names; n != NULL; n = n->next)
                {
                  json_builder_set_member_name (reply, n->data);
                  json_builder_add_value (reply, json_node_copy (
                                                     json_object_get_member (object, n->data)));
                }
              g_list_free (names);
            }
        }
    }

  if (!ok)
    {
      json_builder_set_member_name (reply, "ok");
      json_builder_add_boolean_value (reply, FALSE);
      json_builder_set_member_name (reply, "error");
      json_builder_add_string_value (reply, error ? error->message : _("The command failed."));
    }
  json_builder_end_object (reply);

  root = json_builder_get_root (reply);
  /* A request's own text comes back in some replies, control characters and all. */
  return dc_json_generate (root, FALSE, NULL);
}

/**
 * decipher_cli_session_new:
 * @project_path: (nullable): loaded if it exists, and written before every reply
 * @automatic_pass: apply the levels that decode without the user on new work
 *
 * decipher_cli_session_new_with_pipeline() with every level but the installed fonts
 * (the fuzzers drive the session thousands of times in one process).
 *
 * Returns: (transfer full): the session, or %NULL with @error set when the project
 *   cannot be loaded or written
 */
DecipherCliSession *
decipher_cli_session_new (DcDocument *document, const char *project_path, gboolean automatic_pass,
                          GError **error)
{
  g_autoptr (DcPipeline)
      pipeline = dc_pipeline_new (automatic_pass ? DC_PIPELINE_ALL : DC_PIPELINE_PROPOSALS);

  dc_pipeline_set_references_path (pipeline, "");
  return decipher_cli_session_new_with_pipeline (document, project_path, pipeline, error);
}

/**
 * decipher_cli_session_new_with_pipeline:
 * @pipeline: what @document was loaded through: the levels new work starts with, and
 *   the font library decisions go to
 *
 * decipher_cli_session_new() as `decipher-cli session` runs it.
 */
DecipherCliSession *
decipher_cli_session_new_with_pipeline (DcDocument *document, const char *project_path,
                                        DcPipeline *pipeline, GError **error)
{
  g_autoptr (DecipherCliSession) session = g_new0 (DecipherCliSession, 1);

  g_mutex_init (&session->progress_lock);

  session->session = dc_session_new (document);
  session->document = dc_session_get_document (session->session);
  session->key = dc_session_get_key (session->session);
  session->matcher = dc_session_get_matcher (session->session);
  /* The only writer from here on, before anything is read: what is loaded is then what
   * nobody else changes. */
  if (project_path != NULL
      && !dc_session_lock_project (session->session, project_path, "decipher-cli session", error))
    return NULL;
  if (project_path != NULL && g_file_test (project_path, G_FILE_TEST_EXISTS))
    {
      if (!dc_session_load_project (session->session, project_path, error))
        return NULL;
      dc_session_set_pipeline (session->session, pipeline);
      /* The project holds the work: the installed fonts opened ahead are not needed. */
      dc_pipeline_drop_prefetch (pipeline);
    }
  else
    {
      dc_session_set_pipeline (session->session, pipeline);
      dc_session_start_new_work (session->session, TRUE);
      if (project_path != NULL && !dc_session_save (session->session, project_path, error))
        return NULL;
    }
  /* Every decision reaches the disk before its reply goes out, so that what the user
   * decided survives a kill or a power cut. */
  if (project_path != NULL
      && !dc_session_start_journal (session->session, project_path, TRUE, error))
    return NULL;
  /* Only now: a session that could not open its project must not write over it when it
   * is freed (a damaged file, or one made by a newer Decipher, is kept as it is). */
  session->project_path = g_strdup (project_path);
  return g_steal_pointer (&session);
}

/* The document's password, which recognize needs to render it. */
void
decipher_cli_session_set_password (DecipherCliSession *session, const char *password)
{
  g_free (session->password);
  session->password = g_strdup (password);
}

/* The key the session decides on: it lives as long as the session. */
DcKey *
decipher_cli_session_get_key (DecipherCliSession *session)
{
  return session->key;
}

/**
 * decipher_cli_session_close:
 *
 * Folds the journal into the project, so that the file alone says it all. When that
 * fails the journal still holds every decision acknowledged, and @error says so: the
 * session's exit status must tell a script that the project was not written.
 */
gboolean
decipher_cli_session_close (DecipherCliSession *session, GError **error)
{
  g_autofree char *path = g_steal_pointer (&session->project_path);
  g_autoptr (GError) local_error = NULL;

  if (path == NULL)
    return TRUE;
  if (!dc_session_save (session->session, path, &local_error))
    {
      g_autofree char *journal = g_strconcat (path, ".journal", NULL);

      /* Translators: the first %s says why the project could not be saved. */
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s Every change acknowledged is kept in “%s”, which the next session "
                     "on the project reads back."),
                      local_error->message, journal);
      return FALSE;
    }
  return TRUE;
}

void
decipher_cli_session_free (DecipherCliSession *session)
{
  g_autoptr (GError) error = NULL;

  if (session == NULL)
    return;
  if (!decipher_cli_session_close (session, &error))
    {
      g_autofree char *shown = decipher_cli_escape_controls (error->message, FALSE);

      g_printerr ("decipher-cli: %s\n", shown);
    }
  g_clear_object (&session->session);
  g_mutex_clear (&session->progress_lock);
  g_free (session->password);
  g_free (session->project_path);
  g_free (session);
}

/* Standard input, read a block at a time so that a line is never held whole before its
 * length is known: a 500 MB line costs the 64 KiB it may have, not 1 GB. */
typedef struct
{
  int fd;
  gsize start, end;
  char buffer[1 << 16];
} LineReader;

/* The next line, without its newline, in @line; NUL bytes and all. A line longer than
 * MAX_LINE_BYTES is read to its end but not kept: @too_long says so. Returns FALSE at the
 * end of the input. */
static gboolean
read_request (LineReader *reader, GByteArray *line, gboolean *too_long)
{
  gboolean any = FALSE;

  g_byte_array_set_size (line, 0);
  *too_long = FALSE;
  for (;;)
    {
      const char *newline;
      gsize chunk;

      if (reader->start == reader->end)
        {
          gssize n = read (reader->fd, reader->buffer, sizeof reader->buffer);

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            return any; /* a last line without its newline is a request too */
          reader->start = 0;
          reader->end = (gsize) n;
        }
      any = TRUE;
      newline = memchr (reader->buffer + reader->start, '\n', reader->end - reader->start);
      chunk = (newline != NULL ? (gsize) (newline - reader->buffer) : reader->end) - reader->start;
      if (!*too_long && line->len + chunk > MAX_LINE_BYTES)
        {
          *too_long = TRUE;
          g_byte_array_set_size (line, 0);
        }
      if (!*too_long)
        g_byte_array_append (line, (const guint8 *) reader->buffer + reader->start, (guint) chunk);
      reader->start += chunk;
      if (newline != NULL)
        {
          reader->start++;
          return TRUE;
        }
    }
}

static gboolean
is_blank (const GByteArray *line)
{
  for (guint i = 0; i < line->len; i++)
    if (line->data[i] != ' ' && line->data[i] != '\t' && line->data[i] != '\r')
      return FALSE;
  return TRUE;
}

/* Whether the reply reached standard output whole: a client that gets half a reply (a
 * full disk under a redirection) must not be told more (issue 33). */
static gboolean
write_reply (const char *reply)
{
  return fputs (reply, stdout) >= 0 && fputc ('\n', stdout) != EOF && fflush (stdout) == 0;
}

/* Answers each line of standard input on standard output until it closes. Every line
 * that is not blank gets exactly one reply. */
int
decipher_cli_session_run (DecipherCliSession *session)
{
  g_autofree LineReader *reader = g_new0 (LineReader, 1);
  g_autoptr (GByteArray) line = g_byte_array_sized_new (4096);
  gboolean too_long;

  session->print_progress = TRUE;
  reader->fd = 0;
  while (read_request (reader, line, &too_long))
    {
      g_autofree char *reply = NULL;

      if (too_long)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (JsonBuilder) builder = json_builder_new ();
          g_autoptr (JsonNode) root = NULL;

          set_too_long_error (&error);
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "ok");
          json_builder_add_boolean_value (builder, FALSE);
          json_builder_set_member_name (builder, "error");
          json_builder_add_string_value (builder, error->message);
          json_builder_end_object (builder);
          root = json_builder_get_root (builder);
          reply = dc_json_generate (root, FALSE, NULL);
        }
      else if (is_blank (line))
        continue;
      else
        reply = decipher_cli_session_answer_bytes (session, (const char *) line->data, line->len);
      /* Nothing more is answered; main() says why once it has closed the output. */
      if (!write_reply (reply))
        return 1;
    }
  return 0;
}
