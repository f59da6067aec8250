/* dc-document-loader-private.h: what the loader and its glyph store share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document-private.h"
#include "dc-extract-private.h"
#include "dc-pdf-bridge-private.h"

G_BEGIN_DECLS

/* One loading's state, handed to the extraction's callbacks as their user data. */
typedef struct
{
  DcDocument *self;
  DcPdfBridge *bridge; /* the calling thread's, for the page sizes */
  guint *page_first_glyph;
  guint n_images;
  DcProgressFunc progress;
  gpointer progress_data;
  /* Most fonts are simple: a direct table per font avoids hashing on every glyph. */
  GPtrArray *byte_tables; /* per font: guint32[256] of symbol + 1, or NULL for CID fonts */
  gboolean hooked;        /* a test watches the glyphs (_dc_glyph_set_hook()) */
  guint *images;          /* per page */

  /* The limits (DcDocumentLimits): reaching one cancels the extraction with @error. */
  guint64 max_glyphs;
  guint64 max_bytes;
  guint64 bytes;         /* glyph records and texts held so far */
  guint glyph_capacity;  /* how many glyphs the array has room for, as probed */
  guint glyph_populated; /* glyphs whose room was faulted in ahead (prepare_room()) */
  guint page;            /* the page being read, for the sentence */
  GCancellable *stop;    /* cancelled when a limit is reached (or the caller cancels) */
  GError *error;         /* why it stopped */
} Loader;

/* The extraction's callbacks (DcExtractCallbacks), @user_data a Loader: they store the
 * fonts, symbols, glyphs, image counts and actual texts into the loader's document, and
 * stop the extraction with the loader's error at a limit. */
void _dc_document_loader_font (guint font_index, const DcBridgeFont *info, gpointer user_data);
void _dc_document_loader_run (const DcBridgeRun *run, gpointer user_data);
void _dc_document_loader_glyphs (const DcGlyph *glyphs, guint n_glyphs, DcExtractCode *codes,
                                 gpointer user_data);
void _dc_document_loader_image (guint page, gpointer user_data);
void _dc_document_loader_actual_text (guint page, const gunichar *text, int text_len,
                                      guint n_glyphs, gpointer user_data);

G_END_DECLS
