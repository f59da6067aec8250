/* dc-font-tables.c: what the fonts themselves say their glyphs are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PDF's text map may lie or be missing while the font program it draws with still
 * knows its glyphs: a Unicode cmap maps characters to glyphs (inverted, glyphs to
 * characters), and 'post' tables, CFF charsets and Type1 encodings name them. A font not
 * embedded at all but drawn by glyph number (Identity-H over a TrueType font of the
 * system) still follows, for its first 258 glyphs, the Macintosh standard order that
 * nearly every TrueType font keeps: glyph 3 is the space, 36 the A (the "+29" that
 * pdftotext shows for such files).
 *
 * A font drawn by glyph number that is not embedded, and whose name and widths are those
 * of an installed font, is read through that font's own tables (dc-font-installed.c):
 * every glyph, not only the first 258.
 *
 * The first is the font level of the evidence cascade (DESIGN §7), the second a layout:
 * both are applied as inferred values, never over anything the key holds already, and
 * not at all where the font's own tables only repeat the accented-Latin soup of a legacy
 * 8-bit font (its cmap then says the same lie as its PDF text).
 */

#define G_LOG_DOMAIN "dc-font-tables"

#include "config.h"

#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_CID_H
#include FT_TRUETYPE_TABLES_H

#include <glib/gi18n-lib.h>

#include "dc-agl-private.h"
#include "dc-font-installed-private.h"
#include "dc-font-tables.h"
#include "dc-ink-private.h"
#include "dc-trust-private.h"
#include "dc-unicode-private.h"

/* A layout explains a font when it reads this share of its glyphs. */
#define LAYOUT_MIN_EXPLAINED 0.9

/* Tables that only say again what the PDF's rejected text says are proposed at this
 * confidence, far under the threshold of what is applied automatically
 * (DC_KEY_AUTOMATIC_CONFIDENCE): those the installed fonts did not decode instead were
 * right for 8.3 % of 120 values ("decipher-cli text"), 11.4 % of 88 (session) and 5.4 %
 * of 37 (after the library) in bench/calibrate-levels.py, its ascii layout (issue 28;
 * issue 31: a Nenets font's cmap, < for а, was proposed at 90 %). What is right of them
 * is the punctuation. Since the identity level decodes more first, what is left for them
 * is right less often: 2.9 % of 240, 4.0 % of 177 (seed 28); 4.1 % of 221, 8.7 % of 103,
 * 2.2 % of 46 (seed 29), where 0.08 was 0.05 over the first. */
#define DC_FONT_TABLES_REPEAT_CONFIDENCE 0.05

typedef struct
{
  guint symbol;
  char *text;
  char *provenance;
  DcKeyLevel level;
} Finding;

/* @text (taken, nullable) as the text reads it: a cmap and glyph names name a contextual
 * form or a ligature by its presentation form, which is the letters it draws. */
static char *
as_read (char *text)
{
  char *plain = text != NULL ? _dc_text_without_presentation_forms (text) : NULL;

  if (plain == NULL)
    return text;
  g_free (text);
  return plain;
}

static void
finding_clear (gpointer data)
{
  Finding *finding = data;

  g_free (finding->text);
  g_free (finding->provenance);
}

/* Marks a character that only the Mac Roman cmap gives its glyph (see glyph_evidence()). */
#define FROM_MAC_ROMAN 0x80000000u

/* Glyph → the character a Unicode cmap gives it; where several do (space and no-break
 * space), the lowest, which is the plain one. */
