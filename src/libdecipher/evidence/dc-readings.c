/* dc-readings.c: readings of a font, judged by the text they make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A legacy font's glyphs can be read several ways: as its PDF text says (Latin-1 soup),
 * through a code page, through the characters its own cmap or an installed twin's gives
 * each outline. Each reading turns the font's run of glyphs into a text, and a language
 * model (dc-ngram.c) says how much that text reads like some language. A reading is
 * chosen only when it beats every other clearly: by DC_READINGS_MIN_MARGIN nats for each
 * glyph drawn where the two differ, so that readings that differ in a few codes (windows-1251
 * and MacCyrillic share their small letters) are told apart by those codes alone.
 */

#define G_LOG_DOMAIN "dc-readings"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dc-document-private.h"
#include "dc-ngram-private.h"
#include "dc-readings-private.h"

/* The glyphs read: enough for a language, few enough for a book to stay quick. */
#define MAX_GLYPHS 20000
#define BREAK G_MAXUINT32
#define NONE G_MAXUINT32
/* In a font symbol's state (_dc_readings_matches()): open; or known, the text not read yet. */
#define OPEN G_MAXUINT32
#define NOT_READ 0

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
  guint *font_symbols;
  guint32 *state;
  guint n_font_symbols;
  GArray *scored; /* Scored */
  GArray *words;  /* Word, in the order they first stand; NULL until scored */
  guint longest;  /* the longest word's length */
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
  /* score()'s words a value stands in: per word, FALSE between calls, and as a list. */
  gboolean *valued;
  guint *valued_words; /* room for every word */
};

static void
reading_clear (gpointer data)
{
  Reading *reading = data;

  g_free (reading->name);
  g_free (reading->values);
}

void
_dc_readings_free (DcReadings *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->open);
  g_free (self->open_of);
  g_free (self->sequence);
  g_free (self->fixed);
  g_free (self->occurrences);
  g_array_unref (self->readings);
  g_clear_pointer (&self->words, g_array_unref);
  g_free (self->known_totals);
  g_free (self->unvalued_totals);
  g_free (self->word_starts);
  g_free (self->words_of);
  if (self->unvalued != self->shared)
    g_clear_pointer (&self->unvalued, _dc_ngram_words_free);
  g_free (self->unvalued_of);
  g_free (self->valued);
  g_free (self->valued_words);
  g_free (self->font_symbols);
  g_free (self->state);
  for (guint i = 0; i < self->scored->len; i++)
    g_free (g_array_index (self->scored, Scored, i).values);
  g_array_unref (self->scored);
  if (self->owns_key)
    g_object_unref (self->key);
  g_free (self);
}

/* A known symbol's character in the text: its first, or a word break for white space. */
static gunichar
known_char (DcKey *key, guint symbol)
{
  const char *value = dc_key_get_value (key, symbol);
  gunichar u;

  if (value == NULL || *value == '\0')
    return 0xFFFD;
  u = g_utf8_get_char (value);
  return g_unichar_isspace (u) ? ' ' : u;
}

/* What a symbol the key knows stands as in the text: its character, a space for a word
 * break; a value not trusted is no evidence of the language: it stands as an unknown
 * character, neither a letter nor a word break. */
static gunichar
stands_as (DcReadings *self, DcDocument *document, guint symbol)
{
  gunichar u = self->trust == NULL || self->trust (self->key, symbol)
                   ? known_char (self->key, symbol)
                   : 0xFFFD;

  return dc_document_symbol_is_space (document, symbol) ? ' ' : u;
}

/* Whether the key does not know @symbol of the font: a reading gives it its value. */
static gboolean
is_open (DcKey *key, DcDocument *document, guint symbol)
{
  return dc_key_get_value (key, symbol) == NULL
         && dc_document_symbol_needs_decoding (document, symbol)
         && !dc_document_symbol_is_space (document, symbol);
}

/* Makes room for @capacity entries of the sequence. */
static G_GNUC_NO_INLINE void
grow (DcReadings *self, guint capacity)
{
  self->capacity = capacity;
  self->sequence = g_renew (guint32, self->sequence, self->capacity);
  self->fixed = g_renew (gunichar, self->fixed, self->capacity);
}

