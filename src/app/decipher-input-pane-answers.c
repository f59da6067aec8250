/* decipher-input-pane-answers.c: what the engine answers the input pane, shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-input-pane.c, which is the widget: a query typed goes to the
 * session (or waits for the matcher's index), and its answer is shown: the symbols
 * learned, the places a text fits listed, the reason nothing fits, the open conflicts
 * marked. What Next?'s suggestion, worked out in a worker, is shown the same way.
 */

#define G_LOG_DOMAIN "decipher-input-pane"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-input-pane-private.h"

#define MAX_CANDIDATES 50 /* rows listed; the best come first */

/* ---- places ------------------------------------------------------------------------- */

DcDocument *
_decipher_input_pane_get_document (DecipherInputPane *self)
{
  return dc_session_get_document (self->session);
}

static char *
place_markup (DecipherInputPane *self, const DcMatchPlace *place)
{
  return _decipher_place_markup (_decipher_input_pane_get_document (self),
                                 dc_session_get_key (self->session), place);
}

char *
_decipher_input_pane_line_title (DecipherInputPane *self, guint line)
{
  const DcLine *l = &dc_document_get_lines (_decipher_input_pane_get_document (self), NULL)[line];

  if (dc_document_get_n_pages (_decipher_input_pane_get_document (self)) > 1)
    /* Translators: the line the typed text is looked for on; page, then line on it. */
    return g_strdup_printf (_("Page %u, Line %u"), l->page + 1, l->index + 1);
  /* Translators: the line the typed text is looked for on, counted from 1. */
  return g_strdup_printf (_("Line %u"), l->index + 1);
}

static void
show_place (DecipherInputPane *self, guint line, guint token, guint n_tokens)
{
  g_autoptr (GArray) glyphs = _decipher_place_glyphs (_decipher_input_pane_get_document (self),
                                                      line, token, n_tokens);

  if (self->state != NULL && glyphs->len > 0)
    decipher_view_state_show_glyph (self->state, g_array_index (glyphs, guint32, 0));
}

/* ---- feedback ----------------------------------------------------------------------- */

void
_decipher_input_pane_set_label (GtkLabel *label, const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

static void
clear_marks (DecipherInputPane *self, DecipherMarkKind kind)
{
  if (kind == DECIPHER_MARK_SUGGESTION)
    g_clear_pointer (&self->suggested, g_array_unref);
  if (self->state != NULL)
    decipher_view_state_set_marks (self->state, kind, NULL, 0);
}

static void
clear_candidates (DecipherInputPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->candidates))) != NULL)
    gtk_list_box_remove (self->candidates, child);
  gtk_widget_set_visible (self->candidates_scroller, FALSE);
  g_clear_pointer (&self->candidates_text, g_free);
  clear_marks (self, DECIPHER_MARK_CANDIDATE);
}

void
_decipher_input_pane_clear_feedback (DecipherInputPane *self)
{
  self->refused_insert = FALSE;
  self->showing_conflicts = FALSE;
  g_clear_pointer (&self->conflict_text, g_free);
  clear_candidates (self);
  _decipher_input_pane_set_label (self->hint_label, NULL);
  _decipher_input_pane_set_label (self->reason_label, NULL);
}

/* ---- typing ------------------------------------------------------------------------- */

void
_decipher_input_pane_candidate_activated_cb (DecipherInputPane *self, GtkListBoxRow *row)
{
  guint line = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "line"));
  guint token = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "token"));
  guint n_tokens = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "n-tokens"));
  g_autofree char *text = g_strdup (self->candidates_text);

  if (text == NULL)
    return;
  show_place (self, line, token, n_tokens);
  /* The line and the first token pin the place down: typed there, it is unique. */
  _decipher_input_pane_query (self, text, (int) line, (int) token);
}

