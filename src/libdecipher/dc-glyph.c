/* dc-glyph.c: a glyph's size, advance and box in whole units of 1/256 pt (or coarser)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A book holds millions of glyphs, and three quarters of a glyph's record were once its
 * six floats of size, advance and box. They are now 16-bit counts of a unit (dc-types.h):
 * 1/256 pt for text of any common size, so a box edge is within 0.002 pt of the PDF's,
 * and of the two units nearest to a value the loader takes the one that rounds to the same
 * hundredth, so that `decipher-cli glyphs` prints what it printed from the floats.
 */

#define G_LOG_DOMAIN "dc-glyph"

#include "config.h"

#include <math.h>

#include "dc-glyph-private.h"

static DcGlyphHook hook;
static gpointer hook_data;

/* How `decipher-cli glyphs` rounds a value to hundredths (w_fixed2()). */
static gint64
hundredths (float value)
{
  return (gint64) (value * 100.0 + (value < 0 ? -0.5 : 0.5));
}

/* The units of @unit that bring @origin to @target: the nearest count, or a neighbour of
 * it when that one prints as @target does and the nearest does not. Computed with the
 * same float arithmetic as the accessors in dc-types.h. */
static gint16
encode (float origin, float target, float unit)
{
  double nearest = CLAMP (round (((double) target - origin) / unit), -32767, 32767);
  gint64 printed = hundredths (target);

  if (hundredths (origin + (float) nearest * unit) != printed)
    for (int step = -1; step <= 1; step += 2)
      {
        double other = nearest + step;

        if (fabs (other) <= 32767 && hundredths (origin + (float) other * unit) == printed
            && fabs (origin + (float) other * unit - target) < 0.01)
          return (gint16) other;
      }
  return (gint16) nearest;
}

/* Sets the glyph's size, advance and box (page points; x and y are set already) in the
 * finest unit that holds them all. A box beyond 16 × 32767 pt of its origin, which only a
 * hostile file draws, is clamped. */
void
_dc_glyph_set_metrics (DcGlyph *glyph, double size, double advance, double x0, double y0, double x1,
                       double y1)
{
  /* The values as the record held them when they were floats. */
  const float origin[6] = { 0, 0, glyph->x, glyph->y, glyph->x, glyph->y };
  const float target[6] = { (float) size, (float) advance, (float) x0,
                            (float) y0,   (float) x1,      (float) y1 };
  gint16 units[6];
  guint scale = 0;

  for (guint i = 0; i < 6; i++)
    while (scale < 3 && fabs (((double) target[i] - origin[i]) / DC_GLYPH_UNIT (scale)) > 32767)
      scale++;
  for (guint i = 0; i < 6; i++)
    units[i] = encode (origin[i], target[i], DC_GLYPH_UNIT (scale));
  glyph->scale = scale;
  glyph->size_units = units[0];
  glyph->advance_units = units[1];
  for (guint i = 0; i < 4; i++)
    glyph->box_units[i] = units[2 + i];
}

void
_dc_glyph_set_hook (DcGlyphHook new_hook, gpointer user_data)
{
  hook = new_hook;
  hook_data = user_data;
}

void
_dc_glyph_call_hook (guint index, double size, double advance, double x0, double y0, double x1,
                     double y1)
{
  if (hook != NULL)
    hook (index, size, advance, x0, y0, x1, y1, hook_data);
}
