/* dc-auto-stats.c: what an untrusted font's glyphs show, before any guess
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One look at the lines a font's glyphs are on: for each symbol, the lines it is on,
 * begins and ends, the pieces those lines fall into when cut at it and the word gaps
 * beside it (SymbolStats); how far the font's glyphs reach along the baseline and how
 * many advance a full em (FontReach). Apart from it, when asked, a symbol's advance in
 * ems, and whether a glyph draws ink.
 * The space and the full stop (dc-auto-space.c, dc-auto-full-stop.c) are guessed from
 * these (dc-auto.c).
 */

#define G_LOG_DOMAIN "dc-auto"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-auto-private.h"
#include "dc-ink-private.h"
#include "dc-unicode-private.h"

/* ------------------------------------------------------------------------------------ */
/* Ink                                                                                  */

FT_Face
_dc_auto_font_face (FontPass *fp)
{
  if (fp->face_tried)
    return fp->face;
  fp->face_tried = TRUE;

  fp->face = _dc_font_open_face (fp->font, fp->pass->library);
  return fp->face;
}

Ink
_dc_auto_symbol_ink (FontPass *fp, guint symbol)
{
  SymbolStats *stats = &fp->stats[symbol];
  FT_Face face;

  if (stats->ink != INK_UNCHECKED)
    return stats->ink;

  face = _dc_auto_font_face (fp);
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
/* The font's lines                                                                     */

/* The pieces a symbol's lines fall into when cut at it: on a line with k runs of it, k + 1
 * less the one before it if it begins the line and the one after if it ends it. The runs
 * were counted glyph by glyph (a glyph not after one of the same symbol) and the lines,
 * begins and ends line by line: the pieces of each line, counted by the symbols seen on
 * it, cost a list of them and a look back at each per line. Whole numbers: the same
 * counts in any order. */
void
_dc_auto_count_pieces (FontPass *fp)
{
  guint n;
  const guint32 *symbols = font_symbols (fp->pass, fp->index, &n);

  for (guint i = 0; i < n; i++)
    {
      SymbolStats *stats = &fp->stats[symbols[i]];

      stats->n_pieces += stats->n_lines - stats->n_begins - stats->n_ends;
    }
}

/* The font's lines [@first_line, @end_line) of font_lines, glyph by glyph in reading
 * order: for each of its symbols the lines it is on, begins and ends, the runs of it and
 * the word gaps beside it (into @all_stats), and the font's reach (FontReach, into
 * @totals). One look at each glyph. A font that holds nearly all of a book's glyphs is
 * looked at in two parts, on two threads (FontLookJob): each line is looked at alone,
 * and what the parts count adds up to what one look counts. The counts are kept in
 * locals while the glyphs are read and stored at the end: through @fp every store into a
 * symbol's statistics could have changed them, so each was read and written again per
 * glyph. Where the font is the document's only one (@one_font), no glyph on its lines can
 * be another font's, and none is asked. The symbols' advances in ems are summed apart,
 * for the few symbols that need them (_dc_auto_symbol_advance()). */
G_ALWAYS_INLINE static inline void
look_at_lines (FontPass *fp, guint first_line, guint end_line, SymbolStats *all_stats,
               FontLookTotals *totals, gboolean one_font)
{
  Pass *pass = fp->pass;
  const DcGlyph *glyphs = pass->glyphs;
  const DcSymbol *symbols = pass->symbols;
  const guint32 *order = pass->order;
  guint font = fp->index, n_lines = 0, n_glyphs = 0, n_gaps = 0;
  guint n_advancing = 0, n_wide = 0;
  double u0[4] = { 0 }, u1[4] = { 0 };
  gboolean has_extent[4] = { FALSE };
  /* The reach in the direction of the last glyph (reach_r, 4 before any), kept out of
   * u0 and u1 until the direction changes: a book's glyphs nearly all share one, and the
   * same comparisons on the same values in the same order give the same extent. */
  double reach_u0 = 0, reach_u1 = 0;
  guint reach_r = 4;

  for (guint fl = first_line; fl < end_line; fl++)
    {
      guint l = pass->font_lines[fl];
      const DcLine *line = &pass->lines[l];
      const guint32 *line_order = order + line->first_glyph;
      guint line_glyphs = line->n_glyphs;
      /* Where the glyph before ends, NAN while there is none: no gap is measured from it
       * (a comparison with NAN is false), and the next glyph takes its place. A flag
       * beside it cost a test a glyph. */
      double previous_end = NAN;
      guint previous_symbol = 0, symbol_before = G_MAXUINT;
      guint first, last;

      n_lines++;
      n_glyphs += line_glyphs;

      for (guint i = 0; i < line_glyphs; i++)
        {
          const DcGlyph *glyph = &glyphs[line_order[i]];
          guint symbol = glyph->symbol;
          guint r = glyph->rotation;
          SymbolStats *stats = &all_stats[symbol];
          double u, glyph_em;
          float advance;

          if (!one_font && symbols[symbol].font != font)
            {
              /* A gap across another font's glyphs is not one between this font's. */
              previous_end = NAN;
              symbol_before = symbol;
              continue;
            }
          /* Text runs left to right nearly everywhere: its glyphs need no turn. */
          u = G_LIKELY (r == 0) ? glyph->x : along_baseline (glyph);
          advance = dc_glyph_get_advance (glyph);
          glyph_em = em (glyph);

          /* Each run of the symbol counts one piece here; see _dc_auto_count_pieces(). A glyph
           * after one of its symbol on the line changes nothing. */
          if (symbol != symbol_before)
            {
              stats->n_pieces++;
              if (stats->line_stamp != l + 1)
                {
                  stats->line_stamp = l + 1;
                  stats->n_lines++;
                }
              symbol_before = symbol;
            }

          if (u - previous_end > MIN_WORD_GAP * glyph_em)
            {
              n_gaps++;
              all_stats[previous_symbol].n_beside_gaps++;
              if (previous_symbol != symbol)
                stats->n_beside_gaps++;
            }
          /* A zero-width mark must not hide the gap after the glyph it sits on. */
          if (advance != 0 || !(u + advance <= previous_end))
            {
              previous_end = u + advance;
              previous_symbol = symbol;
            }

          if (advance > 0)
            {
              n_advancing++;
              n_wide += advance >= CJK_MIN_ADVANCE * glyph_em;
            }
          if (r != reach_r)
            {
              if (reach_r < 4)
                {
                  u0[reach_r] = reach_u0;
                  u1[reach_r] = reach_u1;
                }
              reach_r = r;
              if (!has_extent[r])
                {
                  u0[r] = u1[r] = u;
                  has_extent[r] = TRUE;
                }
              reach_u0 = u0[r];
              reach_u1 = u1[r];
            }
          reach_u0 = MIN (reach_u0, MIN (u, u + advance));
          reach_u1 = MAX (reach_u1, MAX (u, u + advance));
        }
      first = line_order[0];
      last = line_order[line_glyphs - 1];
      if (dc_glyph_get_font (&glyphs[first], symbols) == font)
        all_stats[glyphs[first].symbol].n_begins++;
      if (dc_glyph_get_font (&glyphs[last], symbols) == font)
        all_stats[glyphs[last].symbol].n_ends++;
    }
  if (reach_r < 4)
    {
      u0[reach_r] = reach_u0;
      u1[reach_r] = reach_u1;
    }
  totals->n_lines = n_lines;
  totals->n_glyphs = n_glyphs;
  totals->n_gaps = n_gaps;
  memcpy (totals->reach.u0, u0, sizeof u0);
  memcpy (totals->reach.u1, u1, sizeof u1);
  memcpy (totals->reach.has_extent, has_extent, sizeof has_extent);
  totals->reach.n_advancing = n_advancing;
  totals->reach.n_wide = n_wide;
}

/* Whether every symbol of the document is the font's: a book in one font. */
static gboolean
is_only_font (const FontPass *fp)
{
  guint n;

  font_symbols (fp->pass, fp->index, &n);
  return n == fp->pass->n_symbols;
}

/* Does the jobs of @data (FontLook) until none is left. The fonts' symbols are apart, so
 * each font's statistics are its own entries of the shared table (zero-filled), and two
 * threads look at two fonts, or two parts of one, at once: the second part counts into
 * its own table, added up after (dc-auto.c). */
void
_dc_auto_look_at_font (gpointer data)
{
  FontLook *look = data;
  guint job;

  while ((job = (guint) g_atomic_int_add (&look->next, 1)) < look->n_jobs)
    {
      FontLookJob *j = &look->jobs[job];

      /* Each look made for its case, so that what it does not do costs nothing a glyph. */
      if (is_only_font (j->fp))
        look_at_lines (j->fp, j->first_line, j->end_line, j->stats, j->totals, TRUE);
      else
        look_at_lines (j->fp, j->first_line, j->end_line, j->stats, j->totals, FALSE);
    }
}

/* The mean advance in ems of @symbol's glyphs on the font's lines, or a negative number
 * if none is on them. Only a blank glyph's width is asked for, and only where the line
 * statistics spoke against it: summed over its glyphs here, in the order the font's look
 * reads them, rather than for every glyph of every symbol during the look. */
double
_dc_auto_symbol_advance (FontPass *fp, guint symbol)
{
  Pass *pass = fp->pass;
  SymbolStats *stats = &fp->stats[symbol];

  if (!stats->advances_summed)
    {
      double advance_ems = 0;
      guint n_advances = 0;

      for (guint fl = pass->font_line_starts[fp->index]; fl < pass->font_line_starts[fp->index + 1];
           fl++)
        {
          const DcLine *line = &pass->lines[pass->font_lines[fl]];
          const guint32 *line_order = pass->order + line->first_glyph;

          for (guint i = 0; i < line->n_glyphs; i++)
            {
              const DcGlyph *glyph = &pass->glyphs[line_order[i]];

              if (glyph->symbol != symbol)
                continue;
              advance_ems += fabs (dc_glyph_get_advance (glyph)) / em (glyph);
              n_advances++;
            }
        }
      stats->advance_ems = advance_ems;
      stats->n_advances = n_advances;
      stats->advances_summed = TRUE;
    }
  return stats->n_advances > 0 ? stats->advance_ems / stats->n_advances : -1;
}

/* Most of the font's glyphs advance a full em: CJK ideographs, kana, hangul. */
gboolean
_dc_auto_font_is_cjk_width (FontPass *fp)
{
  guint n = fp->reach.n_advancing, wide = fp->reach.n_wide;

  return n >= 8 && wide * 2 > n;
}
