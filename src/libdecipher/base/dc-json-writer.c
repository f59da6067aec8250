/* dc-json-writer.c: JSON written as it is made, with no tree in between
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is json-glib 1.6's pretty one (two spaces a level, " : " after a name,
 * "[]" and "{  }" when empty), and strings are escaped as dc_json_generate() leaves
 * them, so that an export written here reads byte for byte as the one a json-glib tree
 * gave: text that is not UTF-8 becomes U+FFFD, and every control, DEL and C1 control is
 * escaped. Numbers are json-glib's too ("%.17g", with ".0" on a whole number).
 *
 * A writer made by dc_json_writer_init_lines() writes the values nested deeper than a
 * given level compact, each such container on one line (JSON.stringify()'s layout), and
 * doubles in the shortest form that reads back as the same double: a book's export is
 * mostly small objects, and the pretty layout made it three times longer.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-json-writer-private.h"

#define SPACES "                                                                "

/* Room for @n more bytes at the end of @out: where to write them, then commit() where
 * they end. Inline, as the writer adds a few bytes at a time millions of times: GString's
 * own calls were a tenth of its time. */
static inline char *
reserve (GString *out, gsize n)
{
  if (G_UNLIKELY (out->len + n >= out->allocated_len))
    {
      gsize len = out->len;

      g_string_set_size (out, len + n);
      g_string_truncate (out, len);
    }
  return out->str + out->len;
}

static inline void
commit (GString *out, char *end)
{
  out->len = (gsize) (end - out->str);
  *end = '\0';
}

/* Copies @n bytes, a few as a rule (a name, a number, a run's text), without a call: two
 * moves of a fixed size that overlap. */
static inline void
copy_small (char *to, const char *from, gsize n)
{
  if (n > 16)
    memcpy (to, from, n);
  else if (n >= 8)
    {
      guint64 head, tail;

      memcpy (&head, from, 8);
      memcpy (&tail, from + n - 8, 8);
      memcpy (to, &head, 8);
      memcpy (to + n - 8, &tail, 8);
    }
  else if (n >= 4)
    {
      guint32 head, tail;

      memcpy (&head, from, 4);
      memcpy (&tail, from + n - 4, 4);
      memcpy (to, &head, 4);
      memcpy (to + n - 4, &tail, 4);
    }
  else if (n > 0)
    {
      to[0] = from[0];
      to[n / 2] = from[n / 2];
      to[n - 1] = from[n - 1];
    }
}

static inline void
append_bytes (GString *out, const char *bytes, gsize n)
{
  char *p = reserve (out, n);

  copy_small (p, bytes, n);
  commit (out, p + n);
}

void
dc_json_writer_init (DcJsonWriter *writer, GString *out, guint level)
{
  g_return_if_fail (writer != NULL && out != NULL);

  writer->out = out;
  writer->level = level;
  writer->depth = 0;
  writer->filled = 0;
  writer->compact_level = G_MAXUINT;
  for (guint i = 0; i < G_N_ELEMENTS (writer->numbers); i++)
    writer->numbers[i].length = 0;
}

/**
 * dc_json_writer_init_lines:
 * @compact_level: values at this level (@level + the containers open) and deeper are
 *   written compact, so that each container at @compact_level - 1 is one line
 *
 * As dc_json_writer_init(), but for a layout a person can still read line by line at a
 * fraction of the pretty one's size: the outer values pretty, the inner ones compact.
 */
void
dc_json_writer_init_lines (DcJsonWriter *writer, GString *out, guint level, guint compact_level)
{
  dc_json_writer_init (writer, out, level);
  writer->compact_level = compact_level;
}

static inline gboolean
is_compact (const DcJsonWriter *writer)
{
  return writer->level + writer->depth >= writer->compact_level;
}

static void
indent (GString *out, guint level)
{
  guint n = level * 2;

  while (n > 0)
    {
      guint chunk = MIN (n, sizeof SPACES - 1);

      append_bytes (out, SPACES, chunk);
      n -= chunk;
    }
}

