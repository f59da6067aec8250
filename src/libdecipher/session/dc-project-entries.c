/* dc-project-entries.c: one key entry of a project file, written and read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-project.c. A key entry (a code's value, status, level, confidence,
 * provenance and rejected values, or a split's, with its glyph) is written and read alike
 * by the project file and its journal: both sides of the format are here, with the key's
 * and the splits' lists. Reading trusts nothing: an entry must name a font and a code the
 * document has, and a value Decipher could have written.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dc-key-private.h"
#include "dc-project-state-private.h"

/* The readers of members in dc-project-load.c, which the journal and conflicts use too. */
#define invalid _dc_project_invalid
#define read_string _dc_project_read_string
#define read_uint _dc_project_read_uint
#define node_is_string _dc_project_node_is_string

#define MAX_ITEMS DC_PROJECT_MAX_ITEMS
/* A value is at most 16 code points, so 64 bytes; anything much longer is not worth
 * normalising before rejecting. */
#define MAX_VALUE_BYTES 1024
#define MAX_TEXT_BYTES DC_PROJECT_MAX_TEXT_BYTES
#define MAX_NAME_BYTES DC_PROJECT_MAX_NAME_BYTES
#define MAX_REFUSED 1024 /* rejected values of one symbol */

/* One key entry as both the project and its journal write it. The font's name and program
 * checksum ride along with its index so that a loader can tell a key meant for these very
 * fonts, and a font library can reuse the entries. */
static void
add_entry (JsonBuilder *builder, DcDocument *document, guint symbol, guint glyph,
           DcKeyStatus status, DcKeyLevel level, double confidence, const char *value,
           const char *provenance, const char *const *refused)
{
  const DcSymbol *info = dc_document_get_symbol (document, symbol);
  DcFont *font = dc_document_get_font (document, info->font);

  json_builder_begin_object (builder);
  /* Since format version 4: a split, which only this occurrence of the code reads. */
  if (glyph != G_MAXUINT)
    {
      json_builder_set_member_name (builder, "glyph");
      json_builder_add_int_value (builder, glyph);
    }
  json_builder_set_member_name (builder, "font");
  json_builder_add_int_value (builder, info->font);
  json_builder_set_member_name (builder, "font_name");
  if (dc_font_get_name (font) != NULL)
    json_builder_add_string_value (builder, dc_font_get_name (font));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "font_sha256");
  if (dc_font_get_program_sha256 (font) != NULL)
    json_builder_add_string_value (builder, dc_font_get_program_sha256 (font));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, info->code);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, value != NULL ? value : "");
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, dc_key_status_to_string (status));
  /* Since format version 2; a version 1 file's level is told from status and provenance. */
  if (level != DC_KEY_LEVEL_NONE)
    {
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, dc_key_level_to_string (level));
      json_builder_set_member_name (builder, "confidence");
      /* Three decimals: the figure is a judgement, and a float printed whole reads as noise. */
      json_builder_add_double_value (builder, (double) (gint64) (confidence * 1000 + 0.5) / 1000);
    }
  json_builder_set_member_name (builder, "provenance");
  if (provenance != NULL)
    json_builder_add_string_value (builder, provenance);
  else
    json_builder_add_null_value (builder);
  /* Since format version 3: the values the user rejected for the symbol. */
  if (refused != NULL && refused[0] != NULL)
    {
      json_builder_set_member_name (builder, "refused");
      json_builder_begin_array (builder);
      for (guint i = 0; refused[i] != NULL; i++)
        json_builder_add_string_value (builder, refused[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

void
_dc_project_add_entry (JsonBuilder *builder, DcDocument *document, guint symbol, DcKeyStatus status,
                       DcKeyLevel level, double confidence, const char *value,
                       const char *provenance, const char *const *refused)
{
  add_entry (builder, document, symbol, G_MAXUINT, status, level, confidence, value, provenance,
             refused);
}

/* A key entry, or a split's (@entry->on_glyph): the state of one occurrence. */
void
_dc_project_add_key_entry (JsonBuilder *builder, DcDocument *document, const DcKeyEntry *entry)
{
  add_entry (builder, document, entry->symbol, entry->on_glyph ? entry->glyph : G_MAXUINT,
             entry->status, entry->value != NULL ? entry->level : DC_KEY_LEVEL_NONE,
             entry->confidence, entry->value, entry->provenance,
             (const char *const *) entry->refused);
}

/* The splits, as key entries with a "glyph"; returns how many. */
guint
_dc_project_add_splits (JsonBuilder *builder, DcDocument *document, DcKey *key)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  g_autofree guint *split = NULL;
  guint n_split;

  split = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_split);
  if (n_split == 0)
    return 0;
  json_builder_set_member_name (builder, "splits");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_split; i++)
    {
      const char *provenance;
      const char *value = dc_key_get_split (key, split[i], &provenance);

      add_entry (builder, document, glyphs[split[i]].symbol, split[i], DC_KEY_CONFIRMED,
                 DC_KEY_LEVEL_USER, 1.0, value, provenance, NULL);
    }
  json_builder_end_array (builder);
  return n_split;
}

