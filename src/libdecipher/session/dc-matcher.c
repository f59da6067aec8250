/* dc-matcher.c: typed words → the glyph runs they spell → new table entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The user types what they read; the document holds runs of tokens whose symbols are
 * partly unknown. A run fits when its tokens can be aligned with the typed words: every
 * known symbol spells exactly its value, an unknown symbol spells the same text wherever
 * it recurs, and each glyph takes one grapheme cluster, or one code point of it (a mark
 * drawn as its own glyph), or several clusters (a ligature, at a cost). Candidates are
 * found through an index of tokens by glyph count, so a query looks at the few runs of
 * the right shape rather than the whole book. When exactly one distinct reading fits,
 * its unknown symbols are learned in one undoable change; values already held are never
 * overwritten here — a disagreement becomes a conflict for the user to resolve.
 * docs/architecture.md says where the rest of a typed query is decided.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include <fribidi.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-matcher.h"
#include "dc-align-private.h"

#define DECISIVE_MARGIN 2 /* the best reading must beat the next by this much */
#define MAX_REPORTED_PLACES 20
/* Trying each place a left-out mark may stand matches the input 2 × words times: cheap for
 * the line or two people type, but a pasted page of 1,000 words took a second (eight
 * under the sanitizers) to answer "no match". Beyond this, the input is matched as typed. */
#define MAX_WORDS_FOR_OMISSIONS 48

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
  guint32 *token_type;  /* token → id of its distinct symbol sequence */
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

  GPtrArray *conflicts; /* of DcConflict */
};

G_DEFINE_FINAL_TYPE (DcMatcher, dc_matcher, G_TYPE_OBJECT)

enum
{
  CONFLICTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char *
dc_match_kind_to_string (DcMatchKind kind)
{
  switch (kind)
    {
    case DC_MATCH_ASSIGNED:
      return "assigned";
    case DC_MATCH_AMBIGUOUS:
      return "ambiguous";
    case DC_MATCH_CONFLICT:
      return "conflict";
    case DC_MATCH_KNOWN:
      return "known";
    case DC_MATCH_NO_MATCH:
    default:
      return "no-match";
    }
}

void
dc_conflict_free (DcConflict *conflict)
{
  if (conflict == NULL)
    return;
  g_free (conflict->current);
  g_free (conflict->current_provenance);
  g_free (conflict->proposed);
  g_free (conflict->proposed_provenance);
  g_free (conflict);
}

static void
clear_learned (gpointer data)
{
  DcLearned *learned = data;

  g_clear_pointer (&learned->text, g_free);
}

static DcMatchResult *
match_result_new (DcMatchKind kind)
{
  DcMatchResult *result = g_new0 (DcMatchResult, 1);

  result->kind = kind;
  result->places = g_array_new (FALSE, FALSE, sizeof (DcMatchPlace));
  result->learned = g_array_new (FALSE, FALSE, sizeof (DcLearned));
  g_array_set_clear_func (result->learned, clear_learned);
  result->conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
  return result;
}

void
dc_match_result_free (DcMatchResult *result)
{
  if (result == NULL)
    return;
  g_array_unref (result->places);
  g_array_unref (result->learned);
  g_ptr_array_unref (result->conflicts);
  g_free (result->reason);
  g_free (result);
}

static void
on_key_changed (DcMatcher *self, guint symbol, DcKey *key)
{
  self->values_dirty = TRUE;
}

static void
dc_matcher_dispose (GObject *object)
{
  DcMatcher *self = DC_MATCHER (object);

  g_clear_signal_handler (&self->changed_handler, self->key);
  g_clear_object (&self->key);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (dc_matcher_parent_class)->dispose (object);
}

static void
dc_matcher_finalize (GObject *object)
{
  DcMatcher *self = DC_MATCHER (object);

  g_clear_pointer (&self->by_length, g_ptr_array_unref);
  g_clear_pointer (&self->token_type, g_free);
  g_clear_pointer (&self->order_symbol, g_free);
  g_clear_pointer (&self->order_no_advance, g_free);
  g_clear_pointer (&self->nfd_values, g_ptr_array_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);

  G_OBJECT_CLASS (dc_matcher_parent_class)->finalize (object);
}

static void
dc_matcher_class_init (DcMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dc_matcher_dispose;
  object_class->finalize = dc_matcher_finalize;

  /**
   * DcMatcher::conflicts-changed:
   *
   * A conflict was raised, restored or resolved: the list of open ones is not what it
   * was. (A project keeps them, see dc_project_set_matcher().)
   */
  signals[CONFLICTS_CHANGED] = g_signal_new ("conflicts-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             0);
}

static void
dc_matcher_init (DcMatcher *self)
{
  self->values_dirty = TRUE;
  self->conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
}

/**
 * dc_matcher_new:
 * @key: the table the matcher reads and fills
 *
 * Returns: (transfer full): a matcher over @key's document
 */
DcMatcher *
dc_matcher_new (DcKey *key)
{
  DcMatcher *self;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);

  self = g_object_new (DC_TYPE_MATCHER, NULL);
  self->key = g_object_ref (key);
  self->document = g_object_ref (dc_key_get_document (key));
  self->changed_handler = g_signal_connect_swapped (key, "changed", G_CALLBACK (on_key_changed),
                                                    self);
  return self;
}

/* ------------------------------------------------------------------------ */
/* The index                                                                 */

struct _DcMatcherIndex
{
  DcDocument *document;
  DcTokens *tokens;      /* the snapshot it indexes: never changes */
  const DcGlyph *glyphs; /* never change once the document is loaded */
  const guint32 *order;
  gboolean built;
  GPtrArray *by_length;
  guint32 *token_type;
  guint n_types;
  guint32 *order_symbol;
  guint8 *order_no_advance;
};

/**
 * dc_matcher_index_new:
 * @document: the document whose tokens to index
 *
 * Takes a reference to @document's current tokens snapshot, so that
 * dc_matcher_index_build() can run in another thread while this one goes on changing
 * the key (and so the tokens). Cheap: no copy.
 *
 * Returns: (transfer full): an index to build, then to give to dc_matcher_adopt_index()
 */
DcMatcherIndex *
dc_matcher_index_new (DcDocument *document)
{
  DcMatcherIndex *index;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  index = g_new0 (DcMatcherIndex, 1);
  index->document = g_object_ref (document);
  index->tokens = dc_document_ref_tokens (document);
  index->glyphs = dc_document_get_glyphs (document, NULL);
  index->order = dc_document_get_reading_order (document, NULL);
  return index;
}

void
dc_matcher_index_free (DcMatcherIndex *index)
{
  if (index == NULL)
    return;
  g_clear_object (&index->document);
  g_clear_pointer (&index->tokens, dc_tokens_unref);
  g_clear_pointer (&index->by_length, g_ptr_array_unref);
  g_clear_pointer (&index->token_type, g_free);
  g_clear_pointer (&index->order_symbol, g_free);
  g_clear_pointer (&index->order_no_advance, g_free);
  g_free (index);
}

/* "1f,3," for symbols 0x1f, 0x3: a token's symbol sequence as a hash key, without the
 * cost of printf for each of a million glyphs. */
static void
append_symbol (GString *sequence, guint32 symbol)
{
  static const char digits[] = "0123456789abcdef";
  char buffer[10];
  guint n = 0;

  do
    {
      buffer[n++] = digits[symbol & 0xf];
      symbol >>= 4;
    }
  while (symbol != 0);
  while (n > 0)
    g_string_append_c (sequence, buffer[--n]);
  g_string_append_c (sequence, ',');
}

/* A glyph drawn over its neighbour is a mark, not a letter (dc-align.c). */
static gboolean
glyph_has_no_advance (const DcGlyph *glyph)
{
  return fabsf (dc_glyph_get_advance (glyph)) < 0.1f * MAX (dc_glyph_get_size (glyph), 0.5f);
}

static void
index_glyphs_in_order (DcMatcherIndex *index)
{
  guint n_glyphs;

  dc_document_get_reading_order (index->document, &n_glyphs);
  index->order_symbol = g_new (guint32, MAX (1, n_glyphs));
  index->order_no_advance = g_new (guint8, MAX (1, n_glyphs));
  for (guint k = 0; k < n_glyphs; k++)
    {
      const DcGlyph *glyph = &index->glyphs[index->order[k]];

      index->order_symbol[k] = glyph->symbol;
      index->order_no_advance[k] = glyph_has_no_advance (glyph);
    }
}

/**
 * dc_matcher_index_build:
 *
 * Builds the index from the snapshot: tokens by glyph count, and which tokens spell the
 * same symbols. The costly part (~100 ms for a million glyphs); it touches nothing but
 * @index and the document's glyphs, which never change, so any thread may run it.
 */
void
dc_matcher_index_build (DcMatcherIndex *index)
{
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GString) sequence = g_string_new (NULL);
  const DcToken *tokens;
  guint n_tokens;