/* Bytes of a string that go out as they are: not a quote, backslash, control or DEL,
 * nor the lead byte 0xC2 of a C1 control. */
static inline gboolean
is_plain (guchar c)
{
  return c >= 0x20 && c != '"' && c != '\\' && c != 0x7f && c != 0xc2;
}

/* The ASCII bytes plain_length() lets through: printable, neither quote nor backslash. */
static const guint8 ascii_plain[256] = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
  /* 0x80 and up: 0 */
};

/* The length of @text when it is valid UTF-8 with nothing to escape (no quote,
 * backslash, control, DEL or C1 control), as most strings of an export are; else -1.
 * The checks are g_utf8_validate()'s: no overlong form, surrogate or value past
 * U+10FFFF. */
static gssize
plain_length (const char *text)
{
  const guchar *p = (const guchar *) text;

  for (;;)
    {
      guchar c;

      /* Runs of ASCII to let through, most of an export's text, a byte a look-up. */
      while (ascii_plain[*p])
        p++;
      c = *p;
      if (c >= 0x20 && c < 0x7f)
        /* A quote or a backslash. */
        return -1;
      else if (c == '\0')
        return (gssize) (p - (const guchar *) text);
      else if (c < 0xc2 || c > 0xf4)
        /* Controls, DEL, continuation bytes, overlong leads, and what is past U+10FFFF. */
        return -1;
      else if (c < 0xe0)
        {
          /* 0xC2 0x80–0x9F is a C1 control. */
          if ((p[1] & 0xc0) != 0x80 || (c == 0xc2 && p[1] < 0xa0))
            return -1;
          p += 2;
        }
      else if (c < 0xf0)
        {
          guchar low = c == 0xe0 ? 0xa0 : 0x80, high = c == 0xed ? 0x9f : 0xbf;

          if (p[1] < low || p[1] > high || (p[2] & 0xc0) != 0x80)
            return -1;
          p += 3;
        }
      else
        {
          guchar low = c == 0xf0 ? 0x90 : 0x80, high = c == 0xf4 ? 0x8f : 0xbf;

          if (p[1] < low || p[1] > high || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
            return -1;
          p += 4;
        }
    }
}

static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *valid = NULL;
  const guchar *p;
  gssize plain = plain_length (text);

  if (plain >= 0)
    {
      char *q = reserve (out, (gsize) plain + 2);

      *q++ = '"';
      copy_small (q, text, (gsize) plain);
      q += plain;
      *q++ = '"';
      commit (out, q);
      return;
    }

  /* Outside strings everything is ASCII, so making each string valid on its own gives
   * what dc_json_generate() gives by making the whole text valid. */
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  g_string_append_c (out, '"');
  p = (const guchar *) text;
  while (*p)
    {
      const guchar *run = p;

      while (is_plain (*p))
        p++;
      if (p > run)
        g_string_append_len (out, (const char *) run, p - run);
      switch (*p)
        {
        case '\0':
          break;
        case '"':
        case '\\':
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) *p++);
          break;
        case '\b':
          g_string_append (out, "\\b");
          p++;
          break;
        case '\f':
          g_string_append (out, "\\f");
          p++;
          break;
        case '\n':
          g_string_append (out, "\\n");
          p++;
          break;
        case '\r':
          g_string_append (out, "\\r");
          p++;
          break;
        case '\t':
          g_string_append (out, "\\t");
          p++;
          break;
        case 0xc2:
          /* A C1 control (U+0080–U+009F): a terminal showing the text would obey it. */
          if (p[1] >= 0x80 && p[1] <= 0x9f)
            {
              g_string_append_printf (out, "\\u%04x", p[1]);
              p += 2;
            }
          else
            g_string_append_c (out, (char) *p++);
          break;
        default:
          g_string_append_printf (out, "\\u%04x", *p++);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static inline void
append_byte (GString *out, char byte)
{
  char *p = reserve (out, 1);

  *p = byte;
  commit (out, p + 1);
}

/* What comes before a value: the separator from the one before it, the indentation and
 * the member's name. */
static inline void
begin_value (DcJsonWriter *writer, const char *name, gsize name_length)
{
  guint spaces = (writer->level + writer->depth) * 2;
  char *p;

  if (is_compact (writer))
    {
      p = reserve (writer->out, 1 + name_length + 3);
      if (writer->depth > 0)
        {
          guint64 bit = G_GUINT64_CONSTANT (1) << (writer->depth - 1);

          if (writer->filled & bit)
            *p++ = ',';
          writer->filled |= bit;
        }
      if (name != NULL)
        {
          *p++ = '"';
          copy_small (p, name, name_length);
          p += name_length;
          *p++ = '"';
          *p++ = ':';
        }
      commit (writer->out, p);
      return;
    }
  if (G_UNLIKELY (spaces > sizeof SPACES - 1))
    {
      /* Deeper than any export goes: the slow way. */
      if (writer->depth > 0)
        {
          guint64 bit = G_GUINT64_CONSTANT (1) << (writer->depth - 1);

          g_string_append (writer->out, dc_json_writer_separator (!(writer->filled & bit)));
          writer->filled |= bit;
        }
      indent (writer->out, writer->level + writer->depth);
      if (name != NULL)
        {
          append_escaped (writer->out, name);
          g_string_append_len (writer->out, " : ", 3);
        }
      return;
    }
  /* All of SPACES is copied, a constant length (no call to memcpy), and the end of what
   * is wanted kept. */
  p = reserve (writer->out, 2 + (sizeof SPACES - 1) + name_length + 5);
  if (writer->depth > 0)
    {
      guint64 bit = G_GUINT64_CONSTANT (1) << (writer->depth - 1);

      if (writer->filled & bit)
        *p++ = ',';
      *p++ = '\n';
      writer->filled |= bit;
    }
  memcpy (p, SPACES, sizeof SPACES - 1);
  p += spaces;
  if (name != NULL)
    {
      /* Names are the export's own, ASCII with nothing to escape. */
      *p++ = '"';
      copy_small (p, name, name_length);
      p += name_length;
      memcpy (p, "\" : ", 4);
      p += 4;
    }
  commit (writer->out, p);
}

static void
begin_container (DcJsonWriter *writer, const char *name, gsize name_length, char open)
{
  g_return_if_fail (writer->depth < DC_JSON_WRITER_MAX_DEPTH);

  begin_value (writer, name, name_length);
  append_byte (writer->out, open);
  writer->depth++;
  writer->filled &= ~(G_GUINT64_CONSTANT (1) << (writer->depth - 1));
}

static void
end_container (DcJsonWriter *writer, char close)
{
  gboolean filled;

  g_return_if_fail (writer->depth > 0);

  /* Its values were compact: so is its end. */
  if (is_compact (writer))
    {
      writer->depth--;
      append_byte (writer->out, close);
      return;
    }
  writer->depth--;
  filled = (writer->filled & (G_GUINT64_CONSTANT (1) << writer->depth)) != 0;
  if (filled)
    append_byte (writer->out, '\n');
  /* json-glib indents the closing brace of an empty object, not the bracket of an
   * empty array. */
  if (filled || close == '}')
    indent (writer->out, writer->level + writer->depth);
  append_byte (writer->out, close);
}

void
_dc_json_writer_begin_object (DcJsonWriter *writer, const char *name, gsize name_length)
{
  begin_container (writer, name, name_length, '{');
}

void
dc_json_writer_end_object (DcJsonWriter *writer)
{
  end_container (writer, '}');
}

void
_dc_json_writer_begin_array (DcJsonWriter *writer, const char *name, gsize name_length)
{
  begin_container (writer, name, name_length, '[');
}

void
dc_json_writer_end_array (DcJsonWriter *writer)
{
  end_container (writer, ']');
}

void
_dc_json_writer_string (DcJsonWriter *writer, const char *name, gsize name_length,
                        const char *value)
{
  begin_value (writer, name, name_length);
  if (value != NULL)
    append_escaped (writer->out, value);
  else
    append_bytes (writer->out, "null", 4);
}

/**
 * _dc_json_writer_plain_string:
 * @value: @length bytes, pieces each of which dc_json_writer_is_plain() said yes to (or
 *   ASCII spaces) put end to end
 *
 * Writes what _dc_json_writer_string() writes of them, without looking at them again: a
 * run's text is its glyphs' values, each checked once per symbol. Valid UTF-8 put end to
 * end is valid, and a piece with nothing to escape gains nothing to escape by company.
 */
void
_dc_json_writer_plain_string (DcJsonWriter *writer, const char *name, gsize name_length,
                              const char *value, gsize length)
{
  char *q;

  begin_value (writer, name, name_length);
  q = reserve (writer->out, length + 2);
  *q++ = '"';
  copy_small (q, value, length);
  q += length;
  *q++ = '"';
  commit (writer->out, q);
}

/**
 * dc_json_writer_is_plain:
 * @text: UTF-8, or not
 *
 * Returns: whether dc_json_writer_string() writes @text as it is, between quotes
 */
gboolean
dc_json_writer_is_plain (const char *text)
{
  return plain_length (text) >= 0;
}

/* The fewest significant digits, 15 to 17, that read back as @value: fewer than 15
 * that do are what "%.15g" writes (a double holds any 15 digits), and 17 always do. */
static gsize
format_shortest (double value, char *buffer, gsize size)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  for (guint i = 0; i < G_N_ELEMENTS (formats) - 1; i++)
    {
      g_ascii_formatd (buffer, (int) size, formats[i], value);
      if (g_ascii_strtod (buffer, NULL) == value)
        return strlen (buffer);
    }
  g_ascii_formatd (buffer, (int) size, formats[G_N_ELEMENTS (formats) - 1], value);
  return strlen (buffer);
}

