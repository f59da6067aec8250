/* dc-font-installed.c: the installed font a PDF names but does not embed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A font that is not embedded is drawn by every reader with the font of that name on its
 * own system. When the PDF draws it by glyph number (Identity-H over a TrueType font, as
 * in issue5801's "ArialBlack,Bold"), its codes are that font's glyph numbers, and the
 * font's own cmap says what every one of them is: past the first 258 glyphs too, where
 * the Macintosh standard order stops. Fonts of one name differ between versions and
 * vendors, and fontconfig offers a look-alike for any name, so a font is taken only when
 * its name is the one the PDF gives and the widths the PDF gives its glyphs are that
 * font's advances.
 */

#define G_LOG_DOMAIN "dc-font-installed"

#include "config.h"

#include <math.h>
#include <string.h>

#include <fontconfig/fontconfig.h>

#include "dc-font-installed-private.h"
#include "dc-font-list-private.h"
#include "dc-font-twins-private.h"
#include FT_ADVANCES_H

#include "dc-glyph-private.h"

/* At most this many fonts of a matching name are opened to compare widths. */
#define MAX_CANDIDATES 12
/* A width agrees within this many thousandths of an em, plus WIDTH_TOLERANCE_SHARE of it
 * (a /W array holds whole thousandths). */
#define WIDTH_TOLERANCE 3.0
#define WIDTH_TOLERANCE_SHARE 0.01
/* The widths agree when this share of the glyphs measured does, and at least
 * MIN_MEASURED glyphs could be. */
#define MIN_AGREEING 0.9
#define MIN_MEASURED 3

typedef struct
{
  char *file;
  int index;
  char *label;
  int rank;
} Candidate;

static void
candidate_clear (gpointer data)
{
  Candidate *candidate = data;

  g_free (candidate->file);
  g_free (candidate->label);
}

/* Lower case letters and digits only: "Arial-Black", "Arial Black" and "ArialBlack" are
 * one name. */
static char *
fold_name (const char *name)
{
  GString *folded = g_string_new (NULL);

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (folded, g_ascii_tolower (*p));
  return g_string_free (folded, FALSE);
}

/* How closely @pattern's names are the PDF's @whole ("ArialBlack,Bold" folded) or its
 * @family ("ArialBlack"): 0 for the PostScript or full name itself, 1 for the family and
 * style, 2 for the family alone, -1 for another font. */
static int
rank_names (FcPattern *pattern, const char *whole, const char *family)
{
  FcChar8 *value = NULL;
  int rank = -1;

  if (FcPatternGetString (pattern, FC_POSTSCRIPT_NAME, 0, &value) == FcResultMatch)
    {
      g_autofree char *folded = fold_name ((const char *) value);

      if (strcmp (folded, whole) == 0)
        return 0;
      if (strcmp (folded, family) == 0)
        rank = 2;
    }
  for (int i = 0; FcPatternGetString (pattern, FC_FULLNAME, i, &value) == FcResultMatch; i++)
    {
      g_autofree char *folded = fold_name ((const char *) value);

      if (strcmp (folded, whole) == 0)
        return 0;
    }
  for (int i = 0; FcPatternGetString (pattern, FC_FAMILY, i, &value) == FcResultMatch; i++)
    {
      g_autofree char *folded = fold_name ((const char *) value);

      if (!g_str_has_prefix (whole, folded))
        continue;
      if (strcmp (folded, family) == 0)
        rank = rank < 0 ? 2 : MIN (rank, 2);
      for (int j = 0; FcPatternGetString (pattern, FC_STYLE, j, &value) == FcResultMatch; j++)
        {
          g_autofree char *style = fold_name ((const char *) value);
          g_autofree char *both = g_strconcat (folded, style, NULL);

          if (strcmp (both, whole) == 0)
            rank = 1;
        }
    }
  return rank;
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return g_strcmp0 (x->file, y->file);
}

