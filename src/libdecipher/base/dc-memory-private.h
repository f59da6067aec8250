/* dc-memory-private.h: memory new to the process, faulted in at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel gives memory new to the process a 4 KiB page at a time, on first touch:
 * in a virtual machine a fault costs some 15–40 µs, so that a book's arrays cost more to
 * fault in than to fill. One madvise(MADV_POPULATE_WRITE) (Linux 5.14) faults in a range
 * at a fraction of that. Reusing memory the process touched already costs nothing: do
 * that first.
 */

#pragma once

#include <glib.h>

#ifdef __linux__
#include <sys/mman.h>
#endif

G_BEGIN_DECLS

#ifdef __linux__
/* Advises the kernel of the whole pages of @page bytes (a power of two) within [@data,
 * @data + @size). */
static inline void
_dc_memory_advise (gpointer data, gsize size, guintptr page, int advice)
{
  guintptr start = ((guintptr) data + page - 1) & ~(page - 1);
  guintptr stop = ((guintptr) data + size) & ~(page - 1);

  if (stop > start)
    madvise ((gpointer) start, stop - start, advice);
}
#endif

/* Faults in the whole pages within [@data, @data + @size). */
static inline void
_dc_memory_populate (gpointer data, gsize size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  /* An older kernel refuses (EINVAL): the pages then fault in one by one. */
  _dc_memory_advise (data, size, 4096, MADV_POPULATE_WRITE);
#endif
}

/* The most of one block asked to be huge pages: its first 64 MiB. Beyond that the kernel
 * is asked for hundreds of 2 MiB pages at once, and where it has not that many free
 * (defrag "madvise", the default, lets a fault in advised memory wait while it compacts
 * memory to make one), the faults cost more than the TLB misses they save: on a book of
 * 9 M glyphs (a 256 MiB glyph array), the session's first reply spent a median of 324 ms
 * in the kernel, up to 681, and 162 ms, at most 185, with the advice held to 64 MiB. A
 * book of 1.4 M glyphs (37 MiB) is advised whole, as before. */
#define DC_MEMORY_HUGE_MAX ((gsize) 64 << 20)

/* Asks for the whole 2 MiB pages within the first DC_MEMORY_HUGE_MAX bytes of [@data,
 * @data + @size) to be huge pages, before anything touches them (transparent huge pages,
 * where the system leaves them to madvise()). Only for memory that will be filled whole:
 * a huge page is given whole on first touch. A book's glyphs are read again and again
 * once loaded, in reading order, a jump each: with 4 KiB pages most jumps missed the TLB,
 * and the faults that fill the array are 512 times fewer. A system without them ignores
 * the advice. */
static inline void
_dc_memory_advise_huge (gpointer data, gsize size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  _dc_memory_advise (data, MIN (size, DC_MEMORY_HUGE_MAX), 2u << 20, MADV_HUGEPAGE);
#endif
}

/* Gives the whole pages within [@data, @data + @size) back to the kernel: what they held
 * is not needed any more, and reads as zeros if touched again. Part of a block of the
 * heap may be given back so, never its edges, which the allocator may use. */
static inline void
_dc_memory_release (gpointer data, gsize size)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
  _dc_memory_advise (data, size, 4096, MADV_DONTNEED);
#endif
}

void _dc_memory_expect_pages (guint n_pages);

G_END_DECLS
