/* decipher-symbol-item.h: one symbol of a document, as a list item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-glyph-shapes.h"
#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_SYMBOL_ITEM (decipher_symbol_item_get_type ())

G_DECLARE_FINAL_TYPE (DecipherSymbolItem, decipher_symbol_item, DECIPHER, SYMBOL_ITEM, GObject)

DecipherSymbolItem *decipher_symbol_item_new (DcSession *session, DecipherGlyphShapes *shapes,
                                              guint symbol);
guint decipher_symbol_item_get_symbol (DecipherSymbolItem *self);
DcSession *decipher_symbol_item_get_session (DecipherSymbolItem *self);
guint decipher_symbol_item_get_count (DecipherSymbolItem *self);
guint decipher_symbol_item_get_font (DecipherSymbolItem *self);
guint32 decipher_symbol_item_get_code (DecipherSymbolItem *self);
gboolean decipher_symbol_item_get_unknown (DecipherSymbolItem *self);
gboolean decipher_symbol_item_get_needs_decoding (DecipherSymbolItem *self);
DcKeyStatus decipher_symbol_item_get_status (DecipherSymbolItem *self);
char *decipher_symbol_item_dup_value_label (DecipherSymbolItem *self);
char *decipher_symbol_item_dup_title (DecipherSymbolItem *self);
GdkTexture *decipher_symbol_item_get_shape (DecipherSymbolItem *self, DecipherShapeState *state);

void _decipher_symbol_item_value_changed (DecipherSymbolItem *self);
void _decipher_symbol_item_shape_changed (DecipherSymbolItem *self);

G_END_DECLS
