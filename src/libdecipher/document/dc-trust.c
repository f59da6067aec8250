/* dc-trust.c: which fonts' text maps can be believed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A font is trusted only when its codes map to ordinary text: every code has a mapping,
 * none goes to private-use or control characters, codes do not share one character (unless
 * they may be forms of one letter: positional forms, alternates, small caps), the
 * letters are not the accented-Latin soup a legacy 8-bit font produces, and its words do
 * not mix letters with digits, punctuation or other scripts the way shifted maps do.
 * A glyph drawn only inside /ActualText spans is judged by its clusters, whose text the
 * span gives: a shaping producer maps such glyphs to U+FFFD and is right to.
 * Every verdict carries the sentence shown to the user.
 */

#define G_LOG_DOMAIN "dc-trust"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-font-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-script.h"
#include "dc-string-private.h"
#include "dc-trust-private.h"

typedef struct
{
  guint symbols;
  guint glyphs;
  guint unmapped_glyphs;
  guint unmapped_symbols;
  guint bad_symbols;          /* private use, control, U+FFFD */
  guint duplicate_symbols;    /* codes whose text another code already claims */
  guint letters;              /* glyph-weighted */
  guint latin1_letters;       /* U+00C0–U+017F: Latin-1 Supplement and Extended-A */
  guint latin1_symbols;       /* codes whose text is one such letter */
  guint exotic_latin_letters; /* U+0180–U+02AF: Extended-B and IPA */
  guint ascii_letters;        /* a–z, A–Z */
  guint punctuation_glyphs;
  guint punctuation_symbols;
  DcTrustTokenTotals words; /* what its tokens say (dc-trust-tokens.c) */
  GHashTable *texts;        /* text → first symbol claiming it + 1 */
  /* Its letters with those of the other subsets of its font program that it spells
   * inside the words of (pool_subsets()); its own where it has none. */
  guint program_letters, program_latin1_letters, program_latin1_symbols;
} FontStats;

static gboolean
is_bad_char (gunichar c)
{
  GUnicodeType type = g_unichar_type (c);

  if (c == 0xFFFD || type == G_UNICODE_PRIVATE_USE || type == G_UNICODE_SURROGATE
      || type == G_UNICODE_UNASSIGNED)
    return TRUE;
  return type == G_UNICODE_CONTROL && !g_unichar_isspace (c);
}

static gboolean
is_ascii_punctuation (gunichar c)
{
  return c < 0x80 && g_ascii_ispunct ((char) c);
}

