/* decipher-input-pane.c: type the words read on the page, and let the engine fill the table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The user types one word or several, as read on the page, optionally cued by the line
 * they last clicked. Enter asks the matcher where that text is drawn: one place → the
 * symbols it spells are learned (a toast offers Undo); several → the places are listed,
 * and picking one types the text again at that place; none → the engine's reason is
 * shown under the entry; a contradiction → a conflict for the review.
 *
 * The pane decides nothing itself: a query goes to the engine's session (dc_session_type(),
 * src/libdecipher/session/dc-session.c), the same call decipher-cli's session makes, and the pane
 * shows what it answers.
 *
 * Threading (docs/architecture.md). DcKey and DcMatcher belong to the main thread: the
 * key emits "changed" to widgets and records undo steps, and the matcher keeps the open
 * conflicts. A query costs a few milliseconds on a 1 M-glyph book (bench/bench-latency.py),
 * under a frame, so it runs on the main thread, synchronously; cancel-and-replace is then
 * implicit: a query is finished before the next key press is handled. The matcher's index
 * (~100 ms on the 500-page bench PDF) is built by the session in a worker as soon as a
 * document is shown, and again whenever a learned space changes the tokens; a query typed
 * before it is ready waits for it (the latest one only) and runs when it arrives. What
 * Next? runs in a worker too (dc_session_suggest_async()).
 *
 * This file is the widget: the entry, the line cue, a drag across the page. The queries
 * and the answers shown are in decipher-input-pane-answers.c, the runs of tokens of the
 * document in decipher-input-pane-places.c.
 */

#define G_LOG_DOMAIN "decipher-input-pane"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "decipher-character-picker.h"
#include "decipher-input-pane-private.h"

/* The matcher takes at most DC_MATCHER_MAX_INPUT bytes, and GtkEntryBuffer silently cuts
 * its text at 65535: the limit is counted in characters, which a user can see, low enough
 * that a text of this many fits both whatever its script (at most 4 bytes a character). */
#define MAX_INPUT_CHARS 16000
G_STATIC_ASSERT (MAX_INPUT_CHARS * 4 <= DC_MATCHER_MAX_INPUT);
G_STATIC_ASSERT (MAX_INPUT_CHARS * 4 <= G_MAXUSHORT);

G_DEFINE_FINAL_TYPE (DecipherInputPane, decipher_input_pane, GTK_TYPE_WIDGET)

guint _decipher_input_pane_signals[DECIPHER_INPUT_PANE_N_SIGNALS];
GParamSpec *_decipher_input_pane_properties[DECIPHER_INPUT_PANE_N_PROPS];

/* Text the pane puts in the entry is not being typed: Ctrl+Z goes to the document. */
void
_decipher_input_pane_set_entry_text (DecipherInputPane *self, const char *text)
{
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  self->setting_text = FALSE;
  self->typing = FALSE;
}

/* ---- the entry ---------------------------------------------------------------------- */

static void
entry_activate_cb (DecipherInputPane *self)
{
  g_autofree char *text = g_strstrip (
      g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry))));

  if (self->session == NULL || *text == '\0')
    return;
  if (self->has_placeholders && strchr (text, '?') != NULL)
    {
      self->refused_insert = FALSE;
      _decipher_input_pane_set_label (self->reason_label,
                                      _("Replace each “?” with the letter you read there."));
      return;
    }
  self->has_placeholders = FALSE;
  self->typing = FALSE;
  _decipher_input_pane_query (self, text, self->line == DECIPHER_NO_LINE ? -1 : (int) self->line,
                              -1);
}

/* A megabyte pasted by mistake would be cut short by the entry without a word and then
 * matched as a 64 KiB query: it is refused as it arrives, with a sentence, and what was
 * typed before stays. */
static void
entry_insert_text_cb (GtkEditable *delegate, const char *text, int length, int *position,
                      DecipherInputPane *self)
{
  g_autofree char *sentence = NULL;
  glong n_chars;

  n_chars = g_utf8_strlen (gtk_editable_get_text (delegate), -1) + g_utf8_strlen (text, length);
  if (n_chars <= MAX_INPUT_CHARS)
    return;
  g_signal_stop_emission_by_name (delegate, "insert-text");
  gtk_widget_error_bell (GTK_WIDGET (self->entry));
  sentence = g_strdup_printf (_("That is too long to match: type or paste at most %d characters "
                                "at a time."),
                                 MAX_INPUT_CHARS);
  _decipher_input_pane_set_label (self->reason_label, sentence);
  self->refused_insert = TRUE;
}

