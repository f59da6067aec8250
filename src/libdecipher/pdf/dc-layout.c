/* dc-layout.c: glyphs → lines → tokens, in reading order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lines are found geometrically rather than trusted to the content stream's order,
 * because producers draw text in any order (per glyph, per column, overlays). Glyphs are
 * first chained in stream order while they continue one baseline with no gap a gutter
 * could be in. The page is then cut into blocks by Freki's recursive XY-cut
 * (dc-layout-cut.c) on those chains, and only inside each block do chains sharing a
 * baseline merge into visual lines: lines never reach across a cut, so a title over two
 * columns cannot join their first lines. The cut tree gives the blocks' reading order.
 * Lines are parted at column gutters in dc-layout-gutters.c and split into tokens in
 * dc-layout-tokens.c.
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "dc-layout-build-private.h"
#include "dc-layout-cut-private.h"
#include "dc-layout-private.h"

static inline void
chain_start (Chain *chain, const DcGlyph *glyph, const Decoded *d, guint place)
{
  memset (chain, 0, sizeof (Chain));
  chain->first = place;
  chain->rotation = glyph->rotation;
  chain->v = d->p.v;
  chain->u0 = MIN (d->p.u, d->p.u_end);
  chain->u1 = MAX (d->p.u, d->p.u_end);
  chain->size = d->em;
  chain->in_order = TRUE; /* and its box to be set (build_chains() keeps it apart) */
}

/* Adds the glyph @d decodes to @chain. */
static inline void
chain_add (Chain *chain, const Decoded *d)
{
  chain->n++;
  chain->u0 = MIN (chain->u0, MIN (d->p.u, d->p.u_end));
  chain->u1 = MAX (chain->u1, MAX (d->p.u, d->p.u_end));
  chain->size = MAX (chain->size, d->em);
  chain->box.x0 = MIN (chain->box.x0, d->box.x0);
  chain->box.y0 = MIN (chain->box.y0, d->box.y0);
  chain->box.x1 = MAX (chain->box.x1, d->box.x1);
  chain->box.y1 = MAX (chain->box.y1, d->box.y1);
}

static int
compare_gaps (gconstpointer a, gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

/* Parts a chain at the gaps that may be gutters, so that the cut can part two columns
 * drawn line by line across the page. A gap no wider than the line's other word gaps is
 * a justified line's word space (parted, the pieces of a paragraph's lines would line up
 * into false columns); one at least twice as wide as most of them may be a gutter. */
static void
split_chain (const DcGlyph *page_glyphs, const Chain *chain, GArray *out)
{
  const DcGlyph *glyphs = page_glyphs + chain->first;
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (double));
  double last_u_end = 0, median, wide = GUTTER_CANDIDATE * chain->size;
  Chain part;

  for (guint k = 0; k < chain->n; k++)
    {
      Placement p = _dc_layout_placement_of (&glyphs[k]);

      if (k > 0 && p.u - last_u_end > MIN_WORD_GAP * chain->size)
        {
          double gap = p.u - last_u_end;

          g_array_append_val (gaps, gap);
        }
      last_u_end = p.u_end;
    }
  g_array_sort (gaps, compare_gaps);
  median = gaps->len > 1 ? g_array_index (gaps, double, gaps->len / 2) : 0;

  for (guint k = 0; k < chain->n; k++)
    {
      const DcGlyph *glyph = &glyphs[k];
      Decoded d;
      double gap;

      _dc_layout_decode (glyph, &d);
      gap = d.p.u - last_u_end;
      if (k > 0 && gap > wide && gap >= 2 * median)
        {
          g_array_append_val (out, part);
          chain_start (&part, glyph, &d, chain->first + k);
          part.box = d.box;
        }
      else if (k == 0)
        {
          chain_start (&part, glyph, &d, chain->first);
          part.box = d.box;
        }
      chain_add (&part, &d);
      part.wide = TRUE;
      last_u_end = d.p.u_end;
    }
  g_array_append_val (out, part);
}

