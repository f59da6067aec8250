/* test-bridge.c: glyph boxes line up with poppler-glib's text layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GUI draws the engine's boxes over a poppler-glib rendering; if the two disagreed,
 * the highlight would sit beside the glyph the user clicks.
 */

#include "config.h"

#include <math.h>
#include <poppler.h>

#include "decipher.h"

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
            g_autofree char *decomposed = g_utf8_normalize (
                dc_document_get_symbol (document, glyph->symbol)->pdf_text, -1, G_NORMALIZE_ALL);
            multi = decomposed != NULL && g_utf8_strlen (decomposed, -1) > 1;
          }
          for (guint r = 0; r < n_rects && !found; r++)
            {
              gboolean same_end = fabs (rects[r].x2 - box.x1) <= 1.0;
              gboolean kerned = i + 1 < n_glyphs && next.x0 < box.x1 &&
                                fabs (rects[r].x2 - next.x0) <= 1.0;

              found = fabs (rects[r].x1 - box.x0) <= 1.0 && fabs (rects[r].y1 - box.y0) <= 1.0 &&
                      fabs (rects[r].y2 - box.y1) <= 1.0 && (same_end || multi || kerned);
            }
          if (!found)
            for (guint r = 0; r < n_rects; r++)
              if (fabs (rects[r].x1 - box.x0) <= 3.0 && fabs (rects[r].y1 - box.y0) <= 3.0)
                g_test_message ("page %u: glyph %.2f,%.2f–%.2f,%.2f; poppler-glib %.2f,%.2f–%.2f,%.2f",
                                page + 1, box.x0, box.y0, box.x1, box.y1,
                                rects[r].x1, rects[r].y1, rects[r].x2, rects[r].y2);
          matched += found;
        }
      g_object_unref (poppler_page);
    }
  g_object_unref (reference);

  g_assert_cmpuint (checked, >, 0);
  g_assert_cmpuint (matched, ==, checked);
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

  return g_test_run ();
}
