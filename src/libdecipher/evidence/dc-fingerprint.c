/* dc-fingerprint.c: glyph shapes from font programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The outline is read with FT_LOAD_NO_SCALE: in font units, before any hinting or
 * scaling, exactly as the program stores it (FreeType's move of a TrueType glyph to where
 * its header says it starts taken back: glyph_shift()). Dividing by the em makes fonts of
 * different units comparable; rounding to a thousandth of the em keeps the fingerprint of the same
 * outline stable while telling any two designs apart. The glyph's position in the font
 * (its index), its code and its name play no part: a subset renumbers glyphs, a PDF
 * re-encodes them, and neither changes what is drawn.
 */

#define G_LOG_DOMAIN "dc-fingerprint"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H

#include "dc-agl-private.h"
#include "dc-error.h"
#include "dc-fingerprint-private.h"
#include "dc-ink-private.h"
#include "dc-sha256-private.h"

/* The coarse descriptor's frame, in ems around the glyph origin: wide enough for most
 * letters with their accents and descenders, and the same for every glyph so that
 * position counts (a comma is not an apostrophe). */
#define FRAME_LEFT (-0.1)
#define FRAME_BOTTOM (-0.35)
#define FRAME_SIZE 1.4
#define RASTER 64 /* pixels across the frame, averaged down to DC_SHAPE_GRID */

/* Appends @value's four bytes, least significant first, at @out; returns the end. */
static guint8 *
put_int (guint8 *out, gint32 value)
{
  out[0] = value & 0xff;
  out[1] = (value >> 8) & 0xff;
  out[2] = (value >> 16) & 0xff;
  out[3] = (value >> 24) & 0xff;
  return out + 4;
}

/* lround (@value), cast as the fingerprint casts it, without the call into libm: two a
 * point of every outline fingerprinted. For |@value| < 2^52, where every double with a
 * fraction lies (an outline's coordinates in thousandths of an em always do), the
 * fraction @value - trunc (@value) is exact, so halves go away from zero as in lround();
 * beyond, lround() itself. */
static inline gint32
round_coordinate (double value)
{
  double whole, fraction;

  if (!(fabs (value) < 4503599627370496.0))
    return (gint32) lround (value);
  whole = (double) (gint64) value;
  fraction = value - whole;
  if (fraction >= 0.5)
    whole += 1;
  else if (fraction <= -0.5)
    whole -= 1;
  return (gint32) (gint64) whole;
}

static void
fill_coarse (FT_Library library, const FT_Outline *outline, double units_per_em, DcShape *shape)
{
  guint8 pixels[RASTER * RASTER] = { 0 };
  FT_Outline copy;
  FT_Bitmap bitmap = { 0 };
  FT_Matrix matrix;
  double scale = RASTER / (FRAME_SIZE * units_per_em) * 64.0; /* to 26.6 pixels */

  if (FT_Outline_New (library, outline->n_points, outline->n_contours, &copy) != 0)
    return;
  FT_Outline_Copy (outline, &copy);
  matrix.xx = (FT_Fixed) lround (scale * 65536.0);
  matrix.yy = matrix.xx;
  matrix.xy = matrix.yx = 0;
  FT_Outline_Transform (&copy, &matrix);
  FT_Outline_Translate (&copy, (FT_Pos) lround (-FRAME_LEFT * RASTER / FRAME_SIZE * 64.0),
                        (FT_Pos) lround (-FRAME_BOTTOM * RASTER / FRAME_SIZE * 64.0));

  bitmap.rows = RASTER;
  bitmap.width = RASTER;
  bitmap.pitch = RASTER;
  bitmap.buffer = pixels;
  bitmap.num_grays = 256;
  bitmap.pixel_mode = FT_PIXEL_MODE_GRAY;
  FT_Outline_Get_Bitmap (library, &copy, &bitmap);
  FT_Outline_Done (library, &copy);

  {
    const guint block = RASTER / DC_SHAPE_GRID;
    guint sig_ink[8 * 8] = { 0 };

    for (guint row = 0; row < DC_SHAPE_GRID; row++)
      for (guint col = 0; col < DC_SHAPE_GRID; col++)
        {
          guint sum = 0;

          for (guint y = 0; y < block; y++)
            for (guint x = 0; x < block; x++)
              sum += pixels[(row * block + y) * RASTER + col * block + x];
          shape->coarse[row * DC_SHAPE_GRID + col] = (guint8) (sum / (block * block));
          sig_ink[(row / 2) * 8 + col / 2] += sum / (block * block);
        }
    shape->signature = 0;
    for (guint i = 0; i < 64; i++)
      if (sig_ink[i] / 4 >= 48)
        shape->signature |= G_GUINT64_CONSTANT (1) << i;
  }
}

