/* dc-align-private.h: aligning typed characters with a run of glyphs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-key.h"

G_BEGIN_DECLS

/* In typed input, stands for one punctuation glyph the user left out (a comma after a
 * word, an opening quote): it spells that glyph without learning it. A noncharacter, so
 * that nobody types it; the matcher refuses it in input. */
#define DC_TYPED_OMITTED_PUNCTUATION 0xFDD1

/* Typed input, prepared for alignment with glyphs in drawing order. */
typedef struct
{
  GArray *chars;       /* gunichar, NFD, words concatenated in visual order */
  GArray *word_end;    /* guint: index in chars after each word */
  GArray *cluster_end; /* guint per char: end of the grapheme cluster starting there */
  GArray *n_clusters;  /* guint per word */
  /* guint8 per char: the alef of a lam-alef, kept after its lam (_dc_visual_order_marked()). In
   * visual order ل ا is that, or the ا and ل of ال reversed: only this tells them apart. */
  GArray *lam_alef;
  gboolean right_to_left;
  /* Whether chars [start, end) may be one ligature's glyph, asked of every run a query
   * aligns: at start * (len + 1) + end, 0 not yet known, 1 no, 2 yes; NULL for a long
   * input, which is asked afresh. */
  guint8 *ligature_memo;
} Typed;

typedef struct
{
  guint symbol;
  guint start; /* in the typed chars */
  guint length;
  gboolean contradicts; /* disagrees with a value held (relaxed search only) */
} Binding;

typedef struct
{
  DcDocument *document;
  DcKey *key;
  GPtrArray *nfd_values; /* symbol → GArray of gunichar, NULL when unknown */
  GHashTable *holders;   /* "font\x1fvalue" → symbol + 1, see _dc_holder_key() */
  guint32 *held_cache;   /* (nullable) see _dc_held_cache_new() */
  const Typed *typed;
  const guint32 *symbols;   /* the run's glyphs */
  const guint *token_end;   /* glyph index after each token */
  const guint8 *no_advance; /* per glyph of the run: drawn over its neighbour, or NULL */
  gboolean relaxed;         /* let inferred and confirmed values be contradicted */
  gboolean relax_all;       /* and a trusted font's values */
  /* The typed word breaks need not fall where the run's tokens end: the whole input is
   * read across n_tokens tokens, a token ending at any cluster boundary (a compound the
   * page draws as two runs, a danda typed apart but drawn against its word). */
  gboolean free_words;
  guint n_tokens;
  /* When not 0: a reading of the first this many words is a whole reading (see
   * _dc_search_run()). */
  guint n_words_only;
  GArray *bindings;
  int cost;
  guint contradictions;
  guint inconsistencies;
  guint steps;
  gboolean gave_up; /* the search stopped at its limit of steps, before it was done */
  /* typed chars [swapped_start, swapped_end) already spelled by a glyph drawn before
   * the one of what precedes them (ঁ before া in তাঁ), to pass over when the search
   * reaches them; swapped_end is 0 when none */
  guint swapped_start;
  guint swapped_end;
  /* best so far */
  gboolean found;
  int best_cost;
  guint best_contradictions; /* counting inconsistencies too */
  guint best_inconsistencies;
  GArray *best;
} Search;

GArray *_dc_nfd_of (const char *text);
GArray *_dc_nfd_visual_of (const char *text);
guint32 *_dc_held_cache_new (const Typed *typed);
char *_dc_holder_key (guint font, const char *value);
char *_dc_chars_to_nfc (const Typed *typed, guint start, guint length);
void _dc_typed_prepare (Typed *typed, char **words, gboolean right_to_left);
void _dc_typed_clear (Typed *typed);
guint _dc_typed_n_words (const Typed *typed);
guint _dc_typed_word_start (const Typed *typed, guint word);
void _dc_search_run (Search *search);
gboolean _dc_align_continues_cluster (gunichar c);
guint _dc_align_glyph_reach (const GArray *known);
guint _dc_align_unknown_reach (const Typed *typed, guint word);
guint _dc_align_word_reach (const Typed *typed, guint word);

/* @logical: NFD code points of one typed word. Returns them in the order the glyphs
 * are drawn: pre-base vowel signs of Indic scripts before their consonant cluster, and
 * clusters reversed for right-to-left text. */
GArray *_dc_visual_order (const GArray *logical, gboolean right_to_left);
GArray *_dc_visual_order_marked (const GArray *logical, gboolean right_to_left, GArray *lam_alef);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Typed, _dc_typed_clear)

G_END_DECLS