/* Called for every glyph read: the growing is kept out of it. */
static inline void
append (DcReadings *self, guint32 entry, gunichar u)
{
  if (G_UNLIKELY (self->length == self->capacity))
    grow (self, 2 * self->capacity);
  self->sequence[self->length] = entry;
  self->fixed[self->length++] = u;
}

static void
push_break (DcReadings *self)
{
  guint32 entry = BREAK;
  gunichar space = ' ';

  if (self->length > 0 && self->sequence[self->length - 1] != BREAK)
    append (self, entry, space);
}

/* The font's glyphs in reading order; a word ends at a space, at another font's glyph,
 * at a line break or a gap wider than a fifth of the size. */
static void
read_sequence (DcReadings *self, DcDocument *document, guint font)
{
  guint n_glyphs, n_symbols, n_places;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  gboolean complete;
  /* The font's own glyphs only: another font's glyph between two of them breaks the
   * word, as the text goes on in another font there. */
  const guint32 *places = _dc_document_get_font_order (document, font, &n_places, &complete);
  const DcGlyph *previous = NULL;
  guint next = 0; /* the place after the font's glyph read last */
  /* Per known symbol of the font, what it stands as (read_text()), and whether that is a
   * letter, for the known letters counted as the glyphs are read; only the font's symbols
   * are read, so the others are left as they come. */
  g_autofree gunichar *as = g_new (gunichar, MAX (1, n_symbols));
  g_autofree guint8 *letter = g_new (guint8, MAX (1, n_symbols));

  for (guint f = 0; f < self->n_font_symbols; f++)
    if (self->state[f] != OPEN)
      {
        as[self->font_symbols[f]] = self->state[f];
        letter[self->font_symbols[f]] = g_unichar_isalpha (self->state[f]);
      }

  /* A glyph and a word break each at most, up to the most read (a font whose places are
   * not all given has more glyphs than that): room made once. */
  if (self->capacity < MIN ((gsize) 2 * n_places + 2, MAX_GLYPHS + 2))
    grow (self, MIN (2 * n_places + 2, MAX_GLYPHS + 2));

  for (guint k = 0;; k++)
    {
      guint i = k < n_places ? places[k] : next;
      const DcGlyph *glyph;
      guint32 symbol;
      gunichar u = 0;

      /* Past the places the document keeps, the font has no more glyphs, or its next is
       * looked for. */
      if (k >= n_places && complete)
        i = n_glyphs;
      else if (k >= n_places)
        while (i < n_glyphs && symbols[glyphs[order != NULL ? order[i] : i].symbol].font != font)
          i++;
      if (self->length >= MAX_GLYPHS)
        break;
      if (i > next)
        {
          push_break (self);
          previous = NULL;
          if (self->length >= MAX_GLYPHS)
            break;
        }
      if (i >= n_glyphs)
        break;
      next = i + 1;
      glyph = &glyphs[order != NULL ? order[i] : i];
      symbol = glyph->symbol;
      if (previous != NULL
          && (previous->page != glyph->page
              || ABS (glyph->y - previous->y) > 0.5 * dc_glyph_get_size (glyph)
              || glyph->x - (previous->x + dc_glyph_get_advance (previous))
                     > 0.2 * dc_glyph_get_size (glyph)))
        push_break (self);
      previous = glyph;
      if (self->open_of[symbol] == NONE)
        {
          u = as[symbol];
          self->known_letters += letter[symbol];
          if (u == ' ')
            {
              push_break (self);
              continue;
            }
        }
      else
        self->occurrences[self->open_of[symbol]]++;
      append (self, symbol, u);
    }
}

/**
 * _dc_readings_new:
 * @font: a font of @key's document
 *
 * The font's run of glyphs, ready to be read: the symbols the key knows keep their
 * values, the others ("open") take each reading's. The glyphs are read, with the key
 * as it then stands, when a reading is first added or the known letters counted.
 */
DcReadings *
_dc_readings_new (DcKey *key, guint font)
{
  return _dc_readings_new_trusted (key, font, NULL);
}

/**
 * _dc_readings_new_trusted:
 * @trust: (nullable): which known values the text is read with; the others stand as
 *   unknown characters (an untrusted font's lying Latin words must not choose)
 *
 * Like _dc_readings_new().
 */
