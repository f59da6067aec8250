/* dc-export-json-private.h: what the files of the JSON export share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up the JSON export include this (dc-export-json.c,
 * dc-export-json-blocks.c, dc-export-json-spans.c): everyone else goes through
 * dc-export-private.h.
 */

#pragma once

#include "dc-export-private.h"
#include "dc-key.h"
#include "dc-language.h"
#include "dc-text-cache-private.h"

G_BEGIN_DECLS

/* Where one symbol's value comes from. */
typedef struct
{
  const char *value;
  gsize length; /* of what the glyph reads: the value, or U+FFFD */
  DcKeyStatus status;
  DcKeyLevel level;
  double confidence;
  const char *provenance;
  /* The members above as a run writes them (_dc_export_json_add_origin()), compact,
   * written once per symbol; NULL for a split's, written with each run. */
  const char *members_json;
  gsize members_json_length;
  /* What the glyph reads needs no escaping (dc_json_writer_is_plain()): a run made of
   * such is written without looking at it again. */
  gboolean plain;
  /* What dc_text_get_script() counts of what the glyph reads: the one script of its
   * letters (script_letters of them, COMMON for none) and its U+FFFD; script_known is
   * FALSE where that function must read the text itself (letters of several scripts,
   * or no UTF-8). */
  gboolean script_known;
  GUnicodeScript script;
  guint script_letters;
  guint unknowns;
  /* Its strong characters, as the line's metadata counts them (dc-export.c), where
   * script_known. */
  guint ltr_strong, rtl_strong;
  /* What the glyph reads passes _dc_export_is_normalized() in the export's form: a text
   * of such values and spaces does too, character by character. */
  gboolean normalized;
  /* The letters a block counts of what the glyph reads (dc-export-json-blocks.c): all of
   * one script, letter_script, letters of them, where letters_known (valid UTF-8, and
   * letters of one script if any). */
  gboolean letters_known;
  GUnicodeScript letter_script;
  guint letters;
  /* The script token_script() finds first in what the glyph reads (dc-export-json-spans.c),
   * COMMON for none. */
  GUnicodeScript first_script;
  /* What the glyph reads, when length <= 8 (and not split off), padded with zeros: copied
   * in one move of 8 bytes. */
  gboolean short_value;
  char bytes[8];
  /* Origins alike for same_origin() (dc-export-json-spans.c) have one kind; G_MAXUINT
   * for one compared member by member (a split's, a NaN confidence). */
  guint kind;
} Origin;

typedef struct
{
  DcDocument *document;
  DcValueFunc value;
  gpointer user_data;
  DcKey *key; /* when the values come from a key: where each came from */
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcToken *tokens;
  guint8 *token_start; /* per reading-order position: starts a token */
  guint32 *token_at;   /* per reading-order position: the token it starts */
  DcNormalization normalization;
  Origin *origins;    /* per symbol: asked once, read for each of its glyphs */
  guint8 *split;      /* per symbol: some of its glyphs are split off it; NULL with no key */
  guint8 *space;      /* per symbol: a word separator, as the document says */
  GPtrArray *escaped; /* the origins' members as JSON */
  /* The symbols' texts as the text export reads them, or NULL when some glyph reads
   * otherwise than its symbol (dc-text-cache.c). */
  DcTextCache *text_cache;
  double left_margin;

  /* Under the lock: the language guessed so far, by dc_language_guess_key() (the prior
   * and the part of the text the detector reads): a book repeats its running heads,
   * notes and boilerplate, and the detector is most of the export's time. */
  GMutex lock;
  GHashTable *guesses;
  gsize guessed_bytes;
} Export;

gboolean _dc_export_json_guess_language (Export *e, const char *text, const char *declared,
                                         DcLanguageGuess *out);
gboolean _dc_export_json_letter_script (gunichar c, GUnicodeScript *script);
GUnicodeScript _dc_export_json_first_script (const char *value);
void _dc_export_json_add_origin (DcJsonWriter *w, const Origin *origin);
void _dc_export_json_add_bbox (DcJsonWriter *w, float x0, float y0, float x1, float y1);

/* A box as _dc_export_json_add_bbox() wrote it last, to be written again: a line's spans
 * are most often one, whose box is the line's. */
typedef struct
{
  float box[4];
  gsize length; /* of json; 0 for none */
  char json[160];
} KeptBbox;

void _dc_export_json_add_bbox_kept (DcJsonWriter *w, KeptBbox *kept, float x0, float y0, float x1,
                                    float y1);
void _dc_export_json_add_language (DcJsonWriter *w, const DcLanguageGuess *guess);
/* The buffers _dc_export_json_add_spans() works in, kept for a page's lines. */
typedef struct _SpanScratch SpanScratch;

SpanScratch *_dc_export_json_span_scratch_new (void);
void _dc_export_json_span_scratch_free (SpanScratch *scratch);
KeptBbox *_dc_export_json_span_scratch_bbox (SpanScratch *scratch);
/* @plain: the line's text is its glyphs' values in drawn order, its tokens apart by one
 * space (LineText.split in dc-export-json-blocks.c) */
void _dc_export_json_add_spans (Export *e, DcJsonWriter *w, guint l, gboolean rtl, gboolean plain,
                                const DcLanguageGuess *block_language, GUnicodeScript block_script,
                                const DcTokenTexts *known, SpanScratch *scratch);
void _dc_export_json_add_page (Export *e, DcJsonWriter *w, guint page);

G_END_DECLS
