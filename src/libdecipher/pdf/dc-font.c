/* dc-font.c: what the PDF says about one font, and whether its text map can be trusted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "dc-font"

#include "config.h"

#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include <glib/gi18n-lib.h>

#include "dc-font-private.h"
#include "dc-tsan-private.h"

G_STATIC_ASSERT (DC_FONT_TYPE3_DIGEST_LEN == DC_BRIDGE_TYPE3_DIGEST_LEN);

struct _DcFont
{
  GObject parent_instance;

  char *name;
  char *encoding;
  char *program_kind;
  GBytes *program;
  char *program_sha256;
  char **glyph_names; /* 256 entries for simple fonts, NULL for CID fonts */
  int *cid_to_gid;
  guint cid_to_gid_len;
  int *code_to_gid;      /* 256 entries for a simple TrueType font, else NULL */
  guint8 *type3_digests; /* see DcBridgeFont; NULL for other fonts */
  /* CID fonts name their glyphs in the program (a TrueType post table), read lazily. */
  GMutex program_lock;
  FT_Library ft_library;
  FT_Face ft_face;
  GHashTable *program_names; /* code → name */
  /* A one-byte font that may draw a double-byte legacy encoding (GBK bytes through
   * WinAnsi), told by its name; and the charset once its glyphs have shown it does. */
  const char *double_byte_hint;
  const char *double_byte;
  char *trust_reason;
  double ascent;
  double descent;
  guint index;
  int ref_num;
  int ref_gen;
  guint n_symbols;
  guint n_glyphs;
  DcFontType type;
  int writing_mode;
  guint has_to_unicode : 1;
  guint has_ref : 1;
  guint trusted : 1;
};

G_DEFINE_FINAL_TYPE (DcFont, dc_font, G_TYPE_OBJECT)

static void
dc_font_finalize (GObject *object)
{
  DcFont *self = DC_FONT (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->encoding, g_free);
  g_clear_pointer (&self->program_kind, g_free);
  g_clear_pointer (&self->program, g_bytes_unref);
  g_clear_pointer (&self->program_sha256, g_free);
  g_clear_pointer (&self->trust_reason, g_free);
  g_clear_pointer (&self->cid_to_gid, g_free);
  g_clear_pointer (&self->code_to_gid, g_free);
  g_clear_pointer (&self->type3_digests, g_free);
  g_clear_pointer (&self->program_names, g_hash_table_unref);
  g_clear_pointer (&self->ft_face, FT_Done_Face);
  g_clear_pointer (&self->ft_library, FT_Done_FreeType);
  g_mutex_clear (&self->program_lock);
  if (self->glyph_names != NULL)
    {
      for (guint i = 0; i < 256; i++)
        g_free (self->glyph_names[i]);
      g_clear_pointer (&self->glyph_names, g_free);
    }

  G_OBJECT_CLASS (dc_font_parent_class)->finalize (object);
}

static void
dc_font_class_init (DcFontClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dc_font_finalize;
}

static void
dc_font_init (DcFont *self)
{
  g_mutex_init (&self->program_lock);
}

