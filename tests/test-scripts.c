/* test-scripts.c: complex scripts read in logical order, on PDFs made by Pango/cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixtures: tests/fixtures/generate-scripts.py (script-*.pdf, with a -stripped twin
 * that has no ToUnicode and no /ActualText).
 */

#include "config.h"

#include <string.h>

#include "dc-reorder-private.h"
#include "dc-reorder-units-private.h"
#include "dc-test-fixtures.h"
#include "dc-unicode-private.h"

static char *
nfc (const char *text)
{
  return g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
}

/* The text export takes each symbol's text once (dc-text-cache.c) and copies plain lines
 * from it; a line on its own asks each glyph. Both must give the same text. */
static void
assert_export_is_its_lines (DcDocument *document, const char *text, DcValueFunc value,
                            gpointer user_data)
{
  g_autoptr (GString) lines = g_string_new (NULL);

  for (guint p = 0; p < dc_document_get_n_pages (document); p++)
    {
      guint first, n;

      if (p > 0)
        g_string_append_c (lines, '\f');
      dc_document_get_page_lines (document, p, &first, &n);
      for (guint l = first; l < first + n; l++)
        {
          g_autofree char *line = dc_export_line_text (document, l, value, user_data);

          g_string_append (lines, line);
          g_string_append_c (lines, '\n');
        }
    }
  g_assert_cmpstr (text, ==, lines->str);
}

/* The document's lines, as `decipher-cli text` prints them, against the truth. */
static void
assert_lines_equal_truth (DcDocument *document, DcValueFunc value, gpointer user_data,
                          const char *truth_name)
{
  g_autoptr (GPtrArray) truth = dc_test_truth_lines (truth_name);
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, value, user_data);
  g_auto (GStrv) pages = g_strsplit (text, "\f", -1);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  assert_export_is_its_lines (document, text, value, user_data);

  for (guint p = 0; pages[p] != NULL; p++)
    {
      g_auto (GStrv) page_lines = g_strsplit (pages[p], "\n", -1);

      for (guint l = 0; page_lines[l] != NULL; l++)
        if (page_lines[l][0] != '\0')
          g_ptr_array_add (lines, nfc (page_lines[l]));
    }

  for (guint l = 0; l < MIN (lines->len, truth->len); l++)
    {
      g_autofree char *expected = nfc (g_ptr_array_index (truth, l));

      g_assert_cmpstr (g_ptr_array_index (lines, l), ==, expected);
    }
  g_assert_cmpuint (lines->len, ==, truth->len);
}

static void
test_trusted (gconstpointer data)
{
  const char *script = data;
  g_autofree char *name = g_strconcat ("script-", script, NULL);
  g_autoptr (DcDocument) document = dc_test_load_document (name);

  /* Cluster-wise ToUnicode entries, glyphs mapped to U+FFFD inside /ActualText spans,
   * positional forms and vertical alternates are how shaping producers work: no lie. */
  for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
    {
      DcFont *font = dc_document_get_font (document, f);

      if (!dc_font_is_trusted (font))
        g_error ("%s: font %u judged lying: %s", name, f, dc_font_get_trust_reason (font));
    }
  assert_lines_equal_truth (document, dc_document_pdf_value, document, name);
}

/* What a glyph of the trusted twin stands for on its own: the /ActualText around a lone
 * use of it, else its map's text (cairo's map is cluster-wise: it gives the glyph ா the
 * text ோ of the cluster it first drew it in). */
static const char *
own_text (DcDocument *document, guint symbol)
{
  const char *text = dc_document_get_symbol (document, symbol)->pdf_text;
  g_autofree char *text_nfd = g_utf8_normalize (text, -1, G_NORMALIZE_NFD);
  const DcGlyph *glyphs;
  guint n_glyphs;

  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  for (guint g = 0; g < n_glyphs; g++)
    {
      guint first, n;
      const char *span;

      g_autofree char *span_nfd = NULL;

      if (glyphs[g].symbol != symbol
          || (span = dc_document_get_actual_text (document, g, &first, &n)) == NULL || n != 1)
        continue;
      /* A part of the map's text (ா of ோ); a lone span saying more than the map is a
       * cluster drawn partly outside it (ো around া, its ে drawn before). */
      span_nfd = g_utf8_normalize (span, -1, G_NORMALIZE_NFD);
      if (strcmp (span_nfd, text_nfd) != 0 && strstr (text_nfd, span_nfd) != NULL)
        return span;
    }
  return text;
}