  g_return_if_fail (index != NULL);

  if (index->built)
    return;
  tokens = dc_tokens_get_tokens (index->tokens, &n_tokens);
  index->by_length = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  index->token_type = g_new (guint32, MAX (1, n_tokens));
  types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &tokens[t];
      guint length = token->n_glyphs;
      gpointer type;

      while (index->by_length->len <= length)
        g_ptr_array_add (index->by_length, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_array_append_val (g_ptr_array_index (index->by_length, length), t);

      g_string_truncate (sequence, 0);
      for (guint k = token->first_glyph; k < token->first_glyph + length; k++)
        append_symbol (sequence, index->glyphs[index->order[k]].symbol);
      if (!g_hash_table_lookup_extended (types, sequence->str, NULL, &type))
        {
          type = GUINT_TO_POINTER (g_hash_table_size (types));
          g_hash_table_insert (types, g_strdup (sequence->str), type);
        }
      index->token_type[t] = GPOINTER_TO_UINT (type);
    }
  index->n_types = g_hash_table_size (types);
  index_glyphs_in_order (index);
  index->built = TRUE;
}

/**
 * dc_matcher_has_index:
 *
 * Returns: whether the matcher's index fits the document's tokens as they are, so that
 *   dc_matcher_type() will not build one first
 */
gboolean
dc_matcher_has_index (DcMatcher *self)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);

  return self->index_built
         && self->index_generation == dc_document_get_tokens_generation (self->document);
}

/**
 * dc_matcher_adopt_index:
 * @index: an index built with dc_matcher_index_build()
 *
 * Takes @index's tables over, if they still fit the document: a space learned since the
 * snapshot was taken changes the tokens, and then the index is of no use.
 *
 * Returns: whether the index was taken
 */
gboolean
dc_matcher_adopt_index (DcMatcher *self, DcMatcherIndex *index)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);
  g_return_val_if_fail (index != NULL, FALSE);

  if (!index->built || index->document != self->document
      || dc_tokens_get_generation (index->tokens)
             != dc_document_get_tokens_generation (self->document))
    return FALSE;
  if (dc_matcher_has_index (self))
    return TRUE;
  g_clear_pointer (&self->by_length, g_ptr_array_unref);
  g_clear_pointer (&self->token_type, g_free);
  self->by_length = g_steal_pointer (&index->by_length);
  self->token_type = g_steal_pointer (&index->token_type);
  g_clear_pointer (&self->order_symbol, g_free);
  g_clear_pointer (&self->order_no_advance, g_free);
  self->order_symbol = g_steal_pointer (&index->order_symbol);
  self->order_no_advance = g_steal_pointer (&index->order_no_advance);
  self->n_types = index->n_types;
  self->index_generation = dc_tokens_get_generation (index->tokens);
  self->index_built = TRUE;
  index->built = FALSE;
  return TRUE;
}

static void
ensure_index (DcMatcher *self)
{
  g_autoptr (DcMatcherIndex) index = NULL;

  if (dc_matcher_has_index (self))
    return;
  index = dc_matcher_index_new (self->document);
  dc_matcher_index_build (index);
  dc_matcher_adopt_index (self, index);
}

