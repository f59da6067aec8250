/* dc-layout.c: glyphs → lines → tokens, in reading order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lines are found geometrically rather than trusted to the content stream's order,
 * because producers draw text in any order (per glyph, per column, overlays). Glyphs are
 * first chained in stream order while they continue one baseline, then chains sharing a
 * baseline and adjoining horizontally merge into a visual line. Lines are then grouped
 * into blocks (paragraphs, headings, examples, columns) and put in reading order by the
 * recursive XY-cut of Freki, with its thresholds: the cut tree gives the reading order
 * (top before bottom; left before right, mirrored on right-to-left pages) and each
 * block's path in it (its label, e.g. "tbl").
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-layout-private.h"

/* In ems of the font size. */
#define SAME_BASELINE_CHAIN 0.25 /* a chain continues on the same baseline */
#define SAME_BASELINE_LINE 0.5   /* superscripts and marks still belong to their line */
#define MAX_BACKSTEP 0.6         /* a mark or a kern may step back this far */
#define MAX_LINE_GAP 4.0         /* wider than any justified word space */
#define GUTTER_CANDIDATE 1.0     /* a gap this wide may be a column gutter… */
#define GUTTER_NEIGHBOURHOOD 6.0 /* …when the lines this near above or below… */
#define GUTTER_MIN_WIDTH 0.5     /* …all leave a strip this wide empty inside it */
#define MIN_WORD_GAP 0.15        /* where no space glyph is drawn, a gap this wide is one */

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
  int line;
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

