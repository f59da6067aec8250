/* test-layout.c: Freki blocks, tab-scores and respaced columns on the IGT fixture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * igt.json (written by fixtures/generate_layout.py) lists the first line of every block in
 * reading order and, per interlinear example, its language words and glosses, which the
 * page sets in columns.
 */

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "dc-export-private.h"
#include "dc-test-fixtures.h"

typedef struct
{
  DcDocument *document;
  JsonParser *parser;
  JsonObject *layout;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  JsonObject *truth;

  f->document = dc_test_load_document ("igt");
  truth = dc_test_load_truth ("igt", &f->parser);
  f->layout = json_object_get_object_member (truth, "layout");
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->document);
  g_clear_object (&f->parser);
}

static char *
joined (JsonArray *words)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (words); i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, json_array_get_string_element (words, i));
    }
  return g_string_free (out, FALSE);
}

/* One block per paragraph, heading and example, in reading order: the left column's
 * paragraphs before the right column's. */
static void
test_blocks (Fixture *f, gconstpointer data)
{
  JsonArray *expected = json_object_get_array_member (f->layout, "blocks");
  const DcBlock *blocks;
  guint n_blocks;

  blocks = dc_document_get_blocks (f->document, &n_blocks);
  g_assert_cmpuint (n_blocks, ==, json_array_get_length (expected));
  for (guint b = 0; b < n_blocks; b++)
    {
      g_autofree char *first = dc_export_line_text (f->document, blocks[b].first_line,
                                                    dc_document_pdf_value, f->document);

      g_assert_cmpstr (first, ==, json_array_get_string_element (expected, b));
      g_assert_cmpuint (blocks[b].index, ==, b);
      g_assert_cmpuint (blocks[b].page, ==, 0);
      /* The label is the path in the cut tree, and no two blocks share one. */
      g_assert_true (strspn (blocks[b].label, "tblr") == strlen (blocks[b].label));
      for (guint c = 0; c < b; c++)
        g_assert_cmpstr (blocks[c].label, !=, blocks[b].label);
      if (b > 0)
        g_assert_cmpuint (blocks[b].first_line, ==,
                          blocks[b - 1].first_line + blocks[b - 1].n_lines);
    }
  /* Two columns: the left one's blocks hang under an 'l', the right one's under an 'r'. */
  g_assert_nonnull (strchr (blocks[n_blocks - 1].label, 'r'));
  g_assert_nonnull (strchr (blocks[n_blocks - 3].label, 'l'));
}

static gboolean
line_is (DcDocument *document, guint line, const char *text)
{
  g_autofree char *got = dc_export_line_text (document, line, dc_document_pdf_value, document);

  return g_strcmp0 (got, text) == 0;
}

/* Freki's interlinear scores: a gloss line scores at least 0.6 against its language line
 * (the example's number left of the gloss does not count), so the two are one group;
 * prose lines score less; a block's first line has no score. */
static void
test_tabscores (Fixture *f, gconstpointer data)
{
  JsonArray *igt = json_object_get_array_member (f->layout, "igt");
  const DcBlock *blocks;
  guint n_blocks, n_gloss = 0, n_prose = 0;

  blocks = dc_document_get_blocks (f->document, &n_blocks);
  for (guint b = 0; b < n_blocks; b++)
    {
      g_autofree double *scores = dc_export_block_tabscores (f->document, &blocks[b],
                                                             dc_document_pdf_value, f->document);
      gboolean example = FALSE;

      g_assert_true (isnan (scores[0]));
      for (guint e = 0; e < json_array_get_length (igt); e++)
        {
          JsonObject *ex = json_array_get_object_element (igt, e);
          g_autofree char *gloss = joined (json_object_get_array_member (ex, "gloss"));

          for (guint i = 0; i < blocks[b].n_lines; i++)
            if (line_is (f->document, blocks[b].first_line + i, gloss))
              {
                /* Every gloss under its word: all the columns are shared. */
                g_assert_cmpfloat (scores[i], ==, 1.0);
                g_assert_cmpuint (i, >, 0);
                /* The translation below shares fewer. */
                if (i + 1 < blocks[b].n_lines)
                  g_assert_cmpfloat (scores[i + 1], <, 0.6);
                example = TRUE;
                n_gloss++;
              }
        }
      if (!example && blocks[b].n_lines > 1)
        for (guint i = 1; i < blocks[b].n_lines; i++)
          {
            g_assert_cmpfloat (scores[i], <, 0.6);
            n_prose++;
          }
    }
  g_assert_cmpuint (n_gloss, ==, json_array_get_length (igt));
  g_assert_cmpuint (n_prose, >=, 8);
}

