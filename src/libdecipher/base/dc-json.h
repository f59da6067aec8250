/* dc-json.h: JSON text checked before json-glib parses it, and written so others can
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  DC_JSON_TEXT_ONE_VALUE, /* one value with only white space around it, or only white space */
  DC_JSON_TEXT_TOO_DEEP,  /* arrays and objects nest deeper than allowed */
  DC_JSON_TEXT_NOT_JSON,  /* outside strings, something JSON has no place for there */
  DC_JSON_TEXT_MORE,      /* something other than white space follows the first value */
  DC_JSON_TEXT_NUL,       /* a string holds U+0000 (\u0000 or the byte), which json-glib
                           * would silently cut the string at */
} DcJsonText;

DcJsonText dc_json_check_text (const char *data, gsize length, guint max_depth, gsize *offset);

char *dc_json_generate (JsonNode *root, gboolean pretty, gsize *length);

G_END_DECLS
