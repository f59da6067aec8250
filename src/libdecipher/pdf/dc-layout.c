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
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-layout-cut-private.h"
#include "dc-layout-private.h"

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

static Placement
placement_of (const DcGlyph *glyph)
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

static double
em (const DcGlyph *glyph)
{
  /* A zero or absurd size must not make every gap infinite or nothing. */
  return dc_glyph_get_size (glyph) > 0.5 ? dc_glyph_get_size (glyph) : 0.5;
}

static void
chain_start (Chain *chain, const DcGlyph *glyph, Placement p, guint place)
{
  memset (chain, 0, sizeof (Chain));
  chain->first = place;
  chain->rotation = glyph->rotation;
  chain->v = p.v;
  chain->u0 = MIN (p.u, p.u_end);
  chain->u1 = MAX (p.u, p.u_end);
  chain->size = em (glyph);
  chain->box = dc_glyph_get_box (glyph);
}

/* Adds @glyph, whose box is @box, to @chain. */
static inline void
chain_add_box (Chain *chain, const DcGlyph *glyph, Placement p, DcGlyphBox box)
{
  chain->n++;
  chain->u0 = MIN (chain->u0, MIN (p.u, p.u_end));
  chain->u1 = MAX (chain->u1, MAX (p.u, p.u_end));
  chain->size = MAX (chain->size, em (glyph));
  chain->box.x0 = MIN (chain->box.x0, box.x0);
  chain->box.y0 = MIN (chain->box.y0, box.y0);
  chain->box.x1 = MAX (chain->box.x1, box.x1);
  chain->box.y1 = MAX (chain->box.y1, box.y1);
}

static void
chain_add (Chain *chain, const DcGlyph *glyph, Placement p)
{
  chain_add_box (chain, glyph, p, dc_glyph_get_box (glyph));
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
split_chain (const DcGlyph *glyphs, const Chain *chain, const GArray *chain_glyphs, GArray *out)
{
  const guint *places = &g_array_index (chain_glyphs, guint, chain->first);
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (double));
  double last_u_end = 0, median, wide = GUTTER_CANDIDATE * chain->size;
  Chain part;

  for (guint k = 0; k < chain->n; k++)
    {
      Placement p = placement_of (&glyphs[places[k]]);

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
      const DcGlyph *glyph = &glyphs[places[k]];
      Placement p = placement_of (glyph);
      double gap = p.u - last_u_end;

      if (k > 0 && gap > wide && gap >= 2 * median)
        {
          g_array_append_val (out, part);
          chain_start (&part, glyph, p, chain->first + k);
        }
      else if (k == 0)
        chain_start (&part, glyph, p, chain->first);
      chain_add (&part, glyph, p);
      last_u_end = p.u_end;
    }
  g_array_append_val (out, part);
}

/* The page's glyphs in chains; @heights and @n_heights add up the heights of their boxes
 * (those not empty) in the order drawn, for Freki's valley, from the boxes the chains
 * decode anyway. */