static GArray *
build_chains (const DcGlyph *glyphs, guint first, guint n, GArray *chain_glyphs)
{
  GArray *chains = g_array_new (FALSE, FALSE, sizeof (Chain));
  Chain *current = NULL;
  double last_u_end = 0;

  /* Every glyph of the page joins one chain, in the order drawn: written in place, where
   * an append a glyph cost more than the test that chains it. */
  g_array_set_size (chain_glyphs, n);

  for (guint i = first; i < first + n; i++)
    {
      const DcGlyph *glyph = &glyphs[i];
      Placement p = placement_of (glyph);
      double size = em (glyph);

      if (current != NULL && current->rotation == glyph->rotation)
        {
          double reference = MAX (size, current->size);
          gboolean same_baseline = fabs (p.v - current->v) <= SAME_BASELINE_CHAIN * reference;
          gboolean continues = p.u >= last_u_end - MAX_BACKSTEP * reference
                               && p.u - last_u_end <= MAX_LINE_GAP * reference;

          if (!same_baseline || !continues)
            current = NULL;
        }
      else
        current = NULL;

      if (current == NULL)
        {
          Chain chain = { 0 };

          chain.first = i - first;
          chain.rotation = glyph->rotation;
          chain.v = p.v;
          chain.u0 = MIN (p.u, p.u_end);
          chain.u1 = MAX (p.u, p.u_end);
          chain.size = size;
          chain.line = -1;
          g_array_append_val (chains, chain);
          current = &g_array_index (chains, Chain, chains->len - 1);
        }

      g_array_index (chain_glyphs, guint, i - first) = i;
      current->n++;
      current->u0 = MIN (current->u0, MIN (p.u, p.u_end));
      current->u1 = MAX (current->u1, MAX (p.u, p.u_end));
      current->size = MAX (current->size, size);
      last_u_end = p.u_end;
    }

  return chains;
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
merge_chains (Chain *chains, guint n_chains)
{
  g_autofree guint *by_baseline = g_new (guint, n_chains);
  GArray *lines = g_array_new (FALSE, TRUE, sizeof (LineBuild));

  g_array_set_clear_func (lines, clear_line_build);

  for (guint i = 0; i < n_chains; i++)
    by_baseline[i] = i;
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
  double x0, y0, x1, y1; /* the band used for cutting */
  double size;
  guint line;
} CutItem;

typedef struct
{
  double width, height; /* of the page */
  double min_valley;    /* the page's average character height */
  gboolean rtl;
  GArray *reading; /* of guint: line indices in reading order */
  GArray *leaves;  /* of Leaf */
  GString *path;
} CutContext;

typedef struct
{
  guint first, n; /* into reading */
  char *label;
} Leaf;

static int
compare_items_y (gconstpointer a, gconstpointer b)
{
  const CutItem *ia = a, *ib = b;

  return ia->y0 < ib->y0 ? -1 : ia->y0 > ib->y0;
}

static int
compare_items_x (gconstpointer a, gconstpointer b)
{
  const CutItem *ia = a, *ib = b;

  return ia->x0 < ib->x0 ? -1 : ia->x0 > ib->x0;
}

/* Sorts the items by x0 or y0, keeping the order of equal ones, as qsort() with
 * compare_items_x() or compare_items_y() does (glibc's is a merge sort). The XY cut sorts
 * a page's few dozen lines again at every cut, and through qsort() each comparison was a
 * call: an insertion sort in-line does those sizes in a fraction of the instructions. */
static void
sort_items (CutItem *items, guint n, gboolean along_x)
{
  if (n > 64)
    {
      qsort (items, n, sizeof (CutItem), along_x ? compare_items_x : compare_items_y);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      CutItem item = items[i];
      double key = along_x ? item.x0 : item.y0;
      guint j = i;

      while (j > 0 && (along_x ? items[j - 1].x0 : items[j - 1].y0) > key)
        {
          items[j] = items[j - 1];
          j--;
        }
      items[j] = item;
    }
}

static int
compare_items_reading (gconstpointer a, gconstpointer b, gpointer rtl)
{
  const CutItem *ia = a, *ib = b;
  double tolerance = 0.5 * MIN (ia->size, ib->size);

  if (fabs (ia->y1 - ib->y1) > tolerance)
    return ia->y1 < ib->y1 ? -1 : 1;
  if (GPOINTER_TO_INT (rtl))
    return ia->x1 > ib->x1 ? -1 : ia->x1 < ib->x1;
  return ia->x0 < ib->x0 ? -1 : ia->x0 > ib->x0;
}

/* The widest empty band across the items along one axis; returns the gap width and
 * leaves the items sorted along that axis with *split the count before the gap. */
static double
widest_gap (CutItem *items, guint n, gboolean along_x, guint *split)
{
  double reach, best = 0;

  sort_items (items, n, along_x);
  reach = along_x ? items[0].x1 : items[0].y1;
  *split = 0;
  for (guint i = 1; i < n; i++)
    {
      double start = along_x ? items[i].x0 : items[i].y0;
      double end = along_x ? items[i].x1 : items[i].y1;

      if (start - reach > best)
        {
          best = start - reach;
          *split = i;
        }
      reach = MAX (reach, end);
    }
  return best;
}

/* Orders the lines of one block. A block is one column by construction, except where
 * columns stand closer than the page's character height or are narrower than Freki's
 * minimum block: those are still read one after the other, cutting at the widest gap. */
static void
order_block (CutItem *items, guint n, gboolean rtl, GArray *out)
{
  guint split_x, split_y;
  double gap_x, gap_y;

  if (n == 1)
    {
      g_array_append_val (out, items[0].line);
      return;
    }

  gap_y = widest_gap (items, n, FALSE, &split_y);
  gap_x = widest_gap (items, n, TRUE, &split_x);

  if (gap_x <= 0 && gap_y <= 0)
    {
      g_qsort_with_data (items, n, sizeof (CutItem), compare_items_reading, GINT_TO_POINTER (rtl));
      for (guint i = 0; i < n; i++)
        g_array_append_val (out, items[i].line);
      return;
    }

  if (gap_x > gap_y)
    {
      /* items are still sorted by x from the last widest_gap() call */
      if (rtl)
        {
          order_block (items + split_x, n - split_x, rtl, out);
          order_block (items, split_x, rtl, out);
        }
      else
        {
          order_block (items, split_x, rtl, out);
          order_block (items + split_x, n - split_x, rtl, out);
        }
    }
  else
    {
      sort_items (items, n, FALSE);
      order_block (items, split_y, rtl, out);
      order_block (items + split_y, n - split_y, rtl, out);
    }
}

/* Freki's thresholds (Goodman, Georgi and Xia, "Freki"; freki/analyzers/xycut.py): no ink
 * at all in a valley (noise 0), a valley at least the average character height wide on
 * both axes, and each side of a cut at least a sixth of the page wide and 1/32 (cut
 * between columns) or 1/128 (cut between blocks above each other) of the page high. */
#define MIN_BLOCK_WIDTH (1.0 / 6)
#define MIN_VCUT_HEIGHT (1.0 / 32)
#define MIN_HCUT_HEIGHT (1.0 / 128)

/* The widest valley through which the items may be cut; FALSE when none qualifies. */
static gboolean
best_cut (CutItem *items, guint n, const CutContext *ctx, gboolean *vertical, double *at)
{
  double left = G_MAXDOUBLE, right = -G_MAXDOUBLE, top = G_MAXDOUBLE, bottom = -G_MAXDOUBLE;
  double best = -1, best_key = 0;
  gboolean best_vertical = FALSE;

  for (guint i = 0; i < n; i++)
    {
      left = MIN (left, items[i].x0);
      right = MAX (right, items[i].x1);
      top = MIN (top, items[i].y0);
      bottom = MAX (bottom, items[i].y1);
    }

  for (int axis = 0; axis < 2; axis++)
    {
      gboolean along_x = axis == 0;
      double reach;

      sort_items (items, n, along_x);
      reach = along_x ? items[0].x1 : items[0].y1;
      for (guint i = 1; i < n; i++)
        {
          double start = along_x ? items[i].x0 : items[i].y0;
          double end = along_x ? items[i].x1 : items[i].y1;
          double size = start - reach;

          if (size > 0 && size >= ctx->min_valley)
            {
              gboolean fits;
              double mid = (start + reach) / 2;
              /* Among equal valleys Freki takes the cut between columns, then the
               * rightmost or the topmost one. */
              double key = along_x ? mid : -mid;

              if (along_x)
                fits = (bottom - top) >= MIN_VCUT_HEIGHT * ctx->height
                       && MIN (reach - left, right - start) >= MIN_BLOCK_WIDTH * ctx->width;
              else
                fits = MIN (reach - top, bottom - start) >= MIN_HCUT_HEIGHT * ctx->height
                       && (right - left) >= MIN_BLOCK_WIDTH * ctx->width;
              if (fits
                  && (size > best || (size == best && along_x && !best_vertical)
                      || (size == best && along_x == best_vertical && key > best_key)))
                {
                  best = size;
                  best_vertical = along_x;
                  best_key = key;
                  *at = mid;
                }
            }
          reach = MAX (reach, end);
        }
    }
  *vertical = best_vertical;
  return best >= 0;
}

static void
freki_cut (CutItem *items, guint n, CutContext *ctx)
{
  gboolean vertical;
  double at = 0;
  guint split = 0;

  if (!best_cut (items, n, ctx, &vertical, &at))
    {
      Leaf leaf = { ctx->reading->len, 0, g_strdup (ctx->path->str) };

      order_block (items, n, ctx->rtl, ctx->reading);
      leaf.n = ctx->reading->len - leaf.first;
      g_array_append_val (ctx->leaves, leaf);
      return;
    }

  /* The valley is empty: every item lies wholly on one side of it. */
  sort_items (items, n, vertical);
  while (split < n && (vertical ? items[split].x0 : items[split].y0) < at)
    split++;
  g_assert (split > 0 && split < n);

  if (!vertical)
    {
      g_string_append_c (ctx->path, 't');
      freki_cut (items, split, ctx);
      ctx->path->str[ctx->path->len - 1] = 'b';
      freki_cut (items + split, n - split, ctx);
    }
  else if (!ctx->rtl)
    {
      g_string_append_c (ctx->path, 'l');
      freki_cut (items, split, ctx);
      ctx->path->str[ctx->path->len - 1] = 'r';
      freki_cut (items + split, n - split, ctx);
    }
  else
    {
      /* Right to left: the right-hand column is read first; labels stay spatial. */
      g_string_append_c (ctx->path, 'r');
      freki_cut (items + split, n - split, ctx);
      ctx->path->str[ctx->path->len - 1] = 'l';
      freki_cut (items, split, ctx);
    }
  g_string_truncate (ctx->path, ctx->path->len - 1);
}

typedef struct
{
  GArray *glyphs; /* of guint32, in reading order along the line */
  guint8 rotation;
  double v;
  double size;
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

/* Splits every line at its column gutters. */
static GArray *
split_gutters (const DcGlyph *glyphs, GArray *builds, const Chain *chains,
               const GArray *chain_glyphs)
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
              if (k > start)
                add_final_line (finals, &current, indices, start, k);
              break;
            }
          index = g_array_index (indices, guint32, k);
          p = placement_of (&glyphs[index]);
          if (k > start && p.u - reach > GUTTER_CANDIDATE * build->size
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

/* A line's glyphs in the order they stand along the baseline. Producers draw runs of
 * right-to-left text (cairo: cluster by cluster, spaces in a font of their own) in an
 * order that wanders back and forth; what is left to right on the page is the visual
 * order every later step (tokens, bidi, Indic reordering) starts from. A mark drawn
 * with no advance stays right after the glyph drawn before it, on which it sits. */
static void
sort_visually (const DcGlyph *glyphs, GArray *line)
{
  g_autofree VisualKey *keys = NULL;
  gboolean sorted = TRUE;
  double previous = -G_MAXDOUBLE;

  keys = g_new (VisualKey, MAX (1, line->len));
  for (guint k = 0; k < line->len; k++)
    {
      const DcGlyph *glyph = &glyphs[g_array_index (line, guint32, k)];
      Placement p = placement_of (glyph);

      keys[k].glyph = g_array_index (line, guint32, k);
      keys[k].position = k;
      /* …unless it is drawn outside that glyph (cairo may draw the alef of a lam-alef
       * right after the space before the word, long before its lam): then it stands
       * where it is drawn. */
      keys[k].u = (k > 0 && fabs (dc_glyph_get_advance (glyph)) < 0.05 * em (glyph)
                   && fabs (p.u - keys[k - 1].u) < em (glyph)
                   && drawn_over (&glyphs[g_array_index (line, guint32, k - 1)], p.u, em (glyph)))
                      ? keys[k - 1].u
                      : p.u;
      if (keys[k].u < previous - 0.05 * em (glyph))
        sorted = FALSE;
      previous = MAX (previous, keys[k].u);
    }
  if (sorted)
    return;
  qsort (keys, line->len, sizeof (VisualKey), compare_visual_keys);
  for (guint k = 0; k < line->len; k++)
    g_array_index (line, guint32, k) = keys[k].glyph;
}

void
dc_layout_lines (const DcGlyph *glyphs, guint first, guint n, guint page, double page_width,
                 double page_height, gboolean rtl, guint32 *order, GArray *lines, GArray *blocks)
{
  g_autoptr (GArray) chain_glyphs = NULL;
  g_autoptr (GArray) chains = NULL;
  g_autoptr (GArray) builds = NULL;
  g_autoptr (GArray) finals = NULL;
  g_autoptr (GArray) reading = NULL;
  g_autoptr (GArray) leaves = NULL;
  g_autoptr (GString) path = NULL;
  g_autofree CutItem *items = NULL;
  g_autofree DcLine *boxes = NULL;
  double heights = 0;
  guint n_heights = 0, first_line, placed = first;
  CutContext ctx;

  g_assert (glyphs != NULL || n == 0);
  g_assert (order != NULL && lines != NULL && blocks != NULL);

  if (n == 0)
    return;

  chain_glyphs = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  chains = build_chains (glyphs, first, n, chain_glyphs);
  builds = merge_chains ((Chain *) (void *) chains->data, chains->len);
  for (guint l = 0; l < builds->len; l++)
    g_array_sort_with_data (g_array_index (builds, LineBuild, l).chains, compare_chain_starts,
                            chains->data);
  finals = split_gutters (glyphs, builds, (const Chain *) (void *) chains->data, chain_glyphs);

  for (guint i = first; i < first + n; i++)
    {
      DcGlyphBox glyph_box = dc_glyph_get_box (&glyphs[i]);

      if (glyph_box.y1 > glyph_box.y0)
        {
          heights += glyph_box.y1 - glyph_box.y0;
          n_heights++;
        }
    }

  items = g_new0 (CutItem, finals->len);
  boxes = g_new0 (DcLine, finals->len);
  for (guint l = 0; l < finals->len; l++)
    {
      FinalLine *line = &g_array_index (finals, FinalLine, l);
      DcLine *box = &boxes[l];
      double shrink;

      for (guint k = 0; k < line->glyphs->len; k++)
        {
          DcGlyphBox glyph_box = dc_glyph_get_box (
              &glyphs[g_array_index (line->glyphs, guint32, k)]);

          if (k == 0)
            {
              box->x0 = glyph_box.x0;
              box->y0 = glyph_box.y0;
              box->x1 = glyph_box.x1;
              box->y1 = glyph_box.y1;
            }
          box->x0 = MIN (box->x0, glyph_box.x0);
          box->y0 = MIN (box->y0, glyph_box.y0);
          box->x1 = MAX (box->x1, glyph_box.x1);
          box->y1 = MAX (box->y1, glyph_box.y1);
        }

      /* Freki counts no ink in the outer fifths of a text box across its line, so
       * that ascenders and descenders of neighbouring lines do not close the valley
       * between two blocks. */
      items[l].x0 = box->x0;
      items[l].x1 = box->x1;
      items[l].y0 = box->y0;
      items[l].y1 = box->y1;
      if (line->rotation == 0 || line->rotation == 2)
        {
          shrink = (box->y1 - box->y0) / 5;
          items[l].y0 += shrink;
          items[l].y1 -= shrink;
        }
      else
        {
          shrink = (box->x1 - box->x0) / 5;
          items[l].x0 += shrink;
          items[l].x1 -= shrink;
        }
      items[l].size = line->size;
      items[l].line = l;
    }

  reading = g_array_sized_new (FALSE, FALSE, sizeof (guint), finals->len);
  leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
  path = g_string_new (NULL);
  ctx.width = page_width > 0 ? page_width : 1;
  ctx.height = page_height > 0 ? page_height : 1;
  ctx.min_valley = n_heights > 0 ? heights / n_heights : 1;
  ctx.rtl = rtl;
  ctx.reading = reading;
  ctx.leaves = leaves;
  ctx.path = path;
  freki_cut (items, finals->len, &ctx);

  first_line = lines->len;
  for (guint r = 0; r < reading->len; r++)
    {
      guint l = g_array_index (reading, guint, r);
      FinalLine *final = &g_array_index (finals, FinalLine, l);
      DcLine line = boxes[l];

      line.page = page;
      line.index = r;
      line.rotation = final->rotation;
      sort_visually (glyphs, final->glyphs);
      line.first_glyph = placed;
      line.n_glyphs = final->glyphs->len;
      memcpy (order + placed, final->glyphs->data, final->glyphs->len * sizeof (guint32));
      placed += final->glyphs->len;
      g_array_append_val (lines, line);
    }
  /* Every glyph joined one chain, every chain one line, every line the reading order. */
  g_assert (placed == first + n);

  for (guint b = 0; b < leaves->len; b++)
    {
      Leaf *leaf = &g_array_index (leaves, Leaf, b);
      DcBlock block = { 0 };

      block.page = page;
      block.index = b;
      block.first_line = first_line + leaf->first;
      block.n_lines = leaf->n;
      block.label = g_steal_pointer (&leaf->label);
      for (guint l = block.first_line; l < block.first_line + block.n_lines; l++)
        {
          const DcLine *line = &g_array_index (lines, DcLine, l);

          block.x0 = l == block.first_line ? line->x0 : MIN (block.x0, line->x0);
          block.y0 = l == block.first_line ? line->y0 : MIN (block.y0, line->y0);
          block.x1 = l == block.first_line ? line->x1 : MAX (block.x1, line->x1);
          block.y1 = l == block.first_line ? line->y1 : MAX (block.y1, line->y1);
        }
      g_array_append_val (blocks, block);
    }
}

guint
dc_layout_tokens_into (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint first_line,
                       guint end_line, const guint8 *symbol_is_space, DcToken *tokens,
                       guint first_token)
{
  guint n = first_token;

  for (guint l = first_line; l < end_line; l++)
    {
      DcLine *line = &lines[l];
      DcToken token = { 0 };
      Placement previous = { 0 };
      gboolean open = FALSE;

      line->first_token = n;
      token.line = l;

      for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
        {
          const DcGlyph *glyph = &glyphs[order[k]];
          Placement p = placement_of (glyph);

          if (symbol_is_space[glyph->symbol])
            {
              if (open)
                tokens[n++] = token;
              open = FALSE;
              continue;
            }

          if (open)
            {
              double gap = p.u - previous.u_end;

              if (gap > MIN_WORD_GAP * em (glyph) || gap < -MAX_LINE_GAP * em (glyph))
                {
                  tokens[n++] = token;
                  open = FALSE;
                }
            }

          if (!open)
            {
              token.first_glyph = k;
              token.n_glyphs = 0;
              open = TRUE;
            }
          token.n_glyphs++;
          /* A zero-width mark must not hide the gap after the glyph it sits on. */
          if (token.n_glyphs == 1 || dc_glyph_get_advance (glyph) != 0 || previous.u_end < p.u_end)
            previous = p;
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
