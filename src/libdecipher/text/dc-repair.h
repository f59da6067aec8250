/* dc-repair.h: a copy of the PDF whose text copies correctly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

typedef struct _DcRepair DcRepair;

DcRepair *dc_repair_new (DcKey *key, const char *password, GError **error);
void dc_repair_free (DcRepair *self);
const char *const *dc_repair_get_notes (DcRepair *self);
gboolean dc_repair_save (DcRepair *self, const char *output, GError **error);

gboolean dc_repair_write (DcKey *key, const char *password, const char *output, char ***notes,
                          GError **error);

char *dc_repair_write_render_copy (DcDocument *document, const char *password,
                                   const char *directory, GError **error);
char *dc_repair_write_cached_render_copy (DcDocument *document, const char *password,
                                          GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcRepair, dc_repair_free)

G_END_DECLS
