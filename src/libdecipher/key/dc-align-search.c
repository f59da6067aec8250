/* dc-align-search.c: the cheapest reading of a run of glyphs as typed text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A depth-first walk over the ways each glyph may spell the typed text (a cluster, a code
 * point of one, several as a ligature, a punctuation glyph left untyped), bound by what
 * the key holds, keeping the cheapest complete reading within MAX_SEARCH_STEPS
 * (dc-align.c says which ways a script allows).
 */

#define G_LOG_DOMAIN "dc-align"

#include "config.h"

#include <string.h>

#include "dc-align-private.h"
#include "dc-align-search-private.h"
#include "dc-reorder-private.h"
#include "dc-script.h"
#include "dc-tsan-private.h"

#define LIGATURE_COST 3   /* per extra cluster a single glyph stands for */
#define RESEGMENT_COST 2  /* per token end that falls inside a typed word (free_words) */
#define CONJUNCT_COST 2   /* the same, for clusters a virama joins */
#define HELD_VALUE_COST 2 /* a value another symbol already has */
#define MAX_SEARCH_STEPS 20000
#define HELD_CACHE_LENGTH 8 /* typed code points a cached answer may cover */
/* Answers kept per typed stretch, one per font modulo this: an uncued query in a book of
 * many fonts asks the same stretch of the runs of each font not yet read, and with one
 * answer a stretch they took it from each other, a normalisation each time. */
#define HELD_CACHE_WAYS 8
#define OMITTED_COST 4       /* a punctuation glyph read without being typed */
#define STACKED_MARKS_COST 1 /* a glyph of marks alone that fonts draw apart */
#define MONGOLIAN_VOWEL_SEPARATOR 0x180E

/* How many cluster ends a stretch of typed text equal to @chars passes, wherever it
 * stands: one at each character that starts a cluster after the first, and at most one
 * where it ends. Only _dc_align_continues_cluster() says where a cluster ends, and it
 * looks at no character but the one it asks about. */
static guint
stretch_reach (const gunichar *chars, guint length)
{
  guint reach = length > 0;

  for (guint i = 1; i < length; i++)
    reach += !_dc_align_continues_cluster (chars[i]);
  return reach;
}

/**
 * _dc_align_glyph_reach:
 * @known: a symbol's value in NFD, as the search compares it
 *
 * The most cluster ends of a typed word that a search of a run (not free_words) may
 * pass with one glyph of a known symbol, so that a matcher can tell a token too short
 * to spell a word without searching it. Every move of search_from() that passes typed
 * characters is a glyph's, or passes one invisible format character, or one left-out
 * punctuation mark (DC_TYPED_OMITTED_PUNCTUATION), which the caller counts. A known
 * value is spelled as it is (follow_known(), the inconsistency in follow_binding(),
 * try_drawn_before() and the swapped stretch passed later), or, relaxed, contradicted
 * by the rest of one cluster, which following that binding spells again: no more cluster
 * ends than the value's own, which has one character at least when it is contradicted.
 */
guint
_dc_align_glyph_reach (const GArray *known)
{
  return stretch_reach ((const gunichar *) (void *) known->data, known->len);
}

/**
 * _dc_align_unknown_reach:
 *
 * As _dc_align_glyph_reach(), for a glyph whose symbol is unknown, in a search of typed
 * word @word of @typed: try_unknown() binds the rest of one cluster, part of one, or
 * two or three clusters where they may be one glyph, try_drawn_before() the mark or
 * alef drawn first, pass_invisible_format() a Mongolian vowel separator with the
 * cluster after it; following a binding spells the same characters again.
 */