static gboolean
is_only_marks (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_ismark (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* The character a glyph name says its glyph is ("a.sc", "uni0627.fina" → the letter). */
static gboolean
name_character (const char *name, gunichar *c)
{
  return name != NULL && dc_pdf_bridge_glyph_name_to_unicode (name, c);
}

/* Two codes claim one text. That is a lie when their glyph names name different letters;
 * it is the normal way of fonts when the names name one letter (alternates, small caps),
 * when the text is no letter with one shape (marks, punctuation, digits, modifier letters
 * and ideographic forms have vertical and other alternates), when the letter belongs to a
 * script of positional forms, or when one of them is only drawn inside clusters. */
static gboolean
is_lying_duplicate (const DcSymbol *first, gboolean first_in_clusters, const DcSymbol *second,
                    gboolean second_in_clusters)
{
  gunichar a, b, c;

  if (name_character (first->glyph_name, &a) && name_character (second->glyph_name, &b))
    return a != b;
  if (first_in_clusters || second_in_clusters || is_only_marks (second->pdf_text))
    return FALSE;
  c = g_utf8_get_char (second->pdf_text);
  switch (g_unichar_type (c))
    {
    case G_UNICODE_LOWERCASE_LETTER:
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
      break;
    case G_UNICODE_OTHER_LETTER:
      switch (g_unichar_get_script (c))
        {
        case G_UNICODE_SCRIPT_HAN:
        case G_UNICODE_SCRIPT_HIRAGANA:
        case G_UNICODE_SCRIPT_KATAKANA:
        case G_UNICODE_SCRIPT_BOPOMOFO:
          return FALSE;
        default:
          break;
        }
      break;
    default:
      return FALSE;
    }
  return !dc_script_is_joining (g_unichar_get_script (c));
}

static void
count_symbol (FontStats *stats, DcDocument *document, guint index, const guint *in_clusters)
{
  const DcSymbol *symbol = dc_document_get_symbol (document, index);
  guint n = symbol->n_glyphs;
  gboolean punctuation = FALSE;
  gboolean only_in_clusters = n > 0 && in_clusters[index] == n;
  gpointer first;

  stats->symbols++;
  stats->glyphs += n;

  if (symbol->pdf_text[0] == '\0')
    {
      if (only_in_clusters)
        return;
      stats->unmapped_symbols++;
      stats->unmapped_glyphs += n;
      return;
    }

  first = g_hash_table_lookup (stats->texts, symbol->pdf_text);
  if (first != NULL)
    {
      guint other = GPOINTER_TO_UINT (first) - 1;
      const DcSymbol *claimer = dc_document_get_symbol (document, other);

      if (is_lying_duplicate (claimer,
                              claimer->n_glyphs > 0 && in_clusters[other] == claimer->n_glyphs,
                              symbol, only_in_clusters))
        stats->duplicate_symbols++;
    }
  else
    g_hash_table_insert (stats->texts, symbol->pdf_text, GUINT_TO_POINTER (index + 1));

  for (const char *p = symbol->pdf_text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (is_bad_char (c))
        {
          /* Its clusters' /ActualText says what it stands for. */
          if (!only_in_clusters)
            stats->bad_symbols++;
          return;
        }
      if (g_unichar_isalpha (c))
        {
          stats->letters += n;
          if (c >= 0xC0 && c <= 0x17F && c != 0xD7 && c != 0xF7)
            {
              const char *after = g_utf8_next_char (symbol->pdf_text);

              stats->latin1_letters += n;
              stats->latin1_symbols += *after == '\0';
            }
          else if (c >= 0x180 && c <= 0x2AF)
            stats->exotic_latin_letters += n;
          else if (c < 0x80)
            stats->ascii_letters += n;
        }
      else if (is_ascii_punctuation (c))
        punctuation = TRUE;
    }

  if (punctuation)
    {
      stats->punctuation_glyphs += n;
      stats->punctuation_symbols++;
    }
}

/* Whether a font draws only other fonts' punctuation: a comma, a hyphen, a digit the
 * script's own font lacks (Pango falls back to Noto Sans beside Noto Sans Cherokee). Such
 * glyphs stand at the start or end of the other fonts' words, seldom in words of their
 * own. A font whose letters a shifted map reads as punctuation has words of its own
 * ("/-,0 123'',4" for Gary Y Okiiro), and a symbol font's letters read as punctuation
 * stand inside the other font's words. */
static gboolean
punctuates_others (const FontStats *stats)
{
  return stats->words.own_token_glyphs * 2 < stats->glyphs && stats->words.edge_glyphs > 0
         && stats->words.inner_glyphs * 10 <= stats->words.edge_glyphs;
}

/* How many accented letters of U+00C0–U+017F a font's codes give where few enough of its
 * letters are (from 30 to 50 %) that a language could: more than any alphabet that accents
 * its letters uses of them (Vietnamese's twenty), fewer than a code page's Cyrillic. */
#define LEGACY_ALPHABET_LETTERS 24

static char *
judge (DcFont *font, const FontStats *stats)
{
  const char *encoding = dc_font_get_encoding (font);

  if (stats->glyphs == 0)
    return NULL;

  if (dc_font_is_cid (font) && !dc_font_has_to_unicode (font)
      && g_str_has_prefix (encoding ? encoding : "", "Identity"))
    return g_strdup (_("It has no ToUnicode map and its codes are glyph numbers, so any text "
                       "read from it is a guess."));

  if (stats->unmapped_symbols > 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u of its %u codes has no Unicode mapping.",
                                         "%u of its %u codes have no Unicode mapping.",
                                         stats->unmapped_symbols),
                            stats->unmapped_symbols, stats->symbols);

  if (stats->bad_symbols > 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u code maps to a private-use, control or "
                                         "replacement character.",
                                         "%u codes map to private-use, control or "
                                         "replacement characters.",
                                         stats->bad_symbols),
                            stats->bad_symbols);

  if (stats->duplicate_symbols >= 2)
    return g_strdup_printf (_("%u of its codes claim a character another code already has."),
                               stats->duplicate_symbols);

  /* A text in a font hacked for a code page has nearly every letter there (Ïðèâåò), an
   * alphabet's worth of them; a language that accents many of its vowels, as Yoruba marks
   * its tones (àárọ̀, lónìí: 43 % of a page's letters), has a dozen such letters, and basic
   * letters besides. */
  if (stats->program_letters >= DC_TRUST_MIN_LETTERS
      && (stats->program_latin1_letters * 2 > stats->program_letters
          || (stats->program_latin1_letters * 10 > stats->program_letters * 3
              && stats->program_latin1_symbols >= LEGACY_ALPHABET_LETTERS)))
    return g_strdup_printf (_("%u%% of its letters are accented Latin letters, mixed as no "
                              "language writes them: the sign of a legacy 8-bit font."),
                               stats->program_latin1_letters * 100 / stats->program_letters);

  /* A map shifted from Cyrillic lands every letter there (ɍɝɥɨɜɚɹ, issue20453), words
   * of its own; a phonetic transcription (ʃəˈlaː ŋ͡mɔ̃) or an African orthography (ɓàŋ
   * ɗɛ̀) spells with the basic Latin letters too, in the same font or in the words of
   * another (cairo draws a font's first 256 characters from a subset of their own). */
  if (stats->letters >= 2 && stats->exotic_latin_letters * 2 > stats->letters
      && stats->ascii_letters * 5 < stats->letters
      && stats->words.own_token_glyphs * 2 >= stats->glyphs)
    return g_strdup_printf (_("%u%% of its letters are rare Latin or phonetic letters: its map "
                              "is probably shifted."),
                               stats->exotic_latin_letters * 100 / stats->letters);

  if (stats->words.odd_tokens >= 2 && stats->words.odd_tokens * 4 > stats->words.tokens)
    return g_strdup_printf (_("%u of its %u words mix letters with digits, punctuation or "
                              "another script, as a shifted map makes them."),
                               stats->words.odd_tokens, stats->words.tokens);

  if (stats->symbols >= 4 && stats->glyphs >= 8 && stats->letters == 0
      && stats->punctuation_glyphs * 2 > stats->glyphs && !punctuates_others (stats))
    return g_strdup (_("Its text is mostly punctuation with no letters at all, which reads as "
                       "no language."));

  /* Codes shifted into the ASCII punctuation block read as a few capitals among
   * punctuation and digits ("@%6)\" .,)-2-4"); a table of figures has few letters, but
   * not a third of its glyphs punctuation. */
  if (stats->symbols >= 8 && stats->glyphs >= 40 && stats->letters * 4 < stats->glyphs
      && stats->punctuation_glyphs * 3 > stats->glyphs && !punctuates_others (stats))
    return g_strdup_printf (_("Only %u%% of its glyphs are letters, and %u%% punctuation, which "
                              "reads as no language."),
                               stats->letters * 100 / stats->glyphs,
                               stats->punctuation_glyphs * 100 / stats->glyphs);

  return NULL;
}

