/* decipher-cli-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher.h"

G_BEGIN_DECLS

int decipher_cli_session (DcDocument *document,
                          DcKey *key,
                          const char *project_path,
                          gboolean automatic_pass);

G_END_DECLS
