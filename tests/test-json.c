/* test-json.c: what dc_json_check_text() lets through to json-glib, and the writer that
 * writes JSON as dc_json_generate() does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-json-writer-private.h"
#include "decipher.h"

typedef struct
{
  const char *text;
  DcJsonText shape;
  gsize offset; /* where it stops being JSON; the length for DC_JSON_TEXT_ONE_VALUE */
} Case;

static void
check (const char *text, gsize length, DcJsonText shape, gsize offset)
{
  g_autofree char *escaped = g_strescape (text, NULL);
  gsize got_offset = G_MAXSIZE;

  g_test_message ("%s", escaped);
  g_assert_cmpint (dc_json_check_text (text, length, 4, &got_offset), ==, shape);
  g_assert_cmpuint (got_offset, ==, offset);
  /* The offset is optional. */
  g_assert_cmpint (dc_json_check_text (text, length, 4, NULL), ==, shape);
}

static void
test_shapes (void)
{
  static const Case cases[] = {
    { "", DC_JSON_TEXT_ONE_VALUE, 0 },
    { " \r\n\t", DC_JSON_TEXT_ONE_VALUE, 4 },
    { "{}", DC_JSON_TEXT_ONE_VALUE, 2 },
    { " [1, -2.5e+3, true, null, \"]}\\\"{\"] \n", DC_JSON_TEXT_ONE_VALUE, 36 },
    { "\"just a string\"", DC_JSON_TEXT_ONE_VALUE, 15 },
    { "42", DC_JSON_TEXT_ONE_VALUE, 2 },
    { "null", DC_JSON_TEXT_ONE_VALUE, 4 },
    { "[false,true]", DC_JSON_TEXT_ONE_VALUE, 12 },
    /* Its digits are json-glib's to check. */
    { "[-1.2.3e]", DC_JSON_TEXT_ONE_VALUE, 9 },
    { "\xEF\xBB\xBF{}", DC_JSON_TEXT_ONE_VALUE, 5 },
    { "[[[[1]]]]", DC_JSON_TEXT_ONE_VALUE, 9 },
    /* Syntax errors inside the value are json-glib's to report. */
    { "{\"a\" 1,]", DC_JSON_TEXT_ONE_VALUE, 8 },
    { "[\"unterminated", DC_JSON_TEXT_ONE_VALUE, 14 },
    { "\"ends in a backslash\\", DC_JSON_TEXT_ONE_VALUE, 21 },

    /* json-glib takes the last of several values and leaks the others. */
    { "{}[]", DC_JSON_TEXT_MORE, 2 },
    { "{} {}", DC_JSON_TEXT_MORE, 3 },
    { "{\"a\":{}}\n{\"b\":[]}", DC_JSON_TEXT_MORE, 9 },
    { "1 2", DC_JSON_TEXT_MORE, 2 },
    { "1{}", DC_JSON_TEXT_MORE, 1 },
    { "\"a\"\"b\"", DC_JSON_TEXT_MORE, 3 },
    { "{}]", DC_JSON_TEXT_MORE, 2 },
    { "{}\xEF\xBB\xBF", DC_JSON_TEXT_MORE, 2 },

    /* It reads these too; a bracket or a value could hide in them. */
    { "{}/*x*/{}", DC_JSON_TEXT_MORE, 2 },
    { "[1 /* ] */]", DC_JSON_TEXT_NOT_JSON, 3 },
    { "# note\n{}", DC_JSON_TEXT_NOT_JSON, 0 },
    { "['}']", DC_JSON_TEXT_NOT_JSON, 1 },
    { "var a = {};", DC_JSON_TEXT_NOT_JSON, 0 },
    { "[1, tru]", DC_JSON_TEXT_NOT_JSON, 4 },
    { "nul", DC_JSON_TEXT_NOT_JSON, 0 },
    { "this is not json", DC_JSON_TEXT_NOT_JSON, 0 },
    { "[a_b]", DC_JSON_TEXT_NOT_JSON, 1 },
    { "]", DC_JSON_TEXT_NOT_JSON, 0 },
    { ":", DC_JSON_TEXT_NOT_JSON, 0 },
    { "[\xD0\xB0]", DC_JSON_TEXT_NOT_JSON, 1 },
    { "\xEF\xBB{}", DC_JSON_TEXT_NOT_JSON, 0 },

    /* Escapes: JSON's own only, and surrogates in pairs. json-glib would take the others,
     * putting what is not UTF-8 into a string, and leaks on some. */
    { "[\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"]", DC_JSON_TEXT_ONE_VALUE, 27 },
    { "\"\\u0430\\u00e9\\uD83D\\uDE00\\u0001\"", DC_JSON_TEXT_ONE_VALUE, 32 },
    /* json-glib ends the string at U+0000: {"cmd":"status\u0000x"} would run status. */
    { "\"\\u0430\\u0000\"", DC_JSON_TEXT_NUL, 0 },
    { "{\"cmd\": \"status\\u0000x\"}", DC_JSON_TEXT_NUL, 8 },
    { "{\"a\\u0000\": 1}", DC_JSON_TEXT_NUL, 1 },
    { "[\"\\\\u0000\"]", DC_JSON_TEXT_ONE_VALUE, 11 },
    { "[\"\\q\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"\\uZZZZ\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"\\u12\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"ab\\ud800\"]", DC_JSON_TEXT_NOT_JSON, 4 },
    { "[\"\\ud800x\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"\\ud800\\u0041\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"\\udc00\\ud800\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "[\"\\ud800\\udc0\"]", DC_JSON_TEXT_NOT_JSON, 2 },
    { "{\"a\\ud800\": 1}", DC_JSON_TEXT_NOT_JSON, 3 },
    { "[\"\\", DC_JSON_TEXT_ONE_VALUE, 3 },
    { "[\"\\u00", DC_JSON_TEXT_NOT_JSON, 2 },

    /* The limit is 4 here. */
    { "[[[[[1]]]]]", DC_JSON_TEXT_TOO_DEEP, 4 },
    { "{\"a\":[{\"b\":[{}]}]}", DC_JSON_TEXT_TOO_DEEP, 12 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check (cases[i].text, strlen (cases[i].text), cases[i].shape, cases[i].offset);

  /* The length counts, not a nul: what follows it is not looked at. */
  check ("{}{}", 2, DC_JSON_TEXT_ONE_VALUE, 2);
  check ("{}\0{}", 5, DC_JSON_TEXT_MORE, 2);
  check ("[\"\0\"]", 5, DC_JSON_TEXT_NUL, 1);
  check ("[\"a\"\0]", 6, DC_JSON_TEXT_NOT_JSON, 4);
}

/* Strings as a PDF may give them: controls, DEL, C1 controls, quotes, bytes that are not
 * UTF-8, and numbers of every kind a page gives. */
static const char *const strings[] = {
  "",
  "plain",
  "a\"b\\c/d",
  "\b\f\n\r\t\x01\x1e\x1f\x7f",
  "C1: \xc2\x85 \xc2\x9f, not C1: \xc2\xa0 \xc3\xa9",
  "bad: \xff \xc2 \xe2\x82 end",
  "\xef\xbf\xbd Ѥ 日本 𝔸",
  /* Just inside and just outside UTF-8, each alone: the writer's quick check must agree
   * with g_utf8_validate() on every edge. */
  "\xc2\xa0\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
  "overlong \xc0\x80 \xc1\xbf \xe0\x9f\xbf \xf0\x8f\xbf\xbf",
  "surrogate \xed\xa0\x80, past U+10FFFF \xf4\x90\x80\x80 \xf5\x80\x80\x80",
  "cut \xe2\x82",
  "stray \x80 continuation",
};
static const double doubles[] = {
  0,     -0.0, 1,    -1,   0.1,   1.0 / 3, 12.5, 72.0f,  595.276f,      841.89f, 1e-5,
  1e-4f, 1e16, 1e17, 1e20, 1e300, -2.5e-8, 0.3f, 1e-320, 123456789.125, NAN,     INFINITY,
};

/* The same values through a json-glib tree and dc_json_generate(). */
static char *
generate_tree (void)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "strings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    json_builder_add_string_value (builder, strings[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "numbers");
  json_builder_begin_array (builder);
  /* Twice: the writer keeps the numbers it wrote lately. */
  for (guint i = 0; i < 2 * G_N_ELEMENTS (doubles); i++)
    if (isfinite (doubles[i % G_N_ELEMENTS (doubles)]))
      json_builder_add_double_value (builder, doubles[i % G_N_ELEMENTS (doubles)]);
    else
      json_builder_add_null_value (builder);
  json_builder_add_int_value (builder, G_MININT64);
  json_builder_add_int_value (builder, 0);
  json_builder_add_int_value (builder, 4294967296);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "empty_array");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "empty_object");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "nested");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "null");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "yes");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return dc_json_generate (root, TRUE, NULL);
}

