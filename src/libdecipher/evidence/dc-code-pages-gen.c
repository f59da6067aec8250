/* dc-code-pages-gen.c: the proposals' code pages as tables, made when the engine is built
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: dc-code-pages-gen OUTPUT.h
 *
 * A proposal reads a legacy font's codes through each code page of
 * dc-code-pages-private.h: byte → character, as the C library's iconv converts it. Built at
 * run time, the sixteen converters loaded a module of glibc's each, 3.8 ms of CPU at every
 * run, a tenth of a one-page `text` (issue 32), for tables that are the same at every run.
 * They are written here, through the same iconv, as constant arrays: 0 where the byte
 * does not convert to one character, or to a control character; all 0 where this
 * system's iconv lacks the code page.
 */

#include <stdio.h>

#include <glib.h>

#include "dc-code-pages-private.h"

/* What the code page makes of @byte, as g_convert() would, or 0. */
static gunichar
convert (GIConv converter, guint byte)
{
  char in = (char) byte, out[16] = { 0 };
  char *inbuf = &in, *outbuf = out;
  gsize inleft = 1, outleft = sizeof out - 1;

  /* One converter a code page, put back in its first state before each byte. */
  g_iconv (converter, NULL, NULL, NULL, NULL);
  if (g_iconv (converter, &inbuf, &inleft, &outbuf, &outleft) == (gsize) -1 || inleft != 0
      || g_iconv (converter, NULL, NULL, &outbuf, &outleft) == (gsize) -1)
    return 0;
  *outbuf = '\0';
  if (g_utf8_strlen (out, -1) != 1 || g_unichar_iscntrl (g_utf8_get_char (out)))
    return 0;
  return g_utf8_get_char (out);
}

int
main (int argc, char **argv)
{
  static const char *const names[] = { DC_CODE_PAGE_NAMES };
  FILE *out;

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == DC_N_CODE_PAGES);
  if (argc != 2 || (out = fopen (argv[1], "w")) == NULL)
    {
      fprintf (stderr, "usage: dc-code-pages-gen OUTPUT.h\n");
      return 2;
    }
  fprintf (out,
           "/* Made by dc-code-pages-gen through this system's iconv. */\n\n"
           "static const gunichar dc_code_page_tables[%d][256] = {\n",
           DC_N_CODE_PAGES);
  for (guint i = 0; i < DC_N_CODE_PAGES; i++)
    {
      GIConv converter = g_iconv_open ("UTF-8", names[i]);

      fprintf (out, "  /* %s */\n  {\n", names[i]);
      for (guint byte = 0; byte < 256; byte++)
        fprintf (out, "%s0x%04X,%s", byte % 8 == 0 ? "    " : " ",
                 converter != (GIConv) -1 ? convert (converter, byte) : 0,
                 byte % 8 == 7 ? "\n" : "");
      fprintf (out, "  },\n");
      if (converter != (GIConv) -1)
        g_iconv_close (converter);
    }
  fprintf (out, "};\n");
  return fclose (out) == 0 ? 0 : 1;
}
