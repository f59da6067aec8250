/* decipher-cli-session-edits.c: the session's commands that change the key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli-session.c, which reads the requests and dispatches them. Each
 * command here checks its fields and hands the decision to DcSession, which records it in
 * the project's journal before it returns: type, suggest, assign, accept, reject, recognize,
 * undo, redo, save, resolve, split and unsplit.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "decipher-cli-session-private.h"
#include "decipher-cli-split.h"

#define add_conflicts decipher_cli_session_add_conflicts
#define add_refused decipher_cli_session_add_refused
#define get_boolean decipher_cli_session_get_boolean
#define get_fraction decipher_cli_session_get_fraction
#define get_int decipher_cli_session_get_int
#define get_string decipher_cli_session_get_string
#define handle_accept decipher_cli_session_handle_accept
#define handle_assign decipher_cli_session_handle_assign
#define handle_recognize decipher_cli_session_handle_recognize
#define handle_redo decipher_cli_session_handle_redo
#define handle_reject decipher_cli_session_handle_reject
#define handle_resolve decipher_cli_session_handle_resolve
#define handle_save decipher_cli_session_handle_save
#define handle_split decipher_cli_session_handle_split
#define handle_suggest decipher_cli_session_handle_suggest
#define handle_type decipher_cli_session_handle_type
#define handle_undo decipher_cli_session_handle_undo
#define handle_unsplit decipher_cli_session_handle_unsplit
#define set_int decipher_cli_session_set_int

gboolean
handle_type (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  g_autoptr (DcMatchResult) result = NULL;
  const char *text;
  gint64 line = -1, token = -1, view_line = -1, view_lines = 1;
  guint n_lines;

  dc_document_get_lines (session->document, &n_lines);
  if ((text = get_string (request, "text", error)) == NULL
      || !get_int (request, "line", FALSE, 0, MAX (0, (gint64) n_lines - 1), &line, error)
      || !get_int (request, "token", FALSE, 0, G_MAXINT, &token, error)
      || !get_int (request, "view_line", FALSE, 0, MAX (0, (gint64) n_lines - 1), &view_line, error)
      || !get_int (request, "view_lines", FALSE, 1, MAX (1, (gint64) n_lines), &view_lines, error))
    return FALSE;

  result = dc_session_type_in_view (session->session, text, (int) line, (int) token,
                                    (int) view_line, (guint) view_lines, error);
  if (result == NULL)
    return FALSE;

  json_builder_set_member_name (reply, "result");
  json_builder_add_string_value (reply, dc_match_kind_to_string (result->kind));
  json_builder_set_member_name (reply, "message");
  json_builder_add_string_value (reply, result->reason);
  json_builder_set_member_name (reply, "matches");
  json_builder_begin_array (reply);
  for (guint i = 0; i < result->places->len; i++)
    {
      const DcMatchPlace *place = &g_array_index (result->places, DcMatchPlace, i);

      json_builder_begin_object (reply);
      set_int (reply, "line", place->line);
      set_int (reply, "token", place->token);
      set_int (reply, "tokens", place->n_tokens);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
  json_builder_set_member_name (reply, "assigned");
  json_builder_begin_array (reply);
  for (guint i = 0; i < result->learned->len; i++)
    {
      const DcLearned *learned = &g_array_index (result->learned, DcLearned, i);

      json_builder_begin_object (reply);
      set_int (reply, "symbol", learned->symbol);
      json_builder_set_member_name (reply, "text");
      json_builder_add_string_value (reply, learned->text);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
  add_conflicts (reply, result->conflicts);
  return TRUE;
}

/* Takes @indices. */
static void
add_index_array (JsonBuilder *reply, const char *name, GArray *indices)
{
  g_autoptr (GArray) owned = indices;

  json_builder_set_member_name (reply, name);
  json_builder_begin_array (reply);
  for (guint i = 0; i < owned->len; i++)
    json_builder_add_int_value (reply, g_array_index (owned, guint, i));
  json_builder_end_array (reply);
}

gboolean
handle_suggest (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  DcSuggestion suggestion;

  dc_session_suggest (session->session, &suggestion);
  if (suggestion.done)
    {
      json_builder_set_member_name (reply, "done");
      json_builder_add_boolean_value (reply, TRUE);
      return TRUE;
    }
  set_int (reply, "line", suggestion.line);
  set_int (reply, "token", suggestion.token);
  set_int (reply, "tokens", suggestion.n_tokens);
  set_int (reply, "new_symbols", suggestion.n_new_symbols);
  /* For a user who would rather choose: what is left, by frequency and by line. */
  add_index_array (reply, "frequent_symbols", dc_suggest_frequent_symbols (session->key, 10));
  add_index_array (reply, "busiest_lines", dc_suggest_busiest_lines (session->key, 5));
  return TRUE;
}

gboolean
handle_assign (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  guint n_symbols;
  gint64 symbol;
  const char *text;

  dc_document_get_symbols (session->document, &n_symbols);
  if (!get_int (request, "symbol", TRUE, 0, MAX (0, (gint64) n_symbols - 1), &symbol, error)
      || (text = get_string (request, "text", error)) == NULL)
    return FALSE;
  if (!dc_session_assign (session->session, (guint) symbol, text, error))
    return FALSE;
  json_builder_set_member_name (reply, "text");
  json_builder_add_string_value (reply, dc_key_get_value (session->key, (guint) symbol));
  return TRUE;
}

