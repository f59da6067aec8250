/* dc-library.c: the user's font library (DESIGN §8)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An SQLite file, ~/.local/share/decipher/library.sqlite by default, mapping glyph
 * fingerprints (dc-fingerprint.h) to the values the user decided for them: typed
 * matches, assignments, accepted proposals. A document whose glyphs are in it opens
 * decoded, whatever subset, encoding or codes its fonts use. Several sessions may share
 * the file (SQLite's locking, WAL so that readers do not wait); a team shares it with
 * dc_library_export() and dc_library_import(). docs/font-library.md describes the file.
 *
 * One shape may be in the library with several values: a Latin "a" and a Cyrillic "а"
 * are drawn alike. Each row keeps the script of its value, and a document asks for the
 * value in the script its font is otherwise read in.
 */

#define G_LOG_DOMAIN "dc-library"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-library.h"
#include "dc-library-private.h"
#include "dc-tsan-private.h"

#define LIBRARY_FORMAT "decipher-font-library"
/* Version 2 keeps the level and confidence each value was decided at (issue 28); version 1
 * files are migrated when opened (_dc_library_migrate()) and read when imported. */
#define LIBRARY_VERSION "2"

/* How long one call may keep SQLite busy before the library is given up on: a lookup
 * takes microseconds, an import of a team's library a few seconds. */
#define LIBRARY_PATIENCE_USEC (30 * G_USEC_PER_SEC)
/* Every this many virtual machine steps SQLite asks whether to go on. */
#define PROGRESS_STEPS 10000

G_DEFINE_FINAL_TYPE (DcLibrary, dc_library, G_TYPE_OBJECT)

static void
dc_library_finalize (GObject *object)
{
  DcLibrary *self = DC_LIBRARY (object);

  if (self->lookup != NULL)
    sqlite3_finalize (self->lookup);
  g_mutex_clear (&self->lookup_lock);
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_free (self->path);

  G_OBJECT_CLASS (dc_library_parent_class)->finalize (object);
}

static void
dc_library_class_init (DcLibraryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dc_library_finalize;
}

static void
dc_library_init (DcLibrary *self)
{
  self->patience = LIBRARY_PATIENCE_USEC;
  g_mutex_init (&self->lookup_lock);
}

/* The library is a file anyone may have handed over (an import, a shared folder): a view
 * or a query that never ends must not hang every command that reads it (issue 33). */
static int
progress_cb (void *data)
{
  DcLibrary *self = data;

  if (!self->gave_up && g_get_monotonic_time () > self->deadline)
    self->gave_up = TRUE;
  return self->gave_up;
}

/* Every public call starts its own time allowance. */
void
_dc_library_begin (DcLibrary *self)
{
  self->deadline = g_get_monotonic_time () + self->patience;
}

/* A shorter allowance, for tests/test-library.c to see a library given up on without
 * waiting for it. */
void
_dc_library_set_patience (DcLibrary *self, gint64 usec)
{
  self->patience = usec;
}

/* Where the library is kept when the user names none. */
char *
dc_library_get_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "decipher", "library.sqlite", NULL);
}

void
_dc_library_set_sqlite_error (GError **error, sqlite3 *db, const char *path, const char *what)
{
  g_autofree char *display = g_filename_display_name (path);
  int code = db != NULL ? sqlite3_errcode (db) : SQLITE_ERROR;

  if (code == SQLITE_INTERRUPT)
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("The font library “%s” took far too long to answer; it may be damaged or "
                   "made to hang. Move it away, or give another with --library."),
                    display);
  else if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("“%s” is not a Decipher font library (or it is damaged). Give another file, "
                   "or move this one away."),
                    display);
  else if (code == SQLITE_FULL)
    g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                 _("The font library “%s” could not be written: the disk is full. Free some "
                   "space and try again."),
                    display);
  else
    g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                 _("The font library “%s” could not be %s: %s."), display, what,
                    db != NULL ? sqlite3_errmsg (db) : "");
}

gboolean
_dc_library_exec (DcLibrary *self, const char *sql, GError **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) == SQLITE_OK)
    return TRUE;
  _dc_library_set_sqlite_error (error, self->db, self->path, _("written"));
  return FALSE;
}

/* Whether the attached or main database @schema holds only what a library of ours holds:
 * the tables meta and glyphs and their own indexes, no view or trigger (which a query
 * would run), of our format and a version this Decipher reads. @newer: it is a library,
 * of a later version. */
