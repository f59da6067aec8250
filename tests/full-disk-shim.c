/* full-disk-shim.c: an LD_PRELOAD library that makes a folder's disk fill up on demand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A full disk cannot be made portably in a test (a small tmpfs needs mount rights, which
 * neither a developer nor every CI container has), so the test's process sees one:
 * writes to files under $DECIPHER_TEST_FULL_DIR take bytes from a budget kept as a
 * decimal number in the file $DECIPHER_TEST_FREE_BYTES, and fail with ENOSPC once it is
 * spent. A write that needs more than is left writes what is left, as a real disk does,
 * and the next one fails. The test changes the file between requests to fill the disk
 * or make room; the budget is shared by every process that loads the shim.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*WriteFunc) (int fd, const void *buffer, size_t length);
typedef int (*FallocateFunc) (int fd, int mode, off_t offset, off_t length);

static WriteFunc real_write;

/* Whether @fd is a file under the folder whose disk is watched. */
static int
watched (int fd)
{
  const char *folder = getenv ("DECIPHER_TEST_FULL_DIR");
  char link[64], target[PATH_MAX];
  ssize_t n;

  if (folder == NULL || *folder == '\0')
    return 0;
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink (link, target, sizeof target - 1);
  if (n <= 0)
    return 0;
  target[n] = '\0';
  return strncmp (target, folder, strlen (folder)) == 0 && target[strlen (folder)] == '/';
}

/* Takes up to @wanted bytes from the budget; returns how many were granted. The budget
 * file is read and written with the real write, not through the shim. */
static long long
take (long long wanted)
{
  const char *budget_path = getenv ("DECIPHER_TEST_FREE_BYTES");
  char text[32] = { 0 };
  long long free_bytes, granted;
  int fd;
  ssize_t n;

  if (budget_path == NULL)
    return wanted;
  fd = open (budget_path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return wanted;
  n = pread (fd, text, sizeof text - 1, 0);
  free_bytes = n > 0 ? atoll (text) : 0;
  granted = wanted < free_bytes ? wanted : free_bytes;
  n = snprintf (text, sizeof text, "%lld\n", free_bytes - granted);
  if (ftruncate (fd, 0) != 0 || pwrite (fd, text, (size_t) n, 0) != n)
    granted = wanted;
  close (fd);
  return granted;
}

ssize_t
write (int fd, const void *buffer, size_t length)
{
  long long granted;

  if (real_write == NULL)
    real_write = (WriteFunc) dlsym (RTLD_NEXT, "write");
  if (length == 0 || !watched (fd))
    return real_write (fd, buffer, length);
  granted = take ((long long) length);
  if (granted == 0)
    {
      errno = ENOSPC;
      return -1;
    }
  return real_write (fd, buffer, (size_t) granted);
}

/* GLib reserves a file's space before writing it (g_file_set_contents_full()). */
int
fallocate (int fd, int mode, off_t offset, off_t length)
{
  static FallocateFunc real_fallocate;

  if (real_fallocate == NULL)
    real_fallocate = (FallocateFunc) dlsym (RTLD_NEXT, "fallocate");
  if (watched (fd))
    {
      const char *budget_path = getenv ("DECIPHER_TEST_FREE_BYTES");
      char text[32] = { 0 };
      int budget = budget_path != NULL ? open (budget_path, O_RDONLY | O_CLOEXEC) : -1;

      if (budget >= 0)
        {
          ssize_t n = pread (budget, text, sizeof text - 1, 0);

          close (budget);
          if (n > 0 && atoll (text) < (long long) length)
            {
              errno = ENOSPC;
              return -1;
            }
        }
    }
  return real_fallocate (fd, mode, offset, length);
}
