/* test-bridge.c: glyph boxes line up with poppler-glib's text layout; streams decoded alike
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GUI draws the engine's boxes over a poppler-glib rendering; if the two disagreed,
 * the highlight would sit beside the glyph the user clicks.
 */

#include "config.h"

#include <math.h>
#include <poppler.h>
#include <string.h>
#include <zlib.h>

#include "decipher.h"
#include "dc-glyph-pack-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-test-fixtures.h"

static const char *fixtures_dir;

static void
test_boxes_match_poppler_glib (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_strdup_printf ("%s/%s.pdf", fixtures_dir, name);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) document = NULL;
  PopplerDocument *reference = NULL; /* poppler-glib 22.12 has no autoptr */
  const DcGlyph *glyphs;
  guint n_glyphs, matched = 0, checked = 0;

  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  reference = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  glyphs = dc_document_get_glyphs (document, &n_glyphs);

  for (guint page = 0; page < dc_document_get_n_pages (document); page++)
    {
      PopplerPage *poppler_page = poppler_document_get_page (reference, page);
      g_autofree PopplerRectangle *rects = NULL;
      guint n_rects = 0;
      double width, height;

      poppler_page_get_size (poppler_page, &width, &height);
      {
        double w, h;
        dc_document_get_page_size (document, page, &w, &h);
        g_assert_cmpfloat_with_epsilon (w, width, 0.01);
        g_assert_cmpfloat_with_epsilon (h, height, 0.01);
      }
      g_assert_true (poppler_page_get_text_layout (poppler_page, &rects, &n_rects));

      for (guint i = 0; i < n_glyphs; i++)
        {
          const DcGlyph *glyph = &glyphs[i];
          DcGlyphBox box = dc_glyph_get_box (glyph);
          DcGlyphBox next = i + 1 < n_glyphs ? dc_glyph_get_box (&glyphs[i + 1]) : box;
          gboolean found = FALSE, multi;

          if (glyph->page != page || dc_document_symbol_is_space (document, glyph->symbol))
            continue;
          checked++;
          /* poppler-glib splits a ligature's box into one part per character, and ends a
           * kerned glyph's box where the next glyph starts: compare what both define. */
          {
            g_autofree char *decomposed =
                g_utf8_normalize (dc_document_get_symbol (document, glyph->symbol)->pdf_text, -1,
                                  G_NORMALIZE_ALL);
            multi = decomposed != NULL && g_utf8_strlen (decomposed, -1) > 1;
          }
          for (guint r = 0; r < n_rects && !found; r++)
            {
              gboolean same_end = fabs (rects[r].x2 - box.x1) <= 1.0;
              gboolean kerned = i + 1 < n_glyphs && next.x0 < box.x1
                                && fabs (rects[r].x2 - next.x0) <= 1.0;

              found = fabs (rects[r].x1 - box.x0) <= 1.0 && fabs (rects[r].y1 - box.y0) <= 1.0
                      && fabs (rects[r].y2 - box.y1) <= 1.0 && (same_end || multi || kerned);
            }
          if (!found)
            for (guint r = 0; r < n_rects; r++)
              if (fabs (rects[r].x1 - box.x0) <= 3.0 && fabs (rects[r].y1 - box.y0) <= 3.0)
                g_test_message ("page %u: glyph %.2f,%.2f–%.2f,%.2f; poppler-glib "
                                "%.2f,%.2f–%.2f,%.2f",
                                page + 1, box.x0, box.y0, box.x1, box.y1, rects[r].x1, rects[r].y1,
                                rects[r].x2, rects[r].y2);
          matched += found;
        }
      g_object_unref (poppler_page);
    }
  g_object_unref (reference);

  g_assert_cmpuint (checked, >, 0);
  g_assert_cmpuint (matched, ==, checked);
}

