/* decipher-window-status.c: what the window tells the user as it goes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-window.c: the error dialog, the toasts (the one whose Undo is the
 * key's last step, the one that counts what was learned), and the status bar under the
 * pages with the decoding progress, the page number and zoom, and the busy label.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-labels.h"
#include "decipher-window-private.h"

#define forget_undo_toast _decipher_window_forget_undo_toast
#define learned_toast _decipher_window_learned_toast
#define update_progress _decipher_window_update_progress
#define set_status _decipher_window_set_status
#define update_status _decipher_window_update_status
#define pane_busy_cb _decipher_window_pane_busy_cb

/* ---- messages ----------------------------------------------------------------------- */

void
_decipher_window_show_error (DecipherWindow *self, const char *heading, const char *body)
{
  AdwMessageDialog *dialog;

  g_free (self->last_error);
  self->last_error = g_strdup (body);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, body));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The key's step, always: not win.undo, which goes to a focused entry's text — and
 * the focus is in the input pane's entry right after typed words were learned. Only
 * the toast still on show may undo: it announced the key's last step. */
static void
toast_undo_cb (AdwToast *toast, DecipherWindow *self)
{
  if (self->session == NULL || toast != self->undo_toast)
    return;
  self->undo_toast = NULL;
  dc_session_undo (decipher_session_get_engine (self->session), NULL);
}

static void
toast_redo_cb (AdwToast *toast, DecipherWindow *self)
{
  if (self->session == NULL || toast != self->redo_toast)
    return;
  self->redo_toast = NULL;
  dc_session_redo (decipher_session_get_engine (self->session), NULL);
}

static void
undo_toast_dismissed_cb (AdwToast *toast, DecipherWindow *self)
{
  if (self->undo_toast == toast)
    self->undo_toast = NULL;
  if (self->redo_toast == toast)
    self->redo_toast = NULL;
  if (self->learn_toast == toast)
    self->learn_toast = NULL;
}

/* An Undo toast names one step of the key; once another step follows (or that one is
 * undone), its button would undo something else — say a conflict the user just
 * resolved — and with high priority an older toast comes back from the overlay's
 * queue. So the toast stops being the one whose button undoes. (It is not dismissed
 * here: libadwaita 1.2 can crash on close with toasts dismissed mid-animation.) */
void
forget_undo_toast (DecipherWindow *self)
{
  self->undo_toast = NULL;
  if (self->redo_toast != NULL)
    adw_toast_set_button_label (self->redo_toast, NULL);
  self->redo_toast = NULL;
  /* The learning toast stays and keeps counting, but offers no Undo it cannot keep. */
  if (self->learn_toast != NULL)
    adw_toast_set_button_label (self->learn_toast, NULL);
}

/* Learning is announced by one toast that counts ("12 symbols learned") while it is on
 * show, not one toast per step: those queued up and kept cycling over the page long
 * after the work was done. Its Undo undoes the last step, the one it just counted. */
void
learned_toast (DecipherWindow *self, guint n_symbols)
{
  g_autofree char *title = NULL;

  forget_undo_toast (self);
  if (self->learn_toast == NULL)
    {
      self->learn_toast = adw_toast_new ("");
      self->n_learned = 0;
      g_signal_connect_object (self->learn_toast, "button-clicked", G_CALLBACK (toast_undo_cb),
                               self, 0);
      g_signal_connect_object (self->learn_toast, "dismissed", G_CALLBACK (undo_toast_dismissed_cb),
                               self, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, self->learn_toast);
    }
  self->n_learned += n_symbols;
  /* Translators: the one toast that counts the symbols learned while it is shown. */
  title = g_strdup_printf (ngettext ("%u symbol learned", "%u symbols learned", self->n_learned),
                           self->n_learned);
  adw_toast_set_title (self->learn_toast, title);
  adw_toast_set_button_label (self->learn_toast, _("_Undo"));
  self->undo_toast = self->learn_toast;
}

/* A short note at the bottom of the pages; with @undo, an Undo button for the last step. */
void
_decipher_window_toast (DecipherWindow *self, const char *title, gboolean undo)
{
  AdwToast *toast = adw_toast_new (title);

  forget_undo_toast (self);
  if (undo)
    {
      adw_toast_set_button_label (toast, _("_Undo"));
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (toast_undo_cb), self, 0);
      g_signal_connect_object (toast, "dismissed", G_CALLBACK (undo_toast_dismissed_cb), self, 0);
      self->undo_toast = toast;
    }
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Ctrl+Z and Ctrl+Shift+Z say which step they took back or made again: the step may lie
 * far from the page on show — the automatic guesses of the whole document, right after it
 * opened — and nothing else would tell. The toast's button turns it round again for as
 * long as that step is the key's next to redo (or undo). */
void
_decipher_window_undone_toast (DecipherWindow *self, const char *step, gboolean undone)
{
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (!undone)
    {
      /* Translators: a toast after Ctrl+Shift+Z; %s is the step, e.g. “Automatic guesses”. */
      title = g_strdup_printf (_("Redone: %s"), step);
      _decipher_window_toast (self, title, TRUE);
      return;
    }
  forget_undo_toast (self);
  /* Translators: a toast after Ctrl+Z; %s is the step, e.g. “Automatic guesses”. */
  title = g_strdup_printf (_("Undone: %s"), step);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Redo"));
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (toast_redo_cb), self, 0);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (undo_toast_dismissed_cb), self, 0);
  self->redo_toast = toast;
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* ---- progress ----------------------------------------------------------------------- */

