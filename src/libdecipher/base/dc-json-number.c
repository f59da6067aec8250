/* dc-json-number.c: a JSON writer's doubles, printf's digits without printf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-json-writer.c writes a double as "%.17g" does, or, in its compact layout, in the
 * fewest significant digits of 15, 16 and 17 that read back as the same double. A book's
 * export writes millions of numbers, and printf, with strtod to check the read-back, was
 * a tenth of its time. Both are worked out here exactly, in integers: a double is
 * m / 2^k, so its digits are those of m × 5^k, and whether a shorter form reads back is
 * whether it lies within half a unit in the last place. What either cannot settle
 * exactly (a tie, an exponent, a number out of range) is left to printf.
 * tests/test-json.c compares them with printf and strtod on many numbers.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-json-writer-private.h"

/* @digits (@n of them, no trailing zero) with the point after the digit of 10^@point,
 * as %g writes them without an exponent. */
static gsize
write_digits (gboolean negative, const char *digits, int n, int point, char *buffer)
{
  char *p = buffer;

  if (negative)
    *p++ = '-';
  if (point < 0)
    {
      *p++ = '0';
      *p++ = '.';
      for (int i = -1; i > point; i--)
        *p++ = '0';
      memcpy (p, digits, n);
      p += n;
    }
  else
    {
      for (int i = 0; i <= point; i++)
        *p++ = i < n ? digits[i] : '0';
      if (n > point + 1)
        {
          *p++ = '.';
          memcpy (p, digits + point + 1, n - point - 1);
          p += n - point - 1;
        }
    }
  *p = '\0';
  return (gsize) (p - buffer);
}

/**
 * _dc_json_format_exact:
 * @buffer: at least 32 bytes
 *
 * g_ascii_dtostr()'s "%.17g" of @value, where @value is m / 2^k with m × 5^k within 128
 * bits (every coordinate and size a PDF gives, in single precision) and is written
 * without an exponent.
 *
 * Returns: the length written into @buffer, or 0 to leave @value to other means
 */
gsize
_dc_json_format_exact (double value, char *buffer)
{
  unsigned __int128 n;
  char digits[48];
  guint64 m;
  int exponent, k, length = 0, sig, point;

  if (value == 0 || !isfinite (value))
    return 0;
  m = (guint64) ldexp (frexp (fabs (value), &exponent), 53);
  k = 53 - exponent;
  while (k > 0 && (m & 1) == 0)
    {
      m >>= 1;
      k--;
    }
  if (k < 0 || k > 48)
    return 0;
  n = m;
  for (int i = 0; i < k; i++)
    {
      if (n > ((unsigned __int128) -1) / 5)
        return 0;
      n *= 5;
    }
  /* value = n / 10^k exactly: n's digits, most significant first. */
  {
    char reversed[48];

    /* 128-bit division is a call; most numbers fit in 64 bits. */
    while (n > G_MAXUINT64)
      {
        reversed[length++] = (char) ('0' + (int) (n % 10));
        n /= 10;
      }
    for (guint64 small = (guint64) n;;)
      {
        reversed[length++] = (char) ('0' + (int) (small % 10));
        small /= 10;
        if (small == 0)
          break;
      }
    for (int i = 0; i < length; i++)
      digits[i] = reversed[length - 1 - i];
  }
  /* The first digit's power of ten. */
  point = length - k - 1;
  sig = length;
  if (sig > 17)
    {
      gboolean rest = FALSE;

      for (int i = 18; i < length; i++)
        rest |= digits[i] != '0';
      /* An exact tie is left to printf, whose rounding of it is its own. */
      if (digits[17] == '5' && !rest)
        return 0;
      sig = 17;
      if (digits[17] >= '5')
        {
          int i = 16;

          while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
          if (i < 0)
            {
              /* 99…9 rounds up to 10…0: one more digit before the point. */
              digits[0] = '1';
              for (int j = 1; j < 17; j++)
                digits[j] = '0';
              point++;
            }
          else
            digits[i]++;
        }
    }
  /* %g writes an exponent outside these, and drops trailing zeros. */
  if (point < -4 || point >= 17)
    return 0;
  while (sig > 0 && digits[sig - 1] == '0')
    sig--;
  return write_digits (value < 0, digits, sig, point, buffer);
}

