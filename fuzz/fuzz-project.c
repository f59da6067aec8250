/* fuzz-project.c: load any bytes as a project of a real document; validate them as a value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project file is read back after crashes, from other versions, or handed over by
 * someone else: dc_project_load() must refuse a bad one with a sentence and leave the key
 * alone, and accept a good one into a key that keeps its own rules. The same bytes, as a
 * string, go through dc_key_normalize_value(), the gate every typed value passes.
 */

#include "config.h"

#include <string.h>

#include "decipher.h"
#include "fuzz-common.h"

/* Loading the fixture costs far more than an input: do it once per process. Its key is
 * made afresh for every input so that no input depends on the ones before it. */
static DcDocument *document;
static guint untrusted_symbol;
/* What a fresh key holds, to check that a refused project left its key untouched. */
static DcKeyStatus *fresh_statuses;
static char **fresh_values;
/* A valid project file with nothing in it, for the input to be its journal. */
static char *empty_project;
static gsize empty_project_length;

static void
load_document (void)
{
  g_autofree char *path = dc_fuzz_fixture_path ("legacy-cyrillic.pdf");
  g_autoptr (GError) error = NULL;
  guint n_symbols;

  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  if (document == NULL)
    g_error ("Cannot load the fixture %s: %s", path, error->message);

  dc_document_get_symbols (document, &n_symbols);
  for (untrusted_symbol = 0; untrusted_symbol < n_symbols; untrusted_symbol++)
    if (dc_document_symbol_needs_decoding (document, untrusted_symbol))
      break;
  g_assert_cmpuint (untrusted_symbol, <, n_symbols);

  {
    g_autoptr (DcKey) key = dc_key_new (document);

    g_autoptr (DcProject) project = dc_project_new (document, key);
    g_autofree char *saved = g_build_filename (dc_fuzz_get_input_dir (), "empty.decipher", NULL);

    if (!dc_project_save (project, saved, &error)
        || !g_file_get_contents (saved, &empty_project, &empty_project_length, &error))
      g_error ("Cannot make an empty project: %s", error->message);
    fresh_statuses = g_new (DcKeyStatus, n_symbols);
    fresh_values = g_new0 (char *, n_symbols + 1);
    for (guint s = 0; s < n_symbols; s++)
      {
        fresh_statuses[s] = dc_key_get_status (key, s);
        fresh_values[s] = g_strdup (dc_key_peek_value (key, s));
      }
  }
}

static void
assert_key_is_fresh (DcKey *key)
{
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (key, s), ==, fresh_statuses[s]);
      g_assert_cmpstr (dc_key_peek_value (key, s), ==, fresh_values[s]);
    }
  g_assert_false (dc_key_can_undo (key));
  {
    g_autofree guint *splits = NULL;
    guint n_splits;

    splits = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_splits);
    g_assert_cmpuint (n_splits, ==, 0);
  }
}

static gboolean
is_nfc (const char *text)
{
  g_autofree char *nfc = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);

  return nfc != NULL && strcmp (nfc, text) == 0;
}

/* A key that came out of a project holds only what dc_key_set() could have put there. */
static void
check_loaded (DcProject *project, DcKey *key)
{
  const char *const *history;
  guint n_items, n_symbols, n_decoded, n_to_decode;
  g_autofree char *text = NULL;

  g_assert_true (dc_project_get_key (project) == key);
  g_assert_true (dc_project_get_document (project) == document);
  g_assert_false (dc_key_can_undo (key));

  history = dc_project_get_history (project, &n_items);
  for (guint i = 0; i < n_items; i++)
    g_assert_true (g_utf8_validate (history[i], -1, NULL));
  g_assert_null (history[n_items]);

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = dc_key_get_status (key, s);
      const char *value = dc_key_peek_value (key, s);
      const char *provenance = dc_key_get_provenance (key, s);

      g_assert_cmpint (status, >=, DC_KEY_UNKNOWN);
      g_assert_cmpint (status, <=, DC_KEY_CONFIRMED);
      if (status == DC_KEY_PROPOSED || status == DC_KEY_INFERRED || status == DC_KEY_CONFIRMED)
        {
          g_assert_nonnull (value);
          g_assert_true (g_utf8_validate (value, -1, NULL));
          g_assert_cmpint (g_utf8_strlen (value, -1), <=, DC_KEY_MAX_VALUE_CHARS);
          g_assert_true (is_nfc (value));
        }
      if (provenance != NULL)
        g_assert_true (g_utf8_validate (provenance, -1, NULL));
    }

  /* A split is a confirmed value of one of its symbol's occurrences, as dc_key_split()
   * makes it. */
  {
    const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
    g_autofree guint *splits = NULL;
    guint n_splits;

    splits = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_splits);
    for (guint i = 0; i < n_splits; i++)
      {
        const char *value = dc_key_get_split (key, splits[i], NULL);

        g_assert_nonnull (value);
        g_assert_true (is_nfc (value));
        g_assert_cmpint (g_utf8_strlen (value, -1), <=, DC_KEY_MAX_VALUE_CHARS);
        g_assert_cmpstr (dc_key_get_glyph_value (key, splits[i]), ==, value);
        g_assert_cmpuint (glyphs[splits[i]].symbol, <, n_symbols);
      }
  }

  dc_key_count_decoded (key, &n_decoded, NULL);
  dc_key_count_to_decode (key, &n_to_decode, NULL);
  g_assert_cmpuint (n_decoded, <=, n_to_decode);

  text = dc_export_document (document, DC_EXPORT_TEXT, dc_key_value_func, key);
  g_assert_true (g_utf8_validate (text, -1, NULL));
}

