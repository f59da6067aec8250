/* dc-trust-tokens.c: what a font's words say of its map, counted as the layout splits them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-trust.c, which judges each font: here each token is classed once, on the
 * layout's threads, and each font's tallies kept (its words, the odd ones, where its
 * glyphs stand among other fonts' words).
 */

#define G_LOG_DOMAIN "dc-trust"

#include "config.h"

#include <string.h>

#include "dc-script.h"
#include "dc-string-private.h"
#include "dc-trust-private.h"

/* Chinese, Japanese and Korean mix ideographs with kana or Hangul in one word. */
static GUnicodeScript
script_family (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_HANGUL:
    case G_UNICODE_SCRIPT_BOPOMOFO:
      return G_UNICODE_SCRIPT_HAN;
    default:
      return script;
    }
}

/* The punctuation words have inside them: a hyphen, an apostrophe, the period and comma
 * of numbers and abbreviations, a slash, a soft hyphen, and Tibetan's tsheg, which parts
 * the syllables of a word (བོད་ཡིག). */
static gboolean
stands_inside_words (gunichar c)
{
  return c == '-' || c == '\'' || c == 0x2019 || c == '.' || c == ',' || c == '/' || c == 0x2010
         || c == 0xAD || c == 0x0F0B || c == 0x0F0C;
}

/* Inside a word, a letter next to a digit, a stray bracket or a letter of another script
 * is what a shifted or foreign map produces; real words have them at their edges only.
 * Scripts written without spaces are the exception: their "word" is a whole phrase, with
 * its commas, brackets and numbers. */
static gboolean
token_is_odd (const GString *text)
{
  GUnicodeScript script = G_UNICODE_SCRIPT_COMMON;
  gboolean letters = FALSE, digits = FALSE, inner_symbol = FALSE;
  const char *start = text->str;
  const char *end = text->str + text->len;
  const char *p;

  /* Leading and trailing punctuation is quotation, brackets, sentence ends. */
  while (start < end && !g_unichar_isalnum (g_utf8_get_char (start)))
    start = g_utf8_next_char (start);
  while (end > start)
    {
      const char *prev = g_utf8_prev_char (end);

      if (g_unichar_isalnum (g_utf8_get_char (prev)))
        break;
      end = prev;
    }

  for (p = start; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalpha (c))
        {
          GUnicodeScript s = script_family (g_unichar_get_script (c));

          letters = TRUE;
          if (s != G_UNICODE_SCRIPT_COMMON && s != G_UNICODE_SCRIPT_INHERITED)
            {
              if (script != G_UNICODE_SCRIPT_COMMON && s != script)
                return TRUE;
              script = s;
            }
        }
      else if (g_unichar_isdigit (c))
        digits = TRUE;
      /* A glyph drawn only inside a cluster reads U+FFFD, its text the cluster's
       * /ActualText (is_bad_char() counts it otherwise): the second part of Khmer's
       * split vowel ៀ in សៀវភៅ as cairo writes it. */
      else if (g_unichar_ismark (c) || c == 0xFFFD)
        continue;
      /* Joiners and Mongolian selectors stand inside words by design. */
      else if (g_unichar_type (c) == G_UNICODE_FORMAT && c != 0xAD)
        continue;
      else if (!stands_inside_words (c))
        inner_symbol = TRUE;
    }

  return letters && script != G_UNICODE_SCRIPT_HAN && (digits || inner_symbol);
}

/* A token's symbols, as one key: their count, then each (guint32 each). */
static guint32
symbols_hash (const guint32 *words)
{
  guint32 hash = 2166136261u;

  for (guint i = 0; i <= words[0]; i++)
    hash = (hash ^ words[i]) * 16777619u;
  return hash;
}

/* The tokens judged, by their symbols: a table of open addressing, at most half full,
 * whose keys lie one after the other in @keys. A GHashTable cost two calls through its
 * functions and a copy of the key a token, a third of counting them. */
typedef struct
{
  guint32 hash;
  guint32 start;     /* of the key in keys */
  guint32 judgement; /* 0 for an empty slot */
} JudgedSlot;

