/* test-proposals.c: layouts that explain what was learned propose the rest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "dc-proposals-private.h"
#include "dc-test-fixtures.h"

/* What each symbol really is, from the generator's ground truth. */
static GHashTable *
truth_by_symbol (DcDocument *document, JsonObject *truth)
{
  GHashTable *values = g_hash_table_new (NULL, NULL);
  JsonArray *pages = json_object_get_array_member (truth, "pages");
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint line_index = 0;

  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *truth_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                            p),
                                                             "lines");

      for (guint l = 0; l < json_array_get_length (truth_lines); l++, line_index++)
        {
          JsonArray *truth_glyphs =
              json_object_get_array_member (json_array_get_object_element (truth_lines, l),
                                            "glyphs");

          for (guint k = 0; k < json_array_get_length (truth_glyphs); k++)
            g_hash_table_insert (values,
                                 GUINT_TO_POINTER (
                                     glyphs[order[lines[line_index].first_glyph + k]].symbol),
                                 (gpointer) json_object_get_string_member (
                                     json_array_get_object_element (truth_glyphs, k), "text"));
        }
    }
  return values;
}

static void
count_proposals (DcKey *key, GHashTable *truth, guint *right, guint *wrong)
{
  guint n_symbols;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  *right = *wrong = 0;
  for (guint s = 0; s < n_symbols; s++)
    {
      if (dc_key_get_status (key, s) != DC_KEY_PROPOSED)
        continue;
      /* A proposal is shown, never used as the text. */
      g_assert_null (dc_key_get_value (key, s));
      if (g_strcmp0 (dc_key_peek_value (key, s), g_hash_table_lookup (truth, GUINT_TO_POINTER (s)))
          == 0)
        (*right)++;
      else
        {
          g_test_message ("wrong: code %u proposed “%s”, is “%s”",
                          dc_document_get_symbol (dc_key_get_document (key), s)->code,
                          dc_key_peek_value (key, s),
                          (char *) g_hash_table_lookup (truth, GUINT_TO_POINTER (s)));
          (*wrong)++;
        }
    }
}

/* A legacy font laid out like code page 1251: once a few lines are typed, the code page
 * explains them all and proposes nearly every remaining letter correctly. */
static void
test_code_page (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *truth = dc_test_load_truth ("legacy-cyrillic", &parser);
  g_autoptr (GHashTable) values = truth_by_symbol (document, truth);
  JsonArray *lines = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (truth, "pages"), 0), "lines");
  guint right, wrong, decoded_before, decoded_after;

  g_assert_cmpuint (dc_proposals_update (key), ==, 0); /* nothing learned, nothing to go on */

  for (guint l = 1; l <= 2; l++)
    {
      g_autoptr (DcMatchResult) result =
          dc_matcher_type (matcher,
                           json_object_get_string_member (json_array_get_object_element (lines, l),
                                                          "text"),
                           l, -1, NULL);
      g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
    }
  dc_key_count_decoded (key, &decoded_before, NULL);
  g_assert_cmpuint (dc_proposals_update (key), >, 10);
  dc_key_count_decoded (key, &decoded_after, NULL);
  g_assert_cmpuint (decoded_after, ==, decoded_before); /* proposals decode nothing */

  count_proposals (key, values, &right, &wrong);
  g_test_message ("code page proposals: %u right, %u wrong", right, wrong);
  g_assert_cmpuint (right, >, 10);
  g_assert_cmpuint (wrong * 5, <, right);
  {
    guint n_symbols, from_cp1251 = 0;

    dc_document_get_symbols (document, &n_symbols);
    for (guint s = 0; s < n_symbols; s++)
      if (dc_key_get_status (key, s) == DC_KEY_PROPOSED)
        from_cp1251 += g_str_equal (dc_key_get_provenance (key, s), "proposal: code page CP1251");
    g_assert_cmpuint (from_cp1251, ==, right + wrong);
  }
}

/* The code page tables, made when the engine was built, are what this system's iconv makes
 * of each byte now, as g_convert() gives it: one character, not a control character, or
 * none (0). A code page this iconv lacks has no table at all. */
static void
test_code_pages_as_iconv (void)
{
  guint n_tables = 0;

  g_assert_cmpuint (_dc_proposals_n_code_pages (), ==, 16);
  for (guint i = 0; i < _dc_proposals_n_code_pages (); i++)
    {
      const char *name = NULL;
      const gunichar *table = _dc_proposals_code_page (i, &name);
      GIConv converter;

      g_assert_nonnull (name);
      converter = g_iconv_open ("UTF-8", name);
      g_assert_true ((table == NULL) == (converter == (GIConv) -1));
      if (converter != (GIConv) -1)
        g_iconv_close (converter);
      if (table == NULL)
        continue;
      n_tables++;
      for (guint byte = 0; byte < 256; byte++)
        {
          char in = (char) byte;
          g_autofree char *utf8 = g_convert (&in, 1, "UTF-8", name, NULL, NULL, NULL);
          gunichar expected = 0;

          if (utf8 != NULL && g_utf8_strlen (utf8, -1) == 1
              && !g_unichar_iscntrl (g_utf8_get_char (utf8)))
            expected = g_utf8_get_char (utf8);
          g_assert_cmphex (table[byte], ==, expected);
        }
    }
  /* glibc has every one of them: a build without would propose no code page at all. */
  g_assert_cmpuint (n_tables, ==, 16);
  /* Two bytes whose characters the proposals' tests lean on. */
  g_assert_cmphex (_dc_proposals_code_page (0, NULL)[0xD2], ==, 0x0422); /* CP1251 Т */
  g_assert_cmphex (_dc_proposals_code_page (15, NULL)[0x8A], ==, 0x00E4); /* MACINTOSH ä */
}

