/* decipher-document-view-selection.c: selecting words on the page, to copy their text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As in a document viewer: dragging across the page, or Shift with the arrow keys from
 * the glyph cursor, selects a run of the reading order, shown shaded; Ctrl+C (the
 * window's win.copy) copies the text recovered so far of the words it touches, each
 * line in logical order (dc_export_run_text()). A click, or Escape, drops it. The
 * selection is the range between an anchor and the glyph cursor, both positions in the
 * reading order, so the keyboard and the pointer make the same selection.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include "decipher-document-view-private.h"

/* Neutral, like selected text in GNOME applications over a page that is not theirs: the
 * blues and greens on the page already say other things. */
static const GdkRGBA selection_color = { 0.239, 0.220, 0.275, 0.28 };

static gboolean
selection_bounds (DecipherDocumentView *self, guint *lo, guint *hi)
{
  if (self->session == NULL || self->selection_anchor < 0 || self->cursor < 0)
    return FALSE;
  *lo = (guint) MIN (self->selection_anchor, self->cursor);
  *hi = (guint) MAX (self->selection_anchor, self->cursor);
  return TRUE;
}

/**
 * decipher_document_view_select_glyphs:
 *
 * Selects the run of the reading order from @first_glyph to @last_glyph (either order),
 * as a drag from one to the other does; the glyph cursor goes to @last_glyph.
 *
 * Returns: %FALSE if either glyph is on no line
 */