/* Stores a copy of @chain at the end of @chains, which has room for *@room chains: the
 * chain being built never has its address taken by a call, so that it may stay in
 * registers. Stored in place while there is room (a page has a chain a line), where an
 * append cost a call and a copy a chain. */
static inline void
store_chain (GArray *chains, guint *room, const Chain *chain)
{
  if (G_UNLIKELY (chains->len == *room))
    {
      guint len = chains->len;

      *room = MAX (16, 2 * len);
      g_array_set_size (chains, *room);
      chains->len = len;
    }
  ((Chain *) (void *) chains->data)[chains->len++] = *chain;
}

/* A glyph's box (x0, y0, x1, y1) as four floats at once, and the chains' boxes grown by it
 * in two operations, kept in two registers: in build_chains() each of the four was a
 * conversion, a product and a sum, then a minimum or maximum read from and written back to
 * the stack, a million glyphs a book. The same floats, to the bit, as _dc_layout_decode()'s:
 * the units are powers of two, so each product is exact and only the sum rounds, as it
 * does there; the minimum and maximum take the same operand at a tie or a NaN as MIN()
 * and MAX() on (chain, glyph). */
#ifdef __SSE2__
/* The loads and the store below take x and y, the four box units and the four corners
 * as they lie side by side. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (DcGlyph, y) == G_STRUCT_OFFSET (DcGlyph, x) + sizeof (float));
G_STATIC_ASSERT (sizeof (((DcGlyph *) NULL)->box_units) == 4 * sizeof (gint16));
G_STATIC_ASSERT (sizeof (DcGlyphBox) == 4 * sizeof (float));
G_STATIC_ASSERT (G_STRUCT_OFFSET (DcGlyphBox, y1) == 3 * sizeof (float));

typedef __m128 BoxVec;

static inline BoxVec
box_vec_of (const DcGlyph *glyph, float unit)
{
  __m128i units = _mm_loadl_epi64 ((const __m128i *) (const void *) glyph->box_units);
  __m128 origin = _mm_castsi128_ps (_mm_loadl_epi64 ((const __m128i *) (const void *) &glyph->x));

  units = _mm_srai_epi32 (_mm_unpacklo_epi16 (units, units), 16);
  return _mm_add_ps (_mm_movelh_ps (origin, origin),
                     _mm_mul_ps (_mm_cvtepi32_ps (units), _mm_set1_ps (unit)));
}

static inline BoxVec
box_vec_min (BoxVec chain, BoxVec glyph)
{
  return _mm_min_ps (chain, glyph);
}

static inline BoxVec
box_vec_max (BoxVec chain, BoxVec glyph)
{
  return _mm_max_ps (chain, glyph);
}

static inline float
box_vec_height (BoxVec box)
{
  return _mm_cvtss_f32 (_mm_shuffle_ps (box, box, 3))
         - _mm_cvtss_f32 (_mm_shuffle_ps (box, box, 1));
}

static inline gboolean
box_vec_has_height (BoxVec box)
{
  return _mm_cvtss_f32 (_mm_shuffle_ps (box, box, 3))
         > _mm_cvtss_f32 (_mm_shuffle_ps (box, box, 1));
}

/* The box whose x0, y0 are @lo's and x1, y1 @hi's. */
static inline DcGlyphBox
box_vec_join (BoxVec lo, BoxVec hi)
{
  DcGlyphBox box;

  _mm_storeu_ps ((float *) (void *) &box, _mm_shuffle_ps (lo, hi, _MM_SHUFFLE (3, 2, 1, 0)));
  return box;
}
#else
typedef DcGlyphBox BoxVec;

static inline BoxVec
box_vec_of (const DcGlyph *glyph, float unit)
{
  Decoded d;

  _dc_layout_decode (glyph, &d);
  return d.box;
}

static inline BoxVec
box_vec_min (BoxVec chain, BoxVec glyph)
{
  return (BoxVec){ MIN (chain.x0, glyph.x0), MIN (chain.y0, glyph.y0), MIN (chain.x1, glyph.x1),
                   MIN (chain.y1, glyph.y1) };
}

