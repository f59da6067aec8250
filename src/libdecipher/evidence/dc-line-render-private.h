/* dc-line-render-private.h: a page's line drawn in grey, for recognition to read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recognition draws lines with poppler-glib and cairo, which nothing else of the engine
 * uses: dc-line-render.c is a module of its own (decipher-line-render.so), opened by
 * dc-line-render-module.c the first time recognition draws. See there why.
 */

#pragma once

#include <glib.h>
#include <gmodule.h>

G_BEGIN_DECLS

/* A document opened for drawing: one per thread. */
typedef struct _DcLineRenderPdf DcLineRenderPdf;

/* dc_poppler_lock() and dc_poppler_unlock(): the module draws under the engine's lock,
 * the one the app's page renderer takes too. */
typedef void (*DcLineRenderLockFunc) (void);

/* Defined in the module only: the engine calls them through _dc_line_render_get(). */
G_MODULE_EXPORT DcLineRenderPdf *dc_line_render_open (const char *path, const char *password,
                                                      DcLineRenderLockFunc lock,
                                                      DcLineRenderLockFunc unlock, GError **error);
G_MODULE_EXPORT guint8 *dc_line_render_draw (DcLineRenderPdf *pdf, guint page, double x0, double y0,
                                             double x1, double y1, double scale, int width,
                                             int height, int pad);
G_MODULE_EXPORT void dc_line_render_close (DcLineRenderPdf *pdf);

typedef struct
{
  __typeof__ (&dc_line_render_open) open;
  __typeof__ (&dc_line_render_draw) draw;
  __typeof__ (&dc_line_render_close) close;
} DcLineRender;

const DcLineRender *_dc_line_render_get (GError **error);

G_END_DECLS
