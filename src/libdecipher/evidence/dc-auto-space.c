/* dc-auto-space.c: a font's space, guessed from its lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The candidates are the symbols on enough of the font's lines; each is weighed by its ink,
 * where it stands on the lines, the words cutting at it makes, the word gaps it is beside
 * and how its neighbours look like line ends and starts (dc-auto.c says why all of these).
 * Only a clear winner is set; otherwise the reason is told.
 */

#define G_LOG_DOMAIN "dc-auto"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-auto-private.h"
#include "dc-unicode-private.h"

/* ------------------------------------------------------------------------------------ */
/* The space                                                                            */

/* How often each symbol appears somewhere: counts[symbol], and their sum. A line's first
 * and last symbols (add_edge_count()) also keep the stretch lo up to hi they fall in:
 * those of a font's lines are mostly its own symbols, and overlap() reads that stretch
 * rather than every symbol of the document once per candidate and font. */
typedef struct
{
  guint *counts;
  guint total;
  guint lo, hi;
} Distribution;

static void
distribution_init (Distribution *distribution, guint n_symbols)
{
  distribution->counts = g_new0 (guint, MAX (1, n_symbols));
  distribution->total = 0;
  distribution->lo = G_MAXUINT;
  distribution->hi = 0;
}

static void
distribution_clear (Distribution *distribution)
{
  g_clear_pointer (&distribution->counts, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Distribution, distribution_clear)

static void
add_count (Distribution *distribution, guint symbol)
{
  distribution->counts[symbol]++;
  distribution->total++;
}

static void
add_edge_count (Distribution *distribution, guint symbol)
{
  add_count (distribution, symbol);
  distribution->lo = MIN (distribution->lo, symbol);
  distribution->hi = MAX (distribution->hi, symbol);
}

/* How much two distributions overlap, @b one of edges: 1 when they are the same, 0
 * when they share nothing. Summed in whole numbers (min (a/A, b/B) is min (aB, bA) / AB),
 * so that the order of the symbols cannot change the last digits of what decides. */
static double
overlap (const Distribution *a, const Distribution *b)
{
  guint64 sum = 0;

  if (a->total == 0 || b->total == 0)
    return 0;
  for (guint s = b->lo; s <= b->hi; s++)
    if (a->counts[s] != 0 && b->counts[s] != 0)
      sum += MIN ((guint64) a->counts[s] * b->total, (guint64) b->counts[s] * a->total);
  return (double) sum / ((double) a->total * (double) b->total);
}

/* If a symbol is the space, what precedes it ends words, as the glyph that ends a line
 * does, and what follows it begins words, as the glyph that begins a line does. A letter's
 * neighbours are other letters inside words. Sets @likeness[i] for each of the @n
 * different @symbols: 0 (nothing alike) to 2 (the same). One pass over the lines for all
 * of them: a pass each was a sixth of `decipher-cli text` on a book once it was read. */
static void
context_likeness (FontPass *fp, const guint *symbols, guint n, double *likeness)
{
  Pass *pass = fp->pass;
  g_autofree Distribution *before = g_new0 (Distribution, MAX (1, n));
  g_autofree Distribution *after = g_new0 (Distribution, MAX (1, n));
  g_autofree Distribution *line_ends = g_new0 (Distribution, MAX (1, n));
  g_autofree Distribution *line_starts = g_new0 (Distribution, MAX (1, n));
  g_autofree int *firsts = g_new (int, MAX (1, n));
  g_autofree int *lasts = g_new (int, MAX (1, n));
  /* symbol → its place in @symbols + 1, or 0 */
  g_autofree guint8 *slot = g_new0 (guint8, MAX (1, pass->n_symbols));

  g_assert (n < G_MAXUINT8);
  for (guint c = 0; c < n; c++)
    {
      distribution_init (&before[c], pass->n_symbols);
      distribution_init (&after[c], pass->n_symbols);
      distribution_init (&line_ends[c], pass->n_symbols);
      distribution_init (&line_starts[c], pass->n_symbols);
      slot[symbols[c]] = (guint8) (c + 1);
    }

  for (guint fl = pass->font_line_starts[fp->index]; fl < pass->font_line_starts[fp->index + 1];
       fl++)
    {
      guint l = pass->font_lines[fl];
      const DcLine *line = &pass->lines[l];
      const guint32 *line_order = pass->order + line->first_glyph;
      guint n_glyphs = line->n_glyphs, previous, symbol;
      gboolean any = FALSE;

      for (guint c = 0; c < n; c++)
        {
          int first = 0, last = (int) n_glyphs - 1;

          /* Trailing spaces are not what ends the line's text. */
          while (first <= last && pass->glyphs[line_order[first]].symbol == symbols[c])
            first++;
          while (last >= first && pass->glyphs[line_order[last]].symbol == symbols[c])
            last--;
          firsts[c] = first;
          lasts[c] = last;
          if (first > last)
            continue;
          any = TRUE;
          add_edge_count (&line_starts[c], pass->glyphs[line_order[first]].symbol);
          add_edge_count (&line_ends[c], pass->glyphs[line_order[last]].symbol);
        }
      if (!any)
        continue;

      /* The symbol before the glyph is carried from the glyph before: the counts are
       * stored through pointers the compiler must think could be the glyphs'. */
      previous = G_MAXUINT;
      for (guint i = 0; i < n_glyphs; previous = symbol, i++)
        {
          guint c, next;

          symbol = pass->glyphs[line_order[i]].symbol;
          c = slot[symbol];
          if (c-- == 0 || (int) i < firsts[c] || (int) i > lasts[c])
            continue;
          next = pass->glyphs[line_order[i + 1]].symbol;
          if (previous != symbol)
            add_count (&before[c], previous);
          if (next != symbol)
            add_count (&after[c], next);
        }
    }

  for (guint c = 0; c < n; c++)
    {
      likeness[c] = overlap (&before[c], &line_ends[c]) + overlap (&after[c], &line_starts[c]);
      distribution_clear (&before[c]);
      distribution_clear (&after[c]);
      distribution_clear (&line_ends[c]);
      distribution_clear (&line_starts[c]);
    }
}

/* A glyph without ink, as wide as word spaces are, that still leaves words when the
 * lines are cut at it. */
static gboolean
is_blank_word_space (FontPass *fp, const Candidate *candidate)
{
  double advance;

  if (candidate->ink != INK_NONE || candidate->mean_word < INKLESS_MIN_MEAN_WORD)
    return FALSE;
  advance = _dc_auto_symbol_advance (fp, candidate->symbol);
  return advance >= INKLESS_MIN_ADVANCE && advance <= INKLESS_MAX_ADVANCE;
}

static void
judge_candidate (FontPass *fp, Candidate *candidate)
{
  const DcSymbol *symbol = &fp->pass->symbols[candidate->symbol];
  const SymbolStats *stats = &fp->stats[candidate->symbol];
  guint n_pieces = stats->n_pieces + (fp->n_lines - stats->n_lines);
  double begins = stats->n_begins / (double) stats->n_lines;
  double ends = stats->n_ends / (double) stats->n_lines;

  candidate->coverage = stats->n_lines / (double) fp->n_lines;
  candidate->mean_word = n_pieces > 0 ? (fp->n_glyphs - symbol->n_glyphs) / (double) n_pieces : 0;
  candidate->pdf_space = (symbol->flags & DC_SYMBOL_PDF_SPACE) != 0;
  /* Gaps only speak where there are enough of them to be the font's word breaks. */
  candidate->gap_share = fp->n_gaps >= MAX (3, fp->n_lines / 2)
                             ? stats->n_beside_gaps / (double) fp->n_gaps
                             : 1.0;
  candidate->ink = _dc_auto_symbol_ink (fp, candidate->symbol);

  if (candidate->ink == INK_SOME)
    candidate->rejection = REJECT_INK;
  else if (begins > MAX_EDGE_SHARE)
    candidate->rejection = REJECT_BEGINS;
  else if (ends > MAX_EDGE_SHARE && ends < TRAILING_SPACE_SHARE)
    candidate->rejection = REJECT_ENDS;
  else if (candidate->mean_word < MIN_MEAN_WORD || candidate->mean_word > MAX_MEAN_WORD)
    candidate->rejection = REJECT_WORDS;
  else if (candidate->gap_share < MIN_GAP_SHARE)
    candidate->rejection = REJECT_GAPS;
  else
    candidate->rejection = REJECT_NONE;

  /* Ink beats line statistics: a blank glyph a word space wide is the space even where
   * a producer kept the space each line was broken at (it then ends some lines, not all),
   * indents with it or sets short lines (the Nenets text whose а is on more lines). */
  if (candidate->rejection != REJECT_NONE && is_blank_word_space (fp, candidate))
    {
      candidate->overruled = candidate->rejection;
      candidate->rejection = REJECT_NONE;
    }

  /* Context comes later, for the best few only. */
  candidate->score = candidate->coverage + 1.0
                     - MIN (1.0, fabs (log (MAX (candidate->mean_word, 0.1) / TYPICAL_MEAN_WORD))
                                     / log (MAX_MEAN_WORD / TYPICAL_MEAN_WORD))
                     + 0.5 * MIN (1.0, symbol->n_glyphs / (TYPICAL_SPACE_SHARE * fp->n_glyphs))
                     + (candidate->ink == INK_NONE ? 1.0 : 0.0) + (candidate->pdf_space ? 1.0 : 0.0)
                     - (candidate->overruled != REJECT_NONE ? OVERRULED_PENALTY : 0.0);
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = a, *cb = b;

  if (ca->score != cb->score)
    return ca->score > cb->score ? -1 : 1;
  return ca->symbol < cb->symbol ? -1 : ca->symbol > cb->symbol;
}

static char *
space_rejection_sentence (FontPass *fp, const Candidate *c)
{
  const DcSymbol *symbol = &fp->pass->symbols[c->symbol];
  const SymbolStats *stats = &fp->stats[c->symbol];
  g_autofree char *code = display_code (symbol);

  switch (c->rejection)
    {
    case REJECT_INK:
      return g_strdup_printf (_("Code %s is on the most lines (%u of %u), but its glyph has ink."),
                                 code, stats->n_lines, fp->n_lines);
    case REJECT_BEGINS:
      return g_strdup_printf (_("Code %s is on the most lines (%u of %u), but begins %u of them."),
                                 code, stats->n_lines, fp->n_lines, stats->n_begins);
    case REJECT_ENDS:
      return g_strdup_printf (_("Code %s is on the most lines (%u of %u), but ends %u of them."),
                                 code, stats->n_lines, fp->n_lines, stats->n_ends);
    case REJECT_WORDS:
      return g_strdup_printf (_("Code %s is on the most lines (%u of %u), but cutting them at "
                                "it gives words of %.1f glyphs on average."),
                                 code, stats->n_lines, fp->n_lines, c->mean_word);
    case REJECT_GAPS:
      return g_strdup_printf (_("Code %s is on the most lines (%u of %u), but the words are "
                                "already set apart by gaps, most of them away from it."),
                                 code, stats->n_lines, fp->n_lines);
    case REJECT_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* Whether any glyph of the font on its lines is blank. */
static gboolean
any_blank_symbol (FontPass *fp)
{
  guint n;
  const guint32 *symbols = font_symbols (fp->pass, fp->index, &n);

  for (guint i = 0; i < n; i++)
    if (fp->stats[symbols[i]].n_lines > 0 && _dc_auto_symbol_ink (fp, symbols[i]) == INK_NONE)
      return TRUE;
  return FALSE;
}

/* The symbols that could be this font's space: on enough of its lines, not known to be
 * something else, each judged (judge_candidate()). */
static GArray *
space_candidates (FontPass *fp, gboolean few_lines)
{
  Pass *pass = fp->pass;
  GArray *candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  guint n;
  const guint32 *symbols = font_symbols (pass, fp->index, &n);

  for (guint i = 0; i < n; i++)
    {
      guint s = symbols[i];
      const SymbolStats *stats = &fp->stats[s];
      Candidate candidate = { 0 };

      if (stats->n_lines == 0 || (!few_lines && stats->n_lines < MIN_SPACE_LINES)
          || stats->n_lines < MIN_SPACE_COVERAGE * fp->n_lines
          || dc_key_get_status (pass->key, s) >= DC_KEY_INFERRED
          || _dc_auto_name_says_otherwise (fp, s, " "))
        continue;
      candidate.symbol = s;
      judge_candidate (fp, &candidate);
      /* Too few lines for statistics: only a blank glyph speaks for itself. */
      if (few_lines && !is_blank_word_space (fp, &candidate))
        continue;
      g_array_append_val (candidates, candidate);
    }
  return candidates;
}

/* What the plain "most lines" rule would pick, to say why it is not the space. A copy:
 * the candidates are sorted afterwards. */
static gboolean
most_lines_candidate (FontPass *fp, GArray *candidates, Candidate *most_lines)
{
  gboolean found = FALSE;

  for (guint i = 0; i < candidates->len; i++)
    {
      const Candidate *c = &g_array_index (candidates, Candidate, i);

      if (!found || fp->stats[c->symbol].n_lines > fp->stats[most_lines->symbol].n_lines)
        {
          *most_lines = *c;
          found = TRUE;
        }
    }
  return found;
}

/* Ranks the symbols that pass every test, adding what their neighbours say, and returns
 * the best and the runner-up (either may be NULL). */
static void
rank_space_candidates (FontPass *fp, GArray *candidates, const Candidate **best,
                       const Candidate **runner_up)
{
  guint ranked[MAX_CONTEXT_CANDIDATES], symbols[MAX_CONTEXT_CANDIDATES];
  double likeness[MAX_CONTEXT_CANDIDATES];
  guint n_context = 0;

  g_array_sort (candidates, compare_candidates);
  for (guint i = 0; i < candidates->len && n_context < MAX_CONTEXT_CANDIDATES; i++)
    if (g_array_index (candidates, Candidate, i).rejection == REJECT_NONE)
      {
        ranked[n_context] = i;
        symbols[n_context++] = g_array_index (candidates, Candidate, i).symbol;
      }
  /* The context only ranks the candidates that pass every test among themselves: one
   * alone is the best whatever it scores, and a book's one blank glyph usually is alone.
   * Its pass over the font's lines (a sixth of the automatic pass on a book) is then
   * made only for the debug line that shows it. */
  if (n_context < 2 && g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
    n_context = 0;
  if (n_context > 0)
    context_likeness (fp, symbols, n_context, likeness);
  for (guint k = 0; k < n_context; k++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, ranked[k]);

      c->context = likeness[k];
      c->score += c->context;
    }
  g_array_sort (candidates, compare_candidates);

  *best = *runner_up = NULL;
  for (guint i = 0; i < candidates->len; i++)
    {
      const Candidate *c = &g_array_index (candidates, Candidate, i);

      /* g_debug() formats its line even where it is not shown, which cost more than
       * judging the candidate (a sixth of this function on a book of 60 fonts). */
      if (!g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
        g_debug ("font %u symbol %u (code 0x%X): lines %.2f, words %.1f, gaps %.2f, context %.2f, "
                 "ink %d, pdf space %d, score %.2f, rejection %d",
                 fp->index, c->symbol, fp->pass->symbols[c->symbol].code, c->coverage, c->mean_word,
                 c->gap_share, c->context, c->ink, c->pdf_space, c->score, c->rejection);
      if (c->rejection != REJECT_NONE)
        continue;
      if (*best == NULL)
        *best = c;
      else if (*runner_up == NULL)
        *runner_up = c;
    }
}

/* Why no code is the space, naming what the "most lines" rule would have taken. */
static char *
no_space_reason (FontPass *fp, const Candidate *most_lines)
{
  GString *reason = g_string_new (NULL);

  g_string_append (reason, _("No space: no code of this font is blank, stays off the ends of "
                             "lines and cuts them into words of plausible length."));
  if (most_lines != NULL)
    {
      g_autofree char *why = space_rejection_sentence (fp, most_lines);

      g_string_append_c (reason, ' ');
      g_string_append (reason, why);
    }
  g_string_append_c (reason, ' ');
  g_string_append (reason, _("Words are taken from the gaps between glyphs instead."));
  return g_string_free (reason, FALSE);
}

/* Why @best is the space: where it stands on the lines, and what decided. */
static char *
space_reason (FontPass *fp, const Candidate *best)
{
  const SymbolStats *stats = &fp->stats[best->symbol];
  g_autofree char *code = display_code (&fp->pass->symbols[best->symbol]);
  GString *reason = g_string_new (NULL);

  if (stats->n_begins == 0 && stats->n_ends == 0)
    g_string_append_printf (reason,
                            ngettext ("Space: code %s is on %u of the %u line, never at either "
                                      "end of one, and cuts them into words of %.1f glyphs on "
                                      "average.",
                                      "Space: code %s is on %u of the %u lines, never at either "
                                      "end of one, and cuts them into words of %.1f glyphs on "
                                      "average.",
                                      fp->n_lines),
                            code, stats->n_lines, fp->n_lines, best->mean_word);
  else
    g_string_append_printf (reason,
                            ngettext ("Space: code %s is on %u of the %u line, begins %u and "
                                      "ends %u of them, and cuts them into words of %.1f glyphs "
                                      "on average.",
                                      "Space: code %s is on %u of the %u lines, begins %u and "
                                      "ends %u of them, and cuts them into words of %.1f glyphs "
                                      "on average.",
                                      fp->n_lines),
                            code, stats->n_lines, fp->n_lines, stats->n_begins, stats->n_ends,
                            best->mean_word);
  g_string_append_c (reason, ' ');
  if (best->ink == INK_NONE && best->overruled != REJECT_NONE)
    g_string_append_printf (reason, _("Its glyph draws nothing and is %.2f em wide, as a word "
                                      "space is, which outweighs the line statistics."),
                                       _dc_auto_symbol_advance (fp, best->symbol));
  else if (best->ink == INK_NONE)
    g_string_append (reason, _("Its glyph draws nothing."));
  else if (best->pdf_space)
    g_string_append (reason, _("The PDF calls it a space too."));
  else
    g_string_append (reason, _("No other code fits nearly as well."));
  return g_string_free (reason, FALSE);
}

void
_dc_auto_guess_space (FontPass *fp, DcAutoGuess *guess)
{
  Pass *pass = fp->pass;
  g_autoptr (GArray) candidates = NULL;
  const Candidate *best, *runner_up;
  Candidate most_lines = { 0 };
  gboolean have_most_lines, few_lines;
  guint known;

  if (_dc_auto_find_known (fp, _dc_text_is_space, &known))
    {
      g_autofree char *code = display_code (&pass->symbols[known]);

      guess->symbol = known;
      guess->reason = g_strdup_printf (_("The space is already known: code %s."), code);
      return;
    }

  few_lines = fp->n_lines < MIN_SPACE_LINES;
  if (few_lines && !any_blank_symbol (fp))
    {
      guess->reason = g_strdup_printf (ngettext ("No space: the font has too little text to tell "
                                                 "(%u line).",
                                                 "No space: the font has too little text to tell "
                                                 "(%u lines).",
                                                 fp->n_lines),
                                       fp->n_lines);
      return;
    }

  candidates = space_candidates (fp, few_lines);
  have_most_lines = most_lines_candidate (fp, candidates, &most_lines);
  rank_space_candidates (fp, candidates, &best, &runner_up);

  if (best != NULL && best->ink != INK_NONE && !best->pdf_space && runner_up != NULL
      && best->score - runner_up->score < STATISTICS_MARGIN)
    {
      g_autofree char *code = display_code (&pass->symbols[best->symbol]);
      g_autofree char *other = display_code (&pass->symbols[runner_up->symbol]);

      guess->reason = g_strdup_printf (_("No space: code %s fits best, but code %s fits nearly as "
                                         "well, so neither is taken. Words are taken from the "
                                         "gaps between glyphs instead."),
                                          code, other);
      return;
    }
  if (best == NULL)
    {
      guess->reason = no_space_reason (fp, have_most_lines ? &most_lines : NULL);
      return;
    }

  guess->symbol = best->symbol;
  guess->assigned = _dc_auto_assign (pass, best->symbol, " ", "auto: space");
  guess->reason = space_reason (fp, best);
}
