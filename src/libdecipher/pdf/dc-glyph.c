/* dc-glyph.c: a glyph's size, advance and box in whole units of 1/256 pt (or coarser)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A book holds millions of glyphs, and three quarters of a glyph's record were once its
 * six floats of size, advance and box. They are now 16-bit counts of a unit (dc-types.h):
 * 1/256 pt for text of any common size, so a box edge is within 0.002 pt of the PDF's,
 * and of the two units nearest to a value the loader takes the one that rounds to the same
 * hundredth, so that `decipher-cli glyphs` prints what it printed from the floats.
 * The packing itself is in dc-glyph-pack-private.h, inlined where threads record glyphs.
 */

#define G_LOG_DOMAIN "dc-glyph"

#include "config.h"

#include "dc-glyph-pack-private.h"

static DcGlyphHook hook;
static gpointer hook_data;

_Thread_local Memos _dc_glyph_memos __attribute__ ((tls_model ("initial-exec")));

void
_dc_glyph_set_metrics (DcGlyph *glyph, double size, double advance, double x0, double y0, double x1,
                       double y1)
{
  set_metrics (glyph, size, advance, x0, y0, x1, y1, TRUE);
}

void
_dc_glyph_set_hook (DcGlyphHook new_hook, gpointer user_data)
{
  hook = new_hook;
  hook_data = user_data;
}

/* Whether a test watches the glyphs: it sees them only as one thread reads them. */
gboolean
_dc_glyph_has_hook (void)
{
  return hook != NULL;
}

void
_dc_glyph_call_hook (guint index, double size, double advance, double x0, double y0, double x1,
                     double y1)
{
  if (hook != NULL)
    hook (index, size, advance, x0, y0, x1, y1, hook_data);
}
