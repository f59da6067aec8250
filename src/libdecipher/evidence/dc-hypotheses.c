/* dc-hypotheses.c: layouts a font may follow, judged by the text they make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The commonest legacy hack draws Cyrillic (or Greek, or Central European) letters at the
 * Latin-1 codes of a code page's layout: its PDF text is accented-Latin soup, and a font
 * program that maps each glyph from both characters (fonts-uralic's "agrave" from à and
 * а) carries the same lie as its truth. Each way of reading the font — its PDF text,
 * every known 8-bit code page, the characters of one script among those its own cmap
 * gives a glyph — is scored by a language model on the text it makes (dc-readings.c).
 *
 * The reading that clearly beats all the others is applied (%DC_KEY_LEVEL_LAYOUT), but
 * only where the font's own evidence backs it: a character its cmap gives the glyph among
 * several. Where a code page's value contradicts the cmap (¾ at 0xBE is ѕ in windows-1251
 * but ӈ to fonts-uralic), the cmap's character of the same script stands. A code page
 * alone is not enough: home-made fonts put their extra letters over its places (Kazakh Қ
 * at windows-1251's Є, Nenets Ӈ at MacCyrillic's М), where its letters make words as
 * well as theirs would. What it says there is left to the references (the glyph's
 * outline), the user, and the proposals that explain what the user typed (dc-proposals).
 */

#define G_LOG_DOMAIN "dc-hypotheses"

#include "config.h"

#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H

#include "dc-document-private.h"
#include "dc-hypotheses-private.h"
#include "dc-ink-private.h"
#include "dc-proposals-private.h"
#include "dc-readings-private.h"

#define MAX_ALTERNATES 4

/* The characters a font program's Unicode cmap maps to one glyph. */
typedef struct
{
  gunichar chars[MAX_ALTERNATES];
  guint n;
} Alternates;

static gboolean
alternates_contain (const Alternates *alternates, gunichar u)
{
  for (guint i = 0; i < alternates->n; i++)
    if (alternates->chars[i] == u)
      return TRUE;
  return FALSE;
}

/* The alternate in @script, or 0. */
static gunichar
alternate_in_script (const Alternates *alternates, GUnicodeScript script)
{
  for (guint i = 0; i < alternates->n; i++)
    if (g_unichar_get_script (alternates->chars[i]) == script)
      return alternates->chars[i];
  return 0;
}

static FT_Face
open_program (DcFont *font, FT_Library library)
{
  FT_Face face = _dc_font_open_face (font, library);

  if (face == NULL)
    return NULL;
  if (!FT_IS_SFNT (face) || FT_Select_Charmap (face, FT_ENCODING_UNICODE) != 0
      || FT_Get_CMap_Format (face->charmap) < 0)
    {
      FT_Done_Face (face);
      return NULL;
    }
  return face;
}

/* The glyph a simple font draws for @symbol: the one its Unicode cmap gives the PDF's
 * character for the code (how a non-symbolic TrueType font is drawn), or its name. */
static FT_UInt
glyph_of (FT_Face face, const DcSymbol *symbol)
{
  FT_UInt gid = 0;

  if (symbol->pdf_text[0] != '\0' && g_utf8_strlen (symbol->pdf_text, -1) == 1)
    gid = FT_Get_Char_Index (face, g_utf8_get_char (symbol->pdf_text));
  if (gid == 0 && symbol->glyph_name != NULL && FT_HAS_GLYPH_NAMES (face))
    gid = FT_Get_Name_Index (face, symbol->glyph_name);
  return gid;
}

/* Whether @u is one of the standard meanings of @symbol's code: its PDF text (WinAnsi's
 * character) or a code page's. */
static gboolean
is_standard_meaning (const DcSymbol *symbol, gunichar u)
{
  if (g_utf8_strlen (symbol->pdf_text, -1) == 1 && g_utf8_get_char (symbol->pdf_text) == u)
    return TRUE;
  for (guint i = 0; symbol->code < 256 && i < _dc_proposals_n_code_pages (); i++)
    {
      const gunichar *table = _dc_proposals_code_page (i, NULL);

      if (table != NULL && table[symbol->code] == u)
        return TRUE;
    }
  return FALSE;
}

