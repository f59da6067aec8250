/* dc-font-tables.h: what the fonts themselves say their glyphs are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

guint dc_font_tables_apply (DcKey *key);

G_END_DECLS
