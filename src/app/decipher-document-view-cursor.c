/* decipher-document-view-cursor.c: the glyph cursor, to work the pages by keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With the focus on the pages, the arrow keys move a cursor from glyph to glyph:
 * left and right along the line, up and down to the nearest glyph of the line above or
 * below; Enter opens the popover to assign the glyph under it, as a click does. A click
 * puts the cursor on the glyph clicked, unseen until an arrow key moves it on. The
 * cursor walks the engine's reading order, where each line is a range, so it goes
 * through the text as it is read and never lands on a space, which has nothing to see.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-document-view-private.h"
#include "decipher-labels.h"

/* Adwaita dark blue, to stand out of the light blue of the glyphs still unknown. */
static const GdkRGBA cursor_color = { 0.102, 0.373, 0.706, 1.0 };

/* The line holding reading position @pos: lines are consecutive ranges of the order. */
static gboolean
line_of_position (DcDocument *document, guint pos, guint *line)
{
  guint n_lines, lo = 0, hi;
  const DcLine *lines = dc_document_get_lines (document, &n_lines);

  hi = n_lines;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (lines[mid].first_glyph + lines[mid].n_glyphs <= pos)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo >= n_lines || lines[lo].first_glyph > pos)
    return FALSE;
  *line = lo;
  return TRUE;
}

static gboolean
position_is_blank (DcDocument *document, guint pos)
{
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);

  return dc_document_symbol_is_space (document, glyphs[order[pos]].symbol);
}

static double
glyph_center (const DcGlyph *glyph)
{
  DcGlyphBox box = dc_glyph_get_box (glyph);

  return glyph->rotation % 2 == 0 ? (box.x0 + box.x1) / 2 : (box.y0 + box.y1) / 2;
}

/* In a right-to-left line the order runs leftwards: Right goes back in it. */
static gboolean
line_runs_backwards (DcDocument *document, const DcLine *line)
{
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);

  if (line->n_glyphs < 2)
    return FALSE;
  return glyph_center (&glyphs[order[line->first_glyph + line->n_glyphs - 1]])
         < glyph_center (&glyphs[order[line->first_glyph]]);
}

/* The position in @line nearest @center across the line, not a space; or none. */
static gboolean
nearest_in_line (DcDocument *document, const DcLine *line, double center, guint *pos)
{
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  double best = G_MAXDOUBLE;
  gboolean found = FALSE;

  for (guint p = line->first_glyph; p < line->first_glyph + line->n_glyphs; p++)
    {
      double d = ABS (glyph_center (&glyphs[order[p]]) - center);

      if (position_is_blank (document, p) || d >= best)
        continue;
      best = d;
      *pos = p;
      found = TRUE;
    }
  return found;
}

/* Where the cursor starts: the first glyph of the first line on screen. */
static gboolean
first_position_on_screen (DecipherDocumentView *self, guint *pos)
{
  DcDocument *document = dc_session_get_document (self->session);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint first_page, last_page;

  if (!_decipher_document_view_visible_pages (self, &first_page, &last_page))
    return FALSE;
  for (guint page = first_page; page <= last_page; page++)
    {
      graphene_rect_t page_rect;
      guint first, n;

      _decipher_document_view_page_rect (self, page, &page_rect);
      dc_document_get_page_lines (document, page, &first, &n);
      for (guint l = first; l < first + n; l++)
        {
          if (page_rect.origin.y + lines[l].y0 * self->zoom < 0)
            continue;
          if (nearest_in_line (document, &lines[l],
                               lines[l].rotation % 2 == 0 ? lines[l].x0 : lines[l].y0, pos))
            return TRUE;
        }
    }
  return FALSE;
}

