/* decipher-document-view-private.h: what the view's drawing code shares with the rest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-document-view.h"

G_BEGIN_DECLS

/* Pixels around the pages and between them, whatever the zoom. */
#define DECIPHER_VIEW_MARGIN 24.0
#define DECIPHER_VIEW_GAP 16.0

struct _DecipherDocumentView
{
  GtkWidget parent_instance;

  DecipherSession *session;
  DecipherPageRenderer *renderer;
  DecipherGlyphShapes *shapes;

  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint hscroll_policy : 1;
  guint vscroll_policy : 1;
  guint show_text : 1;
  guint pointer_inside : 1;
  guint has_anchor : 1;

  double zoom;
  /* Where the point under the zoom anchor must land once the new size is allocated. */
  double anchor_x, anchor_y, anchor_value_x, anchor_value_y;

  /* Layout in page points: page i starts cum_height[i] points down, not counting gaps. */
  guint n_pages;
  double *cum_height;
  double max_width;

  guint8 *unknown; /* per symbol: highlighted while it has no value */
  guint n_symbols;
  guint n_highlighted;
  guint n_drawn_highlights;
  guint n_drawn_outlines;

  int hover_glyph;
  int popover_glyph;
  guint current_page;

  GPtrArray *line_layouts; /* of PangoLayout, per line, NULL until drawn */
  double layouts_zoom;

  DecipherGlyphPopover *popover;
};

void _decipher_document_view_snapshot (GtkWidget *widget,
                                       GtkSnapshot *snapshot);
gboolean _decipher_document_view_visible_pages (DecipherDocumentView *self,
                                                guint *first,
                                                guint *last);
void _decipher_document_view_page_rect (DecipherDocumentView *self,
                                        guint page,
                                        graphene_rect_t *rect);
void _decipher_document_view_glyph_rect (DecipherDocumentView *self,
                                         const DcGlyph *glyph,
                                         const graphene_rect_t *page_rect,
                                         graphene_rect_t *rect);
void _decipher_document_view_invalidate_text (DecipherDocumentView *self);

G_END_DECLS
