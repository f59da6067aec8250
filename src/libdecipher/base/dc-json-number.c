/* dc-json-number.c: a JSON writer's doubles, printf's digits without printf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-json-writer.c writes a double as "%.17g" does, or, in its compact layout, in the
 * fewest significant digits of 15, 16 and 17 that read back as the same double; a number
 * m / 2^k with k ≤ 48 (every coordinate and size a PDF gives, in single precision) it
 * writes as "%.17g" in both. A book's export writes millions of numbers, and printf, with
 * strtod to check the read-back, was a tenth of its time. Both are worked out here
 * exactly, in integers: value × 10^s is m × 5^s / 2^(k − s), whose quotient is the
 * digits and whose remainder against half says how printf rounds them; a shorter form
 * reads back exactly when it lies within half a gap of the neighbouring doubles. What
 * this cannot settle exactly (a tie, an exponent, a number out of range) is left to
 * printf. tests/test-json.c compares both with printf and strtod on many numbers.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-json-writer-private.h"

static const guint64 fives[] = { G_GUINT64_CONSTANT (1),
                                 G_GUINT64_CONSTANT (5),
                                 G_GUINT64_CONSTANT (25),
                                 G_GUINT64_CONSTANT (125),
                                 G_GUINT64_CONSTANT (625),
                                 G_GUINT64_CONSTANT (3125),
                                 G_GUINT64_CONSTANT (15625),
                                 G_GUINT64_CONSTANT (78125),
                                 G_GUINT64_CONSTANT (390625),
                                 G_GUINT64_CONSTANT (1953125),
                                 G_GUINT64_CONSTANT (9765625),
                                 G_GUINT64_CONSTANT (48828125),
                                 G_GUINT64_CONSTANT (244140625),
                                 G_GUINT64_CONSTANT (1220703125),
                                 G_GUINT64_CONSTANT (6103515625),
                                 G_GUINT64_CONSTANT (30517578125),
                                 G_GUINT64_CONSTANT (152587890625),
                                 G_GUINT64_CONSTANT (762939453125),
                                 G_GUINT64_CONSTANT (3814697265625),
                                 G_GUINT64_CONSTANT (19073486328125),
                                 G_GUINT64_CONSTANT (95367431640625),
                                 G_GUINT64_CONSTANT (476837158203125),
                                 G_GUINT64_CONSTANT (2384185791015625),
                                 G_GUINT64_CONSTANT (11920928955078125),
                                 G_GUINT64_CONSTANT (59604644775390625),
                                 G_GUINT64_CONSTANT (298023223876953125),
                                 G_GUINT64_CONSTANT (1490116119384765625),
                                 G_GUINT64_CONSTANT (7450580596923828125) };

static const guint64 tens[] = { G_GUINT64_CONSTANT (1),
                                G_GUINT64_CONSTANT (10),
                                G_GUINT64_CONSTANT (100),
                                G_GUINT64_CONSTANT (1000),
                                G_GUINT64_CONSTANT (10000),
                                G_GUINT64_CONSTANT (100000),
                                G_GUINT64_CONSTANT (1000000),
                                G_GUINT64_CONSTANT (10000000),
                                G_GUINT64_CONSTANT (100000000),
                                G_GUINT64_CONSTANT (1000000000),
                                G_GUINT64_CONSTANT (10000000000),
                                G_GUINT64_CONSTANT (100000000000),
                                G_GUINT64_CONSTANT (1000000000000),
                                G_GUINT64_CONSTANT (10000000000000),
                                G_GUINT64_CONSTANT (100000000000000),
                                G_GUINT64_CONSTANT (1000000000000000),
                                G_GUINT64_CONSTANT (10000000000000000),
                                G_GUINT64_CONSTANT (100000000000000000),
                                G_GUINT64_CONSTANT (1000000000000000000) };

/* A finite double in [1e-5, 1e17): m / 2^k, 2^52 ≤ m < 2^53. */
typedef struct
{
  guint64 m;
  int k;
  gboolean negative;
} Binary;

