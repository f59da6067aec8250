/* dc-agl-private.h: glyph names to text, by the Adobe Glyph List rules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *_dc_agl_name_to_text (const char *name);
const char *_dc_agl_mac_glyph_name (guint gid);
const char *_dc_agl_core_font_glyph_name (guint gid);
gboolean _dc_agl_split_numeric_name (const char *name, char prefix[3], const char **digits,
                                     gboolean *has_hex_letter);

#define DC_AGL_N_MAC_GLYPHS 258

G_END_DECLS
