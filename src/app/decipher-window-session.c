/* decipher-window-session.c: the document the window shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-window.c: a session handed to the widgets (and taken back from
 * them for the next), the page and zoom a document was left at kept beside its
 * autosave, its first frames, and what the window does when its key changes or its
 * work cannot be saved.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-occurrence-strip.h"
#include "decipher-window-private.h"

#define properties _decipher_window_properties
#define PROP_SESSION DECIPHER_WINDOW_PROP_SESSION
#define forget_undo_toast _decipher_window_forget_undo_toast
#define update_progress _decipher_window_update_progress
#define set_status _decipher_window_set_status
#define save_session _decipher_window_save_session
#define release_palette _decipher_window_release_palette

/* ---- the session's signals ---------------------------------------------------------- */

static void
key_changed_cb (DecipherWindow *self)
{
  /* Its toast, when the change has one, comes after this. */
  forget_undo_toast (self);
  update_progress (self);
  _decipher_window_update_conflicts (self);
  _decipher_window_update_actions (self);
}

static void
save_failed_cb (DecipherWindow *self, const char *message)
{
  g_autofree char *title = g_strdup_printf (_("Your work could not be saved: %s"), message);

  _decipher_window_toast (self, title, FALSE);
}

/* ---- sessions ----------------------------------------------------------------------- */

/* Where the page and zoom a document was left at are kept: beside its autosaved project,
 * which is the document's own (named by its content's SHA-256). */
static char *
view_path (DecipherSession *session)
{
  return g_strconcat (decipher_session_get_autosave_path (session), ".view", NULL);
}

static void
save_view (DecipherWindow *self)
{
  g_autoptr (GKeyFile) file = g_key_file_new ();
  g_autofree char *path = view_path (self->session);
  g_autoptr (GError) error = NULL;

  g_key_file_set_integer (file, "view", "page",
                          (int) decipher_view_state_get_page (self->view_state));
  g_key_file_set_double (file, "view", "zoom", decipher_view_state_get_zoom (self->view_state));
  if (!g_key_file_save_to_file (file, path, &error))
    g_debug ("Could not keep the page and zoom in %s: %s", path, error->message);
}

/* Reopened, a document shows the page and zoom it was left at (issue 31.10), through
 * the view state the widgets share; else the default zoom from its first page. A file
 * that does not read as one is ignored: it only saves a scroll. */
static void
restore_view (DecipherWindow *self)
{
  g_autoptr (GKeyFile) file = g_key_file_new ();
  g_autofree char *path = view_path (self->session);
  g_autoptr (GError) error = NULL;
  double zoom;
  int page;

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, NULL))
    return;
  zoom = g_key_file_get_double (file, "view", "zoom", &error);
  if (error == NULL && zoom >= DECIPHER_ZOOM_MIN && zoom <= DECIPHER_ZOOM_MAX)
    decipher_view_state_set_zoom (self->view_state, zoom);
  g_clear_error (&error);
  page = g_key_file_get_integer (file, "view", "page", &error);
  if (error == NULL && page > 0)
    decipher_view_state_set_page (self->view_state, (guint) page);
}

void
save_session (DecipherWindow *self)
{
  g_autoptr (GError) error = NULL;

  if (self->session == NULL)
    return;
  if (!decipher_session_save (self->session, &error))
    g_warning ("Could not save the project of %s: %s",
               decipher_session_get_autosave_path (self->session), error->message);
  save_view (self);
}

/* At most this many frames wait for the first page before the palette gets its cells:
 * a page that fails to render does not keep them away. */
#define PALETTE_HOLD_FRAMES 30

static gboolean
palette_hold_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  if (decipher_document_view_get_n_drawn_pages (self->document_view) == 0
      && ++self->palette_frames < PALETTE_HOLD_FRAMES)
    return G_SOURCE_CONTINUE;
  self->palette_tick_id = 0;
  decipher_glyph_palette_hold_cells (self->palette, FALSE);
  return G_SOURCE_REMOVE;
}

void
release_palette (DecipherWindow *self)
{
  if (self->palette_tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->palette_tick_id);
  self->palette_tick_id = 0;
  if (self->palette != NULL)
    decipher_glyph_palette_hold_cells (self->palette, FALSE);
}

/* A new document's first frames: the whole window, then its first page, then the
 * palette's cells, each a frame of its own (see decipher_glyph_palette_hold_cells()). */
static void
hold_palette (DecipherWindow *self)
{
  release_palette (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  decipher_glyph_palette_hold_cells (self->palette, TRUE);
  self->palette_frames = 0;
  self->palette_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), palette_hold_tick, NULL,
                                                        NULL);
}

