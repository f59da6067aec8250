/* test-split.c: occurrences that read otherwise than their symbol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On ascii-legacy (a generated Nenets text in a legacy code page) code 89 draws every
 * Cyrillic а. A split makes one of its occurrences read Latin a, as a home-made font that
 * drew both with one code would need: the key, its undo, the project file and journal,
 * the text and JSON exports, search and the repaired PDF must all tell that occurrence
 * apart, and the font map must not.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "dc-test-fixtures.h"

#define FIXTURE "ascii-legacy"
#define CYRILLIC_A "\xD0\xB0" /* а */

typedef struct
{
  char *dir;
  DcDocument *document;
  DcKey *key;
  guint symbol;     /* code 89: а */
  guint first;      /* its first occurrence in reading order: Ӈ[а]рка */
  guint second;     /* its second: Ӈарк[а] */
  guint occurrence; /* any third one */
} Fixture;

/* The glyphs of line 0 in reading order. */
static const guint32 *
line_glyphs (DcDocument *document, guint line, guint *n)
{
  const DcLine *l = &dc_document_get_lines (document, NULL)[line];
  const guint32 *order = dc_document_get_reading_order (document, NULL);

  *n = l->n_glyphs;
  return order + l->first_glyph;
}

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  const DcGlyph *glyphs;
  const guint32 *line;
  guint n, n_glyphs, found = 0;

  fixture->dir = g_dir_make_tmp ("decipher-split-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->document = dc_test_load_document (FIXTURE);
  fixture->key = dc_key_new (fixture->document);
  dc_test_key_fill_from_truth (fixture->key, FIXTURE);
  g_assert_true (dc_document_lookup_symbol (fixture->document, 0, 89, &fixture->symbol));
  g_assert_cmpstr (dc_key_get_value (fixture->key, fixture->symbol), ==, CYRILLIC_A);

  glyphs = dc_document_get_glyphs (fixture->document, &n_glyphs);
  line = line_glyphs (fixture->document, 0, &n);
  for (guint k = 0; k < n; k++)
    if (glyphs[line[k]].symbol == fixture->symbol)
      {
        if (found == 0)
          fixture->first = line[k];
        else if (found == 1)
          fixture->second = line[k];
        else if (found == 2)
          fixture->occurrence = line[k];
        found++;
      }
  g_assert_cmpuint (found, >=, 3);
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_clear_object (&fixture->key);
  g_clear_object (&fixture->document);
}

static char *
first_line (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  return dc_export_line_text (document, 0, value, user_data);
}

/* The truth's first line with its first а Latin. */
static char *
split_truth (void)
{
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (FIXTURE);
  const char *truth = g_ptr_array_index (lines, 0);
  const char *a = strstr (truth, CYRILLIC_A);

  g_assert_nonnull (a);
  return g_strdup_printf ("%.*sa%s", (int) (a - truth), truth, a + strlen (CYRILLIC_A));
}

static void
split_first (Fixture *fixture)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (dc_key_split (fixture->key, &fixture->first, 1, "a", "split", &error));
  g_assert_no_error (error);
}

