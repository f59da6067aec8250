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
 */

#define G_LOG_DOMAIN "dc-session"

#include "config.h"

#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-auto.h"
#include "dc-error.h"
#include "dc-export.h"
#include "dc-file-private.h"
#include "dc-key-private.h"
#include "dc-library.h"
#include "dc-pipeline.h"
#include "dc-proposals.h"
#include "dc-recognize.h"
#include "dc-repair.h"
#include "dc-session.h"

/* How a value taken in bulk where no level would have applied it starts its provenance
 * (docs/session-protocol.md), so that it is not counted as looked at. */
#define ACCEPTED_UNREVIEWED "accepted unreviewed "

struct _DcSession
{
  GObject parent_instance;

  DcDocument *document;
  DcKey *key;
  DcMatcher *matcher;
  DcProject *project;
  DcProjectLock *lock;  /* while this session is the project's only writer */
  DcLibrary *library;   /* the user's font library, if the caller gave one */
  DcPipeline *pipeline; /* the levels new work starts with */
  DcShapes *shapes;     /* the symbols' glyph shapes, made when first needed */
  char **learned;       /* per symbol: the value last recorded in the library */
  guint n_learned;

  DcAutoReport auto_report;        /* why the automatic pass guessed what it did */
  guint key_serial;                /* bumped by every change of the key */
  gboolean background_index;       /* keep the index built in a worker */
  GCancellable *index_cancellable; /* the index being built, if any */
  GHashTable *own_paths;           /* the project files this session loaded or wrote */
  /* the words What Next? last highlighted, until the next query: typing them with the
   * line as cue is matched there first */
  DcSuggestion suggested;
  gboolean has_suggested;
};

G_DEFINE_FINAL_TYPE (DcSession, dc_session, G_TYPE_OBJECT)

