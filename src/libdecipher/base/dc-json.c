/* dc-json.c: the shape of a JSON text, checked before json-glib parses it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib 1.6 is a lenient parser with three habits that untrusted input (a project
 * file, a session request) must not reach:
 * - it recurses once per nesting level, so a text of nested brackets overflows the stack
 *   before it can fail;
 * - it accepts a second value after the first ("{}{}"), keeps the last one as the root and
 *   leaks the others;
 * - it accepts what is not JSON (comments, single-quoted strings, "var x = …"), inside
 *   which a bracket or a second value would hide from the two checks above.
 * So the text is scanned once, strictly, and json-glib only sees what passes.
 */

#include "config.h"

#include <string.h>

#include "dc-json.h"

#define BYTE_ORDER_MARK "\xEF\xBB\xBF"

/* The characters of numbers, true, false and null. */
static gboolean
is_scalar_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '+' || c == '.';
}

/* A number (whose syntax json-glib checks) or a literal, not a word such as "var" that
 * json-glib would read as an identifier or the start of an assignment. */
static gboolean
is_scalar (const char *start, gsize length)
{
  static const char *const literals[] = { "true", "false", "null" };

  if (start[0] == '-' || g_ascii_isdigit (start[0]))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    if (length == strlen (literals[i]) && memcmp (start, literals[i], length) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Reads the four hex digits of a \u escape at @p, or fails. */
static gboolean
read_code_unit (const char *p, const char *end, guint *unit)
{
  *unit = 0;
  if (end - p < 4)
    return FALSE;
  for (guint k = 0; k < 4; k++)
    {
      if (!g_ascii_isxdigit (p[k]))
        return FALSE;
      *unit = *unit << 4 | (guint) g_ascii_xdigit_value (p[k]);
    }
  return TRUE;
}

/* The escape at data[*i] (a backslash), which JSON allows only in a few forms; on success
 * *i moves to its last byte. json-glib 1.6 takes "\uZZZZ" and a lone surrogate without a
 * word, which would put text that is not UTF-8 into a string, and leaks when a high
 * surrogate is followed by another escape than a low one. *nul is set for \u0000, which
 * json-glib keeps as the end of a C string: "status\u0000x" would read as "status". */
static gboolean
check_escape (const char *data, gsize length, gsize *i, gboolean *nul)
{
  const char *end = data + length;
  const char *p = data + *i + 1;
  guint unit, low;

  if (p >= end)
    return TRUE; /* an unterminated string: the parser says so */
  if (*p != '\0' && strchr ("\"\\/bfnrt", *p) != NULL)
    {
      *i += 1;
      return TRUE;
    }
  if (*p != 'u' || !read_code_unit (p + 1, end, &unit) || (unit >= 0xDC00 && unit <= 0xDFFF))
    return FALSE;
  if (unit < 0xD800 || unit > 0xDBFF)
    {
      *nul = *nul || unit == 0;
      *i += 5;
      return TRUE;
    }
  /* A high surrogate: a low one must follow at once. */
  p += 5;
  if (end - p < 2 || p[0] != '\\' || p[1] != 'u' || !read_code_unit (p + 2, end, &low)
      || low < 0xDC00 || low > 0xDFFF)
    return FALSE;
  *i += 11;
  return TRUE;
}

/* A string from its opening quote at *@i: on return *@i is at its closing quote (or the
 * end, for an unterminated one, which the parser reports), or where it stops being JSON. */
static DcJsonText
scan_string (const char *data, gsize length, gsize *i)
{
  gsize start = *i;
  gboolean nul = FALSE;

  for ((*i)++; *i < length && data[*i] != '"'; (*i)++)
    if (data[*i] == '\0')
      nul = TRUE;
    else if (data[*i] == '\\' && !check_escape (data, length, i, &nul))
      return DC_JSON_TEXT_NOT_JSON;
  if (nul)
    {
      *i = start;
      return DC_JSON_TEXT_NUL;
    }
  return DC_JSON_TEXT_ONE_VALUE;
}

/**
 * dc_json_check_text:
 * @data: the text, not necessarily nul-terminated
 * @length: its length in bytes
 * @max_depth: how deep arrays and objects may nest
 * @offset: (out) (optional): where the text stops being what it should be, in bytes
 *
 * Checks the shape of a JSON text without parsing it: one value, white space around
 * it, nothing that only a lenient parser would accept (comments, single quotes, bare
 * words, escapes JSON does not have, unpaired surrogates), and no deeper nesting than
 * @max_depth, and no U+0000 in a string, which json-glib would cut the string at (a
 * NUL anywhere else is not JSON). Other syntax inside the value (a missing comma, a bracket closed
 * by the wrong one) is left to the parser, which reports it without harm. A UTF-8 byte order mark
 * may begin the text.
 *
 * Returns: %DC_JSON_TEXT_ONE_VALUE when the text may go to json-glib, otherwise what is
 *   wrong at @offset
 */
DcJsonText
dc_json_check_text (const char *data, gsize length, guint max_depth, gsize *offset)
{
  gboolean in_scalar = FALSE;
  gsize scalar_start = 0;
  gboolean ended = FALSE; /* the first value is complete */
  DcJsonText shape = DC_JSON_TEXT_ONE_VALUE;
  guint depth = 0;
  gsize i = 0;

  g_return_val_if_fail (data != NULL || length == 0, DC_JSON_TEXT_NOT_JSON);

  if (length >= 3 && memcmp (data, BYTE_ORDER_MARK, 3) == 0)
    i = 3;

  for (; i < length && shape == DC_JSON_TEXT_ONE_VALUE; i++)
    {
      char c = data[i];

      if (in_scalar && !is_scalar_char (c))
        {
          in_scalar = FALSE;
          if (!is_scalar (data + scalar_start, i - scalar_start))
            {
              shape = DC_JSON_TEXT_NOT_JSON;
              i = scalar_start;
              break;
            }
          ended = depth == 0;
        }
      if (is_space (c))
        continue;
      if (ended)
        {
          shape = DC_JSON_TEXT_MORE;
          break;
        }
      if (is_scalar_char (c))
        {
          if (!in_scalar)
            scalar_start = i;
          in_scalar = TRUE;
          continue;
        }

      switch (c)
        {
        case '"':
          shape = scan_string (data, length, &i);
          ended = depth == 0;
          break;

        case '[':
        case '{':
          if (++depth > max_depth)
            shape = DC_JSON_TEXT_TOO_DEEP;
          break;

        case ']':
        case '}':
          /* Whether it closes the right bracket is the parser's business; where the
           * value ends is ours. */
          if (depth == 0)
            shape = DC_JSON_TEXT_NOT_JSON;
          else
            ended = --depth == 0;
          break;

        case ':':
        case ',':
          if (depth == 0)
            shape = DC_JSON_TEXT_NOT_JSON;
          break;

        default:
          shape = DC_JSON_TEXT_NOT_JSON;
          break;
        }
      if (shape != DC_JSON_TEXT_ONE_VALUE)
        break;
    }

  if (shape == DC_JSON_TEXT_ONE_VALUE && in_scalar
      && !is_scalar (data + scalar_start, length - scalar_start))
    {
      shape = DC_JSON_TEXT_NOT_JSON;
      i = scalar_start;
    }

  if (offset != NULL)
    *offset = shape == DC_JSON_TEXT_ONE_VALUE ? length : i;
  return shape;
}

#define CONTROLS_BUT_NEWLINE                                                                       \
  "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0b\x0c\x0d\x0e\x0f"                                       \
  "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"

/**
 * dc_json_generate:
 * @root: what to write
 * @pretty: indented over several lines, for a person to read
 * @length: (out) (optional): the text's length
 *
 * Like json_generator_to_data(), but valid JSON whatever the strings hold: json-glib
 * (1.6 at least) writes most control characters into strings as they are, which JSON
 * forbids and strict readers refuse. They can only stand inside strings, where they are
 * escaped here; a newline outside one is the pretty layout's. DEL and the C1 controls,
 * which JSON allows, are escaped as well, so that no control reaches a terminal, and
 * bytes that are not UTF-8 become U+FFFD.
 */
char *
dc_json_generate (JsonNode *root, gboolean pretty, gsize *length)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  GString *out;
  gsize text_length = 0;

  g_return_val_if_fail (root != NULL, NULL);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  text = json_generator_to_data (generator, &text_length);
  /* json-glib copies a string's bytes as they are, and names a PDF chose (a glyph name
   * from /Differences) need not be UTF-8: outside strings everything is ASCII, so making
   * the whole text valid replaces only what is inside them, with U+FFFD. */
  if (!g_utf8_validate (text, (gssize) text_length, NULL))
    {
      char *valid = g_utf8_make_valid (text, (gssize) text_length);

      g_free (text);
      text = valid;
      text_length = strlen (text);
    }
  /* Nearly always: nothing to escape, and strpbrk() finds that fastest. DEL and the C1
   * controls (U+0080–U+009F, lead byte C2) are escaped too: a terminal that shows a
   * reply would obey them (issue 11). */
  if (strpbrk (text, CONTROLS_BUT_NEWLINE "\x7f\xc2") == NULL)
    {
      if (length != NULL)
        *length = text_length;
      return g_steal_pointer (&text);
    }

  out = g_string_sized_new (text_length + 1);
  for (gsize i = 0; i < text_length; i++)
    {
      guchar c = (guchar) text[i];

      if ((c < 0x20 && c != '\n') || c == 0x7f)
        g_string_append_printf (out, "\\u%04x", c);
      else if (c == 0xc2 && i + 1 < text_length && (guchar) text[i + 1] >= 0x80
               && (guchar) text[i + 1] <= 0x9f)
        g_string_append_printf (out, "\\u%04x", (guchar) text[++i]);
      else
        g_string_append_c (out, (char) c);
    }
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