static void
test_split_undo_redo (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (FIXTURE);
  g_autofree char *expected = split_truth ();
  g_autofree char *before = first_line (fixture->document, dc_key_value_func, fixture->key);
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;
  g_autofree char *redone = NULL;
  g_autofree guint *split = NULL;
  guint n_split;

  g_assert_cmpstr (before, ==, g_ptr_array_index (lines, 0));
  split_first (fixture);

  /* Only that occurrence: its symbol and its other occurrences still read а. */
  g_assert_cmpstr (dc_key_get_split (fixture->key, fixture->first, NULL), ==, "a");
  g_assert_cmpstr (dc_key_get_glyph_value (fixture->key, fixture->first), ==, "a");
  g_assert_cmpstr (dc_key_get_glyph_value (fixture->key, fixture->second), ==, CYRILLIC_A);
  g_assert_cmpstr (dc_key_get_value (fixture->key, fixture->symbol), ==, CYRILLIC_A);
  after = first_line (fixture->document, dc_key_value_func, fixture->key);
  g_assert_cmpstr (after, ==, expected);
  split = dc_key_dup_split_glyphs (fixture->key, fixture->symbol, &n_split);
  g_assert_cmpuint (n_split, ==, 1);
  g_assert_cmpuint (split[0], ==, fixture->first);

  /* A later change of the symbol does not touch the split: it is the user's word. */
  g_assert_true (dc_key_set (fixture->key, fixture->symbol, "o", DC_KEY_CONFIRMED, "assign", NULL));
  g_assert_cmpstr (dc_key_get_glyph_value (fixture->key, fixture->first), ==, "a");
  g_assert_cmpstr (dc_key_get_glyph_value (fixture->key, fixture->second), ==, "o");
  g_assert_true (dc_key_undo (fixture->key));

  g_assert_cmpstr (dc_key_get_undo_label (fixture->key), ==, "split");
  g_assert_true (dc_key_undo (fixture->key));
  undone = first_line (fixture->document, dc_key_value_func, fixture->key);
  g_assert_cmpstr (undone, ==, g_ptr_array_index (lines, 0));
  g_assert_null (dc_key_get_split (fixture->key, fixture->first, NULL));

  g_assert_true (dc_key_redo (fixture->key));
  redone = first_line (fixture->document, dc_key_value_func, fixture->key);
  g_assert_cmpstr (redone, ==, expected);

  /* Unsplit is a step of its own. */
  g_assert_true (dc_key_unsplit (fixture->key, &fixture->first, 1));
  g_assert_null (dc_key_get_split (fixture->key, fixture->first, NULL));
  g_assert_false (dc_key_unsplit (fixture->key, &fixture->first, 1));
  g_assert_true (dc_key_undo (fixture->key));
  g_assert_cmpstr (dc_key_get_split (fixture->key, fixture->first, NULL), ==, "a");
}

static void
unmapped (Fixture *fixture, guint *n_symbols, guint *n_glyphs)
{
  dc_export_count_unmapped (fixture->document, -1, dc_key_value_func, fixture->key, n_symbols,
                            n_glyphs);
}

/* The counts are of what each glyph reads: an occurrence split off its unknown symbol is
 * decoded, its symbol's other occurrences are not, and a symbol every occurrence of which
 * is split off counts as decoded (no glyph of it reads U+FFFD). */
static void
test_split_counts (Fixture *fixture, gconstpointer data)
{
  g_autofree guint32 *all = NULL;
  const guint32 *occurrences;
  guint n_occurrences, symbols, glyphs, full_symbols, full_glyphs, n_unmapped, n_codes;

  occurrences = dc_document_get_symbol_glyphs (fixture->document, fixture->symbol, &n_occurrences);
  all = g_memdup2 (occurrences, n_occurrences * sizeof (guint32));
  dc_key_count_decoded (fixture->key, &full_symbols, &full_glyphs);
  unmapped (fixture, &n_codes, &n_unmapped);
  g_assert_cmpuint (n_unmapped, ==, 0);

  dc_key_forget (fixture->key, fixture->symbol);
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (symbols, ==, full_symbols - 1);
  g_assert_cmpuint (glyphs, ==, full_glyphs - n_occurrences);
  unmapped (fixture, &n_codes, &n_unmapped);
  g_assert_cmpuint (n_codes, ==, 1);
  g_assert_cmpuint (n_unmapped, ==, n_occurrences);

  split_first (fixture);
  g_assert_cmpuint (dc_key_count_split (fixture->key, fixture->symbol), ==, 1);
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (symbols, ==, full_symbols - 1);
  g_assert_cmpuint (glyphs, ==, full_glyphs - n_occurrences + 1);
  unmapped (fixture, &n_codes, &n_unmapped);
  g_assert_cmpuint (n_codes, ==, 1);
  g_assert_cmpuint (n_unmapped, ==, n_occurrences - 1);

  /* Every occurrence split off: the symbol reads nowhere, so it is decoded. */
  g_assert_true (dc_key_split (fixture->key, all, n_occurrences, CYRILLIC_A, "split", NULL));
  g_assert_cmpuint (dc_key_count_split (fixture->key, fixture->symbol), ==, n_occurrences);
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (symbols, ==, full_symbols);
  g_assert_cmpuint (glyphs, ==, full_glyphs);
  unmapped (fixture, &n_codes, &n_unmapped);
  g_assert_cmpuint (n_unmapped, ==, 0);
  g_assert_cmpuint (n_codes, ==, 0);

  /* Its own value then counts its glyphs once, not again for the splits. */
  g_assert_true (dc_key_set (fixture->key, fixture->symbol, "o", DC_KEY_CONFIRMED, "assign", NULL));
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (symbols, ==, full_symbols);
  g_assert_cmpuint (glyphs, ==, full_glyphs);

  /* Undo walks the counts back step by step. */
  g_assert_true (dc_key_undo (fixture->key));
  g_assert_true (dc_key_undo (fixture->key));
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (glyphs, ==, full_glyphs - n_occurrences + 1);
  g_assert_true (dc_key_undo (fixture->key));
  dc_key_count_decoded (fixture->key, &symbols, &glyphs);
  g_assert_cmpuint (symbols, ==, full_symbols - 1);
  g_assert_cmpuint (glyphs, ==, full_glyphs - n_occurrences);
  g_assert_cmpuint (dc_key_count_split (fixture->key, fixture->symbol), ==, 0);
}

