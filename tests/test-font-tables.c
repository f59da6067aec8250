/* test-font-tables.c: what the fonts themselves say, read with zero typing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "dc-agl-private.h"
#include "dc-test-fixtures.h"

static void
test_agl (void)
{
  static const struct
  {
    const char *name;
    const char *text;
  } cases[] = {
    { "A", "A" },
    { "space", " " },
    { "afii10017", "А" },
    { "uni0434", "д" },
    { "uni00660069", "fi" },
    { "u1F600", "\U0001F600" },
    { "u0434", "д" },
    { "f_i", "fi" },
    { "f_f_l", "ffl" },
    { "a.sc", "a" },
    { "A.alt", "A" },
    { "uni0434.001", "д" },
    { "Lslash", "Ł" },
    { "g12", NULL },
    { "cid42", NULL },
    { ".notdef", NULL },
    { "f_g12", NULL },
    { "uniD800", NULL }, /* a surrogate */
    { "uniE000", NULL }, /* private use tells nothing */
    { "uni04", NULL },
    { "", NULL },
    { "C71", NULL }, /* a code, read by dc-font-tables.c only when every name is one */
    /* Split at every underscore: an empty component means nothing. */
    { "_a", NULL },
    { "a_", NULL },
    { "a__b", NULL },
    { "f_i.sc_x", "fi" },
    { "uni0434_u1F600_afii10017", "д\U0001F600А" },
  };
  g_autoptr (GString) longest = g_string_new ("A");
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = _dc_agl_name_to_text (cases[i].name);

      g_test_message ("%s → %s", cases[i].name, text ? text : "(nothing)");
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  /* The longest name read (200 bytes), and one longer. */
  while (longest->len < 197)
    g_string_append (longest, "_u1F600");
  g_string_append (longest, "_ae");
  g_assert_cmpuint (longest->len, ==, 200);
  text = _dc_agl_name_to_text (longest->str);
  g_assert_nonnull (text);
  g_assert_cmpuint (g_utf8_strlen (text, -1), ==, 30);
  g_string_append (longest, "A");
  g_assert_null (_dc_agl_name_to_text (longest->str));
  g_assert_cmpstr (_dc_agl_mac_glyph_name (3), ==, "space");
  g_assert_cmpstr (_dc_agl_mac_glyph_name (36), ==, "A");
  g_assert_cmpstr (_dc_agl_mac_glyph_name (257), ==, "dcroat");
  g_assert_null (_dc_agl_mac_glyph_name (258));
  /* Arial's order: no nonbreakingspace (172), no apple (210). */
  g_assert_cmpstr (_dc_agl_core_font_glyph_name (171), ==, "ellipsis");
  g_assert_cmpstr (_dc_agl_core_font_glyph_name (172), ==, "Agrave");
  g_assert_cmpstr (_dc_agl_core_font_glyph_name (207), ==, "Oacute");
  g_assert_cmpstr (_dc_agl_core_font_glyph_name (209), ==, "Ograve");
  g_assert_cmpstr (_dc_agl_core_font_glyph_name (255), ==, "dcroat");
  g_assert_null (_dc_agl_core_font_glyph_name (256));

  {
    static const struct
    {
      const char *name, *prefix, *digits;
      gboolean hex;
    } numeric[] = {
      { "C71", "C", "71", FALSE },  { "C114", "C", "114", FALSE }, { "GED", "G", "ED", TRUE },
      { "G2E", "G", "2E", TRUE },   { "g3", NULL, NULL, FALSE },   { "g1007", NULL, NULL, FALSE },
      { "Eth", NULL, NULL, FALSE }, { "A", NULL, NULL, FALSE },    { "uni0434", NULL, NULL, FALSE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (numeric); i++)
      {
        char prefix[3];
        const char *digits;
        gboolean hex;
        gboolean ok = _dc_agl_split_numeric_name (numeric[i].name, prefix, &digits, &hex);

        g_test_message ("numeric %s", numeric[i].name);
        g_assert_cmpint (ok, ==, numeric[i].prefix != NULL);
        if (!ok)
          continue;
        g_assert_cmpstr (prefix, ==, numeric[i].prefix);
        g_assert_cmpstr (digits, ==, numeric[i].digits);
        g_assert_cmpint (hex, ==, numeric[i].hex);
      }
  }
}

typedef struct
{
  const char *fixture;
  DcKeyLevel level;
  const char *provenance_prefix;
} Case;

/* The automatic pass, as `decipher-cli text` runs it, decodes every symbol right from
 * the font's tables (or the Macintosh order) and says so in each value's level. */
