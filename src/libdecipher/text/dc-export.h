/* dc-export.h: the document's text with the values known so far
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "dc-document.h"

G_BEGIN_DECLS

typedef enum
{
  DC_EXPORT_TEXT,   /* lines joined by \n, pages by \f */
  DC_EXPORT_FREKI,  /* Freki blocks and lines, respaced, with boxes, fonts and tab-scores */
  DC_EXPORT_JSON,   /* pages, blocks, lines and spans with their metadata */
  DC_EXPORT_LAYOUT, /* plain text respaced so that columns stay aligned */
} DcExportFormat;

/* The Unicode normalization form of exported text (docs/export-formats.md). */
typedef enum
{
  DC_NORMALIZATION_NFC,  /* composed: what most readers and searches expect */
  DC_NORMALIZATION_NFKC, /* composed, compatibility forms folded (full-width ０ → 0) */
  DC_NORMALIZATION_NFD,  /* decomposed: a base letter and its marks apart (Indic, IPA) */
} DcNormalization;

/* Takes the next @length bytes of an export; returns FALSE when they could not be
 * written, which stops the export. */
typedef gboolean (*DcExportWriteFunc) (const char *data, gsize length, gpointer user_data);

const char *dc_document_pdf_value (guint symbol, gpointer document);
char *dc_export_line_text (DcDocument *document, guint line, DcValueFunc value, gpointer user_data);
char *dc_export_run_text (DcDocument *document, guint first_position, guint last_position,
                          DcValueFunc value, gpointer user_data);
void dc_export_add_line_metadata (JsonBuilder *builder, DcDocument *document, guint line,
                                  const char *text);
char *dc_export_document (DcDocument *document, DcExportFormat format, DcValueFunc value,
                          gpointer user_data);
char *dc_export_document_normalized (DcDocument *document, DcExportFormat format,
                                     DcNormalization normalization, DcValueFunc value,
                                     gpointer user_data);
gboolean dc_export_json_write (DcDocument *document, DcNormalization normalization,
                               DcValueFunc value, gpointer user_data, DcExportWriteFunc write,
                               gpointer write_data);
gboolean dc_export_text_write (DcDocument *document, DcValueFunc value, gpointer user_data,
                               DcExportWriteFunc write, gpointer write_data);
gboolean dc_normalization_from_string (const char *name, DcNormalization *normalization);

void dc_export_count_unmapped (DcDocument *document, int font, DcValueFunc value,
                               gpointer user_data, guint *n_symbols, guint *n_glyphs);
char *dc_export_describe_unmapped (DcDocument *document, DcValueFunc value, gpointer user_data);
void dc_export_add_warnings (JsonBuilder *builder, DcDocument *document, int font,
                             DcValueFunc value, gpointer user_data);

double *dc_export_block_tabscores (DcDocument *document, const DcBlock *block, DcValueFunc value,
                                   gpointer user_data);

G_END_DECLS
