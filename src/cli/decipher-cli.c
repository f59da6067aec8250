/* decipher-cli.c: the headless commands (README.md; docs/session-protocol.md,
 * docs/export-formats.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "decipher-cli-collection.h"
#include "decipher-cli-session.h"
#include "decipher-cli-threads.h"

typedef int (*CommandFunc) (DcDocument *document, int argc, char **argv);

static char *opt_password;
static gboolean opt_json;
static char *opt_format;
static char *opt_normalize;
static char *opt_project;
static gboolean opt_no_auto;
static char *opt_output;
static gboolean opt_overwrite;
static int opt_font = -1;
static char *opt_library;
/* Where the document is loaded through and its key started (dc-pipeline.h). */
static DcPipeline *pipeline;

#define LIBRARY_ENTRY                                                                              \
  {                                                                                                \
    "library", 0, 0, G_OPTION_ARG_FILENAME, &opt_library,                                          \
        N_ ("The font library to decode from and learn into (default "                             \
            "~/.local/share/decipher/library.sqlite, or $DECIPHER_LIBRARY; \"\" for none)"),       \
        N_ ("PATH")                                                                                \
  }

/* Unset: the engine's default. */
#define LIMIT_UNSET G_MININT64
static gint64 opt_max_glyphs = LIMIT_UNSET;
static gint64 opt_max_memory = LIMIT_UNSET;

static const GOptionEntry document_entries[] = {
  { "password", 0, 0, G_OPTION_ARG_STRING, &opt_password, N_ ("Password of an encrypted PDF"),
    N_ ("PASSWORD") },
  /* A small PDF can draw one content stream on thousands of pages: without a limit it
   * takes all the memory there is (issue 11). */
  { "max-glyphs", 0, 0, G_OPTION_ARG_INT64, &opt_max_glyphs,
    N_ ("Refuse a document that draws more glyphs than this (default 10000000)"), N_ ("N") },
  { "max-memory", 0, 0, G_OPTION_ARG_INT64, &opt_max_memory,
    N_ ("Refuse a document whose glyphs and texts take more memory than this, in MB "
        "(default 1024)"),
    N_ ("MB") },
  { NULL }
};

static const GOptionEntry json_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_ ("Print JSON instead of text"), NULL }, { NULL }
};

static const GOptionEntry text_entries[] = {
  { "format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
    N_ ("txt, layout, freki or json (default txt); map-json for the recovered map of every font, "
        "cmap for one font's ToUnicode CMap"),
    N_ ("FORMAT") },
  { "font", 0, 0, G_OPTION_ARG_INT, &opt_font,
    N_ ("With --format cmap: the font, by its index in “decipher-cli fonts”"), N_ ("N") },
  { "normalize", 0, 0, G_OPTION_ARG_STRING, &opt_normalize,
    N_ ("Unicode normalization of the text: nfc, nfkc (full-width forms folded) or nfd "
        "(default: json's spans in NFC, other formats as drawn)"),
    N_ ("FORM") },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_ ("Decode several PDFs or folders of them, and write each one's text into this folder"),
    N_ ("OUTDIR") },
  { "overwrite", 0, 0, G_OPTION_ARG_NONE, &opt_overwrite,
    N_ ("With -o OUTDIR: replace results already in the folder"), NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Decode with the table saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, decode only by the fonts' own evidence: no font library, automatic "
        "guesses or installed fonts"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry fonts_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json,
    N_ ("Print JSON instead of text, with every symbol's value, level, confidence and "
        "provenance"),
    NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("With --json: report the values saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, do not recover values automatically"), NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry repair_entries[] = {
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_ ("Write the repaired PDF to this file; with several PDFs or folders, into this folder"),
    N_ ("FILE|OUTDIR") },
  { "overwrite", 0, 0, G_OPTION_ARG_NONE, &opt_overwrite,
    N_ ("With -o OUTDIR: replace results already in the folder"), NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Repair with the table saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, decode only by the fonts' own evidence: no font library, automatic "
        "guesses or installed fonts"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry session_entries[] = {
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Load this project if it exists, and write every decision to it"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Decode new work only by the fonts' own evidence: no font library, automatic guesses "
        "or installed fonts (values are still proposed)"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

/* Errors name files and fonts, which a hostile PDF or project chose: escaped. */
static void
print_error (const char *message)
{
  g_autofree char *shown = decipher_cli_escape_controls (message, FALSE);

  g_printerr ("decipher-cli: %s\n", shown);
}

/* The document's own text (text, cmap) goes out as it is to a file or a pipe; a terminal
 * gets its control characters escaped, since it would obey them. */
static void
print_document_text (const char *text)
{
  g_autofree char *shown = NULL;

  if (!isatty (STDOUT_FILENO))
    {
      fputs (text, stdout);
      return;
    }
  shown = decipher_cli_escape_controls (text, TRUE);
  fputs (shown, stdout);
}

/* JSON strings by hand: a book has millions of glyphs, and building a JsonNode per
 * glyph would dominate the extraction time the benchmark compares with pdftotext.
 * Escaped as dc_json_generate() escapes the names in `fonts --json`: a glyph name is the
 * PDF's bytes (a /Differences name may hold any), so what is not UTF-8 becomes U+FFFD,
 * as in a font's name, rather than making the line something no JSON reader takes. */
static void
put_json_string (GString *out, const char *text)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
        }
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\u%04x", c);
      else if (c == 0xc2 && (guchar) p[1] >= 0x80 && (guchar) p[1] <= 0x9f)
        g_string_append_printf (out, "\\u%04x", (guchar) * ++p);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

static void
put_text_field (GString *out, const char *text)
{
  g_autofree char *valid = NULL;

  /* The same text as in the JSON form: U+FFFD for what is not UTF-8. */
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  for (const char *p = text; *p; p++)
    {
      if (*p == '\t')
        g_string_append (out, "\\t");
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\\')
        g_string_append (out, "\\\\");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_printf (out, "\\x%02x", (guchar) *p);
      else if ((guchar) *p == 0xc2 && (guchar) p[1] >= 0x80 && (guchar) p[1] <= 0x9f)
        g_string_append_printf (out, "\\u%04x", (guchar) * ++p);
      else
        g_string_append_c (out, *p);
    }
}

/* printf() of a dozen floats per glyph costs more than extracting the glyph; these
 * write the same digits directly. */
static void
put_uint (GString *out, guint64 value)
{
  char digits[24];
  int n = 0;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value > 0);
  while (n > 0)
    g_string_append_c (out, digits[--n]);
}

static void
put_fixed2 (GString *out, float value)
{
  gint64 hundredths = (gint64) (value * 100.0 + (value < 0 ? -0.5 : 0.5));

  if (hundredths < 0)
    {
      g_string_append_c (out, '-');
      hundredths = -hundredths;
    }
  put_uint (out, (guint64) hundredths / 100);
  g_string_append_c (out, '.');
  g_string_append_c (out, (char) ('0' + hundredths / 10 % 10));
  g_string_append_c (out, (char) ('0' + hundredths % 10));
}

static void
put_hex (GString *out, guint32 code, guint width)
{
  static const char hex[] = "0123456789ABCDEF";

  for (int shift = (int) (width - 1) * 4; shift >= 0; shift -= 4)
    g_string_append_c (out, hex[(code >> shift) & 0xF]);
}

static void
put_fields (GString *out, const float *values, guint n, char separator)
{
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, separator);
      put_fixed2 (out, values[i]);
    }
}

