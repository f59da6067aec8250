/* test-library.c: glyph fingerprints and the font library across documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "dc-library-private.h"
#include "dc-test-fixtures.h"

typedef struct
{
  char *dir;
  char *library_path;
} Fixture;

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  fixture->dir = g_dir_make_tmp ("decipher-library-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->library_path = g_build_filename (fixture->dir, "sub", "library.sqlite", NULL);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  dc_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->library_path);
}

/* The same outline drawn by two documents, through other codes and glyph ids, has the
 * same fingerprint; different letters do not. */
static void
test_fingerprint_independent_of_code (void)
{
  g_autoptr (DcDocument) first = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcDocument) second = dc_test_load_document ("library-recoded");
  g_autoptr (DcShapes) first_shapes = dc_shapes_new (first);
  g_autoptr (DcShapes) second_shapes = dc_shapes_new (second);
  g_autoptr (GPtrArray) first_values = dc_test_truth_symbol_values (first, "legacy-cyrillic");
  g_autoptr (GPtrArray) second_values = dc_test_truth_symbol_values (second, "library-recoded");
  g_autoptr (GHashTable)
      by_fingerprint = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_first, n_second, n_matched = 0, n_with_shape = 0;
  const DcSymbol *first_symbols = dc_document_get_symbols (first, &n_first);
  const DcSymbol *second_symbols = dc_document_get_symbols (second, &n_second);

  for (guint s = 0; s < n_first; s++)
    {
      const DcShape *shape = dc_shapes_get (first_shapes, s);

      if (shape == NULL)
        continue;
      n_with_shape++;
      /* Codes differ between the documents: a legacy Latin-1 layout and glyph ids. */
      g_assert_cmpuint (first_symbols[s].code_len, ==, 1);
      g_hash_table_insert (by_fingerprint, dc_shape_fingerprint_to_string (shape),
                           g_ptr_array_index (first_values, s));
    }
  g_assert_cmpuint (n_with_shape, >, 50);

  for (guint s = 0; s < n_second; s++)
    {
      const DcShape *shape = dc_shapes_get (second_shapes, s);
      g_autofree char *fingerprint = NULL;
      const char *value;

      if (shape == NULL)
        continue;
      g_assert_cmpuint (second_symbols[s].code_len, ==, 2);
      fingerprint = dc_shape_fingerprint_to_string (shape);
      g_assert_cmpuint (strlen (fingerprint), ==, 2 * DC_SHAPE_FINGERPRINT_LEN);
      value = g_hash_table_lookup (by_fingerprint, fingerprint);
      g_assert_nonnull (value);
      g_assert_cmpstr (value, ==, g_ptr_array_index (second_values, s));
      n_matched++;
    }
  g_assert_cmpuint (n_matched, >, 25);
}

/* The fingerprints come first and alone; the first dc_shapes_get() fills every coarse
 * grid, whichever symbol it asks for, the same grids as shapes asked in another order. */
static void
test_coarse_filled_later (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  g_autoptr (DcShapes) other = dc_shapes_new (document);
  guint n_symbols, n_inked = 0;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_shapes_get_identity (shapes, s) != NULL)
      {
        const DcShape *shape = dc_shapes_get_identity (shapes, s);
        guint ink = 0;

        for (guint i = 0; i < DC_SHAPE_COARSE_LEN; i++)
          ink += shape->coarse[i];
        g_assert_cmpuint (ink, ==, 0);
      }
  /* The last symbol first here, the first one first there. */
  g_assert_true (dc_shapes_get (shapes, n_symbols - 1)
                 == dc_shapes_get_identity (shapes, n_symbols - 1));
  for (guint s = 0; s < n_symbols; s++)
    {
      const DcShape *shape = dc_shapes_get_identity (shapes, s);
      const DcShape *again = dc_shapes_get (other, s);
      guint ink = 0;

      g_assert_true ((shape == NULL) == (again == NULL));
      if (shape == NULL)
        continue;
      g_assert_cmpmem (shape->fingerprint, DC_SHAPE_FINGERPRINT_LEN, again->fingerprint,
                       DC_SHAPE_FINGERPRINT_LEN);
      g_assert_cmpmem (shape->coarse, DC_SHAPE_COARSE_LEN, again->coarse, DC_SHAPE_COARSE_LEN);
      g_assert_cmpuint (shape->signature, ==, again->signature);
      for (guint i = 0; i < DC_SHAPE_COARSE_LEN; i++)
        ink += shape->coarse[i];
      n_inked += ink > 0;
    }
  g_assert_cmpuint (n_inked, >, 25);
}