static void
free_value (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

static void
ensure_values (DcMatcher *self)
{
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (self->document, &n_symbols);

  if (!self->values_dirty && self->nfd_values != NULL)
    return;

  g_clear_pointer (&self->nfd_values, g_ptr_array_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  self->nfd_values = g_ptr_array_new_full (n_symbols, free_value);
  self->holders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* Symbols' values only, never a split occurrence's (dc_key_split()): the matcher learns
   * what a code reads, its token types are sequences of codes shared by every occurrence,
   * and a split is the user's exception to that, which no typed word should overturn. */
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (self->key, s);

      g_ptr_array_add (self->nfd_values, value != NULL ? _dc_nfd_visual_of (value) : NULL);
      if (value != NULL && *value != '\0' && dc_document_symbol_needs_decoding (self->document, s))
        g_hash_table_insert (self->holders, _dc_holder_key (symbols[s].font, value),
                             GUINT_TO_POINTER (s + 1));
    }
  self->values_dirty = FALSE;
}

/* ------------------------------------------------------------------------ */
/* Candidates                                                                */

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

static void
candidate_free (Candidate *candidate)
{
  g_free (candidate->signature);
  g_array_unref (candidate->bindings);
  g_array_unref (candidate->places);
  g_free (candidate);
}

static int
compare_bindings (gconstpointer a, gconstpointer b)
{
  const Binding *ba = a, *bb = b;

  return ba->symbol < bb->symbol ? -1 : ba->symbol > bb->symbol;
}

/* Appends @value in hex and a separator: a signature is compared often and printed never,
 * so it is built without printf or normalisation. */
static void
append_hex (GString *signature, guint32 value, char separator)
{
  static const char digits[] = "0123456789abcdef";
  char buffer[9];
  guint n = 0;

  do
    {
      buffer[n++] = digits[value & 0xf];
      value >>= 4;
    }
  while (value != 0);
  while (n > 0)
    g_string_append_c (signature, buffer[--n]);
  g_string_append_c (signature, separator);
}

/* What a reading teaches, as a string: runs that read the same way share a candidate.
 * Typed text is in NFD, which is unique for canonically equivalent text, so comparing
 * code points is comparing the values the key would receive. */
static char *
make_signature (const Typed *typed, GArray *bindings, guint *n_new)
{
  GString *signature = g_string_sized_new (16 * bindings->len + 1);

  g_array_sort (bindings, compare_bindings);
  *n_new = 0;
  for (guint i = 0; i < bindings->len; i++)
    {
      const Binding *b = &g_array_index (bindings, Binding, i);

      if (b->contradicts)
        g_string_append_c (signature, '!');
      append_hex (signature, b->symbol, '=');
      for (guint k = b->start; k < b->start + b->length; k++)
        append_hex (signature, g_array_index (typed->chars, gunichar, k), ',');
      g_string_append_c (signature, '\x1f');
      *n_new += !b->contradicts;
    }
  return g_string_free (signature, FALSE);
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = *(Candidate *const *) a;
  const Candidate *cb = *(Candidate *const *) b;

  if (ca->contradictions != cb->contradictions)
    return ca->contradictions < cb->contradictions ? -1 : 1;
  if (ca->cost != cb->cost)
    return ca->cost < cb->cost ? -1 : 1;
  return g_array_index (ca->places, guint, 0) < g_array_index (cb->places, guint, 0) ? -1 : 1;
}

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

/* Tokens with this many silent glyphs more than the typed word has letters are looked
 * at, when any symbol is silent: their silent glyphs are counted out one by one. */
#define MAX_SILENT_PER_WORD 4

/* The glyph counts a token may have to spell @word: one to three clusters a glyph,
 * and (with @silent) glyphs that spell nothing on top. */
static void
word_length_range (const Typed *typed, guint word, gboolean silent, guint *lo, guint *hi)
{
  guint clusters = g_array_index (typed->n_clusters, guint, word);

  *hi = g_array_index (typed->word_end, guint, word) - _dc_typed_word_start (typed, word);
  *lo = (clusters + 2) / 3;
  if (silent)
    *hi += MAX_SILENT_PER_WORD;
}

/* What one scan for candidates reads and fills, worked out once rather than per run. */
typedef struct
{
  const DcGlyph *glyphs;
  const guint32 *order;
  const guint32 *order_symbol;    /* (nullable) see DcMatcher */
  const guint8 *order_no_advance; /* (nullable) */
  const DcToken *tokens;
  guint n_tokens;
  guint *lo, *hi;           /* per typed word: the glyph counts that may spell it */
  GHashTable *by_signature; /* signature → Candidate */
  GPtrArray *candidates;
  GHashTable *seen;  /* (nullable) hash of a run's token types → index in runs + 1 */
  GArray *seen_runs; /* of SeenRun */
  /* (nullable) per token type, for a run that starts with it: 0 not asked yet, 1 it
   * cannot spell the first typed word, 2 it may */
  guint8 *first_word;
  /* (nullable) per token type: how many of its glyphs are known to spell nothing, + 1
   * (0: not counted yet) */
  guint *n_silent;
  guint32 *held_cache;
  /* Scratch for the run being aligned, reused from run to run rather than allocated for
   * each of the thousands a query may look at. */
  guint32 *run_symbols;
  guint8 *run_no_advance;
  guint *run_token_end;
  guint run_capacity; /* glyphs run_symbols and run_no_advance hold */
  GArray *run_bindings;
} Scan;

static void
scan_clear (Scan *scan)
{
  g_clear_pointer (&scan->run_symbols, g_free);
  g_clear_pointer (&scan->run_no_advance, g_free);
  g_clear_pointer (&scan->run_token_end, g_free);
  g_clear_pointer (&scan->run_bindings, g_array_unref);
}

/* A sequence of token types already aligned: where, and what it gave (NULL: nothing). */
typedef struct
{
  guint start;
  gpointer candidate;
} SeenRun;

/* How many glyphs of token @t are known to spell nothing: counted once a token type in
 * a scan, where it has a table for them. */
static guint
count_silent (DcMatcher *self, const Scan *scan, guint t)
{
  const DcToken *token = &scan->tokens[t];
  guint32 type = scan->n_silent != NULL ? self->token_type[t] : 0;
  guint n = 0;

  if (scan->n_silent != NULL && scan->n_silent[type] != 0)
    return scan->n_silent[type] - 1;
  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    {
      const char *value = dc_key_get_value (self->key, scan->glyphs[scan->order[k]].symbol);

      n += value != NULL && *value == '\0';
    }
  if (scan->n_silent != NULL)
    scan->n_silent[type] = n + 1;
  return n;
}

static gboolean
run_fits_lengths (DcMatcher *self, const Typed *typed, const Query *query, const Scan *scan,
                  guint start)
{
  for (guint w = 0; w < _dc_typed_n_words (typed); w++)
    {
      const DcToken *token = &scan->tokens[start + w];
      guint n = token->n_glyphs;

      if (query->has_silent)
        n -= count_silent (self, scan, start + w);
      if (n < scan->lo[w] || n > scan->hi[w])
        return FALSE;
    }
  return TRUE;
}

static gboolean
key_has_silent_symbol (DcKey *key)
{
  guint n_symbols;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);

      if (value != NULL && *value == '\0')
        return TRUE;
    }
  return FALSE;
}

/* The token types of the run at @start, hashed: runs that spell the same symbols word
 * for word read the same way, so each such sequence is aligned once. */
static gpointer
hash_run_types (const guint32 *types, guint n_words)
{
  guint64 hash = 0xcbf29ce484222325u;

  for (guint w = 0; w < n_words; w++)
    hash = (hash ^ types[w]) * 0x100000001b3u;
  /* 0 would read as "absent" */
  return GSIZE_TO_POINTER ((gsize) hash | 1);
}

/* The run of the same token types as @start seen before, if any. A hash that two
 * different sequences share (unlikely) only costs the deduplication of the second. */
static SeenRun *
seen_run (DcMatcher *self, const Scan *scan, guint start, guint n_words, gpointer *hash)
{
  guint index;

  *hash = hash_run_types (&self->token_type[start], n_words);
  index = GPOINTER_TO_UINT (g_hash_table_lookup (scan->seen, *hash));
  if (index == 0)
    return NULL;
  return &g_array_index (scan->seen_runs, SeenRun, index - 1);
}

static void
remember_run (Scan *scan, gpointer hash, guint start, gpointer candidate)
{
  SeenRun run = { start, candidate };

  if (g_hash_table_contains (scan->seen, hash))
    return;
  g_array_append_val (scan->seen_runs, run);
  g_hash_table_insert (scan->seen, hash, GUINT_TO_POINTER (scan->seen_runs->len));
}

/* Whether the run at @start may have the typed words' glyph counts. Most runs that start
 * the pivot's length do not: they are dropped here, before consider_run() sets anything
 * up (a third of a query's instructions went on those calls). A silent symbol makes a
 * word shorter than its glyphs, so with one only too few glyphs rule a run out. */
static inline gboolean
run_may_fit_lengths (const Scan *scan, guint start, guint n_words, gboolean has_silent)
{
  for (guint w = 0; w < n_words; w++)
    {
      guint n = scan->tokens[start + w].n_glyphs;

      if (n < scan->lo[w] || (n > scan->hi[w] && !has_silent))
        return FALSE;
    }
  return TRUE;
}

/* The run's glyphs into the scan's scratch: their symbols, whether each is drawn over its
 * neighbour, and where each token ends. Returns how many. */