static void
show_candidates (DecipherInputPane *self, const char *text, const DcMatchResult *result)
{
  g_autoptr (GArray) marks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *hint = NULL;

  clear_candidates (self);
  self->candidates_text = g_strdup (text);
  for (guint i = 0; i < result->places->len && i < MAX_CANDIDATES; i++)
    {
      const DcMatchPlace *place = &g_array_index (result->places, DcMatchPlace, i);
      g_autofree char *markup = place_markup (self, place);
      g_autofree char *title = _decipher_input_pane_line_title (self, place->line);
      g_autoptr (GArray)
          glyphs = _decipher_place_glyphs (_decipher_input_pane_get_document (self), place->line,
                                           place->token, place->n_tokens);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *where = gtk_label_new (title);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (where, "dim-label");
      gtk_widget_add_css_class (where, "numeric");
      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 8);
      gtk_widget_set_margin_bottom (box, 8);
      gtk_box_append (GTK_BOX (box), where);
      gtk_box_append (GTK_BOX (box), label);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                      -1);
      g_object_set_data (G_OBJECT (row), "line", GUINT_TO_POINTER (place->line));
      g_object_set_data (G_OBJECT (row), "token", GUINT_TO_POINTER (place->token));
      g_object_set_data (G_OBJECT (row), "n-tokens", GUINT_TO_POINTER (place->n_tokens));
      gtk_list_box_append (self->candidates, row);
      g_array_append_vals (marks, glyphs->data, glyphs->len);
    }
  gtk_widget_set_visible (self->candidates_scroller, TRUE);
  if (self->state != NULL)
    decipher_view_state_set_marks (self->state, DECIPHER_MARK_CANDIDATE,
                                   (const guint32 *) marks->data, marks->len);
  /* Translators: the typed text fits several places; the list under it shows them. */
  hint = g_strdup_printf (ngettext ("It fits %u place. Pick the one you read:",
                                    "It fits %u places. Pick the one you read:",
                                    result->places->len),
                          result->places->len);
  _decipher_input_pane_set_label (self->hint_label, hint);
}

/* The glyphs of every conflict still open, each where the typed input matched it: not
 * only the last query's, and none once the review has settled them. */
static void
mark_open_conflicts (DecipherInputPane *self)
{
  g_autoptr (GArray) marks = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = self->matcher != NULL ? dc_matcher_get_n_conflicts (self->matcher) : 0;
  const DcGlyph *all;

  if (self->state == NULL)
    return;
  if (n == 0)
    {
      clear_marks (self, DECIPHER_MARK_CONFLICT);
      return;
    }
  all = dc_document_get_glyphs (_decipher_input_pane_get_document (self), NULL);
  for (guint i = 0; i < n; i++)
    {
      const DcConflict *conflict = dc_matcher_get_conflict (self->matcher, i);
      g_autoptr (GArray)
          glyphs = _decipher_place_glyphs (_decipher_input_pane_get_document (self),
                                           conflict->place.line, conflict->place.token,
                                           conflict->place.n_tokens);

      for (guint g = 0; g < glyphs->len; g++)
        if (all[g_array_index (glyphs, guint32, g)].symbol == conflict->symbol)
          g_array_append_val (marks, g_array_index (glyphs, guint32, g));
    }
  decipher_view_state_set_marks (self->state, DECIPHER_MARK_CONFLICT, (const guint32 *) marks->data,
                                 marks->len);
}

static void
show_conflicts (DecipherInputPane *self, const DcMatchResult *result)
{
  mark_open_conflicts (self);
  _decipher_input_pane_set_label (self->hint_label, result->reason);
  self->showing_conflicts = TRUE;
  self->n_conflicts_shown = dc_matcher_get_n_conflicts (self->matcher);
  g_free (self->conflict_text);
  self->conflict_text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  g_signal_emit (self, _decipher_input_pane_signals[DECIPHER_INPUT_PANE_CONFLICT], 0);
}

/**
 * decipher_input_pane_update_conflicts:
 *
 * Brings the conflict marks and the hint in line with the matcher's open conflicts. The
 * pane does so itself whenever the matcher says they changed (a review settled some, or
 * the project handed back those left open last time).
 */
