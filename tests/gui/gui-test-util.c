/* gui-test-util.c: what the GUI tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test program runs under its own X server (xvfb-run, see run-under-xvfb.sh) with
 * throwaway XDG folders, so autosaves and recent files of a test never touch the user's
 * and never leak into another test program.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>

#include "gui-test-util.h"

#include <gdk/x11/gdkx.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>
#include <math.h>
#include <X11/keysym.h>

static char *tmp_root;

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          remove_tree (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

static void
cleanup (void)
{
  if (tmp_root != NULL && g_getenv ("GUI_TEST_KEEP") == NULL)
    remove_tree (tmp_root);
}

/* GTK 4.8's file chooser draws its path bar's scroll buttons (pan-start, pan-end) in
 * a frame before they have a size when the folder's listing resizes the bar under load:
 * "Trying to snapshot GtkButton 0x… without a current allocation", fatal in a test. It
 * is GTK's own widget, not the window's, so that warning, and only for a button of a
 * file chooser's path bar, is shown and let pass; every other message goes on as GLib
 * would write it. */
static gboolean
is_file_chooser_path_bar_button (const char *message)
{
  static const char prefix[] = "Trying to snapshot GtkButton 0x";
  GtkWidget *button, *bar;
  char *end;

  if (message == NULL || !g_str_has_prefix (message, prefix)
      || !g_str_has_suffix (message, " without a current allocation"))
    return FALSE;
  /* GTK names the button while it snapshots it: the pointer is alive here. */
  button = (GtkWidget *) (gpointer) (guintptr) g_ascii_strtoull (message + sizeof prefix - 3, &end,
                                                                 16);
  if (button == NULL || !GTK_IS_BUTTON (button) || (bar = gtk_widget_get_parent (button)) == NULL)
    return FALSE;
  return g_strcmp0 (G_OBJECT_TYPE_NAME (bar), "GtkPathBar") == 0
         && gtk_widget_get_ancestor (bar, GTK_TYPE_FILE_CHOOSER_WIDGET) != NULL;
}

static GLogWriterOutput
write_log (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0
        && (level & G_LOG_LEVEL_WARNING) && is_file_chooser_path_bar_button (fields[i].value))
      {
        g_printerr ("# GTK's file chooser (not Decipher's window): %s\n",
                    (const char *) fields[i].value);
        return G_LOG_WRITER_HANDLED;
      }
  return g_log_writer_default (level, fields, n_fields, data);
}

/* Sets the environment up before GLib or GTK read it, then initialises both. */
void
gui_test_init (int *argc, char ***argv)
{
  const char *subdirs[] = { "data", "config", "cache", "runtime" };
  const char *vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR" };

  /* A test's subprocess (g_test_trap_subprocess) works in its parent's folders, so that
   * the parent sees what the child left; the parent removes them. */
  if (g_getenv ("DECIPHER_GUI_TEST_ROOT") != NULL)
    tmp_root = g_strdup (g_getenv ("DECIPHER_GUI_TEST_ROOT"));
  else
    {
      tmp_root = g_dir_make_tmp ("decipher-gui-test-XXXXXX", NULL);
      g_assert_nonnull (tmp_root);
      g_setenv ("DECIPHER_GUI_TEST_ROOT", tmp_root, TRUE);
      for (guint i = 0; i < G_N_ELEMENTS (subdirs); i++)
        {
          g_autofree char *dir = g_build_filename (tmp_root, subdirs[i], NULL);

          g_mkdir_with_parents (dir, 0700);
          g_setenv (vars[i], dir, TRUE);
        }
      atexit (cleanup);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);

  g_test_init (argc, argv, NULL);
  g_log_set_writer_func (write_log, NULL, NULL);
  g_set_application_name ("Decipher");
  gtk_init ();
  adw_init ();
  /* The application's stylesheet and icons, as DecipherApplication loads them. */
  {
    g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/decipherpdf/Decipher/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                      "/io/github/decipherpdf/Decipher/icons");
  }
}

const char *
gui_test_data_dir (void)
{
  return g_get_user_data_dir ();
}

