/* dc-pdf-writer-private.h: plain C front of the one C++ file that writes PDFs, with qpdf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler reads; qpdf rewrites a PDF object by object and keeps everything else as it
 * was. Nothing but dc-pdf-writer.cc includes qpdf headers.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One font dictionary whose /ToUnicode is to be replaced by @cmap. */
typedef struct
{
  int num;
  int gen;
  const char *cmap;
  gsize cmap_len;
} DcPdfWriterFont;

GBytes *dc_pdf_writer_replace_to_unicode (GBytes *pdf, const char *display_name,
                                          const char *password, const DcPdfWriterFont *fonts,
                                          guint n_fonts, GError **error);

G_END_DECLS
