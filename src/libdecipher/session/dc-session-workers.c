/* dc-session-workers.c: What Next? and the matcher's index, worked out in threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-session.c. Each worker works on a snapshot taken on the session's thread
 * (a copy of the key, the tokens) and hands its answer back there, where a stale one is
 * worked out again; the threads are started and joined so that ThreadSanitizer sees
 * every hand-off (build-aux/tsan.supp).
 */

#define G_LOG_DOMAIN "dc-session"

#include "config.h"

#include "dc-session-private.h"

#define signals _dc_session_signals
#define INDEX_READY DC_SESSION_INDEX_READY
#define start_index _dc_session_start_index

/* All dc_suggest_next() reads of the key is its usable values: a worker gets a copy. */
static DcKey *
snapshot_key (DcSession *self)
{
  DcKey *snapshot = dc_key_new (self->document);
  guint n_symbols;

  dc_document_get_symbols (self->document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (self->key, s);
      DcKeyStatus status = dc_key_get_status (self->key, s);

      /* A new key holds the trusted fonts' own values already. */
      if (value != NULL && status != DC_KEY_FROM_PDF)
        dc_key_set (snapshot, s, value, status, "snapshot", NULL);
    }
  return snapshot;
}

/* ---- workers ---------------------------------------------------------------------- */

/* A task's work on a thread of its own, which the task's thread starts and joins: what
 * one wrote, the other reads after pthread_create() or pthread_join(), an order
 * ThreadSanitizer sees (build-aux/test.sh). GTask's thread pool passes the task and its
 * result through GLib's own locks, which it cannot see. The task stays on its thread. */
typedef struct
{
  GThread *thread;
  GMainContext *context;
  GTask *task;
  gpointer data;
  gpointer (*work) (gpointer data);
  GDestroyNotify result_free;
} Worker;

static gboolean
worker_done (gpointer data)
{
  Worker *worker = data;
  gpointer result = g_thread_join (worker->thread);

  g_task_return_pointer (worker->task, result, worker->result_free);
  g_object_unref (worker->task);
  g_main_context_unref (worker->context);
  g_free (worker);
  return G_SOURCE_REMOVE;
}

static gpointer
worker_thread (gpointer data)
{
  Worker *worker = data;
  gpointer result = worker->work (worker->data);
  /* Not g_main_context_invoke(): it would run worker_done() here when nobody iterates
   * the task's context. */
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, worker_done, worker, NULL);
  g_source_attach (source, worker->context);
  g_source_unref (source);
  return result;
}

/* Runs @work on the task's data in a new thread; the task returns its result (freed with
 * @result_free unless taken) on the task's thread. */
static void
run_in_worker (GTask *task, gpointer (*work) (gpointer data), GDestroyNotify result_free)
{
  Worker *worker = g_new0 (Worker, 1);

  worker->context = g_main_context_ref (g_task_get_context (task));
  worker->task = g_object_ref (task);
  worker->data = g_task_get_task_data (task);
  worker->work = work;
  worker->result_free = result_free;
  worker->thread = g_thread_new ("dc-session", worker_thread, worker);
}

/* ---- suggestions ------------------------------------------------------------------ */

/* What a worker suggests from: a copy of the key and a snapshot of the tokens, both
 * taken on the session's thread, so that nothing it reads changes under it. */
typedef struct
{
  DcKey *key;
  DcTokens *tokens;
} SuggestInput;

static void
suggest_input_free (SuggestInput *input)
{
  g_clear_object (&input->key);
  g_clear_pointer (&input->tokens, dc_tokens_unref);
  g_free (input);
}

static gpointer
suggest_work (gpointer data)
{
  SuggestInput *input = data;
  DcSuggestion *suggestion = g_new0 (DcSuggestion, 1);

  dc_suggest_next_in (input->key, input->tokens, suggestion);
  return suggestion;
}

static void start_suggest (DcSession *self, GTask *outer);

static void
suggest_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) outer = data;
  DcSession *self = DC_SESSION (g_task_get_source_object (outer));
  g_autoptr (GError) error = NULL;
  DcSuggestion *suggestion = g_task_propagate_pointer (G_TASK (result), &error);

  /* Freed now rather than with the task: the key copy holds the document. */
  g_task_set_task_data (G_TASK (result), NULL, NULL);
  if (suggestion == NULL)
    {
      g_task_return_error (outer, g_steal_pointer (&error));
      return;
    }
  if (self->key == NULL)
    {
      g_free (suggestion);
      g_task_return_new_error (outer, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The session was closed.");
      return;
    }
  /* The key changed meanwhile: the answer is stale, work it out again. */
  if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result), "key-serial")) != self->key_serial)
    {
      g_free (suggestion);
      start_suggest (self, outer);
      return;
    }
  g_task_return_pointer (outer, suggestion, g_free);
}

