/* dc-recognize-apply.c: the readings weighed into values, applied or proposed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A symbol's value is the one most of its readings agree on, as sure as they agree
 * (calibrated against what bench/calibrate-levels.py measured); a reading another glyph
 * of the font owns, a look-alike, an ASCII letter at its own code or a font the readings
 * contradict is proposed, never applied (dc-recognize.c, DESIGN §8).
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "dc-fingerprint.h"
#include "dc-library.h"
#include "dc-lookalikes-private.h"
#include "dc-recognize-private.h"
#include "dc-tsan-private.h"

/* A value that has look-alikes OCR confuses (х ӿ ҳ, К Қ, – —) is not told from them by
 * reading alone: it is proposed, never applied, however unanimous the readings. Stated at
 * what bench/calibrate-levels.py measured (issue 28): 34 of 34 such proposals right in
 * two runs, where 0.8 was stated; 0.96, as the bench counts a Δ of exactly 0.05 as off. */
#define LOOKALIKE_CONFIDENCE 0.96
/* A reading another glyph of the font owns (ӈ read as н) is a letter the reader does not
 * know: below any sensible "accept all" threshold, so What Next? asks for it. Measured
 * by bench/calibrate-levels.py: 1 of 10 right in two runs (0.15 was stated). */
#define TAKEN_CONFIDENCE 0.05
/* Such a reading at an ASCII letter's code is that letter (the legacy layout keeps
 * ASCII): proposed where "accept all above 50 %" takes it, never applied. */
#define ASCII_CONFIDENCE 0.7

/* The value most of @symbol's readings agree on (ties: the smaller string, so that the
 * result does not depend on the hash table's order), and how many agree. */
static const char *
winner (DcRecognizeJob *job, guint symbol, guint *count_out)
{
  GHashTableIter iter;
  gpointer value, count;
  const char *best = NULL;
  guint best_count = 0;

  g_hash_table_iter_init (&iter, job->votes[symbol]);
  while (g_hash_table_iter_next (&iter, &value, &count))
    if (GPOINTER_TO_UINT (count) > best_count
        || (GPOINTER_TO_UINT (count) == best_count && g_strcmp0 (value, best) < 0))
      {
        best = value;
        best_count = GPOINTER_TO_UINT (count);
      }
  *count_out = best_count;
  return best;
}

/* Whether @a and @b draw different shapes; without outlines (Type 3) they may. */
static gboolean
shapes_differ (DcRecognizeJob *job, guint a, guint b)
{
  const DcShape *sa = job->shapes != NULL ? dc_shapes_get (job->shapes, a) : NULL;
  const DcShape *sb = job->shapes != NULL ? dc_shapes_get (job->shapes, b) : NULL;

  if (sa == NULL || sb == NULL)
    return TRUE;
  return dc_shape_distance (sa, sb) > DC_SHAPE_NEAR_DISTANCE;
}

/* The ASCII character a one-byte code stands for in every legacy code page (they keep
 * ASCII below 0x80), or 0. */
static char
ascii_of (const DcSymbol *symbol)
{
  return symbol->code_len == 1 && symbol->code > 0x20 && symbol->code < 0x7f ? (char) symbol->code
                                                                             : 0;
}

/* The Russian letter a one-byte code stands for in windows-1251, which legacy Cyrillic
 * fonts keep for the letters they share with Russian (national letters take the free
 * codes), as UTF-8 in @out; FALSE for other codes. */
static gboolean
cp1251_letter_of (const DcSymbol *symbol, char out[8])
{
  gunichar c;

  if (symbol->code_len != 1
      || (symbol->code < 0xC0 && symbol->code != 0xA8 && symbol->code != 0xB8))
    return FALSE;
  c = symbol->code == 0xA8   ? 0x0401
      : symbol->code == 0xB8 ? 0x0451
                             : 0x0410 + (symbol->code - 0xC0);
  out[g_unichar_to_utf8 (c, out)] = '\0';
  return TRUE;
}

