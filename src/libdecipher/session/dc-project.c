/* dc-project.c: a document's recovered key and input history, saved as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project file is the only copy of hours of a linguist's work, so saving never leaves a
 * half-written file, and loading trusts nothing in the file: it may be damaged, made by
 * another version, meant for another document, or hostile. The key is only touched once
 * the whole file has been checked. The format and its version rule: docs/project-format.md.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#ifdef G_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-json.h"
#include "dc-key-private.h"
#include "dc-project-private.h"

/* dc-project-journal.c and dc-project-conflicts.c read with these too. */
#define invalid _dc_project_invalid
#define read_string _dc_project_read_string
#define read_uint _dc_project_read_uint

#define MAX_FILE_SIZE DC_PROJECT_MAX_FILE_SIZE
#define MAX_ITEMS 1000000
/* Our format nests three deep; json-glib recurses per level and overflows the stack on a
 * file of a few thousand brackets. */
#define MAX_DEPTH 16
/* A value is at most 16 code points, so 64 bytes; anything much longer is not worth
 * normalising before rejecting. */
#define MAX_VALUE_BYTES 1024
#define MAX_TEXT_BYTES DC_PROJECT_MAX_TEXT_BYTES
#define MAX_NAME_BYTES 4096
#define MAX_REFUSED 1024 /* rejected values of one symbol */
/* Past this, a journal costs more to replay than a save costs to write. */
#define JOURNAL_FOLD_SIZE (4 * 1024 * 1024)

struct _DcProject
{
  GObject parent_instance;

  DcDocument *document;
  DcKey *key;
  char *path;
  GPtrArray *history; /* of char *, NULL-terminated */
  DcProjectJournal *journal;
  /* The open conflicts live in the matcher once there is one; until then, those loaded. */
  DcMatcher *matcher;
  gulong conflicts_handler;
  GPtrArray *conflicts; /* of DcConflict */
};

G_DEFINE_FINAL_TYPE (DcProject, dc_project, G_TYPE_OBJECT)

static void
dc_project_finalize (GObject *object)
{
  DcProject *self = DC_PROJECT (object);

  g_clear_pointer (&self->journal, _dc_project_journal_free);
  g_clear_signal_handler (&self->conflicts_handler, self->matcher);
  g_clear_object (&self->matcher);
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);
  g_clear_object (&self->key);
  g_clear_object (&self->document);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->history, g_ptr_array_unref);

  G_OBJECT_CLASS (dc_project_parent_class)->finalize (object);
}

static void
dc_project_class_init (DcProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dc_project_finalize;
}

static void
dc_project_init (DcProject *self)
{
  /* Reserve one slot: an empty null-terminated array has no storage at all before
   * GLib 2.76, and get_history() promises a terminated list. */
  self->history = g_ptr_array_new_null_terminated (1, g_free, TRUE);
  self->conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
}

/**
 * dc_project_new:
 * @document: the document being deciphered
 * @key: @document's key
 *
 * A project not saved anywhere yet, with an empty history.
 */
DcProject *
dc_project_new (DcDocument *document, DcKey *key)
{
  DcProject *self;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (DC_IS_KEY (key), NULL);
  g_return_val_if_fail (dc_key_get_document (key) == document, NULL);

  self = g_object_new (DC_TYPE_PROJECT, NULL);
  self->document = g_object_ref (document);
  self->key = g_object_ref (key);
  return self;
}

/* Returns: (nullable): where the project was last saved or loaded from. */
const char *
dc_project_get_path (DcProject *self)
{
  g_return_val_if_fail (DC_IS_PROJECT (self), NULL);

  return self->path;
}

DcDocument *
dc_project_get_document (DcProject *self)
{
  g_return_val_if_fail (DC_IS_PROJECT (self), NULL);

  return self->document;
}

DcKey *
dc_project_get_key (DcProject *self)
{
  g_return_val_if_fail (DC_IS_PROJECT (self), NULL);

  return self->key;
}

/**
 * dc_project_add_history:
 * @input: what the user typed, as typed
 *
 * Remembers an input, so a project shows how its key came about and a session can be
 * replayed. Saved with the project.
 */
void
dc_project_add_history (DcProject *self, const char *input)
{
  g_return_if_fail (DC_IS_PROJECT (self));
  g_return_if_fail (input != NULL);
  g_return_if_fail (g_utf8_validate (input, -1, NULL));

  g_ptr_array_add (self->history, g_strdup (input));
  if (self->journal != NULL)
    _dc_project_journal_add_history (self->journal, input);
}

/* Returns: (array length=n_items zero-terminated=1): the inputs, oldest first. */
const char *const *
dc_project_get_history (DcProject *self, guint *n_items)
{
  g_return_val_if_fail (DC_IS_PROJECT (self), NULL);

  if (n_items)
    *n_items = self->history->len;
  return (const char *const *) self->history->pdata;
}

/* Saving */

/* One key entry as both the project and its journal write it. The font's name and program
 * checksum ride along with its index so that a loader can tell a key meant for these very
 * fonts, and a font library can reuse the entries. */
