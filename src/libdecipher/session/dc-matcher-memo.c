/* dc-matcher-memo.c: what a query keeps across its scans
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-matcher-scan.c. A query that fits nowhere scans the document some
 * thirty times, mostly for the same words: which token types may spell a typed word
 * (the fit tables), which stretch of it a font's symbol holds (the held caches) and the
 * runs of its glyph counts are kept in the matcher's memo table until the query ends or
 * the key changes, and the types a one-word scan has seen in tables by type. Each scan
 * sets up its typed words here: each word alone, and what a token needs to reach its end.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include "dc-matcher-private.h"

#define query_memo _dc_matcher_query_memo
#define fit_table _dc_matcher_fit_table
#define strict_fit_table _dc_matcher_strict_fit_table
#define shared_held_cache _dc_matcher_shared_held_cache
#define prepare_word_reach _dc_matcher_prepare_word_reach

/* Typed word @w of @typed alone, as _dc_typed_prepare() makes a one-word input of it:
 * each word is prepared on its own there, so its characters and clusters are the same. */
static void
lone_word_prepare (const Typed *typed, guint w, Typed *lone)
{
  guint start = _dc_typed_word_start (typed, w);
  guint end = g_array_index (typed->word_end, guint, w);
  guint length = end - start;

  lone->chars = g_array_sized_new (FALSE, FALSE, sizeof (gunichar), length);
  g_array_append_vals (lone->chars, &g_array_index (typed->chars, gunichar, start), length);
  lone->cluster_end = g_array_sized_new (FALSE, FALSE, sizeof (guint), length);
  for (guint i = start; i < end; i++)
    {
      guint cluster_end = g_array_index (typed->cluster_end, guint, i) - start;

      g_array_append_val (lone->cluster_end, cluster_end);
    }
  lone->word_end = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (lone->word_end, length);
  lone->n_clusters = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (lone->n_clusters, g_array_index (typed->n_clusters, guint, w));
  lone->lam_alef = g_array_sized_new (FALSE, FALSE, sizeof (guint8), length);
  g_array_append_vals (lone->lam_alef, &g_array_index (typed->lam_alef, guint8, start), length);
  lone->right_to_left = typed->right_to_left;
  if (length <= 512)
    lone->ligature_memo = g_new0 (guint8, (gsize) (length + 1) * (length + 1));
}

/* What the matcher keeps under @key (a kind of memo, then what it is of) for the rest of
 * the query, or NULL, and the key to keep it under (taken). */
gpointer
_dc_matcher_query_memo (DcMatcher *self, GByteArray *key, GBytes **bytes)
{
  gpointer memo;

  *bytes = g_byte_array_free_to_bytes (key);
  memo = g_hash_table_lookup (self->fit_cache, *bytes);
  if (memo != NULL)
    g_clear_pointer (bytes, g_bytes_unref);
  return memo;
}

/* The held cache for searches of @typed, kept across the query's scans: which stretch of
 * the typed text a font's symbol holds is the same in each (the holders change only with
 * the key, which empties the memos), and asking anew cost each scan a normalisation per
 * (font, stretch) it met. */
guint32 *
_dc_matcher_shared_held_cache (DcMatcher *self, const Typed *typed)
{
  GByteArray *key = g_byte_array_new ();
  const guint8 kind = 'H';
  guint32 *cache;
  GBytes *bytes;

  g_byte_array_append (key, &kind, 1);
  g_byte_array_append (key, (const guint8 *) typed->chars->data,
                       typed->chars->len * sizeof (gunichar));
  cache = query_memo (self, key, &bytes);
  if (cache == NULL)
    {
      cache = _dc_held_cache_new (typed);
      g_hash_table_insert (self->fit_cache, bytes, cache);
    }
  return cache;
}

/* The matcher's table of which token types may spell typed word @w of @typed, searched
 * as @query says; @kind tells the first word's (aligned within the whole input) from a
 * lone word's. */
guint8 *
_dc_matcher_fit_table (DcMatcher *self, const Typed *typed, const Query *query, guint w, char kind)
{
  guint start = _dc_typed_word_start (typed, w);
  guint end = g_array_index (typed->word_end, guint, w);
  g_autoptr (GByteArray) key = g_byte_array_new ();
  const guint8 mode[] = { kind, query->relaxed, query->relax_all, query->has_silent,
                          typed->right_to_left };
  guint8 *table;
  GBytes *bytes;

  g_byte_array_append (key, mode, sizeof mode);
  g_byte_array_append (key, (const guint8 *) &g_array_index (typed->chars, gunichar, start),
                       (end - start) * sizeof (gunichar));
  /* ل ا reads one way as a lam-alef, the other way as ال reversed. */
  g_byte_array_append (key, &g_array_index (typed->lam_alef, guint8, start), end - start);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&key));
  table = g_hash_table_lookup (self->fit_cache, bytes);
  if (table != NULL)
    {
      g_bytes_unref (bytes);
      return table;
    }
  table = g_new0 (guint8, MAX (1, self->n_types));
  g_hash_table_insert (self->fit_cache, bytes, table);
  return table;
}

