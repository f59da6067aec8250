/* dc-references-apply.c: the identity level applied, one character chosen per outline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-references.c, which keeps the index and looks outlines up in it. Every
 * symbol still unknown whose outline is an installed font's glyph gets that glyph's
 * character; where one outline stands for several, the script the font is otherwise read
 * in, then the language its text reads best in, chooses (dc_references_apply()).
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include <string.h>

#include "dc-document-private.h"
#include "dc-fingerprint-private.h"
#include "dc-library.h"
#include "dc-readings-private.h"
#include "dc-references-private.h"

#define prepare_outlines _dc_references_prepare_outlines
#define lookup_outline _dc_references_lookup_outline

/* Whether @symbol's value can tell the font's script and language: not a value the
 * font's own tables or PDF text give when the trust analysis rejected the font (a
 * legacy font's lying Latin-1, à for а), nor a guess from OCR, nor the library's: one
 * outline serves Latin a and Cyrillic а, and the library is verified against what the
 * document's own evidence says (dc_library_verify()), so it cannot vouch for it (issue
 * 28: a Latin a decided in an English document made the installed Palladio Uralic's
 * Latin-1 lies chosen for a Yakut one). */
gboolean
_dc_references_value_is_trustworthy (DcKey *key, guint symbol)
{
  DcDocument *document = dc_key_get_document (key);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);

  if (dc_key_get_status (key, symbol) == DC_KEY_CONFIRMED)
    return TRUE;
  switch (dc_key_get_level (key, symbol))
    {
    case DC_KEY_LEVEL_USER:
    case DC_KEY_LEVEL_IDENTITY:
    case DC_KEY_LEVEL_LAYOUT:
    case DC_KEY_LEVEL_GUESS:
      return TRUE;
    case DC_KEY_LEVEL_PDF:
    case DC_KEY_LEVEL_FONT:
      return dc_font_is_trusted (dc_document_get_font (document, symbols[symbol].font));
    default:
      return FALSE;
    }
}

/* An outline several characters of one script share, with no word to choose by: such
 * proposals were right for none of the 4 bench/calibrate-levels.py made (issue 28; І for
 * I, З for 3), where they were stated at 0.5. */
#define IDENTITY_PROPOSAL_CONFIDENCE 0.05

/* Counts @symbol's value in @scripts (script → count), when it is trustworthy and of a
 * script. */
static void
count_into (GHashTable *scripts, DcKey *key, guint symbol)
{
  const char *script;
  guint n;

  if (!_dc_references_value_is_trustworthy (key, symbol)
      || (script = dc_library_script_of_value (dc_key_get_value (key, symbol))) == NULL)
    return;
  n = GPOINTER_TO_UINT (g_hash_table_lookup (scripts, script)) + 1;
  g_hash_table_replace (scripts, (gpointer) script, GUINT_TO_POINTER (n));
}

/* Counts @symbol's value among its font's scripts in @counts (font → script → count), if
 * the font's values have been counted (font_counts()): the others are counted when asked,
 * with the key as it then stands. */
static void
count_script (GHashTable *counts, DcKey *key, const DcSymbol *symbols, guint symbol)
{
  GHashTable *scripts = g_hash_table_lookup (counts, GUINT_TO_POINTER (symbols[symbol].font));

  if (scripts != NULL)
    count_into (scripts, key, symbol);
}

/* The script most of a font's trustworthy values are in (@scripts, font_counts()), or
 * NULL; NULL too where another script has at least a quarter as many (a font drawing
 * Greek, Cyrillic and Latin for a book in many languages): there the font's script says
 * nothing about one shared outline, and chose Cyrillic ꙇ for Greek ι and і for Latin i.
 * Ties are mixed, so the order the values are counted in does not matter. */
