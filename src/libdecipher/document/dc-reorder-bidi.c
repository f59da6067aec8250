/* dc-reorder-bidi.c: right-to-left runs of a line put in logical order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-reorder.c, which builds a line's units: here FriBidi resolves their
 * embedding levels and the runs at odd levels are reversed (rule L2 of UAX #9). A token's
 * units repeat a few hundred patterns of bidi types per script, so FriBidi's answer for a
 * short run is kept per thread by those types (a pure function of them: no bracket types
 * are passed).
 *
 * A line's pattern does not repeat, but its pieces do, and FriBidi's levels for a line are
 * those it gives each piece (levels_by_pieces()), so a right-to-left line costs FriBidi
 * only the pieces it has not seen yet rather than a whole pass.
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <fribidi.h>
#include <string.h>

#include "dc-reorder-units-private.h"

static FriBidiCharType
unit_bidi_type (const GString *pool, const Unit *unit)
{
  FriBidiCharType first = FRIBIDI_TYPE_ON;
  gboolean seen = FALSE;

  if (unit->flags & UNIT_SPACE)
    return FRIBIDI_TYPE_WS;
  /* An ASCII letter is a strong left-to-right one: no need to ask FriBidi. */
  if (unit->length > 0 && g_ascii_isalpha (unit_text (pool, unit)[0]))
    return FRIBIDI_TYPE_LTR;
  for (const char *p = unit_text (pool, unit); p < unit_text (pool, unit) + unit->length;
       p = g_utf8_next_char (p))
    {
      FriBidiCharType type = fribidi_get_bidi_type (unit_get_char (p));

      if (FRIBIDI_IS_STRONG (type))
        return type;
      if (!seen && !FRIBIDI_IS_EXPLICIT_OR_BN (type) && type != FRIBIDI_TYPE_NSM)
        first = type, seen = TRUE;
    }
  return first;
}

/* Whether @pool may hold a right-to-left letter or mark: none lies outside U+0580–U+08FF,
 * U+FB1D–U+FEFF, the marks U+200F, U+202B, U+202E and U+2067, and the planes above the
 * first (Unicode's bidi classes R, AL, RLE, RLO, RLI, unassigned code points included).
 * A line without one is left to right whatever FriBidi would say of each unit, and most
 * lines are: only the bytes that begin a character of U+0580 or above (0xD6 and up) are
 * looked at. */
gboolean
_dc_reorder_may_hold_rtl (const GString *pool)
{
  const guchar *bytes = (const guchar *) pool->str;

  for (gsize i = 0; i < pool->len; i++)
    {
      gunichar c;

      if (bytes[i] < 0xD6)
        continue;
      if (bytes[i] < 0xE0 || bytes[i] >= 0xF0 || i + 2 >= pool->len)
        return TRUE;
      c = ((gunichar) (bytes[i] & 0x0F) << 12) | ((gunichar) (bytes[i + 1] & 0x3F) << 6)
          | (bytes[i + 2] & 0x3F);
      if (c <= 0x08FF || c == 0x200F || c == 0x202B || c == 0x202E || c == 0x2067
          || (c >= 0xFB1D && c <= 0xFEFF))
        return TRUE;
      i += 2;
    }
  return FALSE;
}

/* FriBidi's answer for a run of units, kept by _dc_reorder_bidi_units() by the run's bidi types:
 * whether it reorders and how (map), and the paragraph direction. */
typedef struct
{
  DcDirection direction;
  gboolean reorder;
  FriBidiStrIndex map[];
} BidiAnswer;

/* The most units of a run whose answer is kept: a token, not a line. */
#define BIDI_MEMO_UNITS 32
/* The most answers kept per thread: the tokens of a script repeat a few hundred patterns. */
#define BIDI_MEMO_SIZE 4096
/* The most units of a piece whose levels are kept: a longer one is asked of FriBidi each time. */
#define PIECE_UNITS 48
/* The slots of the pieces' memo, a power of two: a few hundred pieces make the lines of a
 * book (varied.pdf's 97 languages, 600), so two seldom share a slot, and when they do the
 * one asked last is kept. */
