/* dc-repair.h: a copy of the PDF whose text copies correctly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

gboolean dc_repair_write (DcKey *key,
                          const char *password,
                          const char *output,
                          char ***notes,
                          GError **error);

G_END_DECLS