enum
{
  CHANGED,
  CONFLICTS_CHANGED,
  INDEX_READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_index (DcSession *self);

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

/* Remembers @path as one of this session's own project files (see dc_session_save_copy()). */
static void
own_path (DcSession *self, const char *path)
{
  g_hash_table_add (self->own_paths, g_canonicalize_filename (path, NULL));
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
static void
learn (DcSession *self, gboolean first)
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

/* ---- the project ------------------------------------------------------------------ */

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

/* ---- decisions -------------------------------------------------------------------- */

static gboolean
check_symbol (DcSession *self, guint symbol, GError **error)
{
  guint n_symbols;

  dc_document_get_symbols (self->document, &n_symbols);
  if (symbol < n_symbols)
    return TRUE;
  g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
               _("The document has no symbol %u; it has %u."), symbol, n_symbols);
  return FALSE;
}

static guint
count_words (const char *text)
{
  g_auto (GStrv) words = g_strsplit_set (text, " \t\n", -1);
  guint n = 0;

  for (guint i = 0; words[i] != NULL; i++)
    n += words[i][0] != '\0';
  return n;
}

/**
 * dc_session_type:
 * @text: words as read on the page
 * @line: the line they are on, or -1
 * @token: the token of @line they start at, or -1
 *
 * Matches @text (see dc_matcher_type()); what it teaches and the proposals that follows
 * from it are one undoable step. The text joins the project's history.
 *
 * Returns: (transfer full): the outcome, or %NULL with @error set when the text cannot
 *   be matched at all or the decision could not be recorded (it is made all the same)
 */
DcMatchResult *
dc_session_type (DcSession *self, const char *text, int line, int token, GError **error)
{
  return dc_session_type_in_view (self, text, line, token, -1, 0, error);
}

/**
 * dc_session_type_in_view:
 * @view_line: the first line the user has in view, or -1
 * @n_view_lines: how many lines from @view_line are in view
 *
 * As dc_session_type(); without a line cue, the lines in view come first (see
 * dc_matcher_type_in_view()).
 *
 * Returns: (transfer full): the outcome, or %NULL with @error set
 */
DcMatchResult *
dc_session_type_in_view (DcSession *self, const char *text, int line, int token, int view_line,
                         guint n_view_lines, GError **error)
{
  g_autoptr (DcMatchResult) result = NULL;
  g_autofree char *label = NULL;

  g_return_val_if_fail (DC_IS_SESSION (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  label = g_strdup_printf (_("Typed “%s”"), text);
  dc_key_begin_change (self->key, label);
  /* The user types the words What Next? highlighted: another place of the line that the
   * same letters fit more cheaply (ᠮᠢᠨᠦ for ᠪᠠᠲᠤ, whose ᠪᠠ is one glyph) is not what
   * they read. Only where those words cannot be read so is the line searched. */
  if (token < 0 && line >= 0 && self->has_suggested && !self->suggested.done
      && (guint) line == self->suggested.line && count_words (text) == self->suggested.n_tokens)
    {
      result = dc_matcher_type (self->matcher, text, line, (int) self->suggested.token, NULL);
      if (result != NULL && result->kind == DC_MATCH_NO_MATCH)
        g_clear_pointer (&result, dc_match_result_free);
    }
  self->has_suggested = FALSE;
  if (result == NULL)
    result = dc_matcher_type_in_view (self->matcher, text, line, token, view_line, n_view_lines,
                                      error);
  if (result != NULL && result->kind == DC_MATCH_ASSIGNED)
    dc_proposals_update (self->key);
  dc_key_end_change (self->key);
  if (result == NULL)
    return NULL;
  dc_project_add_history (self->project, text);
  if (!dc_session_sync (self, error))
    return NULL;
  return g_steal_pointer (&result);
}

/* One undoable step: the value, then the proposals that what was just learned confirms
 * or overturns. */
static gboolean
set_confirmed (DcSession *self, const char *label, guint symbol, const char *value,
               double confidence, const char *provenance, GError **error)
{
  gboolean ok;

  dc_key_begin_change (self->key, label);
  ok = dc_key_set_full (self->key, symbol, value, DC_KEY_CONFIRMED, DC_KEY_LEVEL_USER, confidence,
                        provenance, error);
  if (ok)
    dc_proposals_update (self->key);
  dc_key_end_change (self->key);
  return ok && dc_session_sync (self, error);
}

/**
 * dc_session_assign:
 * @value: what the user says @symbol stands for
 *
 * The user's own word: confirmed, so it wins over anything inferred (the key keeps the
 * replaced value in its undo history).
 */
gboolean
dc_session_assign (DcSession *self, guint symbol, const char *value, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (!check_symbol (self, symbol, error))
    return FALSE;
  return set_confirmed (self, _("Assign a character"), symbol, value, 1.0, "assign", error);
}

/**
 * dc_session_split:
 * @glyphs: (array length=n_glyphs): occurrences of one symbol, by glyph index
 * @value: what they read, whatever their symbol reads
 *
 * The user's word on these occurrences alone (dc_key_split()): one code drawn for two
 * characters, told apart by context. The symbol keeps its value; the matcher goes on
 * learning symbols, never splits.
 */
gboolean
dc_session_split (DcSession *self, const guint *glyphs, guint n_glyphs, const char *value,
                  GError **error)
{
  gboolean ok;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  dc_key_begin_change (self->key, _("Split occurrences"));
  ok = dc_key_split (self->key, glyphs, n_glyphs, value, "split", error);
  dc_key_end_change (self->key);
  return ok && dc_session_sync (self, error);
}

/**
 * dc_session_unsplit:
 *
 * Makes @glyphs read as their symbol again (those not split are passed over).
 *
 * Returns: %FALSE with @error set when none was split, or the change was not recorded
 */
gboolean
dc_session_unsplit (DcSession *self, const guint *glyphs, guint n_glyphs, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!dc_key_unsplit (self->key, glyphs, n_glyphs))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("None of these occurrences was split."));
      return FALSE;
    }
  return dc_session_sync (self, error);
}

/**
 * dc_session_accept:
 *
 * The user looked at the glyph and agrees with what is proposed for it: confirmed, as
 * their own word, noting where the proposal came from. It keeps the proposal's confidence,
 * so that the font library replays it as the proposal it was, not as a certainty.
 */
