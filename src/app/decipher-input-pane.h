/* decipher-input-pane.h: type the words read on the page, and let the engine fill the table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher-character-row.h"
#include "decipher.h"
#include "decipher-view-state.h"

G_BEGIN_DECLS

#define DECIPHER_NO_LINE G_MAXUINT

#define DECIPHER_TYPE_INPUT_PANE (decipher_input_pane_get_type ())

G_DECLARE_FINAL_TYPE (DecipherInputPane, decipher_input_pane, DECIPHER, INPUT_PANE, GtkWidget)

GtkWidget *decipher_input_pane_new (void);
void decipher_input_pane_set_session (DecipherInputPane *self, DcSession *session);
void decipher_input_pane_set_view_state (DecipherInputPane *self, DecipherViewState *state);

guint decipher_input_pane_get_line (DecipherInputPane *self);
void decipher_input_pane_set_line (DecipherInputPane *self, guint line);
void decipher_input_pane_what_next (DecipherInputPane *self);
gboolean decipher_input_pane_is_suggesting (DecipherInputPane *self);
gboolean decipher_input_pane_is_busy (DecipherInputPane *self);
void decipher_input_pane_fill_from_glyphs (DecipherInputPane *self, guint first_glyph,
                                           guint last_glyph);
void decipher_input_pane_focus (DecipherInputPane *self);
gboolean decipher_input_pane_is_typing (DecipherInputPane *self);
void decipher_input_pane_update_conflicts (DecipherInputPane *self);

/* For the tests: the parts a user (or an accessibility client) drives. */
GtkEditable *decipher_input_pane_get_entry (DecipherInputPane *self);
GtkListBox *decipher_input_pane_get_candidates (DecipherInputPane *self);
GtkLabel *decipher_input_pane_get_reason_label (DecipherInputPane *self);
GtkLabel *decipher_input_pane_get_hint_label (DecipherInputPane *self);
DecipherCharacterRow *decipher_input_pane_get_character_row (DecipherInputPane *self);
DcMatchKind decipher_input_pane_get_last_kind (DecipherInputPane *self);

G_END_DECLS
