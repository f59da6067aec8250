/* dc-project-lock.c: one writer per project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two writers on one project (two sessions, a session and the window, two windows) each
 * save their own key over the other's and empty a journal the other is appending to, so
 * acknowledged decisions vanish. A writer therefore holds PROJECT.lock, locked with
 * flock(): the kernel drops the lock when its holder dies, even by kill -9, so a lock is
 * never stale, and flock() locks belong to an open file, so two opens in one process (the
 * same document in two windows) exclude each other too. The file is removed when its
 * holder lets go; a holder that died leaves it, and the next writer takes it over.
 * The lock file, not the project or its journal, because the project is replaced by a
 * rename at every save (a lock on it would stay with the old file) and the journal may be
 * moved aside with a damaged project. Described in docs/project-format.md.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-project.h"

/* What a holder writes in the file, so that the one refused can be told who holds it. */
#define MAX_HOLDER_BYTES 256

struct _DcProjectLock
{
  char *path;
  int fd; /* -1: the folder takes no lock (read-only, or no flock); nobody can write either */
  gboolean keep_file; /* another account's file, locked for reading: not ours to remove */
};

/* Whether a file can be made in @path's folder; a lock file that cannot be made where
 * nothing else can be either locks nothing that matters. */
static gboolean
folder_writable (const char *path)
{
  g_autofree char *folder = g_path_get_dirname (path);

  return g_access (folder, W_OK) == 0;
}

static char *
read_holder (int fd)
{
  char buffer[MAX_HOLDER_BYTES + 1];
  gssize got = pread (fd, buffer, MAX_HOLDER_BYTES, 0);

  if (got <= 0)
    return NULL;
  buffer[got] = '\0';
  g_strchomp (buffer);
  /* Written by another process: only a plain line is worth repeating. */
  for (char *c = buffer; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      return NULL;
  if (buffer[0] == '\0' || !g_utf8_validate (buffer, -1, NULL))
    return NULL;
  return g_strdup (buffer);
}

static void
write_holder (int fd, const char *holder)
{
  g_autofree char *line = g_strdup_printf ("%s, process %d\n", holder, (int) getpid ());

  /* Only a courtesy for the sentence another writer gets: a failure changes nothing. */
  if (ftruncate (fd, 0) == 0 && pwrite (fd, line, strlen (line), 0) < 0)
    g_debug ("Could not note the lock's holder: %s", g_strerror (errno));
}

/* Opens the lock file for locking. Returns its descriptor, or -1: with @error set, or
 * with *@no_lock set when the folder takes no lock (then nothing can be saved there
 * anyway). *@shared_file says the file is another account's, opened for reading only. */
static int
open_lock_file (const char *lock_path, const char *path, gboolean *shared_file, gboolean *no_lock,
                GError **error)
{
  GStatBuf named;
  int fd = g_open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  int open_errno = errno;
  g_autofree char *display = NULL;

  *shared_file = FALSE;
  *no_lock = FALSE;
  if (fd >= 0)
    return fd;
  if ((open_errno == EACCES || open_errno == EPERM) && g_lstat (lock_path, &named) == 0)
    {
      /* A lock file left by another account (or by root, or kept by protected_regular in
       * a shared sticky folder) cannot be written, but flock() takes a lock on a file
       * opened for reading just as well: the other writer is still excluded. */
      fd = g_open (lock_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0);
      if (fd >= 0)
        {
          *shared_file = TRUE;
          return fd;
        }
      display = g_filename_display_name (lock_path);
      g_set_error (error, DC_ERROR, DC_ERROR_IN_USE,
                   _("Cannot take the lock “%s” that keeps two programs from changing "
                     "the project at once: it belongs to another account. Remove it "
                     "(or ask its owner to) once no other program has the project "
                     "open."),
                      display);
      return -1;
    }
  /* Only a folder nothing can be written in (read-only, or not the user's) takes no
   * lock: nothing will be saved there, and the save says why. Anything else (a link, a
   * lock file in the way) is said now, since two writers would lose each other's work. */
  if (open_errno == EROFS
      || ((open_errno == EACCES || open_errno == EPERM) && !folder_writable (path)))
    {
      *no_lock = TRUE;
      return -1;
    }
  display = g_filename_display_name (lock_path);
  g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
               _("Cannot take the lock “%s” that keeps two programs from changing "
                 "the project at once: %s"),
                  display, g_strerror (open_errno));
  return -1;
}

