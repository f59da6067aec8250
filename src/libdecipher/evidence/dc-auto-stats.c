/* dc-auto-stats.c: what an untrusted font's glyphs show, before any guess
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One look at the lines a font's glyphs are on: for each symbol, the lines it is on,
 * begins and ends, the pieces those lines fall into when cut at it, the word gaps beside
 * it and its advance in ems (SymbolStats); how far the font's glyphs reach along the
 * baseline and how many advance a full em (FontReach); and whether a glyph draws ink.
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

void
_dc_auto_look_at_font (gpointer data)
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

/* Most of the font's glyphs advance a full em: CJK ideographs, kana, hangul. */
gboolean
_dc_auto_font_is_cjk_width (FontPass *fp)
{
  guint n = fp->reach.n_advancing, wide = fp->reach.n_wide;

  return n >= 8 && wide * 2 > n;
}
