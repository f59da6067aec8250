/* decipher-window-project.c: Save Project As… and Open Project…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The autosave keeps the work on a document without being asked; these two let a
 * linguist keep a copy of it where they choose (to send to a colleague, or to keep a
 * stage of the work) and bring such a copy back. Opening one checks that it was made for
 * the document shown (dc_project_load() refuses another one with a sentence saying so)
 * and then takes its key as one step the user can undo, so the work it replaces is never
 * lost.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "decipher-window-private.h"

#define PROJECT_SUFFIX ".decipher.json"

static GtkFileFilter *
project_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Decipher Projects"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_filter_add_mime_type (filter, "application/json");
  return filter;
}

/* ---- save --------------------------------------------------------------------------- */

/**
 * _decipher_window_save_project_to:
 *
 * Writes the shown document's project to @file (atomically, like the autosave) and
 * says how it went. Returns whether it was written.
 */
gboolean
_decipher_window_save_project_to (DecipherWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr (GError) error = NULL;

  if (self->session == NULL)
    return FALSE;
  if (path == NULL)
    {
      g_autofree char *heading = g_strdup_printf (_("Cannot Save to “%s”"), name);

      _decipher_window_show_error (self, heading,
                                   _("It is not a local file. Choose a folder on this computer."));
      return FALSE;
    }
  if (!dc_project_save (decipher_session_get_project (self->session), path, &error))
    {
      g_autofree char *heading = g_strdup_printf (_("Cannot Save to “%s”"), name);

      _decipher_window_show_error (self, heading, error->message);
      return FALSE;
    }
  {
    /* Translators: a toast after Save Project As… */
    g_autofree char *title = g_strdup_printf (_("Project saved as “%s”"), name);

    _decipher_window_toast (self, title, FALSE);
  }
  return TRUE;
}

static void
save_chosen (DecipherWindow *self, GFile *file)
{
  _decipher_window_save_project_to (self, file);
}

void
_decipher_window_choose_project_to_save (DecipherWindow *self)
{
  g_autoptr (GtkFileFilter) filter = project_filter ();
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  char *dot;

  if (self->session == NULL)
    return;
  title = decipher_session_dup_title (self->session);
  dot = strrchr (title, '.');
  if (dot != NULL)
    *dot = '\0';
  name = g_strconcat (title, PROJECT_SUFFIX, NULL);
  _decipher_window_choose_file (self, TRUE,
                                _("Save the Project"), _("_Save"), name, filter, save_chosen);
}

/* ---- open --------------------------------------------------------------------------- */

/**
 * _decipher_window_open_project_from:
 *
 * Replaces the shown document's key with the one saved in @file, as one step Undo takes
 * back. A file that is not a project, is damaged, or was made for another document is
 * refused with a message saying so, and nothing changes. Returns whether it was taken.
 */
gboolean
_decipher_window_open_project_from (DecipherWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *heading = NULL;
  g_autofree char *label = NULL;
  g_autoptr (GError) error = NULL;
  guint n_changed = G_MAXUINT;

  if (self->session == NULL)
    return FALSE;
  /* Translators: the heading of the message when Open Project… fails. */
  heading = g_strdup_printf (_("Cannot Open the Project “%s”"), name);
  if (path == NULL)
    {
      _decipher_window_show_error (self, heading,
                                   _("It is not a local file. Copy it to this computer first."));
      return FALSE;
    }

  /* Translators: the undo step of Open Project…, with the file's name. */
  label = g_strdup_printf (_("Opened the project “%s”"), name);
  /* Taken but not recorded in the journal is taken: the session says so (save-failed). */
  if (!dc_session_take_project (decipher_session_get_engine (self->session), path, label,
                                &n_changed, &error)
      && n_changed == G_MAXUINT)
    {
      _decipher_window_show_error (self, heading, error->message);
      return FALSE;
    }

  {
    /* Translators: a toast after Open Project…; its button undoes it. */
    g_autofree char *title = g_strdup_printf (_("Project “%s” opened"), name);

    _decipher_window_toast (self, title, TRUE);
  }
  return TRUE;
}

static void
open_chosen (DecipherWindow *self, GFile *file)
{
  _decipher_window_open_project_from (self, file);
}

void
_decipher_window_choose_project_to_open (DecipherWindow *self)
{
  g_autoptr (GtkFileFilter) filter = project_filter ();

  if (self->session == NULL)
    return;
  _decipher_window_choose_file (self, FALSE,
                                _("Open a Project"), _("_Open"), NULL, filter, open_chosen);
}