typedef struct
{
  JudgedSlot *slots;
  gsize mask;
  guint n;
  GArray *keys; /* guint32 */
} Judged;

/* The slot holding @key, or the empty one where it would go. */
static JudgedSlot *
judged_find (Judged *judged, const guint32 *key, guint32 hash)
{
  for (gsize i = hash & judged->mask;; i = (i + 1) & judged->mask)
    {
      JudgedSlot *slot = &judged->slots[i];
      const guint32 *other;

      if (slot->judgement == 0)
        return slot;
      other = &g_array_index (judged->keys, guint32, slot->start);
      if (slot->hash == hash && other[0] == key[0]
          && memcmp (other + 1, key + 1, key[0] * sizeof (guint32)) == 0)
        return slot;
    }
}

static void
judged_add (Judged *judged, const guint32 *key, guint32 hash, guint judgement)
{
  JudgedSlot *slot = judged_find (judged, key, hash);

  slot->hash = hash;
  slot->start = judged->keys->len;
  slot->judgement = judgement;
  g_array_append_vals (judged->keys, key, key[0] + 1);
  if (2 * (gsize) ++judged->n > judged->mask)
    {
      JudgedSlot *old = judged->slots;
      gsize old_size = judged->mask + 1;

      judged->mask = 2 * judged->mask + 1;
      judged->slots = g_new0 (JudgedSlot, judged->mask + 1);
      for (gsize i = 0; i < old_size; i++)
        if (old[i].judgement != 0)
          {
            gsize j = old[i].hash & judged->mask;

            while (judged->slots[j].judgement != 0)
              j = (j + 1) & judged->mask;
            judged->slots[j] = old[i];
          }
      g_free (old);
    }
}

/* Tokens judged at most: the table of a thread holds no more, a few megabytes. */
#define MAX_JUDGED (1 << 16)

typedef enum
{
  TOKEN_PLAIN = 1,
  TOKEN_ODD,
  TOKEN_EMPTY, /* no text at all */
} Judgement;

/* What token_is_odd() asks of a character, asked once for each symbol whose text is one
 * character (most are): a token of such symbols is judged from them, with no text put
 * together and no question to GLib. */
typedef enum
{
  SYMBOL_COMPLEX = 0, /* several characters, or not UTF-8: judged from the token's text */
  SYMBOL_EMPTY,       /* no text */
  SYMBOL_LETTER,      /* isalpha: of the script family @script */
  SYMBOL_DIGIT,       /* isdigit */
  SYMBOL_SKIPPED,     /* a mark, or a format character other than the soft hyphen */
  SYMBOL_ALLOWED,     /* the punctuation words have inside them */
  SYMBOL_OTHER,
} SymbolKind;

/* What counting a token needs of a symbol, one load a glyph: bits ORed together over a
 * token, its script and font ORed and ANDed (ClassWord). */
enum
{
  CLASS_ANY = 1 << 0,     /* not SYMBOL_EMPTY */
  CLASS_COMPLEX = 1 << 1, /* SYMBOL_COMPLEX */
  CLASS_LETTERS = 1 << 2,
  CLASS_DIGITS = 1 << 3,
  CLASS_INNER = 1 << 4,   /* SYMBOL_OTHER and alphanumeric: a symbol inside the token */
  CLASS_ALNUM = 1 << 5,   /* isalnum: where the token's edge punctuation ends */
  CLASS_PENDING = 1 << 6, /* SYMBOL_OTHER, not alphanumeric: inside if between two */
};

typedef struct
{
  guint16 font;       /* the symbol's: read with the rest, where a look into the symbols cost
                       * another load a glyph */
  guint16 script_or;  /* a letter's script family but Common and Inherited, else 0 */
  guint16 script_and; /* the same, else all ones */
  guint8 bits;        /* CLASS_* */
  guint8 unused;
} SymbolClass;

/* A SymbolClass as one word: a token's classes are ORed and ANDed a word a glyph. OR and
 * AND work bit by bit, so the words' fields are those of the fields ORed and ANDed, in
 * any byte order: its fonts are one if their OR and AND agree, as its scripts. */
