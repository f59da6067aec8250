/* dc-document-cache-private.h: a document read once opens again from the cache folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

char *_dc_document_cache_identity (const char *path);
DcDocument *_dc_document_cache_load (const char *path, const char *identity,
                                     const DcDocumentLimits *limits);
void _dc_document_cache_store (DcDocument *document, const char *identity, guint64 held_glyphs,
                               guint64 held_bytes);
char *_dc_document_cache_file (const char *identity);

G_END_DECLS
