/* decipher-search-bar.c: Ctrl+F over the recovered text, or over one symbol's occurrences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As in Papers: Ctrl+F opens the bar, typing searches, Enter and Ctrl+G go to the next
 * match, Shift+Enter and Shift+Ctrl+G to the previous, Escape closes. What is searched is
 * the text recovered so far (dc-search.c: logical order, case and normalisation ignored),
 * so a linguist can check every place a word occurs; "Selected Symbol" walks the
 * occurrences of the symbol selected on the page or in the palette instead.
 *
 * A book is searched a slice of lines per main-loop iteration, within a few milliseconds,
 * so typing in the entry never stalls the window; the matches are pointed out on the page
 * as they are found, and the view moves only to the match the user asked for (the first
 * one from the page on screen, then next and previous). A change of the key searches again.
 */

#define G_LOG_DOMAIN "decipher-search-bar"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-search-bar.h"

/* Per main-loop iteration: well under a frame, and lines are cheap to search. */
#define SLICE_BUDGET_US 4000
#define LINES_PER_STEP 16
/* How often the marks on the page and the count follow the matches found while a search
 * runs. */
#define MARKS_INTERVAL_US 250000

struct _DecipherSearchBar
{
  GtkWidget parent_instance;

  DcSession *session;
  DecipherViewState *state; /* the page shown and the marks, shared with the window */
  DcSearch *search;         /* while searching text */
  GArray *occurrences;      /* of guint32 glyphs, while finding a symbol */
  guint step_source;
  guint restart_source;
  gint64 marks_time;
  int current;          /* the match shown, or -1 */
  gboolean go_to_first; /* show the first match from the page on screen once found */

  GtkSearchBar *search_bar;
  GtkSearchEntry *entry;
  GtkToggleButton *symbol_button;
  GtkLabel *count_label;
};

G_DEFINE_FINAL_TYPE (DecipherSearchBar, decipher_search_bar, GTK_TYPE_WIDGET)

