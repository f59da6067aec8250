/* test-matcher.c: typing what the page shows rebuilds the table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dc-matcher-private.h"
#include "dc-test-fixtures.h"

typedef struct
{
  DcDocument *document;
  DcKey *key;
  DcMatcher *matcher;
  JsonParser *parser;
  JsonObject *truth;
} Fixture;

static void
fixture_open (Fixture *f, const char *name)
{
  f->document = dc_test_load_document (name);
  f->key = dc_key_new (f->document);
  f->matcher = dc_matcher_new (f->key);
  f->truth = dc_test_load_truth (name, &f->parser);
}

static void
fixture_close (Fixture *f)
{
  g_assert_finalize_object (f->matcher);
  g_clear_object (&f->key);
  g_clear_object (&f->document);
  g_clear_object (&f->parser);
}

/* The truth's line texts, in reading order. */
static GPtrArray *
truth_lines (Fixture *f)
{
  JsonArray *pages = json_object_get_array_member (f->truth, "pages");
  GPtrArray *lines = g_ptr_array_new ();

  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *page_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                           p),
                                                            "lines");

      for (guint l = 0; l < json_array_get_length (page_lines); l++)
        g_ptr_array_add (lines, (gpointer) json_object_get_string_member (
                                    json_array_get_object_element (page_lines, l), "text"));
    }
  return lines;
}

static guint
character_errors (const char *expected, const char *got)
{
  g_autofree gunichar *a = g_utf8_to_ucs4_fast (expected, -1, NULL);
  g_autofree gunichar *b = g_utf8_to_ucs4_fast (got, -1, NULL);
  guint errors = 0, i;

  for (i = 0; a[i] && b[i]; i++)
    errors += a[i] != b[i];
  for (; a[i]; i++)
    errors++;
  for (; b[i]; i++)
    errors++;
  return errors;
}

