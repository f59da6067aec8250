/* decipher-window.c: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One document per window: an empty state that says what to do, a loading state with
 * progress while the engine extracts the glyphs in a worker thread, then the pages next
 * to the glyph palette with the decoding progress always visible underneath. Work is
 * autosaved by the session; closing saves it once more and never asks.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-accessible.h"
#include "decipher-window-private.h"

#define properties _decipher_window_properties
#define PROP_SHOW_TEXT DECIPHER_WINDOW_PROP_SHOW_TEXT
#define PROP_SHOW_PALETTE DECIPHER_WINDOW_PROP_SHOW_PALETTE
#define PROP_SHOW_PAGES DECIPHER_WINDOW_PROP_SHOW_PAGES
#define PROP_SESSION DECIPHER_WINDOW_PROP_SESSION
#define N_PROPS DECIPHER_WINDOW_N_PROPS
#define learned_toast _decipher_window_learned_toast
#define set_status _decipher_window_set_status
#define update_status _decipher_window_update_status
#define pane_busy_cb _decipher_window_pane_busy_cb
#define save_session _decipher_window_save_session
#define release_palette _decipher_window_release_palette

G_DEFINE_FINAL_TYPE (DecipherWindow, decipher_window, ADW_TYPE_APPLICATION_WINDOW)

GParamSpec *properties[N_PROPS];

/* ---- conflicts ---------------------------------------------------------------------- */

/* The header bar's count of open conflicts, shown only while there are some, and the
 * input pane's marks and hint, which follow the same open conflicts. */
static gboolean
close_window_idle (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

void
_decipher_window_update_conflicts (DecipherWindow *self)
{
  DcMatcher *matcher = self->session != NULL
                           ? dc_session_get_matcher (decipher_session_get_engine (self->session))
                           : NULL;
  guint n = matcher != NULL ? dc_matcher_get_n_conflicts (matcher) : 0;
  g_autofree char *count = g_strdup_printf ("%u", n);
  g_autofree char *label = NULL;

  g_object_set (self->palette, "matcher", matcher, NULL);
  decipher_input_pane_update_conflicts (self->input_pane);
  gtk_label_set_text (self->conflicts_label, count);
  gtk_widget_set_visible (GTK_WIDGET (self->conflicts_button), n > 0);
  /* Translators: the accessible name of the header bar button that opens the review. */
  label = g_strdup_printf (ngettext ("%u conflict to review", "%u conflicts to review", n), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->conflicts_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.review-conflicts", self->session != NULL);
  /* The review has settled the last one: nothing is left to show in it. Closed from an
   * idle: this runs inside the review's own button handler. */
  if (n == 0 && self->n_conflicts > 0 && self->conflict_window != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT, close_window_idle, g_object_ref (self->conflict_window),
                     g_object_unref);
  self->n_conflicts = n;
}

static void
conflict_window_destroyed (DecipherWindow *self)
{
  self->conflict_window = NULL;
  self->conflict_view = NULL;
}

/* The review opens in a window of its own over the pages: the cuts of both places want
 * room, and the user comes back to the pages when done. */
void
_decipher_window_review_conflicts (DecipherWindow *self)
{
  GtkWidget *header;
  GtkEventController *escape;

  if (self->session == NULL)
    return;
  if (self->conflict_window == NULL)
    {
      self->conflict_window = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_title (self->conflict_window, _("Conflicts"));
      gtk_window_set_transient_for (self->conflict_window, GTK_WINDOW (self));
      gtk_window_set_modal (self->conflict_window, TRUE);
      gtk_window_set_destroy_with_parent (self->conflict_window, TRUE);
      gtk_window_set_default_size (self->conflict_window, 720, 640);
      /* A plain GtkWindow has no Escape binding, unlike every GNOME dialog; the review
       * is one, and resolving nothing is always a fine way out. */
      escape = gtk_shortcut_controller_new ();
      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (escape),
          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                            gtk_named_action_new ("window.close")));
      gtk_widget_add_controller (GTK_WIDGET (self->conflict_window), escape);
      header = adw_header_bar_new ();
      gtk_window_set_titlebar (self->conflict_window, header);
      self->conflict_view = DECIPHER_CONFLICT_VIEW (decipher_conflict_view_new ());
      gtk_window_set_child (self->conflict_window, GTK_WIDGET (self->conflict_view));
      g_signal_connect_object (self->conflict_view, "resolved",
                               G_CALLBACK (_decipher_window_update_conflicts), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->conflict_window, "destroy",
                               G_CALLBACK (conflict_window_destroyed), self, G_CONNECT_SWAPPED);
    }
  decipher_conflict_view_set_session (self->conflict_view,
                                      self->session != NULL
                                          ? decipher_session_get_engine (self->session)
                                          : NULL,
                                      self->shapes,
                                      decipher_document_view_get_renderer (self->document_view));
  gtk_window_present (self->conflict_window);
}

