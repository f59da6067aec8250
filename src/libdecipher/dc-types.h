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

/* One drawn character code. A book has millions, so this stays small (44 bytes):
 * everything per (font, code) lives in DcSymbol instead. Coordinates are page points,
 * top-left origin of the displayed page. */
typedef struct
{
  float x, y;           /* origin on the baseline */
  float x0, y0, x1, y1; /* box */
  float advance;        /* along the baseline; 0 for a mark drawn over its neighbour */
  float size;           /* font size in points */
  guint32 symbol;       /* index into the document's symbols */
  guint32 page;         /* 0-based */
  guint16 font;         /* index into the document's fonts */
  guint8 flags;         /* DcGlyphFlags */
  guint8 rotation;      /* 0 left-to-right, 1 top-to-bottom, 2 upside down, 3 bottom-to-top */
} DcGlyph;

/* No symbol: nothing selected, or, from DcKey::changed and DcSession::changed, several
 * symbols changed at once. Never a valid index (a document has fewer symbols). */
#define DC_SYMBOL_NONE G_MAXUINT

typedef enum
{
  DC_SYMBOL_PDF_SPACE = 1 << 0, /* the PDF maps it to white space or names it "space" */
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
  char *label; /* the path to it in the cut tree: t/b above/below a horizontal cut,
                * l/r left/right of a vertical one; "" for a page not cut at all */
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
