/* decipher-window-actions.c: what the window's actions do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every action is a "win." action installed on the class, so menus, buttons, keyboard
 * shortcuts (set in DecipherApplication) and tests all go through the same code, and
 * each is enabled only when it can do something.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-occurrence-strip.h"
#include "decipher-window-private.h"

#define choose_export_file _decipher_window_choose_export_file
#define export_action _decipher_window_export_action
#define export_map_action _decipher_window_export_map_action
#define export_pdf_action _decipher_window_export_pdf_action
#define print_action _decipher_window_print_action

typedef struct
{
  DecipherWindow *self;
  DecipherFileChosenFunc func;
} FileRequest;

static void
remember_folder (DecipherWindow *self, GFile *file)
{
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = parent != NULL ? g_file_get_uri (parent) : NULL;

  if (uri != NULL)
    g_settings_set_string (self->settings, "last-folder", uri);
}

static GFile *
last_folder (DecipherWindow *self)
{
  g_autofree char *uri = g_settings_get_string (self->settings, "last-folder");

  return *uri != '\0' ? g_file_new_for_uri (uri) : NULL;
}

/**
 * _decipher_window_export_folder:
 *
 * Where an export's dialog opens: beside the PDF it comes from, as a user looks for
 * it (it opened in the process's working directory, issue 31.10); else in the folder
 * last used.
 *
 * Returns: (transfer full) (nullable): the folder, or %NULL for the dialog's own choice
 */
GFile *
_decipher_window_export_folder (DecipherWindow *self)
{
  if (self->session != NULL)
    {
      GFile *parent = g_file_get_parent (decipher_session_get_file (self->session));

      if (parent != NULL && g_file_query_exists (parent, NULL))
        return parent;
      g_clear_object (&parent);
    }
  return last_folder (self);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void
file_dialog_done (GObject *source, GAsyncResult *result, gpointer data)
{
  FileRequest *request = data;
  g_autoptr (GFile) file = NULL;

  if (g_object_get_data (source, "save") != NULL)
    file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (source), result, NULL);
  else
    file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (source), result, NULL);
  if (file != NULL)
    {
      remember_folder (request->self, file);
      request->func (request->self, file);
    }
  g_object_unref (request->self);
  g_free (request);
}
#else
static void
file_chooser_response (GtkNativeDialog *native, int response, FileRequest *request)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      remember_folder (request->self, file);
      request->func (request->self, file);
    }
  g_object_unref (request->self);
  g_free (request);
  g_object_unref (native);
}
#endif

/* Asks for a file through the portal where there is one. GtkFileDialog replaced
 * GtkFileChooserNative in GTK 4.10; Debian 12 has 4.8. */
static void
choose_file_in (DecipherWindow *self, GFile *folder, gboolean save, const char *title,
                const char *accept, const char *initial_name, GtkFileFilter *filter,
                DecipherFileChosenFunc func)
{
  FileRequest *request = g_new0 (FileRequest, 1);

  request->self = g_object_ref (self);
  request->func = func;

#if GTK_CHECK_VERSION(4, 10, 0)
  {
    g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();
    g_autoptr (GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

    gtk_file_dialog_set_title (dialog, title);
    gtk_file_dialog_set_accept_label (dialog, accept);
    gtk_file_dialog_set_modal (dialog, TRUE);
    g_list_store_append (filters, filter);
    gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
    gtk_file_dialog_set_default_filter (dialog, filter);
    if (folder != NULL)
      gtk_file_dialog_set_initial_folder (dialog, folder);
    if (save)
      {
        g_object_set_data (G_OBJECT (dialog), "save", GINT_TO_POINTER (1));
        gtk_file_dialog_set_initial_name (dialog, initial_name);
        gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, file_dialog_done, request);
      }
    else
      gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, file_dialog_done, request);
  }
#else
  {
    GtkFileChooserNative *native;

    native = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                          save ? GTK_FILE_CHOOSER_ACTION_SAVE
                                               : GTK_FILE_CHOOSER_ACTION_OPEN,
                                          accept, _("_Cancel"));
    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), folder, NULL);
    if (save)
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), initial_name);
    g_signal_connect (native, "response", G_CALLBACK (file_chooser_response), request);
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  }
#endif
}