/* The values rejected for a symbol (since version 3), normalised; NULL when none. */
static gboolean
read_refused (DcProjectLoader *loader, JsonObject *object, guint index, char ***out)
{
  JsonNode *node = json_object_get_member (object, "refused");
  g_autoptr (GStrvBuilder) builder = NULL;
  JsonArray *array;
  guint length;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("Key entry %u has rejected values that are not a list."), index + 1);
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_REFUSED)
    return invalid (loader,
                    _("Key entry %u has %u rejected values, far more than anyone rejects."),
                       index + 1, length);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < length; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autoptr (GError) value_error = NULL;
      g_autofree char *value = NULL;

      if (!node_is_string (item) || strlen (json_node_get_string (item)) > MAX_VALUE_BYTES
          || (value = dc_key_normalize_value (json_node_get_string (item), &value_error)) == NULL)
        return invalid (loader, _("Rejected value %u of key entry %u is not a value Decipher "
                                  "writes."),
                                   i + 1, index + 1);
      g_strv_builder_add (builder, value);
    }
  if (length > 0)
    *out = g_strv_builder_end (builder);
  return TRUE;
}

/* The "glyph" of a split's entry: an occurrence of the entry's code, confirmed by the user
 * (or, in the journal and the undo history, no longer split: unknown). */
static gboolean
read_glyph (DcProjectLoader *loader, JsonObject *object, guint index, DcKeyEntry *entry)
{
  g_autofree char *where = g_strdup_printf (_("key entry %u"), index + 1);
  const DcSymbol *symbol = dc_document_get_symbol (loader->document, entry->symbol);
  guint n_glyphs;
  const DcGlyph *glyphs = dc_document_get_glyphs (loader->document, &n_glyphs);
  guint64 glyph;

  if (!read_uint (loader, object, "glyph", where, G_MAXUINT32, &glyph))
    return FALSE;
  if (glyph >= n_glyphs)
    return invalid (loader,
                    _("Key entry %u splits off glyph %u, but the document has only %u glyphs."),
                       index + 1, (guint) glyph, n_glyphs);
  if (glyphs[glyph].symbol != entry->symbol)
    return invalid (loader,
                    _("Key entry %u splits off glyph %u, which is not drawn with code 0x%X of "
                      "font %u."),
                       index + 1, (guint) glyph, symbol->code, symbol->font);
  if (entry->status != DC_KEY_CONFIRMED && entry->status != DC_KEY_UNKNOWN)
    return invalid (loader, _("Key entry %u splits off glyph %u with a value the user did not "
                              "confirm; only the user splits."),
                               index + 1, (guint) glyph);
  if (entry->refused != NULL)
    return invalid (loader, _("Key entry %u splits off glyph %u with rejected values, which only "
                              "a code has."),
                               index + 1, (guint) glyph);
  entry->on_glyph = TRUE;
  entry->glyph = (guint) glyph;
  return TRUE;
}

/* Key entry @index (from 0) into @entry. @seen (nullable) refuses a symbol twice. A journal
 * line may also return a symbol to what the document itself says (@any_status): unknown,
 * or the PDF's own text. */