/* The conflicts a project kept open go to a matcher as they are: fit for review. */
static void
check_conflicts (DcProject *project, DcKey *key)
{
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);

  dc_project_set_matcher (project, matcher);
  for (guint i = 0; i < dc_matcher_get_n_conflicts (matcher); i++)
    {
      const DcConflict *conflict = dc_matcher_get_conflict (matcher, i);

      g_assert_true (g_utf8_validate (conflict->current, -1, NULL));
      g_assert_true (g_utf8_validate (conflict->proposed, -1, NULL));
    }
  dc_fuzz_note ("%u conflicts open", dc_matcher_get_n_conflicts (matcher));
}

static void
fuzz_project (const uint8_t *data, size_t size)
{
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;
  const char *path = dc_fuzz_write_input ("input.decipher", data, size);

  project = dc_project_load (path, document, key, &error);
  if (project == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == DC_ERROR);
      g_assert_cmpuint (error->message[0], !=, '\0');
      dc_fuzz_note ("project refused: %s", error->message);
      /* A refused project leaves the key exactly as it was. */
      assert_key_is_fresh (key);
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpstr (dc_project_get_path (project), ==, path);
  check_loaded (project, key);
  check_conflicts (project, key);
  dc_fuzz_note ("project loaded");
}

/* The same bytes as the journal of a valid project: replayed, or refused with the key
 * untouched. Whatever conflicts it holds open must be fit for a matcher. */
static void
fuzz_journal (const uint8_t *data, size_t size)
{
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;
  const char *path = dc_fuzz_write_input ("journal.decipher", (const uint8_t *) empty_project,
                                          empty_project_length);

  dc_fuzz_write_input ("journal.decipher.journal", data, size);
  project = dc_project_load (path, document, key, &error);
  if (project == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == DC_ERROR);
      g_assert_nonnull (strstr (error->message, "journal.decipher.journal"));
      dc_fuzz_note ("journal refused: %s", error->message);
      assert_key_is_fresh (key);
      return;
    }
  g_assert_no_error (error);
  check_loaded (project, key);
  dc_fuzz_note ("journal replayed");
  check_conflicts (project, key);
}

/* The validation gate and dc_key_set() must agree: what one accepts, the other stores, in
 * the form the gate returned, and that form passes the gate unchanged. */
static void
fuzz_value (const uint8_t *data, size_t size)
{
  g_autofree char *input = g_strndup ((const char *) data, size); /* up to the first NUL */
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) set_error = NULL;
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autofree char *value = dc_key_normalize_value (input, &error);
  gboolean stored;

  stored = dc_key_set (key, untrusted_symbol, input, DC_KEY_CONFIRMED, "fuzz", &set_error);

  if (value == NULL)
    {
      g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
      g_assert_cmpuint (error->message[0], !=, '\0');
      g_assert_false (stored);
      g_assert_error (set_error, DC_ERROR, DC_ERROR_INVALID_INPUT);
      dc_fuzz_note ("value refused: %s", error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (value, -1, NULL));
  g_assert_cmpint (g_utf8_strlen (value, -1), <=, DC_KEY_MAX_VALUE_CHARS);
  g_assert_true (is_nfc (value));

  {
    g_autofree char *again = dc_key_normalize_value (value, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (again, ==, value);
  }

  g_assert_no_error (set_error);
  g_assert_true (stored);
  g_assert_cmpstr (dc_key_peek_value (key, untrusted_symbol), ==, value);
  g_assert_cmpint (dc_key_get_status (key, untrusted_symbol), ==, DC_KEY_CONFIRMED);
  g_assert_true (dc_key_undo (key));
  dc_fuzz_note ("value accepted: %s", value);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  dc_fuzz_init ();
  load_document ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (document == NULL)
    LLVMFuzzerInitialize (NULL, NULL);

  fuzz_project (data, size);
  fuzz_journal (data, size);
  fuzz_value (data, size);
  return 0;
}