static void
add_entry (JsonBuilder *builder, DcDocument *document, guint symbol, guint glyph,
           DcKeyStatus status, DcKeyLevel level, double confidence, const char *value,
           const char *provenance, const char *const *refused)
{
  const DcSymbol *info = dc_document_get_symbol (document, symbol);
  DcFont *font = dc_document_get_font (document, info->font);

  json_builder_begin_object (builder);
  /* Since format version 4: a split, which only this occurrence of the code reads. */
  if (glyph != G_MAXUINT)
    {
      json_builder_set_member_name (builder, "glyph");
      json_builder_add_int_value (builder, glyph);
    }
  json_builder_set_member_name (builder, "font");
  json_builder_add_int_value (builder, info->font);
  json_builder_set_member_name (builder, "font_name");
  if (dc_font_get_name (font) != NULL)
    json_builder_add_string_value (builder, dc_font_get_name (font));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "font_sha256");
  if (dc_font_get_program_sha256 (font) != NULL)
    json_builder_add_string_value (builder, dc_font_get_program_sha256 (font));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, info->code);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, value != NULL ? value : "");
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, dc_key_status_to_string (status));
  /* Since format version 2; a version 1 file's level is told from status and provenance. */
  if (level != DC_KEY_LEVEL_NONE)
    {
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, dc_key_level_to_string (level));
      json_builder_set_member_name (builder, "confidence");
      /* Three decimals: the figure is a judgement, and a float printed whole reads as noise. */
      json_builder_add_double_value (builder, (double) (gint64) (confidence * 1000 + 0.5) / 1000);
    }
  json_builder_set_member_name (builder, "provenance");
  if (provenance != NULL)
    json_builder_add_string_value (builder, provenance);
  else
    json_builder_add_null_value (builder);
  /* Since format version 3: the values the user rejected for the symbol. */
  if (refused != NULL && refused[0] != NULL)
    {
      json_builder_set_member_name (builder, "refused");
      json_builder_begin_array (builder);
      for (guint i = 0; refused[i] != NULL; i++)
        json_builder_add_string_value (builder, refused[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

void
_dc_project_add_entry (JsonBuilder *builder, DcDocument *document, guint symbol, DcKeyStatus status,
                       DcKeyLevel level, double confidence, const char *value,
                       const char *provenance, const char *const *refused)
{
  add_entry (builder, document, symbol, G_MAXUINT, status, level, confidence, value, provenance,
             refused);
}

/* A key entry, or a split's (@entry->on_glyph): the state of one occurrence. */
void
_dc_project_add_key_entry (JsonBuilder *builder, DcDocument *document, const DcKeyEntry *entry)
{
  add_entry (builder, document, entry->symbol, entry->on_glyph ? entry->glyph : G_MAXUINT,
             entry->status, entry->value != NULL ? entry->level : DC_KEY_LEVEL_NONE,
             entry->confidence, entry->value, entry->provenance,
             (const char *const *) entry->refused);
}

/* The splits, as key entries with a "glyph"; returns how many. */
static guint
add_splits (JsonBuilder *builder, DcDocument *document, DcKey *key)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  g_autofree guint *split = NULL;
  guint n_split;

  split = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_split);
  if (n_split == 0)
    return 0;
  json_builder_set_member_name (builder, "splits");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_split; i++)
    {
      const char *provenance;
      const char *value = dc_key_get_split (key, split[i], &provenance);

      add_entry (builder, document, glyphs[split[i]].symbol, split[i], DC_KEY_CONFIRMED,
                 DC_KEY_LEVEL_USER, 1.0, value, provenance, NULL);
    }
  json_builder_end_array (builder);
  return n_split;
}

/* Returns: (transfer container): of DcConflict, owned by the matcher or the project */
static GPtrArray *
open_conflicts (DcProject *self)
{
  GPtrArray *conflicts;

  if (self->matcher == NULL)
    return g_ptr_array_ref (self->conflicts);
  conflicts = g_ptr_array_new ();
  for (guint i = 0; i < dc_matcher_get_n_conflicts (self->matcher); i++)
    g_ptr_array_add (conflicts, (gpointer) dc_matcher_get_conflict (self->matcher, i));
  return conflicts;
}

