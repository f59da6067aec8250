/* test-password-dialog.c: the prompt for an encrypted PDF's password
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "decipher-password-dialog.h"
#include "gui-test-util.h"

typedef struct
{
  char *response;
  char *password;
} Answer;

static void
response_cb (DecipherPasswordDialog *dialog, const char *response, Answer *answer)
{
  g_free (answer->response);
  answer->response = g_strdup (response);
  g_free (answer->password);
  answer->password = g_strdup (decipher_password_dialog_get_password (dialog));
}

static DecipherPasswordDialog *
new_dialog (GtkWindow *parent, GFile *file, gboolean wrong, Answer *answer)
{
  DecipherPasswordDialog *dialog =
    decipher_password_dialog_new (parent, file, wrong ? "The password is wrong." : "It is locked.",
                                  wrong);

  g_signal_connect (dialog, "response", G_CALLBACK (response_cb), answer);
  gtk_window_present (GTK_WINDOW (dialog));
  GUI_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (dialog)), "the dialog shown");
  return dialog;
}

static void
test_open (void)
{
  g_autoptr (GFile) file = g_file_new_for_path ("/nowhere/locked.pdf");
  GtkWindow *parent = GTK_WINDOW (adw_application_window_new (NULL));
  DecipherPasswordDialog *dialog;
  GtkButton *open;
  Answer answer = { 0 };

  gtk_window_present (parent);
  dialog = new_dialog (parent, file, FALSE, &answer);
  g_assert_true (decipher_password_dialog_get_file (dialog) == file);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Password Required");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "It is locked.");
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == parent);

  /* An empty password opens nothing: Open waits for one. */
  open = gui_test_find_button (GTK_WIDGET (dialog), "_Open");
  g_assert_nonnull (open);
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (open)));
  decipher_password_dialog_set_password (dialog, "secret");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (open)));
  decipher_password_dialog_set_password (dialog, "");
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (open)));
  decipher_password_dialog_set_password (dialog, "secret");
  gui_test_screenshot ("password-dialog");

  /* The response comes after the dialog closed; the password is still there. */
  g_signal_emit_by_name (open, "clicked");
  GUI_TEST_WAIT_FOR (answer.response != NULL, "the dialog's response");
  g_assert_cmpstr (answer.response, ==, "open");
  g_assert_cmpstr (answer.password, ==, "secret");
  g_assert_null (gui_test_find_dialog ());

  gtk_window_destroy (parent);
  g_free (answer.response);
  g_free (answer.password);
}

static void
test_wrong_and_cancel (void)
{
  g_autoptr (GFile) file = g_file_new_for_path ("/nowhere/locked.pdf");
  GtkWindow *parent = GTK_WINDOW (adw_application_window_new (NULL));
  DecipherPasswordDialog *dialog;
  GtkWidget *entry, *focus;
  Answer answer = { 0 };

  gtk_window_present (parent);
  dialog = new_dialog (parent, file, TRUE, &answer);
  entry = adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog));
  g_assert_true (GTK_IS_PASSWORD_ENTRY (entry));
  g_assert_true (decipher_password_dialog_get_wrong (dialog));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Wrong Password");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "The password is wrong.");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  /* Ready to type the password again. */
  focus = gtk_window_get_focus (GTK_WINDOW (dialog));
  g_assert_true (focus != NULL && (focus == entry || gtk_widget_is_ancestor (focus, entry)));
  /* Typing again takes the mark away. */
  decipher_password_dialog_set_password (dialog, "x");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  /* Escape, or closing the window: the cancel response. */
  gtk_window_close (GTK_WINDOW (dialog));
  GUI_TEST_WAIT_FOR (g_strcmp0 (answer.response, "cancel") == 0, "the cancel response");
  g_assert_cmpstr (answer.response, ==, "cancel");
  g_assert_null (gui_test_find_dialog ());

  gtk_window_destroy (parent);
  g_free (answer.response);
  g_free (answer.password);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/password-dialog/open", test_open);
  g_test_add_func ("/password-dialog/wrong-and-cancel", test_wrong_and_cancel);
  return g_test_run ();
}
