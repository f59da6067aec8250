/* test-key.c: the symbol → value table, its rules, undo and counts, on the real fixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "dc-test-fixtures.h"

/* What each symbol really stands for, from the text the fixture generator drew: the
 * document's lines follow the ground truth's glyph for glyph (test-document checks that). */
static GPtrArray *
load_truth_values (DcDocument *document, const char *name, char **expected_text)
{
  g_autofree char *file = g_strconcat (name, ".json", NULL);
  g_autofree char *path = dc_test_fixture_path (file);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  GPtrArray *values;
  JsonArray *pages;
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  values = g_ptr_array_new_full (n_symbols, g_free);
  g_ptr_array_set_size (values, n_symbols);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  pages = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "pages");

  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonObject *truth_page = json_array_get_object_element (pages, page);
      JsonArray *truth_lines = json_object_get_array_member (truth_page, "lines");
      guint first, n;

      if (page > 0)
        g_string_append_c (text, '\f');
      dc_document_get_page_lines (document, page, &first, &n);
      g_assert_cmpuint (n, ==, json_array_get_length (truth_lines));
      for (guint l = 0; l < n; l++)
        {
          JsonObject *truth_line = json_array_get_object_element (truth_lines, l);
          JsonArray *truth_glyphs = json_object_get_array_member (truth_line, "glyphs");
          const DcLine *line = &lines[first + l];

          g_string_append (text, json_object_get_string_member (truth_line, "text"));
          g_string_append_c (text, '\n');
          g_assert_cmpuint (line->n_glyphs, ==, json_array_get_length (truth_glyphs));
          for (guint k = 0; k < line->n_glyphs; k++)
            {
              guint symbol = glyphs[order[line->first_glyph + k]].symbol;
              const char *truth =
                  json_object_get_string_member (json_array_get_object_element (truth_glyphs, k),
                                                 "text");

              if (g_ptr_array_index (values, symbol) == NULL)
                g_ptr_array_index (values, symbol) = g_strdup (truth);
              else
                g_assert_cmpstr (g_ptr_array_index (values, symbol), ==, truth);
            }
        }
    }

  if (expected_text)
    *expected_text = g_string_free (g_steal_pointer (&text), FALSE);
  return values;
}

/* An untrusted symbol whose true value is @truth. */
static guint
find_symbol (DcDocument *document, GPtrArray *truth, const char *value)
{
  for (guint s = 0; s < truth->len; s++)
    if (dc_document_symbol_needs_decoding (document, s)
        && g_strcmp0 (g_ptr_array_index (truth, s), value) == 0)
      return s;
  g_assert_not_reached ();
}

/* The @n-th symbol (from 0) that needs decoding. */
static guint
nth_untrusted (DcDocument *document, guint n)
{
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s) && n-- == 0)
      return s;
  g_assert_not_reached ();
}

static guint
first_untrusted (DcDocument *document)
{
  return nth_untrusted (document, 0);
}

static void
count_changed (DcKey *key, guint symbol, gpointer data)
{
  GArray *emissions = data;

  g_array_append_val (emissions, symbol);
}

static void
test_seed_clean (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  g_autoptr (DcKey) key = dc_key_new (document);
  const DcSymbol *symbols;
  guint n_symbols, n_decoded, n_glyphs;

  symbols = dc_document_get_symbols (document, &n_symbols);
  g_assert_cmpuint (n_symbols, >, 0);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_FROM_PDF);
      g_assert_cmpstr (dc_key_get_value (key, s), ==, symbols[s].pdf_text);
      g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "pdf");
    }

  dc_key_count_to_decode (key, &n_decoded, &n_glyphs);
  g_assert_cmpuint (n_decoded, ==, 0);
  g_assert_cmpuint (n_glyphs, ==, 0);
  dc_key_count_decoded (key, &n_decoded, &n_glyphs);
  g_assert_cmpuint (n_decoded, ==, 0);
  g_assert_cmpuint (n_glyphs, ==, 0);
  g_assert_false (dc_key_can_undo (key));
  g_assert_false (dc_key_can_redo (key));

  g_assert_finalize_object (g_steal_pointer (&key));
}