static char *
project_to_json (DcProject *self, gsize *length)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *basename = g_path_get_basename (dc_document_get_path (self->document));
  gboolean splits_written;
  guint n_symbols;

  dc_document_get_symbols (self->document, &n_symbols);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, DC_PROJECT_FORMAT);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, DC_PROJECT_VERSION);
  json_builder_set_member_name (builder, "generator");
  json_builder_add_string_value (builder, "Decipher " PACKAGE_VERSION);

  json_builder_set_member_name (builder, "document");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sha256");
  json_builder_add_string_value (builder, dc_document_get_sha256 (self->document));
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, basename);
  json_builder_set_member_name (builder, "pages");
  json_builder_add_int_value (builder, dc_document_get_n_pages (self->document));
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "key");
  json_builder_begin_array (builder);
  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = dc_key_get_status (self->key, s);
      const char *const *refused = dc_key_get_refused (self->key, s);

      if (status == DC_KEY_UNKNOWN || status == DC_KEY_FROM_PDF)
        {
          /* The document's own state carries no value of ours, but a refusal is the
           * user's word and is kept with it. */
          if (refused != NULL)
            _dc_project_add_entry (builder, self->document, s, status, DC_KEY_LEVEL_NONE, 0, NULL,
                                   NULL, refused);
          continue;
        }
      _dc_project_add_entry (builder, self->document, s, status, dc_key_get_level (self->key, s),
                             dc_key_get_confidence (self->key, s), dc_key_peek_value (self->key, s),
                             dc_key_get_provenance (self->key, s), refused);
    }
  json_builder_end_array (builder);
  splits_written = add_splits (builder, self->document, self->key) > 0;

  json_builder_set_member_name (builder, "conflicts");
  {
    g_autoptr (GPtrArray) conflicts = open_conflicts (self);

    _dc_project_add_conflicts (builder, self->document, conflicts);
  }

  json_builder_set_member_name (builder, "history");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->history->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->history, i));
  json_builder_end_array (builder);
  splits_written |= _dc_project_add_history_steps (builder, self->document, self->key);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  /* Only a file that holds splits needs version 4: an older Decipher would drop them on its
   * next save, or take a split's undo step for its whole code's, so it must refuse such a
   * file; every other file stays readable by it. */
  if (!splits_written)
    json_object_set_int_member (json_node_get_object (root), "version",
                                DC_PROJECT_VERSION_WITHOUT_SPLITS);
  return dc_json_generate (root, TRUE, length);
}

/* The previous save becomes PATH~. A hard link costs nothing and never exposes a
 * half-copied backup; the rename makes the switch from the older backup atomic. */
static gboolean
keep_backup (const char *path, GError **error)
{
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *staging = g_strconcat (path, "~.tmp", NULL);
  g_autoptr (GFile) source = NULL;
  g_autoptr (GFile) dest = NULL;
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return TRUE; /* nothing saved there yet */
  if (!S_ISREG (st.st_mode))
    return TRUE; /* the save itself will say what is wrong */

  g_unlink (staging);
#ifdef G_OS_UNIX
  if (link (path, staging) != 0)
#endif
    {
      /* File systems without hard links (FAT, some network shares): copy instead. */
      source = g_file_new_for_path (path);
      dest = g_file_new_for_path (staging);
      if (!g_file_copy (source, dest, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NOFOLLOW_SYMLINKS, NULL,
                        NULL, NULL, error))
        {
          /* A copy cut short by a full disk would stay beside the project for good. */
          g_unlink (staging);
          return FALSE;
        }
    }
  if (g_rename (staging, backup) != 0)
    {
      int saved_errno = errno;

      g_unlink (staging);
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/* The rename that replaced the file only survives a power cut once its folder is on disk
 * too; GLib syncs the file but not the folder. */
static void
sync_folder (const char *path)
{
#ifdef G_OS_UNIX
  g_autofree char *folder = g_path_get_dirname (path);
  int fd = g_open (folder, O_RDONLY | O_DIRECTORY, 0);

  if (fd < 0)
    return;
  fsync (fd);
  g_close (fd, NULL);
#endif
}

/**
 * dc_project_save:
 * @path: (nullable): where to save; %NULL for where the project was last saved or loaded
 *
 * Writes the project atomically: a crash at any moment leaves either the previous file or
 * the new one, never a mix. The previous file is kept as @path~.
 */
gboolean
dc_project_save (DcProject *self, const char *path, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *display = NULL;
  gsize length = 0;

  g_return_val_if_fail (DC_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (path != NULL || self->path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (path == NULL)
    path = self->path;
  display = g_filename_display_basename (path);

  /* The save replaces what is at @path by renaming over it: a link or a device there would
   * be replaced by a regular file, and the PDF itself by its project (issue 11). */
  if (!_dc_file_may_write (path, dc_document_get_path (self->document), "project.decipher", error))
    return FALSE;

  data = project_to_json (self, &length);

  /* A missing backup is no reason to lose the decisions being saved now. Not a warning:
   * where the backup cannot be written (a read-only folder) the save fails too and says
   * so in one sentence; a second, GLib-formatted line would only repeat it (issue 11). */
  if (!keep_backup (path, &local_error))
    {
      g_debug ("Could not keep a backup of %s: %s", path, local_error->message);
      g_clear_error (&local_error);
    }

  if (!g_file_set_contents_full (path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0666,
                                 &local_error))
    {
      /* GLib's own message names its temporary file, which the user never asked for. */
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ROFS))
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Could not save the project “%s”: its folder is on a read-only file "
                       "system. Choose a folder you can write to."),
                        display);
      else if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ACCES)
               || g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_PERM))
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Could not save the project “%s”: you may not write to its folder. "
                       "Choose a folder you can write to."),
                        display);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Could not save the project “%s”: %s"), display, local_error->message);
      return FALSE;
    }
  sync_folder (path);
  if (self->journal != NULL
      && g_str_equal (path, _dc_project_journal_get_project_path (self->journal)))
    _dc_project_journal_truncate (self->journal);

  if (self->path != path)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
  return TRUE;
}

/* Loading */

