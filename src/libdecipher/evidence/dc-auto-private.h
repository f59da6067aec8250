/* dc-auto-private.h: what the steps of the automatic pass share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pass (dc-auto.c), the font's statistics (dc-auto-stats.c), the space
 * (dc-auto-space.c) and the full stop (dc-auto-full-stop.c): their tuning constants in one
 * table, the state of the pass and of one font's look, and the helpers they call.
 */

#pragma once

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include "dc-auto.h"

G_BEGIN_DECLS

/* As in dc-layout.c: where no space glyph is drawn, a gap this wide (in ems) parts words. */
#define MIN_WORD_GAP 0.15

/* The space. */
#define MIN_SPACE_LINES 3        /* fewer lines tell nothing */
#define MIN_SPACE_COVERAGE 0.5   /* running text has a space on most lines */
#define MAX_EDGE_SHARE 0.05      /* of its lines it may begin or end, for odd layouts */
#define TRAILING_SPACE_SHARE 0.8 /* …or it ends nearly all: a producer's trailing spaces */
#define MIN_MEAN_WORD 3.0        /* glyphs per word, punctuation included */
#define MAX_MEAN_WORD 12.0
#define TYPICAL_MEAN_WORD 5.5
#define MIN_GAP_SHARE 0.5        /* of the word gaps a space must be beside, if gaps abound */
#define MAX_CONTEXT_CANDIDATES 6 /* the costlier neighbour statistics only for the best */
#define TYPICAL_SPACE_SHARE 0.15 /* of all glyphs */
#define STATISTICS_MARGIN 0.3    /* lead needed when neither ink nor the PDF speaks */
/* A glyph without ink as wide as a word space (in ems: thin to monospace) is the space
 * whatever the line ends say, as long as cutting at it still leaves words. */
#define INKLESS_MIN_ADVANCE 0.15
#define INKLESS_MAX_ADVANCE 0.7
#define INKLESS_MIN_MEAN_WORD 1.5
/* …and the line statistics it outweighed only break ties between such blank glyphs. */
#define OVERRULED_PENALTY 0.25

/* A font whose glyphs are as wide as they are tall sets CJK text: its full stop is 。 and
 * its word breaks are no spaces; no Latin guess is made there. */
#define CJK_MIN_ADVANCE 0.9

/* The full stop's ink: a small mark on the baseline, in ems. */
#define FULL_STOP_MAX_WIDTH 0.4
#define FULL_STOP_MAX_HEIGHT 0.3
#define FULL_STOP_MIN_BOTTOM -0.15
#define FULL_STOP_MAX_TOP 0.35

/* The full stop. */
#define EARLY_END_MIN 0.2
#define EARLY_END_MAX 0.8
#define MIN_FULL_STOP_LINES 2
#define FULL_STOP_LEAD 2.0         /* times the runner-up's count */
#define MIN_WORD_FINAL_SHARE 0.8   /* it ends the word wherever it occurs… */
#define MAX_WORD_INITIAL_SHARE 0.5 /* …and is rarely a word by itself */

typedef enum
{
  INK_UNCHECKED,
  INK_UNKNOWN,
  INK_NONE,
  INK_SOME,
} Ink;

typedef enum
{
  REJECT_NONE,
  REJECT_INK,
  REJECT_BEGINS,
  REJECT_ENDS,
  REJECT_WORDS,
  REJECT_GAPS,
} Rejection;

typedef struct
{
  guint n_lines;       /* lines it is on */
  guint n_begins;      /* lines it begins */
  guint n_ends;        /* lines it ends */
  guint n_pieces;      /* non-empty pieces the lines it is on fall into when cut at it */
  guint n_beside_gaps; /* word gaps next to it */
  guint line_stamp;    /* 1 + the last line it was seen on */
  /* Summed over its glyphs of the font's lines, once asked (_dc_auto_symbol_advance()). */
  double advance_ems;
  guint n_advances : 31;
  guint advances_summed : 1; /* a bit: the font's look reads 40 bytes a symbol, not 48 */
  Ink ink;
} SymbolStats;

typedef struct
{
  guint symbol;
  double coverage;
  double mean_word;
  double gap_share;
  double context;
  double score;
  Rejection rejection;
  Rejection overruled; /* what the statistics said against a blank, word-wide glyph */
  Ink ink;
  gboolean pdf_space;
} Candidate;