static inline BoxVec
box_vec_max (BoxVec chain, BoxVec glyph)
{
  return (BoxVec){ MAX (chain.x0, glyph.x0), MAX (chain.y0, glyph.y0), MAX (chain.x1, glyph.x1),
                   MAX (chain.y1, glyph.y1) };
}

static inline float
box_vec_height (BoxVec box)
{
  return box.y1 - box.y0;
}

static inline gboolean
box_vec_has_height (BoxVec box)
{
  return box.y1 > box.y0;
}

static inline DcGlyphBox
box_vec_join (BoxVec lo, BoxVec hi)
{
  return (DcGlyphBox){ lo.x0, lo.y0, hi.x1, hi.y1 };
}
#endif

/* The page's glyphs @page_glyphs[0, @n) in chains, each of them a range of the glyphs in
 * the order drawn (Chain.first counts from the page's first glyph); @heights and
 * @n_heights add up the heights of their boxes (those not empty) in the order drawn, for
 * Freki's valley, from the boxes the chains decode anyway.
 *
 * A loop a chain, taking glyphs while they continue it: the chain's state stays in
 * registers through the inner loop, where one loop for all glyphs kept it on the stack,
 * loaded and stored again for each glyph, a million glyphs a book. The glyph that ends a
 * chain is decoded again to start the next: once a chain, not once a glyph. */
