/* dc-matcher-decide.c: which reading of typed words wins, and what it teaches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-matcher.c. From the candidates dc-matcher-scan.c finds: exactly one
 * distinct reading is learned in one undoable change, several are ambiguous, one that
 * contradicts values held becomes a conflict, none gets a sentence saying why. Where the
 * input as typed fits nowhere, it is tried again with a left-out mark of punctuation,
 * as one word, and across a whole line's runs.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include <fribidi.h>

#include <glib/gi18n-lib.h>

#include "dc-matcher-private.h"

#define DECISIVE_MARGIN 2 /* the best reading must beat the next by this much */
#define MAX_REPORTED_PLACES DC_MATCHER_MAX_REPORTED_PLACES
/* Trying each place a left-out mark may stand matches the input 2 × words times: cheap for
 * the line or two people type, but a pasted page of 1,000 words took a second (eight
 * under the sanitizers) to answer "no match". Beyond this, the input is matched as typed. */
#define MAX_WORDS_FOR_OMISSIONS 48

#define signals _dc_matcher_signals
#define CONFLICTS_CHANGED DC_MATCHER_CONFLICTS_CHANGED
#define scan_clear _dc_matcher_scan_clear
#define make_signature _dc_matcher_make_signature
#define compare_candidates _dc_matcher_compare_candidates
#define gather_run _dc_matcher_gather_run
#define find_candidates _dc_matcher_find_candidates

static void
clear_learned (gpointer data)
{
  DcLearned *learned = data;

  g_clear_pointer (&learned->text, g_free);
}

static DcMatchResult *
match_result_new (DcMatchKind kind)
{
  DcMatchResult *result = g_new0 (DcMatchResult, 1);

  result->kind = kind;
  result->places = g_array_new (FALSE, FALSE, sizeof (DcMatchPlace));
  result->learned = g_array_new (FALSE, FALSE, sizeof (DcLearned));
  g_array_set_clear_func (result->learned, clear_learned);
  result->conflicts = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);
  return result;
}

static void
place_of (DcMatcher *self, guint start, guint n_words, int cost, DcMatchPlace *place)
{
  const DcLine *lines = dc_document_get_lines (self->document, NULL);
  const DcToken *tokens = dc_document_get_tokens (self->document, NULL);

  place->line = tokens[start].line;
  place->token = start - lines[place->line].first_token;
  place->n_tokens = n_words;
  place->penalty = cost;
}

static void
add_places (DcMatcher *self, DcMatchResult *result, const Candidate *candidate, guint n_words)
{
  for (guint i = 0; i < candidate->places->len; i++)
    {
      DcMatchPlace place;

      place_of (self, g_array_index (candidate->places, guint, i), n_words, candidate->cost,
                &place);
      g_array_append_val (result->places, place);
    }
}

static char *
provenance_for (const char *text)
{
  g_autofree char *shown = NULL;

  if (g_utf8_strlen (text, -1) > 60)
    {
      g_autofree char *head = g_utf8_substring (text, 0, 59);
      shown = g_strconcat (head, "…", NULL);
    }
  else
    shown = g_strdup (text);
  return g_strdup_printf ("type: «%s»", shown);
}

static void
apply_candidate (DcMatcher *self, const Typed *typed, const Candidate *candidate, const char *text,
                 DcMatchResult *result)
{
  g_autofree char *provenance = provenance_for (text);
  g_autofree char *label = g_strdup_printf (_("Typed “%s”"), text);

  dc_key_begin_change (self->key, label);
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);
      g_autoptr (GError) error = NULL;
      DcLearned learned;

      learned.symbol = b->symbol;
      learned.text = _dc_chars_to_nfc (typed, b->start, b->length);
      if (dc_key_set (self->key, b->symbol, learned.text, DC_KEY_INFERRED, provenance, &error))
        g_array_append_val (result->learned, learned);
      else
        {
          g_warning ("A match could not be stored: %s", error->message);
          g_free (learned.text);
        }
    }
  dc_key_end_change (self->key);
}