static const guint64 powers_of_ten[] = { G_GUINT64_CONSTANT (1),
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
                                         G_GUINT64_CONSTANT (100000000000000000) };

/* A double m / 2^k (2^52 ≤ m < 2^53) cut to @precision significant digits: as a whole
 * number scaled by 10^scale, its digits q and the rest r of b = 2^(k − scale), for
 * which value × 10^scale = q + r / b. */
typedef struct
{
  guint64 m;
  int k;
  int scale;
  guint64 q;
  unsigned __int128 r, b;
} Cut;

/* floor (value × 10^scale), exactly: m × 5^scale fits in 128 bits for a scale up to 20,
 * and the shift stays within them. FALSE where it would not. */
static gboolean
cut (Cut *c, int scale)
{
  unsigned __int128 a = c->m;
  int shift = c->k - scale;

  if (scale < 0 || scale > 20 || shift > 120 || shift < -8)
    return FALSE;
  for (int i = 0; i < scale; i++)
    a *= 5;
  c->scale = scale;
  if (shift < 0)
    {
      a <<= -shift;
      shift = 0;
    }
  c->b = (unsigned __int128) 1 << shift;
  c->r = a & (c->b - 1);
  a >>= shift;
  c->q = (guint64) a;
  return a == c->q;
}

/* "%.@precision g" of @value, rounded as printf rounds (to the nearest; ties are left
 * to it), into @buffer; @round_trips: whether it reads back as @value, as strtod reads.
 * 0 where it is left to printf. */
static gsize
format_precision (double value, int precision, gboolean *round_trips, char *buffer)
{
  Cut c;
  int exponent, point;
  guint64 q, five_to_scale = 1;
  gboolean up;
  char digits[24];
  int n = 0;

  c.m = (guint64) ldexp (frexp (fabs (value), &exponent), 53);
  c.k = 53 - exponent;
  /* The first digit's power of ten: a guess, then made sure of in integers. */
  point = (int) floor (log10 (fabs (value)));
  for (int tries = 0;; tries++)
    {
      if (tries == 3 || !cut (&c, precision - 1 - point))
        return 0;
      if (c.q >= powers_of_ten[precision])
        point++;
      else if (c.q < powers_of_ten[precision - 1])
        point--;
      else
        break;
    }
  /* Exactly halfway: printf's own rounding. */
  if (c.b > 1 && c.r == c.b / 2)
    return 0;
  up = c.r > c.b / 2;
  q = c.q + up;
  for (int i = 0; i < c.scale; i++)
    five_to_scale *= 5;
  /* It reads back within half a gap to the neighbouring doubles, 2^-(k + 1) (half
   * that below a power of two), which at this scale is 5^scale / 2b (or / 4b); the
   * distance is r / b or (b − r) / b. */
  {
    unsigned __int128 distance = up ? c.b - c.r : c.r;
    unsigned __int128 times = !up && c.m == G_GUINT64_CONSTANT (1) << 52 ? 4 : 2;

    *round_trips = distance * times < five_to_scale;
  }
  if (q == powers_of_ten[precision])
    {
      /* 99…9 rounds up to 10…0: one more digit before the point. */
      q = 1;
      point++;
    }
  /* %g writes an exponent outside these, and drops trailing zeros. */
  if (point < -4 || point >= precision)
    return 0;
  while (q % 10 == 0)
    q /= 10;
  {
    char reversed[24];

    for (; q > 0; q /= 10)
      reversed[n++] = (char) ('0' + (int) (q % 10));
    for (int i = 0; i < n; i++)
      digits[i] = reversed[n - 1 - i];
  }
  return write_digits (value < 0, digits, n, point, buffer);
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
  gsize length = 0;
  gboolean round_trips = FALSE;

  if (value == 0 || !isfinite (value) || fabs (value) < 1e-5 || fabs (value) >= 1e17)
    return 0;
  for (int precision = shortest ? 15 : 17; precision <= 17 && !round_trips; precision++)
    {
      length = format_precision (value, precision, &round_trips, buffer);
      if (length == 0)
        return 0;
    }
  return length;
}
