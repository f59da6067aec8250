/* dc-layout.h: glyphs → lines → tokens, in reading order (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-types.h"

G_BEGIN_DECLS

/* Groups the glyphs [first, first + n) of one page into visual lines, appending the
 * lines (in reading order, with glyph ranges into @order) to @lines and the glyph indices
 * to @order. Token fields are left for dc_layout_tokens(). */
void dc_layout_lines (const DcGlyph *glyphs,
                      guint first,
                      guint n,
                      guint page,
                      GArray *order,
                      GArray *lines);

/* Splits every line into tokens at space glyphs and at gaps where no space is drawn. */
void dc_layout_tokens (const DcGlyph *glyphs,
                       const guint32 *order,
                       DcLine *lines,
                       guint n_lines,
                       const guint8 *symbol_is_space,
                       GArray *tokens);

G_END_DECLS
