/* dc-matcher-scan.c: the runs of the typed shape, aligned, as candidate readings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-matcher.c. A query starts from the typed word whose glyph count is
 * rarest, looks at each run of tokens the index gives for it, drops the runs whose
 * glyph counts cannot spell the words, and aligns the rest (_dc_search_run()). Runs
 * that read the same way are one candidate with several places; runs of the same token
 * types are aligned once. Which candidate wins is decided in dc-matcher-decide.c.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include "dc-matcher-private.h"

#define MAX_REPORTED_PLACES DC_MATCHER_MAX_REPORTED_PLACES
#define glyph_has_no_advance _dc_matcher_glyph_has_no_advance
#define scan_clear _dc_matcher_scan_clear
#define make_signature _dc_matcher_make_signature
#define compare_candidates _dc_matcher_compare_candidates
#define gather_run _dc_matcher_gather_run
#define query_memo _dc_matcher_query_memo
#define shared_held_cache _dc_matcher_shared_held_cache
#define fit_table _dc_matcher_fit_table
#define strict_fit_table _dc_matcher_strict_fit_table
#define prepare_word_reach _dc_matcher_prepare_word_reach
#define lone_words_init _dc_matcher_lone_words_init
#define lone_words_clear _dc_matcher_lone_words_clear
#define one_word_seen_tables _dc_matcher_one_word_seen_tables

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
char *
_dc_matcher_make_signature (const Typed *typed, GArray *bindings, guint *n_new)
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

int
_dc_matcher_compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = *(Candidate *const *) a;
  const Candidate *cb = *(Candidate *const *) b;

  if (ca->contradictions != cb->contradictions)
    return ca->contradictions < cb->contradictions ? -1 : 1;
  if (ca->cost != cb->cost)
    return ca->cost < cb->cost ? -1 : 1;
  return g_array_index (ca->places, guint, 0) < g_array_index (cb->places, guint, 0) ? -1 : 1;
}

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

void
_dc_matcher_scan_clear (Scan *scan)
{
  g_clear_pointer (&scan->run_symbols, g_free);
  g_clear_pointer (&scan->run_no_advance, g_free);
  g_clear_pointer (&scan->run_token_end, g_free);
  g_clear_pointer (&scan->run_bindings, g_array_unref);
  g_clear_pointer (&scan->run_best, g_array_unref);
}

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
run_fits_lengths (DcMatcher *self, guint n_words, const Query *query, const Scan *scan, guint start)
{
  for (guint w = 0; w < n_words; w++)
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

/* The slot of @hash in the scan's table of seen runs, or the empty one where it would go.
 * An open-addressed table of plain slots: a query looks up and files tens of thousands
 * of runs, which a GHashTable made cost as much as checking their first words. */
static SeenSlot *
seen_slot (const Scan *scan, guint64 hash)
{
  guint mask = (1u << scan->seen_bits) - 1;
  guint i = (guint) ((hash * 0x9e3779b97f4a7c15u) >> (64 - scan->seen_bits));

  while (scan->seen[i].index != 0 && scan->seen[i].hash != hash)
    i = (i + 1) & mask;
  return &scan->seen[i];
}

/* The run of the same token types as @start seen before, if any. A hash that two
 * different sequences share (unlikely) only costs the deduplication of the second. */
static SeenRun *
seen_run (DcMatcher *self, const Scan *scan, guint start, guint n_words, gpointer *hash)
{
  guint index;

  if (scan->type_seen_scan != NULL)
    {
      guint32 type = self->token_type[start];

      if (scan->type_seen_scan[type] != scan->scan_number)
        return NULL;
      return &scan->seen_runs[scan->type_seen_index[type] - 1];
    }
  *hash = hash_run_types (&self->token_type[start], n_words);
  index = seen_slot (scan, GPOINTER_TO_SIZE (*hash))->index;
  if (index == 0)
    return NULL;
  return &scan->seen_runs[index - 1];
}

/* Files a seen run; returns how many there are now. */
static inline guint
add_seen_run (Scan *scan, guint start, gpointer candidate)
{
  if (scan->n_seen_runs == scan->seen_runs_size)
    {
      scan->seen_runs_size = MAX (256, 2 * scan->seen_runs_size);
      scan->seen_runs = g_renew (SeenRun, scan->seen_runs, scan->seen_runs_size);
    }
  scan->seen_runs[scan->n_seen_runs].start = start;
  scan->seen_runs[scan->n_seen_runs].candidate = candidate;
  return ++scan->n_seen_runs;
}

