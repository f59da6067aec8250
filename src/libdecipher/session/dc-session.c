/* dc-session.c: one document being deciphered, and every rule of how a decision is taken
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's window and decipher-cli's JSON-lines session both drive this object, so that
 * a rule (what one undo step holds, when proposals are weighed again, what the automatic
 * pass does on new work, when a decision reaches the disk) is written once. Callers add
 * only their own state: the app its selection and autosave timing, the CLI its JSON.
 * docs/architecture.md maps the objects; docs/session-protocol.md is the CLI's side.
 *
 * Threads. The session, its key, matcher and project belong to the thread that uses
 * them (the main thread in the app). Two costly computations can run in a worker: the
 * matcher's index (dc_session_prepare_index(), built from a snapshot of the tokens and
 * adopted here) and What Next? (dc_session_suggest_async(), on a snapshot of the key).
 *
 * This file holds the object, its font library and pipeline, and the questions asked of
 * it; the project (lock, load, save, journal) is in dc-session-project.c, the decisions
 * in dc-session-decisions.c, and the worker threads in dc-session-workers.c.
 */

#define G_LOG_DOMAIN "dc-session"

#include "config.h"

#include "dc-auto.h"
#include "dc-export.h"
#include "dc-library.h"
#include "dc-pipeline.h"
#include "dc-session-private.h"

#define signals _dc_session_signals
#define CHANGED DC_SESSION_CHANGED
#define CONFLICTS_CHANGED DC_SESSION_CONFLICTS_CHANGED
#define INDEX_READY DC_SESSION_INDEX_READY
#define start_index _dc_session_start_index
#define learn _dc_session_learn

G_DEFINE_FINAL_TYPE (DcSession, dc_session, G_TYPE_OBJECT)

guint _dc_session_signals[DC_SESSION_N_SIGNALS];

static void
key_changed_cb (DcSession *self, guint symbol, DcKey *key)
{
  self->key_serial++;
  /* A space learned or forgotten splits the tokens anew: the next query finds the
   * index rebuilt rather than building it itself. */
  if (self->background_index)
    start_index (self);
  g_signal_emit (self, signals[CHANGED], 0, symbol);
}

static void
conflicts_changed_cb (DcSession *self, DcMatcher *matcher)
{
  g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
}

static void
dc_session_dispose (GObject *object)
{
  DcSession *self = DC_SESSION (object);

  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  if (self->key != NULL)
    g_signal_handlers_disconnect_by_data (self->key, self);
  if (self->matcher != NULL)
    g_signal_handlers_disconnect_by_data (self->matcher, self);
  g_clear_object (&self->project);
  /* After the project, whose journal it guards. */
  g_clear_pointer (&self->lock, dc_project_unlock);
  g_clear_object (&self->library);
  g_clear_object (&self->pipeline);
  g_clear_pointer (&self->own_paths, g_hash_table_unref);
  g_clear_pointer (&self->shapes, dc_shapes_free);
  if (self->learned != NULL)
    for (guint s = 0; s < self->n_learned; s++)
      g_free (self->learned[s]);
  g_clear_pointer (&self->learned, g_free);
  g_clear_object (&self->matcher);
  g_clear_object (&self->key);
  g_clear_object (&self->document);
  dc_auto_report_clear (&self->auto_report);

  G_OBJECT_CLASS (dc_session_parent_class)->dispose (object);
}