/* The JSON records are written straight into room made in @out beforehand: a glyph's
 * numbers and keys, some 200 bytes, cost a few instructions a byte this way, against
 * a call (and a strlen) per piece through g_string_append(). */
#define RECORD_ROOM 512

/* Makes room for @n bytes at the end of @out; returns where they go. */
static char *
reserve (GString *out, gsize n)
{
  gsize len = out->len;

  if (out->allocated_len - len <= n)
    {
      g_string_set_size (out, len + n);
      g_string_truncate (out, len);
    }
  return out->str + len;
}

/* Ends a stretch written from reserve(): @end is just past the last byte. */
static void
commit (GString *out, char *end)
{
  out->len = (gsize) (end - out->str);
  *end = '\0';
}

#define W_LIT(p, literal)                                                                          \
  (memcpy ((p), (literal), sizeof (literal) - 1), (p) + sizeof (literal) - 1)

/* Two digits at a time: a glyph's record holds eight numbers of five or so digits, and a
 * division by 100 halves the divisions by 10 that were a tenth of `glyphs --json`. */
static const char digit_pairs[201] = "0001020304050607080910111213141516171819"
                                     "2021222324252627282930313233343536373839"
                                     "4041424344454647484950515253545556575859"
                                     "6061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

static char *
w_uint (char *p, guint64 value)
{
  guint n = 1;
  char *q;

  /* The digits are written from the last, so count them first. */
  for (guint64 bound = 10; n < 20 && value >= bound; bound *= 10)
    n++;
  q = p + n;
  while (value >= 100)
    {
      guint pair = (guint) (value % 100);

      value /= 100;
      q -= 2;
      q[0] = digit_pairs[2 * pair];
      q[1] = digit_pairs[2 * pair + 1];
    }
  if (value >= 10)
    {
      q[-2] = digit_pairs[2 * value];
      q[-1] = digit_pairs[2 * value + 1];
    }
  else
    q[-1] = (char) ('0' + value);
  return p + n;
}

/* The digits put_fixed2() writes; in-line, being called eight times a record. */
G_ALWAYS_INLINE static inline char *
w_fixed2 (char *p, float value)
{
  gint64 hundredths = (gint64) (value * 100.0 + (value < 0 ? -0.5 : 0.5));
  guint64 magnitude = (guint64) hundredths;
  guint pair;

  if (hundredths < 0)
    {
      *p++ = '-';
      /* Unsigned, so that G_MININT64 (what a NaN becomes) does not overflow. */
      magnitude = -magnitude;
    }
  if (G_LIKELY (magnitude < 100000))
    {
      /* What a page holds, under 1000 pt: the whole points are one to three digits. */
      guint whole = (guint) magnitude / 100;

      pair = (guint) magnitude - whole * 100;

      if (whole >= 100)
        {
          *p++ = (char) ('0' + whole / 100);
          whole %= 100;
          *p++ = digit_pairs[2 * whole];
          *p++ = digit_pairs[2 * whole + 1];
        }
      else if (whole >= 10)
        {
          *p++ = digit_pairs[2 * whole];
          *p++ = digit_pairs[2 * whole + 1];
        }
      else
        *p++ = (char) ('0' + whole);
    }
  else
    {
      p = w_uint (p, magnitude / 100);
      pair = (guint) (magnitude % 100);
    }
  *p++ = '.';
  *p++ = digit_pairs[2 * pair];
  *p++ = digit_pairs[2 * pair + 1];
  return p;
}

