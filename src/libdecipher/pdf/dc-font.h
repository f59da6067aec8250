/* dc-font.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  DC_FONT_TYPE_UNKNOWN,
  DC_FONT_TYPE_TYPE1,
  DC_FONT_TYPE_TYPE3,
  DC_FONT_TYPE_TRUETYPE,
  DC_FONT_TYPE_CID_TYPE0,
  DC_FONT_TYPE_CID_TYPE2,
} DcFontType;

#define DC_TYPE_FONT (dc_font_get_type ())

G_DECLARE_FINAL_TYPE (DcFont, dc_font, DC, FONT, GObject)

guint dc_font_get_index (DcFont *self);
const char *dc_font_get_name (DcFont *self);
char *dc_font_dup_display_name (DcFont *self);
void dc_font_add_json_members (DcFont *self, JsonBuilder *builder);
DcFontType dc_font_get_font_type (DcFont *self);
#define DC_FONT_TYPE3_DIGEST_LEN 16
const guint8 *dc_font_get_type3_digest (DcFont *self, guint32 code);
const char *dc_font_type_to_string (DcFontType type);
const char *dc_font_get_encoding (DcFont *self);
gboolean dc_font_has_to_unicode (DcFont *self);
gboolean dc_font_is_embedded (DcFont *self);
gboolean dc_font_is_cid (DcFont *self);
const char *dc_font_get_program_kind (DcFont *self);
GBytes *dc_font_get_program (DcFont *self);
const char *dc_font_get_program_sha256 (DcFont *self);
int dc_font_get_writing_mode (DcFont *self);
gboolean dc_font_get_object_ref (DcFont *self, int *num, int *gen);
const char *dc_font_get_glyph_name (DcFont *self, guint32 code);
int dc_font_get_cid_glyph_index (DcFont *self, guint32 code);
int dc_font_get_glyph_index (DcFont *self, guint32 code);
guint dc_font_get_n_symbols (DcFont *self);
guint dc_font_get_n_glyphs (DcFont *self);
gboolean dc_font_is_trusted (DcFont *self);
const char *dc_font_get_double_byte_charset (DcFont *self);
const char *dc_font_get_trust_reason (DcFont *self);

G_END_DECLS