/* Whether a glyph read as @value, which another glyph of its font owns, is taken for what
 * its code is in ASCII: a letter, a digit or a common punctuation mark there, which
 * legacy fonts keep (a hacked font puts its letters at the brackets and the accents). */
static gboolean
ascii_stands (const DcSymbol *symbol)
{
  char c = ascii_of (symbol);

  return c != 0 && (g_ascii_isalnum (c) || strchr (".,;:!?()", c) != NULL);
}

/* What @symbol's one-byte code is in ASCII, as a string; only asked of a symbol that has
 * one (ascii_of() not 0). */
static const char *
ascii_value (const DcSymbol *symbol)
{
  char c = ascii_of (symbol);

  static const char *const table[] = {
    " ", "!", "\"", "#",  "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/", "0", "1", "2",
    "3", "4", "5",  "6",  "7", "8", "9", ":", ";", "<", "=", ">", "?", "@", "A", "B", "C", "D", "E",
    "F", "G", "H",  "I",  "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X",
    "Y", "Z", "[",  "\\", "]", "^", "_", "`", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
    "l", "m", "n",  "o",  "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "{", "|", "}", "~",
  };

  g_assert (c > 0x20);
  return table[c - 0x20];
}

/* Whether @value is the one ASCII character @c. */
static gboolean
is_ascii (const char *value, char c)
{
  return c != 0 && value[0] == c && value[1] == '\0';
}

/* Whether @value is what @symbol's one-byte code stands for in ASCII or, for a Russian
 * letter, windows-1251: the layout agrees with the reading. */
static gboolean
at_own_code (const DcSymbol *symbol, const char *value)
{
  char letter[8];

  return is_ascii (value, ascii_of (symbol))
         || (cp1251_letter_of (symbol, letter) && g_str_equal (letter, value));
}

/* Measured by bench/calibrate-recognize.py (issue 30) on 24 generated legacy PDFs, UDHR
 * texts in Latin and Cyrillic (English, Russian, Yakut, Evenki, Nenets, Nivkh) set in
 * Charis SIL, Andika, Gentium Plus and Schoolbook Uralic, none of them installed: the
 * share of proposals that were right, by the share of a symbol's readings that agree
 * (agreement(); look-alikes left out, they are capped). Precision there:
 * 1.0: 1077 of 1077; [0.875, 1): 265 of 265; [0.625, 0.875): 83 of 85; [0.375, 0.625):
 * 21 of 23; below: 45 of 226. Each band's figure is a little under what was measured,
 * and a split vote under 0.5, which "accept all above 50 %" leaves for a look: though
 * bench/calibrate-levels.py found 12 of 12 right (issue 28), a split vote can be wrong
 * (test-recognize: "!" for "?" 10 of 19 times), and taken without a look it would stay. */
static const struct
{
  double agreement; /* at least */
  double confidence;
} calibration[] = {
  { 1.0, 0.995 }, { 0.875, 0.99 }, { 0.625, 0.97 }, { 0.375, 0.45 }, { 0.0, 0.2 },
};

/* How sure a reading @agreement of the symbol's readings agree on is (calibration[]). */
static double
calibrated (double agreement)
{
  for (guint i = 0; i < G_N_ELEMENTS (calibration); i++)
    if (agreement >= calibration[i].agreement - 1e-9)
      return calibration[i].confidence;
  return 0.0;
}

/* The symbols of each font holding or read as each value: "font:value" → GArray of guint. */
static GHashTable *
index_values (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best)
{
  GHashTable *index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_array_unref);

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s] != NULL ? job->values[s] : best[s];
      char *name;
      GArray *list;

      if (value == NULL || value[0] == '\0')
        continue;
      name = g_strdup_printf ("%u:%s", symbols[s].font, value);
      list = g_hash_table_lookup (index, name);
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (index, name, list);
        }
      else
        g_free (name);
      g_array_append_val (list, s);
    }
  return index;
}