static GHashTable *
invert_unicode_cmaps (FT_Face face)
{
  GHashTable *by_glyph = g_hash_table_new (NULL, NULL);
  FT_CharMap saved = face->charmap;

  for (int i = 0; i < face->num_charmaps; i++)
    {
      FT_CharMap charmap = face->charmaps[i];
      gboolean unicode = charmap->platform_id == 0
                         || (charmap->platform_id == 3
                             && (charmap->encoding_id == 1 || charmap->encoding_id == 10));
      gboolean mac_roman = charmap->platform_id == 1 && charmap->encoding_id == 0;
      FT_ULong c;
      FT_UInt gid;

      if ((!unicode && !mac_roman) || FT_Set_Charmap (face, charmap) != 0)
        continue;
      /* FreeType makes up a Unicode cmap from glyph names where a font has none: those
       * are read as names, and said to be. */
      if (FT_IS_SFNT (face) && FT_Get_CMap_Format (charmap) < 0)
        continue;
      if (!FT_IS_SFNT (face))
        continue;
      for (c = FT_Get_First_Char (face, &gid); gid != 0; c = FT_Get_Next_Char (face, c, &gid))
        {
          gunichar u = (gunichar) c;
          gpointer old;

          if (mac_roman)
            {
              const char *utf8;

              if (c > 0xFF)
                continue;
              utf8 = _dc_charset_byte_to_utf8 ("MACINTOSH", (guint8) c);
              if (utf8 == NULL)
                continue;
              u = g_utf8_get_char (utf8);
            }
          if (u < 0x20 || !g_unichar_validate (u) || g_unichar_type (u) == G_UNICODE_PRIVATE_USE)
            continue;
          old = g_hash_table_lookup (by_glyph, GUINT_TO_POINTER (gid));
          /* A Unicode cmap outranks the Mac Roman one, whichever order the font lists
           * them in (fonts sort them by platform: Mac Roman (1,0) before Windows (3,1)). */
          if (old == NULL
              || (unicode
                  && ((GPOINTER_TO_UINT (old) & FROM_MAC_ROMAN) || u < GPOINTER_TO_UINT (old)))
              || (mac_roman && (GPOINTER_TO_UINT (old) & FROM_MAC_ROMAN)
                  && u < (GPOINTER_TO_UINT (old) & ~FROM_MAC_ROMAN)))
            g_hash_table_insert (by_glyph, GUINT_TO_POINTER (gid),
                                 GUINT_TO_POINTER (mac_roman ? u | FROM_MAC_ROMAN : u));
        }
    }
  if (saved != NULL)
    FT_Set_Charmap (face, saved);
  return by_glyph;
}

static FT_CharMap
find_charmap (FT_Face face, int platform, int encoding)
{
  for (int i = 0; i < face->num_charmaps; i++)
    if (face->charmaps[i]->platform_id == platform && face->charmaps[i]->encoding_id == encoding)
      return face->charmaps[i];
  return NULL;
}

/* The glyph a simple TrueType font draws for @code, as PDF readers find it (PDF 32000
 * 9.6.6.4): a (3,0) symbol cmap at F0xx (or xx); else the (3,1) cmap at the character the
 * encoding names, so that the font confirms (or not) that it has that character; else
 * the (1,0) cmap at the code. */
static FT_UInt
simple_truetype_glyph (FT_Face face, DcFont *font, guint32 code, gboolean *by_code)
{
  FT_CharMap charmap;
  FT_UInt gid = 0;

  *by_code = FALSE;
  if (code > 0xFF)
    return 0;
  /* The charmap is set only where another is: FreeType sets one again to no effect, but
   * was asked to for every symbol of the font. */
  if ((charmap = find_charmap (face, 3, 0)) != NULL)
    {
      if (face->charmap != charmap && FT_Set_Charmap (face, charmap) != 0)
        return 0;
      gid = FT_Get_Char_Index (face, 0xF000 + code);
      if (gid == 0)
        gid = FT_Get_Char_Index (face, code);
      *by_code = gid != 0;
      return gid;
    }
  if ((charmap = find_charmap (face, 3, 1)) != NULL)
    {
      g_autofree char *named = _dc_agl_name_to_text (dc_font_get_glyph_name (font, code));

      if (named == NULL || g_utf8_strlen (named, -1) != 1
          || (face->charmap != charmap && FT_Set_Charmap (face, charmap) != 0))
        return 0;
      return FT_Get_Char_Index (face, g_utf8_get_char (named));
    }
  if ((charmap = find_charmap (face, 1, 0)) != NULL
      && (face->charmap == charmap || FT_Set_Charmap (face, charmap) == 0))
    {
      gid = FT_Get_Char_Index (face, code);
      *by_code = gid != 0;
    }
  return gid;
}

/* A Type1 or CFF font's own built-in encoding. */
static FT_UInt
builtin_glyph (FT_Face face, guint32 code)
{
  static const FT_Encoding encodings[] = { FT_ENCODING_ADOBE_CUSTOM, FT_ENCODING_ADOBE_STANDARD,
                                           FT_ENCODING_ADOBE_EXPERT };

  if (code > 0xFF)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (encodings); i++)
    if (FT_Select_Charmap (face, encodings[i]) == 0)
      {
        FT_UInt gid = FT_Get_Char_Index (face, code);

        if (gid != 0)
          return gid;
      }
  return 0;
}