gboolean
_dc_library_check_format (sqlite3 *db, const char *schema, gboolean *empty, gboolean *newer)
{
  g_autofree char *sql = g_strdup_printf (
      "SELECT count(*), coalesce (sum (NOT ((type = 'table' AND name IN ('meta', 'glyphs') "
      "AND sql LIKE 'CREATE TABLE %%') "
      "OR (type = 'index' AND name LIKE 'sqlite\\_autoindex\\_%%' ESCAPE '\\' "
      "AND tbl_name IN ('meta', 'glyphs')))), 0), "
      "coalesce (sum (type = 'table'), 0) FROM %s.sqlite_schema",
      schema);
  g_autofree char
      *meta = g_strdup_printf ("SELECT (SELECT value FROM %s.meta WHERE name = 'format'), "
                               "(SELECT value FROM %s.meta WHERE name = 'version')",
                               schema, schema);
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  gint64 n_entries = -1, n_foreign = -1, n_tables = -1;

  *empty = FALSE;
  *newer = FALSE;
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      n_entries = sqlite3_column_int64 (stmt, 0);
      n_foreign = sqlite3_column_int64 (stmt, 1);
      n_tables = sqlite3_column_int64 (stmt, 2);
    }
  sqlite3_finalize (stmt);
  if (n_entries == 0)
    {
      *empty = TRUE;
      return TRUE;
    }
  if (n_foreign != 0 || n_tables != 2)
    return FALSE;

  if (sqlite3_prepare_v2 (db, meta, -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  if (sqlite3_step (stmt) == SQLITE_ROW
      && g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), LIBRARY_FORMAT) == 0)
    {
      const char *version = (const char *) sqlite3_column_text (stmt, 1);

      ok = g_strcmp0 (version, LIBRARY_VERSION) == 0 || g_strcmp0 (version, "1") == 0;
      *newer = !ok && version != NULL && g_ascii_strtoull (version, NULL, 10) > 2;
    }
  sqlite3_finalize (stmt);
  return ok;
}

void
_dc_library_set_not_a_library (GError **error, const char *path, gboolean newer, const char *advice)
{
  g_autofree char *display = g_filename_display_name (path);

  if (newer)
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("The font library “%s” was made by a newer version of Decipher; this one "
                   "neither reads nor changes it. Use the newer version, or give another "
                   "file."),
                    display);
  else
    /* Translators: the second %s is advice, like “Give another file, or move this one
     * away.” */
    g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                 _("“%s” is not a Decipher font library (or it is damaged). %s"), display, advice);
}

/* A folder, device, pipe or link to nothing where the library should be: SQLite would
 * make its file through a dangling link, or write into a device. A link to a regular
 * file is the user's own arrangement and is followed. */
static gboolean
check_library_path (const char *path, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);
  gboolean linked;
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return TRUE;
  linked = S_ISLNK (st.st_mode);
  if (linked && g_stat (path, &st) != 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is a symbolic link to a file that does not exist; Decipher does not "
                     "make files through links. Give the path of the library itself."),
                      display);
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is a folder; give the font library's file, such as “%s”."), display,
                      "library.sqlite");
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is not a regular file; give the font library's file, such as "
                     "“%s”."),
                      display, "library.sqlite");
      return FALSE;
    }
  /* Followed, a link to an empty file would make a library of whatever file it is. */
  if (linked && st.st_size == 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is a symbolic link to an empty file, not to a font library; give "
                     "the path of the library itself."),
                      display);
      return FALSE;
    }
  if (_dc_file_is_bookkeeping (path))
    return _dc_file_may_write (path, NULL, "library.sqlite", error);
  return TRUE;
}

/* A file from anywhere: no schema code of its own runs, no view or trigger, no write
 * that corrupts it on purpose, and no statement runs for ever. */
void
_dc_library_distrust (DcLibrary *self)
{
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_progress_handler (self->db, PROGRESS_STEPS, progress_cb, self);
}

/**
 * dc_library_open:
 * @path: the library file; created (with its folder) when it does not exist
 *
 * Returns: (transfer full): the library, or %NULL with a sentence in @error
 */
