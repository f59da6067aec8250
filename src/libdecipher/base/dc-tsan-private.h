/* dc-tsan-private.h: telling ThreadSanitizer about hand-offs it cannot see
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GTask hands its data to a worker and the worker's result back through GLib's own
 * mutexes and condition variables, which are futexes inside an uninstrumented libglib:
 * ThreadSanitizer sees neither, and would report the hand-off itself as a race. The
 * sender marks the data released after its last write, the receiver acquired before
 * its first read; in any other build these cost nothing. (build-aux/test.sh runs the
 * engine tests in a ThreadSanitizer build, _build/tsan.)
 */

#pragma once

#include <glib.h>

#if defined(__SANITIZE_THREAD__)
#define DC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DC_TSAN 1
#endif
#endif

G_BEGIN_DECLS

#ifdef DC_TSAN
void __tsan_acquire (void *addr);
void __tsan_release (void *addr);
/* After the last write to what @data leads to, before handing it to another thread. */
#define DC_HAND_OVER(data) __tsan_release ((void *) (data))
/* On the receiving side, before the first read. */
#define DC_TAKE_OVER(data) __tsan_acquire ((void *) (data))
#else
#define DC_HAND_OVER(data)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    (void) (data);                                                                                 \
  }                                                                                                \
  G_STMT_END
#define DC_TAKE_OVER(data)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    (void) (data);                                                                                 \
  }                                                                                                \
  G_STMT_END
#endif

/* g_once_init_leave() publishes a table from inside the uninstrumented libglib, so a
 * second thread reading the table looks unsynchronised: the writer calls
 * DC_ONCE_LEAVE instead, and every reader DC_ONCE_ENTERED once past the check. */
#define DC_ONCE_LEAVE(location, value)                                                             \
  G_STMT_START                                                                                     \
  {                                                                                                \
    DC_HAND_OVER (location);                                                                       \
    g_once_init_leave ((location), (value));                                                       \
  }                                                                                                \
  G_STMT_END
#define DC_ONCE_ENTERED(location) DC_TAKE_OVER (location)

/* GMutex is a futex inside libglib too: what one holder wrote under the lock is handed
 * to the next one. Every GMutex in the engine is taken and released through these. */
#define DC_MUTEX_LOCK(mutex)                                                                       \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_mutex_lock (mutex);                                                                          \
    DC_TAKE_OVER (mutex);                                                                          \
  }                                                                                                \
  G_STMT_END
#define DC_MUTEX_UNLOCK(mutex)                                                                     \
  G_STMT_START                                                                                     \
  {                                                                                                \
    DC_HAND_OVER (mutex);                                                                          \
    g_mutex_unlock (mutex);                                                                        \
  }                                                                                                \
  G_STMT_END

G_END_DECLS
