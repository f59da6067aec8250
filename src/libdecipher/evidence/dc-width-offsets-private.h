/* dc-width-offsets-private.h: runs of glyph numbers read as a Unicode block, width by width
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

guint _dc_width_offsets_apply (DcKey *key);

G_END_DECLS
