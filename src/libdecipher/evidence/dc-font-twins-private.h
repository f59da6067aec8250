/* dc-font-twins-private.h: fontconfig's choice of installed font for a name, kept between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _dc_font_twin_find (const char *family, gboolean bold, gboolean italic, char **file,
                             int *index, char **label);

G_END_DECLS
