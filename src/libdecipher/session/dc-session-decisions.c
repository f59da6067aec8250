/* dc-session-decisions.c: every decision a session takes, each one undoable step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-session.c. Typing, assigning, splitting, accepting, forgetting,
 * rejecting, taking another project's key, accepting in bulk, resolving a conflict,
 * undo, redo and recognition: each is one step Undo takes back, with the proposals
 * weighed again where what it learned may change them, and is recorded
 * (dc_session_sync()) before it returns.
 */

#define G_LOG_DOMAIN "dc-session"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-key-private.h"
#include "dc-proposals.h"
#include "dc-recognize.h"
#include "dc-repair.h"
#include "dc-session-private.h"

/* How a value taken in bulk where no level would have applied it starts its provenance
 * (docs/session-protocol.md), so that it is not counted as looked at. */
#define ACCEPTED_UNREVIEWED "accepted unreviewed "

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
