/* decipher-cli-threads.h: the CLI's own threads, as ThreadSanitizer must see them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GMutex is a futex inside the uninstrumented libglib: what one holder wrote under the
 * lock is handed to the next one through the engine's annotations (dc-parallel.h).
 */

#pragma once

#include "decipher.h"

static inline void
decipher_cli_lock (GMutex *mutex)
{
  g_mutex_lock (mutex);
  dc_parallel_take_over (mutex);
}

static inline void
decipher_cli_unlock (GMutex *mutex)
{
  dc_parallel_hand_over (mutex);
  g_mutex_unlock (mutex);
}