/**
 * dc_json_writer_escape:
 * @text: (nullable): UTF-8, or not
 *
 * Returns: (transfer full): @text as dc_json_writer_string() writes it
 */
char *
dc_json_writer_escape (const char *text)
{
  GString *out = g_string_new (NULL);

  if (text != NULL)
    append_escaped (out, text);
  else
    g_string_append (out, "null");
  return g_string_free (out, FALSE);
}

/**
 * dc_json_writer_json:
 *
 * Writes a value written as JSON beforehand: a string that recurs, escaped once.
 */
void
dc_json_writer_json (DcJsonWriter *writer, const char *name, const char *json, gsize length)
{
  begin_value (writer, name, name != NULL ? strlen (name) : 0);
  append_bytes (writer->out, json, length);
}

/**
 * dc_json_writer_members:
 *
 * Writes members written as JSON beforehand: a run of members that recurs, such as
 * where a symbol's value comes from, written once.
 */
void
dc_json_writer_members (DcJsonWriter *writer, const char *json, gsize length)
{
  guint64 bit;
  char *p;

  g_return_if_fail (writer->depth > 0 && is_compact (writer));

  if (length == 0)
    return;
  bit = G_GUINT64_CONSTANT (1) << (writer->depth - 1);
  p = reserve (writer->out, length + 1);
  if (writer->filled & bit)
    *p++ = ',';
  writer->filled |= bit;
  memcpy (p, json, length);
  commit (writer->out, p + length);
}