/* The outline of glyph @gid of @face, in font units, or NULL when it draws nothing (a
 * space, .notdef left empty) or is not an outline. */
static const FT_Outline *
load_outline (FT_Face face, guint gid)
{
  const FT_Outline *outline;

  if (gid == 0 || gid >= (guint) face->num_glyphs)
    return NULL;
  if (FT_Load_Glyph (face, gid,
                     FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP
                         | FT_LOAD_IGNORE_TRANSFORM)
      != 0)
    return NULL;
  if (face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
    return NULL;
  outline = &face->glyph->outline;
  if (outline->n_points <= 0 || outline->n_contours <= 0)
    return NULL;
  return outline;
}

/* Reads the big-endian 16-bit number at @offset of @face's table @tag into @value. */
static gboolean
read_u16 (FT_Face face, FT_ULong tag, FT_Long offset, guint16 *value)
{
  FT_Byte bytes[2];
  FT_ULong length = 2;

  if (FT_Load_Sfnt_Table (face, tag, offset, bytes, &length) != 0 || length != 2)
    return FALSE;
  *value = (guint16) ((bytes[0] << 8) | bytes[1]);
  return TRUE;
}

/* How far FreeType moved glyph @gid of a TrueType @face to the left: it puts the xMin its
 * 'glyf' header states at the left side bearing 'hmtx' states, whatever the points say.
 * A subsetter that works the headers out again from the points (fontTools) leaves the
 * bearing as it was, and where the font's header was off (a third of DejaVu Sans
 * Condensed's glyphs are a unit off), the same points are drawn a unit apart. A composite
 * glyph is taken back by its own header and bearing too: left as FreeType draws it, while
 * the simple glyphs were not, DejaVu Sans Condensed's Cyrillic Т matched Latin T. 0 for
 * any other font, or when a table cannot be read. */
static int
glyph_shift (FT_Face face, guint gid)
{
  const TT_Header *head;
  const TT_HoriHeader *hhea;
  guint16 n_metrics, x_min, lsb, hi = 0, lo = 0;
  FT_Long glyph_offset;

  if (!FT_IS_SFNT (face) || (head = FT_Get_Sfnt_Table (face, FT_SFNT_HEAD)) == NULL
      || (hhea = FT_Get_Sfnt_Table (face, FT_SFNT_HHEA)) == NULL)
    return 0;
  if (head->Index_To_Loc_Format == 0)
    {
      if (!read_u16 (face, TTAG_loca, 2 * (FT_Long) gid, &lo))
        return 0;
      glyph_offset = 2 * (FT_Long) lo;
    }
  else
    {
      if (!read_u16 (face, TTAG_loca, 4 * (FT_Long) gid, &hi)
          || !read_u16 (face, TTAG_loca, 4 * (FT_Long) gid + 2, &lo))
        return 0;
      glyph_offset = ((FT_Long) hi << 16) | lo;
    }
  n_metrics = hhea->number_Of_HMetrics;
  if (n_metrics == 0 || !read_u16 (face, TTAG_glyf, glyph_offset + 2, &x_min)
      || !read_u16 (face, TTAG_hmtx,
                    gid < n_metrics ? 4 * (FT_Long) gid + 2
                                    : 4 * (FT_Long) n_metrics + 2 * (FT_Long) (gid - n_metrics),
                    &lsb))
    return 0;
  return (gint16) x_min - (gint16) lsb;
}

/* The fingerprint of @outline moved right by @shift font units, into @fingerprint. */
static void
hash_outline (const FT_Outline *outline, int shift, double units_per_em, guint8 *fingerprint)
{
  /* The outline's numbers written out, then hashed at once: a call to
   * g_checksum_update() for each cost as much as hashing them. */
  g_autofree guint8 *bytes = g_new (guint8, 4 + 4 * (gsize) outline->n_contours
                                                + 9 * (gsize) outline->n_points);
  guint8 *end = put_int (bytes, outline->n_contours);
  guint8 digest[DC_SHA256_LEN];

  for (int c = 0; c < outline->n_contours; c++)
    end = put_int (end, outline->contours[c]);
  for (int p = 0; p < outline->n_points; p++)
    {
      *end++ = FT_CURVE_TAG (outline->tags[p]);
      end = put_int (end,
                     round_coordinate ((outline->points[p].x + shift) * 1000.0 / units_per_em));
      end = put_int (end, round_coordinate (outline->points[p].y * 1000.0 / units_per_em));
    }
  _dc_sha256_of (bytes, end - bytes, digest);
  memcpy (fingerprint, digest, DC_SHAPE_FINGERPRINT_LEN);
}

static double
units_per_em_of (FT_Face face)
{
  return face->units_per_EM > 0 ? face->units_per_EM : 1000;
}

/* The shape of glyph @gid of @face, or FALSE when it has no outline (load_outline()).
 * Without @with_coarse only its fingerprint is made: the coarse grid (rasterising the
 * outline, two thirds of the cost) is left empty for dc_shapes_get() to fill. */
gboolean
_dc_shape_from_face (FT_Library library, FT_Face face, guint gid, DcShape *shape,
                     gboolean with_coarse)
{
  const FT_Outline *outline;
  double units_per_em;
  int shift;

  if ((outline = load_outline (face, gid)) == NULL)
    return FALSE;

  units_per_em = units_per_em_of (face);
  shift = glyph_shift (face, gid);
  memset (shape, 0, sizeof *shape);
  hash_outline (outline, shift, units_per_em, shape->fingerprint);
  if (shift != 0)
    {
      shape->moved = TRUE;
      hash_outline (outline, 0, units_per_em, shape->drawn_fingerprint);
    }

  shape->no_ink = FALSE;
  if (with_coarse)
    fill_coarse (library, outline, units_per_em, shape);
  return TRUE;
}

guint
_dc_shape_fingerprint_hash (gconstpointer fingerprint)
{
  guint hash;

  memcpy (&hash, fingerprint, sizeof hash);
  return hash;
}

gboolean
_dc_shape_fingerprint_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, DC_SHAPE_FINGERPRINT_LEN) == 0;
}