static void
test_seed_legacy (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  const DcSymbol *symbols;
  guint n_symbols, untrusted = 0, trusted = 0, untrusted_glyphs = 0;
  guint to_decode, to_decode_glyphs;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (dc_document_symbol_needs_decoding (document, s))
        {
          g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
          g_assert_null (dc_key_get_value (key, s));
          g_assert_null (dc_key_peek_value (key, s));
          g_assert_null (dc_key_get_provenance (key, s));
          untrusted++;
          untrusted_glyphs += symbols[s].n_glyphs;
        }
      else
        {
          g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_FROM_PDF);
          g_assert_cmpstr (dc_key_get_value (key, s), ==, symbols[s].pdf_text);
          trusted++;
        }
    }
  g_assert_cmpuint (untrusted, >, 0);
  g_assert_cmpuint (trusted, >, 0);

  dc_key_count_to_decode (key, &to_decode, &to_decode_glyphs);
  g_assert_cmpuint (to_decode, ==, untrusted);
  g_assert_cmpuint (to_decode_glyphs, ==, untrusted_glyphs);
}

static void
test_set_get (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);
  guint s1 = nth_untrusted (document, 1), s2 = nth_untrusted (document, 2);

  g_assert_true (dc_key_set (key, s, "ж", DC_KEY_PROPOSED, "glyph name", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_PROPOSED);
  g_assert_null (dc_key_get_value (key, s));
  g_assert_cmpstr (dc_key_peek_value (key, s), ==, "ж");
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "glyph name");

  g_assert_true (dc_key_set (key, s, "в", DC_KEY_INFERRED, "type: «весной»", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "в");
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "type: «весной»");

  /* Agreeing evidence raises the status and takes the new provenance. */
  g_assert_true (dc_key_set (key, s, "в", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "assign");

  /* Several characters and nothing at all are values too. */
  g_assert_true (dc_key_set (key, s1, "ﬁ", DC_KEY_INFERRED, NULL, &error));
  g_assert_true (dc_key_set (key, s1, "fi", DC_KEY_CONFIRMED, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s1), ==, "fi");
  g_assert_null (dc_key_get_provenance (key, s1));
  g_assert_true (dc_key_set (key, s2, "", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s2), ==, "");
  g_assert_cmpstr (dc_key_value_func (s2, key), ==, "");
}

