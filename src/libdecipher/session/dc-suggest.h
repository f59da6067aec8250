/* dc-suggest.h: what the user should type next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean done; /* nothing left that typing can decode */
  guint line;    /* type tokens token … token + n_tokens − 1 of this line */
  guint token;
  guint n_tokens;
  guint n_new_symbols; /* unknown symbols those tokens would decode */
  guint n_new_glyphs;  /* and their glyphs in the whole document */
} DcSuggestion;

void dc_suggest_next (DcKey *key, DcSuggestion *suggestion);
void dc_suggest_next_in (DcKey *key, DcTokens *snapshot, DcSuggestion *suggestion);
GArray *dc_suggest_frequent_symbols (DcKey *key, guint max);
GArray *dc_suggest_busiest_lines (DcKey *key, guint max);

G_END_DECLS
