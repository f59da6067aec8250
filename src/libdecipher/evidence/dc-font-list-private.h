/* dc-font-list-private.h: the installed outline fonts and their names, kept between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <fontconfig/fontconfig.h>
#include <glib.h>

G_BEGIN_DECLS

FcFontSet *_dc_font_list_installed (gboolean *kept);

G_END_DECLS
