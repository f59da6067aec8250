/* dc-layout-build-private.h: what the layout's files share while they build a page's lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-layout.c chains glyphs and merges chains into lines, dc-layout-gutters.c parts the
 * lines at column gutters and dc-layout-tokens.c splits them into tokens; all three
 * measure in ems along and across a glyph's baseline.
 */

#pragma once

#include <math.h>

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
  guint first; /* its first glyph, counted from the page's first: the rest follow it */
  guint n;
  guint8 rotation;
  double v;
  double u0, u1;
  double size;
  DcGlyphBox box; /* of its glyphs' ink, on the page */
  gboolean wide;  /* it has a gap that may be a gutter, or it was parted at one */
  /* Unless wide: its glyphs, as a line of their own, stand in the order sort_visually()
   * in dc-layout.c keeps (_dc_layout_split_gutters() looks at a line so). */
  gboolean in_order;
} Chain;

typedef struct
{
  guint *chains; /* indices into the chain array, n_chains of them (merge_chains()) */
  guint n_chains;
  guint8 rotation;
  double v;
  double u0, u1;
  double size;
  guint dominant; /* glyph count of the chain that set v */
} LineBuild;

typedef struct
{
  guint first, n;    /* its glyphs: a range of the leaf's store, in reading order along the line */
  gboolean in_order; /* they stand left to right along the baseline already (sort_visually) */
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

/* What a glyph's layout asks of it, decoded at once: a million glyphs a book, each asked
 * for its placement, em, advance and box, cost a unit lookup and a conversion a question
 * when asked one at a time. The same values, to the bit, as _dc_layout_placement_of(),
 * _dc_layout_em(), dc_glyph_get_advance() and dc_glyph_get_box(). */
typedef struct
{
  Placement p;
  double em;
  float advance;
  DcGlyphBox box;
} Decoded;

static inline void
_dc_layout_decode (const DcGlyph *glyph, Decoded *d)
{
  float unit = DC_GLYPH_UNIT (glyph->scale);
  float size = (float) glyph->size_units * unit;
  float x = glyph->x, y = glyph->y;

  d->advance = (float) glyph->advance_units * unit;
  if (G_LIKELY (glyph->rotation == 0))
    {
      d->p.u = x;
      d->p.v = y;
    }
  else
    {
      Placement p = _dc_layout_placement_of (glyph);

      d->p.u = p.u;
      d->p.v = p.v;
    }
  d->p.u_end = d->p.u + d->advance;
  d->em = size > 0.5 ? size : 0.5;
  d->box.x0 = x + (float) glyph->box_units[0] * unit;
  d->box.y0 = y + (float) glyph->box_units[1] * unit;
  d->box.x1 = x + (float) glyph->box_units[2] * unit;
  d->box.y1 = y + (float) glyph->box_units[3] * unit;
}

/* Whether a mark drawn with no advance at @u along the baseline, in its size @em, stands
 * on a glyph drawn at @at with @advance: within its advance, or a little before or past
 * it. Fonts draw a mark's ink left of its origin, and place the origin at the end of its
 * base and then by the attachment's offset: Noto Sans Khmer's ុ on ក 0.13 em past its
 * end, over the start of the consonant after it; Noto Sans Telugu's subscript ్ల after
 * the vowel sign ు of ల 0.11 em before the ు. */
static inline gboolean
_dc_layout_stands_over (double u, double at, double advance, double em)
{
  return u >= at + MIN (0.0, advance) - 0.2 * em && u <= at + MAX (0.0, advance) + 0.2 * em;
}

/* Whether a glyph drawn at @u along the baseline stands on @base
 * (_dc_layout_stands_over()). */
static inline gboolean
_dc_layout_drawn_over (const DcGlyph *base, double u, double em_size)
{
  Placement p = _dc_layout_placement_of (base);

  return _dc_layout_stands_over (u, p.u, dc_glyph_get_advance (base), em_size);
}

/* Where the @k-th glyph of @line (glyph indices), @glyph drawn at @u along the baseline in
 * its size @em, stands for sorting, @before where the glyph before it stands. A mark drawn
 * with no advance stays right after the glyph drawn before it, on which it sits, or on
 * whose base it sits when that is a mark too (a Thai tone mark over MAI HAN-AKAT, drawn a
 * point past the base's end, and past the next consonant's start)… */
static inline double
_dc_layout_visual_u (const DcGlyph *glyphs, const guint32 *line, guint k, const DcGlyph *glyph,
                     double u, double em, double before)
{
  const DcGlyph *under;

  if (k == 0 || !(fabs (dc_glyph_get_advance (glyph)) < 0.05 * em))
    return u;
  /* …unless it is drawn outside that glyph (cairo may draw the alef of a lam-alef right
   * after the space before the word, long before its lam): then it stands where it is
   * drawn. A glyph wider than an em (Noto Sans Javanese's ꦤ) has its marks further than
   * an em from where it stands. */
  under = &glyphs[line[k - 1]];
  if (fabs (u - before) < em + fabs (dc_glyph_get_advance (under))
      && _dc_layout_drawn_over (under, u, em))
    return before;
  if (k >= 2 && fabs (dc_glyph_get_advance (under)) < 0.05 * em
      && fabs (u - before) < em + fabs (dc_glyph_get_advance (&glyphs[line[k - 2]]))
      && _dc_layout_drawn_over (&glyphs[line[k - 2]], u, em))
    return before;
  return u;
}

/* The arrays a page's leaves are laid out in, one leaf after the other: each leaf
 * allocated and freed a dozen of its own, and a page of a book has some nine leaves. What
 * one leaf leaves in them, the next sets anew. */
typedef struct
{
  GArray *indices; /* guint: merge_chains()'s chains, by baseline and by line */
  GArray *builds;  /* LineBuild */
  GArray *store;   /* guint32: the glyphs of the leaf's lines */
  GArray *starts;  /* guint: where each build's glyphs start in @store */
  GArray *finals;  /* FinalLine */
  GArray *items;   /* DcCutItem */
  GArray *boxes;   /* DcGlyphBox */
  GArray *reading; /* guint */
} LeafScratch;

/* @array's data, with room for @n elements at least: an array of @scratch whose length is
 * only ever its room (not its builds, finals or reading) is set only when it grows, where
 * a g_array_set_size() for each leaf cost more than the leaf's own use of it. Never NULL,
 * even for no element (memcpy() of nothing from it). */
static inline gpointer
_dc_layout_scratch_room (GArray *array, guint n)
{
  if (array->len < MAX (n, 1))
    g_array_set_size (array, MAX (n, 1));
  return array->data;
}

/* Parts every line of @scratch's builds (their chains sorted along the baseline) at its
 * column gutters into its finals, their glyphs in its store (of guint32); a table's rows
 * (@split FALSE) stay whole. The chains count their glyphs from the page's glyph @first. */
void _dc_layout_split_gutters (const DcGlyph *glyphs, guint first, const Chain *chains,
                               gboolean split, LeafScratch *scratch);

G_END_DECLS
