/* test-document.c: extraction, lines and trust against the fixtures' ground truth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every fixture NAME.pdf with a NAME.json beside it (written by fixtures/generate.py,
 * which drew the glyphs itself) is checked glyph by glyph.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "dc-document-private.h"
#include "dc-glyph-private.h"
#include "dc-test-fixtures.h"

/* The glyph sequence, line by line, must be exactly what the generator drew. */
static void
test_glyph_sequence (gconstpointer data)
{
  const char *name = data;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (GHashTable)
      code_of_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *truth = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (truth, "pages");
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint n_glyphs_checked = 0;

  g_assert_cmpuint (dc_document_get_n_pages (document), ==, json_array_get_length (pages));

  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonObject *truth_page = json_array_get_object_element (pages, page);
      JsonArray *truth_lines = json_object_get_array_member (truth_page, "lines");
      double width, height;
      guint first, n;

      dc_document_get_page_size (document, page, &width, &height);
      g_assert_cmpfloat_with_epsilon (width, json_object_get_double_member (truth_page, "width"),
                                      0.5);
      g_assert_cmpfloat_with_epsilon (height, json_object_get_double_member (truth_page, "height"),
                                      0.5);

      dc_document_get_page_lines (document, page, &first, &n);
      g_assert_cmpuint (n, ==, json_array_get_length (truth_lines));

      for (guint l = 0; l < n; l++)
        {
          JsonObject *truth_line = json_array_get_object_element (truth_lines, l);
          const DcLine *line = &lines[first + l];
          JsonArray *truth_glyphs;

          if (!json_object_has_member (truth_line, "glyphs"))
            continue;
          truth_glyphs = json_object_get_array_member (truth_line, "glyphs");
          if (line->n_glyphs != json_array_get_length (truth_glyphs))
            g_error ("%s page %u line %u: %u glyphs, truth has %u (“%s”)", name, page + 1, l,
                     line->n_glyphs, json_array_get_length (truth_glyphs),
                     json_object_get_string_member (truth_line, "text"));

          for (guint k = 0; k < line->n_glyphs; k++)
            {
              JsonObject *truth_glyph = json_array_get_object_element (truth_glyphs, k);
              const DcGlyph *glyph = &glyphs[order[line->first_glyph + k]];
              const DcSymbol *symbol = dc_document_get_symbol (document, glyph->symbol);
              const char *text = json_object_get_string_member (truth_glyph, "text");
              gint64 key = ((gint64) symbol->font << 32) | symbol->code;
              g_autofree char *truth_key = NULL;
              gpointer known;

              g_assert_cmpint (symbol->code, ==, json_object_get_int_member (truth_glyph, "code"));
              g_assert_cmpfloat_with_epsilon (glyph->x,
                                              json_object_get_double_member (truth_glyph, "x"),
                                              0.5);
              g_assert_cmpfloat_with_epsilon (glyph->y,
                                              json_object_get_double_member (truth_glyph, "y"),
                                              0.5);

              /* The same character is always the same symbol: what matching relies on. */
              truth_key = g_strdup_printf ("%" G_GINT64_FORMAT ":%s",
                                           json_object_get_int_member (truth_glyph, "font"), text);
              if (g_hash_table_lookup_extended (code_of_text, truth_key, NULL, &known))
                g_assert_cmpint (GPOINTER_TO_SIZE (known), ==, (gsize) key + 1);
              else
                g_hash_table_insert (code_of_text, g_steal_pointer (&truth_key),
                                     GSIZE_TO_POINTER ((gsize) key + 1));
              n_glyphs_checked++;
            }
        }
    }

  g_assert_cmpuint (n_glyphs_checked, >, 0);
}