DcLibrary *
dc_library_open (const char *path, GError **error)
{
  g_autoptr (DcLibrary) self = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *display = NULL;
  gboolean empty, newer;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);
  if (!check_library_path (path, error))
    return NULL;
  folder = g_path_get_dirname (path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("The folder of the font library “%s” could not be made: %s."), display,
                      g_strerror (saved));
      return NULL;
    }

  self = g_object_new (DC_TYPE_LIBRARY, NULL);
  self->path = g_strdup (path);
  if (sqlite3_open_v2 (path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
      != SQLITE_OK)
    {
      _dc_library_set_sqlite_error (error, self->db, path, _("opened"));
      return NULL;
    }
  sqlite3_busy_timeout (self->db, 5000);
  _dc_library_distrust (self);
  _dc_library_begin (self);

  if (!_dc_library_check_format (self->db, "main", &empty, &newer))
    {
      if (sqlite3_errcode (self->db) == SQLITE_INTERRUPT)
        _dc_library_set_sqlite_error (error, self->db, path, _("opened"));
      else
        _dc_library_set_not_a_library (error, path, newer,
                                       _("Give another file, or move this one away."));
      return NULL;
    }
  if (!_dc_library_exec (self, "PRAGMA journal_mode = WAL", error))
    return NULL;
  if (empty
      && !_dc_library_exec (self,
                            "BEGIN;"
                            "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT "
                            "NOT NULL);"
                            "CREATE TABLE IF NOT EXISTS glyphs ("
                            "  fingerprint BLOB NOT NULL,"
                            "  value TEXT NOT NULL,"
                            "  script TEXT,"
                            "  language TEXT,"
                            "  coarse BLOB NOT NULL,"
                            "  font TEXT,"
                            "  uses INTEGER NOT NULL,"
                            "  updated INTEGER NOT NULL,"
                            "  level TEXT,"
                            "  confidence REAL,"
                            "  PRIMARY KEY (fingerprint, value));"
                            "INSERT OR IGNORE INTO meta VALUES ('format', '" LIBRARY_FORMAT "'),"
                            "  ('version', '" LIBRARY_VERSION "');"
                            "COMMIT;",
                            error))
    return NULL;
  if (!empty && !_dc_library_migrate (self, LIBRARY_VERSION, error))
    return NULL;
  return g_steal_pointer (&self);
}

const char *
dc_library_get_path (DcLibrary *self)
{
  g_return_val_if_fail (DC_IS_LIBRARY (self), NULL);

  return self->path;
}

