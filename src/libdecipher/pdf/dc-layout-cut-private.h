/* dc-layout-cut-private.h: Freki's recursive XY-cut of a page (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A piece of text to cut: its band (Freki's: a fifth of its height trimmed off each edge
 * across its line), its font size and what it stands for (a chain, a line). */
typedef struct
{
  double x0, y0, x1, y1;
  double size;
  guint index;
} DcCutItem;

/* A leaf of the cut tree: the items [first, first + n) of the members, the path to it
 * ("tl": top, then left) and whether it is a table, whose rows are its lines. */
typedef struct
{
  guint first, n;
  gboolean table;
  char *label;
} DcCutLeaf;

/* Cuts @items (reordered in place) the way Freki does and appends, leaf by leaf in
 * reading order, each leaf's item indices to @members (of guint) and the leaf to @leaves
 * (of DcCutLeaf, owning its label). @min_valley: the narrowest empty band that cuts. */
void _dc_layout_cut (DcCutItem *items, guint n, double page_width, double page_height,
                     double min_valley, gboolean rtl, GArray *members, GArray *leaves);

/* Appends the indices of the lines @items of one block to @out in reading order: one
 * column after the other where columns too narrow for a cut stand side by side. */
void _dc_layout_order_block (DcCutItem *items, guint n, gboolean rtl, GArray *out);

/* The rows of a table, top to bottom: no columns to read one after the other. */
void _dc_layout_order_rows (DcCutItem *items, guint n, gboolean rtl, GArray *out);

G_END_DECLS
