/* dc-warnings.c: what the text still lacks, said per font (issue 28, DESIGN §7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A glyph no level decodes is U+FFFD in the text. Counting them per font, with a stable
 * code a program can test (GLYPH_UNMAPPED) and a sentence for a reader, lets
 * `decipher-cli fonts --json`, the JSON text export and the window say so in one voice.
 * docs/export-formats.md describes the objects.
 */

#define G_LOG_DOMAIN "dc-warnings"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-export.h"
#include "dc-key.h"

/* At most this many codes are listed in a warning: enough to find them, not a font's 65536. */
#define MAX_LISTED_CODES 64

/* How many occurrences of @symbol, which @value gives nothing for, read nothing either. */
static guint
count_unmapped_glyphs (DcDocument *document, guint symbol, DcValueFunc value, gpointer user_data)
{
  const guint32 *glyphs;
  guint n_glyphs, n = 0;

  /* The key counts its splits per symbol: no walk over a book's occurrences per update. */
  if (value == dc_key_value_func && DC_IS_KEY (user_data))
    return dc_document_get_symbol (document, symbol)->n_glyphs
           - dc_key_count_split (user_data, symbol);
  glyphs = dc_document_get_symbol_glyphs (document, symbol, &n_glyphs);
  for (guint i = 0; i < n_glyphs; i++)
    n += dc_value_for_glyph (value, user_data, glyphs[i], symbol) == NULL;
  return n;
}

/**
 * dc_export_count_unmapped:
 * @font: a font index, or -1 for every font
 * @n_symbols: (out) (optional): distinct codes drawn but with no value
 * @n_glyphs: (out) (optional): how many glyphs they draw
 *
 * Counts the symbols of @font that @value gives nothing for (%NULL: U+FFFD in the text),
 * spaces aside. A value decided to be empty ("ignore it") is a value. Glyphs are counted
 * by what each reads, as the text has them: an occurrence split off its unknown symbol is
 * not unmapped, and a symbol is counted while any of its occurrences still is.
 */
void
dc_export_count_unmapped (DcDocument *document, int font, DcValueFunc value, gpointer user_data,
                          guint *n_symbols, guint *n_glyphs)
{
  const DcSymbol *symbols;
  guint n, symbol_count = 0, glyph_count = 0;

  g_return_if_fail (DC_IS_DOCUMENT (document));
  g_return_if_fail (value != NULL);

  symbols = dc_document_get_symbols (document, &n);
  for (guint s = 0; s < n; s++)
    {
      guint n_unmapped;

      if ((font >= 0 && symbols[s].font != (guint) font) || symbols[s].n_glyphs == 0
          || dc_document_symbol_is_space (document, s) || value (s, user_data) != NULL)
        continue;
      n_unmapped = count_unmapped_glyphs (document, s, value, user_data);
      symbol_count += n_unmapped > 0;
      glyph_count += n_unmapped;
    }
  if (n_symbols != NULL)
    *n_symbols = symbol_count;
  if (n_glyphs != NULL)
    *n_glyphs = glyph_count;
}

/**
 * dc_export_describe_unmapped:
 *
 * Returns: (transfer full) (nullable): one sentence saying how many glyphs of the whole
 *   document no level decodes, or %NULL when every glyph is decoded
 */
char *
dc_export_describe_unmapped (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  guint n_symbols, n_glyphs;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  dc_export_count_unmapped (document, -1, value, user_data, &n_symbols, &n_glyphs);
  if (n_glyphs == 0)
    return NULL;
  /* Translators: the first %u counts glyphs, the second distinct codes. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u glyph is still unmapped (%u code): it reads as �.",
                                       "%u glyphs are still unmapped (%u codes): they read as �.",
                                       n_glyphs),
                          n_glyphs, n_symbols);
}

static void
add_unmapped_warning (JsonBuilder *builder, DcDocument *document, guint font, DcValueFunc value,
                      gpointer user_data, guint n_symbols, guint n_glyphs)
{
  g_autofree char *message = NULL;
  const DcSymbol *symbols;
  guint n, listed = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, "GLYPH_UNMAPPED");
  json_builder_set_member_name (builder, "font");
  json_builder_add_int_value (builder, font);
  json_builder_set_member_name (builder, "symbols");
  json_builder_add_int_value (builder, n_symbols);
  json_builder_set_member_name (builder, "glyphs");
  json_builder_add_int_value (builder, n_glyphs);
  json_builder_set_member_name (builder, "codes");
  json_builder_begin_array (builder);
  symbols = dc_document_get_symbols (document, &n);
  for (guint s = 0; s < n && listed < MAX_LISTED_CODES; s++)
    if (symbols[s].font == font && symbols[s].n_glyphs > 0
        && !dc_document_symbol_is_space (document, s) && value (s, user_data) == NULL
        && count_unmapped_glyphs (document, s, value, user_data) > 0)
      {
        json_builder_add_int_value (builder, symbols[s].code);
        listed++;
      }
  json_builder_end_array (builder);
  /* Translators: the first %u counts glyphs, the second distinct codes. */
  message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u glyph of this font has no value (%u code): it reads "
                                          "as �.",
                                          "%u glyphs of this font have no value (%u codes): they "
                                          "read as �.",
                                          n_glyphs),
                             n_glyphs, n_symbols);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
}

/**
 * dc_export_add_warnings:
 * @font: a font index, or -1 for every font
 *
 * Adds a member "warnings" to the object @builder is in: an array with one
 * GLYPH_UNMAPPED object per font (of @font only, when given) that has glyphs @value
 * gives nothing for; empty when there are none (docs/export-formats.md).
 */
void
dc_export_add_warnings (JsonBuilder *builder, DcDocument *document, int font, DcValueFunc value,
                        gpointer user_data)
{
  guint n_fonts;

  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (DC_IS_DOCUMENT (document));
  g_return_if_fail (value != NULL);

  n_fonts = dc_document_get_n_fonts (document);
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint f = 0; f < n_fonts; f++)
    {
      guint n_symbols, n_glyphs;

      if (font >= 0 && f != (guint) font)
        continue;
      dc_export_count_unmapped (document, (int) f, value, user_data, &n_symbols, &n_glyphs);
      if (n_glyphs > 0)
        add_unmapped_warning (builder, document, f, value, user_data, n_symbols, n_glyphs);
    }
  json_builder_end_array (builder);
}