/* For a symbol read as @value, the symbol of the same font that owns @value: one that
 * already has it, or one read as it more unanimously (then more often), readings counted
 * as (agreeing + 1) / (read + 2) so that a few unanimous readings weigh little. A reader trained
 * on a national language reads a letter it does not know as its nearest letter (Nivkh ӊ
 * as н, ғ as г, Nenets ӈ as н): two glyphs of different shapes read alike are told apart
 * by giving the value to the one that reads it better; a glyph whose one-byte code is
 * the value in ASCII owns it outright. Returns G_MAXUINT for none. */
static guint
owner_of (DcRecognizeJob *job, const DcSymbol *symbols, GHashTable *index, const guint *best_count,
          guint symbol, const char *value)
{
  g_autofree char *name = g_strdup_printf ("%u:%s", symbols[symbol].font, value);
  GArray *list = g_hash_table_lookup (index, name);
  /* Smoothed, so that 4 of 4 readings do not outweigh 179 of 180. */
  double share = (best_count[symbol] + 1.0) / (job->n_read[symbol] + 2.0);
  char letter[8];

  if (at_own_code (&symbols[symbol], value))
    return G_MAXUINT;
  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      guint s = g_array_index (list, guint, i);
      double other;

      if (s == symbol || !shapes_differ (job, s, symbol))
        continue;
      /* A legacy font keeps ASCII at its codes, and a Cyrillic one mostly windows-1251's
       * Russian letters: the glyph at 0x35 owns "5", the one at 0xCA "К". */
      if (job->values[s] != NULL || is_ascii (value, ascii_of (&symbols[s])))
        return s;
      if (cp1251_letter_of (&symbols[s], letter) && g_str_equal (letter, value))
        return s;
      other = (best_count[s] + 1.0) / (job->n_read[s] + 2.0);
      if (other > share
          || (other == share
              && (symbols[s].n_glyphs > symbols[symbol].n_glyphs
                  || (symbols[s].n_glyphs == symbols[symbol].n_glyphs && s < symbol))))
        return s;
    }
  return G_MAXUINT;
}

/* Whether most letters of @font are Cyrillic, as known or read. */
static gboolean
font_is_cyrillic (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best, guint font)
{
  guint cyrillic = 0, other = 0;

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s] != NULL ? job->values[s] : best[s];
      const char *script;

      if (symbols[s].font != font || value == NULL
          || (script = dc_library_script_of_value (value)) == NULL)
        continue;
      if (g_str_equal (script, "Cyrl"))
        cyrillic += symbols[s].n_glyphs;
      else
        other += symbols[s].n_glyphs;
    }
  return cyrillic > 2 * other;
}

/* Whether @font keeps windows-1251's Russian letters at their codes: of its symbols read
 * (by a clear majority) as a Russian letter, two in three at least, and ten, sit at that
 * letter's code. */
static gboolean
font_keeps_cp1251 (DcRecognizeJob *job, const DcSymbol *symbols, guint font)
{
  guint own = 0, other = 0;

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s];
      guint count = 0;
      char letter[8];
      gunichar c;

      if (symbols[s].font != font)
        continue;
      if (value == NULL && job->votes[s] != NULL && (value = winner (job, s, &count)) != NULL
          && count * 3 < job->n_read[s] * 2)
        value = NULL;
      if (value == NULL || (c = g_utf8_get_char (value)) == 0
          || value[g_unichar_to_utf8 (c, letter)] != '\0'
          || !((c >= 0x0410 && c <= 0x044F) || c == 0x0401 || c == 0x0451))
        continue;
      if (cp1251_letter_of (&symbols[s], letter) && g_str_equal (letter, value))
        own++;
      else
        other++;
    }
  return own >= 10 && own >= 2 * other;
}