static const char *
font_script (GHashTable *scripts, gboolean *mixed)
{
  GHashTableIter iter;
  gpointer script_name, count;
  const char *best = NULL;
  guint best_count = 0;

  *mixed = FALSE;
  if (scripts == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, scripts);
  while (g_hash_table_iter_next (&iter, &script_name, &count))
    if (GPOINTER_TO_UINT (count) > best_count)
      {
        best_count = GPOINTER_TO_UINT (count);
        best = script_name;
      }
  g_hash_table_iter_init (&iter, scripts);
  while (g_hash_table_iter_next (&iter, &script_name, &count))
    if ((const char *) script_name != best && GPOINTER_TO_UINT (count) * 4 >= best_count)
      *mixed = TRUE;
  return *mixed ? NULL : best;
}

/* The script every one of @values is in, or NULL. */
static const char *
common_script (GPtrArray *values)
{
  const char *script = dc_library_script_of_value (g_ptr_array_index (values, 0));

  for (guint i = 1; script != NULL && i < values->len; i++)
    if (g_strcmp0 (dc_library_script_of_value (g_ptr_array_index (values, i)), script) != 0)
      return NULL;
  return script;
}

/* The characters the installed fonts draw with the outline of each symbol the level
 * looked up but left open, kept on the key as long as it lives: an outline does not
 * change, and what it is not drawn as is no proposal (dc-proposals.c). A home-made font
 * that draws the modifier apostrophe ʼ at windows-1251's А had it proposed as А. */
static GQuark
outline_values_quark (void)
{
  return g_quark_from_static_string ("dc-references-outline-values");
}

static void
keep_outline_values (DcKey *key, guint symbol, GPtrArray *values)
{
  GHashTable *kept = g_object_get_qdata (G_OBJECT (key), outline_values_quark ());
  GPtrArray *interned = g_ptr_array_sized_new (values->len);

  if (kept == NULL)
    {
      kept = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
      g_object_set_qdata_full (G_OBJECT (key), outline_values_quark (), kept,
                               (GDestroyNotify) g_hash_table_unref);
    }
  for (guint i = 0; i < values->len; i++)
    g_ptr_array_add (interned, (gpointer) g_intern_string (g_ptr_array_index (values, i)));
  g_hash_table_replace (kept, GUINT_TO_POINTER (symbol), interned);
}

/**
 * _dc_references_outline_rules_out:
 * @symbol: a symbol of @key's document
 * @value: what a level would propose for it
 *
 * Returns: whether the installed fonts draw @symbol's outline, and never as @value (only
 * for symbols dc_references_apply() looked up on @key and left open)
 */