DcReadings *
_dc_readings_new_trusted (DcKey *key, guint font, DcReadingsTrustFunc trust)
{
  DcReadings *self = _dc_readings_new_kept (key, font, trust);

  self->owns_key = TRUE;
  g_object_ref (key);
  return self;
}

/**
 * _dc_readings_new_kept:
 *
 * Like _dc_readings_new_trusted(), for readings @key itself keeps (as its data): they
 * hold no reference to it, which would keep it alive, and must not outlive it.
 */
DcReadings *
_dc_readings_new_kept (DcKey *key, guint font, DcReadingsTrustFunc trust)
{
  DcDocument *document = dc_key_get_document (key);
  DcReadings *self = g_new0 (DcReadings, 1);
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  g_autoptr (GArray) font_symbols = g_array_new (FALSE, FALSE, sizeof (guint));

  self->key = key;
  self->trust = trust;
  self->open = g_array_new (FALSE, FALSE, sizeof (guint));
  self->open_of = g_new (guint32, MAX (1, n_symbols));
  memset (self->open_of, 0xFF, sizeof (guint32) * n_symbols); /* NONE */
  for (guint s = 0; s < n_symbols; s++)
    {
      if (symbols[s].font != font)
        continue;
      g_array_append_val (font_symbols, s);
      if (is_open (key, document, s))
        {
          self->open_of[s] = self->open->len;
          g_array_append_val (self->open, s);
        }
    }
  self->n_font_symbols = font_symbols->len;
  self->state = g_new (guint32, MAX (1, font_symbols->len));
  for (guint f = 0; f < font_symbols->len; f++)
    self->state[f] = self->open_of[g_array_index (font_symbols, guint, f)] != NONE ? OPEN
                                                                                   : NOT_READ;
  self->font_symbols = (guint *) (void *) g_array_free (g_steal_pointer (&font_symbols), FALSE);
  self->font = font;
  self->readings = g_array_new (FALSE, TRUE, sizeof (Reading));
  g_array_set_clear_func (self->readings, reading_clear);
  self->scored = g_array_new (FALSE, FALSE, sizeof (Scored));
  return self;
}

/**
 * _dc_readings_matches:
 *
 * Whether the key still holds what the readings were made with: the same symbols of the
 * font open, and, once the text is read, the others standing as they did then. Readings
 * made now would read the same text, and score every reading the same.
 */
gboolean
_dc_readings_matches (DcReadings *self)
{
  DcDocument *document = dc_key_get_document (self->key);

  for (guint f = 0; f < self->n_font_symbols; f++)
    {
      guint s = self->font_symbols[f];
      gboolean open = is_open (self->key, document, s);

      if (open != (self->state[f] == OPEN)
          || (!open && self->sequence != NULL && stands_as (self, document, s) != self->state[f]))
        return FALSE;
    }
  return TRUE;
}

/* Whether the font's text has been read (with the key as it stood then). */
gboolean
_dc_readings_is_read (DcReadings *self)
{
  return self->sequence != NULL;
}

/* The font's glyphs, read at the first question about its text: a font with no open
 * symbol, or none a reading is offered for, is never read (dc-hypotheses.c asks every
 * untrusted font for its open symbols first). */
static void
read_text (DcReadings *self)
{
  DcDocument *document = dc_key_get_document (self->key);

  if (self->sequence != NULL)
    return;
  for (guint f = 0; f < self->n_font_symbols; f++)
    if (self->state[f] != OPEN)
      self->state[f] = stands_as (self, document, self->font_symbols[f]);
  self->occurrences = g_new0 (guint, MAX (1, self->open->len));
  self->capacity = 1024;
  self->sequence = g_new (guint32, self->capacity);
  self->fixed = g_new (gunichar, self->capacity);
  read_sequence (self, document, self->font);
}

guint
_dc_readings_get_n_open (DcReadings *self)
{
  return self->open->len;
}

guint
_dc_readings_get_open_symbol (DcReadings *self, guint index)
{
  g_return_val_if_fail (index < self->open->len, DC_SYMBOL_NONE);
  return g_array_index (self->open, guint, index);
}

