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
} DcKeyEntry;

void _dc_key_entry_clear (DcKeyEntry *entry);
void _dc_key_restore (DcKey *self, const DcKeyEntry *entries, guint n_entries);

G_END_DECLS