static void
test_trust (gconstpointer data)
{
  const char *name = data;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  JsonObject *truth = dc_test_load_truth (name, &parser);
  JsonArray *fonts = json_object_get_array_member (truth, "fonts");

  for (guint i = 0; i < json_array_get_length (fonts); i++)
    {
      JsonObject *truth_font = json_array_get_object_element (fonts, i);
      const char *base_font = json_object_get_string_member (truth_font, "base_font");
      gboolean expected = json_object_get_boolean_member (truth_font, "trusted");
      gboolean found = FALSE;

      for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
        {
          DcFont *font = dc_document_get_font (document, f);

          /* A font without a BaseFont (Type 3) is "" in the truth. */
          if (g_strcmp0 (dc_font_get_name (font) ? dc_font_get_name (font) : "", base_font) != 0)
            continue;
          found = TRUE;
          if (dc_font_is_trusted (font) != expected)
            g_error ("%s: font %s is %s: %s", name, base_font,
                     expected ? "untrusted but should be trusted" : "trusted but should not be",
                     dc_font_get_trust_reason (font));
          g_assert_nonnull (dc_font_get_trust_reason (font));
        }
      g_assert_true (found);
    }
}

/* Trusted fonts are decoded from the start: the text must be what the page says. */
static void
test_line_text (gconstpointer data)
{
  const char *name = data;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  JsonObject *truth = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (truth, "pages");
  guint line_index = 0;

  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonArray *truth_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                            page),
                                                             "lines");

      for (guint l = 0; l < json_array_get_length (truth_lines); l++, line_index++)
        {
          JsonObject *truth_line = json_array_get_object_element (truth_lines, l);
          g_autofree char *text = dc_export_line_text (document, line_index, dc_document_pdf_value,
                                                       document);
          g_autofree char *expected = g_utf8_normalize (json_object_get_string_member (truth_line,
                                                                                       "text"),
                                                        -1, G_NORMALIZE_NFC);
          g_autofree char *got = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);

          g_assert_cmpstr (got, ==, expected);
        }
    }
}

/* Untrusted fonts start unknown: their glyphs show U+FFFD, never the lying map. */
static void
test_untrusted_text_unknown (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, dc_document_pdf_value,
                                              document);
  const DcGlyph *glyphs;
  guint n_glyphs, untrusted = 0;

  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  for (guint i = 0; i < n_glyphs; i++)
    {
      if (!dc_font_is_trusted (
              dc_document_get_font (document,
                                    dc_glyph_get_font (&glyphs[i],
                                                       dc_document_get_symbols (document, NULL)))))
        {
          g_assert_null (dc_document_pdf_value (glyphs[i].symbol, document));
          untrusted++;
        }
    }
  g_assert_cmpuint (untrusted, >, 0);
  g_assert_nonnull (strstr (text, "\xEF\xBF\xBD"));
}

/* Tokens are the words a reader sees: split at drawn spaces or, where none are drawn,
 * at gaps; a combining mark drawn as its own zero-width glyph stays in its word. */
static void
test_tokens (gconstpointer data)
{
  const char *name = data;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  JsonObject *truth = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (truth, "pages");
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  guint line_index = 0, marks = 0;

  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonArray *truth_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                            page),
                                                             "lines");

      for (guint l = 0; l < json_array_get_length (truth_lines); l++, line_index++)
        {
          JsonObject *truth_line = json_array_get_object_element (truth_lines, l);
          JsonArray *truth_glyphs = json_object_get_array_member (truth_line, "glyphs");
          g_auto (GStrv)
              words = g_strsplit (json_object_get_string_member (truth_line, "text"), " ", -1);
          const DcLine *line = &lines[line_index];

          g_assert_cmpuint (line->n_tokens, ==, g_strv_length (words));

          for (guint k = 0; k < json_array_get_length (truth_glyphs); k++)
            {
              JsonObject *glyph = json_array_get_object_element (truth_glyphs, k);
              guint position = line->first_glyph + k;
              gboolean in_token_with_previous = FALSE;

              if (!g_str_equal (json_object_get_string_member (glyph, "text"), "\xCC\x81"))
                continue;
              for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
                if (tokens[t].first_glyph < position
                    && position < tokens[t].first_glyph + tokens[t].n_glyphs)
                  in_token_with_previous = TRUE;
              g_assert_cmpfloat (dc_glyph_get_advance (&glyphs[order[position]]), ==, 0);
              g_assert_true (in_token_with_previous);
              marks++;
            }
        }
    }
  if (g_str_equal (name, "legacy-cyrillic"))
    g_assert_cmpuint (marks, >, 0);
}