char *
dc_json_writer_begin_raw (DcJsonWriter *writer, gsize length)
{
  begin_value (writer, NULL, 0);
  return reserve (writer->out, length);
}

gboolean
dc_json_writer_is_compact (const DcJsonWriter *writer)
{
  return is_compact (writer);
}

void
dc_json_writer_end_raw (DcJsonWriter *writer, char *end)
{
  commit (writer->out, end);
}

void
_dc_json_writer_double (DcJsonWriter *writer, const char *name, gsize name_length, double value)
{
  char buffer[MAX (G_ASCII_DTOSTR_BUF_SIZE, 64)];
  gsize length;
  guint64 bits, hash;
  guint slot, printed;

  begin_value (writer, name, name_length);
  /* JSON has no infinity and no NaN. */
  if (!isfinite (value))
    {
      append_bytes (writer->out, "null", 4);
      return;
    }
  memcpy (&bits, &value, sizeof bits);
  hash = bits * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  slot = (guint) (hash >> 60);
  printed = 16 + (guint) (hash >> 58);
  if (writer->numbers[slot].length > 0 && writer->numbers[slot].bits == bits)
    {
      append_bytes (writer->out, writer->numbers[slot].text, writer->numbers[slot].length);
      return;
    }
  if (writer->numbers[printed].length > 0 && writer->numbers[printed].bits == bits)
    {
      append_bytes (writer->out, writer->numbers[printed].text, writer->numbers[printed].length);
      return;
    }
  length = _dc_json_format_exact (value, buffer);
  if (length == 0)
    {
      gboolean shortest = writer->compact_level != G_MAXUINT;

      length = _dc_json_format_double (value, shortest, buffer);
      if (length == 0 && shortest)
        length = format_shortest (value, buffer, sizeof buffer);
      else if (length == 0)
        {
          g_ascii_dtostr (buffer, sizeof buffer, value);
          length = strlen (buffer);
        }
      slot = printed;
    }
  /* A double stays a double for a reader: 3 is written 3.0. */
  if (memchr (buffer, '.', length) == NULL && memchr (buffer, 'e', length) == NULL)
    {
      memcpy (buffer + length, ".0", 3);
      length += 2;
    }
  append_bytes (writer->out, buffer, length);
  if (length < sizeof writer->numbers[slot].text)
    {
      writer->numbers[slot].bits = bits;
      writer->numbers[slot].length = (guint8) length;
      memcpy (writer->numbers[slot].text, buffer, length);
    }
}

