/* dc-proposals.h: what the unknown symbols probably are, for the user to confirm
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

guint dc_proposals_update (DcKey *key);
gboolean dc_value_is_lookalike (const char *value);
char *dc_value_dup_lookalikes (const char *value);

G_END_DECLS
