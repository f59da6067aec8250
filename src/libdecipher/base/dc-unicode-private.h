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
char *_dc_text_without_presentation_forms (const char *text);

/* g_utf8_get_char() without a call for the one- to three-byte characters nearly all text
 * is made of, the same value for any bytes (tests/test-scripts.c): exports read every
 * character of a book several times over. */
static inline gunichar
_dc_utf8_get_char (const char *text)
{
  const guchar *p = (const guchar *) text;

  if (p[0] < 0x80)
    return p[0];
  if (p[0] >= 0xc0 && p[0] < 0xe0 && (p[1] & 0xc0) == 0x80)
    return ((gunichar) (p[0] & 0x1f) << 6) | (p[1] & 0x3f);
  if (p[0] >= 0xe0 && p[0] < 0xf0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80)
    return ((gunichar) (p[0] & 0x0f) << 12) | ((gunichar) (p[1] & 0x3f) << 6) | (p[2] & 0x3f);
  return g_utf8_get_char (text);
}

G_END_DECLS
