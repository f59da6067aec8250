/* dc-references.c: the installed fonts as references for glyph shapes (DESIGN §8)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Many legacy PDFs embed a subset of a font the user has installed, renamed and
 * re-encoded, with its names and cmap stripped: the outlines are still the installed
 * font's. This index maps the fingerprint of every glyph of every installed outline font
 * (fontconfig lists them) to the character the font's own cmap gives it; a glyph of a
 * PDF with the same outline is that character (level identity, applied automatically).
 * The index is an SQLite cache, ~/.cache/decipher/references.sqlite by default, built
 * once and rebuilt when the set of installed fonts changes (their files, sizes and
 * times). One outline may stand for several characters (Latin a and Cyrillic а in
 * DejaVu Sans): the script the font is otherwise read in chooses.
 *
 * This file keeps the index: built, updated and asked about one outline. The identity
 * level is applied from it in dc-references-apply.c and a font's own values are checked
 * against it in dc-references-verify.c; the three share dc-references-private.h.
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "dc-error.h"
#include "dc-fingerprint-private.h"
#include "dc-parallel-private.h"
#include "dc-references-private.h"
#include "dc-references-stamp-private.h"
#include "dc-unicode-private.h"

/* The index that finds a fingerprint's rows: made with the table, and again after the
 * rows when the table is rebuilt (dc_references_update()). */
#define FINGERPRINT_INDEX "glyphs_by_fingerprint ON glyphs (fingerprint)"

/* 2: with the glyphs reached by their names alone (dc_shapes_scan_font_fingerprints());
 * 3: and the Brahmic scripts' glyphs only shaping reaches (dc-fingerprint-shaped.c);
 * 4: and Arabic's joining forms only shaping reaches. */
#define REFERENCES_FORMAT "decipher-font-references-5"

#define prepare_outlines _dc_references_prepare_outlines
#define lookup_outline _dc_references_lookup_outline

/* The index's characters for one outline, asked for at most once per outline: a book
 * asked again for every symbol of its 60 fonts, in each pass of dc_references_apply()
 * and again after dc_references_verify(), and the query was a fifth of its `text`. */
typedef struct
{
  GPtrArray *values;   /* char *: the characters, in byte order (SQL's GROUP BY value) */
  GPtrArray *families; /* char *: of each, the least family (SQL's min()), or NULL */
} Outline;

/* The outlines remembered at most: a collection's reader keeps one index for all its
 * files, and an outline no installed font draws is remembered too. */
#define MAX_OUTLINES 65536

G_DEFINE_FINAL_TYPE (DcReferences, dc_references, G_TYPE_OBJECT)

static void
outline_free (Outline *outline)
{
  g_ptr_array_unref (outline->values);
  g_ptr_array_unref (outline->families);
  g_free (outline);
}

static void
dc_references_finalize (GObject *object)
{
  DcReferences *self = DC_REFERENCES (object);

  g_hash_table_unref (self->outlines);
  g_mutex_clear (&self->lock);
  sqlite3_finalize (self->outline);
  if (self->db != NULL)
    sqlite3_close (self->db);
  g_free (self->path);

  G_OBJECT_CLASS (dc_references_parent_class)->finalize (object);
}

static void
dc_references_class_init (DcReferencesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dc_references_finalize;
}

static void
dc_references_init (DcReferences *self)
{
  g_mutex_init (&self->lock);
  self->outlines = g_hash_table_new_full (_dc_shape_fingerprint_hash, _dc_shape_fingerprint_equal,
                                          g_free, (GDestroyNotify) outline_free);
}

/* A cache: it can always be built again from the installed fonts. */
char *
dc_references_get_default_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "decipher", "references.sqlite", NULL);
}

static void
set_sqlite_error (DcReferences *self, GError **error)
{
  g_autofree char *display = g_filename_display_name (self->path);

  g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
               _("The index of installed fonts “%s” could not be used: %s. Delete it to have "
                 "it built again."),
                  display, self->db != NULL ? sqlite3_errmsg (self->db) : "");
}