gboolean
_dc_project_invalid (DcProjectLoader *loader, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  if (loader->journal != NULL)
    /* Translators: the last %s is a sentence saying why, like “Line 2 is not a change
     * Decipher records.” */
    g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                 _("Cannot open the project “%s”: its journal of recent changes, “%s”, is "
                   "damaged. %s"),
                    loader->display, loader->journal, reason);
  else
    /* Translators: the second %s is a sentence saying why, like “It is not valid JSON.” */
    g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                 _("Cannot open the project “%s”. %s"), loader->display, reason);
  return FALSE;
}

/* Where @offset falls in @data, as an editor shows it: line and column from 1, the
 * column counted in characters. */
static void
locate (const char *data, gsize offset, guint *line, guint *column)
{
  const char *line_start = data;

  *line = 1;
  for (gsize i = 0; i < offset; i++)
    if (data[i] == '\n')
      {
        (*line)++;
        line_start = data + i + 1;
      }
  /* The text is valid UTF-8, checked before. */
  *column = (guint) g_utf8_strlen (line_start, data + offset - line_start) + 1;
}

static gboolean
check_json_shape (DcProjectLoader *loader, const char *data, gsize length)
{
  gsize offset;
  guint line, column;

  switch (dc_json_check_text (data, length, MAX_DEPTH, &offset))
    {
    case DC_JSON_TEXT_ONE_VALUE:
      return TRUE;
    case DC_JSON_TEXT_TOO_DEEP:
      return invalid (loader, _("It nests deeper than any project does."));
    case DC_JSON_TEXT_NOT_JSON:
      locate (data, offset, &line, &column);
      return invalid (loader,
                      _("It is not valid JSON: line %u, column %u holds something JSON does not "
                        "allow there; perhaps it was edited by hand."),
                         line, column);
    case DC_JSON_TEXT_MORE:
      locate (data, offset, &line, &column);
      return invalid (loader, _("It holds more than one JSON value: another begins at line %u, "
                        "column %u; perhaps two files were joined."),
                                 line, column);
    case DC_JSON_TEXT_NUL:
      locate (data, offset, &line, &column);
      return invalid (loader, _("The text at line %u, column %u holds the character U+0000, which "
                        "Decipher never writes; perhaps it was edited by hand."),
                                 line, column);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
node_is_integer (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* A string member that is present, valid UTF-8 and at most @max_bytes long; a null one
 * too when @nullable. Sets *@out to NULL for null. */
gboolean
_dc_project_read_string (DcProjectLoader *loader, JsonObject *object, const char *name,
                         const char *where, gboolean nullable, gsize max_bytes, const char **out)
{
  JsonNode *node = json_object_get_member (object, name);
  const char *string;

  if (nullable && node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      *out = NULL;
      return TRUE;
    }
  if (!node_is_string (node))
    return invalid (loader, _("In %s, “%s” is missing or not text."), where, name);

  string = json_node_get_string (node);
  if (strlen (string) > max_bytes)
    return invalid (loader,
                    _("In %s, “%s” is %" G_GSIZE_FORMAT " bytes long, far longer than Decipher "
                      "writes."),
                       where, name, strlen (string));
  if (!g_utf8_validate (string, -1, NULL))
    return invalid (loader, _("In %s, “%s” is not valid UTF-8."), where, name);
  *out = string;
  return TRUE;
}

gboolean
_dc_project_read_uint (DcProjectLoader *loader, JsonObject *object, const char *name,
                       const char *where, guint64 max, guint64 *out)
{
  JsonNode *node = json_object_get_member (object, name);
  gint64 value;

  if (!node_is_integer (node))
    return invalid (loader, _("In %s, “%s” is missing or not a whole number."), where, name);
  value = json_node_get_int (node);
  if (value < 0 || (guint64) value > max)
    return invalid (loader, _("In %s, “%s” is %" G_GINT64_FORMAT ", out of range."), where, name,
                               value);
  *out = (guint64) value;
  return TRUE;
}

static gboolean
check_header (DcProjectLoader *loader, JsonNode *root)
{
  JsonObject *object;
  JsonNode *format, *version;
  gint64 number;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    return invalid (loader, _("It is not a Decipher project."));
  object = json_node_get_object (root);

  format = json_object_get_member (object, "format");
  if (!node_is_string (format) || g_strcmp0 (json_node_get_string (format), DC_PROJECT_FORMAT) != 0)
    return invalid (loader, _("It is not a Decipher project."));

  version = json_object_get_member (object, "version");
  if (!node_is_integer (version))
    return invalid (loader, _("It does not say which version of the format it uses."));
  number = json_node_get_int (version);
  if (number > DC_PROJECT_VERSION)
    {
      g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                   _("The project “%s” was made by a newer Decipher (format version %"
                     G_GINT64_FORMAT "). Update Decipher to open it."),
                      loader->display, number);
      return FALSE;
    }
  if (number < 1)
    return invalid (loader, _("Its format version %" G_GINT64_FORMAT " does not exist."), number);
  return TRUE;
}

static gboolean
check_document (DcProjectLoader *loader, JsonObject *root)
{
  JsonNode *node = json_object_get_member (root, "document");
  const char *document_path = dc_document_get_path (loader->document);
  g_autofree char *current = g_filename_display_basename (document_path);
  const char *where = _("its document");
  const char *sha256, *file;
  JsonObject *object;
  guint64 pages;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return invalid (loader, _("It does not say which document it belongs to."));
  object = json_node_get_object (node);

  if (!read_string (loader, object, "sha256", where, FALSE, 64, &sha256)
      || !read_string (loader, object, "file", where, FALSE, MAX_NAME_BYTES, &file)
      || !read_uint (loader, object, "pages", where, G_MAXUINT32, &pages))
    return FALSE;

  if (g_ascii_strcasecmp (sha256, dc_document_get_sha256 (loader->document)) != 0)
    {
      if (strcmp (file, current) == 0)
        g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                     _("The project “%s” was made for another version of “%s”: the files "
                       "differ, so its key would not fit this one."),
                        loader->display, file);
      else
        g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                     _("The project “%s” was made for “%s”, not for “%s”."), loader->display, file,
                        current);
      return FALSE;
    }
  if (pages != dc_document_get_n_pages (loader->document))
    return invalid (loader, _("It gives “%s” %u pages, but it has %u."), current, (guint) pages,
                               dc_document_get_n_pages (loader->document));
  return TRUE;
}