guint
_dc_align_unknown_reach (const Typed *typed, guint word)
{
  const gunichar *chars = (const gunichar *) (void *) typed->chars->data;
  guint word_end = g_array_index (typed->word_end, guint, word);
  guint reach = 1;

  for (guint at = _dc_typed_word_start (typed, word); at < word_end; at++)
    {
      guint end = at;

      if (chars[at] == MONGOLIAN_VOWEL_SEPARATOR && at + 1 < word_end)
        reach = MAX (reach, stretch_reach (chars + at,
                                           g_array_index (typed->cluster_end, guint, at + 1) - at));
      /* As try_unknown() goes, for the stretches it binds. */
      for (guint clusters = 1; clusters <= 3 && end < word_end; clusters++)
        {
          guint previous = end;

          end = g_array_index (typed->cluster_end, guint, end);
          if (clusters > 1 && end - previous > 1
              && _dc_align_is_plausible_ligature (typed, at, previous + 1))
            reach = MAX (reach, stretch_reach (chars + at, previous + 1 - at));
          if (clusters > 1 && _dc_align_is_plausible_ligature (typed, at, end))
            reach = MAX (reach, stretch_reach (chars + at, end - at));
        }
    }
  return reach;
}

/**
 * _dc_align_word_reach:
 *
 * Returns: how many cluster ends of typed word @word the glyphs of a token must pass
 *   between them to spell it (see _dc_align_glyph_reach()): its clusters, less one for
 *   each invisible format character, which pass_invisible_format() passes without one
 */
guint
_dc_align_word_reach (const Typed *typed, guint word)
{
  guint end = g_array_index (typed->word_end, guint, word), passed = 0;
  guint clusters = g_array_index (typed->n_clusters, guint, word);

  for (guint i = _dc_typed_word_start (typed, word); i < end; i++)
    passed += _dc_align_is_invisible_format (g_array_index (typed->chars, gunichar, i));
  return clusters > passed ? clusters - passed : 0;
}

static const Binding *
find_binding (const Search *s, guint symbol)
{
  for (guint i = 0; i < s->bindings->len; i++)
    {
      const Binding *b = &g_array_index (s->bindings, Binding, i);

      if (b->symbol == symbol)
        return b;
    }
  return NULL;
}

/**
 * _dc_held_cache_new:
 *
 * Whether a font's symbol holds a stretch of the typed text is asked at every step of
 * every run's search, and each answer costs a normalisation and a formatted key: a
 * query asks it once per (font, stretch) and keeps the answer here. The holders must
 * not change while it is used (they change only when the key does, between queries).
 *
 * Returns: (transfer full): an empty cache for searches of @typed
 */
guint32 *
_dc_held_cache_new (const Typed *typed)
{
  return g_new0 (guint32, MAX (1, typed->chars->len) * (HELD_CACHE_LENGTH + 1) * HELD_CACHE_WAYS);
}

/* Whether another symbol of @font holds the typed stretch as its value. */
static gboolean
value_is_held_by_font (const Search *s, guint font, guint start, guint length)
{
  guint32 *cached = NULL;
  gboolean held;

  if (s->held_cache != NULL && length <= HELD_CACHE_LENGTH)
    {
      /* An entry is (font + 1) << 1 | held, 0 when not asked yet. */
      cached = &s->held_cache[(start * (HELD_CACHE_LENGTH + 1) + length) * HELD_CACHE_WAYS
                              + font % HELD_CACHE_WAYS];
      if (*cached >> 1 == font + 1)
        return *cached & 1;
    }
  {
    g_autofree char *value = _dc_chars_to_nfc (s->typed, start, length);
    g_autofree char *key = _dc_holder_key (font, value);

    held = g_hash_table_contains (s->holders, key);
  }
  if (cached != NULL)
    *cached = (font + 1) << 1 | held;
  return held;
}

/* Whether the letter starting the typed stretch joins its neighbours, so that a font
 * draws it in up to four forms, each a glyph of its own (ﻟ ﻠ ﻞ ل): there, a value other
 * glyphs hold is what one more glyph should be, not a sign of a wrong reading. */
static gboolean
takes_contextual_forms (const Search *s, guint start, guint length)
{
  for (guint i = start; i < start + length; i++)
    {
      gunichar c = g_array_index (s->typed->chars, gunichar, i);

      if (!g_unichar_ismark (c))
        return dc_script_is_joining (g_unichar_get_script (c));
    }
  return FALSE;
}