/* Whether @u only spells another way a standard meaning of @symbol's code that the glyph
 * is also mapped from: punctuation of the same category, as the hyphen U+2010 is of the
 * hyphen-minus at 0x2D (a Unicode font maps both to its hyphen, and the text means one
 * hyphen either way; issue 28, Schoolbook Uralic's Evenki). */
static gboolean
is_variant_of_standard (const Alternates *alternates, const DcSymbol *symbol, gunichar u)
{
  GUnicodeType type = g_unichar_type (u);

  if (type < G_UNICODE_CONNECT_PUNCTUATION || type > G_UNICODE_OPEN_PUNCTUATION)
    return FALSE;
  for (guint i = 0; i < alternates->n; i++)
    if (alternates->chars[i] != u && g_unichar_type (alternates->chars[i]) == type
        && is_standard_meaning (symbol, alternates->chars[i]))
      return TRUE;
  return FALSE;
}

/* How far back put_own_first() puts @u: 0, the font's own character; 1, what a code
 * page has at the code; 2, the PDF's text and what only spells it another way. */
static guint
alternate_rank (const Alternates *alternates, const DcSymbol *symbol, gunichar u)
{
  gboolean variant = is_variant_of_standard (alternates, symbol, u);

  if (!variant && !is_standard_meaning (symbol, u))
    return 0;
  if (variant
      || (g_utf8_strlen (symbol->pdf_text, -1) == 1 && g_utf8_get_char (symbol->pdf_text) == u))
    return 2;
  return 1;
}

/* A font for a code page's layout maps each glyph from the code's standard meanings for
 * the programs that expect them (¾ and windows-1251's ѕ at 0xBE); a character besides
 * those (ӈ) is what its maker says the glyph is: it comes first, unless it only spells a
 * standard meaning another way (is_variant_of_standard()). The PDF's text comes last:
 * of fonts-uralic's ¹ and № at 0xB9, both standard meanings and neither a letter of a
 * script, the glyph is windows-1251's № (the ¹ is there for Latin-1 programs). */
static void
put_own_first (Alternates *alternates, const DcSymbol *symbol)
{
  Alternates sorted = { { 0 }, 0 };

  for (guint rank = 0; rank < 3; rank++)
    for (guint i = 0; i < alternates->n; i++)
      if (alternate_rank (alternates, symbol, alternates->chars[i]) == rank)
        sorted.chars[sorted.n++] = alternates->chars[i];
  *alternates = sorted;
}

/* Per open symbol, what the embedded program's cmap maps to its glyph. */
static Alternates *
read_alternates (DcFont *font, DcDocument *document, DcReadings *readings)
{
  guint n_open = _dc_readings_get_n_open (readings);
  Alternates *alternates = g_new0 (Alternates, MAX (1, n_open));
  g_autoptr (GHashTable) by_glyph = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  FT_Library library = NULL;
  FT_Face face;
  FT_ULong c;
  FT_UInt gid;

  if (FT_Init_FreeType (&library) != 0)
    return alternates;
  if ((face = open_program (font, library)) == NULL)
    {
      FT_Done_FreeType (library);
      return alternates;
    }
  for (c = FT_Get_First_Char (face, &gid); gid != 0; c = FT_Get_Next_Char (face, c, &gid))
    {
      Alternates *a = g_hash_table_lookup (by_glyph, GUINT_TO_POINTER (gid));

      if (c < 0x20 || !g_unichar_validate ((gunichar) c) || g_unichar_iscntrl ((gunichar) c)
          || g_unichar_type ((gunichar) c) == G_UNICODE_PRIVATE_USE)
        continue;
      if (a == NULL)
        {
          a = g_new0 (Alternates, 1);
          g_hash_table_insert (by_glyph, GUINT_TO_POINTER (gid), a);
        }
      if (a->n < MAX_ALTERNATES)
        a->chars[a->n++] = (gunichar) c;
    }
  for (guint o = 0; o < n_open; o++)
    {
      const DcSymbol *symbol = dc_document_get_symbol (document,
                                                       _dc_readings_get_open_symbol (readings, o));
      const Alternates *a;

      if (symbol->code_len == 1
          && (a = g_hash_table_lookup (by_glyph, GUINT_TO_POINTER (glyph_of (face, symbol))))
                 != NULL)
        {
          alternates[o] = *a;
          put_own_first (&alternates[o], symbol);
        }
    }
  FT_Done_Face (face);
  FT_Done_FreeType (library);
  return alternates;
}