/* ---- what the widgets report -------------------------------------------------------- */

static void
assigned_cb (DecipherWindow *self, guint symbol)
{
  learned_toast (self, 1);
}

static void
assign_failed_cb (DecipherWindow *self, const char *message)
{
  _decipher_window_toast (self, message, FALSE);
}

static void
learned_cb (DecipherWindow *self, guint n_symbols)
{
  learned_toast (self, n_symbols);
}

/* Typed words were learned on a line the user did not have in view: the toast says where
 * (the page has gone there), with Undo for the step. */
static void
learned_elsewhere_cb (DecipherWindow *self, guint n_symbols, guint line)
{
  const DcLine *l;
  g_autofree char *title = NULL;

  if (self->session == NULL)
    return;
  l = &dc_document_get_lines (decipher_session_get_document (self->session), NULL)[line];
  /* Translators: typed words matched a line that was not on screen; page, line on it. */
  title = g_strdup_printf (ngettext ("%u symbol learned from p. %u, line %u",
                                     "%u symbols learned from p. %u, line %u", n_symbols),
                           n_symbols, l->page + 1, l->index + 1);
  _decipher_window_toast (self, title, TRUE);
}

/* Typed input contradicted values held: straight to the review, where the user sees
 * both places and decides. */
static void
conflict_cb (DecipherWindow *self)
{
  _decipher_window_update_conflicts (self);
  _decipher_window_review_conflicts (self);
}

static void
symbol_activated_cb (DecipherWindow *self, guint symbol)
{
  decipher_document_view_activate_symbol (self->document_view, symbol);
}

/* ---- shortcuts window --------------------------------------------------------------- */

/* GTK 4.8's shortcuts window names the page keys by their keysyms, "Page_Up", unless
 * GTK has a translation for them; a key cap reads "Page Up". */
static void
relabel_keys (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        {
          const char *text = gtk_label_get_label (GTK_LABEL (child));

          if (g_str_equal (text, "Page_Up"))
            gtk_label_set_label (GTK_LABEL (child), C_ ("keyboard label", "Page Up"));
          else if (g_str_equal (text, "Page_Down"))
            gtk_label_set_label (GTK_LABEL (child), C_ ("keyboard label", "Page Down"));
        }
      relabel_keys (child);
    }
}

static void
application_set_cb (DecipherWindow *self)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (
      GTK_APPLICATION_WINDOW (self));

  if (overlay == NULL)
    return;
  relabel_keys (GTK_WIDGET (overlay));
  /* Again each time it shows, should GTK have rebuilt its key caps meanwhile. */
  g_signal_handlers_disconnect_by_func (overlay, relabel_keys, NULL);
  g_signal_connect (overlay, "map", G_CALLBACK (relabel_keys), NULL);
}

/* (decipher-window-layout.c fits the window to the width it got.) */
static void
decipher_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  GTK_WIDGET_CLASS (decipher_window_parent_class)->size_allocate (widget, width, height, baseline);
  _decipher_window_layout_allocated (DECIPHER_WINDOW (widget));
}

/* ---- object ------------------------------------------------------------------------- */

static gboolean
decipher_window_close_request (GtkWindow *window)
{
  DecipherWindow *self = DECIPHER_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  /* No question: the work is in the autosave, and this writes the last of it. */
  save_session (self);

  return GTK_WINDOW_CLASS (decipher_window_parent_class)->close_request (window);
}

static void
decipher_window_dispose (GObject *object)
{
  DecipherWindow *self = DECIPHER_WINDOW (object);

  g_cancellable_cancel (self->lifetime);
  _decipher_window_layout_dispose (self);
  release_palette (self);
  if (self->status_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->status_bar), self->status_tick);
  self->status_tick = 0;
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_signal_handlers_disconnect_by_data (gtk_recent_manager_get_default (), self);
  if (self->palette != NULL)
    _decipher_window_set_session (self, NULL);
  if (self->input_pane != NULL)
    {
      decipher_input_pane_set_view_state (self->input_pane, NULL);
      g_signal_handlers_disconnect_by_func (self->input_pane, pane_busy_cb, self);
    }
  if (self->view_state != NULL)
    g_signal_handlers_disconnect_by_data (self->view_state, self);
  g_clear_handle_id (&self->busy_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_WINDOW);

  G_OBJECT_CLASS (decipher_window_parent_class)->dispose (object);
}

