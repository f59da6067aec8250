/* decipher-cli-session.c: the JSON-lines session (docs/session-protocol.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One JSON object per line on stdin, one reply per line on stdout; docs/session-protocol.md
 * lists every command, field and error. This file only translates: it checks a request's
 * fields, calls DcSession (src/libdecipher/session/dc-session.c), which holds every rule of how a
 * decision is taken and records it in the project's journal before it returns, and
 * writes the reply.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include <string.h>
#include <unistd.h>

#include "decipher-cli-session.h"
#include "decipher-cli-split.h"

#define MAX_LINE_BYTES 65536
/* Requests are flat objects; the limit keeps json-glib, which recurses per level, from
 * overflowing the stack on a line of nested brackets. */
#define MAX_DEPTH 16

struct _DecipherCliSession
{
  DcSession *session;
  /* Shortcuts into the session, for the questions a reply answers. */
  DcDocument *document;
  DcKey *key;
  DcMatcher *matcher;
  char *project_path;
  char *password;          /* to render the document for recognize */
  gboolean print_progress; /* recognize writes {"progress":…} lines before its reply */
  GMutex progress_lock;
};

typedef DecipherCliSession Session;

typedef gboolean (*Handler) (Session *session, JsonObject *request, JsonBuilder *reply,
                             GError **error);

static void
add_bbox (JsonBuilder *reply, float x0, float y0, float x1, float y1)
{
  json_builder_begin_array (reply);
  json_builder_add_double_value (reply, x0);
  json_builder_add_double_value (reply, y0);
  json_builder_add_double_value (reply, x1);
  json_builder_add_double_value (reply, y1);
  json_builder_end_array (reply);
}

static void
set_int (JsonBuilder *reply, const char *name, gint64 value)
{
  json_builder_set_member_name (reply, name);
  json_builder_add_int_value (reply, value);
}

static gboolean
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

static const char *
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

static void
add_guess (JsonBuilder *reply, guint font, const char *kind, const DcAutoGuess *guess)
{
  json_builder_begin_object (reply);
  set_int (reply, "font", font);
  json_builder_set_member_name (reply, "kind");
  json_builder_add_string_value (reply, kind);
  json_builder_set_member_name (reply, "symbol");
  if (guess->symbol == DC_AUTO_NO_SYMBOL)
    json_builder_add_null_value (reply);
  else
    json_builder_add_int_value (reply, guess->symbol);
  json_builder_set_member_name (reply, "assigned");
  json_builder_add_boolean_value (reply, guess->assigned);
  json_builder_set_member_name (reply, "reason");
  json_builder_add_string_value (reply, guess->reason != NULL ? guess->reason : "");
  json_builder_end_object (reply);
}

/* Per untrusted font, what the automatic pass took for its space and full stop, or why
 * it took nothing (docs/session-protocol.md). */
static void
add_guesses (const DcAutoReport *report, JsonBuilder *reply)
{
  json_builder_set_member_name (reply, "guesses");
  json_builder_begin_array (reply);
  for (guint i = 0; report->ran && report->fonts != NULL && i < report->fonts->len; i++)
    {
      const DcAutoFontReport *font = &g_array_index (report->fonts, DcAutoFontReport, i);

      add_guess (reply, font->font, "space", &font->space);
      add_guess (reply, font->font, "full_stop", &font->full_stop);
    }
  json_builder_end_array (reply);
}

static gboolean
handle_status (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  guint symbols, glyphs, decoded_symbols, decoded_glyphs, n_lines;

  dc_key_count_to_decode (session->key, &symbols, &glyphs);
  dc_key_count_decoded (session->key, &decoded_symbols, &decoded_glyphs);
  dc_document_get_lines (session->document, &n_lines);
  set_int (reply, "pages", dc_document_get_n_pages (session->document));
  set_int (reply, "lines", n_lines);
  set_int (reply, "glyphs", glyphs);
  set_int (reply, "symbols", symbols);
  set_int (reply, "decoded_symbols", decoded_symbols);
  set_int (reply, "decoded_glyphs", decoded_glyphs);
  set_int (reply, "conflicts", dc_matcher_get_n_conflicts (session->matcher));
  add_guesses (dc_session_get_auto_report (session->session), reply);
  return TRUE;
}

