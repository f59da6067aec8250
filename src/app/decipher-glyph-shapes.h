/* decipher-glyph-shapes.h: what each symbol looks like, for the palette and popovers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-page-renderer.h"
#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_GLYPH_SHAPES (decipher_glyph_shapes_get_type ())

G_DECLARE_FINAL_TYPE (DecipherGlyphShapes, decipher_glyph_shapes, DECIPHER, GLYPH_SHAPES, GObject)

typedef enum
{
  DECIPHER_SHAPE_PENDING, /* being cut out of a page rendering */
  DECIPHER_SHAPE_READY,
  DECIPHER_SHAPE_EMPTY, /* the glyph draws nothing: a space */
  DECIPHER_SHAPE_FAILED,
} DecipherShapeState;

DecipherGlyphShapes *decipher_glyph_shapes_new (DcSession *session, DecipherPageRenderer *renderer);
DecipherPageRenderer *decipher_glyph_shapes_get_renderer (DecipherGlyphShapes *self);
GdkTexture *decipher_glyph_shapes_lookup (DecipherGlyphShapes *self, guint symbol,
                                          DecipherShapeState *state);

G_END_DECLS