/* The column (in characters) where @word starts on the output line holding @line_start;
 * -1 when absent. */
static int
column_of (const char *text, const char *line_start, const char *word)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint l = 0; lines[l] != NULL; l++)
    {
      const char *body = lines[l];
      const char *colon;
      char *found;

      /* Freki lines: the text follows the preamble's ':'. */
      if (g_str_has_prefix (body, "line=") && (colon = strchr (body, ':')) != NULL)
        body = colon + 1;
      if (strstr (body, line_start) == NULL || (found = strstr (body, word)) == NULL)
        continue;
      return (int) g_utf8_strlen (body, found - body);
    }
  return -1;
}

static void
check_columns (const char *text, JsonArray *igt)
{
  for (guint e = 0; e < json_array_get_length (igt); e++)
    {
      JsonObject *ex = json_array_get_object_element (igt, e);
      JsonArray *language = json_object_get_array_member (ex, "language");
      JsonArray *gloss = json_object_get_array_member (ex, "gloss");
      const char *first_word = json_array_get_string_element (language, 0);
      const char *first_gloss = json_array_get_string_element (gloss, 0);
      int previous = -1;

      for (guint w = 0; w < json_array_get_length (language); w++)
        {
          int above = column_of (text, first_word, json_array_get_string_element (language, w));
          int below = column_of (text, first_gloss, json_array_get_string_element (gloss, w));

          g_assert_cmpint (above, >, previous);
          g_assert_cmpint (above, ==, below);
          previous = above;
        }
    }
}

/* Every word of a language line starts in the same column as its gloss, in both the
 * Freki text and the plain layout text. */
static void
test_columns (Fixture *f, gconstpointer data)
{
  JsonArray *igt = json_object_get_array_member (f->layout, "igt");
  g_autofree char *freki = dc_export_document (f->document, DC_EXPORT_FREKI, dc_document_pdf_value,
                                               f->document);
  g_autofree char *layout = dc_export_document (f->document, DC_EXPORT_LAYOUT,
                                                dc_document_pdf_value, f->document);

  check_columns (freki, igt);
  check_columns (layout, igt);
  /* Blocks come one after the other, a blank line between them. */
  g_assert_nonnull (strstr (layout, "Interlinear glossed text\n\n"));
}

/* The Freki format field by field, as Freki's own readers parse it (doc/Format.md of
 * the Freki repository): a preamble per block, then one line per text line whose
 * preamble is padded so that every ':' of the block is in one column. */
