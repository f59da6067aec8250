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
#include "dc-parallel-private.h"

/* After <glib.h>, whose headers say which C library this is. */
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Blocks this large or larger are mappings of their own (glibc's default threshold moves
 * between 128 KiB and 32 MiB as blocks are freed; setting the pad below fixes it). */
#define OWN_MAPPING_FROM ((int) (32 << 20))

static gint wanted;

/**
 * dc_memory_prefer_huge_pages:
 *
 * Says that this process loads documents on its main thread and would have the main
 * heap in 2 MiB pages for a book (_dc_memory_expect_pages()): where the kernel's
 * transparent huge pages are left to madvise(), the default of Debian, Ubuntu and Fedora
 * ("always" gives them anyway, "never" none). A front end calls it first thing in main():
 * on the 819-page varied book `decipher-cli session` then took 3,000 page faults to its
 * first reply rather than 8,700, and 15 % less CPU; a 30-page `text` 9 % less.
 */
void
dc_memory_prefer_huge_pages (void)
{
  g_atomic_int_set (&wanted, TRUE);
}

/* Only the main thread's blocks come from the heap: another's come from its own arena (a
 * collection's workers), which growing the heap would not advise. */
static gboolean
on_main_thread (void)
{
#if defined(__GLIBC__) && defined(__linux__)
  return (pid_t) syscall (SYS_gettid) == getpid ();
#else
  return FALSE;
#endif
}

/* Grows the main heap by DC_MEMORY_HUGE_MAX at once, advised, and keeps that much at its
 * top rather than give it back, so that what it frees is reused in the same pages. */
static void
grow_huge_heap (void)
{
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE)
  char *start, *end;
  gpointer block;

  /* Blocks up to 32 MiB come from the heap, in its huge pages, rather than each a mapping
   * faulted in anew 4 KiB at a time, again each time it is made. */
  mallopt (M_MMAP_THRESHOLD, OWN_MAPPING_FROM);
  /* The heap grows by that much at once, and keeps it: trimmed, it would grow back in
   * memory not advised. */
  mallopt (M_TOP_PAD, (int) DC_MEMORY_HUGE_MAX);
  start = sbrk (0);
  /* Never touched: only to make the heap grow now, by the pad, so it can be advised.
   * Where sbrk() fails and glibc maps memory instead, the heap stays as it is. */
  block = g_malloc (1 << 20);
  end = sbrk (0);
  g_free (block);
  if (start != (char *) -1 && end > start)
    _dc_memory_advise_huge (start, (gsize) (end - start));
#endif
}

/**
 * _dc_memory_expect_pages:
 * @n_pages: the pages of a document about to be loaded
 *
 * Where the front end prefers huge pages and @n_pages make a book (DC_PARALLEL_MIN_PAGES,
 * whose loading fills the heap with megabytes), has the main heap in huge pages from now
 * on. A shorter document is left in 4 KiB pages: a one-page `text` touches a few
 * megabytes, and zeroing a 2 MiB page on its first touch cost it 2.6 % more CPU than the
 * faults it saved.
 */
void
_dc_memory_expect_pages (guint n_pages)
{
  static gsize done = 0;

  if (n_pages < DC_PARALLEL_MIN_PAGES || !g_atomic_int_get (&wanted) || !on_main_thread ())
    return;
  if (g_once_init_enter (&done))
    {
      grow_huge_heap ();
      g_once_init_leave (&done, 1);
    }
}