/* The header bar names the document and, under it, the folder it is in. */
static void
show_title (DecipherWindow *self, DecipherSession *session)
{
  g_autofree char *title = NULL;
  g_autofree char *folder = NULL;
  g_autoptr (GFile) parent = NULL;

  title = decipher_session_dup_title (session);
  parent = g_file_get_parent (decipher_session_get_file (session));
  if (parent != NULL)
    {
      g_autofree char *path = g_file_get_path (parent);

      folder = g_filename_display_name (path);
    }
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, folder != NULL ? folder : "");
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* What opening the document found that the user should know: it is read-only, earlier
 * work could not be restored or was, or symbols were guessed. */
static void
announce_opened (DecipherWindow *self, DecipherSession *session)
{
  if (decipher_session_get_read_only_reason (session) != NULL)
    _decipher_window_show_error (self, _("Opened Read-Only"),
                                          decipher_session_get_read_only_reason (session));
  else if (decipher_session_get_restore_problem (session) != NULL)
    _decipher_window_show_error (self, _("Earlier Work Not Restored"),
                                          decipher_session_get_restore_problem (session));
  else if (decipher_session_get_restored (session))
    _decipher_window_toast (self, _("Your earlier work on this document was restored"), FALSE);
  else if (decipher_session_get_n_guessed (session) > 0)
    {
      guint n = decipher_session_get_n_guessed (session);
      g_autofree char *toast = NULL;

      /* Translators: after opening a new document, e.g. its spaces and full stops. */
      toast = g_strdup_printf (ngettext ("%u symbol was guessed automatically",
                                         "%u symbols were guessed automatically", n),
                               n);
      _decipher_window_toast (self, toast, TRUE);
    }
}

void
_decipher_window_set_session (DecipherWindow *self, DecipherSession *session)
{
  DcSession *engine = session != NULL ? decipher_session_get_engine (session) : NULL;

  /* Its Undo was a step of the other document's key, its count the other's symbols. */
  forget_undo_toast (self);
  self->learn_toast = NULL;
  if (self->session != NULL)
    {
      save_session (self);
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (decipher_session_get_key (self->session), self);
    }
  decipher_glyph_palette_set_session (self->palette, NULL, NULL);
  decipher_document_view_set_session (self->document_view, NULL, NULL, NULL);
  decipher_input_pane_set_session (self->input_pane, NULL);
  decipher_search_bar_set_session (self->search_bar, NULL);
  decipher_page_sidebar_set_session (self->page_sidebar, NULL, NULL);
  if (self->conflict_window != NULL)
    gtk_window_destroy (self->conflict_window);
  decipher_occurrence_strip_close_for (GTK_WINDOW (self));
  /* A symbol of the last document means nothing in the next. */
  decipher_view_state_set_selected_symbol (self->view_state, DC_SYMBOL_NONE);
  _decipher_window_update_conflicts (self);
  g_clear_object (&self->shapes);
  release_palette (self);
  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  if (session == NULL)
    return;

  /* Each document opens at the default zoom, not at the last one's, unless it was left
   * at another (restore_view()). */
  decipher_document_view_set_zoom (self->document_view,
                                   g_settings_get_double (self->settings, "zoom"));
  decipher_document_view_set_session (self->document_view, engine,
                                      decipher_session_get_render_file (session),
                                      decipher_session_get_password (session));
  restore_view (self);
  self->shapes = decipher_glyph_shapes_new (engine, decipher_document_view_get_renderer (
                                                        self->document_view));
  decipher_document_view_set_shapes (self->document_view, self->shapes);
  hold_palette (self);
  decipher_glyph_palette_set_session (self->palette, engine, self->shapes);
  decipher_input_pane_set_session (self->input_pane, engine);
  decipher_search_bar_set_session (self->search_bar, engine);
  decipher_page_sidebar_set_session (self->page_sidebar, engine,
                                     decipher_document_view_get_renderer (self->document_view));

  g_signal_connect_swapped (decipher_session_get_key (session), "changed",
                            G_CALLBACK (key_changed_cb), self);
  g_signal_connect_swapped (decipher_session_get_key (session), "notify::can-undo",
                            G_CALLBACK (_decipher_window_update_actions), self);
  g_signal_connect_swapped (decipher_session_get_key (session), "notify::can-redo",
                            G_CALLBACK (_decipher_window_update_actions), self);
  g_signal_connect_swapped (session, "save-failed", G_CALLBACK (save_failed_cb), self);

  show_title (self, session);

  /* At once, not by a crossfade and a sliding status bar: each frame of those redraws
   * and lays out the whole window, ten frames in a row at the moment the new document's
   * first pages and palette are being made. */
  gtk_stack_set_visible_child_full (self->main_stack, "document", GTK_STACK_TRANSITION_TYPE_NONE);
  gtk_widget_set_visible (GTK_WIDGET (self->status_bar), TRUE);
  _decipher_window_add_recent (self, decipher_session_get_file (session));
  update_progress (self);
  /* At once: this frame redraws the whole window anyway. */
  set_status (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->document_view));

  announce_opened (self, session);
}
