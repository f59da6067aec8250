/* test-json.c: what dc_json_check_text() lets through to json-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/shapes", test_shapes);

  return g_test_run ();
}
