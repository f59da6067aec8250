/* decipher-glyph-shapes.c: what each symbol looks like, for the palette and popovers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A symbol's shape comes from the embedded font program through FreeType, drawing the
 * glyph poppler itself drew on the page (the engine's bridge takes the code → glyph map
 * from poppler's font engine; no guessing through names or cmaps here), so the palette
 * shows what the reader sees. Where FreeType cannot help (Type3 fonts draw with PDF
 * operators, a font may not be embedded, a program may not parse), the shape is cut out
 * of a rendering of the page around one of the symbol's glyphs.
 *
 * FreeType faces are used on the main thread only; one glyph takes microseconds, and
 * only the cells on screen ask.
 */

#define G_LOG_DOMAIN "decipher-shapes"

#include "config.h"

#include <math.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include "decipher-glyph-shapes.h"
#include "decipher-shape-paintable.h"

/* Pixels per em: enough for a crisp 48-pixel tile on a display scaled ×2. */
#define SHAPE_PIXELS 96

typedef struct
{
  FT_Face face;
  gboolean tried;
} Face;

struct _DecipherGlyphShapes
{
  GObject parent_instance;

  DcSession *session;
  DecipherPageRenderer *renderer;
  FT_Library library;
  Face *faces;
  guint n_fonts;
  GdkTexture **textures;
  guint8 *states; /* DecipherShapeState + 1, 0 while not looked at */
  guint n_symbols;
};

G_DEFINE_FINAL_TYPE (DecipherGlyphShapes, decipher_glyph_shapes, G_TYPE_OBJECT)