static gboolean
handle_lines (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  const DcLine *lines = dc_document_get_lines (session->document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (session->document, NULL);
  const guint32 *order = dc_document_get_reading_order (session->document, NULL);
  guint n_pages = dc_document_get_n_pages (session->document);
  guint first = 0, n = 0;
  gint64 page = 0;

  if (!get_int (request, "page", FALSE, 1, n_pages, &page, error))
    return FALSE;
  if (page > 0)
    dc_document_get_page_lines (session->document, (guint) page - 1, &first, &n);
  else
    dc_document_get_lines (session->document, &n);

  json_builder_set_member_name (reply, "lines");
  json_builder_begin_array (reply);
  for (guint l = first; l < first + n; l++)
    {
      const DcLine *line = &lines[l];
      g_autofree char *text = dc_export_line_text (session->document, l, dc_key_value_func,
                                                   session->key);
      guint undecoded = 0;

      for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
        {
          guint symbol = glyphs[order[k]].symbol;

          undecoded += dc_session_symbol_is_unknown (session->session, symbol)
                       && !dc_document_symbol_is_space (session->document, symbol)
                       && dc_key_get_split (session->key, order[k], NULL) == NULL;
        }

      json_builder_begin_object (reply);
      set_int (reply, "id", l);
      set_int (reply, "page", line->page + 1);
      set_int (reply, "index", line->index);
      json_builder_set_member_name (reply, "bbox");
      add_bbox (reply, line->x0, line->y0, line->x1, line->y1);
      set_int (reply, "tokens", line->n_tokens);
      set_int (reply, "glyphs", line->n_glyphs);
      set_int (reply, "undecoded", undecoded);
      json_builder_set_member_name (reply, "text");
      json_builder_add_string_value (reply, text);
      dc_export_add_line_metadata (reply, session->document, l, text);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
  return TRUE;
}

static void
add_conflicts (JsonBuilder *reply, GPtrArray *conflicts)
{
  json_builder_set_member_name (reply, "conflicts");
  json_builder_begin_array (reply);
  for (guint i = 0; i < conflicts->len; i++)
    {
      const DcConflict *conflict = g_ptr_array_index (conflicts, i);

      json_builder_begin_object (reply);
      set_int (reply, "symbol", conflict->symbol);
      json_builder_set_member_name (reply, "current");
      json_builder_add_string_value (reply, conflict->current);
      json_builder_set_member_name (reply, "current_provenance");
      json_builder_add_string_value (reply, conflict->current_provenance);
      json_builder_set_member_name (reply, "proposed");
      json_builder_add_string_value (reply, conflict->proposed);
      json_builder_set_member_name (reply, "proposed_provenance");
      json_builder_add_string_value (reply, conflict->proposed_provenance);
      json_builder_set_member_name (reply, "current_level");
      json_builder_add_string_value (reply, dc_key_level_to_string (conflict->current_level));
      json_builder_set_member_name (reply, "proposed_level");
      json_builder_add_string_value (reply, dc_key_level_to_string (conflict->proposed_level));
      set_int (reply, "line", conflict->place.line);
      set_int (reply, "token", conflict->place.token);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
}

static gboolean
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

static gboolean
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

static gboolean
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

static gboolean
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

static gboolean
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

/* The user looked at the glyph and agrees with what was proposed for it; or, with
 * "all", with every proposal at least "min_confidence" sure. */
static gboolean
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

static void
add_refused (JsonBuilder *reply, DcKey *key, guint symbol)
{
  const char *const *refused = dc_key_get_refused (key, symbol);

  json_builder_set_member_name (reply, "refused");
  json_builder_begin_array (reply);
  for (guint i = 0; refused != NULL && refused[i] != NULL; i++)
    json_builder_add_string_value (reply, refused[i]);
  json_builder_end_array (reply);
}

/* The user says a symbol's value is wrong: it is refused there for good (until they type
 * or assign it themselves), and what the symbol holds now is said. */
static gboolean
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
static gboolean
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
handle_symbols (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (session->document, &n_symbols);

  json_builder_set_member_name (reply, "symbols");
  json_builder_begin_array (reply);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (!dc_document_symbol_needs_decoding (session->document, s))
        continue;
      json_builder_begin_object (reply);
      set_int (reply, "symbol", s);
      set_int (reply, "font", symbols[s].font);
      set_int (reply, "code", symbols[s].code);
      set_int (reply, "count", symbols[s].n_glyphs);
      json_builder_set_member_name (reply, "value");
      json_builder_add_string_value (reply, dc_key_peek_value (session->key, s));
      json_builder_set_member_name (reply, "status");
      json_builder_add_string_value (reply,
                                     dc_key_status_to_string (dc_key_get_status (session->key, s)));
      json_builder_set_member_name (reply, "level");
      json_builder_add_string_value (reply,
                                     dc_key_level_to_string (dc_key_get_level (session->key, s)));
      json_builder_set_member_name (reply, "confidence");
      json_builder_add_double_value (reply, dc_key_get_confidence (session->key, s));
      json_builder_set_member_name (reply, "provenance");
      json_builder_add_string_value (reply, dc_key_get_provenance (session->key, s));
      json_builder_set_member_name (reply, "glyph_name");
      json_builder_add_string_value (reply, symbols[s].glyph_name);
      add_refused (reply, session->key, s);
      decipher_cli_split_add_splits (reply, session->key, s);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
  return TRUE;
}

static gboolean
handle_undo_redo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error,
                  gboolean undo)
{
  return undo ? dc_session_undo (session->session, error)
              : dc_session_redo (session->session, error);
}

static gboolean
handle_undo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return handle_undo_redo (session, request, reply, error, TRUE);
}

static gboolean
handle_redo (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return handle_undo_redo (session, request, reply, error, FALSE);
}

static gboolean
handle_text (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  g_autofree char *text = dc_session_dup_text (session->session);

  json_builder_set_member_name (reply, "text");
  json_builder_add_string_value (reply, text);
  return TRUE;
}

static gboolean
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

static gboolean
handle_conflicts (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  g_autoptr (GPtrArray) conflicts = g_ptr_array_new ();

  for (guint i = 0; i < dc_matcher_get_n_conflicts (session->matcher); i++)
    g_ptr_array_add (conflicts, (gpointer) dc_matcher_get_conflict (session->matcher, i));
  add_conflicts (reply, conflicts);
  return TRUE;
}

static gboolean
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

static gboolean
handle_split (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_split (session->session, request, reply, error);
}

static gboolean
handle_unsplit (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_unsplit (session->session, request, reply, error);
}

static gboolean
handle_occurrences (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_occurrences (session->session, request, reply, error);
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
