/* decipher-document-view.c: the pages, with the glyphs still to decode highlighted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkScrollable that lays the pages out one under the other and draws only the ones
 * on screen (see decipher-document-view-draw.c), so a 500-page book costs what two pages
 * cost. Page images come from a DecipherPageRenderer; everything drawn over them comes
 * from the engine's glyph boxes, in page points times the zoom.
 *
 * This file is the widget: its geometry, zoom, pages and scrolling. What it shows is
 * handed to it in decipher-document-view-session.c; it is drawn in
 * decipher-document-view-draw.c, and the pointer and keys are handled in
 * decipher-document-view-input.c, -cursor.c and -selection.c.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include <adwaita.h>
#include <math.h>

#include "decipher-document-view-private.h"

G_DEFINE_FINAL_TYPE_WITH_CODE (DecipherDocumentView, decipher_document_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

enum
{
  PROP_0,
  PROP_ZOOM,
  PROP_SHOW_TEXT,
  PROP_PAGE,
  PROP_N_PAGES,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum
{
  GLYPH_ACTIVATED,
  RUN_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---- geometry ----------------------------------------------------------------------- */

static double
content_width (DecipherDocumentView *self)
{
  return 2 * DECIPHER_VIEW_MARGIN + self->max_width * self->zoom;
}

static double
content_height (DecipherDocumentView *self)
{
  if (self->n_pages == 0)
    return 0;
  return 2 * DECIPHER_VIEW_MARGIN + (self->n_pages - 1) * DECIPHER_VIEW_GAP
         + self->cum_height[self->n_pages] * self->zoom;
}

/* Top of @page in content coordinates (pixels from the top of the first margin). */
static double
page_top (DecipherDocumentView *self, guint page)
{
  return DECIPHER_VIEW_MARGIN + page * DECIPHER_VIEW_GAP + self->cum_height[page] * self->zoom;
}