static void
test_freki_format (Fixture *f, gconstpointer data)
{
  g_autofree char *freki = dc_export_document (f->document, DC_EXPORT_FREKI, dc_document_pdf_value,
                                               f->document);
  g_auto (GStrv) lines = g_strsplit (freki, "\n", -1);
  g_autoptr (GRegex) block_re = NULL, line_re = NULL;
  const char *number = "(-?\\d+\\.\\d\\d?)";
  g_autofree char *bbox = g_strdup_printf ("%s,%s,%s,%s", number, number, number, number);
  g_autofree char *block_pattern = g_strdup_printf (
      "^doc_id=igt page=(\\d+) block_id=(\\d+)-(\\d+) bbox=%s label=([tblr]*) (\\d+) (\\d+)$",
      bbox);
  g_autofree char *line_pattern = g_strdup_printf ("^line=(\\d+) fonts=([^ ,]+-\\d+\\.\\d(?:,[^ "
                                                   ",]+-\\d+\\.\\d)*)(?: iscore=(\\d\\.\\d\\d))? "
                                                   "bbox=%s *:(.*)$",
                                                   bbox);
  guint expected_line = 1, n_blocks = 0, block_last = 0, colon = 0;
  double previous_top = G_MAXDOUBLE;
  gboolean two_fonts = FALSE, in_block = FALSE;

  block_re = g_regex_new (block_pattern, 0, 0, NULL);
  line_re = g_regex_new (line_pattern, 0, 0, NULL);
  g_assert_nonnull (block_re);
  g_assert_nonnull (line_re);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;

      if (*lines[i] == '\0')
        {
          /* A blank line ends a block, and only after its last line. */
          g_assert_true (!in_block || expected_line == block_last + 1);
          in_block = FALSE;
          continue;
        }
      if (g_regex_match (block_re, lines[i], 0, &match))
        {
          g_autofree char *page = g_match_info_fetch (match, 1);
          g_autofree char *id_page = g_match_info_fetch (match, 2);
          g_autofree char *id = g_match_info_fetch (match, 3);
          g_autofree char *ury = g_match_info_fetch (match, 7);
          g_autofree char *first = g_match_info_fetch (match, 9);
          g_autofree char *last = g_match_info_fetch (match, 10);

          g_assert_false (in_block);
          g_assert_cmpstr (page, ==, "1");
          g_assert_cmpstr (id_page, ==, "1");
          g_assert_cmpuint (g_ascii_strtoull (id, NULL, 10), ==, ++n_blocks);
          g_assert_cmpuint (g_ascii_strtoull (first, NULL, 10), ==, expected_line);
          block_last = g_ascii_strtoull (last, NULL, 10);
          /* y counts up from the bottom of the page: the left column's blocks go down. */
          if (n_blocks <= 8)
            g_assert_cmpfloat (g_ascii_strtod (ury, NULL), <, previous_top);
          previous_top = g_ascii_strtod (ury, NULL);
          in_block = TRUE;
          colon = 0;
          continue;
        }
      /* A failed match still hands back its GMatchInfo. */
      g_clear_pointer (&match, g_match_info_free);
      g_assert_true (g_regex_match (line_re, lines[i], 0, &match));
      {
        g_autofree char *n = g_match_info_fetch (match, 1);
        g_autofree char *fonts = g_match_info_fetch (match, 2);
        int start, end;

        g_assert_true (in_block);
        g_assert_cmpuint (g_ascii_strtoull (n, NULL, 10), ==, expected_line++);
        g_assert_cmpuint (expected_line - 1, <=, block_last);
        two_fonts |= strstr (fonts, "Oblique") != NULL && strchr (fonts, ',') != NULL;
        g_match_info_fetch_pos (match, 8, &start, &end);
        g_assert_true (colon == 0 || (guint) start == colon);
        colon = start;
      }
    }
  g_assert_cmpuint (n_blocks, ==,
                    json_array_get_length (json_object_get_array_member (f->layout, "blocks")));
  /* "(1)" in the regular font and the words in the oblique one: both are listed. */
  g_assert_true (two_fonts);
}

/* The script of a text is that of most of its letters; digits, punctuation and marks
 * count for none; letters of two scripts in one word are flagged. */