/* @u in upper-case hexadecimal, four digits at least, into @code (room for 9): what
 * "%04X" prints. */
static void
hex_code (gunichar u, char *code)
{
  char digits[8];
  guint n = 0;

  do
    {
      digits[n++] = "0123456789ABCDEF"[u & 0xF];
      u >>= 4;
    }
  while (u != 0);
  while (n < 4)
    digits[n++] = '0';
  for (guint i = 0; i < n; i++)
    code[i] = digits[n - 1 - i];
  code[n] = '\0';
}

/* What the program says glyph @gid is: its Unicode cmap first, then its name. */
static gboolean
glyph_evidence (FT_Face face, const char *source, GHashTable *by_glyph, FT_UInt gid,
                gboolean by_code, Finding *finding)
{
  guint entry = GPOINTER_TO_UINT (g_hash_table_lookup (by_glyph, GUINT_TO_POINTER (gid)));
  gunichar u = entry & ~FROM_MAC_ROMAN;
  char name[128];

  /* A glyph found by its code (a symbol or Mac Roman cmap) is not told by the Mac Roman
   * cmap read backwards: that only says the code again. Subsetters write such a cmap for
   * any glyph (bug1151216: "$300" drawn at the codes of "?@''"). */
  if (entry != 0 && !(by_code && (entry & FROM_MAC_ROMAN)))
    {
      char utf8[8] = { 0 }, code[16];

      g_unichar_to_utf8 (u, utf8);
      finding->text = as_read (g_strdup (utf8));
      /* Joined, not formatted: it is made for nearly every symbol of a font with a cmap,
       * and g_snprintf() of the code alone cost as much as the rest of the glyph's
       * evidence. */
      hex_code (u, code);
      finding->provenance = g_strconcat ("font: ", source, "cmap U+", code, NULL);
      return TRUE;
    }
  if (FT_HAS_GLYPH_NAMES (face) && FT_Get_Glyph_Name (face, gid, name, sizeof name) == 0)
    {
      finding->text = as_read (_dc_agl_name_to_text (name));
      if (finding->text != NULL)
        {
          finding->provenance = g_strdup_printf ("font: %sglyph name %s", source, name);
          return TRUE;
        }
    }
  return FALSE;
}

/* CID-keyed CFF fonts number their glyphs apart from the CIDs the PDF draws. */
static GHashTable *
cid_to_glyph (FT_Face face)
{
  FT_Bool is_cid = FALSE;
  GHashTable *map;

  if (FT_Get_CID_Is_Internally_CID_Keyed (face, &is_cid) != 0 || !is_cid)
    return NULL;
  map = g_hash_table_new (NULL, NULL);
  for (FT_Long gid = 1; gid < face->num_glyphs; gid++)
    {
      FT_UInt cid;

      if (FT_Get_CID_From_Glyph_Index (face, (FT_UInt) gid, &cid) == 0)
        g_hash_table_insert (map, GUINT_TO_POINTER (cid), GUINT_TO_POINTER ((guint) gid));
    }
  return map;
}

/* @installed: the name of the installed font @face is, when @font is not embedded */
static void
read_program (DcFont *font, FT_Face face, const char *installed, GArray *symbols,
              const DcSymbol *all, GArray *findings)
{
  /* "font: installed …": DC_FONT_INSTALLED_PROVENANCE */
  g_autofree char *source = installed != NULL ? g_strdup_printf ("installed %s, ", installed)
                                              : g_strdup ("");
  g_autoptr (GHashTable) by_glyph = NULL;
  g_autoptr (GHashTable) cids = NULL;
  DcFontType type = dc_font_get_font_type (font);
  gboolean builtin = g_strcmp0 (dc_font_get_encoding (font), "Builtin") == 0;

  by_glyph = invert_unicode_cmaps (face);
  if (type == DC_FONT_TYPE_CID_TYPE0)
    cids = cid_to_glyph (face);

  for (guint i = 0; i < symbols->len; i++)
    {
      guint s = g_array_index (symbols, guint, i);
      Finding finding = { s, NULL, NULL, DC_KEY_LEVEL_FONT };
      guint32 code = all[s].code;
      FT_UInt gid = 0;
      gboolean by_code = FALSE;

      switch (type)
        {
        case DC_FONT_TYPE_CID_TYPE2:
          gid = (FT_UInt) MAX (0, dc_font_get_cid_glyph_index (font, code));
          break;
        case DC_FONT_TYPE_CID_TYPE0:
          gid = cids != NULL
                    ? GPOINTER_TO_UINT (g_hash_table_lookup (cids, GUINT_TO_POINTER (code)))
                    : code;
          break;
        case DC_FONT_TYPE_TRUETYPE:
          gid = simple_truetype_glyph (face, font, code, &by_code);
          break;
        case DC_FONT_TYPE_TYPE1:
          /* Other encodings name glyphs through the PDF's own table: no second opinion. */
          if (builtin)
            gid = builtin_glyph (face, code);
          break;
        case DC_FONT_TYPE_TYPE3:
        case DC_FONT_TYPE_UNKNOWN:
        default:
          break;
        }
      if (gid != 0 && gid < (FT_UInt) face->num_glyphs
          && glyph_evidence (face, source, by_glyph, gid, by_code, &finding))
        g_array_append_val (findings, finding);
    }
}

