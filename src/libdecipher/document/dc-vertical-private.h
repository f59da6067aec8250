/* dc-vertical-private.h: glyphs standing in vertical columns, and the columns' order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

void _dc_vertical_mark_stacked (DcGlyph *glyphs, const DcSymbol *symbols, guint n_glyphs);
gboolean _dc_vertical_columns_right_to_left (const DcGlyph *glyphs, const DcSymbol *symbols,
                                             guint first, guint end, gboolean *vertical);

G_END_DECLS
