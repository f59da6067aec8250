/* dc-reorder.h: directions and scripts of lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DC_DIRECTION_NEUTRAL, /* no letters: digits, punctuation */
  DC_DIRECTION_LTR,
  DC_DIRECTION_RTL,
  DC_DIRECTION_TTB,     /* vertical: top to bottom */
} DcDirection;

const char *dc_direction_to_string (DcDirection direction);

G_END_DECLS
