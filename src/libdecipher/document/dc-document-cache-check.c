/* dc-document-cache-check.c: what a cache file gave, checked before use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A cache file is the user's own, but a disk or a crash may damage it: no index read from
 * it is used before every one is known to point into what the document holds.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dc-document-cache-format-private.h"
#include "dc-document-private.h"
#include "dc-font-private.h"

/* Whether every index @document holds points into what it holds, in the order the
 * loader makes them, so that no reader of it strays out of an array whatever a damaged
 * file said. */
gboolean
_dc_document_cache_check_document (DcDocument *document, const DcTokens *tokens)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) document->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) document->symbols->data;
  const guint32 *order = (const guint32 *) (void *) document->order->data;
  const ActualTextSpan *spans = (const ActualTextSpan *) (void *) document->spans->data;
  const DcBlock *blocks = (const DcBlock *) (void *) document->blocks->data;
  guint n_glyphs = document->glyphs->len, n_symbols = document->symbols->len;
  guint n_order = document->order->len, n_lines = tokens->n_lines;
  g_autofree guint8 *placed = NULL;
  guint next_glyph = 0, next_token = 0;

  if (n_glyphs == 0 || n_order > n_glyphs || document->space_capacity != MAX (1, n_symbols)
      || document->lines->len != n_lines || document->page_lines[0] != 0
      || document->page_lines[document->n_pages] != n_lines || document->page_blocks[0] != 0
      || document->page_blocks[document->n_pages] != document->blocks->len)
    return FALSE;
  for (guint page = 0; page < document->n_pages; page++)
    if (document->page_lines[page] > document->page_lines[page + 1]
        || document->page_blocks[page] > document->page_blocks[page + 1]
        || !isfinite (document->page_sizes[2 * page])
        || !isfinite (document->page_sizes[2 * page + 1]))
      return FALSE;
  for (guint g = 0; g < n_glyphs; g++)
    if (glyphs[g].symbol >= n_symbols || glyphs[g].page >= document->n_pages
        || !isfinite (glyphs[g].x) || !isfinite (glyphs[g].y))
      return FALSE;
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font >= document->fonts->len || symbols[s].code_len < 1
        || symbols[s].code_len > 4 || document->symbol_is_space[s] > 1)
      return FALSE;
  /* The reading order places each glyph once at most. */
  placed = g_new0 (guint8, n_glyphs);
  for (guint i = 0; i < n_order; i++)
    {
      if (order[i] >= n_glyphs || placed[order[i]])
        return FALSE;
      placed[order[i]] = 1;
    }
  /* Lines follow one another in the reading order, page by page, and so do their tokens. */
  for (guint page = 0; page < document->n_pages; page++)
    for (guint l = document->page_lines[page]; l < document->page_lines[page + 1]; l++)
      {
        const DcLine *line = &tokens->lines[l];

        if (line->page != page || line->rotation > 3 || line->first_glyph < next_glyph
            || line->first_glyph > n_order || line->n_glyphs > n_order - line->first_glyph
            || line->first_token != next_token || line->n_tokens > tokens->n_tokens - next_token)
          return FALSE;
        for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
          {
            const DcToken *token = &tokens->tokens[t];

            if (token->line != l || token->n_glyphs == 0 || token->first_glyph < line->first_glyph
                || token->first_glyph > line->first_glyph + line->n_glyphs
                || token->n_glyphs > line->first_glyph + line->n_glyphs - token->first_glyph)
              return FALSE;
          }
        next_glyph = line->first_glyph + line->n_glyphs;
        next_token = line->first_token + line->n_tokens;
      }
  if (next_token != tokens->n_tokens)
    return FALSE;
  for (guint page = 0; page < document->n_pages; page++)
    for (guint b = document->page_blocks[page]; b < document->page_blocks[page + 1]; b++)
      if (blocks[b].page != page || blocks[b].first_line < document->page_lines[page]
          || blocks[b].first_line > document->page_lines[page + 1]
          || blocks[b].n_lines > document->page_lines[page + 1] - blocks[b].first_line)
        return FALSE;
  if (document->spans->len > 0
      && (document->span_texts->len == 0
          || document->span_texts->str[document->span_texts->len - 1] != '\0'))
    return FALSE;
  for (guint i = 0; i < document->spans->len; i++)
    if (spans[i].first_glyph > n_glyphs || spans[i].n_glyphs > n_glyphs - spans[i].first_glyph
        || spans[i].text >= document->span_texts->len
        || !g_utf8_validate (document->span_texts->str + spans[i].text, -1, NULL))
      return FALSE;
  return TRUE;
}
