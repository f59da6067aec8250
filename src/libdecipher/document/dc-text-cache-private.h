/* dc-text-cache-private.h: each symbol's text, taken once for a whole export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

typedef struct
{
  const char *text; /* the symbol's value, U+FFFD while unknown */
  guint32 length;   /* in bytes */
  guint16 plain;    /* copied as it is in a line of plain texts (dc-text-cache.c) */
  guint16 mark;     /* plain, and a mark that joins the glyph before: drawn with no advance */
  char bytes[8];    /* a text of up to 8 bytes, padded with zeros: copied in one move */
} DcTextCacheEntry;

typedef struct
{
  guint n_symbols;
  guint max_length;          /* the longest text's, in bytes */
  DcTextCacheEntry *entries; /* by symbol */
  /* The document's, which an export reads unchanged throughout: taken once rather than
   * asked of the document line by line. */
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcToken *tokens;
  const DcLine *lines;
} DcTextCache;

gboolean _dc_text_is_plain (const char *text, gsize length);
DcTextCache *_dc_text_cache_new (DcDocument *document, DcValueFunc value, gpointer user_data);
void _dc_text_cache_free (DcTextCache *cache);

G_END_DECLS
