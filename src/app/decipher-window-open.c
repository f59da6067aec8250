/* decipher-window-open.c: how a document comes into the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening a PDF loads it in a worker thread while the window shows progress and a
 * Cancel button; a password-protected one asks for its password first. What opens
 * goes into GTK's recent files, listed on the empty window and under the Open button,
 * and a PDF dropped on the window opens as if chosen. A document already open in
 * another window brings that window up instead: two windows on one document would be
 * two writers of one project.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gstdio.h>

#include <glib/gi18n.h>

#include "decipher-window-private.h"

#define MAX_RECENT 8
/* Not the translated application name: recent files must match across languages. */
#define RECENT_APP_NAME "decipher"

void
_decipher_window_add_recent (DecipherWindow *self, GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = { 0 };

  data.mime_type = (char *) "application/pdf";
  data.app_name = (char *) RECENT_APP_NAME;
  data.app_exec = (char *) "decipher %u";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* ---- loading ------------------------------------------------------------------------ */

static void start_load (DecipherWindow *self, GFile *file, const char *password);

static void
load_progress_cb (double fraction, gpointer data)
{
  DecipherWindow *self = data;

  if (self->load_progress == NULL)
    return;
  if (fraction >= 0)
    {
      gtk_progress_bar_set_fraction (self->load_progress, fraction);
      return;
    }
  gtk_progress_bar_pulse (self->load_progress);
  adw_status_page_set_description (self->loading_page,
                                   _("Reading the installed fonts once, to recognise their "
                                     "glyphs in PDFs…"));
}

static void
leave_loading (DecipherWindow *self)
{
  gtk_stack_set_visible_child_name (self->main_stack,
                                    self->return_page != NULL ? self->return_page : "empty");
  g_clear_pointer (&self->return_page, g_free);
  g_clear_object (&self->loading_file);
  _decipher_window_update_actions (self);
}

static void
password_response_cb (DecipherPasswordDialog *dialog, const char *response, DecipherWindow *self)
{
  if (g_str_equal (response, "open"))
    start_load (self, decipher_password_dialog_get_file (dialog),
                decipher_password_dialog_get_password (dialog));
}

/* An encrypted PDF: ask for its password over the window and try again with it. What
 * the window shows stays as it is until a password opens the document. */
static void
ask_password (DecipherWindow *self, GFile *file, const GError *error)
{
  DecipherPasswordDialog *dialog;

  dialog = decipher_password_dialog_new (GTK_WINDOW (self), file, error->message,
                                         error->code == DC_ERROR_BAD_PASSWORD);
  g_signal_connect_object (dialog, "response", G_CALLBACK (password_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (DecipherWindow) self = data;
  g_autoptr (DecipherSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));

  session = decipher_session_load_finish (result, &error);
  /* The window was closed while the document loaded. */
  if (g_cancellable_is_cancelled (self->lifetime))
    return;
  /* A load the user replaced by another or cancelled: nothing to show. */
  if (cancellable != self->load_cancellable || g_cancellable_is_cancelled (cancellable))
    {
      if (cancellable == self->load_cancellable)
        {
          g_clear_object (&self->load_cancellable);
          leave_loading (self);
        }
      return;
    }
  g_clear_object (&self->load_cancellable);
  file = g_steal_pointer (&self->loading_file);

  if (session != NULL)
    {
      g_clear_pointer (&self->return_page, g_free);
      _decipher_window_set_session (self, session);
      return;
    }

  leave_loading (self);
  if (g_error_matches (error, DC_ERROR, DC_ERROR_ENCRYPTED)
      || g_error_matches (error, DC_ERROR, DC_ERROR_BAD_PASSWORD))
    {
      g_free (self->last_error);
      self->last_error = g_strdup (error->message);
      ask_password (self, file, error);
    }
  else if (!g_error_matches (error, DC_ERROR, DC_ERROR_CANCELLED)
           && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *name = path != NULL ? g_filename_display_basename (path)
                                           : g_file_get_uri (file);
      g_autofree char *heading = g_strdup_printf (_("Cannot Open “%s”"), name);

      _decipher_window_show_error (self, heading, error->message);
    }
}

static void
start_load (DecipherWindow *self, GFile *file, const char *password)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = path != NULL ? g_filename_display_basename (path) : g_file_get_uri (file);
  g_autofree char *title = g_strdup_printf (_("Opening “%s”"), name);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  g_set_object (&self->loading_file, file);
  if (self->return_page == NULL)
    self->return_page = g_strdup (gtk_stack_get_visible_child_name (self->main_stack));

  adw_status_page_set_title (self->loading_page, title);
  /* As ui/decipher-window.ui says it, until the installed fonts are read. */
  adw_status_page_set_description (self->loading_page,
                                   _("Reading every glyph drawn on its pages"));
  gtk_progress_bar_set_fraction (self->load_progress, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  _decipher_window_update_actions (self);

  decipher_session_load_async (file, password, load_progress_cb, self, self->load_cancellable,
                               load_done_cb, g_object_ref (self));
}

static void
cancel_clicked_cb (DecipherWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

/* ---- recent documents --------------------------------------------------------------- */

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;
  g_autoptr (GDateTime) tx = g_date_time_ref (gtk_recent_info_get_modified (x));
  g_autoptr (GDateTime) ty = g_date_time_ref (gtk_recent_info_get_modified (y));

  return g_date_time_compare (ty, tx);
}

static void
recent_row_activated_cb (AdwActionRow *row, DecipherWindow *self)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_object_get_data (G_OBJECT (row), "uri"));

  decipher_window_open (self, file);
}

