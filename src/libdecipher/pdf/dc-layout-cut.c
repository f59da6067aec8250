/* dc-layout-cut.c: Freki's recursive XY-cut of a page into blocks, in reading order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page is cut before its lines are built (Freki's order): a line is only ever found
 * inside one block, so a title over both columns, or a gutter the title's ink crosses,
 * can no longer join the first lines of two columns into one. The cut tree gives the
 * reading order (top before bottom; left before right, mirrored on right-to-left pages)
 * and each block's path in it, its label. A table is a leaf of its own: its cells share
 * baselines across empty columns, and it is read row by row.
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "dc-layout-cut-private.h"

typedef struct
{
  double width, height; /* of the page */
  double min_valley;    /* the page's average character height */
  gboolean rtl;
  GArray *members; /* of guint: the leaves' item indices, leaf after leaf */
  GArray *leaves;  /* of DcCutLeaf */
  GString *path;
} CutContext;

static int
compare_items_y (gconstpointer a, gconstpointer b)
{
  const DcCutItem *ia = a, *ib = b;

  return ia->y0 < ib->y0 ? -1 : ia->y0 > ib->y0;
}

static int
compare_items_x (gconstpointer a, gconstpointer b)
{
  const DcCutItem *ia = a, *ib = b;

  return ia->x0 < ib->x0 ? -1 : ia->x0 > ib->x0;
}

/* Sorts the items by x0 or y0, keeping the order of equal ones, as qsort() with
 * compare_items_x() or compare_items_y() does (glibc's is a merge sort). The XY cut sorts
 * a page's few dozen lines again at every cut, and through qsort() each comparison was a
 * call: an insertion sort in-line does those sizes in a fraction of the instructions. */
