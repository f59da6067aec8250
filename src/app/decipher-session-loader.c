/* decipher-session-loader.c: opening a document for a window, off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A worker thread extracts the document with every evidence level (the pipeline
 * decipher-cli uses), writes the copy poppler draws the pages from, takes the project's
 * lock, restores the autosaved project or starts new work, and hands the finished
 * DecipherSession to the main thread, telling it on the way how far the pages are. What
 * the session then does with the key's changes is decipher-session.c's.
 */

#define G_LOG_DOMAIN "decipher-session"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "decipher-session-private.h"

/* Shared by the loading thread and the main thread: the last progress is kept here and
 * at most one idle is queued, so a 500-page document does not flood the main loop. */
typedef struct
{
  GMainContext *context;
  DecipherLoadProgress func;
  gpointer data;
  gint pages_done;
  gint n_pages;
  gint reading_fonts; /* the installed fonts are read once, after the pages */
  gint queued;
  gint finished; /* main thread only: no more reports after the task returned */
} Progress;

static void
progress_free (Progress *progress)
{
  g_main_context_unref (progress->context);
}

static gboolean
progress_idle (gpointer data)
{
  Progress *progress = data;
  int done, total;

  g_atomic_int_set (&progress->queued, FALSE);
  if (progress->finished || progress->func == NULL)
    return G_SOURCE_REMOVE;
  done = g_atomic_int_get (&progress->pages_done);
  total = g_atomic_int_get (&progress->n_pages);
  if (g_atomic_int_get (&progress->reading_fonts))
    progress->func (-1.0, progress->data);
  else
    progress->func (total > 0 ? (double) done / total : 0.0, progress->data);
  return G_SOURCE_REMOVE;
}

static void
queue_report (Progress *progress)
{
  /* An idle source, not g_main_context_invoke(): that would run the report right here,
   * in the loading thread, whenever the main thread happens not to hold its context. */
  if (g_atomic_int_compare_and_exchange (&progress->queued, FALSE, TRUE))
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, progress_idle, g_atomic_rc_box_acquire (progress),
                             (GDestroyNotify) (void (*) (void)) g_atomic_rc_box_release);
      g_source_set_static_name (source, "[decipher] load progress");
      g_source_attach (source, progress->context);
      g_source_unref (source);
    }
}

static void
progress_cb (guint pages_done, guint n_pages, gpointer data)
{
  Progress *progress = data;

  g_atomic_int_set (&progress->pages_done, (int) pages_done);
  g_atomic_int_set (&progress->n_pages, (int) n_pages);
  queue_report (progress);
}

typedef struct
{
  GFile *file;
  char *password;
  Progress *progress;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_object (&data->file);
  g_free (data->password);
  g_atomic_rc_box_release_full (data->progress, (GDestroyNotify) progress_free);
  g_free (data);
}

char *
decipher_autosave_path_for_sha256 (const char *sha256)
{
  g_autofree char *name = g_strconcat (sha256, ".decipher-project", NULL);

  return g_build_filename (g_get_user_data_dir (), "decipher", "projects", name, NULL);
}

/* A project that cannot be loaded is never overwritten: it is moved aside under a name of
 * its own (never over an earlier one), kept for whoever wants to look at it, and the
 * document opens with a fresh key. If it cannot be moved, the autosave leaves it alone. */
static void
set_aside (DecipherSession *self, const GError *error)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *aside = NULL;
  g_autofree char *display = NULL;
  int saved_errno = 0;

  for (guint n = 1; aside == NULL || g_file_test (aside, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside);
      aside = n == 1 ? g_strdup_printf ("%s.damaged-%s", self->autosave_path, stamp)
                     : g_strdup_printf ("%s.damaged-%s-%u", self->autosave_path, stamp, n);
    }

  if (g_rename (self->autosave_path, aside) == 0)
    {
      g_autofree char *journal = g_strconcat (self->autosave_path, ".journal", NULL);
      g_autofree char *journal_aside = g_strconcat (aside, ".journal", NULL);
      GStatBuf st;

      /* Its journal goes with it, if it says anything: replayed over new work it would
       * not fit. */
      if (g_stat (journal, &st) == 0 && (st.st_size == 0 || g_rename (journal, journal_aside) != 0))
        g_unlink (journal);
      display = g_filename_display_name (aside);
      /* Translators: the middle %s is the engine's sentence saying what is wrong. */
      self->restore_problem = g_strdup_printf (_("Your earlier work on this document could not "
                                                 "be read, so the document opens without it. %s "
                                                 "The file was kept as “%s”."),
                                                  error->message, display);
      return;
    }

  saved_errno = errno;
  display = g_filename_display_name (self->autosave_path);
  self->keep_in_place = TRUE;
  self->restore_problem = g_strdup_printf (_("Your earlier work on this document could not be "
                                             "read, so the document opens without it. %s It "
                                             "could not be moved aside (%s), so your new work "
                                             "will not be saved until “%s” is moved elsewhere."),
                                              error->message, g_strerror (saved_errno), display);
}

/* The window is the project's only writer while it shows the document (see
 * dc_project_lock()). When another program (a decipher-cli session, or this document open
 * under another name) holds it, the document opens read-only: both writing would
 * overwrite each other's work. */
