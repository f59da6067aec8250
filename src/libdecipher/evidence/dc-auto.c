/* dc-auto.c: the automatic pass that guesses each untrusted font's space and full stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Knowing the space turns a line of glyphs into words, which is what the matcher works
 * on, and knowing the full stop spares the user typing it; both can be read off the
 * page's statistics before the user types anything. The obvious rule, "the space is the
 * symbol on the most lines", picks a frequent letter in many languages (Nenets а is on
 * more lines than the space), so several kinds of evidence are weighed:
 *
 * - a drawn space has no ink: its outline in the font program is empty;
 * - it never begins a line and never ends one (or, with producers that keep the trailing
 *   space of every line, nearly always ends one);
 * - cutting the lines at it gives words of plausible length;
 * - the glyphs just before it look like the glyphs that end lines, and the glyphs just
 *   after it like the glyphs that begin lines, since both are word ends and word starts;
 * - where the font draws no space at all, words are already apart by gaps, and a letter
 *   sits beside only a few of those gaps;
 * - the PDF itself may call it a space.
 *
 * A guess is only made on clear evidence; otherwise nothing is set and the words come from
 * the gaps between glyphs. Guesses are %DC_KEY_INFERRED, never override anything inferred
 * or confirmed, and form one undoable step.
 */

#define G_LOG_DOMAIN "dc-auto"

#include "config.h"

#include <math.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include <glib/gi18n-lib.h>

#include "dc-agl-private.h"
#include "dc-auto.h"
#include "dc-ink-private.h"
#include "dc-parallel-private.h"
#include "dc-font-tables.h"
#include "dc-hypotheses-private.h"
#include "dc-width-offsets-private.h"
#include "dc-unicode-private.h"

/* As in dc-layout.c: where no space glyph is drawn, a gap this wide (in ems) parts words. */
#define MIN_WORD_GAP 0.15

/* The space. */
#define MIN_SPACE_LINES 3        /* fewer lines tell nothing */
#define MIN_SPACE_COVERAGE 0.5   /* running text has a space on most lines */
#define MAX_EDGE_SHARE 0.05      /* of its lines it may begin or end, for odd layouts */
#define TRAILING_SPACE_SHARE 0.8 /* …or it ends nearly all: a producer's trailing spaces */
#define MIN_MEAN_WORD 3.0        /* glyphs per word, punctuation included */
#define MAX_MEAN_WORD 12.0
#define TYPICAL_MEAN_WORD 5.5
#define MIN_GAP_SHARE 0.5        /* of the word gaps a space must be beside, if gaps abound */
#define MAX_CONTEXT_CANDIDATES 6 /* the costlier neighbour statistics only for the best */
#define TYPICAL_SPACE_SHARE 0.15 /* of all glyphs */
#define STATISTICS_MARGIN 0.3    /* lead needed when neither ink nor the PDF speaks */
/* A glyph without ink as wide as a word space (in ems: thin to monospace) is the space
 * whatever the line ends say, as long as cutting at it still leaves words. */
#define INKLESS_MIN_ADVANCE 0.15
#define INKLESS_MAX_ADVANCE 0.7
#define INKLESS_MIN_MEAN_WORD 1.5
/* …and the line statistics it outweighed only break ties between such blank glyphs. */
#define OVERRULED_PENALTY 0.25

/* A font whose glyphs are as wide as they are tall sets CJK text: its full stop is 。 and
 * its word breaks are no spaces; no Latin guess is made there. */
#define CJK_MIN_ADVANCE 0.9

/* The full stop's ink: a small mark on the baseline, in ems. */
#define FULL_STOP_MAX_WIDTH 0.4
#define FULL_STOP_MAX_HEIGHT 0.3
#define FULL_STOP_MIN_BOTTOM -0.15
#define FULL_STOP_MAX_TOP 0.35

/* The full stop. */
#define EARLY_END_MIN 0.2
#define EARLY_END_MAX 0.8
#define MIN_FULL_STOP_LINES 2
#define FULL_STOP_LEAD 2.0         /* times the runner-up's count */
#define MIN_WORD_FINAL_SHARE 0.8   /* it ends the word wherever it occurs… */
#define MAX_WORD_INITIAL_SHARE 0.5 /* …and is rarely a word by itself */

typedef enum
{
  INK_UNCHECKED,
  INK_UNKNOWN,
  INK_NONE,
  INK_SOME,
} Ink;

