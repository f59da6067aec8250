/* dc-glyph-pack-private.h: packing a glyph's size, advance and box, inlined where it is hot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What dc-glyph.c does for every glyph, as inline functions, so that the recording threads
 * (dc-extract-record.c) pack a glyph without a call. See dc-glyph.c for the units.
 */

#pragma once

#include <math.h>
#include <string.h>

#include "dc-glyph-private.h"

G_BEGIN_DECLS

/* How `decipher-cli glyphs` rounds a value to hundredths (w_fixed2()): value * 100.0 +
 * (value < 0 ? -0.5 : 0.5), truncated. The half is given the sign of the product by its
 * bits, not by a comparison and a branch that goes either way as often: the same but for
 * -0.0, which gives -0.5 + -0.0, truncated to 0 as 0.5 + -0.0 is. */
static inline gint64
hundredths (float value)
{
  double scaled = value * 100.0;

  return (gint64) (scaled + copysign (0.5, scaled));
}

/* round() for |@value| < 32767.5 (encode()'s), without the call into libm: six of them a
 * glyph were a tenth of loading a book. The largest double below one half, given
 * @value's sign, brings @value to the integer round() rounds it to or beyond it, never
 * to the next: a half of an odd or even integer rounds away from zero, anything below a
 * half stays below the next integer (the sum is exact or rounds within the binade, where
 * the integer minus one unit is a double). Each half and its forty neighbouring doubles
 * and fifty million differences of page coordinates give what round() gives. It was
 * the fraction compared with both halves: a branch that went either way as often. 0 and
 * -0.0 both give 0. */
static inline double
round_half_away (double value)
{
  return (double) (gint64) (value + copysign (0x1.fffffffffffffp-2, value));
}

/* The units of @unit (1 / @per_unit, a power of two, so that multiplying by it is
 * exactly dividing by @unit) that bring @origin to @target: the nearest count, or a
 * neighbour of it when that one prints as @target does and the nearest does not.
 * Computed with the same float arithmetic as the accessors in dc-types.h. */
