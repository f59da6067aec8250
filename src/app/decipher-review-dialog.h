/* decipher-review-dialog.h: the proposals Accept-all does not take blindly, one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "decipher-page-renderer.h"
#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_REVIEW_DIALOG (decipher_review_dialog_get_type ())

G_DECLARE_FINAL_TYPE (DecipherReviewDialog, decipher_review_dialog, DECIPHER, REVIEW_DIALOG,
                      AdwWindow)

DecipherReviewDialog *decipher_review_dialog_new (GtkWindow *parent, DcSession *session,
                                                  DecipherPageRenderer *renderer,
                                                  const guint *symbols, guint n_symbols);
guint decipher_review_dialog_get_n_pairs (DecipherReviewDialog *self);
guint decipher_review_dialog_get_symbol (DecipherReviewDialog *self, guint pair);
GtkWidget *decipher_review_dialog_get_row (DecipherReviewDialog *self, guint pair);
GtkWidget *decipher_review_dialog_get_pictures (DecipherReviewDialog *self, guint pair);

G_END_DECLS
