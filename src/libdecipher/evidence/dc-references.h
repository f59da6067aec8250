/* dc-references.h: the installed fonts as references for glyph shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "dc-fingerprint.h"
#include "dc-key.h"

G_BEGIN_DECLS

#define DC_TYPE_REFERENCES (dc_references_get_type ())

G_DECLARE_FINAL_TYPE (DcReferences, dc_references, DC, REFERENCES, GObject)

char *dc_references_get_default_path (void);
DcReferences *dc_references_open (const char *path, GError **error);
gboolean dc_references_update (DcReferences *self, guint *n_indexed, GCancellable *cancellable,
                               GError **error);
guint dc_references_get_n_fonts (DcReferences *self);
guint dc_references_apply (DcReferences *self, DcShapes *shapes, DcKey *key);
guint dc_references_verify (DcReferences *self, DcShapes *shapes, DcKey *key);

G_END_DECLS