#define PIECE_SLOTS 16384

/* FriBidi's levels for a piece of a line (levels_by_pieces()), kept by its types. */
typedef struct
{
  guint8 n;
  guint8 rtl;                /* resolved in a right-to-left paragraph */
  guint8 codes[PIECE_UNITS]; /* piece_code() of its types */
  FriBidiLevel levels[PIECE_UNITS];
} Piece;

struct _DcReorderBidi
{
  GHashTable *answers; /* BidiAnswer by the run's types (GBytes) */
  Piece **pieces;      /* PIECE_SLOTS, by the hash of their types, made when first asked */
  /* Room for a run's types, codes, levels, map and units, made once per thread. */
  guint room;
  FriBidiCharType *types;
  guint8 *codes;
  FriBidiLevel *levels;
  FriBidiStrIndex *map;
  Unit *copy;
};

/* The types a line may be resolved in pieces with, numbered from 1; 0 for any other: an
 * explicit embedding, override or isolate, a segment or paragraph separator, a mark or a
 * boundary neutral, which reach past letters or lead FriBidi to treat runs apart. */
static guint8
piece_code (FriBidiCharType type)
{
  switch (type)
    {
    case FRIBIDI_TYPE_LTR:
      return 1;
    case FRIBIDI_TYPE_RTL:
      return 2;
    case FRIBIDI_TYPE_AL:
      return 3;
    case FRIBIDI_TYPE_EN:
      return 4;
    case FRIBIDI_TYPE_AN:
      return 5;
    case FRIBIDI_TYPE_ES:
      return 6;
    case FRIBIDI_TYPE_ET:
      return 7;
    case FRIBIDI_TYPE_CS:
      return 8;
    case FRIBIDI_TYPE_WS:
      return 9;
    case FRIBIDI_TYPE_ON:
      return 10;
    default:
      return 0;
    }
}

/* A letter, strong left to right (L) or right to left (R, AL): piece_code() 1 to 3. */
#define CODE_IS_LETTER(code) ((code) >= 1 && (code) <= 3)

DcReorderBidi *
_dc_reorder_bidi_new (void)
{
  DcReorderBidi *bidi = g_new0 (DcReorderBidi, 1);

  bidi->answers = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                         (GDestroyNotify) g_bytes_unref, g_free);
  return bidi;
}

void
_dc_reorder_bidi_free (DcReorderBidi *bidi)
{
  if (bidi == NULL)
    return;
  g_hash_table_unref (bidi->answers);
  if (bidi->pieces != NULL)
    for (guint i = 0; i < PIECE_SLOTS; i++)
      g_free (bidi->pieces[i]);
  g_free (bidi->pieces);
  g_free (bidi->types);
  g_free (bidi->codes);
  g_free (bidi->levels);
  g_free (bidi->map);
  g_free (bidi->copy);
  g_free (bidi);
}

static void
make_room (DcReorderBidi *bidi, guint n)
{
  if (n <= bidi->room)
    return;
  bidi->room = MAX (n, 2 * bidi->room);
  bidi->types = g_renew (FriBidiCharType, bidi->types, bidi->room);
  bidi->codes = g_renew (guint8, bidi->codes, bidi->room);
  bidi->levels = g_renew (FriBidiLevel, bidi->levels, bidi->room);
  bidi->map = g_renew (FriBidiStrIndex, bidi->map, bidi->room);
  bidi->copy = g_renew (Unit, bidi->copy, bidi->room);
}

/* FriBidi's levels for @n characters of types @types in a paragraph of direction @base
 * (FRIBIDI_PAR_LTR or FRIBIDI_PAR_RTL, which it keeps); FALSE where it fails. */