/* A CID font's program may name its glyphs: the names are read for proposals. */
static void
test_program_glyph_names (void)
{
  g_autoptr (DcDocument) named = dc_test_load_document ("identity-named");
  g_autoptr (DcDocument) unnamed = dc_test_load_document ("identity-h");
  const DcSymbol *symbols;
  guint n_symbols, found_ka = 0;

  symbols = dc_document_get_symbols (named, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_nonnull (symbols[s].glyph_name);
      found_ka += g_str_equal (symbols[s].glyph_name, "uni049A"); /* Қ */
    }
  g_assert_cmpuint (found_ka, ==, 1);

  symbols = dc_document_get_symbols (unnamed, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_null (symbols[s].glyph_name);
      /* Identity-H with /CIDToGIDMap /Identity: the code is the glyph. */
      g_assert_cmpint (dc_font_get_cid_glyph_index (dc_document_get_font (unnamed, symbols[s].font),
                                                    symbols[s].code),
                       ==, symbols[s].code);
    }
  {
    g_autoptr (DcDocument) simple = dc_test_load_document ("legacy-cyrillic");
    g_assert_cmpint (dc_font_get_cid_glyph_index (dc_document_get_font (simple, 0), 65), ==, -1);
  }
}

static void
test_glyph_is_compact (void)
{
  /* dc-types.h asserts the exact size at compile time; a book's memory depends on it. */
  g_assert_cmpuint (sizeof (DcGlyph), ==, 28);
}

/* What the bridge reported for each glyph: size, advance, x0, y0, x1, y1. */
static void
record_glyph (guint index, double size, double advance, double x0, double y0, double x1, double y1,
              gpointer user_data)
{
  GArray *reported = user_data;
  double values[6] = { size, advance, x0, y0, x1, y1 };

  g_assert_cmpuint (index * 6, ==, reported->len);
  g_array_append_vals (reported, values, 6);
}

/* How `decipher-cli glyphs` prints a value (w_fixed2()). */
static gint64
hundredths (float value)
{
  return (gint64) (value * 100.0 + (value < 0 ? -0.5 : 0.5));
}

/* The compact record keeps every glyph's box, size and advance within 0.01 pt of what the
 * bridge reported, and prints each of them as the float it reported would print. */
static void
test_glyph_precision (gconstpointer data)
{
  const char *name = data;
  g_autoptr (GArray) reported = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (DcDocument) document = NULL;
  const DcGlyph *glyphs;
  guint n_glyphs;

  _dc_glyph_set_hook (record_glyph, reported);
  document = dc_test_load_document (name);
  _dc_glyph_set_hook (NULL, NULL);
  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  /* No double-byte font here: every glyph the bridge reported is kept as it came. */
  g_assert_cmpuint (n_glyphs * 6, ==, reported->len);

  for (guint i = 0; i < n_glyphs; i++)
    {
      const double *want = &g_array_index (reported, double, i * 6);
      DcGlyphBox box = dc_glyph_get_box (&glyphs[i]);
      const float have[6] = { dc_glyph_get_size (&glyphs[i]),
                              dc_glyph_get_advance (&glyphs[i]),
                              box.x0,
                              box.y0,
                              box.x1,
                              box.y1 };

      for (guint k = 0; k < 6; k++)
        {
          g_assert_cmpfloat_with_epsilon (have[k], want[k], 0.01);
          g_assert_cmpint (hundredths (have[k]), ==, hundredths ((float) want[k]));
        }
    }
}

/* Each font's lines, as the automatic pass and the readings of a font go through them
 * (dc-auto.c, dc-readings.c): every line with a glyph of the font, in order, and no other;
 * and the lines hold every place of the reading order once, in order, so that a font's
 * lines hold all its glyphs. */
