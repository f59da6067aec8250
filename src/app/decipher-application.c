/* decipher-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `decipher FILE.pdf…` opens each file in a window of its own, reusing an empty one;
 * a second launch hands its files to the running instance over D-Bus.
 */

#define G_LOG_DOMAIN "decipher-application"

#include "config.h"

#include <glib/gi18n.h>

#include "dc-document.h"
#include "decipher-application.h"
#include "decipher-window.h"

struct _DecipherApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (DecipherApplication, decipher_application, ADW_TYPE_APPLICATION)

static const struct
{
  const char *action;
  const char *accels[4];
} accels[] = {
  { "app.quit", { "<Primary>q", NULL } },
  { "win.open", { "<Primary>o", NULL } },
  { "win.export", { "<Primary>e", NULL } },
  { "win.print", { "<Primary>p", NULL } },
  { "win.open-project", { "<Primary><Shift>o", NULL } },
  { "win.save-project-as", { "<Primary><Shift>s", NULL } },
  { "win.close", { "<Primary>w", NULL } },
  { "win.undo", { "<Primary>z", NULL } },
  { "win.redo", { "<Primary><Shift>z", NULL } },
  /* One accelerator each: the shortcuts window lists them all, and the keypad's
   * twins read the same there ("Ctrl+- / Ctrl+-"). Those are the window's bindings. */
  { "win.zoom-in", { "<Primary>plus", NULL } },
  { "win.zoom-out", { "<Primary>minus", NULL } },
  { "win.zoom-reset", { "<Primary>0", NULL } },
  { "win.previous-page", { "<Primary>Page_Up", NULL } },
  { "win.next-page", { "<Primary>Page_Down", NULL } },
  { "win.show-text", { "<Primary>t", NULL } },
  { "win.show-palette", { "F9", NULL } },
  { "win.show-help-overlay", { "<Primary>question", NULL } },
};

static DecipherWindow *
find_empty_window (DecipherApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (DECIPHER_IS_WINDOW (l->data) && decipher_window_is_empty (l->data))
      return l->data;
  return NULL;
}

static void
decipher_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (decipher_window_new (GTK_APPLICATION (application)));
  gtk_window_present (window);
}

static void
decipher_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  DecipherApplication *self = DECIPHER_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      /* A document already open comes up in its window (decipher_window_open() would
       * see to that too, but after a new window was made for it). */
      DecipherWindow *window = decipher_window_find_showing (GTK_APPLICATION (application),
                                                             files[i]);

      if (window != NULL)
        {
          gtk_window_present (GTK_WINDOW (window));
          continue;
        }
      window = find_empty_window (self);
      if (window == NULL)
        window = decipher_window_new (GTK_APPLICATION (application));
      decipher_window_open (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkApplication *application = data;
  GList *windows = g_list_copy (gtk_application_get_windows (application));

  /* Through close, so each window saves its work on the way out. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkApplication *application = data;
  const char *developers[] = { _("The Decipher contributors"), NULL };

  adw_show_about_window (gtk_application_get_active_window (application), "application-name",
                         _("Decipher"), "application-icon", APP_ID, "version", PACKAGE_VERSION,
                            "comments",
                            _("Recover the text of PDFs whose fonts lie"), "developers",
                               developers, "license-type", GTK_LICENSE_GPL_3_0,
                               "translator-credits", _("translator-credits"), NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action, NULL, NULL, NULL, { 0 } },
  { "about", about_action, NULL, NULL, NULL, { 0 } },
};

static void
decipher_application_startup (GApplication *application)
{
  G_APPLICATION_CLASS (decipher_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (application), accels[i].action,
                                           accels[i].accels);
}

/* A book opened for the first time is written to the document cache on a thread of its
 * own: quitting right after opening it must not leave the file half written. */
static void
decipher_application_shutdown (GApplication *application)
{
  dc_document_flush_cache ();

  G_APPLICATION_CLASS (decipher_application_parent_class)->shutdown (application);
}

static void
decipher_application_class_init (DecipherApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = decipher_application_activate;
  app_class->open = decipher_application_open;
  app_class->startup = decipher_application_startup;
  app_class->shutdown = decipher_application_shutdown;
}

static void
decipher_application_init (DecipherApplication *self)
{
}

DecipherApplication *
decipher_application_new (void)
{
  return g_object_new (DECIPHER_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/io/github/decipherpdf/Decipher", NULL);
}