/* The table fit_table() keeps for the same word searched strictly, if the query made one
 * (a relaxed search follows a strict one that found nothing); NULL otherwise. */
guint8 *
_dc_matcher_strict_fit_table (DcMatcher *self, const Typed *typed, const Query *query, guint w,
                              char kind)
{
  Query strict = *query;
  guint8 *table;

  if (!query->relaxed && !query->relax_all)
    return NULL;
  strict.relaxed = FALSE;
  strict.relax_all = FALSE;
  table = fit_table (self, typed, &strict, w, kind);
  /* fit_table() made it, empty: keeping it costs a little memory until the query ends. */
  return table;
}

/* For typed word @w, as searches of word @word of @typed read it (the whole input's for
 * the first word, the word alone for the others): the cluster ends a token's glyphs must
 * pass, how many an unknown glyph may, and whether the word has punctuation left out;
 * and the table of which token types can, kept for the query's other scans that ask the
 * same (strictly and relaxed, the words alone and in the input, each variant), since
 * the answer depends on these and on the known values only. */
void
_dc_matcher_prepare_word_reach (DcMatcher *self, const Typed *typed, guint word, Scan *scan,
                                guint w)
{
  guint end = g_array_index (typed->word_end, guint, word);
  GByteArray *key = g_byte_array_new ();
  const guint8 kind = 'M';
  GBytes *bytes;

  scan->word_reach[w] = _dc_align_word_reach (typed, word);
  scan->word_unknown_reach[w] = _dc_align_unknown_reach (typed, word);
  scan->word_omits[w] = FALSE;
  for (guint i = _dc_typed_word_start (typed, word); i < end; i++)
    scan->word_omits[w] |= g_array_index (typed->chars, gunichar, i)
                           == DC_TYPED_OMITTED_PUNCTUATION;

  g_byte_array_append (key, &kind, 1);
  g_byte_array_append (key, (const guint8 *) &scan->word_reach[w], sizeof (guint));
  g_byte_array_append (key, (const guint8 *) &scan->word_unknown_reach[w], sizeof (guint));
  g_byte_array_append (key, (const guint8 *) &scan->word_omits[w], sizeof (gboolean));
  scan->reach_fit[w] = query_memo (self, key, &bytes);
  if (scan->reach_fit[w] == NULL)
    {
      scan->reach_fit[w] = g_new0 (guint8, MAX (1, self->n_types));
      g_hash_table_insert (self->fit_cache, bytes, scan->reach_fit[w]);
    }
}

void
_dc_matcher_lone_words_init (DcMatcher *self, const Typed *typed, const Query *query, Scan *scan)
{
  guint n_words = _dc_typed_n_words (typed);

  scan->lone_words = g_new0 (Typed, n_words);
  scan->lone_held = g_new0 (guint32 *, n_words);
  scan->lone_fit = g_new0 (guint8 *, n_words);
  scan->lone_fit_strict = g_new0 (guint8 *, n_words);
  for (guint w = 1; w < n_words; w++)
    {
      lone_word_prepare (typed, w, &scan->lone_words[w]);
      prepare_word_reach (self, &scan->lone_words[w], 0, scan, w);
      scan->lone_held[w] = shared_held_cache (self, &scan->lone_words[w]);
      scan->lone_fit[w] = fit_table (self, typed, query, w, 'L');
      scan->lone_fit_strict[w] = strict_fit_table (self, typed, query, w, 'L');
    }
}

void
_dc_matcher_lone_words_clear (Scan *scan, guint n_words)
{
  if (scan->lone_words == NULL)
    return;
  for (guint w = 1; w < n_words; w++)
    _dc_typed_clear (&scan->lone_words[w]);
  g_clear_pointer (&scan->lone_words, g_free);
  g_clear_pointer (&scan->lone_held, g_free);
  g_clear_pointer (&scan->lone_fit, g_free);
  g_clear_pointer (&scan->lone_fit_strict, g_free);
}

/* The matcher's tables of seen token types, for a one-word scan: a table indexed by type
 * is cheaper than hashing each of the tens of thousands of tokens a long word's range of
 * glyph counts takes in. */
void
_dc_matcher_one_word_seen_tables (DcMatcher *self, Scan *scan)
{
  if (self->n_seen_types != self->n_types || self->seen_scan == G_MAXUINT32)
    {
      g_clear_pointer (&self->type_seen_scan, g_free);
      g_clear_pointer (&self->type_seen_index, g_free);
      self->n_seen_types = self->n_types;
      self->type_seen_scan = g_new0 (guint32, MAX (1, self->n_types));
      self->type_seen_index = g_new (guint32, MAX (1, self->n_types));
      self->seen_scan = 0;
    }
  scan->type_seen_scan = self->type_seen_scan;
  scan->type_seen_index = self->type_seen_index;
  scan->scan_number = ++self->seen_scan;
}
