/* test-layout-order.c: the reading order of a block's lines (_dc_layout_order_block)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A block's lines, given as the cut sees them, in an order the block does not read them
 * in. A column stacked in one column is cut at its gaps measured once; these are the
 * cases where a part of it must be looked at again.
 */

#include <glib.h>

#include "dc-layout-cut-private.h"

static DcCutItem
item (double x0, double y0, double x1, double y1, guint index)
{
  DcCutItem it = { x0, y0, x1, y1, 10.0, index };

  return it;
}

/* Orders @items (given in a scrambled order) and checks the indices read. */
static void
check_order (const DcCutItem *items, guint n, gboolean rtl, const guint *expected)
{
  g_autofree DcCutItem *copy = g_new (DcCutItem, n);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (guint));

  /* Bottom to top, from the middle on: not in reading order. */
  for (guint i = 0; i < n; i++)
    copy[i] = items[(n - 1 - i + n / 2) % n];
  _dc_layout_order_block (copy, n, rtl, out);
  g_assert_cmpuint (out->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (g_array_index (out, guint, i), ==, expected[i]);
}

/* A hundred evenly spaced lines of a column, of ragged widths: read top to bottom. */
static void
test_even_column (void)
{
  DcCutItem items[100];
  guint expected[100];

  for (guint i = 0; i < 100; i++)
    {
      items[i] = item (50, 100 + 12.0 * i, 300 - (i * 37 % 90), 108 + 12.0 * i, i);
      expected[i] = i;
    }
  check_order (items, 100, FALSE, expected);
  check_order (items, 100, TRUE, expected);
}

/* A wide line over two narrow ones that stand side by side, a little apart in height:
 * the whole is one column (both reach under the wide line), but the two alone are two
 * columns, read left to right, or right to left in a right-to-left page. */
static void
test_title_over_columns (void)
{
  DcCutItem items[] = {
    item (0, 0, 100, 10, 0),
    item (0, 20, 40, 30, 1),
    item (60, 32, 100, 42, 2),
  };
  const guint ltr[] = { 0, 1, 2 }, rtl[] = { 0, 2, 1 };

  check_order (items, G_N_ELEMENTS (items), FALSE, ltr);
  check_order (items, G_N_ELEMENTS (items), TRUE, rtl);
}

/* The same under a column of evenly spaced lines: the two narrow lines are cut off the
 * column, where its widest line is not, and read as two columns still. */
static void
test_columns_under_column (void)
{
  DcCutItem items[12];
  const guint rtl[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 10 };
  guint ltr[12];

  for (guint i = 0; i < 10; i++)
    items[i] = item (0, 12.0 * i, i == 4 ? 100 : 90, 8 + 12.0 * i, i);
  items[10] = item (0, 200, 40, 210, 10);
  items[11] = item (60, 212, 100, 222, 11);
  for (guint i = 0; i < 12; i++)
    ltr[i] = i;
  check_order (items, G_N_ELEMENTS (items), FALSE, ltr);
  check_order (items, G_N_ELEMENTS (items), TRUE, rtl);
}

/* A line whose box is upside down (its top below its bottom) is read where it stands. */
static void
test_upside_down_box (void)
{
  DcCutItem items[] = {
    item (0, 0, 100, 10, 0),
    item (0, 30, 90, 20, 1),
    item (0, 40, 95, 50, 2),
  };
  const guint expected[] = { 0, 1, 2 };

  check_order (items, G_N_ELEMENTS (items), FALSE, expected);
}

/* A column whose lines all reach over one another across the page, but two of them
 * share their height (a line set in two runs a little apart in height): the column is
 * not read line after line as it stands, top to bottom, but those two by the reading
 * sort, left before right. */
static void
test_lines_sharing_height (void)
{
  DcCutItem items[] = {
    item (0, 0, 100, 8, 0),  item (0, 12, 100, 20, 1), item (50, 24, 100, 32, 2),
    item (0, 25, 55, 31, 3), item (0, 36, 100, 44, 4),
  };
  const guint expected[] = { 0, 1, 3, 2, 4 };

  check_order (items, G_N_ELEMENTS (items), FALSE, expected);
}

/* A column of lines apart in height under a line as wide as the column, two of them side
 * by side, a little apart in height: all reach under the wide line, but the two narrow
 * ones do not reach over each other, and the lines under the wide one are read as two
 * columns, left before right, or right before left in a right-to-left page. */
static void
test_narrow_lines_under_wide (void)
{
  DcCutItem items[] = {
    item (0, 0, 100, 8, 0),
    item (0, 12, 40, 20, 1),
    item (60, 24, 100, 32, 2),
    item (0, 36, 40, 44, 3),
  };
  const guint ltr[] = { 0, 1, 3, 2 }, rtl[] = { 0, 2, 1, 3 };

  check_order (items, G_N_ELEMENTS (items), FALSE, ltr);
  check_order (items, G_N_ELEMENTS (items), TRUE, rtl);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/layout-order/even-column", test_even_column);
  g_test_add_func ("/layout-order/title-over-columns", test_title_over_columns);
  g_test_add_func ("/layout-order/columns-under-column", test_columns_under_column);
  g_test_add_func ("/layout-order/upside-down-box", test_upside_down_box);
  g_test_add_func ("/layout-order/lines-sharing-height", test_lines_sharing_height);
  g_test_add_func ("/layout-order/narrow-lines-under-wide", test_narrow_lines_under_wide);
  return g_test_run ();
}
