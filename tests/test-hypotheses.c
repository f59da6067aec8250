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
#include <math.h>
#include <string.h>

#include "dc-ngram-private.h"
#include "dc-proposals-private.h"
#include "dc-readings-private.h"
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

/* Readings are scored word by distinct word (dc-readings.c, _dc_ngram_score_word()):
 * that must be what the language model says of the whole text each makes,
 * _dc_ngram_score(), to the last rounding. */
static guint
check_readings_by_words (DcReadings *readings, guint n_readings, guint *n_repeating)
{
  guint n_languages = _dc_ngram_n_languages ();
  guint n_checked = 0;

  for (guint r = 0; r < n_readings; r++)
    {
      g_autofree double *totals = g_new0 (double, MAX (1, n_languages));
      g_autofree gunichar *text = NULL;
      g_autoptr (GHashTable) words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      const char *language;
      double best = -G_MAXDOUBLE, score, of_language = 0;
      gsize length;
      guint n_words = 0;

      text = _dc_readings_get_text (readings, r, &length);
      _dc_ngram_score (text, length, totals);
      score = _dc_readings_get_score (readings, r);
      language = _dc_readings_get_language (readings, r);
      for (guint l = 0; l < n_languages; l++)
        {
          best = MAX (best, totals[l]);
          if (strcmp (_dc_ngram_language_name (l), language) == 0)
            of_language = totals[l];
        }
      g_assert_cmpfloat (fabs (score - best), <=, 1e-9 * MAX (1, fabs (best)));
      g_assert_cmpfloat (fabs (score - of_language), <=, 1e-9 * MAX (1, fabs (best)));
      /* The text repeats words, or grouping them would be no test. */
      for (gsize i = 0; i < length;)
        {
          gsize start = i;
          g_autofree char *word = NULL;

          while (i < length && text[i] != ' ')
            i++;
          if (i > start)
            {
              word = g_ucs4_to_utf8 (text + start, (glong) (i - start), NULL, NULL, NULL);
              g_hash_table_add (words, g_steal_pointer (&word));
              n_words++;
            }
          i++;
        }
      *n_repeating += g_hash_table_size (words) < n_words;
      n_checked++;
    }
  return n_checked;
}

/* Some of the known values stand as unknown characters, as dc-references.c has it. */
static gboolean
trust_even (DcKey *key, guint symbol)
{
  return symbol % 2 == 0;
}

/* Returns: how many readings were added (some read alike) */
static guint
add_test_readings (DcReadings *readings, DcDocument *document)
{
  guint n_open = _dc_readings_get_n_open (readings), n = 0;
  g_autofree gunichar *values = g_new0 (gunichar, MAX (1, n_open));

  n = MAX (n, _dc_readings_add (readings, "none", values) + 1);
  /* One symbol given a value, the others none: dc-references.c's question. */
  if (n_open > 0)
    {
      values[0] = g_utf8_get_char (
          dc_document_get_symbol (document, _dc_readings_get_open_symbol (readings, 0))->pdf_text);
      n = MAX (n, _dc_readings_add (readings, "one", values) + 1);
    }
  for (guint o = 0; o < n_open; o++)
    {
      const DcSymbol *symbol = dc_document_get_symbol (document,
                                                       _dc_readings_get_open_symbol (readings, o));

      values[o] = g_utf8_get_char (symbol->pdf_text);
    }
  n = MAX (n, _dc_readings_add (readings, "the PDF's text", values) + 1);
  /* A space is no word break when a reading gives it. */
  if (n_open > 0)
    {
      values[0] = ' ';
      n = MAX (n, _dc_readings_add (readings, "a space", values) + 1);
    }
  for (guint i = 0; i < _dc_proposals_n_code_pages (); i++)
    {
      const char *name = NULL;
      const gunichar *table = _dc_proposals_code_page (i, &name);

      for (guint o = 0; table != NULL && o < n_open; o++)
        {
          const DcSymbol *symbol = dc_document_get_symbol (document,
                                                           _dc_readings_get_open_symbol (readings,
                                                                                         o));

          values[o] = symbol->code_len == 1 && symbol->code < 256 ? table[symbol->code] : 0;
        }
      if (table != NULL)
        n = MAX (n, _dc_readings_add (readings, name, values) + 1);
    }
  return n;
}

