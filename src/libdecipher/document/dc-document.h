/* dc-document.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "dc-font.h"
#include "dc-types.h"

G_BEGIN_DECLS

/* Per symbol, the text it stands for, or NULL while unknown (shown as U+FFFD). */
typedef const char *(*DcValueFunc) (guint symbol, gpointer user_data);

/* Per glyph, the text one occurrence reads when it reads otherwise than its symbol (a
 * split: one code drawn for Latin a and Cyrillic а), or NULL when it reads as its symbol. */
typedef const char *(*DcGlyphValueFunc) (guint glyph, gpointer user_data);

/* Whether any glyph reads otherwise than its symbol for this user data. */
typedef gboolean (*DcGlyphValueAnyFunc) (gpointer user_data);

void dc_value_func_add_glyph_func (DcValueFunc value, DcGlyphValueFunc glyph_value,
                                   DcGlyphValueAnyFunc any);
const char *dc_value_for_glyph (DcValueFunc value, gpointer user_data, guint glyph, guint symbol);
gboolean dc_value_reads_by_symbol (DcValueFunc value, gpointer user_data);

#define DC_TYPE_DOCUMENT (dc_document_get_type ())

G_DECLARE_FINAL_TYPE (DcDocument, dc_document, DC, DOCUMENT, GObject)

/* An immutable snapshot of the word boundaries: the tokens, the lines with their token
 * ranges, and which symbols are spaces, as they were when it was taken. Workers hold one
 * (dc_document_ref_tokens()) instead of reading the document's, which a space change
 * replaces. See the top of dc-document.c for what else is safe to read from a worker. */
typedef struct _DcTokens DcTokens;

#define DC_TYPE_TOKENS (dc_tokens_get_type ())
GType dc_tokens_get_type (void) G_GNUC_CONST;
DcTokens *dc_tokens_ref (DcTokens *tokens);
void dc_tokens_unref (DcTokens *tokens);
guint dc_tokens_get_generation (DcTokens *tokens);
const DcToken *dc_tokens_get_tokens (DcTokens *tokens, guint *n_tokens);
const DcLine *dc_tokens_get_lines (DcTokens *tokens, guint *n_lines);
gboolean dc_tokens_symbol_is_space (DcTokens *tokens, guint symbol);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcTokens, dc_tokens_unref)

/* Called from the loading thread after each page. */
typedef void (*DcProgressFunc) (guint pages_done, guint n_pages, gpointer user_data);

/* What one document may hold: a small PDF can draw one content stream on thousands of
 * pages (a "glyph bomb"), so loading stops with a sentence at these limits. */
#define DC_DOCUMENT_DEFAULT_MAX_GLYPHS 10000000
#define DC_DOCUMENT_DEFAULT_MAX_MEGABYTES 1024

typedef struct
{
  guint64 max_glyphs;    /* 0 for DC_DOCUMENT_DEFAULT_MAX_GLYPHS */
  guint64 max_megabytes; /* glyph records and texts, in MiB; 0 for the default */
} DcDocumentLimits;

void dc_document_flush_cache (void);
DcDocument *dc_document_new_from_file_full (const char *path, const char *password,
                                            const DcDocumentLimits *limits, DcProgressFunc progress,
                                            gpointer progress_data, GCancellable *cancellable,
                                            GError **error);
DcDocument *dc_document_new_from_file (const char *path, const char *password,
                                       DcProgressFunc progress, gpointer progress_data,
                                       GCancellable *cancellable, GError **error);

const char *dc_document_get_path (DcDocument *self);
const char *dc_document_get_sha256 (DcDocument *self);
const char *dc_document_get_language (DcDocument *self);
guint dc_document_get_n_pages (DcDocument *self);
void dc_document_get_page_size (DcDocument *self, guint page, double *width, double *height);

guint dc_document_get_n_fonts (DcDocument *self);
DcFont *dc_document_get_font (DcDocument *self, guint index);

const DcGlyph *dc_document_get_glyphs (DcDocument *self, guint *n_glyphs);
const DcSymbol *dc_document_get_symbols (DcDocument *self, guint *n_symbols);
const DcSymbol *dc_document_get_symbol (DcDocument *self, guint symbol);
gboolean dc_document_lookup_symbol (DcDocument *self, guint font, guint32 code, guint *symbol);
gboolean dc_document_symbol_needs_decoding (DcDocument *self, guint symbol);
void dc_document_get_page_glyphs (DcDocument *self, guint page, guint *first_glyph,
                                  guint *n_glyphs);
const guint32 *dc_document_get_symbol_glyphs (DcDocument *self, guint symbol, guint *n_glyphs);

const guint32 *dc_document_get_reading_order (DcDocument *self, guint *n_glyphs);
const DcLine *dc_document_get_lines (DcDocument *self, guint *n_lines);
const DcToken *dc_document_get_tokens (DcDocument *self, guint *n_tokens);
void dc_document_get_page_lines (DcDocument *self, guint page, guint *first_line, guint *n_lines);
gboolean dc_document_locate_glyph (DcDocument *self, guint glyph, guint *position, guint *line);
const DcBlock *dc_document_get_blocks (DcDocument *self, guint *n_blocks);
void dc_document_get_page_blocks (DcDocument *self, guint page, guint *first_block,
                                  guint *n_blocks);

DcTokens *dc_document_ref_tokens (DcDocument *self);
guint dc_document_get_tokens_generation (DcDocument *self);
gboolean dc_document_symbol_is_space (DcDocument *self, guint symbol);
void dc_document_set_symbol_is_space (DcDocument *self, guint symbol, gboolean is_space);

const char *dc_document_get_actual_text (DcDocument *self, guint glyph, guint *first_glyph,
                                         guint *n_glyphs);
guint dc_document_get_n_actual_texts (DcDocument *self);

G_END_DECLS