/* The letters of every font of one name (pool_subsets()). */
typedef struct
{
  guint letters, latin1_letters, latin1_symbols;
} ProgramLetters;

/* A producer that embeds a font as several subsets (cairo: its first 256 characters in
 * one, the rest in another) gives the second only the letters the first lacks: for
 * Navajo in Noto Sans, ł į ą and ʼ, every one of them accented or rare, though the
 * page's letters are mostly plain. Whether a font's letters are a legacy 8-bit soup is
 * asked of its program's whole text, where its glyphs mostly stand inside the words of
 * another subset of the same name. A hacked font's text stays a soup however it is
 * split; a hacked font that only lends a few letters to another font's words has
 * another name. */
static void
pool_subsets (DcDocument *document, FontStats *stats, guint n_fonts)
{
  /* display name → ProgramLetters, the sums of every font of that name: one pass, however
   * many fonts a document has (a book may embed its fonts again on every page). */
  g_autoptr (GHashTable) programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GPtrArray) program_of = g_ptr_array_new_full (n_fonts, NULL);

  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      const char *base = dc_font_get_name (font);
      g_autofree char *name = NULL;
      ProgramLetters *program = NULL;

      if (base != NULL && base[0] != '\0')
        {
          name = dc_font_dup_display_name (font);
          if ((program = g_hash_table_lookup (programs, name)) == NULL)
            {
              program = g_new0 (ProgramLetters, 1);
              g_hash_table_insert (programs, g_steal_pointer (&name), program);
            }
          program->letters += stats[f].letters;
          program->latin1_letters += stats[f].latin1_letters;
          program->latin1_symbols += stats[f].latin1_symbols;
        }
      g_ptr_array_add (program_of, program);
    }
  for (guint f = 0; f < n_fonts; f++)
    {
      FontStats *font = &stats[f];
      const ProgramLetters *program = g_ptr_array_index (program_of, f);
      ProgramLetters own = { font->letters, font->latin1_letters, font->latin1_symbols };

      if (program == NULL || font->words.own_token_glyphs * 2 >= font->glyphs)
        program = &own;
      font->program_letters = program->letters;
      font->program_latin1_letters = program->latin1_letters;
      font->program_latin1_symbols = program->latin1_symbols;
    }
}

