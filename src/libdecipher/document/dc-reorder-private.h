/* dc-reorder-private.h: a line's text in logical (Unicode) order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-script.h"
#include "dc-text-cache-private.h"

G_BEGIN_DECLS

gboolean _dc_is_pre_base_vowel (gunichar c);
gboolean _dc_is_virama (gunichar c);
gboolean _dc_is_reph_ra (gunichar c);
guint _dc_pre_base_consonant_length (const gunichar *c, guint length);
gboolean _dc_is_khmer_split_vowel (gunichar c);
gboolean _dc_is_thai_lao_above_mark (gunichar c);
gboolean _dc_is_vowel_sign_before_subscripts (gunichar c);
gboolean _dc_takes_post_base_form (gunichar consonant);
gboolean _dc_is_spacing_vowel_sign (gunichar c);
DcDirection _dc_reorder_line (DcDocument *document, guint line, DcValueFunc value,
                              gpointer user_data, GString *out, GPtrArray *tokens);
void _dc_reorder_line_cached (DcDocument *document, guint line, const DcTextCache *cache,
                              DcValueFunc value, gpointer user_data, GString *out);
/* The text of tokens [@first_token, + @n_tokens) of one line, and of each in @tokens when not
 * NULL, as _dc_reorder_line() gives them, with the glyphs' texts from @cache: for tokens that
 * _dc_reorder_cached_tokens() found not plain. */
DcDirection _dc_reorder_tokens_cached (DcDocument *document, guint first_token, guint n_tokens,
                                       const DcTextCache *cache, DcValueFunc value,
                                       gpointer user_data, GString *out, GPtrArray *tokens);
/* What _dc_reorder_tokens_cached_texts() gives besides the text, each text ending in a
 * NUL, at the end of the strings the caller makes. */
typedef struct
{
  GString *tokens; /* each token's text, in logical order, as _dc_reorder_tokens_cached() */
  guint n_tokens;
  /* Where the tokens may be read right to left (alone_made): each token's text as
   * _dc_reorder_tokens_cached() gives it for the token alone, in their order. */
  GString *alone;
  gboolean alone_made;
} DcReorderTexts;

DcDirection _dc_reorder_tokens_cached_texts (DcDocument *document, guint first_token,
                                             guint n_tokens, const DcTextCache *cache,
                                             DcValueFunc value, gpointer user_data, GString *out,
                                             DcReorderTexts *texts);
void _dc_reorder_line_tokens (DcDocument *document, guint line, DcValueFunc value,
                              gpointer user_data, GPtrArray *tokens, GArray *token_indices);
/* Whether no space stands in the text between the tokens @before and @after (the next on
 * its line), whose texts are @before_text and @after_text: CJK, Thai and their kin write
 * words together, and a gap between them is none. */
gboolean _dc_reorder_tokens_close_up (DcDocument *document, const DcToken *before,
                                      const DcToken *after, const char *before_text,
                                      const char *after_text, DcValueFunc value,
                                      gpointer user_data);

void _dc_reorder_token (DcDocument *document, guint token, DcValueFunc value, gpointer user_data,
                        GString *out);

gboolean _dc_line_is_vertical (DcDocument *document, guint line);
gboolean _dc_script_has_left_to_right_columns (GUnicodeScript script);

G_END_DECLS
