/* dc-references-private.h: what the files of DcReferences share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up DcReferences include this (dc-references.c,
 * dc-references-apply.c, dc-references-numerals.c, dc-references-verify.c): everyone
 * else goes through dc-references.h.
 */

#pragma once

#include <sqlite3.h>

#include "dc-references.h"

G_BEGIN_DECLS

struct _DcReferences
{
  GObject parent_instance;

  char *path;
  sqlite3 *db;
  GMutex lock;           /* of what follows, for the index may be shared */
  sqlite3_stmt *outline; /* the query of one outline, prepared once */
  GHashTable *outlines;  /* fingerprint → Outline */
  guint n_readers;       /* of _dc_references_begin_reading(), not yet ended */
  gboolean reading;      /* whether they hold a read transaction open */
};

gboolean _dc_references_prepare_outlines (DcReferences *self);
void _dc_references_begin_reading (DcReferences *self);
void _dc_references_end_reading (DcReferences *self);
void _dc_references_lookup_outline (DcReferences *self, const DcShape *shape, GPtrArray **values,
                                    GPtrArray **families);
/* What the words a symbol stands in say of it as a numeral (dc-references-numerals.c). */
typedef enum
{
  DC_NUMERAL_NO,
  DC_NUMERAL_YES,
  DC_NUMERAL_LONE,
} DcNumeral;

typedef enum
{
  DC_NUMERAL_ROMAN,  /* a Roman numeral's Latin capital */
  DC_NUMERAL_DIGITS, /* a decimal digit */
} DcNumeralKind;

DcNumeral _dc_references_read_numeral (DcReferences *self, DcShapes *shapes, DcKey *key,
                                       guint symbol, DcNumeralKind kind);
guint _dc_references_apply_to_fonts (DcReferences *self, DcShapes *shapes, DcKey *key,
                                     const gboolean *fonts);
gboolean _dc_references_outline_rules_out (DcKey *key, guint symbol, const char *value);
gboolean _dc_references_value_is_trustworthy (DcKey *key, guint symbol);

/* dc-references-words.c */
typedef struct _DcWordScripts DcWordScripts;

DcWordScripts *_dc_word_scripts_new (DcKey *key);
void _dc_word_scripts_free (DcWordScripts *self);
const char *_dc_word_scripts_get (DcWordScripts *self, guint font, guint symbol,
                                  const char *font_script, gboolean *disputed);

G_END_DECLS
