/* dc-file-private.h: opening and replacing files a hostile folder may have prepared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _dc_file_check_target (const char *path, const char *example, GError **error);
gboolean _dc_file_same (const char *a, const char *b);
gboolean _dc_file_is_bookkeeping (const char *path);
gboolean _dc_file_may_write (const char *path, const char *document_path, const char *example,
                             GError **error);
gboolean _dc_file_has_prefix (const char *path, const char *prefix, gsize length);
int _dc_file_open_regular (const char *path, int flags, int mode, GError **error);
gboolean _dc_file_read_regular (const char *path, gsize max_length, char **data, gsize *length,
                                GError **error);
gboolean _dc_file_state_matches (const char *path, const char *recorded, const char *end);

G_END_DECLS