static gboolean
decompose (double value, Binary *binary)
{
  guint64 bits;
  int biased;

  if (!(fabs (value) >= 1e-5 && fabs (value) < 1e17))
    return FALSE;
  memcpy (&bits, &value, sizeof bits);
  biased = (int) ((bits >> 52) & 0x7ff);
  binary->m = (bits & ((G_GUINT64_CONSTANT (1) << 52) - 1)) | (G_GUINT64_CONSTANT (1) << 52);
  binary->k = 1075 - biased;
  binary->negative = (bits >> 63) != 0;
  return TRUE;
}

/* @digits (@n of them, no trailing zero) with the point after the digit of 10^@point,
 * as %g writes them without an exponent. */
static gsize
write_digits (gboolean negative, guint64 digits, int point, char *buffer)
{
  char text[24], *p = buffer;
  int n = 0;

  while (digits % 10 == 0)
    digits /= 10;
  for (guint64 rest = digits; rest > 0; rest /= 10)
    n++;
  for (int i = n - 1; i >= 0; i--, digits /= 10)
    text[i] = (char) ('0' + (int) (digits % 10));
  if (negative)
    *p++ = '-';
  if (point < 0)
    {
      *p++ = '0';
      *p++ = '.';
      for (int i = -1; i > point; i--)
        *p++ = '0';
      memcpy (p, text, n);
      p += n;
    }
  else
    {
      for (int i = 0; i <= point; i++)
        *p++ = i < n ? text[i] : '0';
      if (n > point + 1)
        {
          *p++ = '.';
          memcpy (p, text + point + 1, n - point - 1);
          p += n - point - 1;
        }
    }
  *p = '\0';
  return (gsize) (p - buffer);
}

/* value × 10^scale = q + r / b, b = 2^(k − scale), exactly: m × 5^scale is one product
 * of two 64-bit numbers for a scale up to 27. FALSE where it would not fit. */
static gboolean
cut (const Binary *binary, int scale, guint64 *q, unsigned __int128 *r, unsigned __int128 *b)
{
  unsigned __int128 a;
  int shift = binary->k - scale;

  if (scale < 0 || scale >= (int) G_N_ELEMENTS (fives) || shift > 120 || shift < -8)
    return FALSE;
  a = (unsigned __int128) binary->m * fives[scale];
  if (shift < 0)
    {
      a <<= -shift;
      shift = 0;
    }
  *b = (unsigned __int128) 1 << shift;
  *r = a & (*b - 1);
  a >>= shift;
  *q = (guint64) a;
  return a == *q;
}

/* "%.@precision g" of the number, rounded as printf rounds (to the nearest; a tie is
 * left to it), into @buffer; @round_trips: whether it reads back as the number, as
 * strtod reads. @point: the power of ten of its first digit, or a guess within one.
 * 0 where it is left to printf. */
static gsize
format_precision (const Binary *binary, int precision, int *point, gboolean *round_trips,
                  char *buffer)
{
  guint64 q;
  unsigned __int128 r, b;
  gboolean up;

  for (int tries = 0;; tries++)
    {
      if (tries == 3 || !cut (binary, precision - 1 - *point, &q, &r, &b))
        return 0;
      if (q >= tens[precision])
        (*point)++;
      else if (q < tens[precision - 1])
        (*point)--;
      else
        break;
    }
  /* Exactly halfway: printf's own rounding. */
  if (b > 1 && r == b / 2)
    return 0;
  up = r > b / 2;
  /* It reads back within half the gap to the neighbouring doubles, 2^-(k + 1) (half that
   * below a power of two), which at this scale is 5^scale / 2b (or / 4b); the distance
   * is r / b or (b − r) / b. */
  {
    unsigned __int128 distance = up ? b - r : r;
    unsigned __int128 times = !up && binary->m == G_GUINT64_CONSTANT (1) << 52 ? 4 : 2;

    *round_trips = distance * times < fives[precision - 1 - *point];
  }
  q += up;
  {
    int written_point = *point;

    if (q == tens[precision])
      {
        /* 99…9 rounds up to 10…0: one more digit before the point. */
        q = 1;
        written_point++;
      }
    /* %g writes an exponent outside these, and drops trailing zeros. */
    if (written_point < -4 || written_point >= precision)
      return 0;
    return write_digits (binary->negative, q, written_point, buffer);
  }
}

