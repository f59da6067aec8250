/* decipher-occurrence-strip-private.h: the strip's parts, for the files it is split into
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-occurrence-strip.h"

G_BEGIN_DECLS

void _decipher_occurrence_strip_count_rendered (DecipherOccurrenceStrip *self);

/* decipher-occurrence-strip-list.c: one occurrence, a glyph of the symbol, and the list */

#define DECIPHER_TYPE_OCCURRENCE (decipher_occurrence_get_type ())
G_DECLARE_FINAL_TYPE (DecipherOccurrence, decipher_occurrence, DECIPHER, OCCURRENCE, GObject)

struct _DecipherOccurrence
{
  GObject parent_instance;
  guint glyph;
};

#define DECIPHER_TYPE_OCCURRENCE_LIST (decipher_occurrence_list_get_type ())
G_DECLARE_FINAL_TYPE (DecipherOccurrenceList, decipher_occurrence_list, DECIPHER, OCCURRENCE_LIST,
                      GObject)

DecipherOccurrenceList *_decipher_occurrence_list_new (const guint32 *glyphs, guint n_glyphs);

/* decipher-occurrence-strip-cuts.c */
void _decipher_occurrence_prepare_cut (GtkPicture *picture, DcSession *session, guint glyph);
void _decipher_occurrence_start_cut (GtkPicture *picture, DcSession *session,
                                     DecipherPageRenderer *renderer,
                                     DecipherOccurrenceStrip *strip);
void _decipher_occurrence_stop_cut (GtkPicture *picture);
GtkWidget *_decipher_occurrence_cut_picture_new (void);
GtkWidget *_decipher_occurrence_reference_label_new (void);

G_END_DECLS
