/* decipher-shape-paintable.c: a glyph's shape, drawn by a node kept from frame to frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8's cairo renderer draws a texture by converting all its pixels, one channel at
 * a time through floats, into a new image, at every frame that draws it: the glyph
 * palette's sixty-odd shapes were 40% of the drawing in the window's longest frames. This
 * paintable converts its texture once, into a cairo image, and draws it with a cairo node
 * that it keeps for as long as it is drawn at the same size. GTK's cairo renderer draws
 * that node from the image as it is; its GL renderer keeps the node's pixels as a texture
 * of its own, since it is the same node from one frame to the next.
 *
 * One paintable per texture (decipher_shape_paintable_for_texture()), so that a cell
 * bound again to a symbol, or two widgets showing the same shape, share the work.
 */

#define G_LOG_DOMAIN "decipher-shape-paintable"

#include "config.h"

#include "decipher-shape-paintable.h"

struct _DecipherShapePaintable
{
  GObject parent_instance;

  cairo_surface_t *surface; /* the texture's pixels, converted once */
  GskRenderNode *node;      /* the last one drawn, at node_width × node_height */
  double node_width, node_height;
};

static void decipher_shape_paintable_iface_init (GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DecipherShapePaintable, decipher_shape_paintable, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GDK_TYPE_PAINTABLE,
                                                      decipher_shape_paintable_iface_init))

static GskRenderNode *
shape_node_new (DecipherShapePaintable *self, double width, double height)
{
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  /* As GTK draws a texture: stretched to the box, its edges carried on. */
  cairo_scale (cr, width / cairo_image_surface_get_width (self->surface),
               height / cairo_image_surface_get_height (self->surface));
  cairo_set_source_surface (cr, self->surface, 0, 0);
  cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
  cairo_paint (cr);
  cairo_destroy (cr);
  return node;
}

static void
decipher_shape_paintable_snapshot (GdkPaintable *paintable, GdkSnapshot *snapshot, double width,
                                   double height)
{
  DecipherShapePaintable *self = DECIPHER_SHAPE_PAINTABLE (paintable);

  if (width <= 0 || height <= 0)
    return;
  if (self->node == NULL || self->node_width != width || self->node_height != height)
    {
      g_clear_pointer (&self->node, gsk_render_node_unref);
      self->node = shape_node_new (self, width, height);
      self->node_width = width;
      self->node_height = height;
    }
  gtk_snapshot_append_node (GTK_SNAPSHOT (snapshot), self->node);
}

static int
decipher_shape_paintable_get_intrinsic_width (GdkPaintable *paintable)
{
  return cairo_image_surface_get_width (DECIPHER_SHAPE_PAINTABLE (paintable)->surface);
}

static int
decipher_shape_paintable_get_intrinsic_height (GdkPaintable *paintable)
{
  return cairo_image_surface_get_height (DECIPHER_SHAPE_PAINTABLE (paintable)->surface);
}

static GdkPaintableFlags
decipher_shape_paintable_get_flags (GdkPaintable *paintable)
{
  return GDK_PAINTABLE_STATIC_SIZE | GDK_PAINTABLE_STATIC_CONTENTS;
}

static void
decipher_shape_paintable_iface_init (GdkPaintableInterface *iface)
{
  iface->snapshot = decipher_shape_paintable_snapshot;
  iface->get_intrinsic_width = decipher_shape_paintable_get_intrinsic_width;
  iface->get_intrinsic_height = decipher_shape_paintable_get_intrinsic_height;
  iface->get_flags = decipher_shape_paintable_get_flags;
}

static void
decipher_shape_paintable_finalize (GObject *object)
{
  DecipherShapePaintable *self = DECIPHER_SHAPE_PAINTABLE (object);

  g_clear_pointer (&self->node, gsk_render_node_unref);
  g_clear_pointer (&self->surface, cairo_surface_destroy);

  G_OBJECT_CLASS (decipher_shape_paintable_parent_class)->finalize (object);
}

static void
decipher_shape_paintable_class_init (DecipherShapePaintableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = decipher_shape_paintable_finalize;
}

static void
decipher_shape_paintable_init (DecipherShapePaintable *self)
{
}

static GQuark
surface_quark (void)
{
  static GQuark quark;

  if (quark == 0)
    quark = g_quark_from_static_string ("decipher-shape-paintable-surface");
  return quark;
}

/**
 * decipher_shape_paintable_set_surface:
 * @surface: a cairo ARGB32 image of the same pixels as @texture, sharing its memory
 *
 * Spares @texture's paintable a copy of the pixels: a palette's worth of new images at
 * once is memory fresh from the system, slow to touch on a virtual machine.
 */
void
decipher_shape_paintable_set_surface (GdkTexture *texture, cairo_surface_t *surface)
{
  g_return_if_fail (GDK_IS_TEXTURE (texture));
  g_return_if_fail (cairo_image_surface_get_width (surface) == gdk_texture_get_width (texture));

  g_object_set_qdata_full (G_OBJECT (texture), surface_quark (), cairo_surface_reference (surface),
                           (GDestroyNotify) cairo_surface_destroy);
}

/**
 * decipher_shape_paintable_for_texture:
 *
 * Returns: (transfer none): @texture's paintable, made on first use and kept as long as
 * @texture. It keeps its own reference to the pixels, not @texture: a widget may show it
 * longer.
 */
GdkPaintable *
decipher_shape_paintable_for_texture (GdkTexture *texture)
{
  static GQuark quark;
  DecipherShapePaintable *self;
  cairo_surface_t *surface;

  g_return_val_if_fail (GDK_IS_TEXTURE (texture), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("decipher-shape-paintable");
  self = g_object_get_qdata (G_OBJECT (texture), quark);
  if (self != NULL)
    return GDK_PAINTABLE (self);

  self = g_object_new (DECIPHER_TYPE_SHAPE_PAINTABLE, NULL);
  surface = g_object_get_qdata (G_OBJECT (texture), surface_quark ());
  if (surface != NULL)
    self->surface = cairo_surface_reference (surface);
  else
    {
      /* GDK_MEMORY_DEFAULT is cairo's ARGB32 in memory. */
      self->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                  gdk_texture_get_width (texture),
                                                  gdk_texture_get_height (texture));
      gdk_texture_download (texture, cairo_image_surface_get_data (self->surface),
                            cairo_image_surface_get_stride (self->surface));
      cairo_surface_mark_dirty (self->surface);
    }
  g_object_set_qdata_full (G_OBJECT (texture), quark, self, g_object_unref);
  return GDK_PAINTABLE (self);
}