gboolean
_dc_references_outline_rules_out (DcKey *key, guint symbol, const char *value)
{
  GHashTable *kept;
  GPtrArray *values;

  g_return_val_if_fail (DC_IS_KEY (key), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  kept = g_object_get_qdata (G_OBJECT (key), outline_values_quark ());
  if (kept == NULL || (values = g_hash_table_lookup (kept, GUINT_TO_POINTER (symbol))) == NULL)
    return FALSE;
  for (guint i = 0; i < values->len; i++)
    if (strcmp (g_ptr_array_index (values, i), value) == 0)
      return FALSE;
  return TRUE;
}

/* The readings dc_references_apply() made, per font, kept on the key until its change
 * ends: the pipeline applies the level again after dc_references_verify() and
 * dc_library_verify() within one change, and a font the key says the same of reads the
 * same (_dc_readings_matches()); making them again, and scoring the same readings again,
 * was half the level's time on a book of many fonts. */
typedef struct
{
  DcKey *key;          /* not a reference: it keeps this */
  GPtrArray *by_font;  /* DcReadings (_dc_readings_new_kept()), or NULL */
  DcNgramWords *words; /* their words, looked up once for all of them */
  guint *order;        /* symbols_by_frequency(), made once */
  gulong handler;
} Kept;

static GQuark
kept_quark (void)
{
  return g_quark_from_static_string ("dc-references-kept-readings");
}

static void
kept_free (Kept *kept)
{
  /* On the key's finalization its handlers are gone already. */
  if (g_signal_handler_is_connected (kept->key, kept->handler))
    g_signal_handler_disconnect (kept->key, kept->handler);
  g_ptr_array_unref (kept->by_font);
  _dc_ngram_words_free (kept->words);
  g_free (kept->order);
  g_free (kept);
}

/* The change has ended: what the readings hold goes, rather than stay as long as the key. */
static void
on_key_changed (DcKey *key, guint symbol, gpointer data)
{
  g_object_set_qdata (G_OBJECT (key), kept_quark (), NULL);
}

/* The readings kept on @key, taken from it while dc_references_apply() uses them: a change
 * that ends meanwhile (a call outside one) does not take them away. */
static Kept *
take_kept (DcKey *key)
{
  Kept *kept = g_object_steal_qdata (G_OBJECT (key), kept_quark ());

  if (kept == NULL)
    {
      kept = g_new0 (Kept, 1);
      kept->key = key;
      kept->by_font = g_ptr_array_new_with_free_func ((GDestroyNotify) _dc_readings_free);
      kept->words = _dc_ngram_words_new ();
      kept->handler = g_signal_connect (key, "changed", G_CALLBACK (on_key_changed), NULL);
    }
  return kept;
}

static void
give_back_kept (DcKey *key, Kept *kept)
{
  g_object_set_qdata_full (G_OBJECT (key), kept_quark (), kept, (GDestroyNotify) kept_free);
}

/* @font's readings, as new ones made now would be: the ones kept when the key says the
 * same of the font's symbols as when they were made and read. Ones not read yet read the
 * key when first asked, as new ones do; read ones only serve where the text is read at
 * once, an open @symbol's (choose_by_language()). */
static DcReadings *
kept_readings (Kept *kept, guint font, guint symbol)
{
  DcReadings *readings;

  if (font >= kept->by_font->len)
    g_ptr_array_set_size (kept->by_font, font + 1);
  readings = g_ptr_array_index (kept->by_font, font);
  if (readings != NULL && _dc_readings_matches (readings)
      && (!_dc_readings_is_read (readings) || _dc_readings_find_open (readings, symbol) >= 0))
    return readings;
  readings = _dc_readings_new_kept (kept->key, font, _dc_references_value_is_trustworthy);
  _dc_readings_share_words (readings, kept->words);
  /* What the level decided since changes what the glyphs stand as, rarely where the words
   * break: the text read then is read again from the glyphs only if it does. */
  if (g_ptr_array_index (kept->by_font, font) != NULL)
    _dc_readings_take_text (readings, g_ptr_array_index (kept->by_font, font));
  g_clear_pointer (&g_ptr_array_index (kept->by_font, font), _dc_readings_free);
  g_ptr_array_index (kept->by_font, font) = readings;
  return readings;
}

/* Among @candidates (one character each), the one the font's text reads clearly best
 * with (dc-readings.c), or NULL: an installed font that maps one outline from à and а, or
 * from archaic ѳ and Kazakh ө, says nothing about which the document means; its words do,
 * read with trustworthy values only (_dc_references_value_is_trustworthy()).
 * @cache: font → DcReadings, the font's text as the key stood when first asked
 * @kept: where those come from (kept_readings()) */
static const char *
choose_by_language (DcKey *key, GHashTable *cache, Kept *kept, guint font, guint symbol,
                    GPtrArray *candidates)
{
  DcReadings *readings = g_hash_table_lookup (cache, GUINT_TO_POINTER (font));
  g_autofree gunichar *values = NULL;
  g_autofree gboolean *disputed = NULL;
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  guint best;
  double margin;
  int open;

  if (readings == NULL)
    {
      readings = kept_readings (kept, font, symbol);
      g_hash_table_insert (cache, GUINT_TO_POINTER (font), readings);
    }
  /* One glyph among unknown ones is no word: its neighbours must be known. */
  if ((open = _dc_readings_find_open (readings, symbol)) < 0
      || _dc_readings_count_known_letters (readings) < DC_READINGS_MIN_LETTERS)
    return NULL;
  _dc_readings_clear (readings);
  values = g_new0 (gunichar, MAX (1, _dc_readings_get_n_open (readings)));
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *candidate = g_ptr_array_index (candidates, i);
      guint index;

      if (g_utf8_strlen (candidate, -1) != 1)
        return NULL;
      values[open] = g_utf8_get_char (candidate);
      index = _dc_readings_add (readings, candidate, values);
      g_array_append_val (indices, index);
    }
  if (!_dc_readings_choose (readings, &best, &margin, &disputed) || disputed[open])
    return NULL;
  for (guint i = 0; i < indices->len; i++)
    if (g_array_index (indices, guint, i) == best)
      {
        const char *chosen = g_ptr_array_index (candidates, i);
        GUnicodeScript script = g_unichar_get_script (g_utf8_get_char (chosen));

        /* A model of another script than the one chosen does not read it: it only tells
         * what costs it less, a digit (௭) over the letter it is drawn like (எ) as the
         * Tamil page read in Scottish Gaelic's model, not which the words read as.
         * Punctuation, ASCII digits and marks belong to every script's text alike. */
        if (script != G_UNICODE_SCRIPT_COMMON && script != G_UNICODE_SCRIPT_INHERITED
            && script != _dc_readings_get_script (readings, best))
          return NULL;
        return chosen;
      }
  return NULL;
}

