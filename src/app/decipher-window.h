/* decipher-window.h: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "decipher-session.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_WINDOW (decipher_window_get_type ())

G_DECLARE_FINAL_TYPE (DecipherWindow, decipher_window, DECIPHER, WINDOW, AdwApplicationWindow)

DecipherWindow *decipher_window_new (GtkApplication *application);
DecipherWindow *decipher_window_find_showing (GtkApplication *application, GFile *file);
void decipher_window_open (DecipherWindow *self, GFile *file);
void decipher_window_open_with_password (DecipherWindow *self, GFile *file, const char *password);
gboolean decipher_window_is_empty (DecipherWindow *self);
gboolean decipher_window_is_loading (DecipherWindow *self);
DecipherSession *decipher_window_get_session (DecipherWindow *self);

G_END_DECLS
