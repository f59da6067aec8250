/* dc-layout-build-private.h: what the layout's files share while they build a page's lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-layout.c chains glyphs and merges chains into lines, dc-layout-gutters.c parts the
 * lines at column gutters and dc-layout-tokens.c splits them into tokens; all three
 * measure in ems along and across a glyph's baseline.
 */

#pragma once

#include "dc-types.h"

G_BEGIN_DECLS

/* In ems of the font size. */
#define SAME_BASELINE_CHAIN 0.25 /* a chain continues on the same baseline */
#define SAME_BASELINE_LINE 0.5   /* superscripts and marks still belong to their line */
#define MAX_BACKSTEP 0.6         /* a mark or a kern may step back this far */
#define MAX_LINE_GAP 4.0         /* wider than any justified word space */
#define GUTTER_CANDIDATE 1.0     /* a gap this wide may be a column gutter… */
#define GUTTER_NEIGHBOURHOOD 6.0 /* …when the lines this near above or below… */
#define GUTTER_MIN_WIDTH 0.5     /* …all leave a strip this wide empty inside it */
#define MIN_WORD_GAP 0.15        /* a gap this wide may be a word space… */
#define WORD_GAP 0.25          /* …and one this wide is, where no space glyph is drawn (Freki) */
#define LETTER_GAP_MIN 0.1     /* letter-spacing (Tc) opens every gap of a word this wide… */
#define LETTER_GAP_SPREAD 0.02 /* …and all alike, to this… */
#define LETTER_RUN 3           /* …for this many gaps in a row at least */

typedef struct
{
  double u, v;  /* along and across the baseline, in the glyph's own direction */
  double u_end; /* u + advance */
} Placement;

typedef struct
{
  guint first; /* into the chain-ordered glyph array */
  guint n;
  guint8 rotation;
  double v;
  double u0, u1;
  double size;
  DcGlyphBox box; /* of its glyphs' ink, on the page */
  gboolean wide;  /* it has a gap that may be a gutter */
} Chain;

typedef struct
{
  GArray *chains; /* of guint, indices into the chain array */
  guint8 rotation;
  double v;
  double u0, u1;
  double size;
  guint dominant; /* glyph count of the chain that set v */
} LineBuild;

typedef struct
{
  GArray *glyphs; /* of guint32, in reading order along the line */
  guint8 rotation;
  double v;
  double size;
  gboolean whole; /* all of its build's chains: its box is theirs */
  DcGlyphBox box;
} FinalLine;

static inline Placement
_dc_layout_placement_of (const DcGlyph *glyph)
{
  Placement p;

  switch (glyph->rotation)
    {
    case 1:
      p.u = glyph->y;
      p.v = -glyph->x;
      break;
    case 2:
      p.u = -glyph->x;
      p.v = -glyph->y;
      break;
    case 3:
      p.u = -glyph->y;
      p.v = glyph->x;
      break;
    case 0:
    default:
      p.u = glyph->x;
      p.v = glyph->y;
      break;
    }
  p.u_end = p.u + dc_glyph_get_advance (glyph);
  return p;
}

static inline double
_dc_layout_em (const DcGlyph *glyph)
{
  /* A zero or absurd size must not make every gap infinite or nothing. */
  return dc_glyph_get_size (glyph) > 0.5 ? dc_glyph_get_size (glyph) : 0.5;
}
/* Parts every line of @builds (their chains sorted along the baseline) at its column
 * gutters into FinalLines; a table's rows (@split FALSE) stay whole. */
GArray *_dc_layout_split_gutters (const DcGlyph *glyphs, GArray *builds, const Chain *chains,
                                  const GArray *chain_glyphs, gboolean split);

G_END_DECLS
