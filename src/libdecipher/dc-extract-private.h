/* dc-extract-private.h: reading every page of a PDF, on several threads if asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-pdf-bridge-private.h"

G_BEGIN_DECLS

/* Called on the calling thread, in page order: before the first callback of a page, and
 * after the last callback of a page read whole (returning FALSE stops the reading). */
typedef void (*DcExtractPageBegin) (guint page, gpointer user_data);
typedef gboolean (*DcExtractPageDone) (guint page, gpointer user_data);

typedef struct
{
  /* The caller stops at these (DcDocumentLimits): threads reading ahead stop recording
   * once what they hold shows the caller must have stopped before, so that a glyph bomb
   * costs them no more memory than it costs the caller. */
  guint64 max_glyphs;
  guint64 max_bytes;
  guint64 glyph_bytes; /* what the caller counts for each glyph against max_bytes */
} DcExtractLimits;

gboolean _dc_extract_pages (DcPdfBridge *bridge, const char *path, const char *password,
                            guint n_threads, const DcExtractLimits *limits,
                            const DcBridgeCallbacks *callbacks, DcExtractPageBegin page_begin,
                            DcExtractPageDone page_done, gpointer user_data, GCancellable *stop,
                            GError **error);

G_END_DECLS