typedef enum
{
  REJECT_NONE,
  REJECT_INK,
  REJECT_BEGINS,
  REJECT_ENDS,
  REJECT_WORDS,
  REJECT_GAPS,
} Rejection;

typedef struct
{
  guint n_lines;       /* lines it is on */
  guint n_begins;      /* lines it begins */
  guint n_ends;        /* lines it ends */
  guint n_pieces;      /* non-empty pieces the lines it is on fall into when cut at it */
  guint n_beside_gaps; /* word gaps next to it */
  guint line_stamp;    /* 1 + the last line it was seen on */
  int last_position;   /* in that line */
  double advance_ems;  /* summed over its glyphs of the font's lines */
  guint n_advances;
  Ink ink;
} SymbolStats;

typedef struct
{
  guint symbol;
  double coverage;
  double mean_word;
  double gap_share;
  double context;
  double score;
  Rejection rejection;
  Rejection overruled; /* what the statistics said against a blank, word-wide glyph */
  Ink ink;
  gboolean pdf_space;
} Candidate;

typedef struct
{
  DcDocument *document;
  DcKey *key;
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcSymbol *symbols;
  guint n_lines;
  guint n_symbols;
  FT_Library library; /* NULL when FreeType is unavailable: no ink evidence then */
  guint n_assigned;
  /* The lines with glyphs of font f: font_lines[font_line_starts[f]] up to
   * font_lines[font_line_starts[f + 1]], in order. Each font's statistics read only
   * its lines: a pass over every line per font made the load cost fonts × glyphs. */
  guint *font_line_starts;
  guint32 *font_lines;
  /* Per symbol, the words it begins and ends (count_word_edges()), or NULL until asked:
   * the same for every font, as the document's words do not change. */
  guint *word_initial;
  guint *word_final;
} Pass;

/* How far the font's glyphs reach along the baseline in each direction (the text's
 * margins), and how many of them advance a full em: what font_is_cjk_width() and
 * guess_full_stop() ask of its glyphs, whatever the key says. */
typedef struct
{
  guint n_advancing; /* glyphs that advance */
  guint n_wide;      /* of those, the ones a full em wide */
  double u0[4], u1[4];
  gboolean has_extent[4];
  /* Per symbol of the document, SymbolStats' advance_ems and n_advances, summed here in
   * the same order (lines, then glyphs) as count_font_lines() would. */
  double *advance_ems;
  guint *n_advances;
} FontReach;

typedef struct
{
  Pass *pass;
  DcFont *font;
  guint index;
  FT_Face face;
  gboolean face_tried;
  SymbolStats *stats; /* per symbol of the document; only this font's are filled */
  guint n_lines;      /* lines with glyphs of the font */
  guint n_glyphs;     /* all glyphs on those lines */
  guint n_gaps;       /* word gaps between two of its glyphs */
  FontReach reach;
} FontPass;

static double
along_baseline (const DcGlyph *glyph)
{
  /* The reading direction of the glyph's line, as dc-layout.c measures it. */
  switch (glyph->rotation)
    {
    case 1:
      return glyph->y;
    case 2:
      return -glyph->x;
    case 3:
      return -glyph->y;
    case 0:
    default:
      return glyph->x;
    }
}

static double
em (const DcGlyph *glyph)
{
  return dc_glyph_get_size (glyph) > 0.5 ? dc_glyph_get_size (glyph) : 0.5;
}

static char *
display_code (const DcSymbol *symbol)
{
  return g_strdup_printf ("0x%0*X", (int) symbol->code_len * 2, symbol->code);
}

/* Pass.font_lines: one look at every glyph. */
static void
index_font_lines (Pass *pass, guint n_fonts)
{
  g_autofree guint *stamps = g_new0 (guint, MAX (1, n_fonts));
  guint *starts = g_new0 (guint, n_fonts + 1);
  g_autofree guint *next = NULL;

  for (int fill = 0; fill < 2; fill++)
    {
      for (guint l = 0; l < pass->n_lines; l++)
        {
          const DcLine *line = &pass->lines[l];

          for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
            {
              guint font = dc_glyph_get_font (&pass->glyphs[pass->order[k]], pass->symbols);

              if (stamps[font] == l + 1)
                continue;
              stamps[font] = l + 1;
              if (fill)
                pass->font_lines[next[font]++] = l;
              else
                starts[font + 1]++;
            }
        }
      if (!fill)
        {
          for (guint f = 0; f < n_fonts; f++)
            starts[f + 1] += starts[f];
          next = g_memdup2 (starts, sizeof (guint) * MAX (1, n_fonts));
          pass->font_lines = g_new (guint32, MAX (1, starts[n_fonts]));
          memset (stamps, 0, sizeof (guint) * MAX (1, n_fonts));
        }
    }
  pass->font_line_starts = starts;
}

