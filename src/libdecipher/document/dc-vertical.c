/* dc-vertical.c: glyphs standing in vertical columns, and the columns' order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Vertical text reaches a PDF in three ways. A WMode 1 font (Identity-V) advances each
 * glyph down the page: the bridge marks its glyphs upright, their rotation the column's
 * direction. A producer with no vertical font (cairo, with Pango's east gravity) draws
 * upright CJK glyphs of a horizontal font one below the other, each moved down by `Td`:
 * those are found here. Mongolian is a horizontal line turned a quarter (its glyphs lie
 * on their side, rotation 1) and needs nothing. CJK columns are read from right to left,
 * Mongolian ones from left to right.
 */

#define G_LOG_DOMAIN "dc-vertical"

#include "config.h"

#include <math.h>

#include "dc-reorder-private.h"
#include "dc-vertical-private.h"

/* In ems of the font size. A CJK column steps down by about its glyphs' full-width
 * advance (cairo: 1.018 em); a list of numbers drawn one per row has narrow glyphs and
 * rows further apart. */
#define STACK_ALIGN 0.15   /* the next glyph's origin is this close below… */
#define STACK_STEP_MIN 0.8 /* …and this far down… */
#define STACK_STEP_MAX 1.5
#define STACK_FULL_WIDTH 0.8 /* …and both are full-width */
#define STACK_MIN_RUN 3      /* glyphs, so that two lines of one letter are no column */

static inline gboolean
stacked (const DcGlyph *a, const DcGlyph *b, const DcSymbol *symbols)
{
  double em, step = b->y - a->y;

  /* The test that fails for neighbours along a line first, with no length decoded: this
   * runs for every glyph, and a step is at least STACK_STEP_MIN of the smallest em. */
  if (!(step >= STACK_STEP_MIN * 0.5))
    return FALSE;
  em = MAX (dc_glyph_get_size (a), 0.5);
  return fabs (b->x - a->x) < STACK_ALIGN * em && a->page == b->page
         && dc_glyph_get_font (a, symbols) == dc_glyph_get_font (b, symbols) && a->rotation == 0
         && b->rotation == 0 && (a->flags & DC_GLYPH_UPRIGHT) == 0
         && fabs (dc_glyph_get_size (a) - dc_glyph_get_size (b)) < 0.01 * em
         && step >= STACK_STEP_MIN * em && step <= STACK_STEP_MAX * em
         && dc_glyph_get_advance (a) >= STACK_FULL_WIDTH * em
         && dc_glyph_get_advance (b) >= STACK_FULL_WIDTH * em;
}

static void
mark_upright (DcGlyph *glyph)
{
  glyph->rotation = 1;
  glyph->flags |= DC_GLYPH_UPRIGHT;
}

/* Runs of glyphs drawn, in the content stream's order, each right below the one before
 * become upright glyphs of a column running down the page. A font set mostly in such
 * columns is a vertical font: its full-width glyphs in shorter runs (the last "す。" of a
 * paragraph, a lone "。") end columns too. */
void
_dc_vertical_mark_stacked (DcGlyph *glyphs, const DcSymbol *symbols, guint n_glyphs)
{
  g_autoptr (GArray) per_font = g_array_new (FALSE, TRUE, 2 * sizeof (guint));
  guint start = 0;
  gboolean any = FALSE;

  for (guint i = 1; i <= n_glyphs; i++)
    {
      /* No run open: the glyphs that stand no lower than the one before (the glyphs of a
       * line) are passed by at once, each a run of one, with stacked()'s first test. The
       * step is a float: compared with the float nearest STACK_STEP_MIN * 0.5, which is
       * above it and no float lies between, the test is the same, with no conversion a
       * glyph (this looks at every glyph of the book). */
      if (start == i - 1)
        {
          const DcGlyph *glyph = &glyphs[i], *end = &glyphs[n_glyphs];
          float y = glyphs[i - 1].y;

          while (glyph < end && !(glyph->y - y >= (float) (STACK_STEP_MIN * 0.5)))
            y = (glyph++)->y;
          i = (guint) (glyph - glyphs);
          start = i - 1;
        }
      if (i < n_glyphs && stacked (&glyphs[i - 1], &glyphs[i], symbols))
        continue;
      if (i - start >= STACK_MIN_RUN)
        for (guint k = start; k < i; k++)
          {
            mark_upright (&glyphs[k]);
            if (dc_glyph_get_font (&glyphs[k], symbols) >= per_font->len)
              g_array_set_size (per_font, dc_glyph_get_font (&glyphs[k], symbols) + 1);
            ((guint *) (void *) per_font->data)[2 * dc_glyph_get_font (&glyphs[k], symbols) + 1]++;
            any = TRUE;
          }
      start = i;
    }
  /* Horizontal text, nearly every book: no look at each glyph's font then. */
  if (!any)
    return;
  for (guint i = 0; i < n_glyphs; i++)
    {
      if (dc_glyph_get_font (&glyphs[i], symbols) >= per_font->len)
        g_array_set_size (per_font, dc_glyph_get_font (&glyphs[i], symbols) + 1);
      ((guint *) (void *) per_font->data)[2 * dc_glyph_get_font (&glyphs[i], symbols)]++;
    }
  for (guint i = 0; i < n_glyphs; i++)
    {
      const guint *counts = &(
          (guint *) (void *) per_font->data)[2 * dc_glyph_get_font (&glyphs[i], symbols)];

      if (glyphs[i].rotation == 0 && (glyphs[i].flags & DC_GLYPH_UPRIGHT) == 0
          && 2 * counts[1] > counts[0]
          && dc_glyph_get_advance (&glyphs[i])
                 >= STACK_FULL_WIDTH * MAX (dc_glyph_get_size (&glyphs[i]), 0.5))
        mark_upright (&glyphs[i]);
    }
}

/* Whether the columns of glyphs [first, end) of a page are read from right to left, and
 * (*vertical) whether most of its glyphs stand in columns at all. A letter whose script
 * the PDF gives votes for its script's order; an unknown one for CJK's when it stands
 * upright, for Mongolian's when it lies on its side. */
gboolean
_dc_vertical_columns_right_to_left (const DcGlyph *glyphs, const DcSymbol *symbols, guint first,
                                    guint end, gboolean *vertical)
{
  guint n_vertical = 0, rtl = 0, ltr = 0;

  for (guint i = first; i < end; i++)
    {
      const DcGlyph *glyph = &glyphs[i];
      const char *text;
      gunichar c;
      gboolean known;

      /* The glyphs of a horizontal page are not decoded at all. */
      if (glyph->rotation != 1 && glyph->rotation != 3)
        continue;
      text = symbols[glyph->symbol].pdf_text;
      c = text != NULL && *text ? g_utf8_get_char_validated (text, -1) : 0;
      known = c != 0 && c != (gunichar) -1 && c != (gunichar) -2 && c != 0xfffd
              && g_unichar_isalpha (c);
      n_vertical++;
      if (known ? _dc_script_has_left_to_right_columns (g_unichar_get_script (c))
                : (glyph->flags & DC_GLYPH_UPRIGHT) == 0)
        ltr++;
      else
        rtl++;
    }
  *vertical = 2 * n_vertical > end - first;
  return rtl > ltr;
}
