/* decipher-document-view-input.c: what the pointer does over the pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hit testing against the engine's glyph boxes, hover, clicks that open the popover to
 * assign a symbol, Ctrl+scroll zoom around the pointer, and tooltips naming the glyph
 * under it. Split from decipher-document-view.c, which lays the pages out.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "decipher-document-view-private.h"
#include "decipher-labels.h"

/* ---- hit testing -------------------------------------------------------------------- */

/**
 * decipher_document_view_glyph_at:
 * @x, @y: widget coordinates
 *
 * Returns: the glyph drawn there (the smallest box wins, so that a mark over a letter
 * can be picked), or -1
 */
int
decipher_document_view_glyph_at (DecipherDocumentView *self, double x, double y)
{
  const DcGlyph *glyphs;
  graphene_rect_t page_rect;
  graphene_point_t point = GRAPHENE_POINT_INIT (x, y);
  guint page, first, n;
  int best = -1;
  double best_area = G_MAXDOUBLE;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), -1);

  if (self->session == NULL || self->n_pages == 0)
    return -1;
  page = _decipher_document_view_page_at_y (self, y + gtk_adjustment_get_value (self->vadjustment));
  _decipher_document_view_page_rect (self, page, &page_rect);
  if (!graphene_rect_contains_point (&page_rect, &point))
    return -1;

  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  dc_document_get_page_glyphs (dc_session_get_document (self->session), page, &first, &n);
  for (guint g = first; g < first + n; g++)
    {
      graphene_rect_t rect;
      double area;

      _decipher_document_view_glyph_rect (self, &glyphs[g], &page_rect, &rect);
      if (!graphene_rect_contains_point (&rect, &point))
        continue;
      area = rect.size.width * rect.size.height;
      if (area < best_area)
        {
          best = (int) g;
          best_area = area;
        }
    }
  return best;
}

/* The glyph's box in widget coordinates, if a document is shown. */
gboolean
decipher_document_view_get_glyph_area (DecipherDocumentView *self, guint glyph,
                                       graphene_rect_t *area)
{
  const DcGlyph *glyphs;
  graphene_rect_t page_rect;
  guint n_glyphs;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  if (self->session == NULL)
    return FALSE;
  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), &n_glyphs);
  if (glyph >= n_glyphs)
    return FALSE;
  _decipher_document_view_page_rect (self, glyphs[glyph].page, &page_rect);
  _decipher_document_view_glyph_rect (self, &glyphs[glyph], &page_rect, area);
  return TRUE;
}

/* ---- popover ------------------------------------------------------------------------ */

void
_decipher_document_view_point_popover (DecipherDocumentView *self)
{
  graphene_rect_t area;
  GdkRectangle rect;

  if (self->popover_glyph < 0
      || !decipher_document_view_get_glyph_area (self, self->popover_glyph, &area))
    return;
  rect.x = (int) floor (area.origin.x);
  rect.y = (int) floor (area.origin.y);
  rect.width = MAX (1, (int) ceil (area.size.width));
  rect.height = MAX (1, (int) ceil (area.size.height));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &rect);
}

void
_decipher_document_view_popover_closed (DecipherDocumentView *self)
{
  self->popover_glyph = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Scrolls as little as needed for @glyph, with a margin around it, to be on screen. */
void
decipher_document_view_show_glyph (DecipherDocumentView *self, guint glyph)
{
  graphene_rect_t area;
  double margin = 48, height = gtk_widget_get_height (GTK_WIDGET (self));
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  if (!decipher_document_view_get_glyph_area (self, glyph, &area))
    return;
  if (area.origin.y < margin || area.origin.y + area.size.height > height - margin)
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment)
                                                     + area.origin.y - height / 3);
  if (area.origin.x < 0 || area.origin.x + area.size.width > width)
    gtk_adjustment_set_value (self->hadjustment, gtk_adjustment_get_value (self->hadjustment)
                                                     + area.origin.x - width / 2);
}

/**
 * decipher_document_view_activate_glyph:
 *
 * What a click on @glyph does: selects its symbol, emits
 * #DecipherDocumentView::glyph-activated and opens the popover to assign it.
 */
void
decipher_document_view_activate_glyph (DecipherDocumentView *self, guint glyph)
{
  const DcGlyph *glyphs;
  guint n_glyphs, symbol;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));
  g_return_if_fail (self->session != NULL);

  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), &n_glyphs);
  g_return_if_fail (glyph < n_glyphs);
  symbol = glyphs[glyph].symbol;

  decipher_document_view_show_glyph (self, glyph);
  _decipher_document_view_set_cursor_glyph (self, glyph);
  decipher_view_state_set_selected_symbol (self->state, symbol);
  _decipher_document_view_emit_glyph_activated (self, symbol);

  self->popover_glyph = (int) glyph;
  decipher_glyph_popover_set_glyph (self->popover, glyph);
  _decipher_document_view_point_popover (self);
  gtk_popover_popup (GTK_POPOVER (self->popover));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Opens the popover on the first occurrence of @symbol, from the palette. */
