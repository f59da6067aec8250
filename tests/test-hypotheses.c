/* test-hypotheses.c: layouts judged by the text they make, and runs checked by widths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The automatic pass on the real fixtures: the Roman Uralic page (fonts-uralic's
 * windows-1251 layout, ӈ at ¾) reads with zero typing, the Arial page drawn by glyph
 * number reads through Liberation Sans's widths, and no value applied without the user
 * on any fixture with a ground truth is wrong. Then decipher-cli as a process, as a new
 * user with fonts-uralic installed has it: the installed Roman Uralic is found by the
 * references and must not lend its Latin-1 lie.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

/* Every fixture whose truth gives each glyph's text. */
static const char *const fixtures_with_glyphs[] = {
  "legacy-cyrillic",
  "legacy-names",
  "uralic-legacy",
  "uralic-roman",
  "identity-h",
  "identity-named",
  "ligatures",
  "identity-unicode",
  "mac-order",
  "core-order",
  "width-offsets",
  "installed-font",
  "installed-embedded",
  "installed-lookalike",
  "numeric-names",
  "nenets-space",
  "control-letters",
  "gbk-winansi",
  "duplicate-tounicode",
  "legacy-shared",
  "codepage-uralic",
  "uralic-hyphen",
  "type3",
  "clean",
  "two-columns",
  "rotated",
  "library-recoded",
  "offset-cid",
};

static DcKey *
recover (DcDocument *document)
{
  DcKey *key = dc_key_new (document);

  dc_auto_recover (document, key, NULL);
  return key;
}

/* The Roman Uralic page: the reading of its cmap in Cyrillic beats the Latin-1 soup and
 * every code page, and ӈ, which windows-1251 calls ѕ, is the font's own. */
static void
test_uralic_roman (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("uralic-roman");
  g_autoptr (DcKey) key = recover (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, "uralic-roman");
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_autofree char *truth_text = dc_test_truth_text ("uralic-roman");
  guint n_symbols, n_layout = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  double cer = dc_test_character_error_rate (text, truth_text);

  g_test_message ("uralic-roman: CER %.4f", cer);
  g_assert_cmpfloat (cer, <=, 0.02);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (dc_key_get_level (key, s) != DC_KEY_LEVEL_LAYOUT)
        continue;
      n_layout++;
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
      g_assert_cmpstr (dc_key_get_value (key, s), ==, g_ptr_array_index (truth, s));
      g_assert_true (g_str_has_prefix (dc_key_get_provenance (key, s), "layout: "));
      if (symbols[s].code == 0xBE)
        g_assert_cmpstr (dc_key_get_value (key, s), ==, "ӈ");
    }
  g_assert_cmpuint (n_layout, >=, 40);
}

/* Roman Uralic maps its hyphen from U+002D and U+2010: at 0x2D, the text's hyphen-minus. */
static void
test_uralic_hyphen (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("uralic-hyphen");
  g_autoptr (DcKey) key = recover (document);
  guint n_symbols, n_hyphens = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].code == 0x2D)
      {
        g_assert_cmpstr (dc_key_get_value (key, s), ==, "-");
        g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_LAYOUT);
        n_hyphens++;
      }
  g_assert_cmpuint (n_hyphens, ==, 1);
}

/* Arial drawn by glyph number, not embedded: its Cyrillic is glyph number + 0x1D6, which
 * only Liberation Sans's widths confirm. */
static void
test_width_offsets (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("width-offsets");
  g_autoptr (DcKey) key = recover (document);
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_autofree char *truth_text = dc_test_truth_text ("width-offsets");
  guint n_symbols, n_offset = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  g_assert_cmpstr (text, ==, truth_text);
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].code >= 258)
      {
        g_assert_nonnull (strstr (dc_key_get_provenance (key, s), "glyph number +470"));
        n_offset++;
      }
  g_assert_cmpuint (n_offset, >=, 30);
}

/* No value the automatic pass applies is wrong, on any fixture with a ground truth; and
 * what it proposes is never used as text. */
static void
test_no_wrong_value (void)
{
  guint n_applied = 0;

  for (guint f = 0; f < G_N_ELEMENTS (fixtures_with_glyphs); f++)
    {
      const char *name = fixtures_with_glyphs[f];
      g_autoptr (DcDocument) document = dc_test_load_document (name);
      g_autoptr (DcKey) key = recover (document);
      g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, name);
      guint n_symbols;

      dc_document_get_symbols (document, &n_symbols);
      for (guint s = 0; s < n_symbols; s++)
        {
          DcKeyStatus status = dc_key_get_status (key, s);
          const char *expected = g_ptr_array_index (truth, s);

          if (status == DC_KEY_PROPOSED)
            g_assert_null (dc_key_get_value (key, s));
          if ((status != DC_KEY_INFERRED && status != DC_KEY_FROM_PDF) || expected == NULL)
            continue;
          if (g_strcmp0 (dc_key_get_value (key, s), expected) != 0)
            g_error ("%s: symbol %u (code %u) is “%s”, not “%s” (%s)", name, s,
                     dc_document_get_symbol (document, s)->code, dc_key_get_value (key, s),
                     expected, dc_key_get_provenance (key, s));
          n_applied++;
        }
    }
  g_test_message ("%u applied values, all right", n_applied);
  g_assert_cmpuint (n_applied, >, 500);
}