static void
test_readings_by_words (void)
{
  const char *const names[] = { "legacy-cyrillic",     "uralic-roman",       "codepage-uralic",
                                "legacy-many-scripts", "reportlab-cyrillic", "multiscript" };
  guint n_checked = 0, n_repeating = 0;

  if (_dc_ngram_n_languages () == 0)
    {
      g_test_skip ("no language models (libexttextcat's data)");
      return;
    }
  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autoptr (DcDocument) document = dc_test_load_document (names[f]);
      g_autoptr (DcKey) fresh = dc_key_new (document);
      g_autoptr (DcKey) recovered = recover (document);

      for (guint font = 0; font < dc_document_get_n_fonts (document); font++)
        {
          g_autoptr (DcReadings) all = _dc_readings_new (fresh, font);
          g_autoptr (DcReadings) trusted = _dc_readings_new_trusted (recovered, font, trust_even);

          guint n_all = add_test_readings (all, document);
          guint n_trusted = add_test_readings (trusted, document);

          n_checked += check_readings_by_words (all, n_all, &n_repeating);
          n_checked += check_readings_by_words (trusted, n_trusted, &n_repeating);
        }
    }
  g_test_message ("%u readings scored alike by words and by text, %u repeating words", n_checked,
                  n_repeating);
  g_assert_cmpuint (n_repeating, >=, 20);
}

/* Whether @a and @b read every reading added to both alike, to the bit. */
static void
assert_read_alike (DcReadings *a, DcReadings *b, DcDocument *document)
{
  guint n_a, n_b;

  g_assert_cmpuint (_dc_readings_get_n_open (a), ==, _dc_readings_get_n_open (b));
  g_assert_cmpuint (_dc_readings_count_known_letters (a), ==, _dc_readings_count_known_letters (b));
  n_a = add_test_readings (a, document);
  n_b = add_test_readings (b, document);
  g_assert_cmpuint (n_a, ==, n_b);
  for (guint r = 0; r < n_a; r++)
    {
      gsize length_a, length_b;
      g_autofree gunichar *text_a = _dc_readings_get_text (a, r, &length_a);
      g_autofree gunichar *text_b = _dc_readings_get_text (b, r, &length_b);
      double score_a = _dc_readings_get_score (a, r), score_b = _dc_readings_get_score (b, r);

      g_assert_cmpuint (length_a, ==, length_b);
      g_assert_cmpmem (text_a, sizeof (gunichar) * length_a, text_b, sizeof (gunichar) * length_b);
      g_assert_cmpmem (&score_a, sizeof score_a, &score_b, sizeof score_b);
    }
}

/* Gives the first open symbols of @readings (every other one, at most @max) a letter, and
 * takes back the first known value of @font that is no space. */
static void
change_font (DcKey *key, DcReadings *readings, guint font, guint max)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  dc_key_begin_change (key, "test");
  for (guint o = 0; o < _dc_readings_get_n_open (readings) && o < 2 * max; o += 2)
    g_assert_true (dc_key_set (key, _dc_readings_get_open_symbol (readings, o), "ж",
                               DC_KEY_INFERRED, "test", NULL));
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font && dc_key_get_value (key, s) != NULL
        && !dc_document_symbol_is_space (document, s)
        && !g_unichar_isspace (g_utf8_get_char (dc_key_get_value (key, s))))
      {
        dc_key_take_back (key, s);
        break;
      }
  dc_key_end_change (key);
}

/* Readings made again after the key changed take the text of the ones made before
 * (_dc_readings_take_text(), as dc-references-apply.c does between its runs) rather than
 * read the glyphs again, and must read exactly as new ones that read the glyphs; where a
 * symbol now stands as a word break, they must not. */
