/* decipher-glyph-popover.h: assign one symbol's value, from a glyph on the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-glyph-shapes.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_GLYPH_POPOVER (decipher_glyph_popover_get_type ())

G_DECLARE_FINAL_TYPE (DecipherGlyphPopover, decipher_glyph_popover, DECIPHER, GLYPH_POPOVER,
                      GtkPopover)

GtkWidget *decipher_glyph_popover_new (void);
void decipher_glyph_popover_set_session (DecipherGlyphPopover *self, DcSession *session,
                                         DecipherGlyphShapes *shapes);
void decipher_glyph_popover_set_view_state (DecipherGlyphPopover *self, DecipherViewState *state);
void decipher_glyph_popover_set_symbol (DecipherGlyphPopover *self, guint symbol);
void decipher_glyph_popover_set_glyph (DecipherGlyphPopover *self, guint glyph);
const char *decipher_glyph_popover_get_split (DecipherGlyphPopover *self);
gboolean decipher_glyph_popover_read_as_symbol (DecipherGlyphPopover *self);
guint decipher_glyph_popover_get_symbol (DecipherGlyphPopover *self);
void decipher_glyph_popover_set_text (DecipherGlyphPopover *self, const char *text);
gboolean decipher_glyph_popover_assign (DecipherGlyphPopover *self);
gboolean decipher_glyph_popover_has_proposal (DecipherGlyphPopover *self);
gboolean decipher_glyph_popover_accept_proposal (DecipherGlyphPopover *self);
const char *decipher_glyph_popover_get_error (DecipherGlyphPopover *self);
const char *decipher_glyph_popover_get_why (DecipherGlyphPopover *self);

G_END_DECLS