static guint
gather_run (Scan *scan, guint start, guint n_words)
{
  guint n_glyphs = 0;

  for (guint w = 0; w < n_words; w++)
    n_glyphs += scan->tokens[start + w].n_glyphs;
  if (n_glyphs > scan->run_capacity)
    {
      scan->run_capacity = MAX (n_glyphs, 2 * scan->run_capacity);
      scan->run_symbols = g_renew (guint32, scan->run_symbols, scan->run_capacity);
      scan->run_no_advance = g_renew (guint8, scan->run_no_advance, scan->run_capacity);
    }
  n_glyphs = 0;
  for (guint w = 0; w < n_words; w++)
    {
      const DcToken *token = &scan->tokens[start + w];

      if (scan->order_symbol != NULL)
        {
          memcpy (scan->run_symbols + n_glyphs, scan->order_symbol + token->first_glyph,
                  token->n_glyphs * sizeof (guint32));
          memcpy (scan->run_no_advance + n_glyphs, scan->order_no_advance + token->first_glyph,
                  token->n_glyphs);
          n_glyphs += token->n_glyphs;
        }
      else
        for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
          {
            const DcGlyph *glyph = &scan->glyphs[scan->order[k]];

            scan->run_no_advance[n_glyphs] = glyph_has_no_advance (glyph);
            scan->run_symbols[n_glyphs++] = glyph->symbol;
          }
      scan->run_token_end[w] = n_glyphs;
    }
  return n_glyphs;
}

/* Files the reading @search found under its signature: runs read the same way are one
 * candidate with several places. */
static Candidate *
add_candidate (Scan *scan, const Typed *typed, Search *search, guint start)
{
  g_autoptr (GArray) bindings = search->best;
  Candidate *candidate;
  guint n_new;
  char *signature = make_signature (typed, bindings, &n_new);

  candidate = g_hash_table_lookup (scan->by_signature, signature);
  if (candidate == NULL)
    {
      candidate = g_new0 (Candidate, 1);
      candidate->signature = signature;
      candidate->cost = search->best_cost;
      candidate->contradictions = search->best_contradictions;
      candidate->inconsistencies = search->best_inconsistencies;
      candidate->n_new = n_new;
      candidate->bindings = g_steal_pointer (&bindings);
      candidate->places = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (scan->by_signature, candidate->signature, candidate);
      g_ptr_array_add (scan->candidates, candidate);
    }
  else
    {
      g_free (signature);
      candidate->cost = MIN (candidate->cost, search->best_cost);
    }
  if (candidate->places->len < MAX_REPORTED_PLACES)
    g_array_append_val (candidate->places, start);
  return candidate;
}

/* The search of the run whose glyphs gather_run() put in the scan's scratch. */
static void
search_init (DcMatcher *self, const Typed *typed, const Query *query, Scan *scan, Search *search)
{
  memset (search, 0, sizeof *search);
  search->document = self->document;
  search->key = self->key;
  search->nfd_values = self->nfd_values;
  search->holders = self->holders;
  search->held_cache = scan->held_cache;
  search->typed = typed;
  search->symbols = scan->run_symbols;
  search->token_end = scan->run_token_end;
  search->no_advance = scan->run_no_advance;
  search->relaxed = query->relaxed;
  search->relax_all = query->relax_all;
  search->bindings = scan->run_bindings;
}

/* Whether the run at @start may read as the typed words, as far as its first token
 * tells. Most runs of an uncued query fail on their first word, and the same few
 * hundred words start most of them: a token type that cannot spell the first typed word
 * rules out every run it starts (_dc_search_run() with n_words_only), so it is aligned
 * with that word once, and the thousands of runs it starts are passed over unaligned. */
static gboolean
first_word_may_fit (DcMatcher *self, const Typed *typed, const Query *query, Scan *scan,
                    guint start)
{
  guint32 type;

  if (scan->first_word == NULL)
    return TRUE;
  type = self->token_type[start];
  if (scan->first_word[type] == 0)
    {
      Search search;

      gather_run (scan, start, 1);
      search_init (self, typed, query, scan, &search);
      search.n_words_only = 1;
      _dc_search_run (&search);
      g_clear_pointer (&search.best, g_array_unref);
      scan->first_word[type] = search.found || search.gave_up ? 2 : 1;
    }
  return scan->first_word[type] == 2;
}

static void
consider_run (DcMatcher *self, const Typed *typed, Query *query, Scan *scan, guint start)
{
  guint n_words = _dc_typed_n_words (typed);
  gpointer hash = NULL;
  Search search;
  Candidate *candidate;

  if (!run_fits_lengths (self, typed, query, scan, start))
    return;
  query->shaped_runs++;
  /* Before the seen runs: an array's answer is cheaper than hashing the run. */
  if (!first_word_may_fit (self, typed, query, scan, start))
    return;

  /* The same words drawn in many places read the same way everywhere: align them once. */
  if (scan->seen != NULL)
    {
      SeenRun *seen = seen_run (self, scan, start, n_words, &hash);

      if (seen != NULL
          && memcmp (&self->token_type[seen->start], &self->token_type[start],
                     n_words * sizeof (guint32))
                 == 0)
        {
          candidate = seen->candidate;
          if (candidate != NULL && candidate->places->len < MAX_REPORTED_PLACES)
            g_array_append_val (candidate->places, start);
          return;
        }
    }

  gather_run (scan, start, n_words);
  search_init (self, typed, query, scan, &search);
  _dc_search_run (&search);

  if (!search.found)
    {
      g_clear_pointer (&search.best, g_array_unref);
      if (scan->seen != NULL)
        remember_run (scan, hash, start, NULL);
      return;
    }
  candidate = add_candidate (scan, typed, &search, start);
  if (scan->seen != NULL)
    remember_run (scan, hash, start, candidate);
}

