/* dc-parallel.h: what a front end's own threads need of the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint dc_parallel_get_n_threads (guint n_pages);

void dc_parallel_hand_over (gconstpointer data);
void dc_parallel_take_over (gconstpointer data);

G_END_DECLS