static gboolean
fribidi_levels (const FriBidiCharType *types, guint n, FriBidiParType base, FriBidiLevel *levels)
{
  return fribidi_get_par_embedding_levels_ex (types, NULL, (FriBidiStrIndex) n, &base, levels) != 0;
}

/* fribidi_levels() of a piece, whose piece_code()s are @codes, from the memo when it has
 * seen the piece. */
static gboolean
piece_levels (DcReorderBidi *bidi, const FriBidiCharType *types, const guint8 *codes, guint n,
              FriBidiParType base, FriBidiLevel *levels)
{
  guint8 rtl = base == FRIBIDI_PAR_RTL;
  guint hash = 2166136261u ^ rtl;
  Piece **slot, *piece;

  if (n > PIECE_UNITS)
    return fribidi_levels (types, n, base, levels);
  /* FNV-1a. */
  for (guint i = 0; i < n; i++)
    hash = (hash ^ codes[i]) * 16777619u;
  if (bidi->pieces == NULL)
    bidi->pieces = g_new0 (Piece *, PIECE_SLOTS);
  slot = &bidi->pieces[(hash ^ (hash >> 16)) % PIECE_SLOTS];
  piece = *slot;
  if (piece == NULL || piece->n != n || piece->rtl != rtl || memcmp (piece->codes, codes, n) != 0)
    {
      if (piece == NULL)
        piece = *slot = g_new0 (Piece, 1);
      /* Not the memo's until FriBidi has answered. */
      piece->n = 0;
      if (!fribidi_levels (types, n, base, piece->levels))
        return FALSE;
      piece->n = (guint8) n;
      piece->rtl = rtl;
      memcpy (piece->codes, codes, n);
    }
  memcpy (levels, piece->levels, n * sizeof *levels);
  return TRUE;
}

/* FriBidi's levels for a run of units of types @types (piece_code()s @codes, none 0),
 * resolved piece by piece. The run is cut at letters next to a character of another
 * class, each piece holding the letters it is cut at: a letter's level is its own
 * direction's whatever stands around it, and with none of the types piece_code() keeps
 * out, no rule of UAX #9 that FriBidi applies looks past a letter (W2 and W7 look back
 * to the nearest letter, W4 and W5 at the neighbours of a run of separators or
 * terminators, N1 at the letters or numbers around a run of neutrals, L1 at the white
 * space that ends the line, which lies in the last piece; no bracket pairs are given for
 * N0). So every character but the letter a piece ends with, whose level the next piece
 * gives, has the level FriBidi gives it in its piece, and a line's pieces (a word's
 * letters; the space and punctuation between two words with those words' last and first
 * letters) repeat from line to line. */
static gboolean
levels_by_pieces (DcReorderBidi *bidi, const FriBidiCharType *types, const guint8 *codes, guint n,
                  FriBidiParType base, FriBidiLevel *levels)
{
  guint start = 0;

  for (guint i = 1; i < n; i++)
    if (CODE_IS_LETTER (codes[i])
        && (!CODE_IS_LETTER (codes[i - 1]) || (i + 1 < n && !CODE_IS_LETTER (codes[i + 1]))))
      {
        if (!piece_levels (bidi, types + start, codes + start, i + 1 - start, base, levels + start))
          return FALSE;
        start = i;
      }
  return piece_levels (bidi, types + start, codes + start, n - start, base, levels + start);
}

/* What FriBidi says of @n units of bidi types @types, @rtl and @ltr of them strong: the
 * paragraph direction, and whether the units reorder and how (@map, of @n). Their levels
 * are resolved piece by piece where @by_pieces. */
