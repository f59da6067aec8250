/* dc-fingerprint-private.h: what the scans of a font program share (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <ft2build.h>
#include FT_FREETYPE_H

#include "dc-fingerprint.h"

G_BEGIN_DECLS

gboolean _dc_shape_from_face (FT_Library library, FT_Face face, guint gid, DcShape *shape,
                              gboolean with_coarse);
gboolean _dc_glyph_name_states_code_points (const char *name);
gboolean _dc_is_glyph_text (const char *text);

/* A shape's fingerprint as a key (the fingerprint is a hash already). */
guint _dc_shape_fingerprint_hash (gconstpointer fingerprint);
gboolean _dc_shape_fingerprint_equal (gconstpointer a, gconstpointer b);

/* dc-fingerprint-shaped.c: whether @face has a Brahmic script to shape, and each glyph of
 * it only shaping reaches (a conjunct, a half form, a vowel sign's variant) given to
 * @func with the text it stands for. @in_cmap has a bit per glyph the cmap reaches and
 * @cmap_outlines the fingerprints of their outlines, which are left out. */
gboolean _dc_fingerprint_shapes (FT_Face face);
void _dc_fingerprint_scan_shaped (FT_Library library, FT_Face face, const char *path,
                                  int face_index, const guint8 *in_cmap, GHashTable *cmap_outlines,
                                  DcShapeTextFunc func, gpointer user_data);

G_END_DECLS