void
update_progress (DecipherWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *short_text = NULL;
  g_autofree char *short_tooltip = NULL;
  guint n_symbols = 0, to_symbols = 0, n_glyphs = 0, to_glyphs = 0, unreviewed_glyphs = 0;
  guint unreviewed;

  if (self->session == NULL)
    return;
  text = decipher_labels_dup_progress_text (decipher_session_get_engine (self->session));
  tooltip = decipher_labels_dup_unmapped_tooltip (decipher_session_get_engine (self->session));
  gtk_label_set_text (self->progress_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->progress_label), tooltip);
  dc_key_count_decoded (decipher_session_get_key (self->session), &n_symbols, &n_glyphs);
  dc_key_count_to_decode (decipher_session_get_key (self->session), &to_symbols, &to_glyphs);
  /* Values accepted in bulk below what a level applies by itself are not counted as
   * done (issue 31.1): the bar does not fill while they are in, and the short line
   * says so too. */
  unreviewed = dc_session_count_unreviewed (decipher_session_get_engine (self->session),
                                            &unreviewed_glyphs);
  if (to_symbols > 0 && unreviewed > 0)
    /* Translators: the progress line on a narrow window: symbols decoded of symbols to
     * decode, and how many no one looked at. The whole line is its tooltip. */
    short_text = g_strdup_printf (_("%u / %u decoded · %u unreviewed"), n_symbols, to_symbols,
                                     unreviewed);
  else if (to_symbols > 0)
    /* Translators: the progress line on a narrow window: symbols decoded of symbols to
     * decode. The whole line is its tooltip. */
    short_text = g_strdup_printf (_("%u / %u decoded"), n_symbols, to_symbols);
  else
    /* Translators: the progress line on a narrow window when no font needs decoding. */
    short_text = g_strdup (_("Nothing to decode"));
  gtk_label_set_text (self->progress_short_label, short_text);
  short_tooltip = tooltip != NULL ? g_strconcat (text, "\n\n", tooltip, NULL) : g_strdup (text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->progress_short_label), short_tooltip);
  gtk_level_bar_set_value (self->progress_level,
                           to_glyphs > 0
                               ? (double) (n_glyphs - MIN (n_glyphs, unreviewed_glyphs)) / to_glyphs
                               : 1.0);
}

static void
set_page_label (DecipherWindow *self)
{
  g_autofree char *text = NULL;
  guint n_pages = 0;

  g_object_get (self->document_view, "n-pages", &n_pages, NULL);
  if (n_pages == 0)
    return;
  /* Translators: after the page number the user can type, in the status bar: "[3] of 12". */
  text = g_strdup_printf (_("of %u"), n_pages);
  gtk_label_set_text (self->page_label, text);
  /* Not while the user is typing a number into it. */
  if (!_decipher_window_page_entry_has_focus (self))
    {
      g_autofree char *number = g_strdup_printf ("%u", decipher_document_view_get_page (
                                                           self->document_view)
                                                           + 1);

      gtk_editable_set_text (GTK_EDITABLE (self->page_entry), number);
    }
}

static void
set_zoom_label (DecipherWindow *self)
{
  g_autofree char *text = g_strdup_printf ("%.0f%%",
                                           decipher_document_view_get_zoom (self->document_view)
                                               * 100);

  gtk_button_set_label (self->zoom_button, text);
}

void
set_status (DecipherWindow *self)
{
  set_zoom_label (self);
  set_page_label (self);
  _decipher_window_update_actions (self);
}

static gboolean
status_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  DecipherWindow *self = data;

  if (self->status_frames-- > 0)
    return G_SOURCE_CONTINUE;
  self->status_tick = 0;
  set_zoom_label (self);
  set_page_label (self);
  return G_SOURCE_REMOVE;
}

/* The status bar's page number and zoom follow the page a frame after it moved. Under
 * the cairo renderer a frame costs what the box around everything it redraws costs: a
 * label at the bottom of the window redrawn with the page above it makes a box of the
 * page and the status bar down to the label (with the zoom label, 1135×727 pixels where
 * the page alone is 864×646 at 1200×800). The actions follow at once. */
void
update_status (DecipherWindow *self)
{
  _decipher_window_update_actions (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->status_bar)))
    {
      set_status (self);
      return;
    }
  /* The first tick is the frame that draws the page; the labels come in the next. */
  self->status_frames = 1;
  if (self->status_tick == 0)
    self->status_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->status_bar), status_tick,
                                                      self, NULL);
}

/* ---- busy --------------------------------------------------------------------------- */

/* A busy sign that shows for every answer would flicker at each key: it shows only once
 * an answer has taken longer than a glance. */
#define BUSY_SPINNER_DELAY_MS 300

static gboolean
show_busy_cb (gpointer data)
{
  DecipherWindow *self = data;

  self->busy_source = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->busy_label), TRUE);
  return G_SOURCE_REMOVE;
}

void
pane_busy_cb (DecipherWindow *self)
{
  gboolean busy = FALSE;

  g_object_get (self->input_pane, "busy", &busy, NULL);
  g_clear_handle_id (&self->busy_source, g_source_remove);
  if (busy)
    {
      self->busy_source = g_timeout_add (BUSY_SPINNER_DELAY_MS, show_busy_cb, self);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->busy_label), FALSE);
}

/* For the tests: whether the status bar says the window is working something out. */
gboolean
_decipher_window_is_busy_shown (DecipherWindow *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->busy_label));
}