/* The values rejected for a symbol (since version 3), normalised; NULL when none. */
static gboolean
read_refused (DcProjectLoader *loader, JsonObject *object, guint index, char ***out)
{
  JsonNode *node = json_object_get_member (object, "refused");
  g_autoptr (GStrvBuilder) builder = NULL;
  JsonArray *array;
  guint length;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("Key entry %u has rejected values that are not a list."), index + 1);
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_REFUSED)
    return invalid (loader,
                    _("Key entry %u has %u rejected values, far more than anyone rejects."),
                       index + 1, length);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < length; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autoptr (GError) value_error = NULL;
      g_autofree char *value = NULL;

      if (!node_is_string (item) || strlen (json_node_get_string (item)) > MAX_VALUE_BYTES
          || (value = dc_key_normalize_value (json_node_get_string (item), &value_error)) == NULL)
        return invalid (loader, _("Rejected value %u of key entry %u is not a value Decipher "
                                  "writes."),
                                   i + 1, index + 1);
      g_strv_builder_add (builder, value);
    }
  if (length > 0)
    *out = g_strv_builder_end (builder);
  return TRUE;
}

/* The "glyph" of a split's entry: an occurrence of the entry's code, confirmed by the user
 * (or, in the journal and the undo history, no longer split: unknown). */
static gboolean
read_glyph (DcProjectLoader *loader, JsonObject *object, guint index, DcKeyEntry *entry)
{
  g_autofree char *where = g_strdup_printf (_("key entry %u"), index + 1);
  const DcSymbol *symbol = dc_document_get_symbol (loader->document, entry->symbol);
  guint n_glyphs;
  const DcGlyph *glyphs = dc_document_get_glyphs (loader->document, &n_glyphs);
  guint64 glyph;

  if (!read_uint (loader, object, "glyph", where, G_MAXUINT32, &glyph))
    return FALSE;
  if (glyph >= n_glyphs)
    return invalid (loader,
                    _("Key entry %u splits off glyph %u, but the document has only %u glyphs."),
                       index + 1, (guint) glyph, n_glyphs);
  if (glyphs[glyph].symbol != entry->symbol)
    return invalid (loader,
                    _("Key entry %u splits off glyph %u, which is not drawn with code 0x%X of "
                      "font %u."),
                       index + 1, (guint) glyph, symbol->code, symbol->font);
  if (entry->status != DC_KEY_CONFIRMED && entry->status != DC_KEY_UNKNOWN)
    return invalid (loader, _("Key entry %u splits off glyph %u with a value the user did not "
                              "confirm; only the user splits."),
                               index + 1, (guint) glyph);
  if (entry->refused != NULL)
    return invalid (loader, _("Key entry %u splits off glyph %u with rejected values, which only "
                              "a code has."),
                               index + 1, (guint) glyph);
  entry->on_glyph = TRUE;
  entry->glyph = (guint) glyph;
  return TRUE;
}

/* Key entry @index (from 0) into @entry. @seen (nullable) refuses a symbol twice. A journal
 * line may also return a symbol to what the document itself says (@any_status): unknown,
 * or the PDF's own text. */
