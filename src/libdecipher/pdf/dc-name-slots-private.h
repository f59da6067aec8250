/* dc-name-slots-private.h: how poppler's glyph names are laid out in their table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-name-slots-gen.cc lays poppler's Adobe Glyph List out when the engine is built, as
 * an open-addressed table of positions in poppler's list (0 for an empty slot); the
 * bridge (dc_pdf_bridge_glyph_name_to_unicode()) looks names up in it. Both hash and
 * probe alike with what is here.
 */

#pragma once

#include <stdint.h>

#define DC_NAME_SLOTS 8192

/* FNV-1a */
static inline uint32_t
dc_name_hash (const char *name)
{
  uint32_t hash = 2166136261u;

  for (const char *c = name; *c != '\0'; c++)
    hash = (hash ^ (uint8_t) *c) * 16777619u;
  return hash;
}