enum
{
  STOPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
finding_symbol (DecipherSearchBar *self)
{
  return gtk_toggle_button_get_active (self->symbol_button);
}

static guint
n_matches (DecipherSearchBar *self)
{
  if (finding_symbol (self))
    return self->occurrences != NULL ? self->occurrences->len : 0;
  return self->search != NULL ? dc_search_get_n_matches (self->search) : 0;
}

static gboolean
still_searching (DecipherSearchBar *self)
{
  return self->step_source != 0;
}

/* The glyphs showing match @match, and its page. */
static const guint32 *
match_glyphs (DecipherSearchBar *self, guint match, guint *n_glyphs, guint *page)
{
  if (finding_symbol (self))
    {
      const guint32 *glyph = &g_array_index (self->occurrences, guint32, match);
      const DcGlyph *glyphs = dc_document_get_glyphs (dc_session_get_document (self->session),
                                                      NULL);

      *n_glyphs = 1;
      *page = glyphs[*glyph].page;
      return glyph;
    }
  return dc_search_get_match (self->search, match, n_glyphs, page);
}

static void
set_marks (DecipherSearchBar *self, DecipherMarkKind kind, const guint32 *glyphs, guint n)
{
  if (self->state != NULL)
    decipher_view_state_set_marks (self->state, kind, glyphs, n);
}

static void
update_all_marks (DecipherSearchBar *self)
{
  const guint32 *glyphs = NULL;
  guint n = 0;

  if (finding_symbol (self) && self->occurrences != NULL)
    {
      glyphs = (const guint32 *) (void *) self->occurrences->data;
      n = self->occurrences->len;
    }
  else if (!finding_symbol (self) && self->search != NULL)
    glyphs = dc_search_get_glyphs (self->search, &n);
  set_marks (self, DECIPHER_MARK_SEARCH, glyphs, n);
  self->marks_time = g_get_monotonic_time ();
}

static void
update_count (DecipherSearchBar *self)
{
  g_autofree char *text = NULL;
  guint n = n_matches (self);

  if (finding_symbol (self) && self->occurrences == NULL)
    text = g_strdup (_("No symbol selected"));
  else if (!finding_symbol (self) && (self->search == NULL || dc_search_is_empty (self->search)))
    text = g_strdup ("");
  else if (n == 0)
    text = g_strdup (still_searching (self) ? _("Searching…") : _("No matches"));
  else if (self->current >= 0)
    /* Translators: which match is shown, of how many; "…" while the search goes on. */
    text = g_strdup_printf (still_searching (self) ? _("%d of %u…")
                                                   : _("%d of %u"), self->current + 1, n);
  else
    text = g_strdup_printf (ngettext ("%u match", "%u matches", n), n);
  gtk_label_set_text (self->count_label, text);
}

static void
show_match (DecipherSearchBar *self, guint match)
{
  const guint32 *glyphs;
  guint n, page;

  g_assert (match < n_matches (self));

  self->current = (int) match;
  self->go_to_first = FALSE;
  glyphs = match_glyphs (self, match, &n, &page);
  set_marks (self, DECIPHER_MARK_SEARCH_CURRENT, glyphs, n);
  if (self->state != NULL)
    {
      decipher_view_state_set_current_hit (self->state, (int) match);
      decipher_view_state_set_page (self->state, page);
      decipher_view_state_show_glyph (self->state, glyphs[0]);
    }
  update_count (self);
}

static guint
view_page (DecipherSearchBar *self)
{
  return self->state != NULL ? decipher_view_state_get_page (self->state) : 0;
}

/* The first match from the page on screen, wrapping around; or the last before it. */
static guint
find_from_view (DecipherSearchBar *self, gboolean backwards)
{
  guint n = n_matches (self), page = view_page (self);

  if (n == 0)
    return G_MAXUINT;
  if (!finding_symbol (self))
    return dc_search_find_from (self->search, page, backwards);
  for (guint k = 0; k < n; k++)
    {
      guint i = backwards ? n - 1 - k : k, n_glyphs, match_page;

      match_glyphs (self, i, &n_glyphs, &match_page);
      if (backwards ? match_page < page : match_page >= page)
        return i;
    }
  return backwards ? n - 1 : 0;
}

static void
maybe_go_to_first (DecipherSearchBar *self)
{
  guint match, n_glyphs, page;

  if (!self->go_to_first || n_matches (self) == 0)
    return;
  match = find_from_view (self, FALSE);
  match_glyphs (self, match, &n_glyphs, &page);
  /* While the search runs, a match before the page on screen may only mean the ones
   * after it are not found yet. */
  if (page >= view_page (self) || !still_searching (self))
    show_match (self, match);
}

static gboolean
step_cb (gpointer data)
{
  DecipherSearchBar *self = data;
  gint64 start = g_get_monotonic_time ();
  DcKey *key = dc_session_get_key (self->session);
  gboolean done = FALSE;

  while (!done && g_get_monotonic_time () - start < SLICE_BUDGET_US)
    done = dc_search_step (self->search, LINES_PER_STEP, dc_key_value_func, key);

  if (done)
    self->step_source = 0;
  maybe_go_to_first (self);
  /* Both make GTK work (a new label width lays the window out again): not on every
   * slice. */
  if (done || g_get_monotonic_time () - self->marks_time > MARKS_INTERVAL_US)
    {
      update_all_marks (self);
      update_count (self);
    }
  return done ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static void
clear_results (DecipherSearchBar *self)
{
  g_clear_handle_id (&self->step_source, g_source_remove);
  g_clear_pointer (&self->search, dc_search_free);
  g_clear_pointer (&self->occurrences, g_array_unref);
  self->current = -1;
  set_marks (self, DECIPHER_MARK_SEARCH, NULL, 0);
  set_marks (self, DECIPHER_MARK_SEARCH_CURRENT, NULL, 0);
  if (self->state != NULL)
    decipher_view_state_set_current_hit (self->state, -1);
}

static void
restart (DecipherSearchBar *self)
{
  clear_results (self);
  if (self->session == NULL || !gtk_search_bar_get_search_mode (self->search_bar))
    {
      update_count (self);
      return;
    }

  if (finding_symbol (self))
    {
      guint symbol = self->state != NULL ? decipher_view_state_get_selected_symbol (self->state)
                                         : DC_SYMBOL_NONE;
      guint n;
      const guint32 *glyphs;

      if (symbol != DC_SYMBOL_NONE)
        {
          glyphs = dc_document_get_symbol_glyphs (dc_session_get_document (self->session), symbol,
                                                  &n);
          self->occurrences = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
          g_array_append_vals (self->occurrences, glyphs, n);
        }
      update_all_marks (self);
      maybe_go_to_first (self);
    }
  else
    {
      self->search = dc_search_new (dc_session_get_document (self->session),
                                    gtk_editable_get_text (GTK_EDITABLE (self->entry)));
      if (!dc_search_is_empty (self->search))
        self->step_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, step_cb, self, NULL);
    }
  update_count (self);
}

static gboolean
restart_cb (gpointer data)
{
  DecipherSearchBar *self = data;

  self->restart_source = 0;
  restart (self);
  return G_SOURCE_REMOVE;
}

/* The recovered text changed: search it again, once the change (a whole typing step,
 * perhaps) is over, and stay where the user is. */
static void
key_changed_cb (DecipherSearchBar *self)
{
  if (finding_symbol (self) || !gtk_search_bar_get_search_mode (self->search_bar)
      || self->restart_source != 0)
    return;
  self->restart_source = g_idle_add (restart_cb, self);
}

static void
selected_symbol_cb (DecipherSearchBar *self)
{
  if (finding_symbol (self) && gtk_search_bar_get_search_mode (self->search_bar))
    {
      self->go_to_first = FALSE;
      restart (self);
    }
}

static void
search_changed_cb (DecipherSearchBar *self)
{
  /* Typing is asking for text again. */
  if (finding_symbol (self))
    gtk_toggle_button_set_active (self->symbol_button, FALSE);
  self->go_to_first = TRUE;
  if (self->state != NULL)
    decipher_view_state_set_search_text (self->state,
                                         gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  restart (self);
}

static void
symbol_toggled_cb (DecipherSearchBar *self)
{
  self->go_to_first = TRUE;
  restart (self);
}

static void
search_mode_cb (DecipherSearchBar *self)
{
  if (!gtk_search_bar_get_search_mode (self->search_bar))
    clear_results (self);
}

static void
stop_search_cb (DecipherSearchBar *self)
{
  decipher_search_bar_stop (self);
  /* The keyboard goes back to the pages, which the window knows of. */
  g_signal_emit (self, signals[STOPPED], 0);
}

static void
next_match_cb (DecipherSearchBar *self)
{
  decipher_search_bar_next (self, FALSE);
}

static void
previous_match_cb (DecipherSearchBar *self)
{
  decipher_search_bar_next (self, TRUE);
}

static void
decipher_search_bar_dispose (GObject *object)
{
  DecipherSearchBar *self = DECIPHER_SEARCH_BAR (object);

  g_clear_handle_id (&self->step_source, g_source_remove);
  g_clear_handle_id (&self->restart_source, g_source_remove);
  g_clear_pointer (&self->search, dc_search_free);
  g_clear_pointer (&self->occurrences, g_array_unref);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (dc_session_get_key (self->session), self);
  g_clear_object (&self->session);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_SEARCH_BAR);

  G_OBJECT_CLASS (decipher_search_bar_parent_class)->dispose (object);
}

static void
decipher_search_bar_class_init (DecipherSearchBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_search_bar_dispose;

  /* Escape in the entry closed the bar. */
  signals[STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-search-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherSearchBar, search_bar);
  gtk_widget_class_bind_template_child (widget_class, DecipherSearchBar, entry);
  gtk_widget_class_bind_template_child (widget_class, DecipherSearchBar, symbol_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherSearchBar, count_label);
}

static void
decipher_search_bar_init (DecipherSearchBar *self)
{
  self->current = -1;
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->entry));
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (next_match_cb), self);
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (next_match_cb), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (previous_match_cb), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  g_signal_connect_swapped (self->symbol_button, "toggled", G_CALLBACK (symbol_toggled_cb), self);
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (search_mode_cb), self);
  {
    /* Shift+Enter goes back, as in Papers and GNOME Text Editor. */
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();
    GtkShortcut *back = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                          gtk_signal_action_new ("previous-match"));

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), back);
    gtk_widget_add_controller (GTK_WIDGET (self->entry), shortcuts);
  }
}