static void
test_scripts (void)
{
  gboolean mixed;
  char code[5];

  g_assert_cmpint (dc_text_get_script ("Весной река", &mixed), ==, G_UNICODE_SCRIPT_CYRILLIC);
  g_assert_false (mixed);
  /* "Moscow" with a Cyrillic о: what a half-recovered legacy font gives. */
  g_assert_cmpint (dc_text_get_script ("M\xD0\xBEscow", &mixed), ==, G_UNICODE_SCRIPT_LATIN);
  g_assert_true (mixed);
  g_assert_cmpint (dc_text_get_script ("1921, «—»", &mixed), ==, G_UNICODE_SCRIPT_COMMON);
  g_assert_false (mixed);
  g_assert_cmpint (dc_text_get_script ("\xEF\xBF\xBD\xEF\xBF\xBD.", &mixed), ==,
                   G_UNICODE_SCRIPT_UNKNOWN);
  g_assert_cmpint (dc_text_get_script ("за\xCC\x81мок", &mixed), ==, G_UNICODE_SCRIPT_CYRILLIC);
  g_assert_false (mixed);
  /* ASCII is read without GLib's table: each character as GLib's table has it. */
  for (int c = 1; c < 0x80; c++)
    {
      char text[2] = { (char) c, '\0' };
      GUnicodeScript script = g_unichar_get_script ((gunichar) c);

      g_assert_cmpint (dc_text_get_script (text, NULL), ==,
                       script == G_UNICODE_SCRIPT_LATIN ? script : G_UNICODE_SCRIPT_COMMON);
    }
  dc_script_to_iso15924 (G_UNICODE_SCRIPT_HEBREW, code);
  g_assert_cmpstr (code, ==, "Hebr");
  g_assert_cmpint (dc_text_get_direction (G_UNICODE_SCRIPT_HEBREW, 0), ==, DC_DIRECTION_RTL);
  g_assert_cmpint (dc_text_get_direction (G_UNICODE_SCRIPT_ARABIC, 0), ==, DC_DIRECTION_RTL);
  g_assert_cmpint (dc_text_get_direction (G_UNICODE_SCRIPT_LATIN, 0), ==, DC_DIRECTION_LTR);
  g_assert_cmpint (dc_text_get_direction (G_UNICODE_SCRIPT_MONGOLIAN, 1), ==, DC_DIRECTION_TTB);
}

/* reading.pdf: every page's lines, in the txt, layout and Freki exports, are the
 * generator's, in its order: the columns one after the other under a title across the
 * gutter at any offset, the footer last, a table row by row, words whole. */
static char *
page_text (const char *text, guint page)
{
  g_auto (GStrv) pages = g_strsplit (text, "\f", -1);

  g_assert_cmpuint (page, <, g_strv_length (pages));
  return g_strdup (pages[page]);
}

/* The text lines of an export, preambles and blank lines dropped, spaces squeezed (the
 * layout exports pad to columns). */
static GPtrArray *
export_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GRegex) spaces = g_regex_new ("  +", 0, 0, NULL);

  for (guint l = 0; lines[l] != NULL; l++)
    {
      const char *body = lines[l];

      if (g_str_has_prefix (body, "doc_id="))
        continue;
      if (g_str_has_prefix (body, "line=") && strchr (body, ':') != NULL)
        body = strchr (body, ':') + 1;
      body += strspn (body, " ");
      if (*body == '\0')
        continue;
      g_ptr_array_add (out, g_regex_replace_literal (spaces, body, -1, 0, " ", 0, NULL));
    }
  return out;
}

/* The layout and Freki texts set a right-to-left line left to right, as on the page
 * (Freki sorts a line's tokens by x): the generator lists those lines' visual text. */
static const char *
expected_line (JsonObject *truth, guint page, guint l, gboolean visual)
{
  JsonArray *lines = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (truth, "pages"), page), "lines");
  JsonArray *visuals = json_object_get_array_member (truth, "visual");

  for (guint v = 0; visual && v < json_array_get_length (visuals); v++)
    {
      JsonObject *one = json_array_get_object_element (visuals, v);

      if (json_object_get_int_member (one, "page") == page + 1
          && json_object_get_int_member (one, "line") == l)
        return json_object_get_string_member (one, "text");
    }
  return json_object_get_string_member (json_array_get_object_element (lines, l), "text");
}

static void
check_page (const char *format_name, const char *text, guint page, JsonObject *truth,
            gboolean visual)
{
  g_autoptr (GPtrArray) got = export_lines (text);
  JsonArray *lines = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (truth, "pages"), page), "lines");

  if (got->len != json_array_get_length (lines))
    g_test_message ("%s, page %u: %u lines, not %u", format_name, page + 1, got->len,
                    json_array_get_length (lines));
  for (guint l = 0; l < MIN (got->len, json_array_get_length (lines)); l++)
    {
      const char *want = expected_line (truth, page, l, visual);

      if (g_strcmp0 (g_ptr_array_index (got, l), want) != 0)
        g_test_message ("%s, page %u, line %u", format_name, page + 1, l + 1);
      g_assert_cmpstr (g_ptr_array_index (got, l), ==, want);
    }
  g_assert_cmpuint (got->len, ==, json_array_get_length (lines));
}