typedef union
{
  SymbolClass class;
  guint64 word;
} ClassWord;

G_STATIC_ASSERT (sizeof (ClassWord) == sizeof (guint64));

G_STATIC_ASSERT (G_UNICODE_SCRIPT_COMMON == 0);

static SymbolClass
classify_symbol (const char *text)
{
  SymbolClass class = { 0, G_UNICODE_SCRIPT_COMMON, G_MAXUINT16, CLASS_ANY | CLASS_COMPLEX };
  gsize length = strlen (text);
  gboolean alnum;
  gunichar c;

  if (length == 0)
    {
      class.bits = 0;
      return class;
    }
  if (!g_utf8_validate (text, (gssize) length, NULL) || g_utf8_next_char (text) != text + length)
    return class;
  c = g_utf8_get_char (text);
  alnum = g_unichar_isalnum (c);
  class.bits = CLASS_ANY | (alnum ? CLASS_ALNUM : 0);
  if (g_unichar_isalpha (c))
    {
      GUnicodeScript script = script_family (g_unichar_get_script (c));

      class.bits |= CLASS_LETTERS;
      if (script != G_UNICODE_SCRIPT_COMMON && script != G_UNICODE_SCRIPT_INHERITED)
        {
          g_assert ((guint) script < G_MAXUINT16);
          class.script_or = class.script_and = (guint16) script;
        }
    }
  else if (g_unichar_isdigit (c))
    class.bits |= CLASS_DIGITS;
  else if (g_unichar_ismark (c) || c == 0xFFFD
           || (g_unichar_type (c) == G_UNICODE_FORMAT && c != 0xAD))
    ; /* skipped (token_is_odd()) */
  else if (stands_inside_words (c))
    ; /* the punctuation words have inside them */
  else
    class.bits |= alnum ? CLASS_INNER : CLASS_PENDING;
  return class;
}

/* Whether a symbol that is neither letter nor digit (CLASS_PENDING) stands between two
 * alphanumeric ones among the @n symbols of a token at @places: the edges token_is_odd()
 * trims never hold an alphanumeric one. */
static gboolean
token_inner (const ClassWord *classes, const DcGlyph *glyphs, const guint32 *places, guint n)
{
  guint after_alnum = 0, pending = 0, inner = 0;

  for (guint k = 0; k < n; k++)
    {
      guint bits = classes[glyphs[places[k]].symbol].class.bits;
      guint alnum = (bits / CLASS_ALNUM) & 1;

      inner |= alnum & pending;
      after_alnum |= alnum;
      pending |= ((bits / CLASS_PENDING) & 1) & after_alnum;
    }
  return inner;
}

/* token_is_odd() of the token of the @n symbols at @places, each of one character or
 * none, from their classes ORed together (@any) and ANDed (@all), whole ClassWords at
 * once. The scripts are all one if their OR and AND agree; with no script at all, the
 * AND stays all ones. Whether a symbol stands inside it (token_inner()) takes another
 * look at its symbols, so it is asked last, and only of a token that has one that may. */
static Judgement
tally_judgement (const SymbolClass *any, const SymbolClass *all, const ClassWord *classes,
                 const DcGlyph *glyphs, const guint32 *places, guint n)
{
  gboolean mixed_scripts = all->script_and != G_MAXUINT16 && any->script_or != all->script_and;

  if (!(any->bits & CLASS_ANY))
    return TOKEN_EMPTY;
  return mixed_scripts
                 || ((any->bits & CLASS_LETTERS) && any->script_or != G_UNICODE_SCRIPT_HAN
                     && ((any->bits & (CLASS_DIGITS | CLASS_INNER))
                         || ((any->bits & CLASS_PENDING)
                             && token_inner (classes, glyphs, places, n))))
             ? TOKEN_ODD
             : TOKEN_PLAIN;
}

