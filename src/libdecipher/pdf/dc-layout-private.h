/* dc-layout-private.h: glyphs → lines → tokens, in reading order (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-types.h"

G_BEGIN_DECLS

/* Groups the glyphs [first, first + n) of one page into visual lines and the lines into
 * blocks, appending the lines (in reading order, with glyph ranges into @order) to
 * @lines and the blocks (DcBlock, owning their label; first_line counts in @lines) to
 * @blocks. The page's glyph indices, in reading order, take the places
 * [first, first + n) of the document's reading order @order: each glyph has one place,
 * so the pages' places are their glyph ranges, whatever thread lays out which page.
 * Whether the columns read right to left, mirroring their order, @rtl_func says from the
 * page's glyphs counted by their symbols' @letter_kinds (each 0, 1 or 2) and how many
 * stand turned (rotation 1 or 3), counted while chaining them. Token fields are left for
 * dc_layout_tokens(). Reads only @glyphs and writes only what it is given: pages may be
 * laid out on several threads at once. */
typedef gboolean (*DcLayoutRtlFunc) (const guint letter_counts[3], guint n_turned,
                                     gpointer user_data);

void dc_layout_lines (const DcGlyph *glyphs, guint first, guint n, guint page, double page_width,
                      double page_height, const guint8 *letter_kinds, DcLayoutRtlFunc rtl_func,
                      gpointer rtl_data, guint32 *order, GArray *lines, GArray *blocks);

/* Splits every line into tokens at space glyphs and at gaps where no space is drawn. */
void dc_layout_tokens (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint n_lines,
                       const guint8 *symbol_is_space, GArray *tokens);

/* dc_layout_tokens() for the lines [@first_line, @end_line) alone, their tokens stored
 * from @tokens[@first_token] on (room for one a glyph at most) and their first_token
 * counted from the start of @tokens. Returns how many it stored. Writes only those lines
 * and that room: ranges of lines may be split on several threads at once. */
guint dc_layout_tokens_into (const DcGlyph *glyphs, const guint32 *order, DcLine *lines,
                             guint first_line, guint end_line, const guint8 *symbol_is_space,
                             DcToken *tokens, guint first_token);

G_END_DECLS