/* The installed outline fonts whose names are @base_font's, nearest first. */
static GArray *
find_candidates (const char *base_font)
{
  g_autofree char *name = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *family = NULL;
  const char *plus = strchr (base_font, '+');
  const char *comma;
  GArray *candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  FcFontSet *set;
  gboolean kept = FALSE;

  g_array_set_clear_func (candidates, candidate_clear);
  /* A subset's tag ("ABCDEF+") is not part of the name. */
  name = g_strdup (plus != NULL && plus - base_font == 6 ? plus + 1 : base_font);
  comma = strchr (name, ',');
  whole = fold_name (name);
  if (comma != NULL)
    {
      g_autofree char *part = g_strndup (name, (gsize) (comma - name));

      family = fold_name (part);
    }
  else
    family = g_strdup (whole);
  /* Kept between runs: fontconfig's start was a third of a one-file text (dc-font-list.c). */
  if (*whole == '\0' || (set = _dc_font_list_installed (&kept)) == NULL)
    return candidates;
  for (int i = 0; set != NULL && i < set->nfont; i++)
    {
      FcChar8 *file = NULL, *label = NULL;
      Candidate candidate = { NULL, 0, NULL, rank_names (set->fonts[i], whole, family) };

      if (candidate.rank < 0
          || FcPatternGetString (set->fonts[i], FC_FILE, 0, &file) != FcResultMatch)
        continue;
      FcPatternGetInteger (set->fonts[i], FC_INDEX, 0, &candidate.index);
      if (FcPatternGetString (set->fonts[i], FC_FULLNAME, 0, &label) != FcResultMatch)
        FcPatternGetString (set->fonts[i], FC_FAMILY, 0, &label);
      candidate.file = g_strdup ((const char *) file);
      candidate.label = g_strdup (label != NULL ? (const char *) label : (const char *) file);
      g_array_append_val (candidates, candidate);
    }
  if (!kept)
    FcFontSetDestroy (set);
  g_array_sort (candidates, compare_candidates);
  if (candidates->len > MAX_CANDIDATES)
    g_array_set_size (candidates, MAX_CANDIDATES);
  return candidates;
}

/**
 * _dc_font_measure_widths:
 * @symbols: symbol indexes
 *
 * The width, in thousandths of an em, that the PDF gives each of @symbols: a glyph's
 * advance over its size, from its first occurrence that has both; 0 when none.
 *
 * Returns: (array): one per symbol
 */
float *
_dc_font_measure_widths (DcDocument *document, GArray *symbols)
{
  g_autoptr (GHashTable) position = g_hash_table_new (NULL, NULL);
  float *widths = g_new0 (float, symbols->len);
  const DcGlyph *glyphs;
  guint n_glyphs, n_left = symbols->len;

  for (guint i = 0; i < symbols->len; i++)
    g_hash_table_insert (position, GUINT_TO_POINTER (g_array_index (symbols, guint, i)),
                         GUINT_TO_POINTER (i + 1));
  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  for (guint g = 0; g < n_glyphs && n_left > 0; g++)
    {
      guint i = GPOINTER_TO_UINT (
          g_hash_table_lookup (position, GUINT_TO_POINTER (glyphs[g].symbol)));
      float size = dc_glyph_get_size (&glyphs[g]);
      float advance = dc_glyph_get_advance (&glyphs[g]);

      if (i == 0 || widths[i - 1] > 0 || size <= 0 || advance <= 0
          || (glyphs[g].flags & DC_GLYPH_UPRIGHT) != 0)
        continue;
      widths[i - 1] = advance / size * 1000.0f;
      n_left--;
    }
  return widths;
}

static int
compare_floats (gconstpointer a, gconstpointer b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return (x > y) - (x < y);
}

/* Whether the advances of @face's glyphs are the widths the PDF gives them, up to one
 * factor for all (a horizontal scaling the producer applied). */
static gboolean
widths_agree (FT_Face face, DcFont *font, GArray *symbols, const DcSymbol *all, const float *widths)
{
  g_autoptr (GArray) ratios = g_array_new (FALSE, FALSE, sizeof (float));
  g_autofree float *advances = g_new0 (float, symbols->len);
  guint n_measured = 0, n_agreeing = 0;
  float factor;

  for (guint i = 0; i < symbols->len; i++)
    {
      int gid = dc_font_get_cid_glyph_index (font, all[g_array_index (symbols, guint, i)].code);
      FT_Fixed advance = 0;
      float ratio;

      if (widths[i] <= 0)
        continue;
      n_measured++;
      if (gid <= 0 || gid >= face->num_glyphs
          || FT_Get_Advance (face, (FT_UInt) gid, FT_LOAD_NO_SCALE, &advance) != 0 || advance <= 0)
        continue;
      advances[i] = (float) advance * 1000.0f / (float) face->units_per_EM;
      ratio = widths[i] / advances[i];
      g_array_append_val (ratios, ratio);
    }
  if (n_measured < MIN_MEASURED || ratios->len == 0)
    return FALSE;
  g_array_sort (ratios, compare_floats);
  factor = g_array_index (ratios, float, ratios->len / 2);
  if (factor < 0.5f || factor > 2.0f)
    return FALSE;
  for (guint i = 0; i < symbols->len; i++)
    if (advances[i] > 0
        && fabsf (widths[i] - factor * advances[i])
               <= WIDTH_TOLERANCE + WIDTH_TOLERANCE_SHARE * widths[i])
      n_agreeing++;
  g_debug ("%u of %u widths agree (factor %.3f)", n_agreeing, n_measured, (double) factor);
  return n_agreeing >= MIN_MEASURED && n_agreeing >= MIN_AGREEING * n_measured;
}