gboolean
_dc_project_read_entry (DcProjectLoader *loader, JsonNode *node, guint index, guint8 *seen,
                        gboolean any_status, DcKeyEntry *entry)
{
  g_autoptr (GError) value_error = NULL;
  g_autofree char *where = g_strdup_printf (_("key entry %u"), index + 1);
  const char *font_name, *font_sha256, *value, *status_name, *provenance;
  const char *level_name = NULL;
  JsonNode *confidence;
  guint64 font_index, code;
  JsonObject *object;
  DcFont *font;
  DcKeyStatus status;
  guint symbol;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (loader, _("Key entry %u is not an object."), index + 1);
  object = json_node_get_object (node);

  if (!read_uint (loader, object, "font", where, G_MAXUINT32, &font_index)
      || !read_string (loader, object, "font_name", where, TRUE, MAX_NAME_BYTES, &font_name)
      || !read_string (loader, object, "font_sha256", where, TRUE, 64, &font_sha256)
      || !read_uint (loader, object, "code", where, G_MAXUINT32, &code)
      || !read_string (loader, object, "value", where, FALSE, MAX_VALUE_BYTES, &value)
      || !read_string (loader, object, "status", where, FALSE, 32, &status_name)
      || !read_string (loader, object, "provenance", where, TRUE, MAX_TEXT_BYTES, &provenance))
    return FALSE;

  if (font_index >= dc_document_get_n_fonts (loader->document))
    return invalid (loader, _("Key entry %u names font %u, but the document has only %u."),
                               index + 1, (guint) font_index,
                               dc_document_get_n_fonts (loader->document));
  font = dc_document_get_font (loader->document, font_index);
  if (g_strcmp0 (font_name, dc_font_get_name (font)) != 0
      || (font_sha256 != NULL && dc_font_get_program_sha256 (font) != NULL
          && g_ascii_strcasecmp (font_sha256, dc_font_get_program_sha256 (font)) != 0))
    return invalid (loader, _("Key entry %u is for a font “%s” the document does not have."),
                               index + 1, font_name != NULL ? font_name : _("(unnamed)"));

  if (!dc_document_lookup_symbol (loader->document, font_index, code, &symbol))
    return invalid (loader, _("Key entry %u is for code 0x%X, which font “%s” never draws."),
                               index + 1, (guint) code,
                               font_name != NULL ? font_name : _("(unnamed)"));
  if (seen != NULL && seen[symbol])
    return invalid (loader, _("Key entry %u repeats code 0x%X of font “%s”."), index + 1,
                               (guint) code, font_name != NULL ? font_name : _("(unnamed)"));
  if (seen != NULL)
    seen[symbol] = TRUE;

  if (!read_refused (loader, object, index, &entry->refused))
    return FALSE;
  /* A symbol back to the document's own state is written only with refusals. */
  if (!dc_key_status_from_string (status_name, &status)
      || (!any_status && entry->refused == NULL && status != DC_KEY_PROPOSED
          && status != DC_KEY_INFERRED && status != DC_KEY_CONFIRMED))
    return invalid (loader, _("Key entry %u has the status “%s”, which a project cannot hold."),
                               index + 1, status_name);

  entry->symbol = symbol;
  entry->status = status;
  if (json_object_has_member (object, "glyph") && !read_glyph (loader, object, index, entry))
    return FALSE;
  if (status == DC_KEY_UNKNOWN || status == DC_KEY_FROM_PDF)
    return TRUE; /* back to the document's own: no value of ours */

  /* Both optional: a file from before levels (version 1) has neither, and its levels are
   * told from status and provenance when the key takes the entry. */
  if (json_object_has_member (object, "level")
      && !read_string (loader, object, "level", where, TRUE, 32, &level_name))
    return FALSE;
  if (level_name != NULL
      && (!dc_key_level_from_string (level_name, &entry->level)
          || entry->level == DC_KEY_LEVEL_NONE))
    return invalid (loader, _("Key entry %u has the level “%s”, which Decipher does not know."),
                               index + 1, level_name);
  confidence = json_object_get_member (object, "confidence");
  if (confidence != NULL && !JSON_NODE_HOLDS_NULL (confidence))
    {
      GType type = JSON_NODE_HOLDS_VALUE (confidence) ? json_node_get_value_type (confidence)
                                                      : G_TYPE_INVALID;

      if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
        return invalid (loader, _("Key entry %u has a confidence that is not a number."),
                                   index + 1);
      entry->confidence = json_node_get_double (confidence);
      if (!(entry->confidence > 0 && entry->confidence <= 1))
        return invalid (loader,
                        _("Key entry %u has the confidence %g; it must be above 0 and at most 1."),
                           index + 1, entry->confidence);
    }

  entry->value = dc_key_normalize_value (value, &value_error);
  if (entry->value == NULL)
    return invalid (loader, _("Key entry %u has a value Decipher cannot use. %s"), index + 1,
                               value_error->message);
  entry->provenance = g_strdup (provenance);
  return TRUE;
}

static gboolean
read_splits (DcProjectLoader *loader, JsonObject *root, GArray *entries)
{
  JsonNode *node = json_object_get_member (root, "splits");
  JsonArray *array;
  guint length;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("Its splits are not a list."));
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_ITEMS)
    return invalid (loader, _("It has %u splits, far more than Decipher keeps."), length);
  for (guint i = 0; i < length; i++)
    {
      DcKeyEntry entry = { 0 };

      if (!_dc_project_read_entry (loader, json_array_get_element (array, i), i, NULL, FALSE,
                                   &entry)
          || (!entry.on_glyph
              /* invalid() says FALSE: the split is refused. */
              && !invalid (loader, _("Split %u does not say which glyph it splits off."), i + 1)))
        {
          _dc_key_entry_clear (&entry);
          return FALSE;
        }
      g_array_append_val (entries, entry);
    }
  return TRUE;
}

