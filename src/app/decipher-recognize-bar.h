/* decipher-recognize-bar.h: reading the glyphs' shapes in the background, and accepting
 * what was read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-page-renderer.h"
#include "decipher-review-dialog.h"
#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_RECOGNIZE_BAR (decipher_recognize_bar_get_type ())

G_DECLARE_FINAL_TYPE (DecipherRecognizeBar, decipher_recognize_bar, DECIPHER, RECOGNIZE_BAR,
                      GtkWidget)

void decipher_recognize_bar_set_session (DecipherRecognizeBar *self, DcSession *session,
                                         DecipherPageRenderer *renderer);
void decipher_recognize_bar_start (DecipherRecognizeBar *self);
void decipher_recognize_bar_cancel (DecipherRecognizeBar *self);
gboolean decipher_recognize_bar_get_running (DecipherRecognizeBar *self);
double decipher_recognize_bar_get_fraction (DecipherRecognizeBar *self);
double decipher_recognize_bar_get_min_confidence (DecipherRecognizeBar *self);
void decipher_recognize_bar_set_min_confidence (DecipherRecognizeBar *self, double confidence);
guint decipher_recognize_bar_accept_above (DecipherRecognizeBar *self, GError **error);
DecipherReviewDialog *decipher_recognize_bar_get_review_dialog (DecipherRecognizeBar *self);
const char *decipher_recognize_bar_get_message (DecipherRecognizeBar *self);
gboolean decipher_recognize_bar_activate_accept (DecipherRecognizeBar *self);

G_END_DECLS
