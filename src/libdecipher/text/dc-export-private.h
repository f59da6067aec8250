/* dc-export-private.h: what the export formats share inside the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-export.h"
#include "dc-json-writer-private.h"
#include "dc-language.h"
#include "dc-script.h"

G_BEGIN_DECLS

#define DC_UNKNOWN_TEXT "\xEF\xBF\xBD" /* U+FFFD */

void _dc_export_append_token (GString *out, DcDocument *document, const DcToken *token,
                              DcValueFunc value, gpointer user_data);
void _dc_export_append_line (GString *out, DcDocument *document, guint line, DcValueFunc value,
                             gpointer user_data);

gboolean _dc_export_is_normalized (const char *text, DcNormalization normalization);
char *_dc_export_normalize (const char *text, DcNormalization normalization);
char *_dc_export_normalize_cached (const char *text, DcNormalization normalization,
                                   GHashTable *pieces);

/* What the detector made of a text, against the language the document declares. */
typedef struct
{
  const char *declared;  /* the /Lang, or NULL */
  gboolean detected;     /* the detector read the text (long enough, and available) */
  double declared_score; /* its confidence in @declared; 0 when not a candidate */
  const char *best;      /* its best candidate */
  double best_score;
} DcLanguageEvidence;

gboolean _dc_export_resolve_language (const DcLanguageEvidence *evidence, DcLanguageGuess *out);
gboolean _dc_export_guess_language (const char *text, const char *declared, DcLanguageGuess *out);

/* Writes pages [@first_page, @end_page) at the end of @out. */
typedef void (*DcExportPagesFunc) (guint first_page, guint end_page, GString *out, gpointer data);

gboolean _dc_export_stream_pages (DcDocument *document, DcExportPagesFunc make, gpointer make_data,
                                  DcExportWriteFunc write, gpointer write_data);

typedef struct
{
  GUnicodeScript script;
  guint count;
} DcScriptCount;

#define DC_LINE_FIRST_SCRIPTS 8

/* How a line is written (dc_export_add_line_metadata()), worked out once for what the
 * JSON export writes of its block and of the line itself. */
typedef struct
{
  GArray *counts; /* DcScriptCount, most letters first */
  DcDirection direction;
  const char *writing_mode;
  /* dc_text_get_script() of the text, which counts the same characters, the first of
   * the most frequent of at most eight scripts; G_UNICODE_SCRIPT_INVALID_CODE when more
   * (that function's answer then depends on which came first). */
  GUnicodeScript script;
  /* The counts in the order their scripts first occur; n_first_seen is G_MAXUINT when
   * there are more than these. */
  DcScriptCount first_seen[DC_LINE_FIRST_SCRIPTS];
  guint n_first_seen;
} DcLineMetadata;

void _dc_export_line_metadata (DcDocument *document, guint line, const char *text,
                               DcLineMetadata *out);
void _dc_export_line_metadata_counted (DcDocument *document, guint line, GArray *counts, guint rtl,
                                       guint ltr, DcLineMetadata *out);
void _dc_export_line_metadata_clear (DcLineMetadata *metadata);
gboolean _dc_export_write_line_metadata (DcJsonWriter *writer, const DcLineMetadata *metadata,
                                         const char *text);

/* The texts of the tokens [first, first + n), each as _dc_export_append_token() gives
 * it, worked out once for an export that reads them more than once. */
typedef struct
{
  guint first;
  guint n;
  char **texts;
} DcTokenTexts;

/* @token's text, or NULL when @texts is NULL or does not hold it. */
static inline const char *
_dc_token_texts_get (const DcTokenTexts *texts, guint token)
{
  return texts != NULL && token - texts->first < texts->n ? texts->texts[token - texts->first]
                                                          : NULL;
}

/* The leftmost line's left edge: Freki's columns count from it. */
double _dc_export_left_margin (DcDocument *document);
double *_dc_export_block_tabscores (DcDocument *document, const DcBlock *block, double left,
                                    DcValueFunc value, gpointer user_data,
                                    const DcTokenTexts *known);

char *_dc_export_freki (DcDocument *document, DcValueFunc value, gpointer user_data);
char *_dc_export_json (DcDocument *document, DcNormalization normalization, DcValueFunc value,
                       gpointer user_data);
gboolean _dc_export_json_write (DcDocument *document, DcNormalization normalization,
                                DcValueFunc value, gpointer user_data, DcExportWriteFunc write,
                                gpointer write_data);
char *_dc_export_layout (DcDocument *document, DcValueFunc value, gpointer user_data);

G_END_DECLS
