/* dc-export.c: the document's text with the values known so far
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formats (txt, freki, json) are described in docs/export-formats.md.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <fribidi.h>
#include <json-glib/json-glib.h>

#include "dc-export.h"
#include "dc-json.h"
#include "dc-reorder-private.h"

#define UNKNOWN_TEXT "\xEF\xBF\xBD" /* U+FFFD */

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

static void
append_line (GString *out, DcDocument *document, guint line, DcValueFunc value,
             gpointer user_data)
{
  _dc_reorder_line (document, line, value, user_data, out, NULL);
}

/* The line's tokens joined by single spaces, in logical order; unknown glyphs are U+FFFD. */
char *
dc_export_line_text (DcDocument *document, guint line, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  guint n_lines;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  dc_document_get_lines (document, &n_lines);
  g_return_val_if_fail (line < n_lines, NULL);

  append_line (out, document, line, value, user_data);
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
          append_line (out, document, l, value, user_data);
          g_string_append_c (out, '\n');
        }
    }
  return g_string_free (out, FALSE);
}

static char *
line_font_label (DcDocument *document, const DcLine *line)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *first = &glyphs[order[line->first_glyph]];
  const char *name = dc_font_get_name (dc_document_get_font (document, first->font));
  char *label = g_strdup_printf ("%s-%.1f", name ? name : "unnamed", first->size);

  /* Freki separates fields with spaces and fonts with commas. */
  for (char *p = label; *p; p++)
    if (*p == ' ' || *p == ',')
      *p = '_';
  return label;
}

/* Freki's block/line layout: a block is a run of lines on one page whose spacing stays
 * under twice the font size, so paragraphs and columns come apart. */
static char *
export_freki (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autofree char *doc_id = g_path_get_basename (dc_document_get_path (document));
  guint n_pages = dc_document_get_n_pages (document);
  guint line_number = 1;

  for (guint page = 0; page < n_pages; page++)
    {
      guint first, n, block = 0;

      dc_document_get_page_lines (document, page, &first, &n);
      for (guint start = first; start < first + n;)
        {
          guint end = start + 1;
          float x0 = lines[start].x0, y0 = lines[start].y0;
          float x1 = lines[start].x1, y1 = lines[start].y1;

          while (end < first + n)
            {
              float size = glyphs[order[lines[end - 1].first_glyph]].size;

              if (lines[end].y0 - lines[end - 1].y1 > size || lines[end].y0 < lines[end - 1].y0)
                break;
              x0 = MIN (x0, lines[end].x0);
              y0 = MIN (y0, lines[end].y0);
              x1 = MAX (x1, lines[end].x1);
              y1 = MAX (y1, lines[end].y1);
              end++;
            }

          block++;
          g_string_append_printf (out, "doc_id=%s page=%u block_id=%u-%u bbox=%.2f,%.2f,%.2f,%.2f %u %u\n",
                                  doc_id, page + 1, page + 1, block, x0, y0, x1, y1,
                                  line_number, line_number + (end - start) - 1);
          for (guint l = start; l < end; l++, line_number++)
            {
              g_autofree char *font = line_font_label (document, &lines[l]);

              g_string_append_printf (out, "line=%u fonts=%s bbox=%.2f,%.2f,%.2f,%.2f:", line_number,
                                      font,
                                      lines[l].x0, lines[l].y0, lines[l].x1, lines[l].y1);
              append_line (out, document, l, value, user_data);
              g_string_append_c (out, '\n');
            }
          g_string_append_c (out, '\n');
          start = end;
        }
    }
  return g_string_free (out, FALSE);
}

typedef struct
{
  GUnicodeScript script;
  guint count;
} ScriptCount;

static int
compare_script_counts (gconstpointer a, gconstpointer b)
{
  const ScriptCount *ca = a, *cb = b;

  return ca->count != cb->count ? (ca->count < cb->count ? 1 : -1) : (int) ca->script - (int) cb->script;
}