static GArray *
build_chains (const DcGlyph *page_glyphs, guint n, const guint8 *letter_kinds,
              guint letter_counts[3], guint *n_turned, double *heights, guint *n_heights)
{
  guint room = 16 + n / 32;
  GArray *chains = g_array_sized_new (FALSE, FALSE, sizeof (Chain), room);
  GArray *parted;
  double height_sum = *heights;
  guint n_height = *n_heights;
  gboolean any_wide = FALSE;
  guint turned = 0;
  guint i = 0;

  while (i < n)
    {
      const DcGlyph *glyph = &page_glyphs[i];
      Chain current;
      BoxVec box, box_lo, box_hi; /* the chain's box: x0, y0 of the one, x1, y1 of the other */
      Decoded d;
      double last_u, visual_u, visual_reach; /* _dc_layout_split_gutters()'s look */
      float last_advance;                    /* of the glyph before */
      double before_last_u;                  /* and of the one before that */
      float before_last_advance;

      /* Each glyph decoded once, before anything is stored that the compiler must fear
       * writes over it; its box apart (d.box is left unused, so not computed). */
      _dc_layout_decode (glyph, &d);
      box = box_vec_of (glyph, DC_GLYPH_UNIT (glyph->scale));
      chain_start (&current, glyph, &d, i);
      /* chain_add(), the box apart: of one glyph, what chain_start() set. */
      current.n = 1;
      box_lo = box_hi = box;
      /* _dc_layout_visual_u() of a chain's first glyph is where it stands, and nothing
       * before it in the chain reaches further. */
      visual_u = visual_reach = d.p.u;
      /* The page's letters counted for its direction here, where a pass of their own read
       * every glyph again. */
      letter_counts[letter_kinds[glyph->symbol]]++;
      if (box_vec_has_height (box))
        {
          height_sum += box_vec_height (box);
          n_height++;
        }
      last_u = before_last_u = d.p.u;
      last_advance = before_last_advance = d.advance;

      for (i++; i < n; i++)
        {
          double reference, last_u_end, step;

          glyph = &page_glyphs[i];
          _dc_layout_decode (glyph, &d);
          if (glyph->rotation != current.rotation)
            break;
          reference = MAX (d.em, current.size);
          /* The glyph before's u_end, as _dc_layout_decode() sums it. */
          last_u_end = last_u + last_advance;
          step = d.p.u - last_u_end;
          /* Most glyphs of a chain stand on its very baseline: no product to compare
           * (reference > 0). */
          if (!(d.p.v == current.v || fabs (d.p.v - current.v) <= SAME_BASELINE_CHAIN * reference))
            break;
          /* And most follow the glyph before at once, or a kern away, a hair before or
           * after its end as floats round: a step of an eighth of a point back (well
           * within MAX_BACKSTEP ems, 0.3 pt at the smallest size of 0.5, with room for
           * any rounding of the subtraction) to half an em of the smallest size forward
           * (the reference is at least 0.5) continues the chain (MAX_LINE_GAP ems) and
           * is no gutter (GUTTER_CANDIDATE ems), with no product to compare either. */
          if (!(step >= -0.125 && step <= 0.5 * GUTTER_CANDIDATE))
            {
              /* A mark may step back further, onto the glyph it is drawn over (Noto
               * Serif Tibetan's ོ, 0.68 em back from the end of its བ). */
              if (!(d.p.u >= last_u_end - MAX_BACKSTEP * reference
                    && step <= MAX_LINE_GAP * reference)
                  && !(fabs (d.advance) < 0.05 * d.em
                       && _dc_layout_stands_over (d.p.u, last_u, last_advance, d.em)))
                break;
              if (step > GUTTER_CANDIDATE * reference)
                current.wide = any_wide = TRUE;
            }

          box = box_vec_of (glyph, DC_GLYPH_UNIT (glyph->scale));
          letter_counts[letter_kinds[glyph->symbol]]++;
          /* Whether the chain's glyphs stand in visual order, as
           * _dc_layout_split_gutters() asks of a line: for a line that is one chain, it
           * need not look at them again. _dc_layout_visual_u() of the glyph, the one
           * before it in the chain being the one drawn before it. */
          if (current.in_order)
            {
              double em = d.em, slack = 0.05 * em;

              /* The advance first: most glyphs have one, and are not marks. Such a glyph
               * stands where it is drawn, and most stand at or after all before them: in
               * order, and the reach is theirs (slack > 0), with no test more. */
              if (!(fabs (d.advance) < slack) && d.p.u >= visual_reach)
                visual_u = visual_reach = d.p.u;
              else
                {
                  if (!(fabs (d.advance) < slack
                        && ((fabs (d.p.u - visual_u) < em + fabs (last_advance)
                             && _dc_layout_stands_over (d.p.u, last_u, last_advance, em))
                            || (fabs (last_advance) < slack
                                && fabs (d.p.u - visual_u) < em + fabs (before_last_advance)
                                && _dc_layout_stands_over (d.p.u, before_last_u,
                                                           before_last_advance, em)))))
                    visual_u = d.p.u;
                  if (visual_u < visual_reach - slack)
                    current.in_order = FALSE;
                  visual_reach = MAX (visual_reach, visual_u);
                }
            }

          /* chain_add(), the box apart. */
          current.n++;
          current.u0 = MIN (current.u0, MIN (d.p.u, d.p.u_end));
          current.u1 = MAX (current.u1, MAX (d.p.u, d.p.u_end));
          current.size = MAX (current.size, d.em);
          box_lo = box_vec_min (box_lo, box);
          box_hi = box_vec_max (box_hi, box);
          if (box_vec_has_height (box))
            {
              height_sum += box_vec_height (box);
              n_height++;
            }
          before_last_u = last_u;
          before_last_advance = last_advance;
          last_u = d.p.u;
          last_advance = d.advance;
        }
      /* A chain's glyphs share its rotation. */
      turned += (current.rotation & 1) * current.n;
      current.box = box_vec_join (box_lo, box_hi);
      store_chain (chains, &room, &current);
    }
  *heights = height_sum;
  *n_heights = n_height;
  *n_turned = turned;
  if (!any_wide)
    return chains;

  parted = g_array_sized_new (FALSE, FALSE, sizeof (Chain), chains->len + 8);
  for (guint c = 0; c < chains->len; c++)
    {
      const Chain *chain = &g_array_index (chains, Chain, c);

      if (chain->wide)
        split_chain (page_glyphs, chain, parted);
      else
        g_array_append_vals (parted, chain, 1);
    }
  g_array_unref (chains);
  return parted;
}