static void
flush (GString *out, gboolean force)
{
  if (force || out->len > (1 << 16))
    {
      fwrite (out->str, 1, out->len, stdout);
      g_string_truncate (out, 0);
    }
}

/* What every glyph record is written from. */
typedef struct
{
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcSymbol *symbols;
  const char *tails;        /* with --json: each symbol's strings, escaped */
  const gsize *tail_starts; /* symbol s's from tail_starts[s] to tail_starts[s + 1] */
} GlyphRecords;

/* The records of the glyphs of lines [@first_line, @end_line) at the end of @out; written
 * to standard output as they come when @stream. */
static void
write_glyph_records (GString *out, const GlyphRecords *r, guint first_line, guint end_line,
                     gboolean stream)
{
  for (guint l = first_line; l < end_line; l++)
    {
      const DcLine *line = &r->lines[l];

      for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
        {
          const DcGlyph *g = &r->glyphs[r->order[k]];
          const DcSymbol *symbol = &r->symbols[g->symbol];

          const float position[] = { g->x, g->y };
          const DcGlyphBox glyph_box = dc_glyph_get_box (g);
          const float box[] = { glyph_box.x0, glyph_box.y0, glyph_box.x1, glyph_box.y1 };
          const float metrics[] = { dc_glyph_get_advance (g), dc_glyph_get_size (g) };
          gboolean invisible = (g->flags & DC_GLYPH_INVISIBLE) != 0;

          if (opt_json)
            {
              /* Five integers and eight numbers of at most ~25 bytes each, and the keys:
               * well within RECORD_ROOM; then the symbol's strings. */
              gsize tail_size = r->tail_starts[g->symbol + 1] - r->tail_starts[g->symbol];
              char *p = reserve (out, RECORD_ROOM + tail_size);

              p = W_LIT (p, "{\"page\":");
              p = w_uint (p, g->page + 1);
              p = W_LIT (p, ",\"line\":");
              p = w_uint (p, line->index);
              p = W_LIT (p, ",\"font\":");
              p = w_uint (p, symbol->font);
              p = W_LIT (p, ",\"code\":");
              p = w_uint (p, symbol->code);
              p = W_LIT (p, ",\"code_len\":");
              p = w_uint (p, symbol->code_len);
              p = W_LIT (p, ",\"x\":");
              p = w_fixed2 (p, g->x);
              p = W_LIT (p, ",\"y\":");
              p = w_fixed2 (p, g->y);
              p = W_LIT (p, ",\"bbox\":[");
              for (guint i = 0; i < G_N_ELEMENTS (box); i++)
                {
                  if (i > 0)
                    *p++ = ',';
                  p = w_fixed2 (p, box[i]);
                }
              p = W_LIT (p, "],\"advance\":");
              p = w_fixed2 (p, dc_glyph_get_advance (g));
              p = W_LIT (p, ",\"size\":");
              p = w_fixed2 (p, dc_glyph_get_size (g));
              if (invisible)
                p = W_LIT (p, ",\"invisible\":true,\"pdf_text\":");
              else
                p = W_LIT (p, ",\"invisible\":false,\"pdf_text\":");
              memcpy (p, r->tails + r->tail_starts[g->symbol], tail_size);
              commit (out, p + tail_size);
            }
          else
            {
              put_uint (out, g->page + 1);
              g_string_append_c (out, '\t');
              put_uint (out, line->index);
              g_string_append_c (out, '\t');
              put_uint (out, symbol->font);
              g_string_append_c (out, '\t');
              put_hex (out, symbol->code, symbol->code_len * 2);
              g_string_append_c (out, '\t');
              put_fields (out, position, 2, '\t');
              g_string_append_c (out, '\t');
              put_fields (out, box, 4, '\t');
              g_string_append_c (out, '\t');
              put_fields (out, metrics, 2, '\t');
              g_string_append (out, invisible ? "\t1\t" : "\t0\t");
              put_text_field (out, symbol->pdf_text);
              g_string_append_c (out, '\t');
              put_text_field (out, symbol->glyph_name ? symbol->glyph_name : "");
              g_string_append_c (out, '\n');
            }
          if (stream)
            flush (out, FALSE);
        }
    }
}

/* Writing the records on several threads: the lines cut into parts of a few thousand
 * glyphs, formatted by whichever thread is free into a buffer of the part's own, written
 * out in order by the calling thread. A thread formats a part only a few parts ahead of
 * the one being written, so that a book's records (a fifth of a gigabyte) are never held
 * at once. The output is the same whoever formatted which part. */
#define GLYPHS_PER_PART 8192

typedef struct
{
  const GlyphRecords *records;
  guint *part_lines; /* part p holds lines [part_lines[p], part_lines[p + 1]) */
  GString **texts;   /* under the lock: part p's formatted records, or NULL */
  guint n_parts;
  guint window;

  /* Under the lock. */
  GMutex lock;
  GCond cond;
  guint next_claim;
  guint next_write;
  GPtrArray *spare; /* buffers written out, to fill again */
} GlyphParts;

/* Formats the next part if the window allows; with the lock held, which it drops while
 * formatting. */