static gboolean
exec (DcReferences *self, const char *sql, GError **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) == SQLITE_OK)
    return TRUE;
  set_sqlite_error (self, error);
  return FALSE;
}

/**
 * dc_references_open:
 * @path: the cache file; created (with its folder) when missing
 *
 * Opens the index as it is; dc_references_update() brings it up to date.
 */
DcReferences *
dc_references_open (const char *path, GError **error)
{
  g_autoptr (DcReferences) self = NULL;
  g_autofree char *folder = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DC_TYPE_REFERENCES, NULL);
  self->path = g_strdup (path);
  folder = g_path_get_dirname (path);
  g_mkdir_with_parents (folder, 0700);
  if (sqlite3_open_v2 (path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
      != SQLITE_OK)
    {
      set_sqlite_error (self, error);
      return NULL;
    }
  /* Several decipher-cli processes of one collection may start together: the first
   * builds the index, the others wait for it rather than build it again. */
  sqlite3_busy_timeout (self->db, 10 * 60 * 1000);
  /* A rollback journal, not WAL: a run that only reads the index writes nothing. In WAL
   * mode every run, as the index's first connection, opened the -wal and -shm files,
   * sized, wrote and mapped the shared-memory index (issue 32: a one-page `text`).
   * Readers now hold a shared lock for their transaction; a build takes the write lock,
   * whose commit waits for them (the busy timeout), and new readers wait for the commit,
   * as in WAL mode a run that found the index stale waited for the build. An index left
   * in WAL mode by an earlier version goes back when no other process has it open (the
   * change fails at once otherwise); until then it is read in WAL mode, as before. */
  sqlite3_exec (self->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
  if (!exec (self,
             "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
             "CREATE TABLE IF NOT EXISTS glyphs (fingerprint BLOB NOT NULL, value TEXT NOT NULL,"
             "  family TEXT);"
             "CREATE INDEX IF NOT EXISTS " FINGERPRINT_INDEX ";",
             error))
    return NULL;
  return g_steal_pointer (&self);
}

static int
compare_faces (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* What the installed outline fonts are: each face's file, index, size and time, sorted,
 * hashed. A font added, removed or replaced changes it. */
static char *
installed_fonts (GPtrArray *faces)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  FcPattern *pattern;
  FcObjectSet *objects;
  FcFontSet *set;

  if (!FcInit ())
    return NULL;
  pattern = FcPatternBuild (NULL, FC_OUTLINE, FcTypeBool, FcTrue, NULL);
  objects = FcObjectSetBuild (FC_FILE, FC_INDEX, FC_FAMILY, NULL);
  set = FcFontList (NULL, pattern, objects);
  FcObjectSetDestroy (objects);
  FcPatternDestroy (pattern);
  for (int i = 0; set != NULL && i < set->nfont; i++)
    {
      FcChar8 *file = NULL, *family = NULL;
      int index = 0;
      GStatBuf buf;

      if (FcPatternGetString (set->fonts[i], FC_FILE, 0, &file) != FcResultMatch
          || g_stat ((const char *) file, &buf) != 0)
        continue;
      FcPatternGetInteger (set->fonts[i], FC_INDEX, 0, &index);
      FcPatternGetString (set->fonts[i], FC_FAMILY, 0, &family);
      g_ptr_array_add (faces,
                       g_strdup_printf ("%s\t%d\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%s",
                                        file, index, (gint64) buf.st_size, (gint64) buf.st_mtime,
                                        family != NULL ? (const char *) family : ""));
    }
  if (set != NULL)
    FcFontSetDestroy (set);
  g_ptr_array_sort (faces, compare_faces);
  for (guint i = 0; i < faces->len; i++)
    {
      g_checksum_update (checksum, g_ptr_array_index (faces, i), -1);
      g_checksum_update (checksum, (const guchar *) "\n", 1);
    }
  return g_strdup (g_checksum_get_string (checksum));
}

/* One glyph of an installed face as a worker read it, for the calling thread to insert. */
typedef struct
{
  char value[DC_SHAPE_TEXT_MAX];
  guint8 fingerprint[DC_SHAPE_FINGERPRINT_LEN];
} ScannedGlyph;

/* The installed faces are read SCAN_BATCH at a time on the engine's threads, and each
 * batch inserted in the faces' order by the calling thread, which alone uses the
 * database: the index holds the same rows in the same order as read on one thread, and
 * what waits to be inserted stays a few megabytes however many fonts are installed. */
#define SCAN_BATCH 32

typedef struct
{
  GPtrArray *faces;           /* installed_fonts()'s lines */
  guint first, end;           /* the batch: faces [first, end) */
  GArray *glyphs[SCAN_BATCH]; /* ScannedGlyph, per face of the batch; NULL where unread */
  GCancellable *cancellable;
  gint next; /* the batch's next face to read, from 0 */
} ScanJob;

static void
keep_glyph (const char *text, const DcShape *shape, gpointer data)
{
  ScannedGlyph glyph = { { 0 }, { 0 } };

  g_strlcpy (glyph.value, text, sizeof glyph.value);
  memcpy (glyph.fingerprint, shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN);
  g_array_append_val ((GArray *) data, glyph);
}

/* Run on each thread: reads the batch's faces not taken yet. */
static void
scan_batch (gpointer data)
{
  ScanJob *job = data;
  guint i;

  while ((i = job->first + (guint) g_atomic_int_add (&job->next, 1)) < job->end
         && !g_cancellable_is_cancelled (job->cancellable))
    {
      g_auto (GStrv) fields = g_strsplit (g_ptr_array_index (job->faces, i), "\t", 5);
      g_autoptr (GArray) glyphs = g_array_new (FALSE, FALSE, sizeof (ScannedGlyph));

      /* A font FreeType cannot read is left out, not an error: the others still help. */
      if (dc_shapes_scan_font_fingerprints (fields[0], (int) g_ascii_strtoll (fields[1], NULL, 10),
                                            keep_glyph, glyphs, NULL))
        job->glyphs[i - job->first] = g_steal_pointer (&glyphs);
    }
}

/* Inserts @glyphs, one face's, each with the face's @family. */
static void
insert_glyphs (sqlite3_stmt *insert, GArray *glyphs, const char *family)
{
  for (guint g = 0; g < glyphs->len; g++)
    {
      const ScannedGlyph *glyph = &g_array_index (glyphs, ScannedGlyph, g);

      sqlite3_bind_blob (insert, 1, glyph->fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
      sqlite3_bind_text (insert, 2, glyph->value, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 3, family, -1, SQLITE_STATIC);
      sqlite3_step (insert);
      sqlite3_reset (insert);
    }
}

/* Reads every face of @faces and inserts its glyphs with @insert; FALSE when cancelled. */
static gboolean
scan_faces (GPtrArray *faces, sqlite3_stmt *insert, guint *n_indexed, GCancellable *cancellable,
            GError **error)
{
  /* As many threads as a document of as many pages is read with. */
  guint n_threads = _dc_parallel_threads (faces->len);

  for (guint first = 0; first < faces->len; first += SCAN_BATCH)
    {
      ScanJob job = {
        faces, first, MIN (first + SCAN_BATCH, faces->len), { NULL }, cancellable, 0
      };

      _dc_parallel_run (MIN (n_threads, job.end - first), scan_batch, &job);
      for (guint i = first; i < job.end; i++)
        {
          GArray *glyphs = job.glyphs[i - first];

          if (glyphs == NULL)
            continue;
          if (!g_cancellable_is_cancelled (cancellable))
            {
              g_auto (GStrv) fields = g_strsplit (g_ptr_array_index (faces, i), "\t", 5);

              insert_glyphs (insert, glyphs, fields[4]);
              if (n_indexed != NULL)
                (*n_indexed)++;
            }
          g_array_unref (glyphs);
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  return TRUE;
}

static char *
read_meta (DcReferences *self, const char *name)
{
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  if (sqlite3_prepare_v2 (self->db, "SELECT value FROM meta WHERE name = ?1", -1, &stmt, NULL)
      != SQLITE_OK)
    return NULL;
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

/* @value NULL removes @name. */
static void
write_meta (DcReferences *self, const char *name, const char *value)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (self->db,
                          value != NULL ? "INSERT OR REPLACE INTO meta VALUES (?1, ?2)"
                                        : "DELETE FROM meta WHERE name = ?1",
                          -1, &stmt, NULL)
      == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
      if (value != NULL)
        sqlite3_bind_text (stmt, 2, value, -1, SQLITE_STATIC);
      sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
}

/* Whether the index is current by its stamp alone, without starting fontconfig. */
static gboolean
stamp_is_current (DcReferences *self)
{
  g_autofree char *format = read_meta (self, "format");
  g_autofree char *stamp = NULL;

  return g_strcmp0 (format, REFERENCES_FORMAT) == 0 && (stamp = read_meta (self, "stamp")) != NULL
         && _dc_references_stamp_is_current (stamp);
}

/**
 * dc_references_update:
 * @n_indexed: (out) (optional): how many fonts were read now (0: the index was current)
 *
 * Rebuilds the index when the installed fonts are not those it was built from. The
 * first time this reads every glyph of every installed font (seconds to a minute): run
 * it in a worker in an interactive program. Safe against other processes updating the
 * same file at the same time.
 */
gboolean
dc_references_update (DcReferences *self, guint *n_indexed, GCancellable *cancellable,
                      GError **error)
{
  g_autoptr (GPtrArray) faces = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *signature = NULL;
  g_autofree char *current = NULL;
  g_autofree char *format = NULL;
  g_autofree char *stamp = NULL;
  sqlite3_stmt *insert = NULL;
  gboolean ok;

  g_return_val_if_fail (DC_IS_REFERENCES (self), FALSE);
  /* What the index said of outlines may not be what it says when rebuilt. */
  g_mutex_lock (&self->lock);
  g_hash_table_remove_all (self->outlines);
  g_mutex_unlock (&self->lock);

  if (n_indexed != NULL)
    *n_indexed = 0;
  /* Most runs end here: fontconfig's start alone was a fifth of a one-file `text`. */
  if (stamp_is_current (self))
    return TRUE;
  stamp = _dc_references_stamp_new ();
  if ((signature = installed_fonts (faces)) == NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_FAILED,
                           _("The installed fonts could not be listed (fontconfig did not "
                             "start)."));
      return FALSE;
    }
  /* Taking the write lock first: a process that waited for another's build finds the
   * index current below and reads nothing. */
  if (!exec (self, "BEGIN IMMEDIATE", error))
    return FALSE;
  current = read_meta (self, "fonts");
  format = read_meta (self, "format");
  if (g_strcmp0 (current, signature) == 0 && g_strcmp0 (format, REFERENCES_FORMAT) == 0)
    {
      write_meta (self, "stamp", stamp);
      return exec (self, "COMMIT", error);
    }

  /* The index of fingerprints is made again after the rows, from them sorted: kept up to
   * date row by row, its random keys were a third of the build. */
  if (!exec (self, "DROP INDEX IF EXISTS glyphs_by_fingerprint; DELETE FROM glyphs", error)
      || sqlite3_prepare_v2 (self->db,
                             "INSERT INTO glyphs (fingerprint, value, family) VALUES (?1, ?2, ?3)",
                             -1, &insert, NULL)
             != SQLITE_OK)
    {
      if (insert == NULL)
        set_sqlite_error (self, error);
      exec (self, "ROLLBACK", NULL);
      return FALSE;
    }
  ok = scan_faces (faces, insert, n_indexed, cancellable, error);
  sqlite3_finalize (insert);
  if (ok && !exec (self, "CREATE INDEX " FINGERPRINT_INDEX, error))
    ok = FALSE;
  if (!ok)
    {
      exec (self, "ROLLBACK", NULL);
      return FALSE;
    }
  {
    sqlite3_stmt *stmt = NULL;

    if (sqlite3_prepare_v2 (self->db,
                            "INSERT OR REPLACE INTO meta VALUES ('format', '" REFERENCES_FORMAT
                            "'), ('fonts', ?1)",
                            -1, &stmt, NULL)
        == SQLITE_OK)
      {
        sqlite3_bind_text (stmt, 1, signature, -1, SQLITE_STATIC);
        sqlite3_step (stmt);
      }
    sqlite3_finalize (stmt);
  }
  write_meta (self, "stamp", stamp);
  return exec (self, "COMMIT", error);
}

/* How many fonts the current index was built from. */
guint
dc_references_get_n_fonts (DcReferences *self)
{
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  g_return_val_if_fail (DC_IS_REFERENCES (self), 0);

  if (sqlite3_prepare_v2 (self->db, "SELECT count(DISTINCT family) FROM glyphs", -1, &stmt, NULL)
          == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    n = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

/* Where the index holds @value for the outline: its place in @outline's byte order, or
 * the place it goes, as a negative number (-1 - place). */
static int
find_value (Outline *outline, const char *value)
{
  for (guint i = 0; i < outline->values->len; i++)
    {
      int order = strcmp (g_ptr_array_index (outline->values, i), value);

      if (order == 0)
        return (int) i;
      if (order > 0)
        return -1 - (int) i;
    }
  return -1 - (int) outline->values->len;
}

/* Leaves out the private-use characters an installed font's cmap gives its own glyphs:
 * DejaVu Sans draws a contour tone (˥˩) with glyphs it maps from U+EF14 and U+EF19, which
 * no page means, and the identity level applied them. */
static void
drop_private_use (Outline *outline)
{
  for (guint i = outline->values->len; i-- > 0;)
    {
      const char *value = g_ptr_array_index (outline->values, i);
      gboolean private_use = FALSE;

      for (const char *p = value; *p && !private_use; p = g_utf8_next_char (p))
        private_use = g_unichar_type (g_utf8_get_char (p)) == G_UNICODE_PRIVATE_USE;
      if (private_use)
        {
          g_ptr_array_remove_index (outline->values, i);
          g_ptr_array_remove_index (outline->families, i);
        }
    }
}

/* A character that is another one drawn for a use of its own (Arabic mathematical meem
 * 𞸌 for م, small roman numeral ⅼ for l: a compatibility decomposition to it), where the
 * font maps the outline from that character too: no text means the variant by it, and
 * left among the candidates it kept the letter from being applied. */
static void
drop_compatibility_variants (Outline *outline)
{
  for (guint i = outline->values->len; i-- > 0;)
    {
      const char *value = g_ptr_array_index (outline->values, i);
      g_autofree char *plain = g_utf8_normalize (value, -1, G_NORMALIZE_NFKC);

      if (plain != NULL && strcmp (plain, value) != 0 && find_value (outline, plain) >= 0)
        {
          g_ptr_array_remove_index (outline->values, i);
          g_ptr_array_remove_index (outline->families, i);
        }
    }
}

/* The hyphen (U+2010) and the non-breaking hyphen (U+2011) where the font draws the
 * hyphen-minus with the same outline, as most fonts do: no page tells them apart, and a
 * text means the one keyboards type. Left among the candidates, they are characters no
 * script claims, which only the words of the font could choose among: a reading of
 * nearly every font of a book of many, 8 % of a session's first reply (issue 32). */
static void
drop_hyphen_variants (Outline *outline)
{
  if (find_value (outline, "-") < 0)
    return;
  for (guint i = outline->values->len; i-- > 0;)
    {
      const char *value = g_ptr_array_index (outline->values, i);

      if (strcmp (value, "\u2010") == 0 || strcmp (value, "\u2011") == 0)
        {
          g_ptr_array_remove_index (outline->values, i);
          g_ptr_array_remove_index (outline->families, i);
        }
    }
}

/* Reads what the index draws with @fingerprint, grouped by character as "SELECT value,
 * min(family) … GROUP BY value" was, without the temporary B-trees that cost. A font's
 * cmap maps its contextual forms from the presentation forms (ﻔ for feh's medial glyph):
 * the character is the letter they draw, as the PDF's own text is read
 * (_dc_text_without_presentation_forms()). */
static Outline *
read_outline (sqlite3_stmt *stmt, const guint8 *fingerprint, gboolean *complete)
{
  Outline *outline = g_new0 (Outline, 1);
  int rc;

  outline->values = g_ptr_array_new_with_free_func (g_free);
  outline->families = g_ptr_array_new_with_free_func (g_free);
  sqlite3_bind_blob (stmt, 1, fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *stored = (const char *) sqlite3_column_text (stmt, 0);
      const char *family = (const char *) sqlite3_column_text (stmt, 1);
      g_autofree char *plain = stored != NULL ? _dc_text_without_presentation_forms (stored) : NULL;
      const char *value = plain != NULL ? plain : stored;
      int at;

      if (value == NULL)
        continue;
      at = find_value (outline, value);

      if (at < 0)
        {
          g_ptr_array_insert (outline->values, -1 - at, g_strdup (value));
          g_ptr_array_insert (outline->families, -1 - at, g_strdup (family));
        }
      else if (family != NULL
               && (g_ptr_array_index (outline->families, at) == NULL
                   || strcmp (family, g_ptr_array_index (outline->families, at)) < 0))
        {
          g_free (g_ptr_array_index (outline->families, at));
          g_ptr_array_index (outline->families, at) = g_strdup (family);
        }
    }
  *complete = rc == SQLITE_DONE;
  sqlite3_reset (stmt);
  drop_private_use (outline);
  drop_compatibility_variants (outline);
  drop_hyphen_variants (outline);
  return outline;
}

/* Whether the index can be asked about outlines. */
gboolean
prepare_outlines (DcReferences *self)
{
  gboolean ok;

  g_mutex_lock (&self->lock);
  ok = self->outline != NULL
       || sqlite3_prepare_v2 (self->db, "SELECT value, family FROM glyphs WHERE fingerprint = ?1",
                              -1, &self->outline, NULL)
              == SQLITE_OK;
  g_mutex_unlock (&self->lock);
  return ok;
}

/* Asks the outlines that follow, up to _dc_references_end_reading(), in one read
 * transaction: each asked alone was a transaction of its own, taking and releasing the
 * index's read lock (fcntl(2) calls and a look at the WAL), ~35 times in a one-page
 * `text` (issue 32). Nested calls, and threads sharing the index, share the transaction;
 * the last to end it ends it. Without one (BEGIN failed), each question is asked alone,
 * as before. */
void
_dc_references_begin_reading (DcReferences *self)
{
  g_mutex_lock (&self->lock);
  if (self->n_readers++ == 0 && sqlite3_get_autocommit (self->db))
    self->reading = exec (self, "BEGIN", NULL);
  g_mutex_unlock (&self->lock);
}

void
_dc_references_end_reading (DcReferences *self)
{
  g_mutex_lock (&self->lock);
  g_assert (self->n_readers > 0);
  if (--self->n_readers == 0 && self->reading)
    {
      exec (self, "COMMIT", NULL);
      self->reading = FALSE;
    }
  g_mutex_unlock (&self->lock);
}

/* The characters the installed fonts draw with @shape's outline, in byte order, and
 * @families, each one's least family name (or NULL), as new references. Call
 * prepare_outlines() first. */
void
lookup_outline (DcReferences *self, const DcShape *shape, GPtrArray **values, GPtrArray **families)
{
  Outline *outline, *uncached = NULL;

  g_mutex_lock (&self->lock);
  if ((outline = g_hash_table_lookup (self->outlines, shape->fingerprint)) == NULL)
    {
      gboolean complete;

      outline = read_outline (self->outline, shape->fingerprint, &complete);
      /* One that failed (a busy index) is asked again next time. */
      if (!complete)
        uncached = outline;
      else
        {
          if (g_hash_table_size (self->outlines) >= MAX_OUTLINES)
            g_hash_table_remove_all (self->outlines);
          g_hash_table_insert (self->outlines,
                               g_memdup2 (shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN), outline);
        }
    }
  *values = g_ptr_array_ref (outline->values);
  *families = g_ptr_array_ref (outline->families);
  g_clear_pointer (&uncached, outline_free);
  g_mutex_unlock (&self->lock);
}