/* Whether the legacy layout of @symbol's font puts @value, a Russian letter or an ASCII
 * letter or digit, at another code: a Cyrillic legacy font keeps ASCII and
 * windows-1251's Russian letters where they are (see cp1251_letter_of()), so a glyph
 * elsewhere read as one (Nivkh Ӿ as Х, the S of a Latin name as 5) is a letter the
 * reader does not know. */
static gboolean
layout_owns (DcRecognizeJob *job, const DcSymbol *symbols, guint symbol, const char *value)
{
  char letter[8];
  gunichar c = g_utf8_get_char (value);

  if (c == 0 || value[g_unichar_to_utf8 (c, letter)] != '\0' || symbols[symbol].code_len != 1
      || !((c >= 0x0410 && c <= 0x044F) || c == 0x0401 || c == 0x0451
           || (c < 0x80 && g_ascii_isalnum ((char) c)))
      || (cp1251_letter_of (&symbols[symbol], letter) && g_str_equal (letter, value))
      || is_ascii (value, ascii_of (&symbols[symbol])))
    return FALSE;
  if (job->keeps_cp1251 == NULL)
    {
      guint n_fonts = dc_document_get_n_fonts (job->document);

      job->keeps_cp1251 = g_new0 (guint8, MAX (n_fonts, 1));
      for (guint f = 0; f < n_fonts; f++)
        job->keeps_cp1251[f] = 1 + font_keeps_cp1251 (job, symbols, f);
    }
  return symbols[symbol].font < dc_document_get_n_fonts (job->document)
         && job->keeps_cp1251[symbols[symbol].font] == 2;
}

/* What a reading stands for in this document. An apostrophe read inside words of a
 * Cyrillic text is a letter — the Nenets and Nivkh glottal stop, the Ukrainian and
 * Belarusian separation sign — which Unicode writes U+02BC MODIFIER LETTER APOSTROPHE;
 * Tesseract only knows the punctuation marks. */
static const char *
interpret (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best, guint symbol)
{
  static const char *const latin[][2] = {
    { "а", "a" }, { "в", "B" }, { "е", "e" }, { "к", "k" }, { "м", "m" }, { "н", "H" },
    { "о", "o" }, { "п", "n" }, { "р", "p" }, { "с", "c" }, { "т", "t" }, { "у", "y" },
    { "х", "x" }, { "і", "i" }, { "ј", "j" }, { "ѕ", "s" }, { "ь", "b" }, { "А", "A" },
    { "В", "B" }, { "Е", "E" }, { "К", "K" }, { "М", "M" }, { "Н", "H" }, { "О", "O" },
    { "Р", "P" }, { "С", "C" }, { "Т", "T" }, { "У", "Y" }, { "Х", "X" }, { "І", "I" },
    { "Ј", "J" }, { "Ѕ", "S" },
  };
  const char *value = best[symbol];
  char ascii = ascii_of (&symbols[symbol]);

  /* A Latin letter in a Cyrillic text, read by a Cyrillic reader as its look-alike, at
   * the code that is that Latin letter in every legacy code page: the Latin letter. */
  for (guint i = 0; ascii != 0 && i < G_N_ELEMENTS (latin); i++)
    if (g_str_equal (value, latin[i][0]) && is_ascii (latin[i][1], ascii))
      return latin[i][1];
  if ((g_str_equal (value, "\u2019") || g_str_equal (value, "'"))
      && job->n_inside[symbol] * 2 > job->n_read[symbol]
      && font_is_cyrillic (job, symbols, best, symbols[symbol].font))
    return "\u02BC";
  return value;
}

/* Per font: whether OCR contradicts the proposals its own tables made (a cmap that says
 * "?" where the page shows "$"): most of the symbols it proposed a value for, read at
 * least twice with a clear majority, read as something else. Such a font's proposals
 * below the library level give way to the readings. */