/* The stripped twin decoded glyph by glyph with the values a user would type for each
 * glyph of the trusted twin: no /ActualText helps, so pre-base vowel signs, split vowels, reph and
 * right-to-left runs must be put in logical order by the engine itself. */
static void
test_stripped_reordered (gconstpointer data)
{
  const char *script = data;
  g_autofree char *name = g_strconcat ("script-", script, NULL);
  g_autofree char *stripped_name = g_strconcat (name, "-stripped", NULL);
  g_autoptr (DcDocument) trusted = dc_test_load_document (name);
  g_autoptr (DcDocument) stripped = dc_test_load_document (stripped_name);
  g_autoptr (DcKey) key = dc_key_new (stripped);
  const DcSymbol *symbols;
  guint n_symbols;

  g_assert_cmpuint (dc_document_get_n_actual_texts (stripped), ==, 0);
  symbols = dc_document_get_symbols (stripped, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *font_name = dc_font_get_name (dc_document_get_font (stripped, symbols[s].font));
      g_autoptr (GError) error = NULL;
      gboolean found = FALSE;

      if (!dc_document_symbol_needs_decoding (stripped, s))
        continue;
      /* The same font (by name: cairo's subset tag) and code in the trusted twin. */
      for (guint f = 0; f < dc_document_get_n_fonts (trusted) && !found; f++)
        {
          guint twin;

          if (g_strcmp0 (dc_font_get_name (dc_document_get_font (trusted, f)), font_name) != 0
              || !dc_document_lookup_symbol (trusted, f, symbols[s].code, &twin))
            continue;
          dc_key_set (key, s, own_text (trusted, twin), DC_KEY_CONFIRMED, "test", &error);
          g_assert_no_error (error);
          found = TRUE;
        }
      g_assert_true (found);
    }
  assert_lines_equal_truth (stripped, dc_key_value_func, key, name);
}

/* Fixtures whose glyphs include combining marks of their own (й drawn as и and a breve),
 * ligatures, CJK and several scripts on a page, exported with the truth's values and with
 * what the PDF alone says: the text export is its lines, each asked glyph by glyph. */
static void
test_export_is_its_lines (void)
{
  static const char *fixtures[] = { "legacy-cyrillic", "identity-h", "identity-unicode",
                                    "offset-cid",      "ligatures",  "legacy-many-scripts" };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr (DcDocument) document = dc_test_load_document (fixtures[i]);
      g_autoptr (DcKey) key = dc_key_new (document);
      g_autofree char *known = NULL;
      g_autofree char *pdf = NULL;

      g_test_message ("%s", fixtures[i]);
      dc_test_key_fill_from_truth (key, fixtures[i]);
      g_assert_true (dc_value_reads_by_symbol (dc_key_value_func, key));
      known = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
      assert_export_is_its_lines (document, known, dc_key_value_func, key);
      pdf = dc_export_document (document, DC_EXPORT_TEXT, dc_document_pdf_value, document);
      assert_export_is_its_lines (document, pdf, dc_document_pdf_value, document);
    }
}

/* A linguist types each line of a stripped page in logical order, the line clicked as
 * a cue: every pre-base vowel, reph, conjunct (व्य, স্থ + ा), nukta form (ज़ + ा),
 * consonant-vowel ligature (हू, ᠬᠦ), pre-base vowel drawn in one glyph with its
 * consonant (টি), split vowel (ொ), Tamil's visible pulli, right-to-left word and lam-alef
 * (drawn as the lam's glyph and a zero-width alef) is aligned with its glyphs, nothing
 * contradicts, and the text comes out whole. The lines go from the last one up: typed
 * first, Hindi's गेहूँ alone cannot tell हू + ँ from ह + ूँ, and the conflict that follows
 * is what the linguist would then review. */