static void
lock_project (DecipherSession *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (self->autosave_path);

  /* The lock lives beside the project; the folder is made now rather than at the first
   * decision. A folder that cannot be made: the first save says so. */
  if (g_mkdir_with_parents (folder, 0700) != 0)
    return;
  if (dc_session_lock_project (self->engine, self->autosave_path,
                               _("the Decipher window"), &error))
    return;
  /* Issue 33: without the lock a second writer could save over this window's work, so
   * any failure to take it (other than a folder nothing can be saved in, which the engine
   * takes as a lock that locks nothing) leaves the window read-only, with the reason. */
  if (g_error_matches (error, DC_ERROR, DC_ERROR_IN_USE))
    /* Translators: %s is the engine's sentence naming the project and the other program. */
    self->read_only_reason = g_strdup_printf (_("%s This window shows the work saved so far, "
                                                "but nothing you decide here will be saved. "
                                                "Open the document again once the other "
                                                "program is closed."),
                                                 error->message);
  else
    /* Translators: %s is the engine's sentence saying why the lock could not be taken. */
    self->read_only_reason = g_strdup_printf (_("%s This window shows the work saved so far, "
                                                "but nothing you decide here will be saved, "
                                                "since another program could save over it."),
                                                 error->message);
}

/* Poppler draws a font that is not embedded, and is drawn by the glyph numbers of an
 * installed font, with other glyphs than the font's: such a page is drawn from a copy
 * that makes it draw the right ones. Not for an encrypted PDF, whose copy would be
 * written unencrypted. */
static GFile *
write_render_copy (DcDocument *document, const char *password)
{
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  path = dc_repair_write_cached_render_copy (document, password, &error);
  if (error != NULL)
    g_warning ("The pages are drawn from the original file, with some glyphs wrong: %s",
               error->message);
  return path != NULL ? g_file_new_for_path (path) : NULL;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr (DecipherSession) self = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_file_get_path (data->file);
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (DcPipeline) pipeline = NULL;
  g_autoptr (DcLibrary) library = NULL;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (data->file);

      g_task_return_new_error (task, DC_ERROR, DC_ERROR_NOT_FOUND,
                               _("“%s” is not a local file, so Decipher cannot read it."), uri);
      return;
    }

  self = g_object_new (DECIPHER_TYPE_SESSION, NULL);
  self->file = g_object_ref (data->file);
  self->password = g_strdup (data->password);
  /* Every level, in the order decipher-cli applies them (dc-pipeline.c), so that the
   * window shows what `decipher-cli text` prints. */
  pipeline = dc_pipeline_new (DC_PIPELINE_ALL);
  library = dc_pipeline_open_user_library (NULL, NULL, &error);
  if (error != NULL)
    {
      g_message ("%s", error->message);
      g_clear_error (&error);
    }
  dc_pipeline_set_library (pipeline, library);
  document = dc_pipeline_load_document (pipeline, path, data->password, NULL, progress_cb,
                                        data->progress, cancellable, &error);
  if (document == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Everything below touches only objects this thread made: the engine's session is
   * handed to the main thread with this one and never used here again. */
  self->render_file = write_render_copy (document, data->password);
  self->engine = dc_session_new (document);
  self->document = dc_session_get_document (self->engine);
  self->key = dc_session_get_key (self->engine);
  /* The engine builds its glyph indexes on the first question, each a loop over every
   * glyph, a million in a 500-page book: asked here, they keep the first frame and the
   * first hover or crop off the main thread's hands. */
  {
    guint first, n;

    dc_document_get_page_glyphs (self->document, 0, &first, &n);
    dc_document_get_symbol_glyphs (self->document, 0, &n);
  }
  self->autosave_path = decipher_autosave_path_for_sha256 (dc_document_get_sha256 (self->document));
  lock_project (self);
  if (self->read_only_reason != NULL)
    {
      /* What the other program has saved so far, to look at; a project that does not
       * load is its business, not this window's. */
      if (g_file_test (self->autosave_path, G_FILE_TEST_EXISTS)
          && dc_session_load_project (self->engine, self->autosave_path, NULL))
        self->restored = TRUE;
    }
  else if (g_file_test (self->autosave_path, G_FILE_TEST_EXISTS))
    {
      if (dc_session_load_project (self->engine, self->autosave_path, &error))
        self->restored = TRUE;
      else
        {
          set_aside (self, error);
          g_clear_error (&error);
        }
    }
  dc_session_set_pipeline (self->engine, pipeline);
  if (!self->restored)
    {
      /* The first time, that takes a while: the window says why it is still opening. */
      if (dc_pipeline_references_need_building (pipeline))
        {
          g_atomic_int_set (&data->progress->reading_fonts, TRUE);
          queue_report (data->progress);
        }
      self->n_guessed = dc_session_start_new_work (self->engine, TRUE);
      self->dirty = self->n_guessed > 0;
    }
  else
    dc_pipeline_drop_prefetch (pipeline);
  _decipher_session_start_journal (self);

  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

/**
 * decipher_session_load_async:
 * @password: (nullable): for an encrypted PDF
 * @progress: (nullable): told on the main thread how far the extraction is
 *
 * Extracts the document in a worker thread, then restores its autosaved project when
 * there is one. The calling thread's main loop never waits on it.
 */
void
decipher_session_load_async (GFile *file, const char *password, DecipherLoadProgress progress,
                             gpointer progress_data, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (G_IS_FILE (file));

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->password = g_strdup (password);
  data->progress = g_atomic_rc_box_new0 (Progress);
  data->progress->context = g_main_context_ref_thread_default ();
  data->progress->func = progress;
  data->progress->data = progress_data;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, decipher_session_load_async);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_thread);
}

DecipherSession *
decipher_session_load_finish (GAsyncResult *result, GError **error)
{
  LoadData *data;
  DecipherSession *self;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  data = g_task_get_task_data (G_TASK (result));
  data->progress->finished = TRUE;

  self = g_task_propagate_pointer (G_TASK (result), error);
  if (self == NULL)
    return NULL;
  _decipher_session_watch_key (self);
  return self;
}
