/* dc-line-render.c: a page's line drawn in grey, for recognition to read (a module)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built as decipher-line-render.so and opened only when recognition first draws
 * (dc-line-render-module.c says why). Lines are drawn with poppler-glib, the renderer the
 * window uses, so that Tesseract sees what the linguist sees.
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <cairo.h>
#include <glib/gi18n-lib.h>
#include <poppler.h>

#include "dc-error.h"
#include "dc-line-render-private.h"

struct _DcLineRenderPdf
{
  PopplerDocument *document;
  DcLineRenderLockFunc lock;
  DcLineRenderLockFunc unlock;
};

/**
 * dc_line_render_open:
 * @path: the PDF to draw
 * @password: (nullable): its password
 * @lock: taken around everything poppler-glib does with fonts
 *
 * Returns: (nullable): the document, for dc_line_render_close(), or %NULL with @error
 */
DcLineRenderPdf *
dc_line_render_open (const char *path, const char *password, DcLineRenderLockFunc lock,
                     DcLineRenderLockFunc unlock, GError **error)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *uri = g_filename_to_uri (absolute, NULL, error);
  g_autoptr (GError) local_error = NULL;
  PopplerDocument *document;
  DcLineRenderPdf *pdf;

  if (uri == NULL)
    return NULL;
  document = poppler_document_new_from_file (uri, password, &local_error);
  if (document == NULL)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("The document could not be rendered for recognition: %s."),
                      local_error->message);
      return NULL;
    }
  pdf = g_new0 (DcLineRenderPdf, 1);
  pdf->document = document;
  pdf->lock = lock;
  pdf->unlock = unlock;
  return pdf;
}

/**
 * dc_line_render_draw:
 * @page: 0-based
 * @x0: the part of the page drawn, in points
 * @scale: pixels per point
 * @width: the image's size in pixels, with @pad white pixels on every side
 *
 * Returns: (nullable): @width × @height grey pixels, one byte each, black text on white,
 *   for g_free(); %NULL when the page is not there
 */
guint8 *
dc_line_render_draw (DcLineRenderPdf *pdf, guint page_number, double x0, double y0, double x1,
                     double y1, double scale, int width, int height, int pad)
{
  PopplerPage *page = poppler_document_get_page (pdf->document, (int) page_number);
  cairo_surface_t *surface;
  cairo_t *cr;
  guint8 *grey;
  const guint8 *data;
  int stride;

  if (page == NULL)
    return NULL;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_translate (cr, pad, pad);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -x0, -y0);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_clip (cr);
  pdf->lock ();
  poppler_page_render (page, cr);
  pdf->unlock ();
  g_object_unref (page);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  grey = g_malloc ((gsize) width * height);
  for (int y = 0; y < height; y++)
    {
      const guint32 *row = (const guint32 *) (data + (gsize) y * stride);

      for (int x = 0; x < width; x++)
        {
          guint32 p = row[x];

          grey[(gsize) y * width + x] = (guint8) ((((p >> 16) & 0xff) * 30 + ((p >> 8) & 0xff) * 59
                                                   + (p & 0xff) * 11)
                                                  / 100);
        }
    }
  cairo_surface_destroy (surface);
  return grey;
}

/* Dropping the document frees its fonts' faces, which must not happen while another
 * thread draws (dc-poppler-lock.c). */
void
dc_line_render_close (DcLineRenderPdf *pdf)
{
  if (pdf == NULL)
    return;
  pdf->lock ();
  g_object_unref (pdf->document);
  pdf->unlock ();
  g_free (pdf);
}
