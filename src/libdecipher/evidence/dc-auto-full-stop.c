/* dc-auto-full-stop.c: a font's full stop, guessed from its lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A full stop is a small mark on the baseline that ends the lines which stop early (a
 * paragraph's last lines) and ends the word wherever it occurs; the space must be known
 * first (dc-auto-space.c), as it tells where words end.
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
/* The full stop                                                                        */

/* A full stop looks like one: a small ink box at the baseline. Unknown (no outline to
 * read) counts as looking like one; the statistics then decide alone. */
static gboolean
looks_like_full_stop (FontPass *fp, guint symbol)
{
  FT_Face face = _dc_auto_font_face (fp);
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
is_full_stop (const char *value)
{
  return g_strcmp0 (value, ".") == 0;
}

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

void
_dc_auto_guess_full_stop (FontPass *fp, DcAutoGuess *guess)
{
  Pass *pass = fp->pass;
  g_autofree guint *early = g_new0 (guint, pass->n_symbols);
  g_autofree char *code = NULL;
  guint n_early, known, n;
  guint best = DC_AUTO_NO_SYMBOL, runner_up = DC_AUTO_NO_SYMBOL;
  const guint32 *symbols = font_symbols (pass, fp->index, &n);

  if (_dc_auto_find_known (fp, is_full_stop, &known))
    {
      code = display_code (&pass->symbols[known]);
      guess->symbol = known;
      guess->reason = g_strdup_printf (_("The full stop is already known: code %s."), code);
      return;
    }

  n_early = count_early_line_ends (fp, early);
  count_word_edges (pass);

  for (guint i = 0; i < n; i++)
    {
      guint s = symbols[i];
      const DcSymbol *symbol = &pass->symbols[s];

      if (early[s] == 0 || symbol->n_glyphs == 0 || dc_document_symbol_is_space (pass->document, s)
          || dc_key_get_status (pass->key, s) >= DC_KEY_INFERRED
          || pass->word_final[s] < MIN_WORD_FINAL_SHARE * symbol->n_glyphs
          || pass->word_initial[s] > MAX_WORD_INITIAL_SHARE * symbol->n_glyphs
          || _dc_auto_name_says_otherwise (fp, s, ".") || !looks_like_full_stop (fp, s))
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
  guess->assigned = _dc_auto_assign (pass, best, ".", "auto: full stop");
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