char *
dc_shape_fingerprint_to_string (const DcShape *shape)
{
  GString *out;

  g_return_val_if_fail (shape != NULL, NULL);

  out = g_string_sized_new (2 * DC_SHAPE_FINGERPRINT_LEN);
  for (guint i = 0; i < DC_SHAPE_FINGERPRINT_LEN; i++)
    g_string_append_printf (out, "%02x", shape->fingerprint[i]);
  return g_string_free (out, FALSE);
}

/**
 * dc_shape_distance:
 *
 * How different two coarse descriptors are: the ink they do not share over the ink they
 * have, from 0 (the same) to 1 (nothing in common).
 */
double
dc_shape_distance (const DcShape *a, const DcShape *b)
{
  guint64 diff = 0, ink = 0;

  g_return_val_if_fail (a != NULL && b != NULL, 1.0);

  if (a->no_ink || b->no_ink)
    return 1.0;
  for (guint i = 0; i < DC_SHAPE_COARSE_LEN; i++)
    {
      diff += ABS ((int) a->coarse[i] - (int) b->coarse[i]);
      ink += a->coarse[i] + b->coarse[i];
    }
  return ink == 0 ? 0.0 : (double) diff / (double) ink;
}

guint
dc_shape_signature_distance (guint64 a, guint64 b)
{
  return (guint) __builtin_popcountll (a ^ b);
}

/* ---- the shapes of a document's symbols ------------------------------------------ */

typedef struct
{
  FT_Face face;
  gboolean tried;
} FontFace;

struct _DcShapes
{
  DcDocument *document;
  DcShape **shapes; /* per symbol, NULL when it has no outline */
  guint n_symbols;
  /* Whether the coarse grids are filled (g_once): only the fingerprints are made at
   * first, which is all the installed fonts and the libraries look shapes up by. */
  gsize coarse_filled;
};