static void
dc_session_class_init (DcSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dc_session_dispose;

  /**
   * DcSession::changed:
   * @symbol: the symbol whose value changed, or %DC_SYMBOL_NONE when several did
   *
   * The key changed, by a decision, an undo or a redo (the key's own "changed").
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * DcSession::conflicts-changed:
   *
   * Conflicts were raised, resolved, or handed back by a loaded project.
   */
  signals[CONFLICTS_CHANGED] = g_signal_new ("conflicts-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             0);
  /**
   * DcSession::index-ready:
   *
   * The matcher's index, built in a worker, fits the tokens: dc_session_type() answers
   * without building it first.
   */
  signals[INDEX_READY] = g_signal_new ("index-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
dc_session_init (DcSession *self)
{
  self->own_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pipeline = dc_pipeline_new (DC_PIPELINE_ALL);
  dc_auto_report_init (&self->auto_report);
}

/**
 * dc_session_new:
 *
 * A session over @document with a new key (the trusted fonts' own values) and a new
 * project. Then either dc_session_load_project() or dc_session_start_new_work().
 * May be called in a worker thread; from then on the session belongs to one thread.
 */
DcSession *
dc_session_new (DcDocument *document)
{
  DcSession *self;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  self = g_object_new (DC_TYPE_SESSION, NULL);
  self->document = g_object_ref (document);
  self->key = dc_key_new (document);
  self->matcher = dc_matcher_new (self->key);
  self->project = dc_project_new (document, self->key);
  dc_project_set_matcher (self->project, self->matcher);
  g_signal_connect_object (self->key, "changed", G_CALLBACK (key_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->matcher, "conflicts-changed", G_CALLBACK (conflicts_changed_cb),
                           self, G_CONNECT_SWAPPED);
  return self;
}

DcDocument *
dc_session_get_document (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->document;
}

DcKey *
dc_session_get_key (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->key;
}

/* Where the open conflicts are. */
DcMatcher *
dc_session_get_matcher (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->matcher;
}

DcProject *
dc_session_get_project (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->project;
}

/* ---- the font library -------------------------------------------------------------- */

/**
 * dc_session_get_shapes:
 *
 * The glyph shapes of the document's symbols (dc-fingerprint.h), worked out on first use.
 */
DcShapes *
dc_session_get_shapes (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  if (self->shapes == NULL)
    self->shapes = dc_shapes_new (self->document);
  return self->shapes;
}

/* Records what the user decided in the library; a library that cannot be written does
 * not stop the decision, which the project keeps. */
void
_dc_session_learn (DcSession *self, gboolean first)
{
  g_autoptr (GError) error = NULL;

  if (self->library == NULL)
    return;
  if (self->learned == NULL)
    {
      dc_document_get_symbols (self->document, &self->n_learned);
      self->learned = g_new0 (char *, MAX (self->n_learned, 1));
    }
  if (!dc_library_learn (self->library, dc_session_get_shapes (self), self->key, self->learned,
                         first, &error))
    g_message ("%s", error->message);
}

/**
 * dc_session_set_library:
 * @library: (nullable): the user's font library
 *
 * From now on every value the user decides is recorded in @library by glyph shape, and
 * new work starts with the values @library holds for the document's glyphs. Give it
 * before dc_session_start_new_work(), after dc_session_load_project().
 */
void
dc_session_set_library (DcSession *self, DcLibrary *library)
{
  g_return_if_fail (DC_IS_SESSION (self));
  g_return_if_fail (library == NULL || DC_IS_LIBRARY (library));

  g_set_object (&self->library, library);
  dc_pipeline_set_library (self->pipeline, library);
  /* A loaded project's decisions were recorded when they were made. */
  learn (self, TRUE);
}

DcLibrary *
dc_session_get_library (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->library;
}

/**
 * dc_session_set_pipeline:
 * @pipeline: the pipeline the document was loaded through (dc_pipeline_load_document())
 *
 * New work starts with @pipeline's levels (see dc-pipeline.c for their order), and its
 * user library is this session's (dc_session_set_library()). Without one, a session
 * applies every level, with $DECIPHER_REFERENCES or the user's index of installed fonts.
 * Give it before dc_session_start_new_work(), after dc_session_load_project().
 */
void
dc_session_set_pipeline (DcSession *self, DcPipeline *pipeline)
{
  g_return_if_fail (DC_IS_SESSION (self));
  g_return_if_fail (DC_IS_PIPELINE (pipeline));

  g_set_object (&self->pipeline, pipeline);
  if (dc_pipeline_get_library (pipeline) != NULL)
    dc_session_set_library (self, dc_pipeline_get_library (pipeline));
  else if (self->library != NULL)
    dc_pipeline_set_library (pipeline, self->library);
}

/* Returns: (transfer none): the levels new work starts with */
DcPipeline *
dc_session_get_pipeline (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return self->pipeline;
}

/* ---- questions -------------------------------------------------------------------- */

/* Whether @symbol still needs a value: it needs decoding and has no usable one (a
 * proposal is not one). A symbol every occurrence of which is split off reads nowhere,
 * so it is not unknown: the key counts it as decoded, and the palette's "N of M still
 * unknown" must add up with the status line's count. */
gboolean
dc_session_symbol_is_unknown (DcSession *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!dc_document_symbol_needs_decoding (self->document, symbol)
      || dc_key_get_value (self->key, symbol) != NULL)
    return FALSE;
  return dc_key_count_split (self->key, symbol)
         < dc_document_get_symbol (self->document, symbol)->n_glyphs;
}

/* Returns: (transfer full): the document's text as decoded so far (docs/export-formats.md). */
char *
dc_session_dup_text (DcSession *self)
{
  g_return_val_if_fail (DC_IS_SESSION (self), NULL);

  return dc_export_document (self->document, DC_EXPORT_TEXT, dc_key_value_func, self->key);
}

/* What to type next, worked out here and now. */
void
dc_session_suggest (DcSession *self, DcSuggestion *suggestion)
{
  g_return_if_fail (DC_IS_SESSION (self));
  g_return_if_fail (suggestion != NULL);

  dc_suggest_next (self->key, suggestion);
  self->suggested = *suggestion;
  self->has_suggested = TRUE;
}
