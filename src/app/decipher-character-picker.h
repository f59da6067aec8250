/* decipher-character-picker.h: find a character one cannot type, by name or by script
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DECIPHER_TYPE_CHARACTER_PICKER (decipher_character_picker_get_type ())

G_DECLARE_FINAL_TYPE (DecipherCharacterPicker, decipher_character_picker, DECIPHER,
                      CHARACTER_PICKER, AdwWindow)

DecipherCharacterPicker *decipher_character_picker_new (GtkWindow *parent, GtkEditable *target);
void decipher_character_picker_search (DecipherCharacterPicker *self, const char *query);
void decipher_character_picker_pick (DecipherCharacterPicker *self, gunichar c);
const char *decipher_character_picker_get_value (DecipherCharacterPicker *self);
void decipher_character_picker_insert (DecipherCharacterPicker *self);

/* For the tests: what the list shows. */
GtkFlowBox *decipher_character_picker_get_results (DecipherCharacterPicker *self);
gboolean decipher_character_picker_wait_names (DecipherCharacterPicker *self);

G_END_DECLS
