/* decipher-document-view-draw.c: what the document view draws, page by page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only pages on screen are drawn: the page image (or white paper while it renders),
 * then, from the engine's glyph boxes, the highlights of glyphs still to decode, the
 * outlines of the selected symbol's occurrences, and, when asked, each line's recovered
 * text over it. Highlights are plain color nodes, which the GPU renderer batches: a page
 * of three thousand glyphs costs well under a millisecond.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

#include "decipher-document-view-private.h"

/* Adwaita's accent blue, translucent, so the glyph stays readable under it. */
static const GdkRGBA unknown_color = { 0.208, 0.518, 0.894, 0.28 };
/* With GNOME's high contrast the pale wash all but vanishes on white paper: a firmer
 * wash and an outline in dark blue, over 3:1 against the paper (WCAG's bar for what is
 * not text), the glyph still black on it. */
static const GdkRGBA unknown_color_hc = { 0.208, 0.518, 0.894, 0.45 };
static const GdkRGBA unknown_outline_hc = { 0.0, 0.2, 0.55, 1.0 };
/* Adwaita orange: the selected symbol stands apart from the blue of the unknown ones. */
static const GdkRGBA selected_color = { 0.902, 0.380, 0.0, 1.0 };
static const GdkRGBA selected_fill = { 0.902, 0.380, 0.0, 0.20 };
static const GdkRGBA hover_color = { 0.110, 0.443, 0.847, 0.9 };
/* Adwaita green, purple and red for suggestions, candidates and conflicts; yellow for the
 * matches of a search, as document viewers show them, and orange for the one shown. */
static const GdkRGBA mark_colors[DECIPHER_N_MARKS] = {
  { 0.149, 0.635, 0.412, 1.0 }, { 0.569, 0.255, 0.675, 1.0 }, { 0.878, 0.106, 0.141, 1.0 },
  { 0.898, 0.647, 0.039, 1.0 }, { 1.0, 0.471, 0.0, 1.0 },
};
static const GdkRGBA paper_color = { 1.0, 1.0, 1.0, 1.0 };
/* The page's shadow, from its edge outwards: darker close to the paper, as a blurred
 * shadow fades. */
static const GdkRGBA shadow_rings[] = {
  { 0.0, 0.0, 0.0, 0.16 },
  { 0.0, 0.0, 0.0, 0.08 },
  { 0.0, 0.0, 0.0, 0.04 },
};
static const GdkRGBA text_cover = { 1.0, 1.0, 1.0, 1.0 };
/* Adwaita's dark blue: recovered text reads as an annotation, not as the print. */
static const GdkRGBA text_color = { 0.102, 0.373, 0.706, 1.0 };

void
_decipher_document_view_invalidate_text (DecipherDocumentView *self)
{
  g_clear_pointer (&self->line_layouts, g_ptr_array_unref);
}

/* GTK 4.8's cairo renderer converts a whole texture, pixel by pixel, at every frame it
 * is drawn in (see decipher-page-renderer.c); GPU renderers upload it once. */
static gboolean
renders_with_cairo (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  return renderer != NULL && GSK_IS_CAIRO_RENDERER (renderer);
}

/* Under the cairo renderer a page is painted by a cairo node of its own, kept from frame
 * to frame while the page, its image and its size stay the same. GTK compares each frame's
 * nodes with the last frame's and repaints only what changed; a node it has seen before is
 * unchanged by definition, whereas a new cairo node, even of the same image, counts as
 * changed all over. With a new node per frame, a highlight added, a page rendered next
 * door or the pointer moving repainted the whole window: a window-sized image, a copy of
 * the page into another, each in memory fresh from the system (30 to 40 µs a 4 KiB page
 * here, tens of milliseconds a frame).
 *
 * The node paints the image through a raster source rather than the surface itself: a
 * surface painted into a cairo node gets a copy-on-write snapshot, and cairo copies the
 * whole image (an 18 MB page at 300%) when a surface that ever had one goes, whoever still
 * uses the snapshot. A raster source is only a reference, handed out at each paint.
 *
 * A render at the current scale is as many pixels as the page covers on screen, give or
 * take the last fraction of one. Painted pixel for pixel at a whole device pixel, pixman
 * copies it; stretched by that fraction, or set at a fractional offset, it would filter
 * every pixel of the page at every frame (5 to 15 ms a page). A render of another zoom,
 * stretched until the right one arrives, is sampled without filtering for the same
 * reason: it is on screen for a fraction of a second. */
typedef struct
{
  cairo_surface_t *surface; /* not a reference: only compared; the node holds one */
  float width, height;
  gboolean one_to_one;
  gboolean exact;
  GskRenderNode *node;
} DecipherPageNode;