static void
decipher_window_finalize (GObject *object)
{
  DecipherWindow *self = DECIPHER_WINDOW (object);

  g_clear_object (&self->session);
  g_clear_object (&self->shapes);
  g_clear_object (&self->view_state);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->lifetime);
  g_clear_object (&self->loading_file);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);
  g_clear_object (&self->print_settings);
  g_clear_pointer (&self->return_page, g_free);
  g_clear_pointer (&self->last_error, g_free);

  G_OBJECT_CLASS (decipher_window_parent_class)->finalize (object);
}

static void
decipher_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DecipherWindow *self = DECIPHER_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SHOW_TEXT:
      g_value_set_boolean (value, self->show_text);
      break;
    case PROP_SHOW_PALETTE:
      g_value_set_boolean (value, _decipher_window_get_show_palette (self));
      break;
    case PROP_SHOW_PAGES:
      g_value_set_boolean (value, self->show_pages);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_window_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  DecipherWindow *self = DECIPHER_WINDOW (object);
  gboolean b = g_value_get_boolean (value);

  switch (prop_id)
    {
    case PROP_SHOW_TEXT:
      if (self->show_text == b)
        return;
      self->show_text = b;
      decipher_document_view_set_show_text (self->document_view, b);
      break;
    case PROP_SHOW_PALETTE:
      if (!_decipher_window_set_show_palette (self, b))
        return;
      break;
    case PROP_SHOW_PAGES:
      if (self->show_pages == b)
        return;
      self->show_pages = b;
      gtk_revealer_set_reveal_child (self->pages_revealer, b);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_object_notify_by_pspec (object, pspec);
}

static void
decipher_window_class_init (DecipherWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = decipher_window_dispose;
  object_class->finalize = decipher_window_finalize;
  object_class->get_property = decipher_window_get_property;
  object_class->set_property = decipher_window_set_property;
  widget_class->size_allocate = decipher_window_size_allocate;
  window_class->close_request = decipher_window_close_request;

  properties[PROP_SHOW_TEXT] = g_param_spec_boolean ("show-text", NULL, NULL, FALSE,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                         | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_PALETTE] = g_param_spec_boolean ("show-palette", NULL, NULL, TRUE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                            | G_PARAM_STATIC_STRINGS);
  /* Page thumbnails beside the pages, as Papers' sidebar; hidden at first. */
  properties[PROP_SHOW_PAGES] = g_param_spec_boolean ("show-pages", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                          | G_PARAM_STATIC_STRINGS);
  /* What an input pane or a conflict review follows to know the document shown. */
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, DECIPHER_TYPE_SESSION,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                      | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DECIPHER_TYPE_DOCUMENT_VIEW);
  g_type_ensure (DECIPHER_TYPE_GLYPH_PALETTE);
  g_type_ensure (DECIPHER_TYPE_SEARCH_BAR);
  g_type_ensure (DECIPHER_TYPE_PAGE_SIDEBAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, text_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, palette_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, load_progress);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, sheet_paned);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, document_view);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, palette);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, pages_revealer);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, page_sidebar);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, pages_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, input_slot);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, status_bar);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, progress_level);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, busy_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, progress_short_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, zoom_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, page_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, page_entry);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, conflicts_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherWindow, conflicts_label);

  _decipher_window_class_add_actions (widget_class);
}

