/* decipher-glyph-cell.h: one symbol in the glyph palette
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-symbol-item.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_GLYPH_CELL (decipher_glyph_cell_get_type ())

G_DECLARE_FINAL_TYPE (DecipherGlyphCell, decipher_glyph_cell, DECIPHER, GLYPH_CELL, GtkWidget)

GtkWidget *decipher_glyph_cell_new (void);
DecipherSymbolItem *decipher_glyph_cell_get_item (DecipherGlyphCell *self);
void decipher_glyph_cell_set_item (DecipherGlyphCell *self, DecipherSymbolItem *item);
GtkLabel *decipher_glyph_cell_get_confidence_label (DecipherGlyphCell *self);
const char *decipher_glyph_cell_get_tooltip (DecipherGlyphCell *self);

G_END_DECLS
