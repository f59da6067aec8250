/* dc-document-cache-write.c: a loaded document written as a cache file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a loaded document never changes (its glyphs, symbols, fonts, blocks and spans) and
 * its first tokens, in the order dc-document-cache-read.c reads them, summed as they go
 * and within the file's limit (dc-document-cache.c decides where and whether).
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dc-document-cache-format-private.h"
#include "dc-document-private.h"
#include "dc-font-private.h"

/* Writing ------------------------------------------------------------------------- */

static void
put (Writer *writer, const void *data, gsize size)
{
  if (writer->failed || size == 0)
    return;
  writer->written += size;
  if (writer->written > writer->limit || fwrite (data, 1, size, writer->file) != size)
    {
      writer->failed = TRUE;
      return;
    }
  sum_update (&writer->sum, data, size);
}

static void
put_u32 (Writer *writer, guint32 value)
{
  put (writer, &value, sizeof value);
}

static void
put_i32 (Writer *writer, gint32 value)
{
  put (writer, &value, sizeof value);
}

static void
put_f64 (Writer *writer, double value)
{
  put (writer, &value, sizeof value);
}

/* A NULL string is told from "" by its length, G_MAXUINT32. */
static void
put_string (Writer *writer, const char *string)
{
  gsize length = string != NULL ? strlen (string) : 0;

  if (length >= G_MAXUINT32)
    {
      writer->failed = TRUE;
      return;
    }
  put_u32 (writer, string != NULL ? (guint32) length : G_MAXUINT32);
  put (writer, string, length);
}

static void
put_array (Writer *writer, const void *data, guint n, gsize element_size)
{
  put_u32 (writer, n);
  put (writer, data, (gsize) n * element_size);
}

static void
put_font (Writer *writer, DcFont *font)
{
  DcBridgeFont info;

  _dc_font_get_bridge_info (font, &info);
  put_string (writer, info.name);
  put_string (writer, info.encoding);
  put_string (writer, info.program_kind);
  put_u32 (writer, info.program != NULL ? (guint32) info.program_len : G_MAXUINT32);
  if (info.program != NULL)
    put (writer, info.program, info.program_len);
  put_u32 (writer, info.glyph_names != NULL);
  for (guint i = 0; info.glyph_names != NULL && i < 256; i++)
    put_string (writer, info.glyph_names[i]);
  put_array (writer, info.cid_to_gid, info.cid_to_gid != NULL ? info.cid_to_gid_len : 0,
             sizeof (int));
  put_u32 (writer, info.code_to_gid != NULL);
  if (info.code_to_gid != NULL)
    put (writer, info.code_to_gid, 256 * sizeof (int));
  put_u32 (writer, info.type3_digests != NULL);
  if (info.type3_digests != NULL)
    put (writer, info.type3_digests, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
  put_u32 (writer, info.type);
  put_u32 (writer, info.has_to_unicode);
  put_i32 (writer, info.writing_mode);
  put_u32 (writer, info.has_ref);
  put_i32 (writer, info.ref_num);
  put_i32 (writer, info.ref_gen);
  put_f64 (writer, info.ascent);
  put_f64 (writer, info.descent);
  put_u32 (writer, dc_font_is_trusted (font));
  put_string (writer, dc_font_get_trust_reason (font));
  put_string (writer, dc_font_get_double_byte_charset (font));
  put_u32 (writer, dc_font_get_n_symbols (font));
  put_u32 (writer, dc_font_get_n_glyphs (font));
}

void
_dc_document_cache_put_document (Writer *writer, DcDocument *document, DcTokens *tokens,
                                 const char *identity, guint64 held_glyphs, guint64 held_bytes)
{
  const DcSymbol *symbols = (const DcSymbol *) (void *) document->symbols->data;
  const DcBlock *blocks = (const DcBlock *) (void *) document->blocks->data;

  put (writer, CACHE_MAGIC, strlen (CACHE_MAGIC));
  put_u32 (writer, CACHE_FORMAT);
  /* The arrays are written as they lie in memory: this says how they lay. */
  put_u32 (writer, 0x01020304);
  put_u32 (writer, sizeof (DcGlyph));
  put_u32 (writer, sizeof (DcLine));
  put_u32 (writer, sizeof (DcToken));
  put_u32 (writer, sizeof (ActualTextSpan));
  put_string (writer, identity);
  put (writer, &held_glyphs, sizeof held_glyphs);
  put (writer, &held_bytes, sizeof held_bytes);

  put_string (writer, document->sha256);
  put_string (writer, document->language);
  put_u32 (writer, document->n_pages);
  put (writer, document->page_sizes, 2 * sizeof (double) * document->n_pages);
  put (writer, document->page_lines, sizeof (guint) * (document->n_pages + 1));
  put (writer, document->page_blocks, sizeof (guint) * (document->n_pages + 1));

  put_u32 (writer, document->fonts->len);
  for (guint f = 0; f < document->fonts->len; f++)
    put_font (writer, g_ptr_array_index (document->fonts, f));

  put_array (writer, document->glyphs->data, document->glyphs->len, sizeof (DcGlyph));
  put_u32 (writer, document->symbols->len);
  for (guint s = 0; s < document->symbols->len; s++)
    {
      put_string (writer, symbols[s].pdf_text);
      put_u32 (writer, symbols[s].code);
      put_u32 (writer, symbols[s].n_glyphs);
      put_u32 (writer, symbols[s].font);
      put_u32 (writer, symbols[s].code_len);
      put_u32 (writer, symbols[s].flags);
    }
  /* The flags and tokens as loaded: the first snapshot's, whatever a key learned since. */
  put_array (writer, tokens->symbol_is_space, document->space_capacity, 1);
  put_array (writer, document->spans->data, document->spans->len, sizeof (ActualTextSpan));
  put_array (writer, document->span_texts->str, (guint) document->span_texts->len, 1);
  put_array (writer, document->order->data, document->order->len, sizeof (guint32));
  put_array (writer, tokens->lines, tokens->n_lines, sizeof (DcLine));
  put_u32 (writer, document->blocks->len);
  for (guint b = 0; b < document->blocks->len; b++)
    {
      put (writer, &blocks[b].x0, 4 * sizeof (float));
      put_u32 (writer, blocks[b].page);
      put_u32 (writer, blocks[b].index);
      put_u32 (writer, blocks[b].first_line);
      put_u32 (writer, blocks[b].n_lines);
      put_string (writer, blocks[b].label);
      put_u32 (writer, blocks[b].table);
    }
  put_array (writer, tokens->tokens, tokens->n_tokens, sizeof (DcToken));
  put (writer, CACHE_END, strlen (CACHE_END));
  {
    guint64 checksum = sum_finish (&writer->sum);

    put (writer, &checksum, sizeof checksum);
  }
}
