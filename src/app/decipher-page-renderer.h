/* decipher-page-renderer.h: pages rendered off the main thread, cached within a budget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Page textures kept around, enough for a few screens at high zoom. */
#define DECIPHER_PAGE_CACHE_BYTES (256 * 1024 * 1024)

#define DECIPHER_TYPE_PAGE_RENDERER (decipher_page_renderer_get_type ())

G_DECLARE_FINAL_TYPE (DecipherPageRenderer, decipher_page_renderer, DECIPHER, PAGE_RENDERER,
                      GObject)

typedef void (*DecipherCropFunc) (GdkTexture *texture, gpointer user_data);

DecipherPageRenderer *decipher_page_renderer_new (GFile *file, const char *password);
GFile *decipher_page_renderer_get_file (DecipherPageRenderer *self);
const char *decipher_page_renderer_get_password (DecipherPageRenderer *self);

guint decipher_page_renderer_get_generation (DecipherPageRenderer *self);
void decipher_page_renderer_set_scale (DecipherPageRenderer *self, double scale);
double decipher_page_renderer_get_scale (DecipherPageRenderer *self);

GdkTexture *decipher_page_renderer_lookup (DecipherPageRenderer *self, guint page, gboolean *exact);
cairo_surface_t *decipher_page_renderer_lookup_surface (DecipherPageRenderer *self, guint page,
                                                        gboolean *exact);
void decipher_page_renderer_request (DecipherPageRenderer *self, guint page);
void decipher_page_renderer_keep_only (DecipherPageRenderer *self, guint first_page,
                                       guint last_page);
void decipher_page_renderer_crop (DecipherPageRenderer *self, guint page,
                                  const graphene_rect_t *area, double scale, DecipherCropFunc func,
                                  gpointer user_data, GDestroyNotify destroy);
void decipher_page_renderer_crop_marked (DecipherPageRenderer *self, guint page,
                                         const graphene_rect_t *area, const graphene_rect_t *mark,
                                         double scale, GCancellable *cancellable,
                                         DecipherCropFunc func, gpointer user_data,
                                         GDestroyNotify destroy);

gsize decipher_page_renderer_get_cache_bytes (DecipherPageRenderer *self);
guint decipher_page_renderer_get_n_rendered (DecipherPageRenderer *self);
const char *decipher_page_renderer_get_error (DecipherPageRenderer *self);

G_END_DECLS
