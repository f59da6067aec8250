/* decipher-password-dialog.c: asks for the password of an encrypted PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The body is the engine's own sentence (the document needs a password, or the one
 * given is wrong), so the window and decipher-cli say the same thing. A wrong password
 * brings the prompt back marked as such, with the entry ready to be typed again; Cancel
 * just closes it and leaves the window as it was.
 */

#define G_LOG_DOMAIN "decipher-password-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-password-dialog.h"

struct _DecipherPasswordDialog
{
  AdwMessageDialog parent_instance;

  GFile *file;
  GtkWidget *entry_ref;
  gboolean wrong;

  GtkPasswordEntry *entry;
};

G_DEFINE_FINAL_TYPE (DecipherPasswordDialog, decipher_password_dialog, ADW_TYPE_MESSAGE_DIALOG)

/* poppler takes an empty password as none and opens nothing with it: Open waits for
 * something to try. */
static void
entry_changed_cb (DecipherPasswordDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry_ref));

  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "open", *text != '\0');
  if (self->wrong)
    gtk_widget_remove_css_class (self->entry_ref, "error");
}

static void
decipher_password_dialog_finalize (GObject *object)
{
  DecipherPasswordDialog *self = DECIPHER_PASSWORD_DIALOG (object);

  g_clear_object (&self->file);
  g_clear_object (&self->entry_ref);

  G_OBJECT_CLASS (decipher_password_dialog_parent_class)->finalize (object);
}

static void
decipher_password_dialog_class_init (DecipherPasswordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = decipher_password_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-password-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherPasswordDialog, entry);
}

static void
decipher_password_dialog_init (DecipherPasswordDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* GTK 4.8's password entry leaves a handler on its window that still runs while the
   * dialog is disposed; this reference keeps the entry alive until the dialog is gone. */
  self->entry_ref = g_object_ref (GTK_WIDGET (self->entry));
  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (entry_changed_cb), self);
}

/**
 * decipher_password_dialog_new:
 * @file: the encrypted document, to open again with the password
 * @reason: the engine's sentence: it needs a password, or the one given is wrong
 * @wrong: whether a password was given and refused
 *
 * Returns: (transfer none): the dialog, not yet shown; it is destroyed once answered
 */
DecipherPasswordDialog *
decipher_password_dialog_new (GtkWindow *parent, GFile *file, const char *reason, gboolean wrong)
{
  DecipherPasswordDialog *self;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (reason != NULL, NULL);

  self = g_object_new (DECIPHER_TYPE_PASSWORD_DIALOG, "transient-for", parent, NULL);
  self->file = g_object_ref (file);
  self->wrong = wrong;
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), reason);
  if (wrong)
    {
      adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), _("Wrong Password"));
      gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  return self;
}

GFile *
decipher_password_dialog_get_file (DecipherPasswordDialog *self)
{
  g_return_val_if_fail (DECIPHER_IS_PASSWORD_DIALOG (self), NULL);

  return self->file;
}

const char *
decipher_password_dialog_get_password (DecipherPasswordDialog *self)
{
  g_return_val_if_fail (DECIPHER_IS_PASSWORD_DIALOG (self), NULL);

  /* Through the reference: "response" comes once the dialog is closed, and its template
   * children may be gone by then. */
  return gtk_editable_get_text (GTK_EDITABLE (self->entry_ref));
}

/* What typing in the entry does, for the tests. */
void
decipher_password_dialog_set_password (DecipherPasswordDialog *self, const char *password)
{
  g_return_if_fail (DECIPHER_IS_PASSWORD_DIALOG (self));
  g_return_if_fail (password != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->entry), password);
}

/* Whether this prompt follows a wrong password. */
gboolean
decipher_password_dialog_get_wrong (DecipherPasswordDialog *self)
{
  g_return_val_if_fail (DECIPHER_IS_PASSWORD_DIALOG (self), FALSE);

  return self->wrong;
}