static void
test_split_refusals (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  guint n_glyphs;
  guint beyond, mixed[2] = { 0 };
  const DcGlyph *glyphs = dc_document_get_glyphs (fixture->document, &n_glyphs);

  beyond = n_glyphs;
  g_assert_false (dc_key_split (fixture->key, &beyond, 1, "a", NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  mixed[0] = fixture->first;
  for (guint g = 0; g < n_glyphs; g++)
    if (glyphs[g].symbol != fixture->symbol)
      mixed[1] = g;
  g_assert_false (dc_key_split (fixture->key, mixed, 2, "a", NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  g_assert_false (dc_key_split (fixture->key, &fixture->first, 1, " ", NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* An occurrence of a word space: words are divided there, whatever it would read. */
  {
    guint space;

    g_assert_true (dc_document_lookup_symbol (fixture->document, 0, 32, &space));
    g_assert_true (dc_document_symbol_is_space (fixture->document, space));
    for (guint g = 0; g < n_glyphs; g++)
      if (glyphs[g].symbol == space)
        {
          g_assert_false (dc_key_split (fixture->key, &g, 1, "-", NULL, &error));
          g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
          g_test_message ("%s", error->message);
          g_clear_error (&error);
          break;
        }
  }

  g_assert_false (dc_key_split (fixture->key, NULL, 0, "a", NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* Nothing refused changed anything. */
  g_assert_false (dc_key_can_redo (fixture->key));
  g_assert_null (dc_key_get_split (fixture->key, fixture->first, NULL));
}

static DcKey *
reopen (Fixture *fixture, const char *path, GError **error)
{
  DcKey *key = dc_key_new (fixture->document);
  g_autoptr (DcProject) project = dc_project_load (path, fixture->document, key, error);

  if (project == NULL)
    g_clear_object (&key);
  return key;
}

static JsonObject *
read_json (const char *path, JsonParser **parser)
{
  g_autoptr (GError) error = NULL;

  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, path, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

static void
test_split_project (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "split.decipher", NULL);
  g_autofree char *plain = g_build_filename (fixture->dir, "plain.decipher", NULL);
  g_autofree char *expected = split_truth ();
  g_autoptr (DcProject) project = dc_project_new (fixture->document, fixture->key);
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (JsonParser) plain_parser = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autofree char *text = NULL;
  JsonObject *root;

  /* Without a split the file stays version 2, which an older Decipher opens. */
  g_assert_true (dc_project_save (project, plain, &error));
  g_assert_no_error (error);
  root = read_json (plain, &plain_parser);
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==,
                   DC_PROJECT_VERSION_WITHOUT_SPLITS);
  g_assert_false (json_object_has_member (root, "splits"));

  split_first (fixture);
  g_assert_true (dc_project_save (project, path, &error));
  g_assert_no_error (error);
  root = read_json (path, &parser);
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, DC_PROJECT_VERSION);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "splits")), ==, 1);

  key = reopen (fixture, path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_split (key, fixture->first, NULL), ==, "a");
  g_assert_null (dc_key_get_split (key, fixture->second, NULL));
  text = first_line (fixture->document, dc_key_value_func, key);
  g_assert_cmpstr (text, ==, expected);
  /* The undo history came back with it: undoing takes the split back. */
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "split");
  g_assert_true (dc_key_undo (key));
  g_assert_null (dc_key_get_split (key, fixture->first, NULL));
}

static void
test_split_journal (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "journal.decipher", NULL);
  g_autoptr (DcProject) project = dc_project_new (fixture->document, fixture->key);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autoptr (DcKey) again = NULL;
  guint both[2];

  g_assert_true (dc_project_save (project, path, &error));
  g_assert_true (dc_project_start_journal (project, path, FALSE, &error));
  g_assert_no_error (error);

  /* Recorded as they happen, with no save: a crash now loses none of it. */
  both[0] = fixture->first;
  both[1] = fixture->second;
  g_assert_true (dc_key_split (fixture->key, both, 2, "a", "split", &error));
  g_assert_true (dc_key_unsplit (fixture->key, &fixture->second, 1));
  g_assert_true (dc_key_split (fixture->key, &fixture->occurrence, 1, "\xCA\xBC", "split", &error));
  g_assert_no_error (error);
  g_assert_true (dc_project_sync_journal (project, &error));

  key = reopen (fixture, path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_split (key, fixture->first, NULL), ==, "a");
  g_assert_null (dc_key_get_split (key, fixture->second, NULL));
  g_assert_cmpstr (dc_key_get_split (key, fixture->occurrence, NULL), ==, "\xCA\xBC");

  /* Undoing the last split is journalled too. */
  g_assert_true (dc_key_undo (fixture->key));
  g_assert_true (dc_project_sync_journal (project, &error));
  again = reopen (fixture, path, &error);
  g_assert_no_error (error);
  g_assert_null (dc_key_get_split (again, fixture->occurrence, NULL));
  g_assert_cmpstr (dc_key_get_split (again, fixture->first, NULL), ==, "a");
}

/* Writes @root to @path. */
static void
write_json (JsonObject *root, const char *path)
{
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;

  json_node_set_object (node, root);
  json_generator_set_root (generator, node);
  g_assert_true (json_generator_to_file (generator, path, &error));
  g_assert_no_error (error);
}

/* A split naming a glyph the document does not have, one of another code, one naming no
 * glyph, or a key entry naming one: one sentence, and the key as it was. */
static void
test_split_project_refused (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "bad.decipher", NULL);
  g_autoptr (DcProject) project = dc_project_new (fixture->document, fixture->key);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (DcKey) key = dc_key_new (fixture->document);
  g_autoptr (DcProject) loaded = NULL;
  const char *bad[] = { "beyond", "other code", "inferred", "no glyph", "glyph in the key" };
  JsonObject *root, *split;
  guint n_glyphs;

  dc_document_get_glyphs (fixture->document, &n_glyphs);
  split_first (fixture);
  g_assert_true (dc_project_save (project, path, &error));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_object (&parser);
      root = read_json (path, &parser);
      split = json_array_get_object_element (json_object_get_array_member (root, "splits"), 0);
      if (i == 0)
        json_object_set_int_member (split, "glyph", n_glyphs + 5);
      else if (i == 1)
        json_object_set_int_member (split, "glyph", fixture->first == 0 ? 1 : 0);
      else if (i == 2)
        json_object_set_string_member (split, "status", "inferred");
      else if (i == 3)
        json_object_remove_member (split, "glyph");
      else
        json_object_set_int_member (
            json_array_get_object_element (json_object_get_array_member (root, "key"), 0), "glyph",
            fixture->first);
      {
        g_autofree char *bad_path = g_build_filename (fixture->dir, "worse.decipher", NULL);

        write_json (root, bad_path);
        loaded = dc_project_load (bad_path, fixture->document, key, &error);
        g_assert_null (loaded);
        g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
        g_test_message ("%s: %s", bad[i], error->message);
        g_assert_nonnull (strstr (error->message, "glyph"));
        g_clear_error (&error);
        g_assert_cmpint (g_remove (bad_path), ==, 0);
      }
    }
  /* The key the failed loads were to fill is as it was. */
  g_assert_null (dc_key_get_split (key, fixture->first, NULL));
}

