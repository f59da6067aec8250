/* dc-string-private.h: appending a few bytes to a GString without a call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building a line's or a token's text copies a glyph's value, a few bytes, at a time: a
 * call to g_string_append_len() (some ninety instructions) for each cost more than the
 * rest of the work. This writes in place while the string has room, as GLib's own
 * g_string_append_c() does, and leaves the growing to GLib.
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

static inline void
_dc_string_append_len (GString *string, const char *bytes, gsize n)
{
  if (G_UNLIKELY (string->len + n >= string->allocated_len))
    {
      g_string_append_len (string, bytes, (gssize) n);
      return;
    }
  /* A glyph's value is one to four bytes: copied byte by byte rather than through a call
   * to memcpy(), whose length it does not know. */
  if (n <= 4)
    {
      char *to = string->str + string->len;

      switch (n)
        {
        case 4:
          to[3] = bytes[3];
          G_GNUC_FALLTHROUGH;
        case 3:
          to[2] = bytes[2];
          G_GNUC_FALLTHROUGH;
        case 2:
          to[1] = bytes[1];
          G_GNUC_FALLTHROUGH;
        case 1:
          to[0] = bytes[0];
          G_GNUC_FALLTHROUGH;
        default:
          break;
        }
    }
  else
    memcpy (string->str + string->len, bytes, n);
  string->len += n;
  string->str[string->len] = '\0';
}

G_END_DECLS
