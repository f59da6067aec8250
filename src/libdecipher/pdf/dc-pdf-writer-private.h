/* dc-pdf-writer-private.h: plain C front of the one C++ file that writes PDFs, with qpdf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler reads; qpdf rewrites a PDF object by object and keeps everything else as it
 * was. Nothing but dc-pdf-writer.cc includes qpdf headers, and that file is a module of
 * its own (decipher-pdf-writer.so), loaded by dc-pdf-writer-module.c the first time a
 * repaired copy is written: see there why.
 */

#pragma once

#include <glib.h>
#include <gmodule.h>

G_BEGIN_DECLS

/* One font dictionary whose /ToUnicode is to be replaced by @cmap. */
typedef struct
{
  int num;
  int gen;
  const char *cmap;
  gsize cmap_len;
} DcPdfWriterFont;

/* A run of glyphs a ToUnicode cannot read in the right order (a pre-base vowel sign drawn
 * before its consonant): marked with /ActualText. @first and @n count the page's glyphs in
 * the order its content stream draws them. */
typedef struct
{
  guint first;
  guint n;
  const char *text; /* UTF-8 */
} DcPdfWriterSpan;

/* One page whose content stream gets /ActualText spans. @code_lens gives, for each glyph
 * the page draws, in order, how many bytes of its string it takes: the writer checks the
 * content stream against it and leaves a page it does not match as it was. */
typedef struct
{
  guint page; /* 0-based */
  const guint8 *code_lens;
  guint n_glyphs;
  const DcPdfWriterSpan *spans; /* by @first, not overlapping */
  guint n_spans;
} DcPdfWriterPage;

/* Defined in the module only: the engine calls it through _dc_pdf_writer_get_repair(). */
G_MODULE_EXPORT GBytes *dc_pdf_writer_repair (GBytes *pdf, const char *display_name,
                                              const char *password, const DcPdfWriterFont *fonts,
                                              guint n_fonts, const DcPdfWriterPage *pages,
                                              guint n_pages, guint *n_pages_marked, GError **error);

typedef __typeof__ (&dc_pdf_writer_repair) DcPdfWriterRepairFunc;

DcPdfWriterRepairFunc _dc_pdf_writer_get_repair (GError **error);

G_END_DECLS