static void
record_conflicts (DcMatcher *self, const Typed *typed, const Candidate *candidate, const char *text,
                  DcMatchResult *result)
{
  g_autofree char *provenance = provenance_for (text);
  DcMatchPlace place;

  place_of (self, g_array_index (candidate->places, guint, 0), _dc_typed_n_words (typed),
            candidate->cost, &place);
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);
      DcConflict *conflict;

      if (!b->contradicts)
        continue;
      conflict = g_new0 (DcConflict, 1);
      conflict->symbol = b->symbol;
      conflict->current = g_strdup (dc_key_get_value (self->key, b->symbol));
      conflict->current_provenance = g_strdup (dc_key_get_provenance (self->key, b->symbol));
      conflict->proposed = _dc_chars_to_nfc (typed, b->start, b->length);
      conflict->proposed_provenance = g_strdup (provenance);
      conflict->place = place;
      conflict->current_level = dc_key_get_level (self->key, b->symbol);
      conflict->proposed_level = DC_KEY_LEVEL_USER;

      g_ptr_array_add (self->conflicts, dc_conflict_copy (conflict));
      g_ptr_array_add (result->conflicts, conflict);
    }
  if (result->conflicts->len > 0)
    g_signal_emit (self, signals[CONFLICTS_CHANGED], 0);
}

static char *
explain_no_match (DcMatcher *self, const Typed *typed, const Query *query, const char *text)
{
  guint n_words = _dc_typed_n_words (typed);
  g_autoptr (GPtrArray) closest = NULL;
  Query relaxed = *query;

  if (query->shaped_runs == 0)
    {
      if (query->line >= 0 && n_words == 1)
        return g_strdup_printf (_("No word on line %d has as many glyphs as “%s” could have. "
                                  "Check the line, or type what it shows."),
                                   query->line, text);
      if (query->line >= 0)
        return g_strdup_printf (_("No run of %u words from line %d has glyph counts that could "
                                  "spell “%s”. Check the line, or type what it shows."),
                                   n_words, query->line, text);
      if (n_words == 1)
        return g_strdup_printf (_("No word in the document has as many glyphs as “%s” could "
                                  "have."),
                                   text);
      return g_strdup_printf (_("No run of %u words in the document has glyph counts that could "
                                "spell “%s”."),
                                 n_words, text);
    }

  /* Find the closest run, comparing with every known value (a trusted font's too), and
   * say which known character stands in the way. */
  relaxed.relaxed = TRUE;
  relaxed.relax_all = TRUE;
  closest = find_candidates (self, typed, &relaxed);
  for (guint c = 0; c < closest->len; c++)
    {
      const Candidate *candidate = g_ptr_array_index (closest, c);

      for (guint i = 0; i < candidate->bindings->len; i++)
        {
          const Binding *b = &g_array_index (candidate->bindings, Binding, i);
          g_autofree char *typed_text = NULL;
          DcMatchPlace place;

          if (!b->contradicts)
            continue;
          typed_text = _dc_chars_to_nfc (typed, b->start, b->length);
          place_of (self, g_array_index (candidate->places, guint, 0), n_words, 0, &place);
          return g_strdup_printf (_("The closest place, line %u word %u, has the right shape, "
                                    "but its glyph known as “%s” stands where you typed “%s”."),
                                     place.line, place.token + 1,
                                     dc_key_get_value (self->key, b->symbol), typed_text);
        }
    }
  return g_strdup_printf (_("Runs of the right shape exist, but none can spell “%s” with the "
                            "characters already known."),
                             text);
}

/* Typed text runs right to left when its first strong character does (FriBidi's rule P2,
 * so Adlam, Hanifi Rohingya and every other right-to-left script count). */
static gboolean
is_right_to_left (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      FriBidiCharType type = fribidi_get_bidi_type (g_utf8_get_char (p));

      if (FRIBIDI_IS_LETTER (type))
        return FRIBIDI_IS_RTL (type);
    }
  return FALSE;
}

/* A reading that overturns more of what is known than it confirms is a typo or the wrong
 * place, not evidence against the key: one slip of the keyboard must not raise a conflict
 * for every letter of a word. One contradiction is always worth showing (a wrong full
 * stop in a word of unknown letters). */
static gboolean
is_plausible_conflict (DcMatcher *self, const Candidate *candidate)
{
  guint agreements = 0;

  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      agreements += !b->contradicts && dc_key_get_value (self->key, b->symbol) != NULL;
    }
  return candidate->contradictions <= MAX (1, agreements);
}

