/* decipher-password-dialog.h: asks for the password of an encrypted PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DECIPHER_TYPE_PASSWORD_DIALOG (decipher_password_dialog_get_type ())

G_DECLARE_FINAL_TYPE (DecipherPasswordDialog, decipher_password_dialog, DECIPHER, PASSWORD_DIALOG,
                      AdwMessageDialog)

DecipherPasswordDialog *decipher_password_dialog_new (GtkWindow *parent, GFile *file,
                                                      const char *reason, gboolean wrong);
GFile *decipher_password_dialog_get_file (DecipherPasswordDialog *self);
const char *decipher_password_dialog_get_password (DecipherPasswordDialog *self);
void decipher_password_dialog_set_password (DecipherPasswordDialog *self, const char *password);
gboolean decipher_password_dialog_get_wrong (DecipherPasswordDialog *self);

G_END_DECLS
