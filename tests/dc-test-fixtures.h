/* dc-test-fixtures.h: opening the generated fixtures, shared by the engine tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "decipher.h"

G_BEGIN_DECLS

char *dc_test_fixture_path (const char *file);
DcDocument *dc_test_load_document (const char *name);
JsonObject *dc_test_load_truth (const char *name, JsonParser **parser);

GPtrArray *dc_test_truth_symbol_values (DcDocument *document, const char *name);
GPtrArray *dc_test_truth_lines (const char *name);
void dc_test_key_fill_from_truth (DcKey *key, const char *name);
char *dc_test_with_one_letter_changed (const char *line);
char *dc_test_truth_text (const char *name);
double dc_test_character_error_rate (const char *text, const char *truth);
void dc_test_remove_tree (const char *path);
void dc_test_assert_same_document (DcDocument *a, DcDocument *b);

G_END_DECLS
