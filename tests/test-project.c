/* test-project.c: saving and loading projects, and refusing every bad one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "dc-test-fixtures.h"

typedef struct
{
  char *dir;
  char *path; /* dir/test.decipher */
  DcDocument *document;
  DcKey *key;
  DcProject *project;
} Fixture;

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
first_trusted (DcDocument *document)
{
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (!dc_document_symbol_needs_decoding (document, s))
      return s;
  g_assert_not_reached ();
}

static void
set (DcKey *key, guint symbol, const char *value, DcKeyStatus status, const char *provenance)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (dc_key_set (key, symbol, value, status, provenance, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DcKey *key;

  fixture->dir = g_dir_make_tmp ("decipher-test-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->path = g_build_filename (fixture->dir, "test.decipher", NULL);
  fixture->document = dc_test_load_document ("legacy-cyrillic");
  fixture->key = key = dc_key_new (fixture->document);
  fixture->project = dc_project_new (fixture->document, key);

  /* Every kind of entry a project holds. */
  dc_key_begin_change (key, "type: «Весной река»");
  set (key, nth_untrusted (fixture->document, 0), "в", DC_KEY_INFERRED, "type: «Весной река»");
  set (key, nth_untrusted (fixture->document, 1), "е", DC_KEY_INFERRED, "type: «Весной река»");
  dc_key_end_change (key);
  set (key, nth_untrusted (fixture->document, 2), "ё", DC_KEY_CONFIRMED, "assign");
  set (key, nth_untrusted (fixture->document, 3), "", DC_KEY_CONFIRMED, "assign");
  set (key, nth_untrusted (fixture->document, 4), "ж", DC_KEY_PROPOSED, "glyph name");
  set (key, nth_untrusted (fixture->document, 5), "\u0301", DC_KEY_CONFIRMED, NULL);
  set (key, nth_untrusted (fixture->document, 6), "ﬁ", DC_KEY_INFERRED, "type: «ﬁ»");
  g_assert_true (dc_key_set_full (key, nth_untrusted (fixture->document, 7), "з", DC_KEY_INFERRED,
                                  DC_KEY_LEVEL_FONT, 0.875, "font: glyph name uni0437", NULL));
  set (key, first_trusted (fixture->document), "D", DC_KEY_CONFIRMED, "assign");
  dc_project_add_history (fixture->project, "Весной река");
  dc_project_add_history (fixture->project, "«Ұлы ағаш»\nсалыпты");
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  g_assert_finalize_object (fixture->project);
  g_assert_finalize_object (fixture->key);
  g_assert_finalize_object (fixture->document);
  remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
}

/* Everything a key says about every symbol, to compare two keys or one over time. */
static char *
key_snapshot (DcKey *key)
{
  GString *out = g_string_new (NULL);
  guint n_symbols;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    g_string_append_printf (out, "%u %s %s %.3f [%s] (%s)\n", s,
                            dc_key_status_to_string (dc_key_get_status (key, s)),
                            dc_key_level_to_string (dc_key_get_level (key, s)),
                            dc_key_get_confidence (key, s),
                            dc_key_peek_value (key, s) ? dc_key_peek_value (key, s) : "-",
                            dc_key_get_provenance (key, s) ? dc_key_get_provenance (key, s) : "-");
  return g_string_free (out, FALSE);
}

static void
save (Fixture *fixture)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (dc_project_save (fixture->project, fixture->path, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_project_get_path (fixture->project), ==, fixture->path);
}

static void
test_round_trip (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) fresh = dc_key_new (fixture->document);
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *expected = key_snapshot (fixture->key);
  g_autofree char *got = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_loaded = NULL;
  const char *const *history;
  JsonObject *root, *document;
  guint n_history, n_decoded, n_decoded_fresh;

  save (fixture);

  /* The file says what it is, for whom, and only what is not the PDF's own. */
  json_parser_load_from_file (parser, fixture->path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "decipher-project");
  /* No split: the version an older Decipher still opens (test-split.c writes a 3). */
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==,
                   DC_PROJECT_VERSION_WITHOUT_SPLITS);
  document = json_object_get_object_member (root, "document");
  g_assert_cmpstr (json_object_get_string_member (document, "sha256"), ==,
                   dc_document_get_sha256 (fixture->document));
  g_assert_cmpstr (json_object_get_string_member (document, "file"), ==, "legacy-cyrillic.pdf");
  g_assert_cmpint (json_object_get_int_member (document, "pages"), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "key")), ==, 9);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "history")), ==, 2);

  loaded = dc_project_load (fixture->path, fixture->document, fresh, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);

  got = key_snapshot (fresh);
  g_assert_cmpstr (got, ==, expected);
  dc_key_count_decoded (fixture->key, &n_decoded, NULL);
  dc_key_count_decoded (fresh, &n_decoded_fresh, NULL);
  g_assert_cmpuint (n_decoded_fresh, ==, n_decoded);
  g_assert_cmpuint (n_decoded, ==, 7);
  text = dc_export_document (fixture->document, DC_EXPORT_TEXT, dc_key_value_func, fixture->key);
  text_loaded = dc_export_document (fixture->document, DC_EXPORT_TEXT, dc_key_value_func, fresh);
  g_assert_cmpstr (text_loaded, ==, text);

  /* Where the user left off, with the steps that led there (see /project/undo-history). */
  g_assert_true (dc_key_can_undo (fresh));
  g_assert_cmpstr (dc_key_get_undo_label (fresh), ==, dc_key_get_undo_label (fixture->key));

  history = dc_project_get_history (loaded, &n_history);
  g_assert_cmpuint (n_history, ==, 2);
  g_assert_cmpstr (history[0], ==, "Весной река");
  g_assert_cmpstr (history[1], ==, "«Ұлы ағаш»\nсалыпты");
  g_assert_null (history[2]);
  g_assert_cmpstr (dc_project_get_path (loaded), ==, fixture->path);
  g_assert_true (dc_project_get_key (loaded) == fresh);

  /* Saving again where it came from (path NULL) writes the same key. */
  g_assert_true (dc_project_save (loaded, NULL, &error));
  g_assert_no_error (error);
}

