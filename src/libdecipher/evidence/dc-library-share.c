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

/* Whether the table glyphs of @schema has a column @column. */
gboolean
_dc_library_has_column (sqlite3 *db, const char *schema, const char *column)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM pragma_table_info ('glyphs', ?1) WHERE name = ?2", -1,
                          &stmt, NULL)
      != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, schema, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, column, -1, SQLITE_STATIC);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

/* A version 1 library did not record how sure each value was: a value typed by the user
 * and an OCR reading accepted at 50 % look alike. Its rows get no level and no confidence,
 * and replay as proposals (dc_library_apply()) until the user confirms them again: a
 * guess must not come back as a certainty. One transaction: a library is old or new. */
gboolean
_dc_library_migrate (DcLibrary *self, const char *version, GError **error)
{
  g_autofree char *sql = NULL;

  if (_dc_library_has_column (self->db, "main", "confidence"))
    return TRUE;
  sql = g_strdup_printf ("BEGIN IMMEDIATE;"
                         "ALTER TABLE glyphs ADD COLUMN level TEXT;"
                         "ALTER TABLE glyphs ADD COLUMN confidence REAL;"
                         "INSERT OR REPLACE INTO meta VALUES ('version', '%s');"
                         "COMMIT;",
                         version);
  if (_dc_library_exec (self, sql, error))
    return TRUE;
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
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
      /* A confidence is taken only with a level of ours and as a number from 0 to 1. */
      const char *decided = _dc_library_has_column (self->db, "other", "confidence")
                                ? "iif (typeof (confidence) IN ('real', 'integer') AND confidence "
                                  "BETWEEN 0 AND 1 AND level IN ('guess', 'shape', 'identity', "
                                  "'layout', 'font', 'library', 'pdf', 'user'), level, NULL), "
                                  "iif (typeof (confidence) IN ('real', 'integer') AND confidence "
                                  "BETWEEN 0 AND 1 AND level IN ('guess', 'shape', 'identity', "
                                  "'layout', 'font', 'library', 'pdf', 'user'), confidence, NULL)"
                                : "NULL, NULL";
      /* A version 1 file says nothing of how sure its values were: they come in so. */
      g_autofree char *sql = g_strdup_printf (
          "INSERT INTO glyphs (fingerprint, value, script, language, coarse, font, uses, "
          "updated, level, confidence) SELECT fingerprint, value, script, language, coarse, "
          "font, uses, updated, %s "
          "FROM other.glyphs WHERE typeof (fingerprint) = 'blob' "
          "AND length (fingerprint) = 16 AND typeof (coarse) = 'blob' "
          "AND length (coarse) = 256 AND typeof (value) = 'text' AND true "
          "ON CONFLICT (fingerprint, value) DO UPDATE SET "
          "uses = max (uses, excluded.uses), updated = max (updated, excluded.updated), "
          "level = iif (ifnull (confidence, -1) < ifnull (excluded.confidence, -1), "
          "excluded.level, level), "
          "confidence = nullif (max (ifnull (confidence, -1), ifnull (excluded.confidence, -1)), "
          "-1) "
          "WHERE excluded.uses > uses OR ifnull (excluded.confidence, -1) > ifnull (confidence, "
          "-1)",
          decided);

      ok = _dc_library_exec (self, sql, error);
      if (ok && n_imported != NULL)
        *n_imported = (guint) sqlite3_changes (self->db);
    }
  sqlite3_exec (self->db, "DETACH DATABASE other", NULL, NULL, NULL);
  return ok;
}
