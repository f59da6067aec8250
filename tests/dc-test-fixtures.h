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
JsonObject *dc_test_load_truth (const char *name,
                                JsonParser **parser);

G_END_DECLS