/* The coarse descriptor: a shape is nearest itself, and near-identity is rare among
 * different letters of one font. */
static void
test_coarse_descriptor (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  g_autoptr (GPtrArray) values = dc_test_truth_symbol_values (document, "legacy-cyrillic");
  guint n_symbols, n_pairs = 0, n_near = 0;

  dc_document_get_symbols (document, &n_symbols);
  for (guint a = 0; a < n_symbols; a++)
    for (guint b = 0; b < n_symbols; b++)
      {
        const DcShape *sa = dc_shapes_get (shapes, a);
        const DcShape *sb = dc_shapes_get (shapes, b);

        if (sa == NULL || sb == NULL)
          continue;
        if (a == b)
          {
            g_assert_cmpfloat (dc_shape_distance (sa, sb), ==, 0.0);
            continue;
          }
        n_pairs++;
        if (dc_shape_distance (sa, sb) < DC_SHAPE_NEAR_DISTANCE)
          {
            /* Only look-alikes may be near: the same letter in another case is not. */
            g_test_message ("near: %s %s", (char *) g_ptr_array_index (values, a),
                            (char *) g_ptr_array_index (values, b));
            n_near++;
          }
      }
  g_assert_cmpuint (n_pairs, >, 1000);
  g_assert_cmpuint (n_near, <=, n_pairs / 200);
}

/* Decode one document; a second one, in the same font but another subset with other
 * codes, opens decoded with no typing at all. */
static void
test_library_across_documents (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autofree char *expected = dc_test_truth_text ("library-recoded");
  guint n_to_decode, n_decoded, n_symbols;

  g_assert_no_error (error);
  g_assert_cmpuint (dc_library_get_n_entries (library), ==, 0);

  {
    g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
    g_autoptr (DcSession) session = dc_session_new (document);

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, TRUE);
    dc_test_key_fill_from_truth (dc_session_get_key (session), "legacy-cyrillic");
    g_assert_true (dc_session_sync (session, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (dc_library_get_n_entries (library), >, 50);

  {
    g_autoptr (DcDocument) document = dc_test_load_document ("library-recoded");
    g_autoptr (DcSession) session = dc_session_new (document);
    g_autofree char *text = NULL;
    DcKey *key = dc_session_get_key (session);

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, TRUE);
    dc_key_count_to_decode (key, &n_to_decode, NULL);
    dc_key_count_decoded (key, &n_decoded, NULL);
    g_assert_cmpuint (n_decoded, ==, n_to_decode);
    text = dc_session_dup_text (session);
    g_assert_cmpstr (text, ==, expected);

    /* Decoded at the library's level, one undoable step with the automatic pass. */
    dc_document_get_symbols (document, &n_symbols);
    for (guint s = 0; s < n_symbols; s++)
      if (dc_session_get_shapes (session) != NULL
          && dc_shapes_get (dc_session_get_shapes (session), s))
        {
          g_assert_cmpint (dc_key_get_level (key, s), ==, DC_KEY_LEVEL_LIBRARY);
          g_assert_cmpfloat_with_epsilon (dc_key_get_confidence (key, s),
                                          dc_key_level_get_default_confidence (
                                              DC_KEY_LEVEL_LIBRARY),
                                          1e-9);
          g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_INFERRED);
        }
    g_assert_true (dc_session_undo (session, NULL));
    dc_key_count_decoded (key, &n_decoded, NULL);
    g_assert_cmpuint (n_decoded, ==, 0);
  }
}

/* The first two symbols of @document with a shape whose value in @fixture's truth is a
 * letter, as (symbol, value) pairs. */
static void
two_shaped_letters (DcDocument *document, DcShapes *shapes, const char *fixture, guint *symbols,
                    const char **values, GPtrArray *truth)
{
  guint n_symbols, n = 0;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols && n < 2; s++)
    {
      const char *value = g_ptr_array_index (truth, s);

      if (dc_shapes_get (shapes, s) == NULL || value == NULL
          || !g_unichar_isalpha (g_utf8_get_char (value)))
        continue;
      symbols[n] = s;
      values[n++] = value;
    }
  g_assert_cmpuint (n, ==, 2);
}

