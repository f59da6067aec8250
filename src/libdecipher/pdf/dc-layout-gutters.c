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

#include "dc-layout-build-private.h"

static void
clear_final_line (gpointer data)
{
  FinalLine *line = data;

  g_clear_pointer (&line->glyphs, g_array_unref);
}

static GArray *
line_glyphs (const LineBuild *build, const Chain *chains, const GArray *chain_glyphs)
{
  GArray *out;
  guint n = 0;

  for (guint c = 0; c < build->chains->len; c++)
    n += chains[g_array_index (build->chains, guint, c)].n;
  /* A chain's glyphs lie together in @chain_glyphs: one copy a chain. */
  out = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  for (guint c = 0; c < build->chains->len; c++)
    {
      const Chain *chain = &chains[g_array_index (build->chains, guint, c)];

      g_array_append_vals (out, &g_array_index (chain_glyphs, guint, chain->first), chain->n);
    }
  return out;
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
is_gutter (const DcGlyph *glyphs, GArray *builds, GPtrArray *all_glyphs, guint self, double a,
           double b)
{
  const LineBuild *line = &g_array_index (builds, LineBuild, self);
  g_autoptr (GArray) ink = g_array_new (FALSE, FALSE, sizeof (double) * 2);
  guint left = 0, right = 0;
  double reach, widest = 0;

  for (guint l = 0; l < builds->len; l++)
    {
      const LineBuild *other = &g_array_index (builds, LineBuild, l);
      const GArray *other_glyphs = g_ptr_array_index (all_glyphs, l);
      double dv = fabs (other->v - line->v);

      if (l == self || other->rotation != line->rotation || dv < SAME_BASELINE_LINE * line->size
          || dv > GUTTER_NEIGHBOURHOOD * line->size)
        continue;
      left += other->u0 < a;
      right += other->u1 > b;
      for (guint k = 0; k < other_glyphs->len; k++)
        {
          Placement p = _dc_layout_placement_of (&glyphs[g_array_index (other_glyphs, guint32, k)]);
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

/* Adds @line, holding the glyphs [@start, @end) of @indices, to @finals. */
static void
add_final_line (GArray *finals, const FinalLine *line, const GArray *indices, guint start,
                guint end)
{
  FinalLine final = *line;

  final.glyphs = g_array_sized_new (FALSE, FALSE, sizeof (guint32), end - start);
  g_array_append_vals (final.glyphs, &g_array_index (indices, guint32, start), end - start);
  g_array_append_val (finals, final);
}

/* Splits every line at its column gutters; a table's rows (@split FALSE) stay whole. */
GArray *
_dc_layout_split_gutters (const DcGlyph *glyphs, GArray *builds, const Chain *chains,
                          const GArray *chain_glyphs, gboolean split)
{
  g_autoptr (GPtrArray)
      all_glyphs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *finals = g_array_new (FALSE, TRUE, sizeof (FinalLine));

  g_array_set_clear_func (finals, clear_final_line);

  for (guint l = 0; l < builds->len; l++)
    g_ptr_array_add (all_glyphs,
                     line_glyphs (&g_array_index (builds, LineBuild, l), chains, chain_glyphs));

  for (guint l = 0; l < builds->len; l++)
    {
      const LineBuild *build = &g_array_index (builds, LineBuild, l);
      const GArray *indices = g_ptr_array_index (all_glyphs, l);
      FinalLine current = { 0 };
      double reach = -G_MAXDOUBLE;
      guint start = 0; /* the current part's first glyph in @indices */

      /* A part is a run of @indices: copied whole when it ends, not a glyph at a time. */
      current.rotation = build->rotation;
      current.v = build->v;
      current.size = build->size;
      for (guint k = 0; k <= indices->len; k++)
        {
          guint32 index;
          Placement p;

          if (k == indices->len)
            {
              /* A line no gutter parts has its chains' box: no glyph to look at again. */
              current.whole = start == 0;
              for (guint c = 0; current.whole && c < build->chains->len; c++)
                {
                  const DcGlyphBox *box = &chains[g_array_index (build->chains, guint, c)].box;

                  if (c == 0)
                    current.box = *box;
                  current.box.x0 = MIN (current.box.x0, box->x0);
                  current.box.y0 = MIN (current.box.y0, box->y0);
                  current.box.x1 = MAX (current.box.x1, box->x1);
                  current.box.y1 = MAX (current.box.y1, box->y1);
                }
              if (start == 0 && k > 0)
                {
                  /* Not parted (most lines): the final line is the line's glyphs. */
                  FinalLine final = current;

                  final.glyphs = g_array_ref ((GArray *) indices);
                  g_array_append_val (finals, final);
                }
              else if (k > start)
                add_final_line (finals, &current, indices, start, k);
              break;
            }
          index = g_array_index (indices, guint32, k);
          p = _dc_layout_placement_of (&glyphs[index]);
          if (split && k > start && p.u - reach > GUTTER_CANDIDATE * build->size
              && is_gutter (glyphs, builds, all_glyphs, l, reach, p.u))
            {
              add_final_line (finals, &current, indices, start, k);
              start = k;
            }
          reach = MAX (reach, p.u_end);
        }
    }
  return finals;
}