static void
page_node_free (DecipherPageNode *page_node)
{
  gsk_render_node_unref (page_node->node);
  g_free (page_node);
}

void
_decipher_document_view_clear_page_nodes (DecipherDocumentView *self)
{
  g_clear_pointer (&self->page_nodes, g_hash_table_unref);
}

static cairo_surface_t *
raster_acquire (cairo_pattern_t *pattern, void *surface, cairo_surface_t *target,
                const cairo_rectangle_int_t *extents)
{
  return cairo_surface_reference (surface);
}

static void
raster_release (cairo_pattern_t *pattern, void *surface, cairo_surface_t *acquired)
{
  cairo_surface_destroy (acquired);
}

/* Each copy of the pattern (the recording keeps one) holds the image. */
static cairo_status_t
raster_copy (cairo_pattern_t *pattern, void *surface, const cairo_pattern_t *other)
{
  cairo_surface_reference (surface);
  return CAIRO_STATUS_SUCCESS;
}

static void
raster_finish (cairo_pattern_t *pattern, void *surface)
{
  cairo_surface_destroy (surface);
}

/* A node that paints @surface over (0, 0, @width, @height). */
static GskRenderNode *
page_node_new (cairo_surface_t *surface, float width, float height, gboolean one_to_one,
               gboolean exact, int scale_factor)
{
  int surface_width = cairo_image_surface_get_width (surface);
  int surface_height = cairo_image_surface_get_height (surface);
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);
  cairo_pattern_t *pattern;

  pattern = cairo_pattern_create_raster_source (cairo_surface_reference (surface),
                                                CAIRO_CONTENT_COLOR_ALPHA, surface_width,
                                                surface_height);
  cairo_raster_source_pattern_set_acquire (pattern, raster_acquire, raster_release);
  cairo_raster_source_pattern_set_copy (pattern, raster_copy);
  cairo_raster_source_pattern_set_finish (pattern, raster_finish);
  /* Exact but stretched happens only past the largest render (MAX_PAGE_PIXELS). */
  cairo_pattern_set_filter (pattern,
                            one_to_one || !exact ? CAIRO_FILTER_FAST : CAIRO_FILTER_BILINEAR);
  if (one_to_one)
    cairo_scale (cr, 1.0 / scale_factor, 1.0 / scale_factor);
  else
    cairo_scale (cr, width / surface_width, height / surface_height);
  cairo_set_source (cr, pattern);
  cairo_paint (cr);
  cairo_pattern_destroy (pattern);
  cairo_destroy (cr);
  return node;
}

static gboolean
paint_page_surface (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
                    const graphene_rect_t *rect, gboolean *exact)
{
  cairo_surface_t *surface = decipher_page_renderer_lookup_surface (self->renderer, page, exact);
  int scale_factor = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  DecipherPageNode *page_node;
  graphene_point_t origin = rect->origin;
  gboolean one_to_one;

  if (surface == NULL)
    return FALSE;
  one_to_one = *exact
               && fabs (cairo_image_surface_get_width (surface) - rect->size.width * scale_factor)
                      < 1.0
               && fabs (cairo_image_surface_get_height (surface) - rect->size.height * scale_factor)
                      < 1.0;
  if (self->page_nodes == NULL)
    self->page_nodes = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) page_node_free);
  page_node = g_hash_table_lookup (self->page_nodes, GUINT_TO_POINTER (page));
  if (page_node == NULL || page_node->surface != surface || page_node->width != rect->size.width
      || page_node->height != rect->size.height || page_node->one_to_one != one_to_one
      || page_node->exact != *exact)
    {
      page_node = g_new0 (DecipherPageNode, 1);
      page_node->surface = surface;
      page_node->width = rect->size.width;
      page_node->height = rect->size.height;
      page_node->one_to_one = one_to_one;
      page_node->exact = *exact;
      page_node->node = page_node_new (surface, rect->size.width, rect->size.height, one_to_one,
                                       *exact, scale_factor);
      g_hash_table_replace (self->page_nodes, GUINT_TO_POINTER (page), page_node);
    }

  if (one_to_one)
    {
      origin.x = roundf (origin.x * scale_factor) / scale_factor;
      origin.y = roundf (origin.y * scale_factor) / scale_factor;
    }
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &origin);
  gtk_snapshot_append_node (snapshot, page_node->node);
  gtk_snapshot_restore (snapshot);
  return TRUE;
}