static int
compare_chain_baselines (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Chain *chains = user_data;
  const Chain *ca = &chains[*(const guint *) a];
  const Chain *cb = &chains[*(const guint *) b];

  if (ca->rotation != cb->rotation)
    return ca->rotation < cb->rotation ? -1 : 1;
  if (ca->v != cb->v)
    return ca->v < cb->v ? -1 : 1;
  if (ca->u0 != cb->u0)
    return ca->u0 < cb->u0 ? -1 : 1;
  return 0;
}

static int
compare_chain_starts (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Chain *chains = user_data;
  const Chain *ca = &chains[*(const guint *) a];
  const Chain *cb = &chains[*(const guint *) b];

  if (ca->u0 != cb->u0)
    return ca->u0 < cb->u0 ? -1 : 1;
  return ca->first < cb->first ? -1 : ca->first > cb->first;
}

/* Merges chains into lines: sorted by baseline, each chain joins the nearest line on
 * nearly the same baseline, however far apart: a justified line of three long words
 * can leave gaps of ten ems where no space glyph is drawn. Columns on one baseline are
 * parted afterwards, where a gutter runs down the page (_dc_layout_split_gutters). The
 * lines are @scratch's builds; their chains lie line after line in its indices, each
 * line's in the order they joined it. */
static void
merge_chains (Chain *chains, const guint *members, guint n_chains, LeafScratch *scratch)
{
  GArray *lines = scratch->builds;
  guint *by_baseline, *joined, *line_chains, *fill;

  /* Four arrays of a guint a chain: the chains by baseline, the line of each, the lines'
   * chains and how many of them are filled in (a line a chain at most). */
  by_baseline = _dc_layout_scratch_room (scratch->indices, 4 * n_chains);
  joined = by_baseline + n_chains;
  line_chains = joined + n_chains;
  fill = line_chains + n_chains;
  memcpy (by_baseline, members, n_chains * sizeof (guint));
  /* A line a chain at most: room for all, each stored in place. */
  g_array_set_size (lines, n_chains);
  lines->len = 0;

  /* The cut's leaves hand the chains over mostly sorted by baseline already (a column's
   * lines top to bottom, a chain a line): a sorted array is left as the sort (stable) would
   * leave it, and a look at each pair costs less than the sort's calls. */
  for (guint k = 1; k < n_chains; k++)
    if (compare_chain_baselines (&by_baseline[k - 1], &by_baseline[k], chains) > 0)
      {
        g_qsort_with_data (by_baseline, n_chains, sizeof (guint), compare_chain_baselines, chains);
        break;
      }

  for (guint k = 0; k < n_chains; k++)
    {
      guint c = by_baseline[k];
      Chain *chain = &chains[c];
      LineBuild *best = NULL;
      double best_distance = G_MAXDOUBLE;

      /* Lines are created in baseline order, so only the most recent ones can match. */
      for (guint l = lines->len; l > 0; l--)
        {
          LineBuild *line = &g_array_index (lines, LineBuild, l - 1);
          double reference = MAX (line->size, chain->size);
          double distance = fabs (chain->v - line->v);

          if (line->rotation != chain->rotation || chain->v - line->v > 2 * reference)
            break;
          if (distance > SAME_BASELINE_LINE * reference)
            continue;
          if (distance < best_distance)
            {
              best = line;
              best_distance = distance;
            }
        }

      if (best == NULL)
        {
          LineBuild line = { 0 };

          line.rotation = chain->rotation;
          line.v = chain->v;
          line.u0 = chain->u0;
          line.u1 = chain->u1;
          line.size = chain->size;
          best = &g_array_index (lines, LineBuild, lines->len++);
          *best = line;
        }

      joined[k] = (guint) (best - (LineBuild *) (void *) lines->data);
      best->n_chains++;
      best->u0 = MIN (best->u0, chain->u0);
      best->u1 = MAX (best->u1, chain->u1);
      best->size = MAX (best->size, chain->size);
      /* The line's baseline is that of its main text, not of a superscript. */
      if (chain->n > best->dominant)
        {
          best->v = chain->v;
          best->dominant = chain->n;
        }
    }

  /* One array for all lines' chains, filled in the order the chains joined. */
  for (guint l = 0, at = 0; l < lines->len; l++)
    {
      LineBuild *line = &g_array_index (lines, LineBuild, l);

      line->chains = line_chains + at;
      fill[l] = 0;
      at += line->n_chains;
    }
  for (guint k = 0; k < n_chains; k++)
    g_array_index (lines, LineBuild, joined[k]).chains[fill[joined[k]]++] = by_baseline[k];
}