gboolean
dc_session_accept (DcSession *self, guint symbol, GError **error)
{
  g_autofree char *provenance = NULL;
  g_autofree char *value = NULL;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!check_symbol (self, symbol, error))
    return FALSE;
  if (dc_key_get_status (self->key, symbol) != DC_KEY_PROPOSED)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Symbol %u has no proposal to accept."), symbol);
      return FALSE;
    }
  /* Copied: the proposals update that follows may replace the key's own strings. */
  value = g_strdup (dc_key_peek_value (self->key, symbol));
  provenance = g_strdup_printf ("accepted %s", dc_key_get_provenance (self->key, symbol));
  return set_confirmed (self, _("Accept a proposal"), symbol, value,
                                 dc_key_get_confidence (self->key, symbol), provenance, error);
}

/**
 * dc_session_forget:
 *
 * Puts @symbol back as the document gives it (the PDF's text for a trusted font, unknown
 * otherwise), as one undoable step with the proposals weighed again.
 */
gboolean
dc_session_forget (DcSession *self, guint symbol, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!check_symbol (self, symbol, error))
    return FALSE;
  dc_key_begin_change (self->key, _("Forget"));
  dc_key_forget (self->key, symbol);
  dc_proposals_update (self->key);
  dc_key_end_change (self->key);
  return dc_session_sync (self, error);
}

/**
 * dc_session_reject:
 *
 * The user says the value @symbol holds is wrong. The symbol becomes unknown and the value
 * is refused for it (dc_key_reject()): no level proposes or applies it there again, at
 * this pass or any later one, also after reopening; another proposal may take its place.
 * Typing or assigning the value later still gives it, since that is the user's own word.
 * One undoable step; undoing it brings the value back as it was.
 */
gboolean
dc_session_reject (DcSession *self, guint symbol, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!check_symbol (self, symbol, error))
    return FALSE;
  if (dc_key_get_status (self->key, symbol) == DC_KEY_UNKNOWN)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Symbol %u has no value to reject."), symbol);
      return FALSE;
    }
  dc_key_begin_change (self->key, _("Reject"));
  dc_key_reject (self->key, symbol);
  dc_proposals_update (self->key);
  dc_key_end_change (self->key);
  return dc_session_sync (self, error);
}

static gboolean
same_refused (const char *const *a, const char *const *b)
{
  if (a == NULL || b == NULL)
    return a == NULL && b == NULL;
  return g_strv_equal (a, b);
}

/* Makes the key hold what @loaded holds. dc_key_set() never lowers a status nor replaces
 * a confirmed value (that is a conflict), so each symbol that differs is put back as it
 * started first. */
static guint
take_key (DcKey *key, DcKey *loaded)
{
  guint n_symbols, n_changed = 0;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_peek_value (loaded, s);
      DcKeyStatus status = dc_key_get_status (loaded, s);

      if (status == dc_key_get_status (key, s) && g_strcmp0 (value, dc_key_peek_value (key, s)) == 0
          && g_strcmp0 (dc_key_get_provenance (loaded, s), dc_key_get_provenance (key, s)) == 0
          && same_refused (dc_key_get_refused (loaded, s), dc_key_get_refused (key, s)))
        continue;
      dc_key_forget (key, s);
      /* Before the value: what the user rejected there is theirs too, and a value this
       * key refuses would not be taken. */
      _dc_key_set_refused (key, s, dc_key_get_refused (loaded, s));
      if (value != NULL && status != DC_KEY_UNKNOWN && status != DC_KEY_FROM_PDF
          && !dc_key_set_full (key, s, value, status, dc_key_get_level (loaded, s),
                               dc_key_get_confidence (loaded, s), dc_key_get_provenance (loaded, s),
                               NULL))
        g_warning ("Symbol %u of the project could not be taken over", s);
      n_changed++;
    }
  return n_changed;
}

/**
 * dc_session_take_project:
 * @path: a project file made for this session's document
 * @label: how the step reads in an Undo menu
 * @n_changed: (out) (optional): how many symbols changed; set once the project is taken,
 *   so also when only recording it failed
 *
 * Replaces the key with the one saved in @path, as one step Undo takes back, and adds
 * the project's input history to this one's. A file that is not a project, is damaged,
 * or was made for another document is refused with @error, and nothing changes.
 */
