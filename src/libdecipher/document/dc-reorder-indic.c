/* dc-reorder-indic.c: Indic units from the order they are drawn in to Unicode's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pre-base vowel sign drawn before its consonant cluster (ि क) goes after it (कि); the
 * two halves of a split vowel (ে ক া) then compose under NFC (কো); a reph drawn over the
 * end of its cluster (म + र्) goes before it (र्म). Which vowel signs are pre-base is
 * Unicode's Indic_Positional_Category; viramas are combining class 9.
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <string.h>

#include "dc-reorder-units-private.h"

/* Unicode's Indic_Positional_Category=Left (IndicPositionalCategory.txt): vowel signs
 * written before the consonant they follow in logical order. */
gboolean
_dc_is_pre_base_vowel (gunichar c)
{
  switch (c)
    {
    case 0x093F: /* Devanagari i */
    case 0x094E: /* prishthamatra e */
    case 0x09BF: /* Bengali i, e, ai */
    case 0x09C7:
    case 0x09C8:
    case 0x0A3F: /* Gurmukhi i */
    case 0x0ABF: /* Gujarati i */
    case 0x0B47: /* Oriya e */
    case 0x0BC6: /* Tamil e, ee, ai */
    case 0x0BC7:
    case 0x0BC8:
    case 0x0D46: /* Malayalam e, ee, ai */
    case 0x0D47:
    case 0x0D48:
    case 0x0DD9: /* Sinhala e, ee, ai, kombuva */
    case 0x0DDA:
    case 0x0DDB:
    case 0x1031: /* Myanmar e */
    case 0x1084:
    case 0x17C1: /* Khmer e, ae, ai */
    case 0x17C2:
    case 0x17C3:
    case 0x1A19: /* Buginese e */
    case 0x1B3E: /* Balinese taling */
    case 0x1B3F:
    case 0xA9BA: /* Javanese taling */
    case 0xA9BB:
    case 0x111B4: /* Sharada i */
    case 0x11131: /* Chakma */
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
_dc_is_virama (gunichar c)
{
  return g_unichar_combining_class (c) == 9;
}

/* Whether @c is a spacing dependent vowel sign (া, ी, ா) of the nine Indic blocks, which
 * share ISCII's layout: not a visarga or anusvara, which are spacing marks too. */
gboolean
_dc_is_spacing_vowel_sign (gunichar c)
{
  guint offset = c & 0x7F;

  if (c < 0x0900 || c > 0x0DFF || g_unichar_type (c) != G_UNICODE_SPACING_MARK)
    return FALSE;
  return (offset >= 0x3A && offset <= 0x4C) || (offset >= 0x55 && offset <= 0x57) || offset == 0x62
         || offset == 0x63;
}

/* The letters that form a reph with a virama before a consonant, drawn over the end of
 * the cluster: RA of Devanagari, Bengali (and Assamese RA), Gujarati, Oriya and Kannada.
 * Gurmukhi, Tamil and Malayalam write RA + virama as visible letters, and Telugu forms a
 * reph only with a zero-width joiner: Noto Sans Telugu draws ర్ణా as రా and ్ణ. */
gboolean
_dc_is_reph_ra (gunichar c)
{
  switch (c)
    {
    case 0x0930:
    case 0x09B0:
    case 0x09F0:
    case 0x0AB0:
    case 0x0B30:
    case 0x0CB0:
      return TRUE;
    default:
      return FALSE;
    }
}

/* How many of the characters at @c (@length of them) make a consonant form drawn before
 * the consonant it follows in Unicode: Khmer's coeng RO (្រ, 2) and Myanmar's medial RA
 * (ြ, 1); 0 for any other. */
guint
_dc_pre_base_consonant_length (const gunichar *c, guint length)
{
  if (length >= 1 && c[0] == 0x103C)
    return 1;
  if (length >= 2 && c[0] == 0x17D2 && c[1] == 0x179A)
    return 2;
  return 0;
}

/* Whether @c is a vowel sign Kannada and Telugu draw on the first consonant of a conjunct,
 * before the subscripts of the others (ಸ ಾ ್ಕ for ಸ್ಕಾ, రా ్ణ for ర్ణా), as HarfBuzz's Indic
 * shaper orders them: every dependent vowel sign but the length marks (ೕ ೖ ౕ ౖ), which
 * come after the subscripts, as anusvara and visarga do. */
gboolean
_dc_is_vowel_sign_before_subscripts (gunichar c)
{
  guint offset = c & 0x7F;

  /* U+0C00–U+0CFF: the Telugu and Kannada blocks. */
  return c >= 0x0C00 && c <= 0x0CFF && offset >= 0x3E && offset <= 0x4C && g_unichar_ismark (c);
}

/* Khmer's split vowel signs, drawn as the pre-base េ and a part after the consonant. */
gboolean
_dc_is_khmer_split_vowel (gunichar c)
{
  return c == 0x17BE || c == 0x17BF || c == 0x17C0 || c == 0x17C4 || c == 0x17C5;
}

/* Whether a consonant after a virama is drawn in a below- or post-base form of its own
 * (the glyph of ্য, ্র, र्‍ under क in क्र, a Telugu or Kannada vattu), so
 * that the glyph spells virama + consonant and the consonant before keeps its full form — as
 * HarfBuzz's Indic shaper forms them. Elsewhere (Devanagari क्ष, ग्य) the consonant before takes a
 * half form that spells consonant + virama. */
gboolean
_dc_takes_post_base_form (gunichar consonant)
{
  switch (g_unichar_get_script (consonant))
    {
    case G_UNICODE_SCRIPT_TELUGU:
    case G_UNICODE_SCRIPT_KANNADA:
    case G_UNICODE_SCRIPT_KHMER: /* every consonant after a coeng is a subscript */
      return g_unichar_isalpha (consonant);
    default:
      break;
    }
  switch (consonant)
    {
    case 0x0930: /* Devanagari RA */
    case 0x09AC: /* Bengali BA, YA, RA */
    case 0x09AF:
    case 0x09B0:
    case 0x09F0: /* Assamese RA */
    case 0x0A2F: /* Gurmukhi YA, RA, VA, HA */
    case 0x0A30:
    case 0x0A35:
    case 0x0A39:
    case 0x0AB0: /* Gujarati RA */
    case 0x0B2F: /* Oriya YA, RA, YYA (୍ୟ in ଧନ୍ୟବାଦ, one glyph in Noto Sans Oriya) */
    case 0x0B30:
    case 0x0B5F:
    case 0x0D30: /* Malayalam RA, YA, VA */
    case 0x0D2F:
    case 0x0D35:
    case 0x0DBA: /* Sinhala YA, RA */
    case 0x0DBB:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Whether the unit's first character is below U+0800, which no virama, nukta, vowel
 * sign or RA is: one byte test spares most units of a Latin, Greek or Cyrillic line
 * the decoding and look-ups of Indic reordering. */
static gboolean
unit_starts_below_indic (const GString *pool, const Unit *unit)
{
  return unit->length > 0 && (guchar) unit_text (pool, unit)[0] < 0xE0;
}

static gboolean
unit_is (const GString *pool, const Unit *unit, gboolean (*predicate) (gunichar))
{
  const char *p = unit_text (pool, unit);

  return unit->length > 0 && predicate (unit_get_char (p))
         && g_utf8_next_char (p) == p + unit->length;
}

static gboolean
is_nukta (gunichar c)
{
  return g_unichar_combining_class (c) == 7;
}

static gboolean
is_above_mark (gunichar c)
{
  return g_unichar_type (c) == G_UNICODE_NON_SPACING_MARK && g_unichar_combining_class (c) == 0;
}

static gboolean
is_spacing_vowel_sign (gunichar c)
{
  return _dc_is_spacing_vowel_sign (c) && !_dc_is_pre_base_vowel (c);
}

static gboolean
is_reph (const GString *pool, const Unit *unit)
{
  const char *p = unit_text (pool, unit);
  const char *second;

  if (unit->length == 0 || !_dc_is_reph_ra (unit_get_char (p)))
    return FALSE;
  second = g_utf8_next_char (p);
  return second < p + unit->length && _dc_is_virama (unit_get_char (second))
         && g_utf8_next_char (second) == p + unit->length;
}

/* A reph drawn in one glyph with the vowel sign after its cluster (र्ो in सर्वो): the
 * length in bytes of its RA + virama when the rest of the unit is marks, else 0. */
static gsize
reph_with_marks (const GString *pool, const Unit *unit)
{
  const char *p = unit_text (pool, unit);
  const char *end = p + unit->length;
  const char *rest;

  if (unit->length == 0 || !_dc_is_reph_ra (unit_get_char (p)))
    return 0;
  rest = g_utf8_next_char (p);
  if (rest >= end || !_dc_is_virama (unit_get_char (rest)))
    return 0;
  rest = g_utf8_next_char (rest);
  if (rest >= end)
    return 0;
  for (const char *q = rest; q < end; q = g_utf8_next_char (q))
    if (!g_unichar_ismark (unit_get_char (q)))
      return 0;
  return rest - p;
}

/* Whether @unit is a pre-base consonant form (_dc_pre_base_consonant_length()). */
static gboolean
is_pre_base_consonant (const GString *pool, const Unit *unit)
{
  gunichar c[2] = { 0, 0 };
  const char *p = unit_text (pool, unit);

  if (unit->length < 3)
    return FALSE;
  c[0] = unit_get_char (p);
  if (unit->length >= 6)
    c[1] = unit_get_char (g_utf8_next_char (p));
  return _dc_pre_base_consonant_length (c, unit->length >= 6 ? 2 : 1) > 0;
}

/* Whether @c is a Myanmar medial (ျ ြ ွ ှ, and Mon's and Shan's), part of the consonant
 * cluster before a vowel sign. */
static gboolean
is_myanmar_medial (gunichar c)
{
  return (c >= 0x103B && c <= 0x103E) || (c >= 0x105E && c <= 0x1060) || c == 0x1082;
}

/* Whether @unit begins with Myanmar's kinzi (င်္), drawn after the consonant it precedes. */
static gboolean
is_kinzi (const GString *pool, const Unit *unit)
{
  const char *p = unit_text (pool, unit);

  return unit->length >= 9 && unit_get_char (p) == 0x1004 && unit_get_char (p + 3) == 0x103A
         && unit_get_char (p + 6) == 0x1039;
}

static void
move_unit (Unit *units, guint from, guint to)
{
  Unit moved = units[from];

  if (from < to)
    memmove (&units[from], &units[from + 1], (to - from) * sizeof (Unit));
  else
    memmove (&units[to + 1], &units[to], (from - to) * sizeof (Unit));
  units[to] = moved;
}

/* Some producers write a conjunct glyph's text as its consonants followed by the virama
 * (দব্ for দ্ব, পর্ for প্র), which no shaping of Unicode text gives: a virama after
 * the last consonant makes a half form that has nothing to join, and a reph is drawn on
 * the cluster after it, never in one glyph with the consonant before. The virama belongs
 * between the consonants. */
static void
fix_conjunct_order (GString *pool, Unit *unit)
{
  char *text = pool->str + unit->start;
  char *end = text + unit->length;
  char *virama, *second, *first;

  if (unit->length == 0 || (unit->flags & UNIT_FROM_SPAN))
    return;
  /* Ends in a character below U+0800 (one byte, or two from a lead byte 110xxxxx): no
   * virama. */
  if ((guchar) end[-1] < 0x80 || (unit->length >= 2 && ((guchar) end[-2] & 0xE0) == 0xC0))
    return;
  virama = unit_prev_char (end);
  if (virama == text || !_dc_is_virama (unit_get_char (virama)))
    return;
  second = unit_prev_char (virama);
  if (second == text || !g_unichar_isalpha (unit_get_char (second)))
    return;
  first = unit_prev_char (second);
  if (!g_unichar_isalpha (unit_get_char (first)))
    return;
  {
    gsize virama_len = end - virama, second_len = virama - second;
    char saved[8];

    g_assert (virama_len <= sizeof saved);
    memcpy (saved, virama, virama_len);
    memmove (second + virama_len, second, second_len);
    memcpy (second, saved, virama_len);
  }
}

/* Whether @c is a Thai or Lao mark drawn above its consonant (tone marks, MAI HAN-AKAT,
 * the above vowels: HarfBuzz's Thai shaper's list), which a SARA AM's nikhahit is drawn
 * before. */
gboolean
_dc_is_thai_lao_above_mark (gunichar c)
{
  c &= ~0x80u; /* Lao mirrors Thai 0x80 higher */
  return c == 0x0E31 || (c >= 0x0E34 && c <= 0x0E37) || c == 0x0E3B || (c >= 0x0E47 && c <= 0x0E4E);
}

/* Whether @text (@length bytes) holds only such marks. */
static gboolean
is_above_marks (const char *text, guint length)
{
  if (length == 0)
    return FALSE;
  for (const char *p = text; p < text + length; p = g_utf8_next_char (p))
    if (!_dc_is_thai_lao_above_mark (unit_get_char (p)))
      return FALSE;
  return TRUE;
}

/* Whether the three bytes at @p are a Thai or Lao nikhahit (U+0E4D, U+0ECD). */
static inline gboolean
is_nikhahit (const guchar *p)
{
  return p[0] == 0xE0 && (p[1] | 0x02) == 0xBB && p[2] == 0x8D;
}

/* Whether the three bytes at @p are the SARA AA of the nikhahit at @nikhahit (U+0E32 after
 * U+0E4D, U+0EB2 after U+0ECD). */
static inline gboolean
is_its_sara_aa (const guchar *p, const guchar *nikhahit)
{
  return p[0] == 0xE0 && p[1] == nikhahit[1] - 1 && p[2] == 0xB2;
}

/* Thai and Lao SARA AM is drawn as a nikhahit and a SARA AA, the nikhahit before any tone
 * mark (น ํ ้ า for น้ำ), or in one glyph with it (Noto Sans Lao's ໍ້ in ນ້ຳ): the glyphs'
 * values read น ้ ำ again. AM's UTF-8 and the nikhahit's are three bytes, and AM's is AA's
 * with its last byte one more, so the nikhahit leaves its unit and the AA turns into AM
 * where it stands, after the marks. Returns whether any did. */
static gboolean
compose_sara_am (GString *pool, Unit *units, guint first, guint end)
{
  gboolean composed = FALSE;

  for (guint i = first; i < end; i++)
    {
      guchar *text = (guchar *) pool->str + units[i].start;

      if (units[i].flags & UNIT_FROM_SPAN)
        continue;
      for (guint at = 0; at + 3 <= units[i].length; at++)
        {
          guchar *aa = NULL;
          guint after = at + 3, j = i + 1;

          if (!is_nikhahit (text + at))
            continue;
          while (after + 3 <= units[i].length && is_above_marks ((const char *) text + after, 3))
            after += 3;
          if (after + 3 <= units[i].length)
            aa = is_its_sara_aa (text + after, text + at) ? text + after : NULL;
          else if (after == units[i].length)
            {
              while (j < end && !(units[j].flags & UNIT_FROM_SPAN)
                     && is_above_marks (unit_text (pool, &units[j]), units[j].length))
                j++;
              if (j < end && !(units[j].flags & UNIT_FROM_SPAN) && units[j].length >= 3
                  && is_its_sara_aa ((const guchar *) unit_text (pool, &units[j]), text + at))
                aa = (guchar *) unit_text (pool, &units[j]);
            }
          if (aa == NULL)
            continue;
          aa[2] = 0xB3;
          memmove (text + at, text + at + 3, units[i].length - at - 3);
          units[i].length -= 3;
          composed = TRUE;
        }
    }
  return composed;
}

/* The bytes of vowel signs before subscripts (_dc_is_vowel_sign_before_subscripts()) that
 * end @text (@length bytes). */
static gsize
trailing_signs (const char *text, gsize length)
{
  const char *end = text + length;

  while (end > text && _dc_is_vowel_sign_before_subscripts (unit_get_char (unit_prev_char (end))))
    end = unit_prev_char (end);
  return (text + length) - end;
}

/* The vowel signs at the end of unit @base (ಸೆ) and in the units after it, up to the
 * subscripts that follow them (್ಕ), go to the end of the last subscript, as Unicode orders
 * them. Returns whether any went. */
static gboolean
put_signs_after_subscripts (GString *pool, Unit *units, guint base, guint end)
{
  gsize in_base = trailing_signs (unit_text (pool, &units[base]), units[base].length);
  guint signs = base + 1, last;
  gsize joined;

  if (in_base == units[base].length)
    return FALSE; /* signs alone: no consonant of their own */
  while (signs < end && !(units[signs].flags & UNIT_FROM_SPAN) && units[signs].length > 0
         && trailing_signs (unit_text (pool, &units[signs]), units[signs].length)
                == units[signs].length)
    signs++;
  if (in_base == 0 && signs == base + 1)
    return FALSE;
  last = signs;
  while (last < end && !(units[last].flags & UNIT_FROM_SPAN) && units[last].length > 3
         && _dc_is_virama (unit_first (pool, &units[last]))
         && g_unichar_isalpha (unit_get_char (g_utf8_next_char (unit_text (pool, &units[last])))))
    last++;
  if (last == signs)
    return FALSE;
  last--;
  /* The last subscript's text, then the signs in order: one new stretch of the pool. */
  joined = pool->len;
  g_string_append_len (pool, pool->str + units[last].start, units[last].length);
  g_string_append_len (pool, pool->str + units[base].start + units[base].length - in_base,
                       (gssize) in_base);
  for (guint k = base + 1; k < signs; k++)
    {
      g_string_append_len (pool, pool->str + units[k].start, units[k].length);
      units[k].length = 0;
    }
  units[base].length -= (guint) in_base;
  units[last].start = (guint) joined;
  units[last].length = (guint) (pool->len - joined);
  return TRUE;
}

/* Indic reordering of the units [first, end) of one token, from the visual order glyphs
 * are drawn in to Unicode's. Returns whether anything moved. */
/* Whether a unit of [first, end) may hold a character the rules below look for: every
 * virama (combining class 9), vowel sign and RA lies from U+0800 on, outside the CJK,
 * Yi and Hangul blocks (U+2E80–U+A7FF, U+AC00–U+D7FF) and the forms from U+F900 on, and
 * of Thai and Lao (U+0E00–U+0EFF) only their viramas U+0E3A and U+0EBA are one, and their
 * nikhahits, for compose_sara_am(). Arabic, Hebrew, Latin, most Thai and CJK tokens need
 * none of the passes. */
static gboolean
may_hold_indic (const GString *pool, const Unit *units, guint first, guint end)
{
  for (guint i = first; i < end; i++)
    {
      const guchar *p = (const guchar *) unit_text (pool, &units[i]);
      const guchar *stop = p + units[i].length;

      for (; p < stop; p++)
        {
          gunichar c;

          if (*p < 0xE0)
            continue;
          if (*p >= 0xF0 || p + 2 >= stop || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
            return TRUE;
          c = ((gunichar) (p[0] & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
          if (!((c >= 0x2E80 && c <= 0xA7FF) || (c >= 0xAC00 && c <= 0xD7FF) || c >= 0xF900
                || (c >= 0x0E00 && c <= 0x0EFF && c != 0x0E3A && c != 0x0EBA
                    && (c & ~0x80u) != 0x0E4D)))
            return TRUE;
          p += 2;
        }
    }
  return FALSE;
}

gboolean
_dc_reorder_indic (GString *pool, Unit *units, guint first, guint end)
{
  gboolean moved = FALSE;

  if (!may_hold_indic (pool, units, first, end))
    return FALSE;
  moved = compose_sara_am (pool, units, first, end);
  for (guint i = first; i < end; i++)
    fix_conjunct_order (pool, &units[i]);

  /* A coeng RO or medial RA drawn before its consonant goes after it, and after the
   * subscripts (and medial YA) Unicode puts before it; a pre-base vowel drawn before it
   * then moves past them all, below. */
  for (guint i = first; i + 1 < end; i++)
    {
      guint j = i + 1;

      if ((units[i].flags & UNIT_FROM_SPAN) || (units[j].flags & UNIT_FROM_SPAN)
          || !is_pre_base_consonant (pool, &units[i])
          || !g_unichar_isalpha (unit_first (pool, &units[j])))
        continue;
      while (j + 1 < end && !(units[j + 1].flags & UNIT_FROM_SPAN)
             && ((_dc_is_virama (unit_first (pool, &units[j + 1])) && units[j + 1].length > 3
                  && !is_pre_base_consonant (pool, &units[j + 1]))
                 || unit_first (pool, &units[j + 1]) == 0x103B))
        j++;
      move_unit (units, i, j);
      moved = TRUE;
      i = j;
    }

  /* A mark drawn with no advance before the vowel sign it follows (ঁ before া in তাঁ). */
  for (guint i = first; i + 1 < end; i++)
    if (!(units[i].flags & UNIT_FROM_SPAN) && !(units[i + 1].flags & UNIT_FROM_SPAN)
        && (units[i].flags & UNIT_NO_ADVANCE) && unit_is (pool, &units[i], is_above_mark)
        && unit_is (pool, &units[i + 1], is_spacing_vowel_sign))
      {
        move_unit (units, i, i + 1);
        moved = TRUE;
        i++;
      }

  for (guint i = first; i + 1 < end; i++)
    {
      guint j;

      if ((units[i].flags & UNIT_FROM_SPAN) || unit_starts_below_indic (pool, &units[i])
          || !unit_is (pool, &units[i], _dc_is_pre_base_vowel))
        continue;
      j = i + 1;
      if ((units[j].flags & UNIT_FROM_SPAN) || !g_unichar_isalpha (unit_first (pool, &units[j])))
        continue;
      /* The whole consonant cluster: half forms end in a virama, post-base forms (ya-phala
       * ্য) begin with one, a nukta may follow. */
      while (j + 1 < end && !(units[j + 1].flags & UNIT_FROM_SPAN)
             && ((_dc_is_virama (unit_last (pool, &units[j]))
                  && g_unichar_isalpha (unit_first (pool, &units[j + 1])))
                 || (_dc_is_virama (unit_first (pool, &units[j + 1])) && units[j + 1].length > 3)
                 || unit_is (pool, &units[j + 1], is_nukta)
                 || is_myanmar_medial (unit_first (pool, &units[j + 1]))))
        j++;
      move_unit (units, i, j);
      moved = TRUE;
      /* A map that gives the second half of a split vowel the whole vowel (ৌ for the
       * glyph ৗ) already has the first half, drawn before the consonant, in it. */
      if (j + 1 < end && !(units[j + 1].flags & UNIT_FROM_SPAN))
        {
          g_autofree char *split = g_utf8_normalize (unit_text (pool, &units[j + 1]),
                                                     units[j + 1].length, G_NORMALIZE_NFD);

          if (split != NULL && g_utf8_get_char (split) == unit_first (pool, &units[j])
              && g_utf8_strlen (split, -1) >= 2)
            units[j].length = 0;
        }
      /* Khmer's split vowels have no decomposition: the glyph of the part after the
       * consonant (alone, or with it: ភៅ) stands for the whole vowel. */
      if (unit_first (pool, &units[j]) == 0x17C1
          && ((j + 1 < end && !(units[j + 1].flags & UNIT_FROM_SPAN)
               && _dc_is_khmer_split_vowel (unit_first (pool, &units[j + 1])))
              || _dc_is_khmer_split_vowel (unit_last (pool, &units[j - 1]))))
        units[j].length = 0;
      i = j;
    }

  /* Kannada and Telugu vowel signs drawn on a conjunct's first consonant, before the
   * subscripts of the others, go after them: the glyphs ಸ ಾ ್ಕ read ಸ್ಕಾ, రా ್ణ read ర్ణా. */
  for (guint i = first; i + 1 < end; i++)
    if (!(units[i].flags & UNIT_FROM_SPAN) && g_unichar_isalpha (unit_first (pool, &units[i])))
      moved |= put_signs_after_subscripts (pool, units, i, end);

  /* Myanmar's kinzi goes before the consonant it is drawn after (and a pre-base vowel
   * moved after that consonant). */
  for (guint i = first + 1; i < end; i++)
    {
      guint start = i - 1;

      if ((units[i].flags & UNIT_FROM_SPAN) || !is_kinzi (pool, &units[i]))
        continue;
      while (start > first && g_unichar_ismark (unit_first (pool, &units[start])))
        start--;
      if (!g_unichar_isalpha (unit_first (pool, &units[start])))
        continue;
      move_unit (units, i, start);
      moved = TRUE;
    }

  for (guint i = first + 1; i < end; i++)
    {
      guint start;
      gsize reph_length = 0;

      if ((units[i].flags & UNIT_FROM_SPAN) || unit_starts_below_indic (pool, &units[i]))
        continue;
      if (!((units[i].flags & UNIT_NO_ADVANCE) && is_reph (pool, &units[i]))
          && (reph_length = reph_with_marks (pool, &units[i])) == 0)
        continue;
      start = i - 1;
      while (start > first && g_unichar_ismark (unit_first (pool, &units[start])))
        start--;
      if (!g_unichar_isalpha (unit_first (pool, &units[start])))
        continue;
      while (start > first && _dc_is_virama (unit_last (pool, &units[start - 1])))
        start--;
      if (reph_length == 0)
        move_unit (units, i, start);
      else
        {
          /* The reph goes before the cluster, the vowel sign drawn with it stays. */
          gsize joined = pool->len;

          g_string_append_len (pool, pool->str + units[i].start, (gssize) reph_length);
          g_string_append_len (pool, pool->str + units[start].start, units[start].length);
          units[start].start = (guint) joined;
          units[start].length += (guint) reph_length;
          units[i].start += (guint) reph_length;
          units[i].length -= (guint) reph_length;
        }
      moved = TRUE;
    }
  return moved;
}
