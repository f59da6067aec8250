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
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "dc-error.h"
#include "dc-library.h"
#include "dc-readings-private.h"
#include "dc-references-stamp-private.h"
#include "dc-references.h"

#define REFERENCES_FORMAT "decipher-font-references-1"

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

struct _DcReferences
{
  GObject parent_instance;

  char *path;
  sqlite3 *db;
  GMutex lock;           /* of what follows, for the index may be shared */
  sqlite3_stmt *outline; /* the query of one outline, prepared once */
  GHashTable *outlines;  /* fingerprint → Outline */
};

G_DEFINE_FINAL_TYPE (DcReferences, dc_references, G_TYPE_OBJECT)

static void
outline_free (Outline *outline)
{
  g_ptr_array_unref (outline->values);
  g_ptr_array_unref (outline->families);
  g_free (outline);
}

static guint
fingerprint_hash (gconstpointer key)
{
  guint hash;

  /* The fingerprint is a hash already. */
  memcpy (&hash, key, sizeof hash);
  return hash;
}

static gboolean
fingerprint_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, DC_SHAPE_FINGERPRINT_LEN) == 0;
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
  self->outlines = g_hash_table_new_full (fingerprint_hash, fingerprint_equal, g_free,
                                          (GDestroyNotify) outline_free);
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
  if (!exec (self,
             "PRAGMA journal_mode = WAL;"
             "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
             "CREATE TABLE IF NOT EXISTS glyphs (fingerprint BLOB NOT NULL, value TEXT NOT NULL,"
             "  family TEXT);"
             "CREATE INDEX IF NOT EXISTS glyphs_by_fingerprint ON glyphs (fingerprint);",
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

typedef struct
{
  sqlite3_stmt *insert;
  const char *family;
} Scan;

static void
add_glyph (gunichar unicode, const DcShape *shape, gpointer data)
{
  Scan *scan = data;
  char value[8];

  value[g_unichar_to_utf8 (unicode, value)] = '\0';
  sqlite3_bind_blob (scan->insert, 1, shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
  sqlite3_bind_text (scan->insert, 2, value, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (scan->insert, 3, scan->family, -1, SQLITE_STATIC);
  sqlite3_step (scan->insert);
  sqlite3_reset (scan->insert);
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
  gboolean ok = TRUE;

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

  if (!exec (self, "DELETE FROM glyphs", error)
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
  for (guint i = 0; i < faces->len && ok; i++)
    {
      g_auto (GStrv) fields = g_strsplit (g_ptr_array_index (faces, i), "\t", 5);
      Scan scan = { insert, fields[4] };

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        ok = FALSE;
      /* A font FreeType cannot read is left out, not an error: the others still help. */
      else if (dc_shapes_scan_font_file (fields[0], (int) g_ascii_strtoll (fields[1], NULL, 10),
                                         add_glyph, &scan, NULL)
               && n_indexed != NULL)
        (*n_indexed)++;
    }
  sqlite3_finalize (insert);
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

/* Reads what the index draws with @fingerprint, grouped by character as "SELECT value,
 * min(family) … GROUP BY value" was, without the temporary B-trees that cost. */
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
      const char *value = (const char *) sqlite3_column_text (stmt, 0);
      const char *family = (const char *) sqlite3_column_text (stmt, 1);
      int at = find_value (outline, value);

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
  return outline;
}

/* Whether the index can be asked about outlines. */
static gboolean
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

/* The characters the installed fonts draw with @shape's outline, in byte order, and
 * @families, each one's least family name (or NULL), as new references. Call
 * prepare_outlines() first. */
static void
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

/* Whether @symbol's value can tell the font's script and language: not a value the
 * font's own tables or PDF text give when the trust analysis rejected the font (a
 * legacy font's lying Latin-1, à for а), nor a guess from OCR, nor the library's: one
 * outline serves Latin a and Cyrillic а, and the library is verified against what the
 * document's own evidence says (dc_library_verify()), so it cannot vouch for it (issue
 * 28: a Latin a decided in an English document made the installed Palladio Uralic's
 * Latin-1 lies chosen for a Yakut one). */
static gboolean
value_is_trustworthy (DcKey *key, guint symbol)
{
  DcDocument *document = dc_key_get_document (key);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);

  if (dc_key_get_status (key, symbol) == DC_KEY_CONFIRMED)
    return TRUE;
  switch (dc_key_get_level (key, symbol))
    {
    case DC_KEY_LEVEL_USER:
    case DC_KEY_LEVEL_IDENTITY:
    case DC_KEY_LEVEL_LAYOUT:
    case DC_KEY_LEVEL_GUESS:
      return TRUE;
    case DC_KEY_LEVEL_PDF:
    case DC_KEY_LEVEL_FONT:
      return dc_font_is_trusted (dc_document_get_font (document, symbols[symbol].font));
    default:
      return FALSE;
    }
}

/* An outline several characters of one script share, with no word to choose by: such
 * proposals were right for none of the 4 bench/calibrate-levels.py made (issue 28; І for
 * I, З for 3), where they were stated at 0.5. */
#define IDENTITY_PROPOSAL_CONFIDENCE 0.05

/* Counts @symbol's value in its font's scripts (font → script → count), when it is
 * trustworthy and of a script. */
static void
count_script (GHashTable *counts, DcKey *key, const DcSymbol *symbols, guint symbol)
{
  GHashTable *scripts;
  const char *script;
  guint n;

  if (!value_is_trustworthy (key, symbol)
      || (script = dc_library_script_of_value (dc_key_get_value (key, symbol))) == NULL)
    return;
  scripts = g_hash_table_lookup (counts, GUINT_TO_POINTER (symbols[symbol].font));
  if (scripts == NULL)
    {
      scripts = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (counts, GUINT_TO_POINTER (symbols[symbol].font), scripts);
    }
  n = GPOINTER_TO_UINT (g_hash_table_lookup (scripts, script)) + 1;
  g_hash_table_replace (scripts, (gpointer) script, GUINT_TO_POINTER (n));
}

/* Per font, how many of its trustworthy values each script has: counted once for the
 * document and then kept up to date as values are set (count_script()), where counting
 * them for every shared outline went through the whole document each time. */
static GHashTable *
count_scripts (DcKey *key)
{
  GHashTable *counts = g_hash_table_new_full (NULL, NULL, NULL,
                                              (GDestroyNotify) g_hash_table_unref);
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (dc_key_get_document (key), &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    count_script (counts, key, symbols, s);
  return counts;
}

/* The script most of @font's trustworthy values are in (@counts, count_scripts()), or
 * NULL; NULL too where another script has at least a quarter as many (a font drawing
 * Greek, Cyrillic and Latin for a book in many languages): there the font's script says
 * nothing about one shared outline, and chose Cyrillic ꙇ for Greek ι and і for Latin i.
 * Ties are mixed, so the order the values are counted in does not matter. */
static const char *
font_script (GHashTable *counts, guint font, gboolean *mixed)
{
  GHashTable *scripts = g_hash_table_lookup (counts, GUINT_TO_POINTER (font));
  GHashTableIter iter;
  gpointer script_name, count;
  const char *best = NULL;
  guint best_count = 0;

  *mixed = FALSE;
  if (scripts == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, scripts);
  while (g_hash_table_iter_next (&iter, &script_name, &count))
    if (GPOINTER_TO_UINT (count) > best_count)
      {
        best_count = GPOINTER_TO_UINT (count);
        best = script_name;
      }
  g_hash_table_iter_init (&iter, scripts);
  while (g_hash_table_iter_next (&iter, &script_name, &count))
    if ((const char *) script_name != best && GPOINTER_TO_UINT (count) * 4 >= best_count)
      *mixed = TRUE;
  return *mixed ? NULL : best;
}

/* The script every one of @values is in, or NULL. */
static const char *
common_script (GPtrArray *values)
{
  const char *script = dc_library_script_of_value (g_ptr_array_index (values, 0));

  for (guint i = 1; script != NULL && i < values->len; i++)
    if (g_strcmp0 (dc_library_script_of_value (g_ptr_array_index (values, i)), script) != 0)
      return NULL;
  return script;
}

/* Among @candidates (one character each), the one the font's text reads clearly best
 * with (dc-readings.c), or NULL: an installed font that maps one outline from à and а, or
 * from archaic ѳ and Kazakh ө, says nothing about which the document means; its words do,
 * read with trustworthy values only (value_is_trustworthy()).
 * @cache: font → DcReadings, the font's text as the key stood when first asked */
static const char *
choose_by_language (DcKey *key, GHashTable *cache, guint font, guint symbol, GPtrArray *candidates)
{
  DcReadings *readings = g_hash_table_lookup (cache, GUINT_TO_POINTER (font));
  g_autofree gunichar *values = NULL;
  g_autofree gboolean *disputed = NULL;
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  guint best;
  double margin;
  int open;

  if (readings == NULL)
    {
      readings = _dc_readings_new_trusted (key, font, value_is_trustworthy);
      g_hash_table_insert (cache, GUINT_TO_POINTER (font), readings);
    }
  /* One glyph among unknown ones is no word: its neighbours must be known. */
  if ((open = _dc_readings_find_open (readings, symbol)) < 0
      || _dc_readings_count_known_letters (readings) < DC_READINGS_MIN_LETTERS)
    return NULL;
  _dc_readings_clear (readings);
  values = g_new0 (gunichar, MAX (1, _dc_readings_get_n_open (readings)));
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *candidate = g_ptr_array_index (candidates, i);
      guint index;

      if (g_utf8_strlen (candidate, -1) != 1)
        return NULL;
      values[open] = g_utf8_get_char (candidate);
      index = _dc_readings_add (readings, candidate, values);
      g_array_append_val (indices, index);
    }
  if (!_dc_readings_choose (readings, &best, &margin, &disputed) || disputed[open])
    return NULL;
  for (guint i = 0; i < indices->len; i++)
    if (g_array_index (indices, guint, i) == best)
      return g_ptr_array_index (candidates, i);
  return NULL;
}

static int
compare_frequency (gconstpointer a, gconstpointer b, gpointer data)
{
  const DcSymbol *symbols = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (symbols[x].n_glyphs != symbols[y].n_glyphs)
    return symbols[x].n_glyphs > symbols[y].n_glyphs ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Where a font draws one outline at several codes (Latin a at 97 and Cyrillic а at 224 in
 * a legacy font, or o, ο and о), the codes stand for different characters, and the font's
 * script, which decides a shared outline, gives them all the same one: in a 500-page book
 * in one such font that was 91 k wrong glyphs of 912 k applied. So a value one symbol of
 * the font already holds is never given to another of its symbols by a shared outline:
 * the more frequent symbol is decided first and keeps it, and the others only get another
 * reading of their outline, proposed. */
static guint *
symbols_by_frequency (const DcSymbol *symbols, guint n_symbols)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), MAX (1, n_symbols));

  for (guint s = 0; s < n_symbols; s++)
    g_array_append_val (order, s);
  g_array_sort_with_data (order, compare_frequency, (gpointer) symbols);
  return (guint *) g_array_free (order, FALSE);
}

/* (font, value) → the symbol of that font holding it, for every value the key applies. */
static GHashTable *
values_held (DcKey *key, const DcSymbol *symbols, guint n_symbols)
{
  GHashTable *held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = dc_key_get_status (key, s);
      const char *value = dc_key_peek_value (key, s);

      if (value != NULL && status != DC_KEY_UNKNOWN && status != DC_KEY_PROPOSED)
        g_hash_table_insert (held, g_strdup_printf ("%u:%s", symbols[s].font, value),
                             GUINT_TO_POINTER (s + 1));
    }
  return held;
}

static gboolean
held_by_another (GHashTable *held, guint font, guint symbol, const char *value)
{
  g_autofree char *name = g_strdup_printf ("%u:%s", font, value);
  guint holder = GPOINTER_TO_UINT (g_hash_table_lookup (held, name));

  return holder != 0 && holder != symbol + 1;
}

/* What the second pass of dc_references_apply() knows while it decides shared outlines. */
typedef struct
{
  DcKey *key;
  const DcSymbol *symbols;
  GHashTable *readings; /* font → DcReadings (choose_by_language()) */
  GHashTable *held;     /* values_held() */
  GHashTable *scripts;  /* count_scripts(), NULL until a shared outline asks */
} SharedPass;

/* Of @values, the characters @symbol's shared outline stands for, the one to give it,
 * or NULL; @status lowered to a proposal where that is not sure enough. */
static const char *
choose_shared (SharedPass *pass, guint s, GPtrArray *values, DcKeyStatus *status)
{
  g_autoptr (GPtrArray) candidates = g_ptr_array_new ();
  guint font = pass->symbols[s].font;
  const char *script, *chosen = NULL;
  gboolean mixed;

  /* The font's own script, or the one script all the candidates share. */
  if (pass->scripts == NULL)
    pass->scripts = count_scripts (pass->key);
  script = font_script (pass->scripts, font, &mixed);
  if (script == NULL)
    script = common_script (values);
  for (guint i = 0; i < values->len; i++)
    if (script == NULL
        || g_strcmp0 (dc_library_script_of_value (g_ptr_array_index (values, i)), script) == 0)
      g_ptr_array_add (candidates, g_ptr_array_index (values, i));
  if (candidates->len > 1)
    chosen = choose_by_language (pass->key, pass->readings, font, s, candidates);
  /* Within one script the basic letter comes first in Unicode: л (U+043B) before its
   * phonetic small capital ᴫ (U+1D2B), drawn alike; but with several left, that is a
   * likely reading, not a certain one. */
  if (chosen == NULL && script != NULL && candidates->len > 1)
    *status = DC_KEY_PROPOSED;
  /* In a font of several scripts, nothing the font or its words say made a shared
   * outline right often enough to apply it (the many-language book: ɩ for ι, ɛ for ε,
   * chosen by words): the reading is proposed. */
  if (mixed)
    *status = DC_KEY_PROPOSED;
  if (chosen == NULL && script != NULL)
    for (guint i = 0; i < candidates->len; i++)
      if (chosen == NULL
          || g_utf8_get_char (g_ptr_array_index (candidates, i)) < g_utf8_get_char (chosen))
        chosen = g_ptr_array_index (candidates, i);
  if (chosen != NULL && held_by_another (pass->held, font, s, chosen))
    {
      *status = DC_KEY_PROPOSED;
      for (guint i = 0; i < values->len; i++)
        if (!held_by_another (pass->held, font, s, g_ptr_array_index (values, i)))
          {
            chosen = g_ptr_array_index (values, i);
            break;
          }
    }
  return chosen;
}

/* Gives @symbol @chosen from the outline of an installed font of @family.
 * Returns: whether it was applied (not only proposed) */
static gboolean
set_identity (DcKey *key, guint symbol, const char *chosen, const char *family, DcKeyStatus status)
{
  g_autofree char *provenance = NULL;

  provenance = g_strdup_printf ("identity: the same outline as in the installed font %s",
                                family != NULL ? family : "?");
  return dc_key_set_full (key, symbol, chosen, status, DC_KEY_LEVEL_IDENTITY,
                          status == DC_KEY_PROPOSED ? IDENTITY_PROPOSAL_CONFIDENCE : -1, provenance,
                          NULL)
         && status == DC_KEY_INFERRED;
}

/**
 * dc_references_apply:
 * @shapes: the shapes of @key's document
 *
 * Every symbol still unknown whose outline is an installed font's glyph gets that
 * glyph's character, inferred at the identity level. Where one outline stands for
 * characters of several scripts, the script the symbol's font is otherwise read in
 * chooses, told by the unambiguous outlines and other trustworthy values, never by an
 * untrusted font's own text (with none, the symbol stays unknown). Among the characters
 * left, the one the font's text reads clearly best with as a language; failing that, the
 * first in Unicode, only proposed. Call it within a change of @key.
 *
 * Returns: how many symbols it decoded
 */
guint
dc_references_apply (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  const DcSymbol *symbols;
  guint *order;
  guint n_symbols, n = 0;

  g_return_val_if_fail (DC_IS_REFERENCES (self), 0);
  g_return_val_if_fail (shapes != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);

  symbols = dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  if (!prepare_outlines (self))
    return 0;

  /* Unambiguous outlines first: what they decode tells each font's script. */
  order = symbols_by_frequency (symbols, n_symbols);
  for (guint i_pass = 0; i_pass < 2; i_pass++)
    {
      SharedPass pass = { key, symbols, NULL, NULL, NULL };

      if (i_pass == 1)
        {
          pass.readings = g_hash_table_new_full (NULL, NULL, NULL,
                                                 (GDestroyNotify) _dc_readings_free);
          pass.held = values_held (key, symbols, n_symbols);
        }
      for (guint i_symbol = 0; i_symbol < n_symbols; i_symbol++)
        {
          guint s = i_pass == 1 ? order[i_symbol] : i_symbol;
          const DcShape *shape = dc_shapes_get (shapes, s);
          g_autoptr (GPtrArray) values = NULL;
          g_autoptr (GPtrArray) families = NULL;
          const char *chosen = NULL, *family = NULL;
          DcKeyStatus status = DC_KEY_INFERRED;
          gboolean applied;

          if (shape == NULL || dc_key_get_value (key, s) != NULL)
            continue;
          lookup_outline (self, shape, &values, &families);
          if (values->len == 1)
            chosen = g_ptr_array_index (values, 0);
          /* Shared outlines wait for the second pass, when the unambiguous ones have
           * told the font's script and words. */
          else if (values->len > 1 && i_pass == 1)
            chosen = choose_shared (&pass, s, values, &status);
          if (chosen == NULL)
            continue;
          for (guint i = 0; i < values->len; i++)
            if (g_ptr_array_index (values, i) == chosen)
              family = g_ptr_array_index (families, i);
          applied = set_identity (key, s, chosen, family, status);
          /* The symbol had no value the scripts were counted with: now it may. */
          if (pass.scripts != NULL)
            count_script (pass.scripts, key, symbols, s);
          if (applied)
            {
              n++;
              if (pass.held != NULL)
                g_hash_table_insert (pass.held, g_strdup_printf ("%u:%s", symbols[s].font, chosen),
                                     GUINT_TO_POINTER (s + 1));
            }
        }
      g_clear_pointer (&pass.readings, g_hash_table_unref);
      g_clear_pointer (&pass.held, g_hash_table_unref);
      g_clear_pointer (&pass.scripts, g_hash_table_unref);
    }
  g_free (order);
  return n;
}

/* What the outline check of dc_references_verify() compares of a character: a letter (or
 * a mark), a number, or anything else (punctuation, symbols). */
typedef enum
{
  KIND_LETTER,
  KIND_NUMBER,
  KIND_OTHER,
} Kind;

static Kind
kind_of (gunichar c)
{
  if (g_unichar_isalpha (c) || g_unichar_ismark (c))
    return KIND_LETTER;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
      return KIND_NUMBER;
    default:
      return KIND_OTHER;
    }
}