/* Whether @data is one zlib stream that decodes whole, its Adler-32 checked. */
static gboolean
inflates_clean (const guchar *data, gsize length)
{
  guchar out[16384];
  z_stream zs = { 0 };
  int result;

  g_assert_cmpint (inflateInit (&zs), ==, Z_OK);
  zs.next_in = (guchar *) data;
  zs.avail_in = (uInt) length;
  do
    {
      zs.next_out = out;
      zs.avail_out = sizeof out;
      result = inflate (&zs, Z_NO_FLUSH);
    }
  while (result == Z_OK);
  inflateEnd (&zs);
  return result == Z_STREAM_END;
}

/* The next @word in [@from, @end), or NULL. */
static char *
find (char *from, const char *end, const char *word)
{
  gsize n = strlen (word);

  for (char *at = from; at + n <= end; at++)
    if (memcmp (at, word, n) == 0)
      return at;
  return NULL;
}

/* Spoils the Adler-32 at the end of every stream of @contents that zlib decodes whole:
 * returns how many. */
static guint
spoil_checksums (char *contents, gsize length)
{
  const char *end = contents + length;
  guint n_spoiled = 0;
  char *at = contents;

  while ((at = find (at, end, "stream")) != NULL)
    {
      char *data = at + strlen ("stream"), *data_end;

      if (at - contents >= 3 && memcmp (at - 3, "end", 3) == 0)
        {
          at = data;
          continue;
        }
      data += *data == '\r' ? 1 : 0;
      data += *data == '\n' ? 1 : 0;
      if ((data_end = find (data, end, "endstream")) == NULL)
        break;
      at = data_end + strlen ("endstream");
      /* The end of line before the keyword is not part of the data. */
      if (data_end > data && data_end[-1] == '\n')
        data_end--;
      if (data_end > data && data_end[-1] == '\r')
        data_end--;
      if (!inflates_clean ((guchar *) data, data_end - data))
        continue;
      data_end[-1] ^= 0x5a;
      g_assert_false (inflates_clean ((guchar *) data, data_end - data));
      n_spoiled++;
    }
  return n_spoiled;
}

/* A stream whose Adler-32 is wrong reads as it does with the right one. poppler's own
 * decoder never looks at the checksum; the bridge decodes the streams zlib can (content
 * streams, font programs) with zlib, told not to look either, and would otherwise hand
 * such a stream to poppler's decoder, at several times the cost. */
