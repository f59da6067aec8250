/* decipher-window-export.c: exporting the recovered text, the font map and a repaired PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-window-actions.c: the win.export, win.export-map and win.export-pdf
 * actions and the work behind them, and win.print, which hands over to
 * decipher-window-print.c. A file is written off the main loop (a repaired PDF in a GTask
 * thread) and the user is told with a toast that offers its folder, or in one clear
 * sentence why it could not be.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "decipher-window-private.h"

#define choose_export_file _decipher_window_choose_export_file
#define export_action _decipher_window_export_action
#define export_map_action _decipher_window_export_map_action
#define export_pdf_action _decipher_window_export_pdf_action
#define print_action _decipher_window_print_action

/* ---- export ------------------------------------------------------------------------- */

typedef struct
{
  DecipherWindow *self;
  const char *done; /* the toast's format, translated */
} ExportJob;

/* "Exported to …" with Open Folder: the file is where the user looks for it next. */
static void
exported_toast (DecipherWindow *self, const char *title, GFile *file)
{
  AdwToast *toast = adw_toast_new (title);
  g_autoptr (GFile) folder = g_file_get_parent (file);

  if (folder != NULL)
    {
      g_autofree char *uri = g_file_get_uri (folder);

      adw_toast_set_button_label (toast, _("Open _Folder"));
      adw_toast_set_action_name (toast, "win.open-folder");
      adw_toast_set_action_target_value (toast, g_variant_new_string (uri));
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer data)
{
  ExportJob *job = data;
  g_autoptr (DecipherWindow) self = job->self;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (G_FILE (source));
  const char *done = job->done;

  g_free (job);
  if (g_cancellable_is_cancelled (self->lifetime))
    return;
  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    {
      g_autofree char *heading = g_strdup_printf (_("Cannot Export to “%s”"), name);

      _decipher_window_show_error (self, heading, error->message);
    }
  else
    {
      g_autofree char *title = g_strdup_printf (done, name);

      exported_toast (self, title, G_FILE (source));
    }
}

static void
export_bytes (DecipherWindow *self, GFile *file, GBytes *bytes, const char *done)
{
  ExportJob *job = g_new0 (ExportJob, 1);

  job->self = g_object_ref (self);
  job->done = done;
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, export_done, job);
}

static void
export_to (DecipherWindow *self, GFile *file)
{
  DcDocument *document;
  char *text;
  g_autoptr (GBytes) bytes = NULL;

  if (self->session == NULL)
    return;
  document = decipher_session_get_document (self->session);
  /* Unknown glyphs come out as U+FFFD, so what is still missing shows in the file. */
  text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func,
                             decipher_session_get_key (self->session));
  bytes = g_bytes_new_take (text, strlen (text));
  export_bytes (self, file, bytes, _("Text exported to “%s”"));
}

/* The document's name with @extension in place of ".pdf". */
static char *
export_name (DecipherWindow *self, const char *extension)
{
  g_autofree char *title = decipher_session_dup_title (self->session);
  char *dot = strrchr (title, '.');

  if (dot != NULL)
    *dot = '\0';
  return g_strconcat (title, extension, NULL);
}

void
_decipher_window_export (DecipherWindow *self)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;

  if (self->session == NULL)
    return;
  name = export_name (self, ".txt");
  gtk_file_filter_set_name (filter, _("Plain Text"));
  gtk_file_filter_add_mime_type (filter, "text/plain");
  choose_export_file (self, _("Export the Recovered Text"), name, filter, export_to);
}

void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _decipher_window_export (DECIPHER_WINDOW (widget));
}

void
print_action (GtkWidget *widget, const char *name, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);
  g_autoptr (GtkPrintOperation) operation = NULL;

  /* It runs on by itself after the dialog; the window says if it fails. */
  operation = _decipher_window_print (self, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, NULL);
}

/* Nothing recovered means nothing to export: say so before asking for a file name. */
static gboolean
check_recovered (DecipherWindow *self, const char *heading)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = dc_map_to_json (decipher_session_get_key (self->session), &error);

  if (json == NULL)
    {
      _decipher_window_show_error (self, heading, error->message);
      return FALSE;
    }
  return TRUE;
}

