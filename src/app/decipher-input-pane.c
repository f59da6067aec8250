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
 */

#define G_LOG_DOMAIN "decipher-input-pane"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "decipher-character-picker.h"
#include "decipher-input-pane-private.h"

#define MAX_CANDIDATES 50 /* rows listed; the best come first */
/* The matcher takes at most DC_MATCHER_MAX_INPUT bytes, and GtkEntryBuffer silently cuts
 * its text at 65535: the limit is counted in characters, which a user can see, low enough
 * that a text of this many fits both whatever its script (at most 4 bytes a character). */
#define MAX_INPUT_CHARS 16000
G_STATIC_ASSERT (MAX_INPUT_CHARS * 4 <= DC_MATCHER_MAX_INPUT);
G_STATIC_ASSERT (MAX_INPUT_CHARS * 4 <= G_MAXUSHORT);

struct _DecipherInputPane
{
  GtkWidget parent_instance;

  DcSession *session;
  DcMatcher *matcher;                /* the engine's */
  DecipherViewState *state;          /* the marks and the page, shared with the window */
  gboolean has_placeholders;         /* the entry holds “?” for glyphs a drag found unknown */
  gboolean refused_insert;           /* the reason shown is an insertion the entry refused */
  GCancellable *suggest_cancellable; /* the What Next? running, if any */
  GSignalGroup *engine_signals;      /* on the engine's session */
  char *pending_text;                /* a query waiting for the index */
  int pending_line, pending_token;
  guint line;
  gboolean line_from_suggestion; /* the cue is What Next?'s, to go once it is handled */
  GArray *suggested;             /* the glyphs What Next? highlighted, while highlighted */
  DcMatchKind last_kind;
  char *candidates_text; /* the text the listed candidates are places of */
  /* The hint is about open conflicts, and the entry held this when they were found:
   * both go once the review has settled the last of them. */
  gboolean showing_conflicts;
  gboolean busy; /* as last notified: a What Next? or a query waiting for the index */
  guint n_conflicts_shown;
  char *conflict_text;
  char *dragged_text; /* what a drag across the page put in the entry, until edited */
  /* The entry's text was typed (or edited) since it was last submitted or set by the
   * pane: only then does Ctrl+Z undo the typing rather than the last decoding step. */
  gboolean typing;
  gboolean setting_text;

  GtkWidget *box;
  DecipherCharacterRow *character_row;
  GtkWidget *line_chip;
  GtkLabel *line_label;
  GtkButton *clear_line_button;
  GtkEntry *entry;
  GtkButton *picker_button;
  GtkButton *what_next_button;
  GtkLabel *hint_label;
  GtkLabel *reason_label;
  GtkWidget *candidates_scroller;
  GtkListBox *candidates;
};

G_DEFINE_FINAL_TYPE (DecipherInputPane, decipher_input_pane, GTK_TYPE_WIDGET)

