/* decipher-occurrence-split.h: giving chosen occurrences of a symbol a value of their own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_OCCURRENCE_SPLIT (decipher_occurrence_split_get_type ())

G_DECLARE_FINAL_TYPE (DecipherOccurrenceSplit, decipher_occurrence_split, DECIPHER,
                      OCCURRENCE_SPLIT, GtkWidget)

/* Gives the glyphs of the items selected, in order; (transfer full). */
typedef guint *(*DecipherSelectedGlyphsFunc) (gpointer user_data, guint *n_glyphs);

GtkWidget *decipher_occurrence_split_new (GtkSelectionModel *selection,
                                          DecipherSelectedGlyphsFunc selected, gpointer user_data);
void decipher_occurrence_split_set_session (DecipherOccurrenceSplit *self, DcSession *session);
GtkEditable *decipher_occurrence_split_get_entry (DecipherOccurrenceSplit *self);
GtkPopover *decipher_occurrence_split_get_popover (DecipherOccurrenceSplit *self);

G_END_DECLS