static gboolean
name_has (const char *name, const char *const *words)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (strstr (lower, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
decodes_as (const char *bytes, const char *charset)
{
  g_autofree char *utf8 = g_convert (bytes, -1, "UTF-8", charset, NULL, NULL, NULL);

  return utf8 != NULL;
}

/* Chinese and Japanese producers name a font in its own script (GBK bytes for 仿宋, as in
 * "\xB7\xC2\xCB\xCE_GB2312") or after its charset, and some draw it as a one-byte
 * font: each character then comes as two codes. The name only makes the document look;
 * the glyphs decide (dc-document.c). */
static const char *
double_byte_hint (const char *name)
{
  static const char *const big5[] = { "big5", "mingliu", NULL };
  static const char *const sjis[] = { "sjis", "shift", "mincho", "ms-gothic", "msgothic", NULL };
  static const char *const gbk[] = { "gb2312",   "gbk",   "gb18030", "simsun", "simhei",
                                     "fangsong", "kaiti", "song",    "hei",    NULL };
  gboolean high = FALSE;

  if (name == NULL)
    return NULL;
  if (name_has (name, big5))
    return "BIG5";
  if (name_has (name, sjis))
    return "CP932";
  if (name_has (name, gbk))
    return "GBK";
  for (const char *p = name; *p; p++)
    high |= (guchar) *p >= 0x80;
  if (!high || g_utf8_validate (name, -1, NULL))
    return NULL;
  if (decodes_as (name, "GBK"))
    return "GBK";
  if (decodes_as (name, "BIG5"))
    return "BIG5";
  if (decodes_as (name, "CP932"))
    return "CP932";
  return NULL;
}

DcFont *
_dc_font_new_from_bridge (guint index, const DcBridgeFont *info)
{
  DcFont *self;

  g_assert (info != NULL);

  self = g_object_new (DC_TYPE_FONT, NULL);
  self->index = index;
  /* PDF names are bytes; a legacy producer may write them in any 8-bit encoding. */
  self->name = info->name ? g_utf8_make_valid (info->name, -1) : NULL;
  if (info->type != DC_BRIDGE_FONT_CID_TYPE0 && info->type != DC_BRIDGE_FONT_CID_TYPE2
      && info->type != DC_BRIDGE_FONT_TYPE3 && !info->has_to_unicode)
    self->double_byte_hint = double_byte_hint (info->name);
  self->encoding = info->encoding ? g_utf8_make_valid (info->encoding, -1) : NULL;
  self->program_kind = g_strdup (info->program_kind);
  self->type = (DcFontType) info->type;
  self->has_to_unicode = !!info->has_to_unicode;
  self->writing_mode = info->writing_mode;
  self->has_ref = !!info->has_ref;
  self->ref_num = info->ref_num;
  self->ref_gen = info->ref_gen;
  self->ascent = info->ascent;
  self->descent = info->descent;

  if (info->embedded && info->program != NULL)
    {
      self->program = g_bytes_new (info->program, info->program_len);
    }

  if (info->cid_to_gid != NULL && info->cid_to_gid_len > 0)
    {
      self->cid_to_gid = g_memdup2 (info->cid_to_gid, info->cid_to_gid_len * sizeof (int));
      self->cid_to_gid_len = info->cid_to_gid_len;
    }

  if (info->code_to_gid != NULL)
    self->code_to_gid = g_memdup2 (info->code_to_gid, 256 * sizeof (int));
  if (info->type3_digests != NULL && info->type == DC_BRIDGE_FONT_TYPE3)
    self->type3_digests = g_memdup2 (info->type3_digests, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);

  if (info->glyph_names != NULL)
    {
      self->glyph_names = g_new0 (char *, 256);
      for (guint i = 0; i < 256; i++)
        if (info->glyph_names[i] != NULL && info->glyph_names[i][0] != '\0')
          self->glyph_names[i] = g_strdup (info->glyph_names[i]);
    }

  return self;
}

/* What _dc_font_new_from_bridge() made @self of, pointing into @self: the document
 * cache writes it down and makes the font again from it. */
void
_dc_font_get_bridge_info (DcFont *self, DcBridgeFont *info)
{
  g_assert (DC_IS_FONT (self));
  g_assert (info != NULL);

  memset (info, 0, sizeof *info);
  info->name = self->name;
  info->encoding = self->encoding;
  info->program_kind = self->program_kind;
  info->embedded = self->program != NULL;
  if (self->program != NULL)
    info->program = g_bytes_get_data (self->program, &info->program_len);
  info->glyph_names = (const char *const *) self->glyph_names;
  info->cid_to_gid = self->cid_to_gid;
  info->cid_to_gid_len = self->cid_to_gid_len;
  info->code_to_gid = self->code_to_gid;
  info->type3_digests = self->type3_digests;
  info->type = (DcBridgeFontType) self->type;
  info->has_to_unicode = self->has_to_unicode;
  info->writing_mode = self->writing_mode;
  info->has_ref = self->has_ref;
  info->ref_num = self->ref_num;
  info->ref_gen = self->ref_gen;
  info->ascent = self->ascent;
  info->descent = self->descent;
}

void
_dc_font_set_counts (DcFont *self, guint n_symbols, guint n_glyphs)
{
  g_assert (DC_IS_FONT (self));

  self->n_symbols = n_symbols;
  self->n_glyphs = n_glyphs;
}

void
_dc_font_set_trust (DcFont *self, gboolean trusted, const char *reason)
{
  g_assert (DC_IS_FONT (self));

  self->trusted = !!trusted;
  g_free (self->trust_reason);
  self->trust_reason = g_strdup (reason);
}

double
_dc_font_get_ascent (DcFont *self)
{
  return self->ascent;
}

double
_dc_font_get_descent (DcFont *self)
{
  return self->descent;
}

guint
dc_font_get_index (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), 0);

  return self->index;
}

