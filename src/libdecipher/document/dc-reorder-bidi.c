/* dc-reorder-bidi.c: right-to-left runs of a line put in logical order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-reorder.c, which builds a line's units: here FriBidi resolves their
 * embedding levels and the runs at odd levels are reversed (rule L2 of UAX #9). A token's
 * units repeat a few hundred patterns of bidi types per script, so FriBidi's answer for a
 * short run is kept per thread by those types (a pure function of them: no bracket types
 * are passed).
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <fribidi.h>

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

/* What FriBidi says of @n units of bidi types @types, @rtl and @ltr of them strong. */
static BidiAnswer *
ask_fribidi (const FriBidiCharType *types, guint n, guint rtl, guint ltr)
{
  g_autofree FriBidiLevel *levels = g_new (FriBidiLevel, n);
  BidiAnswer *answer = g_malloc (sizeof (BidiAnswer) + n * sizeof (FriBidiStrIndex));
  /* The first strong letter of a visual line is the last one of the logical line, so
   * the paragraph direction is what most of its letters say. */
  FriBidiParType direction = rtl >= ltr ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;

  answer->reorder = FALSE;
  for (guint i = 0; i < n; i++)
    answer->map[i] = (FriBidiStrIndex) i;
  if (fribidi_get_par_embedding_levels_ex (types, NULL, (FriBidiStrIndex) n, &direction, levels)
      == 0)
    {
      answer->direction = rtl >= ltr ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;
      return answer;
    }
  answer->direction = direction == FRIBIDI_PAR_RTL ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;
  answer->reorder = fribidi_reorder_line (0, types, (FriBidiStrIndex) n, 0, direction, levels, NULL,
                                          answer->map)
                    != 0;
  return answer;
}

/* Visual to logical order for right-to-left runs, for a pool that may hold them
 * (_dc_reorder_may_hold_rtl()); returns the paragraph direction. @memo (nullable): FriBidi's
 * answers for short runs by their types, which a token of a script repeats. */
DcDirection
_dc_reorder_bidi_units (const GString *pool, Unit *units, guint n, GHashTable *memo)
{
  g_autofree FriBidiCharType *types = NULL;
  g_autofree Unit *copy = NULL;
  g_autoptr (GBytes) key = NULL;
  BidiAnswer *answer = NULL;
  g_autofree BidiAnswer *asked = NULL;
  guint rtl = 0, ltr = 0;

  types = g_new (FriBidiCharType, n);
  for (guint i = 0; i < n; i++)
    {
      types[i] = unit_bidi_type (pool, &units[i]);
      rtl += FRIBIDI_IS_RTL (types[i]) && FRIBIDI_IS_STRONG (types[i]);
      ltr += !FRIBIDI_IS_RTL (types[i]) && FRIBIDI_IS_STRONG (types[i]);
    }
  if (rtl == 0)
    return DC_DIRECTION_LTR;

  if (memo != NULL && n <= BIDI_MEMO_UNITS)
    {
      key = g_bytes_new (types, n * sizeof *types);
      answer = g_hash_table_lookup (memo, key);
    }
  if (answer == NULL)
    {
      answer = asked = ask_fribidi (types, n, rtl, ltr);
      if (key != NULL)
        {
          if (g_hash_table_size (memo) >= BIDI_MEMO_SIZE)
            g_hash_table_remove_all (memo);
          g_hash_table_insert (memo, g_steal_pointer (&key), g_steal_pointer (&asked));
        }
    }
  if (answer->reorder)
    {
      copy = g_memdup2 (units, n * sizeof (Unit));
      for (guint i = 0; i < n; i++)
        units[i] = copy[answer->map[i]];
    }
  return answer->direction;
}

/* A memo for _dc_reorder_bidi_units(): FriBidi's answers by the run's bidi types. */
GHashTable *
_dc_reorder_bidi_memo_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                g_free);
}