static void
remember_run (DcMatcher *self, Scan *scan, gpointer hash, guint start, gpointer candidate)
{
  SeenSlot *slot;

  if (scan->type_seen_scan != NULL)
    {
      guint32 type = self->token_type[start];

      scan->type_seen_index[type] = add_seen_run (scan, start, candidate);
      scan->type_seen_scan[type] = scan->scan_number;
      return;
    }
  slot = seen_slot (scan, GPOINTER_TO_SIZE (hash));
  if (slot->index != 0)
    return;
  slot->index = add_seen_run (scan, start, candidate);
  slot->hash = GPOINTER_TO_SIZE (hash);
  /* At most half full, so that a probe ends soon. */
  if (2 * scan->n_seen_runs > 1u << scan->seen_bits)
    {
      g_autofree SeenSlot *old = scan->seen;
      guint n_old = 1u << scan->seen_bits;

      scan->seen_bits++;
      scan->seen = g_new0 (SeenSlot, 1u << scan->seen_bits);
      for (guint i = 0; i < n_old; i++)
        if (old[i].index != 0)
          *seen_slot (scan, old[i].hash) = old[i];
    }
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
      guint n = scan->token_glyphs[start + w];

      if (G_UNLIKELY (n == G_MAXUINT8))
        n = scan->tokens[start + w].n_glyphs;
      if (n < scan->lo[w] || (n > scan->hi[w] && !has_silent))
        return FALSE;
    }
  return TRUE;
}

/* The run's glyphs into the scan's scratch: their symbols, whether each is drawn over its
 * neighbour, and where each token ends. Returns how many. */
guint
_dc_matcher_gather_run (Scan *scan, guint start, guint n_words)
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
  search->best = scan->run_best;
}

/* Whether searching relaxed may read token @t otherwise than searching strictly: only a
 * glyph whose known value the search may contradict (follow_known() in dc-align-search.c,
 * the one place where the search looks at how relaxed it is) makes a difference. A
 * token of a font not yet read has none, and those are most of what an uncued query
 * that fits nowhere aligns, once strictly and once relaxed. */
static gboolean
relaxing_changes (DcMatcher *self, const Query *query, const Scan *scan, guint t)
{
  const DcToken *token = &scan->tokens[t];

  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    {
      guint32 symbol = scan->order_symbol != NULL ? scan->order_symbol[k]
                                                  : scan->glyphs[scan->order[k]].symbol;

      if (g_ptr_array_index (self->nfd_values, symbol) != NULL
          && (query->relax_all || dc_key_get_status (self->key, symbol) != DC_KEY_FROM_PDF))
        return TRUE;
    }
  return FALSE;
}

/* Fills @fit (an entry of a relaxed search's table) from @strict (the same entry of the
 * strict search's table, or NULL) where the answers must be the same. */
static void
fit_from_strict (DcMatcher *self, const Query *query, const Scan *scan, guint t, guint8 *fit,
                 const guint8 *strict)
{
  if (strict != NULL && *strict != 0 && !relaxing_changes (self, query, scan, t))
    *fit = *strict;
}

/* Whether the glyphs of token @t may pass as many cluster ends as typed word @w has
 * (scan->word_reach): most tokens of a long word's range of glyph counts hold known
 * values of one cluster a glyph, too few to spell it, which searching finds only at
 * their end, relaxed after contradicting each glyph in turn. A token that cannot is
 * passed over unsearched: its search would find nothing. */
static gboolean
token_may_reach (DcMatcher *self, const Scan *scan, guint t, guint w)
{
  const DcToken *token = &scan->tokens[t];
  guint reach = 0, omits = scan->word_omits[w];
  guint8 *fit = &scan->reach_fit[w][self->token_type[t]];

  if (scan->word_reach[w] == 0)
    return TRUE;
  if (*fit != 0)
    return *fit == 2;
  *fit = 2;
  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    {
      guint32 symbol = scan->order_symbol != NULL ? scan->order_symbol[k]
                                                  : scan->glyphs[scan->order[k]].symbol;

      guint glyph_reach = self->reach[symbol];

      if (glyph_reach == DC_MATCHER_REACH_FAR)
        return TRUE;
      if (glyph_reach == DC_MATCHER_REACH_UNKNOWN)
        glyph_reach = scan->word_unknown_reach[w];
      reach += MAX (glyph_reach, omits);
      if (reach >= scan->word_reach[w])
        return TRUE;
    }
  *fit = 1;
  return FALSE;
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
  if (scan->first_word[type] == 0 && scan->first_word_strict != NULL)
    fit_from_strict (self, query, scan, start, &scan->first_word[type],
                     &scan->first_word_strict[type]);
  if (scan->first_word[type] == 0 && !token_may_reach (self, scan, start, 0))
    scan->first_word[type] = 1;
  if (scan->first_word[type] == 0)
    {
      Search search;

      gather_run (scan, start, 1);
      search_init (self, typed, query, scan, &search);
      search.n_words_only = 1;
      _dc_search_run (&search);
      scan->first_word[type] = search.found || search.gave_up ? 2 : 1;
    }
  return scan->first_word[type] == 2;
}

