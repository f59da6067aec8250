/* dc-json-writer-private.h: JSON written as it is made, with no tree in between
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Writes the text dc_json_generate() makes of the same values, pretty, at the end of a
 * string: a JSON export of a book is written a page at a time, each page on the thread
 * that made it, where a json-glib tree of the whole book would take gigabytes. */
typedef struct _DcJsonWriter
{
  GString *out;
  guint level;    /* the indentation of a value outside any container */
  guint depth;    /* containers open */
  guint64 filled; /* bit d: the container at depth d holds a value */
  /* Values nested this deep (level + depth) and deeper are written compact, with no
   * space or newline, and doubles in their shortest form that reads back the same:
   * G_MAXUINT (pretty throughout, as dc_json_generate()) unless set by
   * dc_json_writer_init_lines(). */
  guint compact_level;
  /* Numbers written lately, as written: an export writes the same few sizes,
   * confidences and coordinates over and over. The first 16 hold numbers whose
   * every digit is written (m / 2^k, k ≤ 48), the last 64 those rounded
   * (confidences such as 0.99, a page's few dozen tab-scores such as 1/7), which the
   * many coordinates would otherwise push out. */
  struct
  {
    guint64 bits;
    guint8 length; /* 0: empty */
    char text[31];
  } numbers[16 + 64];
} DcJsonWriter;

#define DC_JSON_WRITER_MAX_DEPTH 64

void dc_json_writer_init (DcJsonWriter *writer, GString *out, guint level);
void dc_json_writer_init_lines (DcJsonWriter *writer, GString *out, guint level,
                                guint compact_level);

/* @name: the member's name inside an object, ASCII with nothing to escape; NULL inside
 * an array or outside both. The functions below take it with its length, which the
 * inline wrappers work out where the name is written: a literal's is a constant, and
 * the writer, which writes millions of names, then neither measures nor calls to copy
 * them. */
void _dc_json_writer_begin_object (DcJsonWriter *writer, const char *name, gsize name_length);
void dc_json_writer_end_object (DcJsonWriter *writer);
void _dc_json_writer_begin_array (DcJsonWriter *writer, const char *name, gsize name_length);
void dc_json_writer_end_array (DcJsonWriter *writer);
/* A NULL @value writes null. */
void _dc_json_writer_string (DcJsonWriter *writer, const char *name, gsize name_length,
                             const char *value);
void _dc_json_writer_plain_string (DcJsonWriter *writer, const char *name, gsize name_length,
                                   const char *value, gsize length);
gboolean dc_json_writer_is_plain (const char *text);
void _dc_json_writer_double (DcJsonWriter *writer, const char *name, gsize name_length,
                             double value);
void _dc_json_writer_int (DcJsonWriter *writer, const char *name, gsize name_length, gint64 value);
void _dc_json_writer_boolean (DcJsonWriter *writer, const char *name, gsize name_length,
                              gboolean value);
void _dc_json_writer_null (DcJsonWriter *writer, const char *name, gsize name_length);
void dc_json_writer_node (DcJsonWriter *writer, const char *name, JsonNode *node);

#define DC_JSON_NAME_LENGTH(name) ((name) != NULL ? strlen (name) : 0)

static inline void
dc_json_writer_begin_object (DcJsonWriter *writer, const char *name)
{
  _dc_json_writer_begin_object (writer, name, DC_JSON_NAME_LENGTH (name));
}

static inline void
dc_json_writer_begin_array (DcJsonWriter *writer, const char *name)
{
  _dc_json_writer_begin_array (writer, name, DC_JSON_NAME_LENGTH (name));
}

static inline void
dc_json_writer_string (DcJsonWriter *writer, const char *name, const char *value)
{
  _dc_json_writer_string (writer, name, DC_JSON_NAME_LENGTH (name), value);
}

static inline void
dc_json_writer_double (DcJsonWriter *writer, const char *name, double value)
{
  _dc_json_writer_double (writer, name, DC_JSON_NAME_LENGTH (name), value);
}

static inline void
dc_json_writer_int (DcJsonWriter *writer, const char *name, gint64 value)
{
  _dc_json_writer_int (writer, name, DC_JSON_NAME_LENGTH (name), value);
}

static inline void
dc_json_writer_boolean (DcJsonWriter *writer, const char *name, gboolean value)
{
  _dc_json_writer_boolean (writer, name, DC_JSON_NAME_LENGTH (name), value);
}

static inline void
dc_json_writer_null (DcJsonWriter *writer, const char *name)
{
  _dc_json_writer_null (writer, name, DC_JSON_NAME_LENGTH (name));
}

/* A string written once as JSON (quoted and escaped, or null for NULL), to be written
 * many times with dc_json_writer_json(). */
char *dc_json_writer_escape (const char *text);
/* @json: a value as JSON, @length bytes, as dc_json_writer_escape() gives */
void dc_json_writer_json (DcJsonWriter *writer, const char *name, const char *json, gsize length);

/* @json: members of an object as JSON ("a":1,"b":2, no braces), @length bytes, written
 * beforehand by a compact writer: into the open object, itself compact */
void dc_json_writer_members (DcJsonWriter *writer, const char *json, gsize length);

/* A value written straight into the output: dc_json_writer_begin_raw() writes what goes
 * before it and returns where to write it, room for @length bytes; the caller writes the
 * value as JSON, laid out as the writer would, and passes where it ends to
 * dc_json_writer_end_raw(). For the values an export writes by the hundred thousand, at
 * a tenth of the calls. */
char *dc_json_writer_begin_raw (DcJsonWriter *writer, gsize length);

/* @value's decimal digits, as dc_json_writer_int() writes them, at @p (room for 20);
 * returns where they end. For raw values. */
static inline char *
dc_json_writer_put_uint (char *p, guint64 value)
{
  char digits[20];
  guint n = 0;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value > 0);
  while (n > 0)
    *p++ = digits[--n];
  return p;
}

/* Whether the next value is written compact: a name as "name": and no space. */
gboolean dc_json_writer_is_compact (const DcJsonWriter *writer);
void dc_json_writer_end_raw (DcJsonWriter *writer, char *end);

/* The open container holds values written by other writers, at its level + 1, into
 * other strings: each starts with dc_json_writer_separator(). */
void dc_json_writer_set_filled (DcJsonWriter *writer);
const char *dc_json_writer_separator (gboolean first);

/* dc-json-number.c: a double's digits as printf writes them, 0 where left to it. */
gsize _dc_json_format_exact (double value, char *buffer);
gsize _dc_json_format_double (double value, gboolean shortest, char *buffer);

G_END_DECLS