/* The glyph of @font's program that @code draws. */
static guint
glyph_index (DcFont *font, FT_Face face, guint32 code)
{
  int gid = dc_font_get_glyph_index (font, code);
  const char *name;

  if (gid >= 0)
    return (guint) gid;
  if (dc_font_is_cid (font))
    return 0;
  /* Type 1 and CFF simple fonts draw by name, through the encoding. */
  name = dc_font_get_glyph_name (font, code);
  if (name != NULL && FT_HAS_GLYPH_NAMES (face))
    {
      gid = (int) FT_Get_Name_Index (face, (FT_String *) name);
      if (gid > 0)
        return (guint) gid;
    }
  /* Else the program's own encoding (a CFF's built-in one, a symbolic cmap). */
  if (face->charmap != NULL)
    return FT_Get_Char_Index (face, code);
  return 0;
}

/* A Type 3 glyph's shape: its procedure's digest, kept apart from outline fingerprints
 * by a prefix, and no ink grid (its procedure is not rasterised here). */
static gboolean
shape_from_type3 (DcFont *font, guint32 code, DcShape *shape)
{
  static const char prefix[] = "Type 3 glyph procedure";
  const guint8 *digest = dc_font_get_type3_digest (font, code);
  g_autoptr (GChecksum) checksum = NULL;
  guint8 sum[32];
  gsize sum_len = sizeof sum;

  if (digest == NULL)
    return FALSE;
  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, (const guchar *) prefix, sizeof prefix);
  g_checksum_update (checksum, digest, DC_FONT_TYPE3_DIGEST_LEN);
  g_checksum_get_digest (checksum, sum, &sum_len);
  memset (shape, 0, sizeof *shape);
  memcpy (shape->fingerprint, sum, DC_SHAPE_FINGERPRINT_LEN);
  shape->no_ink = TRUE;
  return TRUE;
}

/* The shapes of the symbols that need decoding, or (@trusted) of those that do not. */
static DcShapes *
shapes_new (DcDocument *document, gboolean trusted)
{
  DcShapes *self;
  const DcSymbol *symbols;
  guint n_fonts;
  FontFace *faces;
  FT_Library library;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  self = g_new0 (DcShapes, 1);
  self->document = g_object_ref (document);
  symbols = dc_document_get_symbols (document, &self->n_symbols);
  self->shapes = g_new0 (DcShape *, self->n_symbols);
  if (FT_Init_FreeType (&library) != 0)
    return self;

  n_fonts = dc_document_get_n_fonts (document);
  faces = g_new0 (FontFace, n_fonts);
  for (guint s = 0; s < self->n_symbols; s++)
    {
      const DcSymbol *symbol = &symbols[s];
      DcFont *font;
      FontFace *ff;
      DcShape shape;
      guint gid;

      if (dc_document_symbol_needs_decoding (document, s) == trusted || symbol->font >= n_fonts)
        continue;
      font = dc_document_get_font (document, symbol->font);
      if (dc_font_get_font_type (font) == DC_FONT_TYPE_TYPE3)
        {
          if (shape_from_type3 (font, symbol->code, &shape))
            self->shapes[s] = g_memdup2 (&shape, sizeof shape);
          continue;
        }
      ff = &faces[symbol->font];
      if (!ff->tried)
        {
          ff->tried = TRUE;
          ff->face = _dc_font_open_face (font, library);
        }
      if (ff->face == NULL)
        continue;
      gid = glyph_index (font, ff->face, symbol->code);
      if (_dc_shape_from_face (library, ff->face, gid, &shape, FALSE))
        self->shapes[s] = g_memdup2 (&shape, sizeof shape);
    }

  for (guint f = 0; f < n_fonts; f++)
    if (faces[f].face != NULL)
      FT_Done_Face (faces[f].face);
  g_free (faces);
  FT_Done_FreeType (library);
  return self;
}

/**
 * dc_shapes_new:
 *
 * The shape of every symbol of @document that needs decoding and is drawn from an
 * embedded outline font, or from a Type 3 glyph procedure (known by its procedure's
 * digest, without ink: see DcShape).
 */
