/* decipher-page-sidebar.h: a thumbnail of every page, to see where one is and go elsewhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-page-renderer.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_PAGE_SIDEBAR (decipher_page_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (DecipherPageSidebar, decipher_page_sidebar, DECIPHER, PAGE_SIDEBAR, GtkWidget)

void decipher_page_sidebar_set_view_state (DecipherPageSidebar *self, DecipherViewState *state);
void decipher_page_sidebar_set_session (DecipherPageSidebar *self, DcSession *session,
                                        DecipherPageRenderer *renderer);

/* For the tests. */
GtkListView *decipher_page_sidebar_get_list_view (DecipherPageSidebar *self);
guint decipher_page_sidebar_get_n_thumbnails (DecipherPageSidebar *self);

G_END_DECLS
