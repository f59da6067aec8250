/* dc-matcher.c: typed words → the glyph runs they spell → new table entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The user types what they read; the document holds runs of tokens whose symbols are
 * partly unknown. A run fits when its tokens can be aligned with the typed words: every
 * known symbol spells exactly its value, an unknown symbol spells the same text wherever
 * it recurs, and each glyph takes one grapheme cluster, or one code point of it (a mark
 * drawn as its own glyph), or several clusters (a ligature, at a cost). Candidates are
 * found through an index of tokens by glyph count, so a query looks at the few runs of
 * the right shape rather than the whole book. When exactly one distinct reading fits,
 * its unknown symbols are learned in one undoable change; values already held are never
 * overwritten here — a disagreement becomes a conflict for the user to resolve.
 * docs/architecture.md says where the rest of a typed query is decided.
 *
 * This file holds the object, its results and conflicts, and the public entry that
 * checks the input and the cue; the index is built in dc-matcher-index.c, the runs of
 * the typed shape are aligned in dc-matcher-scan.c, and which reading wins, with what it
 * teaches, is decided in dc-matcher-decide.c.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-matcher-private.h"
#include "dc-unicode-private.h"

#define signals _dc_matcher_signals
#define CONFLICTS_CHANGED DC_MATCHER_CONFLICTS_CHANGED
#define ensure_index _dc_matcher_ensure_index
#define ensure_values _dc_matcher_ensure_values
#define match_at _dc_matcher_match_at

G_DEFINE_FINAL_TYPE (DcMatcher, dc_matcher, G_TYPE_OBJECT)

guint _dc_matcher_signals[DC_MATCHER_N_SIGNALS];

const char *
dc_match_kind_to_string (DcMatchKind kind)
{
  switch (kind)
    {
    case DC_MATCH_ASSIGNED:
      return "assigned";
    case DC_MATCH_AMBIGUOUS:
      return "ambiguous";
    case DC_MATCH_CONFLICT:
      return "conflict";
    case DC_MATCH_KNOWN:
      return "known";
    case DC_MATCH_NO_MATCH:
    default:
      return "no-match";
    }
}

void
dc_conflict_free (DcConflict *conflict)
{
  if (conflict == NULL)
    return;
  g_free (conflict->current);
  g_free (conflict->current_provenance);
  g_free (conflict->proposed);
  g_free (conflict->proposed_provenance);
  g_free (conflict);
}

/**
 * dc_conflict_copy:
 *
 * Returns: (transfer full): a copy of @conflict, freed with dc_conflict_free()
 */
DcConflict *
dc_conflict_copy (const DcConflict *conflict)
{
  DcConflict *copy;

  g_return_val_if_fail (conflict != NULL, NULL);

  copy = g_memdup2 (conflict, sizeof *conflict);

  copy->current = g_strdup (conflict->current);
  copy->current_provenance = g_strdup (conflict->current_provenance);
  copy->proposed = g_strdup (conflict->proposed);
  copy->proposed_provenance = g_strdup (conflict->proposed_provenance);
  return copy;
}

void
dc_match_result_free (DcMatchResult *result)
{
  if (result == NULL)
    return;
  g_array_unref (result->places);
  g_array_unref (result->learned);
  g_ptr_array_unref (result->conflicts);
  g_free (result->reason);
  g_free (result);
}

static void
on_key_changed (DcMatcher *self, guint symbol, DcKey *key)
{
  self->values_dirty = TRUE;
  g_hash_table_remove_all (self->fit_cache);
}

static void
dc_matcher_dispose (GObject *object)
{
  DcMatcher *self = DC_MATCHER (object);

  g_clear_signal_handler (&self->changed_handler, self->key);
  g_clear_object (&self->key);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (dc_matcher_parent_class)->dispose (object);
}

static void
dc_matcher_finalize (GObject *object)
{
  DcMatcher *self = DC_MATCHER (object);

  g_clear_pointer (&self->by_length, g_ptr_array_unref);
  g_clear_pointer (&self->types_by_length, g_ptr_array_unref);
  g_clear_pointer (&self->token_type, g_free);
  g_clear_pointer (&self->token_glyphs, g_free);
  g_clear_pointer (&self->order_symbol, g_free);
  g_clear_pointer (&self->order_no_advance, g_free);
  g_clear_pointer (&self->nfd_values, g_ptr_array_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  g_clear_pointer (&self->reach, g_free);
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);
  g_clear_pointer (&self->fit_cache, g_hash_table_unref);
  g_clear_pointer (&self->type_seen_scan, g_free);
  g_clear_pointer (&self->type_seen_index, g_free);

  G_OBJECT_CLASS (dc_matcher_parent_class)->finalize (object);
}