void
_dc_json_writer_int (DcJsonWriter *writer, const char *name, gsize name_length, gint64 value)
{
  char *p;

  begin_value (writer, name, name_length);
  p = reserve (writer->out, 21);
  if (value < 0)
    *p++ = '-';
  commit (writer->out, dc_json_writer_put_uint (p, value < 0 ? -(guint64) value : (guint64) value));
}

void
_dc_json_writer_boolean (DcJsonWriter *writer, const char *name, gsize name_length, gboolean value)
{
  begin_value (writer, name, name_length);
  if (value)
    append_bytes (writer->out, "true", 4);
  else
    append_bytes (writer->out, "false", 5);
}

void
_dc_json_writer_null (DcJsonWriter *writer, const char *name, gsize name_length)
{
  begin_value (writer, name, name_length);
  append_bytes (writer->out, "null", 4);
}

/**
 * dc_json_writer_node:
 *
 * Writes a json-glib tree, for the few parts of an export that other code builds with
 * a #JsonBuilder (the warnings): members in the order they were added.
 */
void
dc_json_writer_node (DcJsonWriter *writer, const char *name, JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr (GList) members = json_object_get_members (object);

        dc_json_writer_begin_object (writer, name);
        for (GList *m = members; m != NULL; m = m->next)
          dc_json_writer_node (writer, m->data, json_object_get_member (object, m->data));
        dc_json_writer_end_object (writer);
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        dc_json_writer_begin_array (writer, name);
        for (guint i = 0; i < json_array_get_length (array); i++)
          dc_json_writer_node (writer, NULL, json_array_get_element (array, i));
        dc_json_writer_end_array (writer);
        break;
      }
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          dc_json_writer_int (writer, name, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          dc_json_writer_double (writer, name, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          dc_json_writer_boolean (writer, name, json_node_get_boolean (node));
          break;
        case G_TYPE_STRING:
        default:
          dc_json_writer_string (writer, name, json_node_get_string (node));
          break;
        }
      break;
    case JSON_NODE_NULL:
    default:
      dc_json_writer_null (writer, name);
      break;
    }
}

void
dc_json_writer_set_filled (DcJsonWriter *writer)
{
  g_return_if_fail (writer->depth > 0);

  writer->filled |= G_GUINT64_CONSTANT (1) << (writer->depth - 1);
}

/**
 * dc_json_writer_separator:
 * @first: the value is its container's first
 *
 * Returns: what goes before a value in a container, before its indentation
 */
const char *
dc_json_writer_separator (gboolean first)
{
  return first ? "\n" : ",\n";
}
