/* fuzz-pdf.c: open any bytes as a PDF through the poppler bridge, then use the document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A linguist opens whatever PDF they were sent. Whatever the bytes, opening must end in a
 * document or in a DcError sentence, never in a crash, a leak or a hang, and a document
 * must keep the promises dc-types.h makes about its records, since every later layer
 * indexes arrays with them without checking.
 */

#include "config.h"

#include <string.h>

#include "decipher.h"
#include "fuzz-common.h"

/* A fuzzed page tree can claim millions of pages; a real book has a few hundred, and a
 * few dozen are enough to reach every code path. */
#define MAX_PAGES 64
/* Past this, a load counts as pathological and is cancelled, as a user would. */
#define DEADLINE_MS 3000

static void
limit_pages (guint pages_done, guint n_pages, gpointer user_data)
{
  if (pages_done >= MAX_PAGES)
    g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
check_records (DcDocument *document)
{
  guint n_pages = dc_document_get_n_pages (document);
  guint n_fonts = dc_document_get_n_fonts (document);
  guint n_glyphs, n_order, n_symbols, n_lines, n_tokens;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const guint32 *order = dc_document_get_reading_order (document, &n_order);
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  const DcLine *lines = dc_document_get_lines (document, &n_lines);
  const DcToken *tokens = dc_document_get_tokens (document, &n_tokens);
  guint line_total = 0;

  g_assert_cmpuint (n_pages, >, 0);
  g_assert_cmpuint (n_glyphs, >, 0); /* no glyphs is DC_ERROR_NO_TEXT or _SCANNED */
  g_assert_cmpuint (dc_document_get_sha256 (document)[0], !=, '\0');

  for (guint p = 0; p < n_pages; p++)
    {
      double width, height;
      guint first, n;

      dc_document_get_page_size (document, p, &width, &height);
      dc_document_get_page_lines (document, p, &first, &n);
      g_assert_cmpuint (first, ==, line_total);
      line_total += n;
    }
  g_assert_cmpuint (line_total, ==, n_lines);

  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);

      g_assert_cmpuint (dc_font_get_index (font), ==, f);
      dc_font_get_name (font);
      g_assert_nonnull (dc_font_type_to_string (dc_font_get_font_type (font)));
      dc_font_get_encoding (font);
      dc_font_get_program_kind (font);
      dc_font_get_program_sha256 (font);
      dc_font_get_writing_mode (font);
      g_assert_cmpuint (dc_font_get_n_symbols (font), <=, dc_font_get_n_glyphs (font));
      /* An untrusted font must say why, since the UI shows the reason. */
      g_assert_true (dc_font_is_trusted (font) || dc_font_get_trust_reason (font) != NULL);
    }

  for (guint s = 0; s < n_symbols; s++)
    {
      const DcSymbol *symbol = &symbols[s];
      guint found;

      g_assert_cmpuint (symbol->font, <, n_fonts);
      g_assert_cmpuint (symbol->code_len, >=, 1);
      g_assert_cmpuint (symbol->code_len, <=, 4);
      g_assert_cmpuint (symbol->n_glyphs, >, 0);
      g_assert_nonnull (symbol->pdf_text);
      if (!g_utf8_validate (symbol->pdf_text, -1, NULL))
        {
          g_autoptr (GString) bytes = g_string_new (NULL);

          for (const guint8 *p = (const guint8 *) symbol->pdf_text; *p; p++)
            g_string_append_printf (bytes, " %02X", *p);
          dc_fuzz_note ("symbol %u (font %u, code 0x%X): text is not UTF-8:%s", s,
                        symbol->font, symbol->code, bytes->str);
        }
      g_assert_true (g_utf8_validate (symbol->pdf_text, -1, NULL));
      g_assert_true (dc_document_lookup_symbol (document, symbol->font, symbol->code, &found));
      g_assert_cmpuint (found, ==, s);
      dc_font_get_glyph_name (dc_document_get_font (document, symbol->font), symbol->code);
      dc_document_symbol_needs_decoding (document, s);
      dc_document_symbol_is_space (document, s);
    }

  for (guint g = 0; g < n_glyphs; g++)
    {
      g_assert_cmpuint (glyphs[g].symbol, <, n_symbols);
      g_assert_cmpuint (glyphs[g].page, <, n_pages);
      g_assert_cmpuint (dc_glyph_get_font (&glyphs[g], symbols), ==, symbols[glyphs[g].symbol].font);
    }

  /* Every index the reading order holds is a glyph, and lines cover it in order. */
  for (guint k = 0; k < n_order; k++)
    g_assert_cmpuint (order[k], <, n_glyphs);
  for (guint l = 0; l < n_lines; l++)
    {
      const DcLine *line = &lines[l];

      g_assert_cmpuint (line->page, <, n_pages);
      g_assert_cmpuint (line->n_glyphs, >, 0);
      g_assert_cmpuint ((guint64) line->first_glyph + line->n_glyphs, <=, n_order);
      g_assert_cmpuint ((guint64) line->first_token + line->n_tokens, <=, n_tokens);
      for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
        {
          const DcToken *token = &tokens[t];

          g_assert_cmpuint (token->line, ==, l);
          g_assert_cmpuint (token->n_glyphs, >, 0);
          g_assert_cmpuint (token->first_glyph, >=, line->first_glyph);
          g_assert_cmpuint ((guint64) token->first_glyph + token->n_glyphs, <=,
                            (guint64) line->first_glyph + line->n_glyphs);
          for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
            g_assert_false (dc_document_symbol_is_space (document, glyphs[order[k]].symbol));
        }
    }
}