typedef struct
{
  double u;
  guint32 glyph;
  guint position;
} VisualKey;

static int
compare_visual_keys (const void *a, const void *b)
{
  const VisualKey *ka = a, *kb = b;

  if (ka->u != kb->u)
    return ka->u < kb->u ? -1 : 1;
  return ka->position < kb->position ? -1 : (ka->position > kb->position);
}

/* A line's glyphs in the order they stand along the baseline. Producers draw runs of
 * right-to-left text (cairo: cluster by cluster, spaces in a font of their own) in an
 * order that wanders back and forth; what is left to right on the page is the visual
 * order every later step (tokens, bidi, Indic reordering) starts from. Most lines are
 * drawn in order already: _dc_layout_split_gutters() looks at each as it passes, and only
 * the others (FinalLine.in_order FALSE) are given keys and sorted here. */
static void
sort_visually (const DcGlyph *glyphs, guint32 *line, guint n)
{
  g_autofree VisualKey *keys = g_new (VisualKey, n);

  for (guint k = 0; k < n; k++)
    {
      const DcGlyph *glyph = &glyphs[line[k]];

      keys[k].glyph = line[k];
      keys[k].position = k;
      keys[k].u = _dc_layout_visual_u (glyphs, line, k, glyph, _dc_layout_placement_of (glyph).u,
                                       _dc_layout_em (glyph), k > 0 ? keys[k - 1].u : 0);
    }
  qsort (keys, n, sizeof (VisualKey), compare_visual_keys);
  for (guint k = 0; k < n; k++)
    line[k] = keys[k].glyph;
}

/* Freki counts no ink in the outer fifths of a text box across its line, so that
 * ascenders and descenders of neighbouring lines do not close the valley between two
 * blocks. */
static DcCutItem
cut_item (const DcGlyphBox *box, guint8 rotation, double size, guint index)
{
  DcCutItem item = { box->x0, box->y0, box->x1, box->y1, size, index };
  double shrink;

  if (rotation == 0 || rotation == 2)
    {
      shrink = (box->y1 - box->y0) / 5;
      item.y0 += shrink;
      item.y1 -= shrink;
    }
  else
    {
      shrink = (box->x1 - box->x0) / 5;
      item.x0 += shrink;
      item.x1 -= shrink;
    }
  return item;
}

static DcGlyphBox
line_box (const DcGlyph *glyphs, const guint32 *line, guint n)
{
  DcGlyphBox box = dc_glyph_get_box (&glyphs[line[0]]);

  for (guint k = 1; k < n; k++)
    {
      DcGlyphBox glyph_box = dc_glyph_get_box (&glyphs[line[k]]);

      box.x0 = MIN (box.x0, glyph_box.x0);
      box.y0 = MIN (box.y0, glyph_box.y0);
      box.x1 = MAX (box.x1, glyph_box.x1);
      box.y1 = MAX (box.y1, glyph_box.y1);
    }
  return box;
}

typedef struct
{
  const DcGlyph *glyphs;
  guint first; /* the page's first glyph, from which its chains count theirs */
  guint page;
  gboolean rtl;
  guint32 *order;
  guint placed; /* the next place in @order */
  GArray *lines;
  LeafScratch scratch;
} PageOut;

