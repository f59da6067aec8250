/* decipher-cli-split.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "decipher.h"

G_BEGIN_DECLS

gboolean decipher_cli_split_handle_split (DcSession *session, JsonObject *request,
                                          JsonBuilder *reply, GError **error);
gboolean decipher_cli_split_handle_unsplit (DcSession *session, JsonObject *request,
                                            JsonBuilder *reply, GError **error);
gboolean decipher_cli_split_handle_occurrences (DcSession *session, JsonObject *request,
                                                JsonBuilder *reply, GError **error);
void decipher_cli_split_add_splits (JsonBuilder *reply, DcKey *key, guint symbol);

G_END_DECLS