/* The symbol of @document whose shape is @shape's. */
static guint
symbol_of_shape (DcShapes *shapes, guint n_symbols, const DcShape *shape)
{
  for (guint s = 0; s < n_symbols; s++)
    if (dc_shapes_get (shapes, s) != NULL
        && memcmp (dc_shapes_get (shapes, s)->fingerprint, shape->fingerprint,
                   DC_SHAPE_FINGERPRINT_LEN)
               == 0)
      return s;
  g_assert_not_reached ();
}

/* Issue 28: an OCR reading accepted at 50 % is stored as what it was, and the next
 * document gets it back as a proposal at 50 %, not decoded at the library level; what
 * the user assigned comes back decoded. */
static void
test_library_remembers_how_sure (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autoptr (DcDocument) first = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (first, "legacy-cyrillic");
  g_autoptr (DcShapes) first_shapes = dc_shapes_new (first);
  DcShape accepted_shape, assigned_shape;
  const char *values[2];
  guint symbols[2], n_symbols;
  DcKeyLevel level;
  double confidence;
  g_autofree char *stored = NULL;

  g_assert_no_error (error);
  two_shaped_letters (first, first_shapes, "legacy-cyrillic", symbols, values, truth);
  accepted_shape = *dc_shapes_get (first_shapes, symbols[0]);
  assigned_shape = *dc_shapes_get (first_shapes, symbols[1]);
  {
    g_autoptr (DcSession) session = dc_session_new (first);
    DcKey *key = dc_session_get_key (session);

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, FALSE);
    g_assert_true (dc_key_set_full (key, symbols[0], values[0], DC_KEY_PROPOSED, DC_KEY_LEVEL_SHAPE,
                                    0.5, "ocr: read so 2 of 4 times", &error));
    g_assert_true (dc_session_accept (session, symbols[0], &error));
    g_assert_no_error (error);
    /* Accepted: the user's, used as text, as sure as the reading was. */
    g_assert_cmpint (dc_key_get_level (key, symbols[0]), ==, DC_KEY_LEVEL_USER);
    g_assert_cmpstr (dc_key_get_value (key, symbols[0]), ==, values[0]);
    g_assert_cmpfloat_with_epsilon (dc_key_get_confidence (key, symbols[0]), 0.5, 1e-9);
    g_assert_true (dc_session_assign (session, symbols[1], values[1], &error));
    g_assert_no_error (error);
    g_assert_true (dc_session_sync (session, &error));
    g_assert_no_error (error);
  }

  stored = dc_library_lookup_full (library, &accepted_shape, NULL, &level, &confidence);
  g_assert_cmpstr (stored, ==, values[0]);
  g_assert_cmpint (level, ==, DC_KEY_LEVEL_SHAPE);
  g_assert_cmpfloat_with_epsilon (confidence, 0.5, 1e-9);
  g_clear_pointer (&stored, g_free);
  stored = dc_library_lookup_full (library, &assigned_shape, NULL, &level, &confidence);
  g_assert_cmpstr (stored, ==, values[1]);
  g_assert_cmpint (level, ==, DC_KEY_LEVEL_USER);
  g_assert_cmpfloat_with_epsilon (confidence, 1.0, 1e-9);

  {
    g_autoptr (DcDocument) second = dc_test_load_document ("library-recoded");
    g_autoptr (DcSession) session = dc_session_new (second);
    DcKey *key = dc_session_get_key (session);
    DcShapes *shapes;
    guint guess, sure;

    dc_session_set_library (session, library);
    dc_session_start_new_work (session, FALSE);
    shapes = dc_session_get_shapes (session);
    dc_document_get_symbols (second, &n_symbols);
    guess = symbol_of_shape (shapes, n_symbols, &accepted_shape);
    sure = symbol_of_shape (shapes, n_symbols, &assigned_shape);

    g_assert_null (dc_key_get_value (key, guess));
    g_assert_cmpint (dc_key_get_status (key, guess), ==, DC_KEY_PROPOSED);
    g_assert_cmpstr (dc_key_peek_value (key, guess), ==, values[0]);
    g_assert_cmpint (dc_key_get_level (key, guess), ==, DC_KEY_LEVEL_SHAPE);
    g_assert_cmpfloat_with_epsilon (dc_key_get_confidence (key, guess), 0.5, 1e-9);
    g_assert_true (g_str_has_prefix (dc_key_get_provenance (key, guess), "library: "));

    g_assert_cmpstr (dc_key_get_value (key, sure), ==, values[1]);
    g_assert_cmpint (dc_key_get_status (key, sure), ==, DC_KEY_INFERRED);
    g_assert_cmpint (dc_key_get_level (key, sure), ==, DC_KEY_LEVEL_LIBRARY);
    g_assert_cmpfloat_with_epsilon (dc_key_get_confidence (key, sure),
                                    dc_key_level_get_default_confidence (DC_KEY_LEVEL_LIBRARY),
                                    1e-9);

    /* Confirming the guess makes it the user's word: from then on it is sure. */
    g_assert_true (dc_session_assign (session, guess, values[0], &error));
    g_assert_true (dc_session_sync (session, &error));
    g_assert_no_error (error);
    g_clear_pointer (&stored, g_free);
    stored = dc_library_lookup_full (library, &accepted_shape, NULL, &level, &confidence);
    g_assert_cmpint (level, ==, DC_KEY_LEVEL_USER);
    g_assert_cmpfloat_with_epsilon (confidence, 1.0, 1e-9);
  }
}