/* A project written before levels existed (format version 1: no "level", no
 * "confidence") still loads, each value's level told from its status and provenance. */
/* What the user rejected survives saving and loading, on a symbol holding another value
 * and on one back to unknown; loaded, it is still refused to the levels. */
static void
test_refused (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) loaded = dc_key_new (fixture->document);
  g_autoptr (DcProject) project = NULL;
  guint a = nth_untrusted (fixture->document, 10), b = nth_untrusted (fixture->document, 11);

  set (fixture->key, a, "у", DC_KEY_PROPOSED, "proposal: code page");
  g_assert_true (dc_key_reject (fixture->key, a));
  set (fixture->key, a, "и", DC_KEY_PROPOSED, "proposal: code page");
  set (fixture->key, b, "ж", DC_KEY_INFERRED, "font: cmap");
  g_assert_true (dc_key_reject (fixture->key, b));
  save (fixture);
  project = dc_project_load (fixture->path, fixture->document, loaded, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_peek_value (loaded, a), ==, "и");
  g_assert_true (dc_key_is_refused (loaded, a, "у"));
  g_assert_cmpint (dc_key_get_status (loaded, b), ==, DC_KEY_UNKNOWN);
  g_assert_true (dc_key_is_refused (loaded, b, "ж"));
  g_assert_false (dc_key_set (loaded, b, "ж", DC_KEY_PROPOSED, "font: cmap", NULL));
}

static void
test_version_1 (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) fresh = dc_key_new (fixture->document);
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  JsonObject *root;
  JsonArray *entries;
  guint font_symbol = nth_untrusted (fixture->document, 7);

  save (fixture);
  json_parser_load_from_file (parser, fixture->path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_int_member (root, "version", 1);
  entries = json_object_get_array_member (root, "key");
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      g_assert_true (json_object_has_member (entry, "level"));
      g_assert_true (json_object_has_member (entry, "confidence"));
      json_object_remove_member (entry, "level");
      json_object_remove_member (entry, "confidence");
    }
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, fixture->path, &error));
  g_assert_no_error (error);

  loaded = dc_project_load (fixture->path, fixture->document, fresh, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  for (guint n = 0; n < 7; n++)
    {
      guint s = nth_untrusted (fixture->document, n);

      g_assert_cmpint (dc_key_get_level (fresh, s), ==, dc_key_get_level (fixture->key, s));
      g_assert_cmpfloat (dc_key_get_confidence (fresh, s), ==,
                         dc_key_get_confidence (fixture->key, s));
    }
  g_assert_cmpint (dc_key_get_level (fresh, nth_untrusted (fixture->document, 0)), ==,
                   DC_KEY_LEVEL_USER);
  g_assert_cmpint (dc_key_get_level (fresh, nth_untrusted (fixture->document, 4)), ==,
                   DC_KEY_LEVEL_GUESS);
  /* The provenance names the rule, so even the font's own evidence is told apart; only
   * the confidence of its own is lost. */
  g_assert_cmpint (dc_key_get_level (fresh, font_symbol), ==, DC_KEY_LEVEL_FONT);
  g_assert_cmpfloat (dc_key_get_confidence (fixture->key, font_symbol), ==, 0.875);
  g_assert_cmpfloat (dc_key_get_confidence (fresh, font_symbol), ==,
                     dc_key_level_get_default_confidence (DC_KEY_LEVEL_FONT));
}

static char *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static void
test_backup (Fixture *fixture, gconstpointer data)
{
  g_autofree char *backup = g_strconcat (fixture->path, "~", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *kept = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GError) error = NULL;
  const char *name;
  guint n_files = 0;

  save (fixture);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  first = read_file (fixture->path);

  set (fixture->key, nth_untrusted (fixture->document, 7), "з", DC_KEY_CONFIRMED, "assign");
  save (fixture);
  second = read_file (fixture->path);
  g_assert_cmpstr (first, !=, second);
  kept = read_file (backup);
  g_assert_cmpstr (kept, ==, first);

  /* The third save moves the backup on; nothing else is left lying around. */
  set (fixture->key, nth_untrusted (fixture->document, 8), "и", DC_KEY_CONFIRMED, "assign");
  save (fixture);
  g_clear_pointer (&kept, g_free);
  kept = read_file (backup);
  g_assert_cmpstr (kept, ==, second);

  dir = g_dir_open (fixture->dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_true (g_str_equal (name, "test.decipher") || g_str_equal (name, "test.decipher~"));
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 2);
}

static void
test_save_error (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "no-such-folder", "x.decipher", NULL);

  g_assert_false (dc_project_save (fixture->project, path, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "x.decipher"));
  g_assert_null (dc_project_get_path (fixture->project));
}

