/* dc-extract-private.h: reading every page of a PDF, on several threads if asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-pdf-bridge-private.h"
#include "dc-types.h"

G_BEGIN_DECLS

/* A font and code as the reading threads met them, with what the caller makes of them. */
typedef struct
{
  guint font; /* the caller's number (DcExtractCallbacks.font's) */
  guint32 code;
  guint code_len;          /* 1–4 */
  const gunichar *unicode; /* the PDF's own text for it, may be empty */
  int unicode_len;
  guint32 symbol; /* for the caller: 0 until it sets it */
} DcExtractCode;

/* What one bridge reading page after page would report (DcBridgeCallbacks), on the
 * calling thread, in the same order. */
typedef struct
{
  void (*font) (guint font_index, const DcBridgeFont *font, gpointer user_data);
  /* Glyphs as the bridge reported them: when one thread reads. */
  void (*run) (const DcBridgeRun *run, gpointer user_data);
  /* When several threads read: a run of glyphs packed by _dc_glyph_pack_inline() on the thread
   * that read them, each one's symbol field the index of its font and code in @codes
   * (valid for the call; what the caller sets in an entry stays there for the next
   * calls). Glyphs of pages beyond DC_GLYPH_MAX_PAGES are left out. */
  void (*glyphs) (const DcGlyph *glyphs, guint n_glyphs, DcExtractCode *codes, gpointer user_data);
  void (*image) (guint page, gpointer user_data);
  void (*actual_text) (guint page, const gunichar *text, int text_len, guint n_glyphs,
                       gpointer user_data);
} DcExtractCallbacks;

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
                            const DcExtractCallbacks *callbacks, DcExtractPageBegin page_begin,
                            DcExtractPageDone page_done, gpointer user_data, GCancellable *stop,
                            GError **error);

G_END_DECLS