DcShapes *
dc_shapes_new (DcDocument *document)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  return shapes_new (document, FALSE);
}

/**
 * dc_shapes_new_trusted:
 *
 * Like dc_shapes_new(), for the other symbols: those the PDF's own text decodes, whose
 * outlines dc_references_verify() checks that text against.
 */
DcShapes *
dc_shapes_new_trusted (DcDocument *document)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  return shapes_new (document, TRUE);
}

void
dc_shapes_free (DcShapes *self)
{
  if (self == NULL)
    return;
  for (guint s = 0; s < self->n_symbols; s++)
    g_free (self->shapes[s]);
  g_free (self->shapes);
  g_object_unref (self->document);
  g_free (self);
}

DcDocument *
dc_shapes_get_document (DcShapes *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->document;
}

/* The coarse grid of every outline shape, from the same glyphs shapes_new() hashed. */
static void
fill_coarse_grids (DcShapes *self)
{
  const DcSymbol *symbols = dc_document_get_symbols (self->document, NULL);
  guint n_fonts = dc_document_get_n_fonts (self->document);
  g_autofree FontFace *faces = NULL;
  FT_Library library;

  if (FT_Init_FreeType (&library) != 0)
    return;
  faces = g_new0 (FontFace, n_fonts);
  for (guint s = 0; s < self->n_symbols; s++)
    {
      DcShape *shape = self->shapes[s];
      const FT_Outline *outline;
      DcFont *font;
      FontFace *ff;

      if (shape == NULL || shape->no_ink || symbols[s].font >= n_fonts)
        continue;
      font = dc_document_get_font (self->document, symbols[s].font);
      ff = &faces[symbols[s].font];
      if (!ff->tried)
        {
          ff->tried = TRUE;
          ff->face = _dc_font_open_face (font, library);
        }
      if (ff->face != NULL
          && (outline = load_outline (ff->face, glyph_index (font, ff->face, symbols[s].code)))
                 != NULL)
        fill_coarse (library, outline, units_per_em_of (ff->face), shape);
    }
  for (guint f = 0; f < n_fonts; f++)
    if (faces[f].face != NULL)
      FT_Done_Face (faces[f].face);
  FT_Done_FreeType (library);
}

/* The shape of @symbol, or NULL when it has none (trusted font, Type 3, no program,
 * no ink). The first call fills every shape's coarse grid; it may come from any thread. */
const DcShape *
dc_shapes_get (DcShapes *self, guint symbol)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (g_once_init_enter (&self->coarse_filled))
    {
      fill_coarse_grids (self);
      g_once_init_leave (&self->coarse_filled, 1);
    }
  return symbol < self->n_symbols ? self->shapes[symbol] : NULL;
}

/**
 * dc_shapes_get_identity:
 *
 * dc_shapes_get() for a caller that looks the shape up by its fingerprint only (the
 * installed fonts, the libraries): its coarse grid and signature may not be filled yet,
 * and are not filled for it. Opening a document with many fonts rasterised thousands of
 * outlines for grids that only learning and recognising read.
 *
 * Returns: (nullable): the shape, its fingerprint and no_ink set
 */
const DcShape *
dc_shapes_get_identity (DcShapes *self, guint symbol)
{
  g_return_val_if_fail (self != NULL, NULL);

  return symbol < self->n_symbols ? self->shapes[symbol] : NULL;
}

/* Whether @face can say which characters share the outline it maps @c to. Mongolian
 * letters take their forms by position with no code point for any form, and one letter's
 * nominal glyph is often another's form: in Noto Sans Mongolian the nominal ᠤ is the
 * initial form of ᠣ and ᠤ alike, ᠦ that of ᠥ and ᠦ, ᠲ that of ᠲ and ᠳ. Only the glyph
 * names tell the forms (u1823.ini); a face without them would vouch for the nominal
 * letter alone, and a new user's UDHR page had each initial ᠣ applied as ᠤ. */
static gboolean
tells_forms (FT_Face face, FT_ULong c)
{
  return FT_HAS_GLYPH_NAMES (face)
         || g_unichar_get_script ((gunichar) c) != G_UNICODE_SCRIPT_MONGOLIAN;
}

