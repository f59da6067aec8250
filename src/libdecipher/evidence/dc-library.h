/* dc-library.h: the user's font library, what each glyph shape was decided to be
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "dc-fingerprint.h"
#include "dc-key.h"

G_BEGIN_DECLS

#define DC_TYPE_LIBRARY (dc_library_get_type ())

G_DECLARE_FINAL_TYPE (DcLibrary, dc_library, DC, LIBRARY, GObject)

char *dc_library_get_default_path (void);
DcLibrary *dc_library_open (const char *path, GError **error);
const char *dc_library_get_path (DcLibrary *self);
guint dc_library_get_n_entries (DcLibrary *self);

gboolean dc_library_remember (DcLibrary *self, const DcShape *shape, const char *value,
                              const char *font_name, GError **error);
gboolean dc_library_forget (DcLibrary *self, const DcShape *shape, const char *value,
                            GError **error);
gboolean dc_library_remember_full (DcLibrary *self, const DcShape *shape, const char *value,
                                   DcKeyLevel level, double confidence, const char *font_name,
                                   GError **error);
char *dc_library_lookup (DcLibrary *self, const DcShape *shape, const char *script);
char *dc_library_lookup_full (DcLibrary *self, const DcShape *shape, const char *script,
                              DcKeyLevel *level, double *confidence);

guint dc_library_apply (DcLibrary *self, DcShapes *shapes, DcKey *key);
GHashTable *dc_library_verify (DcKey *key);
void dc_library_propose_demoted (DcKey *key, GHashTable *demoted);

gboolean dc_library_learn (DcLibrary *self, DcShapes *shapes, DcKey *key, char **learned,
                           gboolean first, GError **error);

gboolean dc_library_export (DcLibrary *self, const char *path, GError **error);
gboolean dc_library_import (DcLibrary *self, const char *path, guint *n_imported, GError **error);

const char *dc_library_script_of_value (const char *value);

G_END_DECLS
