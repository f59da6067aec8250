/* decipher-shape-paintable.h: a glyph's shape, drawn by a node kept from frame to frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DECIPHER_TYPE_SHAPE_PAINTABLE (decipher_shape_paintable_get_type ())

G_DECLARE_FINAL_TYPE (DecipherShapePaintable, decipher_shape_paintable, DECIPHER, SHAPE_PAINTABLE,
                      GObject)

GdkPaintable *decipher_shape_paintable_for_texture (GdkTexture *texture);
void decipher_shape_paintable_set_surface (GdkTexture *texture, cairo_surface_t *surface);

G_END_DECLS
