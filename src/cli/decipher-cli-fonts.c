/* decipher-cli-fonts.c: `decipher-cli fonts`, each font and whether its text map can be
 * trusted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli.c. With --json, every symbol's value as the key holds it, with
 * its status, level, confidence and provenance, and the glyphs no level decodes.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "decipher-cli-commands.h"
#include "decipher-cli-session.h"

#define command_fonts decipher_cli_command_fonts
#define load_key decipher_cli_load_key
#define opt_json decipher_cli_opt_json

/* Every symbol of @font the key holds a value for: what it stands for, how it is used
 * (status), what kind of evidence says so (level), how sure that is, and which rule. */
static void
add_font_key_json (JsonBuilder *builder, DcFont *font, DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  json_builder_set_member_name (builder, "key");
  json_builder_begin_array (builder);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (symbols[s].font != dc_font_get_index (font))
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, symbols[s].code);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, symbols[s].n_glyphs);
      json_builder_set_member_name (builder, "glyph_name");
      json_builder_add_string_value (builder, symbols[s].glyph_name);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, dc_key_peek_value (key, s));
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, dc_key_status_to_string (dc_key_get_status (key, s)));
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, dc_key_level_to_string (dc_key_get_level (key, s)));
      json_builder_set_member_name (builder, "confidence");
      json_builder_add_double_value (builder, dc_key_get_confidence (key, s));
      json_builder_set_member_name (builder, "provenance");
      json_builder_add_string_value (builder, dc_key_get_provenance (key, s));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_font_json (JsonBuilder *builder, DcFont *font, DcKey *key)
{
  json_builder_begin_object (builder);
  dc_font_add_json_members (font, builder);
  if (key != NULL)
    {
      add_font_key_json (builder, font, key);
      /* Glyphs no level decodes (GLYPH_UNMAPPED), as the JSON text export says them. */
      dc_export_add_warnings (builder, dc_key_get_document (key), (int) dc_font_get_index (font),
                              dc_key_value_func, key);
    }
  json_builder_end_object (builder);
}

int
command_fonts (DcDocument *document, int argc, char **argv)
{
  guint n_fonts = dc_document_get_n_fonts (document);

  if (opt_json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *data = NULL;
      g_autoptr (DcKey) key = NULL;

      if ((key = load_key (document)) == NULL)
        return 1;
      json_builder_begin_array (builder);
      for (guint f = 0; f < n_fonts; f++)
        add_font_json (builder, dc_document_get_font (document, f), key);
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      /* Font names are the PDF's: json-glib would write their controls as they are. */
      data = dc_json_generate (root, TRUE, NULL);
      g_print ("%s\n", data);
      return 0;
    }

  /* Names, encodings and reasons quote the PDF: escaped, whatever they hold. */
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      const char *name = dc_font_get_name (font);
      g_autofree char *shown_name = decipher_cli_escape_controls (name ? name
                                                                       : _("(unnamed)"), FALSE);
      g_autofree char *encoding = decipher_cli_escape_controls (dc_font_get_encoding (font), FALSE);
      g_autofree char *kind = decipher_cli_escape_controls (dc_font_is_embedded (font)
                                                                ? dc_font_get_program_kind (font)
                                                                : _("no"), FALSE);
      g_autofree char *reason = decipher_cli_escape_controls (dc_font_get_trust_reason (font),
                                                              FALSE);

      g_print ("%u\t%s\n", f, shown_name);
      g_print ("\t%s: %s, %s: %s, ToUnicode: %s, %s: %s\n",
               _("type"), dc_font_type_to_string (dc_font_get_font_type (font)),
                  _("encoding"), encoding,
                     dc_font_has_to_unicode (font) ? _("yes") : _("no"), _("embedded"), kind);
      g_print ("\t%s: %u, %s: %u\n", _("symbols"), dc_font_get_n_symbols (font),
                                        _("glyphs"), dc_font_get_n_glyphs (font));
      g_print ("\t%s: %s\n", dc_font_is_trusted (font) ? _("trusted") : _("NOT trusted"), reason);
    }
  return 0;
}