/* Teaches every lowercase letter, the capitals in @agreeing, and home-made letters at
 * the places of the capitals in @home_made; returns what is proposed for Т (0xD2). */
static char *
proposal_for_te (const char *const *agreeing, const char *const *home_made)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *truth = dc_test_load_truth ("legacy-cyrillic", &parser);
  g_autoptr (GHashTable) values = truth_by_symbol (document, truth);
  static const char *const own_letters[] = { "ӈ", "ӄ", "ӽ" };
  guint n_symbols, home_made_count = 0, te = G_MAXUINT;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = g_hash_table_lookup (values, GUINT_TO_POINTER (s));

      if (value == NULL)
        continue;
      if (symbols[s].code == 0xD2)
        te = s;
      else if (symbols[s].code >= 0xE0 || g_strv_contains (agreeing, value))
        g_assert_true (dc_key_set (key, s, value, DC_KEY_CONFIRMED, "test", NULL));
      else if (g_strv_contains (home_made, value))
        g_assert_true (
            dc_key_set (key, s, own_letters[home_made_count++], DC_KEY_CONFIRMED, "test", NULL));
    }
  g_assert_cmpuint (te, !=, G_MAXUINT);
  g_assert_cmpuint (home_made_count, ==, g_strv_length ((char **) home_made));
  dc_proposals_update (key);
  return dc_key_get_status (key, te) == DC_KEY_PROPOSED ? g_strdup (dc_key_peek_value (key, te))
                                                        : NULL;
}

/* Home-made fonts put their own letters over a few places of a code page's block and
 * keep the rest: the block is still believed while what was learned there mostly
 * agrees with the code page, and not once it mostly disagrees. */
static void
test_home_made_letters_in_block (void)
{
  static const char *const five[] = { "В", "Д", "К", "М", "О", NULL };
  static const char *const one[] = { "В", NULL };
  static const char *const two[] = { "Р", "С", NULL };
  g_autofree char *mostly_agreeing = proposal_for_te (five, two);
  g_autofree char *mostly_disagreeing = proposal_for_te (one, two);

  g_assert_cmpstr (mostly_agreeing, ==, "Т");
  g_assert_null (mostly_disagreeing);
}

/* A CID font whose program names its glyphs: proposals before anything is typed. */
static void
test_glyph_names (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-named");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *truth = dc_test_load_truth ("identity-named", &parser);
  g_autoptr (GHashTable) values = truth_by_symbol (document, truth);
  guint right, wrong, n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  g_assert_cmpuint (dc_proposals_update (key), ==, n_symbols);
  count_proposals (key, values, &right, &wrong);
  g_assert_cmpuint (right, ==, n_symbols);
  g_assert_cmpuint (wrong, ==, 0);
}

/* Names that say nothing (the unnamed subset) propose nothing. */
static void
test_nothing_to_go_on (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-h");
  g_autoptr (DcKey) key = dc_key_new (document);

  g_assert_cmpuint (dc_proposals_update (key), ==, 0);
}

/* What a reviewer is shown beside a proposed letter: the letters it is taken for. */
static void
test_lookalikes (void)
{
  g_autofree char *kha = dc_value_dup_lookalikes ("х");
  g_autofree char *en = dc_value_dup_lookalikes ("ӊ");
  g_autofree char *apostrophe = dc_value_dup_lookalikes ("ʼ");

  g_assert_cmpstr (kha, ==, "ӿҳӽ");
  g_assert_nonnull (strstr (en, "н"));
  g_assert_null (strstr (en, "ӊ"));
  g_assert_nonnull (strstr (apostrophe, "’"));
  g_assert_true (dc_value_is_lookalike ("х"));
  g_assert_null (dc_value_dup_lookalikes ("а"));
  g_assert_null (dc_value_dup_lookalikes ("хх"));
  g_assert_null (dc_value_dup_lookalikes (NULL));
  g_assert_false (dc_value_is_lookalike ("а"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proposals/lookalikes", test_lookalikes);
  g_test_add_func ("/proposals/code-pages-as-iconv", test_code_pages_as_iconv);
  g_test_add_func ("/proposals/code-page", test_code_page);
  g_test_add_func ("/proposals/home-made-letters", test_home_made_letters_in_block);
  g_test_add_func ("/proposals/glyph-names", test_glyph_names);
  g_test_add_func ("/proposals/nothing-to-go-on", test_nothing_to_go_on);

  return g_test_run ();
}
