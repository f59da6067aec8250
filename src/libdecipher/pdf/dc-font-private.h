/* dc-font-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-font.h"
#include "dc-pdf-bridge-private.h"

G_BEGIN_DECLS

DcFont *_dc_font_new_from_bridge (guint index, const DcBridgeFont *info);
void _dc_font_get_bridge_info (DcFont *self, DcBridgeFont *info);
void _dc_font_set_counts (DcFont *self, guint n_symbols, guint n_glyphs);
void _dc_font_set_trust (DcFont *self, gboolean trusted, const char *reason);
double _dc_font_get_ascent (DcFont *self);
const char *_dc_font_get_double_byte_hint (DcFont *self);
void _dc_font_set_double_byte (DcFont *self, const char *charset);
double _dc_font_get_descent (DcFont *self);

G_END_DECLS