static inline gint16
encode (float origin, float target, float unit, double per_unit)
{
  double exact = ((double) target - origin) * per_unit;
  double nearest;
  gint64 printed;

  /* The box's edge at the origin itself (x0 of most glyphs): none away, printed alike. */
  if (target == origin)
    return 0;
  printed = hundredths (target);

  /* What a page holds; round() and the clamp for what only a hostile file draws (a
   * NaN included, which fails the test). */
  if (G_LIKELY (fabs (exact) < 32767.5))
    nearest = round_half_away (exact);
  else
    nearest = CLAMP (round (exact), -32767, 32767);

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

/* 1 / DC_GLYPH_UNIT (scale), exactly (powers of two): a division a glyph, on the way to
 * every length, was looked up. */
static const double per_units[4] = { 256.0, 16.0, 1.0, 1.0 / 16.0 };

/* encode() where it is seldom needed, called rather than inlined into the loops that pack a
 * run's glyphs: inlined, its neighbours' search took registers from the glyphs' own work,
 * whose values then went to the stack and back at every glyph. */
G_NO_INLINE G_GNUC_UNUSED static gint16
encode_apart (float origin, float target, float unit, double per_unit)
{
  return encode (origin, target, unit, per_unit);
}

/* encode() at scale 0 for an edge @target at or right of an @origin right of the page's
 * left edge, at most 127 pt away: the far edge of nearly every glyph along a baseline of
 * rotation 0. Every value is then positive, so the halves that round() and hundredths()
 * add need not take a sign, and the count is within the unit's reach: a third of what
 * encode() did for each glyph was those, its constants loaded each time. Where the
 * nearest count does not print as @target does, encode() looks at its neighbours. The
 * same answers as encode()'s: @target == @origin gives 0 both ways. */
static inline gint16
encode_ahead (float origin, float target)
{
  const float unit = DC_GLYPH_UNIT (0);
  double exact;
  gint64 nearest;

  if (G_LIKELY (origin > 0))
    {
      exact = ((double) target - origin) * per_units[0];
      nearest = (gint64) (exact + 0x1.fffffffffffffp-2);
      if ((gint64) ((double) (origin + (float) nearest * unit) * 100.0 + 0.5)
          == (gint64) ((double) target * 100.0 + 0.5))
        return (gint16) nearest;
    }
  return encode_apart (origin, target, unit, per_units[0]);
}

/* The units of a size or an advance (a distance from 0) in the unit of @scale, as
 * encode() found them last for the same value: a book's glyphs draw a few sizes and a
 * few hundred advances over and over. Per thread, since several documents may load at
 * once. */
typedef struct
{
  guint32 bits; /* the float's */
  guint8 scale; /* + 1; 0 for an empty slot */
  gint16 units;
} Memo;

#define N_MEMO 256

static inline gint16
encode_from_zero (Memo *memo, float target, guint scale, float unit, double per_unit)
{
  guint32 bits;
  Memo *slot;

  memcpy (&bits, &target, sizeof bits);
  slot = &memo[(bits * 2654435761u) >> 24];
  if (slot->bits != bits || slot->scale != scale + 1)
    {
      slot->bits = bits;
      slot->scale = (guint8) (scale + 1);
      slot->units = encode (0, target, unit, per_unit);
    }
  return slot->units;
}

/* The units that bring an edge of the box from the origin, as encode() found them for the
 * glyph before: the glyphs of a line share their baseline, and those of a size their
 * distances to the top and bottom of the box, so that a line's y0 and y1 are the same
 * two encodings over and over. One slot per edge (x0, y0, x1, y1), per thread. */
typedef struct
{
  guint32 origin; /* the floats' bits */
  guint32 target;
  guint8 scale; /* + 1; 0 for an empty slot */
  gint16 units;
} EdgeMemo;

/* Both memos of a thread in one thread-local object. Its model is initial-exec: the
 * library is static, built position-independent, and linked into programs only, where
 * the general-dynamic model compiled each lookup of the address as a call into the TLS
 * machinery, with the values in registers spilled around it, seven times a glyph. */
typedef struct
{
  Memo memo[N_MEMO];
  EdgeMemo edge_memo[4];
  Memo last_size; /* the size encode_size() found last */
} Memos;

extern _Thread_local Memos _dc_glyph_memos __attribute__ ((tls_model ("initial-exec")));

/* The units of a size: the glyphs of a run share theirs, so the last answer is asked
 * first, before the memo's hash. */
static inline gint16
encode_size (Memos *m, float target, guint scale, float unit, double per_unit)
{
  guint32 bits;

  memcpy (&bits, &target, sizeof bits);
  if (m->last_size.bits != bits || m->last_size.scale != scale + 1)
    {
      m->last_size.bits = bits;
      m->last_size.scale = (guint8) (scale + 1);
      m->last_size.units = encode_from_zero (m->memo, target, scale, unit, per_unit);
    }
  return m->last_size.units;
}

static inline gint16
encode_edge (EdgeMemo *edge_memo, guint edge, float origin, float target, guint scale, float unit,
             double per_unit)
{
  EdgeMemo *slot = &edge_memo[edge];
  guint32 origin_bits, target_bits;

  /* The box's edge at the origin itself (x0 of most glyphs). */
  if (target == origin)
    return 0;
  memcpy (&origin_bits, &origin, sizeof origin_bits);
  memcpy (&target_bits, &target, sizeof target_bits);
  if (slot->origin != origin_bits || slot->target != target_bits || slot->scale != scale + 1)
    {
      slot->origin = origin_bits;
      slot->target = target_bits;
      slot->scale = (guint8) (scale + 1);
      slot->units = encode (origin, target, unit, per_unit);
    }
  return slot->units;
}

/* The larger of @widest and |@target - @origin|; a NaN is not wider than anything. */
static inline double
wider (double widest, float origin, float target)
{
  double distance = fabs ((double) target - origin);

  return distance > widest ? distance : widest;
}

/* The larger of @widest and |@distance|, a float's; a NaN is not wider than anything. */
static inline float
wider_float (float widest, float distance)
{
  distance = fabsf (distance);
  return distance > widest ? distance : widest;
}

/* A glyph's scale and the units of its size, advance and box (work_out_metrics()). */
typedef struct
{
  guint scale;
  gint16 size, advance, x0, y0, x1, y1;
} Metrics;

/* A glyph's size, advance and box (page points, from its origin @x, @y) in the
 * finest unit that holds them all. A box beyond 16 × 32767 pt of its origin, which only a
 * hostile file draws, is clamped. Written out value by value, without arrays or loops: a
 * million glyphs pass here while a book loads, and the loops over six values cost twice
 * what the values did. */
G_ALWAYS_INLINE static inline Metrics
work_out_metrics (float x, float y, double size, double advance, double x0, double y0, double x1,
                  double y1, gboolean horizontal)
{
  /* The values as the record held them when they were floats. */
  const float t_size = (float) size, t_advance = (float) advance;
  const float t_x0 = (float) x0, t_y0 = (float) y0, t_x1 = (float) x1, t_y1 = (float) y1;
  Memos *m = &_dc_glyph_memos;
  double widest = 0;
  guint scale = 0;
  float unit;
  double per_unit;
  Metrics out;

  /* Text of any common size has every distance within 127 pt: told first in float
   * arithmetic, whose differences are within half a unit in the last place of the exact
   * ones (7.6e-6 at 127), far below the finest unit's reach of 32767/256 = 127.996, so the
   * finest unit it settles on is the one the exact test below would. A NaN or an infinity
   * fails it, as anything wider does; the exact test, in doubles, was a fifth of this
   * function. */
  float widest_float = fabsf (t_size);

  widest_float = wider_float (widest_float, t_advance);
  widest_float = wider_float (widest_float, t_x0 - x);
  widest_float = wider_float (widest_float, t_y0 - y);
  widest_float = wider_float (widest_float, t_x1 - x);
  widest_float = wider_float (widest_float, t_y1 - y);
  if (!(widest_float <= 127.0f))
    {
      /* The finest unit in which every distance is at most 32767 units (DC_GLYPH_UNIT is
       * a power of two, so the comparison is exact whichever side is scaled: the unit's
       * side, a multiplication, where a division cost a tenth of this function). */
      widest = wider (widest, 0, t_size);
      widest = wider (widest, 0, t_advance);
      widest = wider (widest, x, t_x0);
      widest = wider (widest, y, t_y0);
      widest = wider (widest, x, t_x1);
      widest = wider (widest, y, t_y1);
      while (scale < 3 && widest > 32767.0 * DC_GLYPH_UNIT (scale))
        scale++;
    }
  unit = DC_GLYPH_UNIT (scale);
  per_unit = per_units[scale];
  out.scale = scale;
  out.size = encode_size (m, t_size, scale, unit, per_unit);
  out.advance = encode_from_zero (m->memo, t_advance, scale, unit, per_unit);
  /* Along the baseline one edge is at the origin and the other a glyph's width away from
   * an origin that moves a glyph at a time: the memo never holds it, and asking it cost
   * what encoding does. Across the baseline the edges are those of the glyph before. */
  if (horizontal)
    {
      out.x0 = encode (x, t_x0, unit, per_unit);
      out.y0 = encode_edge (m->edge_memo, 1, y, t_y0, scale, unit, per_unit);
      out.x1 = encode (x, t_x1, unit, per_unit);
      out.y1 = encode_edge (m->edge_memo, 3, y, t_y1, scale, unit, per_unit);
    }
  else
    {
      out.x0 = encode_edge (m->edge_memo, 0, x, t_x0, scale, unit, per_unit);
      out.y0 = encode (y, t_y0, unit, per_unit);
      out.x1 = encode_edge (m->edge_memo, 2, x, t_x1, scale, unit, per_unit);
      out.y1 = encode (y, t_y1, unit, per_unit);
    }
  return out;
}

G_ALWAYS_INLINE static inline void
store_metrics (DcGlyph *glyph, Metrics metrics)
{
  glyph->scale = metrics.scale;
  glyph->size_units = metrics.size;
  glyph->advance_units = metrics.advance;
  glyph->box_units[0] = metrics.x0;
  glyph->box_units[1] = metrics.y0;
  glyph->box_units[2] = metrics.x1;
  glyph->box_units[3] = metrics.y1;
}

G_ALWAYS_INLINE static inline void
set_metrics (DcGlyph *glyph, double size, double advance, double x0, double y0, double x1,
             double y1, gboolean horizontal)
{
  store_metrics (glyph,
                 work_out_metrics (glyph->x, glyph->y, size, advance, x0, y0, x1, y1, horizontal));
}

/* Everything of @glyph but its symbol, from what the bridge reported of @bridge_glyph in
 * @run; the run's page is below DC_GLYPH_MAX_PAGES (the loader drops the others). Called on
 * whatever thread read the glyph (dc-extract.c), so that the one handing glyphs on in page
 * order only copies them. Inlined where the threads record glyphs: the call, with the
 * registers saved around it, was a tenth of packing a glyph. */
G_ALWAYS_INLINE static inline void
_dc_glyph_pack_inline (DcGlyph *glyph, const DcBridgeRun *run, const DcBridgeGlyph *bridge_glyph)
{
  const float x = (float) bridge_glyph->x, y = (float) bridge_glyph->y;
  guint rotation = run->rotation & 3;
  double advance, box[4];
  Metrics metrics;

  dc_bridge_glyph_box (run, bridge_glyph, &advance, box);
  /* Inlined: a call with its six doubles and the registers saved around it, a glyph. The
   * baseline of an upright glyph runs down its column, as that of a quarter turn does. */
  metrics = work_out_metrics (x, y, run->font_size, advance, box[0], box[1], box[2], box[3],
                              (rotation & 1) == 0);

  /* Stored whole, its bit-fields put together in a register. Set one by one, each was
   * read from the record first, and the first read of a record that was not in the cache
   * yet (the recording's room is new to it) was a tenth of the time recording a glyph took.
   * The record is zeroed first: GCC still read the word of the page and the flags back to
   * keep the bits it stored apart, a load from memory not in the cache, where now the
   * zeroes it just stored tell it they are zero. */
  memset (glyph, 0, sizeof *glyph);
  *glyph = (DcGlyph){
    .x = x,
    .y = y,
    .symbol = 0,
    .page = run->page,
    .flags = (run->render_mode == 3 ? DC_GLYPH_INVISIBLE : 0)
             | (run->upright ? DC_GLYPH_UPRIGHT : 0),
    .rotation = rotation,
    .scale = metrics.scale,
    .size_units = metrics.size,
    .advance_units = metrics.advance,
    .box_units = { metrics.x0, metrics.y0, metrics.x1, metrics.y1 },
  };
}

/* Packing the glyphs of one run (DcBridgeRun) one after the other: what they share is
 * worked out once. A run is a string, a line of text in many PDFs, whose glyphs share
 * the page, flags, rotation and size, and along a horizontal baseline the distances of
 * the box's top and bottom from it: packed one by one as _dc_glyph_pack_inline() packs
 * a glyph, those were half of what packing a glyph cost. What the run shares, and what
 * a baseline shares, is worked out as soon as it is met rather than at the first glyph
 * that needs it: a flag a value, asked at every glyph, was a tenth of packing one. */
typedef struct
{
  const DcBridgeRun *run;
  DcGlyph model; /* the page, flags, rotation, scale 0 and its size units */
  gboolean fast; /* along a baseline of rotation 0, at most 127 pt in size */
  Memo *memo;    /* the thread's (Memos): its address was two instructions a glyph */
  float width;   /* |size| as a float: every glyph's distances reach at least that */
  /* The baseline of the glyph before (its double's bits), its box's top and bottom as
   * floats, the wider of their distances from the baseline, and their units at scale 0. */
  guint64 y_bits;
  float y0, y1, y_width;
  gint16 y0_units, y1_units;
} DcGlyphPacker;

/* What the glyphs of @packer's run along the baseline @y share (its double's @y_bits). */
G_ALWAYS_INLINE static inline void
_dc_glyph_packer_set_baseline (DcGlyphPacker *packer, double y, guint64 y_bits)
{
  const DcBridgeRun *run = packer->run;
  const float y_float = (float) y;

  packer->y_bits = y_bits;
  packer->y0 = (float) (y - run->ascent);
  packer->y1 = (float) (y - run->descent);
  packer->y_width = wider_float (wider_float (packer->width, packer->y0 - y_float),
                                 packer->y1 - y_float);
  /* Encoded at scale 0 even for a glyph too wide for it (which
   * _dc_glyph_pack_inline() packs): encode() only computes. */
  packer->y0_units = packer->y0 == y_float
                         ? 0
                         : encode (y_float, packer->y0, DC_GLYPH_UNIT (0), per_units[0]);
  packer->y1_units = packer->y1 == y_float
                         ? 0
                         : encode (y_float, packer->y1, DC_GLYPH_UNIT (0), per_units[0]);
  /* Stored with the model, which every glyph along the baseline starts from. */
  packer->model.box_units[1] = packer->y0_units;
  packer->model.box_units[3] = packer->y1_units;
}

/* _dc_glyph_packer_set_baseline() where a run's glyphs move to another baseline, and
 * _dc_glyph_pack_inline() for a glyph too wide for the finest unit: called rather than
 * inlined into the loop over a run's glyphs, for the reason encode_apart() is. */
G_NO_INLINE G_GNUC_UNUSED static void
glyph_packer_move_baseline (DcGlyphPacker *packer, double y, guint64 y_bits)
{
  _dc_glyph_packer_set_baseline (packer, y, y_bits);
}

G_NO_INLINE G_GNUC_UNUSED static void
glyph_pack_apart (DcGlyph *glyph, const DcBridgeRun *run, const DcBridgeGlyph *bridge_glyph)
{
  _dc_glyph_pack_inline (glyph, run, bridge_glyph);
}

G_ALWAYS_INLINE static inline void
_dc_glyph_packer_init (DcGlyphPacker *packer, const DcBridgeRun *run)
{
  memset (packer, 0, sizeof *packer);
  packer->run = run;
  packer->memo = _dc_glyph_memos.memo;
  packer->model = (DcGlyph){
    .page = run->page,
    .flags = (run->render_mode == 3 ? DC_GLYPH_INVISIBLE : 0)
             | (run->upright ? DC_GLYPH_UPRIGHT : 0),
    .rotation = run->rotation & 3,
    .scale = 0,
  };
  packer->width = fabsf ((float) run->font_size);
  /* Runs along other directions, upright and large ones are rare: they are packed glyph
   * by glyph. */
  packer->fast = run->rotation == 0 && !run->upright && packer->width <= 127.0f;
  if (packer->fast)
    {
      /* The memos only remember: asked for a run none of whose glyphs needs the size
       * (all too wide for scale 0), they answer the same later. */
      packer->model.size_units = encode_size (&_dc_glyph_memos, (float) run->font_size, 0,
                                              DC_GLYPH_UNIT (0), per_units[0]);
      if (run->n_glyphs > 0)
        {
          guint64 y_bits;

          memcpy (&y_bits, &run->glyphs[0].y, sizeof y_bits);
          _dc_glyph_packer_set_baseline (packer, run->glyphs[0].y, y_bits);
        }
    }
}

/* The glyph of @packer's run at @bridge_glyph, packed into @glyph but its symbol, as
 * _dc_glyph_pack_inline() packs it, in a run along a baseline of rotation 0 (@packer's
 * fast): the callers choose once a run, where a test of each glyph cost three
 * instructions of the hundred and fifty. */
G_ALWAYS_INLINE static inline void
_dc_glyph_packer_pack_fast (DcGlyphPacker *packer, DcGlyph *glyph,
                            const DcBridgeGlyph *bridge_glyph)
{
  const DcBridgeRun *run = packer->run;
  double gx = bridge_glyph->x, w = bridge_glyph->dx, x_end = gx + w;
  const float x = (float) gx, y = (float) bridge_glyph->y;
  const float t_advance = (float) w;
  float t_x0, t_x1, widest;
  gboolean ahead;
  guint64 y_bits;

  memcpy (&y_bits, &bridge_glyph->y, sizeof y_bits);
  if (G_UNLIKELY (y_bits != packer->y_bits))
    glyph_packer_move_baseline (packer, bridge_glyph->y, y_bits);

  /* The box as dc_bridge_glyph_box() has it along a baseline of rotation 0: from the
   * origin to where the advance ends, the other way round where it goes backwards. A
   * glyph that advances (nearly every one) is told first: its box begins at the origin,
   * no unit away and no distance to weigh in the test below. */
  ahead = gx < x_end;
  if (G_LIKELY (ahead))
    {
      /* work_out_metrics()'s test for the finest unit, the run's share of it told once;
       * both distances are at least 0 here (an advance of infinity fails the test). */
      t_x0 = x;
      t_x1 = (float) x_end;
      widest = MAX (MAX (packer->y_width, t_advance), t_x1 - x);
    }
  else
    {
      t_x0 = x_end < gx ? (float) x_end : x;
      t_x1 = x;
      widest = wider_float (wider_float (packer->y_width, t_advance), t_x0 - x);
    }
  if (G_UNLIKELY (!(widest <= 127.0f)))
    {
      glyph_pack_apart (glyph, run, bridge_glyph);
      return;
    }

  /* What work_out_metrics() encodes at scale 0, with the same functions. */
  *glyph = packer->model;
  glyph->x = x;
  glyph->y = y;
  glyph->advance_units = encode_from_zero (packer->memo, t_advance, 0, DC_GLYPH_UNIT (0),
                                           per_units[0]);
  if (G_LIKELY (ahead))
    glyph->box_units[2] = encode_ahead (x, t_x1);
  else
    glyph->box_units[0] = t_x0 == x ? 0 : encode_apart (x, t_x0, DC_GLYPH_UNIT (0), per_units[0]);
}

/* The glyph of @packer's run at @bridge_glyph, packed into @glyph but its symbol, as
 * _dc_glyph_pack_inline() packs it. @fast is @packer's, a constant where inlined. */
G_ALWAYS_INLINE static inline void
_dc_glyph_packer_pack (DcGlyphPacker *packer, gboolean fast, DcGlyph *glyph,
                       const DcBridgeGlyph *bridge_glyph)
{
  if (fast)
    _dc_glyph_packer_pack_fast (packer, glyph, bridge_glyph);
  else
    _dc_glyph_pack_inline (glyph, packer->run, bridge_glyph);
}

G_END_DECLS