/* Issue 28: what replays by itself is decided by the level a value was decided at, not
 * by a threshold on its confidence, which levels applied by themselves now reach. */
static void
test_library_certain_by_level (void)
{
  double layout = dc_key_level_get_default_confidence (DC_KEY_LEVEL_LAYOUT);

  g_assert_true (_dc_library_is_certain (DC_KEY_LEVEL_USER, 1.0));
  /* OCR accepted at 97 %: shape is a level that only proposes. */
  g_assert_false (_dc_library_is_certain (DC_KEY_LEVEL_SHAPE, 0.97));
  /* A code page's proposal, accepted: less sure than what the layout level applies. */
  g_assert_false (_dc_library_is_certain (DC_KEY_LEVEL_LAYOUT, 0.9));
  g_assert_true (_dc_library_is_certain (DC_KEY_LEVEL_LAYOUT, layout));
  /* A version 1 row said nothing. */
  g_assert_false (_dc_library_is_certain (DC_KEY_LEVEL_LIBRARY, -1));
}

/* Issue 28: a font draws its Greek ο and Cyrillic о with one outline; what was decided
 * in a Greek document must not decode a Cyrillic one by itself. Once the document's own
 * letters tell its script, the library's value in another script is taken back and
 * proposed, and the rest stands. */
static void
test_library_verified_by_script (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autoptr (DcDocument) first = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcDocument) second = dc_test_load_document ("library-recoded");
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (first, "legacy-cyrillic");
  g_autoptr (DcShapes) first_shapes = dc_shapes_new (first);
  g_autoptr (DcShapes) second_shapes = dc_shapes_new (second);
  g_autoptr (DcKey) key = dc_key_new (second);
  g_autoptr (GHashTable) demoted = NULL;
  guint n_symbols, n_told = 0, omicron = G_MAXUINT, n_library = 0;

  g_assert_no_error (error);
  dc_document_get_symbols (first, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = g_ptr_array_index (truth, s);

      if (dc_shapes_get (first_shapes, s) == NULL || value == NULL)
        continue;
      /* The Cyrillic о, decided as the Greek ο it looks like. */
      if (strcmp (value, "о") == 0)
        value = "ο";
      g_assert_true (
          dc_library_remember (library, dc_shapes_get (first_shapes, s), value, NULL, &error));
      g_assert_no_error (error);
    }

  dc_library_apply (library, second_shapes, key);
  dc_document_get_symbols (second, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (g_strcmp0 (dc_key_get_value (key, s), "ο") == 0)
      omicron = s;
  g_assert_cmpuint (omicron, !=, G_MAXUINT);
  g_assert_cmpint (dc_key_get_level (key, omicron), ==, DC_KEY_LEVEL_LIBRARY);

  /* The library alone cannot tell it wrong: nothing else says which script is read. */
  demoted = dc_library_verify (key);
  g_assert_cmpuint (g_hash_table_size (demoted), ==, 0);
  g_clear_pointer (&demoted, g_hash_table_unref);

  /* The user confirms a few Cyrillic letters: now the document tells its script. */
  for (guint s = 0; s < n_symbols && n_told < 6; s++)
    if (s != omicron
        && g_strcmp0 (dc_library_script_of_value (dc_key_get_value (key, s)), "Cyrl") == 0)
      {
        g_autofree char *value = g_strdup (dc_key_get_value (key, s));

        g_assert_true (dc_key_set_full (key, s, value, DC_KEY_CONFIRMED, DC_KEY_LEVEL_USER, -1,
                                        "assign", &error));
        n_told++;
      }
  g_assert_cmpuint (n_told, ==, 6);
  demoted = dc_library_verify (key);
  g_assert_cmpuint (g_hash_table_size (demoted), ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (demoted, GUINT_TO_POINTER (omicron)), ==, "ο");
  g_assert_null (dc_key_get_value (key, omicron));
  dc_library_propose_demoted (key, demoted);
  g_assert_cmpint (dc_key_get_status (key, omicron), ==, DC_KEY_PROPOSED);
  g_assert_cmpstr (dc_key_peek_value (key, omicron), ==, "ο");
  g_assert_cmpint (dc_key_get_level (key, omicron), ==, DC_KEY_LEVEL_LIBRARY);
  g_assert_cmpfloat (dc_key_get_confidence (key, omicron), <, DC_KEY_AUTOMATIC_CONFIDENCE);
  g_assert_nonnull (strstr (dc_key_get_provenance (key, omicron), "Grek"));

  /* The library's Cyrillic values stand. */
  for (guint s = 0; s < n_symbols; s++)
    n_library += dc_key_get_status (key, s) == DC_KEY_INFERRED
                 && dc_key_get_level (key, s) == DC_KEY_LEVEL_LIBRARY;
  g_assert_cmpuint (n_library, >, 10);
}