/* The index among the open symbols of @symbol, or -1 when the key knows it. */
int
_dc_readings_find_open (DcReadings *self, guint symbol)
{
  guint n_symbols;

  dc_document_get_symbols (dc_key_get_document (self->key), &n_symbols);
  g_return_val_if_fail (symbol < n_symbols, -1);
  return self->open_of[symbol] == NONE ? -1 : (int) self->open_of[symbol];
}

/**
 * _dc_readings_share_words:
 * @words: kept as long as the readings are
 *
 * Looks every word up in @words, which other readings share, rather than each time it is
 * scored: the readings of one font repeat most of their words, and a font read again after
 * the key changed a little holds the same words. Call it before the first reading.
 */
void
_dc_readings_share_words (DcReadings *self, DcNgramWords *words)
{
  g_return_if_fail (self->words == NULL);
  self->shared = words;
}

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

/* Forgets the readings added, to judge others on the same text. */
void
_dc_readings_clear (DcReadings *self)
{
  g_array_set_size (self->readings, 0);
}

/* The text @values make of the sequence: what a reading is judged by. */
static gunichar *
make_text (DcReadings *self, const gunichar *values)
{
  gunichar *text = g_new (gunichar, self->length + 1);

  for (guint i = 0; i < self->length; i++)
    {
      guint32 symbol = self->sequence[i];
      guint32 open = symbol == BREAK ? NONE : self->open_of[symbol];

      text[i] = open != NONE ? (values[open] != 0 ? values[open] : 0xFFFD) : self->fixed[i];
      if (text[i] == ' ' && open != NONE)
        text[i] = 0xFFFD;
    }
  return text;
}

/* What stands at @i of the sequence the same in every reading: the open symbol (high bit
 * set) or the known character. */
static guint32
item_of (DcReadings *self, guint i)
{
  guint32 symbol = self->sequence[i];
  guint32 open = self->open_of[symbol];

  return open != NONE ? 0x80000000u | open : self->fixed[i];
}