gboolean
dc_session_take_project (DcSession *self, const char *path, const char *label, guint *n_changed,
                         GError **error)
{
  g_autoptr (DcKey) loaded = NULL;
  g_autoptr (DcProject) project = NULL;
  const char *const *history;
  guint n;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Loaded into a key of its own: this one changes only if all of it checks out. */
  loaded = dc_key_new (self->document);
  project = dc_project_load (path, self->document, loaded, error);
  if (project == NULL)
    return FALSE;
  dc_key_begin_change (self->key, label);
  n = take_key (self->key, loaded);
  dc_key_end_change (self->key);
  history = dc_project_get_history (project, NULL);
  for (guint i = 0; history[i] != NULL; i++)
    dc_project_add_history (self->project, history[i]);
  if (n_changed != NULL)
    *n_changed = n;
  return dc_session_sync (self, error);
}

/**
 * dc_session_accept_all:
 * @min_confidence: accept only proposals at least this sure (dc_key_get_confidence(),
 *   from 0 to 1)
 * @n_accepted: (out) (optional): how many were accepted
 *
 * Accepts every proposal sure enough, as one undoable step; then the proposals are
 * weighed again once. Accepting none is not an error.
 */
gboolean
dc_session_accept_all (DcSession *self, double min_confidence, guint *n_accepted, GError **error)
{
  return dc_session_accept_all_full (self, min_confidence, FALSE, n_accepted, error);
}

/**
 * dc_session_accept_all_full:
 * @skip_lookalikes: leave proposals of look-alike letters (dc_value_is_lookalike()) for
 *   the user to review one by one
 *
 * As dc_session_accept_all().
 */
gboolean
dc_session_accept_all_full (DcSession *self, double min_confidence, gboolean skip_lookalikes,
                            guint *n_accepted, GError **error)
{
  guint n_symbols, n = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  dc_document_get_symbols (self->document, &n_symbols);
  dc_key_begin_change (self->key, _("Accept the proposals"));
  for (guint s = 0; s < n_symbols && ok; s++)
    {
      g_autofree char *provenance = NULL;
      g_autofree char *value = NULL;

      if (dc_key_get_status (self->key, s) != DC_KEY_PROPOSED
          || dc_key_get_confidence (self->key, s) < min_confidence
          || (skip_lookalikes && dc_value_is_lookalike (dc_key_peek_value (self->key, s))))
        continue;
      value = g_strdup (dc_key_peek_value (self->key, s));
      /* Taken without a look at a level that would not have applied it: said, so that the
       * window does not count it as sure (issue 31.1). */
      provenance = g_strdup_printf (dc_key_get_confidence (self->key, s)
                                            < DC_KEY_AUTOMATIC_CONFIDENCE
                                        ? ACCEPTED_UNREVIEWED "%s"
                                        : "accepted %s",
                                    dc_key_get_provenance (self->key, s));
      ok = dc_key_set_full (self->key, s, value, DC_KEY_CONFIRMED, DC_KEY_LEVEL_USER,
                            dc_key_get_confidence (self->key, s), provenance, error);
      n += ok;
    }
  if (n > 0)
    dc_proposals_update (self->key);
  dc_key_end_change (self->key);
  if (n_accepted != NULL)
    *n_accepted = n;
  return ok && dc_session_sync (self, error);
}

/**
 * dc_session_count_unreviewed:
 * @n_glyphs: (out) (optional): the glyphs of those accepted unreviewed, which the text
 *   shows as decoded
 *
 * What no one has looked at among what is to decode (issue 31.1): the proposals left,
 * and the values accepted in bulk though less sure than a level applies by itself
 * (dc_session_accept_all_full()). While there are any, the work is not done, however
 * many symbols have a value.
 *
 * Returns: how many symbols
 */
guint
dc_session_count_unreviewed (DcSession *self, guint *n_glyphs)
{
  const DcSymbol *symbols;
  guint n_symbols, n = 0, glyphs = 0;

  g_return_val_if_fail (DC_IS_SESSION (self), 0);

  symbols = dc_document_get_symbols (self->document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = dc_key_get_status (self->key, s);
      const char *provenance;

      if (!dc_document_symbol_needs_decoding (self->document, s))
        continue;
      if (status == DC_KEY_PROPOSED)
        n++;
      else if (status == DC_KEY_CONFIRMED
               && (provenance = dc_key_get_provenance (self->key, s)) != NULL
               && g_str_has_prefix (provenance, ACCEPTED_UNREVIEWED))
        {
          n++;
          glyphs += symbols[s].n_glyphs;
        }
    }
  if (n_glyphs != NULL)
    *n_glyphs = glyphs;
  return n;
}