/* The characters the installed fonts draw with @shape's outline, lowest first. */
static GArray *
outline_characters (DcReferences *self, const DcShape *shape, char **family)
{
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (gunichar));
  g_autoptr (GPtrArray) values = NULL;
  g_autoptr (GPtrArray) families = NULL;

  lookup_outline (self, shape, &values, &families);
  for (guint i = 0; i < values->len; i++)
    {
      const char *value = g_ptr_array_index (values, i);
      gunichar c;

      if (value == NULL || g_utf8_strlen (value, -1) != 1)
        continue;
      c = g_utf8_get_char (value);
      if (chars->len == 0 || c < g_array_index (chars, gunichar, 0))
        {
          g_array_prepend_val (chars, c);
          g_free (*family);
          *family = g_strdup (g_ptr_array_index (families, i));
        }
      else
        g_array_append_val (chars, c);
    }
  return chars;
}

/* Whether one of @chars is of @kind. */
static gboolean
has_kind (GArray *chars, Kind kind)
{
  for (guint i = 0; i < chars->len; i++)
    if (kind_of (g_array_index (chars, gunichar, i)) == kind)
      return TRUE;
  return FALSE;
}

/* Whether @chars are all punctuation or symbols: a hyphen-minus, a hyphen and a minus
 * sign, which fonts draw with one outline and a text means alike where a letter was
 * claimed; the lowest, the ASCII one, stands for them (U+002D before U+2010). */
