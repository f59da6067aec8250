/* decipher-conflict-view.h: the open conflicts, each shown with both contexts to judge
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-glyph-shapes.h"
#include "decipher-page-renderer.h"
#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_CONFLICT_VIEW (decipher_conflict_view_get_type ())

G_DECLARE_FINAL_TYPE (DecipherConflictView, decipher_conflict_view, DECIPHER, CONFLICT_VIEW,
                      GtkWidget)

GtkWidget *decipher_conflict_view_new (void);
void decipher_conflict_view_set_session (DecipherConflictView *self, DcSession *session,
                                         DecipherGlyphShapes *shapes,
                                         DecipherPageRenderer *renderer);
void decipher_conflict_view_update (DecipherConflictView *self);
GtkListBox *decipher_conflict_view_get_list (DecipherConflictView *self);

G_END_DECLS
