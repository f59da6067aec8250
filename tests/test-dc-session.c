/* test-dc-session.c: DcSession, the one place every session rule lives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

static DcSession *
open_session (const char *fixture)
{
  g_autoptr (DcDocument) document = dc_test_load_document (fixture);

  return dc_session_new (document);
}

static guint
count_status (DcSession *session, DcKeyStatus status)
{
  DcKey *key = dc_session_get_key (session);
  guint n_symbols, n = 0;

  dc_document_get_symbols (dc_session_get_document (session), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    n += dc_key_get_status (key, s) == status;
  return n;
}

static void
count_cb (gpointer data)
{
  (*(guint *) data)++;
}

/* New work starts with the automatic guesses, as one step; undone, nothing is left. */
static void
test_new_work (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GError) error = NULL;
  guint n_guessed;

  g_assert_false (dc_session_undo (session, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  n_guessed = dc_session_start_new_work (session, TRUE);
  g_assert_cmpuint (n_guessed, >, 0);
  g_assert_cmpuint (count_status (session, DC_KEY_INFERRED), ==, n_guessed);
  g_assert_true (dc_session_undo (session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_status (session, DC_KEY_INFERRED), ==, 0);
  g_assert_false (dc_key_can_undo (dc_session_get_key (session)));
  g_assert_true (dc_session_redo (session, NULL));
  g_assert_cmpuint (count_status (session, DC_KEY_INFERRED), ==, n_guessed);
}

/* A typed line teaches its symbols, enters the history, and is one step to undo. */
static void
test_type (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const char *const *history;
  guint n_history, changes = 0;

  dc_session_start_new_work (session, TRUE);
  g_signal_connect_swapped (session, "changed", G_CALLBACK (count_cb), &changes);
  result = dc_session_type (session, g_ptr_array_index (lines, 1), 1, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
  g_assert_cmpuint (result->learned->len, >, 0);
  history = dc_project_get_history (dc_session_get_project (session), &n_history);
  g_assert_cmpuint (n_history, ==, 1);
  g_assert_cmpstr (history[0], ==, g_ptr_array_index (lines, 1));
  text = dc_session_dup_text (session);
  g_assert_nonnull (strstr (text, g_ptr_array_index (lines, 1)));

  g_assert_true (dc_session_undo (session, NULL));
  for (guint i = 0; i < result->learned->len; i++)
    g_assert_true (
        dc_session_symbol_is_unknown (session,
                                      g_array_index (result->learned, DcLearned, i).symbol));
  /* Typed, then undone: the key said so twice. */
  g_assert_cmpuint (changes, ==, 2);
}

/* A linguist types what What Next? highlights, with its line as the cue: each time the
 * words are read at the highlighted place — not at another word of the line the same
 * letters fit more cheaply (ᠮᠢᠨᠦ for ᠪᠠᠲᠤ, whose ᠪᠠ is one glyph) — and the page comes
 * back whole. */
static void
test_type_at_suggestion (void)
{
  g_autoptr (DcSession) session = open_session ("script-mongolian-mvs-stripped");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("script-mongolian-mvs-stripped");
  g_autofree char *text = NULL;
  guint rounds = 0;

  for (;; rounds++)
    {
      DcSuggestion suggestion;
      g_autoptr (DcMatchResult) result = NULL;
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) words = NULL;
      g_autofree char *typed = NULL;

      g_assert_cmpuint (rounds, <, 20);
      dc_session_suggest (session, &suggestion);
      if (suggestion.done)
        break;
      words = g_strsplit (g_ptr_array_index (lines, suggestion.line), " ", -1);
      g_assert_cmpuint (suggestion.token + suggestion.n_tokens, <=, g_strv_length (words));
      {
        GString *joined = g_string_new (NULL);

        for (guint w = suggestion.token; w < suggestion.token + suggestion.n_tokens; w++)
          g_string_append_printf (joined, "%s%s", joined->len > 0 ? " " : "", words[w]);
        typed = g_string_free (joined, FALSE);
      }
      result = dc_session_type (session, typed, (int) suggestion.line, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
      g_assert_cmpuint (g_array_index (result->places, DcMatchPlace, 0).token, ==,
                        suggestion.token);
    }
  text = dc_session_dup_text (session);
  for (guint l = 0; l < lines->len; l++)
    g_assert_nonnull (strstr (text, g_ptr_array_index (lines, l)));
}

/* Accepting all proposals sure enough is one step; none sure enough is no step. */
static void
test_accept_all (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (GError) error = NULL;
  g_autofree char *undo_label = NULL;
  g_autofree gboolean *unsure = NULL;
  guint n_proposed, n_accepted = 99, n_symbols;

  dc_session_start_new_work (session, TRUE);
  for (guint l = 1; l <= 2; l++)
    {
      g_autoptr (DcMatchResult)
          result = dc_session_type (session, g_ptr_array_index (lines, l), (int) l, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (result->kind, ==, DC_MATCH_ASSIGNED);
    }
  n_proposed = count_status (session, DC_KEY_PROPOSED);
  g_assert_cmpuint (n_proposed, >, 0);
  undo_label = g_strdup (dc_key_get_undo_label (dc_session_get_key (session)));

  /* A proposal is never surer than certain. */
  g_assert_true (dc_session_accept_all (session, 1.0 + 1e-9, &n_accepted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_accepted, ==, 0);
  g_assert_cmpuint (count_status (session, DC_KEY_PROPOSED), ==, n_proposed);

  dc_document_get_symbols (dc_session_get_document (session), &n_symbols);
  unsure = g_new0 (gboolean, n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    unsure[s] = dc_key_get_status (dc_session_get_key (session), s) == DC_KEY_PROPOSED
                && dc_key_get_confidence (dc_session_get_key (session), s)
                       < DC_KEY_AUTOMATIC_CONFIDENCE;
  g_assert_true (dc_session_accept_all (session, 0.0, &n_accepted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_accepted, >=, n_proposed);
  g_assert_cmpuint (count_status (session, DC_KEY_PROPOSED), ==, 0);
  /* Taken in bulk where no level would have applied them: the key says so (issue 31.1),
   * so that the window does not count them as looked at. */
  for (guint s = 0; s < n_symbols; s++)
    if (dc_key_get_status (dc_session_get_key (session), s) == DC_KEY_CONFIRMED)
      g_assert_cmpint (g_str_has_prefix (dc_key_get_provenance (dc_session_get_key (session), s),
                                         "accepted unreviewed "),
                       ==, unsure[s]);
  g_assert_cmpstr (dc_key_get_undo_label (dc_session_get_key (session)), !=, undo_label);

  g_assert_true (dc_session_undo (session, NULL));
  g_assert_cmpuint (count_status (session, DC_KEY_PROPOSED), ==, n_proposed);
  g_assert_cmpstr (dc_key_get_undo_label (dc_session_get_key (session)), ==, undo_label);

  /* One by one: a second accept finds no proposal. */
  for (guint s = 0;; s++)
    if (dc_key_get_status (dc_session_get_key (session), s) == DC_KEY_PROPOSED)
      {
        g_assert_true (dc_session_accept (session, s, &error));
        g_assert_no_error (error);
        g_assert_cmpint (dc_key_get_status (dc_session_get_key (session), s), ==, DC_KEY_CONFIRMED);
        /* One looked at is never "unreviewed", however unsure. */
        g_assert_false (g_str_has_prefix (dc_key_get_provenance (dc_session_get_key (session), s),
                                          "accepted unreviewed "));
        g_assert_false (dc_session_accept (session, s, &error));
        g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
        break;
      }
}

/* What is unreviewed: the proposals left, and what was accepted in bulk less sure than a
 * level applies by itself, with the glyphs it decodes; an undo makes it a proposal again. */
static guint
count_proposed_to_decode (DcSession *session)
{
  DcDocument *document = dc_session_get_document (session);
  guint n_symbols, n = 0;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    n += dc_document_symbol_needs_decoding (document, s)
         && dc_key_get_status (dc_session_get_key (session), s) == DC_KEY_PROPOSED;
  return n;
}

static void
test_count_unreviewed (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GError) error = NULL;
  DcDocument *document = dc_session_get_document (session);
  DcKey *key = dc_session_get_key (session);
  guint n_symbols, unsure = G_MAXUINT, n_proposed, n_glyphs = 99;

  dc_session_start_new_work (session, TRUE);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols && unsure == G_MAXUINT; s++)
    if (dc_document_symbol_needs_decoding (document, s)
        && dc_key_get_status (key, s) == DC_KEY_UNKNOWN)
      unsure = s;
  g_assert_cmpuint (unsure, !=, G_MAXUINT);
  /* A guess no level would apply by itself. */
  g_assert_true (dc_key_set_full (key, unsure, "ж", DC_KEY_PROPOSED, DC_KEY_LEVEL_SHAPE,
                                  DC_KEY_AUTOMATIC_CONFIDENCE / 2, "test", &error));
  g_assert_no_error (error);
  n_proposed = count_proposed_to_decode (session);
  g_assert_cmpuint (n_proposed, >, 0);
  g_assert_cmpuint (dc_session_count_unreviewed (session, &n_glyphs), ==, n_proposed);
  g_assert_cmpuint (n_glyphs, ==, 0);

  /* Accepted in bulk, it stays unreviewed, and its glyphs are counted. */
  g_assert_true (dc_session_accept_all (session, 0.0, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, unsure), ==, DC_KEY_CONFIRMED);
  g_assert_cmpuint (dc_session_count_unreviewed (session, &n_glyphs), ==,
                    1 + count_proposed_to_decode (session));
  g_assert_cmpuint (n_glyphs, ==, dc_document_get_symbol (document, unsure)->n_glyphs);

  /* Decided one by one, it is reviewed. */
  g_assert_true (dc_session_assign (session, unsure, "ж", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dc_session_count_unreviewed (session, &n_glyphs), ==,
                    count_proposed_to_decode (session));
  g_assert_cmpuint (n_glyphs, ==, 0);

  /* Undone twice, every proposal is back. */
  g_assert_true (dc_session_undo (session, NULL));
  g_assert_true (dc_session_undo (session, NULL));
  g_assert_cmpuint (dc_session_count_unreviewed (session, NULL), ==, n_proposed);
}

/* A conflict raised by typing is settled through the session; with none open, the
 * session says so. */
static void
test_resolve (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (DcMatchResult) first = NULL;
  g_autoptr (DcMatchResult) clash = NULL;
  g_autofree char *changed = NULL;
  g_autoptr (GError) error = NULL;
  guint n_signals = 0;

  dc_session_start_new_work (session, TRUE);
  g_assert_false (dc_session_resolve (session, 0, TRUE, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  g_signal_connect_swapped (session, "conflicts-changed", G_CALLBACK (count_cb), &n_signals);
  first = dc_session_type (session, g_ptr_array_index (lines, 2), 2, -1, NULL);
  changed = dc_test_with_one_letter_changed (g_ptr_array_index (lines, 2));
  clash = dc_session_type (session, changed, 2, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (clash->kind, ==, DC_MATCH_CONFLICT);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (dc_session_get_matcher (session)), ==, 1);
  g_assert_false (dc_session_resolve (session, 1, TRUE, &error));
  g_clear_error (&error);
  g_assert_true (dc_session_resolve (session, 0, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dc_matcher_get_n_conflicts (dc_session_get_matcher (session)), ==, 0);
  /* Raised, then resolved. */
  g_assert_cmpuint (n_signals, >=, 2);
}

/* Every decision is in the journal when it returns: a session that vanishes without
 * saving (a crash) loses none of it. */
static void
test_journal (void)
{
  g_autofree char *folder = g_dir_make_tmp ("dc-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "p.decipher", NULL);
  g_autofree char *journal = g_strconcat (path, ".journal", NULL);
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (DcSession) again = NULL;
  g_autoptr (DcMatchResult) result = NULL;
  g_autoptr (GError) error = NULL;
  DcKey *key, *loaded;
  guint n_symbols;

  dc_session_start_new_work (session, TRUE);
  g_assert_true (dc_session_save (session, path, &error));
  g_assert_true (dc_session_start_journal (session, path, TRUE, &error));
  g_assert_no_error (error);
  result = dc_session_type (session, g_ptr_array_index (lines, 1), 1, -1, &error);
  g_assert_no_error (error);
  g_assert_true (dc_session_assign (session, 0, "ѣ", &error));
  g_assert_no_error (error);
  g_assert_false (dc_session_assign (session, G_MAXINT, "x", &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_false (dc_session_save (session, folder, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* Read while the first is still open: only its journal has the decisions. */
  again = open_session ("legacy-cyrillic");
  g_assert_true (dc_session_load_project (again, path, &error));
  g_assert_no_error (error);
  key = dc_session_get_key (session);
  loaded = dc_session_get_key (again);
  dc_document_get_symbols (dc_session_get_document (session), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (loaded, s), ==, dc_key_get_status (key, s));
      g_assert_cmpstr (dc_key_peek_value (loaded, s), ==, dc_key_peek_value (key, s));
    }
  g_assert_cmpstr (dc_key_peek_value (loaded, 0), ==, "ѣ");

  g_clear_object (&session);
  g_clear_object (&again);
  g_unlink (journal);
  g_unlink (path);
  g_rmdir (folder);
}

/* A symbol proposed from the font's own cmap, at the font level (the untrusted cmap of
 * ascii-legacy repeats the PDF's lie), and its value. */
static guint
cmap_proposal (DcSession *session, char **value)
{
  DcKey *key = dc_session_get_key (session);
  guint n_symbols;

  dc_document_get_symbols (dc_session_get_document (session), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_key_get_status (key, s) == DC_KEY_PROPOSED
        && dc_key_get_level (key, s) == DC_KEY_LEVEL_FONT
        && g_str_has_prefix (dc_key_get_provenance (key, s), "font: cmap"))
      {
        *value = g_strdup (dc_key_peek_value (key, s));
        return s;
      }
  g_assert_not_reached ();
}

/* Issue 31: a rejected proposal stays rejected. Every level runs again over the key (the
 * fonts' own tables that proposed it, the automatic pass, the proposals) and none brings
 * it back; the project and its journal keep the refusal through reopening; undo brings
 * the proposal back as it was; the user typing the value themselves still gives it. */
static void
test_reject (void)
{
  g_autofree char *folder = g_dir_make_tmp ("dc-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "p.decipher", NULL);
  g_autofree char *journal = g_strconcat (path, ".journal", NULL);
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autoptr (DcSession) session = open_session ("ascii-legacy");
  g_autoptr (DcSession) again = NULL;
  g_autoptr (DcPipeline) pipeline = dc_pipeline_new (DC_PIPELINE_ALL);
  g_autoptr (GError) error = NULL;
  g_autofree char *value = NULL;
  g_autofree char *provenance = NULL;
  g_autofree char *second_value = NULL;
  DcKey *key = dc_session_get_key (session);
  guint symbol, second;

  dc_pipeline_set_library (pipeline, NULL);
  dc_session_start_new_work (session, TRUE);
  symbol = cmap_proposal (session, &value);
  provenance = g_strdup (dc_key_get_provenance (key, symbol));
  g_test_message ("symbol %u: “%s”, %s", symbol, value, provenance);

  g_assert_true (dc_session_reject (session, symbol, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), !=, value);
  g_assert_true (dc_key_is_refused (key, symbol, value));
  g_assert_cmpstr (dc_key_get_refused (key, symbol)[0], ==, value);
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "Reject");

  /* Every level again, the one that proposed it first. */
  dc_font_tables_apply (key);
  dc_pipeline_apply (pipeline, key, NULL, NULL);
  dc_proposals_update (key);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), !=, value);
  g_assert_true (dc_key_is_refused (key, symbol, value));
  /* No level sets it, by any route. */
  g_assert_false (dc_key_set_full (key, symbol, value, DC_KEY_INFERRED, DC_KEY_LEVEL_FONT, -1,
                                   provenance, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_REFUSED);
  g_clear_error (&error);

  /* Kept in the project, and in its journal for what came after the save. */
  g_assert_true (dc_session_save (session, path, &error));
  g_assert_true (dc_session_start_journal (session, path, TRUE, &error));
  g_assert_no_error (error);
  second = cmap_proposal (session, &second_value);
  g_assert_cmpuint (second, !=, symbol);
  g_assert_true (dc_session_reject (session, second, &error));

  again = open_session ("ascii-legacy");
  g_assert_true (dc_session_load_project (again, path, &error));
  g_assert_no_error (error);
  key = dc_session_get_key (again);
  g_assert_true (dc_key_is_refused (key, symbol, value));
  g_assert_true (dc_key_is_refused (key, second, second_value));
  g_assert_cmpstr (dc_key_peek_value (key, symbol), !=, value);
  g_assert_cmpstr (dc_key_peek_value (key, second), !=, second_value);

  /* The journal keeps states, not steps: the undo history comes with a full save. */
  g_clear_object (&again);
  g_assert_true (dc_session_save (session, path, &error));
  g_assert_no_error (error);
  again = open_session ("ascii-legacy");
  g_assert_true (dc_session_load_project (again, path, &error));
  g_assert_no_error (error);
  key = dc_session_get_key (again);
  g_assert_true (dc_key_is_refused (key, second, second_value));

  /* Undo takes the rejections back, each to exactly the state before it. */
  g_assert_true (dc_session_undo (again, &error));
  g_assert_cmpint (dc_key_get_status (key, second), ==, DC_KEY_PROPOSED);
  g_assert_cmpstr (dc_key_peek_value (key, second), ==, second_value);
  g_assert_null (dc_key_get_refused (key, second));
  g_assert_true (dc_key_is_refused (key, symbol, value));
  g_assert_true (dc_session_undo (again, &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_PROPOSED);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), ==, value);
  g_assert_cmpstr (dc_key_get_provenance (key, symbol), ==, provenance);
  g_assert_null (dc_key_get_refused (key, symbol));
  g_assert_true (dc_session_redo (again, &error));
  g_assert_true (dc_key_is_refused (key, symbol, value));
  dc_pipeline_apply (pipeline, key, NULL, NULL);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), !=, value);

  /* The user's own word still gives it, and lifts the refusal. */
  g_assert_true (dc_session_assign (again, symbol, value, &error));
  g_assert_no_error (error);
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), ==, value);
  g_assert_false (dc_key_is_refused (key, symbol, value));

  /* Nothing to reject on an unknown symbol: a sentence, nothing changed. */
  g_assert_true (dc_session_undo (again, &error));
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_UNKNOWN);
  g_assert_false (dc_session_reject (again, symbol, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);

  g_clear_object (&session);
  g_clear_object (&again);
  g_unlink (journal);
  g_unlink (backup);
  g_unlink (path);
  g_rmdir (folder);
}

/* Issue 31: rejecting a right proposal is a mistake the user undoes by typing: a word
 * read on the page that gives the symbol that value teaches it, as the user's word, and
 * lifts the refusal. */
static void
test_reject_then_type (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (GError) error = NULL;
  g_autofree char *value = NULL;
  DcKey *key = dc_session_get_key (session);
  guint n_symbols, symbol = G_MAXUINT;

  dc_session_start_new_work (session, TRUE);
  for (guint l = 1; l <= 2; l++)
    {
      g_autoptr (DcMatchResult)
          result = dc_session_type (session, g_ptr_array_index (lines, l), l, -1, &error);
      g_assert_no_error (error);
    }
  dc_document_get_symbols (dc_session_get_document (session), &n_symbols);
  for (guint s = 0; s < n_symbols && symbol == G_MAXUINT; s++)
    if (dc_key_get_status (key, s) == DC_KEY_PROPOSED)
      symbol = s;
  g_assert_cmpuint (symbol, !=, G_MAXUINT);
  value = g_strdup (dc_key_peek_value (key, symbol));
  g_assert_true (dc_session_reject (session, symbol, &error));
  g_assert_true (dc_key_is_refused (key, symbol, value));

  for (guint l = 3; l < lines->len && dc_key_get_value (key, symbol) == NULL; l++)
    {
      g_autoptr (DcMatchResult)
          result = dc_session_type (session, g_ptr_array_index (lines, l), l, -1, &error);
      g_assert_no_error (error);
    }
  /* The code page was right: typed, the glyph reads as it proposed. */
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, value);
  g_assert_cmpint (dc_key_get_level (key, symbol), ==, DC_KEY_LEVEL_USER);
  g_assert_false (dc_key_is_refused (key, symbol, value));
}

static void
done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* What Next? in a worker answers for the key as it is when the answer arrives, the
 * same as asked here and now, even when the key changed while it worked. */
static void
test_suggest_async (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (DcMatchResult) typed = NULL;
  g_autoptr (GError) error = NULL;
  DcSuggestion now, later;

  dc_session_start_new_work (session, TRUE);
  dc_session_suggest_async (session, NULL, done_cb, &result);
  /* Changed before the worker's answer can be taken: it is worked out again. */
  typed = dc_session_type (session, g_ptr_array_index (lines, 1), 1, -1, &error);
  g_assert_no_error (error);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dc_session_suggest_finish (session, result, &later, &error));
  g_assert_no_error (error);
  dc_session_suggest (session, &now);
  g_assert_cmpint (later.done, ==, now.done);
  g_assert_cmpuint (later.line, ==, now.line);
  g_assert_cmpuint (later.token, ==, now.token);
  g_assert_cmpuint (later.n_tokens, ==, now.n_tokens);
  g_assert_cmpuint (later.n_new_symbols, ==, now.n_new_symbols);
}

static void
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* The index is built in a worker and adopted; a learned space makes it stale, and it
 * is built again without being asked. */
static void
test_index (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  DcDocument *document = dc_session_get_document (session);
  gboolean ready = FALSE;
  guint generation, symbol;

  dc_session_start_new_work (session, TRUE);
  g_assert_false (dc_session_has_index (session));
  g_signal_connect_swapped (session, "index-ready", G_CALLBACK (flag_cb), &ready);
  dc_session_prepare_index (session);
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dc_session_has_index (session));

  /* A symbol learned to be a space splits the tokens anew. */
  ready = FALSE;
  generation = dc_document_get_tokens_generation (document);
  for (symbol = 0; !dc_session_symbol_is_unknown (session, symbol); symbol++)
    ;
  g_assert_true (dc_session_assign (session, symbol, " ", NULL));
  g_assert_cmpuint (dc_document_get_tokens_generation (document), !=, generation);
  g_assert_false (dc_session_has_index (session));
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dc_session_has_index (session));
}

/* Whether a suggestion's symbol counts are those of the glyphs as they are now. */
static gboolean
is_unknown (DcDocument *document, DcKey *key, guint symbol)
{
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);

  return dc_document_symbol_needs_decoding (document, symbol)
         && dc_key_get_value (key, symbol) == NULL && symbols[symbol].n_glyphs > 0;
}

/* Suggestions read each token's and line's symbols from lists kept per tokens snapshot
 * (dc-suggest.c), filtered by the key: after the key changes and the tokens are made
 * anew, what a suggestion names and counts is what the glyphs hold, counted here one by
 * one. */
static void
test_suggest_new_tokens (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  DcDocument *document = dc_session_get_document (session);
  DcKey *key = dc_session_get_key (session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autoptr (GArray) before = NULL;
  g_autoptr (GArray) busiest = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  const DcLine *lines;
  const DcToken *tokens;
  DcSuggestion suggestion;
  guint n_lines, symbol, generation, best = 0, best_line = 0;

  dc_session_suggest (session, &suggestion);
  g_assert_false (suggestion.done);
  /* Both made before the key changes. */
  before = dc_suggest_busiest_lines (key, 3);
  generation = dc_document_get_tokens_generation (document);
  for (symbol = 0; !dc_session_symbol_is_unknown (session, symbol); symbol++)
    ;
  g_assert_true (dc_session_assign (session, symbol, " ", NULL));
  g_assert_cmpuint (dc_document_get_tokens_generation (document), !=, generation);

  dc_session_suggest (session, &suggestion);
  g_assert_false (suggestion.done);
  lines = dc_document_get_lines (document, &n_lines);
  tokens = dc_document_get_tokens (document, NULL);
  g_assert_cmpuint (suggestion.line, <, n_lines);
  g_assert_cmpuint (suggestion.token + suggestion.n_tokens, <=, lines[suggestion.line].n_tokens);
  for (guint t = 0; t < suggestion.n_tokens; t++)
    {
      const DcToken *token = &tokens[lines[suggestion.line].first_token + suggestion.token + t];

      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        if (is_unknown (document, key, glyphs[order[k]].symbol))
          g_hash_table_add (seen, GUINT_TO_POINTER (glyphs[order[k]].symbol + 1));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, suggestion.n_new_symbols);

  /* The busiest line has as many unknown glyphs as any. */
  busiest = dc_suggest_busiest_lines (key, 3);
  g_assert_cmpuint (busiest->len, >, 0);
  for (guint l = 0; l < n_lines; l++)
    {
      guint count = 0;

      for (guint k = lines[l].first_glyph; k < lines[l].first_glyph + lines[l].n_glyphs; k++)
        count += is_unknown (document, key, glyphs[order[k]].symbol);
      if (count > best)
        best = count, best_line = l;
    }
  g_assert_cmpuint (best, >, 0);
  g_assert_cmpuint (g_array_index (busiest, guint, 0), ==, best_line);
}

/* The distinct unknown symbols of @suggestion's window, counted glyph by glyph; the
 * first of them in *@first. */
static guint
count_window_unknowns (DcSession *session, const DcSuggestion *suggestion, guint *first)
{
  DcDocument *document = dc_session_get_document (session);
  DcKey *key = dc_session_get_key (session);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  *first = G_MAXUINT;
  for (guint t = 0; t < suggestion->n_tokens; t++)
    {
      const DcToken *token = &tokens[lines[suggestion->line].first_token + suggestion->token + t];

      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        if (is_unknown (document, key, glyphs[order[k]].symbol))
          {
            if (*first == G_MAXUINT)
              *first = glyphs[order[k]].symbol;
            g_hash_table_add (seen, GUINT_TO_POINTER (glyphs[order[k]].symbol + 1));
          }
    }
  return g_hash_table_size (seen);
}

/* A suggestion keeps each token's unknown symbols for the next (dc-suggest.c): asked again
 * after a value is learned it filters them, after the value is undone it makes them
 * anew, asked with nothing changed it takes them as they are. Each time, what it counts
 * is what the glyphs hold now. */
static void
test_suggest_after_learning (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic");
  DcDocument *document = dc_session_get_document (session);
  DcSuggestion suggestion, again;
  guint generation, symbol, n_before, unused;

  dc_session_suggest (session, &suggestion);
  g_assert_false (suggestion.done);
  n_before = count_window_unknowns (session, &suggestion, &symbol);
  g_assert_cmpuint (suggestion.n_new_symbols, ==, n_before);
  g_assert_cmpuint (symbol, !=, G_MAXUINT);

  /* A letter, not a space: the tokens stay, the kept lists are filtered. */
  generation = dc_document_get_tokens_generation (document);
  g_assert_true (dc_session_assign (session, symbol, "ж", NULL));
  g_assert_cmpuint (dc_document_get_tokens_generation (document), ==, generation);
  dc_session_suggest (session, &again);
  g_assert_false (again.done);
  g_assert_cmpuint (again.n_new_symbols, ==, count_window_unknowns (session, &again, &unused));
  if (again.line == suggestion.line && again.token == suggestion.token
      && again.n_tokens == suggestion.n_tokens)
    g_assert_cmpuint (again.n_new_symbols, ==, n_before - 1);

  g_assert_true (dc_session_undo (session, NULL));
  dc_session_suggest (session, &again);
  g_assert_cmpuint (again.line, ==, suggestion.line);
  g_assert_cmpuint (again.token, ==, suggestion.token);
  g_assert_cmpuint (again.n_tokens, ==, suggestion.n_tokens);
  g_assert_cmpuint (again.n_new_symbols, ==, n_before);
  dc_session_suggest (session, &again);
  g_assert_cmpuint (again.n_new_symbols, ==, n_before);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dc-session/new-work", test_new_work);
  g_test_add_func ("/dc-session/type", test_type);
  g_test_add_func ("/dc-session/type-at-suggestion", test_type_at_suggestion);
  g_test_add_func ("/dc-session/accept-all", test_accept_all);
  g_test_add_func ("/dc-session/count-unreviewed", test_count_unreviewed);
  g_test_add_func ("/dc-session/resolve", test_resolve);
  g_test_add_func ("/dc-session/journal", test_journal);
  g_test_add_func ("/dc-session/reject", test_reject);
  g_test_add_func ("/dc-session/reject-then-type", test_reject_then_type);
  g_test_add_func ("/dc-session/suggest-async", test_suggest_async);
  g_test_add_func ("/dc-session/index", test_index);
  g_test_add_func ("/dc-session/suggest-new-tokens", test_suggest_new_tokens);
  g_test_add_func ("/dc-session/suggest-after-learning", test_suggest_after_learning);

  return g_test_run ();
}