/* Pages off screen keep no node (nor, through it, their image). */
static void
prune_page_nodes (DecipherDocumentView *self, guint first, guint last)
{
  GHashTableIter iter;
  gpointer key;

  if (self->page_nodes == NULL)
    return;
  g_hash_table_iter_init (&iter, self->page_nodes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (GPOINTER_TO_UINT (key) < first || GPOINTER_TO_UINT (key) > last)
      g_hash_table_iter_remove (&iter);
}

static void
draw_page_image (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
                 const graphene_rect_t *rect, const graphene_rect_t *visible)
{
  GskRoundedRect outline;
  GdkTexture *texture;
  gboolean exact = FALSE;

  /* Rings of plain translucent color rather than one blurred shadow: GTK's cairo
   * renderer blurs a shadow by drawing it page-sized and blurring every pixel, at every
   * frame, which was more than half of what drawing the view cost it. Each ring lies
   * over the ones outside it, so they add up to a shadow that fades out. */
  gsk_rounded_rect_init_from_rect (&outline, rect, 0);
  for (guint ring = 0; ring < G_N_ELEMENTS (shadow_rings); ring++)
    gtk_snapshot_append_outset_shadow (snapshot, &outline, &shadow_rings[ring], 0, 1,
                                       (float) ring + 1, 0);
  gtk_snapshot_append_color (snapshot, &paper_color, rect);

  if (renders_with_cairo (GTK_WIDGET (self)))
    paint_page_surface (self, snapshot, page, rect, &exact);
  else if ((texture = decipher_page_renderer_lookup (self->renderer, page, &exact)) != NULL)
    /* A texture of another zoom is stretched until the right one arrives: blurry for a
     * moment is better than white. */
    gtk_snapshot_append_texture (snapshot, texture, rect);
  if (!exact)
    decipher_page_renderer_request (self->renderer, page);
  else
    self->n_drawn_pages++;
}

static void
append_outline (GtkSnapshot *snapshot, const graphene_rect_t *rect, float width,
                const GdkRGBA *color)
{
  GskRoundedRect outline;
  graphene_rect_t grown;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  graphene_rect_inset_r (rect, -width, -width, &grown);
  gsk_rounded_rect_init_from_rect (&outline, &grown, width);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

static void
draw_glyph_marks (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
                  const graphene_rect_t *page_rect, const graphene_rect_t *visible)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  guint selected = decipher_view_state_get_selected_symbol (self->state);
  gboolean high_contrast = adw_style_manager_get_high_contrast (adw_style_manager_get_default ());
  guint first, n;

  dc_document_get_page_glyphs (dc_session_get_document (self->session), page, &first, &n);
  for (guint g = first; g < first + n; g++)
    {
      const DcGlyph *glyph = &glyphs[g];
      graphene_rect_t rect;

      /* Over the recovered text the boxes would not line up with its letters. */
      if ((!self->unknown[glyph->symbol] || self->show_text) && glyph->symbol != selected)
        continue;
      _decipher_document_view_glyph_pixels (self, glyph, page_rect, &rect);
      if (!graphene_rect_intersection (&rect, visible, NULL))
        continue;
      if (glyph->symbol == selected)
        {
          gtk_snapshot_append_color (snapshot, &selected_fill, &rect);
          append_outline (snapshot, &rect, 2, &selected_color);
          self->n_drawn_outlines++;
        }
      else if (high_contrast)
        {
          gtk_snapshot_append_color (snapshot, &unknown_color_hc, &rect);
          append_outline (snapshot, &rect, 2, &unknown_outline_hc);
          self->n_drawn_highlights++;
        }
      else
        {
          gtk_snapshot_append_color (snapshot, &unknown_color, &rect);
          self->n_drawn_highlights++;
        }
    }

  if (self->hover_glyph >= 0 && glyphs[self->hover_glyph].page == page)
    {
      graphene_rect_t rect;

      _decipher_document_view_glyph_pixels (self, &glyphs[self->hover_glyph], page_rect, &rect);
      append_outline (snapshot, &rect, 1, &hover_color);
    }
}

/* Glyphs still unknown show as U+FFFD: in grey, so the recovered letters stand out. */
/* First index in the sorted @marks of a glyph at or after @glyph. */
static guint
lower_bound (const guint32 *marks, guint n_marks, guint32 glyph)
{
  guint lo = 0, hi = n_marks;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (marks[mid] < glyph)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
draw_marks (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
            const graphene_rect_t *page_rect, const graphene_rect_t *visible)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  guint first, n;

  dc_document_get_page_glyphs (dc_session_get_document (self->session), page, &first, &n);
  for (guint kind = 0; kind < DECIPHER_N_MARKS; kind++)
    {
      guint n_marks;
      const guint32 *marks = decipher_view_state_get_marks (self->state, kind, &n_marks);
      GdkRGBA fill = mark_colors[kind];

      if (marks == NULL)
        continue;
      fill.alpha = 0.22f;
      for (guint i = lower_bound (marks, n_marks, first); i < n_marks && marks[i] < first + n; i++)
        {
          graphene_rect_t rect, bar;

          _decipher_document_view_glyph_pixels (self, &glyphs[marks[i]], page_rect, &rect);
          if (!graphene_rect_intersection (&rect, visible, NULL))
            continue;
          if (kind == DECIPHER_MARK_SEARCH || kind == DECIPHER_MARK_SEARCH_CURRENT)
            {
              /* A highlighter's stroke, as document viewers mark matches: an outline
               * around each letter would hide the word being looked for. */
              fill.alpha = kind == DECIPHER_MARK_SEARCH ? 0.35f : 0.55f;
              gtk_snapshot_append_color (snapshot, &fill, &rect);
              self->n_drawn_marks++;
              continue;
            }
          gtk_snapshot_append_color (snapshot, &fill, &rect);
          if (kind == DECIPHER_MARK_SUGGESTION)
            {
              /* Underlined, like a word to read out, rather than boxed. */
              graphene_rect_init (&bar, rect.origin.x, rect.origin.y + rect.size.height,
                                  rect.size.width, 2);
              gtk_snapshot_append_color (snapshot, &mark_colors[kind], &bar);
            }
          else
            append_outline (snapshot, &rect, 2, &mark_colors[kind]);
          self->n_drawn_marks++;
        }
    }
}

static PangoAttrList *
dim_unknowns (const char *text)
{
  PangoAttrList *attrs = pango_attr_list_new ();
  const char *p = text;

  while ((p = strstr (p, "\xEF\xBF\xBD")) != NULL)
    {
      PangoAttribute *color = pango_attr_foreground_new (0x9a9a, 0x9996, 0x9e9e);
      PangoAttribute *weight = pango_attr_weight_new (PANGO_WEIGHT_LIGHT);

      color->start_index = weight->start_index = (guint) (p - text);
      color->end_index = weight->end_index = (guint) (p - text) + 3;
      pango_attr_list_insert (attrs, color);
      pango_attr_list_insert (attrs, weight);
      p += 3;
    }
  return attrs;
}

/* The cache has a slot per line, most of them never filled. */
static void
unref_layout (gpointer layout)
{
  if (layout != NULL)
    g_object_unref (layout);
}

static PangoLayout *
line_layout (DecipherDocumentView *self, guint line, const DcLine *l)
{
  DcDocument *document = dc_session_get_document (self->session);
  g_autofree char *text = NULL;
  PangoFontDescription *font;
  PangoAttrList *attrs;
  PangoLayout *layout;
  guint n_lines;
  double thickness;

  if (self->line_layouts == NULL)
    {
      dc_document_get_lines (document, &n_lines);
      self->line_layouts = g_ptr_array_new_full (n_lines, unref_layout);
      g_ptr_array_set_size (self->line_layouts, n_lines);
    }
  layout = g_ptr_array_index (self->line_layouts, line);
  if (layout != NULL)
    return layout;

  text = dc_export_line_text (document, line, dc_key_value_func,
                              dc_session_get_key (self->session));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  attrs = dim_unknowns (text);
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  thickness = (l->rotation % 2 == 0 ? l->y1 - l->y0 : l->x1 - l->x0) * self->zoom;
  font = pango_font_description_from_string ("Sans");
  pango_font_description_set_absolute_size (font, MAX (thickness * 0.72, 1.0) * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  g_ptr_array_index (self->line_layouts, line) = layout;
  return layout;
}

/* Each line's text, as far as it is recovered, over the line: the page reads as text,
 * and a wrong value stands out in the word it spoils. */
static void
draw_text (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
           const graphene_rect_t *page_rect, const graphene_rect_t *visible)
{
  DcDocument *document = dc_session_get_document (self->session);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint first, n;

  dc_document_get_page_lines (document, page, &first, &n);
  for (guint i = first; i < first + n; i++)
    {
      const DcLine *l = &lines[i];
      graphene_rect_t box;
      PangoLayout *layout;
      PangoRectangle logical;
      double length, thickness, sx = 1.0;

      graphene_rect_init (&box, page_rect->origin.x + l->x0 * self->zoom,
                          page_rect->origin.y + l->y0 * self->zoom, (l->x1 - l->x0) * self->zoom,
                          (l->y1 - l->y0) * self->zoom);
      if (!graphene_rect_intersection (&box, visible, NULL))
        continue;
      gtk_snapshot_append_color (snapshot, &text_cover, &box);

      layout = line_layout (self, i, l);
      pango_layout_get_pixel_extents (layout, NULL, &logical);
      length = l->rotation % 2 == 0 ? box.size.width : box.size.height;
      thickness = l->rotation % 2 == 0 ? box.size.height : box.size.width;
      if (logical.width > length && logical.width > 0)
        sx = length / logical.width;

      gtk_snapshot_save (snapshot);
      switch (l->rotation)
        {
        case 1:
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box.origin.x + box.size.width,
                                                                  box.origin.y));
          gtk_snapshot_rotate (snapshot, 90);
          break;
        case 2:
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box.origin.x + box.size.width,
                                                                  box.origin.y + box.size.height));
          gtk_snapshot_rotate (snapshot, 180);
          break;
        case 3:
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box.origin.x,
                                                                  box.origin.y + box.size.height));
          gtk_snapshot_rotate (snapshot, 270);
          break;
        default:
          gtk_snapshot_translate (snapshot, &box.origin);
          break;
        }
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (0, (thickness - logical.height) / 2.0));
      gtk_snapshot_scale (snapshot, (float) sx, 1);
      gtk_snapshot_append_layout (snapshot, layout, &text_color);
      gtk_snapshot_restore (snapshot);
    }
}