static void
test_wrong_checksum (void)
{
  g_autofree char *path = g_build_filename (fixtures_dir, "clean.pdf", NULL);
  g_autofree char *dir = g_dir_make_tmp ("test-bridge-XXXXXX", NULL);
  g_autofree char *spoiled_path = g_build_filename (dir, "spoiled.pdf", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) clean = NULL;
  g_autoptr (DcDocument) spoiled = NULL;
  g_autofree char *contents = NULL;
  const DcGlyph *glyphs_a, *glyphs_b;
  const DcSymbol *symbols_a, *symbols_b;
  guint n_a, n_b;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  /* The fixture's page content and its embedded font programs. */
  g_assert_cmpuint (spoil_checksums (contents, length), >=, 2);
  g_assert_true (g_file_set_contents (spoiled_path, contents, (gssize) length, &error));
  g_assert_no_error (error);

  clean = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  spoiled = dc_document_new_from_file (spoiled_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  glyphs_a = dc_document_get_glyphs (clean, &n_a);
  glyphs_b = dc_document_get_glyphs (spoiled, &n_b);
  g_assert_cmpuint (n_a, >, 0);
  g_assert_cmpmem (glyphs_a, n_a * sizeof (DcGlyph), glyphs_b, n_b * sizeof (DcGlyph));
  symbols_a = dc_document_get_symbols (clean, &n_a);
  symbols_b = dc_document_get_symbols (spoiled, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  for (guint s = 0; s < n_a; s++)
    g_assert_cmpstr (symbols_a[s].pdf_text, ==, symbols_b[s].pdf_text);
  g_assert_cmpuint (dc_document_get_n_fonts (clean), ==, dc_document_get_n_fonts (spoiled));
  for (guint f = 0; f < dc_document_get_n_fonts (clean); f++)
    g_assert_cmpstr (dc_font_get_program_sha256 (dc_document_get_font (clean, f)), ==,
                     dc_font_get_program_sha256 (dc_document_get_font (spoiled, f)));

  dc_test_remove_tree (dir);
}

/* What the runs of one fixture were. */
typedef struct
{
  gboolean identity_text; /* each code's text is the code itself (an /Identity-H ToUnicode) */
  guint n_runs;
  guint n_glyphs;
  guint n_fast; /* glyphs of runs _dc_glyph_packer_pack() packs on its own */
  guint n_text; /* glyphs with text */
} Runs;

static void
ignore_font (guint font_index, const DcBridgeFont *font, gpointer user_data)
{
}

/* Every glyph of a run packs as one packed alone does, bit for bit, and keeps its own
 * text. */
static void
check_run (const DcBridgeRun *run, gpointer user_data)
{
  Runs *runs = user_data;
  DcGlyphPacker packer;

  g_assert_cmpuint (run->n_glyphs, >, 0);
  _dc_glyph_packer_init (&packer, run);
  for (guint i = 0; i < run->n_glyphs; i++)
    {
      const DcBridgeGlyph *glyph = &run->glyphs[i];
      DcGlyph alone, in_run;

      _dc_glyph_pack_inline (&alone, run, glyph);
      _dc_glyph_packer_pack (&packer, packer.fast, &in_run, glyph);
      g_assert_cmpmem (&in_run, sizeof in_run, &alone, sizeof alone);
      if (runs->identity_text && glyph->unicode_len > 0)
        {
          g_assert_cmpint (glyph->unicode_len, ==, 1);
          g_assert_cmpuint (run->text[glyph->unicode_at], ==, glyph->code);
        }
      runs->n_text += glyph->unicode_len > 0;
    }
  runs->n_runs++;
  runs->n_glyphs += run->n_glyphs;
  runs->n_fast += packer.fast ? run->n_glyphs : 0;
}

/* The bridge hands a string's glyphs on in one run, and a run's glyphs pack as glyphs
 * packed one by one do: the document's glyphs are what they were when the bridge
 * reported them one at a time. */
static void
test_runs (gconstpointer data)
{
  const char *name = data;
  const DcBridgeCallbacks callbacks = { ignore_font, check_run, NULL, NULL };
  g_autofree char *path = g_strdup_printf ("%s/%s.pdf", fixtures_dir, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcPdfBridge) bridge = dc_pdf_bridge_open (path, NULL, &error);
  g_autoptr (DcDocument) document = NULL;
  Runs runs = { g_str_equal (name, "identity-unicode") };
  guint n_glyphs;

  g_assert_no_error (error);
  for (guint page = 0; page < dc_pdf_bridge_get_n_pages (bridge); page++)
    {
      g_assert_true (dc_pdf_bridge_extract_page (bridge, page, &callbacks, &runs, NULL, &error));
      g_assert_no_error (error);
    }

  /* Every glyph the document keeps; a line of these two is one string, in one run. */
  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dc_document_get_glyphs (document, &n_glyphs);
  g_assert_cmpuint (runs.n_glyphs, ==, n_glyphs);
  g_assert_cmpuint (runs.n_text, >, 0);
  if (g_str_equal (name, "clean") || g_str_equal (name, "identity-unicode"))
    {
      g_assert_cmpuint (runs.n_runs * 4, <, runs.n_glyphs);
      g_assert_cmpuint (runs.n_fast, ==, runs.n_glyphs);
    }
  /* Lines turned a quarter and upright glyphs are packed one by one. */
  if (g_str_has_prefix (name, "script-mongolian-vertical")
      || g_str_has_prefix (name, "script-japanese-identity-v"))
    g_assert_cmpuint (runs.n_fast, ==, 0);
}

/* Glyphs a real document rarely draws: boxes running back (a negative advance), wider
 * than the finest unit reaches, on lines that move, at sizes on both sides of 127 pt,
 * edges near the hundredths the exports print. Packed in a run, each is what it is
 * packed alone. */
static void
test_runs_unusual (void)
{
  static const double sizes[] = { 0.5, 9.96, 12, 126.99, 127, 127.01, 300, 5000 };
  static const int rotations[] = { 0, 0, 0, 1, 2, 3 };
  GRand *rand = g_rand_new_with_seed (32);

  for (guint r = 0; r < 400; r++)
    {
      DcBridgeGlyph glyphs[64];
      DcBridgeRun run = { 0 };
      DcGlyphPacker packer;
      double x = g_rand_double_range (rand, -50, 900), y = g_rand_double_range (rand, -50, 900);

      run.page = r;
      run.font = r % 3;
      run.render_mode = r % 5 == 0 ? 3 : 0;
      run.rotation = rotations[r % G_N_ELEMENTS (rotations)];
      run.upright = r % 11 == 0;
      run.font_size = sizes[r % G_N_ELEMENTS (sizes)] * (r % 13 == 0 ? -1 : 1);
      run.ascent = run.font_size * g_rand_double_range (rand, 0.5, 1.1);
      run.descent = -run.font_size * g_rand_double_range (rand, 0, 0.4);
      run.n_glyphs = G_N_ELEMENTS (glyphs);
      run.glyphs = glyphs;
      for (guint i = 0; i < run.n_glyphs; i++)
        {
          double width = g_rand_double_range (rand, -0.2, 1.2) * run.font_size;

          /* Near a hundredth: half of one off, or a few 1/256 pt units off. */
          if (i % 4 == 1)
            width = floor (width * 100) / 100 + 0.005;
          else if (i % 4 == 2)
            width = round (width * 256) / 256 + 1e-7;
          glyphs[i] = (DcBridgeGlyph){ .x = x, .y = y, .dx = width, .dy = 0, .code = i };
          x += width;
          /* A rise or a new line now and then. */
          if (i % 9 == 8)
            y += g_rand_double_range (rand, -3, 3);
        }
      if (r % 7 == 0)
        glyphs[5].dx = 40000;

      _dc_glyph_packer_init (&packer, &run);
      for (guint i = 0; i < run.n_glyphs; i++)
        {
          DcGlyph alone, in_run;

          _dc_glyph_pack_inline (&alone, &run, &glyphs[i]);
          _dc_glyph_packer_pack (&packer, packer.fast, &in_run, &glyphs[i]);
          g_assert_cmpmem (&in_run, sizeof in_run, &alone, sizeof alone);
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  fixtures_dir = g_getenv ("FIXTURES_DIR");
  g_assert_nonnull (fixtures_dir);

  g_test_add_data_func ("/bridge/boxes/clean", "clean", test_boxes_match_poppler_glib);
  g_test_add_data_func ("/bridge/boxes/rotated", "rotated", test_boxes_match_poppler_glib);
  g_test_add_data_func ("/bridge/boxes/clean-pango", "clean-pango", test_boxes_match_poppler_glib);
  g_test_add_func ("/bridge/inflate/wrong-checksum", test_wrong_checksum);
  g_test_add_data_func ("/bridge/runs/clean", "clean", test_runs);
  g_test_add_data_func ("/bridge/runs/rotated", "rotated", test_runs);
  g_test_add_data_func ("/bridge/runs/identity-unicode", "identity-unicode", test_runs);
  g_test_add_data_func ("/bridge/runs/script-mongolian-vertical", "script-mongolian-vertical",
                        test_runs);
  g_test_add_data_func ("/bridge/runs/script-japanese-identity-v", "script-japanese-identity-v",
                        test_runs);
  g_test_add_data_func ("/bridge/runs/type3", "type3", test_runs);
  g_test_add_func ("/bridge/runs/unusual", test_runs_unusual);

  return g_test_run ();
}