/* floor (log10 (m / 2^k)), or one less: log10 (2) ≈ 1233 / 4096. */
static int
guess_point (const Binary *binary)
{
  int exponent = 52 - binary->k;

  return exponent >= 0 ? (exponent * 1233) >> 12 : -((-exponent * 1233 + 4095) >> 12);
}

/**
 * _dc_json_format_exact:
 * @buffer: at least 32 bytes
 *
 * "%.17g" of @value where @value is m / 2^k (m odd, or k = 0) with k ≤ 48 and m × 5^k
 * within 128 bits, which the writer writes so in either layout, and is written without
 * an exponent.
 *
 * Returns: the length written into @buffer, or 0 to leave @value to other means
 */
gsize
_dc_json_format_exact (double value, char *buffer)
{
  Binary binary;
  guint64 m;
  int k, point;
  unsigned __int128 five_to_k;
  gboolean round_trips;

  if (value == 0 || !decompose (value, &binary))
    return 0;
  m = binary.m;
  k = binary.k;
  if (k > 0)
    {
      int zeros = MIN (__builtin_ctzll (m), k);

      m >>= zeros;
      k -= zeros;
    }
  if (k < 0 || k > 48)
    return 0;
  /* At least 1, with k <= 19: the integer part and the k digits of the fraction (m mod
   * 2^k times 5^k, below 10^k) fit 64 bits each; at most 17 digits in all are printed as
   * they are, with no rounding and none of the products below. Most coordinates. */
  if (k <= 19 && (m >> k) > 0)
    {
      guint64 whole = m >> k, fraction = (m & ((G_GUINT64_CONSTANT (1) << k) - 1)) * fives[k];
      int n_whole = 0, n_fraction = fraction == 0 ? 0 : k;
      char *p = buffer;

      for (guint64 rest = whole; rest > 0; rest /= 10)
        n_whole++;
      while (n_fraction > 0 && fraction % 10 == 0)
        {
          fraction /= 10;
          n_fraction--;
        }
      if (n_whole + n_fraction <= 17)
        {
          if (binary.negative)
            *p++ = '-';
          p = dc_json_writer_put_uint (p, whole);
          if (n_fraction > 0)
            {
              *p++ = '.';
              for (int i = n_fraction - 1; i >= 0; i--, fraction /= 10)
                p[i] = (char) ('0' + (int) (fraction % 10));
              p += n_fraction;
            }
          *p = '\0';
          return (gsize) (p - buffer);
        }
    }
  five_to_k = k < (int) G_N_ELEMENTS (fives) ? fives[k]
                                             : (unsigned __int128) fives[G_N_ELEMENTS (fives) - 1]
                                                   * fives[k - (G_N_ELEMENTS (fives) - 1)];
  /* m × 5^k within 128 bits: m < 2^53 times each 64-bit half of 5^k, in plain products
   * (no compiler's overflow builtin, which some want a runtime library for). */
  {
    unsigned __int128 high = (unsigned __int128) m * (guint64) (five_to_k >> 64);
    unsigned __int128 low = (unsigned __int128) m * (guint64) five_to_k;

    if ((high >> 64) != 0 || (high << 64) + low < low)
      return 0;
  }
  point = guess_point (&binary);
  return format_precision (&binary, 17, &point, &round_trips, buffer);
}

/**
 * _dc_json_format_double:
 * @shortest: the fewest significant digits, 15 to 17, that read back as @value (fewer
 *   than 15 that do are what "%.15g" writes: a double holds any 15 digits); else 17
 * @buffer: at least 32 bytes
 *
 * "%.15g", "%.16g" or "%.17g" of @value as printf writes them (g_ascii_formatd()),
 * where they are written without an exponent.
 *
 * Returns: the length written into @buffer, or 0 to leave @value to printf
 */
gsize
_dc_json_format_double (double value, gboolean shortest, char *buffer)
{
  Binary binary;
  int point;
  gsize length = 0;
  gboolean round_trips = FALSE;

  if (value == 0 || !decompose (value, &binary))
    return 0;
  point = guess_point (&binary);
  for (int precision = shortest ? 15 : 17; precision <= 17 && !round_trips; precision++)
    {
      length = format_precision (&binary, precision, &point, &round_trips, buffer);
      if (length == 0)
        return 0;
    }
  return length;
}