/* How many (shape, value) pairs the library holds. */
guint
dc_library_get_n_entries (DcLibrary *self)
{
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  g_return_val_if_fail (DC_IS_LIBRARY (self), 0);
  _dc_library_begin (self);

  if (sqlite3_prepare_v2 (self->db, "SELECT count(*) FROM glyphs", -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    n = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

/* The interned ISO 15924 code of each script asked for so far: the identity level asks for
 * the script of every candidate value of every shared outline, and formatting and
 * interning the code each time cost more than the look-up. Interned strings live for
 * good, so a slot written twice by two threads holds the same pointer either way. */
static const char *script_codes[256];

static const char *
script_code (GUnicodeScript script)
{
  const char *code_name;
  guint32 code;
  char name[5];

  if ((guint) script < G_N_ELEMENTS (script_codes)
      && (code_name = g_atomic_pointer_get (&script_codes[script])) != NULL)
    return code_name;
  code = g_unicode_script_to_iso15924 (script);
  name[0] = (char) (code >> 24);
  name[1] = (char) (code >> 16);
  name[2] = (char) (code >> 8);
  name[3] = (char) code;
  name[4] = '\0';
  code_name = g_intern_string (name);
  if ((guint) script < G_N_ELEMENTS (script_codes))
    g_atomic_pointer_set (&script_codes[script], code_name);
  return code_name;
}

/* ISO 15924 code of the first character of @value that belongs to a script, or NULL
 * (digits, punctuation, an empty value). Interned, so that callers may keep the pointer. */
const char *
dc_library_script_of_value (const char *value)
{
  if (value == NULL)
    return NULL;
  for (const char *p = value; *p; p = g_utf8_next_char (p))
    {
      GUnicodeScript script = g_unichar_get_script (g_utf8_get_char (p));

      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED
          || script == G_UNICODE_SCRIPT_UNKNOWN)
        continue;
      return script_code (script);
    }
  return NULL;
}

/**
 * dc_library_remember:
 * @value: what the user decided the glyph stands for ("" to ignore it)
 * @font_name: (nullable): the font it was decided in, for the record
 *
 * One more decision that @shape is @value, by the user's own word (level user, 1.0).
 */
gboolean
dc_library_remember (DcLibrary *self, const DcShape *shape, const char *value,
                     const char *font_name, GError **error)
{
  return dc_library_remember_full (self, shape, value, DC_KEY_LEVEL_USER, 1.0, font_name, error);
}

/**
 * dc_library_remember_full:
 * @level: the level of the evidence the value was decided on: %DC_KEY_LEVEL_USER for the
 *   user's own word, the proposal's level for an accepted proposal
 * @confidence: how sure that evidence was
 *
 * One more decision that @shape is @value. A row keeps the surest decision it had.
 */
gboolean
dc_library_remember_full (DcLibrary *self, const DcShape *shape, const char *value,
                          DcKeyLevel level, double confidence, const char *font_name,
                          GError **error)
{
  sqlite3_stmt *stmt = NULL;
  const char *script;
  int rc;

  g_return_val_if_fail (DC_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (shape != NULL && value != NULL, FALSE);
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, FALSE);
  _dc_library_begin (self);

  /* In an upsert's SET every column names the row as it was. */
  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO glyphs (fingerprint, value, script, coarse, font, uses, "
                          "updated, level, confidence) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8) "
                          "ON CONFLICT (fingerprint, value) DO UPDATE SET uses = uses + 1, "
                          "updated = excluded.updated, coarse = excluded.coarse, "
                          "level = iif (ifnull (confidence, -1) < excluded.confidence, "
                          "excluded.level, level), "
                          "confidence = max (ifnull (confidence, -1), excluded.confidence)",
                          -1, &stmt, NULL)
      != SQLITE_OK)
    {
      _dc_library_set_sqlite_error (error, self->db, self->path, _("written"));
      return FALSE;
    }
  script = dc_library_script_of_value (value);
  sqlite3_bind_blob (stmt, 1, shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, value, -1, SQLITE_STATIC);
  if (script != NULL)
    sqlite3_bind_text (stmt, 3, script, -1, SQLITE_STATIC);
  sqlite3_bind_blob (stmt, 4, shape->coarse, DC_SHAPE_COARSE_LEN, SQLITE_STATIC);
  if (font_name != NULL)
    sqlite3_bind_text (stmt, 5, font_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 6, g_get_real_time () / G_USEC_PER_SEC);
  sqlite3_bind_text (stmt, 7, dc_key_level_to_string (level), -1, SQLITE_STATIC);
  sqlite3_bind_double (stmt, 8, CLAMP (confidence, 0, 1));
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      _dc_library_set_sqlite_error (error, self->db, self->path, _("written"));
      return FALSE;
    }
  return TRUE;
}

