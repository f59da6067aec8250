/* dc-project-save.c: a project written out, atomically, with a backup of the last save
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-project.c. A project file is the only copy of hours of a linguist's work:
 * a crash at any moment of a save leaves either the previous file or the new one, never a
 * mix, and the previous one is kept as PATH~.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <errno.h>

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
#include "dc-project-state-private.h"

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
  splits_written = _dc_project_add_splits (builder, self->document, self->key) > 0;

  json_builder_set_member_name (builder, "conflicts");
  {
    g_autoptr (GPtrArray) conflicts = _dc_project_open_conflicts (self);

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