/**
 * dc_export_add_line_metadata:
 * @text: the line's text in logical order, as dc_export_line_text() gives it
 *
 * Adds the members that say how the line is written: `scripts` (ISO 15924 codes, most
 * letters first), `direction` ("ltr", "rtl", "ttb" or "neutral") and `writing_mode`
 * ("horizontal-tb", "vertical-rl" with columns from right to left as in CJK, or
 * "vertical-lr" as in Mongolian). docs/ and the session protocol name them the same.
 */
void
dc_export_add_line_metadata (JsonBuilder *builder, DcDocument *document, guint line,
                             const char *text)
{
  const DcLine *l;
  g_autoptr (GArray) counts = g_array_new (FALSE, TRUE, sizeof (ScriptCount));
  guint rtl = 0, ltr = 0;
  gboolean vertical, left_to_right_columns = FALSE;
  DcDirection direction;

  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (DC_IS_DOCUMENT (document));
  g_return_if_fail (text != NULL);

  l = &dc_document_get_lines (document, NULL)[line];
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeScript script = g_unichar_get_script (c);
      FriBidiCharType type = fribidi_get_bidi_type (c);
      guint i;

      if (FRIBIDI_IS_STRONG (type))
        {
          rtl += FRIBIDI_IS_RTL (type);
          ltr += !FRIBIDI_IS_RTL (type);
        }
      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED ||
          script == G_UNICODE_SCRIPT_UNKNOWN)
        continue;
      for (i = 0; i < counts->len; i++)
        if (g_array_index (counts, ScriptCount, i).script == script)
          break;
      if (i == counts->len)
        {
          ScriptCount count = { script, 0 };
          g_array_append_val (counts, count);
        }
      g_array_index (counts, ScriptCount, i).count++;
    }
  g_array_sort (counts, compare_script_counts);

  vertical = _dc_line_is_vertical (document, line);
  if (vertical)
    direction = DC_DIRECTION_TTB;
  else if (rtl + ltr == 0)
    direction = DC_DIRECTION_NEUTRAL;
  else
    direction = rtl > ltr ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;

  json_builder_set_member_name (builder, "scripts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < counts->len; i++)
    {
      GUnicodeScript script = g_array_index (counts, ScriptCount, i).script;
      guint32 tag = g_unicode_script_to_iso15924 (script);
      char code[5] = { (char) (tag >> 24), (char) (tag >> 16), (char) (tag >> 8), (char) tag, 0 };

      if (i == 0)
        left_to_right_columns = _dc_script_has_left_to_right_columns (script);
      json_builder_add_string_value (builder, code);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "direction");
  json_builder_add_string_value (builder, dc_direction_to_string (direction));
  json_builder_set_member_name (builder, "writing_mode");
  json_builder_add_string_value (builder, !vertical ? "horizontal-tb"
                                          : left_to_right_columns ? "vertical-lr"
                                                                  : "vertical-rl");
  (void) l;
}

static char *
export_json (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint n_pages = dc_document_get_n_pages (document);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) token_texts = g_ptr_array_new_with_free_func (g_free);

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
          g_string_truncate (text, 0);
          g_ptr_array_set_size (token_texts, 0);
          _dc_reorder_line (document, l, value, user_data, text, token_texts);
          json_builder_set_member_name (builder, "tokens");
          json_builder_begin_array (builder);
          for (guint t = 0; t < token_texts->len; t++)
            json_builder_add_string_value (builder, g_ptr_array_index (token_texts, t));
          json_builder_end_array (builder);
          json_builder_set_member_name (builder, "text");
          json_builder_add_string_value (builder, text->str);
          dc_export_add_line_metadata (builder, document, l, text->str);
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
      return export_freki (document, value, user_data);
    case DC_EXPORT_JSON:
      return export_json (document, value, user_data);
    case DC_EXPORT_TEXT:
    default:
      return export_text (document, value, user_data);
    }
}
