/* test-ngram-words.c: a word looked up once and added again adds what scoring it again
 * adds, to the last bit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readings (dc-readings.c) keep the words a reading leaves as they are
 * (DcNgramWords) and add them again for every candidate instead of scoring them again;
 * a reading is chosen by comparing sums, so the sums must be the same bits whichever
 * way each word was added, and in whatever order the words come.
 */

#include "config.h"

#include <string.h>

#include "dc-ngram-private.h"

#ifdef HAVE_EXTTEXTCAT

/* Words of one script, of several, of none, with digits, a "_", letters no language
 * lists, an unknown character and one longer than the look-up's stack buffers. */
static const char *const words[] = {
  "the",
  "Quick",
  "мя",
  "ӈэва",
  "größere",
  "λόγος",
  "x12",
  "a_b",
  "¾",
  "ab\xef\xbf\xbd"
  "cd",
  "ѳө",
  "латинa",
  "ᴫл",
  "1999",
  "Ωmega-мега",
  "i",
  "pneumonoultramicroscopicsilicovolcanoconiosisandsomemorelettersbeyondsixtyfour",
};

/* Totals that are not round: sums are compared where their last bits differ. */
static void
start_totals (double *totals, guint n)
{
  for (guint l = 0; l < n; l++)
    totals[l] = -1234.5678 / (l + 3);
}

static void
test_same_bits (void)
{
  guint n_languages = _dc_ngram_n_languages ();
  g_autoptr (DcNgramWords) kept = _dc_ngram_words_new ();
  g_autofree double *scored = g_new (double, MAX (1, n_languages));
  g_autofree double *added = g_new (double, MAX (1, n_languages));
  g_autofree guint *index = g_new (guint, G_N_ELEMENTS (words));
  const double weights[] = { 1, 3, -3, 17, -1 };

  /* libexttextcat-data is a dependency of the tests: every language scores. */
  g_assert_cmpuint (n_languages, >=, 10);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      glong length;
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (words[i], -1, &length);

      index[i] = _dc_ngram_words_add (kept, word, (gsize) length);
    }
  start_totals (scored, n_languages);
  start_totals (added, n_languages);
  /* Every word at every weight, interleaved, as a reading adds them. */
  for (guint w = 0; w < G_N_ELEMENTS (weights); w++)
    for (guint i = 0; i < G_N_ELEMENTS (words); i++)
      {
        glong length;
        g_autofree gunichar *word = g_utf8_to_ucs4_fast (words[i], -1, &length);

        _dc_ngram_score_word (word, (gsize) length, weights[w], scored);
        _dc_ngram_words_score (kept, index[i], weights[w], added);
        g_assert_cmpmem (scored, sizeof (double) * n_languages, added,
                         sizeof (double) * n_languages);
      }
  /* The words did move the sums. */
  for (guint l = 0; l < n_languages; l++)
    g_assert_cmpfloat (scored[l], !=, -1234.5678 / (l + 3));
}

/* A word interned again is the one kept, not looked up again; every word is told from
 * every other, also once the table has grown; and an interned word adds what scoring it
 * adds, to the last bit. */
