/* dc-text-cache.c: each symbol's text, taken once for a whole export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing a book's text asks for a million glyphs' values, a few hundred symbols' worth:
 * the value func through dc_value_for_glyph(), strlen() and the plainness check of
 * dc-reorder.c, per glyph. When no glyph reads otherwise than its symbol
 * (dc_value_reads_by_symbol()), all three are known per symbol, and a plain line is
 * copied from this table glyph by glyph.
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <string.h>

#include "dc-text-cache-private.h"

/* Whether @c, from U+0800 on, is left to right, no mark, no virama or nukta, none of the
 * Indic letters and signs reorder_indic() moves, and of no script written without spaces
 * (may_close_up() in dc-reorder.c): Latin Extended Additional, Greek Extended, Georgian, Ethiopic
 * (but its combining marks), Cherokee, Canadian Syllabics, Vai, and the general punctuation, super-
 * and subscripts, currency signs, letterlike symbols and number forms (but the right-to-left
 * controls, and the leaders that CJK text closes up around). U+FFFD, what an undecoded glyph reads,
 * is neither either. */
static gboolean
is_plain_from_u0800 (gunichar c)
{
  if (c >= 0x2000 && c <= 0x218F)
    return c != 0x200F && c != 0x202B && c != 0x202E && c != 0x2067 && c != 0x2025 && c != 0x2026
           && !(c >= 0x20D0 && c <= 0x20FF);
  return (c >= 0x1E00 && c <= 0x1FFF) || (c >= 0x10A0 && c <= 0x10FF)
         || (c >= 0x1200 && c <= 0x13FF && !(c >= 0x135D && c <= 0x135F))
         || (c >= 0x1400 && c <= 0x167F) || (c >= 0xA500 && c <= 0xA63F) || c == 0xFFFD;
}

/* Whether a glyph's text needs none of the reordering of dc-reorder.c: no right-to-left letter,
 * nothing of an Indic script, and no mark first, which joins the glyph before it. Below
 * U+0580 (Latin, Greek, Cyrillic: one or two bytes below 0xD6) only the marks need a
 * look; Armenian's last letters and signs (U+0580–U+058F) pass too, and from U+0800 on
 * what is_plain_from_u0800() lets by. */
gboolean
_dc_text_is_plain (const char *text, gsize length)
{
  const guchar *bytes = (const guchar *) text;

  for (gsize i = 0; i < length; i++)
    {
      gunichar c;

      if (bytes[i] < 0xD6)
        continue;
      if (bytes[i] == 0xD6 && i + 1 < length && bytes[i + 1] < 0x90)
        {
          i++;
          continue;
        }
      if (bytes[i] < 0xE0 || bytes[i] >= 0xF0 || i + 2 >= length)
        return FALSE;
      c = ((gunichar) (bytes[i] & 0x0F) << 12) | ((gunichar) (bytes[i + 1] & 0x3F) << 6)
          | (bytes[i + 2] & 0x3F);
      if (!is_plain_from_u0800 (c))
        return FALSE;
      i += 2;
    }
  return length == 0 || bytes[0] < 0xCC || bytes[0] >= 0xD6
         || !g_unichar_ismark (g_utf8_get_char (text));
}

/* A combining diacritic of U+0300–U+036F (macron, caron, acute: Latin, Greek and Cyrillic
 * spell with them) and plain text after it. dc-reorder.c joins such a glyph to the one
 * before it, with or without an advance, which changes nothing in a line with no
 * right-to-left or Indic text and no script that closes up spaces: there it is as plain
 * as a letter. */
static gboolean
starts_with_latin_mark (const char *text, gsize length)
{
  const guchar *bytes = (const guchar *) text;

  return length >= 2 && (bytes[0] == 0xCC || (bytes[0] == 0xCD && bytes[1] < 0xB0))
         && _dc_text_is_plain (text + 2, length - 2);
}

/* The cache of @value's texts with @user_data for every symbol of @document, or NULL when
 * some glyph reads otherwise than its symbol: then each glyph must be asked on its own.
 * @value must only read while the cache is in use, as the exports require. */
DcTextCache *
_dc_text_cache_new (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  DcTextCache *cache;
  guint n_symbols;

  if (!dc_value_reads_by_symbol (value, user_data))
    return NULL;
  dc_document_get_symbols (document, &n_symbols);
  cache = g_new (DcTextCache, 1);
  cache->n_symbols = n_symbols;
  cache->max_length = 0;
  cache->entries = g_new (DcTextCacheEntry, MAX (n_symbols, 1));
  cache->glyphs = dc_document_get_glyphs (document, NULL);
  cache->order = dc_document_get_reading_order (document, NULL);
  cache->tokens = dc_document_get_tokens (document, NULL);
  cache->lines = dc_document_get_lines (document, NULL);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *text = value (s, user_data);
      DcTextCacheEntry *entry = &cache->entries[s];

      entry->text = text != NULL ? text : "\xEF\xBF\xBD";
      entry->length = (guint32) strlen (entry->text);
      entry->mark = starts_with_latin_mark (entry->text, entry->length);
      entry->plain = entry->mark || _dc_text_is_plain (entry->text, entry->length);
      cache->max_length = MAX (cache->max_length, entry->length);
      memset (entry->bytes, 0, sizeof entry->bytes);
      if (entry->length <= sizeof entry->bytes)
        memcpy (entry->bytes, entry->text, entry->length);
    }
  return cache;
}

void
_dc_text_cache_free (DcTextCache *cache)
{
  if (cache == NULL)
    return;
  g_free (cache->entries);
  g_free (cache);
}
