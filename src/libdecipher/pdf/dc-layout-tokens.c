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

/* How a line is split into tokens, gap by gap: the token being built and whether one is. */
typedef struct
{
  DcToken token;
  gboolean open;
} Splitter;

/* Takes the glyph @glyph of the reading order, @gap (measure_line()) before it, into
 * @splitter's token, storing the token before it at @tokens[@n] where the gap ends it.
 * Returns the number of tokens stored then. */
static inline guint
split_at (Splitter *splitter, double gap, guint glyph, DcToken *tokens, guint n)
{
  if (isinf (gap))
    {
      if (splitter->open)
        tokens[n++] = splitter->token;
      splitter->open = FALSE;
      return n;
    }
  if (splitter->open && (gap > WORD_GAP || gap < -MAX_LINE_GAP))
    {
      tokens[n++] = splitter->token;
      splitter->open = FALSE;
    }
  if (!splitter->open)
    {
      splitter->token.first_glyph = glyph;
      splitter->token.n_glyphs = 0;
      splitter->open = TRUE;
    }
  splitter->token.n_glyphs++;
  return n;
}

/* Measures the gap before each glyph of @line along its baseline into @gaps, in ems of the
 * glyph, from the end of the glyph before (a zero-width mark does not hide the gap after
 * the glyph it sits on); INFINITY at a space glyph, NAN at the line's first glyph and the
 * one after a space. Splits the line at them as it goes, its tokens stored from
 * @tokens[@n]: their number is returned, and *@wide says whether a gap is wider than a
 * word space, where only letter-spacing (join_letter_spacing()) can change them. */
static guint
measure_line (const DcGlyph *glyphs, const guint32 *order, const DcLine *line, guint l,
              const guint8 *symbol_is_space, double *gaps, DcToken *tokens, guint n, gboolean *wide)
{
  double previous_u_end = 0; /* of the glyph the gap is measured from */
  gboolean open = FALSE, any_wide = FALSE;
  Splitter splitter = { { l, 0, 0 }, FALSE };

  for (guint k = 0; k < line->n_glyphs; k++)
    {
      const DcGlyph *glyph = &glyphs[order[line->first_glyph + k]];
      double gap;

      if (symbol_is_space[glyph->symbol])
        {
          gap = INFINITY;
          open = FALSE;
        }
      else
        {
          /* _dc_layout_placement_of() and _dc_layout_em(), decoded at once. */
          float unit = DC_GLYPH_UNIT (glyph->scale);
          float advance = (float) glyph->advance_units * unit;
          double u = G_LIKELY (glyph->rotation == 0) ? glyph->x : _dc_layout_placement_of (glyph).u;
          double u_end = u + advance;

          if (G_LIKELY (open))
            {
              float size = (float) glyph->size_units * unit;

              gap = (u - previous_u_end) / (size > 0.5 ? size : 0.5);
              if (advance != 0 || previous_u_end < u_end)
                previous_u_end = u_end;
              /* split_at() where the token goes on, as between most letters of a word:
               * a finite gap no wider than a word space. The splitter's token is open
               * here, with no need to ask: it is after a glyph that is not a space
               * (open), and only an infinite gap closes one without opening the next. */
              if (G_LIKELY (gap <= WORD_GAP && gap >= -MAX_LINE_GAP))
                {
                  gaps[k] = gap;
                  splitter.token.n_glyphs++;
                  continue;
                }
              any_wide |= gap > WORD_GAP;
            }
          else
            {
              gap = NAN;
              open = TRUE;
              previous_u_end = u_end;
            }
        }
      gaps[k] = gap;
      n = split_at (&splitter, gap, line->first_glyph + k, tokens, n);
    }
  if (splitter.open)
    tokens[n++] = splitter.token;
  *wide = any_wide;
  return n;
}

/* Whether @gap is as wide as a gap of @gaps between two words of two glyphs or more: a
 * word space of the line. */
static gboolean
is_word_space (const double *gaps, guint n, double gap)
{
  for (guint k = 1; k + 1 < n; k++)
    if (gaps[k] > WORD_GAP && isfinite (gaps[k]) && gaps[k - 1] <= WORD_GAP
        && gaps[k + 1] <= WORD_GAP && fabs (gaps[k] - gap) <= LETTER_GAP_SPREAD)
      return TRUE;
  return FALSE;
}

/* Letter-spacing: where three gaps or more in a row are wider than a kern and all alike,
 * the glyphs between them are one word set wide (Tc), whatever the gaps' width; Freki
 * respaces such words. Unless they are as wide as the line's word spaces: a line's word
 * spaces are all alike where it is set ragged, or justified evenly, and two words of one
 * letter in a row (Russian "дома и в суде") make three of them in a row; a word set wide
 * is set wider or narrower than the words around it are spaced. (NAN is no gap, and
 * fails every comparison.) */
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
      if (end + 1 - k >= LETTER_RUN && !is_word_space (gaps, n, gaps[k]))
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
  /* Room for a line's gaps: a line of a book's page fits on the stack, where a buffer of
   * each call's own was allocated and grown a page at a time. */
  double line_gaps[256];
  g_autofree double *heap_gaps = NULL;
  double *gaps = line_gaps;
  guint n = first_token, room = G_N_ELEMENTS (line_gaps);

  for (guint l = first_line; l < end_line; l++)
    {
      DcLine *line = &lines[l];
      gboolean wide;

      if (line->n_glyphs > room)
        {
          room = MAX (line->n_glyphs, 2 * room);
          heap_gaps = g_renew (double, heap_gaps, room);
          gaps = heap_gaps;
        }
      line->first_token = n;
      n = measure_line (glyphs, order, line, l, symbol_is_space, gaps, tokens, n, &wide);

      /* Joining sets finite gaps near LETTER_GAP_MIN or wider to nothing, which changes the
       * tokens only where one of them was wider than a word space: then the line is split
       * again, at the gaps joined. */
      if (wide)
        {
          Splitter splitter = { { l, 0, 0 }, FALSE };

          join_letter_spacing (gaps, line->n_glyphs);
          n = line->first_token;
          for (guint k = 0; k < line->n_glyphs; k++)
            n = split_at (&splitter, gaps[k], line->first_glyph + k, tokens, n);
          if (splitter.open)
            tokens[n++] = splitter.token;
        }
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