static gboolean
format_next_part_locked (GlyphParts *parts)
{
  GString *text;
  guint p;

  if (parts->next_claim >= parts->n_parts || parts->next_claim >= parts->next_write + parts->window)
    return FALSE;
  p = parts->next_claim++;
  text = parts->spare->len > 0 ? g_ptr_array_steal_index_fast (parts->spare, parts->spare->len - 1)
                               : g_string_sized_new (1 << 20);
  decipher_cli_unlock (&parts->lock);
  write_glyph_records (text, parts->records, parts->part_lines[p], parts->part_lines[p + 1], FALSE);
  decipher_cli_lock (&parts->lock);
  parts->texts[p] = text;
  g_cond_broadcast (&parts->cond);
  return TRUE;
}

static void
wait_locked (GlyphParts *parts)
{
  dc_parallel_hand_over (&parts->lock);
  g_cond_wait (&parts->cond, &parts->lock);
  dc_parallel_take_over (&parts->lock);
}

static gpointer
format_parts_thread (gpointer data)
{
  GlyphParts *parts = data;

  decipher_cli_lock (&parts->lock);
  while (parts->next_claim < parts->n_parts)
    if (!format_next_part_locked (parts))
      wait_locked (parts);
  decipher_cli_unlock (&parts->lock);
  return NULL;
}

static void
write_glyph_parts (const GlyphRecords *records, guint n_lines, guint n_threads)
{
  GlyphParts parts = { 0 };
  g_autoptr (GArray) part_lines = g_array_new (FALSE, FALSE, sizeof (guint));
  GThread *threads[4] = { NULL };
  guint n_glyphs = 0;

  for (guint l = 0; l < n_lines; l++)
    {
      if (l == 0 || n_glyphs >= GLYPHS_PER_PART)
        {
          g_array_append_val (part_lines, l);
          n_glyphs = 0;
        }
      n_glyphs += records->lines[l].n_glyphs;
    }
  g_array_append_val (part_lines, n_lines);
  parts.records = records;
  parts.part_lines = (guint *) (void *) part_lines->data;
  parts.n_parts = part_lines->len - 1;
  parts.texts = g_new0 (GString *, MAX (1, parts.n_parts));
  parts.window = 2 * n_threads;
  parts.spare = g_ptr_array_new ();
  g_mutex_init (&parts.lock);
  g_cond_init (&parts.cond);

  n_threads = MIN (n_threads, G_N_ELEMENTS (threads));
  for (guint t = 1; t < n_threads; t++)
    threads[t] = g_thread_try_new ("glyphs", format_parts_thread, &parts, NULL);

  decipher_cli_lock (&parts.lock);
  while (parts.next_write < parts.n_parts)
    {
      GString *text = parts.texts[parts.next_write];

      if (text != NULL)
        {
          parts.texts[parts.next_write] = NULL;
          decipher_cli_unlock (&parts.lock);
          fwrite (text->str, 1, text->len, stdout);
          g_string_truncate (text, 0);
          decipher_cli_lock (&parts.lock);
          g_ptr_array_add (parts.spare, text);
          parts.next_write++;
          g_cond_broadcast (&parts.cond);
        }
      else if (!format_next_part_locked (&parts))
        wait_locked (&parts);
    }
  decipher_cli_unlock (&parts.lock);

  for (guint t = 1; t < n_threads; t++)
    if (threads[t] != NULL)
      g_thread_join (threads[t]);
  for (guint i = 0; i < parts.spare->len; i++)
    g_string_free (g_ptr_array_index (parts.spare, i), TRUE);
  g_ptr_array_unref (parts.spare);
  g_free (parts.texts);
  g_mutex_clear (&parts.lock);
  g_cond_clear (&parts.cond);
}

static int
command_glyphs (DcDocument *document, int argc, char **argv)
{
  g_autoptr (GString) out = g_string_sized_new (1 << 17);
  g_autoptr (GString) tails = NULL;
  g_autofree gsize *tail_starts = NULL;
  GlyphRecords records = { 0 };
  guint n_lines, n_symbols, n_threads;

  records.glyphs = dc_document_get_glyphs (document, NULL);
  records.order = dc_document_get_reading_order (document, NULL);
  records.lines = dc_document_get_lines (document, &n_lines);
  records.symbols = dc_document_get_symbols (document, &n_symbols);

  /* A record's strings are its symbol's: escaped once per symbol here, not once per
   * glyph (a book draws each symbol thousands of times), one after the other in @tails,
   * symbol s from tail_starts[s] to tail_starts[s + 1]. */
  if (opt_json)
    {
      tails = g_string_new (NULL);
      tail_starts = g_new (gsize, n_symbols + 1);
      for (guint s = 0; s < n_symbols; s++)
        {
          tail_starts[s] = tails->len;
          put_json_string (tails, records.symbols[s].pdf_text);
          g_string_append (tails, ",\"glyph_name\":");
          if (records.symbols[s].glyph_name != NULL)
            put_json_string (tails, records.symbols[s].glyph_name);
          else
            g_string_append (tails, "null");
          g_string_append (tails, "}\n");
        }
      tail_starts[n_symbols] = tails->len;
      records.tails = tails->str;
      records.tail_starts = tail_starts;
    }

  if (!opt_json)
    g_string_append (out, "page\tline\tfont\tcode\tx\ty\tx0\ty0\tx1\ty1\tadvance\tsize\tinvisible\t"
                          "pdf_text\tglyph_name\n");

  /* As many threads as loaded the document (DECIPHER_EXTRACT_THREADS). */
  n_threads = dc_parallel_get_n_threads (dc_document_get_n_pages (document));
  if (n_threads > 1)
    {
      flush (out, TRUE);
      write_glyph_parts (&records, n_lines, n_threads);
      return 0;
    }
  write_glyph_records (out, &records, 0, n_lines, TRUE);
  flush (out, TRUE);
  return 0;
}

