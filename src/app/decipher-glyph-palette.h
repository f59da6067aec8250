/* decipher-glyph-palette.h: a grid of every symbol, with its shape and value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-glyph-shapes.h"
#include "decipher-recognize-bar.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

typedef enum
{
  DECIPHER_PALETTE_UNKNOWN,   /* "To Decode": still without a value; the default */
  DECIPHER_PALETTE_TO_DECODE, /* "Untrusted Fonts": their every symbol, decoded or not */
  DECIPHER_PALETTE_ALL,
  DECIPHER_PALETTE_FONT, /* + font index: one font's symbols */
} DecipherPaletteFilter;

#define DECIPHER_TYPE_GLYPH_PALETTE (decipher_glyph_palette_get_type ())

G_DECLARE_FINAL_TYPE (DecipherGlyphPalette, decipher_glyph_palette, DECIPHER, GLYPH_PALETTE,
                      GtkWidget)

void decipher_glyph_palette_set_session (DecipherGlyphPalette *self, DcSession *session,
                                         DecipherGlyphShapes *shapes);
void decipher_glyph_palette_set_view_state (DecipherGlyphPalette *self, DecipherViewState *state);
DecipherViewState *decipher_glyph_palette_get_view_state (DecipherGlyphPalette *self);
void decipher_glyph_palette_hold_cells (DecipherGlyphPalette *self, gboolean hold);
void decipher_glyph_palette_set_filter (DecipherGlyphPalette *self, guint filter);
guint decipher_glyph_palette_get_filter (DecipherGlyphPalette *self);
guint decipher_glyph_palette_get_proposals_filter (DecipherGlyphPalette *self);
GListModel *decipher_glyph_palette_get_model (DecipherGlyphPalette *self);
guint decipher_glyph_palette_get_selected_symbol (DecipherGlyphPalette *self);
gboolean decipher_glyph_palette_type_text (DecipherGlyphPalette *self, const char *text);
DecipherRecognizeBar *decipher_glyph_palette_get_recognize_bar (DecipherGlyphPalette *self);

G_END_DECLS