/* Every run of the typed shape, aligned; candidates come back best first. */
static GPtrArray *
find_candidates (DcMatcher *self, const Typed *typed, Query *query)
{
  g_autoptr (GHashTable) by_signature = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) seen_runs = g_array_new (FALSE, FALSE, sizeof (SeenRun));
  g_autofree guint8 *first_word = NULL;
  g_autofree guint *n_silent = NULL;
  g_autofree guint32 *held_cache = _dc_held_cache_new (typed);
  guint n_words = _dc_typed_n_words (typed), pivot = 0, best_count = G_MAXUINT;
  g_autofree guint *lo = g_new (guint, MAX (1, n_words));
  g_autofree guint *hi = g_new (guint, MAX (1, n_words));
  GPtrArray *candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  const DcLine *lines = dc_document_get_lines (self->document, NULL);
  Scan scan = { 0 };

  scan.glyphs = dc_document_get_glyphs (self->document, NULL);
  scan.order = dc_document_get_reading_order (self->document, NULL);
  scan.order_symbol = self->order_symbol;
  scan.order_no_advance = self->order_no_advance;
  scan.tokens = dc_document_get_tokens (self->document, &scan.n_tokens);
  scan.lo = lo;
  scan.hi = hi;
  scan.by_signature = by_signature;
  scan.candidates = candidates;
  scan.held_cache = held_cache;
  scan.run_token_end = g_new (guint, MAX (1, n_words));
  scan.run_bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  for (guint w = 0; w < n_words; w++)
    word_length_range (typed, w, FALSE, &lo[w], &hi[w]);

  query->shaped_runs = 0;
  if (n_words > scan.n_tokens)
    {
      scan_clear (&scan);
      return candidates;
    }

  if (query->token >= 0)
    {
      guint start = lines[query->line].first_token + (guint) query->token;

      if (start + n_words <= scan.n_tokens)
        consider_run (self, typed, query, &scan, start);
    }
  else
    {
      scan.seen = seen;
      scan.seen_runs = seen_runs;
      /* One word: the seen runs are the token types already. */
      if (n_words > 1)
        scan.first_word = first_word = g_new0 (guint8, MAX (1, self->n_types));
      if (query->has_silent)
        scan.n_silent = n_silent = g_new0 (guint, MAX (1, self->n_types));
      /* Start from the word whose glyph count is rarest in the document. */
      for (guint w = 0; w < n_words; w++)
        {
          guint wlo, whi, count = 0;

          word_length_range (typed, w, query->has_silent, &wlo, &whi);
          for (guint n = wlo; n <= whi && n < self->by_length->len; n++)
            count += ((GArray *) g_ptr_array_index (self->by_length, n))->len;
          if (count < best_count)
            {
              best_count = count;
              pivot = w;
            }
        }

      {
        guint plo, phi;

        word_length_range (typed, pivot, query->has_silent, &plo, &phi);
        for (guint n = plo; n <= phi && n < self->by_length->len; n++)
          {
            GArray *bucket = g_ptr_array_index (self->by_length, n);

            for (guint i = 0; i < bucket->len; i++)
              {
                guint t = g_array_index (bucket, guint, i);
                guint start;

                if (t < pivot || t - pivot + n_words > scan.n_tokens)
                  continue;
                start = t - pivot;
                if (query->line >= 0
                    && (scan.tokens[start].line < (guint) query->line
                        || scan.tokens[start].line >= (guint) query->line_end))
                  continue;
                if (!run_may_fit_lengths (&scan, start, n_words, query->has_silent))
                  continue;
                consider_run (self, typed, query, &scan, start);
              }
          }
      }
    }

  scan_clear (&scan);
  g_ptr_array_sort (candidates, compare_candidates);
  return candidates;
}

static void
place_of (DcMatcher *self, guint start, guint n_words, int cost, DcMatchPlace *place)
{
  const DcLine *lines = dc_document_get_lines (self->document, NULL);
  const DcToken *tokens = dc_document_get_tokens (self->document, NULL);

  place->line = tokens[start].line;
  place->token = start - lines[place->line].first_token;
  place->n_tokens = n_words;
  place->penalty = cost;
}

static void
add_places (DcMatcher *self, DcMatchResult *result, const Candidate *candidate, guint n_words)
{
  for (guint i = 0; i < candidate->places->len; i++)
    {
      DcMatchPlace place;

      place_of (self, g_array_index (candidate->places, guint, i), n_words, candidate->cost,
                &place);
      g_array_append_val (result->places, place);
    }
}

static char *
provenance_for (const char *text)
{
  g_autofree char *shown = NULL;

  if (g_utf8_strlen (text, -1) > 60)
    {
      g_autofree char *head = g_utf8_substring (text, 0, 59);
      shown = g_strconcat (head, "…", NULL);
    }
  else
    shown = g_strdup (text);
  return g_strdup_printf ("type: «%s»", shown);
}

static void
apply_candidate (DcMatcher *self, const Typed *typed, const Candidate *candidate, const char *text,
                 DcMatchResult *result)
{
  g_autofree char *provenance = provenance_for (text);
  g_autofree char *label = g_strdup_printf (_("Typed “%s”"), text);

  dc_key_begin_change (self->key, label);
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);
      g_autoptr (GError) error = NULL;
      DcLearned learned;

      learned.symbol = b->symbol;
      learned.text = _dc_chars_to_nfc (typed, b->start, b->length);
      if (dc_key_set (self->key, b->symbol, learned.text, DC_KEY_INFERRED, provenance, &error))
        g_array_append_val (result->learned, learned);
      else
        {
          g_warning ("A match could not be stored: %s", error->message);
          g_free (learned.text);
        }
    }
  dc_key_end_change (self->key);
}

/**
 * dc_conflict_copy:
 *
 * Returns: (transfer full): a copy of @conflict, freed with dc_conflict_free()
 */
DcConflict *
dc_conflict_copy (const DcConflict *conflict)
{
  DcConflict *copy;

  g_return_val_if_fail (conflict != NULL, NULL);

  copy = g_memdup2 (conflict, sizeof *conflict);

  copy->current = g_strdup (conflict->current);
  copy->current_provenance = g_strdup (conflict->current_provenance);
  copy->proposed = g_strdup (conflict->proposed);
  copy->proposed_provenance = g_strdup (conflict->proposed_provenance);
  return copy;
}

static void
record_conflicts (DcMatcher *self, const Typed *typed, const Candidate *candidate, const char *text,
                  DcMatchResult *result)
{
  g_autofree char *provenance = provenance_for (text);
  DcMatchPlace place;

  place_of (self, g_array_index (candidate->places, guint, 0), _dc_typed_n_words (typed),
            candidate->cost, &place);
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);
      DcConflict *conflict;

      if (!b->contradicts)
        continue;
      conflict = g_new0 (DcConflict, 1);
      conflict->symbol = b->symbol;
      conflict->current = g_strdup (dc_key_get_value (self->key, b->symbol));
      conflict->current_provenance = g_strdup (dc_key_get_provenance (self->key, b->symbol));
      conflict->proposed = _dc_chars_to_nfc (typed, b->start, b->length);
      conflict->proposed_provenance = g_strdup (provenance);
      conflict->place = place;
      conflict->current_level = dc_key_get_level (self->key, b->symbol);
      conflict->proposed_level = DC_KEY_LEVEL_USER;

      g_ptr_array_add (self->conflicts, dc_conflict_copy (conflict));
      g_ptr_array_add (result->conflicts, conflict);
    }
  if (result->conflicts->len > 0)
    g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
}

static char *
explain_no_match (DcMatcher *self, const Typed *typed, const Query *query, const char *text)
{
  guint n_words = _dc_typed_n_words (typed);
  g_autoptr (GPtrArray) closest = NULL;
  Query relaxed = *query;

  if (query->shaped_runs == 0)
    {
      if (query->line >= 0 && n_words == 1)
        return g_strdup_printf (_("No word on line %d has as many glyphs as “%s” could have. "
                                  "Check the line, or type what it shows."),
                                   query->line, text);
      if (query->line >= 0)
        return g_strdup_printf (_("No run of %u words from line %d has glyph counts that could "
                                  "spell “%s”. Check the line, or type what it shows."),
                                   n_words, query->line, text);
      if (n_words == 1)
        return g_strdup_printf (_("No word in the document has as many glyphs as “%s” could "
                                  "have."),
                                   text);
      return g_strdup_printf (_("No run of %u words in the document has glyph counts that could "
                                "spell “%s”."),
                                 n_words, text);
    }

  /* Find the closest run, comparing with every known value (a trusted font's too), and
   * say which known character stands in the way. */
  relaxed.relaxed = TRUE;
  relaxed.relax_all = TRUE;
  closest = find_candidates (self, typed, &relaxed);
  for (guint c = 0; c < closest->len; c++)
    {
      const Candidate *candidate = g_ptr_array_index (closest, c);

      for (guint i = 0; i < candidate->bindings->len; i++)
        {
          const Binding *b = &g_array_index (candidate->bindings, Binding, i);
          g_autofree char *typed_text = NULL;
          DcMatchPlace place;

          if (!b->contradicts)
            continue;
          typed_text = _dc_chars_to_nfc (typed, b->start, b->length);
          place_of (self, g_array_index (candidate->places, guint, 0), n_words, 0, &place);
          return g_strdup_printf (_("The closest place, line %u word %u, has the right shape, "
                                    "but its glyph known as “%s” stands where you typed “%s”."),
                                     place.line, place.token + 1,
                                     dc_key_get_value (self->key, b->symbol), typed_text);
        }
    }
  return g_strdup_printf (_("Runs of the right shape exist, but none can spell “%s” with the "
                            "characters already known."),
                             text);
}

