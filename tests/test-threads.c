/* test-threads.c: workers on snapshots while the main thread changes the space
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What Next? and the matcher's index are worked out in workers while the user goes on
 * typing, undoing and redoing; learning or forgetting a space splits the document's
 * tokens anew. A worker therefore gets an immutable DcTokens snapshot taken on the main
 * thread. These tests run both kinds of work in threads while the main thread undoes
 * and redoes a space as fast as it can; the ThreadSanitizer build (build-aux/test.sh,
 * _build/tsan) reports any access the snapshots fail to keep apart.
 */

#include "config.h"

#include "dc-test-fixtures.h"

#define ROUNDS 4
#define FLIPS_PER_ROUND 6

typedef struct
{
  DcKey *key;       /* a copy only the worker uses */
  DcTokens *tokens; /* taken on the main thread */
  DcSuggestion suggestion;
} SuggestJob;

static gpointer
suggest_worker (gpointer data)
{
  SuggestJob *job = data;

  dc_suggest_next_in (job->key, job->tokens, &job->suggestion);
  return NULL;
}

static gpointer
index_worker (gpointer data)
{
  dc_matcher_index_build (data);
  return NULL;
}

/* The most frequent symbol that separates no words yet: typing a space for it (a
 * mistake the user then undoes and redoes) changes every line's tokens. */
static guint
letter_symbol (DcDocument *document)
{
  guint n_symbols, best = G_MAXUINT;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s) &&
        !dc_document_symbol_is_space (document, s) &&
        (best == G_MAXUINT || symbols[s].n_glyphs > symbols[best].n_glyphs))
      best = s;
  g_assert_cmpuint (best, !=, G_MAXUINT);
  return best;
}

/* A fresh key holding what @key holds, for a worker to read alone. */
static DcKey *
copy_key (DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  DcKey *copy = dc_key_new (document);
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);
      DcKeyStatus status = dc_key_get_status (key, s);

      if (value != NULL && status != DC_KEY_FROM_PDF)
        g_assert_true (dc_key_set (copy, s, value, status, "copy", NULL));
    }
  return copy;
}

static void
test_workers_while_space_changes (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  guint space = letter_symbol (document);
  guint n_without, n_with;

  dc_document_get_tokens (document, &n_without);
  g_assert_true (dc_key_set (key, space, " ", DC_KEY_CONFIRMED, "test", NULL));
  g_assert_true (dc_document_symbol_is_space (document, space));
  dc_document_get_tokens (document, &n_with);
  g_assert_cmpuint (n_with, >, n_without);

  for (guint round = 0; round < ROUNDS; round++)
    {
      SuggestJob job = { 0 };
      DcSuggestion again;
      g_autoptr (DcMatcherIndex) index = dc_matcher_index_new (document);
      g_autoptr (GThread) suggest_thread = NULL;
      g_autoptr (GThread) index_thread = NULL;
      const DcToken *tokens;
      guint n_tokens, n_snapshot, n_lines, generation;
      gboolean had_space = dc_document_symbol_is_space (document, space);

      job.key = copy_key (key);
      job.tokens = dc_document_ref_tokens (document);
      generation = dc_tokens_get_generation (job.tokens);
      tokens = dc_tokens_get_tokens (job.tokens, &n_snapshot);
      g_assert_cmpuint (n_snapshot, ==, had_space ? n_with : n_without);

      suggest_thread = g_thread_new ("suggest", suggest_worker, &job);
      index_thread = g_thread_new ("index", index_worker, index);

      /* Meanwhile every undo and redo makes the document's tokens anew. */
      for (guint flip = 0; flip < FLIPS_PER_ROUND; flip++)
        {
          if (dc_document_symbol_is_space (document, space))
            g_assert_true (dc_key_undo (key));
          else
            g_assert_true (dc_key_redo (key));
          dc_document_get_tokens (document, &n_tokens);
          g_assert_cmpuint (n_tokens, ==,
                            dc_document_symbol_is_space (document, space) ? n_with : n_without);
        }
      /* An odd round ends on the other side of the space. */
      if (round % 2 == 1)
        {
          if (dc_document_symbol_is_space (document, space))
            g_assert_true (dc_key_undo (key));
          else
            g_assert_true (dc_key_redo (key));
        }

      g_thread_join (g_steal_pointer (&suggest_thread));
      g_thread_join (g_steal_pointer (&index_thread));

      /* The snapshot is what it was, and the worker saw exactly it. */
      g_assert_cmpuint (dc_tokens_get_generation (job.tokens), ==, generation);
      g_assert_true (dc_tokens_get_tokens (job.tokens, &n_snapshot) == tokens);
      g_assert_cmpuint (n_snapshot, ==, had_space ? n_with : n_without);
      g_assert_cmpuint (dc_tokens_get_generation (job.tokens), !=,
                        dc_document_get_tokens_generation (document));
      g_assert_false (job.suggestion.done);
      dc_suggest_next_in (job.key, job.tokens, &again);
      g_assert_cmpmem (&again, sizeof again, &job.suggestion, sizeof job.suggestion);
      dc_tokens_get_lines (job.tokens, &n_lines);
      g_assert_cmpuint (job.suggestion.line, <, n_lines);

      /* An index of tokens since replaced is refused, never adopted. */
      g_assert_false (dc_matcher_adopt_index (matcher, index));

      g_object_unref (job.key);
      dc_tokens_unref (job.tokens);
    }
}

/* A snapshot outlives the document's move to new tokens and holds its own space flags. */
static void
test_snapshot_keeps_space_flags (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  guint space = letter_symbol (document);
  g_autoptr (DcTokens) before = dc_document_ref_tokens (document);
  g_autoptr (DcTokens) after = NULL;
  g_autoptr (DcMatcherIndex) index = NULL;
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  guint n_before, n_after;

  g_assert_false (dc_tokens_symbol_is_space (before, space));
  g_assert_true (dc_key_set (key, space, " ", DC_KEY_CONFIRMED, "test", NULL));
  after = dc_document_ref_tokens (document);
  g_assert_true (after != before);
  g_assert_false (dc_tokens_symbol_is_space (before, space));
  g_assert_true (dc_tokens_symbol_is_space (after, space));
  dc_tokens_get_tokens (before, &n_before);
  dc_tokens_get_tokens (after, &n_after);
  g_assert_cmpuint (n_after, >, n_before);

  /* An index of the current snapshot is adopted. */
  index = dc_matcher_index_new (document);
  dc_matcher_index_build (index);
  g_assert_true (dc_matcher_adopt_index (matcher, index));
  g_assert_true (dc_matcher_has_index (matcher));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/threads/snapshot-keeps-space-flags", test_snapshot_keeps_space_flags);
  g_test_add_func ("/threads/workers-while-space-changes", test_workers_while_space_changes);
  return g_test_run ();
}
