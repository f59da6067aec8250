/* dc-unicode-private.h: text classification shared inside the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _dc_text_is_space (const char *text);
gboolean _dc_unichar_is_noncharacter (gunichar c);
const char *_dc_charset_byte_to_utf8 (const char *charset, guint8 byte);

G_END_DECLS