/* ------------------------------------------------------------------------ */
/* Public                                                                    */

static gboolean
validate_input (const char *text, GError **error)
{
  if (strlen (text) > DC_MATCHER_MAX_INPUT)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("The input is longer than %d KiB: type a few words at a time."),
                      DC_MATCHER_MAX_INPUT / 1024);
      return FALSE;
    }
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("The input is not valid UTF-8 text."));
      return FALSE;
    }
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* What Decipher shows for an unknown glyph is no letter the user read: matched, it
       * proposed U+FFFD as a value, which no project can hold (fuzz-session). */
      if (c == 0xFFFD)
        {
          g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                               _("The input contains U+FFFD, which Decipher shows for an "
                                 "unknown glyph: type the letter you read there instead."));
          return FALSE;
        }
      if (c == DC_TYPED_OMITTED_PUNCTUATION)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The input contains U+%04X, which Unicode reserves as a "
                         "non-character."),
                          c);
          return FALSE;
        }
      if (g_unichar_iscntrl (c) && !g_unichar_isspace (c))
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The input contains the control character U+%04X, which no page shows."),
                          c);
          return FALSE;
        }
    }
  return TRUE;
}

static char **
split_words (const char *text)
{
  GPtrArray *words = g_ptr_array_new ();
  const char *p = text;

  while (*p)
    {
      const char *start;

      while (*p && g_unichar_isspace (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      start = p;
      while (*p && !g_unichar_isspace (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      if (p > start)
        g_ptr_array_add (words, g_strndup (start, p - start));
    }
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);
}

/* Typed text runs right to left when its first strong character does (FriBidi's rule P2,
 * so Adlam, Hanifi Rohingya and every other right-to-left script count). */
static gboolean
is_right_to_left (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      FriBidiCharType type = fribidi_get_bidi_type (g_utf8_get_char (p));

      if (FRIBIDI_IS_LETTER (type))
        return FRIBIDI_IS_RTL (type);
    }
  return FALSE;
}

/* A reading that overturns more of what is known than it confirms is a typo or the wrong
 * place, not evidence against the key: one slip of the keyboard must not raise a conflict
 * for every letter of a word. One contradiction is always worth showing (a wrong full
 * stop in a word of unknown letters). */
static gboolean
is_plausible_conflict (DcMatcher *self, const Candidate *candidate)
{
  guint agreements = 0;

  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      agreements += !b->contradicts && dc_key_get_value (self->key, b->symbol) != NULL;
    }
  return candidate->contradictions <= MAX (1, agreements);
}

/* Where to look: the line the user pointed at (a hard cue), or the lines in view (a soft
 * one, which only wins when they fit, or fit but for one of the user's values). */
typedef struct
{
  int line;     /* or -1: anywhere */
  int line_end; /* the lines from @line to this one (excluded) */
  int token;    /* with a hard cue on one line: the token the run starts at, or -1 */
  gboolean soft;
} Cue;

/* Lines in view are not a place the user chose: a reading there that overturns anything
 * but exactly one of the user's own values (the slip the issue is about: е typed for ё)
 * is more likely a coincidence of shapes than what they read. */
static gboolean
is_soft_conflict (DcMatcher *self, const Candidate *candidate)
{
  if (candidate->contradictions != 1)
    return FALSE;
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      if (b->contradicts)
        return dc_key_get_level (self->key, b->symbol) == DC_KEY_LEVEL_USER;
    }
  return FALSE;
}

static DcMatchResult *
conflict_result (DcMatcher *self, const Typed *typed, const Candidate *best, const char *text)
{
  DcMatchResult *result = match_result_new (DC_MATCH_CONFLICT);

  record_conflicts (self, typed, best, text, result);
  add_places (self, result, best, _dc_typed_n_words (typed));
  result->reason = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE,
                   "This fits only if %u value already learned is wrong: review the conflict.",
                   "This fits only if %u values already learned are wrong: review the conflicts.",
                   best->contradictions),
      best->contradictions);
  return result;
}

static guint
count_agreements (DcMatcher *self, const Candidate *candidate)
{
  guint agreements = 0;

  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      agreements += !b->contradicts && dc_key_get_value (self->key, b->symbol) != NULL;
    }
  return agreements;
}

/* In view, the words the user read there with one of their values wrong confirm more of
 * what is known than a fit there that takes new values (the "Издание": six
 * letters known, one given wrongly; "ӈэдакы." would have taken six new ones). Returns
 * that reading, from @relaxed, or %NULL when the fits win. */
static const Candidate *
find_slip (DcMatcher *self, GPtrArray *relaxed, GPtrArray *fits)
{
  const Candidate *slip = NULL;
  guint slip_agreements = 0, fit_agreements = 0;

  for (guint c = 0; c < relaxed->len; c++)
    {
      const Candidate *candidate = g_ptr_array_index (relaxed, c);
      guint agreements;

      if (candidate->inconsistencies != 0 || !is_soft_conflict (self, candidate))
        continue;
      agreements = count_agreements (self, candidate);
      if (slip == NULL || agreements > slip_agreements)
        {
          slip = candidate;
          slip_agreements = agreements;
        }
    }
  for (guint c = 0; c < fits->len; c++)
    fit_agreements = MAX (fit_agreements, count_agreements (self, g_ptr_array_index (fits, c)));
  return slip != NULL && slip_agreements > fit_agreements ? slip : NULL;
}