static DcKey *load_key (DcDocument *document);

/* Every symbol of @font the key holds a value for: what it stands for, how it is used
 * (status), what kind of evidence says so (level), how sure that is, and which rule. */
static void
add_font_key_json (JsonBuilder *builder, DcFont *font, DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  json_builder_set_member_name (builder, "key");
  json_builder_begin_array (builder);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (symbols[s].font != dc_font_get_index (font))
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, symbols[s].code);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, symbols[s].n_glyphs);
      json_builder_set_member_name (builder, "glyph_name");
      json_builder_add_string_value (builder, symbols[s].glyph_name);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, dc_key_peek_value (key, s));
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, dc_key_status_to_string (dc_key_get_status (key, s)));
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, dc_key_level_to_string (dc_key_get_level (key, s)));
      json_builder_set_member_name (builder, "confidence");
      json_builder_add_double_value (builder, dc_key_get_confidence (key, s));
      json_builder_set_member_name (builder, "provenance");
      json_builder_add_string_value (builder, dc_key_get_provenance (key, s));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_font_json (JsonBuilder *builder, DcFont *font, DcKey *key)
{
  json_builder_begin_object (builder);
  dc_font_add_json_members (font, builder);
  if (key != NULL)
    {
      add_font_key_json (builder, font, key);
      /* Glyphs no level decodes (GLYPH_UNMAPPED), as the JSON text export says them. */
      dc_export_add_warnings (builder, dc_key_get_document (key), (int) dc_font_get_index (font),
                              dc_key_value_func, key);
    }
  json_builder_end_object (builder);
}

static int
command_fonts (DcDocument *document, int argc, char **argv)
{
  guint n_fonts = dc_document_get_n_fonts (document);

  if (opt_json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *data = NULL;
      g_autoptr (DcKey) key = NULL;

      if ((key = load_key (document)) == NULL)
        return 1;
      json_builder_begin_array (builder);
      for (guint f = 0; f < n_fonts; f++)
        add_font_json (builder, dc_document_get_font (document, f), key);
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      /* Font names are the PDF's: json-glib would write their controls as they are. */
      data = dc_json_generate (root, TRUE, NULL);
      g_print ("%s\n", data);
      return 0;
    }

  /* Names, encodings and reasons quote the PDF: escaped, whatever they hold. */
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      const char *name = dc_font_get_name (font);
      g_autofree char *shown_name = decipher_cli_escape_controls (name ? name
                                                                       : _("(unnamed)"), FALSE);
      g_autofree char *encoding = decipher_cli_escape_controls (dc_font_get_encoding (font), FALSE);
      g_autofree char *kind = decipher_cli_escape_controls (dc_font_is_embedded (font)
                                                                ? dc_font_get_program_kind (font)
                                                                : _("no"), FALSE);
      g_autofree char *reason = decipher_cli_escape_controls (dc_font_get_trust_reason (font),
                                                              FALSE);

      g_print ("%u\t%s\n", f, shown_name);
      g_print ("\t%s: %s, %s: %s, ToUnicode: %s, %s: %s\n",
               _("type"), dc_font_type_to_string (dc_font_get_font_type (font)),
                  _("encoding"), encoding,
                     dc_font_has_to_unicode (font) ? _("yes") : _("no"), _("embedded"), kind);
      g_print ("\t%s: %u, %s: %u\n", _("symbols"), dc_font_get_n_symbols (font),
                                        _("glyphs"), dc_font_get_n_glyphs (font));
      g_print ("\t%s: %s\n", dc_font_is_trusted (font) ? _("trusted") : _("NOT trusted"), reason);
    }
  return 0;
}

/* The font library named by --library, $DECIPHER_LIBRARY or the user's default one;
 * "" for none. FALSE (said) when a library the user named cannot be opened. */
static gboolean
open_library (DcLibrary **library, char **path)
{
  g_autoptr (GError) error = NULL;

  *library = dc_pipeline_open_user_library (opt_library, path, &error);
  if (error == NULL)
    return TRUE;
  print_error (error->message);
  return FALSE;
}

/* The key the text, map and repair commands work from: the project's, or, without one,
 * every level the pipeline applies (none with --no-auto). */
static DcKey *
load_key (DcDocument *document)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = NULL;
  DcKey *key;

  /* These commands only read the library: a default one not made yet is none. */
  library = dc_pipeline_find_user_library (opt_library, &error);
  if (error != NULL)
    {
      print_error (error->message);
      return NULL;
    }
  dc_pipeline_set_library (pipeline, library);
  if (opt_project == NULL && dc_pipeline_references_need_building (pipeline))
    print_error (_("reading the installed fonts once, to recognise their glyphs in PDFs…"));
  if ((key = dc_pipeline_load_key (pipeline, document, opt_project, &error)) == NULL)
    {
      print_error (error->message);
      return NULL;
    }
  if (dc_pipeline_get_references_error (pipeline) != NULL)
    print_error (dc_pipeline_get_references_error (pipeline)->message);
  return key;
}

