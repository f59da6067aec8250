/* dc-readings-score.c: a reading of a font scored word by distinct word
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-readings.c, which reads the font's text and judges the readings by their
 * scores. The text's words are listed once each with their counts (make_words()), and a
 * reading that gives few symbols a value is scored as the text with no values, scored once,
 * plus what its values change in the words they stand in (_dc_readings_score()).
 */

#define G_LOG_DOMAIN "dc-readings"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dc-readings-state-private.h"

/* Adds @weight times @word's log likelihood in each language to @totals, as
 * _dc_ngram_score_word() does, through the words shared if there are. */
static void
add_word (DcReadings *self, const gunichar *word, guint length, double weight, double *totals)
{
  if (self->shared != NULL)
    _dc_ngram_words_score (self->shared, _dc_ngram_words_intern (self->shared, word, length),
                           weight, totals);
  else
    _dc_ngram_score_word (word, length, weight, totals);
}

/* Whether two words' items are the same: words are short, and most repeat, so this is
 * asked of most words of the text; a call to memcmp() cost more than the comparing. */
static inline gboolean
same_items (const guint32 *a, const guint32 *b, guint length)
{
  for (guint i = 0; i < length; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

/* Per open symbol, the words it stands in: a reading that gives few symbols a value
 * changes those words only. */
static void
index_words (DcReadings *self, const guint32 *items)
{
  guint n_open = self->open->len;
  g_autofree guint *last = g_new (guint, MAX (1, n_open)); /* the word it was listed for */
  guint *next;

  self->word_starts = g_new0 (guint, n_open + 1);
  for (guint pass = 0; pass < 2; pass++)
    {
      memset (last, 0xFF, sizeof (guint) * MAX (1, n_open));
      next = pass == 0 ? NULL : g_memdup2 (self->word_starts, sizeof (guint) * (n_open + 1));
      for (guint w = 0; w < self->n_words; w++)
        {
          const Word *word = &self->words[w];

          self->n_open_words += pass == 0 && word->open;
          for (guint k = word->start; word->open && k < word->start + word->length; k++)
            {
              guint o = items[k] & 0x7FFFFFFFu;

              if ((items[k] & 0x80000000u) == 0 || last[o] == w)
                continue;
              last[o] = w;
              if (pass == 0)
                self->word_starts[o + 1]++;
              else
                self->words_of[next[o]++] = w;
            }
        }
      if (pass == 0)
        {
          for (guint o = 0; o < n_open; o++)
            self->word_starts[o + 1] += self->word_starts[o];
          self->words_of = g_new (guint, MAX (1, self->word_starts[n_open]));
        }
      g_free (next);
    }
}

/* @slots (of @mask + 1) twice as large, the @n_words @words filed in it again. */
static guint *
grow_slots (const Word *words, guint n_words, const guint32 *items, guint *slots, gsize *mask)
{
  gsize grown_mask = 2 * *mask + 1;
  guint *grown = g_new0 (guint, grown_mask + 1);

  for (guint w = 0; w < n_words; w++)
    {
      const Word *word = &words[w];
      gsize slot = hash_items (items + word->start, word->length) & grown_mask;

      while (grown[slot] != 0)
        slot = (slot + 1) & grown_mask;
      grown[slot] = w + 1;
    }
  g_free (slots);
  *mask = grown_mask;
  return grown;
}

/* The sequence's words, each once with its count (the words _dc_ngram_score() would
 * split the text of any reading into: BREAK is the text's only space, make_text()), and
 * the words without open symbols scored. */
static void
make_words (DcReadings *self)
{
  guint n = self->length, n_languages = _dc_ngram_n_languages ();
  const guint32 *sequence = self->sequence, *open_of = self->open_of;
  const gunichar *fixed = self->fixed;
  g_autofree guint32 *items = g_new (guint32, MAX (1, n));
  /* A word's index + 1, 0: empty. Sized by the distinct words as they come, at most half
   * full: a text repeats its words, and a table for twice its glyphs was a quarter of a
   * megabyte zeroed for every font, a quarter of the page faults of `text` on a book of
   * many fonts. Which slot a word has changes nothing but the time to find it. */
  gsize mask = 1023;
  g_autofree guint *slots = g_new0 (guint, mask + 1);
  guint i = 0;
  /* The words, grown here rather than appended to through a call (a book's fonts list
   * tens of thousands), and kept in locals: through the readings, a word stored could
   * have changed their count. */
  guint capacity = 256, n_words = 0;
  Word *words = g_new (Word, capacity);

  self->known_totals = g_new0 (double, MAX (1, n_languages));
  while (i < n)
    {
      guint start, length;
      guint32 hash = HASH_ITEMS_START;
      gboolean open = FALSE;
      gsize slot;

      while (i < n && sequence[i] == BREAK)
        items[i++] = 0;
      /* The word's items, whether it is open and its hash, in one look at its entries. */
      for (start = i; i < n && sequence[i] != BREAK; i++)
        {
          guint32 o = open_of[sequence[i]];

          items[i] = o != NONE ? 0x80000000u | o : fixed[i];
          open |= o != NONE;
          hash = hash_item (hash, items[i]);
        }
      if ((length = i - start) == 0)
        break;
      for (slot = hash & mask; slots[slot] != 0; slot = (slot + 1) & mask)
        {
          Word *word = &words[slots[slot] - 1];

          if (word->length == length && same_items (items + word->start, items + start, length))
            {
              word->count++;
              break;
            }
        }
      if (slots[slot] == 0)
        {
          Word word = { start, length, 1, open };

          if (G_UNLIKELY (n_words == capacity))
            words = g_renew (Word, words, capacity *= 2);
          words[n_words++] = word;
          slots[slot] = n_words;
          self->longest = MAX (self->longest, length);
          if (2 * (gsize) n_words > mask)
            slots = grow_slots (words, n_words, items, slots, &mask);
        }
    }
  self->words = words;
  self->n_words = n_words;
  for (guint w = 0; w < self->n_words; w++)
    {
      const Word *word = &self->words[w];

      if (!word->open)
        add_word (self, self->fixed + word->start, word->length, word->count, self->known_totals);
    }
  index_words (self, items);
  self->unvalued = self->shared != NULL ? self->shared : _dc_ngram_words_new ();
  self->unvalued_of = g_new0 (guint, MAX (1, self->n_words));
  self->valued = g_new0 (gboolean, MAX (1, self->n_words));
  self->valued_words = g_new (guint, MAX (1, self->n_words));
}

/* The text @values (NULL: none, every open symbol an unknown character) make of @word,
 * into @text. */
static void
word_text (DcReadings *self, const Word *word, const gunichar *values, gunichar *text)
{
  for (guint k = 0; k < word->length; k++)
    {
      guint i = word->start + k;
      guint32 open = self->open_of[self->sequence[i]];
      gunichar u = open == NONE ? self->fixed[i] : values != NULL ? values[open] : 0;

      /* As make_text() has it: no value, or a space, is an unknown character. */
      if (open != NONE && (u == 0 || u == ' '))
        u = 0xFFFD;
      text[k] = u;
    }
}

/* Adds @weight times what the open word @w adds with no value, as _dc_ngram_score_word()
 * on word_text() with no values would. */
static void
add_unvalued (DcReadings *self, guint w, double weight, double *totals, gunichar *text)
{
  const Word *word = &self->words[w];

  if (self->unvalued_of[w] == 0)
    {
      word_text (self, word, NULL, text);
      self->unvalued_of[w] = (self->shared != NULL
                                  ? _dc_ngram_words_intern (self->shared, text, word->length)
                                  : _dc_ngram_words_add (self->unvalued, text, word->length))
                             + 1;
    }
  _dc_ngram_words_score (self->unvalued, self->unvalued_of[w] - 1, weight, totals);
}

static int
compare_words (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* Adds to @totals each language's log likelihood of the text @values make of the
 * sequence, as _dc_ngram_score() on make_text() would, word by distinct word. A reading
 * that gives few symbols a value (dc-references.c asks about one at a time) is the text
 * with no values, scored once, plus what its values change in the words they stand in.
 * The words are added in their order whichever way, so the sums are the same to the bit. */
void
_dc_readings_score (DcReadings *self, const gunichar *values, double *totals)
{
  guint n_languages = _dc_ngram_n_languages ();
  g_autofree gunichar *text = NULL;
  guint *valued_words, n_valued = 0;
  gboolean by_change;

  if (self->words == NULL)
    make_words (self);
  text = g_new (gunichar, MAX (1, self->longest));
  /* The words a value stands in: none, a space or U+FFFD is the unknown character. Only
   * those are looked at, not every word, where the value is one symbol's. */
  valued_words = self->valued_words;
  for (guint o = 0; o < self->open->len; o++)
    if (values[o] != 0 && values[o] != ' ' && values[o] != 0xFFFD)
      for (guint k = self->word_starts[o]; k < self->word_starts[o + 1]; k++)
        if (!self->valued[self->words_of[k]])
          {
            self->valued[self->words_of[k]] = TRUE;
            valued_words[n_valued++] = self->words_of[k];
          }
  /* Listed in order already where one symbol has a value (each symbol's words are). */
  for (guint i = 1; i < n_valued; i++)
    if (valued_words[i - 1] > valued_words[i])
      {
        qsort (valued_words, n_valued, sizeof (guint), compare_words);
        break;
      }
  /* A changed word is scored twice, with its values and without. */
  by_change = 2 * n_valued < self->n_open_words;
  if (by_change && self->unvalued_totals == NULL)
    {
      self->unvalued_totals = g_memdup2 (self->known_totals,
                                         sizeof (double) * MAX (1, n_languages));
      for (guint w = 0; w < self->n_words; w++)
        if (self->words[w].open)
          add_unvalued (self, w, self->words[w].count, self->unvalued_totals, text);
    }
  for (guint l = 0; l < n_languages; l++)
    totals[l] += by_change ? self->unvalued_totals[l] : self->known_totals[l];
  for (guint i = 0, n = by_change ? n_valued : self->n_words; i < n; i++)
    {
      guint w = by_change ? valued_words[i] : i;
      const Word *word = &self->words[w];

      if (!word->open)
        continue;
      /* A word no value stands in reads as with none. */
      if (!self->valued[w])
        {
          add_unvalued (self, w, word->count, totals, text);
          continue;
        }
      if (by_change)
        add_unvalued (self, w, -(double) word->count, totals, text);
      word_text (self, word, values, text);
      add_word (self, text, word->length, word->count, totals);
    }
  for (guint i = 0; i < n_valued; i++)
    self->valued[valued_words[i]] = FALSE;
}