static int
compare_frequency (gconstpointer a, gconstpointer b, gpointer data)
{
  const DcSymbol *symbols = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (symbols[x].n_glyphs != symbols[y].n_glyphs)
    return symbols[x].n_glyphs > symbols[y].n_glyphs ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Where a font draws one outline at several codes (Latin a at 97 and Cyrillic а at 224 in
 * a legacy font, or o, ο and о), the codes stand for different characters, and the font's
 * script, which decides a shared outline, gives them all the same one: in a 500-page book
 * in one such font that was 91 k wrong glyphs of 912 k applied. So a value one symbol of
 * the font already holds is never given by a shared outline to another of its symbols
 * drawn alike: the more frequent symbol is decided first and keeps it, and the others only
 * get another reading of their outline, proposed. A symbol drawn otherwise may stand for
 * the same character: Arabic's yeh has four forms at four codes, and its initial and
 * medial forms are Persian yeh's too (held_by_another()). */
static guint *
symbols_by_frequency (const DcSymbol *symbols, guint n_symbols)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), MAX (1, n_symbols));

  for (guint s = 0; s < n_symbols; s++)
    g_array_append_val (order, s);
  g_array_sort_with_data (order, compare_frequency, (gpointer) symbols);
  return (guint *) g_array_free (order, FALSE);
}

/* Records that @symbol of @font holds @value (font → value → its holders, GArray of
 * guint): a table per font, asked without making a name of the two. */
static void
hold (GHashTable *held, guint font, const char *value, guint symbol)
{
  GHashTable *values = g_hash_table_lookup (held, GUINT_TO_POINTER (font));
  GArray *holders;

  if (values == NULL)
    {
      values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) g_array_unref);
      g_hash_table_insert (held, GUINT_TO_POINTER (font), values);
    }
  if ((holders = g_hash_table_lookup (values, value)) == NULL)
    {
      holders = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (values, g_strdup (value), holders);
    }
  g_array_append_val (holders, symbol);
}

/* (font, value) → the symbols of that font holding it, for every value the key applies. */
static GHashTable *
values_held (DcKey *key, const DcSymbol *symbols, guint n_symbols)
{
  GHashTable *held = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);

  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = dc_key_get_status (key, s);
      const char *value = dc_key_peek_value (key, s);

      if (value != NULL && status != DC_KEY_UNKNOWN && status != DC_KEY_PROPOSED)
        hold (held, symbols[s].font, value, s);
    }
  return held;
}