enum
{
  SHAPE_READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
decipher_glyph_shapes_finalize (GObject *object)
{
  DecipherGlyphShapes *self = DECIPHER_GLYPH_SHAPES (object);

  for (guint i = 0; i < self->n_symbols; i++)
    g_clear_object (&self->textures[i]);
  g_clear_pointer (&self->textures, g_free);
  g_clear_pointer (&self->states, g_free);
  for (guint i = 0; i < self->n_fonts; i++)
    g_clear_pointer (&self->faces[i].face, FT_Done_Face);
  g_clear_pointer (&self->faces, g_free);
  g_clear_pointer (&self->library, FT_Done_FreeType);
  g_clear_object (&self->renderer);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (decipher_glyph_shapes_parent_class)->finalize (object);
}

static void
decipher_glyph_shapes_class_init (DecipherGlyphShapesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = decipher_glyph_shapes_finalize;

  /**
   * DecipherGlyphShapes::shape-ready:
   * @symbol: whose shape, cut from a page, has arrived
   */
  signals[SHAPE_READY] = g_signal_new ("shape-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
decipher_glyph_shapes_init (DecipherGlyphShapes *self)
{
}

/* The renderer the shapes are cut with: others cut the same pages with it. */
DecipherPageRenderer *
decipher_glyph_shapes_get_renderer (DecipherGlyphShapes *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_SHAPES (self), NULL);

  return self->renderer;
}

DecipherGlyphShapes *
decipher_glyph_shapes_new (DcSession *session, DecipherPageRenderer *renderer)
{
  DecipherGlyphShapes *self;
  DcDocument *document;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (renderer), NULL);

  self = g_object_new (DECIPHER_TYPE_GLYPH_SHAPES, NULL);
  self->session = g_object_ref (session);
  self->renderer = g_object_ref (renderer);
  document = dc_session_get_document (session);
  self->n_fonts = dc_document_get_n_fonts (document);
  self->faces = g_new0 (Face, self->n_fonts);
  dc_document_get_symbols (document, &self->n_symbols);
  self->textures = g_new0 (GdkTexture *, self->n_symbols);
  self->states = g_new0 (guint8, self->n_symbols);
  if (FT_Init_FreeType (&self->library) != 0)
    self->library = NULL;
  return self;
}

/* ---- FreeType ----------------------------------------------------------------------- */

static FT_Face
ensure_face (DecipherGlyphShapes *self, guint font_index)
{
  Face *face = &self->faces[font_index];
  DcFont *font;
  GBytes *program;
  gsize size;
  const guint8 *data;

  if (face->tried || self->library == NULL)
    return face->face;
  face->tried = TRUE;

  font = dc_document_get_font (dc_session_get_document (self->session), font_index);
  program = dc_font_get_program (font);
  if (program == NULL || dc_font_get_font_type (font) == DC_FONT_TYPE_TYPE3)
    return NULL;
  /* The font keeps its program alive as long as the document, which the session keeps
   * as long as this object. */
  data = g_bytes_get_data (program, &size);
  if (FT_New_Memory_Face (self->library, data, (FT_Long) size, 0, &face->face) != 0)
    face->face = NULL;
  return face->face;
}

/* Draws the glyph black on transparent, on a canvas as tall as the font's ascent and
 * descent so that every shape of a font sits on one baseline at one scale. */
static GdkTexture *
rasterize (FT_Face face, FT_UInt gid, DecipherShapeState *state)
{
  FT_Bitmap *bitmap;
  g_autoptr (GBytes) bytes = NULL;
  cairo_surface_t *surface;
  GdkTexture *texture;
  guint8 *pixels;
  int ascent, descent, top, bottom, width, height, stride, x_off, y_off;

  if (FT_Set_Pixel_Sizes (face, 0, SHAPE_PIXELS) != 0
      || FT_Load_Glyph (face, gid, FT_LOAD_DEFAULT | FT_LOAD_NO_BITMAP) != 0)
    return NULL;
  if (face->glyph->format == FT_GLYPH_FORMAT_OUTLINE && face->glyph->outline.n_points == 0)
    {
      *state = DECIPHER_SHAPE_EMPTY;
      return NULL;
    }
  if (FT_Render_Glyph (face->glyph, FT_RENDER_MODE_NORMAL) != 0)
    return NULL;
  bitmap = &face->glyph->bitmap;
  if (bitmap->width == 0 || bitmap->rows == 0)
    {
      *state = DECIPHER_SHAPE_EMPTY;
      return NULL;
    }
  if (bitmap->pixel_mode != FT_PIXEL_MODE_GRAY)
    return NULL;

  ascent = (int) (face->size->metrics.ascender >> 6);
  descent = (int) (face->size->metrics.descender >> 6);
  /* Subset programs often carry nonsense metrics. */
  if (ascent <= 0 || ascent > 2 * SHAPE_PIXELS || descent > 0 || descent < -SHAPE_PIXELS)
    {
      ascent = SHAPE_PIXELS * 4 / 5;
      descent = -SHAPE_PIXELS / 5;
    }
  top = MAX (ascent, face->glyph->bitmap_top) + SHAPE_PIXELS / 16;
  bottom = MIN (descent, face->glyph->bitmap_top - (int) bitmap->rows) - SHAPE_PIXELS / 16;
  height = top - bottom;
  /* Square (unless the glyph is wider than the font is tall): a tile that fits the shape
   * in whatever box it gets scales every glyph of the font alike, so a lowercase letter
   * stays smaller than a capital, as on the page. */
  width = MAX ((int) bitmap->width + SHAPE_PIXELS / 8, height);
  x_off = (width - (int) bitmap->width) / 2;
  y_off = top - face->glyph->bitmap_top;

  /* Drawn in a cairo image that the texture shares: the palette paints that image
   * (decipher-shape-paintable.c) rather than a copy of it. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  stride = cairo_image_surface_get_stride (surface);
  pixels = cairo_image_surface_get_data (surface);
  for (guint row = 0; row < bitmap->rows; row++)
    {
      const guint8 *src = bitmap->buffer + (gsize) row * bitmap->pitch;
      guint8 *dst = pixels + (gsize) (y_off + row) * stride + x_off * 4;

      /* Black: only the alpha channel (the last byte, in cairo's order as in RGBA)
       * carries the coverage. */
      for (guint col = 0; col < bitmap->width; col++)
        dst[col * 4 + 3] = src[col];
    }
  cairo_surface_mark_dirty (surface);
  bytes = g_bytes_new_with_free_func (pixels, (gsize) stride * height,
                                      (GDestroyNotify) cairo_surface_destroy, surface);
  *state = DECIPHER_SHAPE_READY;
  /* Black reads the same premultiplied or not, and GTK 4.8 converts straight BGRA into
   * cairo's pixels with a loop of its own, but premultiplied one channel at a time
   * through floats (0.2 ms a shape). */
  texture = gdk_memory_texture_new (width, height, GDK_MEMORY_B8G8R8A8, bytes, stride);
  decipher_shape_paintable_set_surface (texture, surface);
  return texture;
}

/* ---- page crops --------------------------------------------------------------------- */

typedef struct
{
  GWeakRef self;
  guint symbol;
} CropData;

static void
crop_data_free (CropData *data)
{
  g_weak_ref_clear (&data->self);
  g_free (data);
}

/* A glyph that left no ink on the page (a drawn space) has no shape to show. */
static gboolean
texture_is_blank (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  g_autofree guint8 *pixels = g_malloc (stride * height);

  gdk_texture_download (texture, pixels, stride);
  for (gsize i = 0; i < stride * height; i++)
    if (pixels[i] < 0xF0)
      return FALSE;
  return TRUE;
}

/* A crop as a square tile, the glyph's box in the middle of white paper, for the same
 * reason as the square canvases of rasterize(). */
