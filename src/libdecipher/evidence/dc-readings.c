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

#include <string.h>

#include "dc-document-private.h"
#include "dc-ngram-private.h"
#include "dc-readings-private.h"
#include "dc-readings-state-private.h"

/* The glyphs read: enough for a language, few enough for a book to stay quick. */
#define MAX_GLYPHS 20000
/* In a font symbol's state (_dc_readings_matches()): open; or known, the text not read yet. */
#define OPEN G_MAXUINT32
#define NOT_READ 0

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
  g_free (self->words);
  g_free (self->known_totals);
  g_free (self->unvalued_totals);
  g_free (self->word_starts);
  g_free (self->words_of);
  if (self->unvalued != self->shared)
    g_clear_pointer (&self->unvalued, _dc_ngram_words_free);
  g_free (self->unvalued_of);
  g_free (self->valued);
  g_free (self->valued_words);
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

/* What read_sequence() reads into, kept in locals while it reads: in the readings, every
 * entry stored could have changed the length and the arrays as far as the compiler knows,
 * and they were loaded again for each. */
typedef struct
{
  guint32 *sequence;
  gunichar *fixed;
  guint length, capacity;
  guint known_letters;
} ReadText;

/* Called for every glyph read: the growing is kept out of it. */
static inline void
text_append (DcReadings *self, ReadText *text, guint32 entry, gunichar u)
{
  if (G_UNLIKELY (text->length == text->capacity))
    {
      self->length = text->length;
      grow (self, 2 * text->capacity);
      text->sequence = self->sequence;
      text->fixed = self->fixed;
      text->capacity = self->capacity;
    }
  text->sequence[text->length] = entry;
  text->fixed[text->length++] = u;
}

/* A word break, unless one ends the sequence already. */
static inline void
text_push_break (DcReadings *self, ReadText *text)
{
  if (text->length > 0 && text->sequence[text->length - 1] != BREAK)
    text_append (self, text, BREAK, ' ');
}

/* Of the glyph read last (read_glyph()), what the next one's word break is told by:
 * kept as it is read, where the glyph was read again for every glyph after it. */
typedef struct
{
  gboolean any; /* FALSE at the start of a word */
  guint page;
  float y;
  float end; /* its x + its advance */
} Previous;

/* What a symbol is to read_sequence(), one number looked up per glyph: another font's
 * (OTHER_FONT); an open one (OPEN_BIT, its index among the open in the low 32 bits); or a
 * known one, the character it stands as in the low 32 bits, LETTER_BIT if that is a
 * letter. */
#define OTHER_FONT G_MAXUINT64
#define OPEN_BIT (G_GUINT64_CONSTANT (1) << 63)
#define LETTER_BIT (G_GUINT64_CONSTANT (1) << 62)
#define LOW_BITS G_MAXUINT32

/* Reads one of the font's glyphs, of @symbol and @kind (as above), into @text
 * (read_sequence()), after @previous, the one read last, or none at the start of a word. */
static inline void
read_glyph (DcReadings *self, ReadText *text, const DcGlyph *glyph, guint64 kind,
            Previous *previous)
{
  if (previous->any)
    {
      float size = dc_glyph_get_size (glyph);

      if (previous->page != glyph->page || ABS (glyph->y - previous->y) > 0.5 * size
          || glyph->x - previous->end > 0.2 * size)
        text_push_break (self, text);
    }
  *previous = (Previous){ TRUE, glyph->page, glyph->y, glyph->x + dc_glyph_get_advance (glyph) };
  if (!(kind & OPEN_BIT))
    {
      text->known_letters += (kind & LETTER_BIT) != 0;
      if ((kind & LOW_BITS) == ' ')
        {
          text_push_break (self, text);
          return;
        }
      text_append (self, text, glyph->symbol, (gunichar) (kind & LOW_BITS));
      return;
    }
  self->occurrences[kind & LOW_BITS]++;
  text_append (self, text, glyph->symbol, 0);
}