/* Whether each token of the run after the first may spell its typed word on its own.
 * A reading of the run reads every word, under the bindings of the words before it,
 * which only rule readings out: a token type that cannot spell word w alone (without
 * giving up) rules out every run that has it there. Runs of an uncued query in a book
 * of many scripts mostly fit the first word (a common one) and fail further on, where
 * each was aligned whole; now each (word, token type) is aligned once. */
static gboolean
other_words_may_fit (DcMatcher *self, const Query *query, Scan *scan, guint start, guint n_words)
{
  if (scan->lone_words == NULL)
    return TRUE;
  for (guint w = 1; w < n_words; w++)
    {
      guint32 type = self->token_type[start + w];
      guint8 *fit = &scan->lone_fit[w][type];

      if (*fit == 0 && scan->lone_fit_strict[w] != NULL)
        fit_from_strict (self, query, scan, start + w, fit, &scan->lone_fit_strict[w][type]);
      if (*fit == 0 && !token_may_reach (self, scan, start + w, w))
        *fit = 1;
      if (*fit == 0)
        {
          Search search;

          gather_run (scan, start + w, 1);
          search_init (self, &scan->lone_words[w], query, scan, &search);
          search.held_cache = scan->lone_held[w];
          _dc_search_run (&search);
          *fit = search.found || search.gave_up ? 2 : 1;
        }
      if (*fit == 1)
        return FALSE;
    }
  return TRUE;
}

static void
consider_run (DcMatcher *self, const Typed *typed, Query *query, Scan *scan, guint start,
              guint n_words)
{
  gpointer hash = NULL;
  Search search;
  Candidate *candidate;

  /* Without silent glyphs, runs_of_the_lengths() has checked the counts already. */
  if (query->has_silent || query->token >= 0)
    {
      if (!run_fits_lengths (self, n_words, query, scan, start))
        return;
      query->shaped_runs++;
    }
  /* A later word already known not to fit rules the run out before the first word is
   * aligned: with two long words, most runs that start a new type of the first end in
   * a type of the second that has been aligned already. */
  if (scan->lone_words != NULL)
    for (guint w = 1; w < n_words; w++)
      if (scan->lone_fit[w][self->token_type[start + w]] == 1)
        return;
  /* Before the seen runs: an array's answer is cheaper than hashing the run. */
  if (!first_word_may_fit (self, typed, query, scan, start)
      || !other_words_may_fit (self, query, scan, start, n_words))
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

  if (n_words == 1 && !token_may_reach (self, scan, start, 0))
    {
      if (scan->seen != NULL)
        remember_run (self, scan, hash, start, NULL);
      return;
    }

  gather_run (scan, start, n_words);
  search_init (self, typed, query, scan, &search);
  _dc_search_run (&search);

  if (!search.found)
    {
      if (scan->seen != NULL)
        remember_run (self, scan, hash, start, NULL);
      return;
    }
  search.best = g_array_copy (search.best);
  candidate = add_candidate (scan, typed, &search, start);
  if (scan->seen != NULL)
    remember_run (self, scan, hash, start, candidate);
}

/* The first of the @n tokens of @sorted at or after @token: @n if none is. */
static guint
lower_bound (const guint *sorted, guint n, guint token)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sorted[mid] < token)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The runs of @n_words tokens whose glyph counts may spell the typed words (scan->lo and
 * scan->hi, with silent glyphs on top when @query has them), in the lines @query looks
 * at: a count, then the first token of each. The query's scans of one input ask for the
 * same (strictly, relaxed, to explain), and those of its variants mostly do: they are
 * listed once a query and kept in its memo table. */
