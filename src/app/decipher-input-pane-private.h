/* decipher-input-pane-private.h: the input pane's helpers over the document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-input-pane.h"

G_BEGIN_DECLS

guint _decipher_line_of_glyph (DcDocument *document, guint glyph);
GArray *_decipher_place_glyphs (DcDocument *document, guint line, guint token, guint n_tokens);
char *_decipher_place_markup (DcDocument *document, DcKey *key, const DcMatchPlace *place);
char *_decipher_run_text (DcDocument *document, DcKey *key, guint first_glyph, guint last_glyph,
                          guint *line_out, int *placeholder);

G_END_DECLS