static gboolean
only_punctuation (GArray *chars)
{
  for (guint i = 0; i < chars->len; i++)
    if (kind_of (g_array_index (chars, gunichar, i)) != KIND_OTHER)
      return FALSE;
  return TRUE;
}

/* Stated for a font's own value (ToUnicode, cmap) that the outline contradicts, where no
 * installed font's outline decided it instead: the 2 bench/calibrate-levels.py met were
 * wrong (issue 28, À for ‐). */
#define CONTRADICTED_CONFIDENCE 0.05

/* A font's own value its outline contradicts. */
typedef struct
{
  guint symbol;
  char *value; /* as the font gave it */
  DcKeyLevel level;
  GArray *chars; /* what the installed fonts draw with the outline, lowest first */
  char *family;  /* of the lowest */
} Contradiction;

static void
contradiction_free (Contradiction *c)
{
  if (c == NULL) /* moved to the list kept */
    return;
  g_array_unref (c->chars);
  g_free (c->value);
  g_free (c->family);
  g_free (c);
}

/* Of a font whose outlines more than this share of its checked values contradict, the
 * outlines are what is wrong (a glyph found by another way than the PDF viewer's), not
 * the values: a ToUnicode that lies for one character is right for almost all the rest. */
#define MAX_CONTRADICTED_SHARE 0.1

