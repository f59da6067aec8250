/* decipher-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DECIPHER_TYPE_APPLICATION (decipher_application_get_type ())

G_DECLARE_FINAL_TYPE (DecipherApplication, decipher_application, DECIPHER, APPLICATION,
                      AdwApplication)

DecipherApplication *decipher_application_new (void);

G_END_DECLS