/* The BaseFont name; NULL when the PDF gives none. */
const char *
dc_font_get_name (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->name;
}

/**
 * dc_font_dup_display_name:
 *
 * The font's name as a user reads it, wherever one is shown (window, notes, CMap
 * comments): the BaseFont without its subset tag ("ABCDEF+", which tells the user
 * nothing), or "font N" when the PDF gives none.
 *
 * Returns: (transfer full): the name
 */
char *
dc_font_dup_display_name (DcFont *self)
{
  const char *name;

  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  name = self->name;
  if (name != NULL && strlen (name) > 7 && name[6] == '+')
    {
      gboolean tag = TRUE;

      for (guint i = 0; i < 6; i++)
        tag = tag && g_ascii_isupper (name[i]);
      if (tag)
        name += 7;
    }
  if (name != NULL && name[0] != '\0')
    return g_strdup (name);
  /* Translators: a font the PDF gives no name, by its number in “decipher-cli fonts”. */
  return g_strdup_printf (_("font %u"), self->index);
}

/**
 * dc_font_add_json_members:
 * @builder: inside an object
 *
 * What the engine knows of the font, as members of the JSON object @builder is writing:
 * `index`, `name`, `type`, `encoding`, `to_unicode`, `embedded`, `program`, `sha256`,
 * `object`, `symbols`, `glyphs`, `trusted`, `reason`. The one writer of a font's facts
 * (`decipher-cli fonts --json`, the map JSON of docs/export-formats.md).
 */
void
dc_font_add_json_members (DcFont *self, JsonBuilder *builder)
{
  int num, gen;

  g_return_if_fail (DC_IS_FONT (self));
  g_return_if_fail (JSON_IS_BUILDER (builder));

  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, dc_font_get_index (self));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, dc_font_get_name (self));
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, dc_font_type_to_string (dc_font_get_font_type (self)));
  json_builder_set_member_name (builder, "encoding");
  json_builder_add_string_value (builder, dc_font_get_encoding (self));
  json_builder_set_member_name (builder, "to_unicode");
  json_builder_add_boolean_value (builder, dc_font_has_to_unicode (self));
  json_builder_set_member_name (builder, "embedded");
  json_builder_add_boolean_value (builder, dc_font_is_embedded (self));
  json_builder_set_member_name (builder, "program");
  json_builder_add_string_value (builder, dc_font_get_program_kind (self));
  json_builder_set_member_name (builder, "sha256");
  json_builder_add_string_value (builder, dc_font_get_program_sha256 (self));
  json_builder_set_member_name (builder, "object");
  if (dc_font_get_object_ref (self, &num, &gen))
    {
      json_builder_begin_array (builder);
      json_builder_add_int_value (builder, num);
      json_builder_add_int_value (builder, gen);
      json_builder_end_array (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "symbols");
  json_builder_add_int_value (builder, dc_font_get_n_symbols (self));
  json_builder_set_member_name (builder, "glyphs");
  json_builder_add_int_value (builder, dc_font_get_n_glyphs (self));
  json_builder_set_member_name (builder, "trusted");
  json_builder_add_boolean_value (builder, dc_font_is_trusted (self));
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, dc_font_get_trust_reason (self));
}

DcFontType
dc_font_get_font_type (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), DC_FONT_TYPE_UNKNOWN);

  return self->type;
}

const char *
dc_font_type_to_string (DcFontType type)
{
  switch (type)
    {
    case DC_FONT_TYPE_TYPE1:
      return "Type1";
    case DC_FONT_TYPE_TYPE3:
      return "Type3";
    case DC_FONT_TYPE_TRUETYPE:
      return "TrueType";
    case DC_FONT_TYPE_CID_TYPE0:
      return "CIDFontType0";
    case DC_FONT_TYPE_CID_TYPE2:
      return "CIDFontType2";
    case DC_FONT_TYPE_UNKNOWN:
    default:
      return "unknown";
    }
}