static DcMatchResult *
type_text (Fixture *f, const char *text, int line, int token)
{
  g_autoptr (GError) error = NULL;
  DcMatchResult *result = dc_matcher_type (f->matcher, text, line, token, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Typing every line as it reads, pointing at it, recovers the document exactly. */
static void
test_recover_by_lines (gconstpointer data)
{
  Fixture f = { 0 };
  g_autoptr (GPtrArray) lines = NULL;
  guint errors = 0, assigned = 0;

  fixture_open (&f, data);
  lines = truth_lines (&f);

  /* A reader types a ligature as the letters it joins. */
  if (g_str_equal (data, "ligatures"))
    for (guint l = 0; l < lines->len; l++)
      g_ptr_array_index (lines, l) = g_utf8_normalize (g_ptr_array_index (lines, l), -1,
                                                       G_NORMALIZE_NFKC);

  for (guint l = 0; l < lines->len; l++)
    {
      g_autoptr (DcMatchResult) result = type_text (&f, g_ptr_array_index (lines, l), l, -1);

      if (result->kind != DC_MATCH_ASSIGNED && result->kind != DC_MATCH_KNOWN)
        g_error ("line %u “%s”: %s (%s)", l, (char *) g_ptr_array_index (lines, l),
                 dc_match_kind_to_string (result->kind), result->reason);
      assigned += result->learned->len;
    }

  for (guint l = 0; l < lines->len; l++)
    {
      g_autofree char *text = dc_export_line_text (f.document, l, dc_key_value_func, f.key);
      g_autofree char *nfc = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
      g_autofree char *expected = g_utf8_normalize (g_ptr_array_index (lines, l), -1,
                                                    G_NORMALIZE_NFC);

      errors += character_errors (expected, nfc);
    }
  g_assert_cmpuint (assigned, >, 10);
  g_assert_cmpuint (errors, ==, 0);
  if (g_str_equal (data, "ligatures"))
    {
      guint n_symbols, two_letter = 0;

      dc_document_get_symbols (f.document, &n_symbols);
      for (guint s = 0; s < n_symbols; s++)
        two_letter += g_strcmp0 (dc_key_get_value (f.key, s), "fi") == 0
                      || g_strcmp0 (dc_key_get_value (f.key, s), "fl") == 0;
      g_assert_cmpuint (two_letter, ==, 2);
      for (guint l = 0; l < lines->len; l++)
        g_free (g_ptr_array_index (lines, l));
    }
  fixture_close (&f);
}

static void
test_no_match_says_why (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) long_word = NULL;
  g_autoptr (DcMatchResult) on_line = NULL;

  fixture_open (&f, "legacy-cyrillic");
  long_word = type_text (&f, "Ааааааааааааааааааааааааааааааааааааааааааааа", -1, -1);
  g_assert_cmpint (long_word->kind, ==, DC_MATCH_NO_MATCH);
  g_assert_nonnull (strstr (long_word->reason, "No word in the document"));
  on_line = type_text (&f, "Ааааааааааааааааааааааааааааааааааааааааааааа", 3, -1);
  g_assert_cmpint (on_line->kind, ==, DC_MATCH_NO_MATCH);
  g_assert_nonnull (strstr (on_line->reason, "line 3"));
  fixture_close (&f);
}

/* Typing what one reads leaves out the comma glued to a word: the words still match
 * their tokens, the comma's glyph is read as that left-out punctuation and learned as
 * nothing, and the reason says so. */
static void
test_punctuation_left_out (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (DcMatchResult) typo = NULL;
  const DcLine *lines;
  const DcGlyph *glyphs = NULL;
  const guint32 *order;
  guint comma = G_MAXUINT, n_lines;
  g_autoptr (GError) error = NULL;

  fixture_open (&f, "legacy-cyrillic");
  dc_auto_recover (f.document, f.key, NULL); /* the space */
  result = type_text (&f, "Весной река широко разливается", -1, -1);
  g_test_message ("%s: %s", dc_match_kind_to_string (result->kind), result->reason);
  g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_nonnull (strstr (result->reason, "разливается"));
  g_assert_cmpuint (result->places->len, ==, 1);
  for (guint i = 0; i < result->learned->len; i++)
    g_assert_cmpstr (g_array_index (result->learned, DcLearned, i).text, !=, ",");

  /* The glyph after "разливается" is the comma, still unknown. */
  lines = dc_document_get_lines (f.document, &n_lines);
  glyphs = dc_document_get_glyphs (f.document, NULL);
  order = dc_document_get_reading_order (f.document, NULL);
  for (guint k = 0; k < lines[1].n_glyphs; k++)
    {
      guint symbol = glyphs[order[lines[1].first_glyph + k]].symbol;
      const char *value = dc_key_get_value (f.key, symbol);

      if (value == NULL)
        {
          comma = symbol;
          break;
        }
    }
  g_assert_cmpuint (comma, !=, G_MAXUINT);
  g_assert_null (dc_key_peek_value (f.key, comma));

  /* A letter is no punctuation: a word missing one still does not fit. */
  typo = type_text (&f, "сухие ветк", 3, -1);
  g_assert_cmpint (typo->kind, ==, DC_MATCH_NO_MATCH);

  /* The stand-in is nobody's input. */
  g_assert_null (dc_matcher_type (f.matcher, "река\uFDD1", -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  fixture_close (&f);
}

static void
test_ambiguous_then_narrowed (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) ambiguous = NULL;
  g_autoptr (DcMatchResult) narrowed = NULL;
  guint first_line;
  DcMatchPlace place;

  fixture_open (&f, "legacy-cyrillic");
  /* A two-letter word with no letter known fits every two-glyph word of the document. */
  ambiguous = type_text (&f, "ом", -1, -1);
  g_assert_cmpint (ambiguous->kind, ==, DC_MATCH_AMBIGUOUS);
  g_assert_cmpuint (ambiguous->places->len, >, 1);
  g_assert_true (dc_key_get_value (f.key, 0) == NULL
                 || dc_key_get_status (f.key, 0) == DC_KEY_FROM_PDF);

  /* Picking a place (line + token) makes it unique. */
  place = g_array_index (ambiguous->places, DcMatchPlace, 0);
  first_line = place.line;
  narrowed = type_text (&f, "ом", first_line, place.token);
  g_assert_cmpint (narrowed->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (narrowed->learned->len, ==, 2);
  fixture_close (&f);
}

/* A word with more letters than the token has glyphs fits it only through a ligature
 * fonts really draw; gluing any letters onto one glyph would teach the table nonsense
 * (seen on a page whose word gaps were misread). */
static void
test_no_invented_ligature (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) ambiguous = NULL;
  DcMatchPlace place;
  const char *too_long[] = { "омф", "омаз", "ffом" };

  fixture_open (&f, "legacy-cyrillic");
  ambiguous = type_text (&f, "ом", -1, -1);
  g_assert_cmpint (ambiguous->kind, ==, DC_MATCH_AMBIGUOUS);
  place = g_array_index (ambiguous->places, DcMatchPlace, 0);

  for (guint i = 0; i < G_N_ELEMENTS (too_long); i++)
    {
      g_autoptr (DcMatchResult) result = type_text (&f, too_long[i], place.line, place.token);

      g_test_message ("“%s” on a two-glyph word: %s", too_long[i],
                      dc_match_kind_to_string (result->kind));
      g_assert_cmpint (result->kind, ==, DC_MATCH_NO_MATCH);
      g_assert_false (dc_key_can_undo (f.key));
    }
  fixture_close (&f);
}

/* After a line is learned, typing it with one letter changed contradicts what was
 * learned: a conflict, nothing overwritten; the user's verdict settles it. */
static void
test_conflict (void)
{
  Fixture f = { 0 };
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (DcMatchResult) first = NULL;
  g_autoptr (DcMatchResult) clash = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const DcConflict *conflict;
  g_autofree char *kept = NULL;
  guint symbol;

  fixture_open (&f, "legacy-cyrillic");
  lines = truth_lines (&f);
  first = type_text (&f, g_ptr_array_index (lines, 2), 2, -1);
  g_assert_cmpint (first->kind, ==, DC_MATCH_ASSIGNED);
  before = dc_export_line_text (f.document, 2, dc_key_value_func, f.key);

  /* Replace a letter that occurs once on the line by one the line does not have. */
  changed = dc_test_with_one_letter_changed (g_ptr_array_index (lines, 2));
  g_assert_nonnull (changed);
  clash = type_text (&f, changed, 2, -1);
  g_assert_cmpint (clash->kind, ==, DC_MATCH_CONFLICT);
  g_assert_cmpuint (clash->conflicts->len, ==, 1);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (f.matcher), ==, 1);
  after = dc_export_line_text (f.document, 2, dc_key_value_func, f.key);
  g_assert_cmpstr (before, ==, after);

  conflict = dc_matcher_get_conflict (f.matcher, 0);
  g_assert_nonnull (conflict->current);
  g_assert_cmpstr (conflict->proposed, ==, "Ж");
  g_assert_nonnull (strstr (conflict->current_provenance, "type"));
  symbol = conflict->symbol;
  kept = g_strdup (conflict->current);

  /* The user keeps the value held: it is confirmed and the conflict is settled. */
  g_assert_true (dc_matcher_resolve_conflict (f.matcher, 0, FALSE, NULL));
  g_assert_cmpuint (dc_matcher_get_n_conflicts (f.matcher), ==, 0);
  g_assert_cmpint (dc_key_get_status (f.key, symbol), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_value (f.key, symbol), ==, kept);
  fixture_close (&f);
}

/* A slip of the keyboard (a letter dropped) in a line already read is no evidence against
 * what was learned: it reads as no match, not as a conflict for every letter. */
static void
test_typo_is_no_conflict (void)
{
  Fixture f = { 0 };
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (DcMatchResult) first = NULL;
  g_autoptr (DcMatchResult) slip = NULL;
  g_auto (GStrv) words = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *typo = NULL;
  const char *longest = NULL;

  fixture_open (&f, "legacy-cyrillic");
  lines = truth_lines (&f);
  for (guint l = 0; l < 4; l++)
    {
      g_autoptr (DcMatchResult) read = type_text (&f, g_ptr_array_index (lines, l), l, -1);

      g_assert_true (read->kind == DC_MATCH_ASSIGNED || read->kind == DC_MATCH_KNOWN);
    }
  before = dc_export_document (f.document, DC_EXPORT_TEXT, dc_key_value_func, f.key);

  words = g_strsplit (g_ptr_array_index (lines, 2), " ", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (longest == NULL || g_utf8_strlen (words[i], -1) > g_utf8_strlen (longest, -1))
      longest = words[i];
  g_assert_cmpint (g_utf8_strlen (longest, -1), >=, 6);
  /* The second letter dropped. */
  {
    const char *second = g_utf8_next_char (longest);

    typo = g_strdup_printf ("%.*s%s", (int) (second - longest), longest, g_utf8_next_char (second));
  }
  g_test_message ("typed %s for %s", typo, longest);
  slip = type_text (&f, typo, 2, -1);
  g_assert_cmpint (slip->kind, !=, DC_MATCH_CONFLICT);
  g_assert_cmpint (slip->kind, !=, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (f.matcher), ==, 0);
  after = dc_export_document (f.document, DC_EXPORT_TEXT, dc_key_value_func, f.key);
  g_assert_cmpstr (after, ==, before);
  fixture_close (&f);
}

static void
test_undo_redo (void)
{
  Fixture f = { 0 };
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (DcMatchResult) result = NULL;
  guint decoded_before, decoded_after, decoded_undone;

  fixture_open (&f, "legacy-cyrillic");
  lines = truth_lines (&f);
  dc_key_count_decoded (f.key, &decoded_before, NULL);
  result = type_text (&f, g_ptr_array_index (lines, 2), 2, -1);
  g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
  dc_key_count_decoded (f.key, &decoded_after, NULL);
  g_assert_cmpuint (decoded_after, ==, decoded_before + result->learned->len);

  /* One query is one undo step. */
  g_assert_true (dc_key_undo (f.key));
  dc_key_count_decoded (f.key, &decoded_undone, NULL);
  g_assert_cmpuint (decoded_undone, ==, decoded_before);
  g_assert_true (dc_key_redo (f.key));
  dc_key_count_decoded (f.key, &decoded_undone, NULL);
  g_assert_cmpuint (decoded_undone, ==, decoded_after);
  fixture_close (&f);
}

/* A combining acute drawn as its own zero-width glyph takes the mark, the vowel under
 * it takes the vowel: the user types the word as it reads. */
static void
test_combining_mark (void)
{
  Fixture f = { 0 };
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (DcMatchResult) result = NULL;
  const char *line_text = NULL;
  guint line = 0;

  fixture_open (&f, "legacy-cyrillic");
  lines = truth_lines (&f);
  for (guint l = 0; l < lines->len && line_text == NULL; l++)
    if (strstr (g_ptr_array_index (lines, l), "\xCC\x81") != NULL)
      {
        line_text = g_ptr_array_index (lines, l);
        line = l;
      }
  g_assert_nonnull (line_text);

  result = type_text (&f, line_text, line, -1);
  g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
  {
    gboolean mark_learned = FALSE;

    for (guint i = 0; i < result->learned->len; i++)
      mark_learned |= g_str_equal (g_array_index (result->learned, DcLearned, i).text, "\xCC\x81");
    g_assert_true (mark_learned);
  }
  fixture_close (&f);
}

/* A glyph the user said draws nothing (an empty value) is part of the words around it:
 * typing them as they read without it still matches, and the empty value stands. Found
 * by fuzz-session: the comparison with the empty value was undefined behaviour (memcmp
 * of a NULL). */
static void
test_empty_value (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  const DcSymbol *symbols;
  guint n_symbols, comma;

  fixture_open (&f, "legacy-cyrillic");
  symbols = dc_document_get_symbols (f.document, &n_symbols);
  for (comma = 0; comma < n_symbols; comma++)
    if (dc_document_symbol_needs_decoding (f.document, comma)
        && g_strcmp0 (symbols[comma].glyph_name, "comma") == 0)
      break;
  g_assert_cmpuint (comma, <, n_symbols);
  g_assert_true (dc_key_set (f.key, comma, "", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);

  /* The comma is not typed: no glyph is left to spell it (“е,” is no ligature). */
  result = type_text (&f, "Весной река широко разливается и старые лодки снова", 1, -1);
  g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_cmpstr (dc_key_peek_value (f.key, comma), ==, "");
  g_assert_cmpint (dc_key_get_status (f.key, comma), ==, DC_KEY_CONFIRMED);
  fixture_close (&f);
}

static void
test_bad_input (void)
{
  Fixture f = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *huge = g_strnfill (DC_MATCHER_MAX_INPUT + 1, 'a');

  fixture_open (&f, "legacy-cyrillic");
  g_assert_null (dc_matcher_type (f.matcher, "\xff\xfe", -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_matcher_type (f.matcher, "a\x01b", -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  /* The sign of an unknown glyph, pasted from the text: no letter, never a value. */
  g_assert_null (dc_matcher_type (f.matcher, "\xEF\xBF\xBD", -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "U+FFFD"));
  g_clear_error (&error);
  /* Noncharacters, which no project can hold: U+FDD0, the aligner's own U+FDD1, U+FFFF. */
  for (guint i = 0; i < 3; i++)
    {
      const char *const nonchars[] = { "\xD1\x81\xEF\xB7\x90", "\xEF\xB7\x91", "\xEF\xBF\xBF" };

      g_assert_null (dc_matcher_type (f.matcher, nonchars[i], -1, -1, &error));
      g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
      g_assert_nonnull (strstr (error->message, "non-character"));
      g_clear_error (&error);
    }
  g_assert_null (dc_matcher_type (f.matcher, "\xD1\x81\xEF\xBF\xBD\xD0\xBE", 20, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_matcher_type (f.matcher, huge, -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_matcher_type (f.matcher, "   ", -1, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_matcher_type (f.matcher, "слово", 100000, -1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_matcher_type (f.matcher, "слово", 0, 500, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  fixture_close (&f);
}

/* The index a query needs can be built in another thread, from a snapshot of the
 * tokens, and answers exactly as the one a query builds for itself; a snapshot taken
 * before the tokens changed is refused. */
static gpointer
build_index_thread (gpointer index)
{
  dc_matcher_index_build (index);
  return NULL;
}

static void
test_index_in_thread (void)
{
  Fixture f = { 0 };
  g_autoptr (DcMatcherIndex) index = NULL;
  g_autoptr (DcMatcherIndex) stale = NULL;
  g_autoptr (DcMatcher) own = NULL;
  g_autoptr (DcMatcher) late = NULL;
  g_autoptr (DcMatchResult) adopted = NULL;
  g_autoptr (DcMatchResult) built = NULL;
  guint n_symbols, letter = G_MAXUINT;

  fixture_open (&f, "legacy-cyrillic");
  index = dc_matcher_index_new (f.document);
  g_thread_join (g_thread_new ("index", build_index_thread, index));
  g_assert_false (dc_matcher_has_index (f.matcher));
  g_assert_true (dc_matcher_adopt_index (f.matcher, index));
  g_assert_true (dc_matcher_has_index (f.matcher));

  /* A matcher that builds its own index on the same key finds the same places. */
  own = dc_matcher_new (f.key);
  adopted = type_text (&f, "ом", -1, -1);
  built = dc_matcher_type (own, "ом", -1, -1, NULL);
  g_assert_nonnull (built);
  g_assert_true (dc_matcher_has_index (own));
  g_assert_cmpint (adopted->kind, ==, built->kind);
  g_assert_cmpuint (adopted->places->len, ==, built->places->len);
  for (guint i = 0; i < adopted->places->len; i++)
    {
      const DcMatchPlace *a = &g_array_index (adopted->places, DcMatchPlace, i);
      const DcMatchPlace *b = &g_array_index (built->places, DcMatchPlace, i);

      g_assert_cmpuint (a->line, ==, b->line);
      g_assert_cmpuint (a->token, ==, b->token);
      g_assert_cmpuint (a->n_tokens, ==, b->n_tokens);
    }

  /* A space learned after the snapshot changes the tokens: the index is refused. */
  stale = dc_matcher_index_new (f.document);
  dc_matcher_index_build (stale);
  dc_document_get_symbols (f.document, &n_symbols);
  for (guint s = 0; s < n_symbols && letter == G_MAXUINT; s++)
    if (!dc_document_symbol_is_space (f.document, s)
        && dc_document_symbol_needs_decoding (f.document, s))
      letter = s;
  g_assert_cmpuint (letter, !=, G_MAXUINT);
  g_assert_true (dc_key_set (f.key, letter, " ", DC_KEY_CONFIRMED, "test", NULL));
  late = dc_matcher_new (f.key);
  g_assert_false (dc_matcher_adopt_index (late, stale));
  g_assert_false (dc_matcher_has_index (late));
  g_assert_false (dc_matcher_has_index (f.matcher));

  g_clear_object (&own);
  g_clear_object (&late);
  fixture_close (&f);
}

/* The user reads @line (pointing at it), then gives the symbol they read as @letter
 * there a wrong value, ё; returns that symbol. */
static guint
learn_then_slip (Fixture *f, guint line, const char *letter)
{
  g_autoptr (GPtrArray) lines = truth_lines (f);
  g_autoptr (DcMatchResult) read = type_text (f, g_ptr_array_index (lines, line), (int) line, -1);

  g_assert_cmpint (read->kind, ==, DC_MATCH_ASSIGNED);
  for (guint i = 0; i < read->learned->len; i++)
    {
      const DcLearned *learned = &g_array_index (read->learned, DcLearned, i);

      if (g_str_equal (learned->text, letter))
        {
          g_assert_true (
              dc_key_set (f->key, learned->symbol, "ё", DC_KEY_CONFIRMED, "assign", NULL));
          return learned->symbol;
        }
    }
  g_assert_not_reached ();
}

/* Issue 31.1: the user read line 17 ("… балалар өзен / жағасында ойнайды, ал үлкендер
 * малды …"), then gave м a wrong value (ё). Typing "малды" with line 17 in view but not
 * pointed at fits there only if that value is wrong: a conflict there. Without the view
 * it used to fit line 25, teaching three wrong values without a word. */
static void
test_conflict_in_view (void)
{
  const guint line = 17;
  Fixture f = { 0 };
  g_autoptr (DcMatchResult) anywhere = NULL;
  g_autoptr (DcMatchResult) in_view = NULL;
  g_autoptr (DcMatchResult) elsewhere = NULL;
  g_autoptr (GError) error = NULL;
  const DcConflict *conflict;
  guint symbol;

  /* Without the view, another line takes it, as the issue saw. */
  fixture_open (&f, "legacy-cyrillic");
  learn_then_slip (&f, line, "м");
  anywhere = type_text (&f, "малды", -1, -1);
  g_assert_cmpint (anywhere->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (g_array_index (anywhere->places, DcMatchPlace, 0).line, !=, line);
  fixture_close (&f);

  fixture_open (&f, "legacy-cyrillic");
  symbol = learn_then_slip (&f, line, "м");
  in_view = dc_matcher_type_in_view (f.matcher, "малды", -1, -1, line - 1, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpint (in_view->kind, ==, DC_MATCH_CONFLICT);
  g_assert_cmpuint (in_view->learned->len, ==, 0);
  g_assert_cmpuint (in_view->conflicts->len, ==, 1);
  g_assert_cmpuint (g_array_index (in_view->places, DcMatchPlace, 0).line, ==, line);
  conflict = dc_matcher_get_conflict (f.matcher, 0);
  g_assert_cmpuint (conflict->symbol, ==, symbol);
  g_assert_cmpstr (conflict->current, ==, "ё");
  g_assert_cmpstr (conflict->proposed, ==, "м");
  g_assert_cmpstr (dc_key_get_value (f.key, symbol), ==, "ё");

  /* Lines in view where it does not fit at all leave the whole document to search. */
  elsewhere = dc_matcher_type_in_view (f.matcher, "ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ", -1, -1,
                                       line, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (elsewhere->kind, ==, DC_MATCH_NO_MATCH);
  g_assert_null (dc_matcher_type_in_view (f.matcher, "малды", -1, -1, 1000000, 1, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  fixture_close (&f);
}

/* A word of 800 glyphs (long-word.pdf): the matcher holds glyph counts in a byte, 255 for
 * that many or more, and reads the token itself for those. Typed with the word before it,
 * anywhere, the run is found; had the count stayed at 255, the word's fewest glyphs (267,
 * three letters a glyph) would have ruled it out. */
static void
test_long_word (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("long-word");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (GString) typed = g_string_new ("xa ");
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  DcMatchPlace place;

  for (guint i = 0; i < 80; i++)
    g_string_append (typed, "abcdefghij");
  result = dc_matcher_type (matcher, typed->str, -1, -1, &error);
  g_assert_no_error (error);
  g_test_message ("%s: %s", dc_match_kind_to_string (result->kind),
                  result->reason != NULL ? result->reason : "");
  g_assert_true (result->kind == DC_MATCH_ASSIGNED || result->kind == DC_MATCH_KNOWN);
  g_assert_cmpuint (result->places->len, ==, 1);
  place = g_array_index (result->places, DcMatchPlace, 0);
  g_assert_cmpuint (place.line, ==, 1);
  g_assert_cmpuint (place.token, ==, 0);
  g_assert_cmpuint (place.n_tokens, ==, 2);
}

static void
free_value (gpointer value)
{
  if (value != NULL)
    g_array_unref (value);
}

/* What the matcher adds up before searching a token for a word (token_may_reach() in
 * dc-matcher-scan.c): the cluster ends its glyphs may pass. */
static guint
token_reach (const Typed *typed, GPtrArray *nfd_values, const guint32 *symbols, guint n)
{
  guint reach = 0;

  for (guint g = 0; g < n; g++)
    {
      const GArray *known = g_ptr_array_index (nfd_values, symbols[g]);

      reach += known != NULL ? _dc_align_glyph_reach (known) : _dc_align_unknown_reach (typed, 0);
    }
  return reach;
}

/* Searches each token of @name for each word typed (and for each line typed whole, as
 * one word, spaces included, as a query that fits nowhere tries last), strictly and
 * with every value relaxed; returns how many it found and how many the matcher passes
 * over unsearched. A token found to spell a word must not be one of those. */
static void
check_reach (const char *name, gboolean filled, guint *found, guint *passed_over)
{
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (name);
  g_autoptr (GPtrArray) nfd_values = g_ptr_array_new_with_free_func (free_value);
  g_autoptr (GHashTable) holders = g_hash_table_new (g_str_hash, g_str_equal);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  guint n_tokens, n_symbols;
  const DcToken *tokens = dc_document_get_tokens (document, &n_tokens);

  /* Values as a user who typed every line where it stands would have them. */
  if (filled)
    {
      g_autoptr (DcMatcher) matcher = dc_matcher_new (key);

      for (guint l = 0; l < lines->len; l++)
        dc_match_result_free (
            dc_matcher_type (matcher, g_ptr_array_index (lines, l), (int) l, -1, NULL));
    }
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);

      g_ptr_array_add (nfd_values, value != NULL ? _dc_nfd_visual_of (value) : NULL);
    }
  for (guint l = 0; l < MIN (lines->len, 12); l++)
    {
      g_auto (GStrv) words = g_strsplit (g_ptr_array_index (lines, l), " ", -1);
      guint n_words = g_strv_length (words);

      for (guint w = 0; w <= n_words; w++)
        {
          char *whole[] = { g_ptr_array_index (lines, l), NULL };
          char *one[] = { w < n_words ? words[w] : NULL, NULL };
          g_auto (Typed) typed = { 0 };
          guint needed;

          if (w < n_words && *words[w] == '\0')
            continue;
          _dc_typed_prepare (&typed, w < n_words ? one : whole, FALSE);
          needed = _dc_align_word_reach (&typed, 0);
          for (guint t = 0; t < n_tokens; t++)
            {
              const DcToken *token = &tokens[t];
              g_autofree guint32 *symbols = g_new (guint32, MAX (1, token->n_glyphs));
              g_autofree guint8 *no_advance = g_new (guint8, MAX (1, token->n_glyphs));
              gboolean reaches;

              for (guint g = 0; g < token->n_glyphs; g++)
                {
                  const DcGlyph *glyph = &glyphs[order[token->first_glyph + g]];

                  symbols[g] = glyph->symbol;
                  no_advance[g] = _dc_matcher_glyph_has_no_advance (glyph);
                }
              reaches = token_reach (&typed, nfd_values, symbols, token->n_glyphs) >= needed;
              *passed_over += !reaches;
              for (guint relaxed = 0; relaxed < 2; relaxed++)
                {
                  Search search = { 0 };

                  search.document = document;
                  search.key = key;
                  search.nfd_values = nfd_values;
                  search.holders = holders;
                  search.typed = &typed;
                  search.symbols = symbols;
                  search.token_end = &token->n_glyphs;
                  search.no_advance = no_advance;
                  search.relaxed = search.relax_all = relaxed;
                  _dc_search_run (&search);
                  g_clear_pointer (&search.best, g_array_unref);
                  *found += search.found;
                  if (search.found && !reaches)
                    g_error ("%s: token %u spells “%s” (%s) but was counted too short", name, t,
                             w < n_words ? words[w] : whole[0], relaxed ? "relaxed" : "strict");
                }
            }
        }
    }
}

/* A token whose glyphs cannot pass the typed word's cluster ends is not searched
 * (_dc_align_glyph_reach(), _dc_align_unknown_reach()): in scripts with conjuncts,
 * marks drawn first, lam-alef, a Mongolian vowel separator and ligatures, with no value
 * known and with every value known, no token the search reads as a word is one. */
static void
test_reach_bounds_search (void)
{
  static const char *names[] = { "script-hindi-stripped",
                                 "script-hindi-reph-stripped",
                                 "script-bengali-marks-stripped",
                                 "script-tamil-stripped",
                                 "script-arabic-lamalef-stripped",
                                 "script-mongolian-mvs-stripped",
                                 "ligatures",
                                 "legacy-cyrillic" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint filled = 0; filled < 2; filled++)
      {
        guint found = 0, passed_over = 0;

        check_reach (names[i], filled, &found, &passed_over);
        g_test_message ("%s, %s: %u found, %u passed over", names[i],
                        filled ? "values typed" : "new", found, passed_over);
        /* Not vacuous: some tokens read as the words, others are passed over. */
        g_assert_cmpuint (found, >, 0);
        g_assert_cmpuint (passed_over, >, 0);
      }
}

int
main (int argc, char **argv)
{
  static const char *recoverable[] = {
    "legacy-cyrillic",     "uralic-legacy", "identity-h", "identity-named",
    "duplicate-tounicode", "type3",         "rotated",    "ligatures"
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (recoverable); i++)
    {
      g_autofree char *path = g_strdup_printf ("/matcher/recover/%s", recoverable[i]);
      g_test_add_data_func (path, recoverable[i], test_recover_by_lines);
    }
  g_test_add_func ("/matcher/no-match", test_no_match_says_why);
  g_test_add_func ("/matcher/ambiguous", test_ambiguous_then_narrowed);
  g_test_add_func ("/matcher/punctuation-left-out", test_punctuation_left_out);
  g_test_add_func ("/matcher/no-invented-ligature", test_no_invented_ligature);
  g_test_add_func ("/matcher/conflict", test_conflict);
  g_test_add_func ("/matcher/typo-is-no-conflict", test_typo_is_no_conflict);
  g_test_add_func ("/matcher/conflict-in-view", test_conflict_in_view);
  g_test_add_func ("/matcher/undo-redo", test_undo_redo);
  g_test_add_func ("/matcher/combining-mark", test_combining_mark);
  g_test_add_func ("/matcher/empty-value", test_empty_value);
  g_test_add_func ("/matcher/bad-input", test_bad_input);
  g_test_add_func ("/matcher/index-in-thread", test_index_in_thread);
  g_test_add_func ("/matcher/long-word", test_long_word);
  g_test_add_func ("/matcher/reach-bounds-search", test_reach_bounds_search);

  return g_test_run ();
}