void
_decipher_window_choose_file (DecipherWindow *self, gboolean save, const char *title,
                              const char *accept, const char *initial_name, GtkFileFilter *filter,
                              DecipherFileChosenFunc func)
{
  g_autoptr (GFile) folder = last_folder (self);

  choose_file_in (self, folder, save, title, accept, initial_name, filter, func);
}

/* A file to write an export to, the dialog beside the PDF. */
void
choose_export_file (DecipherWindow *self, const char *title, const char *initial_name,
                    GtkFileFilter *filter, DecipherFileChosenFunc func)
{
  g_autoptr (GFile) folder = _decipher_window_export_folder (self);

  choose_file_in (self, folder, TRUE, title, _("_Export"), initial_name, filter, func);
}

/* ---- open --------------------------------------------------------------------------- */

void
_decipher_window_choose_pdf (DecipherWindow *self)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("PDF Documents"));
  gtk_file_filter_add_mime_type (filter, "application/pdf");
  gtk_file_filter_add_suffix (filter, "pdf");
  _decipher_window_choose_file (self, FALSE,
                                _("Open a PDF"), _("_Open"), NULL, filter, decipher_window_open);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _decipher_window_choose_pdf (DECIPHER_WINDOW (widget));
}

static void
open_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  decipher_window_open (DECIPHER_WINDOW (widget), file);
}

static void
open_project_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _decipher_window_choose_project_to_open (DECIPHER_WINDOW (widget));
}

static void
save_project_as_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _decipher_window_choose_project_to_save (DECIPHER_WINDOW (widget));
}

static void
close_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* ---- editing ------------------------------------------------------------------------ */

/* The window's shortcuts see Ctrl+Z before a focused entry does: an entry keeps its own
 * undo for the text being typed. The word entry, where What Next? and typing leave the
 * focus, does so only while a word is being typed in it: once submitted, or empty, its
 * Ctrl+Z undoes the last decoding step, as GNOME applications do with a document. */
static gboolean
forward_to_text (DecipherWindow *self, const char *action)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL || !GTK_IS_TEXT (focus) || !gtk_widget_get_mapped (focus))
    return FALSE;
  if (gtk_widget_is_ancestor (focus, GTK_WIDGET (self->input_pane))
      && !decipher_input_pane_is_typing (self->input_pane))
    return FALSE;
  return gtk_widget_activate_action (focus, action, NULL);
}

static void
undo_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  g_autofree char *step = NULL;

  if (forward_to_text (self, "text.undo") || self->session == NULL)
    return;
  step = g_strdup (dc_key_get_undo_label (decipher_session_get_key (self->session)));
  if (dc_session_undo (decipher_session_get_engine (self->session), NULL) && step != NULL)
    _decipher_window_undone_toast (self, step, TRUE);
}

static void
redo_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  g_autofree char *step = NULL;

  if (forward_to_text (self, "text.redo") || self->session == NULL)
    return;
  step = g_strdup (dc_key_get_redo_label (decipher_session_get_key (self->session)));
  if (dc_session_redo (decipher_session_get_engine (self->session), NULL) && step != NULL)
    _decipher_window_undone_toast (self, step, FALSE);
}

/* ---- view --------------------------------------------------------------------------- */

static void
zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  if (g_str_equal (name, "win.zoom-in"))
    decipher_document_view_zoom_in (self->document_view);
  else if (g_str_equal (name, "win.zoom-out"))
    decipher_document_view_zoom_out (self->document_view);
  else if (g_str_equal (name, "win.fit-width"))
    decipher_document_view_fit_width (self->document_view);
  else if (g_str_equal (name, "win.fit-page"))
    decipher_document_view_fit_page (self->document_view);
  else
    decipher_document_view_set_zoom (self->document_view, 1.0);
}

static void
page_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);
  guint page = decipher_document_view_get_page (self->document_view);

  if (g_str_equal (name, "win.next-page"))
    decipher_document_view_set_page (self->document_view, page + 1);
  else if (page > 0)
    decipher_document_view_set_page (self->document_view, page - 1);
}

gboolean
_decipher_window_page_entry_has_focus (DecipherWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  return focus != NULL
         && (focus == GTK_WIDGET (self->page_entry)
             || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->page_entry)));
}

/* The number typed in the status bar's page entry: a page of the document is shown and
 * the keyboard goes back to the page; anything else is put back to the page shown. */
