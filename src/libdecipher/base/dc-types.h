/* dc-types.h: the compact records a document is made of
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DC_GLYPH_INVISIBLE = 1 << 0,   /* render mode 3: an OCR layer, not ink */
  DC_GLYPH_ACTUAL_TEXT = 1 << 1, /* drawn inside an /ActualText span */
  DC_GLYPH_UPRIGHT = 1 << 2,     /* stands upright in a vertical column (a WMode 1 font, or
                                  * CJK glyphs stacked one below the other): its rotation is
                                  * its column's direction, not a turn of the glyph */
} DcGlyphFlags;

/* One drawn character code. A book has millions, so this stays small (28 bytes;
 * docs/architecture.md, "Memory"): everything per (font, code) lives in DcSymbol
 * instead, its font too (dc_glyph_get_font()). Coordinates are page points, top-left
 * origin of the displayed page.
 *
 * Only the origin is kept as floats. The size, the advance and the box's edges, each as
 * a distance from the origin, are whole numbers of a unit that is 1/256 pt for any glyph
 * whose box lies within 128 pt of its origin and whose size and advance are under 128 pt
 * (text of every common size), 1/16, 1 or 16 pt for larger ones (DC_GLYPH_UNIT). Of the
 * units nearest to what the PDF says, the loader takes the one that rounds to the same
 * hundredth of a point (what the exports print), so a value is at most 0.006 pt off at
 * 1/256 pt. Read them through dc_glyph_get_size(), dc_glyph_get_advance() and
 * dc_glyph_get_box(), never the fields. */
typedef struct
{
  float x, y;           /* origin on the baseline */
  guint32 symbol;       /* index into the document's symbols */
  guint32 page : 24;    /* 0-based; a document has fewer pages (DC_GLYPH_MAX_PAGES) */
  guint32 flags : 4;    /* DcGlyphFlags */
  guint32 rotation : 2; /* 0 left-to-right, 1 top-to-bottom, 2 upside down, 3 bottom-to-top */
  guint32 scale : 2;    /* the unit of the lengths below, DC_GLYPH_UNIT (scale) */
  gint16 size_units;    /* font size */
  gint16 advance_units; /* along the baseline; 0 for a mark drawn over its neighbour */
  gint16 box_units[4];  /* x0, y0, x1, y1 minus x, y, x, y */
} DcGlyph;

G_STATIC_ASSERT (sizeof (DcGlyph) == 28);

#define DC_GLYPH_MAX_PAGES (1u << 24)

/* The unit of a glyph's lengths at @scale (0–3): 1/256, 1/16, 1 or 16 pt. Looked up:
 * every length read from a glyph asks for it, a million glyphs many times over while a
 * book loads, and a shift, a conversion and a product cost three times a load. */
static const float dc_glyph_units[4] = { 1.0f / 256.0f, 1.0f / 16.0f, 1.0f, 16.0f };
#define DC_GLYPH_UNIT(scale) (dc_glyph_units[(guint) (scale) % 4])

/* A glyph's box in page points. */
typedef struct
{
  float x0, y0, x1, y1;
} DcGlyphBox;

static inline float
dc_glyph_get_size (const DcGlyph *glyph)
{
  return (float) glyph->size_units * DC_GLYPH_UNIT (glyph->scale);
}

static inline float
dc_glyph_get_advance (const DcGlyph *glyph)
{
  return (float) glyph->advance_units * DC_GLYPH_UNIT (glyph->scale);
}

static inline DcGlyphBox
dc_glyph_get_box (const DcGlyph *glyph)
{
  float unit = DC_GLYPH_UNIT (glyph->scale);
  DcGlyphBox box;

  box.x0 = glyph->x + (float) glyph->box_units[0] * unit;
  box.y0 = glyph->y + (float) glyph->box_units[1] * unit;
  box.x1 = glyph->x + (float) glyph->box_units[2] * unit;
  box.y1 = glyph->y + (float) glyph->box_units[3] * unit;
  return box;
}

/* No symbol: nothing selected, or, from DcKey::changed and DcSession::changed, several
 * symbols changed at once. Never a valid index (a document has fewer symbols). */
#define DC_SYMBOL_NONE G_MAXUINT

typedef enum
{
  DC_SYMBOL_PDF_SPACE = 1 << 0, /* the PDF maps it to white space or names it "space" */
  /* Its pdf_text is not a ToUnicode's but what the font says: its glyph name through the
   * AGL or its own tables (DESIGN §7: the font level, 0.9, not the PDF's 1.0). */
  DC_SYMBOL_FROM_FONT = 1 << 1,
} DcSymbolFlags;

/* A distinct (font, code): the unit the code → character table is about. */
typedef struct
{
  char *pdf_text;         /* the PDF's own Unicode for it (UTF-8), "" when it has none */
  const char *glyph_name; /* from the font's encoding or program, may be NULL */
  guint32 code;
  guint32 n_glyphs; /* occurrences in the document */
  guint16 font;
  guint8 code_len; /* bytes, 1–4 */
  guint8 flags;    /* DcSymbolFlags */
} DcSymbol;

/* The font a glyph is drawn in: its symbol's. @symbols is dc_document_get_symbols(). */
static inline guint
dc_glyph_get_font (const DcGlyph *glyph, const DcSymbol *symbols)
{
  return symbols[glyph->symbol].font;
}

/* A visual line in reading order. Its glyphs are the range
 * [first_glyph, first_glyph + n_glyphs) of the document's reading order, spaces
 * included; its tokens the range [first_token, first_token + n_tokens). */
typedef struct
{
  float x0, y0, x1, y1;
  guint32 page;
  guint32 index; /* 0-based reading order on the page */
  guint32 first_glyph;
  guint32 n_glyphs;
  guint32 first_token;
  guint32 n_tokens;
  guint8 rotation;
} DcLine;

/* A block of the page (a paragraph, heading, footnote, figure text, IGT example): a leaf
 * of the page's XY-cut. Its lines are the range [first_line, first_line + n_lines) of the
 * document's lines, in reading order. */
typedef struct
{
  float x0, y0, x1, y1;
  guint32 page;
  guint32 index; /* 0-based reading order on the page */
  guint32 first_line;
  guint32 n_lines;
  char *label;   /* the path to it in the cut tree: t/b above/below a horizontal cut,
                  * l/r left/right of a vertical one; "" for a page not cut at all */
  guint32 table; /* a table, read row by row: each line is a row */
} DcBlock;

/* A run of glyphs between spaces or gaps: the range [first_glyph, first_glyph + n_glyphs)
 * of the reading order, never containing a space glyph. */
typedef struct
{
  guint32 line;
  guint32 first_glyph;
  guint32 n_glyphs;
} DcToken;

G_END_DECLS