/* Loading @contents must fail with a sentence containing @phrase and change nothing. */
static void
assert_refused (Fixture *fixture, const char *contents, gssize length, int code, const char *phrase)
{
  g_autofree char *path = g_build_filename (fixture->dir, "bad.decipher", NULL);
  g_autofree char *before = key_snapshot (fixture->key);
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcProject) project = NULL;
  gboolean could_undo = dc_key_can_undo (fixture->key);

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);

  project = dc_project_load (path, fixture->document, fixture->key, &error);
  g_assert_null (project);
  g_assert_error (error, DC_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, phrase));
  g_assert_nonnull (strstr (error->message, "bad.decipher"));

  after = key_snapshot (fixture->key);
  g_assert_cmpstr (after, ==, before);
  g_assert_true (dc_key_can_undo (fixture->key) == could_undo);

  g_assert_cmpint (g_remove (path), ==, 0);
}

static void
test_damaged (Fixture *fixture, gconstpointer data)
{
  g_autofree char *contents = NULL;
  gsize length;

  save (fixture);
  contents = read_file (fixture->path);
  length = strlen (contents);

  assert_refused (fixture, contents, length / 2, DC_ERROR_PROJECT, "not valid JSON");
  assert_refused (fixture, contents, length - 2, DC_ERROR_PROJECT, "not valid JSON");
  assert_refused (fixture, "", 0, DC_ERROR_PROJECT, "empty");
  assert_refused (fixture, "\x89PNG\r\n\x1a\n\0\0\0", 11, DC_ERROR_PROJECT, "not text");

  /* json-glib alone would take the second copy and leak the first, or read through a
   * comment: both are refused before it sees them, saying where. */
  {
    g_autofree char *joined = g_strconcat (contents, "\n", contents, NULL);
    g_autofree char *commented = g_strconcat ("\n  /* mine */", contents, NULL);
    g_autofree char *quoted = g_strdelimit (g_strdup (contents), "\"", '\'');

    assert_refused (fixture, joined, -1, DC_ERROR_PROJECT, "more than one JSON value");
    assert_refused (fixture, commented, -1, DC_ERROR_PROJECT, "line 2, column 3");
    assert_refused (fixture, quoted, -1, DC_ERROR_PROJECT, "not valid JSON");
    /* json-glib leaks on a high surrogate followed by another escape than a low one. */
    assert_refused (fixture, "{\"history\": [\"\\ud800\\u0041\"]}", -1, DC_ERROR_PROJECT,
                    "line 1, column 15");
  }
}