void
dc_trust_analyse (DcDocument *document, const DcTrustCount *tokens)
{
  g_autofree FontStats *stats = NULL;
  g_autofree guint *in_clusters = NULL;
  const DcSymbol *symbols;
  const DcGlyph *glyphs;
  guint n_fonts, n_symbols, n_glyphs;

  g_assert (DC_IS_DOCUMENT (document));

  n_fonts = dc_document_get_n_fonts (document);
  symbols = dc_document_get_symbols (document, &n_symbols);
  stats = g_new0 (FontStats, MAX (1, n_fonts));

  for (guint f = 0; f < n_fonts; f++)
    stats[f].texts = g_hash_table_new (g_str_hash, g_str_equal);

  /* How often each symbol is drawn inside an /ActualText span: a glyph is flagged so
   * only by a span (loader_actual_text()), so a document without spans, as most are,
   * spares a look at each of its million glyphs. */
  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  in_clusters = g_new0 (guint, MAX (1, n_symbols));
  if (dc_document_get_n_actual_texts (document) > 0)
    for (guint g = 0; g < n_glyphs; g++)
      if (glyphs[g].flags & DC_GLYPH_ACTUAL_TEXT)
        in_clusters[glyphs[g].symbol]++;

  for (guint s = 0; s < n_symbols; s++)
    count_symbol (&stats[symbols[s].font], document, s, in_clusters);
  for (guint f = 0; f < n_fonts; f++)
    _dc_trust_count_totals (tokens, f, &stats[f].words);
  pool_subsets (document, stats, n_fonts);

  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      g_autofree char *reason = judge (font, &stats[f]);

      if (reason != NULL)
        _dc_font_set_trust (font, FALSE, reason);
      else
        _dc_font_set_trust (font, TRUE, _("Every code maps to ordinary text."));
      g_hash_table_unref (stats[f].texts);
    }
}