static guint8 *
fonts_contradicted (DcRecognizeJob *job, DcKey *key, const DcSymbol *symbols,
                    const char *const *best, const guint *best_count)
{
  guint n_fonts = dc_document_get_n_fonts (job->document);
  g_autofree guint *agree = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *disagree = g_new0 (guint, MAX (n_fonts, 1));
  guint8 *contradicted = g_new0 (guint8, MAX (n_fonts, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      g_autofree char *held = NULL;
      DcKeyLevel level;

      if (best[s] == NULL || symbols[s].font >= n_fonts
          || dc_key_get_status (key, s) != DC_KEY_PROPOSED || best_count[s] < 2
          || best_count[s] * 3 < job->n_read[s] * 2)
        continue;
      level = dc_key_get_level (key, s);
      if (level <= DC_KEY_LEVEL_SHAPE || level >= DC_KEY_LEVEL_LIBRARY)
        continue;
      held = g_utf8_normalize (dc_key_peek_value (key, s), -1, G_NORMALIZE_NFC);
      if (g_strcmp0 (held, best[s]) == 0)
        agree[symbols[s].font]++;
      else
        disagree[symbols[s].font]++;
    }
  for (guint f = 0; f < n_fonts; f++)
    contradicted[f] = disagree[f] >= 2 && disagree[f] > 2 * agree[f];
  return contradicted;
}

typedef struct
{
  DcRecognizeJob *job;
  const DcSymbol *symbols;
  guint symbol;
  GHashTable *index; /* the readings, as index_values() */
  const guint *best_count;
} RuledOut;

/* Whether another glyph of the symbol's font, of another shape, already has @c. Only a
 * value held counts: which of two glyphs read alike is the letter read is no surer by
 * shape than by reading (the Latin K of a Cyrillic font is read as К too). */
static gboolean
held_elsewhere (gunichar c, gpointer data)
{
  RuledOut *r = data;
  char value[8];

  value[g_unichar_to_utf8 (c, value)] = '\0';
  for (guint s = 0; s < r->job->n_symbols; s++)
    if (s != r->symbol && r->symbols[s].font == r->symbols[r->symbol].font
        && g_strcmp0 (r->job->values[s], value) == 0 && shapes_differ (r->job, s, r->symbol))
      return TRUE;
  return FALSE;
}

/* Whether another glyph of the font, of another shape, owns @c (owner_of(): it holds
 * it, sits at its code in the legacy layout, or is read as it more unanimously). Used
 * only once the reading itself is owned: the glyph is then a letter the reader does not
 * know, and its look-alikes that other glyphs own are not it either. */
static gboolean
owned_elsewhere (gunichar c, gpointer data)
{
  RuledOut *r = data;
  char value[8];

  value[g_unichar_to_utf8 (c, value)] = '\0';
  return held_elsewhere (c, data)
         || owner_of (r->job, r->symbols, r->index, r->best_count, r->symbol, value) != G_MAXUINT
         || layout_owns (r->job, r->symbols, r->symbol, value);
}

/* Readings with look-alikes (х for ӿ, К for Қ, 5 for 3, – for —) are not decided by OCR:
 * each such symbol's glyph is compared with the candidates drawn in installed fonts
 * (dc-lookalikes.c), leaving out those another glyph of the font already has. The value
 * its shape names replaces the reading in @best (new strings kept in @kept), and
 * @reasons gets why, for the provenance. */
static void
resolve_lookalikes (DcRecognizeJob *job, const DcSymbol *symbols, const char **best,
                    const guint *best_count, GPtrArray *kept, char **reasons, guint8 *shape_agrees)
{
  g_autoptr (DcLookalikes) lookalikes = _dc_lookalikes_new ();
  g_autoptr (GHashTable) index = index_values (job, symbols, (const char *const *) best);
  g_autofree const char **decided = g_new0 (const char *, MAX (job->n_symbols, 1));
  g_autofree guint8 *clash = g_new0 (guint8, MAX (job->n_symbols, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      RuledOut r = { job, symbols, s, index, best_count };
      g_autofree char *why = NULL;
      const DcShape *shape;
      gboolean owned;
      gunichar c;
      char value[8];

      if (best[s] == NULL || !_dc_lookalikes_has (best[s]) || job->shapes == NULL
          || (shape = dc_shapes_get (job->shapes, s)) == NULL)
        continue;
      /* A reading another glyph owns (ӿ read as х, the х being elsewhere) names the
       * glyph's look-alike group, not its letter: the shape picks among the rest. A split
       * vote names nothing (the apostrophe read as г on a few lines). */
      owned = owner_of (job, symbols, index, best_count, s, best[s]) != G_MAXUINT
              || layout_owns (job, symbols, s, best[s]);
      if (owned && (best_count[s] * 2 <= job->n_read[s] || ascii_stands (&symbols[s])))
        continue;
      c = _dc_lookalikes_decide (lookalikes, best[s], shape,
                                 owned ? owned_elsewhere : held_elsewhere, &r, &why);
      if (c == 0)
        continue;
      value[g_unichar_to_utf8 (c, value)] = '\0';
      if (g_str_equal (value, best[s]))
        {
          shape_agrees[s] = TRUE;
          continue;
        }
      reasons[s] = g_strdup_printf ("; shape: “%s”, %s", value, why);
      g_ptr_array_add (kept, g_strdup (value));
      decided[s] = best[s] = g_ptr_array_index (kept, kept->len - 1);
      /* The reader named the group, the shape its member: two sides agree. */
      shape_agrees[s] = owned;
    }
  /* Two glyphs of different shapes are not one letter: where the shapes named the same
   * one for both, neither is sure, and both keep what was read. */
  for (guint s = 0; s < job->n_symbols; s++)
    for (guint t = 0; decided[s] != NULL && t < job->n_symbols; t++)
      if (t != s && decided[t] != NULL && symbols[s].font == symbols[t].font
          && g_str_equal (decided[s], decided[t]) && shapes_differ (job, s, t))
        clash[s] = TRUE;
  for (guint s = 0; s < job->n_symbols; s++)
    if (clash[s])
      {
        guint count;

        g_clear_pointer (&reasons[s], g_free);
        best[s] = winner (job, s, &count);
        shape_agrees[s] = FALSE;
      }
}

/* Whether another glyph or the legacy layout owns @symbol's reading, and what that makes
 * of it: the glyph's own ASCII letter (proposed at ASCII_CONFIDENCE), or a letter the
 * reader does not know (capped at TAKEN_CONFIDENCE). Updates @value and @confidence;
 * returns the provenance. */
static char *
judge_owned (DcRecognizeJob *job, const DcSymbol *symbols, GHashTable *index, const char **best,
             const guint *best_count, const char *reason, guint s, const char **value,
             double *confidence)
{
  guint owner = owner_of (job, symbols, index, best_count, s, best[s]);
  gboolean by_layout = owner == G_MAXUINT && layout_owns (job, symbols, s, best[s]);

  if (reason == NULL)
    reason = "";
  if ((owner != G_MAXUINT || by_layout) && ascii_stands (&symbols[s]))
    {
      /* A legacy font keeps ASCII: a Latin letter in a Cyrillic text (the G of "Gilyak"),
       * read as the Cyrillic letter another glyph is, is its own code's. */
      *confidence = ASCII_CONFIDENCE;
      *value = ascii_value (&symbols[s]);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, as a glyph of another shape "
                              "is or the layout has elsewhere: the legacy layout's “%c” at its "
                              "code",
                              best[s], best_count[s], job->n_read[s], ascii_of (&symbols[s]));
    }
  if (by_layout)
    {
      *confidence = MIN (*confidence, TAKEN_CONFIDENCE);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, which the legacy layout has "
                              "at another code: a letter the reader may not know%s",
                              best[s], best_count[s], job->n_read[s], reason);
    }
  if (owner != G_MAXUINT)
    {
      *confidence = MIN (*confidence, TAKEN_CONFIDENCE);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, as a glyph of another shape is "
                              "(code 0x%X): a letter the reader may not know%s",
                              best[s], best_count[s], job->n_read[s], symbols[owner].code, reason);
    }
  return g_strdup_printf ("ocr: read as “%s” %u of %u times%s", best[s], best_count[s],
                          job->n_read[s], reason);
}

