/* dc-ngram-words.c: words looked up in the language models once, scored as often as asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-ngram.c, which reads the models and looks words up in them. A reading of a
 * font (dc-readings.c) scores the same words over and over: DcNgramWords keeps each word
 * as it was looked up (its listed n-grams' entries and its characters' costs) and adds it
 * again at any weight, exactly as scoring it again would; words interned in it
 * (_dc_ngram_words_intern()) are looked up once however often they are asked for.
 */

#define G_LOG_DOMAIN "dc-ngram"

#include "config.h"

#include <string.h>

#include "dc-hash-private.h"
#include "dc-ngram-look-private.h"
#include "dc-ngram-private.h"

#define MAX_N DC_NGRAM_MAX_N
#define models _dc_ngram_models
#define look_up_word _dc_ngram_look_up_word
#define make_terms _dc_ngram_make_terms
#define add_looked _dc_ngram_add_looked

typedef DcNgramModels Models;

/* Words looked up once, each kept as its runs and counts (their places in the arrays
 * below), to be added at any weight as often as asked. */
typedef struct
{
  guint first_run;
  guint first_count;
  /* Its Looked but for the runs and counts, which move as the arrays grow: a store keeps
   * tens of thousands of words. */
  guint n_runs;
  guint n_counts;
  guint n_ngrams;
  guint n_singles;
  guint first_char; /* of the word's text in texts, when it was interned */
  guint length;
  guint terms; /* where its make_terms() are in terms, or G_MAXUINT */
} Kept;

/* An array grown without a call a word: GArray's appends were a sixth of keeping one. */
typedef struct
{
  gpointer data;
  guint len;
  guint capacity;
} Vec;

#define VEC_AT(vec, type, i) (((type *) (vec).data)[i])

static G_GNUC_NO_INLINE void
vec_grow (Vec *vec, guint n, gsize size)
{
  vec->capacity = MAX (MAX (2 * vec->capacity, vec->len + n), 64);
  vec->data = g_realloc_n (vec->data, vec->capacity, size);
}

/* Appends @n items of @size bytes, copied from @items, and returns where they went. */
static inline gpointer
vec_append (Vec *vec, gconstpointer items, guint n, gsize size)
{
  gpointer at;

  if (n == 0)
    return NULL;
  if (G_UNLIKELY (vec->len + n > vec->capacity))
    vec_grow (vec, n, size);
  at = (char *) vec->data + (gsize) vec->len * size;
  memcpy (at, items, n * size);
  vec->len += n;
  return at;
}

struct _DcNgramWords
{
  Vec words;  /* Kept */
  Vec runs;   /* Run */
  Vec counts; /* ScriptCount */
  /* The texts of the words interned (_dc_ngram_words_intern()), and a table of them: a
   * word's index + 1, 0 empty, at most half full. */
  Vec texts; /* gunichar */
  guint *slots;
  gsize mask;
  guint n_interned;
  /* The make_terms() of the kinds of word kept (how many n-grams and lone characters, of
   * which script, how many letters of it unlisted), n_languages each, and the kinds: a
   * word scored again adds two numbers a language rather than four. Only in a store
   * words are interned in, whose words are scored over and over, and for MAX_KINDS kinds
   * at most: each costs a double a language. */
  GArray *terms;     /* double */
  GHashTable *kinds; /* guint64 * → terms index + 1 */
  gboolean interning;
};

/**
 * _dc_ngram_words_new:
 *
 * A store of words looked up once and scored at any weight after
 * (_dc_ngram_words_score()): what a text scores over and over, such as the words a
 * reading leaves as they are, costs one look-up.
 */
DcNgramWords *
_dc_ngram_words_new (void)
{
  DcNgramWords *self = g_new0 (DcNgramWords, 1);

  self->terms = g_array_new (FALSE, FALSE, sizeof (double));
  self->kinds = g_hash_table_new_full (_dc_hash_u64, g_int64_equal, g_free, NULL);
  return self;
}

void
_dc_ngram_words_free (DcNgramWords *self)
{
  if (self == NULL)
    return;
  g_free (self->words.data);
  g_free (self->runs.data);
  g_free (self->counts.data);
  g_free (self->texts.data);
  g_free (self->slots);
  g_array_unref (self->terms);
  g_hash_table_unref (self->kinds);
  g_free (self);
}

/* The kinds of word given their own terms at most, in one store (a book of many fonts has
 * a thousand; the commonest come first). */
#define MAX_KINDS 512

/* Where the make_terms() of @looked's kind of word are in @self's terms, made if it has
 * none: G_MAXUINT for a word of several scripts, or too long to tell its kind in 64 bits,
 * or where there are MAX_KINDS kinds already. */
static guint
find_terms (DcNgramWords *self, Models *m, const Looked *looked, const ScriptCount *counts)
{
  const ScriptCount *count = looked->n_counts == 1 ? &counts[0] : NULL;
  guint64 kind;
  guint index;
  Looked with_counts = *looked;

  if (looked->n_counts > 1 || looked->n_ngrams >= 1u << 20 || looked->n_singles >= 1u << 16
      || (count != NULL && ((guint) count->script >= 1u << 12 || count->letters >= 1u << 8)))
    return G_MAXUINT;
  kind = (guint64) looked->n_ngrams | (guint64) looked->n_singles << 20;
  if (count != NULL)
    kind |= (guint64) (count->script + 1) << 36 | (guint64) count->letters << 48
            | (guint64) count->unlisted << 56;
  if ((index = GPOINTER_TO_UINT (g_hash_table_lookup (self->kinds, &kind))) > 0)
    return index - 1;
  if (g_hash_table_size (self->kinds) >= MAX_KINDS)
    return G_MAXUINT;
  index = self->terms->len;
  g_array_set_size (self->terms, index + m->names->len);
  with_counts.counts = counts;
  make_terms (m, &with_counts, &g_array_index (self->terms, double, index));
  g_hash_table_insert (self->kinds, g_memdup2 (&kind, sizeof kind), GUINT_TO_POINTER (index + 1));
  return index;
}