void
_decipher_window_export_map_to (DecipherWindow *self, GFile *file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  char *json;

  if (self->session == NULL)
    return;
  json = dc_map_to_json (decipher_session_get_key (self->session), &error);
  if (json == NULL)
    {
      _decipher_window_show_error (self, _("Cannot Export the Font Map"), error->message);
      return;
    }
  bytes = g_bytes_new_take (json, strlen (json));
  export_bytes (self, file, bytes, _("Font map exported to “%s”"));
}

void
export_map_action (GtkWidget *widget, const char *action, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;

  if (self->session == NULL || !check_recovered (self, _("Cannot Export the Font Map")))
    return;
  name = export_name (self, "-map.json");
  gtk_file_filter_set_name (filter, _("JSON"));
  gtk_file_filter_add_mime_type (filter, "application/json");
  choose_export_file (self, _("Export the Font Map"), name, filter,
                               _decipher_window_export_map_to);
}

typedef struct
{
  DcRepair *repair;
  GFile *file;
} RepairJob;

static void
repair_job_free (gpointer data)
{
  RepairJob *job = data;

  g_clear_pointer (&job->repair, dc_repair_free);
  g_clear_object (&job->file);
  g_free (job);
}

/* Reading and rewriting a whole book takes seconds: never on the main loop. The plan
 * is the key's snapshot, so the user may go on typing meanwhile. */
static void
repair_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  RepairJob *job = data;
  g_autofree char *path = g_file_get_path (job->file);
  GError *error = NULL;

  if (dc_repair_save (job->repair, path, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
repair_done (GObject *source, GAsyncResult *result, gpointer data)
{
  DecipherWindow *self = DECIPHER_WINDOW (source);
  RepairJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (job->file);
  const char *const *notes = dc_repair_get_notes (job->repair);

  if (g_cancellable_is_cancelled (self->lifetime))
    return;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *heading = g_strdup_printf (_("Cannot Export to “%s”"), name);

      _decipher_window_show_error (self, heading, error->message);
    }
  else if (notes[0] != NULL)
    {
      /* Fonts that still read wrong in the copy are worth more than a passing toast. */
      g_autofree char *heading = g_strdup_printf (_("Repaired PDF Exported to “%s”"), name);
      g_autofree char *body = g_strjoinv ("\n\n", (char **) notes);
      AdwMessageDialog *dialog;

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, body));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
  else
    {
      g_autofree char *title = g_strdup_printf (_("Repaired PDF exported to “%s”"), name);

      exported_toast (self, title, job->file);
    }
}

void
_decipher_window_export_pdf_to (DecipherWindow *self, GFile *file)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);
  RepairJob *job;
  DcRepair *repair;

  if (self->session == NULL)
    return;
  if (!g_file_is_native (file))
    {
      g_autofree char *heading = g_strdup_printf (_("Cannot Export to “%s”"), name);

      _decipher_window_show_error (self, heading,
                                   _("The repaired PDF can only be saved in a folder on this "
                                     "computer: choose one there."));
      return;
    }
  repair = dc_repair_new (decipher_session_get_key (self->session),
                          decipher_session_get_password (self->session), &error);
  if (repair == NULL)
    {
      _decipher_window_show_error (self, _("Cannot Export a Repaired PDF"), error->message);
      return;
    }

  job = g_new0 (RepairJob, 1);
  job->repair = repair;
  job->file = g_object_ref (file);
  task = g_task_new (self, NULL, repair_done, NULL);
  g_task_set_source_tag (task, _decipher_window_export_pdf_to);
  g_task_set_task_data (task, job, repair_job_free);
  g_task_run_in_thread (task, repair_thread);
}

void
export_pdf_action (GtkWidget *widget, const char *action, GVariant *param)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;

  if (self->session == NULL || !check_recovered (self, _("Cannot Export a Repaired PDF")))
    return;
  name = export_name (self, "-repaired.pdf");
  gtk_file_filter_set_name (filter, _("PDF Documents"));
  gtk_file_filter_add_mime_type (filter, "application/pdf");
  gtk_file_filter_add_suffix (filter, "pdf");
  choose_export_file (self, _("Export a Repaired PDF"), name, filter,
                               _decipher_window_export_pdf_to);
}
