/* decipher-session.c: one open document, its key, and the project that keeps it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A window's open document: the engine's DcSession (src/libdecipher/session/dc-session.c),
 * which owns the document, key, matcher and project and holds every rule of how a
 * decision is taken — the same object decipher-cli's session drives — and what is the
 * window's own: the file and the copy its pages are drawn from, the project's journal
 * and its autosave a second after a change, and what to say when earlier work could not
 * be restored or nothing can be saved. Widgets take the engine's objects from it and
 * decide through dc_session_*(); what the window shows (page, zoom, selected symbol) is
 * DecipherViewState's, how it is worded decipher-labels.c's, and how a document is
 * opened decipher-session-loader.c's. See docs/architecture.md.
 */

#define G_LOG_DOMAIN "decipher-session"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "decipher-session-private.h"

/* Long enough that typing a few letters in a row saves once, short enough that a crash
 * loses at most a second of work. */
#define AUTOSAVE_DELAY_MS 1000

G_DEFINE_FINAL_TYPE (DecipherSession, decipher_session, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_DIRTY,
  N_PROPS
};

enum
{
  SAVE_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
autosave_cb (gpointer data)
{
  DecipherSession *self = data;
  g_autoptr (GError) error = NULL;

  self->autosave_source = 0;
  if (!decipher_session_save (self, &error))
    g_signal_emit (self, signals[SAVE_FAILED], 0, error->message);
  return G_SOURCE_REMOVE;
}

static void
key_changed_cb (DecipherSession *self, guint symbol, DcKey *key)
{
  g_autoptr (GError) error = NULL;

  if (!self->dirty)
    {
      self->dirty = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
    }
  /* Said once, when it opened: nothing here is written. */
  if (self->read_only_reason != NULL)
    return;
  /* The first decision on a new document: saved whole, journalled from there on. */
  _decipher_session_start_journal (self);
  /* The journal wrote the change while the key announced it; a failure is said now, not
   * a second later. (A change through the engine's session was synced already; this is
   * for the others, such as a project file taken over.) */
  if (!dc_session_sync (self->engine, &error))
    g_signal_emit (self, signals[SAVE_FAILED], 0, error->message);
  /* Restarting the timer debounces a burst of changes into one write. */
  g_clear_handle_id (&self->autosave_source, g_source_remove);
  self->autosave_source = g_timeout_add (AUTOSAVE_DELAY_MS, autosave_cb, self);
}

/* From the first decision on, every decision is on disk as it is made (see
 * dc_project_start_journal()): the autosave a second later only tidies up. The journal
 * completes a project file, so new work gets its file first, once there is work: a
 * document only looked at leaves nothing behind. Without a journal (a read-only folder,
 * an earlier project in the way) the autosave still runs, and says when it fails. */
void
_decipher_session_start_journal (DecipherSession *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = NULL;

  if (self->journaling || self->keep_in_place || self->read_only_reason != NULL
      || (!self->restored && !self->dirty))
    return;
  folder = g_path_get_dirname (self->autosave_path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      g_warning ("Cannot create %s: %s", folder, g_strerror (errno));
      return;
    }
  if (!self->restored)
    {
      if (!dc_session_save (self->engine, self->autosave_path, &error))
        {
          g_warning ("%s", error->message);
          return;
        }
      self->dirty = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
    }
  if (!dc_session_start_journal (self->engine, self->autosave_path, FALSE, &error))
    g_warning ("%s", error->message);
  else
    self->journaling = TRUE;
}

/* Called once the loader hands the session to the main thread: from now on every change
 * of the key is journalled and autosaved. */
void
_decipher_session_watch_key (DecipherSession *self)
{
  g_signal_connect_object (self->key, "changed", G_CALLBACK (key_changed_cb), self,
                           G_CONNECT_SWAPPED);
  /* The automatic guesses are work too: saved like any change. */
  if (self->dirty)
    self->autosave_source = g_timeout_add (AUTOSAVE_DELAY_MS, autosave_cb, self);
}

static void
decipher_session_dispose (GObject *object)
{
  DecipherSession *self = DECIPHER_SESSION (object);

  /* Nothing the user decided is lost: whoever drops the last reference without saving
   * (a crash of the window code, a test) still gets the work written. */
  if (self->dirty && self->key != NULL && self->read_only_reason == NULL)
    {
      g_autoptr (GError) error = NULL;

      if (!decipher_session_save (self, &error))
        g_warning ("Could not save the project of %s: %s", dc_document_get_path (self->document),
                   error->message);
    }
  g_clear_handle_id (&self->autosave_source, g_source_remove);
  if (self->key != NULL)
    g_signal_handlers_disconnect_by_data (self->key, self);

  G_OBJECT_CLASS (decipher_session_parent_class)->dispose (object);
}

static void
decipher_session_finalize (GObject *object)
{
  DecipherSession *self = DECIPHER_SESSION (object);

  self->key = NULL;
  self->document = NULL;
  g_clear_object (&self->engine);
  g_clear_object (&self->file);
  g_clear_object (&self->render_file);
  g_clear_pointer (&self->password, g_free);
  g_clear_pointer (&self->autosave_path, g_free);
  g_clear_pointer (&self->restore_problem, g_free);
  g_clear_pointer (&self->read_only_reason, g_free);

  G_OBJECT_CLASS (decipher_session_parent_class)->finalize (object);
}

static void
decipher_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DecipherSession *self = DECIPHER_SESSION (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_session_class_init (DecipherSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = decipher_session_dispose;
  object_class->finalize = decipher_session_finalize;
  object_class->get_property = decipher_session_get_property;

  properties[PROP_DIRTY] = g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DecipherSession::save-failed:
   * @message: a sentence saying why
   *
   * The autosave could not write the project; it is retried at the next change.
   */
  signals[SAVE_FAILED] = g_signal_new ("save-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
decipher_session_init (DecipherSession *self)
{
}

/* ---- accessors -------------------------------------------------------------------- */

GFile *
decipher_session_get_file (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->file;
}

/* Returns: (transfer none): the file to draw the pages from: the document, or a copy of
 * it that poppler draws right (dc_repair_write_render_copy()) */
GFile *
decipher_session_get_render_file (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->render_file != NULL ? self->render_file : self->file;
}

char *
decipher_session_dup_title (DecipherSession *self)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  path = g_file_get_path (self->file);
  return g_filename_display_basename (path);
}

const char *
decipher_session_get_password (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->password;
}

DcDocument *
decipher_session_get_document (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->document;
}

DcKey *
decipher_session_get_key (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->key;
}

DcProject *
decipher_session_get_project (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return dc_session_get_project (self->engine);
}

/* The engine's session: where every decision is taken (docs/architecture.md). */
DcSession *
decipher_session_get_engine (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->engine;
}

/* Where the open conflicts are. */
const char *
decipher_session_get_autosave_path (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->autosave_path;
}

/* Whether the key was restored from an autosaved project when the document opened. */
gboolean
decipher_session_get_restored (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), FALSE);

  return self->restored;
}

/* Returns: (nullable): a sentence saying why an autosaved project was not restored. */
const char *
decipher_session_get_restore_problem (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->restore_problem;
}

/* Returns: (nullable): a sentence saying why nothing in this session is saved (another
 * program writes its project), or %NULL when it is saved as usual. */
const char *
decipher_session_get_read_only_reason (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), NULL);

  return self->read_only_reason;
}