gboolean
_dc_project_read_entry (DcProjectLoader *loader, JsonNode *node, guint index, guint8 *seen,
                        gboolean any_status, DcKeyEntry *entry)
{
  g_autoptr (GError) value_error = NULL;
  g_autofree char *where = g_strdup_printf (_("key entry %u"), index + 1);
  const char *font_name, *font_sha256, *value, *status_name, *provenance;
  const char *level_name = NULL;
  JsonNode *confidence;
  guint64 font_index, code;
  JsonObject *object;
  DcFont *font;
  DcKeyStatus status;
  guint symbol;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (loader, _("Key entry %u is not an object."), index + 1);
  object = json_node_get_object (node);

  if (!read_uint (loader, object, "font", where, G_MAXUINT32, &font_index)
      || !read_string (loader, object, "font_name", where, TRUE, MAX_NAME_BYTES, &font_name)
      || !read_string (loader, object, "font_sha256", where, TRUE, 64, &font_sha256)
      || !read_uint (loader, object, "code", where, G_MAXUINT32, &code)
      || !read_string (loader, object, "value", where, FALSE, MAX_VALUE_BYTES, &value)
      || !read_string (loader, object, "status", where, FALSE, 32, &status_name)
      || !read_string (loader, object, "provenance", where, TRUE, MAX_TEXT_BYTES, &provenance))
    return FALSE;

  if (font_index >= dc_document_get_n_fonts (loader->document))
    return invalid (loader, _("Key entry %u names font %u, but the document has only %u."),
                               index + 1, (guint) font_index,
                               dc_document_get_n_fonts (loader->document));
  font = dc_document_get_font (loader->document, font_index);
  if (g_strcmp0 (font_name, dc_font_get_name (font)) != 0
      || (font_sha256 != NULL && dc_font_get_program_sha256 (font) != NULL
          && g_ascii_strcasecmp (font_sha256, dc_font_get_program_sha256 (font)) != 0))
    return invalid (loader, _("Key entry %u is for a font “%s” the document does not have."),
                               index + 1, font_name != NULL ? font_name : _("(unnamed)"));

  if (!dc_document_lookup_symbol (loader->document, font_index, code, &symbol))
    return invalid (loader, _("Key entry %u is for code 0x%X, which font “%s” never draws."),
                               index + 1, (guint) code,
                               font_name != NULL ? font_name : _("(unnamed)"));
  if (seen != NULL && seen[symbol])
    return invalid (loader, _("Key entry %u repeats code 0x%X of font “%s”."), index + 1,
                               (guint) code, font_name != NULL ? font_name : _("(unnamed)"));
  if (seen != NULL)
    seen[symbol] = TRUE;

  if (!read_refused (loader, object, index, &entry->refused))
    return FALSE;
  /* A symbol back to the document's own state is written only with refusals. */
  if (!dc_key_status_from_string (status_name, &status)
      || (!any_status && entry->refused == NULL && status != DC_KEY_PROPOSED
          && status != DC_KEY_INFERRED && status != DC_KEY_CONFIRMED))
    return invalid (loader, _("Key entry %u has the status “%s”, which a project cannot hold."),
                               index + 1, status_name);

  entry->symbol = symbol;
  entry->status = status;
  if (json_object_has_member (object, "glyph") && !read_glyph (loader, object, index, entry))
    return FALSE;
  if (status == DC_KEY_UNKNOWN || status == DC_KEY_FROM_PDF)
    return TRUE; /* back to the document's own: no value of ours */

  /* Both optional: a file from before levels (version 1) has neither, and its levels are
   * told from status and provenance when the key takes the entry. */
  if (json_object_has_member (object, "level")
      && !read_string (loader, object, "level", where, TRUE, 32, &level_name))
    return FALSE;
  if (level_name != NULL
      && (!dc_key_level_from_string (level_name, &entry->level)
          || entry->level == DC_KEY_LEVEL_NONE))
    return invalid (loader, _("Key entry %u has the level “%s”, which Decipher does not know."),
                               index + 1, level_name);
  confidence = json_object_get_member (object, "confidence");
  if (confidence != NULL && !JSON_NODE_HOLDS_NULL (confidence))
    {
      GType type = JSON_NODE_HOLDS_VALUE (confidence) ? json_node_get_value_type (confidence)
                                                      : G_TYPE_INVALID;

      if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
        return invalid (loader, _("Key entry %u has a confidence that is not a number."),
                                   index + 1);
      entry->confidence = json_node_get_double (confidence);
      if (!(entry->confidence > 0 && entry->confidence <= 1))
        return invalid (loader,
                        _("Key entry %u has the confidence %g; it must be above 0 and at most 1."),
                           index + 1, entry->confidence);
    }

  entry->value = dc_key_normalize_value (value, &value_error);
  if (entry->value == NULL)
    return invalid (loader, _("Key entry %u has a value Decipher cannot use. %s"), index + 1,
                               value_error->message);
  entry->provenance = g_strdup (provenance);
  return TRUE;
}

static gboolean
read_splits (DcProjectLoader *loader, JsonObject *root, GArray *entries)
{
  JsonNode *node = json_object_get_member (root, "splits");
  JsonArray *array;
  guint length;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("Its splits are not a list."));
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_ITEMS)
    return invalid (loader, _("It has %u splits, far more than Decipher keeps."), length);
  for (guint i = 0; i < length; i++)
    {
      DcKeyEntry entry = { 0 };

      if (!_dc_project_read_entry (loader, json_array_get_element (array, i), i, NULL, FALSE,
                                   &entry)
          || (!entry.on_glyph
              /* invalid() says FALSE: the split is refused. */
              && !invalid (loader, _("Split %u does not say which glyph it splits off."), i + 1)))
        {
          _dc_key_entry_clear (&entry);
          return FALSE;
        }
      g_array_append_val (entries, entry);
    }
  return TRUE;
}

gboolean
_dc_project_read_key (DcProjectLoader *loader, JsonObject *root, GArray *entries)
{
  JsonNode *node = json_object_get_member (root, "key");
  g_autofree guint8 *seen = NULL;
  guint n_symbols;
  JsonArray *array;
  guint length;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return invalid (loader, _("It has no key."));
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_ITEMS)
    return invalid (loader, _("Its key has %u entries, far more than any document has symbols."),
                               length);

  dc_document_get_symbols (loader->document, &n_symbols);
  seen = g_new0 (guint8, n_symbols);
  for (guint i = 0; i < length; i++)
    {
      DcKeyEntry entry = { 0 };

      if (!_dc_project_read_entry (loader, json_array_get_element (array, i), i, seen, FALSE,
                                   &entry)
          || (entry.on_glyph
              /* invalid() says FALSE: the entry is refused. */
              && !invalid (loader, _("Key entry %u names a glyph; splits are listed apart."),
                                      i + 1)))
        {
          _dc_key_entry_clear (&entry);
          return FALSE;
        }
      g_array_append_val (entries, entry);
    }
  return read_splits (loader, root, entries);
}