static void
write_values (DcJsonWriter *w)
{
  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_begin_array (w, "strings");
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    dc_json_writer_string (w, NULL, strings[i]);
  dc_json_writer_end_array (w);
  dc_json_writer_begin_array (w, "numbers");
  for (guint i = 0; i < 2 * G_N_ELEMENTS (doubles); i++)
    dc_json_writer_double (w, NULL, doubles[i % G_N_ELEMENTS (doubles)]);
  dc_json_writer_int (w, NULL, G_MININT64);
  dc_json_writer_int (w, NULL, 0);
  dc_json_writer_int (w, NULL, 4294967296);
  dc_json_writer_end_array (w);
  dc_json_writer_begin_array (w, "empty_array");
  dc_json_writer_end_array (w);
  dc_json_writer_begin_object (w, "empty_object");
  dc_json_writer_end_object (w);
  dc_json_writer_begin_array (w, "nested");
  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_null (w, "null");
  dc_json_writer_boolean (w, "yes", TRUE);
  dc_json_writer_end_object (w);
  dc_json_writer_begin_array (w, NULL);
  dc_json_writer_end_array (w);
  dc_json_writer_end_array (w);
  dc_json_writer_end_object (w);
}

/* A number json-glib 1.6 writes as it is not JSON ("1e+20.0", "inf"): the writer
 * writes JSON ("1e+20", null); everything else the same bytes. */