const char *
dc_font_get_encoding (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->encoding;
}

gboolean
dc_font_has_to_unicode (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), FALSE);

  return self->has_to_unicode;
}

gboolean
dc_font_is_embedded (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), FALSE);

  return self->program != NULL;
}

gboolean
dc_font_is_cid (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), FALSE);

  return self->type == DC_FONT_TYPE_CID_TYPE0 || self->type == DC_FONT_TYPE_CID_TYPE2;
}

/* "Type1", "CFF", "TrueType" or "OpenType" for an embedded program, else NULL. */
const char *
dc_font_get_program_kind (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->program_kind;
}

/* The embedded font program, or NULL when the font is not embedded. */
GBytes *
dc_font_get_program (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->program;
}

/* Identifies the font program across documents (a project's entries are checked against
 * it). Worked out when first asked: hashing every embedded program at load was 2 % of a
 * `text` run that never asks (issue 32). Threads may ask at once: the first answer kept
 * wins, and every answer is the same. */
const char *
dc_font_get_program_sha256 (DcFont *self)
{
  char *sha256;

  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  if (self->program == NULL)
    return NULL;
  if ((sha256 = g_atomic_pointer_get (&self->program_sha256)) != NULL)
    return sha256;
  sha256 = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, self->program);
  if (!g_atomic_pointer_compare_and_exchange (&self->program_sha256, NULL, sha256))
    g_free (sha256);
  return g_atomic_pointer_get (&self->program_sha256);
}

/**
 * dc_font_get_object_ref:
 * @num: (out) (optional): the object number
 * @gen: (out) (optional): the generation number
 *
 * The indirect object of the font's dictionary in the PDF, which a repaired copy
 * rewrites. A font dictionary written inline in a page's resources has none.
 *
 * Returns: whether the font has an object of its own
 */
gboolean
dc_font_get_object_ref (DcFont *self, int *num, int *gen)
{
  g_return_val_if_fail (DC_IS_FONT (self), FALSE);

  if (num)
    *num = self->has_ref ? self->ref_num : 0;
  if (gen)
    *gen = self->has_ref ? self->ref_gen : 0;
  return self->has_ref;
}

int
dc_font_get_writing_mode (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), 0);

  return self->writing_mode;
}

static const char *
program_glyph_name_locked (DcFont *self, guint32 code)
{
  char name[128];
  gpointer found;
  guint gid = code;

  if (self->program_names == NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (self->program, &size);

      self->program_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      if (FT_Init_FreeType (&self->ft_library) != 0
          || FT_New_Memory_Face (self->ft_library, data, (FT_Long) size, 0, &self->ft_face) != 0)
        self->ft_face = NULL;
    }
  if (self->ft_face == NULL || !FT_HAS_GLYPH_NAMES (self->ft_face))
    return NULL;

  if (g_hash_table_lookup_extended (self->program_names, GUINT_TO_POINTER (code), NULL, &found))
    return found;

  if (self->cid_to_gid != NULL)
    gid = code < self->cid_to_gid_len ? (guint) MAX (0, self->cid_to_gid[code]) : 0;
  found = NULL;
  if (gid != 0 && FT_Get_Glyph_Name (self->ft_face, gid, name, sizeof name) == 0 && name[0] != '\0')
    found = g_strdup (name);
  g_hash_table_insert (self->program_names, GUINT_TO_POINTER (code), found);
  return found;
}

/* Workers ask for names while the main thread may too: the face and the cache are
 * shared, so one at a time. */
static const char *
program_glyph_name (DcFont *self, guint32 code)
{
  const char *name;

  DC_MUTEX_LOCK (&self->program_lock);
  name = program_glyph_name_locked (self, code);
  DC_MUTEX_UNLOCK (&self->program_lock);
  return name;
}

/* The glyph's name from the font's encoding or, for CID fonts, from its program:
 * evidence for a proposal (AGL names, uniXXXX), never a decision. */