/* And the outlines are only the font's glyphs where most of them are exactly the
 * character the font says (a glyph name read through another encoding than the PDF's
 * found μ's outline for "1"). */
#define MIN_AGREEING_SHARE 0.8

/* The values of levels pdf and font that their outlines contradict, in fonts where few
 * are (MAX_CONTRADICTED_SHARE) and most agree exactly (MIN_AGREEING_SHARE). */
static GPtrArray *
find_contradicted (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GPtrArray)
      found = g_ptr_array_new_with_free_func ((GDestroyNotify) contradiction_free);
  GPtrArray *kept = g_ptr_array_new_with_free_func ((GDestroyNotify) contradiction_free);
  g_autoptr (DcShapes) trusted = NULL;
  guint n_fonts = dc_document_get_n_fonts (document), n_symbols;
  g_autofree guint *checked = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *contradicted = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *agreeing = g_new0 (guint, MAX (n_fonts, 1));
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    {
      const DcShape *shape = dc_shapes_get (shapes, s);
      const char *value = dc_key_get_value (key, s);
      DcKeyLevel level = dc_key_get_level (key, s);
      g_autoptr (GArray) chars = NULL;
      g_autofree char *family = NULL;
      Contradiction *c;

      if (value == NULL || g_utf8_strlen (value, -1) != 1 || symbols[s].font >= n_fonts
          || (level != DC_KEY_LEVEL_PDF && level != DC_KEY_LEVEL_FONT)
          || dc_key_get_status (key, s) == DC_KEY_CONFIRMED)
        continue;
      /* A trusted font's glyph names stand without its ToUnicode: the glyph they name
       * is found by them, where this check would look up another (μ's for "one"). */
      if (level == DC_KEY_LEVEL_FONT && !dc_document_symbol_needs_decoding (document, s))
        continue;
      /* The PDF's own text has no shapes made for it until it is checked. */
      if (shape == NULL && !dc_document_symbol_needs_decoding (document, s))
        {
          if (trusted == NULL)
            trusted = dc_shapes_new_trusted (document);
          shape = dc_shapes_get (trusted, s);
        }
      if (shape == NULL || (chars = outline_characters (self, shape, &family))->len == 0)
        continue;
      checked[symbols[s].font]++;
      for (guint i = 0; i < chars->len; i++)
        if (g_array_index (chars, gunichar, i) == g_utf8_get_char (value))
          {
            agreeing[symbols[s].font]++;
            break;
          }
      if (has_kind (chars, kind_of (g_utf8_get_char (value))))
        continue;
      contradicted[symbols[s].font]++;
      c = g_new0 (Contradiction, 1);
      c->symbol = s;
      c->value = g_strdup (value);
      c->level = level;
      c->chars = g_steal_pointer (&chars);
      c->family = g_steal_pointer (&family);
      g_ptr_array_add (found, c);
    }
  for (guint i = 0; i < found->len; i++)
    {
      Contradiction *c = g_ptr_array_index (found, i);
      guint f = symbols[c->symbol].font;

      g_debug ("“%s” at symbol %u: its outline is U+%04X's (of %u, %u contradicted, %u agree)",
               c->value, c->symbol, g_array_index (c->chars, gunichar, 0), checked[f],
               contradicted[f], agreeing[f]);
      if (contradicted[f] <= MAX_CONTRADICTED_SHARE * checked[f]
          && agreeing[f] >= MIN_AGREEING_SHARE * checked[f])
        g_ptr_array_add (kept, g_steal_pointer (&found->pdata[i]));
    }
  return kept;
}