/* The page under content coordinate @y, or the nearest one. */
guint
_decipher_document_view_page_at_y (DecipherDocumentView *self, double y)
{
  guint lo = 0, hi = self->n_pages;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (page_top (self, mid) - DECIPHER_VIEW_GAP / 2 <= y)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

void
_decipher_document_view_page_rect (DecipherDocumentView *self, guint page, graphene_rect_t *rect)
{
  double width, height, x, allocated = gtk_widget_get_width (GTK_WIDGET (self));
  DcDocument *document = dc_session_get_document (self->session);

  dc_document_get_page_size (document, page, &width, &height);
  x = (MAX (content_width (self), allocated) - width * self->zoom) / 2;
  graphene_rect_init (rect, x - gtk_adjustment_get_value (self->hadjustment),
                      page_top (self, page) - gtk_adjustment_get_value (self->vadjustment),
                      width * self->zoom, height * self->zoom);
}

void
_decipher_document_view_glyph_rect (DecipherDocumentView *self, const DcGlyph *glyph,
                                    const graphene_rect_t *page_rect, graphene_rect_t *rect)
{
  /* Marks drawn over a neighbour may have no width; they still need something to click. */
  DcGlyphBox box = dc_glyph_get_box (glyph);
  double w = MAX (box.x1 - box.x0, 1.0), h = MAX (box.y1 - box.y0, 1.0);

  graphene_rect_init (rect, page_rect->origin.x + box.x0 * self->zoom,
                      page_rect->origin.y + box.y0 * self->zoom, w * self->zoom, h * self->zoom);
}

/* The glyph's box with its edges on whole pixels, for drawing. A box with fractional
 * edges is blended with antialiasing, span by span; on whole pixels the cairo renderer
 * fills it as a plain run of pixels, five times faster, and a page has thousands. Each
 * edge goes to its nearest pixel, so neighbours that touch still touch without
 * overlapping: translucent highlights would show every overlap as a darker seam. */
void
_decipher_document_view_glyph_pixels (DecipherDocumentView *self, const DcGlyph *glyph,
                                      const graphene_rect_t *page_rect, graphene_rect_t *rect)
{
  float x0, y0, x1, y1;

  _decipher_document_view_glyph_rect (self, glyph, page_rect, rect);
  x0 = roundf (rect->origin.x);
  y0 = roundf (rect->origin.y);
  x1 = MAX (roundf (rect->origin.x + rect->size.width), x0 + 1);
  y1 = MAX (roundf (rect->origin.y + rect->size.height), y0 + 1);
  graphene_rect_init (rect, x0, y0, x1 - x0, y1 - y0);
}

gboolean
_decipher_document_view_visible_pages (DecipherDocumentView *self, guint *first, guint *last)
{
  double top, bottom;

  if (self->session == NULL || self->n_pages == 0)
    return FALSE;
  top = gtk_adjustment_get_value (self->vadjustment);
  bottom = top + gtk_widget_get_height (GTK_WIDGET (self));
  *first = _decipher_document_view_page_at_y (self, top);
  *last = _decipher_document_view_page_at_y (self, bottom);
  return TRUE;
}

static void
update_current_page (DecipherDocumentView *self)
{
  guint page;

  if (self->n_pages == 0)
    return;
  /* The page that fills the upper third of the view is the one being read. */
  page = _decipher_document_view_page_at_y (self,
                                            gtk_adjustment_get_value (self->vadjustment)
                                                + gtk_widget_get_height (GTK_WIDGET (self)) / 3.0);
  if (page != self->current_page)
    {
      self->current_page = page;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
    }
}

void
_decipher_document_view_emit_glyph_activated (DecipherDocumentView *self, guint symbol)
{
  g_signal_emit (self, signals[GLYPH_ACTIVATED], 0, symbol);
}

void
_decipher_document_view_emit_run_selected (DecipherDocumentView *self, guint first_glyph,
                                           guint last_glyph)
{
  g_signal_emit (self, signals[RUN_SELECTED], 0, first_glyph, last_glyph);
}

/* A document shown or taken away changes the page count and the page. */
void
_decipher_document_view_notify_pages (DecipherDocumentView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PAGES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

/* Whether text is selected is part of the shared view state: the input pane's Ctrl+C
 * asks it. Called wherever the selection's ends move. */
void
_decipher_document_view_selection_changed (DecipherDocumentView *self)
{
  decipher_view_state_set_has_selection (self->state, decipher_document_view_has_selection (self));
}

/* ---- zoom --------------------------------------------------------------------------- */

void
_decipher_document_view_update_render_scale (DecipherDocumentView *self)
{
  if (self->renderer != NULL)
    decipher_page_renderer_set_scale (self->renderer,
                                      self->zoom * gtk_widget_get_scale_factor (GTK_WIDGET (self)));
}

/* Zooms keeping the point under widget coordinates (@x, @y) where it is. */
void
_decipher_document_view_zoom_around (DecipherDocumentView *self, double zoom, double x, double y)
{
  double old_zoom = self->zoom, content_y, content_x, old_width, point_y;
  guint page;

  zoom = CLAMP (zoom, DECIPHER_ZOOM_MIN, DECIPHER_ZOOM_MAX);
  if (G_APPROX_VALUE (zoom, old_zoom, 1e-9))
    return;

  if (self->n_pages > 0)
    {
      content_y = gtk_adjustment_get_value (self->vadjustment) + y;
      page = _decipher_document_view_page_at_y (self, content_y);
      point_y = (content_y - page_top (self, page)) / old_zoom;
      content_x = gtk_adjustment_get_value (self->hadjustment) + x;
      old_width = MAX (content_width (self), gtk_widget_get_width (GTK_WIDGET (self)));

      self->zoom = zoom;
      self->anchor_value_y = page_top (self, page) + point_y * zoom - y;
      self->anchor_value_x = (content_x - old_width / 2) / old_zoom * zoom
                             + MAX (content_width (self), gtk_widget_get_width (GTK_WIDGET (self)))
                                   / 2
                             - x;
      self->has_anchor = TRUE;
    }
  self->zoom = zoom;

  g_clear_pointer (&self->line_layouts, g_ptr_array_unref);
  _decipher_document_view_update_render_scale (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

double
decipher_document_view_get_zoom (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 1.0);

  return self->zoom;
}

void
decipher_document_view_set_zoom (DecipherDocumentView *self, double zoom)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  _decipher_document_view_zoom_around (self, zoom, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                                       gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

void
decipher_document_view_zoom_in (DecipherDocumentView *self)
{
  decipher_document_view_set_zoom (self, self->zoom * DECIPHER_VIEW_ZOOM_STEP);
}

void
decipher_document_view_zoom_out (DecipherDocumentView *self)
{
  decipher_document_view_set_zoom (self, self->zoom / DECIPHER_VIEW_ZOOM_STEP);
}

gboolean
decipher_document_view_get_show_text (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), FALSE);

  return self->show_text;
}

/* Draws each line's recovered text over it, to read the page as text. */
void
decipher_document_view_set_show_text (DecipherDocumentView *self, gboolean show_text)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  show_text = !!show_text;
  if (self->show_text == show_text)
    return;
  self->show_text = show_text;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_TEXT]);
}

