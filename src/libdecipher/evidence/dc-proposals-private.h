/* dc-proposals-private.h: the code page tables, read by other levels (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint _dc_proposals_n_code_pages (void);
const gunichar *_dc_proposals_code_page (guint index, const char **name);

G_END_DECLS
