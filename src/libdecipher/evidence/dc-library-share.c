/* dc-library-share.c: the font library as a file a team shares (export, import)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/font-library.md, "Sharing". An export is a new file renamed into place, and only
 * where nothing of value is replaced (issue 33: it replaced the PDF, a project, a pipe
 * and /dev/null); an import reads another user's file with the distrust of any library.
 */

#define G_LOG_DOMAIN "dc-library"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-library-private.h"

/* The first bytes of every SQLite file, its terminating NUL included. */
#define SQLITE_SIGNATURE "SQLite format 3"

static gboolean
is_empty_file (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 && S_ISREG (st.st_mode) && st.st_size == 0;
}

/* Whether @path is an earlier export (or another library of ours), which an export may
 * replace; read only, with the same distrust as any library. */
static gboolean
is_library_file (DcLibrary *self, const char *path)
{
  g_autoptr (DcLibrary) other = NULL;
  gboolean empty, newer, ok;

  if (!_dc_file_has_prefix (path, SQLITE_SIGNATURE, sizeof SQLITE_SIGNATURE))
    return FALSE;
  other = g_object_new (DC_TYPE_LIBRARY, NULL);
  other->path = g_strdup (path);
  if (sqlite3_open_v2 (path, &other->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL)
      != SQLITE_OK)
    return FALSE;
  _dc_library_distrust (other);
  _dc_library_begin (other);
  ok = _dc_library_check_format (other->db, "main", &empty, &newer);
  return ok && !empty;
}

/**
 * dc_library_export:
 * @path: the file to write: an SQLite file another user can import
 *
 * It appears whole or not at all.
 */
gboolean
dc_library_export (DcLibrary *self, const char *path, GError **error)
{
  g_autofree char *temp = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (DC_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  _dc_library_begin (self);

  /* The export renames a new file over @path: only a new name, an empty file or an
   * earlier export may be there (issue 33: it replaced the PDF, a project, a FIFO and
   * /dev/null). */
  if (!_dc_file_may_write (path, NULL, "library-export.sqlite", error))
    return FALSE;
  if (_dc_file_same (path, self->path))
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is the font library itself; give another file to export it to, "
                     "such as “%s”."),
                      display, "library-export.sqlite");
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_EXISTS) && !is_empty_file (path)
      && !is_library_file (self, path))
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” already exists and is not a Decipher font library (it may be a "
                     "document, a project or another database); exporting would replace it. "
                     "Choose another file name."),
                      display);
      return FALSE;
    }

  temp = g_strdup_printf ("%s.%08x.tmp", path, g_random_int ());
  if (sqlite3_prepare_v2 (self->db, "VACUUM INTO ?1", -1, &stmt, NULL) != SQLITE_OK)
    {
      _dc_library_set_sqlite_error (error, self->db, path, _("exported"));
      return FALSE;
    }
  sqlite3_bind_text (stmt, 1, temp, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      _dc_library_set_sqlite_error (error, self->db, path, _("exported"));
      g_unlink (temp);
      return FALSE;
    }
  if (g_rename (temp, path) != 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (path);

      g_unlink (temp);
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("The font library could not be exported to “%s”: %s."), display,
                      g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/**
 * dc_library_import:
 * @path: a library exported by dc_library_export() (or another user's library file)
 * @n_imported: (out) (optional): how many entries were new or changed
 *
 * Merges @path into this library: a shape and value both hold keeps the larger count
 * of uses, so importing the same file twice changes nothing.
 */
gboolean
dc_library_import (DcLibrary *self, const char *path, guint *n_imported, GError **error)
{
  g_autofree char *display = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean empty, newer, ok;
  int rc;

  g_return_val_if_fail (DC_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  _dc_library_begin (self);

  display = g_filename_display_name (path);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                   _("“%s” does not exist or is not a file. Give a font library to import."),
                      display);
      return FALSE;
    }
  if (sqlite3_prepare_v2 (self->db, "ATTACH DATABASE ?1 AS other", -1, &stmt, NULL) != SQLITE_OK)
    {
      _dc_library_set_sqlite_error (error, self->db, path, _("read"));
      return FALSE;
    }
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      _dc_library_set_sqlite_error (error, self->db, path, _("read"));
      return FALSE;
    }

  ok = _dc_library_check_format (self->db, "other", &empty, &newer) && !empty;
  if (!ok && sqlite3_errcode (self->db) == SQLITE_INTERRUPT)
    _dc_library_set_sqlite_error (error, self->db, path, _("read"));
  else if (!ok)
    _dc_library_set_not_a_library (error, path, newer,
                                   _("Give a file exported from Decipher's font library."));
  else
    {
      ok = _dc_library_exec (
          self,
          "INSERT INTO glyphs (fingerprint, value, script, language, coarse, font, uses, "
          "updated) SELECT fingerprint, value, script, language, coarse, font, uses, "
          "updated FROM other.glyphs WHERE typeof (fingerprint) = 'blob' "
          "AND length (fingerprint) = 16 AND typeof (coarse) = 'blob' "
          "AND length (coarse) = 256 AND typeof (value) = 'text' AND true "
          "ON CONFLICT (fingerprint, value) DO UPDATE SET "
          "uses = max (uses, excluded.uses), updated = max (updated, excluded.updated) "
          "WHERE excluded.uses > uses",
          error);
      if (ok && n_imported != NULL)
        *n_imported = (guint) sqlite3_changes (self->db);
    }
  sqlite3_exec (self->db, "DETACH DATABASE other", NULL, NULL, NULL);
  return ok;
}