static void
dc_matcher_class_init (DcMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dc_matcher_dispose;
  object_class->finalize = dc_matcher_finalize;

  /**
   * DcMatcher::conflicts-changed:
   *
   * A conflict was raised, restored or resolved: the list of open ones is not what it
   * was. (A project keeps them, see dc_project_set_matcher().)
   */
  signals[CONFLICTS_CHANGED] = g_signal_new ("conflicts-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             0);
}

static void
dc_matcher_init (DcMatcher *self)
{
  self->values_dirty = TRUE;
  self->conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
  self->fit_cache = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                           (GDestroyNotify) g_bytes_unref, g_free);
}

/**
 * dc_matcher_new:
 * @key: the table the matcher reads and fills
 *
 * Returns: (transfer full): a matcher over @key's document
 */
DcMatcher *
dc_matcher_new (DcKey *key)
{
  DcMatcher *self;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);

  self = g_object_new (DC_TYPE_MATCHER, NULL);
  self->key = g_object_ref (key);
  self->document = g_object_ref (dc_key_get_document (key));
  self->changed_handler = g_signal_connect_swapped (key, "changed", G_CALLBACK (on_key_changed),
                                                    self);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Public                                                                    */

static gboolean
validate_input (const char *text, GError **error)
{
  if (strlen (text) > DC_MATCHER_MAX_INPUT)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("The input is longer than %d KiB: type a few words at a time."),
                      DC_MATCHER_MAX_INPUT / 1024);
      return FALSE;
    }
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("The input is not valid UTF-8 text."));
      return FALSE;
    }
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* What Decipher shows for an unknown glyph is no letter the user read: matched, it
       * proposed U+FFFD as a value, which no project can hold (fuzz-session). */
      if (c == 0xFFFD)
        {
          g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                               _("The input contains U+FFFD, which Decipher shows for an "
                                 "unknown glyph: type the letter you read there instead."));
          return FALSE;
        }
      /* A typed word's letters become values, and a project cannot hold a noncharacter:
       * one typed here was proposed in a conflict and the saved project no longer
       * opened (fuzz-session). The aligner also uses one of them as a sign of its own. */
      if (_dc_unichar_is_noncharacter (c))
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The input contains U+%04X, which Unicode reserves as a "
                         "non-character."),
                          c);
          return FALSE;
        }
      if (g_unichar_iscntrl (c) && !g_unichar_isspace (c))
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The input contains the control character U+%04X, which no page shows."),
                          c);
          return FALSE;
        }
    }
  return TRUE;
}

static char **
split_words (const char *text)
{
  GPtrArray *words = g_ptr_array_new ();
  const char *p = text;

  while (*p)
    {
      const char *start;

      while (*p && g_unichar_isspace (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      start = p;
      while (*p && !g_unichar_isspace (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      if (p > start)
        g_ptr_array_add (words, g_strndup (start, p - start));
    }
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);
}

static gboolean
check_cue (DcMatcher *self, int line, int token, int view_line, guint n_view_lines, GError **error)
{
  guint n_lines;
  const DcLine *lines = dc_document_get_lines (self->document, &n_lines);

  if (line >= (int) n_lines || (token >= 0 && line < 0))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   token >= 0 && line < 0
                   ? _("A word number needs a line number too.")
                   : _("There is no line %d: the document has %u lines."), line, n_lines);
      return FALSE;
    }
  if (token >= 0 && (guint) token >= lines[line].n_tokens)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Line %d has no word %d: it has %u."), line, token + 1, lines[line].n_tokens);
      return FALSE;
    }
  if (view_line >= 0 && ((guint) view_line >= n_lines || n_view_lines == 0))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("There is no line %d in view: the document has %u lines."), view_line,
                      n_lines);
      return FALSE;
    }
  return TRUE;
}

/**
 * dc_matcher_type:
 * @text: what the user read on the page: one token or several, separated by spaces
 * @line: the line the user pointed at, or -1
 * @token: with @line, the token the run starts at, or -1
 *
 * Finds where @text is drawn and learns its unknown symbols when exactly one reading
 * fits. Values already held are never changed here: a contradiction is returned as a
 * conflict and kept for review.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when the input or the
 *   cue is unusable
 */
