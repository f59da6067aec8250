/* decipher-cli-session-replies.c: the session's replies that describe the document and the key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli-session.c, which reads the requests and dispatches them. Here are
 * the commands that only read (status, lines, symbols, text, conflicts, occurrences) and the
 * parts of a reply that the commands changing the key (decipher-cli-session-edits.c) write
 * too: the conflicts and a symbol's refused values.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <json-glib/json-glib.h>

#include "decipher-cli-session-private.h"
#include "decipher-cli-split.h"

#define add_conflicts decipher_cli_session_add_conflicts
#define add_refused decipher_cli_session_add_refused
#define get_int decipher_cli_session_get_int
#define handle_conflicts decipher_cli_session_handle_conflicts
#define handle_lines decipher_cli_session_handle_lines
#define handle_occurrences decipher_cli_session_handle_occurrences
#define handle_status decipher_cli_session_handle_status
#define handle_symbols decipher_cli_session_handle_symbols
#define handle_text decipher_cli_session_handle_text
#define set_int decipher_cli_session_set_int

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

gboolean
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

gboolean
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

void
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

void
add_refused (JsonBuilder *reply, DcKey *key, guint symbol)
{
  const char *const *refused = dc_key_get_refused (key, symbol);

  json_builder_set_member_name (reply, "refused");
  json_builder_begin_array (reply);
  for (guint i = 0; refused != NULL && refused[i] != NULL; i++)
    json_builder_add_string_value (reply, refused[i]);
  json_builder_end_array (reply);
}

gboolean
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

gboolean
handle_text (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  g_autofree char *text = dc_session_dup_text (session->session);

  json_builder_set_member_name (reply, "text");
  json_builder_add_string_value (reply, text);
  return TRUE;
}

gboolean
handle_conflicts (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  g_autoptr (GPtrArray) conflicts = g_ptr_array_new ();

  for (guint i = 0; i < dc_matcher_get_n_conflicts (session->matcher); i++)
    g_ptr_array_add (conflicts, (gpointer) dc_matcher_get_conflict (session->matcher, i));
  add_conflicts (reply, conflicts);
  return TRUE;
}

gboolean
handle_occurrences (Session *session, JsonObject *request, JsonBuilder *reply, GError **error)
{
  return decipher_cli_split_handle_occurrences (session->session, request, reply, error);
}