enum
{
  LEARNED,
  LEARNED_ELSEWHERE,
  CONFLICT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum
{
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Text the pane puts in the entry is not being typed: Ctrl+Z goes to the document. */
static void
set_entry_text (DecipherInputPane *self, const char *text)
{
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  self->setting_text = FALSE;
  self->typing = FALSE;
}

/* ---- places ------------------------------------------------------------------------- */

static DcDocument *
get_document (DecipherInputPane *self)
{
  return dc_session_get_document (self->session);
}

static char *
place_markup (DecipherInputPane *self, const DcMatchPlace *place)
{
  return _decipher_place_markup (get_document (self), dc_session_get_key (self->session), place);
}

static char *
line_title (DecipherInputPane *self, guint line)
{
  const DcLine *l = &dc_document_get_lines (get_document (self), NULL)[line];

  if (dc_document_get_n_pages (get_document (self)) > 1)
    /* Translators: the line the typed text is looked for on; page, then line on it. */
    return g_strdup_printf (_("Page %u, Line %u"), l->page + 1, l->index + 1);
  /* Translators: the line the typed text is looked for on, counted from 1. */
  return g_strdup_printf (_("Line %u"), l->index + 1);
}

static void
show_place (DecipherInputPane *self, guint line, guint token, guint n_tokens)
{
  g_autoptr (GArray) glyphs = _decipher_place_glyphs (get_document (self), line, token, n_tokens);

  if (self->state != NULL && glyphs->len > 0)
    decipher_view_state_show_glyph (self->state, g_array_index (glyphs, guint32, 0));
}

/* ---- feedback ----------------------------------------------------------------------- */

static void
set_label (GtkLabel *label, const char *text)
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

static void
clear_feedback (DecipherInputPane *self)
{
  self->refused_insert = FALSE;
  self->showing_conflicts = FALSE;
  g_clear_pointer (&self->conflict_text, g_free);
  clear_candidates (self);
  set_label (self->hint_label, NULL);
  set_label (self->reason_label, NULL);
}

/* ---- typing ------------------------------------------------------------------------- */

static void query (DecipherInputPane *self, const char *text, int line, int token);
static void update_busy (DecipherInputPane *self);

static void
candidate_activated_cb (DecipherInputPane *self, GtkListBoxRow *row)
{
  guint line = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "line"));
  guint token = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "token"));
  guint n_tokens = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "n-tokens"));
  g_autofree char *text = g_strdup (self->candidates_text);

  if (text == NULL)
    return;
  show_place (self, line, token, n_tokens);
  /* The line and the first token pin the place down: typed there, it is unique. */
  query (self, text, (int) line, (int) token);
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
      g_autofree char *title = line_title (self, place->line);
      g_autoptr (GArray) glyphs = _decipher_place_glyphs (get_document (self), place->line,
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
  set_label (self->hint_label, hint);
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
  all = dc_document_get_glyphs (get_document (self), NULL);
  for (guint i = 0; i < n; i++)
    {
      const DcConflict *conflict = dc_matcher_get_conflict (self->matcher, i);
      g_autoptr (GArray)
          glyphs = _decipher_place_glyphs (get_document (self), conflict->place.line,
                                           conflict->place.token, conflict->place.n_tokens);

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
  set_label (self->hint_label, result->reason);
  self->showing_conflicts = TRUE;
  self->n_conflicts_shown = dc_matcher_get_n_conflicts (self->matcher);
  g_free (self->conflict_text);
  self->conflict_text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  g_signal_emit (self, signals[CONFLICT], 0);
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
      set_label (self->hint_label, hint);
      return;
    }
  /* All settled: the text that raised them has had its answer, unless the user has
   * edited it since, in which case it is theirs to keep. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->conflict_text) == 0)
    set_entry_text (self, "");
  self->showing_conflicts = FALSE;
  g_clear_pointer (&self->conflict_text, g_free);
  set_label (self->hint_label, NULL);
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
  glyphs = _decipher_place_glyphs (get_document (self), place->line, place->token, place->n_tokens);
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
      g_signal_emit (self, signals[LEARNED], 0, result->learned->len);
      return;
    }
  place = &g_array_index (result->places, DcMatchPlace, 0);
  if (place->line >= view_line && place->line < view_line + n_view_lines)
    {
      g_signal_emit (self, signals[LEARNED], 0, result->learned->len);
      return;
    }
  flash_place (self, place);
  g_signal_emit (self, signals[LEARNED_ELSEWHERE], 0, result->learned->len, place->line);
}

static void
run_query (DecipherInputPane *self, const char *text, int line, int token)
{
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  guint view_line = 0, n_view_lines = 0;
  gboolean has_view = FALSE;

  clear_feedback (self);
  if (line < 0 && self->state != NULL)
    has_view = decipher_view_state_get_lines_in_view (self->state, &view_line, &n_view_lines);
  result = dc_session_type_in_view (self->session, text, line, token,
                                    has_view ? (int) view_line : -1, n_view_lines, &error);
  if (result == NULL)
    {
      self->last_kind = DC_MATCH_NO_MATCH;
      set_label (self->reason_label, error->message);
      return;
    }
  self->last_kind = result->kind;

  switch (result->kind)
    {
    case DC_MATCH_ASSIGNED:
      /* The view stays where it is when the words were on screen: the user typed what
       * they were reading there. Learned off screen, the view goes there (learned()). */
      set_entry_text (self, "");
      clear_marks (self, DECIPHER_MARK_SUGGESTION);
      release_suggested_line (self);
      learned (self, result, has_view, view_line, n_view_lines);
      break;
    case DC_MATCH_KNOWN:
      set_entry_text (self, "");
      release_suggested_line (self);
      set_label (self->hint_label,
                 _("Every letter of it is known already: nothing new to learn."));
      break;
    case DC_MATCH_AMBIGUOUS:
      show_candidates (self, text, result);
      break;
    case DC_MATCH_NO_MATCH:
      set_label (self->reason_label, result->reason);
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
static void
index_ready_cb (DecipherInputPane *self)
{
  g_autofree char *text = g_steal_pointer (&self->pending_text);

  if (text != NULL)
    query (self, text, self->pending_line, self->pending_token);
  update_busy (self);
}

/* Runs a query now if the index is ready; otherwise it waits for the index, in place
 * of any query already waiting. */
static void
query (DecipherInputPane *self, const char *text, int line, int token)
{
  if (dc_session_has_index (self->session))
    {
      run_query (self, text, line, token);
      return;
    }
  clear_feedback (self);
  g_free (self->pending_text);
  self->pending_text = g_strdup (text);
  self->pending_line = line;
  self->pending_token = token;
  set_label (self->hint_label, _("Getting the document ready for matching…"));
  dc_session_prepare_index (self->session);
  update_busy (self);
}

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
      set_label (self->reason_label, _("Replace each “?” with the letter you read there."));
      return;
    }
  self->has_placeholders = FALSE;
  self->typing = FALSE;
  query (self, text, self->line == DECIPHER_NO_LINE ? -1 : (int) self->line, -1);
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
  set_label (self->reason_label, sentence);
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
      set_label (self->reason_label, NULL);
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
      g_autofree char *title = line_title (self, self->line);

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
  line = _decipher_line_of_glyph (get_document (self), glyph);
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
  text = _decipher_run_text (get_document (self), dc_session_get_key (self->session), first_glyph,
                             last_glyph, &line, &placeholder);
  if (text == NULL)
    return;

  decipher_input_pane_set_line (self, line);
  if (!self->has_placeholders && *gtk_editable_get_text (GTK_EDITABLE (self->entry)) != '\0')
    return;
  clear_feedback (self);
  set_entry_text (self, text);
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