static DcMatchResult *
match_words (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  g_auto (Typed) typed = { 0 };
  g_autoptr (GPtrArray) candidates = NULL;
  Query query = {
    cue->line, cue->line_end, cue->token, FALSE, FALSE, 0, key_has_silent_symbol (self->key)
  };
  DcMatchResult *result;
  const Candidate *best;
  guint n_words = g_strv_length (words);

  _dc_typed_prepare (&typed, words, is_right_to_left (text));
  candidates = find_candidates (self, &typed, &query);

  if (candidates->len == 0)
    {
      g_autoptr (GPtrArray) contradicting = NULL;
      Query relaxed = query;

      relaxed.relaxed = TRUE;
      contradicting = find_candidates (self, &typed, &relaxed);
      if (contradicting->len > 0
          && ((Candidate *) g_ptr_array_index (contradicting, 0))->inconsistencies == 0
          && (contradicting->len == 1
              || (contradicting->len > 1
                  && compare_candidates (&g_ptr_array_index (contradicting, 0),
                                         &g_ptr_array_index (contradicting, 1))
                         < 0
                  && ((Candidate *) g_ptr_array_index (contradicting, 0))->contradictions
                         < ((Candidate *) g_ptr_array_index (contradicting, 1))->contradictions)))
        {
          best = g_ptr_array_index (contradicting, 0);
          if (!is_plausible_conflict (self, best) || (cue->soft && !is_soft_conflict (self, best)))
            {
              result = match_result_new (DC_MATCH_NO_MATCH);
              result->reason = explain_no_match (self, &typed, &query, text);
              return result;
            }
          return conflict_result (self, &typed, best, text);
        }

      result = match_result_new (DC_MATCH_NO_MATCH);
      result->reason = explain_no_match (self, &typed, &query, text);
      return result;
    }

  if (cue->soft)
    {
      Query relaxed = query;
      g_autoptr (GPtrArray) contradicting = NULL;
      const Candidate *slip;

      relaxed.relaxed = TRUE;
      contradicting = find_candidates (self, &typed, &relaxed);
      slip = find_slip (self, contradicting, candidates);
      if (slip != NULL)
        return conflict_result (self, &typed, slip, text);
    }

  best = g_ptr_array_index (candidates, 0);
  if (candidates->len > 1)
    {
      const Candidate *second = g_ptr_array_index (candidates, 1);

      if (second->cost < best->cost + DECISIVE_MARGIN)
        {
          result = match_result_new (DC_MATCH_AMBIGUOUS);
          for (guint c = 0; c < candidates->len && result->places->len < MAX_REPORTED_PLACES; c++)
            {
              const Candidate *candidate = g_ptr_array_index (candidates, c);
              DcMatchPlace place;

              place_of (self, g_array_index (candidate->places, guint, 0), n_words, candidate->cost,
                        &place);
              g_array_append_val (result->places, place);
            }
          result->reason = g_strdup_printf (_("%u places read differently with this input: click the line to choose."),
              candidates->len);
          return result;
        }
    }

  if (best->n_new == 0)
    {
      result = match_result_new (DC_MATCH_KNOWN);
      add_places (self, result, best, n_words);
      result->reason = g_strdup (_("Every glyph there is already known."));
      return result;
    }

  result = match_result_new (DC_MATCH_ASSIGNED);
  add_places (self, result, best, n_words);
  apply_candidate (self, &typed, best, text, result);
  result->reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Learned %u symbol.",
                                                 "Learned %u symbols.", result->learned->len),
                                    result->learned->len);
  return result;
}

/* People type what they read, and leave out a comma or a quotation mark glued to a word
 * ("Весной река широко разливается" for "Весной река широко разливается,"). Where the
 * input as typed fits nowhere, each place such a mark may stand is tried in turn, the end
 * of the input first: a glyph there is read as that left-out punctuation, and learned as
 * nothing. The first reading that fits is the result. */
static DcMatchResult *
match_leaving_out_punctuation (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  guint n_words = g_strv_length (words);
  char omitted[8] = { 0 };

  g_unichar_to_utf8 (DC_TYPED_OMITTED_PUNCTUATION, omitted);
  /* After the last word, before the first, then after and before each word inside. */
  for (guint attempt = 0; attempt < 2 * n_words; attempt++)
    {
      g_auto (GStrv) variant = g_strdupv (words);
      gboolean after = attempt == 0 || (attempt > 1 && attempt % 2 == 0);
      guint w = attempt == 0 ? n_words - 1 : attempt == 1 ? 0 : (attempt - 2) / 2;
      char *old = variant[w];
      DcMatchResult *result;

      if (attempt >= 2 && ((after && w == n_words - 1) || (!after && w == 0)))
        continue;
      variant[w] = after ? g_strconcat (old, omitted, NULL) : g_strconcat (omitted, old, NULL);
      g_free (old);
      result = match_words (self, variant, text, cue);
      if (result->kind != DC_MATCH_NO_MATCH)
        {
          g_autofree char *reason = result->reason;

          result->reason = g_strdup_printf (
              after ? _("%s (The punctuation after “%s” was read without being typed.)")
                    : _("%s (The punctuation before “%s” was read without being typed.)"),
                         reason != NULL ? reason : "", words[w]);
          return result;
        }
      dc_match_result_free (result);
    }
  return NULL;
}

/* A whole line typed where the page's glyph runs split otherwise than its words (a
 * compound drawn as two runs, a danda typed apart from its word, a Type3 font whose
 * word gaps fall inside words): the input is read across all the line's runs, one
 * reading per run, a run ending at any cluster boundary. Only the values found are
 * learned; a contradiction is left to per-word typing. Returns NULL when nothing fits. */
static DcMatchResult *
match_whole_line (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  const DcLine *line = &dc_document_get_lines (self->document, NULL)[cue->line];
  g_auto (Typed) typed = { 0 };
  g_autofree guint32 *held_cache = NULL;
  Scan scan = { 0 };
  Search search = { 0 };
  Candidate candidate = { 0 };
  DcMatchResult *result;

  if (line->n_tokens == 0)
    return NULL;
  _dc_typed_prepare (&typed, words, is_right_to_left (text));
  held_cache = _dc_held_cache_new (&typed);
  scan.glyphs = dc_document_get_glyphs (self->document, NULL);
  scan.order = dc_document_get_reading_order (self->document, NULL);
  scan.tokens = dc_document_get_tokens (self->document, &scan.n_tokens);
  scan.run_token_end = g_new (guint, line->n_tokens);
  gather_run (&scan, line->first_token, line->n_tokens);

  search.document = self->document;
  search.key = self->key;
  search.nfd_values = self->nfd_values;
  search.holders = self->holders;
  search.held_cache = held_cache;
  search.typed = &typed;
  search.symbols = scan.run_symbols;
  search.token_end = scan.run_token_end;
  search.no_advance = scan.run_no_advance;
  search.free_words = TRUE;
  search.n_tokens = line->n_tokens;
  _dc_search_run (&search);
  scan_clear (&scan);
  if (!search.found)
    {
      g_clear_pointer (&search.best, g_array_unref);
      return NULL;
    }

  candidate.bindings = search.best;
  candidate.cost = search.best_cost;
  candidate.signature = make_signature (&typed, candidate.bindings, &candidate.n_new);
  candidate.places = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (candidate.places, line->first_token);
  result = match_result_new (candidate.n_new == 0 ? DC_MATCH_KNOWN : DC_MATCH_ASSIGNED);
  add_places (self, result, &candidate, line->n_tokens);
  if (candidate.n_new == 0)
    result->reason = g_strdup (_("Every glyph there is already known."));
  else
    {
      apply_candidate (self, &typed, &candidate, text, result);
      result->reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Learned %u symbol.",
                                                     "Learned %u symbols.", result->learned->len),
                                        result->learned->len);
    }
  g_free (candidate.signature);
  g_array_unref (candidate.bindings);
  g_array_unref (candidate.places);
  return result;
}

