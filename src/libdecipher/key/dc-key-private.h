/* dc-key-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

/* One decided symbol as a project file stores it; the value is already normalised. */
typedef struct
{
  guint symbol;
  DcKeyStatus status;
  DcKeyLevel level;  /* DC_KEY_LEVEL_NONE: derive it from status and provenance */
  double confidence; /* 0: the level's default */
  char *value;
  char *provenance;
  char **refused;    /* nullable: the values the user rejected (dc_key_reject()) */
  gboolean on_glyph; /* a split: @glyph alone reads @value (a confirmed one), or reads as
                      * @symbol again when the status is unknown */
  guint glyph;
} DcKeyEntry;

/* One undoable step as a project file stores it. */
typedef struct
{
  char *label;   /* nullable */
  GArray *edits; /* of DcKeyEntry: edit i's state before at 2i, after at 2i + 1 */
} DcKeyStep;

void _dc_key_entry_clear (DcKeyEntry *entry);
void _dc_key_restore (DcKey *self, const DcKeyEntry *entries, guint n_entries);
void _dc_key_set_refused (DcKey *self, guint symbol, const char *const *refused);

DcKeyStep *_dc_key_step_new (const char *label);
void _dc_key_step_free (DcKeyStep *step);
GPtrArray *_dc_key_dup_steps (DcKey *self, gboolean redo, guint max_edits);
void _dc_key_restore_steps (DcKey *self, GPtrArray *undo, GPtrArray *redo);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcKeyStep, _dc_key_step_free)

G_END_DECLS