/* ------------------------------------------------------------------------------------ */
/* Ink                                                                                  */

static FT_Face
font_face (FontPass *fp)
{
  if (fp->face_tried)
    return fp->face;
  fp->face_tried = TRUE;

  fp->face = _dc_font_open_face (fp->font, fp->pass->library);
  return fp->face;
}

static Ink
symbol_ink (FontPass *fp, guint symbol)
{
  SymbolStats *stats = &fp->stats[symbol];
  FT_Face face;

  if (stats->ink != INK_UNCHECKED)
    return stats->ink;

  face = font_face (fp);
  switch (_dc_symbol_ink (fp->font, face, &fp->pass->symbols[symbol]))
    {
    case DC_INK_NONE:
      stats->ink = INK_NONE;
      break;
    case DC_INK_SOME:
      stats->ink = INK_SOME;
      break;
    case DC_INK_UNKNOWN:
    default:
      stats->ink = INK_UNKNOWN;
      break;
    }
  return stats->ink;
}

/* ------------------------------------------------------------------------------------ */
/* The space                                                                            */

static void
count_font_lines (FontPass *fp)
{
  Pass *pass = fp->pass;
  /* Room for every symbol, so that a symbol new to the line is a store, not a call. */
  g_autoptr (GArray)
      seen = g_array_sized_new (FALSE, FALSE, sizeof (guint), MAX (1, pass->n_symbols));

  for (guint fl = pass->font_line_starts[fp->index]; fl < pass->font_line_starts[fp->index + 1];
       fl++)
    {
      guint l = pass->font_lines[fl];
      const DcLine *line = &pass->lines[l];
      gboolean have_previous = FALSE;
      double previous_end = 0;
      guint previous_symbol = 0;
      guint first, last;

      fp->n_lines++;
      fp->n_glyphs += line->n_glyphs;
      g_array_set_size (seen, 0);

      for (guint i = 0; i < line->n_glyphs; i++)
        {
          const DcGlyph *glyph = &pass->glyphs[pass->order[line->first_glyph + i]];
          double u = along_baseline (glyph);
          SymbolStats *stats = &fp->stats[glyph->symbol];

          if (dc_glyph_get_font (glyph, pass->symbols) != fp->index)
            {
              /* A gap across another font's glyphs is not one between this font's. */
              have_previous = FALSE;
              continue;
            }

          if (stats->line_stamp != l + 1)
            {
              stats->line_stamp = l + 1;
              stats->n_lines++;
              stats->last_position = -1;
              g_array_index (seen, guint, seen->len) = glyph->symbol;
              seen->len++;
            }
          if ((int) i - stats->last_position > 1)
            stats->n_pieces++;
          stats->last_position = i;

          if (have_previous && u - previous_end > MIN_WORD_GAP * em (glyph))
            {
              fp->n_gaps++;
              fp->stats[previous_symbol].n_beside_gaps++;
              if (previous_symbol != glyph->symbol)
                stats->n_beside_gaps++;
            }
          /* A zero-width mark must not hide the gap after the glyph it sits on. */
          if (!have_previous || dc_glyph_get_advance (glyph) != 0
              || u + dc_glyph_get_advance (glyph) > previous_end)
            {
              previous_end = u + dc_glyph_get_advance (glyph);
              previous_symbol = glyph->symbol;
              have_previous = TRUE;
            }
        }

      for (guint k = 0; k < seen->len; k++)
        {
          SymbolStats *stats = &fp->stats[g_array_index (seen, guint, k)];

          if ((int) line->n_glyphs - stats->last_position > 1)
            stats->n_pieces++;
        }

      first = pass->order[line->first_glyph];
      last = pass->order[line->first_glyph + line->n_glyphs - 1];
      if (dc_glyph_get_font (&pass->glyphs[first], pass->symbols) == fp->index)
        fp->stats[pass->glyphs[first].symbol].n_begins++;
      if (dc_glyph_get_font (&pass->glyphs[last], pass->symbols) == fp->index)
        fp->stats[pass->glyphs[last].symbol].n_ends++;
    }
}

/* The font's reach (FontReach), and its symbols' advances in ems: one look at each of
 * its glyphs, in reading order. */