/* A user with fonts-uralic installed, no font library, the index of installed fonts as
 * decipher-cli builds it on first use: the Roman Uralic page reads right, and no font
 * the trust analysis rejected lends its lying glyph names as proposals. */
static void
test_cli_with_references (void)
{
  const char *cli = g_getenv ("DECIPHER_CLI");
  g_autofree char *dir = g_dir_make_tmp ("decipher-hypotheses-XXXXXX", NULL);
  g_autofree char *conf = g_build_filename (dir, "fonts.conf", NULL);
  g_autofree char *index = g_build_filename (dir, "references.sqlite", NULL);
  g_autofree char *pdf = dc_test_fixture_path ("uralic-roman.pdf");
  g_autofree char *truth_text = dc_test_truth_text ("uralic-roman");
  g_autofree char *contents = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *fontconfig = NULL;
  g_autofree char *references = NULL;
  const char *env[] = { NULL, NULL, "DECIPHER_LIBRARY=", NULL };
  double cer;

  g_assert_nonnull (cli);
  if (!g_file_test ("/usr/share/fonts/truetype/uralic/romau___.ttf", G_FILE_TEST_EXISTS))
    {
      /* A dependency of the tests (build-aux/debian-packages.txt): missing is a failure,
       * not a skip, or this check would silently stop running. */
      g_test_message ("fonts-uralic is not installed: sh build-aux/install-deps.sh");
      g_test_fail ();
      return;
    }
  /* The installed fonts: fonts-uralic and DejaVu, as on a small desktop. */
  contents =
      g_strdup_printf ("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n"
                       "<fontconfig><dir>/usr/share/fonts/truetype/uralic</dir>"
                       "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                       "<cachedir>%s/fc-cache</cachedir></fontconfig>\n",
                       dir);
  g_file_set_contents (conf, contents, -1, &error);
  g_assert_no_error (error);

  fontconfig = g_strconcat ("FONTCONFIG_FILE=", conf, NULL);
  references = g_strconcat ("DECIPHER_REFERENCES=", index, NULL);
  env[0] = fontconfig;
  env[1] = references;
  {
    const char *argv[] = { cli, "text", pdf, NULL };
    DcTestSpawn spawn = { .pipes = DC_TEST_PIPE_OUT | DC_TEST_PIPE_ERR, .env = env };
    DcTestProcess process;

    dc_test_process_spawn (&process, argv, &spawn);
    g_assert_cmpint (dc_test_process_communicate (&process, NULL, 0, &out, NULL), ==, 0);
    g_assert_true (g_utf8_validate (out, -1, NULL));
  }
  /* The index was built, with Roman Uralic in it. */
  g_assert_true (g_file_test (index, G_FILE_TEST_EXISTS));

  cer = dc_test_character_error_rate (out, truth_text);
  g_test_message ("decipher-cli text uralic-roman.pdf: CER %.4f", cer);
  g_assert_cmpfloat (cer, <=, 0.02);
  /* Not one letter of the Latin-1 reading the installed twin's cmap gives first. */
  g_assert_null (strstr (out, "à"));
  g_assert_null (strstr (out, "ý"));

  /* A Schoolbook Uralic page at KOI8-R bytes under WinAnsi names (à for а), its digits
   * named right: the lying names are proposed nowhere in the session. */
  {
    g_autofree char *fixture = dc_test_fixture_path ("codepage-uralic.pdf");
    g_autofree char *symbols = NULL;
    const char *argv[] = { cli, "session", fixture, NULL };
    const char *request = "{\"cmd\":\"symbols\"}\n";
    DcTestSpawn spawn = { .pipes = DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT, .env = env };
    DcTestProcess process;

    dc_test_process_spawn (&process, argv, &spawn);
    g_assert_cmpint (dc_test_process_communicate (&process, request, -1, &symbols, NULL), ==, 0);
    g_assert_nonnull (strstr (symbols, "\"symbols\""));
    g_assert_null (strstr (symbols, "proposal: glyph names"));
  }
  dc_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hypotheses/uralic-roman", test_uralic_roman);
  g_test_add_func ("/hypotheses/uralic-hyphen", test_uralic_hyphen);
  g_test_add_func ("/hypotheses/width-offsets", test_width_offsets);
  g_test_add_func ("/hypotheses/no-wrong-value", test_no_wrong_value);
  g_test_add_func ("/hypotheses/cli-with-references", test_cli_with_references);
  return g_test_run ();
}