/* The refusal is stale once the user edited the text to something the entry takes. */
static void
entry_changed_cb (DecipherInputPane *self)
{
  if (!self->setting_text)
    self->typing = TRUE;
  if (self->refused_insert)
    {
      self->refused_insert = FALSE;
      _decipher_input_pane_set_label (self->reason_label, NULL);
    }
}

/* ---- the line cue ------------------------------------------------------------------- */

void
decipher_input_pane_set_line (DecipherInputPane *self, guint line)
{
  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  self->line = self->session != NULL ? line : DECIPHER_NO_LINE;
  self->line_from_suggestion = FALSE;
  gtk_widget_set_visible (self->line_chip, self->line != DECIPHER_NO_LINE);
  if (self->line != DECIPHER_NO_LINE)
    {
      g_autofree char *title = _decipher_input_pane_line_title (self, self->line);

      gtk_label_set_text (self->line_label, title);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->clear_line_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Match anywhere, not only on this line"), -1);
    }
}

guint
decipher_input_pane_get_line (DecipherInputPane *self)
{
  g_return_val_if_fail (DECIPHER_IS_INPUT_PANE (self), DECIPHER_NO_LINE);

  return self->line;
}

/* A press on the page cues the line under the pointer; the view's own handling still
 * opens the glyph popover. */
static void
glyph_pressed_cb (DecipherInputPane *self, guint glyph)
{
  guint line;

  if (self->session == NULL)
    return;
  line = _decipher_line_of_glyph (_decipher_input_pane_get_document (self), glyph);
  if (line != DECIPHER_NO_LINE)
    decipher_input_pane_set_line (self, line);
}

/* ---- dragging across glyphs --------------------------------------------------------- */

/**
 * decipher_input_pane_fill_from_glyphs:
 *
 * Fills the entry with the words from @first_glyph to @last_glyph as far as they are
 * decoded, unknown glyphs as “?” (the first selected, to be typed over), and cues
 * their line: what a drag across the page does. Text the user typed in the entry stays:
 * then only the line is cued.
 */
void
decipher_input_pane_fill_from_glyphs (DecipherInputPane *self, guint first_glyph, guint last_glyph)
{
  g_autofree char *text = NULL;
  guint line;
  int placeholder = -1;

  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  if (self->session == NULL)
    return;
  text = _decipher_run_text (_decipher_input_pane_get_document (self),
                             dc_session_get_key (self->session), first_glyph, last_glyph, &line,
                             &placeholder);
  if (text == NULL)
    return;

  decipher_input_pane_set_line (self, line);
  if (!self->has_placeholders && *gtk_editable_get_text (GTK_EDITABLE (self->entry)) != '\0')
    return;
  _decipher_input_pane_clear_feedback (self);
  _decipher_input_pane_set_entry_text (self, text);
  self->has_placeholders = placeholder >= 0;
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  if (placeholder >= 0)
    gtk_editable_select_region (GTK_EDITABLE (self->entry), placeholder, placeholder + 1);
  else
    gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
}

/* A drag across the page selects the words there (the view's own gesture) and offers
 * them for typing. */
static void
view_run_selected_cb (DecipherInputPane *self, guint first_glyph, guint last_glyph)
{
  decipher_input_pane_fill_from_glyphs (self, first_glyph, last_glyph);
  g_free (self->dragged_text);
  self->dragged_text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
}

/* A drag both selects the words on the page and offers them here, with the focus and a
 * "?" selected. Ctrl+C right after it means the words selected on the page, as in any
 * reader, not that "?": the entry copies its own text only once something was typed. */
static void
entry_copy_cb (GtkText *text, DecipherInputPane *self)
{
  if (self->dragged_text == NULL || self->state == NULL
      || !decipher_view_state_get_has_selection (self->state))
    return;
  if (!g_str_equal (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->dragged_text))
    {
      g_clear_pointer (&self->dragged_text, g_free);
      return;
    }
  g_signal_stop_emission_by_name (text, "copy-clipboard");
  gtk_widget_activate_action (GTK_WIDGET (self), "win.copy", NULL);
}