/* The scripts of the letters the cmap gives glyphs that it maps from several characters:
 * the candidates for what the font is really in. */
static GArray *
ambiguous_scripts (const Alternates *alternates, guint n_open)
{
  GArray *scripts = g_array_new (FALSE, FALSE, sizeof (GUnicodeScript));
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);

  for (guint o = 0; o < n_open; o++)
    for (guint i = 0; alternates[o].n > 1 && i < alternates[o].n; i++)
      {
        gunichar u = alternates[o].chars[i];
        GUnicodeScript script = g_unichar_get_script (u);
        guint n;

        if (!g_unichar_isalpha (u) || script == G_UNICODE_SCRIPT_COMMON)
          continue;
        n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GINT_TO_POINTER (script))) + 1;
        g_hash_table_insert (counts, GINT_TO_POINTER (script), GUINT_TO_POINTER (n));
        /* A script that only a stray glyph or two has is no reading of the font. */
        if (n == 3)
          g_array_append_val (scripts, script);
      }
  return scripts;
}

static void
add_readings (DcReadings *readings, DcDocument *document, const Alternates *alternates,
              GArray *scripts)
{
  guint n_open = _dc_readings_get_n_open (readings);
  g_autofree gunichar *values = g_new0 (gunichar, MAX (1, n_open));

  /* The PDF's own text first: a reading that only says it again is that text. */
  for (guint o = 0; o < n_open; o++)
    {
      const DcSymbol *symbol = dc_document_get_symbol (document,
                                                       _dc_readings_get_open_symbol (readings, o));

      values[o] = g_utf8_strlen (symbol->pdf_text, -1) == 1 ? g_utf8_get_char (symbol->pdf_text)
                                                            : 0;
    }
  _dc_readings_add (readings, "the PDF's text", values);

  for (guint i = 0; i < scripts->len; i++)
    {
      GUnicodeScript script = g_array_index (scripts, GUnicodeScript, i);
      g_autofree char *name = NULL;
      char tag[5] = { 0 };
      guint32 iso = g_unicode_script_to_iso15924 (script);

      for (guint k = 0; k < 4; k++)
        tag[k] = (char) ((iso >> (24 - 8 * k)) & 0xFF);
      for (guint o = 0; o < n_open; o++)
        {
          gunichar u = alternate_in_script (&alternates[o], script);

          values[o] = u != 0 ? u : (alternates[o].n > 0 ? alternates[o].chars[0] : 0);
        }
      name = g_strdup_printf ("the font's own cmap, read in script %s", tag);
      _dc_readings_add (readings, name, values);
    }

  for (guint i = 0; i < _dc_proposals_n_code_pages (); i++)
    {
      const char *code_page = NULL;
      const gunichar *table = _dc_proposals_code_page (i, &code_page);
      g_autofree char *name = NULL;

      if (table == NULL)
        continue;
      for (guint o = 0; o < n_open; o++)
        {
          const DcSymbol *symbol = dc_document_get_symbol (document,
                                                           _dc_readings_get_open_symbol (readings,
                                                                                         o));
          gunichar u = symbol->code_len == 1 && symbol->code < 256 ? table[symbol->code] : 0;

          /* The glyph is one of the characters its cmap names, when it names several,
           * and its own before a code's standard meaning. */
          if (u != 0 && alternates[o].n > 1)
            {
              gunichar same_script = alternate_in_script (&alternates[o], g_unichar_get_script (u));

              u = same_script != 0 ? same_script : u;
            }
          values[o] = u;
        }
      name = g_strdup_printf ("code page %s", code_page);
      _dc_readings_add (readings, name, values);
    }
}

/* The characters the font's other symbols already stand for. */
static GHashTable *
held_values (DcKey *key, guint font)
{
  DcDocument *document = dc_key_get_document (key);
  GHashTable *held = g_hash_table_new (NULL, NULL);
  const guint *starts;
  const guint32 *font_symbols = _dc_document_get_font_symbols (document, &starts);

  for (guint f = starts[font]; f < starts[font + 1]; f++)
    {
      const char *value = dc_key_get_value (key, font_symbols[f]);

      if (value != NULL && g_utf8_strlen (value, -1) == 1)
        g_hash_table_add (held, GUINT_TO_POINTER (g_utf8_get_char (value)));
    }
  return held;
}