/* Every way of reading @words at @cue, as typed first. */
static DcMatchResult *
match_at (DcMatcher *self, char **words, const char *normalized, const Cue *cue)
{
  DcMatchResult *result = match_words (self, words, normalized, cue);

  if (result->kind == DC_MATCH_NO_MATCH && g_strv_length (words) <= MAX_WORDS_FOR_OMISSIONS)
    {
      DcMatchResult *without = match_leaving_out_punctuation (self, words, normalized, cue);

      if (without != NULL)
        {
          dc_match_result_free (result);
          result = without;
        }
    }

  /* Where no space is known yet, a line is one long token: read the input whole,
   * spaces included, so the space symbol is learned with the letters. */
  if (result->kind == DC_MATCH_NO_MATCH && g_strv_length (words) > 1)
    {
      g_autofree char *collapsed = g_strjoinv (" ", words);
      char *whole[] = { collapsed, NULL };
      DcMatchResult *as_one = match_words (self, whole, normalized, cue);

      if (as_one->kind == DC_MATCH_NO_MATCH)
        dc_match_result_free (as_one);
      else
        {
          dc_match_result_free (result);
          result = as_one;
        }
    }

  if (result->kind == DC_MATCH_NO_MATCH && cue->line >= 0 && cue->token < 0
      && cue->line_end == cue->line + 1)
    {
      DcMatchResult *whole_line = match_whole_line (self, words, normalized, cue);

      if (whole_line != NULL)
        {
          dc_match_result_free (result);
          result = whole_line;
        }
    }
  return result;
}

static gboolean
check_cue (DcMatcher *self, int line, int token, int view_line, guint n_view_lines, GError **error)
{
  guint n_lines;
  const DcLine *lines = dc_document_get_lines (self->document, &n_lines);

  if (line >= (int) n_lines || (token >= 0 && line < 0))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   token >= 0 && line < 0
                   ? _("A word number needs a line number too.")
                   : _("There is no line %d: the document has %u lines."), line, n_lines);
      return FALSE;
    }
  if (token >= 0 && (guint) token >= lines[line].n_tokens)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Line %d has no word %d: it has %u."), line, token + 1, lines[line].n_tokens);
      return FALSE;
    }
  if (view_line >= 0 && ((guint) view_line >= n_lines || n_view_lines == 0))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("There is no line %d in view: the document has %u lines."), view_line,
                      n_lines);
      return FALSE;
    }
  return TRUE;
}

/**
 * dc_matcher_type:
 * @text: what the user read on the page: one token or several, separated by spaces
 * @line: the line the user pointed at, or -1
 * @token: with @line, the token the run starts at, or -1
 *
 * Finds where @text is drawn and learns its unknown symbols when exactly one reading
 * fits. Values already held are never changed here: a contradiction is returned as a
 * conflict and kept for review.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when the input or the
 *   cue is unusable
 */
DcMatchResult *
dc_matcher_type (DcMatcher *self, const char *text, int line, int token, GError **error)
{
  return dc_matcher_type_in_view (self, text, line, token, -1, 0, error);
}

/**
 * dc_matcher_type_in_view:
 * @view_line: without @line, the first line the user has in view, or -1
 * @n_view_lines: how many lines from @view_line are in view
 *
 * As dc_matcher_type(); without a line cue, the lines in view are tried first. Where
 * @text fits there, it is read there even if it also fits elsewhere; where it fits there
 * only if exactly one value the user gave is wrong, that is a conflict for the user to
 * resolve rather than a match somewhere else, which would teach wrong values without a
 * word. Where it does not fit there at all, the whole document is searched.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when the input or a
 *   line number is unusable
 */
DcMatchResult *
dc_matcher_type_in_view (DcMatcher *self, const char *text, int line, int token, int view_line,
                         guint n_view_lines, GError **error)
{
  g_autofree char *normalized = NULL;
  g_auto (GStrv) words = NULL;
  guint n_lines;
  Cue cue = { line, line + 1, token, FALSE };

  g_return_val_if_fail (DC_IS_MATCHER (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!validate_input (text, error))
    return NULL;
  normalized = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
  words = split_words (normalized);
  if (words[0] == NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("Type at least one word as it reads on the page."));
      return NULL;
    }
  if (!check_cue (self, line, token, view_line, n_view_lines, error))
    return NULL;

  ensure_index (self);
  ensure_values (self);

  dc_document_get_lines (self->document, &n_lines);
  if (line < 0 && view_line >= 0)
    {
      Cue in_view = { view_line, (int) MIN (n_lines, (guint) view_line + n_view_lines), -1, TRUE };
      DcMatchResult *result = match_at (self, words, normalized, &in_view);

      if (result->kind != DC_MATCH_NO_MATCH)
        return result;
      dc_match_result_free (result);
    }
  return match_at (self, words, normalized, &cue);
}

guint
dc_matcher_get_n_conflicts (DcMatcher *self)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), 0);

  return self->conflicts->len;
}

const DcConflict *
dc_matcher_get_conflict (DcMatcher *self, guint index)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), NULL);
  g_return_val_if_fail (index < self->conflicts->len, NULL);

  return g_ptr_array_index (self->conflicts, index);
}

/**
 * dc_matcher_resolve_conflict:
 * @take_proposed: %TRUE to take the new evidence, %FALSE to keep the value held
 *
 * The user's verdict: the chosen value is confirmed, and the conflict (with any other
 * open conflict about the same symbol) leaves the list.
 */
gboolean
dc_matcher_resolve_conflict (DcMatcher *self, guint index, gboolean take_proposed, GError **error)
{
  const DcConflict *conflict;
  g_autofree char *value = NULL;
  g_autofree char *provenance = NULL;
  guint symbol;

  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);
  g_return_val_if_fail (index < self->conflicts->len, FALSE);

  conflict = g_ptr_array_index (self->conflicts, index);
  symbol = conflict->symbol;
  value = g_strdup (take_proposed ? conflict->proposed : conflict->current);
  provenance = g_strdup_printf ("conflict: %s", take_proposed ? conflict->proposed_provenance
                                                              : conflict->current_provenance);
  if (!dc_key_set (self->key, symbol, value, DC_KEY_CONFIRMED, provenance, error))
    return FALSE;

  for (guint i = self->conflicts->len; i > 0; i--)
    if (((DcConflict *) g_ptr_array_index (self->conflicts, i - 1))->symbol == symbol)
      g_ptr_array_remove_index (self->conflicts, i - 1);
  g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
  return TRUE;
}

/**
 * dc_matcher_add_conflict:
 * @conflict: one left open in an earlier session, as a project kept it
 *
 * Opens @conflict (a copy) again for review, as if the input had just been typed.
 */
void
dc_matcher_add_conflict (DcMatcher *self, const DcConflict *conflict)
{
  guint n_symbols;

  g_return_if_fail (DC_IS_MATCHER (self));
  g_return_if_fail (conflict != NULL);
  dc_document_get_symbols (self->document, &n_symbols);
  g_return_if_fail (conflict->symbol < n_symbols);
  g_return_if_fail (conflict->current != NULL && conflict->proposed != NULL);

  g_ptr_array_add (self->conflicts, dc_conflict_copy (conflict));
  g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
}