/* What an editor may add around a project it saves does not make it unreadable. */
static void
test_edited (Fixture *fixture, gconstpointer data)
{
  g_autoptr (DcKey) fresh = dc_key_new (fixture->document);
  g_autofree char *contents = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *expected = key_snapshot (fixture->key);
  g_autofree char *got = NULL;
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;

  save (fixture);
  contents = read_file (fixture->path);
  edited = g_strconcat ("\xEF\xBB\xBF\r\n", contents, "\r\n\t \n", NULL);
  g_file_set_contents (fixture->path, edited, -1, &error);
  g_assert_no_error (error);

  project = dc_project_load (fixture->path, fixture->document, fresh, &error);
  g_assert_no_error (error);
  g_assert_nonnull (project);
  got = key_snapshot (fresh);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_foreign (Fixture *fixture, gconstpointer data)
{
  assert_refused (fixture, "{\"hello\": \"world\"}", -1, DC_ERROR_PROJECT,
                  "not a Decipher project");
  assert_refused (fixture, "[1, 2, 3]", -1, DC_ERROR_PROJECT, "not a Decipher project");
  assert_refused (fixture, "{\"format\": \"decipher-project\"}", -1, DC_ERROR_PROJECT, "version");
  assert_refused (fixture, "{\"format\": \"decipher-project\", \"version\": 99, \"key\": 5}", -1,
                  DC_ERROR_PROJECT, "newer Decipher");
}

static void
test_missing (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "missing.decipher", NULL);

  g_assert_null (dc_project_load (path, fixture->document, fixture->key, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "missing.decipher"));

  /* A folder is not a project either. */
  g_clear_error (&error);
  g_assert_null (dc_project_load (fixture->dir, fixture->document, fixture->key, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
}

/* A project for legacy-cyrillic.pdf opened on clean.pdf says so, naming both. */
static void
test_other_document (Fixture *fixture, gconstpointer data)
{
  g_autoptr (DcDocument) clean = dc_test_load_document ("clean");
  g_autoptr (DcKey) key = dc_key_new (clean);
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *renamed = NULL;
  g_autofree char *renamed_path = NULL;
  g_auto (GStrv) parts = NULL;

  set (key, 0, "Q", DC_KEY_CONFIRMED, "assign");
  before = key_snapshot (key);
  save (fixture);

  g_assert_null (dc_project_load (fixture->path, clean, key, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "legacy-cyrillic.pdf"));
  g_assert_nonnull (strstr (error->message, "clean.pdf"));
  g_assert_nonnull (strstr (error->message, "test.decipher"));
  after = key_snapshot (key);
  g_assert_cmpstr (after, ==, before);
  g_clear_error (&error);

  /* Same name, other contents: it cannot name two files, so it says another version. */
  contents = read_file (fixture->path);
  g_assert_nonnull (strstr (contents, "\"legacy-cyrillic.pdf\""));
  parts = g_strsplit (contents, "\"legacy-cyrillic.pdf\"", -1);
  renamed = g_strjoinv ("\"clean.pdf\"", parts);
  renamed_path = g_build_filename (fixture->dir, "renamed.decipher", NULL);
  g_file_set_contents (renamed_path, renamed, -1, &error);
  g_assert_no_error (error);
  g_assert_null (dc_project_load (renamed_path, clean, key, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "another version of “clean.pdf”"));
  g_assert_cmpint (g_remove (renamed_path), ==, 0);
  g_clear_error (&error);

  g_clear_pointer (&after, g_free);
  after = key_snapshot (key);
  g_assert_cmpstr (after, ==, before);
  g_assert_finalize_object (g_steal_pointer (&key));
}

typedef void (*Mutate) (JsonObject *root, gpointer data);

/* The fixture's own project, saved, with one thing changed by @mutate. */
static char *
mutated (Fixture *fixture, Mutate mutate, gpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;

  save (fixture);
  json_parser_load_from_file (parser, fixture->path, &error);
  g_assert_no_error (error);
  mutate (json_node_get_object (json_parser_get_root (parser)), data);
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

static JsonObject *
first_entry (JsonObject *root)
{
  return json_array_get_object_element (json_object_get_array_member (root, "key"), 0);
}

static void
set_entry_string (JsonObject *root, gpointer data)
{
  const char *const *member = data;

  json_object_set_string_member (first_entry (root), member[0], member[1]);
}

static void
set_entry_int (JsonObject *root, gpointer data)
{
  const gint64 *value = data;

  json_object_set_int_member (first_entry (root), "code", *value);
}

static void
set_font (JsonObject *root, gpointer data)
{
  json_object_set_int_member (first_entry (root), "font", GPOINTER_TO_INT (data));
}

static void
remove_entry_member (JsonObject *root, gpointer data)
{
  json_object_remove_member (first_entry (root), data);
}

static void
duplicate_entry (JsonObject *root, gpointer data)
{
  JsonArray *key = json_object_get_array_member (root, "key");

  json_array_add_element (key, json_node_copy (json_array_get_element (key, 0)));
}

static void
set_pages (JsonObject *root, gpointer data)
{
  json_object_set_int_member (json_object_get_object_member (root, "document"), "pages", 3);
}

static void
add_history_number (JsonObject *root, gpointer data)
{
  json_array_add_int_element (json_object_get_array_member (root, "history"), 7);
}

/* The first entry's rejected values, as given in JSON. */
static void
set_refused (JsonObject *root, gpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  json_object_set_member (first_entry (root), "refused",
                          json_node_copy (json_parser_get_root (parser)));
}

static void
assert_mutation_refused (Fixture *fixture, Mutate mutate, gpointer data, const char *phrase)
{
  g_autofree char *contents = mutated (fixture, mutate, data);

  assert_refused (fixture, contents, -1, DC_ERROR_PROJECT, phrase);
}

static void
test_hostile (Fixture *fixture, gconstpointer data)
{
  g_autofree char *huge = g_malloc (10 * 1024 * 1024 + 1);
  g_autofree char *deep = NULL;
  g_autoptr (GString) many = g_string_new (NULL);
  gint64 code_2_40 = G_GINT64_CONSTANT (1) << 40;
  gint64 negative = -1;
  gint64 unused_code = 0x7F;
  const char *value_huge[] = { "value", huge };
  const char *value_control[] = { "value", "a\x01" };
  const char *value_long[] = { "value", "абвгдеёжзийклмноп" };
  const char *status_pdf[] = { "status", "from-pdf" };
  const char *status_bogus[] = { "status", "certain" };
  const char *font_name[] = { "font_name", "Comic Sans" };

  memset (huge, 'a', 10 * 1024 * 1024);
  huge[10 * 1024 * 1024] = '\0';

  assert_mutation_refused (fixture, set_entry_string, value_huge, "far longer");
  assert_mutation_refused (fixture, set_entry_int, &code_2_40, "1099511627776");
  assert_mutation_refused (fixture, set_entry_int, &negative, "out of range");
  assert_mutation_refused (fixture, set_entry_int, &unused_code, "never draws");
  assert_mutation_refused (fixture, set_font, GINT_TO_POINTER (99), "font 99");
  assert_mutation_refused (fixture, set_entry_string, (gpointer) font_name, "Comic Sans");
  assert_mutation_refused (fixture, set_entry_string, (gpointer) value_control, "U+0001");
  assert_mutation_refused (fixture, set_entry_string, (gpointer) value_long, "17 characters");
  assert_mutation_refused (fixture, set_entry_string, (gpointer) status_pdf, "from-pdf");
  assert_mutation_refused (fixture, set_entry_string, (gpointer) status_bogus, "certain");
  assert_mutation_refused (fixture, remove_entry_member, "value", "“value”");
  assert_mutation_refused (fixture, duplicate_entry, NULL, "repeats");
  assert_mutation_refused (fixture, set_pages, NULL, "pages");
  assert_mutation_refused (fixture, add_history_number, NULL, "History entry 3");
  assert_mutation_refused (fixture, set_refused, "5", "not a list");
  assert_mutation_refused (fixture, set_refused, "[\"y\", 7]", "Rejected value 2");
  assert_mutation_refused (fixture, set_refused, "[\"a\\u0001\"]", "Rejected value 1");

  /* json-glib would recurse itself to death on this. */
  deep = g_strnfill (100000, '[');
  assert_refused (fixture, deep, -1, DC_ERROR_PROJECT, "nests deeper");

  /* More entries than any document has symbols: refused before looking at each. */
  g_string_append_printf (many,
                          "{\"format\": \"decipher-project\", \"version\": 1, \"document\": "
                          "{\"sha256\": \"%s\", \"file\": \"legacy-cyrillic.pdf\", \"pages\": 2}, "
                          "\"key\": [",
                          dc_document_get_sha256 (fixture->document));
  for (guint i = 0; i <= 1000000; i++)
    g_string_append (many, i ? ",0" : "0");
  g_string_append (many, "]}");
  assert_refused (fixture, many->str, many->len, DC_ERROR_PROJECT, "1000001 entries");

  /* The key is untouched by all of it, and a good file still loads. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DcProject) project = NULL;

    save (fixture);
    project = dc_project_load (fixture->path, fixture->document, fixture->key, &error);
    g_assert_no_error (error);
    g_assert_nonnull (project);
  }
}

/* How many conflicts the next opening finds open; the last one must be @expected. */
static guint
n_conflicts_after_loading (Fixture *fixture, const DcConflict *expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcKey) key = dc_key_new (fixture->document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (DcProject) loaded = dc_project_load (fixture->path, fixture->document, key, &error);

  g_assert_no_error (error);
  dc_project_set_matcher (loaded, matcher);
  if (expected != NULL && dc_matcher_get_n_conflicts (matcher) > 0)
    {
      guint last = dc_matcher_get_n_conflicts (matcher) - 1;
      const DcConflict *got = dc_matcher_get_conflict (matcher, last);

      g_assert_cmpuint (got->symbol, ==, expected->symbol);
      g_assert_cmpstr (got->current, ==, expected->current);
      g_assert_cmpstr (got->current_provenance, ==, expected->current_provenance);
      g_assert_cmpstr (got->proposed, ==, expected->proposed);
      g_assert_cmpstr (got->proposed_provenance, ==, expected->proposed_provenance);
      g_assert_cmpuint (got->place.line, ==, expected->place.line);
      g_assert_cmpuint (got->place.token, ==, expected->place.token);
      g_assert_cmpuint (got->place.n_tokens, ==, expected->place.n_tokens);
    }
  return dc_matcher_get_n_conflicts (matcher);
}

/* Conflicts left open are kept with the project, by a save and by the journal, and a
 * resolved one is gone for good. */
static void
test_conflicts_kept (Fixture *fixture, gconstpointer data)
{
  g_autoptr (DcMatcher) matcher = dc_matcher_new (fixture->key);
  g_autoptr (GError) error = NULL;
  guint symbol = nth_untrusted (fixture->document, 0);
  DcConflict conflict = {
    symbol, "в", "type: «Весной река»", "Ж", "type: «Жесной»", { 2, 1, 1, 0 },
  };

  dc_project_set_matcher (fixture->project, matcher);
  dc_matcher_add_conflict (matcher, &conflict);
  save (fixture);
  g_assert_cmpuint (n_conflicts_after_loading (fixture, &conflict), ==, 1);

  /* Raised after the save: only the journal has it. */
  g_assert_true (dc_project_start_journal (fixture->project, fixture->path, TRUE, &error));
  g_assert_no_error (error);
  conflict.proposed = "Щ";
  dc_matcher_add_conflict (matcher, &conflict);
  g_assert_true (dc_project_sync_journal (fixture->project, &error));
  g_assert_cmpuint (n_conflicts_after_loading (fixture, &conflict), ==, 2);

  /* Resolved: the key confirms the value kept, and no conflict about it is left. */
  g_assert_true (dc_matcher_resolve_conflict (matcher, 0, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_conflicts_after_loading (fixture, NULL), ==, 0);
  save (fixture);
  g_assert_cmpuint (n_conflicts_after_loading (fixture, NULL), ==, 0);
}

/* A damaged list of conflicts is refused like any damaged part of a project. */
static void
test_conflicts_damaged (Fixture *fixture, gconstpointer data)
{
  const char *lists[][2] = {
    { "{}", "not a list" },
    { "[1]", "Conflict 1 is not an object" },
    { "[{\"font\": 0, \"font_name\": null, \"code\": 1, \"current\": \"a\", "
      "\"current_provenance\": null, \"proposed\": \"b\", \"proposed_provenance\": null, "
      "\"line\": 0, \"token\": 0, \"tokens\": 1}]",
      "glyph the document does not have" },
    { "[{\"font\": 0, \"font_name\": null, \"code\": 1, \"current\": \"a\", "
      "\"current_provenance\": null, \"proposed\": \"b\", \"proposed_provenance\": null, "
      "\"line\": 99999, \"token\": 0, \"tokens\": 1}]",
      "words the document does not have" },
  };
  g_autofree char *contents = NULL;

  save (fixture);
  contents = read_file (fixture->path);
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_autofree char *member = g_strdup_printf ("\"conflicts\" : %s", lists[i][0]);
      g_autofree char *damaged = NULL;
      char *at = strstr (contents, "\"conflicts\" : []");

      g_assert_nonnull (at);
      damaged = g_strdup_printf ("%.*s%s%s", (int) (at - contents), contents, member,
                                 at + strlen ("\"conflicts\" : []"));
      assert_refused (fixture, damaged, -1, DC_ERROR_PROJECT, lists[i][1]);
    }
}

/* Loads the fixture's project into a new key, as the next opening would. */
static DcProject *
load_fresh (Fixture *fixture, DcKey **key, GError **error)
{
  *key = dc_key_new (fixture->document);
  return dc_project_load (fixture->path, fixture->document, *key, error);
}

static void
append_to (const char *path, const char *text)
{
  g_autofree char *contents = read_file (path);
  g_autofree char *longer = g_strconcat (contents, text, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, longer, -1, &error);
  g_assert_no_error (error);
}

/* Every change after the last save is in the journal at once, and the next loading has it
 * all: single changes, several at once, undo, and inputs. A save folds it in. */
static void
test_journal_replays (Fixture *fixture, gconstpointer data)
{
  g_autofree char *journal = g_strconcat (fixture->path, ".journal", NULL);
  g_autofree char *saved = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autoptr (DcKey) without = NULL;
  g_autoptr (DcProject) loaded_without = NULL;
  const char *const *history;
  guint n_history;

  save (fixture);
  saved = key_snapshot (fixture->key);
  g_assert_true (dc_project_start_journal (fixture->project, fixture->path, TRUE, &error));
  g_assert_no_error (error);

  set (fixture->key, nth_untrusted (fixture->document, 7), "з", DC_KEY_CONFIRMED, "assign");
  dc_key_begin_change (fixture->key, "type: «ик»");
  set (fixture->key, nth_untrusted (fixture->document, 8), "и", DC_KEY_INFERRED, "type: «ик»");
  set (fixture->key, nth_untrusted (fixture->document, 9), "к", DC_KEY_INFERRED, "type: «ик»");
  dc_key_end_change (fixture->key);
  set (fixture->key, nth_untrusted (fixture->document, 10), "л", DC_KEY_CONFIRMED, "assign");
  g_assert_true (dc_key_undo (fixture->key));
  g_assert_true (dc_key_undo (fixture->key));
  g_assert_true (dc_key_redo (fixture->key));
  /* Back to what the PDF says: the journal must say so too. */
  dc_key_forget (fixture->key, nth_untrusted (fixture->document, 0));
  dc_project_add_history (fixture->project, "ик");
  g_assert_true (dc_project_sync_journal (fixture->project, &error));
  g_assert_no_error (error);
  expected = key_snapshot (fixture->key);
  g_assert_cmpstr (expected, !=, saved);

  loaded = load_fresh (fixture, &key, &error);
  g_assert_no_error (error);
  got = key_snapshot (key);
  g_assert_cmpstr (got, ==, expected);
  history = dc_project_get_history (loaded, &n_history);
  g_assert_cmpuint (n_history, ==, 3);
  g_assert_cmpstr (history[2], ==, "ик");

  /* It was the journal: a copy of the project file alone still holds the last save. */
  contents = read_file (journal);
  g_assert_cmpstr (contents, !=, "");
  {
    g_autofree char *copy = g_build_filename (fixture->dir, "copy.decipher", NULL);
    g_autofree char *project = read_file (fixture->path);

    g_file_set_contents (copy, project, -1, &error);
    g_assert_no_error (error);
    without = dc_key_new (fixture->document);
    loaded_without = dc_project_load (copy, fixture->document, without, &error);
    g_assert_no_error (error);
    g_clear_pointer (&got, g_free);
    got = key_snapshot (without);
    g_assert_cmpstr (got, ==, saved);
  }

  /* A save holds everything, and empties the journal. */
  save (fixture);
  g_clear_pointer (&contents, g_free);
  contents = read_file (journal);
  g_assert_cmpstr (contents, ==, "");
  g_clear_object (&loaded);
  g_clear_object (&key);
  loaded = load_fresh (fixture, &key, &error);
  g_assert_no_error (error);
  g_clear_pointer (&got, g_free);
  got = key_snapshot (key);
  g_assert_cmpstr (got, ==, expected);
}

/* A process killed while appending (or a disk that filled up) leaves half a line: it was
 * never a decision, so the loading skips it, and the next journal cuts it off before it
 * appends. */
static void
check_journal_torn (Fixture *fixture, const char *fragment)
{
  g_autofree char *journal = g_strconcat (fixture->path, ".journal", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (DcProject) again = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autoptr (DcKey) third = NULL;
  guint symbol = nth_untrusted (fixture->document, 7);

  save (fixture);
  g_assert_true (dc_project_start_journal (fixture->project, fixture->path, FALSE, &error));
  set (fixture->key, symbol, "з", DC_KEY_CONFIRMED, "assign");
  expected = key_snapshot (fixture->key);
  g_clear_object (&fixture->project);
  fixture->project = dc_project_new (fixture->document, fixture->key);
  append_to (journal, fragment);

  loaded = load_fresh (fixture, &key, &error);
  g_assert_no_error (error);
  got = key_snapshot (key);
  g_assert_cmpstr (got, ==, expected);

  g_assert_true (dc_project_start_journal (loaded, fixture->path, FALSE, &error));
  g_assert_no_error (error);
  set (key, nth_untrusted (fixture->document, 8), "и", DC_KEY_CONFIRMED, "assign");
  g_assert_true (dc_project_sync_journal (loaded, &error));
  g_clear_pointer (&expected, g_free);
  expected = key_snapshot (key);
  again = dc_project_load (fixture->path, fixture->document, third = dc_key_new (fixture->document),
                           &error);
  g_assert_no_error (error);
  g_clear_pointer (&got, g_free);
  got = key_snapshot (third);
  g_assert_cmpstr (got, ==, expected);
  g_assert_cmpstr (dc_key_get_value (third, symbol), ==, "з");
}

static void
test_journal_torn (Fixture *fixture, gconstpointer data)
{
  check_journal_torn (fixture, "{\"font\":0,\"font_name\":\"Torn");
}

/* Cut inside a character: the half line is not text, but it is skipped before the rest is
 * checked, so the journal does not read as "not text". */
static void
test_journal_torn_in_character (Fixture *fixture, gconstpointer data)
{
  /* The first of the two bytes of “д”. */
  check_journal_torn (fixture, "{\"font\":0,\"code\":12,\"value\":\"\xd0");
}

/* A journal written before failed appends were cut back: a full disk left a fragment and
 * the next line was glued to it. That one line is mended (the fragment, never
 * acknowledged, skipped; the line after it kept); a second such line refuses the journal. */
static void
test_journal_glued (Fixture *fixture, gconstpointer data)
{
  g_autofree char *journal = g_strconcat (fixture->path, ".journal", NULL);
  g_autofree char *written = NULL;
  g_autofree char *glued = NULL;
  g_autofree char *twice = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (DcKey) key = NULL;
  guint a = nth_untrusted (fixture->document, 1);
  guint b = nth_untrusted (fixture->document, 2);
  guint c = nth_untrusted (fixture->document, 3);

  save (fixture);
  g_assert_true (dc_project_start_journal (fixture->project, fixture->path, FALSE, &error));
  set (fixture->key, a, "а", DC_KEY_CONFIRMED, "assign");
  set (fixture->key, b, "б", DC_KEY_CONFIRMED, "assign");
  set (fixture->key, c, "в", DC_KEY_CONFIRMED, "assign");
  g_assert_true (dc_project_sync_journal (fixture->project, &error));
  g_clear_object (&fixture->project);
  fixture->project = dc_project_new (fixture->document, fixture->key);
  written = read_file (journal);
  lines = g_strsplit (written, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4); /* three lines and the empty rest */

  /* "…\"value\":\"б\",\"stat{…}": b's line cut, c's glued to it. */
  glued = g_strdup_printf ("%s\n%.*s%s\n", lines[0], (int) strlen (lines[1]) / 2, lines[1],
                           lines[2]);
  g_assert_true (g_file_set_contents (journal, glued, -1, NULL));
  loaded = load_fresh (fixture, &key, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_get_value (key, a), ==, "а");
  g_assert_cmpstr (dc_key_get_value (key, b), ==, "ё"); /* as saved */
  g_assert_cmpstr (dc_key_get_value (key, c), ==, "в");
  g_clear_object (&loaded);
  g_clear_object (&key);

  twice = g_strdup_printf ("%.*s%s\n%.*s%s\n", (int) strlen (lines[0]) / 2, lines[0], lines[1],
                           (int) strlen (lines[1]) / 2, lines[1], lines[2]);
  g_assert_true (g_file_set_contents (journal, twice, -1, NULL));
  loaded = load_fresh (fixture, &key, &error);
  g_assert_null (loaded);
  g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
  g_assert_nonnull (strstr (error->message, "Line 2"));
}

/* A journal damaged in the middle is refused like a damaged project: a sentence naming
 * it and the line, and the key as it was. */
static void
test_journal_damaged (Fixture *fixture, gconstpointer data)
{
  g_autofree char *journal = g_strconcat (fixture->path, ".journal", NULL);
  const char *lines[] = {
    "not json\n",
    "[1, 2]\n",
    "{\"history\": 42}\n",
    "{\"font\": 0, \"font_name\": null, \"font_sha256\": null, \"code\": 1, \"value\": \"a\", "
    "\"status\": \"confirmed\", \"provenance\": null}\n",
  };

  save (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DcKey) key = dc_key_new (fixture->document);
      g_autoptr (DcProject) loaded = NULL;
      g_autofree char *before = key_snapshot (key);
      g_autofree char *after = NULL;
      g_autofree char *damaged = g_strconcat ("{\"history\": \"fine\"}\n", lines[i], NULL);

      g_file_set_contents (journal, damaged, -1, &error);
      g_assert_no_error (error);
      loaded = dc_project_load (fixture->path, fixture->document, key, &error);
      g_assert_null (loaded);
      g_assert_error (error, DC_ERROR, DC_ERROR_PROJECT);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message,
                                       "Cannot open the project “test.decipher”: its journal of "
                                       "recent changes, “test.decipher.journal”, is damaged. "));
      g_assert_true (strstr (error->message, "Line 2") != NULL
                     || strstr (error->message, "entry 2") != NULL);
      after = key_snapshot (key);
      g_assert_cmpstr (after, ==, before);
    }
}

/* Closing the window at night and opening the project in the morning, Ctrl+Z still takes
 * back the last things done, and Ctrl+Shift+Z redoes what was undone before closing. */
static void
test_undo_history (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcProject) loaded = NULL;
  g_autoptr (DcKey) key = NULL;
  guint n_steps = 0;

  g_assert_true (dc_key_undo (fixture->key));
  g_assert_true (dc_key_can_redo (fixture->key));
  save (fixture);

  loaded = load_fresh (fixture, &key, &error);
  g_assert_no_error (error);
  g_assert_true (dc_key_can_redo (key));
  g_assert_cmpstr (dc_key_get_redo_label (key), ==, dc_key_get_redo_label (fixture->key));

  /* Both keys walk back through the same states, step by step, to the document's own. */
  while (dc_key_can_undo (fixture->key))
    {
      g_autofree char *expected = NULL;
      g_autofree char *got = NULL;

      g_assert_true (dc_key_can_undo (key));
      g_assert_cmpstr (dc_key_get_undo_label (key), ==, dc_key_get_undo_label (fixture->key));
      g_assert_true (dc_key_undo (fixture->key));
      g_assert_true (dc_key_undo (key));
      expected = key_snapshot (fixture->key);
      got = key_snapshot (key);
      g_assert_cmpstr (got, ==, expected);
      n_steps++;
    }
  g_assert_false (dc_key_can_undo (key));
  g_assert_cmpuint (n_steps, ==, 7); /* eight made, one undone before saving */

  /* And forward again, the step undone before closing included. */
  while (dc_key_can_redo (fixture->key))
    {
      g_autofree char *expected = NULL;
      g_autofree char *got = NULL;

      g_assert_true (dc_key_redo (fixture->key));
      g_assert_true (dc_key_redo (key));
      expected = key_snapshot (fixture->key);
      got = key_snapshot (key);
      g_assert_cmpstr (got, ==, expected);
    }
  g_assert_false (dc_key_can_redo (key));
}

/* The history is a convenience: a damaged one is dropped, never the key. */
static void
test_undo_history_damaged (Fixture *fixture, gconstpointer data)
{
  const char *damages[] = {
    "\"undo\": 3",
    "\"undo\": [{\"label\": null, \"edits\": [7]}]",
    "\"undo\": [{\"label\": null, \"edits\": [{\"before\": {}}]}]",
    "\"undo\": [{\"label\": \"x\"}]",
  };
  g_autofree char *expected = key_snapshot (fixture->key);

  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DcProject) loaded = NULL;
      g_autoptr (DcKey) key = NULL;
      g_autoptr (GRegex) undo = g_regex_new ("\"undo\" : \\[.*\\](?=,\\s*\"redo\"|\\s*}\\s*$)",
                                             G_REGEX_DOTALL, 0, NULL);
      g_autofree char *contents = (save (fixture), read_file (fixture->path));
      g_autofree char *damaged = g_regex_replace_literal (undo, contents, -1, 0, damages[i], 0,
                                                          &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (damaged, !=, contents);
      g_file_set_contents (fixture->path, damaged, -1, &error);
      g_assert_no_error (error);

      loaded = load_fresh (fixture, &key, &error);
      g_assert_no_error (error);
      got = key_snapshot (key);
      g_assert_cmpstr (got, ==, expected);
      g_assert_false (dc_key_can_undo (key));
    }
}