/* Whether the font's own evidence backs the winning reading's @u for a glyph of a font
 * whose cmap names several characters for its glyphs: one of those it names for this
 * glyph (a lie names one), or an ASCII digit or punctuation at its own code, every
 * layout's. */
static gboolean
is_backed (const DcSymbol *symbol, const Alternates *alternates, gunichar u)
{
  if (alternates->n > 1 && alternates_contain (alternates, u))
    return TRUE;
  return !g_unichar_isalpha (u) && u < 0x80 && symbol->code == u;
}

static guint
apply_font (DcKey *key, guint font)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (DcReadings) readings = _dc_readings_new (key, font);
  g_autofree Alternates *alternates = NULL;
  g_autoptr (GHashTable) held = NULL;
  g_autofree gboolean *disputed = NULL;
  g_autofree char *applied = NULL;
  g_autoptr (GArray) scripts = NULL;
  const gunichar *values;
  guint best, n_open = _dc_readings_get_n_open (readings), n_applied = 0;
  gboolean clear;
  double margin;

  if (n_open == 0)
    return 0;
  alternates = read_alternates (dc_document_get_font (document, font), document, readings);
  /* A font whose cmap names one character a glyph has nothing to back a code page with:
   * whichever reading won, nothing would be applied, so none is scored (the language
   * model was most of a small file's time in a collection). */
  scripts = ambiguous_scripts (alternates, n_open);
  if (scripts->len == 0)
    return 0;
  add_readings (readings, document, alternates, scripts);
  clear = _dc_readings_choose (readings, &best, &margin, &disputed);
  g_debug ("font %u: best %s (margin %.2f)%s", font, _dc_readings_get_name (readings, best), margin,
           clear ? "" : ", too few letters to judge");
  /* The PDF's text winning leaves the font as it was. */
  if (best == 0 || !clear)
    return 0;
  values = _dc_readings_get_values (readings, best);
  held = held_values (key, font);
  applied = g_strdup_printf ("layout: %s, which reads as a language (%s) far better than "
                             "the PDF's text or any other reading",
                             _dc_readings_get_name (readings, best),
                             _dc_readings_get_language (readings, best));
  for (guint o = 0; o < n_open; o++)
    {
      guint symbol = _dc_readings_get_open_symbol (readings, o);
      g_autoptr (GError) error = NULL;
      char text[8] = { 0 };

      if (values[o] == 0 || g_unichar_iscntrl (values[o]) || g_unichar_isspace (values[o])
          || g_hash_table_contains (held, GUINT_TO_POINTER (values[o])) || disputed[o]
          || !is_backed (dc_document_get_symbol (document, symbol), &alternates[o], values[o]))
        continue;
      g_unichar_to_utf8 (values[o], text);
      if (!dc_key_set_full (key, symbol, text, DC_KEY_INFERRED, DC_KEY_LEVEL_LAYOUT, -1, applied,
                            &error))
        g_debug ("%s", error->message);
      else
        {
          g_hash_table_add (held, GUINT_TO_POINTER (values[o]));
          n_applied++;
        }
    }
  g_debug ("font %u: %u values applied", font, n_applied);
  return n_applied;
}

/**
 * _dc_hypotheses_apply:
 * @key: the key of the document, inside a change
 *
 * For every untrusted font of one-byte codes with glyphs the key does not know, reads
 * them every way a legacy font may be laid out and applies the reading a language model
 * clearly prefers where the font's own cmap backs it (see the top of this file).
 *
 * Returns: how many values were applied
 */
guint
_dc_hypotheses_apply (DcKey *key)
{
  DcDocument *document;
  guint n_fonts, n = 0;

  g_return_val_if_fail (DC_IS_KEY (key), 0);

  document = dc_key_get_document (key);
  n_fonts = dc_document_get_n_fonts (document);
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);

      if (!dc_font_is_trusted (font) && !dc_font_is_cid (font)
          && dc_font_get_double_byte_charset (font) == NULL)
        n += apply_font (key, f);
    }
  return n;
}
