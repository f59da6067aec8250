/* dc-name-slots-gen.cc: poppler's glyph names as a table, made when the engine is built
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: dc-name-slots-gen OUTPUT.h
 *
 * The bridge finds a glyph name's character in poppler's Adobe Glyph List
 * (NameToUnicodeTable.h) through an open-addressed table of positions in that list.
 * Filled at run time, hashing the 4,300 names cost a one-page `text` 0.45 M instructions,
 * 1.6 % of it (issue 32), for a table that is the same at every run: it is written here,
 * from the same header the bridge is compiled with, as a constant array. The first entry
 * of a name the list holds twice wins, as it always has.
 */

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <NameToUnicodeTable.h>

#include "dc-name-slots-private.h"

static uint16_t slots[DC_NAME_SLOTS];

/* The slot holding @name, or the empty one where it would go. */
static unsigned
slot_of (const char *name)
{
  unsigned slot = dc_name_hash (name) & (DC_NAME_SLOTS - 1);

  while (slots[slot] != 0 && strcmp (nameToUnicodeTextTab[slots[slot] - 1].name, name) != 0)
    slot = (slot + 1) & (DC_NAME_SLOTS - 1);
  return slot;
}

int
main (int argc, char **argv)
{
  static_assert (sizeof nameToUnicodeTextTab / sizeof nameToUnicodeTextTab[0]
                     < DC_NAME_SLOTS * 2 / 3,
                 "poppler's glyph list needs a larger table");
  FILE *out;

  if (argc != 2 || (out = fopen (argv[1], "w")) == nullptr)
    {
      fprintf (stderr, "usage: dc-name-slots-gen OUTPUT.h\n");
      return 1;
    }
  for (unsigned i = 0; nameToUnicodeTextTab[i].name != nullptr; i++)
    {
      unsigned slot = slot_of (nameToUnicodeTextTab[i].name);

      if (slots[slot] == 0)
        slots[slot] = (uint16_t) (i + 1);
    }
  fprintf (out, "/* Made by dc-name-slots-gen from poppler's NameToUnicodeTable.h. */\n\n"
                "#pragma once\n\n"
                "#include \"dc-name-slots-private.h\"\n\n"
                "static const uint16_t name_slots[DC_NAME_SLOTS] = {\n");
  for (unsigned i = 0; i < DC_NAME_SLOTS; i++)
    fprintf (out, "%s%u,%s", i % 12 == 0 ? "  " : " ", slots[i], i % 12 == 11 ? "\n" : "");
  fprintf (out, "\n};\n");
  return fclose (out) == 0 ? 0 : 1;
}