/* The font's glyphs in reading order; a word ends at a space, at another font's glyph,
 * at a line break or a gap wider than a fifth of the size. */
static void
read_sequence (DcReadings *self, DcDocument *document, guint font)
{
  guint n_glyphs, n_symbols;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const guint *starts;
  /* The font's own lines only (the document's lines hold every place of the reading
   * order, in order): another font's glyph between two of its glyphs breaks the word, as
   * the text goes on in another font there. */
  const guint32 *font_lines = _dc_document_get_font_lines (document, &starts);
  Previous previous = { FALSE, 0, 0, 0 };
  guint next = 0; /* the place after the font's glyph read last */
  guint n_font_glyphs = 0;
  /* Per symbol, what it is to the reading (OTHER_FONT and the rest above): what a known
   * symbol stands as (read_text()) and whether that is a letter, for the known letters
   * counted as the glyphs are read. */
  g_autofree guint64 *kinds = g_new (guint64, MAX (1, n_symbols));
  ReadText text;

  memset (kinds, 0xFF, sizeof (guint64) * n_symbols); /* OTHER_FONT */
  for (guint f = 0; f < self->n_font_symbols; f++)
    {
      guint s = self->font_symbols[f];

      n_font_glyphs += symbols[s].n_glyphs;
      if (self->state[f] != OPEN)
        kinds[s] = self->state[f] | (g_unichar_isalpha (self->state[f]) ? LETTER_BIT : 0);
      else
        kinds[s] = OPEN_BIT | self->open_of[s];
    }

  /* A glyph and a word break each at most, up to the most read: room made once. */
  if (self->capacity < MIN ((gsize) 2 * n_font_glyphs + 2, MAX_GLYPHS + 2))
    grow (self, MIN (2 * (gsize) n_font_glyphs + 2, MAX_GLYPHS + 2));
  text = (ReadText){ self->sequence, self->fixed, self->length, self->capacity,
                     self->known_letters };

  for (guint fl = starts[font]; fl < starts[font + 1]; fl++)
    {
      const DcLine *line = &lines[font_lines[fl]];
      guint end = line->first_glyph + line->n_glyphs;

      for (guint i = line->first_glyph; i < end; i++)
        {
          const DcGlyph *glyph = &glyphs[order[i]];
          guint64 kind = kinds[glyph->symbol];

          if (kind == OTHER_FONT)
            continue;
          if (i > next)
            {
              text_push_break (self, &text);
              previous.any = FALSE;
              if (text.length >= MAX_GLYPHS)
                goto done;
            }
          next = i + 1;
          read_glyph (self, &text, glyph, kind, &previous);
          if (text.length >= MAX_GLYPHS)
            goto done;
        }
    }
  /* Glyphs of other fonts after the font's last: a word break, as between two of its. */
  if (n_glyphs > next)
    text_push_break (self, &text);
done:
  self->length = text.length;
  self->known_letters = text.known_letters;
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
  guint n_symbols, n_font_symbols;
  const guint *starts;
  const guint32 *font_symbols = _dc_document_get_font_symbols (document, &starts);

  dc_document_get_symbols (document, &n_symbols);
  font_symbols += starts[font];
  n_font_symbols = starts[font + 1] - starts[font];
  self->key = key;
  self->trust = trust;
  self->open = g_array_new (FALSE, FALSE, sizeof (guint));
  self->open_of = g_new (guint32, MAX (1, n_symbols));
  memset (self->open_of, 0xFF, sizeof (guint32) * n_symbols); /* NONE */
  for (guint f = 0; f < n_font_symbols; f++)
    {
      guint s = font_symbols[f];

      if (is_open (key, document, s))
        {
          self->open_of[s] = self->open->len;
          g_array_append_val (self->open, s);
        }
    }
  self->n_font_symbols = n_font_symbols;
  self->state = g_new (guint32, MAX (1, n_font_symbols));
  for (guint f = 0; f < n_font_symbols; f++)
    self->state[f] = self->open_of[font_symbols[f]] != NONE ? OPEN : NOT_READ;
  self->font_symbols = font_symbols;
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

/**
 * _dc_readings_take_text:
 * @from: readings of the same font and key, with the same trust, made earlier and read
 *
 * Reads the font's text from @from's rather than from the glyphs, where the key changed
 * only which symbols are open and what the others stand as, never which of them stand as
 * a word break: the font's glyphs then make the same sequence, entry for entry (an open
 * glyph and a known one each make one; the breaks are where the glyphs and the spaces
 * put them), and only what each entry stands as and the counts are told again. The
 * pipeline applies the identity level again after the outline check, and a font whose
 * symbols the level decided in between was read again glyph by glyph, a tenth of the
 * level's time on a book of many fonts.
 *
 * Returns: whether @self is read now; otherwise it reads the glyphs when first asked
 */
gboolean
_dc_readings_take_text (DcReadings *self, DcReadings *from)
{
  DcDocument *document = dc_key_get_document (self->key);
  guint n_symbols;
  g_autofree guint32 *state = NULL;
  g_autofree gunichar *as = NULL;
  g_autofree guint8 *letter = NULL;

  g_return_val_if_fail (self != NULL && from != NULL, FALSE);

  dc_document_get_symbols (document, &n_symbols);
  if (self->sequence != NULL || from->sequence == NULL || from->key != self->key
      || from->font != self->font || from->trust != self->trust
      || from->n_font_symbols != self->n_font_symbols)
    return FALSE;
  state = g_new (guint32, MAX (1, self->n_font_symbols));
  as = g_new (gunichar, MAX (1, n_symbols));
  letter = g_new (guint8, MAX (1, n_symbols));
  for (guint f = 0; f < self->n_font_symbols; f++)
    {
      guint s = self->font_symbols[f];

      state[f] = self->state[f] == OPEN ? OPEN : stands_as (self, document, s);
      if (state[f] != from->state[f] && (state[f] == ' ' || from->state[f] == ' '))
        return FALSE;
      if (state[f] != OPEN)
        {
          as[s] = state[f];
          letter[s] = g_unichar_isalpha (state[f]);
        }
    }
  memcpy (self->state, state, sizeof (guint32) * self->n_font_symbols);
  self->occurrences = g_new0 (guint, MAX (1, self->open->len));
  self->capacity = MAX (1, from->length);
  self->length = from->length;
  self->sequence = g_memdup2 (from->sequence, sizeof (guint32) * self->capacity);
  self->fixed = g_new (gunichar, self->capacity);
  /* As read_glyph() and text_push_break() fill them; through locals, as the stores
   * into the arrays could otherwise have changed the readings' fields. */
  {
    const guint32 *sequence = self->sequence, *open_of = self->open_of;
    gunichar *fixed = self->fixed;
    guint *occurrences = self->occurrences, known_letters = self->known_letters;

    for (guint i = 0; i < self->length; i++)
      {
        guint32 symbol = sequence[i];

        if (symbol == BREAK)
          fixed[i] = ' ';
        else if (open_of[symbol] != NONE)
          {
            occurrences[open_of[symbol]]++;
            fixed[i] = 0;
          }
        else
          {
            known_letters += letter[symbol];
            fixed[i] = as[symbol];
          }
      }
    self->known_letters = known_letters;
  }
  return TRUE;
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

      _dc_readings_score (self, values, totals);
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

/* The script of the language whose model the reading scored best in (INVALID_CODE with
 * no model). */
GUnicodeScript
_dc_readings_get_script (DcReadings *self, guint reading)
{
  g_return_val_if_fail (reading < self->readings->len, G_UNICODE_SCRIPT_INVALID_CODE);
  if (_dc_ngram_n_languages () == 0)
    return G_UNICODE_SCRIPT_INVALID_CODE;
  return _dc_ngram_language_script (g_array_index (self->readings, Reading, reading).language);
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