/* ---- pages -------------------------------------------------------------------------- */

guint
decipher_document_view_get_page (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), 0);

  return self->current_page;
}

/* Scrolls @page's top to the top of the view. */
void
decipher_document_view_set_page (DecipherDocumentView *self, guint page)
{
  double top;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  if (self->n_pages == 0)
    return;
  page = MIN (page, self->n_pages - 1);
  top = page_top (self, page) - DECIPHER_VIEW_MARGIN / 2;
  /* Right after a zoom (Fit Page), or before the first allocation (a document reopened
   * at its page), the adjustment does not have this zoom's extent yet, and the next
   * allocation would put back the point the zoom was around or clamp the value: the
   * page's top becomes where that allocation scrolls to. */
  if (self->has_anchor
      || gtk_adjustment_get_upper (self->vadjustment)
                 - gtk_adjustment_get_page_size (self->vadjustment)
             < top)
    {
      if (!self->has_anchor)
        self->anchor_value_x = gtk_adjustment_get_value (self->hadjustment);
      self->has_anchor = TRUE;
      self->anchor_value_y = top;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  else
    gtk_adjustment_set_value (self->vadjustment, top);
}

/* ---- scrolling ---------------------------------------------------------------------- */

static void
adjustment_changed_cb (DecipherDocumentView *self)
{
  update_current_page (self);
  _decipher_document_view_point_popover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (DecipherDocumentView *self, GtkAdjustment **slot, GtkAdjustment *adjustment)
{
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_object_unref (*slot);
    }
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (adjustment_changed_cb), self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
configure_adjustment (GtkAdjustment *adjustment, double size, double content, double value)
{
  double upper = MAX (size, content);

  gtk_adjustment_configure (adjustment, CLAMP (value, 0, upper - size), 0, upper, size * 0.1,
                            size * 0.9, size);
}

static void
decipher_document_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                                int *minimum, int *natural, int *minimum_baseline,
                                int *natural_baseline)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (widget);

  *minimum = 0;
  if (self->session == NULL)
    *natural = 0;
  else if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *natural = (int) ceil (content_width (self));
  else
    *natural = (int) ceil (content_height (self));
}

static void
decipher_document_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (widget);
  double x = gtk_adjustment_get_value (self->hadjustment);
  double y = gtk_adjustment_get_value (self->vadjustment);

  if (self->has_anchor)
    {
      x = self->anchor_value_x;
      y = self->anchor_value_y;
      self->has_anchor = FALSE;
    }
  g_signal_handlers_block_by_func (self->hadjustment, adjustment_changed_cb, self);
  g_signal_handlers_block_by_func (self->vadjustment, adjustment_changed_cb, self);
  configure_adjustment (self->hadjustment, width, self->session ? content_width (self) : 0, x);
  configure_adjustment (self->vadjustment, height, self->session ? content_height (self) : 0, y);
  g_signal_handlers_unblock_by_func (self->hadjustment, adjustment_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->vadjustment, adjustment_changed_cb, self);

  update_current_page (self);
  _decipher_document_view_point_popover (self);
  gtk_popover_present (GTK_POPOVER (self->popover));
}

/* ---- object ------------------------------------------------------------------------- */