/* ---- what next ---------------------------------------------------------------------- */

/* A suggestion decoded some other way (the palette, a glyph's popover, Accept; the last
 * symbol of the document) has nothing left to type: its highlight and its line cue go,
 * where they stayed on after the last symbol. Only the few glyphs suggested are looked at. */
static void
engine_changed_cb (DecipherInputPane *self)
{
  const DcGlyph *glyphs;

  if (self->suggested == NULL || self->session == NULL)
    return;
  glyphs = dc_document_get_glyphs (get_document (self), NULL);
  for (guint i = 0; i < self->suggested->len; i++)
    if (dc_session_symbol_is_unknown (self->session,
                                      glyphs[g_array_index (self->suggested, guint32, i)].symbol))
      return;
  clear_marks (self, DECIPHER_MARK_SUGGESTION);
  release_suggested_line (self);
  set_label (self->hint_label, NULL);
}

static void
show_suggestion (DecipherInputPane *self, const DcSuggestion *suggestion)
{
  g_autoptr (GArray) glyphs = NULL;
  g_autofree char *hint = NULL;

  clear_feedback (self);
  if (suggestion->done)
    {
      clear_marks (self, DECIPHER_MARK_SUGGESTION);
      set_label (self->hint_label, _("Nothing is left that typing can decode."));
      return;
    }
  glyphs = _decipher_place_glyphs (get_document (self), suggestion->line, suggestion->token,
                                   suggestion->n_tokens);
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
  set_label (self->hint_label, hint);
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
  update_busy (self);
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

  set_label (self->hint_label, _("Looking for the words to type next…"));
  dc_session_suggest_async (self->session, self->suggest_cancellable, suggest_done_cb,
                            g_object_ref (self));
  update_busy (self);
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
static void
update_busy (DecipherInputPane *self)
{
  gboolean busy = decipher_input_pane_is_busy (self);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
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
  update_busy (self);
}

/* The pane asks the engine's session: the open conflicts live in its matcher, and its
 * index is built in a worker. */
void
decipher_input_pane_set_session (DecipherInputPane *self, DcSession *session)
{
  g_return_if_fail (DECIPHER_IS_INPUT_PANE (self));

  clear_feedback (self);
  set_entry_text (self, "");
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
    case PROP_BUSY:
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
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                    | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* @n_symbols were learned from what was typed; undo is one step. */
  signals[LEARNED] = g_signal_new ("learned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* As "learned", but the words matched a line that was not on screen: that line
   * (the document's line number) is now shown. */
  signals[LEARNED_ELSEWHERE] = g_signal_new ("learned-elsewhere", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                             G_TYPE_UINT, G_TYPE_UINT);
  /* What was typed contradicts values held: the matcher has new open conflicts. */
  signals[CONFLICT] = g_signal_new ("conflict", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);

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
  g_signal_group_connect_object (self->engine_signals, "index-ready", G_CALLBACK (index_ready_cb),
                                 self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->engine_signals, "changed", G_CALLBACK (engine_changed_cb),
                                 self, G_CONNECT_SWAPPED);

  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (entry_activate_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->entry)), "insert-text",
                    G_CALLBACK (entry_insert_text_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->entry)), "copy-clipboard",
                    G_CALLBACK (entry_copy_cb), self);
  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect_swapped (self->clear_line_button, "clicked", G_CALLBACK (clear_line_clicked_cb),
                            self);
  g_signal_connect_swapped (self->picker_button, "clicked", G_CALLBACK (picker_clicked_cb), self);
  g_signal_connect_swapped (self->candidates, "row-activated", G_CALLBACK (candidate_activated_cb),
                            self);
}

GtkWidget *
decipher_input_pane_new (void)
{
  return g_object_new (DECIPHER_TYPE_INPUT_PANE, NULL);
}