static void
exec_sql (sqlite3 *db, const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

/* A library of version 1 (no level, no confidence) is migrated in place when opened: its
 * values are kept, and come back as proposals until the user confirms them, since it
 * never said which were guesses. Its export imports into a new library the same way. */
static void
test_library_migrates_version_1 (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) document = dc_test_load_document ("library-recoded");
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, "library-recoded");
  g_autofree char *old_path = g_build_filename (fixture->dir, "old.sqlite", NULL);
  g_autofree char *folder = g_path_get_dirname (fixture->library_path);
  const char *values[2];
  guint symbols[2];
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  two_shaped_letters (document, shapes, "library-recoded", symbols, values, truth);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      const char *path = i == 0 ? fixture->library_path : old_path;

      g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
      exec_sql (db, "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
                    "CREATE TABLE glyphs (fingerprint BLOB NOT NULL, value TEXT NOT NULL, "
                    "script TEXT, language TEXT, coarse BLOB NOT NULL, font TEXT, "
                    "uses INTEGER NOT NULL, updated INTEGER NOT NULL, "
                    "PRIMARY KEY (fingerprint, value));"
                    "INSERT INTO meta VALUES ('format', 'decipher-font-library'), "
                    "('version', '1');");
      g_assert_cmpint (sqlite3_prepare_v2 (db,
                                           "INSERT INTO glyphs VALUES (?1, ?2, 'Cyrl', NULL, ?3, "
                                           "NULL, 3, 0)",
                                           -1, &stmt, NULL),
                       ==, SQLITE_OK);
      sqlite3_bind_blob (stmt, 1, dc_shapes_get (shapes, symbols[0])->fingerprint,
                         DC_SHAPE_FINGERPRINT_LEN, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, values[0], -1, SQLITE_STATIC);
      sqlite3_bind_blob (stmt, 3, dc_shapes_get (shapes, symbols[0])->coarse, DC_SHAPE_COARSE_LEN,
                         SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);
      sqlite3_close (db);
    }

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (DcLibrary) library = NULL;
      g_autoptr (DcKey) key = dc_key_new (document);
      guint n_imported = 0;

      if (i == 1)
        {
          /* A fresh library takes the old export in. */
          g_assert_cmpint (g_unlink (fixture->library_path), ==, 0);
          library = dc_library_open (fixture->library_path, &error);
          g_assert_no_error (error);
          g_assert_true (dc_library_import (library, old_path, &n_imported, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (n_imported, ==, 1);
        }
      else
        {
          library = dc_library_open (fixture->library_path, &error);
          g_assert_no_error (error);
        }
      g_assert_cmpuint (dc_library_get_n_entries (library), ==, 1);
      g_assert_cmpuint (dc_library_apply (library, shapes, key), ==, 0);
      g_assert_null (dc_key_get_value (key, symbols[0]));
      g_assert_cmpint (dc_key_get_status (key, symbols[0]), ==, DC_KEY_PROPOSED);
      g_assert_cmpstr (dc_key_peek_value (key, symbols[0]), ==, values[0]);
      g_assert_cmpint (dc_key_get_level (key, symbols[0]), ==, DC_KEY_LEVEL_LIBRARY);
      /* A new decision goes into the migrated table with how sure it is. */
      g_assert_true (dc_library_remember (library, dc_shapes_get (shapes, symbols[1]), values[1],
                                          NULL, &error));
      g_assert_no_error (error);
    }

  /* The migrated file is version 2, and opens again as it is. */
  g_assert_cmpint (sqlite3_open (fixture->library_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE name = 'version'", -1,
                                       &stmt, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "2");
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  {
    g_autoptr (DcLibrary) again = dc_library_open (fixture->library_path, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (dc_library_get_n_entries (again), ==, 2);
  }
}

/* A decision an earlier version kept for a glyph FreeType draws away from its points
 * (DcShape.moved: β of a fontTools subset of DejaVu Sans Mono) is under the fingerprint
 * of the outline where it was drawn. It still comes back, as the user's. */
static void
test_library_moved_outline (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-mono-greek");
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  g_autoptr (GPtrArray) truth = dc_test_truth_symbol_values (document, "identity-mono-greek");
  g_autoptr (DcKey) key = dc_key_new (document);
  guint n_symbols, beta = G_MAXUINT;
  DcShape earlier;

  g_assert_no_error (error);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (g_strcmp0 (g_ptr_array_index (truth, s), "β") == 0)
      beta = s;
  g_assert_cmpuint (beta, !=, G_MAXUINT);
  g_assert_true (dc_shapes_get (shapes, beta)->moved);
  earlier = *dc_shapes_get (shapes, beta);
  memcpy (earlier.fingerprint, earlier.drawn_fingerprint, DC_SHAPE_FINGERPRINT_LEN);
  earlier.moved = FALSE;
  g_assert_true (dc_library_remember (library, &earlier, "β", NULL, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (dc_library_apply (library, shapes, key), ==, 1);
  g_assert_cmpstr (dc_key_get_value (key, beta), ==, "β");
  g_assert_cmpint (dc_key_get_level (key, beta), ==, DC_KEY_LEVEL_LIBRARY);
}

/* What the user takes back is taken back from the library too. */
static void
test_library_forgets_undone (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autoptr (DcDocument) document = dc_test_load_document ("library-recoded");
  g_autoptr (DcSession) session = dc_session_new (document);
  DcShapes *shapes;
  g_autofree char *value = NULL;
  guint symbol = G_MAXUINT, n_symbols;

  g_assert_no_error (error);
  dc_session_set_library (session, library);
  dc_session_start_new_work (session, FALSE);
  shapes = dc_session_get_shapes (session);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols && symbol == G_MAXUINT; s++)
    if (dc_shapes_get (shapes, s) != NULL)
      symbol = s;
  g_assert_cmpuint (symbol, !=, G_MAXUINT);

  g_assert_true (dc_session_assign (session, symbol, "ж", &error));
  g_assert_no_error (error);
  value = dc_library_lookup (library, dc_shapes_get (shapes, symbol), NULL);
  g_assert_cmpstr (value, ==, "ж");
  g_clear_pointer (&value, g_free);

  g_assert_true (dc_session_assign (session, symbol, "д", &error));
  value = dc_library_lookup (library, dc_shapes_get (shapes, symbol), NULL);
  g_assert_cmpstr (value, ==, "д");
  g_clear_pointer (&value, g_free);
  g_assert_cmpuint (dc_library_get_n_entries (library), ==, 1);

  g_assert_true (dc_session_undo (session, &error));
  value = dc_library_lookup (library, dc_shapes_get (shapes, symbol), NULL);
  g_assert_cmpstr (value, ==, "ж");
  g_clear_pointer (&value, g_free);
  g_assert_true (dc_session_undo (session, &error));
  g_assert_null (dc_library_lookup (library, dc_shapes_get (shapes, symbol), NULL));
  g_assert_cmpuint (dc_library_get_n_entries (library), ==, 0);
}

/* One shape, two scripts: the document's other letters choose. */
static void
test_library_script_choice (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autoptr (DcDocument) document = dc_test_load_document ("library-recoded");
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  const DcShape *shape = NULL;
  g_autofree char *latin = NULL;
  g_autofree char *cyrillic = NULL;
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols && shape == NULL; s++)
    shape = dc_shapes_get (shapes, s);
  g_assert_true (dc_library_remember (library, shape, "a", NULL, &error));
  g_assert_true (dc_library_remember (library, shape, "a", NULL, &error));
  g_assert_true (dc_library_remember (library, shape, "а", NULL, &error));
  g_assert_no_error (error);
  latin = dc_library_lookup (library, shape, NULL);
  cyrillic = dc_library_lookup (library, shape, "Cyrl");
  g_assert_cmpstr (latin, ==, "a");
  g_assert_cmpstr (cyrillic, ==, "а");
  g_assert_cmpstr (dc_library_script_of_value ("ӈ"), ==, "Cyrl");
  g_assert_null (dc_library_script_of_value ("1."));
}

/* A team shares its library as a file. */
static void
test_library_export_import (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
  g_autofree char *exported = g_build_filename (fixture->dir, "team.sqlite", NULL);
  g_autofree char *other_path = g_build_filename (fixture->dir, "other.sqlite", NULL);
  g_autofree char *junk = g_build_filename (fixture->dir, "junk.sqlite", NULL);
  g_autoptr (DcLibrary) other = NULL;
  g_autoptr (DcLibrary) bad = NULL;
  guint n_imported = 0;

  g_assert_no_error (error);
  {
    g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
    g_autoptr (DcSession) session = dc_session_new (document);

    dc_session_set_library (session, library);
    dc_test_key_fill_from_truth (dc_session_get_key (session), "legacy-cyrillic");
    g_assert_true (dc_session_sync (session, &error));
  }
  g_assert_true (dc_library_export (library, exported, &error));
  g_assert_no_error (error);

  other = dc_library_open (other_path, &error);
  g_assert_no_error (error);
  g_assert_true (dc_library_import (other, exported, &n_imported, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_imported, ==, dc_library_get_n_entries (library));
  /* Twice changes nothing. */
  g_assert_true (dc_library_import (other, exported, &n_imported, &error));
  g_assert_cmpuint (n_imported, ==, 0);
  g_assert_cmpuint (dc_library_get_n_entries (other), ==, dc_library_get_n_entries (library));

  {
    g_autoptr (DcDocument) document = dc_test_load_document ("library-recoded");
    g_autoptr (DcSession) session = dc_session_new (document);
    g_autofree char *text = NULL;
    g_autofree char *expected = dc_test_truth_text ("library-recoded");

    dc_session_set_library (session, other);
    dc_session_start_new_work (session, TRUE);
    text = dc_session_dup_text (session);
    g_assert_cmpstr (text, ==, expected);
  }

  /* Not a library: one sentence, nothing changes. */
  g_assert_true (g_file_set_contents (junk, "not a database at all, just some words\n", -1, NULL));
  g_assert_false (dc_library_import (other, junk, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "not a Decipher font library"));
  g_clear_error (&error);
  bad = dc_library_open (junk, &error);
  g_assert_null (bad);
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (dc_library_open (fixture->dir, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
}

/* A library of @n entries at @path, written with SQLite itself. */
static void
write_big_library (const char *path, guint n)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint8 fingerprint[16] = { 0 }, coarse[256] = { 0 };

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
                                 "INSERT INTO meta VALUES ('format', 'decipher-font-library'), "
                                 "('version', '1');"
                                 "CREATE TABLE glyphs (fingerprint BLOB NOT NULL, value TEXT NOT "
                                 "NULL, script TEXT, language TEXT, coarse BLOB NOT NULL, font "
                                 "TEXT, uses INTEGER NOT NULL, updated INTEGER NOT NULL, PRIMARY "
                                 "KEY (fingerprint, value)); BEGIN;",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "INSERT INTO glyphs VALUES (?1, 'a', 'Latn', NULL, ?2, "
                                       "NULL, 1, 0)",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  for (guint i = 0; i < n; i++)
    {
      memcpy (fingerprint, &i, sizeof i);
      sqlite3_bind_blob (stmt, 1, fingerprint, sizeof fingerprint, SQLITE_STATIC);
      sqlite3_bind_blob (stmt, 2, coarse, sizeof coarse, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* Issue 33: no statement runs for ever. A library whose allowance has run out gives up
 * with a sentence, and every later call fails at once instead of starting again; the
 * same import with the usual allowance succeeds. */
static void
test_library_gives_up (Fixture *fixture, gconstpointer data)
{
  g_autofree char *big = g_build_filename (fixture->dir, "big.sqlite", NULL);
  g_autofree char *other_path = g_build_filename (fixture->dir, "other.sqlite", NULL);
  g_autoptr (DcLibrary) impatient = NULL;
  g_autoptr (DcLibrary) patient = NULL;
  g_autoptr (GError) error = NULL;
  guint n_imported = 0;

  write_big_library (big, 20000);
  impatient = dc_library_open (fixture->library_path, &error);
  g_assert_no_error (error);
  _dc_library_set_patience (impatient, 0);
  g_assert_false (dc_library_import (impatient, big, &n_imported, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "took far too long to answer"));
  g_clear_error (&error);
  _dc_library_set_patience (impatient, (gint64) G_USEC_PER_SEC * 3600);
  g_assert_false (dc_library_import (impatient, big, &n_imported, &error));
  g_assert_nonnull (strstr (error->message, "took far too long to answer"));
  g_clear_error (&error);

  patient = dc_library_open (other_path, &error);
  g_assert_no_error (error);
  g_assert_true (dc_library_import (patient, big, &n_imported, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_imported, ==, 20000);
}

static char *
run_cli (int *status, char **err, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, (gpointer) g_getenv ("DECIPHER_CLI"));
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, err, status,
                &error);
  g_assert_no_error (error);
  return out;
}

/* decipher-cli: --library for a command that reads a document, and the library as a
 * file to share. */
static void
test_library_cli (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *exported = g_build_filename (fixture->dir, "team.sqlite", NULL);
  g_autofree char *other = g_build_filename (fixture->dir, "other.sqlite", NULL);
  g_autofree char *document_path = dc_test_fixture_path ("library-recoded.pdf");
  g_autofree char *expected = dc_test_truth_text ("library-recoded");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  {
    g_autoptr (DcLibrary) library = dc_library_open (fixture->library_path, &error);
    g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
    g_autoptr (DcSession) session = dc_session_new (document);

    g_assert_no_error (error);
    dc_session_set_library (session, library);
    dc_test_key_fill_from_truth (dc_session_get_key (session), "legacy-cyrillic");
    g_assert_true (dc_session_sync (session, &error));
  }

  out = run_cli (&status, &err, "library", "export", exported, "--library", fixture->library_path,
                 NULL);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (&status, &err, "library", "import", exported, "--library", other, NULL);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "text", document_path, "--library", other, NULL);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (out, ==, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* The test environment names no library: nothing is decoded. */
  out = run_cli (&status, &err, "text", document_path, NULL);
  g_assert_cmpstr (out, !=, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "library", "import", document_path, "--library", other, NULL);
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "not a Decipher font library"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fingerprint/independent-of-code", test_fingerprint_independent_of_code);
  g_test_add_func ("/fingerprint/coarse", test_coarse_descriptor);
  g_test_add_func ("/fingerprint/coarse-filled-later", test_coarse_filled_later);
  g_test_add ("/library/across-documents", Fixture, NULL, fixture_set_up,
              test_library_across_documents, fixture_tear_down);
  g_test_add ("/library/remembers-how-sure", Fixture, NULL, fixture_set_up,
              test_library_remembers_how_sure, fixture_tear_down);
  g_test_add_func ("/library/certain-by-level", test_library_certain_by_level);
  g_test_add ("/library/verified-by-script", Fixture, NULL, fixture_set_up,
              test_library_verified_by_script, fixture_tear_down);
  g_test_add ("/library/migrates-version-1", Fixture, NULL, fixture_set_up,
              test_library_migrates_version_1, fixture_tear_down);
  g_test_add ("/library/moved-outline", Fixture, NULL, fixture_set_up, test_library_moved_outline,
              fixture_tear_down);
  g_test_add ("/library/forgets-undone", Fixture, NULL, fixture_set_up, test_library_forgets_undone,
              fixture_tear_down);
  g_test_add ("/library/script-choice", Fixture, NULL, fixture_set_up, test_library_script_choice,
              fixture_tear_down);
  g_test_add ("/library/gives-up", Fixture, NULL, fixture_set_up, test_library_gives_up,
              fixture_tear_down);
  g_test_add ("/library/export-import", Fixture, NULL, fixture_set_up, test_library_export_import,
              fixture_tear_down);
  g_test_add ("/library/cli", Fixture, NULL, fixture_set_up, test_library_cli, fixture_tear_down);
  return g_test_run ();
}
