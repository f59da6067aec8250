/* dc-session-project.c: a session's project locked, loaded, started, saved and journaled
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-session.c. Where the key is kept, and when a decision reaches the disk:
 * the lock that makes this session the project's only writer, a project loaded or new
 * work started with the pipeline's levels, a save that replaces only this session's own
 * files, and the journal each decision is synced to before it returns.
 */

#define G_LOG_DOMAIN "dc-session"

#include "config.h"

#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-pipeline.h"
#include "dc-session-private.h"

#define learn _dc_session_learn

/* Remembers @path as one of this session's own project files (see dc_session_save_copy()). */
static void
own_path (DcSession *self, const char *path)
{
  g_hash_table_add (self->own_paths, g_canonicalize_filename (path, NULL));
}

/**
 * dc_session_lock_project:
 * @path: the project file this session will load, save and journal
 * @holder: who is writing, as a second writer is told (see dc_project_lock())
 *
 * Makes this session the only writer of @path for its lifetime. Take it before loading
 * or saving @path: a second writer gets %DC_ERROR_IN_USE with a sentence saying so.
 */
gboolean
dc_session_lock_project (DcSession *self, const char *path, const char *holder, GError **error)
{
  DcProjectLock *lock;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (holder != NULL, FALSE);

  lock = dc_project_lock (path, holder, error);
  if (lock == NULL)
    return FALSE;
  g_clear_pointer (&self->lock, dc_project_unlock);
  self->lock = lock;
  return TRUE;
}

/**
 * dc_session_load_project:
 * @path: a project file (docs/project-format.md), with its journal if it has one
 *
 * Takes the key, history and open conflicts from @path. Nothing changes when it fails.
 */
gboolean
dc_session_load_project (DcSession *self, const char *path, GError **error)
{
  g_autoptr (DcProject) project = NULL;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  project = dc_project_load (path, self->document, self->key, error);
  if (project == NULL)
    return FALSE;
  g_set_object (&self->project, project);
  own_path (self, path);
  /* The project holds the work: the levels of new work are not needed. */
  dc_pipeline_drop_prefetch (self->pipeline);
  /* Conflicts left open last time are open again. */
  dc_project_set_matcher (self->project, self->matcher);
  return TRUE;
}

/**
 * dc_session_start_new_work:
 * @automatic_pass: %FALSE leaves out the automatic pass and the installed fonts, whatever
 *   the pipeline's levels
 *
 * New work starts with the levels of the session's pipeline (dc_session_set_pipeline():
 * the libraries, the automatic pass, the installed fonts, then the proposals they lead
 * to), as one step the user can undo. Only for new work: on a loaded project it would
 * bring back guesses the user had undone.
 *
 * Returns: how many symbols the levels decoded
 */
guint
dc_session_start_new_work (DcSession *self, gboolean automatic_pass)
{
  DcPipelineLevels levels;
  guint n_decoded;

  g_return_val_if_fail (DC_IS_SESSION (self), 0);

  levels = dc_pipeline_get_levels (self->pipeline);
  if (!automatic_pass)
    dc_pipeline_set_levels (self->pipeline,
                            levels & ~(DC_PIPELINE_AUTOMATIC_PASS | DC_PIPELINE_REFERENCES));
  n_decoded = dc_pipeline_apply (self->pipeline, self->key, &self->shapes, &self->auto_report);
  dc_pipeline_set_levels (self->pipeline, levels);
  if (dc_pipeline_get_references_error (self->pipeline) != NULL)
    g_message ("%s", dc_pipeline_get_references_error (self->pipeline)->message);
  return n_decoded;
}

/**
 * dc_session_get_auto_report:
 *
 * What the automatic pass of dc_session_start_new_work() guessed per untrusted font, and
 * why, in sentences for the user. Its `ran` is FALSE when the pass did not run in this
 * session (no automatic pass asked for, or the work came from a project).
 */
const DcAutoReport *
dc_session_get_auto_report (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return &self->auto_report;
}

/**
 * dc_session_save:
 *
 * Writes the whole project to @path, atomically; when @path is the file the journal
 * completes, the journal starts over empty.
 */
gboolean
dc_session_save (DcSession *self, const char *path, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Said plainly here: the save itself would fail with a message about a temporary file. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” is a folder; give the file to save the project in, such as "
                     "“%s”."),
                      path, "project.decipher");
      return FALSE;
    }
  if (!dc_project_save (self->project, path, error))
    return FALSE;
  own_path (self, path);
  return TRUE;
}

/**
 * dc_session_save_copy:
 *
 * dc_session_save() for a path a client names (the session protocol's `save`): it
 * writes only a new file, an empty one, or one of this session's own project files
 * (the one it loaded or journals to, and the copies it saved). Any other file, such as
 * another project, is refused with a sentence rather than replaced, and so are a link,
 * a device and the document itself (dc_project_save()).
 */
gboolean
dc_session_save_copy (DcSession *self, const char *path, GError **error)
{
  g_autofree char *canonical = NULL;
  GStatBuf st;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  canonical = g_canonicalize_filename (path, NULL);
  if (!g_hash_table_contains (self->own_paths, canonical) && g_lstat (path, &st) == 0
      && S_ISREG (st.st_mode) && st.st_size > 0
      && !_dc_file_same (path, dc_document_get_path (self->document)))
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” already exists and is not this session’s project; saving would "
                     "replace it. Give a new file name, or remove that file first."),
                      display);
      return FALSE;
    }
  return dc_session_save (self, path, error);
}

/**
 * dc_session_start_journal:
 * @path: the project file the journal completes, where it was just saved or loaded
 * @durable: whether each decision is flushed to the disk before it returns
 *
 * From now on every decision is appended to @path's journal as it is made
 * (docs/project-format.md), so that a crash or a kill at any moment loses nothing.
 */
gboolean
dc_session_start_journal (DcSession *self, const char *path, gboolean durable, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!dc_project_start_journal (self->project, path, durable, error))
    return FALSE;
  own_path (self, path);
  return TRUE;
}

/**
 * dc_session_sync:
 *
 * Says whether every change so far is recorded (without a journal, there is nothing to
 * say). Each decision below calls it before it returns; a caller that changes the key
 * itself calls it after.
 */
gboolean
dc_session_sync (DcSession *self, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  learn (self, FALSE);
  return dc_project_sync_journal (self->project, error);
}