/* Lines in view are not a place the user chose: a reading there that overturns anything
 * but exactly one of the user's own values (the slip the issue is about: е typed for ё)
 * is more likely a coincidence of shapes than what they read. */
static gboolean
is_soft_conflict (DcMatcher *self, const Candidate *candidate)
{
  if (candidate->contradictions != 1)
    return FALSE;
  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      if (b->contradicts)
        return dc_key_get_level (self->key, b->symbol) == DC_KEY_LEVEL_USER;
    }
  return FALSE;
}

static DcMatchResult *
conflict_result (DcMatcher *self, const Typed *typed, const Candidate *best, const char *text)
{
  DcMatchResult *result = match_result_new (DC_MATCH_CONFLICT);

  record_conflicts (self, typed, best, text, result);
  add_places (self, result, best, _dc_typed_n_words (typed));
  result->reason = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE,
                   "This fits only if %u value already learned is wrong: review the conflict.",
                   "This fits only if %u values already learned are wrong: review the conflicts.",
                   best->contradictions),
      best->contradictions);
  return result;
}

static guint
count_agreements (DcMatcher *self, const Candidate *candidate)
{
  guint agreements = 0;

  for (guint i = 0; i < candidate->bindings->len; i++)
    {
      const Binding *b = &g_array_index (candidate->bindings, Binding, i);

      agreements += !b->contradicts && dc_key_get_value (self->key, b->symbol) != NULL;
    }
  return agreements;
}

/* In view, the words the user read there with one of their values wrong confirm more of
 * what is known than a fit there that takes new values (the "Издание": six
 * letters known, one given wrongly; "ӈэдакы." would have taken six new ones). Returns
 * that reading, from @relaxed, or %NULL when the fits win. */
static const Candidate *
find_slip (DcMatcher *self, GPtrArray *relaxed, GPtrArray *fits)
{
  const Candidate *slip = NULL;
  guint slip_agreements = 0, fit_agreements = 0;

  for (guint c = 0; c < relaxed->len; c++)
    {
      const Candidate *candidate = g_ptr_array_index (relaxed, c);
      guint agreements;

      if (candidate->inconsistencies != 0 || !is_soft_conflict (self, candidate))
        continue;
      agreements = count_agreements (self, candidate);
      if (slip == NULL || agreements > slip_agreements)
        {
          slip = candidate;
          slip_agreements = agreements;
        }
    }
  for (guint c = 0; c < fits->len; c++)
    fit_agreements = MAX (fit_agreements, count_agreements (self, g_ptr_array_index (fits, c)));
  return slip != NULL && slip_agreements > fit_agreements ? slip : NULL;
}

