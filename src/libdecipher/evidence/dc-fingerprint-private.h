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

/* Calls @func with the shape of each glyph of @face that only shaping reaches (a
 * conjunct, a half form, a vowel sign's variant) and the text it stands for; @in_cmap
 * has a bit per glyph the cmap reaches, which are left out. dc-fingerprint-shaped.c. */
void _dc_fingerprint_scan_shaped (FT_Library library, FT_Face face, const char *path,
                                  int face_index, const guint8 *in_cmap, DcShapeTextFunc func,
                                  gpointer user_data);

G_END_DECLS