static void
set_cursor_position (DecipherDocumentView *self, guint pos)
{
  DcDocument *document = dc_session_get_document (self->session);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autofree char *title = NULL;

  self->cursor = (gint64) pos;
  self->cursor_shown = TRUE;
  _decipher_document_view_selection_changed (self);
  decipher_document_view_show_glyph (self, order[pos]);
  _decipher_document_view_describe_cursor (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * _decipher_document_view_describe_cursor:
 *
 * Tells a screen reader which glyph the cursor is on, what it stands for and in which
 * font; with no cursor (or no document: never the last document's glyph), how the
 * page is worked. Called as the cursor moves, as values change and as documents come.
 */
void
_decipher_document_view_describe_cursor (DecipherDocumentView *self)
{
  g_autofree char *description = NULL;

  if (self->session != NULL && self->cursor >= 0)
    {
      DcDocument *document = dc_session_get_document (self->session);
      const guint32 *order = dc_document_get_reading_order (document, NULL);
      guint symbol = dc_document_get_glyphs (document, NULL)[order[self->cursor]].symbol;
      g_autofree char *title = decipher_labels_dup_symbol_title (document, symbol);
      DcKey *key = dc_session_get_key (self->session);
      g_autofree char *value = decipher_labels_dup_value (key, symbol);
      g_autofree char *split = decipher_labels_dup_split (key, order[self->cursor]);

      /* An occurrence split off its symbol does not read the symbol's value: saying that
       * value alone would tell a screen reader's user the wrong text. */
      if (split != NULL)
        /* Translators: what a screen reader says of a glyph split off its symbol: the
         * sentence saying what it and its symbol read, then its code and font. */
        description = g_strdup_printf (_("%s · %s"), split, title);
      else
        /* Translators: what a screen reader says of the glyph under the cursor: its value
         * ("?" while unknown, "space", "none"), then its code and font. */
        description = g_strdup_printf (_("Value: %s · %s"), value, title);
    }
  else
    description = g_strdup (_("Glyphs still to decode are highlighted; click one, or move to "
                              "it with the arrow keys and press Enter, to say what it stands "
                              "for."));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description, -1);
}

/**
 * _decipher_document_view_move_cursor:
 * @dx: -1 or 1 to move along the line, else 0
 * @dy: -1 or 1 to move to the line above or below, else 0
 * @extend: select from where the cursor was (Shift)
 *
 * Returns: whether the cursor is on a glyph
 */
gboolean
_decipher_document_view_move_cursor (DecipherDocumentView *self, int dx, int dy, gboolean extend)
{
  DcDocument *document;
  const DcLine *lines;
  const DcGlyph *glyphs;
  const guint32 *order;
  guint n_lines, n_order, pos, line;

  if (self->session == NULL)
    return FALSE;
  document = dc_session_get_document (self->session);
  lines = dc_document_get_lines (document, &n_lines);
  order = dc_document_get_reading_order (document, &n_order);
  glyphs = dc_document_get_glyphs (document, NULL);

  /* The first key shows the cursor where the user is looking, without moving it. */
  if (self->cursor < 0 || (guint64) self->cursor >= n_order)
    {
      if (!first_position_on_screen (self, &pos))
        return FALSE;
      set_cursor_position (self, pos);
      return TRUE;
    }
  pos = (guint) self->cursor;
  if (!line_of_position (document, pos, &line))
    return FALSE;
  _decipher_document_view_cursor_will_move (self, extend);

  if (dx != 0)
    {
      int step = line_runs_backwards (document, &lines[line]) ? -dx : dx;
      gint64 p = pos;

      /* Along the reading order, over spaces, into the next line when this one ends. */
      do
        p += step;
      while (p >= 0 && p < n_order && position_is_blank (document, (guint) p));
      if (p < 0 || p >= n_order)
        return TRUE;
      pos = (guint) p;
    }
  else if (dy != 0)
    {
      double center = glyph_center (&glyphs[order[pos]]);
      gint64 l = line;

      /* The nearest glyph of the next line that has any but spaces. */
      do
        l += dy;
      while (l >= 0 && l < n_lines && !nearest_in_line (document, &lines[l], center, &pos));
      if (l < 0 || l >= n_lines)
        return TRUE;
    }
  set_cursor_position (self, pos);
  return TRUE;
}

/* Opens the popover on the glyph under the cursor, as a click on it does. */
gboolean
_decipher_document_view_activate_cursor (DecipherDocumentView *self)
{
  const guint32 *order;
  guint n_order;

  if (self->session == NULL || self->cursor < 0)
    return FALSE;
  order = dc_document_get_reading_order (dc_session_get_document (self->session), &n_order);
  if ((guint64) self->cursor >= n_order)
    return FALSE;
  decipher_document_view_activate_glyph (self, order[self->cursor]);
  return TRUE;
}

/* Puts the cursor on @glyph, say the one clicked, so the keys go on from there. */
void
_decipher_document_view_set_cursor_glyph (DecipherDocumentView *self, guint glyph)
{
  guint pos;

  if (dc_document_locate_glyph (dc_session_get_document (self->session), glyph, &pos, NULL))
    {
      self->cursor = (gint64) pos;
      _decipher_document_view_selection_changed (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* The glyph under the cursor, or -1 when there is none. */
int
decipher_document_view_get_cursor_glyph (DecipherDocumentView *self)
{
  const guint32 *order;
  guint n_order;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), -1);

  if (self->session == NULL || self->cursor < 0)
    return -1;
  order = dc_document_get_reading_order (dc_session_get_document (self->session), &n_order);
  return (guint64) self->cursor < n_order ? (int) order[self->cursor] : -1;
}

/* A ring around the glyph under the cursor, while the keyboard works the pages. */
void
_decipher_document_view_draw_cursor (DecipherDocumentView *self, GtkSnapshot *snapshot, guint page,
                                     const graphene_rect_t *page_rect)
{
  int glyph = decipher_document_view_get_cursor_glyph (self);
  const DcGlyph *glyphs;
  graphene_rect_t rect, grown;
  GskRoundedRect outline;
  const float widths[4] = { 2, 2, 2, 2 };
  const GdkRGBA colors[4] = { cursor_color, cursor_color, cursor_color, cursor_color };

  /* Not the window's focus-visible: GTK clears it on the key's release when the focus
   * stayed in the same widget, as it does while the cursor moves inside this one. */
  if (glyph < 0 || !self->cursor_shown || !gtk_widget_has_focus (GTK_WIDGET (self)))
    return;
  glyphs = dc_document_get_glyphs (dc_session_get_document (self->session), NULL);
  if (glyphs[glyph].page != page)
    return;
  _decipher_document_view_glyph_rect (self, &glyphs[glyph], page_rect, &rect);
  /* Outside the glyph's box and the selection's outline, which is 2 px wide. */
  graphene_rect_inset_r (&rect, -4, -4, &grown);
  gsk_rounded_rect_init_from_rect (&outline, &grown, 3);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
  self->cursor_drawn = TRUE;
}

/**
 * decipher_document_view_get_lines_in_view:
 * @first_line: (out): the first line on screen
 * @n_lines: (out): how many lines from it are, up to the last on screen
 *
 * The lines the user can be reading: those whose first glyph is on screen. A typed word
 * is looked for there first (dc_session_type_in_view()).
 *
 * Returns: %FALSE when no line is on screen
 */
gboolean
decipher_document_view_get_lines_in_view (DecipherDocumentView *self, guint *first_line,
                                          guint *n_lines)
{
  DcDocument *document;
  const DcLine *lines;
  const guint32 *order;
  double top, height = gtk_widget_get_height (GTK_WIDGET (self));
  guint first_page, last_page, lo = G_MAXUINT, hi = 0;

  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  if (self->session == NULL || self->n_pages == 0 || height <= 0)
    return FALSE;
  document = dc_session_get_document (self->session);
  lines = dc_document_get_lines (document, NULL);
  order = dc_document_get_reading_order (document, NULL);
  top = gtk_adjustment_get_value (self->vadjustment);
  first_page = _decipher_document_view_page_at_y (self, top);
  last_page = _decipher_document_view_page_at_y (self, top + height);
  for (guint page = first_page; page <= last_page && page < self->n_pages; page++)
    {
      guint first, n;

      dc_document_get_page_lines (document, page, &first, &n);
      for (guint l = first; l < first + n; l++)
        {
          graphene_rect_t area;
          double middle;

          if (lines[l].n_glyphs == 0
              || !decipher_document_view_get_glyph_area (self, order[lines[l].first_glyph], &area))
            continue;
          middle = area.origin.y + area.size.height / 2;
          if (middle < 0 || middle > height)
            continue;
          lo = MIN (lo, l);
          hi = MAX (hi, l);
        }
    }
  if (lo > hi)
    return FALSE;
  *first_line = lo;
  *n_lines = hi - lo + 1;
  return TRUE;
}