/* Without a project nothing the user typed is known: say where the work is. */
static void
print_map_error (DcKey *key, const GError *error)
{
  g_autofree char *message = NULL;

  if (opt_project != NULL || dc_map_has_recovered (key))
    {
      print_error (error->message);
      return;
    }
  message = g_strdup_printf ("%s %s", error->message,
                             _("Give the project that holds your work with --project P."));
  print_error (message);
}

static int
print_map (DcKey *key, gboolean cmap)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  guint font = 0, n_recovered = 0;

  if (!cmap)
    {
      if ((text = dc_map_to_json (key, &error)) == NULL)
        {
          print_map_error (key, error);
          return 1;
        }
      g_print ("%s\n", text);
      return 0;
    }

  if (opt_font >= 0)
    {
      if ((guint) opt_font >= dc_document_get_n_fonts (document))
        {
          g_autofree char *message = g_strdup_printf (_("The document has no font %d: “decipher-cli fonts” lists its fonts."), opt_font);
          print_error (message);
          return 2;
        }
      font = (guint) opt_font;
    }
  else
    {
      for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
        if (dc_map_font_is_recovered (key, f))
          {
            font = f;
            n_recovered++;
          }
      if (n_recovered == 0)
        {
          g_set_error (&error, DC_ERROR, DC_ERROR_INVALID_INPUT, "%s",
                       _("No font has recovered values yet, so there is no map to export."));
          print_map_error (key, error);
          return 1;
        }
      if (n_recovered > 1)
        {
          print_error (_("Several fonts have recovered values: choose one with --font N, or use "
                         "--format map-json for all of them."));
          return 2;
        }
    }

  if ((text = dc_map_font_to_cmap (key, font, &error)) == NULL)
    {
      print_map_error (key, error);
      return 1;
    }
  print_document_text (text);
  return 0;
}

static gboolean
write_stdout (const char *data, gsize length, gpointer user_data)
{
  return fwrite (data, 1, length, stdout) == length;
}

static int
command_text (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DcKey) key = NULL;
  g_autofree char *text = NULL;
  DcExportFormat format = DC_EXPORT_TEXT;
  DcNormalization normalization = DC_NORMALIZATION_NFC;
  gboolean map = FALSE, cmap = FALSE;

  if (opt_format == NULL || g_str_equal (opt_format, "txt"))
    format = DC_EXPORT_TEXT;
  else if (g_str_equal (opt_format, "freki"))
    format = DC_EXPORT_FREKI;
  else if (g_str_equal (opt_format, "json"))
    format = DC_EXPORT_JSON;
  else if (g_str_equal (opt_format, "layout"))
    format = DC_EXPORT_LAYOUT;
  else if (g_str_equal (opt_format, "map-json"))
    map = TRUE;
  else if (g_str_equal (opt_format, "cmap"))
    map = cmap = TRUE;
  else
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a text format: use txt, layout, freki, json, map-json or cmap."),
          opt_format);
      print_error (message);
      return 2;
    }
  if (opt_font >= 0 && !cmap)
    {
      print_error (_("--font only chooses the font of --format cmap."));
      return 2;
    }
  if (opt_normalize != NULL && !dc_normalization_from_string (opt_normalize, &normalization))
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a normalization form: use nfc, nfkc or nfd."), opt_normalize);

      print_error (message);
      return 2;
    }

  if ((key = load_key (document)) == NULL)
    return 1;

  if (map)
    return print_map (key, cmap);

  /* A book's JSON is half a kilobyte a glyph: written as it is made, never held whole.
   * A failed write is said when the process ends (finish_output()). */
  if (format == DC_EXPORT_JSON)
    {
      dc_export_json_write (document, normalization, dc_key_value_func, key, write_stdout, NULL);
      return 0;
    }
  if (opt_normalize != NULL)
    text = dc_export_document_normalized (document, format, normalization, dc_key_value_func, key);
  else
    text = dc_export_document (document, format, dc_key_value_func, key);
  print_document_text (text);
  return 0;
}

static int
command_repair (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DcKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) notes = NULL;

  if (opt_output == NULL)
    {
      print_error (_("Say where to write the repaired PDF with -o OUT.pdf."));
      return 2;
    }
  if ((key = load_key (document)) == NULL)
    return 1;

  if (!dc_repair_write (key, opt_password, opt_output, &notes, &error))
    {
      print_map_error (key, error);
      return 1;
    }
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *message = g_strdup_printf (_("note: %s"), notes[i]);
      print_error (message);
    }
  return 0;
}

static int
command_session (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DecipherCliSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = NULL;
  int status;

  if (!open_library (&library, NULL))
    return 1;
  dc_pipeline_set_library (pipeline, library);
  if (dc_pipeline_references_need_building (pipeline)
      && (opt_project == NULL || !g_file_test (opt_project, G_FILE_TEST_EXISTS)))
    print_error (_("reading the installed fonts once, to recognise their glyphs in PDFs…"));
  session = decipher_cli_session_new_with_pipeline (document, opt_project, pipeline, &error);
  if (session == NULL)
    {
      print_error (error->message);
      return 1;
    }
  decipher_cli_session_set_password (session, opt_password);
  status = decipher_cli_session_run (session);
  /* A project not written is an exit status a script can see. */
  if (!decipher_cli_session_close (session, &error))
    {
      print_error (error->message);
      return 1;
    }
  return status;
}

/* decipher-cli library export|import FILE: the font library as a file a team shares.
 * It reads no document, so main() runs it before opening one. */