void
decipher_input_pane_update_conflicts (DecipherInputPane *self)
{
  guint n;

  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  if (self->matcher == NULL)
    return;
  mark_open_conflicts (self);
  n = dc_matcher_get_n_conflicts (self->matcher);
  if (!self->showing_conflicts || n == self->n_conflicts_shown)
    return;
  self->n_conflicts_shown = n;
  if (n > 0)
    {
      g_autofree char *hint = NULL;

      /* Translators: some conflicts were settled in the review, these are left. */
      hint = g_strdup_printf (ngettext ("%u conflict is still open: review it.",
                                        "%u conflicts are still open: review them.", n),
                              n);
      _decipher_input_pane_set_label (self->hint_label, hint);
      return;
    }
  /* All settled: the text that raised them has had its answer, unless the user has
   * edited it since, in which case it is theirs to keep. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->conflict_text) == 0)
    _decipher_input_pane_set_entry_text (self, "");
  self->showing_conflicts = FALSE;
  g_clear_pointer (&self->conflict_text, g_free);
  _decipher_input_pane_set_label (self->hint_label, NULL);
}

/* What Next?'s line cue lasts as long as its suggestion: once that is typed, the next
 * query is looked for anywhere, and an error does not name a line the user never chose. */
static void
release_suggested_line (DecipherInputPane *self)
{
  if (self->line_from_suggestion)
    decipher_input_pane_set_line (self, DECIPHER_NO_LINE);
}

/* A word learned where the user was not looking: the page goes there and the glyphs
 * learned stay marked until the next query, so the user sees what was taken, and where. */
static void
flash_place (DecipherInputPane *self, const DcMatchPlace *place)
{
  g_autoptr (GArray) glyphs = NULL;

  if (self->state == NULL)
    return;
  glyphs = _decipher_place_glyphs (_decipher_input_pane_get_document (self), place->line,
                                   place->token, place->n_tokens);
  decipher_view_state_set_marks (self->state, DECIPHER_MARK_CANDIDATE,
                                 (const guint32 *) glyphs->data, glyphs->len);
  show_place (self, place->line, place->token, place->n_tokens);
}

/* Without a line cue, the lines on screen are what the user reads: a word is looked for
 * there first, and one that fits there but for one of their values is a conflict. */
static void
learned (DecipherInputPane *self, const DcMatchResult *result, gboolean has_view, guint view_line,
         guint n_view_lines)
{
  const DcMatchPlace *place;

  if (result->places->len == 0 || !has_view)
    {
      g_signal_emit (self, _decipher_input_pane_signals[DECIPHER_INPUT_PANE_LEARNED], 0,
                     result->learned->len);
      return;
    }
  place = &g_array_index (result->places, DcMatchPlace, 0);
  if (place->line >= view_line && place->line < view_line + n_view_lines)
    {
      g_signal_emit (self, _decipher_input_pane_signals[DECIPHER_INPUT_PANE_LEARNED], 0,
                     result->learned->len);
      return;
    }
  flash_place (self, place);
  g_signal_emit (self, _decipher_input_pane_signals[DECIPHER_INPUT_PANE_LEARNED_ELSEWHERE], 0,
                 result->learned->len, place->line);
}

static void
run_query (DecipherInputPane *self, const char *text, int line, int token)
{
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  guint view_line = 0, n_view_lines = 0;
  gboolean has_view = FALSE;

  _decipher_input_pane_clear_feedback (self);
  if (line < 0 && self->state != NULL)
    has_view = decipher_view_state_get_lines_in_view (self->state, &view_line, &n_view_lines);
  result = dc_session_type_in_view (self->session, text, line, token,
                                    has_view ? (int) view_line : -1, n_view_lines, &error);
  if (result == NULL)
    {
      self->last_kind = DC_MATCH_NO_MATCH;
      _decipher_input_pane_set_label (self->reason_label, error->message);
      return;
    }
  self->last_kind = result->kind;

  switch (result->kind)
    {
    case DC_MATCH_ASSIGNED:
      /* The view stays where it is when the words were on screen: the user typed what
       * they were reading there. Learned off screen, the view goes there (learned()). */
      _decipher_input_pane_set_entry_text (self, "");
      clear_marks (self, DECIPHER_MARK_SUGGESTION);
      release_suggested_line (self);
      learned (self, result, has_view, view_line, n_view_lines);
      break;
    case DC_MATCH_KNOWN:
      _decipher_input_pane_set_entry_text (self, "");
      release_suggested_line (self);
      _decipher_input_pane_set_label (self->hint_label, _("Every letter of it is known already: nothing new to learn."));
      break;
    case DC_MATCH_AMBIGUOUS:
      show_candidates (self, text, result);
      break;
    case DC_MATCH_NO_MATCH:
      _decipher_input_pane_set_label (self->reason_label, result->reason);
      break;
    case DC_MATCH_CONFLICT:
      show_conflicts (self, result);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* ---- the matcher's index ------------------------------------------------------------ */

/* The session has built the index in a worker: the query that waited for it runs. */
void
_decipher_input_pane_index_ready_cb (DecipherInputPane *self)
{
  g_autofree char *text = g_steal_pointer (&self->pending_text);

  if (text != NULL)
    _decipher_input_pane_query (self, text, self->pending_line, self->pending_token);
  _decipher_input_pane_update_busy (self);
}

/* Runs a query now if the index is ready; otherwise it waits for the index, in place
 * of any query already waiting. */
void
_decipher_input_pane_query (DecipherInputPane *self, const char *text, int line, int token)
{
  if (dc_session_has_index (self->session))
    {
      run_query (self, text, line, token);
      return;
    }
  _decipher_input_pane_clear_feedback (self);
  g_free (self->pending_text);
  self->pending_text = g_strdup (text);
  self->pending_line = line;
  self->pending_token = token;
  _decipher_input_pane_set_label (self->hint_label, _("Getting the document ready for matching…"));
  dc_session_prepare_index (self->session);
  _decipher_input_pane_update_busy (self);
}

/* ---- what next ---------------------------------------------------------------------- */

/* A suggestion decoded some other way (the palette, a glyph's popover, Accept; the last
 * symbol of the document) has nothing left to type: its highlight and its line cue go,
 * where they stayed on after the last symbol. Only the few glyphs suggested are looked at. */
void
_decipher_input_pane_engine_changed_cb (DecipherInputPane *self)
{
  const DcGlyph *glyphs;

  if (self->suggested == NULL || self->session == NULL)
    return;
  glyphs = dc_document_get_glyphs (_decipher_input_pane_get_document (self), NULL);
  for (guint i = 0; i < self->suggested->len; i++)
    if (dc_session_symbol_is_unknown (self->session,
                                      glyphs[g_array_index (self->suggested, guint32, i)].symbol))
      return;
  clear_marks (self, DECIPHER_MARK_SUGGESTION);
  release_suggested_line (self);
  _decipher_input_pane_set_label (self->hint_label, NULL);
}

static void
show_suggestion (DecipherInputPane *self, const DcSuggestion *suggestion)
{
  g_autoptr (GArray) glyphs = NULL;
  g_autofree char *hint = NULL;

  _decipher_input_pane_clear_feedback (self);
  if (suggestion->done)
    {
      clear_marks (self, DECIPHER_MARK_SUGGESTION);
      _decipher_input_pane_set_label (self->hint_label,
                                      _("Nothing is left that typing can decode."));
      return;
    }
  glyphs = _decipher_place_glyphs (_decipher_input_pane_get_document (self), suggestion->line,
                                   suggestion->token, suggestion->n_tokens);
  if (self->state != NULL)
    decipher_view_state_set_marks (self->state, DECIPHER_MARK_SUGGESTION,
                                   (const guint32 *) glyphs->data, glyphs->len);
  g_clear_pointer (&self->suggested, g_array_unref);
  self->suggested = g_array_ref (glyphs);
  show_place (self, suggestion->line, suggestion->token, suggestion->n_tokens);
  decipher_input_pane_set_line (self, suggestion->line);
  self->line_from_suggestion = TRUE;
  /* Translators: after “What Next?”; the words are highlighted on the page. */
  if (suggestion->n_tokens == 1)
    hint = g_strdup_printf (ngettext ("Type the highlighted word: it decodes %u new symbol.",
                                      "Type the highlighted word: it decodes %u new symbols.",
                                      suggestion->n_new_symbols),
                            suggestion->n_new_symbols);
  else
    hint = g_strdup_printf (ngettext ("Type the highlighted words: they decode %u new symbol.",
                                      "Type the highlighted words: they decode %u new symbols.",
                                      suggestion->n_new_symbols),
                            suggestion->n_new_symbols);
  _decipher_input_pane_set_label (self->hint_label, hint);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

static void
suggest_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (DecipherInputPane) self = data;
  DcSuggestion suggestion;

  /* Replaced by a newer request, or cancelled: that one answers, or nobody. The session
   * answers only for the key as it is. */
  if (!dc_session_suggest_finish (DC_SESSION (source), result, &suggestion, NULL)
      || g_task_get_cancellable (G_TASK (result)) != self->suggest_cancellable)
    return;
  g_clear_object (&self->suggest_cancellable);
  show_suggestion (self, &suggestion);
  _decipher_input_pane_update_busy (self);
}

/* Highlights the words that would decode the most still-unknown symbols, scrolls to
 * them and cues their line, so that the user only has to read and type them. */
void
decipher_input_pane_what_next (DecipherInputPane *self)
{
  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  if (self->session == NULL)
    return;
  /* Cancel and replace: only the latest request is answered. */
  if (self->suggest_cancellable != NULL)
    g_cancellable_cancel (self->suggest_cancellable);
  g_clear_object (&self->suggest_cancellable);
  self->suggest_cancellable = g_cancellable_new ();

  _decipher_input_pane_set_label (self->hint_label, _("Looking for the words to type next…"));
  dc_session_suggest_async (self->session, self->suggest_cancellable, suggest_done_cb,
                            g_object_ref (self));
  _decipher_input_pane_update_busy (self);
}

/* For the tests: whether a What Next? is still being worked out. */
gboolean
decipher_input_pane_is_suggesting (DecipherInputPane *self)
{
  return self->suggest_cancellable != NULL;
}

/* For the tests and benchmarks: whether an answer is still being worked out. */
gboolean
decipher_input_pane_is_busy (DecipherInputPane *self)
{
  g_return_val_if_fail (DECIPHER_IS_INPUT_PANE (self), FALSE);

  return self->suggest_cancellable != NULL || self->pending_text != NULL;
}

/* The window says it is working while the pane is busy for long (decipher-window-status.c). */
void
_decipher_input_pane_update_busy (DecipherInputPane *self)
{
  gboolean busy = decipher_input_pane_is_busy (self);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self),
                            _decipher_input_pane_properties[DECIPHER_INPUT_PANE_PROP_BUSY]);
}