/* Takes back one decision that @shape is @value (an undone step). */
gboolean
dc_library_forget (DcLibrary *self, const DcShape *shape, const char *value, GError **error)
{
  static const char *const statements[] = {
    "UPDATE glyphs SET uses = uses - 1 WHERE fingerprint = ?1 AND value = ?2",
    "DELETE FROM glyphs WHERE fingerprint = ?1 AND value = ?2 AND uses <= 0",
  };

  g_return_val_if_fail (DC_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (shape != NULL && value != NULL, FALSE);
  _dc_library_begin (self);

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      sqlite3_stmt *stmt = NULL;
      int rc;

      if (sqlite3_prepare_v2 (self->db, statements[i], -1, &stmt, NULL) != SQLITE_OK)
        {
          _dc_library_set_sqlite_error (error, self->db, self->path, _("written"));
          return FALSE;
        }
      sqlite3_bind_blob (stmt, 1, shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, value, -1, SQLITE_STATIC);
      rc = sqlite3_step (stmt);
      sqlite3_finalize (stmt);
      if (rc != SQLITE_DONE)
        {
          _dc_library_set_sqlite_error (error, self->db, self->path, _("written"));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * dc_library_lookup:
 * @script: (nullable): the ISO 15924 script the document is read in, to choose between
 *   values of shapes several scripts share
 *
 * Returns: (transfer full) (nullable): what @shape was decided to be, or %NULL
 */
/* How sure a row's decision was: a row of a version 1 library (no confidence) was
 * never said to be sure, and counts as a proposal at the library's confidence (-1). */
static void
row_decided (sqlite3_stmt *stmt, int column, DcKeyLevel *level, double *confidence)
{
  const char *name = (const char *) sqlite3_column_text (stmt, column);

  if (sqlite3_column_type (stmt, column + 1) == SQLITE_NULL || name == NULL
      || !dc_key_level_from_string (name, level))
    {
      *level = DC_KEY_LEVEL_LIBRARY;
      *confidence = -1;
      return;
    }
  *confidence = CLAMP (sqlite3_column_double (stmt, column + 1), 0, 1);
}

/**
 * _dc_library_is_certain:
 * @level: the level a stored value was decided at
 * @confidence: how sure that was, -1 when a version 1 library did not say
 *
 * Whether a stored value replays at the library level, by itself: the user's own word
 * (typed, assigned), or a value as sure as what its level applies without the user
 * (dc_key_level_applies_automatically()). A proposal the user accepted is only as good
 * as the proposal was, and replays as one (issue 28): its confidence, not a threshold on
 * it, cannot tell, since levels that apply by themselves state confidences up to 1.
 */
gboolean
_dc_library_is_certain (DcKeyLevel level, double confidence)
{
  if (confidence < 0)
    return FALSE;
  if (level == DC_KEY_LEVEL_USER)
    return TRUE;
  return dc_key_level_applies_automatically (level)
         && confidence >= dc_key_level_get_default_confidence (level);
}

/* The user's own decisions come first, then the most used. */
char *
_dc_library_lookup (DcLibrary *self, const DcShape *shape, const char *script, gboolean *ambiguous,
                    DcKeyLevel *level, double *confidence)
{
  sqlite3_stmt *stmt;
  char *best = NULL;
  const char *first_script = NULL;
  guint n_rows = 0;

  DC_MUTEX_LOCK (&self->lookup_lock);
  if (self->lookup == NULL
      && sqlite3_prepare_v3 (self->db,
                             "SELECT value, script, level, confidence FROM glyphs "
                             "WHERE fingerprint = ?1 "
                             "ORDER BY ifnull (level = 'user', 0) DESC, uses DESC, updated DESC",
                             -1, SQLITE_PREPARE_PERSISTENT, &self->lookup, NULL)
             != SQLITE_OK)
    {
      /* Not kept: the next lookup tries again. */
      sqlite3_finalize (self->lookup);
      self->lookup = NULL;
      DC_MUTEX_UNLOCK (&self->lookup_lock);
      return NULL;
    }
  stmt = self->lookup;
  for (guint attempt = 0; attempt < 2 && n_rows == 0; attempt++)
    {
      /* Nothing under the outline's points: a library filled before they were
       * fingerprinted keeps a moved outline where it was drawn (DcShape.moved). */
      if (attempt == 1 && !shape->moved)
        break;
      sqlite3_reset (stmt);
      sqlite3_bind_blob (stmt, 1, attempt == 0 ? shape->fingerprint : shape->drawn_fingerprint,
                         DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          const char *value = (const char *) sqlite3_column_text (stmt, 0);
          const char *row_script = (const char *) sqlite3_column_text (stmt, 1);

          if (n_rows++ == 0)
            {
              best = g_strdup (value);
              first_script = row_script != NULL ? g_intern_string (row_script) : NULL;
              row_decided (stmt, 2, level, confidence);
            }
          else if ((row_script != NULL ? g_intern_string (row_script) : NULL) != first_script)
            *ambiguous = TRUE;
          if (script != NULL && g_strcmp0 (row_script, script) == 0)
            {
              g_free (best);
              best = g_strdup (value);
              row_decided (stmt, 2, level, confidence);
              break;
            }
        }
    }
  /* Reset, so that it holds no lock on the file between lookups. */
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  DC_MUTEX_UNLOCK (&self->lookup_lock);
  return best;
}

/* Whether the library holds @value for @shape. */
static gboolean
lookup_exact (DcLibrary *self, const DcShape *shape, const char *value)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found;

  if (sqlite3_prepare_v2 (self->db, "SELECT 1 FROM glyphs WHERE fingerprint = ?1 AND value = ?2",
                          -1, &stmt, NULL)
      != SQLITE_OK)
    return FALSE;
  sqlite3_bind_blob (stmt, 1, shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, value, -1, SQLITE_STATIC);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

char *
dc_library_lookup (DcLibrary *self, const DcShape *shape, const char *script)
{
  return dc_library_lookup_full (self, shape, script, NULL, NULL);
}

/**
 * dc_library_lookup_full:
 * @level: (out) (optional): the level the value was decided at
 * @confidence: (out) (optional): how sure that was; -1 for a value a version 1 library
 *   kept without saying
 *
 * Returns: (transfer full) (nullable): what @shape was decided to be, or %NULL
 */
char *
dc_library_lookup_full (DcLibrary *self, const DcShape *shape, const char *script,
                        DcKeyLevel *level, double *confidence)
{
  gboolean ambiguous = FALSE;
  DcKeyLevel row_level = DC_KEY_LEVEL_NONE;
  double row_confidence = 0;
  char *value;

  g_return_val_if_fail (DC_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (shape != NULL, NULL);
  _dc_library_begin (self);

  value = _dc_library_lookup (self, shape, script, &ambiguous, &row_level, &row_confidence);
  if (level != NULL)
    *level = row_level;
  if (confidence != NULL)
    *confidence = row_confidence;
  return value;
}

/* The evidence a user-level value was decided on: the user's own word, or the proposal
 * the user accepted ("accepted ocr: …", at the proposal's level and confidence). */
static void
decided_at (DcKey *key, guint symbol, DcKeyLevel *level, double *confidence)
{
  const char *provenance = dc_key_get_provenance (key, symbol);

  *confidence = 1.0;
  *level = DC_KEY_LEVEL_USER;
  if (provenance != NULL && g_str_has_prefix (provenance, "accepted "))
    {
      provenance += strlen ("accepted ");
      if (g_str_has_prefix (provenance, "unreviewed "))
        provenance += strlen ("unreviewed ");
      *level = dc_key_level_for_status (DC_KEY_PROPOSED, provenance);
      *confidence = dc_key_get_confidence (key, symbol);
    }
}

/**
 * dc_library_learn:
 * @learned: per symbol of @key's document, the value last learned from it (owned
 *   strings, %NULL for none); updated
 * @first: the values held now were learned in an earlier session: record them only if
 *   the library does not have them, without counting them again
 *
 * Records every value the user decided (level user: typed, assigned, accepted) that
 * changed since @learned, and takes back those that were undone, in one transaction.
 * Each keeps how sure it was decided: an accepted proposal less sure than the library is
 * recorded at the proposal's level and confidence (dc_library_apply() proposes it again).
 */
gboolean
dc_library_learn (DcLibrary *self, DcShapes *shapes, DcKey *key, char **learned, gboolean first,
                  GError **error)
{
  DcDocument *document;
  const DcSymbol *symbols;
  guint n_symbols;
  gboolean began = FALSE;

  g_return_val_if_fail (DC_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (shapes != NULL && learned != NULL, FALSE);
  g_return_val_if_fail (DC_IS_KEY (key), FALSE);
  _dc_library_begin (self);

  document = dc_key_get_document (key);
  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      /* Its coarse grid only once something is remembered (dc_shapes_get_identity()). */
      const DcShape *shape = dc_shapes_get_identity (shapes, s);
      const char *now = NULL;
      DcFont *font;

      if (shape == NULL)
        continue;
      if (dc_key_get_level (key, s) == DC_KEY_LEVEL_USER)
        now = dc_key_get_value (key, s);
      if (g_strcmp0 (now, learned[s]) == 0)
        continue;
      if (!began)
        {
          if (!_dc_library_exec (self, "BEGIN IMMEDIATE", error))
            return FALSE;
          began = TRUE;
        }
      font = dc_document_get_font (document, symbols[s].font);
      if (learned[s] != NULL && !dc_library_forget (self, shape, learned[s], error))
        goto failed;
      if (now != NULL)
        {
          DcKeyLevel level;
          double confidence;

          decided_at (key, s, &level, &confidence);
          if (first && lookup_exact (self, shape, now))
            ;
          else if (!dc_library_remember_full (self, dc_shapes_get (shapes, s), now, level,
                                              confidence, dc_font_get_name (font), error))
            goto failed;
        }
      g_free (learned[s]);
      learned[s] = g_strdup (now);
    }
  if (began && !_dc_library_exec (self, "COMMIT", error))
    goto failed;
  return TRUE;

failed:
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}