static void
measure_reach (FontPass *fp)
{
  Pass *pass = fp->pass;
  FontReach *reach = &fp->reach;

  for (guint fl = pass->font_line_starts[fp->index]; fl < pass->font_line_starts[fp->index + 1];
       fl++)
    {
      const DcLine *line = &pass->lines[pass->font_lines[fl]];

      for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
        {
          const DcGlyph *glyph = &pass->glyphs[pass->order[k]];
          double u = along_baseline (glyph);
          float advance = dc_glyph_get_advance (glyph);
          guint r = glyph->rotation & 3;

          if (dc_glyph_get_font (glyph, pass->symbols) != fp->index)
            continue;
          reach->advance_ems[glyph->symbol] += fabs (advance) / em (glyph);
          reach->n_advances[glyph->symbol]++;
          if (advance > 0)
            {
              reach->n_advancing++;
              reach->n_wide += fabs (advance) >= CJK_MIN_ADVANCE * em (glyph);
            }
          if (!reach->has_extent[r])
            {
              reach->u0[r] = reach->u1[r] = u;
              reach->has_extent[r] = TRUE;
            }
          reach->u0[r] = MIN (reach->u0[r], MIN (u, u + advance));
          reach->u1[r] = MAX (reach->u1[r], MAX (u, u + advance));
        }
    }
}

/* count_font_lines() and measure_reach(), each reading the lines and writing its own, on
 * two threads for a book: the automatic pass runs before the session's first reply, and
 * the second processor would wait meanwhile. */
typedef struct
{
  FontPass *fp;
  gint next; /* atomic */
} FontLook;

static void
look_at_font (gpointer data)
{
  FontLook *look = data;
  guint job;

  while ((job = (guint) g_atomic_int_add (&look->next, 1)) < 2)
    {
      if (job == 0)
        count_font_lines (look->fp);
      else
        measure_reach (look->fp);
    }
}

/* How often each symbol appears somewhere: counts[symbol], and their sum. */
typedef struct
{
  guint *counts;
  guint total;
} Distribution;