/**
 * dc_session_resolve:
 * @conflict: its index among the matcher's open conflicts
 * @take_proposed: the new evidence wins (else the value held stays)
 */
gboolean
dc_session_resolve (DcSession *self, guint conflict, gboolean take_proposed, GError **error)
{
  guint n;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  n = dc_matcher_get_n_conflicts (self->matcher);
  if (n == 0)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("There is no conflict to resolve."));
      return FALSE;
    }
  if (conflict >= n)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("There is no conflict %u; there are %u."), conflict, n);
      return FALSE;
    }
  return dc_matcher_resolve_conflict (self->matcher, conflict, take_proposed, error)
         && dc_session_sync (self, error);
}

gboolean
dc_session_undo (DcSession *self, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!dc_key_undo (self->key))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("There is nothing to undo."));
      return FALSE;
    }
  return dc_session_sync (self, error);
}

gboolean
dc_session_redo (DcSession *self, GError **error)
{
  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  if (!dc_key_redo (self->key))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("There is nothing to redo."));
      return FALSE;
    }
  return dc_session_sync (self, error);
}

/**
 * dc_session_recognize:
 * @languages: (nullable): Tesseract languages ("eng+rus"), %NULL to choose
 * @password: (nullable): the document's password, to render it
 * @progress: (nullable): called from the reading threads after each line read
 * @n_proposed: (out) (optional): how many symbols got a proposal
 * @n_lines: (out) (optional): how many lines were read
 *
 * Reads the document's shapes (DESIGN §8): renders the lines that show the unknown
 * symbols, reads them with OCR and proposes for each symbol what its readings agree on,
 * at the shape level, as one undoable step. Blocks until done: the app calls it from a
 * worker thread of its own only through dc_recognize_job_run() (see dc-recognize.h).
 */
gboolean
dc_session_recognize (DcSession *self, const char *languages, const char *password,
                      DcRecognizeProgressFunc progress, gpointer progress_data,
                      GCancellable *cancellable, guint *n_proposed, guint *n_lines, GError **error)
{
  g_autoptr (DcRecognizeJob) job = NULL;
  g_autoptr (GError) copy_error = NULL;
  g_autofree char *render_copy = NULL;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);

  job = dc_recognize_job_new (self->key, languages, password);
  /* Tesseract must see the glyphs the page shows, which for a font drawn by the glyph
   * numbers of an installed one only a copy makes poppler draw (dc-render-copy.c). */
  render_copy = dc_repair_write_cached_render_copy (self->document, password, &copy_error);
  if (render_copy != NULL)
    dc_recognize_job_set_render_file (job, render_copy);
  else if (copy_error != NULL)
    g_warning ("Recognition reads the original pages, with some glyphs drawn wrong: %s",
               copy_error->message);
  if (!dc_recognize_job_run (job, progress, progress_data, cancellable, error))
    return FALSE;
  if (n_lines != NULL)
    *n_lines = dc_recognize_job_get_n_lines_read (job);
  return dc_session_apply_recognition (self, job, n_proposed, error);
}

/**
 * dc_session_apply_recognition:
 * @job: a job made with dc_recognize_job_new() on this session's key and run, in any
 *   thread, by dc_recognize_job_run()
 * @n_proposed: (out) (optional): how many symbols got a proposal
 *
 * Proposes what @job read, as one undoable step (the app runs the reading in a worker
 * and hands the job back here, on the session's thread). Values decided meanwhile stay.
 */
gboolean
dc_session_apply_recognition (DcSession *self, DcRecognizeJob *job, guint *n_proposed,
                              GError **error)
{
  guint n;

  g_return_val_if_fail (DC_IS_SESSION (self), FALSE);
  g_return_val_if_fail (job != NULL, FALSE);

  dc_key_begin_change (self->key, _("Recognize glyphs"));
  n = dc_recognize_job_apply (job, self->key);
  dc_key_end_change (self->key);
  if (n_proposed != NULL)
    *n_proposed = n;
  return dc_session_sync (self, error);
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
static void
start_index (DcSession *self)
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
