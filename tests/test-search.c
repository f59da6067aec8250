/* test-search.c: finding words in the recovered text, and the glyphs that show them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "dc-test-fixtures.h"

/* Non-overlapping occurrences of @needle in each line of the text export, as a reader
 * scanning the exported text would count them. */
static guint
count_in_text (DcDocument *document, DcValueFunc value, gpointer user_data, const char *needle)
{
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, value, user_data);
  g_autofree char *folded_needle = dc_search_fold (needle);
  g_auto (GStrv) lines = g_strsplit_set (text, "\n\f", -1);
  guint count = 0;

  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_autofree char *line = dc_search_fold (lines[l]);

      for (const char *p = strstr (line, folded_needle); p != NULL;
           p = strstr (p + strlen (folded_needle), folded_needle))
        count++;
    }
  return count;
}

/* The text the glyphs of match @m show, without spaces, folded. */
static char *
match_text (DcSearch *search, DcDocument *document, DcValueFunc value, gpointer user_data,
            guint m)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  GString *out = g_string_new (NULL);
  g_autofree char *raw = NULL;
  const guint32 *match;
  guint n, page;

  match = dc_search_get_match (search, m, &n, &page);
  for (guint i = 0; i < n; i++)
    {
      const char *text = value (glyphs[match[i]].symbol, user_data);

      g_assert_cmpuint (glyphs[match[i]].page, ==, page);
      g_string_append (out, text != NULL ? text : "\xEF\xBF\xBD");
    }
  raw = g_string_free (out, FALSE);
  return dc_search_fold (raw);
}

static DcSearch *
search_all (DcDocument *document, const char *needle, DcValueFunc value, gpointer user_data)
{
  DcSearch *search = dc_search_new (document, needle);

  g_assert_true (dc_search_step (search, G_MAXUINT, value, user_data));
  g_assert_true (dc_search_is_done (search));
  return search;
}

static void
test_latin (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  const char *needles[] = { "library", "THE", "reading room", "são  paulo", "Zürich", "o’clock" };

  for (guint i = 0; i < G_N_ELEMENTS (needles); i++)
    {
      g_autoptr (DcSearch) search = search_all (document, needles[i], dc_document_pdf_value,
                                                document);
      g_autofree char *folded = dc_search_fold (needles[i]);
      g_auto (GStrv) words = g_strsplit (folded, " ", -1);
      g_autofree char *joined = g_strjoinv ("", words);
      guint expected = count_in_text (document, dc_document_pdf_value, document, needles[i]);

      g_test_message ("%s: %u matches", needles[i], dc_search_get_n_matches (search));
      g_assert_cmpuint (expected, >, 0);
      g_assert_cmpuint (dc_search_get_n_matches (search), ==, expected);
      /* Each match shows the words it is in, and they hold what was searched. */
      for (guint m = 0; m < dc_search_get_n_matches (search); m++)
        {
          g_autofree char *shown = match_text (search, document, dc_document_pdf_value, document,
                                               m);

          g_assert_nonnull (strstr (shown, joined));
        }
    }
}

static int
compare_uint32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* A slice at a time finds what one pass finds, in reading order. */
static void
check_in_slices (const char *fixture, const char *text)
{
  g_autoptr (DcDocument) document = dc_test_load_document (fixture);
  g_autoptr (DcSearch) whole = search_all (document, text, dc_document_pdf_value, document);
  g_autoptr (DcSearch) sliced = dc_search_new (document, text);
  guint n_steps = 0, last_page = 0;
  const guint32 *a, *b;
  guint n_a, n_b;

  /* Asked for the glyphs after every slice, as a window does to point them out, and
   * each time they are all the matches' glyphs so far, sorted, whether the slice ended
   * inside a page or at its end. */
  while (!dc_search_step (sliced, 1, dc_document_pdf_value, document))
    {
      g_autoptr (GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint32));
      const guint32 *got;
      guint n;

      for (guint m = 0; m < dc_search_get_n_matches (sliced); m++)
        {
          guint n_match;
          const guint32 *match = dc_search_get_match (sliced, m, &n_match, NULL);

          g_array_append_vals (expected, match, n_match);
        }
      g_array_sort (expected, compare_uint32);
      got = dc_search_get_glyphs (sliced, &n);
      g_assert_cmpmem (got, n * sizeof (guint32), expected->data,
                       expected->len * sizeof (guint32));
      n_steps++;
    }
  g_assert_cmpuint (n_steps, >, 2);
  g_assert_cmpuint (dc_search_get_n_matches (sliced), ==, dc_search_get_n_matches (whole));
  a = dc_search_get_glyphs (whole, &n_a);
  b = dc_search_get_glyphs (sliced, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  g_assert_cmpmem (a, n_a * sizeof (guint32), b, n_b * sizeof (guint32));
  for (guint i = 1; i < n_a; i++)
    g_assert_cmpuint (a[i - 1], <=, a[i]);
  for (guint m = 0; m < dc_search_get_n_matches (whole); m++)
    {
      guint n, page;

      dc_search_get_match (whole, m, &n, &page);
      g_assert_cmpuint (page, >=, last_page);
      last_page = page;
    }
}

static void
test_in_slices (void)
{
  check_in_slices ("clean", "the");
  /* Drawn right to left, a word's glyphs come in reading order backwards: the glyphs to
   * point out are sorted, not merely gathered. */
  check_in_slices ("script-hebrew", "ה");
}

