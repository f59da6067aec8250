/* dc-build-id.c: which build of the engine is running
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the engine keeps between runs (the document cache, the language models' tables)
 * is made by its code: a file written by another build may hold what this one would not
 * make, so each is marked with the build that wrote it and used only by the same build.
 */

#define G_LOG_DOMAIN "dc-build-id"
/* dl_iterate_phdr() */
#define _GNU_SOURCE

#include "config.h"

#include <string.h>

#include "dc-build-id-private.h"

#ifdef __linux__

#include <link.h>

typedef struct
{
  guintptr address;
  char *hex;
} BuildIdSearch;

/* The GNU build ID of the object that holds @data's address: the linker makes it a
 * digest of the code, so that any rebuild of the engine has a new one. */
static int
find_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  BuildIdSearch *search = data;
  gboolean holds_address = FALSE;

  for (int i = 0; i < info->dlpi_phnum && !holds_address; i++)
    {
      const ElfW (Phdr) *header = &info->dlpi_phdr[i];
      guintptr start = info->dlpi_addr + header->p_vaddr;

      holds_address = header->p_type == PT_LOAD && search->address >= start
                      && search->address < start + header->p_memsz;
    }
  if (!holds_address)
    return 0;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *header = &info->dlpi_phdr[i];
      const guint8 *note = (const guint8 *) (info->dlpi_addr + header->p_vaddr);
      const guint8 *end = note + header->p_memsz;

      if (header->p_type != PT_NOTE)
        continue;
      while (note + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *note_header = (const ElfW (Nhdr) *) (const void *) note;
          const guint8 *name = note + sizeof *note_header;
          const guint8 *desc = name + ((note_header->n_namesz + 3) & ~3u);

          if (desc + note_header->n_descsz > end)
            break;
          if (note_header->n_type == NT_GNU_BUILD_ID && note_header->n_namesz == 4
              && memcmp (name, "GNU", 4) == 0 && note_header->n_descsz > 0)
            {
              GString *hex = g_string_new (NULL);

              for (guint j = 0; j < note_header->n_descsz; j++)
                g_string_append_printf (hex, "%02x", desc[j]);
              search->hex = g_string_free (hex, FALSE);
              return 1;
            }
          note = desc + ((note_header->n_descsz + 3) & ~3u);
        }
    }
  return 1;
}

/**
 * _dc_build_id:
 *
 * Returns: the engine's GNU build ID in hex, "" when the linker wrote none (or off
 *   Linux): then nothing is cached, since nothing would tell a file written by another
 *   build
 */
const char *
_dc_build_id (void)
{
  static gsize build_id;

  if (g_once_init_enter (&build_id))
    {
      BuildIdSearch search = { (guintptr) (gpointer) _dc_build_id, NULL };

      dl_iterate_phdr (find_build_id, &search);
      g_once_init_leave (&build_id, (gsize) (search.hex != NULL ? search.hex : g_strdup ("")));
    }
  return (const char *) build_id;
}

#else

const char *
_dc_build_id (void)
{
  return "";
}

#endif