static gboolean
read_key (DcProjectLoader *loader, JsonObject *root, GArray *entries)
{
  JsonNode *node = json_object_get_member (root, "key");
  g_autofree guint8 *seen = NULL;
  guint n_symbols;
  JsonArray *array;
  guint length;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("It has no key."));
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_ITEMS)
    return invalid (loader, _("Its key has %u entries, far more than any document has symbols."),
                               length);

  dc_document_get_symbols (loader->document, &n_symbols);
  seen = g_new0 (guint8, n_symbols);
  for (guint i = 0; i < length; i++)
    {
      DcKeyEntry entry = { 0 };

      if (!_dc_project_read_entry (loader, json_array_get_element (array, i), i, seen, FALSE,
                                   &entry)
          || (entry.on_glyph
              /* invalid() says FALSE: the entry is refused. */
              && !invalid (loader, _("Key entry %u names a glyph; splits are listed apart."),
                                      i + 1)))
        {
          _dc_key_entry_clear (&entry);
          return FALSE;
        }
      g_array_append_val (entries, entry);
    }
  return read_splits (loader, root, entries);
}

static gboolean
read_history (DcProjectLoader *loader, JsonObject *root, GPtrArray *history)
{
  JsonNode *node = json_object_get_member (root, "history");
  JsonArray *array;
  guint length;

  if (node == NULL)
    return TRUE; /* written by hand, perhaps: nothing to replay */
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("Its history is not a list."));
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_ITEMS)
    return invalid (loader, _("Its history has %u entries, far more than Decipher keeps."),
                               length);

  for (guint i = 0; i < length; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *text;

      if (!node_is_string (item))
        return invalid (loader, _("History entry %u is not text."), i + 1);
      text = json_node_get_string (item);
      if (strlen (text) > MAX_TEXT_BYTES || !g_utf8_validate (text, -1, NULL))
        return invalid (loader, _("History entry %u is too long or not valid UTF-8."), i + 1);
      g_ptr_array_add (history, g_strdup (text));
    }
  return TRUE;
}

static void
clear_entry (gpointer data)
{
  _dc_key_entry_clear (data);
}

/**
 * dc_project_load:
 * @path: a project file
 * @document: the document it should belong to
 * @key: @document's key, which receives the project's key
 *
 * Reads a project, and the changes its journal recorded since it was last saved (see
 * dc_project_start_journal()), and only if all of it checks out, replaces what @key knows
 * with it, and with the undo and redo steps the project kept as far as they still apply
 * (a damaged history is dropped, never the project). A damaged, foreign or hostile file, one made
 * by a newer Decipher, or one for another document gives %DC_ERROR_PROJECT with a sentence saying
 * so, and leaves @key as it was.
 *
 * Returns: (transfer full): the project, holding @path and the input history
 */
DcProject *
dc_project_load (const char *path, DcDocument *document, DcKey *key, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GArray) entries = NULL;
  g_autoptr (GPtrArray) history = NULL;
  g_autoptr (GPtrArray) conflicts = NULL;
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  DcProjectLoader loader = { 0 };
  gboolean ok = TRUE;
  DcProject *self;
  JsonNode *root, *node;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (DC_IS_KEY (key), NULL);
  g_return_val_if_fail (dc_key_get_document (key) == document, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_basename (path);
  loader.display = display;
  loader.document = document;
  loader.error = error;

  /* Never through a link, never a device (issue 11): a project in /tmp may be a trap. */
  if (!_dc_file_read_regular (path, MAX_FILE_SIZE, &data, &length, &local_error))
    {
      if (g_error_matches (local_error, DC_ERROR, DC_ERROR_INVALID_INPUT)
          || g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_FAILED)
          || g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ISDIR))
        invalid (&loader, "%s", local_error->message);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                     _("Cannot open the project “%s”. %s"), display, local_error->message);
      return NULL;
    }

  if (!g_utf8_validate_len (data, length, NULL))
    ok = invalid (&loader, _("It is not text, so it is damaged or not a project."));
  else if (!check_json_shape (&loader, data, length))
    ok = FALSE;
  else if (!json_parser_load_from_data (parser, data, length, &local_error))
    ok = invalid (&loader, _("It is not valid JSON; perhaps it was cut short (%s)."),
                              local_error->message);
  else if (json_parser_get_root (parser) == NULL)
    ok = invalid (&loader, _("It is empty."));
  if (!ok)
    return NULL;

  root = json_parser_get_root (parser);
  if (!check_header (&loader, root) || !check_document (&loader, json_node_get_object (root)))
    return NULL;

  entries = g_array_new (FALSE, TRUE, sizeof (DcKeyEntry));
  g_array_set_clear_func (entries, clear_entry);
  history = g_ptr_array_new_null_terminated (1, g_free, TRUE);
  conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
  node = json_object_get_member (json_node_get_object (root), "conflicts");
  if (!read_key (&loader, json_node_get_object (root), entries)
      || !read_history (&loader, json_node_get_object (root), history)
      || (node != NULL && !_dc_project_read_conflicts (&loader, node, conflicts))
      || !_dc_project_journal_replay (&loader, path, entries, history, &conflicts))
    return NULL;

  /* Everything checked: only now does the key change. */
  _dc_key_restore (key, (const DcKeyEntry *) (void *) entries->data, entries->len);
  _dc_project_restore_history_steps (json_node_get_object (root), display, document, key);

  self = dc_project_new (document, key);
  self->path = g_strdup (path);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  self->history = g_steal_pointer (&history);
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);
  self->conflicts = g_steal_pointer (&conflicts);
  return self;
}