/* ---- object ------------------------------------------------------------------------- */

static void
detach_view (DecipherInputPane *self)
{
  if (self->state == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
}

/* Where the pane points out places on the page, and hears of presses and drags there. */
void
decipher_input_pane_set_view_state (DecipherInputPane *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));
  g_return_if_fail (state == NULL || DECIPHER_IS_VIEW_STATE (state));

  detach_view (self);
  if (state == NULL)
    return;
  self->state = g_object_ref (state);
  g_signal_connect_swapped (state, "glyph-pressed", G_CALLBACK (glyph_pressed_cb), self);
  g_signal_connect_swapped (state, "run-selected", G_CALLBACK (view_run_selected_cb), self);
}

static void
detach_session (DecipherInputPane *self)
{
  if (self->suggest_cancellable != NULL)
    g_cancellable_cancel (self->suggest_cancellable);
  g_clear_object (&self->suggest_cancellable);
  g_clear_pointer (&self->pending_text, g_free);
  self->matcher = NULL;
  g_clear_object (&self->session);
  _decipher_input_pane_update_busy (self);
}

/* The pane asks the engine's session: the open conflicts live in its matcher, and its
 * index is built in a worker. */
void
decipher_input_pane_set_session (DecipherInputPane *self, DcSession *session)
{
  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  _decipher_input_pane_clear_feedback (self);
  _decipher_input_pane_set_entry_text (self, "");
  g_clear_pointer (&self->suggested, g_array_unref);
  detach_session (self);
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->matcher = dc_session_get_matcher (self->session);
    }
  g_signal_group_set_target (self->engine_signals, self->session);
  decipher_character_row_set_session (self->character_row, session);
  decipher_input_pane_set_line (self, DECIPHER_NO_LINE);
  if (session != NULL)
    {
      /* Ready before the first query, most of the time: reading the page takes longer. */
      dc_session_prepare_index (self->session);
      decipher_input_pane_update_conflicts (self);
    }
}

/**
 * decipher_input_pane_is_typing:
 *
 * Returns: whether the entry holds text typed or edited since it was last submitted or
 *   filled in by the pane, which its own undo takes back; otherwise the window's undo is
 *   the document's, as in GNOME applications with a focused entry
 */
gboolean
decipher_input_pane_is_typing (DecipherInputPane *self)
{
  g_return_val_if_fail (DECIPHER_IS_INPUT_PANE (self), FALSE);

  return self->typing && *gtk_editable_get_text (GTK_EDITABLE (self->entry)) != '\0';
}