gboolean
decipher_document_view_select_glyphs (DecipherDocumentView *self, guint first_glyph,
                                      guint last_glyph)
{
  DcDocument *document;
  guint first, last;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  if (self->session == NULL)
    return FALSE;
  document = dc_session_get_document (self->session);
  if (!dc_document_locate_glyph (document, first_glyph, &first, NULL)
      || !dc_document_locate_glyph (document, last_glyph, &last, NULL))
    return FALSE;
  self->selection_anchor = (gint64) first;
  self->cursor = (gint64) last;
  _decipher_document_view_selection_changed (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

void
decipher_document_view_clear_selection (DecipherDocumentView *self)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  if (self->selection_anchor < 0)
    return;
  self->selection_anchor = -1;
  _decipher_document_view_selection_changed (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
decipher_document_view_has_selection (DecipherDocumentView *self)
{
  guint lo, hi;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  return selection_bounds (self, &lo, &hi) && lo != hi;
}

/**
 * decipher_document_view_dup_selected_text:
 *
 * Returns: (transfer full) (nullable): the recovered text of the words selected, unknown
 *   glyphs as U+FFFD, or %NULL when nothing is selected
 */
char *
decipher_document_view_dup_selected_text (DecipherDocumentView *self)
{
  guint lo, hi;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), NULL);

  if (!decipher_document_view_has_selection (self) || !selection_bounds (self, &lo, &hi))
    return NULL;
  return dc_export_run_text (dc_session_get_document (self->session), lo, hi, dc_key_value_func,
                             dc_session_get_key (self->session));
}

/* Starts or drops the selection as the cursor moves: Shift+arrow extends it from where
 * the cursor was, a plain arrow lets it go. */
void
_decipher_document_view_cursor_will_move (DecipherDocumentView *self, gboolean extend)
{
  if (!extend)
    decipher_document_view_clear_selection (self);
  else if (self->selection_anchor < 0 && self->cursor >= 0)
    self->selection_anchor = self->cursor;
}

/* How far a drag goes before it selects rather than clicks, in pixels. */
#define DRAG_THRESHOLD 8

/* The glyph a drag that ends at @x, @y means: the one there, or else the nearest on the
 * page there, a line above or below counting for more than a distance along it — so a
 * drag that ends past a line's end, in a margin or between lines selects up to the
 * nearest glyph, as in a document viewer. */
static int
glyph_near (DecipherDocumentView *self, double x, double y)
{
  const DcGlyph *glyphs;
  graphene_rect_t page_rect;
  guint page, first, n;
  int best = decipher_document_view_glyph_at (self, x, y);
  double best_distance = G_MAXDOUBLE;

  if (best >= 0 || self->session == NULL || self->n_pages == 0)
    return best;
  page = _decipher_document_view_page_at_y (self, y + gtk_adjustment_get_value (self->vadjustment));
  _decipher_document_view_page_rect (self, page, &page_rect);
  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  dc_document_get_page_glyphs (dc_session_get_document (self->session), page, &first, &n);
  for (guint g = first; g < first + n; g++)
    {
      graphene_rect_t rect;
      double dx, dy, distance;

      _decipher_document_view_glyph_rect (self, &glyphs[g], &page_rect, &rect);
      dx = MAX (0, MAX (rect.origin.x - x, x - (rect.origin.x + rect.size.width)));
      dy = MAX (0, MAX (rect.origin.y - y, y - (rect.origin.y + rect.size.height)));
      distance = 8 * dy + dx;
      if (distance < best_distance)
        {
          best = (int) g;
          best_distance = distance;
        }
    }
  return best;
}

/* Selects from where the drag started to the glyph nearest where it is: @emit says the
 * drag is over and the run is offered for typing. */
static void
select_dragged (DecipherDocumentView *self, double dx, double dy, GtkGestureDrag *gesture,
                gboolean emit)
{
  double x, y;
  int first, last;

  if (self->session == NULL)
    return;
  if (!self->dragged && ABS (dx) < DRAG_THRESHOLD && ABS (dy) < DRAG_THRESHOLD)
    return;
  self->dragged = TRUE;
  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  first = glyph_near (self, x, y);
  last = glyph_near (self, x + dx, y + dy);
  /* A click that slipped a little on one glyph is a click, but its release is a drag's:
   * nothing is selected, and no popover opens either. */
  if (first < 0 || last < 0 || first == last
      || !decipher_document_view_select_glyphs (self, (guint) first, (guint) last))
    {
      decipher_document_view_clear_selection (self);
      return;
    }
  if (emit)
    _decipher_document_view_emit_run_selected (self, (guint) first, (guint) last);
}

void
_decipher_document_view_drag_update (DecipherDocumentView *self, double dx, double dy,
                                     GtkGestureDrag *gesture)
{
  select_dragged (self, dx, dy, gesture, FALSE);
}

void
_decipher_document_view_drag_end (DecipherDocumentView *self, double dx, double dy,
                                  GtkGestureDrag *gesture)
{
  select_dragged (self, dx, dy, gesture, TRUE);
}

void
_decipher_document_view_draw_selection (DecipherDocumentView *self, GtkSnapshot *snapshot,
                                        guint page, const graphene_rect_t *page_rect,
                                        const graphene_rect_t *visible)
{
  DcDocument *document;
  const DcLine *lines;
  const DcGlyph *glyphs;
  const guint32 *order;
  guint lo, hi, first, n;

  if (!decipher_document_view_has_selection (self) || !selection_bounds (self, &lo, &hi))
    return;
  document = dc_session_get_document (self->session);
  lines = dc_document_get_lines (document, NULL);
  glyphs = dc_document_get_glyphs (document, NULL);
  order = dc_document_get_reading_order (document, NULL);
  dc_document_get_page_lines (document, page, &first, &n);
  for (guint l = first; l < first + n; l++)
    {
      guint from = MAX (lo, lines[l].first_glyph);
      guint to = MIN (hi + 1, lines[l].first_glyph + lines[l].n_glyphs);

      for (guint p = from; p < to; p++)
        {
          graphene_rect_t rect;

          _decipher_document_view_glyph_pixels (self, &glyphs[order[p]], page_rect, &rect);
          if (graphene_rect_intersection (&rect, visible, NULL))
            gtk_snapshot_append_color (snapshot, &selection_color, &rect);
        }
    }
}