void
decipher_search_bar_set_session (DecipherSearchBar *self, DcSession *session)
{
  g_return_if_fail (DECIPHER_IS_SEARCH_BAR (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));

  if (self->session == session)
    return;
  g_clear_handle_id (&self->restart_source, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (dc_session_get_key (self->session), self);
  g_set_object (&self->session, session);
  /* Another document: what was searched in the last one means nothing here. */
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  gtk_toggle_button_set_active (self->symbol_button, FALSE);
  clear_results (self);
  if (session == NULL)
    return;
  g_signal_connect_swapped (dc_session_get_key (session), "changed", G_CALLBACK (key_changed_cb),
                            self);
}

/* Where the bar turns pages, points out the matches and says what is searched; the
 * symbol whose occurrences it finds is the one selected there. */
void
decipher_search_bar_set_view_state (DecipherSearchBar *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_SEARCH_BAR (self));
  g_return_if_fail (state == NULL || DECIPHER_IS_VIEW_STATE (state));

  if (self->state == state)
    return;
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_set_object (&self->state, state);
  if (state != NULL)
    g_signal_connect_swapped (state, "notify::selected-symbol", G_CALLBACK (selected_symbol_cb),
                              self);
}

/* Ctrl+F: opens the bar with the keyboard in the entry, its text selected to replace. */
void
decipher_search_bar_start (DecipherSearchBar *self)
{
  g_return_if_fail (DECIPHER_IS_SEARCH_BAR (self));

  if (self->session == NULL)
    return;
  if (!gtk_search_bar_get_search_mode (self->search_bar))
    {
      gtk_search_bar_set_search_mode (self->search_bar, TRUE);
      self->go_to_first = TRUE;
      restart (self);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

void
decipher_search_bar_stop (DecipherSearchBar *self)
{
  g_return_if_fail (DECIPHER_IS_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  clear_results (self);
}

gboolean
decipher_search_bar_is_active (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), FALSE);

  return gtk_search_bar_get_search_mode (self->search_bar);
}

/* Ctrl+G / Shift+Ctrl+G: the next or previous match, around the document; the first one
 * from the page on screen when none is shown yet. */
void
decipher_search_bar_next (DecipherSearchBar *self, gboolean backwards)
{
  guint n, match;

  g_return_if_fail (DECIPHER_IS_SEARCH_BAR (self));

  n = n_matches (self);
  if (n == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (self->current < 0 || (guint) self->current >= n)
    match = find_from_view (self, backwards);
  else if (backwards)
    match = self->current > 0 ? (guint) self->current - 1 : n - 1;
  else
    match = ((guint) self->current + 1) % n;
  show_match (self, match);
}

GtkEditable *
decipher_search_bar_get_entry (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), NULL);

  return GTK_EDITABLE (self->entry);
}

GtkToggleButton *
decipher_search_bar_get_symbol_button (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), NULL);

  return self->symbol_button;
}

const char *
decipher_search_bar_get_count_text (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), NULL);

  return gtk_label_get_text (self->count_label);
}

gboolean
decipher_search_bar_is_searching (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), FALSE);

  return still_searching (self) || self->restart_source != 0;
}

guint
decipher_search_bar_get_n_matches (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), 0);

  return n_matches (self);
}

int
decipher_search_bar_get_current (DecipherSearchBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), -1);

  return self->current;
}

/* Returns: (array length=n_glyphs) (nullable): the glyphs of the match shown */
const guint32 *
decipher_search_bar_get_current_glyphs (DecipherSearchBar *self, guint *n_glyphs)
{
  guint page;

  g_return_val_if_fail (DECIPHER_IS_SEARCH_BAR (self), NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  *n_glyphs = 0;
  if (self->current < 0 || (guint) self->current >= n_matches (self))
    return NULL;
  return match_glyphs (self, (guint) self->current, n_glyphs, &page);
}
