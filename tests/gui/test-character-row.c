/* test-character-row.c: the document's own characters above the word entry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 31.4: ʼ ӻ ӿ ӊ or a combining caron each needed a keyboard layout or about five
 * actions in the character picker. The row offers the chosen language's letters and the
 * key's own characters; a real click (XTest) inserts one at the entry's cursor and the
 * focus stays in the entry.
 */

#include "config.h"

#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>
#include <string.h>

#include "decipher-window-private.h"
#include "gui-test-util.h"

static DecipherCharacterRow *
row_of (DecipherWindow *window)
{
  return decipher_input_pane_get_character_row (_decipher_window_get_input_pane (window));
}

static gboolean
row_filled (DecipherCharacterRow *row)
{
  return gtk_widget_get_mapped (GTK_WIDGET (row))
         && decipher_character_row_get_n_characters (row) > 0;
}

static int
index_of (DecipherCharacterRow *row, const char *text)
{
  for (guint i = 0; i < decipher_character_row_get_n_characters (row); i++)
    if (g_str_equal (decipher_character_row_get_character (row, i), text))
      return (int) i;
  return -1;
}

/* A click of the X pointer in the middle of @widget, as a user's. */
static void
click (GtkWidget *widget)
{
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t center;
  graphene_rect_t bounds;
  double dx, dy;
  int x, y;

  /* Where it is now, not where the last layout put it. */
  gui_test_wait_frame (widget);
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (native), &bounds));
  graphene_rect_get_center (&bounds, &center);
  gtk_native_get_surface_transform (native, &dx, &dy);
  /* The tests' windows sit at the screen's origin (no window manager under Xvfb). */
  x = (int) (center.x + dx);
  y = (int) (center.y + dy);
  XTestFakeMotionEvent (display, -1, x, y, CurrentTime);
  XTestFakeButtonEvent (display, 1, True, CurrentTime);
  XTestFakeButtonEvent (display, 1, False, CurrentTime);
  XSync (display, False);
  gui_test_settle ();
}

static gboolean
entry_has_focus (GtkEditable *entry)
{
  return gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (entry)));
}

typedef struct
{
  GtkEditable *entry;
  const char *text;
} TextWait;

static gboolean
entry_reads (TextWait *wait)
{
  return g_str_equal (gtk_editable_get_text (wait->entry), wait->text);
}

/* Nivkh chosen: its letters come first, the combining caron among them; a click puts
 * one at the cursor, between what was typed, and the entry keeps the focus. */
static void
test_preset_click_inserts (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherCharacterRow *row = row_of (window);
  GtkEditable *entry = decipher_input_pane_get_entry (_decipher_window_get_input_pane (window));
  TextWait wait = { entry, "аӻб" };
  int at;

  GUI_TEST_WAIT (row_filled, row, "the character row");
  decipher_character_row_set_language (row, "niv");
  g_assert_cmpstr (decipher_character_row_get_language (row), ==, "niv");
  g_assert_cmpstr (decipher_character_row_get_character (row, 0), ==, "ʼ");
  g_assert_cmpint (index_of (row, "ӻ"), >=, 0);
  g_assert_cmpint (index_of (row, "ӿ"), >=, 0);
  g_assert_cmpint (index_of (row, "ӊ"), >=, 0);
  g_assert_cmpint (index_of (row, "\u030C"), >=, 0);
  /* A mark alone is shown on a dotted circle. */
  g_assert_cmpstr (gtk_button_get_label (
                       decipher_character_row_get_button (row, index_of (row, "\u030C"))),
                   ==, "\u25CC\u030C");

  gtk_editable_set_text (entry, "аб");
  gtk_widget_grab_focus (GTK_WIDGET (entry));
  GUI_TEST_WAIT (entry_has_focus, entry, "the entry's focus");
  gtk_editable_set_position (entry, 1);
  at = index_of (row, "ӻ");
  click (GTK_WIDGET (decipher_character_row_get_button (row, at)));
  GUI_TEST_WAIT (entry_reads, &wait, "the click to insert ӻ at the cursor");
  g_assert_true (entry_has_focus (entry));
  g_assert_cmpint (gtk_editable_get_position (entry), ==, 2);
  gui_test_screenshot ("character-row-nivkh");

  /* Nenets: its own three first. */
  decipher_character_row_set_language (row, "yrk");
  g_assert_cmpstr (decipher_character_row_get_character (row, 0), ==, "ӈ");
  g_assert_cmpstr (decipher_character_row_get_character (row, 1), ==, "ˮ");
  g_assert_cmpstr (decipher_character_row_get_character (row, 2), ==, "ʼ");
  gui_test_pointer_away (GTK_WINDOW (window));
  gui_test_close_window (window);
}

static gboolean
row_offers (DecipherCharacterRow *row)
{
  return index_of (row, "ӿ") >= 0;
}

/* A value assigned becomes a button, once, after the language's letters; ASCII and the
 * space get none. */
static void
test_assigned_values (void)
{
  DecipherWindow *window = gui_test_open_window ("legacy-cyrillic.pdf", NULL, 1200, 800);
  DecipherCharacterRow *row = row_of (window);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  guint n_symbols, unknown = 0;
  g_autoptr (GError) error = NULL;

  GUI_TEST_WAIT (row_filled, row, "the character row");
  decipher_character_row_set_language (row, "ru");
  g_assert_cmpint (index_of (row, "ӿ"), ==, -1);
  dc_document_get_symbols (decipher_session_get_document (session), &n_symbols);
  while (unknown < n_symbols
         && !dc_session_symbol_is_unknown (decipher_session_get_engine (session), unknown))
    unknown++;
  g_assert_cmpuint (unknown, <, n_symbols);
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), unknown, "ӿ", &error));
  g_assert_no_error (error);
  GUI_TEST_WAIT (row_offers, row, "the assigned ӿ in the row");
  g_assert_cmpint (index_of (row, "ӿ"), >, index_of (row, "ё"));
  for (guint i = 0; i < decipher_character_row_get_n_characters (row); i++)
    {
      const char *text = decipher_character_row_get_character (row, i);

      g_assert_false (g_str_equal (text, " "));
      g_assert_cmpint ((guchar) text[0], >=, 0x80);
      g_assert_cmpint (index_of (row, text), ==, (int) i);
    }
  g_assert_true (dc_key_can_undo (key));
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/character-row/preset-click-inserts", test_preset_click_inserts);
  g_test_add_func ("/character-row/assigned-values", test_assigned_values);

  return g_test_run ();
}
