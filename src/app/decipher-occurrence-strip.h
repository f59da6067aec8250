/* decipher-occurrence-strip.h: every occurrence of one symbol, large, beside its value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-page-renderer.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_OCCURRENCE_STRIP (decipher_occurrence_strip_get_type ())

G_DECLARE_FINAL_TYPE (DecipherOccurrenceStrip, decipher_occurrence_strip, DECIPHER,
                      OCCURRENCE_STRIP, GtkWidget)

GtkWidget *decipher_occurrence_strip_new (void);
void decipher_occurrence_strip_set_session (DecipherOccurrenceStrip *self, DcSession *session,
                                            DecipherViewState *state,
                                            DecipherPageRenderer *renderer);
void decipher_occurrence_strip_set_symbol (DecipherOccurrenceStrip *self, guint symbol);
guint decipher_occurrence_strip_get_symbol (DecipherOccurrenceStrip *self);
const char *decipher_occurrence_strip_get_count_text (DecipherOccurrenceStrip *self);
GListModel *decipher_occurrence_strip_get_model (DecipherOccurrenceStrip *self);
guint decipher_occurrence_strip_get_n_rendered (DecipherOccurrenceStrip *self);
GtkWidget *decipher_occurrence_strip_get_split (DecipherOccurrenceStrip *self);

GtkWidget *decipher_occurrence_picture_new (DcSession *session, DecipherPageRenderer *renderer,
                                            guint glyph);
GtkWidget *decipher_occurrence_pictures_new (DcSession *session, DecipherPageRenderer *renderer,
                                             guint symbol, guint max_pictures);
void decipher_occurrence_pictures_start (GtkWidget *pictures);

DecipherOccurrenceStrip *decipher_occurrence_strip_present (GtkWindow *parent, DcSession *session,
                                                            DecipherViewState *state,
                                                            DecipherPageRenderer *renderer);

void decipher_occurrence_strip_close_for (GtkWindow *parent);

G_END_DECLS