static void
test_zero_typing (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (DcDocument) document = dc_test_load_document (c->fixture);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, c->fixture);
  guint n_symbols, n_checked = 0, n_decoded, n_to_decode;

  dc_auto_recover (document, key, NULL);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (!dc_document_symbol_needs_decoding (document, s))
        continue;
      g_assert_cmpstr (dc_key_get_value (key, s), ==, g_ptr_array_index (truth, s));
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
      g_assert_cmpint (dc_key_get_level (key, s), ==, c->level);
      g_assert_cmpfloat (dc_key_get_confidence (key, s), ==,
                         dc_key_level_get_default_confidence (c->level));
      g_assert_true (g_str_has_prefix (dc_key_get_provenance (key, s), c->provenance_prefix));
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 20);
  dc_key_count_decoded (key, &n_decoded, NULL);
  dc_key_count_to_decode (key, &n_to_decode, NULL);
  g_assert_cmpuint (n_decoded, ==, n_to_decode);

  /* One undoable step takes it all back. */
  g_assert_true (dc_key_undo (key));
  dc_key_count_decoded (key, &n_decoded, NULL);
  g_assert_cmpuint (n_decoded, ==, 0);
}

/* A legacy 8-bit font's cmap repeats the lie of its PDF text: the tables are not used,
 * and only the guesses (space, full stop) are made. */
static void
test_legacy_not_believed (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  guint n_symbols;

  g_assert_cmpuint (dc_font_tables_apply (key), ==, 0);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
}

/* A subset drawn by its own glyph numbers (identity-h: no CIDToGIDMap, no cmap, no
 * names) says nothing: the Macintosh order would read its glyph numbers as letters, and
 * is not applied. */
static void
test_renumbered_subset (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-h");
  g_autoptr (DcKey) key = dc_key_new (document);

  g_assert_cmpuint (dc_font_tables_apply (key), ==, 0);
}

/* A font named DejaVu Sans but drawn by DejaVu Serif's glyph numbers and widths is not
 * the installed DejaVu Sans: nothing is read from that one, nor from the other styles of
 * its family, whose widths differ too. */
static void
test_installed_lookalike (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("installed-lookalike");
  g_autoptr (DcKey) key = dc_key_new (document);
  guint n_symbols, n_to_decode = 0;

  dc_font_tables_apply (key);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      {
        const char *provenance = dc_key_get_provenance (key, s);

        n_to_decode++;
        g_assert_true (provenance == NULL || strstr (provenance, "installed") == NULL);
      }
  g_assert_cmpuint (n_to_decode, >, 20);
}

/* Values already held are never replaced by the tables, and a typed value that the
 * font's tables contradict stays: the weaker side gives way. */
static void
test_keeps_known (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("mac-order");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, "mac-order");
  g_autoptr (GError) error = NULL;
  guint n_symbols, s, n_set;

  dc_document_get_symbols (document, &n_symbols);
  for (s = 0; s < n_symbols; s++)
    if (g_strcmp0 (g_ptr_array_index (truth, s), "e") == 0)
      break;
  g_assert_cmpuint (s, <, n_symbols);
  g_assert_true (dc_key_set (key, s, "ə", DC_KEY_CONFIRMED, "assign", &error));
  n_set = dc_font_tables_apply (key);
  g_assert_cmpuint (n_set, >, 20);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "ə");
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_USER);
  g_assert_cmpuint (dc_font_tables_apply (key), ==, 0);
}

/* A map written out (a repaired PDF's ToUnicode) carries only values at or above the
 * automatic threshold, or confirmed: a weak shape reading stays out. */
static void
test_map_threshold (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *cmap = NULL;
  g_autofree char *weak_code = NULL;
  g_autofree char *strong_code = NULL;
  const DcSymbol *symbols;
  guint n_symbols, weak = G_MAXUINT, strong = G_MAXUINT;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols && strong == G_MAXUINT; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      {
        if (weak == G_MAXUINT)
          weak = s;
        else if (symbols[s].font == symbols[weak].font)
          strong = s;
      }
  g_assert_cmpuint (strong, !=, G_MAXUINT);
  g_assert_true (dc_key_set_full (key, weak, "ж", DC_KEY_INFERRED, DC_KEY_LEVEL_SHAPE, 0.5,
                                  "shape: ocr 3 of 6", &error));
  g_assert_true (dc_key_set_full (key, strong, "з", DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                                  "auto: test", &error));
  g_assert_no_error (error);
  cmap = dc_map_font_to_cmap (key, symbols[weak].font, &error);
  g_assert_no_error (error);
  weak_code = g_strdup_printf ("<%02X>", symbols[weak].code);
  strong_code = g_strdup_printf ("<%02X>", symbols[strong].code);
  g_assert_null (strstr (cmap, weak_code));
  g_assert_nonnull (strstr (cmap, strong_code));
}

/* A real subset (bug1151216) maps each code to itself in its cmap, as its wrong PDF
 * text does: tables that correct nothing are proposed, not used as text, so typing the
 * real text still fits. Here: the PDF's text made to agree with the tables. */
