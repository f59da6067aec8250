/* dc-ink-private.h: whether a glyph draws anything, read from its font program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <ft2build.h>
#include FT_FREETYPE_H

#include "dc-font.h"
#include "dc-types.h"

G_BEGIN_DECLS

typedef enum
{
  DC_INK_UNKNOWN, /* no program, a Type 3 procedure, or a glyph that cannot be found */
  DC_INK_NONE,    /* an empty outline: a space */
  DC_INK_SOME,
} DcInk;

FT_Face _dc_font_open_face (DcFont *font, FT_Library library);
FT_UInt _dc_symbol_glyph_index (DcFont *font, FT_Face face, const DcSymbol *symbol);
DcInk _dc_symbol_ink (DcFont *font, FT_Face face, const DcSymbol *symbol);

G_END_DECLS