/* Counting the tokens on several threads: parts of the tokens, each counted into its
 * own tallies per font, added up afterwards (whole numbers: the sums are the same
 * whichever thread counted what, in whichever parts). The layout counts each page's
 * tokens as it splits them, while their glyphs are at hand. */
enum
{
  TALLY_TOKENS,
  TALLY_ODD_TOKENS,
  TALLY_OWN_TOKEN_GLYPHS,
  TALLY_EDGE_GLYPHS,
  TALLY_INNER_GLYPHS,
  N_TALLIES
};

struct _DcTrustCount
{
  guint n_fonts;
  guint n_parts;
  guint *tallies;     /* per part, per font: the TALLY_ slots */
  ClassWord *classes; /* per symbol */
};

/* What a thread counts with: the tokens it judged, by their symbols. */
struct _DcTrustCounter
{
  GString *text;
  Judged judged;
  guint key_room;
  guint32 *key;
};

DcTrustCount *
_dc_trust_count_new (DcDocument *document, guint n_parts)
{
  DcTrustCount *count = g_new0 (DcTrustCount, 1);
  const DcSymbol *symbols;
  guint n_symbols;

  count->n_fonts = dc_document_get_n_fonts (document);
  count->n_parts = MAX (1, n_parts);
  count->tallies = g_new0 (guint, (gsize) count->n_parts * MAX (1, count->n_fonts) * N_TALLIES);
  symbols = dc_document_get_symbols (document, &n_symbols);
  count->classes = g_new (ClassWord, MAX (1, n_symbols));
  for (guint s = 0; s < n_symbols; s++)
    {
      count->classes[s].class = classify_symbol (symbols[s].pdf_text);
      count->classes[s].class.font = symbols[s].font;
    }
  return count;
}

void
_dc_trust_count_free (DcTrustCount *count)
{
  g_free (count->tallies);
  g_free (count->classes);
  g_free (count);
}

DcTrustCounter *
_dc_trust_counter_new (void)
{
  DcTrustCounter *counter = g_new0 (DcTrustCounter, 1);

  counter->text = g_string_new (NULL);
  /* A token with a symbol of several characters is judged from its text: its symbols →
   * its Judgement, since a book draws the same words again and again, and judging one
   * takes four or five questions to GLib about each of its characters. */
  counter->judged = (Judged){ g_new0 (JudgedSlot, 1024), 1023, 0,
                              g_array_new (FALSE, FALSE, sizeof (guint32)) };
  counter->key_room = 64;
  counter->key = g_new (guint32, counter->key_room);
  return counter;
}

void
_dc_trust_counter_free (DcTrustCounter *counter)
{
  g_string_free (counter->text, TRUE);
  g_free (counter->judged.slots);
  g_array_unref (counter->judged.keys);
  g_free (counter->key);
  g_free (counter);
}

/* The Judgement of the token of symbols @key, from its text. */
static Judgement
judge_text (GString *text, const DcSymbol *symbols, const guint32 *key)
{
  g_string_truncate (text, 0);
  for (guint k = 0; k < key[0]; k++)
    {
      const char *pdf_text = symbols[key[1 + k]].pdf_text;

      _dc_string_append_len (text, pdf_text, strlen (pdf_text));
    }
  return text->len == 0 ? TOKEN_EMPTY : token_is_odd (text) ? TOKEN_ODD : TOKEN_PLAIN;
}

/* Where each font's glyphs stand in a token of several fonts: in the run of its own
 * glyphs that starts or ends the token (the comma after a word, a quotation mark before
 * it), or between the other font's glyphs (a letter of a symbol font inside a word). */
static void
tally_mixed_token (guint *tally, const ClassWord *classes, const DcGlyph *glyphs,
                   const guint32 *places, guint n)
{
  guint first_font = classes[glyphs[places[0]].symbol].class.font;
  guint last_font = classes[glyphs[places[n - 1]].symbol].class.font;
  guint lead = 0, trail = 0;

  while (lead < n && classes[glyphs[places[lead]].symbol].class.font == first_font)
    lead++;
  while (trail < n && classes[glyphs[places[n - 1 - trail]].symbol].class.font == last_font)
    trail++;
  for (guint k = 0; k < n; k++)
    {
      SymbolClass class = classes[glyphs[places[k]].symbol].class;
      gboolean edge = k < lead || k >= n - trail
                      || !(class.bits
                           & (CLASS_LETTERS | CLASS_DIGITS | CLASS_INNER | CLASS_PENDING));

      tally[N_TALLIES * class.font + (edge ? TALLY_EDGE_GLYPHS : TALLY_INNER_GLYPHS)]++;
    }
}