/* Per font, the share of its readings made in words Tesseract was sure of (SURE_WORD): a
 * reader that does not know the text's script (Greek, with no Greek data installed)
 * reads its letters as its own nearest ones, unanimously and never sure of a word: Greek
 * read so, 0.001 of its readings were in sure words; Russian 0.994, Nenets (letters
 * Russian lacks) 0.957, Nivkh (many letters Russian lacks, in a serif) 0.497 with its
 * readings right as often as Russian's (bench/recognize-udhr.py). Below MIN_SURE_SHARE,
 * far under a real Cyrillic minority language, its readings are stated at
 * UNREAD_CONFIDENCE: 1 of the 48 such Greek readings was right (issue 28). */
#define MIN_SURE_SHARE 0.2
#define UNREAD_CONFIDENCE 0.05
/* A font with fewer readings than this is not judged so: the few glyphs the other levels
 * left to read are the rare letters and marks of words the reader is least sure of
 * (Evenki in Schoolbook Uralic: 18 readings, 0.389 in sure words, all of them right). */
#define MIN_JUDGED_READINGS 100

static double *
sure_shares (DcRecognizeJob *job, const DcSymbol *symbols)
{
  guint n_fonts = dc_document_get_n_fonts (job->document);
  g_autofree guint *read = g_new0 (guint, MAX (n_fonts, 1));
  double *shares = g_new0 (double, MAX (n_fonts, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      GHashTableIter iter;
      gpointer count;

      if (symbols[s].font >= n_fonts)
        continue;
      read[symbols[s].font] += job->n_read[s];
      if (job->sure[s] == NULL)
        continue;
      g_hash_table_iter_init (&iter, job->sure[s]);
      while (g_hash_table_iter_next (&iter, NULL, &count))
        shares[symbols[s].font] += GPOINTER_TO_UINT (count);
    }
  for (guint f = 0; f < n_fonts; f++)
    {
      shares[f] = read[f] >= MIN_JUDGED_READINGS ? shares[f] / read[f] : 1;
      g_debug ("font %u: %.3f of %u readings in sure words", f, shares[f], read[f]);
    }
  return shares;
}

/**
 * dc_recognize_job_apply:
 *
 * Proposes for each symbol read the value most of its readings agree on, at the shape
 * level (DESIGN §7), as sure as readings that agree that much have been right
 * (calibrated(); counting at least three readings, so that one reading is never sure);
 * at %DC_RECOGNIZE_AUTOMATIC or above it is applied as inferred instead. A value with
 * look-alikes (_dc_lookalikes_has()) is only proposed, and which of them the glyph
 * draws is decided by its shape (resolve_lookalikes()). A value another glyph of the font owns
 * (see owner_of()) is proposed only at TAKEN_CONFIDENCE: a letter the reader does not know, left
 * for the user. Symbols that got a value meanwhile, or hold a stronger proposal, keep it — unless
 * OCR contradicts most of what their font's own tables proposed (fonts_contradicted()). Call it
 * within a change of @key.
 *
 * Returns: how many proposals were made
 */
guint
dc_recognize_job_apply (DcRecognizeJob *job, DcKey *key)
{
  const DcSymbol *symbols;
  g_autofree const char **best = NULL;
  g_autofree guint *best_count = NULL;
  g_autoptr (GHashTable) index = NULL;
  g_autofree guint8 *contradicted = NULL;
  g_autofree guint8 *shape_agrees = NULL;
  g_autofree double *sure_share = NULL;
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
  /* Per symbol, mostly NULL: not a GStrv, which would end at the first NULL. */
  g_autoptr (GPtrArray) reason_list = NULL;
  char **reasons;
  guint n = 0;

  g_return_val_if_fail (job != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key) && dc_key_get_document (key) == job->document, 0);

  symbols = dc_document_get_symbols (job->document, NULL);
  best = g_new0 (const char *, MAX (job->n_symbols, 1));
  best_count = g_new0 (guint, MAX (job->n_symbols, 1));
  reason_list = g_ptr_array_new_full (job->n_symbols, g_free);
  g_ptr_array_set_size (reason_list, job->n_symbols);
  reasons = (char **) reason_list->pdata;
  for (guint s = 0; s < job->n_symbols; s++)
    if (job->votes[s] != NULL)
      best[s] = winner (job, s, &best_count[s]);
  shape_agrees = g_new0 (guint8, MAX (job->n_symbols, 1));
  resolve_lookalikes (job, symbols, best, best_count, kept, reasons, shape_agrees);
  index = index_values (job, symbols, (const char *const *) best);
  contradicted = fonts_contradicted (job, key, symbols, (const char *const *) best, best_count);
  sure_share = sure_shares (job, symbols);

  for (guint s = 0; s < job->n_symbols; s++)
    {
      g_autofree char *provenance = NULL;
      DcKeyStatus status = dc_key_get_status (key, s);
      double confidence;
      const char *value;

      if (best[s] == NULL)
        continue;
      if (status == DC_KEY_PROPOSED && dc_key_get_level (key, s) > DC_KEY_LEVEL_SHAPE
          && dc_key_get_level (key, s) < DC_KEY_LEVEL_LIBRARY && contradicted[symbols[s].font])
        {
          dc_key_forget (key, s);
          status = dc_key_get_status (key, s);
        }
      if (status != DC_KEY_UNKNOWN
          && !(status == DC_KEY_PROPOSED && dc_key_get_level (key, s) <= DC_KEY_LEVEL_SHAPE))
        continue;
      {
        /* One unanimous reading counts as three where the legacy layout gives that
         * character at that code: two sides agree. In a word Tesseract is sure of it
         * counts as two only: Russian OCR is sure of "Эжем" for Kazakh "Әжем". */
        guint sure = job->sure[s] != NULL
                         ? GPOINTER_TO_UINT (g_hash_table_lookup (job->sure[s], best[s]))
                         : 0;
        guint least = best_count[s] != job->n_read[s]      ? 3
                      : at_own_code (&symbols[s], best[s]) ? 1
                      : shape_agrees[s]                    ? 1
                      : sure > 0                           ? 2
                                                           : 3;

        confidence = calibrated (best_count[s] / (double) MAX (job->n_read[s], least));
      }
      value = interpret (job, symbols, (const char *const *) best, s);
      if (_dc_lookalikes_has (best[s]) || _dc_lookalikes_has (value))
        confidence = MIN (confidence, LOOKALIKE_CONFIDENCE);
      provenance = judge_owned (job, symbols, index, best, best_count, reasons[s], s, &value,
                                &confidence);
      if (symbols[s].font < dc_document_get_n_fonts (job->document)
          && sure_share[symbols[s].font] < MIN_SURE_SHARE)
        {
          char *unread = g_strconcat (provenance,
                                      "; the reader was sure of almost no word in this font: "
                                      "a script it does not know",
                                      NULL);

          g_free (provenance);
          provenance = unread;
          confidence = MIN (confidence, UNREAD_CONFIDENCE);
        }
      /* Where readings this sure have been right at least 99 % of the time, the value is
       * applied without the user, as inferred: undone with the rest of the step. */
      if (dc_key_set_full (key, s, value,
                           confidence >= DC_RECOGNIZE_AUTOMATIC ? DC_KEY_INFERRED : DC_KEY_PROPOSED,
                           DC_KEY_LEVEL_SHAPE, confidence, provenance, NULL))
        n++;
    }
  return n;
}
