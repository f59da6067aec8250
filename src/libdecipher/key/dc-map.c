/* dc-map.c: the recovered code → text map, as ToUnicode CMaps and as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A ToUnicode CMap is what a PDF reader consults to turn a font's codes into text, so a
 * recovered map written in that form repairs copy and paste, search and pdftotext. The
 * JSON form is the same map for programs: per font, each code with its value and how
 * sure the key is of it. Both are described in docs/export-formats.md.
 */

#define G_LOG_DOMAIN "dc-map"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dc-error.h"
#include "dc-json.h"
#include "dc-map.h"

/* The PDF reference limits a beginbfchar section to 100 entries. */
#define MAX_BFCHAR_ENTRIES 100

static gboolean
status_is_recovered (DcKeyStatus status)
{
  return status == DC_KEY_INFERRED || status == DC_KEY_CONFIRMED;
}

static gboolean
status_is_usable (DcKeyStatus status)
{
  return status == DC_KEY_FROM_PDF || status_is_recovered (status);
}

/**
 * dc_map_font_is_recovered:
 * @font: a font index of the key's document
 *
 * Returns: whether the user or a match decided the value of any of the font's codes:
 *   only such fonts have a map worth exporting.
 */
gboolean
dc_map_font_is_recovered (DcKey *key, guint font)
{
  DcDocument *document;
  const DcSymbol *symbols;
  guint n_symbols;

  g_return_val_if_fail (DC_IS_KEY (key), FALSE);

  document = dc_key_get_document (key);
  g_return_val_if_fail (font < dc_document_get_n_fonts (document), FALSE);

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font && status_is_recovered (dc_key_get_status (key, s)))
      return TRUE;
  return FALSE;
}

gboolean
dc_map_has_recovered (DcKey *key)
{
  guint n_symbols;

  g_return_val_if_fail (DC_IS_KEY (key), FALSE);

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (status_is_recovered (dc_key_get_status (key, s)))
      return TRUE;
  return FALSE;
}

/* poppler hands a CID font's CID to the engine in place of the bytes drawn; only under an
 * Identity CMap are the two the same, and a ToUnicode CMap is keyed by the bytes. */
static gboolean
codes_are_bytes (DcFont *font)
{
  const char *encoding = dc_font_get_encoding (font);

  return !dc_font_is_cid (font) || g_str_has_prefix (encoding ? encoding : "", "Identity");
}

static int
compare_symbol_codes (gconstpointer a, gconstpointer b, gpointer symbols)
{
  const DcSymbol *x = &((const DcSymbol *) symbols)[*(const guint *) a];
  const DcSymbol *y = &((const DcSymbol *) symbols)[*(const guint *) b];

  if (x->code_len != y->code_len)
    return x->code_len < y->code_len ? -1 : 1;
  return x->code < y->code ? -1 : x->code > y->code;
}

/* The font's symbols whose value is known well enough to write down, ordered by code:
 * confirmed by the user, or at or above the confidence of what is applied automatically
 * (DESIGN §7: a map never carries a value weaker than that). */
static GArray *
font_known_symbols (DcKey *key, guint font)
{
  DcDocument *document = dc_key_get_document (key);
  const DcSymbol *symbols;
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_symbols;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font && status_is_usable (dc_key_get_status (key, s))
        && (dc_key_get_status (key, s) == DC_KEY_CONFIRMED
            || dc_key_get_confidence (key, s) >= DC_KEY_AUTOMATIC_CONFIDENCE))
      g_array_append_val (found, s);
  g_array_sort_with_data (found, compare_symbol_codes, (gpointer) symbols);
  return found;
}

static void
append_code (GString *out, guint32 code, guint n_bytes)
{
  for (int i = (int) n_bytes - 1; i >= 0; i--)
    g_string_append_printf (out, "%02X", (code >> (8 * i)) & 0xFF);
}

/* UTF-16BE in hex, characters outside the BMP as surrogate pairs. */
static void
append_utf16_hex (GString *out, const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x10000)
        {
          c -= 0x10000;
          g_string_append_printf (out, "%04X%04X", 0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF));
        }
      else
        g_string_append_printf (out, "%04X", c);
    }
}

/* PDF names are bytes in any encoding; a PostScript comment must stay printable ASCII. */
static void
append_comment_text (GString *out, const char *text)
{
  for (const char *p = text; *p; p++)
    g_string_append_c (out, (guchar) *p >= 0x20 && (guchar) *p < 0x7F ? *p : '?');
}

/**
 * dc_map_font_to_cmap:
 * @font: a font index of the key's document
 *
 * The font's map as a ToUnicode CMap program: every code whose value is known and not
 * empty (an ignored glyph is left out, so readers keep whatever they made of it).
 *
 * Returns: (transfer full): the CMap text, or %NULL with @error saying why the font has
 *   no map that can be written
 */
