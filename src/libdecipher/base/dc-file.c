/* dc-file.c: opening and replacing files a hostile folder may have prepared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Projects, journals and repaired copies often live in shared folders such as /tmp, where
 * someone else may have put a symbolic link or a device node under the expected name: a
 * journal link to a victim's file was truncated, a save as root replaced /dev/null. So
 * every file Decipher writes or reads back as its own is opened without following a link
 * (O_NOFOLLOW) and must be a regular file; what is in the way is refused with a sentence,
 * never written through. (issue 11; docs/project-format.md)
 */

#define G_LOG_DOMAIN "dc-file"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-file.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/* What stands at @path, for a sentence: NULL for a regular file. */
static const char *
describe_non_regular (mode_t mode)
{
  if (S_ISREG (mode))
    return NULL;
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISLNK (mode))
    return _("a symbolic link");
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return _("a device");
  if (S_ISFIFO (mode))
    return _("a pipe");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("not a regular file");
}

/* A sentence starting "It is…", for a caller that has named the file already. */
static void
set_not_regular_reason (GError **error, mode_t mode)
{
  if (S_ISLNK (mode))
    g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                         _("It is a symbolic link, which Decipher does not follow to its "
                           "files: give the path of the file itself."));
  else
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("It is %s, not a file."), describe_non_regular (mode));
}

static void
set_not_regular (GError **error, const char *path, mode_t mode, const char *example)
{
  g_autofree char *display = g_filename_display_name (path);

  if (S_ISLNK (mode))
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("“%s” is a symbolic link; Decipher does not write or read its files "
                   "through links. Give the path of the file itself."),
                    display);
  else
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("“%s” is %s, not a regular file; give a file name such as “%s”."), display,
                    describe_non_regular (mode), example);
}

/*
 * Whether @path may be replaced by a file: it does not exist yet, or it is a regular file
 * (not a folder, link, device, pipe or socket, which a save would replace or write
 * through). @example names a file of the kind expected, for the sentence.
 */
gboolean
_dc_file_check_target (const char *path, const char *example, GError **error)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE; /* a missing folder or a denied one: the write itself says so */
  set_not_regular (error, path, st.st_mode, example);
  return FALSE;
}

/* Whether @a and @b are the same file (hard links and other spellings included). */
gboolean
_dc_file_same (const char *a, const char *b)
{
  GStatBuf sa, sb;

  if (g_stat (a, &sa) != 0 || g_stat (b, &sb) != 0)
    return FALSE;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Whether @path is named as one of the files Decipher keeps beside a project: its journal
 * (PROJECT.journal) or its lock (PROJECT.lock). Written over, a journal no longer reads
 * and the project with it will not open; a lock replaced by a rename excludes nobody.
 */
gboolean
_dc_file_is_bookkeeping (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_str_has_suffix (base, ".journal") || g_str_has_suffix (base, ".lock");
}

/*
 * The one rule every writer of a file the user named follows (issue 33): @path may be
 * written when nothing is there yet, or a regular file that is neither the document being
 * read (@document_path, nullable) nor a project's journal or lock. A link (dangling or
 * not), a device, a pipe or a folder is refused: the rename that writes a file would
 * replace it, or a write would go through it. Whether an existing file of another kind may
 * be replaced is the writer's own question (a PDF for repair, a library for export).
 * @example names a file of the expected kind for the sentence.
 */
gboolean
_dc_file_may_write (const char *path, const char *document_path, const char *example,
                    GError **error)
{
  g_autofree char *display = NULL;

  if (!_dc_file_check_target (path, example, error))
    return FALSE;
  display = g_filename_display_name (path);
  if (document_path != NULL && _dc_file_same (path, document_path))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is the document itself; writing there would replace the PDF. Give "
                     "a file name such as “%s”."),
                      display, example);
      return FALSE;
    }
  if (_dc_file_is_bookkeeping (path))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is named as the journal or lock Decipher keeps beside a project; "
                     "writing there would break that project. Give a file name such as "
                     "“%s”."),
                      display, example);
      return FALSE;
    }
  return TRUE;
}

/* Whether the regular file @path begins with the @length bytes of @prefix (a format's
 * signature); FALSE when it cannot be read. */
gboolean
_dc_file_has_prefix (const char *path, const char *prefix, gsize length)
{
  char buffer[64];
  gssize got;
  int fd;

  g_return_val_if_fail (length <= sizeof buffer, FALSE);
  if ((fd = _dc_file_open_regular (path, O_RDONLY, 0, NULL)) < 0)
    return FALSE;
  got = pread (fd, buffer, length, 0);
  close (fd);
  return got == (gssize) length && memcmp (buffer, prefix, length) == 0;
}

/*
 * open(2) of a regular file, never through a symbolic link; a device or pipe is refused
 * before anything is read from or written to it (O_NONBLOCK keeps a FIFO from blocking
 * the open). Returns the descriptor, or -1 with @error set: G_FILE_ERROR for what the
 * system refused, DC_ERROR_INVALID_INPUT with a sentence "It is a symbolic link…" for
 * what is in the way (the caller names the file).
 */
