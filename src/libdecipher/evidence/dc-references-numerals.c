/* dc-references-numerals.c: numerals among the shared outlines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-references-apply.c. DejaVu Sans draws Latin I, Cyrillic І and Greek Ι
 * with one outline, and X, Х and Χ with another. In a Cyrillic font, the font's script
 * then chooses І and Х, right in a Ukrainian word and wrong in a chapter's number: the
 * UDHR's Russian "217 A (III)" was applied as (ІІІ), and Roman numerals are written in
 * Latin letters in every script's text. DejaVu Sans Mono draws the digit 3 and Cyrillic
 * З alike, and a Russian page's "статья 33" was applied as "ЗЗ": digits too belong to
 * every script's text. So the words a symbol stands in decide first: a symbol found only
 * in words made of such outlines, which read as numerals, is a numeral
 * (_dc_references_read_numeral()).
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include <string.h>

#include "dc-document-private.h"
#include "dc-references-private.h"

#define lookup_outline _dc_references_lookup_outline

/* The character @value stands for as a numeral of @kind (a Roman numeral's letter, 'I',
 * 'V', 'X', 'L', 'C', 'D' or 'M', or '0' for any decimal digit), or 0. Capitals only: a
 * lone small і is the Ukrainian word "and", never a numeral. */
static char
numeral_char (const char *value, DcNumeralKind kind)
{
  if (value[0] == '\0')
    return 0;
  if (kind == DC_NUMERAL_ROMAN)
    return value[1] == '\0' && strchr ("IVXLCDM", value[0]) != NULL ? value[0] : 0;
  return g_utf8_strlen (value, -1) == 1 && g_unichar_isdigit (g_utf8_get_char (value)) ? '0' : 0;
}

/* What @symbol stands for as a numeral of @kind: by its value, or else by any of the
 * characters its outline is drawn as; 0 if none. */
static char
symbol_numeral_char (DcReferences *self, DcShapes *shapes, DcKey *key, guint symbol,
                     DcNumeralKind kind)
{
  const DcShape *shape = dc_shapes_get_identity (shapes, symbol);
  g_autoptr (GPtrArray) values = NULL;
  g_autoptr (GPtrArray) families = NULL;

  if (shape == NULL)
    {
      const char *value = dc_key_peek_value (key, symbol);

      return value != NULL ? numeral_char (value, kind) : 0;
    }
  lookup_outline (self, shape, &values, &families);
  for (guint i = 0; i < values->len; i++)
    {
      char c = numeral_char (g_ptr_array_index (values, i), kind);

      if (c != 0)
        return c;
    }
  return 0;
}

/* Whether @symbol is punctuation, (III), XII. and 1,5 standing in a word as numerals do: by
 * its value, or else by every character its outline is drawn as. */
static gboolean
is_punctuation (DcReferences *self, DcShapes *shapes, DcKey *key, guint symbol)
{
  const char *value = dc_key_peek_value (key, symbol);
  const DcShape *shape;
  g_autoptr (GPtrArray) values = NULL;
  g_autoptr (GPtrArray) families = NULL;

  if (value != NULL)
    {
      for (const char *p = value; *p != '\0'; p = g_utf8_next_char (p))
        if (!g_unichar_ispunct (g_utf8_get_char (p)))
          return FALSE;
      return value[0] != '\0';
    }
  if ((shape = dc_shapes_get_identity (shapes, symbol)) == NULL)
    return FALSE;
  lookup_outline (self, shape, &values, &families);
  for (guint i = 0; i < values->len; i++)
    {
      const char *drawn = g_ptr_array_index (values, i);

      if (g_utf8_strlen (drawn, -1) != 1 || !g_unichar_ispunct (g_utf8_get_char (drawn)))
        return FALSE;
    }
  return values->len > 0;
}

/* Whether @latin (capitals, at least one) is a Roman numeral as they are written:
 * thousands, hundreds, tens and units, each in its usual form. ХМ or СІМ are not. */
static gboolean
is_roman_numeral (const char *latin)
{
  return latin[0] != '\0'
         && g_regex_match_simple ("^M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$", latin,
                                  0, 0);
}

/* The characters of @token read as a numeral of @kind (numeral_char()'s, punctuation
 * left out) into @numeral, or FALSE when one of its glyphs is neither such a character
 * nor punctuation. */
static gboolean
read_token (DcReferences *self, DcShapes *shapes, DcKey *key, const DcToken *token,
            DcNumeralKind kind, GString *numeral)
{
  DcDocument *document = dc_key_get_document (key);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);

  g_string_truncate (numeral, 0);
  for (guint p = token->first_glyph; p < token->first_glyph + token->n_glyphs; p++)
    {
      guint symbol = glyphs[order[p]].symbol;
      char c = symbol_numeral_char (self, shapes, key, symbol, kind);

      if (c != 0)
        g_string_append_c (numeral, c);
      else if (!is_punctuation (self, shapes, key, symbol))
        return FALSE;
    }
  return TRUE;
}

/**
 * _dc_references_read_numeral:
 * @symbol: a symbol whose outline is drawn as a numeral of @kind, among others
 * @kind: Roman numerals or decimal digits
 *
 * Whether @symbol is a numeral by the words it stands in, looked for in the lines of its
 * font (asking for the symbol's own glyphs would index every symbol's glyphs, 5 % of a
 * book's `text`). The first word that is not a numeral ends the search: a letter of the
 * text (Cyrillic С or З in most of its words) costs a few lines.
 *
 * Returns: %DC_NUMERAL_YES when every word it stands in reads as a numeral of @kind
 * (Roman ones in Latin letters, as they are written) and one has two characters or
 * more; %DC_NUMERAL_LONE when it stands only alone (Latin I of "Part I", or Ukrainian
 * І, "and", at a sentence's start; "статья 3", or Ukrainian З, "with", there: no word
 * tells); %DC_NUMERAL_NO otherwise.
 */
DcNumeral
_dc_references_read_numeral (DcReferences *self, DcShapes *shapes, DcKey *key, guint symbol,
                             DcNumeralKind kind)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GString) numeral = g_string_new (NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  guint font = dc_document_get_symbol (document, symbol)->font;
  const guint *starts;
  const guint32 *font_lines = _dc_document_get_font_lines (document, &starts);
  gboolean found = FALSE, in_numeral = FALSE;

  g_assert (DC_IS_REFERENCES (self));

  for (guint i = starts[font]; i < starts[font + 1]; i++)
    {
      const DcLine *line = &lines[font_lines[i]];

      for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
        for (guint p = tokens[t].first_glyph; p < tokens[t].first_glyph + tokens[t].n_glyphs; p++)
          if (glyphs[order[p]].symbol == symbol)
            {
              if (!read_token (self, shapes, key, &tokens[t], kind, numeral)
                  || (kind == DC_NUMERAL_ROMAN && !is_roman_numeral (numeral->str)))
                return DC_NUMERAL_NO;
              found = TRUE;
              in_numeral |= numeral->len > 1;
              break;
            }
    }
  if (!found)
    return DC_NUMERAL_NO;
  return in_numeral ? DC_NUMERAL_YES : DC_NUMERAL_LONE;
}