static void
update_recent (DecipherWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) mine = g_ptr_array_new ();
  GtkWidget *child;

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_application (info, RECENT_APP_NAME)
          && g_strcmp0 (gtk_recent_info_get_mime_type (info), "application/pdf") == 0
          && gtk_recent_info_is_local (info) && gtk_recent_info_exists (info))
        g_ptr_array_add (mine, info);
    }
  g_ptr_array_sort (mine, compare_recent);

  g_menu_remove_all (self->recent_menu);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  for (guint i = 0; i < mine->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (mine, i);
      const char *uri = gtk_recent_info_get_uri (info);
      g_autoptr (GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_autoptr (GFile) file = g_file_new_for_uri (uri);
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : NULL;
      GtkWidget *row = adw_action_row_new ();

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_append_item (self->recent_menu, item);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     gtk_recent_info_get_display_name (info));
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folder != NULL ? folder : "");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uri), g_free);
      g_signal_connect_object (row, "activated", G_CALLBACK (recent_row_activated_cb), self, 0);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_box), mine->len > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ---- drag and drop ------------------------------------------------------------------ */

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, DecipherWindow *self)
{
  GFile *file = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      file = files != NULL ? files->data : NULL;
      g_slist_free (files);
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);
  if (file == NULL)
    return FALSE;
  decipher_window_open (self, file);
  return TRUE;
}

/* ---- setting up --------------------------------------------------------------------- */

void
_decipher_window_init_opening (DecipherWindow *self)
{
  GtkDropTarget *drop;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  self->recent_menu = g_menu_new ();
  adw_split_button_set_menu_model (self->open_button, G_MENU_MODEL (self->recent_menu));
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (update_recent),
                           self, G_CONNECT_SWAPPED);
  update_recent (self);

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked_cb), self);
}

/* ---- opening ------------------------------------------------------------------------ */

/* Opens @file in this window, in place of what it shows. */
void
decipher_window_open (DecipherWindow *self, GFile *file)
{
  decipher_window_open_with_password (self, file, NULL);
}

void
decipher_window_open_with_password (DecipherWindow *self, GFile *file, const char *password)
{
  GtkApplication *application;
  DecipherWindow *showing = NULL;

  g_return_if_fail (DECIPHER_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  /* A document open twice would have two writers of one project: its window comes up
   * instead. */
  application = gtk_window_get_application (GTK_WINDOW (self));
  if (application != NULL)
    showing = decipher_window_find_showing (application, file);
  if (showing != NULL)
    {
      gtk_window_present (GTK_WINDOW (showing));
      return;
    }
  start_load (self, file, password);
}

static gboolean
same_file (GFile *a, GFile *b)
{
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;
  GStatBuf st_a, st_b;

  if (g_file_equal (a, b))
    return TRUE;
  /* The same file by another name: a link, a symbolic link, another mount of it. */
  path_a = g_file_get_path (a);
  path_b = g_file_get_path (b);
  return path_a != NULL && path_b != NULL && g_stat (path_a, &st_a) == 0
         && g_stat (path_b, &st_b) == 0 && st_a.st_dev == st_b.st_dev && st_a.st_ino == st_b.st_ino;
}

/**
 * decipher_window_find_showing:
 *
 * Returns: (transfer none) (nullable): the window of @application that shows @file, or is
 *   opening it
 */
DecipherWindow *
decipher_window_find_showing (GtkApplication *application, GFile *file)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    {
      DecipherWindow *window = l->data;
      GFile *shown;

      if (!DECIPHER_IS_WINDOW (window))
        continue;
      if (window->load_cancellable != NULL)
        shown = window->loading_file;
      else
        shown = window->session != NULL ? decipher_session_get_file (window->session) : NULL;
      if (shown != NULL && same_file (shown, file))
        return window;
    }
  return NULL;
}