/**
 * dc_project_start_journal:
 * @path: the project file the journal completes, usually where it was just saved
 * @durable: whether dc_project_sync_journal() also flushes each change to the disk
 *
 * From now on every change of the key, and every input added, is appended to @path's
 * journal as it happens, so that a crash or a kill at any moment loses nothing:
 * dc_project_load() of @path replays it. dc_project_save() to @path empties it. Without
 * @durable the changes reach the kernel at once, which keeps them through the death of
 * the process but not through a power cut; a full save soon after covers that.
 */
gboolean
dc_project_start_journal (DcProject *self, const char *path, gboolean durable, GError **error)
{
  DcProjectJournal *journal;

  g_return_val_if_fail (DC_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  journal = _dc_project_journal_open (self->key, path, durable, error);
  if (journal == NULL)
    return FALSE;
  g_clear_pointer (&self->journal, _dc_project_journal_free);
  self->journal = journal;
  return TRUE;
}

/**
 * dc_project_sync_journal:
 *
 * Says whether every change since the last call was recorded (and, for a durable
 * journal, reached the disk), with a sentence when one was not. A journal grown past a
 * few MB is folded into a full save of the project here, so that loading stays quick.
 * Without a journal, there is nothing to say.
 */
gboolean
dc_project_sync_journal (DcProject *self, GError **error)
{
  g_return_val_if_fail (DC_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->journal == NULL)
    return TRUE;
  if (!_dc_project_journal_sync (self->journal, error))
    return FALSE;
  if (_dc_project_journal_get_size (self->journal) > JOURNAL_FOLD_SIZE)
    return dc_project_save (self, _dc_project_journal_get_project_path (self->journal), error);
  return TRUE;
}

static void
conflicts_changed_cb (DcMatcher *matcher, DcProject *self)
{
  g_autoptr (GPtrArray) conflicts = NULL;

  if (self->journal == NULL)
    return;
  conflicts = open_conflicts (self);
  _dc_project_journal_add_conflicts (self->journal, conflicts);
}

/**
 * dc_project_set_matcher:
 * @matcher: the matcher over the project's key, where conflicts are raised and resolved
 *
 * Hands the conflicts the project kept open (or an earlier matcher held) to @matcher,
 * and from now on keeps (saves, and journals) the ones @matcher holds open.
 */
void
dc_project_set_matcher (DcProject *self, DcMatcher *matcher)
{
  g_autoptr (GPtrArray) open = NULL;

  g_return_if_fail (DC_IS_PROJECT (self));
  g_return_if_fail (DC_IS_MATCHER (matcher));

  if (self->matcher == matcher)
    return;
  if (self->matcher != NULL)
    {
      open = open_conflicts (self);
      for (guint i = 0; i < open->len; i++)
        g_ptr_array_add (self->conflicts, dc_conflict_copy (g_ptr_array_index (open, i)));
      g_clear_signal_handler (&self->conflicts_handler, self->matcher);
      g_clear_object (&self->matcher);
    }

  self->matcher = g_object_ref (matcher);
  for (guint i = 0; i < self->conflicts->len; i++)
    dc_matcher_add_conflict (matcher, g_ptr_array_index (self->conflicts, i));
  g_ptr_array_set_size (self->conflicts, 0);
  self->conflicts_handler = g_signal_connect (matcher, "conflicts-changed",
                                              G_CALLBACK (conflicts_changed_cb), self);
}

/**
 * dc_project_peek_document:
 * @path: a project file
 * @file: (out) (optional): the name of the PDF it was made for
 *
 * Which document a project belongs to, without reading its key: a collection run
 * (decipher-cli text DIR --project P) looks among its files for the one whose decisions
 * it carries to the others. dc_project_load() still checks everything when it is loaded.
 *
 * Returns: (transfer full): the SHA-256 of the PDF the project was made for, or %NULL
 *   with %DC_ERROR_PROJECT when the file is not a project Decipher can read
 */
char *
dc_project_peek_document (const char *path, char **file, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  g_autoptr (GError) local_error = NULL;
  JsonObject *document = NULL;
  JsonNode *root, *node;
  const char *sha256 = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_basename (path);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)
      || !g_file_get_contents (path, &data, &length, &local_error))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                   _("Cannot open the project “%s”. %s"), display,
                      local_error != NULL ? local_error->message : _("It is not a file."));
      return NULL;
    }
  if (length <= MAX_FILE_SIZE && g_utf8_validate_len (data, length, NULL)
      && json_parser_load_from_data (parser, data, (gssize) length, NULL)
      && (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root)
      && (node = json_object_get_member (json_node_get_object (root), "document")) != NULL
      && JSON_NODE_HOLDS_OBJECT (node))
    document = json_node_get_object (node);
  if (document != NULL && node_is_string (json_object_get_member (document, "sha256")))
    sha256 = json_object_get_string_member (document, "sha256");
  if (sha256 == NULL || strlen (sha256) != 64)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_PROJECT,
                   _("“%s” is not a Decipher project, or it is damaged: it does not say which "
                     "document it belongs to."),
                      display);
      return NULL;
    }
  if (file != NULL)
    *file = node_is_string (json_object_get_member (document, "file"))
                ? g_strdup (json_object_get_string_member (document, "file"))
                : NULL;
  return g_ascii_strdown (sha256, -1);
}
