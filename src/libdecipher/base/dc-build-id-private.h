/* dc-build-id-private.h: which build of the engine is running (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *_dc_build_id (void);

G_END_DECLS
