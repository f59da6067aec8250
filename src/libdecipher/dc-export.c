/* dc-export.c: the document's text with the values known so far
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formats (txt, freki, json) are described in docs/export-formats.md.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <json-glib/json-glib.h>

#include "dc-export-private.h"
#include "dc-json.h"

/**
 * dc_document_pdf_value:
 * @document: a #DcDocument, as user data
 *
 * A #DcValueFunc that believes the PDF for trusted fonts and knows nothing else: what a
 * document shows before the user has recovered anything.
 */
const char *
dc_document_pdf_value (guint symbol, gpointer document)
{
  if (dc_document_symbol_needs_decoding (document, symbol))
    return NULL;
  return dc_document_get_symbol (document, symbol)->pdf_text;
}

void
_dc_export_append_token (GString *out, DcDocument *document, const DcToken *token, DcValueFunc value,
              gpointer user_data)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);

  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    {
      const char *text = value (glyphs[order[k]].symbol, user_data);

      g_string_append (out, text != NULL ? text : DC_UNKNOWN_TEXT);
    }
}

void
_dc_export_append_line (GString *out, DcDocument *document, guint line, DcValueFunc value,
             gpointer user_data)
{
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const DcLine *l = &lines[line];

  for (guint t = l->first_token; t < l->first_token + l->n_tokens; t++)
    {
      if (t > l->first_token)
        g_string_append_c (out, ' ');
      _dc_export_append_token (out, document, &tokens[t], value, user_data);
    }
}

/* The line's tokens joined by single spaces; unknown glyphs are U+FFFD. */
char *
dc_export_line_text (DcDocument *document, guint line, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  guint n_lines;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  dc_document_get_lines (document, &n_lines);
  g_return_val_if_fail (line < n_lines, NULL);

  _dc_export_append_line (out, document, line, value, user_data);
  return g_string_free (out, FALSE);
}

static char *
export_text (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  guint n_pages = dc_document_get_n_pages (document);

  for (guint page = 0; page < n_pages; page++)
    {
      guint first, n;

      if (page > 0)
        g_string_append_c (out, '\f');
      dc_document_get_page_lines (document, page, &first, &n);
      for (guint l = first; l < first + n; l++)
        {
          _dc_export_append_line (out, document, l, value, user_data);
          g_string_append_c (out, '\n');
        }
    }
  return g_string_free (out, FALSE);
}

static char *
export_json (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  guint n_pages = dc_document_get_n_pages (document);
  g_autoptr (GString) text = g_string_new (NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "pages");
  json_builder_begin_array (builder);
  for (guint page = 0; page < n_pages; page++)
    {
      double width, height;
      guint first, n;

      dc_document_get_page_size (document, page, &width, &height);
      dc_document_get_page_lines (document, page, &first, &n);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "page");
      json_builder_add_int_value (builder, page + 1);
      json_builder_set_member_name (builder, "width");
      json_builder_add_double_value (builder, width);
      json_builder_set_member_name (builder, "height");
      json_builder_add_double_value (builder, height);
      json_builder_set_member_name (builder, "lines");
      json_builder_begin_array (builder);
      for (guint l = first; l < first + n; l++)
        {
          const DcLine *line = &lines[l];

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "index");
          json_builder_add_int_value (builder, line->index);
          json_builder_set_member_name (builder, "bbox");
          json_builder_begin_array (builder);
          json_builder_add_double_value (builder, line->x0);
          json_builder_add_double_value (builder, line->y0);
          json_builder_add_double_value (builder, line->x1);
          json_builder_add_double_value (builder, line->y1);
          json_builder_end_array (builder);
          json_builder_set_member_name (builder, "tokens");
          json_builder_begin_array (builder);
          for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
            {
              g_string_truncate (text, 0);
              _dc_export_append_token (text, document, &tokens[t], value, user_data);
              json_builder_add_string_value (builder, text->str);
            }
          json_builder_end_array (builder);
          g_string_truncate (text, 0);
          _dc_export_append_line (text, document, l, value, user_data);
          json_builder_set_member_name (builder, "text");
          json_builder_add_string_value (builder, text->str);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return dc_json_generate (root, TRUE, NULL);
}

char *
dc_export_document (DcDocument *document, DcExportFormat format, DcValueFunc value,
                    gpointer user_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  switch (format)
    {
    case DC_EXPORT_FREKI:
      return _dc_export_freki (document, value, user_data);
    case DC_EXPORT_LAYOUT:
      return _dc_export_layout (document, value, user_data);
    case DC_EXPORT_JSON:
      return export_json (document, value, user_data);
    case DC_EXPORT_TEXT:
    default:
      return export_text (document, value, user_data);
    }
}
