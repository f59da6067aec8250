/* dc-readings-state-private.h: what the readings of a font hold, shared by dc-readings.c
 * (which reads the font's text and judges the readings) and dc-readings-score.c (which
 * scores a reading word by distinct word)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-ngram-private.h"
#include "dc-readings-private.h"

G_BEGIN_DECLS

#define BREAK G_MAXUINT32
#define NONE G_MAXUINT32

typedef struct
{
  char *name;
  gunichar *values; /* per open symbol; 0 where the reading has none */
  double score;     /* the best language's log likelihood */
  guint language;
} Reading;

/* A reading scored, kept across _dc_readings_clear(): the same values score the same, to
 * the bit, on the same text (dc-references-apply.c asks again after the key changed
 * elsewhere). */
typedef struct
{
  gunichar *values;
  guint32 hash;
  double score;
  guint language;
} Scored;

/* A word of the sequence, each once: a text repeats its words, so a reading is scored in
 * the time of its distinct words, not of its glyphs. Two words are the same when they
 * hold the same open symbols and known characters in the same order: every reading makes
 * the same text of them. */
typedef struct
{
  guint start;   /* in the sequence, where the word first stands */
  guint length;  /* of the sequence's entries, no BREAK among them */
  guint count;   /* how many times it stands */
  gboolean open; /* whether an open symbol stands in it */
} Word;

struct _DcReadings
{
  DcKey *key;
  gboolean owns_key; /* FALSE: the key keeps the readings (_dc_readings_new_kept()) */
  GArray *open;      /* guint: the font's symbols the key does not know */
  guint32 *open_of;  /* symbol → index into open, or NONE */
  /* The font's glyphs in reading order, BREAK between words; NULL until read_text(). */
  guint32 *sequence;
  gunichar *fixed;           /* per sequence entry: a known symbol's character, or 0 */
  guint length;              /* of the sequence */
  guint capacity;            /* of sequence and fixed */
  guint *occurrences;        /* per open symbol: glyphs in the sequence */
  GArray *readings;          /* Reading */
  DcReadingsTrustFunc trust; /* NULL: every known value */
  guint font;
  /* The font's symbols, and what each stood as when the readings were made and read:
   * OPEN, NOT_READ or its character (stands_as()). */
  const guint32 *font_symbols; /* the document's (_dc_document_get_font_symbols()) */
  guint32 *state;
  guint n_font_symbols;
  GArray *scored; /* Scored */
  Word *words;    /* in the order they first stand; NULL until scored */
  guint n_words;
  guint longest; /* the longest word's length */
  /* Per language, the words without an open symbol: the same in every reading. */
  double *known_totals;
  /* The same, and the words with open symbols, none of them given a value. */
  double *unvalued_totals;
  /* Per open symbol, the words it stands in: words_of[word_starts[o]] onwards, up to
   * word_starts[o + 1]. */
  guint *word_starts;
  guint *words_of;
  guint n_open_words;
  guint known_letters; /* the letters of the symbols the key knows */
  /* The open words as they read with no value, each looked up at its first scoring and
   * then added again from there (index + 1 per word, 0: not yet): every reading scores
   * the words its values leave alone, or takes them back out, the same. */
  DcNgramWords *unvalued;
  guint *unvalued_of;
  /* Where every word is looked up, shared with other readings (_dc_readings_share_words()),
   * or NULL: each word on its own, the open words with no value in unvalued. */
  DcNgramWords *shared;
  /* _dc_readings_score()'s words a value stands in: per word, FALSE between calls, and as a list.
   */
  gboolean *valued;
  guint *valued_words; /* room for every word */
};

#define HASH_ITEMS_START 2166136261u

/* @hash, from HASH_ITEMS_START, on with @item. */
static inline guint32
hash_item (guint32 hash, guint32 item)
{
  return (hash ^ item) * 16777619u;
}

static inline guint32
hash_items (const guint32 *items, guint length)
{
  guint32 hash = HASH_ITEMS_START;

  for (guint i = 0; i < length; i++)
    hash = hash_item (hash, items[i]);
  return hash;
}

void _dc_readings_score (DcReadings *self, const gunichar *values, double *totals);

G_END_DECLS