/* Whether another symbol of @font drawn as @symbol is (its outline, @shapes') holds
 * @value; one whose outline is not known counts as drawn alike. */
static gboolean
held_by_another (GHashTable *held, DcShapes *shapes, guint font, guint symbol, const char *value)
{
  GHashTable *values = g_hash_table_lookup (held, GUINT_TO_POINTER (font));
  GArray *holders = values != NULL ? g_hash_table_lookup (values, value) : NULL;
  const DcShape *shape = dc_shapes_get_identity (shapes, symbol), *other;

  for (guint i = 0; holders != NULL && i < holders->len; i++)
    {
      guint holder = g_array_index (holders, guint, i);

      if (holder == symbol)
        continue;
      other = dc_shapes_get_identity (shapes, holder);
      if (shape == NULL || other == NULL
          || _dc_shape_fingerprint_equal (shape->fingerprint, other->fingerprint))
        return TRUE;
    }
  return FALSE;
}

/* @font's symbols, listed once for all fonts the first time one is asked for. */
static const guint32 *
symbols_of_font (Kept *kept, guint font, guint *n)
{
  DcDocument *document = dc_key_get_document (kept->key);
  const guint *starts;
  const guint32 *font_symbols = _dc_document_get_font_symbols (document, &starts);

  if (font >= dc_document_get_n_fonts (document))
    {
      *n = 0;
      return NULL;
    }
  *n = starts[font + 1] - starts[font];
  return font_symbols + starts[font];
}

/* What the second pass of dc_references_apply() knows while it decides shared outlines. */
typedef struct
{
  DcReferences *self;
  DcKey *key;
  const DcSymbol *symbols;
  GHashTable *readings; /* font → DcReadings, kept_readings()' (choose_by_language()) */
  Kept *kept;
  GHashTable *held;     /* values_held() */
  DcShapes *shapes;     /* whose outlines tell which holders count (held_by_another()) */
  GHashTable *scripts;  /* font → script → count (font_counts()), NULL until asked */
  DcWordScripts *words; /* the words of the fonts' open symbols, NULL until asked */
} SharedPass;

/* How many of @font's trustworthy values each script has: counted when a shared outline
 * of the font first asks, and then kept up to date as values are set (count_script()),
 * where counting them for every shared outline went through the whole document each
 * time; a font no shared outline asks about is not counted at all. */
static GHashTable *
font_counts (SharedPass *pass, guint font)
{
  GHashTable *scripts;
  const guint32 *font_symbols;
  guint n;

  if (pass->scripts == NULL)
    pass->scripts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  if ((scripts = g_hash_table_lookup (pass->scripts, GUINT_TO_POINTER (font))) != NULL)
    return scripts;
  scripts = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (pass->scripts, GUINT_TO_POINTER (font), scripts);
  font_symbols = symbols_of_font (pass->kept, font, &n);
  for (guint i = 0; i < n; i++)
    count_into (scripts, pass->key, font_symbols[i]);
  return scripts;
}

/* Of @values, the characters @symbol's shared outline stands for, the one to give it,
 * or NULL; @status lowered to a proposal where that is not sure enough. */