static GArray *
build_chains (const DcGlyph *glyphs, guint first, guint n, GArray *chain_glyphs, double *heights,
              guint *n_heights)
{
  GArray *chains = g_array_new (FALSE, FALSE, sizeof (Chain));
  GArray *parted;
  Chain *current = NULL;
  double last_u_end = 0;
  gboolean any_wide = FALSE;

  /* Every glyph of the page joins one chain, in the order drawn: written in place, where
   * an append a glyph cost more than the test that chains it. */
  g_array_set_size (chain_glyphs, n);

  for (guint i = first; i < first + n; i++)
    {
      const DcGlyph *glyph = &glyphs[i];
      Placement p = placement_of (glyph);
      DcGlyphBox box = dc_glyph_get_box (glyph);

      if (current != NULL && current->rotation == glyph->rotation)
        {
          double reference = MAX (em (glyph), current->size);
          gboolean same_baseline = fabs (p.v - current->v) <= SAME_BASELINE_CHAIN * reference;
          gboolean continues = p.u >= last_u_end - MAX_BACKSTEP * reference
                               && p.u - last_u_end <= MAX_LINE_GAP * reference;

          if (!same_baseline || !continues)
            current = NULL;
          else if (p.u - last_u_end > GUTTER_CANDIDATE * reference)
            current->wide = any_wide = TRUE;
        }
      else
        current = NULL;

      if (current == NULL)
        {
          Chain chain;

          chain_start (&chain, glyph, p, i - first);
          g_array_append_val (chains, chain);
          current = &g_array_index (chains, Chain, chains->len - 1);
        }

      g_array_index (chain_glyphs, guint, i - first) = i;
      chain_add_box (current, glyph, p, box);
      if (box.y1 > box.y0)
        {
          *heights += box.y1 - box.y0;
          (*n_heights)++;
        }
      last_u_end = p.u_end;
    }
  if (!any_wide)
    return chains;

  parted = g_array_sized_new (FALSE, FALSE, sizeof (Chain), chains->len + 8);
  for (guint c = 0; c < chains->len; c++)
    {
      const Chain *chain = &g_array_index (chains, Chain, c);

      if (chain->wide)
        split_chain (glyphs, chain, chain_glyphs, parted);
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

static void
clear_line_build (gpointer data)
{
  LineBuild *line = data;

  g_clear_pointer (&line->chains, g_array_unref);
}

/* Merges chains into lines: sorted by baseline, each chain joins the nearest line on
 * nearly the same baseline, however far apart: a justified line of three long words
 * can leave gaps of ten ems where no space glyph is drawn. Columns on one baseline are
 * parted afterwards, where a gutter runs down the page (split_gutters). */
static GArray *
merge_chains (Chain *chains, const guint *members, guint n_chains)
{
  g_autofree guint *by_baseline = g_memdup2 (members, n_chains * sizeof (guint));
  GArray *lines = g_array_new (FALSE, TRUE, sizeof (LineBuild));

  g_array_set_clear_func (lines, clear_line_build);

  g_qsort_with_data (by_baseline, n_chains, sizeof (guint), compare_chain_baselines, chains);

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

          line.chains = g_array_new (FALSE, FALSE, sizeof (guint));
          line.rotation = chain->rotation;
          line.v = chain->v;
          line.u0 = chain->u0;
          line.u1 = chain->u1;
          line.size = chain->size;
          g_array_append_val (lines, line);
          best = &g_array_index (lines, LineBuild, lines->len - 1);
        }

      g_array_append_val (best->chains, c);
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

  return lines;
}

typedef struct
{
  GArray *glyphs; /* of guint32, in reading order along the line */
  guint8 rotation;
  double v;
  double size;
  gboolean whole; /* all of its build's chains: its box is theirs */
  DcGlyphBox box;
} FinalLine;

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
          Placement p = placement_of (&glyphs[g_array_index (other_glyphs, guint32, k)]);
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
static GArray *
split_gutters (const DcGlyph *glyphs, GArray *builds, const Chain *chains,
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
          p = placement_of (&glyphs[index]);
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

/* Whether a glyph drawn at @u along the baseline stands within @base's advance. */
static gboolean
drawn_over (const DcGlyph *base, double u, double em_size)
{
  Placement p = placement_of (base);
  double from = p.u + MIN (0.0, dc_glyph_get_advance (base)),
         to = p.u + MAX (0.0, dc_glyph_get_advance (base));

  return u >= from - 0.05 * em_size && u <= to + 0.05 * em_size;
}

/* Where the @k-th glyph of @line stands along the baseline for sorting, @before where the
 * glyph before it stands. A mark drawn with no advance stays right after the glyph drawn
 * before it, on which it sits… */
static double
visual_u (const DcGlyph *glyphs, const GArray *line, guint k, double before)
{
  const DcGlyph *glyph = &glyphs[g_array_index (line, guint32, k)];
  Placement p = placement_of (glyph);

  /* …unless it is drawn outside that glyph (cairo may draw the alef of a lam-alef right
   * after the space before the word, long before its lam): then it stands where it is
   * drawn. */
  return (k > 0 && fabs (dc_glyph_get_advance (glyph)) < 0.05 * em (glyph)
          && fabs (p.u - before) < em (glyph)
          && drawn_over (&glyphs[g_array_index (line, guint32, k - 1)], p.u, em (glyph)))
             ? before
             : p.u;
}

/* A line's glyphs in the order they stand along the baseline. Producers draw runs of
 * right-to-left text (cairo: cluster by cluster, spaces in a font of their own) in an
 * order that wanders back and forth; what is left to right on the page is the visual
 * order every later step (tokens, bidi, Indic reordering) starts from. Most lines are
 * drawn in order already: they are only looked at, and keys are made only to sort the
 * others. */
static void
sort_visually (const DcGlyph *glyphs, GArray *line)
{
  g_autofree VisualKey *keys = NULL;
  double previous = -G_MAXDOUBLE, u = 0;
  guint k;

  for (k = 0; k < line->len; k++)
    {
      const DcGlyph *glyph = &glyphs[g_array_index (line, guint32, k)];

      u = visual_u (glyphs, line, k, u);
      if (u < previous - 0.05 * em (glyph))
        break;
      previous = MAX (previous, u);
    }
  if (k == line->len)
    return;

  keys = g_new (VisualKey, line->len);
  for (k = 0; k < line->len; k++)
    {
      keys[k].glyph = g_array_index (line, guint32, k);
      keys[k].position = k;
      keys[k].u = visual_u (glyphs, line, k, k > 0 ? keys[k - 1].u : 0);
    }
  qsort (keys, line->len, sizeof (VisualKey), compare_visual_keys);
  for (k = 0; k < line->len; k++)
    g_array_index (line, guint32, k) = keys[k].glyph;
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
line_box (const DcGlyph *glyphs, const GArray *line)
{
  DcGlyphBox box = dc_glyph_get_box (&glyphs[g_array_index (line, guint32, 0)]);

  for (guint k = 1; k < line->len; k++)
    {
      DcGlyphBox glyph_box = dc_glyph_get_box (&glyphs[g_array_index (line, guint32, k)]);

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
  guint page;
  gboolean rtl;
  guint32 *order;
  guint placed; /* the next place in @order */
  GArray *lines;
} PageOut;

/* Builds the lines of one leaf of the cut, its chains @members, and appends them to the
 * page's lines in reading order. */
static void
lay_out_leaf (PageOut *out, Chain *chains, const GArray *chain_glyphs, const guint *members,
              guint n_members, gboolean table)
{
  g_autoptr (GArray) builds = merge_chains (chains, members, n_members);
  g_autoptr (GArray) finals = NULL;
  g_autoptr (GArray) reading = NULL;
  g_autofree DcCutItem *items = NULL;
  g_autofree DcGlyphBox *boxes = NULL;

  for (guint l = 0; l < builds->len; l++)
    g_array_sort_with_data (g_array_index (builds, LineBuild, l).chains, compare_chain_starts,
                            chains);
  finals = split_gutters (out->glyphs, builds, chains, chain_glyphs, !table);

  items = g_new (DcCutItem, finals->len);
  boxes = g_new (DcGlyphBox, finals->len);
  for (guint l = 0; l < finals->len; l++)
    {
      FinalLine *line = &g_array_index (finals, FinalLine, l);

      boxes[l] = line->whole ? line->box : line_box (out->glyphs, line->glyphs);
      items[l] = cut_item (&boxes[l], line->rotation, line->size, l);
    }
  reading = g_array_sized_new (FALSE, FALSE, sizeof (guint), finals->len);
  if (table)
    _dc_layout_order_rows (items, finals->len, out->rtl, reading);
  else
    _dc_layout_order_block (items, finals->len, out->rtl, reading);

  for (guint r = 0; r < reading->len; r++)
    {
      guint l = g_array_index (reading, guint, r);
      FinalLine *final = &g_array_index (finals, FinalLine, l);
      DcLine line = { 0 };

      line.x0 = boxes[l].x0;
      line.y0 = boxes[l].y0;
      line.x1 = boxes[l].x1;
      line.y1 = boxes[l].y1;
      line.page = out->page;
      line.rotation = final->rotation;
      sort_visually (out->glyphs, final->glyphs);
      line.first_glyph = out->placed;
      line.n_glyphs = final->glyphs->len;
      memcpy (out->order + out->placed, final->glyphs->data, final->glyphs->len * sizeof (guint32));
      out->placed += final->glyphs->len;
      g_array_append_val (out->lines, line);
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
                 double page_height, gboolean rtl, guint32 *order, GArray *lines, GArray *blocks)
{
  g_autoptr (GArray) chain_glyphs = NULL;
  g_autoptr (GArray) chains = NULL;
  g_autoptr (GArray) members = NULL;
  g_autoptr (GArray) leaves = NULL;
  g_autofree DcCutItem *items = NULL;
  double heights = 0;
  guint n_heights = 0, first_line;
  PageOut out = { glyphs, page, rtl, order, first, lines };

  g_assert (glyphs != NULL || n == 0);
  g_assert (order != NULL && lines != NULL && blocks != NULL);

  if (n == 0)
    return;

  chain_glyphs = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  /* And Freki's valley: the page's average character height. */
  chains = build_chains (glyphs, first, n, chain_glyphs, &heights, &n_heights);

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

  first_line = lines->len;
  for (guint b = 0; b < leaves->len; b++)
    {
      DcCutLeaf *leaf = &g_array_index (leaves, DcCutLeaf, b);
      guint leaf_first = lines->len;

      lay_out_leaf (&out, (Chain *) (void *) chains->data, chain_glyphs,
                    &g_array_index (members, guint, leaf->first), leaf->n, leaf->table);
      append_block (blocks, lines, page, b, leaf_first, lines->len - leaf_first,
                    g_steal_pointer (&leaf->label), leaf->table);
    }
  for (guint l = first_line; l < lines->len; l++)
    g_array_index (lines, DcLine, l).index = l - first_line;
  /* Every glyph joined one chain, every chain one leaf and one line. */
  g_assert (out.placed == first + n);
}

/* The gap before each glyph of a line along its baseline, in ems of the glyph, from the
 * end of the glyph before (a zero-width mark does not hide the gap after the glyph it
 * sits on); INFINITY at a space glyph, NAN at the line's first glyph and the one after a
 * space. */
static void
measure_gaps (const DcGlyph *glyphs, const guint32 *order, const DcLine *line,
              const guint8 *symbol_is_space, double *gaps)
{
  Placement previous = { 0 };
  gboolean open = FALSE;

  for (guint k = 0; k < line->n_glyphs; k++)
    {
      const DcGlyph *glyph = &glyphs[order[line->first_glyph + k]];
      Placement p;

      if (symbol_is_space[glyph->symbol])
        {
          gaps[k] = INFINITY;
          open = FALSE;
          continue;
        }
      p = placement_of (glyph);
      if (!open)
        {
          gaps[k] = NAN;
          open = TRUE;
          previous = p;
          continue;
        }
      gaps[k] = (p.u - previous.u_end) / em (glyph);
      if (dc_glyph_get_advance (glyph) != 0 || previous.u_end < p.u_end)
        previous = p;
    }
}

/* Letter-spacing: where three gaps or more in a row are wider than a kern and all alike,
 * the glyphs between them are one word set wide (Tc), whatever the gaps' width; Freki
 * respaces such words. Word spaces differ from word to word, and run between words of
 * several letters, so they never line up that way. */
static void
join_letter_spacing (double *gaps, guint n)
{
  guint k = 0;

  while (k < n)
    {
      guint end = k;

      if (!(gaps[k] >= LETTER_GAP_MIN) || isinf (gaps[k]))
        {
          k++;
          continue;
        }
      while (end + 1 < n && isfinite (gaps[end + 1])
             && fabs (gaps[end + 1] - gaps[k]) <= LETTER_GAP_SPREAD)
        end++;
      if (end + 1 - k >= LETTER_RUN)
        for (guint i = k; i <= end; i++)
          gaps[i] = 0;
      k = end + 1;
    }
}

guint
dc_layout_tokens_into (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint first_line,
                       guint end_line, const guint8 *symbol_is_space, DcToken *tokens,
                       guint first_token)
{
  guint n = first_token, room = 0;
  g_autofree double *gaps = NULL;

  for (guint l = first_line; l < end_line; l++)
    {
      DcLine *line = &lines[l];
      DcToken token = { 0 };
      gboolean open = FALSE;

      if (line->n_glyphs > room)
        {
          room = MAX (line->n_glyphs, 2 * room);
          gaps = g_renew (double, gaps, room);
        }
      measure_gaps (glyphs, order, line, symbol_is_space, gaps);
      join_letter_spacing (gaps, line->n_glyphs);

      line->first_token = n;
      token.line = l;

      for (guint k = 0; k < line->n_glyphs; k++)
        {
          if (isinf (gaps[k]))
            {
              if (open)
                tokens[n++] = token;
              open = FALSE;
              continue;
            }
          if (open && (gaps[k] > WORD_GAP || gaps[k] < -MAX_LINE_GAP))
            {
              tokens[n++] = token;
              open = FALSE;
            }
          if (!open)
            {
              token.first_glyph = line->first_glyph + k;
              token.n_glyphs = 0;
              open = TRUE;
            }
          token.n_glyphs++;
        }

      if (open)
        tokens[n++] = token;
      line->n_tokens = n - line->first_token;
    }
  return n - first_token;
}

void
dc_layout_tokens (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint n_lines,
                  const guint8 *symbol_is_space, GArray *tokens)
{
  guint n_glyphs = 0;

  g_assert (tokens != NULL);

  /* A token holds a glyph at least: room for as many tokens as there are glyphs, so that
   * each token is stored in place (a book has a few hundred thousand). */
  for (guint l = 0; l < n_lines; l++)
    n_glyphs += lines[l].n_glyphs;
  g_array_set_size (tokens, n_glyphs);
  g_array_set_size (tokens,
                    dc_layout_tokens_into (glyphs, order, lines, 0, n_lines, symbol_is_space,
                                           (DcToken *) (void *) tokens->data, 0));
}