static int
command_library (int argc, char **argv)
{
  static const GOptionEntry entries[] = { LIBRARY_ENTRY, { NULL } };
  g_autoptr (GOptionContext) context = g_option_context_new ("export|import FILE");
  g_autoptr (DcLibrary) library = NULL;
  g_autoptr (GError) error = NULL;
  guint n_imported = 0;

  g_option_context_set_summary (context,
                                _("Export the font library to FILE, or import FILE into it"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      print_error (error->message);
      return 2;
    }
  if (argc != 3 || (!g_str_equal (argv[1], "export") && !g_str_equal (argv[1], "import")))
    {
      print_error (_("Say “library export FILE” or “library import FILE”."));
      return 2;
    }
  if (!open_library (&library, NULL))
    return 1;
  if (library == NULL)
    {
      print_error (_("No font library: give one with --library PATH."));
      return 1;
    }
  if (g_str_equal (argv[1], "export"))
    {
      if (!dc_library_export (library, argv[2], &error))
        {
          print_error (error->message);
          return 1;
        }
      g_print (_("%u entries exported.\n"), dc_library_get_n_entries (library));
      return 0;
    }
  if (!dc_library_import (library, argv[2], &n_imported, &error))
    {
      print_error (error->message);
      return 1;
    }
  g_print (_("%u entries imported.\n"), n_imported);
  return 0;
}

/* text|repair FILES_OR_FOLDERS… -o OUTDIR: decipher-cli-collection.c. */
static int
run_collection (gboolean repair, int argc, char **argv)
{
  DecipherCliCollection collection = { 0 };
  g_autoptr (DcLibrary) library = NULL;
  g_autofree char *library_file = NULL;

  if (opt_output == NULL)
    {
      print_error (_("Say which folder to write the results to with -o OUTDIR."));
      return 2;
    }
  collection.kind = repair ? DECIPHER_CLI_COLLECTION_REPAIR : DECIPHER_CLI_COLLECTION_TEXT;
  if (!repair && opt_format != NULL && !g_str_equal (opt_format, "txt"))
    {
      if (g_str_equal (opt_format, "layout"))
        collection.format = DC_EXPORT_LAYOUT;
      else if (g_str_equal (opt_format, "freki"))
        collection.format = DC_EXPORT_FREKI;
      else if (g_str_equal (opt_format, "json"))
        collection.format = DC_EXPORT_JSON;
      else if (g_str_equal (opt_format, "map-json"))
        collection.kind = DECIPHER_CLI_COLLECTION_MAP;
      else
        {
          g_autofree char *message = g_strdup_printf (_("“%s” cannot be written for several PDFs: use txt, layout, freki, json or "
                "map-json."),
              opt_format);
          print_error (message);
          return 2;
        }
    }
  if (opt_font >= 0)
    {
      print_error (_("--font only chooses the font of --format cmap, for one PDF."));
      return 2;
    }
  /* A library the user named must open; the default one is a convenience. */
  if (!open_library (&library, &library_file))
    return 1;
  collection.output_dir = opt_output;
  collection.project_path = opt_project;
  collection.library_path = library_file;
  collection.password = opt_password;
  collection.automatic_pass = !opt_no_auto;
  collection.overwrite = opt_overwrite;
  g_clear_object (&library);
  return decipher_cli_collection_run (&collection, argv + 1, (guint) argc - 1);
}

typedef struct
{
  const char *name;
  const char *summary;
  CommandFunc func;
  const GOptionEntry *entries;
} Command;

static const Command commands[] = {
  { "glyphs", N_ ("One record per drawn glyph, in reading order"), command_glyphs, json_entries },
  { "fonts", N_ ("Each font, and whether its text map can be trusted"), command_fonts,
    fonts_entries },
  { "text", N_ ("The document's text, with what is recovered so far"), command_text, text_entries },
  { "repair", N_ ("Write a copy of the PDF whose text copies correctly, with -o OUT.pdf"),
    command_repair, repair_entries },
  { "session", N_ ("JSON-lines session: one request per line on stdin, one reply per line"),
    command_session, session_entries },
};

/* The levels @func's key starts with: the sessions propose too, the exports do not (a
 * proposal is no value), and --no-auto leaves the fonts' own evidence alone. */
static DcPipelineLevels
levels_for (CommandFunc func)
{
  if (func == command_session)
    return opt_no_auto ? DC_PIPELINE_PROPOSALS : DC_PIPELINE_ALL;
  if ((func == command_text || func == command_repair || (func == command_fonts && opt_json))
      && opt_project == NULL && !opt_no_auto)
    return DC_PIPELINE_AUTOMATIC;
  return 0;
}

static void
print_usage (void)
{
  g_printerr ("%s\n", _("Usage: decipher-cli COMMAND FILE.pdf [OPTION…]"));
  g_printerr ("\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_printerr ("  %-8s %s\n", commands[i].name, _(commands[i].summary));
  g_printerr ("  %-8s %s\n", "library",
              _("Export the font library to a file, or import one: library export|import FILE"));
  g_printerr ("\n%s\n", _("Run “decipher-cli COMMAND --help” for its options."));
}

/* Why a document could not be opened, with the option that helps where one does. */
static void
print_load_error (const GError *error)
{
  const char *advice = NULL;
  g_autofree char *message = NULL;

  if (g_error_matches (error, DC_ERROR, DC_ERROR_ENCRYPTED))
    advice = _("Use --password PASSWORD.");
  else if (g_error_matches (error, DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS))
    advice = _("If it is a real document, raise the limit with --max-glyphs N.");
  else if (g_error_matches (error, DC_ERROR, DC_ERROR_TOO_MUCH_TEXT))
    advice = _("If it is a real document, raise the limit with --max-memory MB.");
  message = advice != NULL ? g_strdup_printf ("%s %s", error->message, advice)
                           : g_strdup (error->message);
  print_error (message);
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (name, commands[i].name))
      return &commands[i];
  return NULL;
}

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *parameter = NULL;
  const Command *command = NULL;
  DcDocumentLimits limits = { 0 };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_usage ();
      return argc < 2 ? 2 : 0;
    }

  /* One file of a collection, in a process of its own (decipher-cli-collection.c). */
  if (g_str_equal (argv[1], "--collection-item"))
    {
      argv[1] = argv[0];
      return decipher_cli_collection_item_main (argc - 1, argv + 1);
    }

  if (g_str_equal (argv[1], "library"))
    {
      argv[1] = argv[0];
      return command_library (argc - 1, argv + 1);
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a command."), argv[1]);
      print_error (message);
      print_usage ();
      return 2;
    }

  parameter = g_strdup_printf ("%s FILE.pdf", command->name);
  context = g_option_context_new (parameter);
  g_option_context_set_summary (context, _(command->summary));
  if (command->func == command_session)
    g_option_context_set_description (
        context,
        _("Requests, one JSON object a line, such as {\"cmd\": \"status\"}: status, "
          "lines, type, suggest, assign, accept, reject, symbols, occurrences, split, unsplit, "
          "undo, redo, text, save, conflicts, resolve, recognize.\n"
          "  reject {symbol}: the symbol's value is wrong; no evidence brings it back "
          "there, only typing or assigning it.\n"
          "  split {glyphs, text}: these occurrences of one symbol read another value, e.g. "
          "{\"cmd\": \"split\", \"glyphs\": [12, 40], \"text\": \"ʼ\"}; the glyph numbers "
          "come from {\"cmd\": \"occurrences\", \"symbol\": 3}.\n"
          "See docs/session-protocol.md for every request and reply."));
  g_option_context_add_main_entries (context, document_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, command->entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  /* argv[1] is the command: let GOption see "decipher-cli" followed by the rest. */
  argv[1] = argv[0];
  argc--;
  argv++;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      print_error (error->message);
      return 2;
    }
  /* Several PDFs, a folder, or text written to a folder: a collection. */
  if ((command->func == command_text || command->func == command_repair)
      && (argc > 2 || (argc == 2 && g_file_test (argv[1], G_FILE_TEST_IS_DIR))
          || (command->func == command_text && opt_output != NULL)))
    return run_collection (command->func == command_repair, argc, argv);
  if (argc != 2)
    {
      print_error (_("Give exactly one PDF file."));
      return 2;
    }

  /* 0 given would quietly have meant the default (issue 33). */
  if ((opt_max_glyphs != LIMIT_UNSET && opt_max_glyphs <= 0)
      || (opt_max_memory != LIMIT_UNSET && opt_max_memory <= 0))
    {
      print_error (_("--max-glyphs and --max-memory take a positive number."));
      return 2;
    }
  limits.max_glyphs = opt_max_glyphs == LIMIT_UNSET ? 0 : (guint64) opt_max_glyphs;
  limits.max_megabytes = opt_max_memory == LIMIT_UNSET ? 0 : (guint64) opt_max_memory;
  pipeline = dc_pipeline_new (levels_for (command->func));
  document = dc_pipeline_load_document (pipeline, argv[1], opt_password, &limits, NULL, NULL, NULL,
                                        &error);
  if (document == NULL)
    {
      print_load_error (error);
      return 1;
    }

  return command->func (document, argc, argv);
}

