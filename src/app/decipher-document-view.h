/* decipher-document-view.h: the pages, with the glyphs still to decode highlighted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-glyph-popover.h"
#include "decipher-glyph-shapes.h"
#include "decipher-page-renderer.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_ZOOM_MIN 0.1
#define DECIPHER_ZOOM_MAX 16.0

#define DECIPHER_TYPE_DOCUMENT_VIEW (decipher_document_view_get_type ())

G_DECLARE_FINAL_TYPE (DecipherDocumentView, decipher_document_view, DECIPHER, DOCUMENT_VIEW,
                      GtkWidget)

void decipher_document_view_set_session (DecipherDocumentView *self, DcSession *session,
                                         GFile *render_file, const char *password);
DcSession *decipher_document_view_get_session (DecipherDocumentView *self);
DecipherPageRenderer *decipher_document_view_get_renderer (DecipherDocumentView *self);
void decipher_document_view_set_shapes (DecipherDocumentView *self, DecipherGlyphShapes *shapes);
void decipher_document_view_set_view_state (DecipherDocumentView *self, DecipherViewState *state);
DecipherViewState *decipher_document_view_get_view_state (DecipherDocumentView *self);

double decipher_document_view_get_zoom (DecipherDocumentView *self);
void decipher_document_view_set_zoom (DecipherDocumentView *self, double zoom);
void decipher_document_view_zoom_in (DecipherDocumentView *self);
void decipher_document_view_zoom_out (DecipherDocumentView *self);
void decipher_document_view_fit_width (DecipherDocumentView *self);
void decipher_document_view_fit_page (DecipherDocumentView *self);

gboolean decipher_document_view_get_show_text (DecipherDocumentView *self);
void decipher_document_view_set_show_text (DecipherDocumentView *self, gboolean show_text);

guint decipher_document_view_get_page (DecipherDocumentView *self);
void decipher_document_view_set_page (DecipherDocumentView *self, guint page);

int decipher_document_view_glyph_at (DecipherDocumentView *self, double x, double y);
gboolean decipher_document_view_get_glyph_area (DecipherDocumentView *self, guint glyph,
                                                graphene_rect_t *area);
void decipher_document_view_show_glyph (DecipherDocumentView *self, guint glyph);
void decipher_document_view_activate_glyph (DecipherDocumentView *self, guint glyph);
void decipher_document_view_activate_symbol (DecipherDocumentView *self, guint symbol);
DecipherGlyphPopover *decipher_document_view_get_popover (DecipherDocumentView *self);

void decipher_document_view_set_marks (DecipherDocumentView *self, DecipherMarkKind kind,
                                       const guint32 *glyphs, guint n_glyphs);
guint decipher_document_view_get_n_drawn_marks (DecipherDocumentView *self);
guint decipher_document_view_get_n_drawn_pages (DecipherDocumentView *self);

guint decipher_document_view_get_n_highlighted (DecipherDocumentView *self);
guint decipher_document_view_get_n_drawn_highlights (DecipherDocumentView *self);
guint decipher_document_view_get_n_drawn_outlines (DecipherDocumentView *self);
int decipher_document_view_get_cursor_glyph (DecipherDocumentView *self);
gboolean decipher_document_view_get_lines_in_view (DecipherDocumentView *self, guint *first_line,
                                                   guint *n_lines);

gboolean decipher_document_view_select_glyphs (DecipherDocumentView *self, guint first_glyph,
                                               guint last_glyph);
void decipher_document_view_clear_selection (DecipherDocumentView *self);
gboolean decipher_document_view_has_selection (DecipherDocumentView *self);
char *decipher_document_view_dup_selected_text (DecipherDocumentView *self);
gboolean decipher_document_view_get_cursor_drawn (DecipherDocumentView *self);

G_END_DECLS