static guint32
hash_items (const guint32 *items, guint length)
{
  guint32 hash = 2166136261u;

  for (guint i = 0; i < length; i++)
    hash = (hash ^ items[i]) * 16777619u;
  return hash;
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
      for (guint w = 0; w < self->words->len; w++)
        {
          const Word *word = &g_array_index (self->words, Word, w);

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

/* @slots (of @mask + 1) twice as large, the words filed in it again. */
static guint *
grow_slots (DcReadings *self, const guint32 *items, guint *slots, gsize *mask)
{
  gsize grown_mask = 2 * *mask + 1;
  guint *grown = g_new0 (guint, grown_mask + 1);

  for (guint w = 0; w < self->words->len; w++)
    {
      const Word *word = &g_array_index (self->words, Word, w);
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
  const guint32 *sequence = self->sequence;
  g_autofree guint32 *items = g_new (guint32, MAX (1, n));
  /* A word's index + 1, 0: empty. Sized by the distinct words as they come, at most half
   * full: a text repeats its words, and a table for twice its glyphs was a quarter of a
   * megabyte zeroed for every font, a quarter of the page faults of `text` on a book of
   * many fonts. Which slot a word has changes nothing but the time to find it. */
  gsize mask = 1023;
  g_autofree guint *slots = g_new0 (guint, mask + 1);
  guint i = 0;

  self->words = g_array_new (FALSE, FALSE, sizeof (Word));
  self->known_totals = g_new0 (double, MAX (1, n_languages));
  for (guint k = 0; k < n; k++)
    items[k] = sequence[k] == BREAK ? 0 : item_of (self, k);
  while (i < n)
    {
      guint start, length;
      gsize slot;

      while (i < n && sequence[i] == BREAK)
        i++;
      for (start = i; i < n && sequence[i] != BREAK; i++)
        ;
      if ((length = i - start) == 0)
        break;
      for (slot = hash_items (items + start, length) & mask; slots[slot] != 0;
           slot = (slot + 1) & mask)
        {
          Word *word = &g_array_index (self->words, Word, slots[slot] - 1);

          if (word->length == length && same_items (items + word->start, items + start, length))
            {
              word->count++;
              break;
            }
        }
      if (slots[slot] == 0)
        {
          Word word = { start, length, 1, FALSE };

          for (guint k = start; k < i && !word.open; k++)
            word.open = (items[k] & 0x80000000u) != 0;
          g_array_append_val (self->words, word);
          slots[slot] = self->words->len;
          self->longest = MAX (self->longest, length);
          if (2 * (gsize) self->words->len > mask)
            slots = grow_slots (self, items, slots, &mask);
        }
    }
  for (guint w = 0; w < self->words->len; w++)
    {
      const Word *word = &g_array_index (self->words, Word, w);

      if (!word->open)
        add_word (self, self->fixed + word->start, word->length, word->count, self->known_totals);
    }
  index_words (self, items);
  self->unvalued = self->shared != NULL ? self->shared : _dc_ngram_words_new ();
  self->unvalued_of = g_new0 (guint, MAX (1, self->words->len));
  self->valued = g_new0 (gboolean, MAX (1, self->words->len));
  self->valued_words = g_new (guint, MAX (1, self->words->len));
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
  const Word *word = &g_array_index (self->words, Word, w);

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
static void
score (DcReadings *self, const gunichar *values, double *totals)
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
      for (guint w = 0; w < self->words->len; w++)
        if (g_array_index (self->words, Word, w).open)
          add_unvalued (self, w, g_array_index (self->words, Word, w).count, self->unvalued_totals,
                        text);
    }
  for (guint l = 0; l < n_languages; l++)
    totals[l] += by_change ? self->unvalued_totals[l] : self->known_totals[l];
  for (guint i = 0, n = by_change ? n_valued : self->words->len; i < n; i++)
    {
      guint w = by_change ? valued_words[i] : i;
      const Word *word = &g_array_index (self->words, Word, w);

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

static guint32
hash_values (DcReadings *self, const gunichar *values)
{
  return hash_items (values, self->open->len);
}

/* Gives @reading its score and language if the same values were scored before. */
static gboolean
find_scored (DcReadings *self, Reading *reading)
{
  guint32 hash = hash_values (self, reading->values);

  for (guint i = 0; i < self->scored->len; i++)
    {
      const Scored *scored = &g_array_index (self->scored, Scored, i);

      if (scored->hash == hash
          && memcmp (scored->values, reading->values, sizeof (gunichar) * self->open->len) == 0)
        {
          reading->score = scored->score;
          reading->language = scored->language;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _dc_readings_add:
 * @name: what the reading is, for provenances ("code page CP1251")
 * @values: (array): a character per open symbol, 0 where the reading has none
 *
 * Scores the reading. One that reads every glyph as an earlier one does is not added
 * twice: the earlier one's index is returned.
 *
 * Returns: the reading's index
 */
guint
_dc_readings_add (DcReadings *self, const char *name, const gunichar *values)
{
  guint n_languages = _dc_ngram_n_languages ();
  g_autofree double *totals = g_new0 (double, MAX (1, n_languages));
  Reading reading = { 0 };

  read_text (self);

  for (guint r = 0; r < self->readings->len; r++)
    {
      const Reading *other = &g_array_index (self->readings, Reading, r);
      gboolean same = TRUE;

      for (guint o = 0; o < self->open->len && same; o++)
        same = self->occurrences[o] == 0 || other->values[o] == values[o];
      if (same)
        return r;
    }
  reading.name = g_strdup (name);
  reading.values = g_memdup2 (values, sizeof (gunichar) * MAX (1, self->open->len));
  if (!find_scored (self, &reading))
    {
      Scored scored = { g_memdup2 (values, sizeof (gunichar) * MAX (1, self->open->len)),
                        hash_values (self, values), 0, 0 };

      score (self, values, totals);
      reading.score = -G_MAXDOUBLE;
      for (guint l = 0; l < n_languages; l++)
        if (totals[l] > reading.score)
          {
            reading.score = totals[l];
            reading.language = l;
          }
      scored.score = reading.score;
      scored.language = reading.language;
      g_array_append_val (self->scored, scored);
    }
  /* Formatted only where it is shown: g_debug() formats its line first. */
  if (!g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
    g_debug ("%s: %.1f (%s)", name, reading.score,
             n_languages > 0 ? _dc_ngram_language_name (reading.language) : "no model");
  g_array_append_val (self->readings, reading);
  return self->readings->len - 1;
}

/* The letters of the reading's text, known symbols' too. */
static guint
count_letters (DcReadings *self, const Reading *reading)
{
  guint n = self->known_letters;

  for (guint o = 0; o < self->open->len; o++)
    if (reading->values[o] != 0 && g_unichar_isalpha (reading->values[o]))
      n += self->occurrences[o];
  return n;
}

/* The letters of the symbols the key knows: the context any reading is judged in. */
guint
_dc_readings_count_known_letters (DcReadings *self)
{
  read_text (self);
  return self->known_letters;
}

/**
 * _dc_readings_choose:
 * @best: (out): the reading that scores best
 * @margin: (out): by how much it beats the closest other, in nats per glyph where they
 *   differ (G_MAXDOUBLE when no other differs)
 * @disputed: (out) (transfer full): per open symbol, whether a reading that @best does
 *   not beat by DC_READINGS_MIN_MARGIN gives it another value: the model cannot tell
 *   them apart there (¾ or ӈ, both unknown to it)
 *
 * Returns: whether the model can judge at all: a language model, and enough letters in
 *   @best's text
 */
gboolean
_dc_readings_choose (DcReadings *self, guint *best, double *margin, gboolean **disputed)
{
  const Reading *winner;

  read_text (self);
  *best = 0;
  *margin = G_MAXDOUBLE;
  *disputed = g_new0 (gboolean, MAX (1, self->open->len));
  if (self->readings->len == 0)
    return FALSE;
  for (guint r = 1; r < self->readings->len; r++)
    if (g_array_index (self->readings, Reading, r).score
        > g_array_index (self->readings, Reading, *best).score)
      *best = r;
  winner = &g_array_index (self->readings, Reading, *best);
  for (guint r = 0; r < self->readings->len; r++)
    {
      const Reading *other = &g_array_index (self->readings, Reading, r);
      guint differing = 0;
      double by;

      for (guint o = 0; o < self->open->len; o++)
        if (other->values[o] != winner->values[o])
          differing += self->occurrences[o];
      if (r == *best || differing == 0)
        continue;
      by = (winner->score - other->score) / differing;
      *margin = MIN (*margin, by);
      for (guint o = 0; by < DC_READINGS_MIN_MARGIN && o < self->open->len; o++)
        if (other->values[o] != winner->values[o])
          (*disputed)[o] = TRUE;
    }
  return _dc_ngram_n_languages () > 0 && count_letters (self, winner) >= DC_READINGS_MIN_LETTERS;
}

const char *
_dc_readings_get_name (DcReadings *self, guint reading)
{
  g_return_val_if_fail (reading < self->readings->len, NULL);
  return g_array_index (self->readings, Reading, reading).name;
}

const gunichar *
_dc_readings_get_values (DcReadings *self, guint reading)
{
  g_return_val_if_fail (reading < self->readings->len, NULL);
  return g_array_index (self->readings, Reading, reading).values;
}

/* The language whose model the reading scored best in, as fpdb.conf names it. */
const char *
_dc_readings_get_language (DcReadings *self, guint reading)
{
  g_return_val_if_fail (reading < self->readings->len, NULL);
  if (_dc_ngram_n_languages () == 0)
    return "";
  return _dc_ngram_language_name (g_array_index (self->readings, Reading, reading).language);
}

/**
 * _dc_readings_get_text:
 * @length: (out): the text's length
 *
 * Returns: (transfer full): the text the reading makes of the font's glyphs, words
 *   separated by spaces, as its score is the language model's of it
 */
gunichar *
_dc_readings_get_text (DcReadings *self, guint reading, gsize *length)
{
  g_return_val_if_fail (reading < self->readings->len, NULL);
  read_text (self);
  *length = self->length;
  return make_text (self, g_array_index (self->readings, Reading, reading).values);
}

/* The reading's log likelihood in the language it scored best in. */
double
_dc_readings_get_score (DcReadings *self, guint reading)
{
  g_return_val_if_fail (reading < self->readings->len, 0);
  return g_array_index (self->readings, Reading, reading).score;
}
