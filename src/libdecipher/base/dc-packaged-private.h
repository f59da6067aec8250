/* dc-packaged-private.h: files only a package manager replaces, for the caches' stamps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _dc_packaged_file (const char *path);
void _dc_packaged_add_sandbox (GString *stamp);

G_END_DECLS