static gboolean
is_identity_truetype (DcFont *font)
{
  const char *encoding = dc_font_get_encoding (font);

  return dc_font_get_font_type (font) == DC_FONT_TYPE_CID_TYPE2
         && g_str_has_prefix (encoding != NULL ? encoding : "", "Identity");
}

/* The glyph number a symbol had in the full font it was made from: its code, for a
 * TrueType font drawn by glyph number (Identity), or what a name "g0035" (four hex
 * digits, as some subsetters name glyphs after their original number) says. -1 when
 * neither tells. */
static int
original_glyph (DcFont *font, const DcSymbol *symbol)
{
  const char *name = symbol->glyph_name;

  /* The CID, not the glyph a CIDToGIDMap takes it to: a subset that renumbered its glyphs
   * keeps the full font's numbers as CIDs. */
  if (is_identity_truetype (font))
    return (int) MIN (symbol->code, (guint32) G_MAXINT);
  if (name != NULL && name[0] == 'g' && strlen (name) == 5 && g_ascii_isxdigit (name[1])
      && g_ascii_isxdigit (name[2]) && g_ascii_isxdigit (name[3]) && g_ascii_isxdigit (name[4]))
    return (int) g_ascii_strtoll (name + 1, NULL, 16);
  return -1;
}

static gboolean
glyph_has_ink (FT_Face face, FT_UInt gid, gboolean *has_ink)
{
  if (FT_Load_Glyph (face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP) != 0
      || face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
    return FALSE;
  *has_ink = face->glyph->outline.n_points > 0;
  return TRUE;
}

/* An embedded TrueType subset drawn by glyph number kept its full font's numbering as
 * CIDs (PDFJS-7562: CID 54 is still the S) when a CIDToGIDMap takes the CIDs to other
 * glyphs of the subset, the space (CID 3), if drawn, is blank, and the glyphs that would
 * be letters are not. A subset drawn by its own numbers (no map) tells nothing. */
static gboolean
keeps_original_numbering (DcFont *font, FT_Face face, GArray *symbols, const DcSymbol *all)
{
  gboolean mapped = FALSE;

  for (guint i = 0; i < symbols->len; i++)
    {
      guint s = g_array_index (symbols, guint, i);
      int gid = dc_font_get_cid_glyph_index (font, all[s].code);
      gboolean ink;

      if (gid <= 0 || gid >= face->num_glyphs)
        return FALSE;
      if (!glyph_has_ink (face, (FT_UInt) gid, &ink) || ink != (all[s].code != 3))
        return FALSE;
      mapped |= (guint32) gid != all[s].code;
    }
  return mapped;
}

/* Whether @font is one of the Windows core fonts whose order leaves two glyphs of the
 * Macintosh order out (see _dc_agl_core_font_glyph_name()): Arial, Times New Roman and
 * Courier New in any style ("ArialMT", "Arial,Bold", "TimesNewRomanPS-BoldMT"), not
 * Arial Black, which keeps the Macintosh order (issue5801: its glyph 227 is the ł). */
static gboolean
is_core_font (DcFont *font)
{
  static const char *const families[] = { "Arial", "TimesNewRoman", "CourierNew" };
  const char *name = dc_font_get_name (font);
  const char *plus;
  g_autoptr (GString) family = g_string_new (NULL);

  if (name == NULL)
    return FALSE;
  if ((plus = strchr (name, '+')) != NULL && plus - name == 6)
    name = plus + 1;
  for (const char *p = name; *p != '\0' && *p != ',' && *p != '-'; p++)
    if (*p != ' ')
      g_string_append_c (family, *p);
  if (g_str_has_suffix (family->str, "MT"))
    g_string_truncate (family, family->len - 2);
  if (g_str_has_suffix (family->str, "PS"))
    g_string_truncate (family, family->len - 2);
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (strcmp (family->str, families[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A font drawn by the glyph numbers of a full TrueType font (not embedded, or a subset
 * that kept the numbers) is read by the Macintosh standard order, which the first 258
 * glyphs of nearly every such font follow, when that order reads at least
 * LAYOUT_MIN_EXPLAINED of its glyphs. */
static void
read_mac_layout (DcFont *font, FT_Face face, GArray *symbols, const DcSymbol *all, GArray *findings)
{
  guint n_glyphs = 0, n_explained = 0;
  guint first = findings->len;
  gboolean core = is_core_font (font);
  const char *order = core ? "Windows core font glyph order" : "Macintosh glyph order";

  if (is_identity_truetype (font) && dc_font_is_embedded (font)
      && (face == NULL || !keeps_original_numbering (font, face, symbols, all)))
    return;

  for (guint i = 0; i < symbols->len; i++)
    {
      guint s = g_array_index (symbols, guint, i);
      int gid = original_glyph (font, &all[s]);
      const char *name = gid <= 0 ? NULL
                         : core   ? _dc_agl_core_font_glyph_name ((guint) gid)
                                  : _dc_agl_mac_glyph_name ((guint) gid);
      Finding finding = { s, NULL, NULL, DC_KEY_LEVEL_LAYOUT };

      n_glyphs += all[s].n_glyphs;
      if (name == NULL || (finding.text = as_read (_dc_agl_name_to_text (name))) == NULL)
        continue;
      n_explained += all[s].n_glyphs;
      finding.provenance = g_strdup_printf ("layout: %s, glyph %d (%s)", order, gid, name);
      g_array_append_val (findings, finding);
    }

  if (n_glyphs == 0 || n_explained < LAYOUT_MIN_EXPLAINED * n_glyphs)
    {
      g_debug ("The %s reads %u of %u glyphs of “%s”: not applied", order, n_explained, n_glyphs,
               dc_font_get_name (font));
      g_array_set_size (findings, first);
    }
}

/* Glyph names that are a prefix and the code of a character, the same way for every
 * glyph of the font ("C71" "C97" "C114" for "Gar", decimal; "GED" "GFA" for "íú", two hex
 * digits, hex as soon as one name has a hex letter), as poppler also reads them
 * (issue4550: a ToUnicode that maps each code to itself over such names). One name that
 * does not fit, a number out of the 8-bit range or a control character, and the names are
 * no numbers: glyph numbers ("g3", "g1007") and ordinary names do not pass. */
static void
read_numeric_names (GArray *symbols, const DcSymbol *all, GArray *findings)
{
  char first_prefix[3] = { 0 };
  gboolean hex = FALSE;
  guint first = findings->len, n_glyphs = 0, n_letters = 0;

  if (symbols->len < 2)
    return;
  for (guint i = 0; i < symbols->len; i++)
    {
      const DcSymbol *symbol = &all[g_array_index (symbols, guint, i)];
      char prefix[3];
      const char *digits;
      gboolean hex_letter;

      if (!_dc_agl_split_numeric_name (symbol->glyph_name, prefix, &digits, &hex_letter))
        return;
      if (i == 0)
        strcpy (first_prefix, prefix);
      else if (strcmp (prefix, first_prefix) != 0)
        return;
      hex |= hex_letter;
    }

  for (guint i = 0; i < symbols->len; i++)
    {
      guint s = g_array_index (symbols, guint, i);
      const char *name = all[s].glyph_name;
      const char *digits = name + strlen (first_prefix);
      Finding finding = { s, NULL, NULL, DC_KEY_LEVEL_FONT };
      guint64 number;

      if (hex && strlen (digits) != 2)
        goto not_numbers;
      number = g_ascii_strtoull (digits, NULL, hex ? 16 : 10);
      if (number < 0x20 || number > 0xFF || number == 0x7F)
        goto not_numbers;
      finding.text = g_strdup (_dc_charset_byte_to_utf8 ("WINDOWS-1252", (guint8) number));
      if (finding.text == NULL || g_unichar_iscntrl (g_utf8_get_char (finding.text)))
        {
          g_free (finding.text);
          goto not_numbers;
        }
      n_glyphs += all[s].n_glyphs;
      if (g_unichar_isalpha (g_utf8_get_char (finding.text)))
        n_letters += all[s].n_glyphs;
      finding.provenance = g_strdup_printf ("font: glyph name %s, the %s code %s", name,
                                            hex ? "hexadecimal" : "decimal", digits);
      g_array_append_val (findings, finding);
    }
  /* Numbers that read as text have letters among them. */
  if (n_letters * 2 >= n_glyphs)
    return;

not_numbers:
  g_array_set_size (findings, first);
}

/* A one-byte font drawing GBK (or Big5, Shift-JIS) pairs, which dc-document.c made one
 * symbol each: the pairs and the plain bytes read through that charset. */
static void
read_double_byte (DcFont *font, GArray *symbols, const DcSymbol *all, GArray *findings)
{
  const char *charset = dc_font_get_double_byte_charset (font);

  for (guint i = 0; i < symbols->len; i++)
    {
      guint s = g_array_index (symbols, guint, i);
      Finding finding = { s, NULL, NULL, DC_KEY_LEVEL_LAYOUT };
      char bytes[2];
      gsize n = 0;

      if (all[s].code_len == 2)
        {
          bytes[n++] = (char) (all[s].code >> 8);
          bytes[n++] = (char) (all[s].code & 0xFF);
        }
      else if (all[s].code >= 0x20 && all[s].code < 0x7F)
        bytes[n++] = (char) all[s].code;
      else
        continue;
      finding.text = g_convert (bytes, n, "UTF-8", charset, NULL, NULL, NULL);
      if (finding.text == NULL || g_utf8_strlen (finding.text, -1) != 1)
        {
          g_free (finding.text);
          continue;
        }
      finding.provenance = g_strdup_printf ("layout: %s code %0*X", charset, (int) n * 2,
                                            all[s].code);
      g_array_append_val (findings, finding);
    }
}

/* The tables of a legacy 8-bit font repeat its lie: accented Latin letters standing for
 * another alphabet, as dc-trust.c tells them. */
static gboolean
looks_legacy (GArray *findings, guint first, const DcSymbol *all)
{
  guint letters = 0, latin1 = 0;

  for (guint i = first; i < findings->len; i++)
    {
      const Finding *finding = &g_array_index (findings, Finding, i);
      guint n = all[finding->symbol].n_glyphs;

      for (const char *p = finding->text; *p; p = g_utf8_next_char (p))
        {
          gunichar c = g_utf8_get_char (p);

          if (!g_unichar_isalpha (c))
            continue;
          letters += n;
          if (c >= 0xC0 && c <= 0x17F && c != 0xD7 && c != 0xF7)
            latin1 += n;
        }
    }
  return letters >= DC_TRUST_MIN_LETTERS && latin1 * 10 > letters * 3;
}

/* Whether the tables say again exactly what the PDF's own text says, correcting nothing,
 * where that text came from the PDF's data (a ToUnicode, a simple font's encoding) and
 * was judged wrong: then they are no second opinion (bug1151216: a subset whose cmap maps
 * each code to itself, "?@''" for "$300"), and are only proposed. Poppler's text for a
 * CID font without ToUnicode is only the CID as a code point: agreeing with that
 * confirms the tables. */
static gboolean
only_repeats_pdf_text (DcFont *font, GArray *findings, const DcSymbol *all)
{
  guint n_same = 0;

  if (findings->len == 0 || (dc_font_is_cid (font) && !dc_font_has_to_unicode (font)))
    return FALSE;
  for (guint i = 0; i < findings->len; i++)
    {
      const Finding *finding = &g_array_index (findings, Finding, i);

      n_same += strcmp (finding->text, all[finding->symbol].pdf_text) == 0;
    }
  return n_same == findings->len;
}

/**
 * dc_font_tables_apply:
 * @key: the key of the document
 *
 * Sets, for every symbol of an untrusted font that the key does not know yet, what the
 * font's own tables say (%DC_KEY_LEVEL_FONT: the embedded program's, or for a TrueType
 * font drawn by glyph number without its program, the installed font's of that name whose
 * advances are the PDF's widths) or else, for such a font, what the Macintosh standard
 * glyph order says
 * (%DC_KEY_LEVEL_LAYOUT), as %DC_KEY_INFERRED values with their provenance. Call it inside
 * a dc_key_begin_change() pair to make it part of a larger step.
 *
 * Returns: the number of symbols set
 */
guint
dc_font_tables_apply (DcKey *key)
{
  DcDocument *document;
  g_autoptr (GArray) findings = NULL;
  g_autoptr (GPtrArray) by_font = NULL;
  const DcSymbol *all;
  FT_Library library = NULL;
  guint n_symbols, n_fonts, n_set = 0, n_open = 0;

  g_return_val_if_fail (DC_IS_KEY (key), 0);

  document = dc_key_get_document (key);
  all = dc_document_get_symbols (document, &n_symbols);
  n_fonts = dc_document_get_n_fonts (document);
  by_font = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint f = 0; f < n_fonts; f++)
    g_ptr_array_add (by_font, g_array_new (FALSE, FALSE, sizeof (guint)));
  /* Every symbol of the font is read, not only those still unknown: whether its tables
   * lie is told from all of them. Read after the user taught the letters (or the library
   * gave them), the few symbols left would not show a legacy font's accented Latin, and
   * its cmap would fill them with its lie (issue 28: ° for һ). */
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      {
        g_array_append_val (g_ptr_array_index (by_font, all[s].font), s);
        n_open += dc_key_get_status (key, s) == DC_KEY_UNKNOWN;
      }

  if (n_open == 0)
    return 0;
  if (FT_Init_FreeType (&library) != 0)
    library = NULL;
  findings = g_array_new (FALSE, TRUE, sizeof (Finding));
  g_array_set_clear_func (findings, finding_clear);

  dc_key_begin_change (key, _("What the fonts say"));
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      GArray *symbols = g_ptr_array_index (by_font, f);
      gboolean repeats;

      if (symbols->len == 0)
        continue;
      g_array_set_size (findings, 0);
      if (dc_font_get_double_byte_charset (font) != NULL)
        read_double_byte (font, symbols, all, findings);
      else
        {
          FT_Face face = _dc_font_open_face (font, library);
          g_autofree char *installed = NULL;

          if (face == NULL && _dc_font_is_drawn_by_installed_glyphs (font))
            face = _dc_font_open_installed (font, library, document, symbols, &installed);
          if (face != NULL)
            read_program (font, face, installed, symbols, all, findings);
          /* A legacy font's cmap repeats its lie; its glyphs may still be numbered as a
           * full font's are (bug1027533: names g0035 for the R). */
          if (looks_legacy (findings, 0, all))
            g_array_set_size (findings, 0);
          if (findings->len == 0)
            read_numeric_names (symbols, all, findings);
          if (findings->len == 0)
            read_mac_layout (font, face, symbols, all, findings);
          if (face != NULL)
            FT_Done_Face (face);
        }
      if (looks_legacy (findings, 0, all))
        {
          g_debug ("The tables of “%s” read as a legacy font's: not applied",
                   dc_font_get_name (font));
          continue;
        }

      repeats = only_repeats_pdf_text (font, findings, all);
      for (guint i = 0; i < findings->len; i++)
        {
          const Finding *finding = &g_array_index (findings, Finding, i);
          g_autoptr (GError) error = NULL;
          g_autofree char *reason = NULL;
          gboolean set;

          if (dc_key_get_status (key, finding->symbol) != DC_KEY_UNKNOWN)
            continue;
          if (repeats)
            {
              /* Not translated: a provenance names its level by its first word. */
              reason = g_strdup_printf ("%s, only what the PDF's text says, which the trust "
                                        "analysis rejected",
                                        finding->provenance);
              set = dc_key_set_full (key, finding->symbol, finding->text, DC_KEY_PROPOSED,
                                     finding->level, DC_FONT_TABLES_REPEAT_CONFIDENCE, reason,
                                     &error);
            }
          else
            set = dc_key_set_full (key, finding->symbol, finding->text, DC_KEY_INFERRED,
                                   finding->level, -1, finding->provenance, &error);
          if (!set)
            g_debug ("%s", error->message);
          else if (!repeats)
            n_set++;
        }
    }
  dc_key_end_change (key);

  if (library != NULL)
    FT_Done_FreeType (library);
  return n_set;
}