static void
sort_items (DcCutItem *items, guint n, gboolean along_x)
{
  if (n > 64)
    {
      qsort (items, n, sizeof (DcCutItem), along_x ? compare_items_x : compare_items_y);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      DcCutItem item;
      double key = along_x ? items[i].x0 : items[i].y0;
      guint j = i;

      /* Most items stand after the one before already (lines come top to bottom): left
       * where they are, with no copy out and back. */
      if (!((along_x ? items[i - 1].x0 : items[i - 1].y0) > key))
        continue;
      item = items[i];
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
  const DcCutItem *ia = a, *ib = b;
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
widest_gap (DcCutItem *items, guint n, gboolean along_x, guint *split)
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

/* Whether the items [0, n), sorted by y0, are so many rows apart, each below the one
 * before it, that no two share a y0, while across the page all reach over one of them
 * (the widest, *@widest: the first of the widest), so that no empty band runs down between
 * them: then widest_gap() along x finds no gap, and sorting them by x and back by y leaves
 * them as they are. A column of text is so, and spares _dc_layout_order_block() two sorts
 * a line. */
static gboolean
stacked_in_one_column (const DcCutItem *items, guint n, guint *widest)
{
  guint w = 0;

  for (guint i = 1; i < n; i++)
    {
      if (!(items[i].y0 > items[i - 1].y0))
        return FALSE;
      if (items[i].x1 - items[i].x0 > items[w].x1 - items[w].x0)
        w = i;
    }
  for (guint i = 0; i < n; i++)
    if (!(items[i].x0 <= items[w].x1 && items[i].x1 >= items[w].x0))
      return FALSE;
  *widest = w;
  return TRUE;
}

/* _dc_layout_order_block() on the items [@lo, @hi) of a column stacked in one column
 * (stacked_in_one_column()), whose boxes are finite and not upside down, @gaps[i] the
 * gap along y before item i that widest_gap() found in the whole column, @widest the first
 * of its widest items. A column of evenly spaced lines is cut one line off at a time,
 * every cut sorting and measuring all the lines left: but the lines stay sorted by y0,
 * the gaps inside a part are those the whole column had (what a part leaves out is above
 * its first line's gap, its reach there below that line's top), and a part holding the
 * widest item is stacked in one column as the column is. So each cut is a look for the
 * widest gap, as the cut of the whole block would have made it; a part the column's
 * widest item is not in is looked at again. */
static void
order_column (DcCutItem *items, const double *gaps, guint lo, guint hi, guint widest, gboolean rtl,
              GArray *out)
{
  double best = 0;
  guint split = lo;

  if (hi - lo == 1)
    {
      g_array_append_val (out, items[lo].index);
      return;
    }
  for (guint i = lo + 1; i < hi; i++)
    if (gaps[i] > best)
      {
        best = gaps[i];
        split = i;
      }
  if (best > 0 && (widest < lo || widest >= hi)
      && stacked_in_one_column (items + lo, hi - lo, &widest))
    widest += lo;
  if (best > 0 && widest >= lo && widest < hi)
    {
      order_column (items, gaps, lo, split, widest, rtl, out);
      order_column (items, gaps, split, hi, widest, rtl, out);
    }
  else
    _dc_layout_order_block (items + lo, hi - lo, rtl, out);
}

/* Orders the items [0, @n), sorted by y0 and stacked in one column, its widest item
 * @widest, through order_column() where their boxes allow: returns FALSE where not. */
static gboolean
order_stacked (DcCutItem *items, guint n, guint widest, gboolean rtl, GArray *out)
{
  g_autofree double *gaps = NULL;
  double reach, right_x0, left_x1;
  gboolean apart = TRUE;

  for (guint i = 0; i < n; i++)
    if (!isfinite (items[i].x0) || !isfinite (items[i].x1) || !isfinite (items[i].y0)
        || !isfinite (items[i].y1) || items[i].y1 < items[i].y0)
      return FALSE;
  reach = items[0].y1;
  right_x0 = items[0].x0;
  left_x1 = items[0].x1;
  for (guint i = 1; i < n; i++)
    {
      apart = apart && items[i].y0 - reach > 0;
      reach = MAX (reach, items[i].y1);
      right_x0 = MAX (right_x0, items[i].x0);
      left_x1 = MIN (left_x1, items[i].x1);
    }
  /* Every line apart from the one before it, and all of them reaching over one point
   * across the page (the rightmost start left of the leftmost end: then any two reach
   * over each other), as a column's lines are: every part order_column() cuts has a gap
   * to cut at and is stacked in one column, so it cuts them all one from another and
   * reads them as they stand, top to bottom, without the cuts (each a look at all the
   * gaps of its part: a column of evenly spaced lines costs the square of their number). */
  if (apart && right_x0 <= left_x1)
    {
      guint *indices;

      g_array_set_size (out, out->len + n);
      indices = &g_array_index (out, guint, out->len - n);
      for (guint i = 0; i < n; i++)
        indices[i] = items[i].index;
      return TRUE;
    }
  /* The gaps only here, where the column is cut: not allocated for the usual column. */
  gaps = g_new (double, n);
  gaps[0] = 0;
  reach = items[0].y1;
  for (guint i = 1; i < n; i++)
    {
      gaps[i] = items[i].y0 - reach;
      reach = MAX (reach, items[i].y1);
    }
  order_column (items, gaps, 0, n, widest, rtl, out);
  return TRUE;
}

/* Orders the lines of one block. A block is one column by construction, except where
 * columns stand closer than the page's character height or are narrower than Freki's
 * minimum block: those are still read one after the other, cutting at the widest gap. */
void
_dc_layout_order_block (DcCutItem *items, guint n, gboolean rtl, GArray *out)
{
  guint split_x, split_y, widest;
  double gap_x, gap_y;

  if (n == 1)
    {
      g_array_append_val (out, items[0].index);
      return;
    }

  gap_y = widest_gap (items, n, FALSE, &split_y);
  if (gap_y > 0 && stacked_in_one_column (items, n, &widest))
    {
      /* No gap along x (gap_x 0): the cut below at the widest gap along y. */
      if (order_stacked (items, n, widest, rtl, out))
        return;
      _dc_layout_order_block (items, split_y, rtl, out);
      _dc_layout_order_block (items + split_y, n - split_y, rtl, out);
      return;
    }
  gap_x = widest_gap (items, n, TRUE, &split_x);

  if (gap_x <= 0 && gap_y <= 0)
    {
      g_qsort_with_data (items, n, sizeof (DcCutItem), compare_items_reading,
                         GINT_TO_POINTER (rtl));
      for (guint i = 0; i < n; i++)
        g_array_append_val (out, items[i].index);
      return;
    }

  if (gap_x > gap_y)
    {
      /* items are still sorted by x from the last widest_gap() call */
      if (rtl)
        {
          _dc_layout_order_block (items + split_x, n - split_x, rtl, out);
          _dc_layout_order_block (items, split_x, rtl, out);
        }
      else
        {
          _dc_layout_order_block (items, split_x, rtl, out);
          _dc_layout_order_block (items + split_x, n - split_x, rtl, out);
        }
    }
  else
    {
      sort_items (items, n, FALSE);
      _dc_layout_order_block (items, split_y, rtl, out);
      _dc_layout_order_block (items + split_y, n - split_y, rtl, out);
    }
}

/* In ems of the font size. */
#define MAX_TABLE_COLUMNS 16
#define PROSE_COLUMN_WIDTH 10.0 /* a column of prose is at least this wide… */
#define PROSE_LINE_FILL 0.8     /* …and most of its lines fill this much of it */
#define PROSE_LINES 0.6
#define ALIGNED_ROWS                                                                               \
  0.8 /* rows of a table with cells on both sides of each of its columns' gaps                     \
       */

typedef struct
{
  double x0, x1; /* the row's ink in one column */
} Cell;

static int
compare_items_centre (gconstpointer a, gconstpointer b)
{
  const DcCutItem *ia = a, *ib = b;
  double ca = (ia->y0 + ia->y1) / 2, cb = (ib->y0 + ib->y1) / 2;

  return ca < cb ? -1 : ca > cb;
}

/* Whether one of the columns is prose: wide, and most of its rows fill it (a table's
 * cells are short or ragged; a column of text is set to its measure). */
static gboolean
has_prose_column (const Cell *cells, guint n_rows, guint n_columns, double size)
{
  for (guint c = 0; c < n_columns; c++)
    {
      double left = G_MAXDOUBLE, right = -G_MAXDOUBLE;
      guint filled = 0, used = 0;

      for (guint r = 0; r < n_rows; r++)
        if (cells[r * n_columns + c].x1 > cells[r * n_columns + c].x0)
          {
            left = MIN (left, cells[r * n_columns + c].x0);
            right = MAX (right, cells[r * n_columns + c].x1);
          }
      if (right - left < PROSE_COLUMN_WIDTH * size)
        continue;
      for (guint r = 0; r < n_rows; r++)
        {
          const Cell *cell = &cells[r * n_columns + c];

          if (cell->x1 <= cell->x0)
            continue;
          used++;
          filled += cell->x1 - cell->x0 >= PROSE_LINE_FILL * (right - left);
        }
      if (used >= 2 && filled >= PROSE_LINES * used)
        return TRUE;
    }
  return FALSE;
}

/* A table: empty columns run down the whole region, most rows have cells on both sides
 * of each, and no column is a column of prose. */
static gboolean
is_table (DcCutItem *items, guint n, const CutContext *ctx)
{
  double gaps[MAX_TABLE_COLUMNS - 1];
  guint n_gaps = 0, n_rows = 0, aligned = 0;
  g_autofree Cell *cells = NULL;
  g_autofree guint *row_of = NULL;
  double reach, row_centre = 0, size = 0;

  if (n < 4)
    return FALSE;
  sort_items (items, n, TRUE);
  reach = items[0].x1;
  for (guint i = 1; i < n; i++)
    {
      if (items[i].x0 - reach >= ctx->min_valley)
        {
          if (n_gaps == G_N_ELEMENTS (gaps))
            return FALSE;
          gaps[n_gaps++] = (items[i].x0 + reach) / 2;
        }
      reach = MAX (reach, items[i].x1);
    }
  if (n_gaps == 0)
    return FALSE;

  /* Rows: items whose middles lie within half an em of the row's first. */
  qsort (items, n, sizeof (DcCutItem), compare_items_centre);
  row_of = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      double centre = (items[i].y0 + items[i].y1) / 2;

      if (i == 0 || centre - row_centre > 0.5 * items[i].size)
        {
          row_centre = centre;
          n_rows++;
        }
      row_of[i] = n_rows - 1;
      size += items[i].size / n;
    }
  if (n_rows < 2)
    return FALSE;

  cells = g_new0 (Cell, n_rows * (n_gaps + 1));
  for (guint i = 0; i < n; i++)
    {
      guint column = 0;
      Cell *cell;

      while (column < n_gaps && items[i].x0 > gaps[column])
        column++;
      cell = &cells[row_of[i] * (n_gaps + 1) + column];
      if (cell->x1 <= cell->x0)
        {
          cell->x0 = items[i].x0;
          cell->x1 = items[i].x1;
        }
      cell->x0 = MIN (cell->x0, items[i].x0);
      cell->x1 = MAX (cell->x1, items[i].x1);
    }
  for (guint r = 0; r < n_rows; r++)
    {
      gboolean both = TRUE;

      for (guint g = 0; g < n_gaps && both; g++)
        {
          gboolean left = FALSE, right = FALSE;

          for (guint c = 0; c <= n_gaps; c++)
            {
              const Cell *cell = &cells[r * (n_gaps + 1) + c];

              if (cell->x1 > cell->x0)
                {
                  left |= c <= g;
                  right |= c > g;
                }
            }
          both = left && right;
        }
      aligned += both;
    }
  if (aligned < ALIGNED_ROWS * n_rows)
    return FALSE;
  return !has_prose_column (cells, n_rows, n_gaps + 1, size);
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
best_cut (DcCutItem *items, guint n, const CutContext *ctx, gboolean *vertical, double *at)
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
                /* The bands lost two fifths of their lines' height; Freki's
                 * minimum is on the text boxes: a footer line in a small size
                 * still stands apart from the columns above it. */
                fits = MIN (reach - top, bottom - start) / 0.6 >= MIN_HCUT_HEIGHT * ctx->height
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
freki_cut (DcCutItem *items, guint n, CutContext *ctx)
{
  gboolean vertical, found;
  double at = 0;
  guint split = 0;

  found = best_cut (items, n, ctx, &vertical, &at);
  /* Columns of a table stand side by side as a two-column page's do; its rows are what
   * is read, so it is not cut between its columns. */
  if (!found || (vertical && is_table (items, n, ctx)))
    {
      DcCutLeaf leaf = { ctx->members->len, n, FALSE, g_strdup (ctx->path->str) };
      guint *members;

      leaf.table = found || is_table (items, n, ctx);
      /* Stored in place: an append a line cost a call. */
      g_array_set_size (ctx->members, leaf.first + n);
      members = &g_array_index (ctx->members, guint, leaf.first);
      for (guint i = 0; i < n; i++)
        members[i] = items[i].index;
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

void
_dc_layout_cut (DcCutItem *items, guint n, double page_width, double page_height, double min_valley,
                gboolean rtl, GArray *members, GArray *leaves)
{
  g_autoptr (GString) path = g_string_new (NULL);
  CutContext ctx;

  g_return_if_fail (members != NULL && leaves != NULL);

  if (n == 0)
    return;
  ctx.width = page_width > 0 ? page_width : 1;
  ctx.height = page_height > 0 ? page_height : 1;
  ctx.min_valley = min_valley > 0 ? min_valley : 1;
  ctx.rtl = rtl;
  ctx.members = members;
  ctx.leaves = leaves;
  ctx.path = path;
  freki_cut (items, n, &ctx);
}

void
_dc_layout_order_rows (DcCutItem *items, guint n, gboolean rtl, GArray *out)
{
  g_qsort_with_data (items, n, sizeof (DcCutItem), compare_items_reading, GINT_TO_POINTER (rtl));
  for (guint i = 0; i < n; i++)
    g_array_append_val (out, items[i].index);
}
