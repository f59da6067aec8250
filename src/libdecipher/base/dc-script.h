/* dc-script.h: which script and direction a run of text is in (UAX #24)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DC_DIRECTION_LTR,
  DC_DIRECTION_RTL,
  DC_DIRECTION_TTB, /* vertical lines, top to bottom */
  DC_DIRECTION_BTT,
} DcDirection;

gboolean dc_script_is_rtl (GUnicodeScript script);
gboolean dc_script_is_joining (GUnicodeScript script);
GUnicodeScript dc_text_get_script (const char *text, gboolean *mixed);
void dc_script_to_iso15924 (GUnicodeScript script, char code[5]);
const char *dc_direction_to_string (DcDirection direction);
DcDirection dc_text_get_direction (GUnicodeScript script, guint rotation);

G_END_DECLS