static void
test_split_exports (Fixture *fixture, gconstpointer data)
{
  g_autofree char *expected = split_truth ();
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  g_autofree char *map = NULL;
  g_autoptr (DcSearch) search = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  const char *word;

  /* A key that splits nothing lets the exports take each symbol's text once; one that
   * does must be asked glyph by glyph. */
  g_assert_true (dc_value_reads_by_symbol (dc_key_value_func, fixture->key));
  split_first (fixture);
  g_assert_false (dc_value_reads_by_symbol (dc_key_value_func, fixture->key));

  text = dc_export_document (fixture->document, DC_EXPORT_TEXT, dc_key_value_func, fixture->key);
  g_assert_true (g_str_has_prefix (text, expected));

  json = dc_export_document (fixture->document, DC_EXPORT_JSON, dc_key_value_func, fixture->key);
  g_assert_nonnull (strstr (json, expected));
  /* The split occurrence is a run of its own, the user's. */
  g_assert_nonnull (strstr (json, "\"split\""));

  /* Search finds the word as it now reads, and no longer as it did. */
  word = "\xD3\x87"
         "a\xD1\x80\xD0\xBA\xD0\xB0"; /* Ӈaрка, Latin a */
  search = dc_search_new (fixture->document, word);
  while (!dc_search_step (search, 100, dc_key_value_func, fixture->key))
    ;
  g_assert_cmpuint (dc_search_get_n_matches (search), ==, 1);

  /* The font map speaks of codes: code 89 stays а, the split is this document's alone. */
  map = dc_map_to_json (fixture->key, &error);
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, map, -1, &error));
  {
    JsonObject *font =
        json_array_get_object_element (json_object_get_array_member (json_node_get_object (
                                                                         json_parser_get_root (
                                                                             parser)),
                                                                     "fonts"),
                                       0);
    JsonArray *codes = json_object_get_array_member (font, "map");
    guint n_89 = 0;

    for (guint i = 0; i < json_array_get_length (codes); i++)
      {
        JsonObject *code = json_array_get_object_element (codes, i);

        if (json_object_get_int_member (code, "code") != 89)
          continue;
        n_89++;
        g_assert_cmpstr (json_object_get_string_member (code, "value"), ==, CYRILLIC_A);
      }
    g_assert_cmpuint (n_89, ==, 1);
  }
}

