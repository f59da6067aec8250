/* dc-glyph-private.h: writing a glyph's size, advance and box in its compact form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-pdf-bridge-private.h"
#include "dc-types.h"

G_BEGIN_DECLS

void _dc_glyph_set_metrics (DcGlyph *glyph, double size, double advance, double x0, double y0,
                            double x1, double y1);

/* Called by the loader with each glyph the bridge reports (its box, size and advance in
 * page points) and its index; for tests that check what the compact form keeps. NULL
 * outside them. */
typedef void (*DcGlyphHook) (guint index, double size, double advance, double x0, double y0,
                             double x1, double y1, gpointer user_data);
void _dc_glyph_set_hook (DcGlyphHook hook, gpointer user_data);
gboolean _dc_glyph_has_hook (void);
void _dc_glyph_call_hook (guint index, double size, double advance, double x0, double y0, double x1,
                          double y1);

G_END_DECLS