static void
test_reading_page (gconstpointer data)
{
  guint page = GPOINTER_TO_UINT (data);
  g_autoptr (DcDocument) document = dc_test_load_document ("reading");
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *truth = dc_test_load_truth ("reading", &parser);
  static const struct
  {
    const char *name;
    DcExportFormat format;
  } formats[] = { { "txt", DC_EXPORT_TEXT },
                  { "layout", DC_EXPORT_LAYOUT },
                  { "freki", DC_EXPORT_FREKI } };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *text = dc_export_document (document, formats[i].format,
                                                  dc_document_pdf_value, document);
      g_autofree char *one = NULL;

      if (formats[i].format == DC_EXPORT_FREKI)
        {
          /* Freki has no form feeds: its block preambles name the page. */
          g_autofree char *marker = g_strdup_printf (" page=%u ", page + 1);
          g_auto (GStrv) all = g_strsplit (text, "\n", -1);
          GString *kept = g_string_new (NULL);
          gboolean in_page = FALSE;

          for (guint l = 0; all[l] != NULL; l++)
            {
              if (g_str_has_prefix (all[l], "doc_id="))
                in_page = strstr (all[l], marker) != NULL;
              if (in_page)
                g_string_append_printf (kept, "%s\n", all[l]);
            }
          one = g_string_free (kept, FALSE);
        }
      else
        one = page_text (text, page);
      check_page (formats[i].name, one, page, truth, formats[i].format != DC_EXPORT_TEXT);
    }
}

/* pdftract's /Lang rules: the /Lang is kept when the detector gives it 0.4; another
 * language replaces it from 0.7, with lang_conflict; without /Lang a detection counts
 * from 0.6; anything less sure is und. */
static void
check_language (const char *declared, gboolean detected, double declared_score, const char *best,
                double best_score, const char *tag, const char *source, gboolean conflict)
{
  DcLanguageEvidence evidence = { declared, detected, declared_score, best, best_score };
  DcLanguageGuess guess;

  g_assert_cmpint (_dc_export_resolve_language (&evidence, &guess), ==, conflict);
  g_assert_cmpstr (guess.tag, ==, tag);
  g_assert_cmpstr (guess.source, ==, source);
}

static void
test_language_thresholds (void)
{
  /* /Lang en, the detector hesitating between English and Scots: en. */
  check_language ("en", TRUE, 0.5, "sco", 0.5, "en", "document+detector", FALSE);
  /* /Lang en one of three candidates: under 0.4, and nothing else sure: und. */
  check_language ("en", TRUE, 1.0 / 3, "sco", 1.0 / 3, "", "none", FALSE);
  /* Russian under /Lang en: ru, and the conflict flagged. */
  check_language ("en", TRUE, 0, "ru", 0.9, "ru", "detector", TRUE);
  /* Under /Lang en, two other candidates: neither sure enough to override. */
  check_language ("en", TRUE, 0, "ru", 0.5, "", "none", FALSE);
  /* No /Lang: a detection of 0.5 is not enough (no "en at 0.5"); 0.9 is. */
  check_language (NULL, TRUE, 0, "en", 0.5, "", "none", FALSE);
  check_language (NULL, TRUE, 0, "ru", 0.9, "ru", "detector", FALSE);
  /* Text too short to detect: the /Lang alone, or nothing. */
  check_language ("en", FALSE, 0, NULL, 0, "en", "document", FALSE);
  check_language (NULL, FALSE, 0, NULL, 0, "", "none", FALSE);
  check_language ("", FALSE, 0, NULL, 0, "", "none", FALSE);

  if (dc_language_detector_available ())
    {
      const char *russian = "Весной река выходит из берегов, и старые лодки снова "
                            "спускают на воду у самого края деревни.";
      DcLanguageGuess guess;

      /* The real detector, through the same rules. */
      g_assert_true (_dc_export_guess_language (russian, "en", &guess));
      g_assert_cmpstr (guess.tag, ==, "ru");
      g_assert_false (_dc_export_guess_language (russian, NULL, &guess));
      g_assert_cmpstr (guess.tag, ==, "ru");
      g_assert_cmpstr (guess.source, ==, "detector");
      g_assert_false (_dc_export_guess_language (russian, "ru", &guess));
      g_assert_cmpstr (guess.tag, ==, "ru");
      g_assert_cmpstr (guess.source, ==, "document+detector");
    }
}