/* Whether @font is drawn by the glyph numbers of a TrueType font it does not embed: the
 * fonts this file reads through the installed font of their name. */
gboolean
_dc_font_is_drawn_by_installed_glyphs (DcFont *font)
{
  const char *encoding = dc_font_get_encoding (font);

  return dc_font_get_font_type (font) == DC_FONT_TYPE_CID_TYPE2 && !dc_font_is_embedded (font)
         && g_str_has_prefix (encoding != NULL ? encoding : "", "Identity");
}

/**
 * _dc_font_open_installed:
 * @font: a font drawn by glyph number (Identity, CIDFontType2) that is not embedded
 * @library: the FreeType library to open the font with
 * @document: @font's document, whose glyphs give the widths
 * @symbols: the indexes of @font's symbols to read
 * @description: (out): set to the name of the font opened
 *
 * Opens the installed font whose name is @font's and whose advances are the widths the
 * PDF gives @font's glyphs.
 *
 * Returns: (nullable): the font, for FT_Done_Face(), or %NULL when none is installed
 */
FT_Face
_dc_font_open_installed (DcFont *font, FT_Library library, DcDocument *document, GArray *symbols,
                         char **description)
{
  const DcSymbol *all = dc_document_get_symbols (document, NULL);
  g_autoptr (GArray) candidates = NULL;
  g_autofree float *widths = NULL;

  g_assert (description != NULL);
  *description = NULL;
  if (library == NULL || dc_font_get_name (font) == NULL
      || !_dc_font_is_drawn_by_installed_glyphs (font))
    return NULL;
  candidates = find_candidates (dc_font_get_name (font));
  if (candidates->len == 0)
    return NULL;
  widths = _dc_font_measure_widths (document, symbols);
  for (guint i = 0; i < candidates->len; i++)
    {
      const Candidate *candidate = &g_array_index (candidates, Candidate, i);
      FT_Face face;

      if (FT_New_Face (library, candidate->file, candidate->index, &face) != 0)
        continue;
      if (FT_IS_SFNT (face) && widths_agree (face, font, symbols, all, widths))
        {
          g_debug ("“%s” is the installed %s", dc_font_get_name (font), candidate->file);
          *description = g_strdup (candidate->label);
          return face;
        }
      g_debug ("“%s” is not the installed %s: its widths differ", dc_font_get_name (font),
               candidate->file);
      FT_Done_Face (face);
    }
  return NULL;
}

/**
 * _dc_font_open_metric_twin:
 * @font: a font that is not embedded
 * @description: (out): set to the name of the font opened
 *
 * Opens the installed font fontconfig draws @font's name with: the font itself, or one
 * made with its advances (Liberation Sans for Arial, Liberation Serif for Times New
 * Roman) but not its glyph numbers. Whether its advances are @font's is for the caller's
 * widths to say.
 *
 * Returns: (nullable): the font, for FT_Done_Face()
 */
FT_Face
_dc_font_open_metric_twin (DcFont *font, FT_Library library, char **description)
{
  const char *base_font = dc_font_get_name (font);
  const char *plus;
  g_autofree char *family = NULL;
  g_autofree char *file = NULL;
  g_autofree char *label = NULL;
  gboolean bold, italic;
  int index = 0;
  FT_Face face = NULL;
  char *comma;

  g_assert (description != NULL);
  *description = NULL;
  if (library == NULL || base_font == NULL || dc_font_is_embedded (font))
    return NULL;
  plus = strchr (base_font, '+');
  family = g_strdup (plus != NULL && plus - base_font == 6 ? plus + 1 : base_font);
  if ((comma = strpbrk (family, ",-")) != NULL)
    *comma = '\0';
  bold = comma != NULL && strstr (comma + 1, "Bold") != NULL;
  italic = comma != NULL && strstr (comma + 1, "Italic") != NULL;
  if (!_dc_font_twin_find (family, bold, italic, &file, &index, &label) || file == NULL)
    return NULL;
  if (FT_New_Face (library, file, index, &face) != 0)
    face = NULL;
  else if (!FT_IS_SFNT (face) || FT_Select_Charmap (face, FT_ENCODING_UNICODE) != 0)
    g_clear_pointer (&face, FT_Done_Face);
  else
    *description = g_steal_pointer (&label);
  return face;
}