char *
gui_test_fixture_path (const char *name)
{
  const char *dir = g_getenv ("FIXTURES_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

/* A copy in the temporary folder: tests write next to nothing in the source tree, and
 * each copy is a file of its own for the recent files list. */
GFile *
gui_test_fixture_copy (const char *name)
{
  g_autofree char *source = gui_test_fixture_path (name);
  g_autofree char *target = g_build_filename (tmp_root, name, NULL);
  g_autofree char *data = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (source, &data, &length, NULL));
  g_assert_true (g_file_set_contents (target, data, length, NULL));
  return g_file_new_for_path (target);
}

void
gui_test_iterate (guint milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

/* Runs the main loop until @condition holds; fails the test after @timeout_seconds. */
void
gui_test_wait_until (gboolean (*condition) (gpointer data), gpointer data, guint timeout_seconds,
                     const char *what)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_seconds * G_USEC_PER_SEC;

  while (!condition (data))
    gui_test_wait_step (end, what);
}

/* One turn of a wait (GUI_TEST_WAIT_FOR): runs what is ready, or sleeps a millisecond;
 * past @end the test fails, saying what it waited for. The bound is generous (a loaded
 * machine, software GL): it exists so that a condition that never comes fails. */
void
gui_test_wait_step (gint64 end, const char *what)
{
  if (g_get_monotonic_time () > end)
    g_error ("Timed out after %d s waiting for %s", GUI_TEST_TIMEOUT, what);
  if (!g_main_context_iteration (NULL, FALSE))
    g_usleep (1000);
}

static gboolean
nothing_pending (gpointer data)
{
  return !g_main_context_pending (NULL);
}

/* Runs the main loop until nothing in it is ready: what an action queued (X events the
 * server has sent, idles, a frame) has been handled. Timers still to come are not. */
void
gui_test_settle (void)
{
  GUI_TEST_WAIT (nothing_pending, NULL, "the main loop to settle");
}

typedef struct
{
  DecipherSession *session;
  GError *error;
  gboolean done;
} LoadWait;

static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadWait *wait = data;

  wait->session = decipher_session_load_finish (result, &wait->error);
  wait->done = TRUE;
}

static gboolean
load_is_done (LoadWait *wait)
{
  return wait->done;
}

DecipherSession *
gui_test_load_session (GFile *file, const char *password)
{
  LoadWait wait = { 0 };

  decipher_session_load_async (file, password, NULL, NULL, NULL, load_done, &wait);
  GUI_TEST_WAIT (load_is_done, &wait, "a document to load");
  g_assert_no_error (wait.error);
  return wait.session;
}

/* With GUI_TEST_SCREENSHOTS=DIR, saves what the X screen shows (popovers and tooltips
 * included) as DIR/NAME.png, for a person to look at. */
void
gui_test_screenshot (const char *name)
{
  const char *dir = g_getenv ("GUI_TEST_SCREENSHOTS");
  g_autofree char *file = NULL;
  g_autofree char *command = NULL;
  g_autoptr (GError) error = NULL;

  if (dir == NULL)
    return;
  /* Let transitions finish and renders arrive: under Xvfb, GL is software and slow. */
  gui_test_iterate (1500);
  g_mkdir_with_parents (dir, 0755);
  file = g_strdup_printf ("%s/%s.png", dir, name);
  command = g_strdup_printf ("import -window root '%s'", file);
  if (!g_spawn_command_line_sync (command, NULL, NULL, NULL, &error))
    g_test_message ("No screenshot %s: %s", file, error->message);
}

/* Every symbol's value, status and provenance, and the undo state: two snapshots are
 * equal only if nothing the user decided changed in between. */
char *
gui_test_key_snapshot (DcKey *key)
{
  GString *out = g_string_new (NULL);
  guint n_symbols;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);
      const char *provenance = dc_key_get_provenance (key, s);

      g_string_append_printf (out, "%u\t%d\t%s\t%s\n", s, dc_key_get_status (key, s),
                              value != NULL ? value : "(none)",
                              provenance != NULL ? provenance : "");
    }
  g_string_append_printf (out, "undo %d redo %d\n", dc_key_can_undo (key), dc_key_can_redo (key));
  return g_string_free (out, FALSE);
}

/* The message dialog shown, if any. */
AdwMessageDialog *
gui_test_find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

