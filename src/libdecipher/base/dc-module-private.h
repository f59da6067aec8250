/* dc-module-private.h: where Decipher's own modules are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *_dc_module_path (const char *variable, const char *installed, const char *uninstalled);
gboolean _dc_module_load_once (gsize *loaded, void (*load) (void), char *const *load_error,
                               GError **error);

G_END_DECLS
