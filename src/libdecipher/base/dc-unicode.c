/* dc-unicode.c: text classification shared inside the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dc-unicode-private.h"

/* Non-empty and nothing but white space: a word separator rather than a letter. */
gboolean
_dc_text_is_space (const char *text)
{
  if (text == NULL || *text == '\0')
    return FALSE;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}