static void
test_writer (void)
{
  g_autofree char *expected = generate_tree ();
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) tree_text = g_string_new (expected);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  DcJsonWriter w;

  dc_json_writer_init (&w, out, 0);
  write_values (&w);
  /* json-glib 1.6 and 1.8 differ on exponents alone. */
  g_string_replace (tree_text, "e+17.0", "e+17", 0);
  g_string_replace (tree_text, "e+20.0", "e+20", 0);
  g_assert_cmpstr (out->str, ==, tree_text->str);
  g_assert_true (json_parser_load_from_data (parser, out->str, (gssize) out->len, &error));
  g_assert_no_error (error);
}

/* The lines layout: the same values, read back (numbers in their shortest form read
 * back as the same doubles), each member of the root on a line of its own, compact
 * within. */
static void
test_writer_lines (void)
{
  g_autofree char *expected = generate_tree ();
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *read_back = NULL;
  g_auto (GStrv) lines = NULL;
  DcJsonWriter w;

  dc_json_writer_init_lines (&w, out, 0, 2);
  write_values (&w);
  g_assert_true (json_parser_load_from_data (parser, out->str, (gssize) out->len, &error));
  g_assert_no_error (error);
  /* json-glib writes both trees, with its own spelling of exponents. */
  read_back = dc_json_generate (json_parser_get_root (parser), TRUE, NULL);
  g_assert_cmpstr (read_back, ==, expected);

  lines = g_strsplit (out->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  g_assert_cmpstr (lines[0], ==, "{");
  g_assert_true (g_str_has_prefix (lines[2], "  \"numbers\" : [0.0,-0.0,1.0,-1.0,0.1,"
                                             "0.3333333333333333,12.5,72.0,"));
  g_assert_cmpstr (lines[3], ==, "  \"empty_array\" : [],");
  g_assert_cmpstr (lines[4], ==, "  \"empty_object\" : {},");
  g_assert_cmpstr (lines[5], ==, "  \"nested\" : [{\"null\":null,\"yes\":true},[]]");
  g_assert_cmpstr (lines[6], ==, "}");
}

/* A string escaped once (dc_json_writer_escape()) and written as it is reads as the
 * same string written by dc_json_writer_string(), NULL as null. */
static void
test_writer_escaped (void)
{
  for (guint i = 0; i <= G_N_ELEMENTS (strings); i++)
    {
      const char *text = i < G_N_ELEMENTS (strings) ? strings[i] : NULL;
      g_autofree char *json = dc_json_writer_escape (text);
      g_autoptr (GString) direct = g_string_new (NULL);
      g_autoptr (GString) escaped = g_string_new (NULL);
      DcJsonWriter w;

      dc_json_writer_init (&w, direct, 0);
      dc_json_writer_begin_object (&w, NULL);
      dc_json_writer_string (&w, "provenance", text);
      dc_json_writer_end_object (&w);
      dc_json_writer_init (&w, escaped, 0);
      dc_json_writer_begin_object (&w, NULL);
      dc_json_writer_json (&w, "provenance", json, strlen (json));
      dc_json_writer_end_object (&w);
      g_assert_cmpstr (escaped->str, ==, direct->str);
    }
}

/* Values another writer wrote into a container, at its level + 1, spliced in. */
static void
test_writer_parts (void)
{
  g_autoptr (GString) whole = g_string_new (NULL);
  g_autoptr (GString) parts = g_string_new (NULL);
  DcJsonWriter w, part;

  dc_json_writer_init (&w, whole, 0);
  dc_json_writer_begin_object (&w, NULL);
  dc_json_writer_begin_array (&w, "pages");
  for (int i = 0; i < 3; i++)
    {
      dc_json_writer_begin_object (&w, NULL);
      dc_json_writer_int (&w, "page", i + 1);
      dc_json_writer_end_object (&w);
    }
  dc_json_writer_end_array (&w);
  dc_json_writer_end_object (&w);

  dc_json_writer_init (&w, parts, 0);
  dc_json_writer_begin_object (&w, NULL);
  dc_json_writer_begin_array (&w, "pages");
  for (int i = 0; i < 3; i++)
    {
      g_string_append (parts, dc_json_writer_separator (i == 0));
      dc_json_writer_init (&part, parts, 2);
      dc_json_writer_begin_object (&part, NULL);
      dc_json_writer_int (&part, "page", i + 1);
      dc_json_writer_end_object (&part);
    }
  dc_json_writer_set_filled (&w);
  dc_json_writer_end_array (&w);
  dc_json_writer_end_object (&w);
  g_assert_cmpstr (parts->str, ==, whole->str);
  g_assert_cmpstr (whole->str, ==,
                   "{\n  \"pages\" : [\n    {\n      \"page\" : 1\n    },\n    {\n      "
                   "\"page\" : 2\n    },\n    {\n      \"page\" : 3\n    }\n  ]\n}");
}

/* printf's "%.17g", or the fewest of 15, 16 and 17 significant digits that strtod reads
 * back as @value: what dc-json-number.c works out without them. */
static char *
printf_digits (double value, gboolean shortest)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (int precision = shortest ? 15 : 17; precision < 17; precision++)
    {
      g_autofree char *format = g_strdup_printf ("%%.%dg", precision);

      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        return g_strdup (buffer);
    }
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.17g", value));
}

