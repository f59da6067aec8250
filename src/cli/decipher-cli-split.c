/* decipher-cli-split.c: the session's requests about single occurrences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "occurrences" lists where a symbol is drawn, by glyph index; "split" makes some of
 * those occurrences read another value than their symbol (one code drawn for two
 * characters), "unsplit" takes that back. docs/session-protocol.md describes them.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-cli-split.h"

/* Far above what one request names in practice; a hostile line cannot make it allocate
 * more than this. */
#define MAX_GLYPHS 100000
#define DEFAULT_MAX_OCCURRENCES 1000

static void
set_int (JsonBuilder *reply, const char *name, gint64 value)
{
  json_builder_set_member_name (reply, name);
  json_builder_add_int_value (reply, value);
}

/* "glyphs": a list of glyph indices of the document. */
static GArray *
get_glyphs (DcSession *session, JsonObject *request, GError **error)
{
  JsonNode *node = json_object_get_member (request, "glyphs");
  guint n_glyphs;
  g_autoptr (GArray) glyphs = g_array_new (FALSE, FALSE, sizeof (guint));
  JsonArray *array;

  dc_document_get_glyphs (dc_session_get_document (session), &n_glyphs);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node)
      || json_array_get_length (json_node_get_array (node)) == 0
      || json_array_get_length (json_node_get_array (node)) > MAX_GLYPHS)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“glyphs” must be a list of 1 to %u glyph numbers."), MAX_GLYPHS);
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      gint64 glyph;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_INT64
          || (glyph = json_node_get_int (item)) < 0 || glyph >= n_glyphs)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("“glyphs” must hold glyph numbers from 0 to %d."), (int) n_glyphs - 1);
          return NULL;
        }
      g_array_append_vals (glyphs, &(guint){ (guint) glyph }, 1);
    }
  return g_steal_pointer (&glyphs);
}

/* {"request":"split","glyphs":[…],"text":"…"}: the glyphs read "text", their symbol
 * keeps its value. */
gboolean
decipher_cli_split_handle_split (DcSession *session, JsonObject *request, JsonBuilder *reply,
                                 GError **error)
{
  g_autoptr (GArray) glyphs = get_glyphs (session, request, error);
  JsonNode *text = json_object_get_member (request, "text");

  if (glyphs == NULL)
    return FALSE;
  if (text == NULL || !JSON_NODE_HOLDS_VALUE (text)
      || json_node_get_value_type (text) != G_TYPE_STRING)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT, _("“%s” must be a string."), "text");
      return FALSE;
    }
  if (!dc_session_split (session, (const guint *) (void *) glyphs->data, glyphs->len,
                         json_node_get_string (text), error))
    return FALSE;
  set_int (reply, "split", glyphs->len);
  json_builder_set_member_name (reply, "text");
  json_builder_add_string_value (reply, dc_key_get_split (dc_session_get_key (session),
                                                          g_array_index (glyphs, guint, 0), NULL));
  return TRUE;
}

gboolean
decipher_cli_split_handle_unsplit (DcSession *session, JsonObject *request, JsonBuilder *reply,
                                   GError **error)
{
  g_autoptr (GArray) glyphs = get_glyphs (session, request, error);

  return glyphs != NULL
         && dc_session_unsplit (session, (const guint *) (void *) glyphs->data, glyphs->len, error);
}

/* {"request":"occurrences","symbol":N[,"limit":M]}: where the symbol is drawn, each with
 * the glyph number "split" takes, the line, and what the glyph reads. */
gboolean
decipher_cli_split_handle_occurrences (DcSession *session, JsonObject *request, JsonBuilder *reply,
                                       GError **error)
{
  DcDocument *document = dc_session_get_document (session);
  DcKey *key = dc_session_get_key (session);
  JsonNode *node = json_object_get_member (request, "symbol");
  JsonNode *limit_node = json_object_get_member (request, "limit");
  guint n_symbols, n_glyphs, n_listed = 0, n_found = 0;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  gint64 symbol, limit = DEFAULT_MAX_OCCURRENCES;

  dc_document_get_symbols (document, &n_symbols);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64 || (symbol = json_node_get_int (node)) < 0
      || symbol >= n_symbols)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“symbol” must be a whole number from 0 to %d."), (int) n_symbols - 1);
      return FALSE;
    }
  if (limit_node != NULL
      && (!JSON_NODE_HOLDS_VALUE (limit_node)
          || json_node_get_value_type (limit_node) != G_TYPE_INT64
          || (limit = json_node_get_int (limit_node)) < 1))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“limit” must be a whole number from 1."));
      return FALSE;
    }

  json_builder_set_member_name (reply, "occurrences");
  json_builder_begin_array (reply);
  for (guint g = 0; g < n_glyphs; g++)
    {
      const char *value;
      guint position, line;

      if (glyphs[g].symbol != symbol)
        continue;
      n_found++;
      if (n_listed >= limit)
        continue;
      n_listed++;
      value = dc_key_get_glyph_value (key, g);
      json_builder_begin_object (reply);
      set_int (reply, "glyph", g);
      set_int (reply, "page", glyphs[g].page + 1);
      json_builder_set_member_name (reply, "line");
      if (dc_document_locate_glyph (document, g, &position, &line))
        json_builder_add_int_value (reply, line);
      else
        json_builder_add_null_value (reply);
      json_builder_set_member_name (reply, "text");
      json_builder_add_string_value (reply, value);
      json_builder_set_member_name (reply, "split");
      json_builder_add_boolean_value (reply, dc_key_get_split (key, g, NULL) != NULL);
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
  set_int (reply, "count", n_found);
  return TRUE;
}

/* A "splits" member for the symbols reply: the occurrences of @symbol read otherwise. */
void
decipher_cli_split_add_splits (JsonBuilder *reply, DcKey *key, guint symbol)
{
  g_autofree guint *split = NULL;
  guint n_split;

  split = dc_key_dup_split_glyphs (key, symbol, &n_split);
  json_builder_set_member_name (reply, "splits");
  json_builder_begin_array (reply);
  for (guint i = 0; i < n_split; i++)
    {
      json_builder_begin_object (reply);
      set_int (reply, "glyph", split[i]);
      json_builder_set_member_name (reply, "text");
      json_builder_add_string_value (reply, dc_key_get_split (key, split[i], NULL));
      json_builder_end_object (reply);
    }
  json_builder_end_array (reply);
}
