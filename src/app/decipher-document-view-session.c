/* decipher-document-view-session.c: the document the view shows, and the state it shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-document-view.c, which is the scrollable widget: the session handed
 * to the view (its pages laid out, its symbols still to decode counted, a page renderer
 * of its own started), the key's changes drawn, and the view state shared with the
 * window's other widgets: its page and zoom bound to the view's, its marks drawn.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include "decipher-document-view-private.h"

/* ---- engine ------------------------------------------------------------------------- */

static void
update_unknown (DecipherDocumentView *self, guint symbol)
{
  DcDocument *document = dc_session_get_document (self->session);
  guint first = symbol == DC_SYMBOL_NONE ? 0 : symbol;
  guint last = symbol == DC_SYMBOL_NONE ? self->n_symbols : symbol + 1;

  for (guint s = first; s < last; s++)
    {
      gboolean unknown = dc_session_symbol_is_unknown (self->session, s);
      guint n = dc_document_get_symbol (document, s)->n_glyphs;

      if (unknown == self->unknown[s])
        continue;
      self->unknown[s] = unknown;
      self->n_highlighted = unknown ? self->n_highlighted + n : self->n_highlighted - n;
    }
}

void
_decipher_document_view_key_changed_cb (DecipherDocumentView *self, guint symbol, DcKey *key)
{
  update_unknown (self, symbol);
  _decipher_document_view_invalidate_text (self);
  if (self->cursor >= 0)
    _decipher_document_view_describe_cursor (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
page_ready_cb (DecipherDocumentView *self, guint page, DecipherPageRenderer *renderer)
{
  guint first, last;

  if (_decipher_document_view_visible_pages (self, &first, &last) && page + 1 >= first
      && page <= last + 1)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
selected_symbol_cb (DecipherDocumentView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_decipher_document_view_clear_session (DecipherDocumentView *self)
{
  if (self->key_signals != NULL)
    g_signal_group_set_target (self->key_signals, NULL);
  if (self->renderer != NULL)
    g_signal_handlers_disconnect_by_data (self->renderer, self);
  if (self->popover != NULL)
    {
      gtk_popover_popdown (GTK_POPOVER (self->popover));
      decipher_glyph_popover_set_session (self->popover, NULL, NULL);
    }
  g_clear_object (&self->session);
  g_clear_object (&self->renderer);
  g_clear_object (&self->shapes);
  g_clear_pointer (&self->cum_height, g_free);
  g_clear_pointer (&self->unknown, g_free);
  g_clear_pointer (&self->line_layouts, g_ptr_array_unref);
  _decipher_document_view_clear_page_nodes (self);
  decipher_view_state_clear_marks (self->state);
  self->n_pages = 0;
  self->n_symbols = 0;
  self->n_highlighted = 0;
  self->n_drawn_pages = 0;
  self->max_width = 0;
  self->hover_glyph = -1;
  self->popover_glyph = -1;
  self->cursor = -1;
  self->selection_anchor = -1;
  _decipher_document_view_selection_changed (self);
  self->current_page = 0;
  _decipher_document_view_describe_cursor (self);
}

/**
 * decipher_document_view_set_session:
 * @session: (nullable): the document to show
 * @render_file: (nullable): the file its pages are drawn from (the render copy when it
 *   has one); required with @session
 * @password: (nullable): for an encrypted @render_file
 *
 * Starts a page renderer of its own for @render_file.
 */
void
decipher_document_view_set_session (DecipherDocumentView *self, DcSession *session,
                                    GFile *render_file, const char *password)
{
  DcDocument *document;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));
  g_return_if_fail (session == NULL || G_IS_FILE (render_file));

  if (self->session == session)
    return;
  _decipher_document_view_clear_session (self);
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      document = dc_session_get_document (session);
      self->n_pages = dc_document_get_n_pages (document);
      self->cum_height = g_new0 (double, self->n_pages + 1);
      for (guint page = 0; page < self->n_pages; page++)
        {
          double width, height;

          dc_document_get_page_size (document, page, &width, &height);
          self->cum_height[page + 1] = self->cum_height[page] + height;
          self->max_width = MAX (self->max_width, width);
        }
      dc_document_get_symbols (document, &self->n_symbols);
      self->unknown = g_new0 (guint8, MAX (self->n_symbols, 1));
      update_unknown (self, DC_SYMBOL_NONE);

      self->renderer = decipher_page_renderer_new (render_file, password);
      _decipher_document_view_update_render_scale (self);
      g_signal_connect_swapped (self->renderer, "page-ready", G_CALLBACK (page_ready_cb), self);
      g_signal_group_set_target (self->key_signals, dc_session_get_key (session));
      decipher_glyph_popover_set_session (self->popover, session, NULL);
      gtk_adjustment_set_value (self->vadjustment, 0);
      gtk_adjustment_set_value (self->hadjustment, 0);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _decipher_document_view_notify_pages (self);
}

DcSession *
decipher_document_view_get_session (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), NULL);

  return self->session;
}