static DcMatchResult *
match_words (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  g_auto (Typed) typed = { 0 };
  g_autoptr (GPtrArray) candidates = NULL;
  Query query = { cue->line, cue->line_end, cue->token, FALSE, FALSE, 0, FALSE };
  DcMatchResult *result;
  const Candidate *best;
  guint n_words = g_strv_length (words);

  /* Known with the values: a query asks some thirty times, each of which went over
   * every symbol's value. */
  _dc_matcher_ensure_values (self);
  query.has_silent = self->has_silent;
  _dc_typed_prepare (&typed, words, is_right_to_left (text));
  candidates = find_candidates (self, &typed, &query);

  if (candidates->len == 0)
    {
      g_autoptr (GPtrArray) contradicting = NULL;
      Query relaxed = query;

      relaxed.relaxed = TRUE;
      contradicting = find_candidates (self, &typed, &relaxed);
      if (contradicting->len > 0
          && ((Candidate *) g_ptr_array_index (contradicting, 0))->inconsistencies == 0
          && (contradicting->len == 1
              || (contradicting->len > 1
                  && compare_candidates (&g_ptr_array_index (contradicting, 0),
                                         &g_ptr_array_index (contradicting, 1))
                         < 0
                  && ((Candidate *) g_ptr_array_index (contradicting, 0))->contradictions
                         < ((Candidate *) g_ptr_array_index (contradicting, 1))->contradictions)))
        {
          best = g_ptr_array_index (contradicting, 0);
          if (!is_plausible_conflict (self, best) || (cue->soft && !is_soft_conflict (self, best)))
            {
              result = match_result_new (DC_MATCH_NO_MATCH);
              if (!cue->unexplained)
                result->reason = explain_no_match (self, &typed, &query, text);
              return result;
            }
          return conflict_result (self, &typed, best, text);
        }

      result = match_result_new (DC_MATCH_NO_MATCH);
      if (!cue->unexplained)
        result->reason = explain_no_match (self, &typed, &query, text);
      return result;
    }

  if (cue->soft)
    {
      Query relaxed = query;
      g_autoptr (GPtrArray) contradicting = NULL;
      const Candidate *slip;

      relaxed.relaxed = TRUE;
      contradicting = find_candidates (self, &typed, &relaxed);
      slip = find_slip (self, contradicting, candidates);
      if (slip != NULL)
        return conflict_result (self, &typed, slip, text);
    }

  best = g_ptr_array_index (candidates, 0);
  if (candidates->len > 1)
    {
      const Candidate *second = g_ptr_array_index (candidates, 1);

      if (second->cost < best->cost + DECISIVE_MARGIN)
        {
          result = match_result_new (DC_MATCH_AMBIGUOUS);
          for (guint c = 0; c < candidates->len && result->places->len < MAX_REPORTED_PLACES; c++)
            {
              const Candidate *candidate = g_ptr_array_index (candidates, c);
              DcMatchPlace place;

              place_of (self, g_array_index (candidate->places, guint, 0), n_words, candidate->cost,
                        &place);
              g_array_append_val (result->places, place);
            }
          result->reason = g_strdup_printf (_("%u places read differently with this input: click the line to choose."),
              candidates->len);
          return result;
        }
    }

  if (best->n_new == 0)
    {
      result = match_result_new (DC_MATCH_KNOWN);
      add_places (self, result, best, n_words);
      result->reason = g_strdup (_("Every glyph there is already known."));
      return result;
    }

  result = match_result_new (DC_MATCH_ASSIGNED);
  add_places (self, result, best, n_words);
  apply_candidate (self, &typed, best, text, result);
  result->reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Learned %u symbol.",
                                                 "Learned %u symbols.", result->learned->len),
                                    result->learned->len);
  return result;
}

/* People type what they read, and leave out a comma or a quotation mark glued to a word
 * ("Весной река широко разливается" for "Весной река широко разливается,"). Where the
 * input as typed fits nowhere, each place such a mark may stand is tried in turn, the end
 * of the input first: a glyph there is read as that left-out punctuation, and learned as
 * nothing. The first reading that fits is the result. */
static DcMatchResult *
match_leaving_out_punctuation (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  guint n_words = g_strv_length (words);
  char omitted[8] = { 0 };
  Cue unexplained = *cue;

  unexplained.unexplained = TRUE;
  g_unichar_to_utf8 (DC_TYPED_OMITTED_PUNCTUATION, omitted);
  /* After the last word, before the first, then after and before each word inside. */
  for (guint attempt = 0; attempt < 2 * n_words; attempt++)
    {
      g_auto (GStrv) variant = g_strdupv (words);
      gboolean after = attempt == 0 || (attempt > 1 && attempt % 2 == 0);
      guint w = attempt == 0 ? n_words - 1 : attempt == 1 ? 0 : (attempt - 2) / 2;
      char *old = variant[w];
      DcMatchResult *result;

      if (attempt >= 2 && ((after && w == n_words - 1) || (!after && w == 0)))
        continue;
      variant[w] = after ? g_strconcat (old, omitted, NULL) : g_strconcat (omitted, old, NULL);
      g_free (old);
      result = match_words (self, variant, text, &unexplained);
      if (result->kind != DC_MATCH_NO_MATCH)
        {
          g_autofree char *reason = result->reason;

          result->reason = g_strdup_printf (
              after ? _("%s (The punctuation after “%s” was read without being typed.)")
                    : _("%s (The punctuation before “%s” was read without being typed.)"),
                         reason != NULL ? reason : "", words[w]);
          return result;
        }
      dc_match_result_free (result);
    }
  return NULL;
}

/* A whole line typed where the page's glyph runs split otherwise than its words (a
 * compound drawn as two runs, a danda typed apart from its word, a Type3 font whose
 * word gaps fall inside words): the input is read across all the line's runs, one
 * reading per run, a run ending at any cluster boundary. Only the values found are
 * learned; a contradiction is left to per-word typing. Returns NULL when nothing fits. */
