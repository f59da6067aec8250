/* dc-layout-tokens.c: a line's glyphs → tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-layout.c. A line splits into tokens at space glyphs and, where no space
 * is drawn, at gaps wider than a word space, letter-spaced words kept whole.
 */

#define G_LOG_DOMAIN "dc-layout"

#include "config.h"

#include <math.h>

#include "dc-layout-build-private.h"
#include "dc-layout-private.h"

/* The gap before each glyph of a line along its baseline, in ems of the glyph, from the
 * end of the glyph before (a zero-width mark does not hide the gap after the glyph it
 * sits on); INFINITY at a space glyph, NAN at the line's first glyph and the one after a
 * space. Returns whether a gap is wider than a word space: only such a gap can part a
 * letter-spaced word (join_letter_spacing()). */
static gboolean
measure_gaps (const DcGlyph *glyphs, const guint32 *order, const DcLine *line,
              const guint8 *symbol_is_space, double *gaps)
{
  Placement previous = { 0 };
  gboolean open = FALSE, wide = FALSE;

  for (guint k = 0; k < line->n_glyphs; k++)
    {
      const DcGlyph *glyph = &glyphs[order[line->first_glyph + k]];
      Placement p;

      if (symbol_is_space[glyph->symbol])
        {
          gaps[k] = INFINITY;
          open = FALSE;
          continue;
        }
      p = _dc_layout_placement_of (glyph);
      if (!open)
        {
          gaps[k] = NAN;
          open = TRUE;
          previous = p;
          continue;
        }
      gaps[k] = (p.u - previous.u_end) / _dc_layout_em (glyph);
      wide |= gaps[k] > WORD_GAP;
      if (dc_glyph_get_advance (glyph) != 0 || previous.u_end < p.u_end)
        previous = p;
    }
  return wide;
}

/* Letter-spacing: where three gaps or more in a row are wider than a kern and all alike,
 * the glyphs between them are one word set wide (Tc), whatever the gaps' width; Freki
 * respaces such words. Word spaces differ from word to word, and run between words of
 * several letters, so they never line up that way. */
static void
join_letter_spacing (double *gaps, guint n)
{
  guint k = 0;

  while (k < n)
    {
      guint end = k;

      if (!(gaps[k] >= LETTER_GAP_MIN) || isinf (gaps[k]))
        {
          k++;
          continue;
        }
      while (end + 1 < n && isfinite (gaps[end + 1])
             && fabs (gaps[end + 1] - gaps[k]) <= LETTER_GAP_SPREAD)
        end++;
      if (end + 1 - k >= LETTER_RUN)
        for (guint i = k; i <= end; i++)
          gaps[i] = 0;
      k = end + 1;
    }
}

guint
dc_layout_tokens_into (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint first_line,
                       guint end_line, const guint8 *symbol_is_space, DcToken *tokens,
                       guint first_token)
{
  guint n = first_token, room = 0;
  g_autofree double *gaps = NULL;

  for (guint l = first_line; l < end_line; l++)
    {
      DcLine *line = &lines[l];
      DcToken token = { 0 };
      gboolean open = FALSE;

      if (line->n_glyphs > room)
        {
          room = MAX (line->n_glyphs, 2 * room);
          gaps = g_renew (double, gaps, room);
        }
      /* Joining sets finite gaps near LETTER_GAP_MIN or wider to nothing, which changes the
       * tokens only where one of them was wider than a word space. */
      if (measure_gaps (glyphs, order, line, symbol_is_space, gaps))
        join_letter_spacing (gaps, line->n_glyphs);

      line->first_token = n;
      token.line = l;

      for (guint k = 0; k < line->n_glyphs; k++)
        {
          if (isinf (gaps[k]))
            {
              if (open)
                tokens[n++] = token;
              open = FALSE;
              continue;
            }
          if (open && (gaps[k] > WORD_GAP || gaps[k] < -MAX_LINE_GAP))
            {
              tokens[n++] = token;
              open = FALSE;
            }
          if (!open)
            {
              token.first_glyph = line->first_glyph + k;
              token.n_glyphs = 0;
              open = TRUE;
            }
          token.n_glyphs++;
        }

      if (open)
        tokens[n++] = token;
      line->n_tokens = n - line->first_token;
    }
  return n - first_token;
}

void
dc_layout_tokens (const DcGlyph *glyphs, const guint32 *order, DcLine *lines, guint n_lines,
                  const guint8 *symbol_is_space, GArray *tokens)
{
  guint n_glyphs = 0;

  g_assert (tokens != NULL);

  /* A token holds a glyph at least: room for as many tokens as there are glyphs, so that
   * each token is stored in place (a book has a few hundred thousand). */
  for (guint l = 0; l < n_lines; l++)
    n_glyphs += lines[l].n_glyphs;
  g_array_set_size (tokens, n_glyphs);
  g_array_set_size (tokens,
                    dc_layout_tokens_into (glyphs, order, lines, 0, n_lines, symbol_is_space,
                                           (DcToken *) (void *) tokens->data, 0));
}