static gboolean
value_is_held (const Search *s, guint symbol, guint start, guint length)
{
  const DcSymbol *info = dc_document_get_symbol (s->document, symbol);

  if (takes_contextual_forms (s, start, length))
    return FALSE;
  if (value_is_held_by_font (s, info->font, start, length))
    return TRUE;
  /* Two unknown symbols of one run taking one value is as suspicious. */
  for (guint i = 0; i < s->bindings->len; i++)
    {
      const Binding *b = &g_array_index (s->bindings, Binding, i);

      if (b->length == length && !b->contradicts
          && memcmp (&g_array_index (s->typed->chars, gunichar, b->start),
                     &g_array_index (s->typed->chars, gunichar, start), length * sizeof (gunichar))
                 == 0)
        return TRUE;
    }
  return FALSE;
}

static void search_from (Search *s, guint glyph, guint at, guint word);

/* Drops the binding the last step pushed. The array has no clear function and no zero
 * terminator, so that is lowering its length: g_array_set_size() shrinks through
 * g_array_remove_range(), a tenth of a query's instructions at every step taken back. */
static inline void
pop_binding (Search *s)
{
  g_assert (s->bindings->len > 0);
  s->bindings->len--;
}

/* Glyphs from @glyph to the end of its word known to spell nothing. */
static guint
silent_glyphs (const Search *s, guint glyph, guint word)
{
  guint silent = 0;

  for (guint g = glyph; g < s->token_end[word]; g++)
    {
      const GArray *known = g_ptr_array_index (s->nfd_values, s->symbols[g]);

      silent += known != NULL && known->len == 0;
    }
  return silent;
}

/* Whether typed character @at is the alef of a lam-alef, after its lam in the order
 * right-to-left text is drawn in (_dc_visual_order_marked()). */
static gboolean
is_alef_after_its_lam (const Typed *typed, guint at)
{
  return typed->lam_alef != NULL && at < typed->lam_alef->len
         && g_array_index (typed->lam_alef, guint8, at);
}

/* A glyph drawn over its neighbour with no advance is a mark (or a reph), not a letter
 * of its own: ों after च्च, not चों. */
static gboolean
is_unlikely_for_glyph (const Search *s, guint glyph, guint at, guint length)
{
  gunichar first;

  if (s->no_advance == NULL || !s->no_advance[glyph] || length == 0)
    return FALSE;
  first = g_array_index (s->typed->chars, gunichar, at);
  if (g_unichar_ismark (first))
    return FALSE;
  /* The alef of a lam-alef, drawn with no advance over its lam's glyph. */
  if (is_alef_after_its_lam (s->typed, at))
    return FALSE;
  return !(length == 2 && _dc_is_reph_ra (first)
           && _dc_is_virama (g_array_index (s->typed->chars, gunichar, at + 1)));
}

/* And the other way round: a glyph with an advance of its own spelling only marks that
 * Unicode draws over or under their base (், ँ), not beside it. */
static gboolean
is_unlikely_for_spacing_glyph (const Search *s, guint glyph, guint at, guint length)
{
  /* Tamil's u and uu signs have no glyph of their own: டு, மூ are each one glyph. */
  if (length == 1 && _dc_align_is_fused_tamil_sign (g_array_index (s->typed->chars, gunichar, at)))
    return TRUE;
  if (s->no_advance == NULL || s->no_advance[glyph] || length == 0)
    return FALSE;
  /* An alef with an advance of its own is not drawn after its lam, as a ligature's or a
   * zero-width alef's order has it, but left of it, where text set without shaping puts
   * it (a legacy font's letters one by one): try_drawn_before() reads it so. */
  if (is_alef_after_its_lam (s->typed, at))
    return TRUE;
  for (guint i = at; i < at + length; i++)
    if (g_unichar_type (g_array_index (s->typed->chars, gunichar, i)) != G_UNICODE_NON_SPACING_MARK)
      return FALSE;
  return TRUE;
}

static gboolean
crosses_swapped_mark (const Search *s, guint at, guint length)
{
  return s->swapped_end > 0 && at < s->swapped_end && s->swapped_start < at + length;
}