/* The sentence a second writer gets, naming the holder the lock file names. */
static void
set_in_use_error (int fd, const char *path, GError **error)
{
  g_autofree char *other = read_holder (fd);
  g_autofree char *display = g_filename_display_name (path);

  if (other != NULL)
    /* Translators: the second %s names the other program and its process, like
     * “decipher-cli session, process 1234”. */
    g_set_error (error, DC_ERROR, DC_ERROR_IN_USE,
                 _("The project “%s” is open in another program (%s). Close it there "
                   "first: two programs saving one project overwrite each other's "
                   "work."),
                    display, other);
  else
    g_set_error (error, DC_ERROR, DC_ERROR_IN_USE,
                 _("The project “%s” is open in another program. Close it there "
                   "first: two programs saving one project overwrite each other's "
                   "work."),
                    display);
}

static DcProjectLock *
new_lock (char *lock_path, int fd, gboolean keep_file)
{
  DcProjectLock *self = g_new0 (DcProjectLock, 1);

  self->path = lock_path;
  self->fd = fd;
  self->keep_file = keep_file;
  return self;
}

/**
 * dc_project_lock:
 * @path: a project file (it need not exist yet)
 * @holder: who takes the lock, as a user would name it (“decipher-cli session”,
 *   “the Decipher window”), for the sentence a second writer gets
 *
 * Makes the caller the only writer of @path until dc_project_unlock(): take it before
 * loading the project, so that what is loaded is what nobody else will change. When
 * another writer holds it, %DC_ERROR_IN_USE with a sentence naming @path and, when it is
 * known, who holds it. A folder that takes no lock (a read-only one, a file system
 * without locks) gives a lock that locks nothing: nobody can save there anyway, or
 * there is no way to tell.
 *
 * Returns: (transfer full): the lock, or %NULL with @error set
 */
DcProjectLock *
dc_project_lock (const char *path, const char *holder, GError **error)
{
  g_autofree char *lock_path = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (holder != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  lock_path = g_strconcat (path, ".lock", NULL);
  /* A few rounds: a holder that lets go removes the file between our open and our lock,
   * and a new one may be made in its place. */
  for (guint attempt = 0; attempt < 8; attempt++)
    {
      struct stat held;
      GStatBuf named;
      gboolean shared_file, no_lock;
      int fd = open_lock_file (lock_path, path, &shared_file, &no_lock, error);

      if (fd < 0 && no_lock)
        break;
      if (fd < 0)
        return NULL;
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int saved_errno = errno;

          if (saved_errno == EWOULDBLOCK)
            set_in_use_error (fd, path, error);
          g_close (fd, NULL);
          if (saved_errno == EINTR)
            continue;
          if (saved_errno == EWOULDBLOCK)
            return NULL;
          break; /* ENOLCK, EINVAL: a file system without locks. */
        }
      /* The file locked must still be the one the name leads to: a holder removes it
       * while it holds it, after which a lock on it excludes nobody. */
      if (fstat (fd, &held) != 0 || g_lstat (lock_path, &named) != 0 || held.st_dev != named.st_dev
          || held.st_ino != named.st_ino)
        {
          g_close (fd, NULL);
          continue;
        }
      if (!shared_file)
        write_holder (fd, holder);
      return new_lock (g_steal_pointer (&lock_path), fd, shared_file);
    }

  return new_lock (g_steal_pointer (&lock_path), -1, FALSE);
}

/**
 * dc_project_unlock:
 *
 * Lets another writer have the project: the lock file goes, then the lock.
 */
void
dc_project_unlock (DcProjectLock *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    {
      /* Removed while still held, so that nobody locks a file about to vanish. */
      if (!self->keep_file)
        g_unlink (self->path);
      g_close (self->fd, NULL);
    }
  g_free (self->path);
  g_free (self);
}
