/* dc-poppler-lock.h: one thread at a time draws with poppler-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void dc_poppler_lock (void);
void dc_poppler_unlock (void);

G_END_DECLS
