/* dc-ink.c: whether a glyph draws anything, read from its font program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The loader asks it of codes a lying map calls spaces (dc-document-symbols.c), the
 * automatic pass of every symbol it weighs as a space (dc-auto.c).
 */

#define G_LOG_DOMAIN "dc-ink"

#include "config.h"

#include <string.h>

#include "dc-ink-private.h"
#include "dc-unicode-private.h"

static gunichar
unicode_from_glyph_name (const char *name)
{
  const char *hex = NULL;
  gint64 value;
  char *end;

  if (name == NULL)
    return 0;
  if (g_str_has_prefix (name, "uni") && strlen (name) == 7)
    hex = name + 3;
  else if (name[0] == 'u' && strlen (name) >= 5 && strlen (name) <= 7)
    hex = name + 1;
  if (hex == NULL)
    return 0;
  value = g_ascii_strtoll (hex, &end, 16);
  if (*end != '\0' || value <= 0 || !g_unichar_validate ((gunichar) value))
    return 0;
  return (gunichar) value;
}

/* The character a simple font's code stands for under its /Encoding, which is what a
 * viewer looks up in the program's Unicode cmap. */
static gunichar
encoding_unicode (DcFont *font, const DcSymbol *symbol)
{
  const char *encoding = dc_font_get_encoding (font);
  const char *charset = NULL;
  gunichar c;

  if ((c = unicode_from_glyph_name (symbol->glyph_name)) != 0)
    return c;

  /* poppler names the encoding "Custom" as soon as a /Differences array changes it, so
   * these two are the plain standard tables. */
  if (g_strcmp0 (encoding, "WinAnsi") == 0)
    charset = "WINDOWS-1252";
  else if (g_strcmp0 (encoding, "MacRoman") == 0)
    charset = "MACINTOSH";
  if (charset != NULL && symbol->code < 256)
    {
      const char *utf8 = _dc_charset_byte_to_utf8 (charset, (guint8) symbol->code);

      if (utf8 != NULL && g_utf8_strlen (utf8, -1) == 1)
        return g_utf8_get_char (utf8);
    }

  /* Without a ToUnicode map, the PDF's text for the code is poppler's reading of the
   * encoding's glyph name; with one, it may be the very lie being repaired. */
  if (!dc_font_has_to_unicode (font) && g_utf8_strlen (symbol->pdf_text, -1) == 1)
    return g_utf8_get_char (symbol->pdf_text);
  return 0;
}

static FT_CharMap
find_charmap (FT_Face face, int platform, int encoding)
{
  for (int i = 0; i < face->num_charmaps; i++)
    if (face->charmaps[i]->platform_id == platform
        && (encoding < 0 || face->charmaps[i]->encoding_id == encoding))
      return face->charmaps[i];
  return NULL;
}

static FT_UInt
char_index_in (FT_Face face, FT_CharMap charmap, FT_ULong code)
{
  if (charmap == NULL || FT_Set_Charmap (face, charmap) != 0)
    return 0;
  return FT_Get_Char_Index (face, code);
}

/* The glyph a symbol draws, as viewers pick it (poppler's Gfx8BitFont::getCodeToGIDMap and
 * the PDF specification, 9.6.6.4), so that the outline examined is the one on the page.
 * Returns 0 when that cannot be told, never a guess. */
