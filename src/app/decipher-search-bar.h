/* decipher-search-bar.h: Ctrl+F over the recovered text, or over one symbol's occurrences
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_SEARCH_BAR (decipher_search_bar_get_type ())

G_DECLARE_FINAL_TYPE (DecipherSearchBar, decipher_search_bar, DECIPHER, SEARCH_BAR, GtkWidget)

void decipher_search_bar_set_session (DecipherSearchBar *self, DcSession *session);
void decipher_search_bar_set_view_state (DecipherSearchBar *self, DecipherViewState *state);
void decipher_search_bar_start (DecipherSearchBar *self);
void decipher_search_bar_stop (DecipherSearchBar *self);
gboolean decipher_search_bar_is_active (DecipherSearchBar *self);
void decipher_search_bar_next (DecipherSearchBar *self, gboolean backwards);

/* For the tests: what a user (or an accessibility client) sees and drives. */
GtkEditable *decipher_search_bar_get_entry (DecipherSearchBar *self);
GtkToggleButton *decipher_search_bar_get_symbol_button (DecipherSearchBar *self);
const char *decipher_search_bar_get_count_text (DecipherSearchBar *self);
gboolean decipher_search_bar_is_searching (DecipherSearchBar *self);
guint decipher_search_bar_get_n_matches (DecipherSearchBar *self);
int decipher_search_bar_get_current (DecipherSearchBar *self);
const guint32 *decipher_search_bar_get_current_glyphs (DecipherSearchBar *self, guint *n_glyphs);

G_END_DECLS