static const guint *
runs_of_the_lengths (DcMatcher *self, const Query *query, const Scan *scan, guint n_words)
{
  GByteArray *key = g_byte_array_new ();
  const guint8 kind[] = { 'R', query->has_silent };
  const int lines[] = { query->line, query->line_end };
  guint pivot = 0, best_count = G_MAXUINT, plo, phi, n_runs;
  guint first_start = 0, end_start = scan->n_tokens;
  guint *runs;
  gpointer memo;
  GBytes *bytes;

  g_byte_array_append (key, kind, sizeof kind);
  g_byte_array_append (key, (const guint8 *) lines, sizeof lines);
  g_byte_array_append (key, (const guint8 *) scan->lo, n_words * sizeof (guint));
  g_byte_array_append (key, (const guint8 *) scan->hi, n_words * sizeof (guint));
  memo = query_memo (self, key, &bytes);
  if (memo != NULL)
    return memo;

  /* Start from the word whose glyph count is rarest in the document. */
  for (guint w = 0; w < n_words; w++)
    {
      guint whi = scan->hi[w] + (query->has_silent ? MAX_SILENT_PER_WORD : 0), count = 0;

      for (guint n = scan->lo[w]; n <= whi && n < self->by_length->len; n++)
        count += ((GArray *) g_ptr_array_index (self->by_length, n))->len;
      if (count < best_count)
        {
          best_count = count;
          pivot = w;
        }
    }

  /* The runs of a cue start in its lines, whose tokens are those from first_start to
   * end_start (each line's tokens follow the line before's, dc-layout-tokens.c). A
   * bucket lists its tokens in order, so its part in that range is found by halving;
   * reading every token of the bucket and its line, at a jump through the tokens each,
   * made a cued query on a book of 9 M glyphs slower than an uncued one. */
  if (query->line >= 0)
    {
      guint n_lines;
      const DcLine *doc_lines = dc_document_get_lines (self->document, &n_lines);
      guint last = MIN ((guint) query->line_end, n_lines);

      if ((guint) query->line < last)
        {
          first_start = doc_lines[query->line].first_token;
          end_start = doc_lines[last - 1].first_token + doc_lines[last - 1].n_tokens;
        }
      else
        end_start = 0;
    }

  /* Filled as a plain array, sized for the pivot's whole range: a query lists tens of
   * thousands of runs a scan, and appending each to a GArray cost as much as listing. */
  plo = scan->lo[pivot];
  phi = scan->hi[pivot] + (query->has_silent ? MAX_SILENT_PER_WORD : 0);
  runs = g_new (guint, best_count + 1);
  n_runs = 0;
  for (guint n = plo; n <= phi && n < self->by_length->len && first_start < end_start; n++)
    {
      GArray *bucket = g_ptr_array_index (self->by_length, n);
      const guint *in_bucket = (const guint *) (void *) bucket->data;
      guint end = lower_bound (in_bucket, bucket->len, end_start + pivot);

      for (guint i = lower_bound (in_bucket, bucket->len, first_start + pivot); i < end; i++)
        {
          guint t = in_bucket[i];
          guint start;

          if (t < pivot || t - pivot + n_words > scan->n_tokens)
            continue;
          start = t - pivot;
          if (query->line >= 0
              && (scan->tokens[start].line < (guint) query->line
                  || scan->tokens[start].line >= (guint) query->line_end))
            continue;
          if (run_may_fit_lengths (scan, start, n_words, query->has_silent))
            runs[++n_runs] = start;
        }
    }
  runs[0] = n_runs;
  g_hash_table_insert (self->fit_cache, bytes, runs);
  return runs;
}

/* One word, anywhere, no silent glyphs: each token type of the word's glyph counts
 * aligned once, as the runs would have it (a type's first token first, in their order),
 * without listing the tens of thousands of tokens of a long word's range of counts.
 * Only when some type reads as the word are the tokens walked, for the places. */
static void
scan_one_word_by_type (DcMatcher *self, const Typed *typed, Query *query, Scan *scan)
{
  guint hi = MIN (scan->hi[0], self->by_length->len - 1);

  query->shaped_runs = 0;
  for (guint n = scan->lo[0]; n <= hi; n++)
    {
      GArray *firsts = g_ptr_array_index (self->types_by_length, n);

      query->shaped_runs += ((GArray *) g_ptr_array_index (self->by_length, n))->len;
      for (guint i = 0; i < firsts->len; i++)
        consider_run (self, typed, query, scan, g_array_index (firsts, guint, i), 1);
    }
  if (scan->candidates->len == 0)
    return;

  /* Every token of a type that read as the word is a place of its reading, in the order
   * of the runs: listed anew, as consider_run() would have listed them one by one. */
  for (guint c = 0; c < scan->candidates->len; c++)
    g_array_set_size (((Candidate *) g_ptr_array_index (scan->candidates, c))->places, 0);
  for (guint n = scan->lo[0]; n <= hi; n++)
    {
      GArray *bucket = g_ptr_array_index (self->by_length, n);

      for (guint i = 0; i < bucket->len; i++)
        {
          guint t = g_array_index (bucket, guint, i);
          guint32 type = self->token_type[t];
          const SeenRun *seen = &scan->seen_runs[scan->type_seen_index[type] - 1];
          Candidate *candidate = seen->candidate;

          if (candidate != NULL && candidate->places->len < MAX_REPORTED_PLACES)
            g_array_append_val (candidate->places, t);
        }
    }
}