static void
test_font_lines (gconstpointer data)
{
  g_autoptr (DcDocument) document = dc_test_load_document (data);
  guint n_glyphs, n_lines, n_fonts = dc_document_get_n_fonts (document), place = 0;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, &n_lines);
  const guint *starts;
  const guint32 *font_lines = _dc_document_get_font_lines (document, &starts);
  guint n_mixed = 0;

  g_assert_cmpuint (n_fonts, >, 1);
  for (guint l = 0; l < n_lines; l++)
    {
      g_assert_cmpuint (lines[l].first_glyph, ==, place);
      place += lines[l].n_glyphs;
    }
  g_assert_cmpuint (place, ==, n_glyphs);
  g_assert_cmpuint (starts[0], ==, 0);
  for (guint f = 0; f < n_fonts; f++)
    {
      guint k = starts[f];

      for (guint l = 0; l < n_lines; l++)
        {
          gboolean has = FALSE;
          guint n_fonts_on_line = 0;

          for (guint i = lines[l].first_glyph; i < lines[l].first_glyph + lines[l].n_glyphs; i++)
            {
              has |= symbols[glyphs[order[i]].symbol].font == f;
              n_fonts_on_line += symbols[glyphs[order[i]].symbol].font != f;
            }
          if (!has)
            continue;
          n_mixed += n_fonts_on_line > 0;
          g_assert_cmpuint (k, <, starts[f + 1]);
          g_assert_cmpuint (font_lines[k++], ==, l);
        }
      g_assert_cmpuint (k, ==, starts[f + 1]);
    }
  /* A line of several fonts is listed for each: the readings break words there. */
  if (g_str_equal (data, "reading"))
    g_assert_cmpuint (n_mixed, >, 0);
}

/* The glyphs of each page are one range, the ranges follow each other and cover every
 * glyph; each symbol lists exactly the glyphs that draw it, in page order. */
static void
test_indexes (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  guint n_glyphs, n_symbols, n_pages = dc_document_get_n_pages (document);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  guint next = 0, listed = 0;

  g_assert_cmpuint (n_pages, >, 1);
  for (guint page = 0; page < n_pages; page++)
    {
      guint first, n;

      dc_document_get_page_glyphs (document, page, &first, &n);
      g_assert_cmpuint (first, ==, next);
      g_assert_cmpuint (n, >, 0);
      for (guint g = first; g < first + n; g++)
        g_assert_cmpuint (glyphs[g].page, ==, page);
      next = first + n;
    }
  g_assert_cmpuint (next, ==, n_glyphs);

  for (guint s = 0; s < n_symbols; s++)
    {
      guint n;
      const guint32 *list = dc_document_get_symbol_glyphs (document, s, &n);

      g_assert_cmpuint (n, ==, symbols[s].n_glyphs);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpuint (list[i], <, n_glyphs);
          g_assert_cmpuint (glyphs[list[i]].symbol, ==, s);
          if (i > 0)
            g_assert_cmpuint (list[i - 1], <, list[i]);
        }
      listed += n;
    }
  g_assert_cmpuint (listed, ==, n_glyphs);
}

typedef struct
{
  DcDocument *document;
  guint symbol;
} IndexQuestion;

static gpointer
ask_index (gpointer data)
{
  IndexQuestion *question = data;
  guint first, n;

  dc_document_get_page_glyphs (question->document, 1, &first, &n);
  return (gpointer) dc_document_get_symbol_glyphs (question->document, question->symbol, &n);
}

/* The first questions, asked from several threads at once, build each index once: every
 * thread gets the same list (under ThreadSanitizer, without a race). */
static void
test_indexes_threads (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  IndexQuestion question = { document, 0 };
  GThread *threads[4];
  const guint32 *list;
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("index", ask_index, &question);
  list = dc_document_get_symbol_glyphs (document, 0, &n);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (g_thread_join (threads[i]) == list);
  g_assert_cmpuint (n, ==, dc_document_get_symbol (document, 0)->n_glyphs);
}

/* Each symbol's count of glyphs, taken as the loader stores them (on one thread and
 * replayed from two) and again where double-byte pairs merge, is the number of glyphs
 * drawn with it, as the symbol-to-glyph index, made from the glyphs, finds them. */
