/* dc-readings-private.h: readings of a font, judged by the text they make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"
#include "dc-ngram-private.h"

G_BEGIN_DECLS

/* A reading is chosen when it beats every other by this many nats of language-model
 * likelihood for each glyph drawn where the two differ. */
#define DC_READINGS_MIN_MARGIN 1.0

/* Fewer letters than this say too little about a language to choose a reading. */
#define DC_READINGS_MIN_LETTERS 40

typedef struct _DcReadings DcReadings;

/* Whether a known symbol's value may stand in the text a reading is judged by. */
typedef gboolean (*DcReadingsTrustFunc) (DcKey *key, guint symbol);

DcReadings *_dc_readings_new (DcKey *key, guint font);
DcReadings *_dc_readings_new_trusted (DcKey *key, guint font, DcReadingsTrustFunc trust);
DcReadings *_dc_readings_new_kept (DcKey *key, guint font, DcReadingsTrustFunc trust);
gboolean _dc_readings_matches (DcReadings *readings);
gboolean _dc_readings_is_read (DcReadings *readings);
gboolean _dc_readings_take_text (DcReadings *readings, DcReadings *from);
void _dc_readings_share_words (DcReadings *readings, DcNgramWords *words);
void _dc_readings_free (DcReadings *readings);
guint _dc_readings_get_n_open (DcReadings *readings);
guint _dc_readings_get_open_symbol (DcReadings *readings, guint index);
int _dc_readings_find_open (DcReadings *readings, guint symbol);
void _dc_readings_clear (DcReadings *readings);
guint _dc_readings_count_known_letters (DcReadings *readings);
guint _dc_readings_add (DcReadings *readings, const char *name, const gunichar *values);
gboolean _dc_readings_choose (DcReadings *readings, guint *best, double *margin,
                              gboolean **disputed);
const char *_dc_readings_get_name (DcReadings *readings, guint reading);
const gunichar *_dc_readings_get_values (DcReadings *readings, guint reading);
const char *_dc_readings_get_language (DcReadings *readings, guint reading);
GUnicodeScript _dc_readings_get_script (DcReadings *readings, guint reading);
gunichar *_dc_readings_get_text (DcReadings *readings, guint reading, gsize *length);
double _dc_readings_get_score (DcReadings *readings, guint reading);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcReadings, _dc_readings_free)

G_END_DECLS
