/* dc-hash-private.h: a hash of 64-bit keys that keeps both halves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* g_int64_hash() folds the halves together with an exclusive or, so keys made of two small
 * numbers (a font and a code, a kind and an index) fall on a few hundred values and the
 * table probes long chains. Multiplying by the golden ratio spreads them over all bits. */
static inline guint
_dc_hash_u64 (gconstpointer key)
{
  return (guint) ((*(const guint64 *) key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32);
}

G_END_DECLS