/* Whether glyph @name states its characters' code points (uni1820, u1820, u1820.ini,
 * uni17D21780, u182C_u1821) rather than words: a script's designer names glyphs as they
 * like ("i" for the Javanese vowel sign ꦶ, "ae" for ꦼ), which the Adobe Glyph List reads
 * as Latin i and æ. */
gboolean
_dc_glyph_name_states_code_points (const char *name)
{
  const char *p = name;

  do
    {
      gsize digits = 0;

      if (g_str_has_prefix (p, "uni"))
        {
          p += 3;
          while (g_ascii_isxdigit (p[digits]))
            digits++;
          if (digits == 0 || digits % 4 != 0)
            return FALSE;
        }
      else if (p[0] == 'u')
        {
          p += 1;
          while (g_ascii_isxdigit (p[digits]))
            digits++;
          if (digits < 4 || digits > 6)
            return FALSE;
        }
      else
        return FALSE;
      p += digits;
    }
  while (*p == '_' && *++p != '\0');
  return *p == '\0' || *p == '.';
}

/* The text a name-reached glyph gives: a cluster's worth of printable characters (a
 * letter's form, a consonant's subscript ្ក, a mark's variant), not a word. */
#define MAX_NAMED_CHARS 4

gboolean
_dc_is_glyph_text (const char *text)
{
  glong n = g_utf8_strlen (text, -1);

  if (n < 1 || n > MAX_NAMED_CHARS || strlen (text) >= DC_SHAPE_TEXT_MAX)
    return FALSE;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isgraph (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* Calls @func with the shape of each glyph of @face that no cmap entry reaches (@in_cmap:
 * a bit per glyph) but whose name states its characters
 * (_dc_glyph_name_states_code_points()): the forms a script's shaping picks, which no
 * character maps to. Noto Sans Mongolian draws a letter's initial, medial and final forms
 * as u1820.ini, u1820.med, u1820.fin, Noto Sans Khmer a subscript consonant as
 * uni17D21780, and PDFs of those scripts draw them. */
static void
scan_named_glyphs (FT_Library library, FT_Face face, const guint8 *in_cmap, DcShapeTextFunc func,
                   gpointer user_data)
{
  if (!FT_HAS_GLYPH_NAMES (face))
    return;
  for (FT_UInt gid = 1; gid < (FT_UInt) face->num_glyphs; gid++)
    {
      g_autofree char *text = NULL;
      g_autofree char *composed = NULL;
      char name[64];
      DcShape shape;

      /* Composed, as the cmap's characters are: uni04380306 is й, one reading with the
       * cmap's U+0439, not a second that would make the outline shared. */
      if ((in_cmap[gid / 8] & (1u << (gid % 8))) != 0
          || FT_Get_Glyph_Name (face, gid, name, sizeof name) != 0
          || !_dc_glyph_name_states_code_points (name)
          || (text = _dc_agl_name_to_text (name)) == NULL
          || (composed = g_utf8_normalize (text, -1, G_NORMALIZE_NFC)) == NULL
          || !_dc_is_glyph_text (composed))
        continue;
      if (_dc_shape_from_face (library, face, gid, &shape, FALSE))
        func (composed, &shape, user_data);
    }
}

/* Calls @func with the shape of each of @chars (or of every printable character when
 * %NULL) that @path's Unicode cmap maps; with its coarse grid only if @with_coarse. With
 * all of them, also @named (if not %NULL) with the glyphs only their names reach. */
static gboolean
scan_font (const char *path, int face_index, const gunichar *chars, guint n_chars,
           gboolean with_coarse, DcShapeFunc func, DcShapeTextFunc named, gpointer user_data,
           GError **error)
{
  FT_Library library;
  FT_Face face;
  FT_ULong c;
  FT_UInt gid;

  g_assert (path != NULL && func != NULL);

  if (FT_Init_FreeType (&library) != 0)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_FAILED,
                           _("The font engine could not be started."));
      return FALSE;
    }
  if (FT_New_Face (library, path, face_index, &face) != 0)
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is not a font that can be read."), display);
      FT_Done_FreeType (library);
      return FALSE;
    }
  if (FT_Select_Charmap (face, FT_ENCODING_UNICODE) != 0)
    ; /* no Unicode cmap: nothing to tell */
  else if (chars != NULL)
    for (guint i = 0; i < n_chars; i++)
      {
        DcShape shape;

        gid = FT_Get_Char_Index (face, chars[i]);
        if (gid != 0 && _dc_shape_from_face (library, face, gid, &shape, with_coarse))
          func (chars[i], &shape, user_data);
      }
  else
    {
      g_autofree guint8 *in_cmap = g_new0 (guint8, face->num_glyphs / 8 + 1);
      /* The cmap's outlines, for the shaped scan, which leaves them to the cmap. */
      g_autoptr (GHashTable) cmap_outlines = NULL;

      if (named != NULL && _dc_fingerprint_shapes (face))
        cmap_outlines = g_hash_table_new_full (_dc_shape_fingerprint_hash,
                                               _dc_shape_fingerprint_equal, g_free, NULL);
      for (c = FT_Get_First_Char (face, &gid); gid != 0; c = FT_Get_Next_Char (face, c, &gid))
        {
          DcShape shape;

          if (gid < (FT_UInt) face->num_glyphs)
            in_cmap[gid / 8] |= 1u << (gid % 8);
          if (c > 0x10ffff || !g_unichar_isgraph ((gunichar) c) || !tells_forms (face, c))
            continue;
          if (!_dc_shape_from_face (library, face, gid, &shape, with_coarse))
            continue;
          func ((gunichar) c, &shape, user_data);
          if (cmap_outlines != NULL)
            g_hash_table_add (cmap_outlines,
                              g_memdup2 (shape.fingerprint, DC_SHAPE_FINGERPRINT_LEN));
        }
      if (named != NULL)
        scan_named_glyphs (library, face, in_cmap, named, user_data);
      if (cmap_outlines != NULL)
        _dc_fingerprint_scan_shaped (library, face, path, face_index, in_cmap, cmap_outlines, named,
                                     user_data);
    }
  FT_Done_Face (face);
  FT_Done_FreeType (library);
  return TRUE;
}

