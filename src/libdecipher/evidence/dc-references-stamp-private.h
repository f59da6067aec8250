/* dc-references-stamp-private.h: whether the installed fonts changed, without fontconfig
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *_dc_references_stamp_new (void);
gboolean _dc_references_stamp_is_current (const char *stamp);

G_END_DECLS