DcMatchResult *
dc_matcher_type (DcMatcher *self, const char *text, int line, int token, GError **error)
{
  return dc_matcher_type_in_view (self, text, line, token, -1, 0, error);
}

/**
 * dc_matcher_type_in_view:
 * @view_line: without @line, the first line the user has in view, or -1
 * @n_view_lines: how many lines from @view_line are in view
 *
 * As dc_matcher_type(); without a line cue, the lines in view are tried first. Where
 * @text fits there, it is read there even if it also fits elsewhere; where it fits there
 * only if exactly one value the user gave is wrong, that is a conflict for the user to
 * resolve rather than a match somewhere else, which would teach wrong values without a
 * word. Where it does not fit there at all, the whole document is searched.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when the input or a
 *   line number is unusable
 */
DcMatchResult *
dc_matcher_type_in_view (DcMatcher *self, const char *text, int line, int token, int view_line,
                         guint n_view_lines, GError **error)
{
  g_autofree char *normalized = NULL;
  g_auto (GStrv) words = NULL;
  guint n_lines;
  Cue cue = { line, line + 1, token, FALSE };

  g_return_val_if_fail (DC_IS_MATCHER (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!validate_input (text, error))
    return NULL;
  normalized = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
  words = split_words (normalized);
  if (words[0] == NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("Type at least one word as it reads on the page."));
      return NULL;
    }
  if (!check_cue (self, line, token, view_line, n_view_lines, error))
    return NULL;

  ensure_index (self);
  g_hash_table_remove_all (self->fit_cache);
  ensure_values (self);

  dc_document_get_lines (self->document, &n_lines);
  if (line < 0 && view_line >= 0)
    {
      /* Where nothing fits in view the whole document is searched, and that answers. */
      Cue in_view = { view_line, (int) MIN (n_lines, (guint) view_line + n_view_lines), -1, TRUE,
                      TRUE };
      DcMatchResult *result = match_at (self, words, normalized, &in_view);

      if (result->kind != DC_MATCH_NO_MATCH)
        return result;
      dc_match_result_free (result);
    }
  return match_at (self, words, normalized, &cue);
}

guint
dc_matcher_get_n_conflicts (DcMatcher *self)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), 0);

  return self->conflicts->len;
}

const DcConflict *
dc_matcher_get_conflict (DcMatcher *self, guint index)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), NULL);
  g_return_val_if_fail (index < self->conflicts->len, NULL);

  return g_ptr_array_index (self->conflicts, index);
}

/**
 * dc_matcher_resolve_conflict:
 * @take_proposed: %TRUE to take the new evidence, %FALSE to keep the value held
 *
 * The user's verdict: the chosen value is confirmed, and the conflict (with any other
 * open conflict about the same symbol) leaves the list.
 */
gboolean
dc_matcher_resolve_conflict (DcMatcher *self, guint index, gboolean take_proposed, GError **error)
{
  const DcConflict *conflict;
  g_autofree char *value = NULL;
  g_autofree char *provenance = NULL;
  guint symbol;

  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);
  g_return_val_if_fail (index < self->conflicts->len, FALSE);

  conflict = g_ptr_array_index (self->conflicts, index);
  symbol = conflict->symbol;
  value = g_strdup (take_proposed ? conflict->proposed : conflict->current);
  provenance = g_strdup_printf ("conflict: %s", take_proposed ? conflict->proposed_provenance
                                                              : conflict->current_provenance);
  if (!dc_key_set (self->key, symbol, value, DC_KEY_CONFIRMED, provenance, error))
    return FALSE;

  for (guint i = self->conflicts->len; i > 0; i--)
    if (((DcConflict *) g_ptr_array_index (self->conflicts, i - 1))->symbol == symbol)
      g_ptr_array_remove_index (self->conflicts, i - 1);
  g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
  return TRUE;
}

/**
 * dc_matcher_add_conflict:
 * @conflict: one left open in an earlier session, as a project kept it
 *
 * Opens @conflict (a copy) again for review, as if the input had just been typed.
 */
void
dc_matcher_add_conflict (DcMatcher *self, const DcConflict *conflict)
{
  guint n_symbols;

  g_return_if_fail (DC_IS_MATCHER (self));
  g_return_if_fail (conflict != NULL);
  dc_document_get_symbols (self->document, &n_symbols);
  g_return_if_fail (conflict->symbol < n_symbols);
  g_return_if_fail (conflict->current != NULL && conflict->proposed != NULL);

  g_ptr_array_add (self->conflicts, dc_conflict_copy (conflict));
  g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
}