static void
assert_same_guess (const DcLanguageGuess *a, const DcLanguageGuess *b)
{
  g_assert_cmpstr (a->tag, ==, b->tag);
  g_assert_cmpstr (a->source, ==, b->source);
  g_assert_cmpfloat (a->confidence, ==, b->confidence);
}

/* One run of the detector gives what two calls of dc_language_guess() give, with the
 * prior and without: agreeing, overridden, absent, too short to detect. */
static void
test_language_both (void)
{
  static const char *texts[] = {
    "Весной река выходит из берегов, и старые лодки снова спускают на воду у самого края.",
    "The river floods its banks in spring, and the old boats are put back on the water.",
    "Весной река",
  };
  static const char *priors[] = { NULL, "", "ru", "en", "de" };

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    for (guint p = 0; p < G_N_ELEMENTS (priors); p++)
      {
        DcLanguageGuess with_prior, alone, both_with, both_alone;

        dc_language_guess (texts[t], priors[p], &with_prior);
        dc_language_guess (texts[t], NULL, &alone);
        dc_language_guess_both (texts[t], priors[p], &both_with, &both_alone);
        assert_same_guess (&both_with, &with_prior);
        assert_same_guess (&both_alone, &alone);
        dc_language_guess_both (texts[t], priors[p], &both_with, NULL);
        assert_same_guess (&both_with, &with_prior);
      }
}

/* The key the JSON export keeps guesses by (dc_language_guess_key()): texts that differ
 * only past the detector's sample share a key and get the same guess; a different prior,
 * start or count of letters gives another key. */
static void
test_language_key (void)
{
  static const char *starts[] = { "Весной река выходит из берегов, и старые лодки снова ",
                                  "The river floods its banks in spring, and old boats " };
  g_autoptr (GString) filler = g_string_new (NULL);

  while (filler->len < DC_LANGUAGE_SAMPLE_BYTES)
    g_string_append (filler, "спускают на воду у самого края деревни. ");
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      g_autofree char *a = g_strconcat (starts[i], filler->str, "Konec.", NULL);
      g_autofree char *b = g_strconcat (starts[i], filler->str, "The end, in English.", NULL);
      g_autofree char *key_a = dc_language_guess_key (a, NULL);
      g_autofree char *key_b = dc_language_guess_key (b, NULL);
      g_autofree char *key_prior = dc_language_guess_key (a, "en");
      g_autofree char *key_empty_prior = dc_language_guess_key (a, "");
      DcLanguageGuess guess_a, guess_b;

      g_assert_cmpstr (key_a, ==, key_b);
      g_assert_cmpstr (key_a, !=, key_prior);
      g_assert_cmpstr (key_a, !=, key_empty_prior);
      g_assert_cmpstr (key_prior, !=, key_empty_prior);
      g_assert_cmpuint (strlen (key_a), <, DC_LANGUAGE_SAMPLE_BYTES + 16);
      dc_language_guess (a, NULL, &guess_a);
      dc_language_guess (b, NULL, &guess_b);
      g_assert_cmpstr (guess_a.tag, ==, guess_b.tag);
      g_assert_cmpstr (guess_a.source, ==, guess_b.source);
      g_assert_cmpfloat (guess_a.confidence, ==, guess_b.confidence);
    }
  {
    g_autofree char *russian = dc_language_guess_key (starts[0], NULL);
    g_autofree char *english = dc_language_guess_key (starts[1], NULL);
    /* Under DC_LANGUAGE_MIN_LETTERS letters: the detector is not asked. */
    g_autofree char *few = dc_language_guess_key ("Весной река", NULL);

    g_assert_cmpstr (russian, !=, english);
    g_assert_cmpint (russian[0], !=, few[0]);
  }
  {
    /* The detector folds a run of spaces and digits into one byte, so past a table of
     * figures it reads on beyond the sample's length: the key must hold what it reads. */
    g_autoptr (GString) figures = g_string_new (NULL);
    g_autofree char *russian = NULL, *english = NULL, *key_russian = NULL, *key_english = NULL;
    DcLanguageGuess guess_russian, guess_english;

    while (figures->len < DC_LANGUAGE_SAMPLE_BYTES + 100)
      g_string_append (figures, "1 ");
    russian = g_strconcat (figures->str, starts[0], filler->str, NULL);
    english = g_strconcat (figures->str, starts[1], "They are painted before the summer, ",
                           "and the children help their fathers carry them down. ", NULL);
    key_russian = dc_language_guess_key (russian, NULL);
    key_english = dc_language_guess_key (english, NULL);
    g_assert_cmpstr (key_russian, !=, key_english);
    dc_language_guess (russian, NULL, &guess_russian);
    dc_language_guess (english, NULL, &guess_english);
    g_assert_cmpstr (guess_russian.tag, !=, guess_english.tag);
  }
}