static const char *
choose_shared (SharedPass *pass, guint s, GPtrArray *values, DcKeyStatus *status)
{
  g_autoptr (GPtrArray) candidates = g_ptr_array_new ();
  guint font = pass->symbols[s].font;
  const char *script, *chosen = NULL, *roman = NULL, *digit = NULL;
  const char *common = common_script (values);
  DcNumeral numeral = DC_NUMERAL_NO;
  gboolean mixed, unclaimed = FALSE, doubted = FALSE;

  /* The font's own script, */
  script = font_script (font_counts (pass, font), &mixed);
  /* but a symbol's own words tell its script better than its font does, when its
   * characters are of several (Latin i, l and h in a Cyrillic font's Latin words, not і, ӏ
   * and һ), in a font of several scripts too (dc-references-words.c). Where they hold
   * letters of another script than the font's without saying which, the font's script
   * only proposes; */
  if (common == NULL)
    {
      gboolean disputed;
      const char *words;

      if (pass->words == NULL)
        pass->words = _dc_word_scripts_new (pass->key);
      words = _dc_word_scripts_get (pass->words, font, s, script, &disputed);

      if (words != NULL)
        {
          script = words;
          mixed = FALSE;
        }
      doubted = disputed;
    }
  /* else the one script all the candidates share. */
  if (script == NULL)
    script = common;
  /* Roman numerals are Latin letters in every script's text: (III) in a Russian book;
   * and digits are every script's: 33 in DejaVu Sans Mono, whose 3 is drawn as З. */
  for (guint i = 0; i < values->len; i++)
    {
      const char *value = g_ptr_array_index (values, i);

      if (roman == NULL && strlen (value) == 1 && strchr ("IVXLCDM", value[0]) != NULL)
        roman = value;
      /* The mathematical digits drawn alike (𝟥) are gone already: the index leaves out
       * compatibility variants. */
      if (digit == NULL && g_utf8_strlen (value, -1) == 1
          && g_unichar_isdigit (g_utf8_get_char (value)))
        digit = value;
    }
  if (roman != NULL && script != NULL && strcmp (script, "Latn") != 0)
    numeral = _dc_references_read_numeral (pass->self, pass->shapes, pass->key, s,
                                           DC_NUMERAL_ROMAN);
  if (numeral == DC_NUMERAL_YES)
    chosen = roman;
  /* A digit alone (статья 3) is the likelier reading, but only proposed: Ukrainian З,
   * "with", stands alone at a sentence's start. */
  if (chosen == NULL && numeral == DC_NUMERAL_NO && digit != NULL
      && (numeral = _dc_references_read_numeral (pass->self, pass->shapes, pass->key, s,
                                                 DC_NUMERAL_DIGITS))
             != DC_NUMERAL_NO)
    chosen = digit;
  for (guint i = 0; chosen == NULL && i < values->len; i++)
    if (script == NULL
        || g_strcmp0 (dc_library_script_of_value (g_ptr_array_index (values, i)), script) == 0)
      g_ptr_array_add (candidates, g_ptr_array_index (values, i));
  /* Characters no script claims, which belong to every script's text: DejaVu Sans draws
   * the colon as the modifier letter colon ꞉ too, DejaVu Sans Mono the comma as the low
   * quotation mark ‚, so a Russian or English text's colons and commas stayed unknown.
   * The words choose among them, or nothing does: by the first in Unicode, the figure
   * dash ‒ was proposed for an en dash, ʹ (prime) for an apostrophe ʼ and ¯ for a
   * combining macron, right for 55 to 77 % of such proposals in
   * bench/calibrate-levels.py, where its proposals are stated at 0.05. */
  if (chosen == NULL && script != NULL && candidates->len == 0)
    {
      for (guint i = 0; i < values->len; i++)
        if (dc_library_script_of_value (g_ptr_array_index (values, i)) == NULL)
          g_ptr_array_add (candidates, g_ptr_array_index (values, i));
      unclaimed = candidates->len > 1;
    }
  if (candidates->len > 1)
    chosen = choose_by_language (pass->key, pass->readings, pass->kept, font, s, candidates);
  if (unclaimed && chosen == NULL)
    return NULL;
  /* Within one script the basic letter comes first in Unicode: л (U+043B) before its
   * phonetic small capital ᴫ (U+1D2B), drawn alike; but with several left, that is a
   * likely reading, not a certain one. */
  if (chosen == NULL && script != NULL && candidates->len > 1)
    *status = DC_KEY_PROPOSED;
  /* In a font of several scripts, nothing the font or its words say made a shared
   * outline right often enough to apply it (the many-language book: ɩ for ι, ɛ for ε,
   * chosen by words): the reading is proposed, unless the symbol's own words told its
   * script. So is one whose words dispute its font's script, unless it reads as a
   * numeral. */
  if (mixed || (doubted && numeral == DC_NUMERAL_NO))
    *status = DC_KEY_PROPOSED;
  /* A capital or a digit standing alone (Part I, or Ukrainian І at a sentence's start):
   * neither the script nor the language can tell. */
  if (numeral == DC_NUMERAL_LONE)
    *status = DC_KEY_PROPOSED;
  if (chosen == NULL && script != NULL)
    for (guint i = 0; i < candidates->len; i++)
      if (chosen == NULL
          || g_utf8_get_char (g_ptr_array_index (candidates, i)) < g_utf8_get_char (chosen))
        chosen = g_ptr_array_index (candidates, i);
  if (chosen != NULL && held_by_another (pass->held, pass->shapes, font, s, chosen))
    {
      *status = DC_KEY_PROPOSED;
      for (guint i = 0; i < values->len; i++)
        if (!held_by_another (pass->held, pass->shapes, font, s, g_ptr_array_index (values, i)))
          {
            chosen = g_ptr_array_index (values, i);
            break;
          }
    }
  return chosen;
}