/**
 * _dc_ngram_words_add:
 * @word: (array length=length): a word's characters, no U+0020 among them
 *
 * Looks @word up and keeps it.
 *
 * Returns: its index, for _dc_ngram_words_score()
 */
guint
_dc_ngram_words_add (DcNgramWords *self, const gunichar *word, gsize length)
{
  Models *m = models ();
  LookRoom room;
  Kept kept = { 0 };
  Looked looked = { 0 };

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (word != NULL || length == 0, 0);

  look_room_init (&room, length);
  kept.first_run = self->runs.len;
  kept.first_count = self->counts.len;

  if (length > 0)
    {
      look_up_word (m, word, length, room.chars, room.runs, room.counts, &looked);
      vec_append (&self->runs, room.runs, looked.n_runs, sizeof (Run));
      vec_append (&self->counts, room.counts, looked.n_counts, sizeof (ScriptCount));
    }
  kept.n_runs = looked.n_runs;
  kept.n_counts = looked.n_counts;
  kept.n_ngrams = looked.n_ngrams;
  kept.n_singles = looked.n_singles;
  kept.first_char = G_MAXUINT;
  kept.terms = length > 0 && self->interning ? find_terms (self, m, &looked, room.counts)
                                             : G_MAXUINT;
  vec_append (&self->words, &kept, 1, sizeof (Kept));
  look_room_clear (&room);
  return self->words.len - 1;
}

static guint32
hash_text (const gunichar *word, gsize length)
{
  guint32 hash = 2166136261u;

  for (gsize i = 0; i < length; i++)
    hash = (hash ^ word[i]) * 16777619u;
  return hash;
}

/* Whether the interned word @index is @word. */
static gboolean
is_text (DcNgramWords *self, guint index, const gunichar *word, gsize length)
{
  const Kept *kept = &VEC_AT (self->words, Kept, index);
  const gunichar *text = &VEC_AT (self->texts, gunichar, kept->first_char);

  /* Not memcmp(): words are short, and its call cost more than the comparing. */
  if (kept->length != length)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (text[i] != word[i])
      return FALSE;
  return TRUE;
}

/* The table twice as large, the interned words filed in it again. */
static void
grow_slots (DcNgramWords *self)
{
  gsize mask = 2 * self->mask + 1;
  guint *slots = g_new0 (guint, mask + 1);

  for (guint w = 0; w < self->words.len; w++)
    {
      const Kept *kept = &VEC_AT (self->words, Kept, w);
      gsize slot;

      if (kept->first_char == G_MAXUINT)
        continue;
      slot = hash_text (&VEC_AT (self->texts, gunichar, kept->first_char), kept->length) & mask;
      while (slots[slot] != 0)
        slot = (slot + 1) & mask;
      slots[slot] = w + 1;
    }
  g_free (self->slots);
  self->slots = slots;
  self->mask = mask;
}

/**
 * _dc_ngram_words_intern:
 * @word: (array length=length): a word's characters, no U+0020 among them
 *
 * Like _dc_ngram_words_add(), but a word interned before is not looked up again: its
 * index is returned. A text's readings repeat their words (each reading changes a few of
 * them, and the font's other readings and other fonts hold the same words).
 *
 * Returns: its index, for _dc_ngram_words_score()
 */
guint
_dc_ngram_words_intern (DcNgramWords *self, const gunichar *word, gsize length)
{
  gsize slot;
  guint index;
  Kept *kept;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (word != NULL || length == 0, 0);

  if (self->slots == NULL)
    {
      self->mask = 1023;
      self->slots = g_new0 (guint, self->mask + 1);
    }
  for (slot = hash_text (word, length) & self->mask; self->slots[slot] != 0;
       slot = (slot + 1) & self->mask)
    if (is_text (self, self->slots[slot] - 1, word, length))
      return self->slots[slot] - 1;
  self->interning = TRUE;
  index = _dc_ngram_words_add (self, word, length);
  kept = &VEC_AT (self->words, Kept, index);
  kept->first_char = self->texts.len;
  kept->length = (guint) length;
  vec_append (&self->texts, word, (guint) length, sizeof (gunichar));
  self->slots[slot] = index + 1;
  if (2 * (gsize) ++self->n_interned > self->mask)
    grow_slots (self);
  return index;
}

/**
 * _dc_ngram_words_score:
 * @index: a word's, as _dc_ngram_words_add() returned it
 * @totals: (array): one per language
 *
 * Adds exactly what _dc_ngram_score_word() with the word and @weight would, in the same
 * order.
 */
void
_dc_ngram_words_score (DcNgramWords *self, guint index, double weight, double *totals)
{
  Kept *kept;
  Looked looked;

  g_return_if_fail (self != NULL && index < self->words.len);

  kept = &VEC_AT (self->words, Kept, index);
  if (kept->n_ngrams == 0)
    return;
  looked = (Looked){ kept->n_runs > 0 ? &VEC_AT (self->runs, Run, kept->first_run) : NULL,
                     kept->n_runs,
                     kept->n_counts > 0 ? &VEC_AT (self->counts, ScriptCount, kept->first_count)
                                        : NULL,
                     kept->n_counts,
                     kept->n_ngrams,
                     kept->n_singles };
  add_looked (models (), &looked,
              kept->terms != G_MAXUINT ? &g_array_index (self->terms, double, kept->terms) : NULL,
              weight, totals);
}
