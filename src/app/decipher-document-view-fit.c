/* decipher-document-view-fit.c: zooms that fit the page to the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A linguist reading a line close up zooms in; to see where they are on the page, or to
 * read a wide page on a narrow screen, they want the zoom that fits it, as Papers offers:
 * the widest page across the view, or the whole page shown in it.
 */

#define G_LOG_DOMAIN "decipher-document-view"

#include "config.h"

#include "decipher-document-view-private.h"

/* What is left of the view for a page between the margins, in pixels. */
static gboolean
room_for_page (DecipherDocumentView *self, double *width, double *height)
{
  *width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * DECIPHER_VIEW_MARGIN;
  *height = gtk_widget_get_height (GTK_WIDGET (self)) - 2 * DECIPHER_VIEW_MARGIN;
  return self->session != NULL && self->n_pages > 0 && *width > 1 && *height > 1;
}

/**
 * decipher_document_view_fit_width:
 *
 * Zooms so that the widest page fills the view's width.
 */
void
decipher_document_view_fit_width (DecipherDocumentView *self)
{
  double width, height;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  if (!room_for_page (self, &width, &height) || self->max_width <= 0)
    return;
  decipher_document_view_set_zoom (self, width / self->max_width);
}

/**
 * decipher_document_view_fit_page:
 *
 * Zooms so that the page shown fits the view whole, and shows it from its top.
 */
void
decipher_document_view_fit_page (DecipherDocumentView *self)
{
  DcDocument *document;
  double width, height, page_width, page_height;
  guint page;

  g_return_if_fail (DECIPHER_IS_DOCUMENT_VIEW (self));

  if (!room_for_page (self, &width, &height))
    return;
  page = decipher_document_view_get_page (self);
  document = dc_session_get_document (self->session);
  dc_document_get_page_size (document, page, &page_width, &page_height);
  if (page_width <= 0 || page_height <= 0)
    return;
  decipher_document_view_set_zoom (self, MIN (width / page_width, height / page_height));
  decipher_document_view_set_page (self, page);
}
