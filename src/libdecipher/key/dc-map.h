/* dc-map.h: the recovered code → text map, as ToUnicode CMaps and as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

#define DC_MAP_FORMAT "decipher-map"
#define DC_MAP_VERSION 1

gboolean dc_map_font_is_recovered (DcKey *key, guint font);
gboolean dc_map_has_recovered (DcKey *key);
char *dc_map_font_to_cmap (DcKey *key, guint font, GError **error);
char *dc_map_to_json (DcKey *key, GError **error);

G_END_DECLS