/* The journal carries changes made after the last save, not their steps: the saved steps
 * come back only where they still describe the key, and never undo into a state nobody saw. */
static void
test_undo_history_after_journal (Fixture *fixture, gconstpointer data)
{
  guint last = first_trusted (fixture->document); /* the newest step set it */
  guint other = nth_untrusted (fixture->document, 8);
  g_autoptr (GError) error = NULL;

  save (fixture);
  g_assert_true (dc_project_start_journal (fixture->project, fixture->path, FALSE, &error));
  g_assert_no_error (error);

  /* A change elsewhere: the saved steps still apply on top of it. */
  set (fixture->key, other, "и", DC_KEY_CONFIRMED, "assign");
  g_assert_true (dc_project_sync_journal (fixture->project, &error));
  {
    g_autoptr (DcProject) loaded = NULL;
    g_autoptr (DcKey) key = NULL;

    loaded = load_fresh (fixture, &key, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dc_key_peek_value (key, other), ==, "и");
    g_assert_cmpstr (dc_key_get_undo_label (key), ==, "assign");
    g_assert_cmpstr (dc_key_peek_value (key, last), ==, "D");
    g_assert_true (dc_key_undo (key));
    g_assert_cmpint (dc_key_get_status (key, last), ==, DC_KEY_FROM_PDF);
    g_assert_cmpstr (dc_key_peek_value (key, other), ==, "и");
  }

  /* A change to what the newest step set: undoing it would not give back what was there. */
  set (fixture->key, last, "ж", DC_KEY_CONFIRMED, "assign");
  g_assert_true (dc_project_sync_journal (fixture->project, &error));
  {
    g_autoptr (DcProject) loaded = NULL;
    g_autoptr (DcKey) key = NULL;

    loaded = load_fresh (fixture, &key, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dc_key_peek_value (key, last), ==, "ж");
    g_assert_false (dc_key_can_undo (key));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/project/round-trip", test_round_trip);
  ADD ("/project/backup", test_backup);
  ADD ("/project/save-error", test_save_error);
  ADD ("/project/damaged", test_damaged);
  ADD ("/project/edited", test_edited);
  ADD ("/project/version-1", test_version_1);
  ADD ("/project/refused", test_refused);
  ADD ("/project/foreign", test_foreign);
  ADD ("/project/missing", test_missing);
  ADD ("/project/other-document", test_other_document);
  ADD ("/project/hostile", test_hostile);
  ADD ("/project/journal-replays", test_journal_replays);
  ADD ("/project/conflicts-kept", test_conflicts_kept);
  ADD ("/project/conflicts-damaged", test_conflicts_damaged);
  ADD ("/project/journal-torn", test_journal_torn);
  ADD ("/project/journal-torn-in-character", test_journal_torn_in_character);
  ADD ("/project/journal-glued", test_journal_glued);
  ADD ("/project/journal-damaged", test_journal_damaged);
  ADD ("/project/undo-history", test_undo_history);
  ADD ("/project/undo-history-damaged", test_undo_history_damaged);
  ADD ("/project/undo-history-after-journal", test_undo_history_after_journal);
#undef ADD

  return g_test_run ();
}