const char *
dc_font_get_glyph_name (DcFont *self, guint32 code)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  if (self->glyph_names != NULL)
    return code < 256 ? self->glyph_names[code] : NULL;
  if (self->program != NULL && self->type == DC_FONT_TYPE_CID_TYPE2)
    return program_glyph_name (self, code);
  return NULL;
}

guint
dc_font_get_n_symbols (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), 0);

  return self->n_symbols;
}

guint
dc_font_get_n_glyphs (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), 0);

  return self->n_glyphs;
}

gboolean
dc_font_is_trusted (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), FALSE);

  return self->trusted;
}

const char *
_dc_font_get_double_byte_hint (DcFont *self)
{
  g_assert (DC_IS_FONT (self));

  return self->double_byte_hint;
}

void
_dc_font_set_double_byte (DcFont *self, const char *charset)
{
  g_assert (DC_IS_FONT (self));

  self->double_byte = charset;
}

/**
 * dc_font_get_double_byte_charset:
 *
 * A one-byte font whose glyphs come in pairs of a double-byte legacy encoding (GBK,
 * Big5 or Shift-JIS bytes drawn through WinAnsi) has each pair as one symbol, with a
 * two-byte code (lead byte first).
 *
 * Returns: (nullable): the iconv name of that encoding, or %NULL for other fonts
 */
const char *
dc_font_get_double_byte_charset (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->double_byte;
}

/* A sentence saying why the font's map is or is not trusted. */
const char *
dc_font_get_trust_reason (DcFont *self)
{
  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  return self->trust_reason;
}

/**
 * dc_font_get_cid_glyph_index:
 * @code: a code of this font
 *
 * For a CID font, the glyph of the program that @code draws, through the font's
 * CIDToGIDMap (identity when it has none). Simple fonts map codes through their own
 * cmap or encoding, which the caller must consult: they return -1.
 *
 * Returns: the glyph index, or -1
 */
int
dc_font_get_cid_glyph_index (DcFont *self, guint32 code)
{
  g_return_val_if_fail (DC_IS_FONT (self), -1);

  if (!dc_font_is_cid (self))
    return -1;
  if (self->cid_to_gid == NULL)
    return (int) MIN (code, (guint32) G_MAXINT);
  return code < self->cid_to_gid_len ? self->cid_to_gid[code] : 0;
}

/**
 * dc_font_get_type3_digest:
 *
 * What a Type 3 font's glyph procedure for @code draws, as DC_FONT_TYPE3_DIGEST_LEN
 * bytes: the same procedure in another document (another code, another subset) gives
 * the same bytes.
 *
 * Returns: (nullable): the digest, or %NULL for another kind of font, a code without a
 *   procedure, or one that paints nothing of its own
 */
const guint8 *
dc_font_get_type3_digest (DcFont *self, guint32 code)
{
  static const guint8 none[DC_BRIDGE_TYPE3_DIGEST_LEN] = { 0 };
  const guint8 *digest;

  g_return_val_if_fail (DC_IS_FONT (self), NULL);

  if (self->type3_digests == NULL || code >= 256)
    return NULL;
  digest = self->type3_digests + code * DC_BRIDGE_TYPE3_DIGEST_LEN;
  return memcmp (digest, none, sizeof none) == 0 ? NULL : digest;
}

/**
 * dc_font_get_glyph_index:
 * @code: a code of this font
 *
 * The glyph of the embedded program that @code draws, as far as the PDF's structures
 * say, mapped the way poppler's font engine maps it when it draws the page: a CID font's
 * CIDToGIDMap (or a CID-keyed CFF program's charset), a simple TrueType font's cmap and
 * encoding, a simple Type 1 or CFF font's encoding names looked up in the program. -1 for
 * a Type 3 font or a font without a program.
 *
 * Returns: the glyph index, or -1
 */
int
dc_font_get_glyph_index (DcFont *self, guint32 code)
{
  g_return_val_if_fail (DC_IS_FONT (self), -1);

  if (self->program == NULL)
    return -1;
  if (dc_font_is_cid (self))
    return dc_font_get_cid_glyph_index (self, code);
  if (self->code_to_gid != NULL)
    return code < 256 ? self->code_to_gid[code] : -1;
  return -1;
}