void
_dc_trust_count_tokens (DcTrustCount *count, DcTrustCounter *counter, guint part,
                        const DcGlyph *glyphs, const DcSymbol *symbols, const guint32 *order,
                        const DcToken *tokens, guint n_tokens)
{
  guint *tally = count->tallies + (gsize) part * count->n_fonts * N_TALLIES;
  Judged *judged = &counter->judged;
  GString *text = counter->text;

  g_assert (part < count->n_parts);

  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &tokens[t];
      const guint32 *places = order + token->first_glyph;
      ClassWord any = { .word = 0 }, all = { .word = G_MAXUINT64 };
      guint font, k;
      Judgement judgement;

      /* Two operations a glyph: the fonts are told apart and the rest judged once the
       * token is read. */
      for (k = 0; k < token->n_glyphs; k++)
        {
          ClassWord class = count->classes[glyphs[places[k]].symbol];

          any.word |= class.word;
          all.word &= class.word;
        }
      /* A token in several fonts says little about any one of them, but where each
       * font's glyphs stand in it. */
      if (G_UNLIKELY (any.class.font != all.class.font))
        {
          tally_mixed_token (tally, count->classes, glyphs, places, token->n_glyphs);
          continue;
        }
      font = any.class.font;

      if (!(any.class.bits & CLASS_COMPLEX))
        judgement = tally_judgement (&any.class, &all.class, count->classes, glyphs, places,
                                     token->n_glyphs);
      else
        {
          JudgedSlot *found;
          guint32 *key;
          guint32 hash;

          /* Its symbols as a key, wanted only for a token judged from its text. */
          if (token->n_glyphs + 1 > counter->key_room)
            {
              counter->key_room = 2 * (token->n_glyphs + 1);
              counter->key = g_renew (guint32, counter->key, counter->key_room);
            }
          key = counter->key;
          key[0] = token->n_glyphs;
          for (k = 0; k < token->n_glyphs; k++)
            key[1 + k] = glyphs[places[k]].symbol;
          hash = symbols_hash (key);
          found = judged_find (judged, key, hash);
          if (found->judgement != 0)
            judgement = found->judgement;
          else
            {
              judgement = judge_text (text, symbols, key);
              if (judged->n < MAX_JUDGED)
                judged_add (judged, key, hash, judgement);
            }
        }
      if (judgement == TOKEN_EMPTY)
        continue;

      tally[N_TALLIES * font + TALLY_TOKENS]++;
      tally[N_TALLIES * font + TALLY_OWN_TOKEN_GLYPHS] += token->n_glyphs;
      if (judgement == TOKEN_ODD)
        tally[N_TALLIES * font + TALLY_ODD_TOKENS]++;
    }
}

void
_dc_trust_count_totals (const DcTrustCount *count, guint font, DcTrustTokenTotals *totals)
{
  g_return_if_fail (count != NULL && totals != NULL);

  memset (totals, 0, sizeof *totals);
  if (font >= count->n_fonts)
    return;
  for (guint p = 0; p < count->n_parts; p++)
    {
      const guint *tally = count->tallies + ((gsize) p * count->n_fonts + font) * N_TALLIES;

      totals->tokens += tally[TALLY_TOKENS];
      totals->odd_tokens += tally[TALLY_ODD_TOKENS];
      totals->own_token_glyphs += tally[TALLY_OWN_TOKEN_GLYPHS];
      totals->edge_glyphs += tally[TALLY_EDGE_GLYPHS];
      totals->inner_glyphs += tally[TALLY_INNER_GLYPHS];
    }
}