/* Every run of the typed shape, aligned; candidates come back best first. */
GPtrArray *
_dc_matcher_find_candidates (DcMatcher *self, const Typed *typed, Query *query)
{
  g_autoptr (GHashTable) by_signature = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint *n_silent = NULL;
  guint32 *held_cache = shared_held_cache (self, typed);
  guint n_words = _dc_typed_n_words (typed);
  g_autofree guint *lo = g_new (guint, MAX (1, n_words));
  g_autofree guint *hi = g_new (guint, MAX (1, n_words));
  g_autofree guint *word_reach = g_new (guint, MAX (1, n_words));
  g_autofree gboolean *word_omits = g_new0 (gboolean, MAX (1, n_words));
  g_autofree guint *word_unknown_reach = g_new (guint, MAX (1, n_words));
  g_autofree guint8 **reach_fit = g_new0 (guint8 *, MAX (1, n_words));
  GPtrArray *candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  const DcLine *lines = dc_document_get_lines (self->document, NULL);
  Scan scan = { 0 };

  scan.glyphs = dc_document_get_glyphs (self->document, NULL);
  scan.order = dc_document_get_reading_order (self->document, NULL);
  scan.order_symbol = self->order_symbol;
  scan.order_no_advance = self->order_no_advance;
  scan.tokens = dc_document_get_tokens (self->document, &scan.n_tokens);
  scan.token_glyphs = self->token_glyphs;
  scan.lo = lo;
  scan.hi = hi;
  scan.word_reach = word_reach;
  scan.word_omits = word_omits;
  scan.word_unknown_reach = word_unknown_reach;
  scan.reach_fit = reach_fit;
  scan.by_signature = by_signature;
  scan.candidates = candidates;
  scan.held_cache = held_cache;
  scan.run_token_end = g_new (guint, MAX (1, n_words));
  scan.run_bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  scan.run_best = g_array_new (FALSE, FALSE, sizeof (Binding));
  for (guint w = 0; w < n_words; w++)
    word_length_range (typed, w, FALSE, &lo[w], &hi[w]);
  prepare_word_reach (self, typed, 0, &scan, 0);

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
        consider_run (self, typed, query, &scan, start, n_words);
    }
  else
    {
      scan.seen_bits = 10;
      scan.seen = g_new0 (SeenSlot, 1u << scan.seen_bits);
      if (n_words == 1)
        one_word_seen_tables (self, &scan);
      /* One word: the seen runs are the token types already. */
      if (n_words > 1)
        {
          scan.first_word = fit_table (self, typed, query, 0, 'F');
          scan.first_word_strict = strict_fit_table (self, typed, query, 0, 'F');
          lone_words_init (self, typed, query, &scan);
        }
      if (query->has_silent)
        scan.n_silent = n_silent = g_new0 (guint, MAX (1, self->n_types));
      if (n_words == 1 && !query->has_silent && query->line < 0)
        scan_one_word_by_type (self, typed, query, &scan);
      else
        {
          const guint *runs = runs_of_the_lengths (self, query, &scan, n_words);

          if (!query->has_silent)
            query->shaped_runs = runs[0];
          for (guint i = 1; i <= runs[0]; i++)
            {
              /* Most runs of a long word's range start with a token type known not to spell
               * the first word: passed over here, without a call (consider_run() would
               * count them first only with silent glyphs). */
              if (scan.first_word != NULL && !query->has_silent
                  && scan.first_word[self->token_type[runs[i]]] == 1)
                continue;
              consider_run (self, typed, query, &scan, runs[i], n_words);
            }
        }
    }

  lone_words_clear (&scan, n_words);
  g_clear_pointer (&scan.seen, g_free);
  g_clear_pointer (&scan.seen_runs, g_free);
  scan_clear (&scan);
  g_ptr_array_sort (candidates, compare_candidates);
  return candidates;
}
