/* dc-matcher-private.h: what the files of DcMatcher share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up DcMatcher include this (dc-matcher.c, dc-matcher-index.c,
 * dc-matcher-scan.c, dc-matcher-memo.c, dc-matcher-decide.c): everyone else goes through
 * dc-matcher.h.
 */

#pragma once

#include "dc-matcher.h"
#include "dc-align-private.h"

G_BEGIN_DECLS

#define DC_MATCHER_MAX_REPORTED_PLACES 20
/* In DcMatcher's reach: an unknown symbol's, which depends on the word; and a known
 * value's of this many cluster ends or more. */
#define DC_MATCHER_REACH_UNKNOWN 255
#define DC_MATCHER_REACH_FAR 254

struct _DcMatcher
{
  GObject parent_instance;

  DcKey *key;
  DcDocument *document;
  gulong changed_handler;

  /* Index over the current tokens. */
  guint index_generation;
  gboolean index_built;
  GPtrArray *by_length; /* glyph count → GArray of guint token ids */
  /* glyph count → GArray of guint: the first token of each token type of that count, in
   * reading order. A one-word scan aligns each token type once: here it meets each
   * once, where the tokens of a long word's range are three times as many. */
  GPtrArray *types_by_length;
  guint32 *token_type; /* token → id of its distinct symbol sequence */
  /* token → its glyph count, G_MAXUINT8 for that many or more (then read the token). An
   * uncued query checks the counts of tens of thousands of runs a scan, each at a jump
   * through the tokens: at a byte a token they are twelve times denser than the tokens
   * themselves, and on a book of 9 M glyphs that check was most of a query's time. */
  guint8 *token_glyphs;
  guint n_types;
  /* In reading order (as tokens count their glyphs): each glyph's symbol, and whether it
   * is drawn over its neighbour. A query reads the glyphs of thousands of runs: here
   * they are side by side, where the glyphs themselves are scattered in memory. */
  guint32 *order_symbol;
  guint8 *order_no_advance;

  /* Known values as NFD code points, and who holds which value, rebuilt on change. */
  gboolean values_dirty;
  GPtrArray *nfd_values; /* symbol → GArray of gunichar, NULL when unknown */
  GHashTable *holders;   /* "font\x1fvalue" → symbol + 1 */
  guint8 *reach;         /* symbol → _dc_align_glyph_reach() of its value, see below */
  gboolean has_silent;   /* some symbol is known to spell nothing (an empty value) */

  GPtrArray *conflicts; /* of DcConflict */

  /* During one query (emptied when it starts and when the key changes): for a typed word
   * and a way of searching, which token types may spell it. A query that finds nothing
   * scans the document some thirty times (relaxed, to explain, leaving punctuation out,
   * the words as one), mostly for the same words. GBytes → guint8 per token type.
   * It keeps for the query's scans, too, each typed input's held cache (_dc_held_cache_new())
   * and, for each set of glyph counts, the runs that have them (see query_memo()). */
  GHashTable *fit_cache;

  /* A one-word scan's seen runs are its token types: per token type, the scan that saw
   * it last (a number each scan takes anew, so nothing is cleared between scans) and its
   * index in that scan's seen runs + 1. Sized for n_types when first needed. */
  guint32 *type_seen_scan;
  guint32 *type_seen_index;
  guint n_seen_types;
  guint32 seen_scan;
};

enum
{
  DC_MATCHER_CONFLICTS_CHANGED,
  DC_MATCHER_N_SIGNALS
};

extern guint _dc_matcher_signals[DC_MATCHER_N_SIGNALS];

typedef struct
{
  char *signature;
  int cost;
  guint contradictions;
  guint inconsistencies;
  guint n_new;
  GArray *bindings; /* of Binding */
  GArray *places;   /* of guint: first token of each run that reads this way */
} Candidate;

typedef struct
{
  int line;            /* cue, or -1 */
  int line_end;        /* with a cue: the lines from @line to this one (excluded) */
  int token;           /* cue within the line, or -1 */
  gboolean relaxed;    /* inferred and confirmed values may be contradicted */
  gboolean relax_all;  /* a trusted font's values too (to explain a failure) */
  guint shaped_runs;   /* runs whose glyph counts fit, whatever their symbols */
  gboolean has_silent; /* some symbol is known to spell nothing (an empty value) */
} Query;

typedef struct
{
  guint64 hash;
  guint index; /* 0: an empty slot */
} SeenSlot;

/* A sequence of token types already aligned: where, and what it gave (NULL: nothing). */
typedef struct
{
  guint start;
  gpointer candidate;
} SeenRun;