/* The numbers the writer writes digit for digit ("%.17g") in either layout: m / 2^k (m
 * odd, or k = 0) with k ≤ 48 and m × 5^k within 128 bits. */
static gboolean
written_exactly (double value)
{
  unsigned __int128 n;
  guint64 m;
  int exponent, k;

  if (value == 0 || !isfinite (value))
    return FALSE;
  m = (guint64) ldexp (frexp (fabs (value), &exponent), 53);
  k = 53 - exponent;
  while (k > 0 && (m & 1) == 0)
    {
      m >>= 1;
      k--;
    }
  if (k < 0 || k > 48)
    return FALSE;
  n = m;
  for (int i = 0; i < k; i++)
    {
      if (n > ((unsigned __int128) -1) / 5)
        return FALSE;
      n *= 5;
    }
  return TRUE;
}

/* Whether @value, written out in full (up to 61 digits), ends in a 5 just after its
 * 17th significant digit: a tie, which printf rounds to even. */
static gboolean
tie_at_17 (double value)
{
  char text[128];
  const char *digits = g_ascii_formatd (text, sizeof text, "%.60e", fabs (value));
  const char *e = strchr (digits, 'e');
  g_autoptr (GString) significant = g_string_new (NULL);

  for (const char *p = digits; p < e; p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (significant, *p);
  g_assert_cmpuint (significant->len, ==, 61);
  if (significant->str[17] != '5')
    return FALSE;
  for (guint i = 18; i < significant->len; i++)
    if (significant->str[i] != '0')
      return FALSE;
  return TRUE;
}

typedef struct
{
  guint compared, left, exact, exact_left;
} NumberCheck;

static void
check_number (NumberCheck *check, double value)
{
  for (int shortest = 0; shortest < 2; shortest++)
    {
      char buffer[64];
      gsize length = _dc_json_format_double (value, shortest, buffer);
      g_autofree char *expected = printf_digits (value, shortest);

      check->compared++;
      if (length == 0)
        {
          check->left++;
          continue;
        }
      g_assert_cmpuint (length, ==, strlen (buffer));
      if (strcmp (buffer, expected) != 0)
        g_error ("%.17g (%a): %s, printf %s", value, value, buffer, expected);
    }
  /* Which numbers are written digit for digit decides between two forms: it must not
   * move. */
  {
    char buffer[64];
    gsize length = _dc_json_format_exact (value, buffer);
    g_autofree char *expected = printf_digits (value, FALSE);

    if (!written_exactly (value))
      g_assert_cmpuint (length, ==, 0);
    else if (length == 0)
      {
        /* An exponent, or a tie printf rounds its own way. */
        check->exact_left++;
        g_assert_true (strchr (expected, 'e') != NULL || tie_at_17 (value));
      }
    else
      {
        check->exact++;
        g_assert_cmpstr (buffer, ==, expected);
      }
  }
}

/* Doubles of every kind an export writes and more, each with its neighbours: ratios
 * (tab-scores, confidences), single-precision coordinates and their sums, decimals of 15
 * to 17 digits (where a shorter form starts or stops reading back), numbers next to
 * powers of ten (where rounding adds a digit) and random bits. */
static void
test_writer_numbers (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (39);
  NumberCheck check = { 0 };
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  for (int a = 1; a <= 200; a++)
    for (int b = 1; b <= 60; b++)
      {
        double ratio = (double) a / b;

        g_array_append_val (values, ratio);
      }
  for (guint i = 0; i < 20000; i++)
    {
      float x = (float) g_rand_double_range (rand, 0, 1000);
      float y = (float) g_rand_double_range (rand, 0, 50);
      double sum = (double) x + y, product = (double) x * 0.01, half = x / 2.0;

      g_array_append_val (values, sum);
      g_array_append_val (values, product);
      g_array_append_val (values, half);
    }
  for (guint i = 0; i < 20000; i++)
    {
      char text[40];
      int digits = g_rand_int_range (rand, 1, 18);
      double value;

      g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT "e%d",
                  (gint64) (g_rand_double (rand) * pow (10, digits)),
                  g_rand_int_range (rand, -digits - 5, 17 - digits));
      value = g_ascii_strtod (text, NULL);
      g_array_append_val (values, value);
    }
  /* The largest m / 2^k written digit for digit and those just past them. */
  for (int k = 20; k <= 48; k++)
    {
      unsigned __int128 limit = (unsigned __int128) -1, five = 1;

      for (int i = 0; i < k; i++)
        five *= 5;
      limit /= five;
      for (int d = -3; d <= 3; d += 2)
        {
          guint64 m = (guint64) MIN (limit | 1, G_GUINT64_CONSTANT (1) << 53) + d;
          double value = ldexp ((double) m, -k);

          g_array_append_val (values, value);
        }
    }
  for (int e = -6; e <= 17; e++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        double power = sign * pow (10, e);

        g_array_append_val (values, power);
      }
  for (guint i = 0; i < 20000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double value;

      /* Exponents from 2^-20 to 2^60, either sign. */
      bits = (bits & G_GUINT64_CONSTANT (0x800fffffffffffff))
             | ((guint64) g_rand_int_range (rand, 1023 - 20, 1023 + 60) << 52);
      memcpy (&value, &bits, sizeof value);
      g_array_append_val (values, value);
    }
  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      check_number (&check, value);
      check_number (&check, nextafter (value, INFINITY));
      check_number (&check, nextafter (value, -INFINITY));
    }
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    check_number (&check, doubles[i]);
  g_array_unref (values);
  g_test_message ("%u numbers compared, %u left to printf; %u written digit for digit, %u "
                  "left",
                  check.compared, check.left, check.exact, check.exact_left);
  /* Those out of its range (exponents, tiny numbers) only. */
  g_assert_cmpuint (check.left, <, check.compared / 10);
  g_assert_cmpuint (check.exact, >, 50000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/shapes", test_shapes);
  g_test_add_func ("/json/writer", test_writer);
  g_test_add_func ("/json/writer-parts", test_writer_parts);
  g_test_add_func ("/json/writer-lines", test_writer_lines);
  g_test_add_func ("/json/writer-escaped", test_writer_escaped);
  g_test_add_func ("/json/writer-numbers", test_writer_numbers);

  return g_test_run ();
}
