/* dc-project.c: a document's recovered key and input history, saved as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project file is the only copy of hours of a linguist's work, so saving never leaves a
 * half-written file, and loading trusts nothing in the file: it may be damaged, made by
 * another version, meant for another document, or hostile. The key is only touched once
 * the whole file has been checked. The format and its version rule: docs/project-format.md.
 *
 * Here: the object, its input history, its journal and the conflicts it keeps. Saving is
 * dc-project-save.c, loading dc-project-load.c, one key entry written and read
 * dc-project-entries.c; they share dc-project-state-private.h.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include "dc-project-state-private.h"

/* Past this, a journal costs more to replay than a save costs to write. */
#define JOURNAL_FOLD_SIZE (4 * 1024 * 1024)

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

/* Returns: (transfer container): of DcConflict, owned by the matcher or the project */
GPtrArray *
_dc_project_open_conflicts (DcProject *self)
{
  GPtrArray *conflicts;

  if (self->matcher == NULL)
    return g_ptr_array_ref (self->conflicts);
  conflicts = g_ptr_array_new ();
  for (guint i = 0; i < dc_matcher_get_n_conflicts (self->matcher); i++)
    g_ptr_array_add (conflicts, (gpointer) dc_matcher_get_conflict (self->matcher, i));
  return conflicts;
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
  conflicts = _dc_project_open_conflicts (self);
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
      open = _dc_project_open_conflicts (self);
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
