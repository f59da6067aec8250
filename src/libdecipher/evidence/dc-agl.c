/* dc-agl.c: glyph names to text, by the Adobe Glyph List rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A font program names its glyphs (post table, CFF charset, Type1 encoding), and so may a
 * PDF's /Differences. The AGL specification says how a name reads: drop everything from
 * the first period (".sc", ".alt", ".001" name variants of the same character), split the
 * rest at underscores (a ligature "f_i" is f then i), and read each component as an AGL
 * name, "uniXXXX…" (one or more groups of four hex digits) or "uXXXX" to "uXXXXXX".
 * Names that mean nothing ("g12", "cid42", "glyph7") give nothing.
 */

#define G_LOG_DOMAIN "dc-agl"

#include "config.h"

#include <string.h>

#include "dc-agl-private.h"
#include "dc-pdf-bridge-private.h"

/* The 258 glyphs of the Macintosh standard order, the order of a TrueType 'post' table of
 * format 1 and the first glyphs of most TrueType fonts of the 1990s and later: a PDF that
 * draws such a font by glyph number without embedding it reads through this list. */
/* Packed by hand, as the specification lists them. */
/* clang-format off */
static const char *const mac_glyph_names[DC_AGL_N_MAC_GLYPHS] = {
  ".notdef", ".null", "nonmarkingreturn", "space", "exclam", "quotedbl", "numbersign",
  "dollar", "percent", "ampersand", "quotesingle", "parenleft", "parenright", "asterisk",
  "plus", "comma", "hyphen", "period", "slash", "zero", "one", "two", "three", "four", "five",
  "six", "seven", "eight", "nine", "colon", "semicolon", "less", "equal", "greater",
  "question", "at", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
  "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "bracketleft", "backslash",
  "bracketright", "asciicircum", "underscore", "grave", "a", "b", "c", "d", "e", "f", "g", "h",
  "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
  "braceleft", "bar", "braceright", "asciitilde", "Adieresis", "Aring", "Ccedilla", "Eacute",
  "Ntilde", "Odieresis", "Udieresis", "aacute", "agrave", "acircumflex", "adieresis", "atilde",
  "aring", "ccedilla", "eacute", "egrave", "ecircumflex", "edieresis", "iacute", "igrave",
  "icircumflex", "idieresis", "ntilde", "oacute", "ograve", "ocircumflex", "odieresis",
  "otilde", "uacute", "ugrave", "ucircumflex", "udieresis", "dagger", "degree", "cent",
  "sterling", "section", "bullet", "paragraph", "germandbls", "registered", "copyright",
  "trademark", "acute", "dieresis", "notequal", "AE", "Oslash", "infinity", "plusminus",
  "lessequal", "greaterequal", "yen", "mu", "partialdiff", "summation", "product", "pi",
  "integral", "ordfeminine", "ordmasculine", "Omega", "ae", "oslash", "questiondown",
  "exclamdown", "logicalnot", "radical", "florin", "approxequal", "Delta", "guillemotleft",
  "guillemotright", "ellipsis", "nonbreakingspace", "Agrave", "Atilde", "Otilde", "OE", "oe",
  "endash", "emdash", "quotedblleft", "quotedblright", "quoteleft", "quoteright", "divide",
  "lozenge", "ydieresis", "Ydieresis", "fraction", "currency", "guilsinglleft",
  "guilsinglright", "fi", "fl", "daggerdbl", "periodcentered", "quotesinglbase",
  "quotedblbase", "perthousand", "Acircumflex", "Ecircumflex", "Aacute", "Edieresis",
  "Egrave", "Iacute", "Icircumflex", "Idieresis", "Igrave", "Oacute", "Ocircumflex", "apple",
  "Ograve", "Uacute", "Ucircumflex", "Ugrave", "dotlessi", "circumflex", "tilde", "macron",
  "breve", "dotaccent", "ring", "cedilla", "hungarumlaut", "ogonek", "caron", "Lslash",
  "lslash", "Scaron", "scaron", "Zcaron", "zcaron", "brokenbar", "Eth", "eth", "Yacute",
  "yacute", "Thorn", "thorn", "minus", "multiply", "onesuperior", "twosuperior",
  "threesuperior", "onehalf", "onequarter", "threequarters", "franc", "Gbreve", "gbreve",
  "Idotaccent", "Scedilla", "scedilla", "Cacute", "cacute", "Ccaron", "ccaron", "dcroat",
};
/* clang-format on */

/* Returns: (nullable): the name of glyph @gid in the Macintosh standard order */
const char *
_dc_agl_mac_glyph_name (guint gid)
{
  return gid < DC_AGL_N_MAC_GLYPHS ? mac_glyph_names[gid] : NULL;
}

/* Returns: (nullable): the name of glyph @gid in the order of the Windows core fonts
 * (Arial, Times New Roman, Courier New): the Macintosh order without its own glyph for
 * the no-break space (which these fonts draw with the space) nor the Apple logo, so that
 * from glyph 172 on they stand one, from 209 on two, before it (issue15977: glyph 207 is
 * the Ó, 224 the Ł, 252 the ć). */