/* @value, or the spelling Unicode recommends for it where it is a deprecated character an
 * installed font's cmap may still give an outline (the Deprecated property, each with its
 * replacement): Noto Sans Khmer maps ឤ (U+17A4) to the glyph of its អ + ា ligature, and a
 * new user's Khmer page read អាន as ឤន. */
static const char *
recommended_spelling (const char *value)
{
  static const char *const replaced[][2] = {
    { "\u0149", "\u02BCn" },      /* ŉ */
    { "\u0F77", "\u0FB2\u0F81" }, /* Tibetan vocalic rr */
    { "\u0F79", "\u0FB3\u0F81" }, /* Tibetan vocalic ll */
    { "\u17A3", "\u17A2" },       /* Khmer QAQ */
    { "\u17A4", "\u17A2\u17B6" }, /* Khmer QAA */
    { "\u2329", "\u3008" },       /* angle brackets */
    { "\u232A", "\u3009" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (replaced); i++)
    if (strcmp (value, replaced[i][0]) == 0)
      return replaced[i][1];
  return value;
}

/* Gives @symbol @chosen from the outline of an installed font of @family.
 * Returns: whether it was applied (not only proposed) */
static gboolean
set_identity (DcKey *key, guint symbol, const char *chosen, const char *family, DcKeyStatus status)
{
  g_autofree char *provenance = NULL;

  /* Joined, not formatted: it is made for every symbol the level sets. */
  provenance = g_strconcat ("identity: the same outline as in the installed font ",
                            family != NULL ? family : "?", NULL);
  return dc_key_set_full (key, symbol, recommended_spelling (chosen), status, DC_KEY_LEVEL_IDENTITY,
                          status == DC_KEY_PROPOSED ? IDENTITY_PROPOSAL_CONFIDENCE : -1, provenance,
                          NULL)
         && status == DC_KEY_INFERRED;
}

/**
 * dc_references_apply:
 * @shapes: the shapes of @key's document
 *
 * Every symbol still unknown whose outline is an installed font's glyph gets that
 * glyph's character, inferred at the identity level. Where one outline stands for
 * characters of several scripts, the script the symbol's font is otherwise read in
 * chooses, told by the unambiguous outlines and other trustworthy values, never by an
 * untrusted font's own text (with none, the symbol stays unknown); but a capital whose
 * every word reads as a Roman numeral is the Latin letter, and one that only stands alone
 * is proposed (dc-references-numerals.c). Among the characters left, the one the font's
 * text reads clearly best with as a language; failing that, the first in Unicode, only
 * proposed. Call it within a change of @key.
 *
 * Returns: how many symbols it decoded
 */
guint
dc_references_apply (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  g_return_val_if_fail (DC_IS_REFERENCES (self), 0);
  g_return_val_if_fail (shapes != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);

  return _dc_references_apply_to_fonts (self, shapes, key, NULL);
}

/* dc_references_apply() on the symbols of @fonts only (font → whether, NULL: every
 * font): what the level decides of a symbol depends on its own font's values alone (its
 * script, words and held values), so after values of some fonts were taken back, only
 * those fonts can read otherwise. Applied again to every font, a book of many fonts read
 * each font's text again whose shared outlines had been decided meanwhile, 4 % of its
 * `text` (issue 32). */
guint
_dc_references_apply_to_fonts (DcReferences *self, DcShapes *shapes, DcKey *key,
                               const gboolean *fonts)
{
  const DcSymbol *symbols;
  const guint *order;
  guint n_symbols, n = 0;
  Kept *kept;

  g_assert (DC_IS_REFERENCES (self));
  g_assert (shapes != NULL);
  g_assert (DC_IS_KEY (key));

  symbols = dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  if (!prepare_outlines (self))
    return 0;

  _dc_references_begin_reading (self);
  kept = take_kept (key);
  /* Unambiguous outlines first: what they decode tells each font's script. */
  if (kept->order == NULL)
    kept->order = symbols_by_frequency (symbols, n_symbols);
  order = kept->order;
  for (guint i_pass = 0; i_pass < 2; i_pass++)
    {
      SharedPass pass = { self, key, symbols, NULL, kept, NULL, shapes, NULL, NULL };

      if (i_pass == 1)
        {
          pass.readings = g_hash_table_new (NULL, NULL);
          pass.held = values_held (key, symbols, n_symbols);
        }
      for (guint i_symbol = 0; i_symbol < n_symbols; i_symbol++)
        {
          guint s = i_pass == 1 ? order[i_symbol] : i_symbol;
          const DcShape *shape = dc_shapes_get_identity (shapes, s);
          g_autoptr (GPtrArray) values = NULL;
          g_autoptr (GPtrArray) families = NULL;
          const char *chosen = NULL, *family = NULL;
          DcKeyStatus status = DC_KEY_INFERRED;
          gboolean applied;

          if ((fonts != NULL && !fonts[symbols[s].font]) || shape == NULL
              || dc_key_get_value (key, s) != NULL)
            continue;
          lookup_outline (self, shape, &values, &families);
          if (values->len == 1)
            chosen = g_ptr_array_index (values, 0);
          /* Shared outlines wait for the second pass, when the unambiguous ones have
           * told the font's script and words. */
          else if (values->len > 1 && i_pass == 1)
            chosen = choose_shared (&pass, s, values, &status);
          if (i_pass == 1 && values->len > 0 && (chosen == NULL || status != DC_KEY_INFERRED))
            keep_outline_values (key, s, values);
          if (chosen == NULL)
            continue;
          for (guint i = 0; i < values->len; i++)
            if (g_ptr_array_index (values, i) == chosen)
              family = g_ptr_array_index (families, i);
          applied = set_identity (key, s, chosen, family, status);
          /* The symbol had no value the scripts were counted with: now it may. */
          if (pass.scripts != NULL)
            count_script (pass.scripts, key, symbols, s);
          if (applied)
            {
              n++;
              if (pass.held != NULL)
                hold (pass.held, symbols[s].font, chosen, s);
            }
        }
      g_clear_pointer (&pass.readings, g_hash_table_unref);
      g_clear_pointer (&pass.held, g_hash_table_unref);
      g_clear_pointer (&pass.scripts, g_hash_table_unref);
      g_clear_pointer (&pass.words, _dc_word_scripts_free);
    }
  give_back_kept (key, kept);
  _dc_references_end_reading (self);
  return n;
}