void
_decipher_document_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (widget);
  graphene_rect_t visible;
  guint first, last;

  self->n_drawn_highlights = 0;
  self->n_drawn_outlines = 0;
  self->n_drawn_marks = 0;
  self->n_drawn_pages = 0;
  self->cursor_drawn = FALSE;
  if (!_decipher_document_view_visible_pages (self, &first, &last))
    {
      if (self->state != NULL)
        decipher_view_state_set_lines_in_view (self->state, 0, 0);
      _decipher_document_view_clear_page_nodes (self);
      return;
    }
  prune_page_nodes (self, first, last);

  graphene_rect_init (&visible, 0, 0, gtk_widget_get_width (widget),
                      gtk_widget_get_height (widget));
  for (guint page = first; page <= last; page++)
    {
      graphene_rect_t rect;

      _decipher_document_view_page_rect (self, page, &rect);
      draw_page_image (self, snapshot, page, &rect, &visible);
      if (self->show_text)
        draw_text (self, snapshot, page, &rect, &visible);
      draw_glyph_marks (self, snapshot, page, &rect, &visible);
      draw_marks (self, snapshot, page, &rect, &visible);
      _decipher_document_view_draw_selection (self, snapshot, page, &rect, &visible);
      _decipher_document_view_draw_cursor (self, snapshot, page, &rect);
    }

  /* What the user can be reading, for the next typed word (issue 31.1). */
  if (self->state != NULL)
    {
      guint first_line = 0, n_lines = 0;

      decipher_document_view_get_lines_in_view (self, &first_line, &n_lines);
      decipher_view_state_set_lines_in_view (self->state, first_line, n_lines);
    }

  /* Pages just past the screen are rendered ahead, so scrolling finds them ready, and
   * queued pages scrolled past long ago are dropped. */
  if (last + 1 < self->n_pages)
    decipher_page_renderer_request (self->renderer, last + 1);
  if (first > 0)
    decipher_page_renderer_request (self->renderer, first - 1);
  decipher_page_renderer_keep_only (self->renderer, first > 0 ? first - 1 : 0, last + 1);
}

/* ---- what the last frame drew, for the tests ---------------------------------------- */

/* Marked glyphs the last frame drew, of every kind. */
guint
decipher_document_view_get_n_drawn_marks (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->n_drawn_marks;
}

/* Pages the last frame drew from a render at the current zoom: 0 while the view is blank
 * or shows a page stretched from another zoom. */
guint
decipher_document_view_get_n_drawn_pages (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->n_drawn_pages;
}

/* Glyphs in the whole document highlighted as still to decode. */
guint
decipher_document_view_get_n_highlighted (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->n_highlighted;
}

/* Highlight boxes the last frame drew, on the pages on screen. */
guint
decipher_document_view_get_n_drawn_highlights (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->n_drawn_highlights;
}

/* Outlines of the selected symbol's occurrences the last frame drew. */
guint
decipher_document_view_get_n_drawn_outlines (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->n_drawn_outlines;
}

/* Whether the last frame drew the glyph cursor. */
gboolean
decipher_document_view_get_cursor_drawn (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  return self->cursor_drawn;
}
