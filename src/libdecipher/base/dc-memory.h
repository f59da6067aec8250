/* dc-memory.h: how a front end's process asks for its memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void dc_memory_prefer_huge_pages (void);

G_END_DECLS