typedef struct
{
  DcDocument *document;
  DcKey *key;
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcSymbol *symbols;
  guint n_lines;
  guint n_symbols;
  FT_Library library; /* NULL when FreeType is unavailable: no ink evidence then */
  guint n_assigned;
  /* The lines with glyphs of font f: font_lines[font_line_starts[f]] up to
   * font_lines[font_line_starts[f + 1]], in order. Each font's statistics read only
   * its lines: a pass over every line per font made the load cost fonts × glyphs. The
   * document's (_dc_document_get_font_lines()). */
  const guint *font_line_starts;
  const guint32 *font_lines;
  /* The symbols of font f, in order: font_symbols[font_symbol_starts[f]] up to
   * font_symbols[font_symbol_starts[f + 1]]. A look at a font's symbols goes through
   * these, not through every symbol of the document once per font. */
  guint *font_symbol_starts;
  guint32 *font_symbols;
  /* Per symbol, the words it begins and ends (count_word_edges()), or NULL until asked:
   * the same for every font, as the document's words do not change. */
  guint *word_initial;
  guint *word_final;
} Pass;

/* How far the font's glyphs reach along the baseline in each direction (the text's
 * margins), and how many of them advance a full em: what _dc_auto_font_is_cjk_width() and
 * _dc_auto_guess_full_stop() ask of its glyphs, whatever the key says. */
typedef struct
{
  guint n_advancing; /* glyphs that advance */
  guint n_wide;      /* of those, the ones a full em wide */
  double u0[4], u1[4];
  gboolean has_extent[4];
} FontReach;

typedef struct
{
  Pass *pass;
  DcFont *font;
  guint index;
  FT_Face face;
  gboolean face_tried;
  SymbolStats *stats; /* per symbol of the document; only this font's are filled */
  guint n_lines;      /* lines with glyphs of the font */
  guint n_glyphs;     /* all glyphs on those lines */
  guint n_gaps;       /* word gaps between two of its glyphs */
  FontReach reach;
} FontPass;

static inline double
along_baseline (const DcGlyph *glyph)
{
  /* The reading direction of the glyph's line, as dc-layout.c measures it: x for rotation
   * 0, y for 1, -x for 2, -y for 3. Selected, not switched on: it is asked for every
   * glyph of a font's lines, and a float's negation is exact either way. */
  guint rotation = glyph->rotation;
  float along = (rotation & 1) ? glyph->y : glyph->x;

  return (rotation & 2) ? -along : along;
}

/* The symbols of @font, in order, and how many (@n). */
static inline const guint32 *
font_symbols (const Pass *pass, guint font, guint *n)
{
  *n = pass->font_symbol_starts[font + 1] - pass->font_symbol_starts[font];
  return pass->font_symbols + pass->font_symbol_starts[font];
}

static inline double
em (const DcGlyph *glyph)
{
  return dc_glyph_get_size (glyph) > 0.5 ? dc_glyph_get_size (glyph) : 0.5;
}

static inline char *
display_code (const DcSymbol *symbol)
{
  return g_strdup_printf ("0x%0*X", (int) symbol->code_len * 2, symbol->code);
}

/* What one look at a run of a font's lines counts besides its symbols' statistics. */
typedef struct
{
  guint n_lines;
  guint n_glyphs;
  guint n_gaps;
  FontReach reach;
} FontLookTotals;

/* A look at the font's lines [first_line, end_line) of font_lines: its symbols' counts
 * into @stats, the rest into @totals. A font's lines are looked at apart from each other
 * (nothing is carried from one line to the next), so a look in two parts, added up
 * after (dc-auto.c), counts what one look does. */
typedef struct
{
  FontPass *fp;
  guint first_line;
  guint end_line;
  SymbolStats *stats;
  FontLookTotals *totals;
} FontLookJob;

/* What _dc_auto_look_at_font() looks at, on two threads for a book: the automatic pass
 * runs before the session's first reply, and the second processor would wait meanwhile. */
typedef struct
{
  FontLookJob *jobs;
  guint n_jobs;
  gint next; /* atomic */
} FontLook;

FT_Face _dc_auto_font_face (FontPass *fp);
Ink _dc_auto_symbol_ink (FontPass *fp, guint symbol);
void _dc_auto_look_at_font (gpointer data);
void _dc_auto_count_pieces (FontPass *fp);
double _dc_auto_symbol_advance (FontPass *fp, guint symbol);
gboolean _dc_auto_font_is_cjk_width (FontPass *fp);
gboolean _dc_auto_name_says_otherwise (FontPass *fp, guint symbol, const char *value);
gboolean _dc_auto_assign (Pass *pass, guint symbol, const char *value, const char *provenance);
gboolean _dc_auto_find_known (FontPass *fp, gboolean (*is_value) (const char *), guint *symbol);
void _dc_auto_guess_space (FontPass *fp, DcAutoGuess *guess);
void _dc_auto_guess_full_stop (FontPass *fp, DcAutoGuess *guess);

G_END_DECLS
