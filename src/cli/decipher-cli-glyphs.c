/* decipher-cli-glyphs.c: `decipher-cli glyphs`, one record per drawn glyph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli.c. A book draws millions of glyphs, and these records are what
 * the extraction benchmark compares with pdftotext: they are written by hand, straight
 * into a buffer, and on several threads a few parts ahead of the one going out
 * (docs/export-formats.md, docs/architecture.md).
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "decipher-cli-commands.h"
#include "decipher-cli-threads.h"

#define command_glyphs decipher_cli_command_glyphs
#define opt_json decipher_cli_opt_json

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

int
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