void
gui_test_close_dialogs (void)
{
  AdwMessageDialog *dialog;

  while ((dialog = gui_test_find_dialog ()) != NULL)
    gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The button labelled @label (mnemonic included, as "_Open") under @root, or %NULL. */
GtkButton *
gui_test_find_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return GTK_BUTTON (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found = gui_test_find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first widget of @type under @widget, @widget included, depth first; or %NULL. */
GtkWidget *
gui_test_find_descendant (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gui_test_find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ---- the keyboard ----------------------------------------------------------------------
 *
 * Keys are pressed on the X server through XTest, so they reach the window as a user's
 * would: through the focus, the input method, shortcuts and key bindings. A keysym that
 * the server's keymap lacks (a Cyrillic letter on the US map of Xvfb) is put on a spare
 * keycode for the press. */

static KeyCode
keycode_for (Display *display, KeySym keysym)
{
  KeyCode code = XKeysymToKeycode (display, keysym);
  int min, max, per;
  KeySym *map;

  if (code != 0)
    {
      /* Only when the keysym is the key's unshifted one: the tests say the modifiers. */
      if (XkbKeycodeToKeysym (display, code, 0, 0) == keysym)
        return code;
    }
  XDisplayKeycodes (display, &min, &max);
  map = XGetKeyboardMapping (display, (KeyCode) min, max - min + 1, &per);
  for (int k = max; k >= min; k--)
    {
      gboolean empty = TRUE;

      for (int i = 0; i < per; i++)
        if (map[(k - min) * per + i] != NoSymbol)
          empty = FALSE;
      if (empty)
        {
          KeySym syms[2] = { keysym, keysym };

          XFree (map);
          XChangeKeyboardMapping (display, k, 2, syms, 1);
          XSync (display, False);
          /* GDK reloads its keymap on the MappingNotify, queued by now. */
          gui_test_settle ();
          return (KeyCode) k;
        }
    }
  XFree (map);
  g_error ("No spare keycode for keysym 0x%lx", (unsigned long) keysym);
}

/* Gives @window the X input focus, as a window manager would on a click. */
void
gui_test_focus_window (GtkWindow *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (window)));

  g_assert_nonnull (surface);
  XSetInputFocus (display, gdk_x11_surface_get_xid (surface), RevertToParent, CurrentTime);
  XSync (display, False);
  GUI_TEST_WAIT_FOR (gtk_window_is_active (window), "the window to take the focus");
}

static void
after_paint (GdkFrameClock *clock, gboolean *painted)
{
  *painted = TRUE;
}

/* Queues a redraw of @widget and waits until its window has painted that frame: what
 * the widget draws, and what GTK kept of its previous frame, are then up to date. */
void
gui_test_wait_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong handler;

  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &painted);
  gtk_widget_queue_draw (widget);
  GUI_TEST_WAIT_FOR (painted, "a frame painted");
  g_signal_handler_disconnect (clock, handler);
}

/* Moves the X pointer off @window (nullable: every window; to the screen's far corner,
 * the tests' windows sit at its origin) and handles the crossing: GTK 4.8 keeps the tooltip timer a
 * widget under the pointer starts, and it fires on the window once destroyed; the leave cancels it,
 * where the tests used to wait 700 ms for it to run out. */
void
gui_test_pointer_away (GtkWindow *window)
{
  GdkDisplay *gdk_display = gdk_display_get_default ();
  Display *display = gdk_x11_display_get_xdisplay (gdk_display);
  GdkSurface *surface = window != NULL ? gtk_native_get_surface (GTK_NATIVE (window)) : NULL;
  GdkSeat *seat = gdk_display_get_default_seat (gdk_display);
  Screen *screen = DefaultScreenOfDisplay (display);
  double x, y;

  XTestFakeMotionEvent (display, -1, WidthOfScreen (screen) - 1, HeightOfScreen (screen) - 1,
                        CurrentTime);
  /* The server has sent the leave once XSync() returns; handle it. */
  XSync (display, False);
  gui_test_settle ();
  g_assert_false (
      surface != NULL
      && gdk_surface_get_device_position (surface, gdk_seat_get_pointer (seat), &x, &y, NULL)
      && x >= 0 && y >= 0 && x < gdk_surface_get_width (surface)
      && y < gdk_surface_get_height (surface));
}

/* ---- the pointer ----------------------------------------------------------------------
 *
 * Moved and pressed on the X server through XTest too, so a drag reaches the window's
 * gestures as a user's hand makes it: press, motion events, release. */

/* Moves the X pointer to @x, @y in @widget's coordinates, and handles the motion. */
void
gui_test_pointer_move (GtkWidget *widget, double x, double y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  graphene_point_t point = GRAPHENE_POINT_INIT (x, y), in_native;
  double tx, ty;
  int root_x, root_y;
  Window child;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &point, &in_native));
  gtk_native_get_surface_transform (native, &tx, &ty);
  XTranslateCoordinates (display, gdk_x11_surface_get_xid (surface), DefaultRootWindow (display),
                         (int) round (in_native.x + tx), (int) round (in_native.y + ty), &root_x,
                         &root_y, &child);
  XTestFakeMotionEvent (display, -1, root_x, root_y, CurrentTime);
  XSync (display, False);
  gui_test_settle ();
}