/*
 * Standard output goes to a file as often as to a terminal, and a file's disk fills up:
 * 16 KB of 143 KB written and exit status 0 told a script all was well (issue 33). So
 * what stdio holds is written now, and any write that failed on the way (stdio keeps
 * the error) makes the exit status 1, with a sentence.
 */
static int
finish_output (int status)
{
  int saved_errno = 0;
  gboolean failed;

  errno = 0;
  if (fflush (stdout) != 0)
    saved_errno = errno;
  failed = saved_errno != 0 || ferror (stdout);
  /* A standard output closed from the start (>&-) is only an error when written to. */
  if (fclose (stdout) != 0 && !failed && errno != EBADF)
    {
      saved_errno = errno;
      failed = TRUE;
    }
  if (!failed)
    return status;
  /* stdio keeps that a write failed, not why, once its buffer is gone. */
  if (saved_errno != 0)
    {
      g_autofree char *message = g_strdup_printf (_("The output could not be written whole: %s. What was written is incomplete."),
          g_strerror (saved_errno));

      print_error (message);
    }
  else
    print_error (_("The output could not be written whole (is its disk full?). What was "
                   "written is incomplete."));
  return 1;
}

int
main (int argc, char **argv)
{
  int status;

  /* Past `ulimit -f` a write should fail with EFBIG and be said, not kill the process
   * without a word. */
  signal (SIGXFSZ, SIG_IGN);
  status = run (argc, argv);

  g_clear_object (&pipeline);
  /* A book read for the first time is written to the document cache on a thread of its
   * own, meanwhile: exiting sooner would leave the file half written. */
  dc_document_flush_cache ();
  return finish_output (status);
}