void
_decipher_window_go_to_typed_page (DecipherWindow *self)
{
  g_autofree char *text = g_strstrip (
      g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->page_entry))));
  guint n_pages = 0;
  guint64 number = 0;
  g_autofree char *shown = NULL;

  g_object_get (self->document_view, "n-pages", &n_pages, NULL);
  if (g_ascii_string_to_unsigned (text, 10, 1, MAX (1, n_pages), &number, NULL) && n_pages > 0)
    {
      decipher_document_view_set_page (self->document_view, (guint) number - 1);
      gtk_widget_grab_focus (GTK_WIDGET (self->document_view));
    }
  else
    gtk_widget_error_bell (GTK_WIDGET (self->page_entry));
  shown = g_strdup_printf ("%u", decipher_document_view_get_page (self->document_view) + 1);
  gtk_editable_set_text (GTK_EDITABLE (self->page_entry), shown);
  gtk_editable_select_region (GTK_EDITABLE (self->page_entry), 0, -1);
}

static void
go_to_page_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->page_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->page_entry), 0, -1);
}

/* Ctrl+C with the keyboard on the page: the words selected there. (In an entry, Ctrl+C
 * is the entry's own and never gets here.) */
static void
copy_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);
  g_autofree char *text = decipher_document_view_dup_selected_text (self->document_view);

  if (text == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
find_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  /* Ctrl+G with the bar closed opens it, as in GNOME Text Editor. */
  if (g_str_equal (name, "win.find") || !decipher_search_bar_is_active (self->search_bar))
    decipher_search_bar_start (self->search_bar);
  else
    decipher_search_bar_next (self->search_bar, g_str_equal (name, "win.find-previous"));
}

static void
what_next_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  decipher_input_pane_what_next (self->input_pane);
}

/* Ctrl+R and Ctrl+Return do what the buttons above the palette do, folded away or not;
 * neither is a key the word entry or the palette's cells use. */
static void
recognize_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  decipher_recognize_bar_start (decipher_glyph_palette_get_recognize_bar (self->palette));
}

static void
accept_proposals_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  if (!decipher_recognize_bar_activate_accept (
          decipher_glyph_palette_get_recognize_bar (self->palette)))
    gtk_widget_error_bell (widget);
}

static void
open_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
#if GTK_CHECK_VERSION(4, 10, 0)
  g_autoptr (GFile) folder = g_file_new_for_uri (g_variant_get_string (param, NULL));
  g_autoptr (GtkFileLauncher) launcher = gtk_file_launcher_new (folder);

  gtk_file_launcher_launch (launcher, GTK_WINDOW (widget), NULL, NULL, NULL);
#else
  gtk_show_uri (GTK_WINDOW (widget), g_variant_get_string (param, NULL), GDK_CURRENT_TIME);
#endif
}

static void
review_conflicts_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _decipher_window_review_conflicts (DECIPHER_WINDOW (widget));
}

static void
show_occurrences_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  if (self->session != NULL)
    decipher_occurrence_strip_present (GTK_WINDOW (self),
                                       decipher_session_get_engine (self->session),
                                       self->view_state,
                                       decipher_document_view_get_renderer (self->document_view));
}

