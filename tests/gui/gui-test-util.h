/* gui-test-util.h: what the GUI tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "decipher-session.h"
#include "decipher-window.h"

G_BEGIN_DECLS

void gui_test_init (int *argc,
                    char ***argv);
char *gui_test_fixture_path (const char *name);
GFile *gui_test_fixture_copy (const char *name);
void gui_test_wait_until (gboolean (*condition) (gpointer data),
                          gpointer data,
                          guint timeout_seconds,
                          const char *what);
void gui_test_wait_step (gint64 end,
                         const char *what);
void gui_test_settle (void);
void gui_test_wait_frame (GtkWidget *widget);
void gui_test_pointer_away (GtkWindow *window);
void gui_test_iterate (guint milliseconds);
DecipherSession *gui_test_load_session (GFile *file,
                                        const char *password);
void gui_test_screenshot (const char *name);
char *gui_test_key_snapshot (DcKey *key);
AdwMessageDialog *gui_test_find_dialog (void);
void gui_test_close_dialogs (void);
GtkButton *gui_test_find_button (GtkWidget *root,
                                 const char *label);
GtkWidget *gui_test_find_descendant (GtkWidget *widget,
                                     GType type);
const char *gui_test_data_dir (void);
void gui_test_focus_window (GtkWindow *window);
DecipherWindow *gui_test_open_window (const char *fixture,
                                      GtkApplication *application,
                                      int width,
                                      int height);
void gui_test_close_window (DecipherWindow *window);
void gui_test_key (GtkWindow *window,
                   const char *accelerator);
void gui_test_type (GtkWindow *window,
                    const char *text);
void gui_test_pointer_move (GtkWidget *widget,
                            double x,
                            double y);
void gui_test_pointer_button (GtkWidget *widget,
                              guint button,
                              gboolean down);
void gui_test_pointer_drag (GtkWidget *widget,
                            double x0,
                            double y0,
                            double x1,
                            double y1,
                            guint steps);

/* How long a wait may take before the test fails: generous, for a loaded machine. */
#define GUI_TEST_TIMEOUT 60

#define GUI_TEST_WAIT(cond, data, what) \
  gui_test_wait_until ((gboolean (*) (gpointer)) (cond), (data), GUI_TEST_TIMEOUT, (what))

/* Runs the main loop until the expression @cond holds, after an action and before the
 * test asserts on its outcome; fails the test, naming @what, after GUI_TEST_TIMEOUT. */
#define GUI_TEST_WAIT_FOR(cond, what)                                                  \
  G_STMT_START                                                                         \
  {                                                                                    \
    gint64 gui_test_end_ = g_get_monotonic_time () + GUI_TEST_TIMEOUT * G_USEC_PER_SEC; \
    while (!(cond))                                                                    \
      gui_test_wait_step (gui_test_end_, (what));                                      \
  }                                                                                    \
  G_STMT_END

G_END_DECLS