/* dc_shapes_scan_font_fingerprints()'s callback, called with a character or a name's text. */
typedef struct
{
  DcShapeTextFunc func;
  gpointer user_data;
} TextCall;

static void
call_with_text (gunichar unicode, const DcShape *shape, gpointer data)
{
  const TextCall *call = data;
  char text[8];

  text[g_unichar_to_utf8 (unicode, text)] = '\0';
  call->func (text, shape, call->user_data);
}

static void
call_named (const char *text, const DcShape *shape, gpointer data)
{
  const TextCall *call = data;

  call->func (text, shape, call->user_data);
}

/**
 * dc_shapes_scan_font_fingerprints:
 * @path: a font file FreeType reads
 * @face_index: the face in a collection, 0 otherwise
 *
 * Calls @func with the fingerprint of every glyph @path's Unicode cmap maps a printable
 * character to, of every other glyph whose name states its characters (a positional
 * form, a subscript), and of every glyph a Brahmic script's shaping alone reaches (a
 * conjunct, a half form: dc-fingerprint-shaped.c), with that text, once for each text a
 * glyph stands for: the shape's coarse grid and signature are left empty. Drawing them
 * was two thirds of reading a font, and the index of the installed fonts keeps only the
 * fingerprints. Safe to call on several threads at once.
 */
gboolean
dc_shapes_scan_font_fingerprints (const char *path, int face_index, DcShapeTextFunc func,
                                  gpointer user_data, GError **error)
{
  TextCall call = { func, user_data };

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  return scan_font (path, face_index, NULL, 0, FALSE, call_with_text, call_named, &call, error);
}

/**
 * dc_shapes_scan_font_chars:
 * @chars: (nullable): the characters wanted, or %NULL for all
 *
 * Calls @func with the shape of each of @chars that @path's Unicode cmap maps.
 */
gboolean
dc_shapes_scan_font_chars (const char *path, int face_index, const gunichar *chars, guint n_chars,
                           DcShapeFunc func, gpointer user_data, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (chars != NULL || n_chars == 0, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  return scan_font (path, face_index, chars, n_chars, TRUE, func, NULL, user_data, error);
}