/* Presses (@down) or releases pointer button @button where the pointer is. */
void
gui_test_pointer_button (GtkWidget *widget, guint button, gboolean down)
{
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));

  XTestFakeButtonEvent (display, button, down, CurrentTime);
  XSync (display, False);
  gui_test_settle ();
}

/* Drags with the first button from @x0, @y0 to @x1, @y1 in @widget's coordinates, in
 * @steps motions, as a hand does. */
void
gui_test_pointer_drag (GtkWidget *widget, double x0, double y0, double x1, double y1, guint steps)
{
  gui_test_pointer_move (widget, x0, y0);
  gui_test_pointer_button (widget, 1, TRUE);
  for (guint i = 1; i <= steps; i++)
    gui_test_pointer_move (widget, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps);
  gui_test_pointer_button (widget, 1, FALSE);
}

static void
press (Display *display, KeySym keysym, gboolean down)
{
  XTestFakeKeyEvent (display, keycode_for (display, keysym), down, CurrentTime);
}

/* Presses and releases a key with modifiers: "<Control>f", "Right", "Return", "а"
 * (any gtk_accelerator_parse() form). */
void
gui_test_key (GtkWindow *window, const char *accelerator)
{
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (window)));
  guint keyval = 0;
  GdkModifierType mods = 0;
  const struct
  {
    GdkModifierType mask;
    KeySym keysym;
  } modifiers[] = {
    { GDK_CONTROL_MASK, XK_Control_L },
    { GDK_SHIFT_MASK, XK_Shift_L },
    { GDK_ALT_MASK, XK_Alt_L },
  };

  if (!gtk_accelerator_parse (accelerator, &keyval, &mods) || keyval == 0)
    {
      /* A character gtk_accelerator_parse() does not know by name. */
      keyval = gdk_unicode_to_keyval (g_utf8_get_char (accelerator));
    }
  g_assert_cmpuint (keyval, !=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (mods & modifiers[i].mask)
      press (display, modifiers[i].keysym, TRUE);
  press (display, keyval, TRUE);
  press (display, keyval, FALSE);
  for (guint i = G_N_ELEMENTS (modifiers); i-- > 0;)
    if (mods & modifiers[i].mask)
      press (display, modifiers[i].keysym, FALSE);
  /* The server has sent the key events once XSync() returns; handle them. */
  XSync (display, False);
  gui_test_settle ();
}

/* Types @text character by character. */
void
gui_test_type (GtkWindow *window, const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      char one[8] = { 0 };

      g_unichar_to_utf8 (g_utf8_get_char (p), one);
      if (g_str_equal (one, " "))
        gui_test_key (window, "space");
      else
        {
          guint keyval = gdk_unicode_to_keyval (g_utf8_get_char (p));
          const char *name = gdk_keyval_name (keyval);

          g_assert_nonnull (name);
          gui_test_key (window, name);
        }
    }
}

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

/* A window of @application (nullable) at @width × @height on a copy of @fixture, once
 * the document is loaded, with the keyboard. */
DecipherWindow *
gui_test_open_window (const char *fixture, GtkApplication *application, int width, int height)
{
  g_autoptr (GFile) file = gui_test_fixture_copy (fixture);
  DecipherWindow *window = decipher_window_new (application);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  g_assert_nonnull (decipher_window_get_session (window));
  /* Laid out and drawn with its document, as a user first sees it. */
  gui_test_wait_frame (GTK_WIDGET (window));
  gui_test_focus_window (GTK_WINDOW (window));
  return window;
}

void
gui_test_close_window (DecipherWindow *window)
{
  DecipherSession *session = decipher_window_get_session (window);
  g_autofree char *view = NULL;

  /* The page and zoom the window keeps for its document (beside the autosave): the
   * next test opens the fixture as new, not where this one left it. */
  if (session != NULL && decipher_session_get_autosave_path (session) != NULL)
    view = g_strconcat (decipher_session_get_autosave_path (session), ".view", NULL);
  gui_test_pointer_away (GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (window));
  gui_test_settle ();
  if (view != NULL)
    g_unlink (view);
}