char *
dc_map_font_to_cmap (DcKey *key, guint font, GError **error)
{
  DcDocument *document;
  DcFont *dc_font;
  const DcSymbol *symbols;
  g_autoptr (GArray) known = NULL;
  g_autoptr (GArray) entries = NULL;
  g_autoptr (GString) out = NULL;
  g_autofree char *name = NULL;
  guint code_len = 0;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);
  document = dc_key_get_document (key);
  g_return_val_if_fail (font < dc_document_get_n_fonts (document), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dc_font = dc_document_get_font (document, font);
  name = dc_font_dup_display_name (dc_font);
  symbols = dc_document_get_symbols (document, NULL);

  if (!codes_are_bytes (dc_font))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("The font “%s” encodes its text with the CMap “%s”, which Decipher reads "
                     "as CIDs rather than bytes, so its map cannot be written as a ToUnicode "
                     "CMap; export the JSON map instead."),
                      name, dc_font_get_encoding (dc_font));
      return NULL;
    }

  known = font_known_symbols (key, font);
  entries = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < known->len; i++)
    {
      guint s = g_array_index (known, guint, i);
      const char *value = dc_key_get_value (key, s);

      if (value == NULL || value[0] == '\0')
        continue;
      /* A pair of bytes drawn through a one-byte font (GBK through WinAnsi) is one
       * symbol to us, but a reader of the PDF takes the font's codes one byte at a time:
       * no ToUnicode entry of a simple font can say what the pair means. */
      if (!dc_font_is_cid (dc_font) && symbols[s].code_len != 1)
        continue;
      g_array_append_val (entries, s);
      /* A simple font's codes are one byte, an Identity CMap's two: never mixed. */
      g_assert (code_len == 0 || code_len == symbols[s].code_len);
      code_len = symbols[s].code_len;
    }
  if (entries->len == 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Nothing is known yet about what the codes of the font “%s” stand for, so "
                     "it has no map to write: decode some of its text first."),
                      name);
      return NULL;
    }
  g_assert (code_len >= 1 && code_len <= 4);

  out = g_string_new ("%!PS-Adobe-3.0 Resource-CMap\n% ToUnicode map of ");
  append_comment_text (out, name);
  g_string_append (out, ", recovered by Decipher\n"
                        "/CIDInit /ProcSet findresource begin\n"
                        "12 dict begin\n"
                        "begincmap\n"
                        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                        "/CMapName /Decipher-UCS def\n"
                        "/CMapType 2 def\n"
                        "1 begincodespacerange\n<");
  append_code (out, 0, code_len);
  g_string_append (out, "> <");
  append_code (out, code_len == 4 ? G_MAXUINT32 : (1u << (8 * code_len)) - 1, code_len);
  g_string_append (out, ">\nendcodespacerange\n");

  for (guint start = 0; start < entries->len; start += MAX_BFCHAR_ENTRIES)
    {
      guint n = MIN (MAX_BFCHAR_ENTRIES, entries->len - start);

      g_string_append_printf (out, "%u beginbfchar\n", n);
      for (guint i = start; i < start + n; i++)
        {
          guint s = g_array_index (entries, guint, i);

          g_string_append_c (out, '<');
          append_code (out, symbols[s].code, code_len);
          g_string_append (out, "> <");
          append_utf16_hex (out, dc_key_get_value (key, s));
          g_string_append (out, ">\n");
        }
      g_string_append (out, "endbfchar\n");
    }

  g_string_append (out, "endcmap\n"
                        "CMapName currentdict /CMap defineresource pop\n"
                        "end\n"
                        "end\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
add_font_map (JsonBuilder *builder, DcKey *key, DcFont *font)
{
  DcDocument *document = dc_key_get_document (key);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  g_autoptr (GArray) known = font_known_symbols (key, dc_font_get_index (font));

  json_builder_begin_object (builder);
  dc_font_add_json_members (font, builder);
  /* Under a CMap other than Identity, the numbers are CIDs, not the bytes drawn. */
  json_builder_set_member_name (builder, "codes");
  json_builder_add_string_value (builder, codes_are_bytes (font) ? "bytes" : "cid");

  json_builder_set_member_name (builder, "map");
  json_builder_begin_array (builder);
  /* Per code only: a split (dc_key_split()) is where one occurrence in this document reads
   * otherwise, which says nothing of the font, so it never enters a map another document
   * reuses; the same holds for the ToUnicode CMap below and for the font library. */
  for (guint i = 0; i < known->len; i++)
    {
      guint s = g_array_index (known, guint, i);
      g_autoptr (GString) hex = g_string_new (NULL);

      append_code (hex, symbols[s].code, symbols[s].code_len);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, symbols[s].code);
      json_builder_set_member_name (builder, "hex");
      json_builder_add_string_value (builder, hex->str);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, dc_key_get_value (key, s));
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, dc_key_status_to_string (dc_key_get_status (key, s)));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/**
 * dc_map_to_json:
 *
 * The map of every font with recovered values: for each, its name, the SHA-256 of its
 * program (what identifies the glyphs across documents) and each known code with its
 * value ("" for a glyph to ignore) and status. Fonts the user has not touched are left
 * out: their map is the PDF's own.
 *
 * Returns: (transfer full): the JSON text, or %NULL with @error set when nothing is
 *   recovered yet
 */
char *
dc_map_to_json (DcKey *key, GError **error)
{
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *display = NULL;
  DcDocument *document;
  guint n_fonts;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  document = dc_key_get_document (key);
  if (!dc_map_has_recovered (key))
    {
      display = g_filename_display_basename (dc_document_get_path (document));
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Nothing has been recovered in “%s” yet, so there is no map to export: "
                     "decode some of its text first."),
                      display);
      return NULL;
    }

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, DC_MAP_FORMAT);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, DC_MAP_VERSION);
  json_builder_set_member_name (builder, "document");
  display = g_filename_display_basename (dc_document_get_path (document));
  json_builder_add_string_value (builder, display);
  json_builder_set_member_name (builder, "sha256");
  json_builder_add_string_value (builder, dc_document_get_sha256 (document));
  json_builder_set_member_name (builder, "fonts");
  json_builder_begin_array (builder);
  n_fonts = dc_document_get_n_fonts (document);
  for (guint f = 0; f < n_fonts; f++)
    if (dc_map_font_is_recovered (key, f))
      add_font_map (builder, key, dc_document_get_font (document, f));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return dc_json_generate (root, TRUE, NULL);
}
