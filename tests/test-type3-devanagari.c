/* test-type3-devanagari.c: a Type3 Devanagari font drawn in visual order, decoded by
 * typing whole lines (issue 30)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixture: tests/fixtures/generate-type3-devanagari.py (type3-devanagari.pdf: no
 * ToUnicode, ि drawn before its consonant, the reph a glyph of its own after its
 * cluster, words parted by gaps, compounds drawn as two runs, dandas tight).
 */

#include "config.h"

#include <string.h>

#include "dc-test-fixtures.h"

/* The lines as a linguist types them: in logical order, with their own word breaks
 * (राजमार्ग and जलधारा as one word each, a space before every danda), so that the
 * typed words and the page's glyph runs rarely fall into the same number of tokens. */
static const char *const typed_lines[] = {
  "किसान सुबह खेत में काम करने गया ।",   "धर्म और कर्म का मार्ग कठिन है ।",
  "निर्मल जल में कमल खिले हैं ।",         "सूर्य की किरणें पर्वत पर गिरीं ।",
  "गाँव का राजमार्ग नदी तक जाता है ।", "दिन भर बारिश की जलधारा बहती रही ।",
};

static char *
nfc (const char *text)
{
  return g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
}

static void
assert_text_equals_truth (DcDocument *document, DcKey *key, const char *name)
{
  g_autoptr (GPtrArray) truth = dc_test_truth_lines (name);
  g_autofree char *text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_autofree char *line = NULL;
      g_autofree char *expected = NULL;

      g_strstrip (lines[l]);
      if (lines[l][0] == '\0' || strcmp (lines[l], "\f") == 0)
        continue;
      g_assert_cmpuint (n, <, truth->len);
      line = nfc (lines[l]);
      expected = nfc (g_ptr_array_index (truth, n));
      g_assert_cmpstr (line, ==, expected);
      n++;
    }
  g_assert_cmpuint (n, ==, truth->len);
}

/* Types every line whole, clicked as a cue: each is taken, nothing conflicts. */
static void
type_lines (DcSession *session)
{
  for (guint l = 0; l < G_N_ELEMENTS (typed_lines); l++)
    {
      g_autoptr (DcMatchResult) result = NULL;
      g_autoptr (GError) error = NULL;

      result = dc_session_type (session, typed_lines[l], (int) l, -1, &error);
      g_assert_no_error (error);
      g_assert_nonnull (result);
      if (result->kind != DC_MATCH_ASSIGNED && result->kind != DC_MATCH_KNOWN)
        g_error ("typing line %u: %s: %s", l, dc_match_kind_to_string (result->kind),
                 result->reason);
    }
  g_assert_cmpuint (dc_matcher_get_n_conflicts (dc_session_get_matcher (session)), ==, 0);
}

/* Each line typed whole in a fresh session: the page reads as its truth. */
static void
test_type_whole_lines (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("type3-devanagari");
  g_autoptr (DcSession) session = dc_session_new (document);

  g_assert_cmpuint (dc_document_get_n_fonts (document), ==, 1);
  g_assert_false (dc_font_is_trusted (dc_document_get_font (document, 0)));
  type_lines (session);
  assert_text_equals_truth (document, dc_session_get_key (session), "type3-devanagari");
}

/* The font library keeps Type 3 glyphs by their procedures: what was typed in one
 * document is replayed in another drawn with the same procedures at other codes, under
 * other glyph names, by a fresh session, with no typing. Their shapes have no ink grid,
 * so none is near another. */
static void
test_library_replays (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("decipher-type3-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "library.sqlite", NULL);
  g_autoptr (DcLibrary) library = NULL;
  g_autoptr (DcDocument) second = dc_test_load_document ("type3-devanagari-second");
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (second, "type3-devanagari-second");
  guint n_symbols, n_shaped = 0;

  g_assert_no_error (error);
  library = dc_library_open (path, &error);
  g_assert_no_error (error);
  {
    g_autoptr (DcDocument) first = dc_test_load_document ("type3-devanagari");
    g_autoptr (DcSession) session = dc_session_new (first);

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, FALSE);
    type_lines (session);
    g_assert_true (dc_session_sync (session, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (dc_library_get_n_entries (library), >, 0);

  {
    g_autoptr (DcSession) session = dc_session_new (second);
    DcKey *key = dc_session_get_key (session);
    DcShapes *shapes;

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, FALSE);
    shapes = dc_session_get_shapes (session);
    dc_document_get_symbols (second, &n_symbols);
    for (guint s = 0; s < n_symbols; s++)
      {
        const DcShape *shape = dc_shapes_get (shapes, s);

        if (shape == NULL)
          continue;
        n_shaped++;
        g_assert_true (shape->no_ink);
        for (guint t = 0; t < n_symbols; t++)
          if (t != s && dc_shapes_get (shapes, t) != NULL)
            g_assert_cmpfloat (dc_shape_distance (shape, dc_shapes_get (shapes, t)), ==, 1.0);
        g_assert_cmpstr (dc_key_get_value (key, s), ==, g_ptr_array_index (truth, s));
        g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_LIBRARY);
      }
    g_assert_cmpuint (n_shaped, ==, n_symbols);
    assert_text_equals_truth (second, key, "type3-devanagari-second");
  }
  dc_test_remove_tree (dir);
}

/* Reading across runs is no licence to read anything anywhere: a line typed at another
 * line, whose glyphs repeat otherwise, fits nowhere and teaches nothing. */
static void
test_wrong_line_learns_nothing (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("type3-devanagari");
  g_autoptr (DcSession) session = dc_session_new (document);
  DcKey *key = dc_session_get_key (session);
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  guint n_symbols;

  result = dc_session_type (session, typed_lines[0], 1, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_cmpint (result->kind, ==, DC_MATCH_NO_MATCH);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    g_assert_null (dc_key_get_value (key, s));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/type3-devanagari/type-whole-lines", test_type_whole_lines);
  g_test_add_func ("/type3-devanagari/library-replays", test_library_replays);
  g_test_add_func ("/type3-devanagari/wrong-line-learns-nothing", test_wrong_line_learns_nothing);
  return g_test_run ();
}
