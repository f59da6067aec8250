/* dc-proposals-private.h: the code page tables built ahead (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GThread *_dc_proposals_prepare (void);

G_END_DECLS