static DcMatchResult *
match_whole_line (DcMatcher *self, char **words, const char *text, const Cue *cue)
{
  const DcLine *line = &dc_document_get_lines (self->document, NULL)[cue->line];
  g_auto (Typed) typed = { 0 };
  g_autofree guint32 *held_cache = NULL;
  Scan scan = { 0 };
  Search search = { 0 };
  Candidate candidate = { 0 };
  DcMatchResult *result;

  if (line->n_tokens == 0)
    return NULL;
  _dc_typed_prepare (&typed, words, is_right_to_left (text));
  held_cache = _dc_held_cache_new (&typed);
  scan.glyphs = dc_document_get_glyphs (self->document, NULL);
  scan.order = dc_document_get_reading_order (self->document, NULL);
  scan.tokens = dc_document_get_tokens (self->document, &scan.n_tokens);
  scan.run_token_end = g_new (guint, line->n_tokens);
  gather_run (&scan, line->first_token, line->n_tokens);

  search.document = self->document;
  search.key = self->key;
  search.nfd_values = self->nfd_values;
  search.holders = self->holders;
  search.held_cache = held_cache;
  search.typed = &typed;
  search.symbols = scan.run_symbols;
  search.token_end = scan.run_token_end;
  search.no_advance = scan.run_no_advance;
  search.free_words = TRUE;
  search.n_tokens = line->n_tokens;
  _dc_search_run (&search);
  scan_clear (&scan);
  if (!search.found)
    {
      g_clear_pointer (&search.best, g_array_unref);
      return NULL;
    }

  candidate.bindings = search.best;
  candidate.cost = search.best_cost;
  candidate.signature = make_signature (&typed, candidate.bindings, &candidate.n_new);
  candidate.places = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (candidate.places, line->first_token);
  result = match_result_new (candidate.n_new == 0 ? DC_MATCH_KNOWN : DC_MATCH_ASSIGNED);
  add_places (self, result, &candidate, line->n_tokens);
  if (candidate.n_new == 0)
    result->reason = g_strdup (_("Every glyph there is already known."));
  else
    {
      apply_candidate (self, &typed, &candidate, text, result);
      result->reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Learned %u symbol.",
                                                     "Learned %u symbols.", result->learned->len),
                                        result->learned->len);
    }
  g_free (candidate.signature);
  g_array_unref (candidate.bindings);
  g_array_unref (candidate.places);
  return result;
}

/* Every way of reading @words at @cue, as typed first. */
DcMatchResult *
_dc_matcher_match_at (DcMatcher *self, char **words, const char *normalized, const Cue *cue)
{
  DcMatchResult *result = match_words (self, words, normalized, cue);

  if (result->kind == DC_MATCH_NO_MATCH && g_strv_length (words) <= MAX_WORDS_FOR_OMISSIONS)
    {
      DcMatchResult *without = match_leaving_out_punctuation (self, words, normalized, cue);

      if (without != NULL)
        {
          dc_match_result_free (result);
          result = without;
        }
    }

  /* Where no space is known yet, a line is one long token: read the input whole,
   * spaces included, so the space symbol is learned with the letters. */
  if (result->kind == DC_MATCH_NO_MATCH && g_strv_length (words) > 1)
    {
      g_autofree char *collapsed = g_strjoinv (" ", words);
      char *whole[] = { collapsed, NULL };
      Cue unexplained = *cue;
      DcMatchResult *as_one;

      unexplained.unexplained = TRUE;
      as_one = match_words (self, whole, normalized, &unexplained);

      if (as_one->kind == DC_MATCH_NO_MATCH)
        dc_match_result_free (as_one);
      else
        {
          dc_match_result_free (result);
          result = as_one;
        }
    }

  if (result->kind == DC_MATCH_NO_MATCH && cue->line >= 0 && cue->token < 0
      && cue->line_end == cue->line + 1)
    {
      DcMatchResult *whole_line = match_whole_line (self, words, normalized, cue);

      if (whole_line != NULL)
        {
          dc_match_result_free (result);
          result = whole_line;
        }
    }
  return result;
}