void
decipher_input_pane_focus (DecipherInputPane *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

GtkEditable *
decipher_input_pane_get_entry (DecipherInputPane *self)
{
  return GTK_EDITABLE (self->entry);
}

GtkListBox *
decipher_input_pane_get_candidates (DecipherInputPane *self)
{
  return self->candidates;
}

GtkLabel *
decipher_input_pane_get_reason_label (DecipherInputPane *self)
{
  return self->reason_label;
}

DecipherCharacterRow *
decipher_input_pane_get_character_row (DecipherInputPane *self)
{
  g_return_val_if_fail (DECIPHER_IS_INPUT_PANE (self), NULL);

  return self->character_row;
}

GtkLabel *
decipher_input_pane_get_hint_label (DecipherInputPane *self)
{
  return self->hint_label;
}

DcMatchKind
decipher_input_pane_get_last_kind (DecipherInputPane *self)
{
  return self->last_kind;
}

static void
clear_line_clicked_cb (DecipherInputPane *self)
{
  decipher_input_pane_set_line (self, DECIPHER_NO_LINE);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

/* Letters the keyboard lacks: the picker inserts its value at the entry's cursor. */
static void
picker_clicked_cb (DecipherInputPane *self)
{
  DecipherCharacterPicker *picker;

  picker = decipher_character_picker_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                          GTK_EDITABLE (self->entry));
  gtk_window_present (GTK_WINDOW (picker));
}

static void
decipher_input_pane_dispose (GObject *object)
{
  DecipherInputPane *self = DECIPHER_INPUT_PANE (object);

  detach_view (self);
  detach_session (self);
  if (self->engine_signals != NULL)
    g_signal_group_set_target (self->engine_signals, NULL);
  g_clear_object (&self->engine_signals);
  g_clear_pointer (&self->candidates_text, g_free);
  g_clear_pointer (&self->conflict_text, g_free);
  g_clear_pointer (&self->dragged_text, g_free);
  g_clear_pointer (&self->suggested, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_INPUT_PANE);

  G_OBJECT_CLASS (decipher_input_pane_parent_class)->dispose (object);
}

static void
decipher_input_pane_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DecipherInputPane *self = DECIPHER_INPUT_PANE (object);

  switch (prop_id)
    {
    case DECIPHER_INPUT_PANE_PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_input_pane_class_init (DecipherInputPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_input_pane_dispose;
  object_class->get_property = decipher_input_pane_get_property;

  /* A What Next? is being worked out, or a query waits for the matcher's index. */
  _decipher_input_pane_properties[DECIPHER_INPUT_PANE_PROP_BUSY] =
      g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, DECIPHER_INPUT_PANE_N_PROPS,
                                     _decipher_input_pane_properties);

  /* @n_symbols were learned from what was typed; undo is one step. */
  _decipher_input_pane_signals[DECIPHER_INPUT_PANE_LEARNED] =
      g_signal_new ("learned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                    G_TYPE_NONE, 1, G_TYPE_UINT);
  /* As "learned", but the words matched a line that was not on screen: that line
   * (the document's line number) is now shown. */
  _decipher_input_pane_signals[DECIPHER_INPUT_PANE_LEARNED_ELSEWHERE] =
      g_signal_new ("learned-elsewhere", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /* What was typed contradicts values held: the matcher has new open conflicts. */
  _decipher_input_pane_signals[DECIPHER_INPUT_PANE_CONFLICT] = g_signal_new ("conflict",
                                                                             G_TYPE_FROM_CLASS (
                                                                                 klass),
                                                                             G_SIGNAL_RUN_LAST, 0,
                                                                             NULL, NULL, NULL,
                                                                             G_TYPE_NONE, 0);

  g_type_ensure (DECIPHER_TYPE_CHARACTER_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-input-pane.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "inputpane");
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, box);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, character_row);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, line_chip);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, line_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, clear_line_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, entry);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, picker_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, what_next_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, hint_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, reason_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, candidates_scroller);
  gtk_widget_class_bind_template_child (widget_class, DecipherInputPane, candidates);
}

static void
decipher_input_pane_init (DecipherInputPane *self)
{
  self->line = DECIPHER_NO_LINE;
  self->last_kind = DC_MATCH_KNOWN;
  gtk_widget_init_template (GTK_WIDGET (self));
  decipher_character_row_set_entry (self->character_row, GTK_EDITABLE (self->entry));

  /* Connected while the pane has a session, to whichever engine it has. */
  self->engine_signals = g_signal_group_new (DC_TYPE_SESSION);
  g_signal_group_connect_object (self->engine_signals, "conflicts-changed",
                                 G_CALLBACK (decipher_input_pane_update_conflicts), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->engine_signals, "index-ready",
                                 G_CALLBACK (_decipher_input_pane_index_ready_cb), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->engine_signals, "changed",
                                 G_CALLBACK (_decipher_input_pane_engine_changed_cb), self,
                                 G_CONNECT_SWAPPED);

  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->entry)), "insert-text",
                    G_CALLBACK (entry_insert_text_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->entry)), "copy-clipboard",
                    G_CALLBACK (entry_copy_cb), self);
  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect_swapped (self->clear_line_button, "clicked", G_CALLBACK (clear_line_clicked_cb),
                            self);
  g_signal_connect_swapped (self->picker_button, "clicked", G_CALLBACK (picker_clicked_cb), self);
  g_signal_connect_swapped (self->candidates, "row-activated",
                            G_CALLBACK (_decipher_input_pane_candidate_activated_cb), self);
}

GtkWidget *
decipher_input_pane_new (void)
{
  return g_object_new (DECIPHER_TYPE_INPUT_PANE, NULL);
}
