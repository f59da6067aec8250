/* test-reorder.c: the shortcuts of a line's reordering give what the long way gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-reorder-bidi.c asks FriBidi for the levels of a line's pieces, cut at letters, and
 * keeps them by their types. These lines, of every type a unit may have, must come out
 * as FriBidi resolves the whole line: numbers and neutrals between letters of either
 * direction, at either end, after Arabic letters (W2), with terminators and separators
 * (W4, W5), trailing white space (L1), and types that keep a line whole.
 */

#include "config.h"

#include <fribidi.h>

#include "dc-reorder-units-private.h"

/* glyph_has_no_advance() answers as the floating point does, at every size of every unit,
 * for the shortest advance its whole-number test lets by (the closest call: the answer
 * only grows with the advance) and for every advance of a few sizes. */
static void
test_no_advance (void)
{
  for (guint scale = 0; scale < 4; scale++)
    for (int size = G_MININT16; size <= G_MAXINT16; size++)
      {
        DcGlyph glyph = { 0 };
        int shortest = MAX (16, size / 8 + 1);

        glyph.scale = scale;
        glyph.size_units = (gint16) size;
        for (int sign = -1; sign <= 1; sign += 2)
          for (int advance = shortest; advance <= MIN (shortest + 2, G_MAXINT16); advance++)
            {
              glyph.advance_units = (gint16) (sign * advance);
              g_assert_cmpint (glyph_has_no_advance (&glyph), ==,
                               fabs (dc_glyph_get_advance (&glyph))
                                   < 0.1 * MAX (dc_glyph_get_size (&glyph), 0.5f));
            }
        if (size % 997 == 0)
          for (int advance = G_MININT16; advance <= G_MAXINT16; advance++)
            {
              glyph.advance_units = (gint16) advance;
              g_assert_cmpint (glyph_has_no_advance (&glyph), ==,
                               fabs (dc_glyph_get_advance (&glyph))
                                   < 0.1 * MAX (dc_glyph_get_size (&glyph), 0.5f));
            }
      }
}

static const FriBidiCharType piece_types[] = {
  FRIBIDI_TYPE_LTR, FRIBIDI_TYPE_RTL, FRIBIDI_TYPE_AL, FRIBIDI_TYPE_EN, FRIBIDI_TYPE_AN,
  FRIBIDI_TYPE_ES,  FRIBIDI_TYPE_ET,  FRIBIDI_TYPE_CS, FRIBIDI_TYPE_WS, FRIBIDI_TYPE_ON,
};

/* Types no piece may hold: a line with one is resolved whole. */
static const FriBidiCharType whole_types[] = {
  FRIBIDI_TYPE_NSM, FRIBIDI_TYPE_BS,  FRIBIDI_TYPE_SS,  FRIBIDI_TYPE_LRE,
  FRIBIDI_TYPE_RLO, FRIBIDI_TYPE_PDF, FRIBIDI_TYPE_RLI, FRIBIDI_TYPE_PDI,
};

static void
check_line (DcReorderBidi *bidi, const FriBidiCharType *types, guint n, gboolean rtl)
{
  g_autofree FriBidiLevel *expected = g_new0 (FriBidiLevel, MAX (n, 1));
  g_autofree FriBidiLevel *got = g_new0 (FriBidiLevel, MAX (n, 1));
  FriBidiParType base = rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;

  g_assert_cmpint (fribidi_get_par_embedding_levels_ex (types, NULL, (FriBidiStrIndex) n, &base,
                                                        expected),
                   !=, 0);
  g_assert_true (_dc_reorder_bidi_levels (bidi, types, n, rtl, got));
  for (guint i = 0; i < n; i++)
    if (expected[i] != got[i])
      {
        g_autoptr (GString) line = g_string_new (NULL);

        for (guint k = 0; k < n; k++)
          g_string_append_printf (line, "%s%s", k > 0 ? " " : "",
                                  fribidi_get_bidi_type_name (types[k]));
        g_error ("%s paragraph, unit %u of [%s]: level %d, FriBidi says %d", rtl ? "RTL" : "LTR", i,
                 line->str, got[i], expected[i]);
      }
}

/* Lines that a cut at the wrong place gets wrong. */
static void
test_known_lines (void)
{
#define L FRIBIDI_TYPE_LTR
#define R FRIBIDI_TYPE_RTL
#define AL FRIBIDI_TYPE_AL
#define EN FRIBIDI_TYPE_EN
#define AN FRIBIDI_TYPE_AN
#define ES FRIBIDI_TYPE_ES
#define ET FRIBIDI_TYPE_ET
#define CS FRIBIDI_TYPE_CS
#define WS FRIBIDI_TYPE_WS
#define ON FRIBIDI_TYPE_ON
  static const FriBidiCharType lines[][12] = {
    /* An Arabic word, a space, a European number: W2 makes it Arabic. */
    { AL, AL, WS, EN, EN, WS, R, R, 0 },
    /* A number with a separator and a terminator after Hebrew. */
    { R, R, WS, EN, CS, EN, ET, WS, R, 0 },
    /* A Latin word among Hebrew ones, and its number. */
    { R, WS, L, L, WS, EN, WS, R, R, 0 },
    /* Neutrals at both ends of the line. */
    { ON, WS, R, R, WS, L, WS, ON, WS, WS, 0 },
    { EN, ES, EN, WS, AL, WS, AN, CS, AN, WS, 0 },
  };
#undef L
#undef R
#undef AL
#undef EN
#undef AN
#undef ES
#undef ET
#undef CS
#undef WS
#undef ON
  DcReorderBidi *bidi = _dc_reorder_bidi_new ();

  for (guint l = 0; l < G_N_ELEMENTS (lines); l++)
    {
      guint n = 0;

      while (n < G_N_ELEMENTS (lines[l]) && lines[l][n] != 0)
        n++;
      check_line (bidi, lines[l], n, TRUE);
      check_line (bidi, lines[l], n, FALSE);
    }
  _dc_reorder_bidi_free (bidi);
}

/* Random lines, most of them made of what right-to-left text is made of, many sharing
 * their pieces, some of them long ones, some with a type that keeps the line whole. */
static void
test_random_lines (void)
{
  DcReorderBidi *bidi = _dc_reorder_bidi_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (45);

  for (guint round = 0; round < 20000; round++)
    {
      guint n = (guint) g_rand_int_range (rand, 1, round % 10 == 0 ? 160 : 40);
      g_autofree FriBidiCharType *types = g_new (FriBidiCharType, n);
      /* Few kinds in a line make its pieces repeat, as a script's lines do. */
      FriBidiCharType palette[5];

      for (guint k = 0; k < G_N_ELEMENTS (palette); k++)
        palette[k] = piece_types[g_rand_int_range (rand, 0, G_N_ELEMENTS (piece_types))];
      for (guint i = 0; i < n; i++)
        types[i] = palette[g_rand_int_range (rand, 0, G_N_ELEMENTS (palette))];
      if (round % 7 == 0)
        types[g_rand_int_range (rand, 0, (gint32) n)] =
            whole_types[g_rand_int_range (rand, 0, G_N_ELEMENTS (whole_types))];
      check_line (bidi, types, n, round % 2 == 0);
    }
  _dc_reorder_bidi_free (bidi);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reorder/no-advance", test_no_advance);
  g_test_add_func ("/reorder/bidi/known-lines", test_known_lines);
  g_test_add_func ("/reorder/bidi/random-lines", test_random_lines);
  return g_test_run ();
}