/* Exports are a good part of each run's time: every format once with what the PDF
 * says, and the plain text once more with a key, which only changes the values. */
static void
check_exports (DcDocument *document, DcValueFunc value, gpointer user_data,
               DcExportFormat last_format)
{
  guint n_lines;

  dc_document_get_lines (document, &n_lines);
  for (guint l = 0; l < MIN (n_lines, 50); l++)
    {
      g_autofree char *text = dc_export_line_text (document, l, value, user_data);

      g_assert_true (g_utf8_validate (text, -1, NULL));
    }

  for (DcExportFormat format = DC_EXPORT_TEXT; format <= last_format; format++)
    {
      g_autofree char *text = dc_export_document (document, format, value, user_data);

      g_assert_nonnull (text);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      /* Whatever the PDF holds, the JSON export is JSON any script can read back. */
      if (format == DC_EXPORT_JSON)
        g_assert_true (dc_fuzz_json_is_valid (text, strlen (text)));
    }
}

/* What a session does first: give a few unknown symbols a value, then undo it. */
static void
use_key (DcDocument *document)
{
  g_autoptr (DcKey) key = dc_key_new (document);
  guint n_symbols, n_decoded, n_to_decode, assigned = 0;

  dc_document_get_symbols (document, &n_symbols);
  dc_key_count_to_decode (key, &n_to_decode, NULL);
  dc_key_begin_change (key, "fuzz");
  for (guint s = 0; s < n_symbols && assigned < 3; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      {
        g_autoptr (GError) error = NULL;

        g_assert_true (dc_key_set (key, s, "ӈ", DC_KEY_CONFIRMED, "fuzz", &error));
        g_assert_no_error (error);
        assigned++;
      }
  dc_key_end_change (key);

  dc_key_count_decoded (key, &n_decoded, NULL);
  g_assert_cmpuint (n_decoded, <=, n_to_decode);
  check_exports (document, dc_key_value_func, key, DC_EXPORT_TEXT);
  if (assigned > 0)
    g_assert_true (dc_key_undo (key));
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  dc_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;
  const char *path;

  dc_fuzz_init ();
  path = dc_fuzz_write_input ("input.pdf", data, size);

  dc_fuzz_deadline_start (cancellable, DEADLINE_MS);
  document = dc_document_new_from_file (path, NULL, limit_pages, cancellable, cancellable,
                                        &error);
  dc_fuzz_deadline_stop ();

  if (document == NULL)
    {
      /* Failing is fine; failing without a sentence for the user is not. */
      g_assert_nonnull (error);
      g_assert_true (error->domain == DC_ERROR || g_error_matches (error, G_IO_ERROR,
                                                                   G_IO_ERROR_CANCELLED));
      g_assert_nonnull (error->message);
      g_assert_cmpuint (error->message[0], !=, '\0');
      dc_fuzz_note ("refused: %s", error->message);
      return 0;
    }
  g_assert_no_error (error);
  {
    guint n_glyphs, n_lines;

    dc_document_get_glyphs (document, &n_glyphs);
    dc_document_get_lines (document, &n_lines);
    dc_fuzz_note ("opened: %u pages, %u fonts, %u glyphs, %u lines",
                  dc_document_get_n_pages (document), dc_document_get_n_fonts (document),
                  n_glyphs, n_lines);
  }

  check_records (document);
  check_exports (document, dc_document_pdf_value, document, DC_EXPORT_JSON);
  use_key (document);
  return 0;
}