static void
test_repeating_tables_proposed (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("duplicate-tounicode");
  g_autoptr (DcKey) key = dc_key_new (document);
  guint n_symbols, n_proposed = 0;

  g_assert_cmpuint (dc_font_tables_apply (key), >, 20);
  /* Some of its codes are corrected: the tables are a second opinion, inferred. */
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    n_proposed += dc_key_get_status (key, s) == DC_KEY_PROPOSED;
  g_assert_cmpuint (n_proposed, ==, 0);
}

static const Case cases[] = {
  { "identity-unicode", DC_KEY_LEVEL_FONT, "font: cmap U+" },
  { "identity-named", DC_KEY_LEVEL_FONT, "font: glyph name " },
  { "duplicate-tounicode", DC_KEY_LEVEL_FONT, "font: cmap U+" },
  { "mac-order", DC_KEY_LEVEL_LAYOUT, "layout: Macintosh glyph order" },
  { "core-order", DC_KEY_LEVEL_LAYOUT, "layout: Windows core font glyph order" },
  { "installed-font", DC_KEY_LEVEL_FONT, "font: installed DejaVu Sans, cmap U+" },
  { "numeric-names", DC_KEY_LEVEL_FONT, "font: glyph name C" },
  { "control-letters", DC_KEY_LEVEL_FONT, "font: glyph name C" },
  { "gbk-winansi", DC_KEY_LEVEL_LAYOUT, "layout: GBK code " },
};

/* GBK bytes drawn through a one-byte WinAnsi font: each pair is one glyph of one symbol
 * with a two-byte code, the font says which charset, and the plain bytes stay single. */
static void
test_double_byte_pairs (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("gbk-winansi");
  g_autoptr (DcDocument) latin = dc_test_load_document ("legacy-cyrillic");
  DcFont *font = dc_document_get_font (document, 0);
  const DcSymbol *symbols;
  guint n_symbols, n_pairs = 0;

  g_assert_cmpstr (dc_font_get_double_byte_charset (font), ==, "GBK");
  g_assert_false (dc_font_is_trusted (font));
  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpuint (symbols[s].n_glyphs, >, 0);
      if (symbols[s].code_len == 2)
        {
          n_pairs++;
          g_assert_cmpuint (symbols[s].code >> 8, >=, 0x81);
        }
      else
        g_assert_cmpuint (symbols[s].code, <, 0x80);
    }
  g_assert_cmpuint (n_pairs, >, 40);

  /* A legacy Latin-1 font is no double-byte font, whatever its accented letters. */
  for (guint f = 0; f < dc_document_get_n_fonts (latin); f++)
    g_assert_null (dc_font_get_double_byte_charset (dc_document_get_font (latin, f)));
}

/* Codes that the PDF calls a tab, a line feed, a carriage return or a space are letters
 * with ink in this untrusted font: they cut no word, so the words are the truth's and
 * typing them matches. The blank code 3 is the space. */
static void
test_control_letters (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("control-letters");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, "control-letters");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("control-letters");
  const DcSymbol *symbols;
  const DcLine *doc_lines;
  guint n_symbols, n_lines, n_whitespace_letters = 0;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = g_ptr_array_index (truth, s);

      if (value == NULL)
        continue;
      if (strcmp (value, " ") != 0)
        g_assert_false (dc_document_symbol_is_space (document, s));
      n_whitespace_letters += strcmp (value, " ") != 0
                              && g_unichar_isspace (g_utf8_get_char (symbols[s].pdf_text));
    }
  g_assert_cmpuint (n_whitespace_letters, >=, 4);

  dc_auto_recover (document, key, NULL);
  for (guint s = 0; s < n_symbols; s++)
    if (g_ptr_array_index (truth, s) != NULL)
      g_assert_cmpint (dc_document_symbol_is_space (document, s), ==,
                       strcmp (g_ptr_array_index (truth, s), " ") == 0);
  doc_lines = dc_document_get_lines (document, &n_lines);
  g_assert_cmpuint (n_lines, ==, lines->len);
  for (guint l = 0; l < n_lines; l++)
    {
      g_auto (GStrv) words = g_strsplit (g_ptr_array_index (lines, l), " ", -1);

      g_assert_cmpuint (doc_lines[l].n_tokens, ==, g_strv_length (words));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/font-tables/agl", test_agl);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/font-tables/zero-typing/%s", cases[i].fixture);

      g_test_add_data_func (path, &cases[i], test_zero_typing);
    }
  g_test_add_func ("/font-tables/legacy-not-believed", test_legacy_not_believed);
  g_test_add_func ("/font-tables/control-letters", test_control_letters);
  g_test_add_func ("/font-tables/keeps-known", test_keeps_known);
  g_test_add_func ("/font-tables/correcting-tables-inferred", test_repeating_tables_proposed);
  g_test_add_func ("/font-tables/map-threshold", test_map_threshold);
  g_test_add_func ("/font-tables/renumbered-subset", test_renumbered_subset);
  g_test_add_func ("/font-tables/installed-lookalike", test_installed_lookalike);
  g_test_add_func ("/font-tables/double-byte-pairs", test_double_byte_pairs);

  return g_test_run ();
}