/* The arrays a page's leaves are laid out in, one after the other (lay_out_leaf()). */
static void
leaf_scratch_init (LeafScratch *scratch)
{
  scratch->indices = g_array_new (FALSE, FALSE, sizeof (guint));
  scratch->builds = g_array_new (FALSE, FALSE, sizeof (LineBuild));
  scratch->store = g_array_new (FALSE, FALSE, sizeof (guint32));
  scratch->starts = g_array_new (FALSE, FALSE, sizeof (guint));
  scratch->finals = g_array_new (FALSE, FALSE, sizeof (FinalLine));
  scratch->items = g_array_new (FALSE, FALSE, sizeof (DcCutItem));
  scratch->boxes = g_array_new (FALSE, FALSE, sizeof (DcGlyphBox));
  scratch->reading = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
leaf_scratch_clear (LeafScratch *scratch)
{
  g_clear_pointer (&scratch->indices, g_array_unref);
  g_clear_pointer (&scratch->builds, g_array_unref);
  g_clear_pointer (&scratch->store, g_array_unref);
  g_clear_pointer (&scratch->starts, g_array_unref);
  g_clear_pointer (&scratch->finals, g_array_unref);
  g_clear_pointer (&scratch->items, g_array_unref);
  g_clear_pointer (&scratch->boxes, g_array_unref);
  g_clear_pointer (&scratch->reading, g_array_unref);
}

/* Builds the lines of one leaf of the cut, its chains @members, and appends them to the
 * page's lines in reading order. */
static void
lay_out_leaf (PageOut *out, Chain *chains, const guint *members, guint n_members, gboolean table)
{
  LeafScratch *scratch = &out->scratch;
  GArray *builds = scratch->builds, *finals = scratch->finals, *reading = scratch->reading;
  guint32 *line_glyphs;
  DcCutItem *items;
  DcGlyphBox *boxes;
  guint first_line;

  merge_chains (chains, members, n_members, scratch);

  /* Most lines are one chain: nothing to sort, and a call to sort it cost more than all
   * else done with it here. */
  for (guint l = 0; l < builds->len; l++)
    if (g_array_index (builds, LineBuild, l).n_chains > 1)
      g_qsort_with_data (g_array_index (builds, LineBuild, l).chains,
                         g_array_index (builds, LineBuild, l).n_chains, sizeof (guint),
                         compare_chain_starts, chains);
  _dc_layout_split_gutters (out->glyphs, out->first, chains, !table, scratch);
  line_glyphs = (guint32 *) (void *) scratch->store->data;

  items = _dc_layout_scratch_room (scratch->items, finals->len);
  boxes = _dc_layout_scratch_room (scratch->boxes, finals->len);
  for (guint l = 0; l < finals->len; l++)
    {
      FinalLine *line = &g_array_index (finals, FinalLine, l);

      boxes[l] = line->whole ? line->box
                             : line_box (out->glyphs, line_glyphs + line->first, line->n);
      items[l] = cut_item (&boxes[l], line->rotation, line->size, l);
    }
  reading->len = 0;
  if (table)
    _dc_layout_order_rows (items, finals->len, out->rtl, reading);
  else
    _dc_layout_order_block (items, finals->len, out->rtl, reading);

  /* Every line stored in place: an append a line cost a call and a copy. */
  first_line = out->lines->len;
  g_array_set_size (out->lines, first_line + reading->len);
  for (guint r = 0; r < reading->len; r++)
    {
      guint l = g_array_index (reading, guint, r);
      FinalLine *final = &g_array_index (finals, FinalLine, l);
      DcLine *line = &g_array_index (out->lines, DcLine, first_line + r);

      /* Every byte, padding too: the document cache stores the lines as they lie. */
      memset (line, 0, sizeof *line);
      line->x0 = boxes[l].x0;
      line->y0 = boxes[l].y0;
      line->x1 = boxes[l].x1;
      line->y1 = boxes[l].y1;
      line->page = out->page;
      line->rotation = final->rotation;
      if (!final->in_order)
        sort_visually (out->glyphs, line_glyphs + final->first, final->n);
      line->first_glyph = out->placed;
      line->n_glyphs = final->n;
      memcpy (out->order + out->placed, line_glyphs + final->first, final->n * sizeof (guint32));
      out->placed += final->n;
    }
}

static void
append_block (GArray *blocks, const GArray *lines, guint page, guint index, guint first_line,
              guint n_lines, char *label, gboolean table)
{
  DcBlock block = { 0 };

  block.page = page;
  block.index = index;
  block.first_line = first_line;
  block.n_lines = n_lines;
  block.label = label;
  block.table = table;
  for (guint l = first_line; l < first_line + n_lines; l++)
    {
      const DcLine *line = &g_array_index (lines, DcLine, l);

      block.x0 = l == first_line ? line->x0 : MIN (block.x0, line->x0);
      block.y0 = l == first_line ? line->y0 : MIN (block.y0, line->y0);
      block.x1 = l == first_line ? line->x1 : MAX (block.x1, line->x1);
      block.y1 = l == first_line ? line->y1 : MAX (block.y1, line->y1);
    }
  g_array_append_val (blocks, block);
}

void
dc_layout_lines (const DcGlyph *glyphs, guint first, guint n, guint page, double page_width,
                 double page_height, const guint8 *letter_kinds, DcLayoutRtlFunc rtl_func,
                 gpointer rtl_data, guint32 *order, GArray *lines, GArray *blocks)
{
  g_autoptr (GArray) chains = NULL;
  g_autoptr (GArray) members = NULL;
  g_autoptr (GArray) leaves = NULL;
  g_autofree DcCutItem *items = NULL;
  double heights = 0;
  guint n_heights = 0, first_line;
  guint letter_counts[3] = { 0 }, n_turned = 0;
  gboolean rtl;
  PageOut out = { glyphs, first, page, FALSE, order, first, lines, { NULL } };

  g_assert (glyphs != NULL || n == 0);
  g_assert (order != NULL && lines != NULL && blocks != NULL);
  g_assert (letter_kinds != NULL && rtl_func != NULL);

  if (n == 0)
    return;

  /* And Freki's valley: the page's average character height. */
  chains = build_chains (glyphs + first, n, letter_kinds, letter_counts, &n_turned, &heights,
                         &n_heights);
  rtl = rtl_func (letter_counts, n_turned, rtl_data);
  out.rtl = rtl;

  items = g_new (DcCutItem, chains->len);
  for (guint c = 0; c < chains->len; c++)
    {
      const Chain *chain = &g_array_index (chains, Chain, c);

      items[c] = cut_item (&chain->box, chain->rotation, chain->size, c);
    }
  members = g_array_sized_new (FALSE, FALSE, sizeof (guint), chains->len);
  leaves = g_array_new (FALSE, FALSE, sizeof (DcCutLeaf));
  _dc_layout_cut (items, chains->len, page_width, page_height,
                  n_heights > 0 ? heights / n_heights : 1, rtl, members, leaves);

  leaf_scratch_init (&out.scratch);
  first_line = lines->len;
  for (guint b = 0; b < leaves->len; b++)
    {
      DcCutLeaf *leaf = &g_array_index (leaves, DcCutLeaf, b);
      guint leaf_first = lines->len;

      lay_out_leaf (&out, (Chain *) (void *) chains->data,
                    &g_array_index (members, guint, leaf->first), leaf->n, leaf->table);
      append_block (blocks, lines, page, b, leaf_first, lines->len - leaf_first,
                    g_steal_pointer (&leaf->label), leaf->table);
    }
  leaf_scratch_clear (&out.scratch);
  for (guint l = first_line; l < lines->len; l++)
    g_array_index (lines, DcLine, l).index = l - first_line;
  /* Every glyph joined one chain, every chain one leaf and one line. */
  g_assert (out.placed == first + n);
}