static void
type_lines (const char *name)
{
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (GPtrArray) truth = dc_test_truth_lines (name);

  for (guint l = truth->len; l-- > 0;)
    {
      const char *text = g_ptr_array_index (truth, l);
      g_autoptr (DcMatchResult) result = NULL;
      g_autoptr (GError) error = NULL;

      result = dc_matcher_type (matcher, text, (int) l, -1, &error);
      g_assert_no_error (error);
      if (result->kind != DC_MATCH_ASSIGNED && result->kind != DC_MATCH_KNOWN)
        g_error ("typing line %u: %s", l, result->reason);
    }
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 0);
  assert_lines_equal_truth (document, dc_key_value_func, key, name);
}

static void
test_typing (gconstpointer data)
{
  g_autofree char *name = g_strdup_printf ("script-%s-stripped", (const char *) data);

  type_lines (name);
}

/* Arabic set without shaping (legacy-arabic.pdf), each letter a glyph with an advance:
 * the alef of لا and لأ is drawn left of its lam, not after it as in a ligature or a
 * zero-width alef, and ال reversed is the same two glyphs the other way round. Read in
 * the lam-alef's order, لا gave its lam's glyph the alef, and the line's ال then
 * conflicted. */
static void
test_typing_unshaped_lam_alef (void)
{
  type_lines ("legacy-arabic");
}

/* Types each word at its place (line and token, as a click gives) on a fresh key: each
 * must be taken, with no conflict. */
typedef struct
{
  const char *text;
  int line, token;
} TypedWord;

static void
type_words (const char *fixture, const TypedWord *words, guint n_words)
{
  g_autoptr (DcDocument) document = dc_test_load_document (fixture);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);

  for (guint i = 0; i < n_words; i++)
    {
      g_autoptr (DcMatchResult) result = NULL;
      g_autoptr (GError) error = NULL;

      result = dc_matcher_type (matcher, words[i].text, words[i].line, words[i].token, &error);
      g_assert_no_error (error);
      if (result->kind != DC_MATCH_ASSIGNED && result->kind != DC_MATCH_KNOWN)
        g_error ("typing “%s”: %s", words[i].text, result->reason);
    }
  g_assert_cmpuint (dc_matcher_get_n_conflicts (matcher), ==, 0);
}

/* Word by word, as suggest asks: বিদ্যালয় typed first must give the দ glyph দ and the
 * য-phala's glyph ্য (its below-base form spells the virama), not দ্ and য — or every
 * other দ of the page reads দ্ and নদীর can no longer be typed. */
static void
test_typing_post_base_form (void)
{
  static const TypedWord words[] = { { "বিদ্যালয়", 0, 4 }, { "নদীর", 2, 1 }, { "আমাদের", 0, 0 } };

  type_words ("script-bengali-stripped", words, G_N_ELEMENTS (words));
}

/* Noto Sans Sinhala draws සිං as සි and ං. Typed first, සිංහල must give the second glyph
 * the anusvara alone, not ිං after a glyph of ස — or ලංකාව, where the anusvara follows
 * ල, cannot be typed. */
static void
test_typing_anusvara_apart (void)
{
  static const TypedWord words[] = { { "සිංහල", 0, 0 }, { "ලංකාව", 0, 2 } };

  type_words ("script-sinhala-stripped", words, G_N_ELEMENTS (words));
}

/* फ़ै typed first must give the nukta to फ़'s glyph, not the ै's (फ + ़ै), or हैः
 * cannot be typed after it. */
static void
test_typing_nukta (void)
{
  static const TypedWord words[] = { { "फ़ैसला", 0, 4 }, { "हैः", 3, 3 } };

  type_words ("script-hindi-reph-stripped", words, G_N_ELEMENTS (words));
}

/* बच्चों is three glyphs in Noto Sans Devanagari: ब, the conjunct च्च and ों. Typed
 * first, the last must give ों, not चों after a half form च् — Devanagari fonts hardly
 * ever draw a consonant and its spacing vowel sign as one glyph — or किताबों, where the same
 * glyph follows ब, reads किताबचों and cannot be typed. */