void
decipher_document_view_activate_symbol (DecipherDocumentView *self, guint symbol)
{
  const guint32 *occurrences;
  guint n;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));
  g_return_if_fail (self->session != NULL);

  occurrences = dc_document_get_symbol_glyphs (dc_session_get_document (self->session), symbol, &n);
  if (n > 0)
    decipher_document_view_activate_glyph (self, occurrences[0]);
}

DecipherGlyphPopover *
decipher_document_view_get_popover (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), NULL);

  return self->popover;
}

/* ---- input -------------------------------------------------------------------------- */

static void
set_hover (DecipherDocumentView *self, int glyph)
{
  if (glyph == self->hover_glyph)
    return;
  self->hover_glyph = glyph;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), glyph >= 0 ? "pointer" : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_decipher_document_view_motion (DecipherDocumentView *self, double x, double y,
                                GtkEventControllerMotion *motion)
{
  self->pointer_inside = TRUE;
  self->anchor_x = x;
  self->anchor_y = y;
  set_hover (self, decipher_document_view_glyph_at (self, x, y));
}

void
_decipher_document_view_leave (DecipherDocumentView *self, GtkEventControllerMotion *motion)
{
  self->pointer_inside = FALSE;
  set_hover (self, -1);
}

void
_decipher_document_view_pressed (DecipherDocumentView *self, int n_press, double x, double y,
                                 GtkGestureClick *gesture)
{
  int glyph = decipher_document_view_glyph_at (self, x, y);

  self->cursor_shown = FALSE;
  self->dragged = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  /* The input pane cues the line pressed on (the gesture is the primary button's). */
  if (glyph >= 0)
    decipher_view_state_glyph_pressed (self->state, (guint) glyph);
}

void
_decipher_document_view_released (DecipherDocumentView *self, int n_press, double x, double y,
                                  GtkGestureClick *gesture)
{
  int glyph = decipher_document_view_glyph_at (self, x, y);

  /* A drag selects; only a click opens the popover, which would take the focus from the
   * page and Ctrl+C with it (GtkGestureClick still reports the release of a drag). */
  if (n_press != 1 || self->session == NULL || self->dragged)
    return;
  decipher_document_view_clear_selection (self);
  if (glyph >= 0)
    decipher_document_view_activate_glyph (self, glyph);
  else
    decipher_view_state_set_selected_symbol (self->state, DC_SYMBOL_NONE);
}

gboolean
_decipher_document_view_scroll (DecipherDocumentView *self, double dx, double dy,
                                GtkEventControllerScroll *scroll)
{
  GdkModifierType state;
  double x = gtk_widget_get_width (GTK_WIDGET (self)) / 2;
  double y = gtk_widget_get_height (GTK_WIDGET (self)) / 2;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0)
    return FALSE; /* the scrolled window scrolls */
  if (self->pointer_inside)
    {
      x = self->anchor_x;
      y = self->anchor_y;
    }
  _decipher_document_view_zoom_around (self, self->zoom * pow (DECIPHER_VIEW_ZOOM_STEP, -dy), x, y);
  return TRUE;
}

gboolean
_decipher_document_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                                       GtkTooltip *tooltip)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (widget);
  int glyph = keyboard_mode ? -1 : decipher_document_view_glyph_at (self, x, y);
  const DcGlyph *glyphs;
  DcKeyStatus status;
  graphene_rect_t area;
  GdkRectangle rect;
  g_autofree char *title = NULL;
  g_autofree char *value = NULL;
  g_autofree char *text = NULL;
  guint symbol, n;

  if (glyph < 0 || self->popover_glyph >= 0)
    return FALSE;

  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  symbol = glyphs[glyph].symbol;
  status = dc_key_get_status (dc_session_get_key (self->session), symbol);
  n = dc_document_get_symbol (dc_session_get_document (self->session), symbol)->n_glyphs;
  title = decipher_labels_dup_symbol_title (dc_session_get_document (self->session), symbol);
  value = decipher_labels_dup_value (dc_session_get_key (self->session), symbol);
  /* Translators: a glyph's tooltip in the document view. */
  text = g_strdup_printf (ngettext ("%s\nValue: %s · %s · %u occurrence",
                                    "%s\nValue: %s · %s · %u occurrences", n),
                          title, value, decipher_labels_status (status), n);
  gtk_tooltip_set_text (tooltip, text);

  decipher_document_view_get_glyph_area (self, glyph, &area);
  rect.x = (int) floor (area.origin.x);
  rect.y = (int) floor (area.origin.y);
  rect.width = MAX (1, (int) ceil (area.size.width));
  rect.height = MAX (1, (int) ceil (area.size.height));
  gtk_tooltip_set_tip_area (tooltip, &rect);
  return TRUE;
}
