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
  guint32 plain;    /* _dc_text_is_plain() */
} DcTextCacheEntry;

typedef struct
{
  guint n_symbols;
  DcTextCacheEntry *entries; /* by symbol */
} DcTextCache;

gboolean _dc_text_is_plain (const char *text, gsize length);
DcTextCache *_dc_text_cache_new (DcDocument *document, DcValueFunc value, gpointer user_data);
void _dc_text_cache_free (DcTextCache *cache);

G_END_DECLS