FT_UInt
_dc_symbol_glyph_index (DcFont *font, FT_Face face, const DcSymbol *symbol)
{
  FT_UInt gid = 0;

  if (dc_font_is_cid (font))
    {
      int mapped;

      /* Only an Identity CMap makes the code the CID. A CID-keyed CFF program is then
       * indexed by CID (FreeType maps it through the charset); a TrueType one by the glyph
       * its CIDToGIDMap takes the CID to: a subset without glyph names drawn through a map
       * otherwise has its letters read as blanks and its blank space as ink. */
      if (!g_str_has_prefix (dc_font_get_encoding (font), "Identity"))
        return 0;
      if (dc_font_get_font_type (font) != DC_FONT_TYPE_CID_TYPE2)
        return symbol->code;
      mapped = dc_font_get_cid_glyph_index (font, symbol->code);
      return mapped > 0 ? (FT_UInt) mapped : 0;
    }

  if (symbol->code > 255)
    return 0;

  if (FT_IS_SFNT (face))
    {
      FT_CharMap unicode = find_charmap (face, 3, 1);
      FT_CharMap mac_roman = find_charmap (face, 1, 0);
      FT_CharMap ms_symbol = find_charmap (face, 3, 0);
      gunichar c;

      if (unicode == NULL)
        unicode = find_charmap (face, 0, -1);
      if (unicode != NULL && (c = encoding_unicode (font, symbol)) != 0)
        gid = char_index_in (face, unicode, c);
      /* Symbolic fonts put their codes in the Mac Roman or Microsoft Symbol cmap as they
       * are, the latter usually shifted to the private-use page 0xF000. */
      if (gid == 0)
        gid = char_index_in (face, mac_roman, symbol->code);
      if (gid == 0)
        gid = char_index_in (face, ms_symbol, 0xF000 + symbol->code);
      if (gid == 0)
        gid = char_index_in (face, ms_symbol, symbol->code);
    }

  /* A post table (TrueType) or the charstrings' names (Type 1, CFF). */
  if (gid == 0 && symbol->glyph_name != NULL && FT_HAS_GLYPH_NAMES (face))
    gid = FT_Get_Name_Index (face, symbol->glyph_name);

  /* A Type 1 or CFF program's own encoding, when the PDF names no glyph. */
  if (gid == 0 && symbol->glyph_name == NULL && !FT_IS_SFNT (face))
    {
      static const FT_Encoding builtin[] = { FT_ENCODING_ADOBE_CUSTOM, FT_ENCODING_ADOBE_STANDARD,
                                             FT_ENCODING_ADOBE_EXPERT };

      for (guint i = 0; i < G_N_ELEMENTS (builtin) && gid == 0; i++)
        if (FT_Select_Charmap (face, builtin[i]) == 0)
          gid = FT_Get_Char_Index (face, symbol->code);
    }

  return gid;
}

/**
 * _dc_symbol_ink:
 * @face: (nullable): @font's program, opened by FreeType
 *
 * Whether the glyph @symbol draws has an outline with points, as far as @face tells.
 */
DcInk
_dc_symbol_ink (DcFont *font, FT_Face face, const DcSymbol *symbol)
{
  FT_UInt gid;

  if (face == NULL)
    return DC_INK_UNKNOWN;
  /* Glyph 0 is .notdef, which a lookup that failed lands on: it tells nothing. */
  gid = _dc_symbol_glyph_index (font, face, symbol);
  if (gid == 0
      || FT_Load_Glyph (face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP) != 0
      || face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
    return DC_INK_UNKNOWN;
  return face->glyph->outline.n_points == 0 ? DC_INK_NONE : DC_INK_SOME;
}

/**
 * _dc_font_open_face:
 * @library: (nullable): FreeType, or %NULL when it could not be started
 *
 * @font's embedded program opened by FreeType, or %NULL: none is embedded, or it is a
 * Type 3 font (content streams, no outlines FreeType reads), or FreeType cannot read it.
 * The face is the caller's (FT_Done_Face()).
 */
FT_Face
_dc_font_open_face (DcFont *font, FT_Library library)
{
  GBytes *program = dc_font_get_program (font);
  const guint8 *data;
  gsize size;
  FT_Face face;

  if (program == NULL || library == NULL || dc_font_get_font_type (font) == DC_FONT_TYPE_TYPE3)
    return NULL;
  data = g_bytes_get_data (program, &size);
  if (FT_New_Memory_Face (library, data, (FT_Long) size, 0, &face) != 0)
    return NULL;
  return face;
}