static void
start_suggest (DcSession *self, GTask *outer)
{
  /* The worker's task holds no session (the outer task does): the callback's data is
   * all it needs. */
  g_autoptr (GTask) task = g_task_new (NULL, g_task_get_cancellable (outer), suggest_done_cb,
                                       g_object_ref (outer));
  SuggestInput *input = g_new0 (SuggestInput, 1);

  g_task_set_source_tag (task, start_suggest);
  g_object_set_data (G_OBJECT (task), "key-serial", GUINT_TO_POINTER (self->key_serial));
  input->key = snapshot_key (self);
  input->tokens = dc_document_ref_tokens (self->document);
  g_task_set_task_data (task, input, (GDestroyNotify) suggest_input_free);
  run_in_worker (task, suggest_work, g_free);
}

/**
 * dc_session_suggest_async:
 *
 * dc_session_suggest() in a worker thread, on a snapshot of the key: it weighs every
 * line of the document, too long for a main loop on a large book. The answer fits the
 * key as it is when it arrives (a stale one is worked out again).
 */
void
dc_session_suggest_async (DcSession *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) outer = NULL;

  g_return_if_fail (DC_IS_SESSION (self));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, dc_session_suggest_async);
  start_suggest (self, outer);
}

gboolean
dc_session_suggest_finish (DcSession *self, GAsyncResult *result, DcSuggestion *suggestion,
                           GError **error)
{
  g_autofree DcSuggestion *answer = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  answer = g_task_propagate_pointer (G_TASK (result), error);
  if (answer == NULL)
    return FALSE;
  *suggestion = *answer;
  self->suggested = *answer;
  self->has_suggested = TRUE;
  return TRUE;
}

/* ---- the matcher's index ---------------------------------------------------------- */

static gpointer
index_work (gpointer data)
{
  dc_matcher_index_build (data);
  return data;
}

static void
index_done (DcSession *self, GTask *task, DcMatcherIndex *index)
{
  gboolean adopted;

  /* Replaced by a newer build, or the session is going: that one answers, or nobody. */
  if (g_task_get_cancellable (task) != self->index_cancellable
      || g_cancellable_is_cancelled (self->index_cancellable))
    return;
  g_clear_object (&self->index_cancellable);
  adopted = dc_matcher_adopt_index (self->matcher, index);
  /* Refused when a space was learned meanwhile: the tokens changed, build again. */
  if (!adopted)
    {
      start_index (self);
      return;
    }
  g_signal_emit (self, signals[INDEX_READY], 0);
}

static void
index_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (DcSession) self = data;
  DcMatcherIndex *index = g_task_get_task_data (G_TASK (result));

  index_done (self, G_TASK (result), index);
  /* Freed now rather than with the task: the index holds the document. */
  g_task_set_task_data (G_TASK (result), NULL, NULL);
}

/* Builds the index in a worker unless the matcher has a current one or one is coming. */
void
_dc_session_start_index (DcSession *self)
{
  g_autoptr (GTask) task = NULL;

  if (self->matcher == NULL || dc_matcher_has_index (self->matcher)
      || self->index_cancellable != NULL)
    return;
  self->index_cancellable = g_cancellable_new ();
  /* As in start_suggest(), the worker's task holds no session; the callback's data does. */
  task = g_task_new (NULL, self->index_cancellable, index_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_index);
  /* The snapshot is taken here, on the thread that owns the document. */
  g_task_set_task_data (task, dc_matcher_index_new (self->document),
                        (GDestroyNotify) dc_matcher_index_free);
  run_in_worker (task, index_work, NULL);
}

/* Whether dc_session_type() answers without building the matcher's index first. */
gboolean
dc_session_has_index (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  return dc_matcher_has_index (self->matcher);
}

/**
 * dc_session_prepare_index:
 *
 * Builds the matcher's index in a worker thread now, and again whenever a learned
 * space changes the tokens; DcSession::index-ready says when it fits. Without this,
 * dc_session_type() builds it on the calling thread when it needs it.
 */
void
dc_session_prepare_index (DcSession *self)
{
  g_return_if_fail (DC_IS_SESSION (self));

  self->background_index = TRUE;
  start_index (self);
}