static void
test_intern (void)
{
  guint n_languages = _dc_ngram_n_languages ();
  g_autoptr (DcNgramWords) kept = _dc_ngram_words_new ();
  g_autofree double *scored = g_new (double, MAX (1, n_languages));
  g_autofree double *added = g_new (double, MAX (1, n_languages));
  g_autofree guint *index = g_new (guint, G_N_ELEMENTS (words));
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  /* Enough words that the table (1024 slots, at most half full) grows twice. */
  const guint n_many = 3000;
  g_autofree guint *many = g_new (guint, n_many);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      glong length;
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (words[i], -1, &length);

      index[i] = _dc_ngram_words_intern (kept, word, (gsize) length);
      g_assert_false (g_hash_table_contains (seen, GUINT_TO_POINTER (index[i] + 1)));
      g_hash_table_add (seen, GUINT_TO_POINTER (index[i] + 1));
    }
  for (guint i = 0; i < n_many; i++)
    {
      /* Two letters and a number: words that differ in one character, or only in
       * length ("ab1" and "ab12"). */
      g_autofree char *text = g_strdup_printf ("%c%c%u", 'a' + i % 26, 'a' + i / 26 % 26, i);
      glong length;
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (text, -1, &length);

      many[i] = _dc_ngram_words_intern (kept, word, (gsize) length);
      g_assert_false (g_hash_table_contains (seen, GUINT_TO_POINTER (many[i] + 1)));
      g_hash_table_add (seen, GUINT_TO_POINTER (many[i] + 1));
    }
  start_totals (scored, n_languages);
  start_totals (added, n_languages);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      glong length;
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (words[i], -1, &length);

      g_assert_cmpuint (_dc_ngram_words_intern (kept, word, (gsize) length), ==, index[i]);
      _dc_ngram_score_word (word, (gsize) length, 7, scored);
      _dc_ngram_words_score (kept, index[i], 7, added);
      g_assert_cmpmem (scored, sizeof (double) * n_languages, added, sizeof (double) * n_languages);
    }
  for (guint i = 0; i < n_many; i++)
    {
      g_autofree char *text = g_strdup_printf ("%c%c%u", 'a' + i % 26, 'a' + i / 26 % 26, i);
      glong length;
      g_autofree gunichar *word = g_utf8_to_ucs4_fast (text, -1, &length);

      g_assert_cmpuint (_dc_ngram_words_intern (kept, word, (gsize) length), ==, many[i]);
    }
}

/* Most of libexttextcat's lists give their n-grams in order, without counts (dc-ngram.c):
 * a text of a script only those lists have reads best in a model of that script, and a
 * Tamil one in Tamil's, the only one. Left out, every such text read best in some Latin
 * model, to which all its letters were foreign alike. Sentences written for this test. */
static void
test_ranked_models (void)
{
  static const struct
  {
    const char *text;
    GUnicodeScript script;
    const char *language; /* or NULL: any of the script */
  } texts[] = {
    { "நாங்கள் காலையில் பள்ளிக்கு நடந்து சென்றோம் மழை பெய்தது", G_UNICODE_SCRIPT_TAMIL,
      "ta--utf8" },
    { "हम सुबह बाज़ार गए और ताज़े फल खरीदे", G_UNICODE_SCRIPT_DEVANAGARI, NULL },
    { "ذهبنا إلى السوق في الصباح واشترينا فاكهة طازجة", G_UNICODE_SCRIPT_ARABIC, NULL },
    { "ჩვენ დილით ბაზარში წავედით და ხილი ვიყიდეთ", G_UNICODE_SCRIPT_GEORGIAN, "ka--utf8" },
  };
  guint n_languages = _dc_ngram_n_languages ();
  g_autofree double *totals = g_new (double, MAX (1, n_languages));

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      glong length;
      g_autofree gunichar *text = g_utf8_to_ucs4_fast (texts[i].text, -1, &length);
      guint best = 0;

      memset (totals, 0, sizeof (double) * MAX (1, n_languages));
      _dc_ngram_score (text, (gsize) length, totals);
      for (guint l = 1; l < n_languages; l++)
        if (totals[l] > totals[best])
          best = l;
      g_test_message ("%s: %s", texts[i].text, _dc_ngram_language_name (best));
      g_assert_cmpint (_dc_ngram_language_script (best), ==, texts[i].script);
      if (texts[i].language != NULL)
        g_assert_cmpstr (_dc_ngram_language_name (best), ==, texts[i].language);
    }
}

#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#ifdef HAVE_EXTTEXTCAT
  g_test_add_func ("/ngram-words/same-bits", test_same_bits);
  g_test_add_func ("/ngram-words/intern", test_intern);
  g_test_add_func ("/ngram-words/ranked-models", test_ranked_models);
#endif
  return g_test_run ();
}
