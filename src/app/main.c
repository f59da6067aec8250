/* main.c: decipher, the window application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "decipher-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (DecipherApplication) application = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Decipher"));
  application = decipher_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
