/* dc-document-private.h: what the engine reaches inside DcDocument: the loader
 * (dc-document.c), its cache (dc-document-cache.c) and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-trust-private.h"

G_BEGIN_DECLS

/* The /ActualText of a run of glyphs: glyphs [first_glyph, first_glyph + n_glyphs) in
 * content-stream order stand together for the text at span_texts + text. */
typedef struct
{
  guint32 first_glyph;
  guint32 n_glyphs;
  guint32 text;
} ActualTextSpan;

struct _DcDocument
{
  GObject parent_instance;

  char *path;
  char *sha256;
  char *language; /* the catalog's /Lang, or NULL */
  guint n_pages;
  double *page_sizes; /* width, height per page */
  guint *page_lines;  /* first line of each page, n_pages + 1 entries */
  guint *page_blocks; /* first block of each page, n_pages + 1 entries */

  GPtrArray *fonts;         /* of DcFont */
  GArray *glyphs;           /* of DcGlyph, page by page in content-stream order */
  GArray *symbols;          /* of DcSymbol */
  GHashTable *symbol_index; /* (font << 32 | code) → symbol + 1 */
  guint8 *symbol_is_space;
  guint space_capacity;

  GArray *spans;       /* of ActualTextSpan, by first glyph */
  GString *span_texts; /* their texts, NUL-separated */

  GArray *order;  /* of guint32: glyph indices in reading order */
  GArray *lines;  /* of DcLine; token ranges copied from the current snapshot */
  GArray *blocks; /* of DcBlock */

  DcTokens *tokens; /* the current snapshot */

  /* Made the first time it is asked for (_dc_document_get_font_lines()): each font's
   * lines, font after font; starts has n_fonts + 1 entries. */
  gsize font_lines_made;
  guint32 *font_lines;
  guint *font_line_starts;
  /* Likewise (_dc_document_get_font_symbols()): each font's symbols, font after font. */
  gsize font_symbols_made;
  guint32 *font_symbols;
  guint *font_symbol_starts;

  /* Built on the first question, from any thread (dc-document-index.c). */
  guint32 *page_glyphs;   /* first glyph of each page, n_pages + 1 entries */
  guint32 *symbol_glyphs; /* n_symbols + 1 offsets, then glyph indices by symbol */
};

/* Made whole, then never changed: the threads that hold it need no lock. */
struct _DcTokens
{
  /* g_atomic_int_*() rather than grefcount: they are inlined, so that ThreadSanitizer
   * sees the order they make between the threads that drop references. */
  int ref_count;
  guint generation;
  DcLine *lines; /* with their token ranges */
  guint n_lines;
  DcToken *tokens;
  guint n_tokens;
  guint8 *symbol_is_space;
  guint n_symbols;
};

void _dc_document_resolve_limits (const DcDocumentLimits *limits, guint64 *max_glyphs,
                                  guint64 *max_bytes);
DcDocument *_dc_document_new_from_file_threads (const char *path, const char *password,
                                                const DcDocumentLimits *limits, guint n_threads,
                                                DcProgressFunc progress, gpointer progress_data,
                                                GCancellable *cancellable, GError **error);

/* The loader's passes, each in the file that says so (dc-document-loader.c runs them). */
void _dc_document_clear_symbol (gpointer data);
gboolean _dc_document_merge_double_byte (DcDocument *self);
void _dc_document_finish_symbols (DcDocument *self);
gboolean _dc_document_unspace_inked_symbols (DcDocument *self);
guint8 *_dc_document_symbol_letter_kinds (DcDocument *self);
/* Lays out every page and splits its lines into tokens at the spaces the document's
 * symbol_is_space says, page by page while its glyphs are at hand: the lines, blocks and
 * first token snapshot of a document that has none. Returns the tokens counted for
 * dc_trust_analyse(), to free with _dc_trust_count_free(). */
DcTrustCount *_dc_document_lay_out_pages (DcDocument *self, const guint *page_first_glyph,
                                          const guint8 *letter_kinds, guint n_threads);
void _dc_document_retokenize (DcDocument *self, guint8 *symbol_is_space, guint n_threads);
void _dc_document_take_tokens (DcDocument *self, guint8 *symbol_is_space, DcToken *array,
                               guint n_tokens);
/* Closes up tokens split in parts: part p of @n_parts split the lines [@part_lines[p],
 * @part_lines[p + 1]) into @part_tokens[p] tokens stored from @tokens[@part_places[p]],
 * having faulted in a token's room every SPLIT_GLYPHS_PER_TOKEN places up to the next
 * part's place (the last: @n_places). Moves them down to follow one another, the lines'
 * first_token with them, gives back the room left over and returns their number. */
guint _dc_tokens_close_up (DcToken *tokens, DcLine *lines, guint n_parts, const guint *part_lines,
                           const guint *part_places, const guint *part_tokens, guint n_places);

/* Text has a word every five or six glyphs: a part splitting lines into tokens faults in
 * room for a token this many of their glyphs. */
#define SPLIT_GLYPHS_PER_TOKEN 6

const guint32 *_dc_document_get_font_lines (DcDocument *self, const guint **starts);
const guint32 *_dc_document_get_font_symbols (DcDocument *self, const guint **starts);

G_END_DECLS