static void
distribution_init (Distribution *distribution, guint n_symbols)
{
  distribution->counts = g_new0 (guint, MAX (1, n_symbols));
  distribution->total = 0;
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

/* How much two distributions of @n_symbols symbols overlap: 1 when they are the same, 0
 * when they share nothing. Summed in whole numbers (min (a/A, b/B) is min (aB, bA) / AB),
 * so that the order of the symbols cannot change the last digits of what decides. */
static double
overlap (const Distribution *a, const Distribution *b, guint n_symbols)
{
  guint64 sum = 0;

  if (a->total == 0 || b->total == 0)
    return 0;
  for (guint s = 0; s < n_symbols; s++)
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
      gboolean any = FALSE;

      for (guint c = 0; c < n; c++)
        {
          int first = 0, last = (int) line->n_glyphs - 1;

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
          add_count (&line_starts[c], pass->glyphs[line_order[first]].symbol);
          add_count (&line_ends[c], pass->glyphs[line_order[last]].symbol);
        }
      if (!any)
        continue;

      for (guint i = 0; i < line->n_glyphs; i++)
        {
          guint symbol = pass->glyphs[line_order[i]].symbol;
          guint c = slot[symbol];
          guint previous, next;

          if (c-- == 0 || (int) i < firsts[c] || (int) i > lasts[c])
            continue;
          previous = pass->glyphs[line_order[i - 1]].symbol;
          next = pass->glyphs[line_order[i + 1]].symbol;
          if (previous != symbol)
            add_count (&before[c], previous);
          if (next != symbol)
            add_count (&after[c], next);
        }
    }

  for (guint c = 0; c < n; c++)
    {
      likeness[c] = overlap (&before[c], &line_ends[c], pass->n_symbols)
                    + overlap (&after[c], &line_starts[c], pass->n_symbols);
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
  const SymbolStats *stats = &fp->stats[candidate->symbol];
  double advance;

  if (candidate->ink != INK_NONE || stats->n_advances == 0
      || candidate->mean_word < INKLESS_MIN_MEAN_WORD)
    return FALSE;
  advance = stats->advance_ems / stats->n_advances;
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
  candidate->ink = symbol_ink (fp, candidate->symbol);

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

/* Most of the font's glyphs advance a full em: CJK ideographs, kana, hangul. */
static gboolean
font_is_cjk_width (FontPass *fp)
{
  guint n = fp->reach.n_advancing, wide = fp->reach.n_wide;

  return n >= 8 && wide * 2 > n;
}

/* Whether the glyph's name says it is something other than @value: no guess against it. */
static gboolean
name_says_otherwise (FontPass *fp, guint symbol, const char *value)
{
  const char *encoding = dc_font_get_encoding (fp->font);
  g_autofree char *named = NULL;

  gboolean own_names = g_strcmp0 (encoding, "Custom") == 0 || g_strcmp0 (encoding, "Builtin") == 0;

  named = _dc_agl_name_to_text (fp->pass->symbols[symbol].glyph_name);
  if (named == NULL || strcmp (named, value) == 0
      || (_dc_text_is_space (named) && _dc_text_is_space (value)))
    return FALSE;
  /* A standard encoding's names are the table's, not the font's: only where they name
   * ASCII punctuation (which legacy fonts leave in place; their lie is in the letters) do
   * they still speak against a guess (issue12963: the colon taken for the full stop). */
  return own_names
         || (named[1] == '\0' && (guchar) named[0] < 0x80
             && (g_ascii_ispunct (named[0]) || named[0] == ' '));
}

/* A full stop looks like one: a small ink box at the baseline. Unknown (no outline to
 * read) counts as looking like one; the statistics then decide alone. */
static gboolean
looks_like_full_stop (FontPass *fp, guint symbol)
{
  FT_Face face = font_face (fp);
  FT_BBox box;
  FT_UInt gid;
  double units;

  if (face == NULL || face->units_per_EM == 0)
    return TRUE;
  gid = _dc_symbol_glyph_index (fp->font, face, &fp->pass->symbols[symbol]);
  if (gid == 0
      || FT_Load_Glyph (face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP) != 0
      || face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
    return TRUE;
  if (face->glyph->outline.n_points == 0)
    return FALSE;
  FT_Outline_Get_CBox (&face->glyph->outline, &box);
  units = face->units_per_EM;
  return (box.xMax - box.xMin) / units <= FULL_STOP_MAX_WIDTH
         && (box.yMax - box.yMin) / units <= FULL_STOP_MAX_HEIGHT
         && box.yMin / units >= FULL_STOP_MIN_BOTTOM && box.yMax / units <= FULL_STOP_MAX_TOP;
}

static gboolean
assign (Pass *pass, guint symbol, const char *value, const char *provenance)
{
  g_autoptr (GError) error = NULL;

  g_assert (dc_key_get_status (pass->key, symbol) < DC_KEY_INFERRED);

  /* A guess is the weakest evidence: where a proposal from the font's names or a layout
   * says otherwise, the key refuses it, and the guess is not made. */
  if (!dc_key_set_full (pass->key, symbol, value, DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                        provenance, &error))
    {
      g_debug ("No automatic guess for symbol %u: %s", symbol, error->message);
      return FALSE;
    }
  pass->n_assigned++;
  return TRUE;
}

/* A symbol of the font that the key already holds as @value on good authority. */
static gboolean
find_known (FontPass *fp, gboolean (*is_value) (const char *), guint *symbol)
{
  for (guint s = 0; s < fp->pass->n_symbols; s++)
    if (fp->pass->symbols[s].font == fp->index
        && dc_key_get_status (fp->pass->key, s) >= DC_KEY_INFERRED
        && is_value (dc_key_get_value (fp->pass->key, s)))
      {
        *symbol = s;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_full_stop (const char *value)
{
  return g_strcmp0 (value, ".") == 0;
}

/* Whether any glyph of the font on its lines is blank. */
static gboolean
any_blank_symbol (FontPass *fp)
{
  for (guint s = 0; s < fp->pass->n_symbols; s++)
    if (fp->pass->symbols[s].font == fp->index && fp->stats[s].n_lines > 0
        && symbol_ink (fp, s) == INK_NONE)
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

  for (guint s = 0; s < pass->n_symbols; s++)
    {
      const SymbolStats *stats = &fp->stats[s];
      Candidate candidate = { 0 };

      if (pass->symbols[s].font != fp->index || stats->n_lines == 0
          || (!few_lines && stats->n_lines < MIN_SPACE_LINES)
          || stats->n_lines < MIN_SPACE_COVERAGE * fp->n_lines
          || dc_key_get_status (pass->key, s) >= DC_KEY_INFERRED
          || name_says_otherwise (fp, s, " "))
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
                                       stats->advance_ems / MAX (1, stats->n_advances));
  else if (best->ink == INK_NONE)
    g_string_append (reason, _("Its glyph draws nothing."));
  else if (best->pdf_space)
    g_string_append (reason, _("The PDF calls it a space too."));
  else
    g_string_append (reason, _("No other code fits nearly as well."));
  return g_string_free (reason, FALSE);
}

static void
guess_space (FontPass *fp, DcAutoGuess *guess)
{
  Pass *pass = fp->pass;
  g_autoptr (GArray) candidates = NULL;
  const Candidate *best, *runner_up;
  Candidate most_lines = { 0 };
  gboolean have_most_lines, few_lines;
  guint known;

  if (find_known (fp, _dc_text_is_space, &known))
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
  guess->assigned = assign (pass, best->symbol, " ", "auto: space");
  guess->reason = space_reason (fp, best);
}

/* ------------------------------------------------------------------------------------ */
/* The full stop                                                                        */

/* Counts, per symbol, the lines of this font that stop early (as a paragraph's last line
 * does) on it. Returns how many lines stop early. */
static guint
count_early_line_ends (FontPass *fp, guint *early)
{
  Pass *pass = fp->pass;
  /* The text's margins: where the font's glyphs reach furthest, in each direction. */
  const double *u0 = fp->reach.u0, *u1 = fp->reach.u1;
  guint n_early = 0;

  /* A line whose last glyph is the font's is one of its lines. */
  for (guint fl = pass->font_line_starts[fp->index]; fl < pass->font_line_starts[fp->index + 1];
       fl++)
    {
      guint l = pass->font_lines[fl];
      const DcLine *line = &pass->lines[l];
      const DcGlyph *glyph = NULL;
      double width, end;
      guint r;

      for (guint k = line->first_glyph + line->n_glyphs; k-- > line->first_glyph;)
        if (!dc_document_symbol_is_space (pass->document, pass->glyphs[pass->order[k]].symbol))
          {
            glyph = &pass->glyphs[pass->order[k]];
            break;
          }
      if (glyph == NULL || dc_glyph_get_font (glyph, pass->symbols) != fp->index)
        continue;

      r = glyph->rotation & 3;
      width = u1[r] - u0[r];
      end = (MAX (along_baseline (glyph), along_baseline (glyph) + dc_glyph_get_advance (glyph))
             - u0[r])
            / width;
      if (width <= 0 || end < EARLY_END_MIN || end > EARLY_END_MAX)
        continue;
      n_early++;
      early[glyph->symbol]++;
    }
  return n_early;
}

/* Counts, per symbol, the words it begins and ends, the space just guessed included. */
static void
count_word_edges (Pass *pass)
{
  guint n_tokens;
  const DcToken *tokens = dc_document_get_tokens (pass->document, &n_tokens);
  guint *word_initial, *word_final;

  if (pass->word_initial != NULL)
    return;
  word_initial = pass->word_initial = g_new0 (guint, MAX (1, pass->n_symbols));
  word_final = pass->word_final = g_new0 (guint, MAX (1, pass->n_symbols));

  for (guint t = 0; t < n_tokens; t++)
    {
      guint last = tokens[t].first_glyph + tokens[t].n_glyphs - 1;

      word_initial[pass->glyphs[pass->order[tokens[t].first_glyph]].symbol]++;
      word_final[pass->glyphs[pass->order[last]].symbol]++;
    }
}

static void
guess_full_stop (FontPass *fp, DcAutoGuess *guess)
{
  Pass *pass = fp->pass;
  g_autofree guint *early = g_new0 (guint, pass->n_symbols);
  g_autofree char *code = NULL;
  guint n_early, known;
  guint best = DC_AUTO_NO_SYMBOL, runner_up = DC_AUTO_NO_SYMBOL;

  if (find_known (fp, is_full_stop, &known))
    {
      code = display_code (&pass->symbols[known]);
      guess->symbol = known;
      guess->reason = g_strdup_printf (_("The full stop is already known: code %s."), code);
      return;
    }

  n_early = count_early_line_ends (fp, early);
  count_word_edges (pass);

  for (guint s = 0; s < pass->n_symbols; s++)
    {
      const DcSymbol *symbol = &pass->symbols[s];

      if (symbol->font != fp->index || early[s] == 0 || symbol->n_glyphs == 0
          || dc_document_symbol_is_space (pass->document, s)
          || dc_key_get_status (pass->key, s) >= DC_KEY_INFERRED
          || pass->word_final[s] < MIN_WORD_FINAL_SHARE * symbol->n_glyphs
          || pass->word_initial[s] > MAX_WORD_INITIAL_SHARE * symbol->n_glyphs
          || name_says_otherwise (fp, s, ".") || !looks_like_full_stop (fp, s))
        continue;
      if (best == DC_AUTO_NO_SYMBOL || early[s] > early[best])
        {
          runner_up = best;
          best = s;
        }
      else if (runner_up == DC_AUTO_NO_SYMBOL || early[s] > early[runner_up])
        runner_up = s;
    }

  if (n_early == 0)
    {
      /* xgettext:no-c-format */
      guess->reason = g_strdup (_("No full stop: no line stops between 20% and 80% of the text "
                                  "width, as the last line of a paragraph usually does."));
      return;
    }
  if (best == DC_AUTO_NO_SYMBOL || early[best] < MIN_FULL_STOP_LINES)
    {
      guess->reason = g_strdup_printf (
          ngettext ("No full stop: %u line stops between 20%% and 80%% of the text "
                    "width, and no code that ends words ends two of them.",
                    "No full stop: %u lines stop between 20%% and 80%% of the text "
                    "width, and no code that ends words ends two of them.",
                    n_early),
          n_early);
      return;
    }

  code = display_code (&pass->symbols[best]);
  if (runner_up != DC_AUTO_NO_SYMBOL && early[best] < FULL_STOP_LEAD * early[runner_up])
    {
      g_autofree char *other = display_code (&pass->symbols[runner_up]);

      guess->reason = g_strdup_printf (_("No full stop: code %s ends %u of the lines that stop "
                                         "early, but code %s ends %u, too close to tell."),
                                          code, early[best], other, early[runner_up]);
      return;
    }

  guess->symbol = best;
  guess->assigned = assign (pass, best, ".", "auto: full stop");
  guess->reason = g_strdup_printf (
      ngettext ("Full stop: code %s ends %u of the %u line that stops between 20%% "
                "and 80%% of the text width, as the last lines of paragraphs do, "
                "and it ends the word wherever it occurs.",
                "Full stop: code %s ends %u of the %u lines that stop between 20%% "
                "and 80%% of the text width, as the last lines of paragraphs do, "
                "and it ends the word wherever it occurs.",
                n_early),
      code, early[best], n_early);
}

/* ------------------------------------------------------------------------------------ */

void
dc_auto_report_init (DcAutoReport *report)
{
  g_return_if_fail (report != NULL);

  memset (report, 0, sizeof *report);
  report->fonts = g_array_new (FALSE, TRUE, sizeof (DcAutoFontReport));
}

static void
font_report_clear (DcAutoFontReport *font)
{
  g_clear_pointer (&font->space.reason, g_free);
  g_clear_pointer (&font->full_stop.reason, g_free);
}

/* Frees what the report holds; it can be initialised again afterwards. */
void
dc_auto_report_clear (DcAutoReport *report)
{
  g_return_if_fail (report != NULL);

  if (report->fonts != NULL)
    {
      for (guint i = 0; i < report->fonts->len; i++)
        font_report_clear (&g_array_index (report->fonts, DcAutoFontReport, i));
      g_clear_pointer (&report->fonts, g_array_unref);
    }
  report->ran = FALSE;
  report->n_assigned = 0;
}

/* The per-symbol tables one font's look fills, allocated once for all the fonts. */
typedef struct
{
  SymbolStats *stats;
  double *advance_ems;
  guint *n_advances;
} FontScratch;

/* One pass over the lines in @fp's font: how its symbols sit in words and how wide they
 * are, into fp->stats. */
static void
gather_font_stats (FontPass *fp, FontScratch *scratch, guint n_threads)
{
  guint n_symbols = MAX (1, fp->pass->n_symbols);
  FontLook look = { fp, 0 };

  memset (scratch->stats, 0, sizeof (SymbolStats) * n_symbols);
  memset (scratch->advance_ems, 0, sizeof (double) * n_symbols);
  memset (scratch->n_advances, 0, sizeof (guint) * n_symbols);
  fp->stats = scratch->stats;
  fp->reach.advance_ems = scratch->advance_ems;
  fp->reach.n_advances = scratch->n_advances;
  _dc_parallel_run (n_threads, look_at_font, &look);
  for (guint s = 0; s < fp->pass->n_symbols; s++)
    {
      fp->stats[s].advance_ems = scratch->advance_ems[s];
      fp->stats[s].n_advances = scratch->n_advances[s];
    }
}

/* The space and the full stop of font @f, unless it is trusted; what was found (or why
 * not) into @report's list of fonts. */
static void
recover_font (Pass *pass, guint f, FontScratch *scratch, guint n_threads, DcAutoReport *report)
{
  DcAutoFontReport font_report = { 0 };
  FontPass fp = { 0 };

  fp.font = dc_document_get_font (pass->document, f);
  if (dc_font_is_trusted (fp.font))
    return;

  fp.pass = pass;
  fp.index = f;
  gather_font_stats (&fp, scratch, n_threads);

  font_report.font = f;
  font_report.space.symbol = DC_AUTO_NO_SYMBOL;
  font_report.full_stop.symbol = DC_AUTO_NO_SYMBOL;
  if (font_is_cjk_width (&fp))
    {
      font_report.space.reason = g_strdup (
          _("No space: the font's glyphs are as wide as they are tall, as in Chinese or "
            "Japanese text, whose words are not set apart by spaces."));
      font_report.full_stop.reason = g_strdup (
          _("No full stop: the font's glyphs are as wide as they are tall, as in Chinese or "
            "Japanese text, whose full stop is no Latin period."));
    }
  else
    {
      /* The space first: the full stop is told by how it ends words. */
      guess_space (&fp, &font_report.space);
      guess_full_stop (&fp, &font_report.full_stop);
    }

  g_clear_pointer (&fp.face, FT_Done_Face);
  if (report != NULL)
    g_array_append_val (report->fonts, font_report);
  else
    font_report_clear (&font_report);
}

/**
 * dc_auto_recover:
 * @document: the document
 * @key: the key of @document
 * @report: (nullable) (out caller-allocates): zero-filled or initialised; replaced by what
 *   was guessed per untrusted font and why, to be freed with dc_auto_report_clear()
 *
 * Guesses the space and the full stop of every font whose map is not trusted, and sets
 * them in @key as %DC_KEY_INFERRED, all in one undoable step. A symbol that already has an
 * inferred or confirmed value is never touched, and a font whose space or full stop is
 * already known is left alone for that guess. Where the evidence is not clear nothing is
 * guessed: a wrong space would break every word.
 *
 * Returns: the number of symbols set
 */
guint
dc_auto_recover (DcDocument *document, DcKey *key, DcAutoReport *report)
{
  Pass pass = { 0 };
  FontScratch scratch = { 0 };
  guint n_fonts, n_threads;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);
  g_return_val_if_fail (dc_key_get_document (key) == document, 0);

  if (report != NULL)
    {
      dc_auto_report_clear (report);
      dc_auto_report_init (report);
      report->ran = TRUE;
    }

  pass.document = document;
  pass.key = key;
  pass.glyphs = dc_document_get_glyphs (document, NULL);
  pass.order = dc_document_get_reading_order (document, NULL);
  pass.lines = dc_document_get_lines (document, &pass.n_lines);
  pass.symbols = dc_document_get_symbols (document, &pass.n_symbols);
  if (FT_Init_FreeType (&pass.library) != 0)
    pass.library = NULL;

  scratch.stats = g_new (SymbolStats, MAX (1, pass.n_symbols));
  scratch.advance_ems = g_new (double, MAX (1, pass.n_symbols));
  scratch.n_advances = g_new (guint, MAX (1, pass.n_symbols));
  n_fonts = dc_document_get_n_fonts (document);
  index_font_lines (&pass, n_fonts);
  n_threads = MIN (2, _dc_parallel_threads (dc_document_get_n_pages (document)));

  dc_key_begin_change (key, _("Automatic guesses"));
  /* The cascade's stronger levels first (DESIGN §7): what the fonts' own tables and the
   * standard layouts say. The guesses below then only fill what they leave unknown. */
  pass.n_assigned += dc_font_tables_apply (key);
  for (guint f = 0; f < n_fonts; f++)
    recover_font (&pass, f, &scratch, n_threads, report);
  /* With the spaces known, the words the fonts' glyphs make tell their layout. */
  pass.n_assigned += _dc_hypotheses_apply (key);
  pass.n_assigned += _dc_width_offsets_apply (key);
  dc_key_end_change (key);

  g_clear_pointer (&pass.library, FT_Done_FreeType);
  g_free (pass.font_line_starts);
  g_free (pass.font_lines);
  g_free (pass.word_initial);
  g_free (pass.word_final);
  g_free (scratch.stats);
  g_free (scratch.advance_ems);
  g_free (scratch.n_advances);
  if (report != NULL)
    report->n_assigned = pass.n_assigned;
  return pass.n_assigned;
}