/* Returns: (transfer none) (nullable): the renderer of the pages shown. */
DecipherPageRenderer *
decipher_document_view_get_renderer (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), NULL);

  return self->renderer;
}

/* Where the popover gets the glyph shapes it shows. */
void
decipher_document_view_set_shapes (DecipherDocumentView *self, DecipherGlyphShapes *shapes)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  g_set_object (&self->shapes, shapes);
  if (self->session != NULL)
    decipher_glyph_popover_set_session (self->popover, self->session, shapes);
}

/**
 * decipher_document_view_set_marks:
 * @glyphs: (array length=n_glyphs): glyph indices, in any order
 *
 * Points out @glyphs as @kind in the view's state (decipher_view_state_set_marks()).
 */
void
decipher_document_view_set_marks (DecipherDocumentView *self, DecipherMarkKind kind,
                                  const guint32 *glyphs, guint n_glyphs)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  decipher_view_state_set_marks (self->state, kind, glyphs, n_glyphs);
}

static void
marks_changed_cb (DecipherDocumentView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
show_glyph_cb (DecipherDocumentView *self, guint glyph)
{
  decipher_document_view_show_glyph (self, glyph);
}

/* Whoever listens to the shared state hears of a drag however it was told. */
static void
run_selected_cb (DecipherDocumentView *self, guint first_glyph, guint last_glyph)
{
  decipher_view_state_run_selected (self->state, first_glyph, last_glyph);
}

void
_decipher_document_view_unbind_state (DecipherDocumentView *self)
{
  if (self->state == NULL)
    return;
  g_clear_pointer (&self->page_binding, g_binding_unbind);
  g_clear_pointer (&self->zoom_binding, g_binding_unbind);
  g_clear_pointer (&self->n_pages_binding, g_binding_unbind);
  g_signal_handlers_disconnect_by_data (self->state, self);
  g_signal_handlers_disconnect_by_func (self, run_selected_cb, NULL);
  g_clear_object (&self->state);
}

/**
 * decipher_document_view_set_view_state:
 * @state: what the window shows, shared with its other widgets
 *
 * The view follows @state's page and zoom and says there where the user scrolled and
 * zoomed to, draws its marks and brings into view the glyphs it is asked to show. A view
 * starts with a state of its own; a window hands it the one its widgets share.
 */
void
decipher_document_view_set_view_state (DecipherDocumentView *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (state));

  if (self->state == state)
    return;
  _decipher_document_view_unbind_state (self);
  self->state = g_object_ref (state);
  self->zoom_binding = g_object_bind_property (self, "zoom", state, "zoom",
                                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  self->n_pages_binding = g_object_bind_property (self, "n-pages", state, "n-pages",
                                                  G_BINDING_SYNC_CREATE);
  self->page_binding = g_object_bind_property (self, "page", state, "page",
                                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (state, "marks-changed", G_CALLBACK (marks_changed_cb), self);
  g_signal_connect_swapped (state, "show-glyph", G_CALLBACK (show_glyph_cb), self);
  g_signal_connect_swapped (state, "notify::selected-symbol", G_CALLBACK (selected_symbol_cb),
                            self);
  decipher_glyph_popover_set_view_state (self->popover, state);
  g_signal_connect (self, "run-selected", G_CALLBACK (run_selected_cb), NULL);
  _decipher_document_view_selection_changed (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

DecipherViewState *
decipher_document_view_get_view_state (DecipherDocumentView *self)
{
  g_return_val_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self), NULL);

  return self->state;
}