static void
test_typing_conjunct_before_vowel_sign (void)
{
  static const TypedWord words[] = { { "बच्चों", 1, 0 }, { "किताबों", 4, 5 } };

  type_words ("script-hindi-stripped", words, G_N_ELEMENTS (words));
}

/* Noto Sans Devanagari draws a consonant with the RA below it as one glyph (त्र) and
 * न before a consonant as a half form: स्वतन्त्रता is स् व त न् त्र त ा. Typed first, the
 * half form must give न्, not न्त with ्र as a glyph of its own, or शान्ति (श ा ि न् त),
 * where the same half form stands before त, cannot be typed. */
static void
test_typing_below_base_ra (void)
{
  static const TypedWord words[] = {
    { "स्वतन्त्रता", 0, 3 },
    { "शान्ति", 1, 0 },
    { "मन्त्री", 0, 6 },
    { "यन्त्र", 3, 1 },
  };

  type_words ("script-hindi-conjuncts-stripped", words, G_N_ELEMENTS (words));
}

/* قال is drawn ل ا ق: its ا and ل are two glyphs in every font, as alef joins no letter
 * after it. Typed at a line without it, it was read from the two glyphs of لا (or of
 * the ال of a word) as the ligature لا plus ق, two wrong values learned; it fits nowhere
 * there. The line that has it still takes it. */