static void
test_readings_take_text (void)
{
  const char *const names[] = { "legacy-cyrillic",     "uralic-roman",       "codepage-uralic",
                                "legacy-many-scripts", "reportlab-cyrillic", "multiscript" };
  guint n_taken = 0;

  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autoptr (DcDocument) document = dc_test_load_document (names[f]);
      g_autoptr (DcKey) key = recover (document);

      for (guint font = 0; font < dc_document_get_n_fonts (document); font++)
        {
          g_autoptr (DcReadings) before = _dc_readings_new_trusted (key, font, trust_even);
          g_autoptr (DcReadings) taken = NULL;
          g_autoptr (DcReadings) fresh = NULL;
          g_autoptr (DcReadings) spaced = NULL;
          g_autoptr (DcReadings) spaced_fresh = NULL;

          if (_dc_readings_get_n_open (before) == 0)
            continue;
          /* Not read yet: nothing to take. */
          taken = _dc_readings_new_trusted (key, font, trust_even);
          g_assert_false (_dc_readings_take_text (taken, before));
          g_clear_pointer (&taken, _dc_readings_free);
          _dc_readings_count_known_letters (before);

          change_font (key, before, font, 3);
          taken = _dc_readings_new_trusted (key, font, trust_even);
          g_assert_true (_dc_readings_take_text (taken, before));
          g_assert_true (_dc_readings_is_read (taken));
          fresh = _dc_readings_new_trusted (key, font, trust_even);
          assert_read_alike (taken, fresh, document);
          n_taken++;

          if (_dc_readings_get_n_open (taken) == 0)
            continue;
          /* A value that is white space breaks the words where its glyphs stand. */
          dc_key_begin_change (key, "test");
          g_assert_true (dc_key_set (key, _dc_readings_get_open_symbol (taken, 0), " ",
                                     DC_KEY_INFERRED, "test", NULL));
          dc_key_end_change (key);
          spaced = _dc_readings_new_trusted (key, font, NULL);
          g_assert_false (_dc_readings_take_text (spaced, taken));
          spaced_fresh = _dc_readings_new_trusted (key, font, NULL);
          assert_read_alike (spaced, spaced_fresh, document);
        }
    }
  g_test_message ("%u fonts' texts taken", n_taken);
  g_assert_cmpuint (n_taken, >=, 3);
}

/* What the fixtures' words may lack: a "_" inside a word (no n-gram alone, as a word's
 * edges are not), digits (no cost alone), letters of several scripts in one word, a
 * letter no language lists, a word too long for the scorer's buffers on its stack. */
static void
test_ngram_word_edges (void)
{
  const char *words[] = { "a_b", "x12", "Ѳѳ¾q", "ӈ", "_", "Mixedβετα", NULL };
  guint n_languages = _dc_ngram_n_languages ();
  g_autofree double *whole = g_new0 (double, MAX (1, n_languages));
  g_autofree double *by_words = g_new0 (double, MAX (1, n_languages));
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) longest = g_string_new (NULL);
  g_autofree gunichar *ucs4 = NULL;
  glong length;

  for (guint i = 0; i < 40; i++)
    g_string_append (longest, "дλ9");
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (words[i], -1, &length);

      g_string_append_printf (text, "%s  %s ", words[i], words[i]);
      _dc_ngram_score_word (word, length, 2, by_words);
    }
  g_string_append_printf (text, " %s", longest->str);
  ucs4 = g_utf8_to_ucs4_fast (longest->str, -1, &length);
  _dc_ngram_score_word (ucs4, length, 1, by_words);
  g_clear_pointer (&ucs4, g_free);
  ucs4 = g_utf8_to_ucs4_fast (text->str, -1, &length);
  _dc_ngram_score (ucs4, length, whole);
  for (guint l = 0; l < n_languages; l++)
    g_assert_cmpfloat (fabs (by_words[l] - whole[l]), <=, 1e-9 * MAX (1, fabs (whole[l])));
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
  g_test_add_func ("/hypotheses/readings-by-words", test_readings_by_words);
  g_test_add_func ("/hypotheses/ngram-word-edges", test_ngram_word_edges);
  g_test_add_func ("/hypotheses/readings-take-text", test_readings_take_text);
  return g_test_run ();
}
