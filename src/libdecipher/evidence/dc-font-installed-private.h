/* dc-font-installed-private.h: the installed font a PDF names but does not embed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <ft2build.h>
#include FT_FREETYPE_H

#include "dc-document.h"

G_BEGIN_DECLS

/* How the values read from an installed font begin their provenance. */
#define DC_FONT_INSTALLED_PROVENANCE "font: installed "

gboolean _dc_font_is_drawn_by_installed_glyphs (DcFont *font);
FT_Face _dc_font_open_installed (DcFont *font, FT_Library library, DcDocument *document,
                                 GArray *symbols, char **description);
float *_dc_font_measure_widths (DcDocument *document, GArray *symbols);
FT_Face _dc_font_open_metric_twin (DcFont *font, FT_Library library, char **description);

G_END_DECLS
