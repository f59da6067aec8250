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
/* Each zoom step, by keyboard or Ctrl+scroll. */
#define DECIPHER_VIEW_ZOOM_STEP 1.2

struct _DecipherDocumentView
{
  GtkWidget parent_instance;

  DcSession *session;
  /* On the session's key: retargeted with the session, nothing to disconnect by hand. */
  GSignalGroup *key_signals;
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
  guint n_drawn_marks;
  guint n_drawn_pages; /* from a render at the current zoom, in the last frame */

  /* What the window shows, shared with its other widgets: the page and zoom are bound
   * to the view's own, the marks drawn from it. */
  DecipherViewState *state;
  GBinding *page_binding;
  GBinding *zoom_binding;
  GBinding *n_pages_binding;

  int hover_glyph;
  gint64 cursor;           /* the glyph cursor's position in the reading order, or -1 */
  gint64 selection_anchor; /* where the selection started, up to the cursor, or -1 */
  gboolean cursor_shown;   /* since an arrow key, until the pointer clicks */
  gboolean cursor_drawn;
  gboolean dragged; /* the button went down and moved past the drag threshold */
  int popover_glyph;
  guint current_page;

  /* Under the cairo renderer: page → DecipherPageNode, the node that paints a page's
   * image, kept while the page is on screen (see decipher-document-view-draw.c). */
  GHashTable *page_nodes;

  GPtrArray *line_layouts; /* of PangoLayout, per line, NULL until drawn */
  double layouts_zoom;

  DecipherGlyphPopover *popover;
};

void _decipher_document_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot);
gboolean _decipher_document_view_visible_pages (DecipherDocumentView *self, guint *first,
                                                guint *last);
void _decipher_document_view_page_rect (DecipherDocumentView *self, guint page,
                                        graphene_rect_t *rect);
void _decipher_document_view_glyph_rect (DecipherDocumentView *self, const DcGlyph *glyph,
                                         const graphene_rect_t *page_rect, graphene_rect_t *rect);
void _decipher_document_view_glyph_pixels (DecipherDocumentView *self, const DcGlyph *glyph,
                                           const graphene_rect_t *page_rect, graphene_rect_t *rect);
void _decipher_document_view_invalidate_text (DecipherDocumentView *self);
void _decipher_document_view_clear_page_nodes (DecipherDocumentView *self);

guint _decipher_document_view_page_at_y (DecipherDocumentView *self, double y);
void _decipher_document_view_zoom_around (DecipherDocumentView *self, double zoom, double x,
                                          double y);
void _decipher_document_view_emit_glyph_activated (DecipherDocumentView *self, guint symbol);
void _decipher_document_view_emit_run_selected (DecipherDocumentView *self, guint first_glyph,
                                                guint last_glyph);
void _decipher_document_view_notify_pages (DecipherDocumentView *self);
void _decipher_document_view_update_render_scale (DecipherDocumentView *self);

/* decipher-document-view-session.c */
void _decipher_document_view_clear_session (DecipherDocumentView *self);
void _decipher_document_view_unbind_state (DecipherDocumentView *self);
void _decipher_document_view_key_changed_cb (DecipherDocumentView *self, guint symbol, DcKey *key);

/* decipher-document-view-cursor.c */
gboolean _decipher_document_view_move_cursor (DecipherDocumentView *self, int dx, int dy,
                                              gboolean extend);
gboolean _decipher_document_view_activate_cursor (DecipherDocumentView *self);
void _decipher_document_view_set_cursor_glyph (DecipherDocumentView *self, guint glyph);
void _decipher_document_view_describe_cursor (DecipherDocumentView *self);
void _decipher_document_view_draw_cursor (DecipherDocumentView *self, GtkSnapshot *snapshot,
                                          guint page, const graphene_rect_t *page_rect);

/* decipher-document-view-selection.c */
void _decipher_document_view_cursor_will_move (DecipherDocumentView *self, gboolean extend);
void _decipher_document_view_drag_update (DecipherDocumentView *self, double dx, double dy,
                                          GtkGestureDrag *gesture);
void _decipher_document_view_drag_end (DecipherDocumentView *self, double dx, double dy,
                                       GtkGestureDrag *gesture);
void _decipher_document_view_draw_selection (DecipherDocumentView *self, GtkSnapshot *snapshot,
                                             guint page, const graphene_rect_t *page_rect,
                                             const graphene_rect_t *visible);

/* decipher-document-view-input.c */
void _decipher_document_view_point_popover (DecipherDocumentView *self);
void _decipher_document_view_popover_closed (DecipherDocumentView *self);
void _decipher_document_view_motion (DecipherDocumentView *self, double x, double y,
                                     GtkEventControllerMotion *motion);
void _decipher_document_view_leave (DecipherDocumentView *self, GtkEventControllerMotion *motion);
void _decipher_document_view_selection_changed (DecipherDocumentView *self);
void _decipher_document_view_pressed (DecipherDocumentView *self, int n_press, double x, double y,
                                      GtkGestureClick *gesture);
void _decipher_document_view_released (DecipherDocumentView *self, int n_press, double x, double y,
                                       GtkGestureClick *gesture);
gboolean _decipher_document_view_scroll (DecipherDocumentView *self, double dx, double dy,
                                         GtkEventControllerScroll *scroll);
gboolean _decipher_document_view_query_tooltip (GtkWidget *widget, int x, int y,
                                                gboolean keyboard_mode, GtkTooltip *tooltip);

G_END_DECLS