/* How many symbols the automatic pass guessed when the document opened as new work. */
guint
decipher_session_get_n_guessed (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), 0);

  return self->n_guessed;
}

gboolean
decipher_session_get_dirty (DecipherSession *self)
{
  g_return_val_if_fail (DECIPHER_IS_SESSION (self), FALSE);

  return self->dirty;
}

/**
 * decipher_session_save:
 *
 * Writes the project to its autosave file now, if anything changed since the last
 * write. The file is replaced atomically, so a crash mid-write keeps the old one.
 */
gboolean
decipher_session_save (DecipherSession *self, GError **error)
{
  g_autofree char *folder = NULL;

  g_return_val_if_fail (DECIPHER_IS_SESSION (self), FALSE);

  g_clear_handle_id (&self->autosave_source, g_source_remove);
  /* A read-only session writes nothing; it said so when it opened. */
  if (!self->dirty || self->read_only_reason != NULL)
    return TRUE;

  if (self->keep_in_place && g_file_test (self->autosave_path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *display = g_filename_display_name (self->autosave_path);

      g_set_error (error, DC_ERROR, DC_ERROR_PROJECT,
                   _("The earlier project “%s” could not be read or moved aside; move it "
                     "elsewhere so that your work can be saved."),
                      display);
      return FALSE;
    }
  self->keep_in_place = FALSE;

  folder = g_path_get_dirname (self->autosave_path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (folder);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Cannot create the folder “%s”: %s"), display, g_strerror (saved_errno));
      return FALSE;
    }
  if (!dc_session_save (self->engine, self->autosave_path, error))
    return FALSE;

  self->dirty = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
  return TRUE;
}
