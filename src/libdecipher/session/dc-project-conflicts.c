/* dc-project-conflicts.c: the conflicts still open, as a project keeps them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A conflict is evidence the linguist typed and has not judged yet: closing the window
 * must not throw it away. Each is kept with the symbol it is about (by font and code,
 * as key entries are), both values with where they came from, and the place the typed
 * words matched, so that the review can show it again.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-project-private.h"

/* A value is at most 16 code points; provenance quotes an input of at most 64 KiB. */
#define MAX_VALUE_BYTES 1024
#define MAX_NAME_BYTES 4096
/* Far more than a session raises: each typed input adds a handful at most. */
#define MAX_CONFLICTS 100000
/* Lines hold far fewer words; the bound keeps token + tokens from overflowing. */
#define MAX_TOKEN 65535

static void
add_string_or_null (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* @conflicts (of DcConflict) as an array value. */
void
_dc_project_add_conflicts (JsonBuilder *builder, DcDocument *document, GPtrArray *conflicts)
{
  json_builder_begin_array (builder);
  for (guint i = 0; i < conflicts->len; i++)
    {
      const DcConflict *conflict = g_ptr_array_index (conflicts, i);
      const DcSymbol *symbol = dc_document_get_symbol (document, conflict->symbol);
      DcFont *font = dc_document_get_font (document, symbol->font);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "font");
      json_builder_add_int_value (builder, symbol->font);
      add_string_or_null (builder, "font_name", dc_font_get_name (font));
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, symbol->code);
      add_string_or_null (builder, "current", conflict->current);
      add_string_or_null (builder, "current_provenance", conflict->current_provenance);
      add_string_or_null (builder, "proposed", conflict->proposed);
      add_string_or_null (builder, "proposed_provenance", conflict->proposed_provenance);
      add_string_or_null (builder, "current_level",
                          dc_key_level_to_string (conflict->current_level));
      add_string_or_null (builder, "proposed_level",
                          dc_key_level_to_string (conflict->proposed_level));
      json_builder_set_member_name (builder, "line");
      json_builder_add_int_value (builder, conflict->place.line);
      json_builder_set_member_name (builder, "token");
      json_builder_add_int_value (builder, conflict->place.token);
      json_builder_set_member_name (builder, "tokens");
      json_builder_add_int_value (builder, conflict->place.n_tokens);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static gboolean
read_value (DcProjectLoader *loader, JsonObject *object, const char *name, const char *where,
            char **out)
{
  g_autoptr (GError) value_error = NULL;
  const char *value;

  if (!_dc_project_read_string (loader, object, name, where, FALSE, MAX_VALUE_BYTES, &value))
    return FALSE;
  *out = dc_key_normalize_value (value, &value_error);
  if (*out == NULL)
    return _dc_project_invalid (loader, _("In %s, “%s” is a value Decipher cannot use. %s"), where,
                                           name, value_error->message);
  return TRUE;
}

static gboolean
read_level (DcProjectLoader *loader, JsonObject *object, const char *name, const char *where,
            DcKeyLevel *out)
{
  const char *string = NULL;

  *out = DC_KEY_LEVEL_NONE;
  if (!json_object_has_member (object, name))
    return TRUE;
  if (!_dc_project_read_string (loader, object, name, where, TRUE, 32, &string))
    return FALSE;
  if (string != NULL && !dc_key_level_from_string (string, out))
    return _dc_project_invalid (loader, _("In %s, “%s” is not a level Decipher knows."), where,
                                           name);
  return TRUE;
}

static gboolean
read_conflict (DcProjectLoader *loader, JsonNode *node, guint index, DcConflict *conflict)
{
  g_autofree char *where = g_strdup_printf (_("conflict %u"), index + 1);
  const char *font_name, *current_provenance, *proposed_provenance;
  guint64 font_index, code, line, token, n_tokens;
  guint n_lines;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return _dc_project_invalid (loader, _("Conflict %u is not an object."), index + 1);
  object = json_node_get_object (node);

  dc_document_get_lines (loader->document, &n_lines);
  if (!_dc_project_read_uint (loader, object, "font", where, G_MAXUINT32, &font_index)
      || !_dc_project_read_string (loader, object, "font_name", where, TRUE, MAX_NAME_BYTES,
                                   &font_name)
      || !_dc_project_read_uint (loader, object, "code", where, G_MAXUINT32, &code)
      || !_dc_project_read_string (loader, object, "current_provenance", where, TRUE,
                                   DC_PROJECT_MAX_TEXT_BYTES, &current_provenance)
      || !_dc_project_read_string (loader, object, "proposed_provenance", where, TRUE,
                                   DC_PROJECT_MAX_TEXT_BYTES, &proposed_provenance)
      || !_dc_project_read_uint (loader, object, "line", where, G_MAXUINT32, &line)
      || !_dc_project_read_uint (loader, object, "token", where, MAX_TOKEN, &token)
      || !_dc_project_read_uint (loader, object, "tokens", where, MAX_TOKEN, &n_tokens))
    return FALSE;

  /* A line is split into tokens by the spaces the key knows, so the token numbers are
   * only checked for sense: whoever shows the place clips it to the line. */
  if (line >= n_lines || n_tokens == 0)
    return _dc_project_invalid (loader,
                                _("Conflict %u points at words the document does not have."),
                                   index + 1);
  if (font_index >= dc_document_get_n_fonts (loader->document)
      || g_strcmp0 (font_name,
                    dc_font_get_name (dc_document_get_font (loader->document, font_index)))
             != 0
      || !dc_document_lookup_symbol (loader->document, font_index, code, &conflict->symbol))
    return _dc_project_invalid (loader,
                                _("Conflict %u is about a glyph the document does not have."),
                                   index + 1);

  conflict->place.line = line;
  conflict->place.token = token;
  conflict->place.n_tokens = n_tokens;
  conflict->current_provenance = g_strdup (current_provenance);
  conflict->proposed_provenance = g_strdup (proposed_provenance);
  /* Optional: projects of format version 1 have no levels; a conflict came from typing. */
  if (!read_level (loader, object, "current_level", where, &conflict->current_level)
      || !read_level (loader, object, "proposed_level", where, &conflict->proposed_level))
    return FALSE;
  if (conflict->current_level == DC_KEY_LEVEL_NONE)
    conflict->current_level = dc_key_level_for_status (DC_KEY_INFERRED, current_provenance);
  if (conflict->proposed_level == DC_KEY_LEVEL_NONE)
    conflict->proposed_level = dc_key_level_for_status (DC_KEY_INFERRED, proposed_provenance);
  return read_value (loader, object, "current", where, &conflict->current)
         && read_value (loader, object, "proposed", where, &conflict->proposed);
}

/* @node: the "conflicts" array. Fills @conflicts (of DcConflict) only when all of it
 * checks out. */
gboolean
_dc_project_read_conflicts (DcProjectLoader *loader, JsonNode *node, GPtrArray *conflicts)
{
  g_autoptr (GPtrArray) read = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return _dc_project_invalid (loader, _("Its conflicts are not a list."));
  array = json_node_get_array (node);
  if (json_array_get_length (array) > MAX_CONFLICTS)
    return _dc_project_invalid (loader, _("It holds more conflicts than Decipher ever keeps."));

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      DcConflict *conflict = g_new0 (DcConflict, 1);

      g_ptr_array_add (read, conflict);
      if (!read_conflict (loader, json_array_get_element (array, i), i, conflict))
        return FALSE;
    }
  g_ptr_array_extend_and_steal (conflicts, g_steal_pointer (&read));
  return TRUE;
}