/* The JSON export's quick way to a span's normal form (dc-export-normalize.c) gives
 * what g_utf8_normalize() gives. Its claim, checked over every character GLib knows: a
 * character it lets through is a starter that the form leaves alone and is the second
 * half of no canonical composition, so no neighbour can change it (UAX #15, 9). */
static void
test_normalize_quick (void)
{
  static const DcNormalization forms[] = { DC_NORMALIZATION_NFC, DC_NORMALIZATION_NFKC,
                                           DC_NORMALIZATION_NFD };
  static const GNormalizeMode modes[] = { G_NORMALIZE_NFC, G_NORMALIZE_NFKC, G_NORMALIZE_NFD };
  static const char *texts[] = {
    "plain ASCII, 12.5 %",
    "Всеобщая декларация прав человека: йод, ёж — «да» … \xef\xbf\xbd",
    "и\xcc\x86 and e\xcc\x81: letters and their marks apart",
    "Ѐ Ѝ ѐ ѝ ї ў: Cyrillic letters that decompose",
    "ﬁ ½ ² ª \xc2\xa0 \xe2\x80\x80: compatibility forms and an en quad",
    "Ω K Å: singletons (ohm, kelvin, angstrom)",
    "한국어 ᄀ\xe1\x85\xa1 가\xe1\x86\xa8: Hangul, and jamo that compose",
    "கொ க\xe0\xaf\x86\xe0\xae\xbe ো ಕೋ: Indic vowels in two parts",
    "Ἀθῆναι ΐ: Greek with its marks",
    "\xc1\x81 overlong, not UTF-8",
    "\xed\xa0\x80 a surrogate, not UTF-8",
    "עִבְרִית العربية 中文 𝐀",
    "",
    /* Pieces (a character that passes, and what follows it up to the next): marks to
     * reorder and compose, jamo, kana with a halfwidth voicing mark, at the start, in
     * the middle and at the end. */
    "\xcc\x81"
    "e\xcc\x81\xcc\xa3 x\xcc\xa3\xcc\x81 Vie\xcc\xa3\xcc\x82t Nam a\xcc\x8a",
    "\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8 \xea\xb0\x80\xe1\x86\xa8\xea\xb0\x81 "
    "\xe1\x85\xa1",
    "\xef\xbd\xb6\xef\xbe\x9e \xe3\x82\xab\xe3\x82\x99 ﬁ\xcc\x81 ½\xcc\xa3",
    "ক\xe0\xa7\x87\xe0\xa6\xbe ক\xe0\xa7\x87\xe0\xa7\x97 ଓ\xe0\xac\xbe "
    "\xe0\xb2\xbf\xe0\xb3\x95 e\xcc\x81",
    "ends in a mark o\xcc\x88\xcc\x84",
  };
  /* Characters to make random texts of: ones that pass the quick check and ones that do
   * not, which compose, decompose, reorder or are compatibility forms. */
  static const gunichar pool[] = { 'a',    'e',    'o',    ' ',    0x0301, 0x0323, 0x0308, 0x0304,
                                   0x0327, 0x00e9, 0x1ec7, 0x0415, 0x0306, 0x1100, 0x1161, 0x11a8,
                                   0xac00, 0xac01, 0x30ab, 0x3099, 0xff76, 0xff9e, 0xfb01, 0x00bd,
                                   0x2126, 0x0995, 0x09c7, 0x09be, 0x09d7, 0x0b13, 0x0b3e, 0x0cbf,
                                   0x0cd5, 0x1f00, 0x0345, 0x05b4 };
  guint checked = 0;

  for (gunichar c = 1; c < 0x110000; c++)
    {
      gunichar a, b;
      char utf8[8];

      if (c >= 0xd800 && c <= 0xdfff)
        continue;
      utf8[g_unichar_to_utf8 (c, utf8)] = '\0';
      /* A second half of a composition is never let through where the form composes. */
      if (g_unichar_decompose (c, &a, &b) && b != 0)
        {
          char second[8];

          second[g_unichar_to_utf8 (b, second)] = '\0';
          g_assert_false (_dc_export_is_normalized (second, DC_NORMALIZATION_NFC));
          g_assert_false (_dc_export_is_normalized (second, DC_NORMALIZATION_NFKC));
        }
      for (guint m = 0; m < G_N_ELEMENTS (forms); m++)
        if (_dc_export_is_normalized (utf8, forms[m]))
          {
            g_autofree char *normal = g_utf8_normalize (utf8, -1, modes[m]);

            g_assert_cmpstr (normal, ==, utf8);
            g_assert_cmpint (g_unichar_combining_class (c), ==, 0);
            checked++;
          }
    }
  /* Most of the Basic Multilingual Plane goes the quick way. */
  g_assert_cmpuint (checked, >, 3 * 30000);

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    for (guint m = 0; m < G_N_ELEMENTS (forms); m++)
      {
        g_autofree char *quick = _dc_export_normalize (texts[i], forms[m]);
        g_autofree char *slow = g_utf8_normalize (texts[i], -1, modes[m]);

        g_assert_cmpstr (quick, ==, slow);
      }
  g_assert_true (_dc_export_is_normalized (texts[1], DC_NORMALIZATION_NFC));
  g_assert_false (_dc_export_is_normalized (texts[1], DC_NORMALIZATION_NFD));

  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      guint length = (guint) g_test_rand_int_range (0, 12);

      for (guint j = 0; j < length; j++)
        g_string_append_unichar (text,
                                 pool[g_test_rand_int_range (0, (gint32) G_N_ELEMENTS (pool))]);
      for (guint m = 0; m < G_N_ELEMENTS (forms); m++)
        {
          g_autofree char *quick = _dc_export_normalize (text->str, forms[m]);
          g_autofree char *slow = g_utf8_normalize (text->str, -1, modes[m]);

          g_assert_cmpstr (quick, ==, slow);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/layout/scripts", test_scripts);
  g_test_add_func ("/layout/language-thresholds", test_language_thresholds);
  g_test_add_func ("/layout/language-key", test_language_key);
  g_test_add_func ("/layout/language-both", test_language_both);
  g_test_add_func ("/layout/normalize-quick", test_normalize_quick);
  g_test_add ("/layout/blocks", Fixture, NULL, fixture_set_up, test_blocks, fixture_tear_down);
  g_test_add ("/layout/tabscores", Fixture, NULL, fixture_set_up, test_tabscores,
              fixture_tear_down);
  g_test_add ("/layout/columns", Fixture, NULL, fixture_set_up, test_columns, fixture_tear_down);
  g_test_add ("/layout/freki-format", Fixture, NULL, fixture_set_up, test_freki_format,
              fixture_tear_down);

  /* Pages 1-7: a title across the gutter at seven offsets; 8-9: tables; 10: letter-spaced
   * words; 11: CJK and Thai; 12: three scripts in one font, a Hebrew line in two. */
  {
    static const char *names[] = { "title-60",    "title-40",      "title-20", "title0",
                                   "title+20",    "title+40",      "title+60", "table",
                                   "table-alone", "letter-spaced", "cjk-thai", "scripts" };

    for (guint page = 0; page < G_N_ELEMENTS (names); page++)
      {
        g_autofree char *path = g_strdup_printf ("/layout/reading/%s", names[page]);

        g_test_add_data_func (path, GUINT_TO_POINTER (page), test_reading_page);
      }
  }

  return g_test_run ();
}
