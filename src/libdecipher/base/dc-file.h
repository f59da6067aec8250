/* dc-file.h: the rule every writer of a file the user named follows, for the front ends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean dc_file_may_write (const char *path, const char *document_path, const char *example,
                            GError **error);

G_END_DECLS
