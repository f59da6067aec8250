/* decipher-character-row.h: the document's own characters, one click each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_CHARACTER_ROW (decipher_character_row_get_type ())

G_DECLARE_FINAL_TYPE (DecipherCharacterRow, decipher_character_row, DECIPHER, CHARACTER_ROW,
                      GtkWidget)

void decipher_character_row_set_session (DecipherCharacterRow *self, DcSession *session);
void decipher_character_row_set_entry (DecipherCharacterRow *self, GtkEditable *entry);
void decipher_character_row_set_language (DecipherCharacterRow *self, const char *language);
const char *decipher_character_row_get_language (DecipherCharacterRow *self);
const char *decipher_character_row_get_guessed_language (DecipherCharacterRow *self);
void decipher_character_row_refresh (DecipherCharacterRow *self);

/* For the tests: the characters offered, in order, and their buttons. */
guint decipher_character_row_get_n_characters (DecipherCharacterRow *self);
const char *decipher_character_row_get_character (DecipherCharacterRow *self, guint index);
GtkButton *decipher_character_row_get_button (DecipherCharacterRow *self, guint index);

G_END_DECLS
