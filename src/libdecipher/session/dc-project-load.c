/* dc-project-load.c: a project file read and checked before the key takes it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-project.c. Loading trusts nothing in the file: it may be damaged, made by
 * another version, meant for another document, or hostile; each fault is one sentence
 * naming where it is. The key is only touched once the whole file, and its journal, have
 * been checked. The readers of members here serve the journal and the conflicts too.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-json.h"
#include "dc-key-private.h"
#include "dc-project-state-private.h"

/* dc-project-entries.c, dc-project-journal.c and dc-project-conflicts.c read with these
 * too. */
#define invalid _dc_project_invalid
#define read_string _dc_project_read_string
#define read_uint _dc_project_read_uint
#define node_is_string _dc_project_node_is_string

#define MAX_FILE_SIZE DC_PROJECT_MAX_FILE_SIZE
#define MAX_ITEMS DC_PROJECT_MAX_ITEMS
/* Our format nests three deep; json-glib recurses per level and overflows the stack on a
 * file of a few thousand brackets. */
#define MAX_DEPTH 16
#define MAX_TEXT_BYTES DC_PROJECT_MAX_TEXT_BYTES
#define MAX_NAME_BYTES DC_PROJECT_MAX_NAME_BYTES

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

gboolean
_dc_project_node_is_string (JsonNode *node)
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
  if (!_dc_project_read_key (&loader, json_node_get_object (root), entries)
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
