/* bench-extract.c: how long extraction takes and how much memory a glyph costs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "decipher.h"

/* FIELD is "VmHWM:" (peak resident set) or "VmRSS:" (resident now), in KiB. */
static long
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, field);
  return line ? strtol (line + strlen (field), NULL, 10) : -1;
}

static long
peak_rss_kib (void)
{
  return status_kib ("VmHWM:");
}

int
main (int argc, char **argv)
{
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start, end;
  long rss_before, rss_after;
  guint n_glyphs, n_symbols, n_lines, n_tokens;

  if (argc != 2)
    {
      g_printerr ("usage: bench-extract FILE.pdf\n");
      return 2;
    }

  rss_before = peak_rss_kib ();
  start = g_get_monotonic_time ();
  document = dc_document_new_from_file (argv[1], NULL, NULL, NULL, NULL, &error);
  end = g_get_monotonic_time ();
  if (document == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  rss_after = peak_rss_kib ();

  dc_document_get_glyphs (document, &n_glyphs);
  dc_document_get_symbols (document, &n_symbols);
  dc_document_get_lines (document, &n_lines);
  dc_document_get_tokens (document, &n_tokens);

  printf ("pages %u glyphs %u symbols %u lines %u tokens %u\n",
          dc_document_get_n_pages (document), n_glyphs, n_symbols, n_lines, n_tokens);
  printf ("load %.3f s\n", (end - start) / 1e6);
  /* Per glyph the document keeps its record and its place in the reading order. */
  printf ("bytes per glyph: record %zu + order %zu = %zu (budget 64)\n", sizeof (DcGlyph),
          sizeof (guint32), sizeof (DcGlyph) + sizeof (guint32));
  printf ("peak RSS growth while loading: %.1f bytes per glyph (includes poppler's own caches)\n",
          n_glyphs ? (rss_after - rss_before) * 1024.0 / n_glyphs : 0.0);
  /* bench/run-extract.sh takes the slope of these between two sizes of one book. */
  printf ("peak RSS after loading %ld KiB, resident now %ld KiB\n", rss_after,
          status_kib ("VmRSS:"));
  return 0;
}