/* Whether what is typed at @at is drawn in two glyphs in the other order, the later
 * stretch [@later, @later_end) first: a vowel sign with an above mark (া ঁ), or a lam
 * (with its marks) and its alef (with its own). */
static gboolean
drawn_before (const Typed *typed, guint at, guint word_end, guint *later, guint *later_end)
{
  const gunichar *c = (const gunichar *) (void *) typed->chars->data;
  guint cluster_end = g_array_index (typed->cluster_end, guint, at);

  if (at + 1 < word_end && cluster_end == at + 2 && _dc_is_spacing_vowel_sign (c[at])
      && g_unichar_type (c[at + 1]) == G_UNICODE_NON_SPACING_MARK
      && g_unichar_combining_class (c[at + 1]) == 0)
    {
      *later = at + 1;
      *later_end = at + 2;
      return TRUE;
    }
  if (c[at] == 0x0644 && cluster_end < word_end && is_alef_after_its_lam (typed, cluster_end))
    {
      *later = cluster_end;
      *later_end = g_array_index (typed->cluster_end, guint, cluster_end);
      return TRUE;
    }
  return FALSE;
}

/* Whether a typed word ends strictly inside chars [at, at + length): with free word
 * breaks, a glyph never spells across a typed space. */
static gboolean
crosses_typed_break (const Search *s, guint at, guint length)
{
  const GArray *word_end = s->typed->word_end;

  if (!s->free_words)
    return FALSE;
  for (guint w = 0; w < word_end->len; w++)
    {
      guint end = g_array_index (word_end, guint, w);

      if (end > at && end < at + length)
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_typed_word_end (const Typed *typed, guint at)
{
  for (guint w = 0; w < typed->word_end->len; w++)
    if (g_array_index (typed->word_end, guint, w) == at)
      return TRUE;
  return FALSE;
}

static void
try_binding (Search *s, guint glyph, guint at, guint word, guint symbol, guint length, int cost,
             gboolean contradicts)
{
  Binding binding = { symbol, at, length, contradicts };

  if (crosses_swapped_mark (s, at, length) || crosses_typed_break (s, at, length))
    return;
  if (!contradicts
      && (is_unlikely_for_glyph (s, glyph, at, length)
          || is_unlikely_for_spacing_glyph (s, glyph, at, length)))
    cost += LIGATURE_COST;
  /* A nukta is drawn in its consonant's glyph (फ़), or alone over it: not at the head of
   * the next glyph's value (फ + ़ै). */
  if (!contradicts && length > 1
      && g_unichar_combining_class (g_array_index (s->typed->chars, gunichar, at)) == 7)
    cost += 1;

  g_array_append_val (s->bindings, binding);
  s->cost += cost;
  s->contradictions += contradicts;
  search_from (s, glyph + 1, at + length, word);
  s->contradictions -= contradicts;
  s->cost -= cost;
  pop_binding (s);
}

static gboolean
worse_than_best (const Search *s)
{
  guint disagreements = s->contradictions + s->inconsistencies;

  return s->found
         && (disagreements > s->best_contradictions
             || (disagreements == s->best_contradictions && s->cost >= s->best_cost));
}

static void
record_solution (Search *s)
{
  if (worse_than_best (s))
    return;
  s->found = TRUE;
  s->best_cost = s->cost;
  s->best_contradictions = s->contradictions + s->inconsistencies;
  s->best_inconsistencies = s->inconsistencies;
  g_array_set_size (s->best, 0);
  g_array_append_vals (s->best, s->bindings->data, s->bindings->len);
}

/* Where search_from() stands: the glyph it reads, the character typed there, the word
 * both are in, and what is known of the glyph's symbol. */
typedef struct
{
  guint glyph;
  guint at;
  guint word;
  guint word_end;
  guint symbol;
  const GArray *known;  /* the key's value in NFD, or NULL while unknown */
  const Binding *bound; /* what this reading already made the symbol spell, or NULL */
} Step;

/* Moves on to the next word at the end of a token and rules out what cannot spell the
 * rest. Returns FALSE when the search ends here (a whole reading is recorded then). */
static gboolean
begin_step (Search *s, guint glyph, guint at, guint word, Step *step)
{
  const Typed *typed = s->typed;
  guint glyphs_left, chars_left;

  /* With free word breaks the whole input is one stretch: search_from() moves on from
   * token to token. */
  step->word_end = s->free_words ? typed->chars->len : g_array_index (typed->word_end, guint, word);
  if (glyph == s->token_end[word] && !s->free_words)
    {
      if (at != step->word_end)
        return FALSE;
      if (++word == _dc_typed_n_words (typed) || word == s->n_words_only)
        {
          record_solution (s);
          return FALSE;
        }
      step->word_end = g_array_index (typed->word_end, guint, word);
    }
  step->glyph = glyph;
  step->at = at;
  step->word = word;

  glyphs_left = s->token_end[word] - glyph;
  chars_left = step->word_end - at;
  step->symbol = s->symbols[glyph];
  step->known = g_ptr_array_index (s->nfd_values, step->symbol);

  /* A glyph spells at least one character, unless it is known to spell nothing. */
  if (chars_left == 0 && (step->known == NULL || step->known->len > 0))
    return FALSE;
  if (glyphs_left > chars_left && glyphs_left - silent_glyphs (s, glyph, word) > chars_left)
    return FALSE;

  step->bound = find_binding (s, step->symbol);
  return TRUE;
}

/* The punctuation the user left out: a glyph that spells nothing typed elsewhere in the
 * run and that the table knows as punctuation, nothing, or not at all. */
static void
pass_omitted_punctuation (Search *s, const Step *step)
{
  gboolean punctuation = step->bound == NULL;

  for (guint i = 0; punctuation && step->known != NULL && i < step->known->len; i++)
    punctuation = g_unichar_ispunct (g_array_index (step->known, gunichar, i));
  if (punctuation)
    {
      s->cost += OMITTED_COST;
      search_from (s, step->glyph + 1, step->at + 1, step->word);
      s->cost -= OMITTED_COST;
    }
}

/* A zero-advance glyph drawn before the glyph of what it follows: the candrabindu of
 * তাঁ before its া (Noto Sans Bengali), the alef of a lam-alef before its lam (HarfBuzz
 * decomposing the ligature); or an alef with an advance, left of its lam, as text set
 * without shaping draws them, each letter a glyph of its own. This glyph spells the later
 * stretch, the next glyph the earlier one. */
static void
try_drawn_before (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  guint later, later_end, length;
  gboolean spells;

  if (s->swapped_end != 0 || s->no_advance == NULL
      || !drawn_before (typed, step->at, step->word_end, &later, &later_end)
      || (!s->no_advance[step->glyph]
          && g_array_index (typed->chars, gunichar, step->at) != 0x0644))
    return;

  length = later_end - later;
  if (bound != NULL)
    spells = bound->length == length
             && _dc_align_chars_equal (typed, later,
                                       &g_array_index (typed->chars, gunichar, bound->start),
                                       length);
  else if (known != NULL)
    spells = known->len == length
             && _dc_align_chars_equal (typed, later, (const gunichar *) (void *) known->data,
                                       length);
  else
    spells = TRUE;

  if (spells)
    {
      Binding binding = { step->symbol, later, length, FALSE };
      gboolean bind = bound == NULL && known == NULL;

      if (bind)
        g_array_append_val (s->bindings, binding);
      s->swapped_start = later;
      s->swapped_end = later_end;
      s->cost += 1;
      search_from (s, step->glyph + 1, step->at, step->word);
      s->cost -= 1;
      s->swapped_end = 0;
      if (bind)
        pop_binding (s);
    }
}

/* A format character typed (ZWNJ, ZWJ, the Mongolian vowel separator) draws no glyph of
 * its own: it is passed over, or, for the vowel separator, spelled with the letter after
 * it, whose glyph is the form it selects (ᠷ᠎ᠡ). Returns whether the step is taken care
 * of: FALSE when the glyph spells the format character itself. */
static gboolean
pass_invisible_format (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  gunichar format = g_array_index (typed->chars, gunichar, step->at);
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  gboolean spelled = (bound != NULL && bound->length > 0
                      && g_array_index (typed->chars, gunichar, bound->start) == format)
                     || (bound == NULL && known != NULL && known->len > 0
                         && g_array_index (known, gunichar, 0) == format);
  int cost = format == MONGOLIAN_VOWEL_SEPARATOR ? 1 : 0;

  if (spelled)
    return FALSE;
  if (bound == NULL && known == NULL && format == MONGOLIAN_VOWEL_SEPARATOR
      && step->at + 1 < step->word_end)
    {
      guint length = g_array_index (typed->cluster_end, guint, step->at + 1) - step->at;

      try_binding (s, step->glyph, step->at, step->word, step->symbol, length,
                   value_is_held (s, step->symbol, step->at, length) ? HELD_VALUE_COST : 0, FALSE);
    }
  s->cost += cost;
  search_from (s, step->glyph, step->at + 1, step->word);
  s->cost -= cost;
  return TRUE;
}

/* A symbol this reading already bound: it must spell the same again. */
static void
follow_binding (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  guint at = step->at;

  if (at + bound->length <= step->word_end && !crosses_swapped_mark (s, at, bound->length)
      && _dc_align_chars_equal (typed, at, &g_array_index (typed->chars, gunichar, bound->start),
                                bound->length))
    search_from (s, step->glyph + 1, at + bound->length, step->word);
  /* Typed once against the table and once with it: more likely a slip of the keyboard
   * than a wrong table, which tells the user where to look. */
  else if (bound->contradicts && known != NULL && at + known->len <= step->word_end
           && _dc_align_chars_equal (typed, at, (const gunichar *) (void *) known->data,
                                     known->len))
    {
      s->inconsistencies++;
      search_from (s, step->glyph + 1, at + known->len, step->word);
      s->inconsistencies--;
    }
}

/* A symbol the table knows: it spells its value, or, when the search may relax, what the
 * user typed against the table. */
static void
follow_known (Search *s, const Step *step)
{
  const GArray *known = step->known;
  DcKeyStatus status;

  if (step->at + known->len <= step->word_end && !crosses_swapped_mark (s, step->at, known->len)
      && _dc_align_chars_equal (s->typed, step->at, (const gunichar *) (void *) known->data,
                                known->len))
    {
      search_from (s, step->glyph + 1, step->at + known->len, step->word);
      return;
    }
  status = dc_key_get_status (s->key, step->symbol);
  if (!s->relaxed || (status == DC_KEY_FROM_PDF && !s->relax_all))
    return;
  try_binding (s, step->glyph, step->at, step->word, step->symbol,
               g_array_index (s->typed->cluster_end, guint, step->at) - step->at, 0, TRUE);
}

/* What it costs to read clusters [@at, @previous + 1) as one glyph, @clusters of them. */
static int
joined_cost (const Typed *typed, guint at, guint previous, guint clusters)
{
  /* A below- or post-base form (্য, ্র) is one glyph for the virama and the consonant
   * after it: no ligature. */
  if (clusters == 2 && previous == at + 1 && _dc_align_post_base_form_at (typed, at))
    return 0;
  /* Nor is a consonant with the RA drawn below it (त्र: न् + त्र, not न्त + ्र). */
  if (clusters == 2 && previous >= at + 2 && _dc_align_below_base_ra_at (typed, previous - 1))
    return 0;
  /* Most conjuncts are one glyph in Bengali fonts (ন্ধ, ক্ত): a little cheaper than a
   * mark's glyph spelling the letter before it (ন্ + ধু) — unless the conjunct ends in a
   * post-base form, which has a glyph of its own (ক্ষ + ্য, not ক্ + ষ্য). */
  if (_dc_align_is_conjunct (typed, at, previous + 1)
      && !(previous >= at + 2 && _dc_align_post_base_form_at (typed, previous - 1)
           && !_dc_align_below_base_ra_at (typed, previous - 1)))
    return (int) (clusters - 1) * CONJUNCT_COST;
  return (int) (clusters - 1) * LIGATURE_COST;
}

/* Whether typed chars [@at, @end) are marks alone that fonts do not draw as one glyph:
 * - several combining diacritics (U+0300–U+036F). Fonts draw each diacritic a glyph of
 *   its own, or a letter with the one under it precomposed: ọ́ typed o ̣ ́ is ọ and ́, not
 *   o and a glyph of ̣ ́, which read the same in the word typed and taught its ọ glyph o
 *   (a Yoruba page, ọjà read ojà);
 * - a spacing mark after a nonspacing one. The spacing mark (the anusvara ං ం ಂ) takes
 *   room of its own after the cluster, a glyph of its own; the nonspacing vowel sign
 *   before it is drawn over its consonant, often fused with it: සිං is සි and ං, not ස
 *   and a glyph of ිං, which read the same in සිංහල and made ලංකාව a conflict.
 * Marks that stack over one base (Lao ຶ້, Thai ี่) and a spacing sign with the mark it
 * carries (Sinhala ා්, Devanagari ीं) are glyphs fonts do draw. */
static gboolean
marks_drawn_apart (const Typed *typed, guint at, guint end)
{
  gboolean combining = TRUE, nonspacing = FALSE, spacing_after = FALSE;

  if (end - at < 2)
    return FALSE;
  for (guint i = at; i < end; i++)
    {
      gunichar c = g_array_index (typed->chars, gunichar, i);
      GUnicodeType type = g_unichar_type (c);

      if (!g_unichar_ismark (c))
        return FALSE;
      combining = combining && c >= 0x0300 && c <= 0x036F;
      spacing_after = spacing_after || (nonspacing && type == G_UNICODE_SPACING_MARK);
      nonspacing = nonspacing || type == G_UNICODE_NON_SPACING_MARK;
    }
  return combining || spacing_after;
}

/* What it costs a glyph to spell a letter with the spacing vowel sign after it (কা):
 * rare where fonts may fuse them, a ligature's price where they never do. */
static int
spacing_sign_cost (const Typed *typed, guint at)
{
  return _dc_align_may_fuse_spacing_sign (g_array_index (typed->chars, gunichar, at))
             ? 1
             : LIGATURE_COST;
}

/* An unknown symbol: a whole cluster, a single code point of it (a mark drawn as its own
 * glyph, or the base it sits on), or a ligature of two or three clusters. */
static void
try_unknown (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  guint glyph = step->glyph, at = step->at, word = step->word, symbol = step->symbol;
  guint cluster = g_array_index (typed->cluster_end, guint, at) - at;
  guint end = at;

  for (guint clusters = 1; clusters <= 3 && end < step->word_end; clusters++)
    {
      guint length, previous = end;
      int joined;

      end = g_array_index (typed->cluster_end, guint, end);
      length = end - at;
      joined = joined_cost (typed, at, previous, clusters);
      /* A conjunct glyph followed by the glyph of its vowel sign (स्थ + ा for स्था): the
       * conjunct takes the last cluster's consonant, not its marks. */
      if (clusters > 1 && end - previous > 1
          && _dc_align_is_plausible_ligature (typed, at, previous + 1))
        try_binding (s, glyph, at, word, symbol, previous + 1 - at,
                     joined
                         + (value_is_held (s, symbol, at, previous + 1 - at) ? HELD_VALUE_COST : 0),
                     FALSE);
      if (clusters > 1 && !_dc_align_is_plausible_ligature (typed, at, end))
        continue;
      try_binding (s, glyph, at, word, symbol, length,
                   joined
                       /* দ্ + য: the virama belongs to the য-phala's glyph. */
                       + (length > 1 && _dc_align_post_base_form_at (typed, end - 1) ? 1 : 0)
                       + (clusters == 1 && _dc_align_draws_spacing_sign (typed, at, end)
                              ? spacing_sign_cost (typed, at)
                              : 0)
                       + (clusters > 1 && end - previous > 1
                                  && _dc_align_has_vowel_sign (typed, previous + 1, end)
                              ? LIGATURE_COST
                              : 0)
                       + (clusters == 1 && marks_drawn_apart (typed, at, end) ? STACKED_MARKS_COST
                                                                              : 0)
                       + (value_is_held (s, symbol, at, length) ? HELD_VALUE_COST : 0),
                   FALSE);
    }
  /* The base alone, or with some of its marks, the rest drawn by the glyphs after: ज़ + ा
   * (a nukta form before its vowel sign), हू + ँ (a consonant-vowel ligature before the
   * candrabindu). */
  for (guint prefix = 1; prefix < cluster; prefix++)
    try_binding (s, glyph, at, word, symbol, prefix,
                 value_is_held (s, symbol, at, prefix) ? HELD_VALUE_COST : 0, FALSE);
}

/* The aligner's search: glyph @glyph against character @at of word @word, each way a
 * glyph can spell what is typed tried in turn (try_binding() recurses back here). */
static void
search_from (Search *s, guint glyph, guint at, guint word)
{
  Step step;

  if (++s->steps > MAX_SEARCH_STEPS)
    {
      s->gave_up = TRUE;
      return;
    }
  if (worse_than_best (s))
    return;

  /* The stretch a swapped glyph already spelled is passed over. */
  if (s->swapped_end > 0 && at == s->swapped_start)
    {
      guint swapped_end = s->swapped_end;

      s->swapped_end = 0;
      search_from (s, glyph, swapped_end, word);
      s->swapped_end = swapped_end;
      return;
    }

  if (s->free_words && glyph == s->token_end[word])
    {
      const Typed *typed = s->typed;
      int cost;

      /* A token ends at a cluster boundary; where no typed space is, that costs. */
      if (at > 0 && at < typed->chars->len
          && g_array_index (typed->cluster_end, guint, at - 1) != at)
        return;
      if (word + 1 == s->n_tokens)
        {
          if (at == typed->chars->len)
            record_solution (s);
          return;
        }
      cost = is_typed_word_end (typed, at) ? 0 : RESEGMENT_COST;
      s->cost += cost;
      search_from (s, glyph, at, word + 1);
      s->cost -= cost;
      return;
    }
  if (!begin_step (s, glyph, at, word, &step))
    return;

  if (step.at < step.word_end
      && g_array_index (s->typed->chars, gunichar, step.at) == DC_TYPED_OMITTED_PUNCTUATION)
    {
      pass_omitted_punctuation (s, &step);
      return;
    }
  try_drawn_before (s, &step);
  /* The search it made may have grown the bindings into new memory (ASan caught the old
   * pointer read in follow_binding()); what it bound it also took back, so the binding is
   * still there, at its place. */
  if (step.bound != NULL)
    step.bound = find_binding (s, step.symbol);
  if (step.at < step.word_end
      && _dc_align_is_invisible_format (g_array_index (s->typed->chars, gunichar, step.at))
      && pass_invisible_format (s, &step))
    return;
  if (step.bound != NULL)
    follow_binding (s, &step);
  else if (step.known != NULL)
    follow_known (s, &step);
  else
    try_unknown (s, &step);
}

/* Aligns the typed words with the run; on return s->found says whether a reading
 * exists and s->best holds the cheapest one. s->bindings, the search's scratch, may be
 * given (the caller's, emptied here and left to it) or left NULL; so may s->best (a
 * query aligns thousands of runs, most of which read no way at all).
 *
 * With s->n_words_only, the search ends where those first words are read: until a
 * whole reading is found, the search of a run goes through exactly the readings of its
 * first words that this one goes through, so when this one finds none and has not
 * given up, neither does the search of any run that starts with the same glyphs. */
void
_dc_search_run (Search *s)
{
  gboolean own_bindings = s->bindings == NULL;

  g_assert (s->typed != NULL && s->symbols != NULL && s->token_end != NULL);
  g_assert (!s->free_words || s->n_tokens > 0);

  if (own_bindings)
    s->bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  g_array_set_size (s->bindings, 0);
  if (s->best == NULL)
    s->best = g_array_new (FALSE, FALSE, sizeof (Binding));
  else
    g_array_set_size (s->best, 0);
  search_from (s, 0, 0, 0);
  if (own_bindings)
    g_clear_pointer (&s->bindings, g_array_unref);
  else
    s->bindings = NULL;
}