const char *
_dc_agl_core_font_glyph_name (guint gid)
{
  if (gid >= 209)
    gid += 2;
  else if (gid >= 172)
    gid += 1;
  return _dc_agl_mac_glyph_name (gid);
}

/* A name that is a letter or two and a number: "C71" (decimal), "GED" (two hex digits),
 * as some drivers name the glyphs of fonts they make, after the code of the character.
 * Sets @prefix (up to 2 letters), the digits and whether any of them is a hex letter. */
gboolean
_dc_agl_split_numeric_name (const char *name, char prefix[3], const char **digits,
                            gboolean *has_hex_letter)
{
  gsize n_prefix = 0, len;

  if (name == NULL)
    return FALSE;
  while (n_prefix < 2 && g_ascii_isalpha (name[n_prefix])
         && !(n_prefix > 0 && g_ascii_isxdigit (name[n_prefix])))
    n_prefix++;
  if (n_prefix == 0)
    return FALSE;
  len = strlen (name + n_prefix);
  if (len < 2 || len > 3)
    return FALSE;
  *has_hex_letter = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = name[n_prefix + i];

      if (!g_ascii_isxdigit (c))
        return FALSE;
      *has_hex_letter |= !g_ascii_isdigit (c);
    }
  memcpy (prefix, name, n_prefix);
  prefix[n_prefix] = '\0';
  *digits = name + n_prefix;
  return TRUE;
}

static gboolean
usable (gunichar c)
{
  GUnicodeType type;

  if (!g_unichar_validate (c) || c < 0x20 || (c >= 0xD800 && c <= 0xDFFF))
    return FALSE;
  type = g_unichar_type (c);
  /* A private-use value is no better than the code it came from. */
  return type != G_UNICODE_PRIVATE_USE && type != G_UNICODE_UNASSIGNED && type != G_UNICODE_CONTROL;
}

static gboolean
all_hex (const char *s, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isxdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* Longer names mean nothing: they are not read. */
#define MAX_NAME 200

/* One component of a name (no underscore, no period) into @out, after its first @n_out
 * bytes: at most 4 bytes for each byte of the component. */
static gboolean
component_to_text (const char *component, char *out, gsize *n_out)
{
  gsize len = strlen (component);
  gunichar c;

  if (len == 0)
    return FALSE;
  /* "uni" and groups of four: uni00660069 is "fi". Upper-case digits only, by the spec,
   * but fonts in the wild write both. */
  if (g_str_has_prefix (component, "uni") && len > 3 && (len - 3) % 4 == 0
      && all_hex (component + 3, len - 3))
    {
      for (gsize i = 3; i < len; i += 4)
        {
          char digits[5] = { 0 };

          memcpy (digits, component + i, 4);
          c = (gunichar) g_ascii_strtoull (digits, NULL, 16);
          if (!usable (c))
            return FALSE;
          *n_out += g_unichar_to_utf8 (c, out + *n_out);
        }
      return TRUE;
    }
  if (component[0] == 'u' && len >= 5 && len <= 7 && all_hex (component + 1, len - 1))
    {
      c = (gunichar) g_ascii_strtoull (component + 1, NULL, 16);
      if (!usable (c))
        return FALSE;
      *n_out += g_unichar_to_utf8 (c, out + *n_out);
      return TRUE;
    }
  if (dc_pdf_bridge_glyph_name_to_unicode (component, &c) && usable (c))
    {
      *n_out += g_unichar_to_utf8 (c, out + *n_out);
      return TRUE;
    }
  return FALSE;
}

/**
 * _dc_agl_name_to_text:
 * @name: (nullable): a glyph name
 *
 * Returns: (transfer full) (nullable): what @name stands for by the AGL rules, or %NULL
 * when any part of it means nothing
 */
char *
_dc_agl_name_to_text (const char *name)
{
  /* Cut at the period and split at the underscores in place, on the stack: g_strsplit()
   * and a GString were two thirds of reading a name, which opening a document asks for
   * every symbol of a TrueType font. Each component makes at most 4 bytes of text for
   * each of its bytes. */
  char base[MAX_NAME + 1];
  char text[4 * MAX_NAME + 1];
  char *component, *end;
  gsize len, n = 0;

  if (name == NULL || name[0] == '\0' || name[0] == '.' || (len = strlen (name)) > MAX_NAME)
    return NULL;
  memcpy (base, name, len + 1);
  if ((end = strchr (base, '.')) != NULL)
    *end = '\0';
  for (component = base;; component = end + 1)
    {
      gboolean last = (end = strchr (component, '_')) == NULL;

      if (!last)
        *end = '\0';
      if (!component_to_text (component, text, &n))
        return NULL;
      if (last)
        break;
    }
  if (n == 0)
    return NULL;
  return g_strndup (text, n);
}