static DcDirection
ask_fribidi (DcReorderBidi *bidi, const FriBidiCharType *types, guint n, guint rtl, guint ltr,
             gboolean by_pieces, gboolean *reorder, FriBidiStrIndex *map)
{
  FriBidiLevel *levels = bidi->levels;
  /* The first strong letter of a visual line is the last one of the logical line, so
   * the paragraph direction is what most of its letters say. */
  FriBidiParType direction = rtl >= ltr ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
  gboolean resolved;

  *reorder = FALSE;
  for (guint i = 0; i < n; i++)
    map[i] = (FriBidiStrIndex) i;
  resolved = by_pieces ? levels_by_pieces (bidi, types, bidi->codes, n, direction, levels)
                       : fribidi_levels (types, n, direction, levels);
  if (resolved)
    *reorder = fribidi_reorder_line (0, types, (FriBidiStrIndex) n, 0, direction, levels, NULL, map)
               != 0;
  /* FriBidi keeps a strong paragraph direction as it was asked. */
  return rtl >= ltr ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;
}

/* Visual to logical order for right-to-left runs, for a pool that may hold them
 * (_dc_reorder_may_hold_rtl()); returns the paragraph direction. @short_runs: keep
 * FriBidi's answers for short runs by their types, which a token of a script repeats; a
 * line's do not repeat, but their pieces do. */
DcDirection
_dc_reorder_bidi_units (DcReorderBidi *bidi, const GString *pool, Unit *units, guint n,
                        gboolean short_runs)
{
  FriBidiCharType *types;
  g_autoptr (GBytes) key = NULL;
  BidiAnswer *answer;
  FriBidiStrIndex *map;
  DcDirection direction;
  gboolean reorder;
  guint rtl = 0, ltr = 0;
  gboolean by_pieces = TRUE;

  make_room (bidi, MAX (n, 1));
  types = bidi->types;
  map = bidi->map;
  for (guint i = 0; i < n; i++)
    {
      types[i] = unit_bidi_type (pool, &units[i]);
      rtl += FRIBIDI_IS_RTL (types[i]) && FRIBIDI_IS_STRONG (types[i]);
      ltr += !FRIBIDI_IS_RTL (types[i]) && FRIBIDI_IS_STRONG (types[i]);
      bidi->codes[i] = piece_code (types[i]);
      by_pieces = by_pieces && bidi->codes[i] != 0;
    }
  if (rtl == 0)
    return DC_DIRECTION_LTR;

  if (short_runs && n <= BIDI_MEMO_UNITS)
    {
      key = g_bytes_new (types, n * sizeof *types);
      answer = g_hash_table_lookup (bidi->answers, key);
      if (answer == NULL)
        {
          answer = g_malloc (sizeof (BidiAnswer) + n * sizeof (FriBidiStrIndex));
          answer->direction = ask_fribidi (bidi, types, n, rtl, ltr, by_pieces, &answer->reorder,
                                           answer->map);
          if (g_hash_table_size (bidi->answers) >= BIDI_MEMO_SIZE)
            g_hash_table_remove_all (bidi->answers);
          g_hash_table_insert (bidi->answers, g_steal_pointer (&key), answer);
        }
      direction = answer->direction;
      reorder = answer->reorder;
      map = answer->map;
    }
  else
    direction = ask_fribidi (bidi, types, n, rtl, ltr, by_pieces, &reorder, map);
  if (reorder)
    {
      memcpy (bidi->copy, units, n * sizeof (Unit));
      for (guint i = 0; i < n; i++)
        units[i] = bidi->copy[map[i]];
    }
  return direction;
}

gboolean
_dc_reorder_bidi_levels (DcReorderBidi *bidi, const FriBidiCharType *types, guint n, gboolean rtl,
                         FriBidiLevel *levels)
{
  g_return_val_if_fail (bidi != NULL && (types != NULL || n == 0), FALSE);

  make_room (bidi, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    if ((bidi->codes[i] = piece_code (types[i])) == 0)
      return fribidi_levels (types, n, rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR, levels);
  return levels_by_pieces (bidi, types, bidi->codes, n, rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR,
                           levels);
}