/* The repaired copy's ToUnicode reads code 89 as а; the word holding the split occurrence
 * gets an /ActualText span, so a reader of the copy gets the split too. */
static void
test_split_repair (Fixture *fixture, gconstpointer data)
{
  g_autofree char *output = g_build_filename (fixture->dir, "repaired.pdf", NULL);
  g_autofree char *expected = split_truth ();
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (FIXTURE);
  g_autoptr (DcDocument) repaired = NULL;
  g_autoptr (GError) error = NULL;
  guint n_lines;

  split_first (fixture);
  g_assert_true (dc_repair_write (fixture->key, NULL, output, NULL, &error));
  g_assert_no_error (error);

  repaired = dc_document_new_from_file (output, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dc_document_get_lines (repaired, &n_lines);
  g_assert_cmpuint (n_lines, ==, lines->len);
  for (guint l = 0; l < n_lines; l++)
    {
      g_autofree char *text = dc_export_line_text (repaired, l, dc_document_pdf_value, repaired);

      g_assert_cmpstr (text, ==, l == 0 ? expected : g_ptr_array_index (lines, l));
    }

  /* And so does pdftotext, which Evince's copy shares. */
  if (g_getenv ("PDFTOTEXT") != NULL)
    {
      const char *argv[] = { g_getenv ("PDFTOTEXT"), "-l", "1", output, "-", NULL };
      g_autofree char *out = NULL;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                   NULL, &out, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_nonnull (strstr (out, "\xD3\x87"
                                     "a\xD1\x80\xD0\xBA\xD0\xB0"));
    }

  /* With a letter of its word unknown again, the word gets no span (it would read
   * U+FFFD): the copy reads the occurrence as its code, and a note says so. */
  {
    const DcGlyph *glyphs = dc_document_get_glyphs (fixture->document, NULL);
    g_autoptr (DcRepair) repair = NULL;
    const char *const *notes;
    gboolean noted = FALSE;

    dc_key_forget (fixture->key, glyphs[fixture->first + 1].symbol);
    repair = dc_repair_new (fixture->key, NULL, &error);
    g_assert_no_error (error);
    notes = dc_repair_get_notes (repair);
    for (guint i = 0; notes[i] != NULL; i++)
      noted |= strstr (notes[i], "1 occurrence split off") != NULL;
    g_assert_true (noted);
  }
}

/* Runs decipher-cli with @args and @input on standard input; returns its standard output,
 * one reply a line for a session. */
static char *
run_cli (const char *const *args, const char *input)
{
  g_autofree char *pdf = dc_test_fixture_path (FIXTURE ".pdf");
  const char *argv[16] = { g_getenv ("DECIPHER_CLI"), args[0], pdf };
  DcTestSpawn spawn = { DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT | DC_TEST_PIPE_ERR };
  DcTestProcess process;
  char *out = NULL;
  g_autofree char *err = NULL;
  guint n = 3;

  for (guint i = 1; args[i] != NULL; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  dc_test_process_spawn (&process, argv, &spawn);
  g_assert_cmpint (dc_test_process_communicate (&process, input, -1, &out, &err), ==, 0);
  return out;
}

static JsonObject *
reply_line (GStrv replies, guint i, JsonParser *parser)
{
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (i, <, g_strv_length (replies));
  json_parser_load_from_data (parser, replies[i], -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
status_counts (GStrv replies, guint i, JsonParser *parser, gint64 *symbols, gint64 *glyphs)
{
  JsonObject *reply = reply_line (replies, i, parser);

  g_assert_true (json_object_get_boolean_member (reply, "ok"));
  *symbols = json_object_get_int_member (reply, "decoded_symbols");
  *glyphs = json_object_get_int_member (reply, "decoded_glyphs");
}

/* The session's status counts decoded glyphs as the window's status line does: by what
 * each occurrence reads (DESIGN's status contract). */
static void
test_split_cli_status (Fixture *fixture, gconstpointer data)
{
  g_autofree char *project = g_build_filename (fixture->dir, "status.decipher", NULL);
  const char *session_args[] = { "session", "--project", project, "--no-auto", NULL };
  g_autoptr (GString) script = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_auto (GStrv) replies = NULL;
  const guint32 *occurrences;
  guint n_occurrences;
  gint64 symbols[3], glyphs[3];

  occurrences = dc_document_get_symbol_glyphs (fixture->document, fixture->symbol, &n_occurrences);
  /* With --no-auto no level runs: the symbol and its occurrences start unknown. */
  g_string_append (script, "{\"cmd\":\"status\"}\n");
  g_string_append_printf (script, "{\"cmd\":\"split\",\"glyphs\":[%u],\"text\":\"a\"}\n",
                          fixture->first);
  g_string_append (script, "{\"cmd\":\"status\"}\n");
  g_string_append (script, "{\"cmd\":\"split\",\"glyphs\":[");
  for (guint i = 0; i < n_occurrences; i++)
    g_string_append_printf (script, "%s%u", i > 0 ? "," : "", occurrences[i]);
  g_string_append (script, "],\"text\":\"a\"}\n{\"cmd\":\"status\"}\n");

  out = run_cli (session_args, script->str);
  replies = g_strsplit (out, "\n", -1);
  status_counts (replies, 0, parser, &symbols[0], &glyphs[0]);
  status_counts (replies, 2, parser, &symbols[1], &glyphs[1]);
  status_counts (replies, 4, parser, &symbols[2], &glyphs[2]);
  g_assert_cmpint (symbols[1], ==, symbols[0]);
  g_assert_cmpint (glyphs[1], ==, glyphs[0] + 1);
  g_assert_cmpint (symbols[2], ==, symbols[0] + 1);
  g_assert_cmpint (glyphs[2], ==, glyphs[0] + n_occurrences);
}

/* The session contract as a script drives it: occurrences, split, undo and redo, the
 * refusals, and what text --project then prints. */
static void
test_split_cli (Fixture *fixture, gconstpointer data)
{
  g_autofree char *project = g_build_filename (fixture->dir, "cli.decipher", NULL);
  g_autoptr (GPtrArray) values = dc_test_truth_symbol_values (fixture->document, FIXTURE);
  g_autoptr (GString) script = g_string_new (NULL);
  g_autofree char *expected = split_truth ();
  g_autofree char *out = NULL;
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  g_auto (GStrv) replies = NULL;
  g_auto (GStrv) replies_again = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *session_args[] = { "session", "--project", project, "--no-auto", NULL };
  const char *text_args[] = { "text", "--project", project, NULL };
  guint n_assigned = 0, n_glyphs;
  JsonObject *reply;
  JsonArray *list;

  dc_document_get_glyphs (fixture->document, &n_glyphs);
  for (guint s = 0; s < values->len; s++)
    if (dc_document_symbol_needs_decoding (fixture->document, s))
      {
        g_autoptr (JsonNode)
            value = json_node_init_string (json_node_alloc (), g_ptr_array_index (values, s));
        g_autofree char *quoted = json_to_string (value, FALSE);

        g_string_append_printf (script, "{\"cmd\":\"assign\",\"symbol\":%u,\"text\":%s}\n", s,
                                quoted);
        n_assigned++;
      }
  g_string_append_printf (script, "{\"cmd\":\"occurrences\",\"symbol\":%u,\"limit\":2}\n",
                          fixture->symbol);
  g_string_append_printf (script, "{\"cmd\":\"split\",\"glyphs\":[%u],\"text\":\"a\"}\n",
                          fixture->first);
  g_string_append (script, "{\"cmd\":\"symbols\"}\n");
  g_string_append (script, "{\"cmd\":\"undo\"}\n{\"cmd\":\"redo\"}\n");
  g_string_append_printf (script, "{\"cmd\":\"split\",\"glyphs\":[%u],\"text\":\"a\"}\n", n_glyphs);
  g_string_append (script, "{\"cmd\":\"split\",\"glyphs\":\"all\",\"text\":\"a\"}\n");

  out = run_cli (session_args, script->str);
  replies = g_strsplit (out, "\n", -1);
  for (guint i = 0; i < n_assigned; i++)
    g_assert_true (json_object_get_boolean_member (reply_line (replies, i, parser), "ok"));

  reply = reply_line (replies, n_assigned, parser);
  list = json_object_get_array_member (reply, "occurrences");
  g_assert_cmpuint (json_array_get_length (list), ==, 2);
  g_assert_cmpint (json_object_get_int_member (reply, "count"), >, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (list, 0), "glyph"),
                   ==, fixture->first);

  reply = reply_line (replies, n_assigned + 1, parser);
  g_assert_true (json_object_get_boolean_member (reply, "ok"));
  g_assert_cmpstr (json_object_get_string_member (reply, "text"), ==, "a");

  reply = reply_line (replies, n_assigned + 2, parser);
  list = json_object_get_array_member (reply, "symbols");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *symbol = json_array_get_object_element (list, i);
      JsonArray *splits = json_object_get_array_member (symbol, "splits");

      if (json_object_get_int_member (symbol, "symbol") != fixture->symbol)
        {
          g_assert_cmpuint (json_array_get_length (splits), ==, 0);
          continue;
        }
      g_assert_cmpuint (json_array_get_length (splits), ==, 1);
      g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (splits, 0),
                                                   "glyph"),
                       ==, fixture->first);
    }

  for (guint i = 3; i <= 4; i++) /* undo, redo */
    g_assert_true (
        json_object_get_boolean_member (reply_line (replies, n_assigned + i, parser), "ok"));
  for (guint i = 5; i <= 6; i++) /* a glyph beyond the document, not a list */
    {
      reply = reply_line (replies, n_assigned + i, parser);
      g_assert_false (json_object_get_boolean_member (reply, "ok"));
      g_test_message ("%s", json_object_get_string_member (reply, "error"));
      g_assert_nonnull (strstr (json_object_get_string_member (reply, "error"), "glyphs"));
    }

  /* The project (every decision is written to it as it is made) keeps it: text --project
   * prints the split. */
  text = run_cli (text_args, NULL);
  g_assert_true (g_str_has_prefix (text, expected));

  /* A second session takes it back. */
  g_clear_pointer (&out, g_free);
  out = g_strdup_printf ("{\"cmd\":\"unsplit\",\"glyphs\":[%u]}\n"
                         "{\"cmd\":\"unsplit\",\"glyphs\":[%u]}\n",
                         fixture->first, fixture->first);
  again = run_cli (session_args, out);
  replies_again = g_strsplit (again, "\n", -1);
  g_assert_true (json_object_get_boolean_member (reply_line (replies_again, 0, parser), "ok"));
  reply = reply_line (replies_again, 1, parser);
  g_assert_false (json_object_get_boolean_member (reply, "ok"));
  g_clear_pointer (&text, g_free);
  text = run_cli (text_args, NULL);
  g_assert_false (g_str_has_prefix (text, expected));
  {
    g_autoptr (GPtrArray) lines = dc_test_truth_lines (FIXTURE);

    g_assert_true (g_str_has_prefix (text, g_ptr_array_index (lines, 0)));
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/split/undo-redo", test_split_undo_redo);
  ADD ("/split/counts", test_split_counts);
  ADD ("/split/refusals", test_split_refusals);
  ADD ("/split/project", test_split_project);
  ADD ("/split/journal", test_split_journal);
  ADD ("/split/project-refused", test_split_project_refused);
  ADD ("/split/exports", test_split_exports);
  ADD ("/split/repair", test_split_repair);
  ADD ("/split/cli", test_split_cli);
  ADD ("/split/cli-status", test_split_cli_status);
  return g_test_run ();
}