static void
test_symbol_counts (gconstpointer data)
{
  const char *name = data;

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autofree char *value = g_strdup_printf ("%u", threads);
      g_autoptr (DcDocument) document = NULL;
      const DcSymbol *symbols;
      guint n_symbols, n_glyphs, total = 0;

      g_setenv ("DECIPHER_EXTRACT_THREADS", value, TRUE);
      document = dc_test_load_document (name);
      g_unsetenv ("DECIPHER_EXTRACT_THREADS");
      symbols = dc_document_get_symbols (document, &n_symbols);
      dc_document_get_glyphs (document, &n_glyphs);
      g_assert_cmpuint (n_glyphs, >, 0);
      for (guint s = 0; s < n_symbols; s++)
        {
          guint n;

          dc_document_get_symbol_glyphs (document, s, &n);
          g_assert_cmpuint (symbols[s].n_glyphs, ==, n);
          total += symbols[s].n_glyphs;
        }
      g_assert_cmpuint (total, ==, n_glyphs);
    }
}

int
main (int argc, char **argv)
{
  static const char *corrupted[] = { "legacy-cyrillic", "uralic-legacy", "identity-h",
                                     "identity-named",  "ligatures",     "duplicate-tounicode",
                                     "type3",           "rotated" };
  static const char *clean[] = { "clean", "two-columns", "igt" };
  static const char *precision[] = { "clean",        "rotated",
                                     "type3",        "script-japanese-vertical",
                                     "script-hindi", "multiscript" };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document/glyph-size", test_glyph_is_compact);
  for (guint i = 0; i < G_N_ELEMENTS (precision); i++)
    {
      g_autofree char *path = g_strdup_printf ("/document/glyph-precision/%s", precision[i]);

      g_test_add_data_func (path, precision[i], test_glyph_precision);
    }
  g_test_add_func ("/document/program-glyph-names", test_program_glyph_names);
  g_test_add_data_func ("/document/font-lines/igt", "igt", test_font_lines);
  g_test_add_data_func ("/document/font-lines/reading", "reading", test_font_lines);
  g_test_add_data_func ("/document/indexes/clean", "clean", test_indexes);
  g_test_add_data_func ("/document/indexes/legacy-cyrillic", "legacy-cyrillic", test_indexes);
  g_test_add_data_func ("/document/indexes/identity-named", "identity-named", test_indexes);
  g_test_add_func ("/document/indexes/threads", test_indexes_threads);
  g_test_add_data_func ("/document/symbol-counts/gbk-winansi", "gbk-winansi", test_symbol_counts);
  g_test_add_data_func ("/document/symbol-counts/reading", "reading", test_symbol_counts);
  for (guint i = 0; i < G_N_ELEMENTS (corrupted); i++)
    {
      g_autofree char *sequence = g_strdup_printf ("/document/glyphs/%s", corrupted[i]);
      g_autofree char *trust = g_strdup_printf ("/document/trust/%s", corrupted[i]);
      g_autofree char *unknown = g_strdup_printf ("/document/unknown-text/%s", corrupted[i]);

      g_test_add_data_func (sequence, corrupted[i], test_glyph_sequence);
      g_test_add_data_func (trust, corrupted[i], test_trust);
      g_test_add_data_func (unknown, corrupted[i], test_untrusted_text_unknown);
    }
  for (guint i = 0; i < G_N_ELEMENTS (clean); i++)
    {
      g_autofree char *sequence = g_strdup_printf ("/document/glyphs/%s", clean[i]);
      g_autofree char *trust = g_strdup_printf ("/document/trust/%s", clean[i]);
      g_autofree char *text = g_strdup_printf ("/document/text/%s", clean[i]);

      g_test_add_data_func (sequence, clean[i], test_glyph_sequence);
      g_test_add_data_func (trust, clean[i], test_trust);
      g_test_add_data_func (text, clean[i], test_line_text);
    }
  g_test_add_data_func ("/document/text/clean-pango", "clean-pango", test_line_text);
  g_test_add_data_func ("/document/tokens/legacy-cyrillic", "legacy-cyrillic", test_tokens);
  g_test_add_data_func ("/document/tokens/identity-h", "identity-h", test_tokens);
  g_test_add_data_func ("/document/tokens/clean", "clean", test_tokens);
  g_test_add_data_func ("/document/trust/clean-pango", "clean-pango", test_trust);
  /* A font of punctuation alone: trusted at the edges of other fonts' words, not inside. */
  g_test_add_data_func ("/document/trust/punctuation-fonts", "punctuation-fonts", test_trust);

  return g_test_run ();
}
