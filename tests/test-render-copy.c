/* test-render-copy.c: a copy of the PDF that poppler draws as it was meant to look
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <poppler.h>

#include "dc-test-fixtures.h"

/* The first page at 72 dpi, grey levels. */
static cairo_surface_t *
render_page (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *uri = g_filename_to_uri (path, NULL, &error);
  /* Poppler 22.12's GLib API declares no autoptr cleanups. */
  PopplerDocument *pdf;
  PopplerPage *page;
  cairo_surface_t *surface;
  cairo_t *cr;
  double width, height;

  g_assert_no_error (error);
  pdf = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  page = poppler_document_get_page (pdf, 0);
  poppler_page_get_size (page, &width, &height);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) width, (int) height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  poppler_page_render (page, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_object_unref (page);
  g_object_unref (pdf);
  return surface;
}

/* The share of pixels, among those inked on either page, that differ by more than a
 * quarter of the grey scale. */
static double
differing_ink (cairo_surface_t *a, cairo_surface_t *b)
{
  int width = cairo_image_surface_get_width (a), height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);
  const guint8 *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  guint64 inked = 0, differing = 0;

  g_assert_cmpint (width, ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        /* RGB24: the green byte stands for the grey. */
        int ga = pa[y * stride + 4 * x + 1], gb = pb[y * stride + 4 * x + 1];

        if (ga > 192 && gb > 192)
          continue;
        inked++;
        differing += ABS (ga - gb) > 64;
      }
  g_assert_cmpuint (inked, >, 1000);
  return (double) differing / (double) inked;
}

/* Poppler draws a non-embedded font drawn by glyph number through its ToUnicode, so the
 * original page shows other letters than the font's; the copy, whose ToUnicode gives the
 * installed DejaVu Sans's own characters, looks like the page with those glyphs
 * embedded. */
static void
test_installed_font (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("installed-font");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("decipher-render-XXXXXX", &error);
  g_autofree char *cache = g_build_filename (dir, "render", NULL);
  g_autofree char *copy = NULL;
  g_autofree char *expected_name = NULL;
  g_autofree char *reference_path = dc_test_fixture_path ("installed-embedded.pdf");
  g_autofree char *original_path = dc_test_fixture_path ("installed-font.pdf");
  cairo_surface_t *reference, *original, *rendered;
  double before, after;

  g_assert_no_error (error);
  copy = dc_repair_write_render_copy (document, NULL, cache, &error);
  g_assert_no_error (error);
  g_assert_nonnull (copy);
  expected_name = g_strconcat (dc_document_get_sha256 (document), ".pdf", NULL);
  g_assert_true (g_str_has_suffix (copy, expected_name));
  g_assert_true (g_str_has_prefix (copy, cache));

  reference = render_page (reference_path);
  original = render_page (original_path);
  rendered = render_page (copy);
  before = differing_ink (original, reference);
  after = differing_ink (rendered, reference);
  g_test_message ("inked pixels that differ from the embedded font's page: %.3f before, %.3f "
                  "after",
                  before, after);
  g_assert_cmpfloat (before, >, 0.3);
  g_assert_cmpfloat (after, <, 0.05);
  cairo_surface_destroy (reference);
  cairo_surface_destroy (original);
  cairo_surface_destroy (rendered);

  g_assert_cmpint (g_unlink (copy), ==, 0);
  g_assert_cmpint (g_rmdir (cache), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Pages poppler draws right need no copy, and one whose font is not the installed font
 * of its name gets none either: nothing is written. */
static void
test_not_needed (gconstpointer data)
{
  g_autoptr (DcDocument) document = dc_test_load_document (data);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("decipher-render-XXXXXX", &error);
  g_autofree char *cache = g_build_filename (dir, "render", NULL);
  g_autofree char *copy = NULL;

  g_assert_no_error (error);
  copy = dc_repair_write_render_copy (document, NULL, cache, &error);
  g_assert_no_error (error);
  g_assert_null (copy);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render-copy/installed-font", test_installed_font);
  g_test_add_data_func ("/render-copy/not-needed/clean", "clean", test_not_needed);
  g_test_add_data_func ("/render-copy/not-needed/installed-embedded", "installed-embedded",
                        test_not_needed);
  g_test_add_data_func ("/render-copy/not-needed/installed-lookalike", "installed-lookalike",
                        test_not_needed);
  g_test_add_data_func ("/render-copy/not-needed/mac-order", "mac-order", test_not_needed);

  return g_test_run ();
}