static GdkTexture *
square_crop (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  int side = MAX (width, height), x_off = (side - width) / 2, y_off = (side - height) / 2;
  gsize stride = (gsize) side * 4;
  g_autoptr (GBytes) bytes = NULL;
  guint8 *pixels;

  if (width == height)
    return g_object_ref (texture);
  pixels = g_malloc ((gsize) stride * side);
  memset (pixels, 0xFF, stride * side);
  gdk_texture_download (texture, pixels + y_off * stride + x_off * 4, stride);
  bytes = g_bytes_new_take (pixels, stride * side);
  /* Opaque (paper under the page), so straight alpha is the same pixels, and GTK 4.8
   * converts it quickly (see rasterize()). */
  return gdk_memory_texture_new (side, side, GDK_MEMORY_B8G8R8A8, bytes, stride);
}

static void
crop_done (GdkTexture *texture, gpointer user_data)
{
  CropData *data = user_data;
  g_autoptr (DecipherGlyphShapes) self = g_weak_ref_get (&data->self);
  DecipherShapeState state = DECIPHER_SHAPE_READY;

  if (self == NULL)
    return;
  if (texture == NULL)
    state = DECIPHER_SHAPE_FAILED;
  else if (texture_is_blank (texture))
    state = DECIPHER_SHAPE_EMPTY;
  if (state == DECIPHER_SHAPE_READY)
    {
      g_clear_object (&self->textures[data->symbol]);
      self->textures[data->symbol] = square_crop (texture);
    }
  self->states[data->symbol] = 1 + state;
  g_signal_emit (self, signals[SHAPE_READY], 0, data->symbol);
}

/* Asks for a rendering of the page around the symbol's largest visible glyph. */
static gboolean
request_crop (DecipherGlyphShapes *self, guint symbol)
{
  DcDocument *document = dc_session_get_document (self->session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *occurrences;
  const DcGlyph *best = NULL;
  graphene_rect_t area;
  CropData *data;
  DcGlyphBox box = { 0 };
  double width, height, pad;
  guint n;

  occurrences = dc_document_get_symbol_glyphs (dc_session_get_document (self->session), symbol, &n);
  for (guint i = 0; i < n && i < 64; i++)
    {
      const DcGlyph *g = &glyphs[occurrences[i]];
      DcGlyphBox g_box = dc_glyph_get_box (g);

      if ((g->flags & DC_GLYPH_INVISIBLE) == 0
          && (best == NULL || g_box.y1 - g_box.y0 > box.y1 - box.y0))
        {
          best = g;
          box = g_box;
        }
    }
  if (best == NULL)
    return FALSE;

  /* Exactly the glyph's box: any margin brings in pieces of its neighbours, which read
   * as part of the shape. A mark with no width gets a square around its middle. */
  width = box.x1 - box.x0;
  height = MAX (box.y1 - box.y0, 1.0);
  pad = width < 1.0 ? (height - width) / 2 : 0;
  graphene_rect_init (&area, box.x0 - pad, box.y0, width + 2 * pad, height);

  data = g_new0 (CropData, 1);
  g_weak_ref_init (&data->self, self);
  data->symbol = symbol;
  /* At the pixels per em of the shapes from programs, so that every tile shows its
   * glyph at its true size. */
  decipher_page_renderer_crop (self->renderer, best->page, &area,
                               SHAPE_PIXELS / MAX (dc_glyph_get_size (best), 1.0), crop_done, data,
                               (GDestroyNotify) crop_data_free);
  return TRUE;
}

/**
 * decipher_glyph_shapes_lookup:
 * @state: (out): whether the shape is there, coming, or not to be had
 *
 * Returns: (transfer none) (nullable): the shape of @symbol; when it has to be cut from
 * a page, %NULL until #DecipherGlyphShapes::shape-ready says it arrived.
 */
GdkTexture *
decipher_glyph_shapes_lookup (DecipherGlyphShapes *self, guint symbol, DecipherShapeState *state)
{
  DcDocument *document;
  const DcSymbol *s;
  DcFont *font;
  FT_Face face;
  int gid = -1;
  DecipherShapeState result = DECIPHER_SHAPE_FAILED;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_SHAPES (self), NULL);
  g_return_val_if_fail (symbol < self->n_symbols, NULL);

  if (self->states[symbol] != 0)
    {
      *state = self->states[symbol] - 1;
      return self->textures[symbol];
    }

  document = dc_session_get_document (self->session);
  s = dc_document_get_symbol (document, symbol);
  font = dc_document_get_font (document, s->font);
  face = ensure_face (self, s->font);
  if (face != NULL)
    gid = dc_font_get_glyph_index (font, s->code);
  /* Glyph 0 is .notdef: what poppler drew is not worth showing; the page crop says more. */
  if (face != NULL && gid > 0 && gid < face->num_glyphs)
    self->textures[symbol] = rasterize (face, (FT_UInt) gid, &result);

  if (self->textures[symbol] == NULL && result != DECIPHER_SHAPE_EMPTY)
    result = request_crop (self, symbol) ? DECIPHER_SHAPE_PENDING : DECIPHER_SHAPE_FAILED;

  self->states[symbol] = 1 + result;
  *state = result;
  return self->textures[symbol];
}