void
_decipher_window_update_actions (DecipherWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_document = self->session != NULL;
  DcKey *key = has_document ? decipher_session_get_key (self->session) : NULL;
  double zoom = decipher_document_view_get_zoom (self->document_view);
  guint page = decipher_document_view_get_page (self->document_view), n_pages = 0;

  g_object_get (self->document_view, "n-pages", &n_pages, NULL);
  gtk_widget_action_set_enabled (widget, "win.export", has_document);
  gtk_widget_action_set_enabled (widget, "win.export-pdf", has_document);
  gtk_widget_action_set_enabled (widget, "win.export-map", has_document);
  gtk_widget_action_set_enabled (widget, "win.open-project", has_document);
  gtk_widget_action_set_enabled (widget, "win.save-project-as", has_document);
  gtk_widget_action_set_enabled (widget, "win.undo", key != NULL && dc_key_can_undo (key));
  gtk_widget_action_set_enabled (widget, "win.redo", key != NULL && dc_key_can_redo (key));
  gtk_widget_action_set_enabled (widget, "win.zoom-in",
                                 has_document && zoom < DECIPHER_ZOOM_MAX - 1e-6);
  gtk_widget_action_set_enabled (widget, "win.zoom-out",
                                 has_document && zoom > DECIPHER_ZOOM_MIN + 1e-6);
  gtk_widget_action_set_enabled (widget, "win.zoom-reset", has_document);
  gtk_widget_action_set_enabled (widget, "win.fit-width", has_document);
  gtk_widget_action_set_enabled (widget, "win.fit-page", has_document);
  gtk_widget_action_set_enabled (widget, "win.previous-page", has_document && page > 0);
  gtk_widget_action_set_enabled (widget, "win.next-page", has_document && page + 1 < n_pages);
  gtk_widget_action_set_enabled (widget, "win.go-to-page", has_document);
  gtk_widget_action_set_enabled (widget, "win.show-text", has_document);
  gtk_widget_action_set_enabled (widget, "win.print", has_document);
  gtk_widget_action_set_enabled (widget, "win.what-next", has_document);
  gtk_widget_action_set_enabled (widget, "win.copy", has_document);
  gtk_widget_action_set_enabled (widget, "win.find", has_document);
  gtk_widget_action_set_enabled (widget, "win.find-next", has_document);
  gtk_widget_action_set_enabled (widget, "win.find-previous", has_document);
  gtk_widget_action_set_enabled (widget, "win.review-conflicts", has_document);
  gtk_widget_action_set_enabled (widget, "win.show-occurrences", has_document);
  gtk_widget_action_set_enabled (widget, "win.recognize", has_document);
  gtk_widget_action_set_enabled (widget, "win.accept-proposals", has_document);
  gtk_widget_action_set_enabled (widget, "win.show-palette", has_document);
  gtk_widget_action_set_enabled (widget, "win.show-pages", has_document);
  /* Toggles that do nothing without a document only clutter the empty window. */
  gtk_widget_set_visible (GTK_WIDGET (self->text_button), has_document);
  gtk_widget_set_visible (GTK_WIDGET (self->palette_button), has_document);
  gtk_widget_set_visible (GTK_WIDGET (self->pages_button), has_document);
}

void
_decipher_window_class_add_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-pdf", NULL, export_pdf_action);
  gtk_widget_class_install_action (widget_class, "win.export-map", NULL, export_map_action);
  gtk_widget_class_install_action (widget_class, "win.print", NULL, print_action);
  gtk_widget_class_install_action (widget_class, "win.open-project", NULL, open_project_action);
  gtk_widget_class_install_action (widget_class, "win.save-project-as", NULL,
                                   save_project_as_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.fit-width", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.fit-page", NULL, zoom_action);
  /* Ctrl+9 fits the width in many PDF viewers; Ctrl+8 beside it fits the page. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_9, GDK_CONTROL_MASK, "win.fit-width",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_8, GDK_CONTROL_MASK, "win.fit-page",
                                       NULL);
  /* The same zoom keys on the keypad, and Ctrl+= where + needs Shift: bindings of the
   * window, not application accelerators, so the shortcuts window lists each once. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "win.zoom-in",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK,
                                       "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK,
                                       "win.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK,
                                       "win.zoom-reset", NULL);
  gtk_widget_class_install_action (widget_class, "win.previous-page", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "win.next-page", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "win.go-to-page", NULL, go_to_page_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.go-to-page",
                                       NULL);
  gtk_widget_class_install_action (widget_class, "win.copy", NULL, copy_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "win.copy", NULL);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.find-previous", NULL, find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.find-next",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.find-previous", NULL);
  gtk_widget_class_install_action (widget_class, "win.what-next", NULL, what_next_action);
  /* Here rather than among the application's accelerators: it is the window's own. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.what-next",
                                       NULL);
  gtk_widget_class_install_action (widget_class, "win.review-conflicts", NULL,
                                   review_conflicts_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_C, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.review-conflicts", NULL);
  gtk_widget_class_install_action (widget_class, "win.show-occurrences", NULL,
                                   show_occurrences_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s", open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.recognize", NULL, recognize_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.recognize",
                                       NULL);
  gtk_widget_class_install_action (widget_class, "win.accept-proposals", NULL,
                                   accept_proposals_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "win.accept-proposals", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "win.accept-proposals", NULL);
  gtk_widget_class_install_property_action (widget_class, "win.show-text", "show-text");
  gtk_widget_class_install_property_action (widget_class, "win.show-palette", "show-palette");
  gtk_widget_class_install_property_action (widget_class, "win.show-pages", "show-pages");
}
