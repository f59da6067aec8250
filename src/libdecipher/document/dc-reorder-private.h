/* dc-reorder-private.h: a line's text in logical (Unicode) order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-script.h"

G_BEGIN_DECLS

gboolean _dc_is_pre_base_vowel (gunichar c);
gboolean _dc_is_virama (gunichar c);
gboolean _dc_is_reph_ra (gunichar c);
gboolean _dc_takes_post_base_form (gunichar consonant);
gboolean _dc_is_spacing_vowel_sign (gunichar c);
DcDirection _dc_reorder_line (DcDocument *document, guint line, DcValueFunc value,
                              gpointer user_data, GString *out, GPtrArray *tokens);
void _dc_reorder_line_tokens (DcDocument *document, guint line, DcValueFunc value,
                              gpointer user_data, GPtrArray *tokens, GArray *token_indices);
void _dc_reorder_token (DcDocument *document, guint token, DcValueFunc value, gpointer user_data,
                        GString *out);

gboolean _dc_line_is_vertical (DcDocument *document, guint line);
gboolean _dc_script_has_left_to_right_columns (GUnicodeScript script);

G_END_DECLS