int
_dc_file_open_regular (const char *path, int flags, int mode, GError **error)
{
  struct stat st;
  int fd, saved_errno;

  fd = g_open (path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, mode);
  if (fd < 0)
    {
      GStatBuf lst;

      saved_errno = errno;
      /* ELOOP (or EMLINK on some systems) is how O_NOFOLLOW says "a link". */
      if ((saved_errno == ELOOP || saved_errno == EMLINK) && g_lstat (path, &lst) == 0)
        set_not_regular_reason (error, lst.st_mode);
      else
        g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                             g_strerror (saved_errno));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      saved_errno = errno;
      if (!S_ISREG (st.st_mode))
        set_not_regular_reason (error, st.st_mode);
      else
        g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                             g_strerror (saved_errno));
      close (fd);
      return -1;
    }
  /* Blocking again: a regular file never blocks, and later writes must not see EAGAIN. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/*
 * Reads a whole regular file, not through a link, of at most @max_length bytes. A longer
 * file gives G_FILE_ERROR_FBIG; g_file_get_contents() would read a 10 GB file whole (or a
 * device forever).
 */
gboolean
_dc_file_read_regular (const char *path, gsize max_length, char **data, gsize *length,
                       GError **error)
{
  g_autofree char *buffer = NULL;
  struct stat st;
  gsize size, done = 0;
  int fd;

  *data = NULL;
  *length = 0;
  if ((fd = _dc_file_open_regular (path, O_RDONLY, 0, error)) < 0)
    return FALSE;
  if (fstat (fd, &st) != 0 || (guint64) st.st_size > max_length)
    {
      int saved_errno = errno;

      close (fd);
      if ((guint64) st.st_size > max_length)
        g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                             _("It is far larger than any file Decipher writes."));
      else
        g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                             g_strerror (saved_errno));
      return FALSE;
    }
  size = (gsize) st.st_size;
  buffer = g_try_malloc (size + 1);
  if (buffer == NULL)
    {
      close (fd);
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, g_strerror (ENOMEM));
      return FALSE;
    }
  while (done < size)
    {
      gssize n = read (fd, buffer + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                               g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        break; /* it shrank meanwhile: what is there is what it holds */
      done += (gsize) n;
    }
  close (fd);
  buffer[done] = '\0';
  *data = g_steal_pointer (&buffer);
  *length = done;
  return TRUE;
}

/**
 * dc_file_may_write:
 * @document_path: (nullable): the document being read, never to be written
 * @example: a file of the expected kind, named in the sentence
 *
 * Whether a front end may write @path, a file the user named (see _dc_file_may_write():
 * nothing there yet, or a regular file that is neither the document nor a journal or
 * lock). Refused with a sentence in @error.
 */
gboolean
dc_file_may_write (const char *path, const char *document_path, const char *example, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (example != NULL, FALSE);

  return _dc_file_may_write (path, document_path, example, error);
}

/* Reads the decimal number at *@p (as "%" G_GINT64_FORMAT or "%09ld" print it, maybe with
 * a minus and leading zeros) and moves past it. g_ascii_strtoll() costs ~250 instructions
 * a number, and the stamps hold three for each of some 730 files: 0.55 M instructions of
 * a one-page `text` (issue 32). The digits are summed without a check each: up to 19 of
 * them (leading zeros aside) stay below 2^64, and more are beyond gint64 anyway. FALSE
 * for no digits or a number beyond gint64. */
static gboolean
read_number (const char **p, const char *end, gint64 *value)
{
  const char *s = *p, *digits, *significant;
  gboolean negative = s < end && *s == '-';
  guint64 n = 0;

  if (negative)
    s++;
  for (digits = s; s < end && *s == '0'; s++)
    ;
  for (significant = s; s < end && (guint) (*s - '0') < 10; s++)
    n = n * 10 + (guint64) (*s - '0');
  if (s == digits || s - significant > 19 || n > (guint64) G_MAXINT64 + (negative ? 1 : 0))
    return FALSE;
  *value = negative ? (gint64) (0 - n) : (gint64) n;
  *p = s;
  return TRUE;
}

/**
 * _dc_file_state_matches:
 * @path: a file
 * @recorded: its size and time as a stamp recorded them ("SIZE SECONDS.NANOSECONDS"), or
 *   "-" for a file that was missing
 * @end: where @recorded ends
 *
 * Whether the file at @path is as @recorded says. The caches' stamps (the installed
 * fonts', the language models') check hundreds of files at every start: each is read
 * back rather than printed anew.
 */
gboolean
_dc_file_state_matches (const char *path, const char *recorded, const char *end)
{
  struct stat buf;
  const char *next = recorded;
  gint64 size, seconds, nanoseconds;

  if (stat (path, &buf) != 0)
    return end - recorded == 1 && recorded[0] == '-';
  return read_number (&next, end, &size) && size == (gint64) buf.st_size && next < end
         && *next++ == ' ' && read_number (&next, end, &seconds)
         && seconds == (gint64) buf.st_mtim.tv_sec && next < end && *next++ == '.'
         && read_number (&next, end, &nanoseconds) && nanoseconds == (gint64) buf.st_mtim.tv_nsec
         && next == end;
}
