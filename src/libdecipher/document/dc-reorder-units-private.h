/* dc-reorder-units-private.h: what the files that put a line in logical order share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <fribidi.h>
#include <math.h>

#include "dc-reorder-private.h"

G_BEGIN_DECLS

typedef enum
{
  UNIT_FROM_SPAN = 1 << 0,  /* /ActualText: already logical inside */
  UNIT_SPACE = 1 << 1,      /* between two tokens */
  UNIT_NO_ADVANCE = 1 << 2, /* drawn over its neighbour */
  UNIT_CLOSED = 1 << 3,     /* a space between two tokens that the script does not write */
} UnitFlags;

typedef struct
{
  guint start; /* bytes into the text pool */
  guint length;
  guint token; /* the token (in visual order) it belongs to */
  guint flags;
  float u; /* where its glyph is drawn along the line */
  float em;
} Unit;

/* Whether @glyph is drawn with next to no advance (under a tenth of its size, of half a
 * point at least): a mark or a letter drawn over its neighbour. Every glyph of a line is
 * asked, and most advance by far more, which their whole numbers show without the floating
 * point: size and advance are in the same unit, of 1/256 pt at least, so an advance of 16
 * units or more is over the 0.05 pt that a size under half a point allows, and one over an
 * eighth of the size's units is over a tenth of the size. */
static inline gboolean
glyph_has_no_advance (const DcGlyph *glyph)
{
  int advance = glyph->advance_units;

  /* Mostly a positive advance: one sign at a time spares ABS()'s moves. */
  if ((advance >= 16 && 8 * advance > glyph->size_units)
      || (advance <= -16 && -8 * advance > glyph->size_units))
    return FALSE;
  return fabs (dc_glyph_get_advance (glyph)) < 0.1 * MAX (dc_glyph_get_size (glyph), 0.5f);
}

static inline const char *
unit_text (const GString *pool, const Unit *unit)
{
  return pool->str + unit->start;
}

/* g_utf8_get_char() with the characters of up to three bytes decoded in line, the same
 * arithmetic: reordering asks for a character or two of every unit of a line. */
static inline gunichar
unit_get_char (const char *text)
{
  const guchar *p = (const guchar *) text;

  if (p[0] < 0x80)
    return p[0];
  if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80)
    return ((gunichar) (p[0] & 0x1F) << 6) | (p[1] & 0x3F);
  if ((p[0] & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80)
    return ((gunichar) (p[0] & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
  return g_utf8_get_char (text);
}

/* g_utf8_prev_char() in line. */
static inline char *
unit_prev_char (const char *p)
{
  do
    p--;
  while (((guchar) *p & 0xC0) == 0x80);
  return (char *) p;
}

static inline gunichar
unit_first (const GString *pool, const Unit *unit)
{
  return unit->length ? unit_get_char (unit_text (pool, unit)) : 0;
}

static inline gunichar
unit_last (const GString *pool, const Unit *unit)
{
  if (unit->length == 0)
    return 0;
  return unit_get_char (unit_prev_char (unit_text (pool, unit) + unit->length));
}

gboolean _dc_reorder_indic (GString *pool, Unit *units, guint first, guint end);
gboolean _dc_reorder_plain_tokens (DcDocument *document, guint first_token, guint n_tokens,
                                   DcValueFunc value, gpointer user_data, GString *out,
                                   GPtrArray *tokens, GArray *token_indices);
gboolean _dc_reorder_cached_tokens (DcDocument *document, guint first_token, guint n_tokens,
                                    const DcTextCache *cache, GString *out);

/* dc-reorder-bidi.c: right-to-left runs in logical order. A thread's memos of FriBidi's
 * answers and room for a run's types. */
typedef struct _DcReorderBidi DcReorderBidi;

gboolean _dc_reorder_may_hold_rtl (const GString *pool);
DcReorderBidi *_dc_reorder_bidi_new (void);
void _dc_reorder_bidi_free (DcReorderBidi *bidi);
DcDirection _dc_reorder_bidi_units (DcReorderBidi *bidi, const GString *pool, Unit *units, guint n,
                                    gboolean short_runs);
/* FriBidi's embedding levels for @n characters of types @types in a paragraph of
 * direction @rtl, as _dc_reorder_bidi_units() resolves them: for the tests. */
gboolean _dc_reorder_bidi_levels (DcReorderBidi *bidi, const FriBidiCharType *types, guint n,
                                  gboolean rtl, FriBidiLevel *levels);

G_END_DECLS
