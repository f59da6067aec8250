/* dc-layout-gutters.c: a block's lines parted at column gutters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-layout.c. Chains on one baseline merge into a line however far apart;
 * where an empty strip runs down through the lines above and below, the line holds two
 * columns and is parted there.
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-layout-build-private.h"

/* Stores the glyphs of @build in @store from @at on: a chain's glyphs are the ones drawn
 * one after the other, from the page's glyph @first + Chain.first on. Returns where the
 * next line's go. */
static guint
store_line_glyphs (GArray *store, guint at, const LineBuild *build, const Chain *chains,
                   guint first)
{
  guint32 *out = (guint32 *) (void *) store->data;

  for (guint c = 0; c < build->n_chains; c++)
    {
      const Chain *chain = &chains[build->chains[c]];
      guint32 glyph = first + chain->first, n = chain->n;
      guint32 *line = out + at;

      for (guint k = 0; k < n; k++)
        line[k] = glyph + k;
      at += n;
    }
  return at;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

/* Whether the empty stretch (a, b) of a line continues through the lines just above and
 * below: then it holds a gutter between columns. Ragged column ends and indents vary
 * line by line, so what counts is a strip left empty by all of them; a wide word space in
 * justified text is never empty all the way down. */
static gboolean
is_gutter (const DcGlyph *glyphs, GArray *builds, const guint32 *store, const guint *starts,
           guint self, double a, double b)
{
  const LineBuild *line = &g_array_index (builds, LineBuild, self);
  g_autoptr (GArray) ink = g_array_new (FALSE, FALSE, sizeof (double) * 2);
  guint left = 0, right = 0;
  double reach, widest = 0;

  for (guint l = 0; l < builds->len; l++)
    {
      const LineBuild *other = &g_array_index (builds, LineBuild, l);
      double dv = fabs (other->v - line->v);

      if (l == self || other->rotation != line->rotation || dv < SAME_BASELINE_LINE * line->size
          || dv > GUTTER_NEIGHBOURHOOD * line->size)
        continue;
      left += other->u0 < a;
      right += other->u1 > b;
      for (guint k = starts[l]; k < starts[l + 1]; k++)
        {
          Placement p = _dc_layout_placement_of (&glyphs[store[k]]);
          double interval[2] = { MAX (a, MIN (p.u, p.u_end)), MIN (b, MAX (p.u, p.u_end)) };

          if (interval[1] > interval[0])
            g_array_append_vals (ink, interval, 1);
        }
    }
  /* Word spaces of two or three justified lines can line up by chance; a gutter runs on,
   * with text on both sides of it. */
  if (left < 3 || right < 3)
    return FALSE;

  g_array_sort (ink, compare_doubles);
  reach = a;
  for (guint k = 0; k < ink->len; k++)
    {
      const double *interval = &g_array_index (ink, double, 2 * k);

      widest = MAX (widest, interval[0] - reach);
      reach = MAX (reach, interval[1]);
    }
  widest = MAX (widest, b - reach);
  return widest >= GUTTER_MIN_WIDTH * line->size;
}

/* Adds @line, holding the glyphs [@first, @first + @n) of the store, to @finals, which
 * has room for @room lines at least: stored in place while they fit. */
static void
add_final_line (GArray *finals, guint room, const FinalLine *line, guint first, guint n,
                gboolean in_order)
{
  FinalLine final = *line;

  final.first = first;
  final.n = n;
  final.in_order = in_order;
  if (finals->len < room)
    g_array_index (finals, FinalLine, finals->len++) = final;
  else
    g_array_append_val (finals, final);
}

/* Splits every line at its column gutters; a table's rows (@split FALSE) stay whole. Each
 * part is looked at as sort_visually() in dc-layout.c would before it sorts: most lines are
 * drawn in order, and are then never looked at again. */
void
_dc_layout_split_gutters (const DcGlyph *glyphs, guint first, const Chain *chains, gboolean split,
                          LeafScratch *scratch)
{
  GArray *builds = scratch->builds, *store = scratch->store, *finals = scratch->finals;
  guint *starts;
  guint n_glyphs = 0, at = 0;

  starts = _dc_layout_scratch_room (scratch->starts, builds->len + 1);
  /* A line at least a build: room for that many stored in place (add_final_line()). */
  g_array_set_size (finals, builds->len);
  finals->len = 0;

  for (guint l = 0; l < builds->len; l++)
    {
      const LineBuild *build = &g_array_index (builds, LineBuild, l);

      for (guint c = 0; c < build->n_chains; c++)
        n_glyphs += chains[build->chains[c]].n;
    }
  _dc_layout_scratch_room (store, n_glyphs);
  for (guint l = 0; l < builds->len; l++)
    {
      starts[l] = at;
      at = store_line_glyphs (store, at, &g_array_index (builds, LineBuild, l), chains, first);
    }
  starts[builds->len] = at;

  for (guint l = 0; l < builds->len; l++)
    {
      const LineBuild *build = &g_array_index (builds, LineBuild, l);
      const guint32 *indices = (const guint32 *) (const void *) store->data + starts[l];
      guint n = starts[l + 1] - starts[l];
      FinalLine current = { 0 };
      double reach = -G_MAXDOUBLE;
      double previous = -G_MAXDOUBLE, u = 0; /* sort_visually()'s look at the part */
      gboolean in_order = TRUE;
      guint start = 0; /* the current part's first glyph in @indices */

      current.rotation = build->rotation;
      current.v = build->v;
      current.size = build->size;
      /* A line of one chain without a gap a gutter may be in (Chain.wide): no part, its
       * box the chain's, its order the one the chain found as it was built. */
      if (build->n_chains == 1 && !chains[build->chains[0]].wide && n > 0)
        {
          const Chain *chain = &chains[build->chains[0]];

          current.whole = TRUE;
          current.box = chain->box;
          add_final_line (finals, builds->len, &current, starts[l], n, chain->in_order);
          continue;
        }
      for (guint k = 0; k <= n; k++)
        {
          const DcGlyph *glyph;
          Placement p;

          if (k == n)
            {
              /* A line no gutter parts has its chains' box: no glyph to look at again. */
              current.whole = start == 0;
              for (guint c = 0; current.whole && c < build->n_chains; c++)
                {
                  const DcGlyphBox *box = &chains[build->chains[c]].box;

                  if (c == 0)
                    current.box = *box;
                  current.box.x0 = MIN (current.box.x0, box->x0);
                  current.box.y0 = MIN (current.box.y0, box->y0);
                  current.box.x1 = MAX (current.box.x1, box->x1);
                  current.box.y1 = MAX (current.box.y1, box->y1);
                }
              if (k > start)
                add_final_line (finals, builds->len, &current, starts[l] + start, k - start,
                                in_order);
              break;
            }
          glyph = &glyphs[indices[k]];
          p = _dc_layout_placement_of (glyph);
          if (split && k > start && p.u - reach > GUTTER_CANDIDATE * build->size
              && is_gutter (glyphs, builds, (const guint32 *) (const void *) store->data, starts, l,
                            reach, p.u))
            {
              add_final_line (finals, builds->len, &current, starts[l] + start, k - start,
                              in_order);
              start = k;
              previous = -G_MAXDOUBLE;
              u = 0;
              in_order = TRUE;
            }
          reach = MAX (reach, p.u_end);
          if (in_order)
            {
              double em = _dc_layout_em (glyph);

              u = _dc_layout_visual_u (glyphs, indices + start, k - start, glyph, p.u, em, u);
              if (u < previous - 0.05 * em)
                in_order = FALSE;
              previous = MAX (previous, u);
            }
        }
    }
}
