/* dc-unicode.c: text classification shared inside the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dc-tsan-private.h"
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

/**
 * _dc_text_without_presentation_forms:
 * @text: what a font's map says a glyph draws
 *
 * A ligature (ﬁ) or an Arabic contextual form (ﻔ) is how a letter sequence is drawn,
 * not what it is: a font's map names them for its glyphs, but the text is the letters,
 * their compatibility decomposition (NFKC), as pdftotext gives them and as a linguist
 * types them.
 *
 * Returns: (transfer full) (nullable): @text so, or NULL where it has no presentation form
 */
char *
_dc_text_without_presentation_forms (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c >= 0xFB00 && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF))
        return g_utf8_normalize (text, -1, G_NORMALIZE_NFKC);
    }
  return NULL;
}

/* What g_convert() makes of each byte of one charset (NULL where it fails), each found
 * the first time it is asked for: a small file asks for a few dozen of a code page's
 * 256 bytes (issue 32). */
typedef struct
{
  GIConv converter; /* (GIConv) -1 when glibc has no such charset */
  char *bytes[256];
  guint8 found[256 / 8];
} ByteTable;

/* charset → ByteTable */
static GHashTable *byte_tables;
static GMutex byte_tables_lock;

/* What g_convert_with_iconv() makes of the one byte @in, without its growing buffer:
 * that took a millisecond's fifth for the two code pages of a small file (issue 32). */
static char *
convert_byte (GIConv converter, char in)
{
  char out[64];
  char *inbuf = &in, *outbuf = out;
  gsize inleft = 1, outleft = sizeof out;

  g_iconv (converter, NULL, NULL, NULL, NULL);
  if (g_iconv (converter, &inbuf, &inleft, &outbuf, &outleft) == (gsize) -1 || inleft != 0
      || g_iconv (converter, NULL, NULL, &outbuf, &outleft) == (gsize) -1)
    return NULL;
  return g_strndup (out, sizeof out - outleft);
}

/**
 * _dc_charset_byte_to_utf8:
 * @charset: an iconv name ("MACINTOSH", "WINDOWS-1252")
 *
 * What g_convert() makes of the one byte @byte in @charset, from a table kept per charset:
 * g_convert() opens a converter each time, and glibc loads and unloads the charset's
 * module with it, a few percent of reading a small file.
 *
 * Returns: (nullable): the UTF-8 text, kept for the life of the process, or %NULL where
 *   the byte does not convert
 */
const char *
_dc_charset_byte_to_utf8 (const char *charset, guint8 byte)
{
  ByteTable *table;
  const char *text;

  g_return_val_if_fail (charset != NULL, NULL);

  DC_MUTEX_LOCK (&byte_tables_lock);
  if (byte_tables == NULL)
    byte_tables = g_hash_table_new (g_str_hash, g_str_equal);
  if ((table = g_hash_table_lookup (byte_tables, charset)) == NULL)
    {
      table = g_new0 (ByteTable, 1);
      table->converter = g_iconv_open ("UTF-8", charset);
      g_hash_table_insert (byte_tables, g_strdup (charset), table);
    }
  /* g_convert() is g_convert_with_iconv() on a converter of its own: one converter, put
   * back in its first state before each byte, gives what it gives. */
  if (!(table->found[byte / 8] & (1u << (byte % 8))))
    {
      if (table->converter != (GIConv) -1)
        table->bytes[byte] = convert_byte (table->converter, (char) byte);
      table->found[byte / 8] |= 1u << (byte % 8);
    }
  text = table->bytes[byte];
  DC_MUTEX_UNLOCK (&byte_tables_lock);
  return text;
}

/* The 66 code points Unicode keeps out of interchange (U+FDD0–U+FDEF and the last two of
 * every plane): no glyph stands for one, and a project refuses them, so whatever makes a
 * value refuses them first. */
gboolean
_dc_unichar_is_noncharacter (gunichar c)
{
  return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}
