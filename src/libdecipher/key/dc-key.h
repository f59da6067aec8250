/* dc-key.h: what each symbol of a document stands for, how sure we are, and why
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "dc-document.h"

G_BEGIN_DECLS

/* Ordered by how much a value is worth, except that a proposal ranks below what the PDF
 * says for a trusted font (see dc_key_set()). */
typedef enum
{
  DC_KEY_UNKNOWN,
  DC_KEY_FROM_PDF,  /* a trusted font's own map */
  DC_KEY_PROPOSED,  /* a guess (glyph name, code page, shape): shown, never used as text */
  DC_KEY_INFERRED,  /* learned from a match or the automatic pass */
  DC_KEY_CONFIRMED, /* the user said so */
} DcKeyStatus;

/* What kind of evidence a value rests on (DESIGN §7), weakest first so that levels compare
 * as numbers. The status says what the value is used for (text or proposal); the level says
 * how good the evidence is. A lower level never silently replaces a higher one. */
typedef enum
{
  DC_KEY_LEVEL_NONE,     /* unknown */
  DC_KEY_LEVEL_GUESS,    /* the automatic space / full stop, with ink evidence */
  DC_KEY_LEVEL_SHAPE,    /* OCR consensus, near-identical outlines */
  DC_KEY_LEVEL_IDENTITY, /* the same outline in an installed font */
  DC_KEY_LEVEL_LAYOUT,   /* a standard layout: Mac glyph order, code page, offset, double-byte */
  DC_KEY_LEVEL_FONT,     /* the font program's own tables: cmaps, glyph names */
  DC_KEY_LEVEL_LIBRARY,  /* the user's font library: the same shape confirmed before */
  DC_KEY_LEVEL_PDF,      /* a ToUnicode / encoding that passes the trust analysis */
  DC_KEY_LEVEL_USER,     /* typed match, direct assignment, accepted proposal */
} DcKeyLevel;

#define DC_KEY_LEVEL_LAST DC_KEY_LEVEL_USER

/* Values at or above this confidence may be applied (and written by repair) without the
 * user confirming them; below it they are proposals. */
#define DC_KEY_AUTOMATIC_CONFIDENCE 0.6

/* At most this many code points per value: a ligature or conjunct, never a sentence. */
#define DC_KEY_MAX_VALUE_CHARS 16

#define DC_TYPE_KEY (dc_key_get_type ())

G_DECLARE_FINAL_TYPE (DcKey, dc_key, DC, KEY, GObject)

DcKey *dc_key_new (DcDocument *document);
DcDocument *dc_key_get_document (DcKey *self);

const char *dc_key_get_value (DcKey *self, guint symbol);
const char *dc_key_peek_value (DcKey *self, guint symbol);
DcKeyStatus dc_key_get_status (DcKey *self, guint symbol);
const char *dc_key_get_provenance (DcKey *self, guint symbol);
DcKeyLevel dc_key_get_level (DcKey *self, guint symbol);
double dc_key_get_confidence (DcKey *self, guint symbol);
const char *dc_key_level_to_string (DcKeyLevel level);
gboolean dc_key_level_from_string (const char *string, DcKeyLevel *level);
double dc_key_level_get_default_confidence (DcKeyLevel level);
gboolean dc_key_level_applies_automatically (DcKeyLevel level);
DcKeyLevel dc_key_level_for_status (DcKeyStatus status, const char *provenance);
const char *dc_key_status_to_string (DcKeyStatus status);
gboolean dc_key_status_from_string (const char *string, DcKeyStatus *status);

char *dc_key_normalize_value (const char *value, GError **error);
gboolean dc_key_set (DcKey *self, guint symbol, const char *value, DcKeyStatus status,
                     const char *provenance, GError **error);
gboolean dc_key_set_full (DcKey *self, guint symbol, const char *value, DcKeyStatus status,
                          DcKeyLevel level, double confidence, const char *provenance,
                          GError **error);
void dc_key_forget (DcKey *self, guint symbol);
gboolean dc_key_take_back (DcKey *self, guint symbol);
gboolean dc_key_reject (DcKey *self, guint symbol);
gboolean dc_key_is_refused (DcKey *self, guint symbol, const char *value);
const char *const *dc_key_get_refused (DcKey *self, guint symbol);

/* Splits: occurrences that read otherwise than their symbol (dc-key-split.c). */
gboolean dc_key_split (DcKey *self, const guint *glyphs, guint n_glyphs, const char *value,
                       const char *provenance, GError **error);
gboolean dc_key_unsplit (DcKey *self, const guint *glyphs, guint n_glyphs);
const char *dc_key_get_split (DcKey *self, guint glyph, const char **provenance);
const char *dc_key_get_glyph_value (DcKey *self, guint glyph);
guint dc_key_count_split (DcKey *self, guint symbol);
guint *dc_key_dup_split_glyphs (DcKey *self, guint symbol, guint *n_glyphs);

void dc_key_begin_change (DcKey *self, const char *label);
void dc_key_end_change (DcKey *self);
gboolean dc_key_can_undo (DcKey *self);
gboolean dc_key_can_redo (DcKey *self);
const char *dc_key_get_undo_label (DcKey *self);
const char *dc_key_get_redo_label (DcKey *self);
gboolean dc_key_undo (DcKey *self);
gboolean dc_key_redo (DcKey *self);

void dc_key_count_decoded (DcKey *self, guint *n_symbols, guint *n_glyphs);
void dc_key_count_to_decode (DcKey *self, guint *n_symbols, guint *n_glyphs);

const char *dc_key_value_func (guint symbol, gpointer key);

G_END_DECLS
