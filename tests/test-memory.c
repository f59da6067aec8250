/* test-memory.c: the heap a front end asks for in huge pages is advised so
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc_memory_prefer_huge_pages() (base/dc-memory.c) changes nothing a program sees but the
 * kernel's pages under it, so the test reads what the kernel says of the process: the
 * mapping a block of a few megabytes lands in is the heap, and carries the huge-page
 * advice (VmFlags "hg" in /proc/self/smaps). Without the call that block would be a mapping
 * of its own, not advised. Where the kernel has no transparent huge pages to give, or a
 * sanitizer replaces malloc(), there is nothing to look at.
 */

#include "config.h"

#include <string.h>

#include "dc-memory.h"

/* The VmFlags of the mapping @address is in, with its name ("[heap]"), or FALSE. */
static gboolean
mapping_of (gconstpointer address, char **flags, char **name)
{
  g_autofree char *smaps = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;
      char *dash;

      /* A mapping's first line: "start-end perms offset device inode [name]". */
      if (g_ascii_isxdigit (lines[i][0]) && (dash = strchr (lines[i], '-')) != NULL
          && strchr (lines[i], ' ') > dash)
        {
          g_auto (GStrv) fields = g_strsplit_set (lines[i], " ", -1);
          guint n = g_strv_length (fields);

          start = g_ascii_strtoull (lines[i], NULL, 16);
          end = g_ascii_strtoull (dash + 1, NULL, 16);
          inside = (guintptr) address >= start && (guintptr) address < end;
          if (inside)
            *name = g_strdup (n > 5 ? fields[n - 1] : "");
        }
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        {
          *flags = g_strdup (lines[i] + strlen ("VmFlags:"));
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_heap_advised (void)
{
  g_autofree char *enabled = NULL, *flags = NULL, *name = NULL;
  g_autofree guint8 *block = NULL;
  g_auto (GStrv) each_flag = NULL;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  g_test_skip ("a sanitizer's malloc() keeps no heap of glibc's");
  return;
#endif
#ifndef __GLIBC__
  g_test_skip ("only glibc's heap is advised");
  return;
#endif
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &enabled, NULL, NULL)
      || strstr (enabled, "[never]") != NULL)
    {
      g_test_skip ("this kernel gives no transparent huge pages");
      return;
    }

  dc_memory_prefer_huge_pages ();
  /* Asked again (a front end and a library both), nothing more is done. */
  dc_memory_prefer_huge_pages ();
  /* Far beyond glibc's first threshold for a mapping of its own (128 KiB). */
  block = g_malloc (8 << 20);
  memset (block, 1, 8 << 20);

  g_assert_true (mapping_of (block + (4 << 20), &flags, &name));
  g_assert_cmpstr (name, ==, "[heap]");
  each_flag = g_strsplit_set (g_strstrip (flags), " ", -1);
  g_assert_true (g_strv_contains ((const char *const *) each_flag, "hg"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory/heap-advised", test_heap_advised);
  return g_test_run ();
}