/**
 * dc_references_verify:
 * @shapes: the shapes of @key's document
 *
 * Checks every value a font's own evidence applied (a trusted ToUnicode, a cmap: levels
 * pdf and font) against the installed fonts: where the symbol's outline is an installed
 * font's glyph, and each character the installed fonts draw with it is of another kind
 * (a hyphen's outline, which the PDF calls À), the value is taken back. A ToUnicode right
 * for every character but one is still trusted as a whole; the one is not (issue 28); a
 * font most of whose outlines disagree is left as it is (find_contradicted()). The
 * outline's own character takes its place at the identity level when the installed fonts
 * agree on it (dc_references_apply(), or punctuation only: its lowest); failing
 * that the value taken back is only proposed. Call it within a change of @key, after
 * dc_references_apply().
 *
 * Returns: how many symbols the identity level decoded in place of a value taken back
 */
guint
dc_references_verify (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  g_autoptr (GPtrArray) contradicted = NULL;
  guint n = 0;

  g_return_val_if_fail (DC_IS_REFERENCES (self), 0);
  g_return_val_if_fail (shapes != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);

  if (!prepare_outlines (self))
    return 0;
  contradicted = find_contradicted (self, shapes, key);
  if (contradicted->len == 0)
    return 0;
  for (guint i = 0; i < contradicted->len; i++)
    {
      const Contradiction *c = g_ptr_array_index (contradicted, i);
      g_autofree char *provenance = NULL;
      char own[8];

      dc_key_take_back (key, c->symbol);
      if (!only_punctuation (c->chars))
        continue;
      own[g_unichar_to_utf8 (g_array_index (c->chars, gunichar, 0), own)] = '\0';
      provenance = g_strdup_printf ("identity: the same outline as in the installed font %s, "
                                    "not the PDF's “%s”",
                                    c->family != NULL ? c->family : "?", c->value);
      if (dc_key_set_full (key, c->symbol, own, DC_KEY_INFERRED, DC_KEY_LEVEL_IDENTITY, -1,
                           provenance, NULL))
        n++;
    }
  n += dc_references_apply (self, shapes, key);
  for (guint i = 0; i < contradicted->len; i++)
    {
      const Contradiction *c = g_ptr_array_index (contradicted, i);
      g_autofree char *provenance = NULL;

      if (dc_key_get_status (key, c->symbol) != DC_KEY_UNKNOWN)
        continue;
      provenance = g_strdup_printf ("%s: “%s”, which no installed font with this outline draws",
                                    c->level == DC_KEY_LEVEL_PDF ? "pdf" : "font", c->value);
      dc_key_set_full (key, c->symbol, c->value, DC_KEY_PROPOSED, c->level, CONTRADICTED_CONFIDENCE,
                       provenance, NULL);
    }
  return n;
}