static void
test_confirmed_kept (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);

  g_assert_true (dc_key_set (key, s, "а", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);

  g_assert_false (dc_key_set (key, s, "о", DC_KEY_INFERRED, "type: «слово»", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "«а»"));
  g_assert_nonnull (strstr (error->message, "«о»"));
  g_clear_error (&error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "а");
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "assign");

  g_assert_false (dc_key_set (key, s, "о", DC_KEY_PROPOSED, "code page", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "а");

  /* Agreeing evidence of lower rank is no conflict, and changes nothing. */
  g_assert_true (dc_key_set (key, s, "а", DC_KEY_INFERRED, "type: «а»", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "assign");

  /* The user resolving the conflict may replace it. */
  g_assert_true (dc_key_set (key, s, "о", DC_KEY_CONFIRMED, "conflict", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "о");
}

/* Issue 28/31: a proposal an untrusted cmap made at a few percent keeps no value applied
 * by itself out of its place, nor lends it its level and reason when they agree; a sure
 * proposal still outranks a lower level's value. */
static void
test_weak_proposals (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = nth_untrusted (document, 0), t = nth_untrusted (document, 1);
  guint u = nth_untrusted (document, 2);

  g_assert_true (dc_key_set_full (key, s, "<", DC_KEY_PROPOSED, DC_KEY_LEVEL_FONT, 0.03,
                                  "font: cmap U+003C", &error));
  g_assert_true (dc_key_set_full (key, s, "а", DC_KEY_INFERRED, DC_KEY_LEVEL_IDENTITY, -1,
                                  "identity: installed", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "а");
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_IDENTITY);

  g_assert_true (dc_key_set_full (key, t, " ", DC_KEY_PROPOSED, DC_KEY_LEVEL_FONT, 0.03,
                                  "font: cmap U+0020", &error));
  g_assert_true (dc_key_set_full (key, t, " ", DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                                  "auto: space", &error));
  g_assert_cmpint (dc_key_get_level (key, t), ==, DC_KEY_LEVEL_GUESS);
  g_assert_cmpstr (dc_key_get_provenance (key, t), ==, "auto: space");
  g_assert_cmpfloat (dc_key_get_confidence (key, t), ==,
                     dc_key_level_get_default_confidence (DC_KEY_LEVEL_GUESS));

  /* As sure as the value: the higher level holds, and the refusal is a conflict. */
  g_assert_true (dc_key_set_full (key, u, "б", DC_KEY_PROPOSED, DC_KEY_LEVEL_FONT, -1,
                                  "proposal: glyph names", &error));
  g_assert_false (dc_key_set_full (key, u, "в", DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                                   "auto: guess", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_assert_cmpstr (dc_key_peek_value (key, u), ==, "б");
}

/* DESIGN §7: each value rests on a level of evidence; a lower level never replaces a
 * higher one, and the refusal names both sides. */
static void
test_levels (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = nth_untrusted (document, 0), t = nth_untrusted (document, 1);
  guint trusted;

  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_NONE);
  g_assert_cmpfloat (dc_key_get_confidence (key, s), ==, 0);

  /* The font's own names, applied automatically. */
  g_assert_true (dc_key_set_full (key, s, "д", DC_KEY_INFERRED, DC_KEY_LEVEL_FONT, -1,
                                  "font: glyph name uni0434", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_FONT);
  g_assert_cmpfloat (dc_key_get_confidence (key, s), ==,
                     dc_key_level_get_default_confidence (DC_KEY_LEVEL_FONT));

  /* A guess that disagrees is refused, naming both. */
  g_assert_false (dc_key_set_full (key, s, " ", DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                                   "auto: space", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "glyph name uni0434"));
  g_assert_nonnull (strstr (error->message, "auto: space"));
  g_clear_error (&error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "д");

  /* Even as a mere proposal, weaker evidence does not replace stronger. */
  g_assert_true (dc_key_set_full (key, t, "ж", DC_KEY_PROPOSED, DC_KEY_LEVEL_FONT, -1,
                                  "font: glyph name uni0436", &error));
  g_assert_false (dc_key_set_full (key, t, "х", DC_KEY_PROPOSED, DC_KEY_LEVEL_SHAPE, 0.7,
                                   "shape: ocr", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_false (dc_key_set_full (key, t, "х", DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                                   "auto: full stop", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_cmpstr (dc_key_peek_value (key, t), ==, "ж");
  /* A stronger proposal does, and agreement raises the level and keeps the best figure. */
  g_assert_true (dc_key_set_full (key, t, "х", DC_KEY_PROPOSED, DC_KEY_LEVEL_LIBRARY, -1,
                                  "library: shape 12", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_level (key, t), ==, DC_KEY_LEVEL_LIBRARY);
  g_assert_true (dc_key_set_full (key, t, "х", DC_KEY_INFERRED, DC_KEY_LEVEL_SHAPE, 0.5,
                                  "shape: ocr", &error));
  g_assert_cmpint (dc_key_get_status (key, t), ==, DC_KEY_INFERRED);
  g_assert_cmpint (dc_key_get_level (key, t), ==, DC_KEY_LEVEL_LIBRARY);
  g_assert_cmpfloat (dc_key_get_confidence (key, t), ==,
                     dc_key_level_get_default_confidence (DC_KEY_LEVEL_LIBRARY));
  g_assert_cmpstr (dc_key_get_provenance (key, t), ==, "library: shape 12");

  /* What the user types rests on the highest level; undo gives the old level back. */
  g_assert_true (dc_key_set (key, s, "д", DC_KEY_INFERRED, "type: «да»", &error));
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_USER);
  g_assert_cmpfloat (dc_key_get_confidence (key, s), ==, 1.0);
  g_assert_true (dc_key_undo (key));
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_FONT);
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "font: glyph name uni0434");

  /* Confirming is always the user's level, whatever the caller says. */
  g_assert_true (
      dc_key_set_full (key, s, "б", DC_KEY_CONFIRMED, DC_KEY_LEVEL_GUESS, 0.1, "assign", &error));
  g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_USER);

  dc_document_get_symbols (document, NULL);
  for (trusted = 0; dc_document_symbol_needs_decoding (document, trusted); trusted++)
    ;
  g_assert_cmpint (dc_key_get_level (key, trusted), ==, DC_KEY_LEVEL_PDF);
  g_assert_cmpfloat (dc_key_get_confidence (key, trusted), ==, 1.0);

  for (DcKeyLevel level = DC_KEY_LEVEL_NONE; level <= DC_KEY_LEVEL_LAST; level++)
    {
      DcKeyLevel back;

      g_assert_true (dc_key_level_from_string (dc_key_level_to_string (level), &back));
      g_assert_cmpint (back, ==, level);
    }
  g_assert_false (dc_key_level_from_string ("certain", NULL));
}

static void
test_status_never_lowered (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);
  guint n_symbols, trusted = G_MAXUINT;

  g_assert_true (dc_key_set (key, s, "а", DC_KEY_INFERRED, "type: «а»", &error));
  g_assert_false (dc_key_set (key, s, "о", DC_KEY_PROPOSED, "shape", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "а");

  g_assert_true (dc_key_set (key, s, "а", DC_KEY_PROPOSED, "shape", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
  g_assert_cmpstr (dc_key_get_provenance (key, s), ==, "type: «а»");

  /* Two matches that disagree are a conflict for the user, not last-writer-wins. */
  g_assert_false (dc_key_set (key, s, "о", DC_KEY_INFERRED, "type: «о»", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "type: «а»"));
  g_clear_error (&error);

  /* A newer proposal replaces an older one. */
  s = nth_untrusted (document, 1);
  g_assert_true (dc_key_set (key, s, "б", DC_KEY_PROPOSED, "shape", &error));
  g_assert_true (dc_key_set (key, s, "в", DC_KEY_PROPOSED, "code page", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_peek_value (key, s), ==, "в");

  /* A trusted font's own text outranks a guess, not a match. */
  dc_document_get_symbols (document, &n_symbols);
  for (guint i = 0; i < n_symbols && trusted == G_MAXUINT; i++)
    if (!dc_document_symbol_needs_decoding (document, i)
        && g_strcmp0 (dc_key_get_value (key, i), "e") == 0)
      trusted = i;
  g_assert_cmpuint (trusted, !=, G_MAXUINT);
  g_assert_false (dc_key_set (key, trusted, "é", DC_KEY_PROPOSED, "shape", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_CONFLICT);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_cmpint (dc_key_get_status (key, trusted), ==, DC_KEY_FROM_PDF);
  g_assert_true (dc_key_set (key, trusted, "é", DC_KEY_INFERRED, "type: «é»", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, trusted), ==, "é");
}

static void
assert_invalid (DcKey *key, guint symbol, const char *value, const char *phrase)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *normalized = NULL;

  g_assert_false (dc_key_set (key, symbol, value, DC_KEY_CONFIRMED, "assign", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, phrase));
  g_assert_true (g_str_has_suffix (error->message, "."));
  g_clear_error (&error);

  normalized = dc_key_normalize_value (value, &error);
  g_assert_null (normalized);
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
}

static void
test_validation (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);

  assert_invalid (key, s, "\xD0", "UTF-8");
  assert_invalid (key, s,
                  "a\xFF"
                  "b",
                  "UTF-8");
  assert_invalid (key, s, "a\tb", "U+0009");
  assert_invalid (key, s, "\x01", "U+0001");
  assert_invalid (key, s, "\n", "U+000A");
  assert_invalid (key, s, "а\u2028", "U+2028");
  assert_invalid (key, s, "\uFFFD", "U+FFFD");
  assert_invalid (key, s, "\uFDD0", "U+FDD0");
  assert_invalid (key, s,
                  "абвгдеёжзийклмно"
                  "п",
                  "17 characters");
  assert_invalid (key, s,
                  "абвгдеёжзийклмнопрстуфхцчшщъыьэюяабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
                  "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                  "characters");

  /* Nothing was stored, and nothing can be undone. */
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
  g_assert_false (dc_key_can_undo (key));

  /* Sixteen is allowed; so is a lone combining mark, and a space. */
  g_assert_true (dc_key_set (key, s, "абвгдеёжзийклмно", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_true (dc_key_set (key, s, "\u0301", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "\u0301");
}

static void
test_nfc (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *long_decomposed = NULL;
  guint s = first_untrusted (document);

  g_assert_true (dc_key_set (key, s, "е\u0308", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "ё");

  /* Typed either way, it is the same value: no conflict. */
  g_assert_true (dc_key_set (key, s, "ё", DC_KEY_INFERRED, "type", &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);

  normalized = dc_key_normalize_value ("\u0438\u0306", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (normalized, ==, "й");

  /* The limit counts the stored value: nine ё typed decomposed are eighteen code points
   * but nine characters. */
  long_decomposed = g_strjoin (NULL, "е\u0308", "е\u0308", "е\u0308", "е\u0308", "е\u0308",
                               "е\u0308", "е\u0308", "е\u0308", "е\u0308", NULL);
  g_assert_cmpint (g_utf8_strlen (long_decomposed, -1), ==, 18);
  g_clear_pointer (&normalized, g_free);
  normalized = dc_key_normalize_value (long_decomposed, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_utf8_strlen (normalized, -1), ==, 9);
}

static void
test_undo_grouped (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) emissions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) truth = load_truth_values (document, "legacy-cyrillic", NULL);
  static const char *word[] = { "в", "е", "с", "н", "о", "й" };
  guint symbols[G_N_ELEMENTS (word)];
  guint decoded;

  g_signal_connect (key, "changed", G_CALLBACK (count_changed), emissions);

  dc_key_begin_change (key, "type: «весной»");
  for (guint i = 0; i < G_N_ELEMENTS (word); i++)
    {
      symbols[i] = find_symbol (document, truth, word[i]);
      g_assert_true (
          dc_key_set (key, symbols[i], word[i], DC_KEY_INFERRED, "type: «весной»", &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (emissions->len, ==, 0);
  dc_key_end_change (key);

  g_assert_cmpuint (emissions->len, ==, 1);
  g_assert_cmpuint (g_array_index (emissions, guint, 0), ==, G_MAXUINT);
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, G_N_ELEMENTS (word));
  g_assert_true (dc_key_can_undo (key));
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "type: «весной»");

  /* One undo reverts the whole query. */
  g_assert_true (dc_key_undo (key));
  g_assert_cmpuint (emissions->len, ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (word); i++)
    g_assert_cmpint (dc_key_get_status (key, symbols[i]), ==, DC_KEY_UNKNOWN);
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, 0);
  g_assert_false (dc_key_can_undo (key));
  g_assert_false (dc_key_undo (key));
  g_assert_true (dc_key_can_redo (key));
  g_assert_cmpstr (dc_key_get_redo_label (key), ==, "type: «весной»");

  g_assert_true (dc_key_redo (key));
  for (guint i = 0; i < G_N_ELEMENTS (word); i++)
    {
      g_assert_cmpstr (dc_key_get_value (key, symbols[i]), ==, word[i]);
      g_assert_cmpint (dc_key_get_status (key, symbols[i]), ==, DC_KEY_INFERRED);
      g_assert_cmpstr (dc_key_get_provenance (key, symbols[i]), ==, "type: «весной»");
    }
  g_assert_false (dc_key_can_redo (key));
  g_assert_false (dc_key_redo (key));

  /* A single set is its own step and names its symbol. */
  g_assert_true (dc_key_set (key, symbols[0], "в", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_cmpuint (g_array_index (emissions, guint, emissions->len - 1), ==, symbols[0]);
  g_assert_true (dc_key_undo (key));
  g_assert_cmpint (dc_key_get_status (key, symbols[0]), ==, DC_KEY_INFERRED);
  g_assert_cmpstr (dc_key_get_provenance (key, symbols[0]), ==, "type: «весной»");

  /* A group in which nothing changed leaves no step behind. */
  dc_key_begin_change (key, "type: «в»");
  g_assert_true (dc_key_set (key, symbols[0], "в", DC_KEY_INFERRED, "type: «в»", &error));
  dc_key_end_change (key);
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "type: «весной»");
}

static void
test_redo_cleared (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);
  guint s1 = nth_untrusted (document, 1);

  g_assert_true (dc_key_set (key, s, "а", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_true (dc_key_undo (key));
  g_assert_true (dc_key_can_redo (key));
  g_assert_true (dc_key_set (key, s1, "б", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_false (dc_key_can_redo (key));
  g_assert_false (dc_key_redo (key));
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);

  /* Forgetting is a step like any other. */
  dc_key_forget (key, s1);
  g_assert_cmpint (dc_key_get_status (key, s1), ==, DC_KEY_UNKNOWN);
  g_assert_true (dc_key_undo (key));
  g_assert_cmpstr (dc_key_get_value (key, s1), ==, "б");
}

/* Issue 31: what the user rejected for a symbol, no level sets there again, whatever its
 * evidence; the user's own word does, and lifts the refusal. Undo gives back exactly the
 * state before, refusals included; forgetting keeps them. */
static void
test_reject (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);

  g_assert_false (dc_key_reject (key, s));
  g_assert_null (dc_key_get_refused (key, s));
  g_assert_true (dc_key_set_full (key, s, "у", DC_KEY_PROPOSED, DC_KEY_LEVEL_LAYOUT, 0.9,
                                  "proposal: code page", &error));
  g_assert_true (dc_key_reject (key, s));
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
  g_assert_true (dc_key_is_refused (key, s, "у"));
  g_assert_false (dc_key_is_refused (key, s, "и"));
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "Reject");

  /* Every level below the user's is refused it, proposing or applying. */
  for (DcKeyLevel level = DC_KEY_LEVEL_GUESS; level < DC_KEY_LEVEL_USER; level++)
    for (guint i = 0; i < 2; i++)
      {
        g_assert_false (dc_key_set_full (key, s, "у", i == 0 ? DC_KEY_PROPOSED : DC_KEY_INFERRED,
                                         level, 0.99, "again", &error));
        g_assert_error (error, DC_ERROR, DC_ERROR_REFUSED);
        g_clear_error (&error);
      }
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
  /* Another value may still be proposed; it keeps the refusal, and so does forgetting. */
  g_assert_true (dc_key_set_full (key, s, "и", DC_KEY_PROPOSED, DC_KEY_LEVEL_LAYOUT, 0.9,
                                  "proposal: code page", &error));
  g_assert_true (dc_key_is_refused (key, s, "у"));
  dc_key_forget (key, s);
  g_assert_true (dc_key_is_refused (key, s, "у"));
  g_assert_true (dc_key_set_full (key, s, "и", DC_KEY_PROPOSED, DC_KEY_LEVEL_LAYOUT, 0.9,
                                  "proposal: code page", &error));
  g_assert_true (dc_key_reject (key, s));
  g_assert_cmpstr (dc_key_get_refused (key, s)[0], ==, "у");
  g_assert_cmpstr (dc_key_get_refused (key, s)[1], ==, "и");
  g_assert_null (dc_key_get_refused (key, s)[2]);

  /* Undo: the second rejection, then the proposal before it, as it was. */
  g_assert_true (dc_key_undo (key));
  g_assert_cmpstr (dc_key_peek_value (key, s), ==, "и");
  g_assert_false (dc_key_is_refused (key, s, "и"));
  g_assert_true (dc_key_is_refused (key, s, "у"));
  g_assert_true (dc_key_redo (key));
  g_assert_true (dc_key_is_refused (key, s, "и"));

  /* A typed match is the user's word: it gives the value and lifts that refusal only. */
  g_assert_true (dc_key_set (key, s, "у", DC_KEY_INFERRED, "type: «у»", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, s), ==, "у");
  g_assert_false (dc_key_is_refused (key, s, "у"));
  g_assert_true (dc_key_is_refused (key, s, "и"));
  g_assert_true (dc_key_undo (key));
  g_assert_true (dc_key_is_refused (key, s, "у"));
  g_assert_true (dc_key_set (key, s, "у", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_refused (key, s)[0], ==, "и");
  g_assert_null (dc_key_get_refused (key, s)[1]);
}

static void
test_counts (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) truth = load_truth_values (document, "legacy-cyrillic", NULL);
  guint o = find_symbol (document, truth, "о");
  guint a = find_symbol (document, truth, "а");
  guint t = find_symbol (document, truth, "т");
  guint n_o = dc_document_get_symbol (document, o)->n_glyphs;
  guint n_a = dc_document_get_symbol (document, a)->n_glyphs;
  guint n_symbols, n_glyphs, trusted = G_MAXUINT, total;

  g_assert_cmpuint (n_o, >, 1);

  g_assert_true (dc_key_set (key, o, "о", DC_KEY_INFERRED, "type", &error));
  dc_key_count_decoded (key, &n_symbols, &n_glyphs);
  g_assert_cmpuint (n_symbols, ==, 1);
  g_assert_cmpuint (n_glyphs, ==, n_o);

  /* An ignored glyph is decoded; a proposal is not. */
  g_assert_true (dc_key_set (key, a, "", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_true (dc_key_set (key, t, "т", DC_KEY_PROPOSED, "shape", &error));
  g_assert_no_error (error);
  dc_key_count_decoded (key, &n_symbols, &n_glyphs);
  g_assert_cmpuint (n_symbols, ==, 2);
  g_assert_cmpuint (n_glyphs, ==, n_o + n_a);

  /* Only what needs decoding counts. */
  dc_document_get_symbols (document, &total);
  for (guint i = 0; i < total && trusted == G_MAXUINT; i++)
    if (!dc_document_symbol_needs_decoding (document, i))
      trusted = i;
  g_assert_true (dc_key_set (key, trusted, "x", DC_KEY_CONFIRMED, "assign", &error));
  dc_key_count_decoded (key, &n_symbols, NULL);
  g_assert_cmpuint (n_symbols, ==, 2);

  g_assert_true (dc_key_undo (key));
  g_assert_true (dc_key_undo (key));
  g_assert_true (dc_key_undo (key));
  dc_key_count_decoded (key, &n_symbols, &n_glyphs);
  g_assert_cmpuint (n_symbols, ==, 1);
  g_assert_cmpuint (n_glyphs, ==, n_o);
}

static guint
count_unknown (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) == 0xFFFD)
      n++;
  return n;
}

/* Typing the ground truth symbol by symbol recovers the text exactly. */
static void
test_export (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (GPtrArray) truth = load_truth_values (document, name, &expected);
  g_autofree char *before = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_autofree char *after = NULL;
  guint to_decode, to_decode_glyphs, decoded, decoded_glyphs;

  g_assert_cmpuint (count_unknown (before), >, 0);

  dc_key_begin_change (key, "truth");
  for (guint s = 0; s < truth->len; s++)
    if (dc_document_symbol_needs_decoding (document, s) && g_ptr_array_index (truth, s) != NULL)
      {
        g_assert_true (
            dc_key_set (key, s, g_ptr_array_index (truth, s), DC_KEY_INFERRED, "truth", &error));
        g_assert_no_error (error);
      }
  dc_key_end_change (key);

  after = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_assert_cmpuint (count_unknown (after), ==, 0);
  g_assert_cmpstr (after, ==, expected);

  dc_key_count_to_decode (key, &to_decode, &to_decode_glyphs);
  dc_key_count_decoded (key, &decoded, &decoded_glyphs);
  g_assert_cmpuint (decoded, ==, to_decode);
  g_assert_cmpuint (decoded_glyphs, ==, to_decode_glyphs);

  /* And one undo takes it all back. */
  g_assert_true (dc_key_undo (key));
  g_clear_pointer (&after, g_free);
  after = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_assert_cmpstr (after, ==, before);
}

/* A symbol that becomes a space splits tokens there, and stops doing so on undo. */
static void
test_space (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) truth = load_truth_values (document, "legacy-cyrillic", NULL);
  guint o = find_symbol (document, truth, "о");
  guint space = find_symbol (document, truth, " ");
  guint n_tokens, n_tokens_split, n_tokens_joined;

  dc_document_get_tokens (document, &n_tokens);
  g_assert_false (dc_document_symbol_is_space (document, o));

  g_assert_true (dc_key_set (key, o, " ", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_true (dc_document_symbol_is_space (document, o));
  dc_document_get_tokens (document, &n_tokens_split);
  g_assert_cmpuint (n_tokens_split, >, n_tokens);

  g_assert_true (dc_key_undo (key));
  g_assert_false (dc_document_symbol_is_space (document, o));
  dc_document_get_tokens (document, &n_tokens_split);
  g_assert_cmpuint (n_tokens_split, ==, n_tokens);

  /* The drawn space, told it is a letter, joins words. */
  g_assert_true (dc_key_set (key, space, " ", DC_KEY_INFERRED, "auto: space", &error));
  g_assert_true (dc_document_symbol_is_space (document, space));
  g_assert_true (dc_key_set (key, space, "-", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_no_error (error);
  g_assert_false (dc_document_symbol_is_space (document, space));
  dc_document_get_tokens (document, &n_tokens_joined);
  g_assert_cmpuint (n_tokens_joined, <, n_tokens);
  g_assert_true (dc_key_undo (key));
  g_assert_true (dc_document_symbol_is_space (document, space));
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(guint *) data)++;
}

static void
test_notify (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  guint s = first_untrusted (document);
  guint can_undo = 0, can_redo = 0;
  gboolean value;

  g_signal_connect (key, "notify::can-undo", G_CALLBACK (count_notify), &can_undo);
  g_signal_connect (key, "notify::can-redo", G_CALLBACK (count_notify), &can_redo);

  g_assert_true (dc_key_set (key, s, "а", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_cmpuint (can_undo, ==, 1);
  g_assert_true (dc_key_set (key, s, "б", DC_KEY_CONFIRMED, "assign", &error));
  g_assert_cmpuint (can_undo, ==, 1);
  g_assert_true (dc_key_undo (key));
  g_assert_cmpuint (can_redo, ==, 1);
  g_assert_true (dc_key_undo (key));
  g_assert_cmpuint (can_undo, ==, 2);
  g_object_get (key, "can-redo", &value, NULL);
  g_assert_true (value);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/key/seed/clean", test_seed_clean);
  g_test_add_func ("/key/seed/legacy-cyrillic", test_seed_legacy);
  g_test_add_func ("/key/set-get", test_set_get);
  g_test_add_func ("/key/confirmed-kept", test_confirmed_kept);
  g_test_add_func ("/key/status-never-lowered", test_status_never_lowered);
  g_test_add_func ("/key/levels", test_levels);
  g_test_add_func ("/key/weak-proposals", test_weak_proposals);
  g_test_add_func ("/key/validation", test_validation);
  g_test_add_func ("/key/nfc", test_nfc);
  g_test_add_func ("/key/undo/grouped", test_undo_grouped);
  g_test_add_func ("/key/undo/redo-cleared", test_redo_cleared);
  g_test_add_func ("/key/undo/notify", test_notify);
  g_test_add_func ("/key/counts", test_counts);
  g_test_add_func ("/key/reject", test_reject);
  g_test_add_func ("/key/space", test_space);
  g_test_add_data_func ("/key/export/legacy-cyrillic", "legacy-cyrillic", test_export);
  g_test_add_data_func ("/key/export/uralic-legacy", "uralic-legacy", test_export);

  return g_test_run ();
}