static void
test_typing_alef_before_lam (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("script-arabic-lamalef-stripped");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (DcMatchResult) elsewhere = NULL;
  g_autoptr (DcMatchResult) there = NULL;
  g_autoptr (GError) error = NULL;
  guint n_before, n_after, n_glyphs;
  gboolean read[3] = { FALSE };

  dc_key_count_decoded (key, &n_before, &n_glyphs);
  elsewhere = dc_matcher_type (matcher, "قال", 2, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (elsewhere->kind, ==, DC_MATCH_NO_MATCH);
  dc_key_count_decoded (key, &n_after, &n_glyphs);
  g_assert_cmpuint (n_after, ==, n_before);

  there = dc_matcher_type (matcher, "قال", 1, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (there->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (there->learned->len, ==, 3);
  for (guint i = 0; i < there->learned->len; i++)
    {
      const char *text = g_array_index (there->learned, DcLearned, i).text;

      if (g_str_equal (text, "ق"))
        read[0] = TRUE;
      else if (g_str_equal (text, "ا"))
        read[1] = TRUE;
      else if (g_str_equal (text, "ل"))
        read[2] = TRUE;
    }
  g_assert_true (read[0] && read[1] && read[2]);
}

/* Noto Sans Tamil draws ி with three glyphs, one per width of consonant: typed first,
 * பயிரிடுகின்றனர் must still give each its ி and டு one glyph, not யி as one glyph and
 * ு as one of its own (which shifts every letter after it), or ஊரில் cannot be typed. */
static void
test_typing_vowel_sign_variants (void)
{
  static const TypedWord words[] = { { "பயிரிடுகின்றனர்.", 5, 0 }, { "ஊரில்", 0, 1 } };

  type_words ("script-tamil-stripped", words, G_N_ELEMENTS (words));
}

static JsonArray *
json_lines (DcDocument *document, JsonParser *parser)
{
  g_autofree char *json = dc_export_document (document, DC_EXPORT_JSON, dc_document_pdf_value,
                                              document);
  g_autoptr (GError) error = NULL;
  JsonObject *page;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  page = json_array_get_object_element (json_object_get_array_member (json_node_get_object (
                                                                          json_parser_get_root (
                                                                              parser)),
                                                                      "pages"),
                                        0);
  return json_object_get_array_member (page, "lines");
}

static void
test_line_metadata (void)
{
  static const struct
  {
    const char *script;
    const char *iso15924;
    const char *direction;
    const char *writing_mode;
  } cases[] = {
    { "hindi", "Deva", "ltr", "horizontal-tb" },
    { "bengali", "Beng", "ltr", "horizontal-tb" },
    { "tamil", "Taml", "ltr", "horizontal-tb" },
    { "arabic", "Arab", "rtl", "horizontal-tb" },
    { "hebrew", "Hebr", "rtl", "horizontal-tb" },
    { "mongolian", "Mong", "ltr", "horizontal-tb" },
    { "mongolian-vertical", "Mong", "ttb", "vertical-lr" },
    { "japanese-vertical", NULL, "ttb", "vertical-rl" },
    { "japanese-identity-v", NULL, "ttb", "vertical-rl" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *name = g_strconcat ("script-", cases[c].script, NULL);
      g_autoptr (DcDocument) document = dc_test_load_document (name);
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonArray *lines = json_lines (document, parser);

      g_assert_cmpuint (json_array_get_length (lines), >, 0);
      for (guint l = 0; l < json_array_get_length (lines); l++)
        {
          JsonObject *line = json_array_get_object_element (lines, l);
          JsonArray *scripts = json_object_get_array_member (line, "scripts");
          JsonArray *tokens = json_object_get_array_member (line, "tokens");
          g_autofree char *joined = NULL;
          g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
          g_auto (GStrv) words = NULL;

          /* Japanese lines mix Hira, Hani and Kana, in any proportion. */
          if (cases[c].iso15924 != NULL)
            g_assert_cmpstr (json_array_get_string_element (scripts, 0), ==, cases[c].iso15924);
          else
            g_assert_cmpuint (json_array_get_length (scripts), >, 0);
          g_assert_cmpstr (json_object_get_string_member (line, "direction"), ==,
                           cases[c].direction);
          g_assert_cmpstr (json_object_get_string_member (line, "writing_mode"), ==,
                           cases[c].writing_mode);
          /* Tokens in logical order: joined, they are the line's text. */
          for (guint t = 0; t < json_array_get_length (tokens); t++)
            g_strv_builder_add (builder, json_array_get_string_element (tokens, t));
          words = g_strv_builder_end (builder);
          joined = g_strjoinv (" ", words);
          g_assert_cmpstr (joined, ==, json_object_get_string_member (line, "text"));
        }
    }
}

/* Vertical writing, with and without the PDF's text: the glyphs of a WMode 1
 * (Identity-V) font and cairo's upright glyphs stacked by `Td` stand in columns read right
 * to left, Mongolian's turned lines in columns read left to right, one line per column,
 * glyphs top to bottom. */
static void
test_vertical_columns (void)
{
  static const struct
  {
    const char *name;
    int writing_mode; /* of its font */
    gboolean right_to_left;
  } cases[] = {
    { "script-japanese-identity-v", 1, TRUE }, { "script-japanese-identity-v-stripped", 1, TRUE },
    { "script-japanese-vertical", 0, TRUE },   { "script-japanese-vertical-stripped", 0, TRUE },
    { "script-mongolian-vertical", 0, FALSE }, { "script-mongolian-vertical-stripped", 0, FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (DcDocument) document = dc_test_load_document (cases[c].name);
      g_autoptr (GPtrArray) truth = dc_test_truth_lines (cases[c].name);
      const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
      const guint32 *order = dc_document_get_reading_order (document, NULL);
      const DcLine *lines;
      guint n_lines;

      g_test_message ("%s", cases[c].name);
      g_assert_cmpint (dc_font_get_writing_mode (dc_document_get_font (document, 0)), ==,
                       cases[c].writing_mode);
      lines = dc_document_get_lines (document, &n_lines);
      g_assert_cmpuint (n_lines, ==, truth->len);
      for (guint l = 0; l < n_lines; l++)
        {
          g_assert_true (_dc_line_is_vertical (document, l));
          /* A column is taller than wide, and the next one stands beside it (Mongolian's
           * boxes, ascent to descent, overlap a little). */
          g_assert_cmpfloat (lines[l].y1 - lines[l].y0, >, lines[l].x1 - lines[l].x0);
          if (l > 0 && cases[c].right_to_left)
            g_assert_cmpfloat (lines[l].x1 + lines[l].x0, <, lines[l - 1].x0 + lines[l - 1].x1);
          else if (l > 0)
            g_assert_cmpfloat (lines[l].x1 + lines[l].x0, >, lines[l - 1].x0 + lines[l - 1].x1);
          for (guint k = lines[l].first_glyph + 1; k < lines[l].first_glyph + lines[l].n_glyphs;
               k++)
            g_assert_cmpfloat (glyphs[order[k]].y, >, glyphs[order[k - 1]].y);
        }
    }
}

/* Whether a line's text may hold a right-to-left character: U+0590–U+08FF, U+FB1D–U+FEFF,
 * the marks U+200F, U+202B, U+202E, U+2067, or past U+FFFF. */
static gboolean
may_hold_rtl (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFEFF) || c == 0x200F || c == 0x202B
          || c == 0x202E || c == 0x2067 || c > 0xFFFF)
        return TRUE;
    }
  return FALSE;
}

/* The JSON export takes a token's text from its line's (dc-export-json-blocks.c,
 * block_token_texts()) where the line holds no right-to-left character: there the line
 * gives each of its tokens, in order, as the token alone gives it, Indic reordering,
 * marks and /ActualText included. */
static void
test_token_texts_in_lines (void)
{
  g_autofree char *dir_path = dc_test_fixture_path ("");
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint compared = 0, right_to_left = 0;

  g_assert_nonnull (dir);
  /* Every script fixture, trusted and stripped, and text in Latin and Cyrillic. */
  for (const char *file; (file = g_dir_read_name (dir)) != NULL;)
    if (g_str_has_prefix (file, "script-") && g_str_has_suffix (file, ".pdf"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - 4));
  g_ptr_array_add (names, g_strdup ("legacy-cyrillic"));
  g_ptr_array_add (names, g_strdup ("igt"));
  for (guint n = 0; n < names->len; n++)
    {
      g_autoptr (DcDocument) document = dc_test_load_document (g_ptr_array_index (names, n));
      const DcLine *lines;
      guint n_lines;

      lines = dc_document_get_lines (document, &n_lines);
      for (guint l = 0; l < n_lines; l++)
        {
          g_autoptr (GString) text = g_string_new (NULL);
          g_autoptr (GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);

          _dc_reorder_line (document, l, dc_document_pdf_value, document, text, tokens);
          if (may_hold_rtl (text->str))
            {
              right_to_left++;
              continue;
            }
          g_assert_cmpuint (tokens->len, ==, lines[l].n_tokens);
          for (guint t = 0; t < lines[l].n_tokens; t++)
            {
              g_autoptr (GString) alone = g_string_new (NULL);

              _dc_reorder_token (document, lines[l].first_token + t, dc_document_pdf_value,
                                 document, alone);
              g_assert_cmpstr (g_ptr_array_index (tokens, t), ==, alone->str);
              compared++;
            }
        }
    }
  g_assert_cmpuint (compared, >, 0);
  g_assert_cmpuint (right_to_left, >, 0);
}

/* A token alone, as the JSON export worked it out before its line gave it
 * (block_token_texts()): from its glyphs' texts if plain, else reordered by itself. */
static char *
token_alone (DcDocument *document, guint token, const DcTextCache *cache)
{
  GString *alone = g_string_new (NULL);

  if (!_dc_reorder_cached_tokens (document, token, 1, cache, alone))
    _dc_reorder_tokens_cached (document, token, 1, cache, dc_document_pdf_value, document, alone,
                               NULL);
  return g_string_free (alone, FALSE);
}

/* _dc_reorder_tokens_cached_texts() gives a line's text and tokens as
 * _dc_reorder_tokens_cached() does, and on a line that may read right to left each token
 * as it reads alone: worked out from the line's units, each token's bidi reordering
 * answered from those of tokens of the same bidi types before it. Every script fixture,
 * trusted and stripped, twice over, so that the second time every token's pattern was
 * met before. */
static void
test_token_texts_alone (void)
{
  g_autofree char *dir_path = dc_test_fixture_path ("");
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint compared = 0, lines_alone = 0;

  g_assert_nonnull (dir);
  for (const char *file; (file = g_dir_read_name (dir)) != NULL;)
    if (g_str_has_prefix (file, "script-") && g_str_has_suffix (file, ".pdf"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - 4));
  for (guint round = 0; round < 2; round++)
    for (guint n = 0; n < names->len; n++)
      {
        g_autoptr (DcDocument) document = dc_test_load_document (g_ptr_array_index (names, n));
        DcTextCache *cache = _dc_text_cache_new (document, dc_document_pdf_value, document);
        const DcLine *lines;
        guint n_lines;

        g_assert_nonnull (cache);
        lines = dc_document_get_lines (document, &n_lines);
        for (guint l = 0; l < n_lines; l++)
          {
            g_autoptr (GString) text = g_string_new (NULL);
            g_autoptr (GString) expected = g_string_new (NULL);
            g_autoptr (GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
            g_autoptr (GString) token_texts = g_string_new (NULL);
            g_autoptr (GString) alone = g_string_new (NULL);
            DcReorderTexts texts = { token_texts, 0, alone, FALSE };
            const char *token;

            _dc_reorder_tokens_cached (document, lines[l].first_token, lines[l].n_tokens, cache,
                                       dc_document_pdf_value, document, expected, tokens);
            _dc_reorder_tokens_cached_texts (document, lines[l].first_token, lines[l].n_tokens,
                                             cache, dc_document_pdf_value, document, text, &texts);
            g_assert_cmpstr (text->str, ==, expected->str);
            g_assert_cmpuint (texts.n_tokens, ==, tokens->len);
            token = token_texts->str;
            for (guint t = 0; t < tokens->len; t++, token += strlen (token) + 1)
              g_assert_cmpstr (token, ==, g_ptr_array_index (tokens, t));
            if (!texts.alone_made)
              continue;
            lines_alone++;
            token = alone->str;
            for (guint t = 0; t < lines[l].n_tokens; t++, token += strlen (token) + 1)
              {
                g_autofree char *by_itself = token_alone (document, lines[l].first_token + t,
                                                          cache);

                g_assert_cmpstr (token, ==, by_itself);
                compared++;
              }
            g_assert_true (token == alone->str + alone->len);
          }
        _dc_text_cache_free (cache);
      }
  g_assert_cmpuint (lines_alone, >, 0);
  g_assert_cmpuint (compared, >, 0);
}

/* The exports' inline decoding reads every byte sequence as GLib does: each lead byte
 * with each second byte and third bytes on both sides of every edge. */
static void
test_utf8_get_char (void)
{
  static const guchar thirds[] = { 0x00, 0x41, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xe0, 0xff };
  guint compared = 0;

  for (guint lead = 1; lead < 256; lead++)
    for (guint second = 0; second < 256; second++)
      for (guint t = 0; t < G_N_ELEMENTS (thirds); t++)
        {
          char bytes[5] = { (char) lead, (char) second, (char) thirds[t], (char) 0x80, '\0' };

          g_assert_cmpuint (_dc_utf8_get_char (bytes), ==, g_utf8_get_char (bytes));
          compared++;
        }
  g_assert_cmpuint (compared, ==, 255 * 256 * G_N_ELEMENTS (thirds));
}

int
main (int argc, char *argv[])
{
  static const char *scripts[] = { "hindi",
                                   "bengali",
                                   "tamil",
                                   "arabic",
                                   "hebrew",
                                   "mongolian",
                                   "mongolian-vertical",
                                   "thai",
                                   "armenian",
                                   "cherokee",
                                   "myanmar",
                                   "oriya",
                                   "ipa",
                                   "yoruba",
                                   "navajo",
                                   "tibetan",
                                   "javanese",
                                   "japanese-vertical",
                                   "japanese-identity-v" };
  static const char *typed_only[] = { "khmer", "lao", "kannada", "telugu", "sinhala" };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (scripts); i++)
    {
      g_autofree char *trusted = g_strdup_printf ("/scripts/trusted/%s", scripts[i]);
      g_autofree char *stripped = g_strdup_printf ("/scripts/stripped-reordered/%s", scripts[i]);

      g_test_add_data_func (trusted, scripts[i], test_trusted);
      g_test_add_data_func (stripped, scripts[i], test_stripped_reordered);
    }
  /* Khmer's coeng RO drawn before its consonant and its split vowel ៀ; Lao's SARA AM;
   * Kannada's and Telugu's vowel signs drawn before a conjunct's subscripts; Sinhala's
   * split vowels (ෝ drawn ෙ, base, ා්). Some of their glyphs (the part of ៀ after the
   * consonant, Lao's nikhahit and tone mark in one, subscripts drawn only in clusters)
   * have no text but the cluster's /ActualText: no value of their own for the stripped
   * twin. */
  for (guint i = 0; i < G_N_ELEMENTS (typed_only); i++)
    {
      g_autofree char *trusted = g_strdup_printf ("/scripts/trusted/%s", typed_only[i]);
      g_autofree char *typing = g_strdup_printf ("/scripts/typing/%s", typed_only[i]);

      g_test_add_data_func (trusted, typed_only[i], test_trusted);
      g_test_add_data_func (typing, typed_only[i], test_typing);
    }
  /* Phonetic letters in a subset of their own, beside the one cairo draws the basic
   * Latin letters from: no shifted map. */
  g_test_add_data_func ("/scripts/trusted/ipa-dejavu", "ipa-dejavu", test_trusted);
  g_test_add_func ("/scripts/line-metadata", test_line_metadata);
  g_test_add_func ("/scripts/utf8-get-char", test_utf8_get_char);
  g_test_add_func ("/scripts/export-is-its-lines", test_export_is_its_lines);
  g_test_add_func ("/scripts/token-texts-in-lines", test_token_texts_in_lines);
  g_test_add_func ("/scripts/token-texts-alone", test_token_texts_alone);
  g_test_add_func ("/scripts/vertical/columns", test_vertical_columns);
  g_test_add_func ("/scripts/typing/post-base-form", test_typing_post_base_form);
  g_test_add_func ("/scripts/typing/nukta", test_typing_nukta);
  g_test_add_func ("/scripts/typing/anusvara-apart", test_typing_anusvara_apart);
  g_test_add_func ("/scripts/typing/vowel-sign-variants", test_typing_vowel_sign_variants);
  g_test_add_func ("/scripts/typing/conjunct-before-vowel-sign",
                   test_typing_conjunct_before_vowel_sign);
  g_test_add_func ("/scripts/typing/alef-before-lam", test_typing_alef_before_lam);
  g_test_add_func ("/scripts/typing/below-base-ra", test_typing_below_base_ra);
  /* Half forms before a consonant with the RA below it (न्त्र), read back in order. */
  g_test_add_data_func ("/scripts/typing/hindi-conjuncts", "hindi-conjuncts", test_typing);
  for (guint i = 0; i < G_N_ELEMENTS (scripts); i++)
    {
      g_autofree char *typing = g_strdup_printf ("/scripts/typing/%s", scripts[i]);

      g_test_add_data_func (typing, scripts[i], test_typing);
    }
  /* The vowel separator is typed, has no glyph, and is learned with the letter after. */
  g_test_add_data_func ("/scripts/typing/mongolian-mvs", "mongolian-mvs", test_typing);
  /* A reph drawn in one glyph with the vowel sign after its cluster (र्ो in सर्वो). */
  g_test_add_data_func ("/scripts/typing/hindi-reph", "hindi-reph", test_typing);
  /* ঁ drawn before the া it follows (তাঁ), and a zero-width joiner's khanda ta
   * (উত্‍পল).
   */
  g_test_add_data_func ("/scripts/typing/bengali-marks", "bengali-marks", test_typing);
  /* The vowel separator the PDF's map leaves out, put back by shaping the words again
   * with the installed Noto Sans Mongolian (fonts-noto-core). */
  g_test_add_data_func ("/scripts/trusted/mongolian-mvs", "mongolian-mvs", test_trusted);
  /* The alef of a lam-alef drawn right after the space before its word (والسلام). */
  g_test_add_data_func ("/scripts/trusted/arabic-lamalef", "arabic-lamalef", test_trusted);
  g_test_add_data_func ("/scripts/typing/arabic-lamalef", "arabic-lamalef", test_typing);
  g_test_add_func ("/scripts/typing/arabic-unshaped", test_typing_unshaped_lam_alef);

  return g_test_run ();
}