static void
decipher_window_init (DecipherWindow *self)
{
  self->lifetime = g_cancellable_new ();
  self->palette_shown = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  /* Not bound to the "zoom" setting: a zoom is for the document it was chosen on, and
   * every document opens at the default (see set_session()). */
  decipher_document_view_set_zoom (self->document_view,
                                   g_settings_get_double (self->settings, "zoom"));
  self->view_state = decipher_view_state_new ();
  decipher_document_view_set_view_state (self->document_view, self->view_state);
  decipher_search_bar_set_view_state (self->search_bar, self->view_state);
  decipher_glyph_palette_set_view_state (self->palette, self->view_state);
  decipher_page_sidebar_set_view_state (self->page_sidebar, self->view_state);
  g_signal_connect_swapped (self->search_bar, "stopped", G_CALLBACK (gtk_widget_grab_focus),
                            self->document_view);

  _decipher_window_init_opening (self);
  g_signal_connect (self, "notify::application", G_CALLBACK (application_set_cb), NULL);
  g_signal_connect_swapped (self->page_entry, "activate",
                            G_CALLBACK (_decipher_window_go_to_typed_page), self);
  g_signal_connect_swapped (self->view_state, "notify::page", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (self->view_state, "notify::n-pages", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (self->view_state, "notify::zoom", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (decipher_document_view_get_popover (self->document_view), "assigned",
                            G_CALLBACK (assigned_cb), self);
  g_signal_connect_swapped (self->palette, "assigned", G_CALLBACK (assigned_cb), self);
  g_signal_connect_swapped (self->palette, "assign-failed", G_CALLBACK (assign_failed_cb), self);
  g_signal_connect_swapped (self->palette, "symbol-activated", G_CALLBACK (symbol_activated_cb),
                            self);

  /* Typing what one reads is the main way to fill the table: the pane sits under the
   * pages whenever a document is shown. */
  self->input_pane = DECIPHER_INPUT_PANE (decipher_input_pane_new ());
  decipher_input_pane_set_view_state (self->input_pane, self->view_state);
  gtk_box_append (self->input_slot, GTK_WIDGET (self->input_pane));
  gtk_widget_set_visible (GTK_WIDGET (self->input_slot), TRUE);
  g_signal_connect_swapped (self->input_pane, "learned", G_CALLBACK (learned_cb), self);
  g_signal_connect_swapped (self->input_pane, "learned-elsewhere",
                            G_CALLBACK (learned_elsewhere_cb), self);
  g_signal_connect_swapped (self->input_pane, "conflict", G_CALLBACK (conflict_cb), self);
  g_signal_connect_swapped (self->input_pane, "notify::busy", G_CALLBACK (pane_busy_cb), self);

  set_status (self);
  decipher_accessible_name_controls (GTK_WIDGET (self));
  decipher_accessible_name_new_children (GTK_WIDGET (self->toast_overlay));
}

DecipherWindow *
decipher_window_new (GtkApplication *application)
{
  return g_object_new (DECIPHER_TYPE_WINDOW, "application", application, NULL);
}

/* Whether the window shows nothing and loads nothing, so a file can open in it. */
gboolean
decipher_window_is_empty (DecipherWindow *self)
{
  g_return_val_if_fail (DECIPHER_IS_WINDOW (self), FALSE);

  return self->session == NULL && self->load_cancellable == NULL;
}

gboolean
decipher_window_is_loading (DecipherWindow *self)
{
  g_return_val_if_fail (DECIPHER_IS_WINDOW (self), FALSE);

  return self->load_cancellable != NULL;
}

DecipherSession *
decipher_window_get_session (DecipherWindow *self)
{
  g_return_val_if_fail (DECIPHER_IS_WINDOW (self), NULL);

  return self->session;
}

DecipherDocumentView *
_decipher_window_get_document_view (DecipherWindow *self)
{
  return self->document_view;
}

DecipherGlyphPalette *
_decipher_window_get_palette (DecipherWindow *self)
{
  return self->palette;
}

GtkLabel *
_decipher_window_get_progress_label (DecipherWindow *self)
{
  return self->progress_label;
}

/* The progress line the status bar shows: the whole one where it fits, else the short. */
GtkLabel *
_decipher_window_get_shown_progress_label (DecipherWindow *self)
{
  GtkWidget *squeezer = gtk_widget_get_parent (GTK_WIDGET (self->progress_label));

  return GTK_LABEL (adw_squeezer_get_visible_child (ADW_SQUEEZER (squeezer)));
}

/* The conflict review, or %NULL while it is not open. */
DecipherConflictView *
_decipher_window_get_conflict_view (DecipherWindow *self)
{
  return self->conflict_view;
}

DecipherInputPane *
_decipher_window_get_input_pane (DecipherWindow *self)
{
  return self->input_pane;
}

/* Where the input pane goes, under the pages; hidden while empty. */
GtkBox *
_decipher_window_get_input_slot (DecipherWindow *self)
{
  return self->input_slot;
}

const char *
_decipher_window_get_last_error (DecipherWindow *self)
{
  return self->last_error;
}

const char *
_decipher_window_get_visible_page (DecipherWindow *self)
{
  return gtk_stack_get_visible_child_name (self->main_stack);
}