/* What one scan for candidates reads and fills, worked out once rather than per run. */
typedef struct
{
  const DcGlyph *glyphs;
  const guint32 *order;
  const guint32 *order_symbol;    /* (nullable) see DcMatcher */
  const guint8 *order_no_advance; /* (nullable) */
  const DcToken *tokens;
  const guint8 *token_glyphs; /* see DcMatcher */
  guint n_tokens;
  guint *lo, *hi;           /* per typed word: the glyph counts that may spell it */
  GHashTable *by_signature; /* signature → Candidate */
  GPtrArray *candidates;
  /* (nullable) by the hash of a run's token types: its index in seen_runs + 1 */
  SeenSlot *seen;
  /* (nullable) one word: the matcher's tables by token type instead (see DcMatcher) */
  guint32 *type_seen_scan;
  guint32 *type_seen_index;
  guint32 scan_number;
  guint seen_bits; /* the table has 1 << seen_bits slots */
  /* A plain array, grown by doubling: a one-word scan files each of tens of thousands of
   * token types, which a GArray's append made cost as much as the scan's own loop. */
  SeenRun *seen_runs;
  guint n_seen_runs;
  guint seen_runs_size;
  /* (nullable) per token type, for a run that starts with it: 0 not asked yet, 1 it
   * cannot spell the first typed word, 2 it may */
  guint8 *first_word;
  /* (nullable) for each typed word after the first: that word alone (prepared as the
   * query prepares it), its held cache, and per token type whether it may spell it, as
   * first_word says of the first */
  Typed *lone_words;
  guint32 **lone_held; /* owned by the matcher's fit_cache, as lone_fit */
  guint8 **lone_fit;   /* owned by the matcher's fit_cache */
  /* (nullable) searching relaxed: the same tables of the query's strict search, if it
   * made them, whose answers hold for the token types that relaxing does not change */
  guint8 *first_word_strict;
  guint8 **lone_fit_strict;
  /* (nullable) per token type: how many of its glyphs are known to spell nothing, + 1
   * (0: not counted yet) */
  guint *n_silent;
  guint32 *held_cache;
  /* Per typed word: how many of its cluster ends a token's glyphs must be able to pass
   * to spell it (see _dc_align_glyph_reach()), and whether each glyph may pass one as a
   * left-out punctuation mark */
  guint *word_reach;
  gboolean *word_omits;
  guint *word_unknown_reach; /* per typed word: _dc_align_unknown_reach() */
  /* per typed word, per token type: 0 not asked yet, 1 it cannot reach the word's end, 2 it
   * may; owned by the matcher's fit_cache, shared by the scans that need the same reach */
  guint8 **reach_fit;
  /* Scratch for the run being aligned, reused from run to run rather than allocated for
   * each of the thousands a query may look at. */
  guint32 *run_symbols;
  guint8 *run_no_advance;
  guint *run_token_end;
  guint run_capacity; /* glyphs run_symbols and run_no_advance hold */
  GArray *run_bindings;
  GArray *run_best; /* the search's best reading, copied when it is kept */
} Scan;

/* Where to look: the line the user pointed at (a hard cue), or the lines in view (a soft
 * one, which only wins when they fit, or fit but for one of the user's values). */
typedef struct
{
  int line;     /* or -1: anywhere */
  int line_end; /* the lines from @line to this one (excluded) */
  int token;    /* with a hard cue on one line: the token the run starts at, or -1 */
  gboolean soft;
  /* A no-match here is never shown (another way of reading the input is tried next), so
   * it needs no reason: explaining one scans the document again, every value relaxed. */
  gboolean unexplained;
} Cue;

/* dc-matcher-index.c */
gboolean _dc_matcher_glyph_has_no_advance (const DcGlyph *glyph);
void _dc_matcher_ensure_index (DcMatcher *self);
void _dc_matcher_ensure_values (DcMatcher *self);

/* dc-matcher-scan.c */
void _dc_matcher_scan_clear (Scan *scan);
char *_dc_matcher_make_signature (const Typed *typed, GArray *bindings, guint *n_new);
int _dc_matcher_compare_candidates (gconstpointer a, gconstpointer b);
guint _dc_matcher_gather_run (Scan *scan, guint start, guint n_words);
GPtrArray *_dc_matcher_find_candidates (DcMatcher *self, const Typed *typed, Query *query);

/* dc-matcher-memo.c */
gpointer _dc_matcher_query_memo (DcMatcher *self, GByteArray *key, GBytes **bytes);
guint32 *_dc_matcher_shared_held_cache (DcMatcher *self, const Typed *typed);
guint8 *_dc_matcher_fit_table (DcMatcher *self, const Typed *typed, const Query *query, guint w,
                               char kind);
guint8 *_dc_matcher_strict_fit_table (DcMatcher *self, const Typed *typed, const Query *query,
                                      guint w, char kind);
void _dc_matcher_prepare_word_reach (DcMatcher *self, const Typed *typed, guint word, Scan *scan,
                                     guint w);
void _dc_matcher_lone_words_init (DcMatcher *self, const Typed *typed, const Query *query,
                                  Scan *scan);
void _dc_matcher_lone_words_clear (Scan *scan, guint n_words);
void _dc_matcher_one_word_seen_tables (DcMatcher *self, Scan *scan);

/* dc-matcher-decide.c */
DcMatchResult *_dc_matcher_match_at (DcMatcher *self, char **words, const char *normalized,
                                     const Cue *cue);

G_END_DECLS