/* Right-to-left: the words are searched in the order they are read, not drawn. */
static void
test_right_to_left (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("script-hebrew");
  g_autoptr (DcSearch) search = search_all (document, "ספרייה קטנה", dc_document_pdf_value,
                                            document);
  g_autoptr (DcSearch) reversed = search_all (document, "קטנה ספרייה", dc_document_pdf_value,
                                              document);
  g_autofree char *shown = NULL;
  guint n;

  g_assert_cmpuint (dc_search_get_n_matches (search), ==, 1);
  g_assert_cmpuint (dc_search_get_n_matches (reversed), ==, 0);
  dc_search_get_match (search, 0, &n, NULL);
  g_assert_cmpuint (n, ==, strlen ("ספרייהקטנה") / 2); /* two bytes a letter, a glyph each */
  shown = match_text (search, document, dc_document_pdf_value, document, 0);
  /* Drawn right to left: the glyphs in drawing order spell the words backwards. */
  g_assert_nonnull (strstr (shown, "הנטק"));
}

/* What is searched is the recovered text: nothing while the font lies, every occurrence
 * once the key knows the letters. */
static void
test_recovered (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcSearch) before = search_all (document, "река", dc_key_value_func, key);
  g_autoptr (DcSearch) after = NULL;

  g_assert_cmpuint (dc_search_get_n_matches (before), ==, 0);
  dc_test_key_fill_from_truth (key, "legacy-cyrillic");
  after = search_all (document, "Река", dc_key_value_func, key);
  g_assert_cmpuint (dc_search_get_n_matches (after), >, 0);
  g_assert_cmpuint (dc_search_get_n_matches (after), ==,
                    count_in_text (document, dc_key_value_func, key, "река"));
}

static void
test_empty_and_wrap (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  g_autoptr (DcSearch) empty = dc_search_new (document, " \t\n");
  g_autoptr (DcSearch) search = search_all (document, "the", dc_document_pdf_value, document);
  guint n = dc_search_get_n_matches (search), first_page, last_page, n_glyphs;

  g_assert_true (dc_search_is_empty (empty));
  g_assert_true (dc_search_step (empty, 10, dc_document_pdf_value, document));
  g_assert_cmpuint (dc_search_get_n_matches (empty), ==, 0);
  g_assert_cmpuint (dc_search_find_from (empty, 0, FALSE), ==, G_MAXUINT);

  dc_search_get_match (search, 0, &n_glyphs, &first_page);
  dc_search_get_match (search, n - 1, &n_glyphs, &last_page);
  g_assert_cmpuint (dc_search_find_from (search, 0, FALSE), ==, 0);
  /* Past the last page, "next" wraps to the first match and "previous" is the last. */
  g_assert_cmpuint (dc_search_find_from (search, last_page + 1, FALSE), ==, 0);
  g_assert_cmpuint (dc_search_find_from (search, last_page + 1, TRUE), ==, n - 1);
  g_assert_cmpuint (dc_search_find_from (search, first_page, TRUE), ==, n - 1);
}

/* Copying a selection on the page: the words it touches, whole, in logical order. */
static void
test_run_text (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  g_autoptr (DcDocument) hebrew = dc_test_load_document ("script-hebrew");
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  g_autofree char *line0 = dc_export_line_text (document, 0, dc_document_pdf_value, document);
  g_autofree char *run = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *hebrew_line = NULL;
  g_autofree char *hebrew_run = NULL;
  const DcToken *second_word = &tokens[lines[1].first_token + 1];
  const DcLine *h;

  /* From the middle of the first word to the middle of line 2's second word. */
  run = dc_export_run_text (document, lines[0].first_glyph + 1,
                            second_word->first_glyph + 1, dc_document_pdf_value, document);
  expected = g_strconcat (line0, "\n", "up long", NULL);
  g_assert_cmpstr (run, ==, expected);
  /* Either way round. */
  g_clear_pointer (&run, g_free);
  run = dc_export_run_text (document, second_word->first_glyph + 1, lines[0].first_glyph + 1,
                            dc_document_pdf_value, document);
  g_assert_cmpstr (run, ==, expected);

  /* A glyph found on the page is found in the text again, and one could start there. */
  {
    const guint32 *order = dc_document_get_reading_order (document, NULL);
    guint position, line;

    g_assert_true (dc_document_locate_glyph (document, order[second_word->first_glyph + 1],
                                             &position, &line));
    g_assert_cmpuint (position, ==, second_word->first_glyph + 1);
    g_assert_cmpuint (line, ==, 1);
  }

  /* A right-to-left line comes out as it is read. */
  h = &dc_document_get_lines (hebrew, NULL)[0];
  hebrew_line = dc_export_line_text (hebrew, 0, dc_document_pdf_value, hebrew);
  hebrew_run = dc_export_run_text (hebrew, h->first_glyph, h->first_glyph + h->n_glyphs - 1,
                                   dc_document_pdf_value, hebrew);
  g_assert_cmpstr (hebrew_run, ==, hebrew_line);
  g_assert_true (g_str_has_prefix (hebrew_run, "בכפר"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/search/latin", test_latin);
  g_test_add_func ("/search/in-slices", test_in_slices);
  g_test_add_func ("/search/right-to-left", test_right_to_left);
  g_test_add_func ("/search/recovered", test_recovered);
  g_test_add_func ("/search/empty-and-wrap", test_empty_and_wrap);
  g_test_add_func ("/search/run-text", test_run_text);
  return g_test_run ();
}
