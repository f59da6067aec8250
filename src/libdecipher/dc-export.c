/* dc-export.c: the document's text with the values known so far
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formats (txt, freki, json) are described in docs/export-formats.md.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include "dc-export-private.h"

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
      return _dc_export_json (document, value, user_data);
    case DC_EXPORT_TEXT:
    default:
      return export_text (document, value, user_data);
    }
}