static void
decipher_document_view_dispose (GObject *object)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (object);

  _decipher_document_view_clear_session (self);
  _decipher_document_view_unbind_state (self);
  g_clear_object (&self->key_signals);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_DOCUMENT_VIEW);
  self->popover = NULL;
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (decipher_document_view_parent_class)->dispose (object);
}

static void
decipher_document_view_get_property (GObject *object, guint prop_id, GValue *value,
                                     GParamSpec *pspec)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_SHOW_TEXT:
      g_value_set_boolean (value, self->show_text);
      break;
    case PROP_PAGE:
      g_value_set_uint (value, self->current_page);
      break;
    case PROP_N_PAGES:
      g_value_set_uint (value, self->n_pages);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_document_view_set_property (GObject *object, guint prop_id, const GValue *value,
                                     GParamSpec *pspec)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      decipher_document_view_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_SHOW_TEXT:
      decipher_document_view_set_show_text (self, g_value_get_boolean (value));
      break;
    case PROP_PAGE:
      decipher_document_view_set_page (self, g_value_get_uint (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
move_cursor_binding (GtkWidget *widget, GVariant *args, gpointer data)
{
  int dx, dy;
  gboolean extend;

  g_variant_get (args, "(iib)", &dx, &dy, &extend);
  return _decipher_document_view_move_cursor (DECIPHER_DOCUMENT_VIEW (widget), dx, dy, extend);
}

static gboolean
activate_cursor_binding (GtkWidget *widget, GVariant *args, gpointer data)
{
  return _decipher_document_view_activate_cursor (DECIPHER_DOCUMENT_VIEW (widget));
}

static gboolean
unselect_binding (GtkWidget *widget, GVariant *args, gpointer data)
{
  DecipherDocumentView *self = DECIPHER_DOCUMENT_VIEW (widget);

  if (decipher_document_view_has_selection (self))
    {
      decipher_document_view_clear_selection (self);
      return TRUE;
    }
  if (self->session == NULL
      || decipher_view_state_get_selected_symbol (self->state) == DC_SYMBOL_NONE)
    return FALSE;
  decipher_view_state_set_selected_symbol (self->state, DC_SYMBOL_NONE);
  return TRUE;
}

static void
decipher_document_view_class_init (DecipherDocumentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_document_view_dispose;
  object_class->get_property = decipher_document_view_get_property;
  object_class->set_property = decipher_document_view_set_property;

  widget_class->measure = decipher_document_view_measure;
  widget_class->size_allocate = decipher_document_view_size_allocate;
  widget_class->snapshot = _decipher_document_view_snapshot;
  widget_class->query_tooltip = _decipher_document_view_query_tooltip;

  properties[PROP_ZOOM] = g_param_spec_double ("zoom", NULL, NULL, DECIPHER_ZOOM_MIN,
                                               DECIPHER_ZOOM_MAX, 1.0,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                   | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_TEXT] = g_param_spec_boolean ("show-text", NULL, NULL, FALSE,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                         | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAGE] = g_param_spec_uint ("page", NULL, NULL, 0, G_MAXUINT, 0,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                 | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_PAGES] = g_param_spec_uint ("n-pages", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * DecipherDocumentView::glyph-activated:
   * @symbol: the symbol of the glyph clicked
   */
  signals[GLYPH_ACTIVATED] = g_signal_new ("glyph-activated", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                           G_TYPE_UINT);
  /**
   * DecipherDocumentView::run-selected:
   * @first_glyph: where the drag started
   * @last_glyph: where it ended
   *
   * A drag across the page selected the run between two glyphs (a click that slipped
   * on one glyph stays a click).
   */
  signals[RUN_SELECTED] = g_signal_new ("run-selected", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                        G_TYPE_UINT, G_TYPE_UINT);

  g_type_ensure (DECIPHER_TYPE_GLYPH_POPOVER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-document-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherDocumentView, popover);
  gtk_widget_class_bind_template_callback_full (widget_class, "motion_cb",
                                                G_CALLBACK (_decipher_document_view_motion));
  gtk_widget_class_bind_template_callback_full (widget_class, "leave_cb",
                                                G_CALLBACK (_decipher_document_view_leave));
  gtk_widget_class_bind_template_callback_full (widget_class, "pressed_cb",
                                                G_CALLBACK (_decipher_document_view_pressed));
  gtk_widget_class_bind_template_callback_full (widget_class, "released_cb",
                                                G_CALLBACK (_decipher_document_view_released));
  gtk_widget_class_bind_template_callback_full (widget_class, "drag_update_cb",
                                                G_CALLBACK (_decipher_document_view_drag_update));
  gtk_widget_class_bind_template_callback_full (widget_class, "drag_end_cb",
                                                G_CALLBACK (_decipher_document_view_drag_end));
  gtk_widget_class_bind_template_callback_full (widget_class, "scroll_cb",
                                                G_CALLBACK (_decipher_document_view_scroll));

  /* The arrows move the glyph cursor, and the view follows it; Page Up and Down, Home
   * and End still scroll, through the scrolled window. */
  {
    /* Shift with an arrow selects from the cursor, as in a text view. */
    const struct
    {
      guint keyval;
      int dx, dy;
    } arrows[] = {
      { GDK_KEY_Left, -1, 0 },  { GDK_KEY_Right, 1, 0 },    { GDK_KEY_Up, 0, -1 },
      { GDK_KEY_Down, 0, 1 },   { GDK_KEY_KP_Left, -1, 0 }, { GDK_KEY_KP_Right, 1, 0 },
      { GDK_KEY_KP_Up, 0, -1 }, { GDK_KEY_KP_Down, 0, 1 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
      {
        gtk_widget_class_add_binding (widget_class, arrows[i].keyval, 0, move_cursor_binding,
                                      "(iib)", arrows[i].dx, arrows[i].dy, FALSE);
        gtk_widget_class_add_binding (widget_class, arrows[i].keyval, GDK_SHIFT_MASK,
                                      move_cursor_binding, "(iib)", arrows[i].dx, arrows[i].dy,
                                      TRUE);
      }
  }
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Return, 0, activate_cursor_binding, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Enter, 0, activate_cursor_binding, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_space, 0, activate_cursor_binding, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, unselect_binding, NULL);

  gtk_widget_class_set_css_name (widget_class, "documentview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
decipher_document_view_init (DecipherDocumentView *self)
{
  self->zoom = 1.0;
  self->cursor = -1;
  self->selection_anchor = -1;
  self->hover_glyph = -1;
  self->popover_glyph = -1;
  /* The adjustments span the pages' natural size (the minimum is 0, so that the window can
   * shrink): GtkScrolledWindow must guess its scrollbars from the natural size too. From
   * the minimum it guessed none, and the adjustments set in size_allocate turned them on,
   * so it queued a resize inside every allocation of the view. GTK 4.8 drops such a resize
   * when a container above is allocated in the same frame (a recent files' list rebuilt on
   * the hidden start page, as the handle is dragged): the page's box stayed marked for a
   * layout it never got ("Trying to snapshot GtkBox without a current allocation"). */
  self->hscroll_policy = GTK_SCROLL_NATURAL;
  self->vscroll_policy = GTK_SCROLL_NATURAL;
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);
  self->key_signals = g_signal_group_new (DC_TYPE_KEY);
  g_signal_group_connect_swapped (self->key_signals, "changed",
                                  G_CALLBACK (_decipher_document_view_key_changed_cb), self);

  gtk_widget_init_template (GTK_WIDGET (self));
  {
    g_autoptr (DecipherViewState) state = decipher_view_state_new ();

    decipher_document_view_set_view_state (self, state);
  }
  _decipher_document_view_describe_cursor (self);
  g_signal_connect_swapped (self->popover, "closed",
                            G_CALLBACK (_decipher_document_view_popover_closed), self);
  g_signal_connect_swapped (self, "notify::scale-factor",
                            G_CALLBACK (_decipher_document_view_update_render_scale), self);
  /* The glyph cursor shows only while the keyboard is on the pages. */
  g_signal_connect (self, "notify::has-focus", G_CALLBACK (gtk_widget_queue_draw), NULL);
  /* The highlights are drawn otherwise in high contrast. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::high-contrast",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}
