/* fuzz-json.c: is a text JSON as RFC 8259 defines it, for the targets' checks of output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exports promise JSON that any script can read back. json-glib cannot judge that: it
 * reads comments, single quotes and lone surrogates that stricter readers (Python's json,
 * jq) refuse, and parsing a large export into nodes and freeing them again was the larger
 * part of fuzz-pdf's time on big documents. This reader only says yes or no, allocates
 * nothing, and follows the RFC's grammar to the letter.
 */

#include "config.h"

#include <string.h>

#include "fuzz-common.h"

/* Deeper than any export nests; a bound keeps the recursion finite. */
#define MAX_DEPTH 64

typedef struct
{
  const char *p;
  const char *end;
  guint depth;
} Reader;

static gboolean read_value (Reader *r);

static void
skip_space (Reader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static gboolean
accept (Reader *r, char c)
{
  if (r->p >= r->end || *r->p != c)
    return FALSE;
  r->p++;
  return TRUE;
}

static gboolean
read_code_unit (Reader *r, guint *unit)
{
  *unit = 0;
  for (guint k = 0; k < 4; k++, r->p++)
    {
      if (r->p >= r->end || !g_ascii_isxdigit (*r->p))
        return FALSE;
      *unit = *unit << 4 | (guint) g_ascii_xdigit_value (*r->p);
    }
  return TRUE;
}

static gboolean
read_string (Reader *r)
{
  if (!accept (r, '"'))
    return FALSE;
  while (r->p < r->end)
    {
      guchar c = (guchar) *r->p++;
      guint unit, low;

      if (c == '"')
        return TRUE;
      if (c < 0x20)
        return FALSE;
      if (c != '\\')
        continue;
      if (r->p >= r->end)
        return FALSE;
      c = (guchar) *r->p++;
      if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r'
          || c == 't')
        continue;
      if (c != 'u' || !read_code_unit (r, &unit) || (unit >= 0xDC00 && unit <= 0xDFFF))
        return FALSE;
      if (unit >= 0xD800 && unit <= 0xDBFF
          && (!accept (r, '\\') || !accept (r, 'u') || !read_code_unit (r, &low) || low < 0xDC00
              || low > 0xDFFF))
        return FALSE;
    }
  return FALSE;
}

static gboolean
read_digits (Reader *r)
{
  const char *start = r->p;

  while (r->p < r->end && g_ascii_isdigit (*r->p))
    r->p++;
  return r->p > start;
}

static gboolean
read_number (Reader *r)
{
  accept (r, '-');
  if (!accept (r, '0') && (r->p >= r->end || *r->p < '1' || *r->p > '9' || !read_digits (r)))
    return FALSE;
  if (accept (r, '.') && !read_digits (r))
    return FALSE;
  if (accept (r, 'e') || accept (r, 'E'))
    {
      if (!accept (r, '+'))
        accept (r, '-');
      if (!read_digits (r))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_word (Reader *r, const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (r->end - r->p) < length || memcmp (r->p, word, length) != 0)
    return FALSE;
  r->p += length;
  return TRUE;
}

/* An array's items or an object's members, after the opening bracket. */
static gboolean
read_items (Reader *r, char close, gboolean members)
{
  skip_space (r);
  if (accept (r, close))
    return TRUE;
  do
    {
      skip_space (r);
      if (members)
        {
          if (!read_string (r))
            return FALSE;
          skip_space (r);
          if (!accept (r, ':'))
            return FALSE;
          skip_space (r);
        }
      if (!read_value (r))
        return FALSE;
      skip_space (r);
    }
  while (accept (r, ','));
  return accept (r, close);
}

static gboolean
read_value (Reader *r)
{
  gboolean ok;

  if (r->p >= r->end)
    return FALSE;
  switch (*r->p)
    {
    case '{':
    case '[':
      if (++r->depth > MAX_DEPTH)
        return FALSE;
      r->p++;
      ok = read_items (r, r->p[-1] == '{' ? '}' : ']', r->p[-1] == '{');
      r->depth--;
      return ok;
    case '"':
      return read_string (r);
    case 't':
      return read_word (r, "true");
    case 'f':
      return read_word (r, "false");
    case 'n':
      return read_word (r, "null");
    default:
      return read_number (r);
    }
}

/**
 * dc_fuzz_json_is_valid:
 *
 * Returns: whether @text is valid UTF-8 and exactly one JSON value (RFC 8259), with
 *   nothing but white space around it
 */
gboolean
dc_fuzz_json_is_valid (const char *text, gsize length)
{
  Reader r = { text, text + length, 0 };

  if (!g_utf8_validate_len (text, length, NULL))
    return FALSE;
  skip_space (&r);
  if (!read_value (&r))
    return FALSE;
  skip_space (&r);
  return r.p == r.end;
}

/* The reader is part of what the targets check, so it is checked too, once per process:
 * a reader that said yes to everything would let every export pass. */
void
dc_fuzz_json_self_test (void)
{
  static const char *const valid[] = {
    "{}", " [ ] ", "0", "-0.5e+10", "1E3", "true", "null", "\"\"",
    "{\"a\": [1, \"\\u00e9\\uD83D\\uDE00\\n\", {\"b\": false}], \"c\": -12}",
    "\"\xD0\xB0\"",
  };
  static const char *const invalid[] = {
    "", " ", "{", "{}{}", "{} x", "[1,]", "{\"a\" 1}", "{\"a\":}", "{a: 1}", "['a']",
    "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "\"\\q\"", "\"\\ud800\"",
    "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\tb\"", "\"unterminated", "/* c */ 1",
    "\"\xFF\"", "[1 2]", "{\"a\":1,}",
  };
  g_autofree char *deep = g_strnfill (MAX_DEPTH + 1, '[');

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    if (!dc_fuzz_json_is_valid (valid[i], strlen (valid[i])))
      g_error ("The JSON reader refuses valid JSON: %s", valid[i]);
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    if (dc_fuzz_json_is_valid (invalid[i], strlen (invalid[i])))
      g_error ("The JSON reader accepts what is not JSON: %s", invalid[i]);
  if (dc_fuzz_json_is_valid (deep, strlen (deep)) || !dc_fuzz_json_is_valid ("[1]\0", 3))
    g_error ("The JSON reader ignores its depth bound or the length it is given");
}
