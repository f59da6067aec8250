/* decipher-symbol-model.h: every symbol of a document as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "decipher-glyph-shapes.h"
#include "decipher.h"
#include "decipher-symbol-item.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_SYMBOL_MODEL (decipher_symbol_model_get_type ())

G_DECLARE_FINAL_TYPE (DecipherSymbolModel, decipher_symbol_model, DECIPHER, SYMBOL_MODEL, GObject)

DecipherSymbolModel *decipher_symbol_model_new (DcSession *session, DecipherGlyphShapes *shapes);
DcSession *decipher_symbol_model_get_session (DecipherSymbolModel *self);

G_END_DECLS