/* The user looked at the glyph and agrees with what was proposed for it; or, with
 * "all", with every proposal at least "min_confidence" sure. */
gboolean
handle_accept (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  gboolean all = FALSE;
  double min_confidence = 0.0;
  guint n_symbols, n_accepted;
  gint64 symbol;

  if (!get_boolean (request, "all", &all, error)
      || !get_fraction (request, "min_confidence", &min_confidence, error))
    return FALSE;
  if (all)
    {
      if (!dc_session_accept_all (session->session, min_confidence, &n_accepted, error))
        return FALSE;
      set_int (reply, "accepted", n_accepted);
      return TRUE;
    }
  dc_document_get_symbols (session->document, &n_symbols);
  if (!get_int (request, "symbol", TRUE, 0, MAX (0, (gint64) n_symbols - 1), &symbol, error)
      || !dc_session_accept (session->session, (guint) symbol, error))
    return FALSE;
  json_builder_set_member_name (reply, "text");
  json_builder_add_string_value (reply, dc_key_peek_value (session->key, (guint) symbol));
  return TRUE;
}

/* The user says a symbol's value is wrong: it is refused there for good (until they type
 * or assign it themselves), and what the symbol holds now is said. */
gboolean
handle_reject (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  guint n_symbols;
  gint64 symbol;

  dc_document_get_symbols (session->document, &n_symbols);
  if (!get_int (request, "symbol", TRUE, 0, MAX (0, (gint64) n_symbols - 1), &symbol, error)
      || !dc_session_reject (session->session, (guint) symbol, error))
    return FALSE;
  json_builder_set_member_name (reply, "value");
  json_builder_add_string_value (reply, dc_key_peek_value (session->key, (guint) symbol));
  json_builder_set_member_name (reply, "status");
  json_builder_add_string_value (reply, dc_key_status_to_string (
                                            dc_key_get_status (session->key, (guint) symbol)));
  add_refused (reply, session->key, (guint) symbol);
  return TRUE;
}

/* Called from the recognizing threads: one JSON line per line read, whole. */
static void
recognize_progress (guint done, guint total, gpointer data)
{
  Session *session = data;

  g_mutex_lock (&session->progress_lock);
  printf ("{\"progress\":{\"lines_done\":%u,\"lines\":%u}}\n", done, total);
  fflush (stdout);
  g_mutex_unlock (&session->progress_lock);
}

/* Reads the shapes of the unknown symbols (OCR consensus, DESIGN §8) and proposes what
 * they agree on; "languages" names Tesseract's languages ("eng+rus"), else they are
 * chosen from what is known and installed. docs/session-protocol.md. */
gboolean
handle_recognize (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  const char *languages = NULL;
  guint n_proposed = 0, n_lines = 0;

  if (json_object_has_member (request, "languages")
      && (languages = get_string (request, "languages", error)) == NULL)
    return FALSE;
  if (languages != NULL && (languages[0] == '\0' || strpbrk (languages, "/\\.") != NULL))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“languages” must name Tesseract languages, such as “eng+rus”."));
      return FALSE;
    }
  if (!dc_session_recognize (session->session, languages, session->password,
                             session->print_progress ? recognize_progress : NULL, session, NULL,
                             &n_proposed, &n_lines, error))
    return FALSE;
  set_int (reply, "proposed", n_proposed);
  set_int (reply, "lines_read", n_lines);
  return TRUE;
}

static gboolean
handle_undo_redo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error,
                  gboolean undo)
{
  /* The label is read before the step moves to the other stack; a reply that names the step
   * lets a script (or a person at a terminal) see what came back, as the window's toast does. */
  g_autofree char *step = g_strdup (undo ? dc_key_get_undo_label (session->key)
                                         : dc_key_get_redo_label (session->key));

  if (!(undo ? dc_session_undo (session->session, error)
             : dc_session_redo (session->session, error)))
    return FALSE;
  if (step != NULL)
    {
      json_builder_set_member_name (reply, undo ? "undone" : "redone");
      json_builder_add_string_value (reply, step);
    }
  return TRUE;
}

gboolean
handle_undo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return handle_undo_redo (session, request, reply, error, TRUE);
}

gboolean
handle_redo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return handle_undo_redo (session, request, reply, error, FALSE);
}

gboolean
handle_save (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  const char *path = get_string (request, "path", error);

  if (path == NULL)
    return FALSE;
  /* Said plainly here: the save itself would fail with a message about a temporary file. */
  if (*path == '\0')
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("“path” is empty; give the file to save the project in."));
      return FALSE;
    }
  return dc_session_save_copy (session->session, path, error);
}

gboolean
handle_resolve (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  guint n = dc_matcher_get_n_conflicts (session->matcher);
  const char *take;
  gint64 index;

  /* With none open, the session says so before any field is looked at. */
  if (n == 0)
    return dc_session_resolve (session->session, 0, TRUE, error);
  if (!get_int (request, "conflict", TRUE, 0, n - 1, &index, error)
      || (take = get_string (request, "take", error)) == NULL)
    return FALSE;
  if (!g_str_equal (take, "proposed") && !g_str_equal (take, "current"))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("“take” must be “proposed” or “current”."));
      return FALSE;
    }
  return dc_session_resolve (session->session, (guint) index, g_str_equal (take, "proposed"),
                             error);
}

gboolean
handle_split (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_split (session->session, request, reply, error);
}

gboolean
handle_unsplit (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_unsplit (session->session, request, reply, error);
}
