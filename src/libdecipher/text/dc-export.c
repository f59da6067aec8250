/* dc-export.c: the document's text with the values known so far
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formats (txt, layout, freki, json) are described in docs/export-formats.md.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <string.h>

#include <fribidi.h>
#include <json-glib/json-glib.h>

#include "dc-export-private.h"
#include "dc-json.h"
#include "dc-reorder-private.h"
#include "dc-script.h"
#include "dc-unicode-private.h"

/**
 * dc_document_pdf_value:
 * @document: a #DcDocument, as user data
 *
 * A #DcValueFunc that believes the PDF for trusted fonts and knows nothing else: what a
 * document shows before the user has recovered anything.
 */
const char *
dc_document_pdf_value (guint symbol, gpointer document)
{
  if (dc_document_symbol_needs_decoding (document, symbol))
    return NULL;
  return dc_document_get_symbol (document, symbol)->pdf_text;
}

/* One token's text in logical order (what a table cell shows). */
void
_dc_export_append_token (GString *out, DcDocument *document, const DcToken *token,
                         DcValueFunc value, gpointer user_data)
{
  _dc_reorder_token (document, (guint) (token - dc_document_get_tokens (document, NULL)), value,
                     user_data, out);
}

/* The line's tokens joined by single spaces, in logical order (dc-reorder.c). */
void
_dc_export_append_line (GString *out, DcDocument *document, guint line, DcValueFunc value,
                        gpointer user_data)
{
  _dc_reorder_line (document, line, value, user_data, out, NULL);
}

/* The line's tokens joined by single spaces, in logical order; unknown glyphs are U+FFFD. */
char *
dc_export_line_text (DcDocument *document, guint line, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  guint n_lines;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  dc_document_get_lines (document, &n_lines);
  g_return_val_if_fail (line < n_lines, NULL);

  _dc_export_append_line (out, document, line, value, user_data);
  return g_string_free (out, FALSE);
}

/**
 * dc_export_run_text:
 * @first_position: the first glyph of the run in the reading order
 *   (dc_document_get_reading_order())
 * @last_position: its last, inclusive
 *
 * What copying a selection on the page gives: the words the run touches, whole, each
 * line's in logical order joined by single spaces, the lines by newlines. Unknown glyphs
 * are U+FFFD, as in the text export.
 *
 * Returns: (transfer full): the text, "" when the run holds no word
 */
char *
dc_export_run_text (DcDocument *document, guint first_position, guint last_position,
                    DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  const DcLine *lines;
  const DcToken *tokens;
  guint n_lines, n_order;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  lines = dc_document_get_lines (document, &n_lines);
  tokens = dc_document_get_tokens (document, NULL);
  dc_document_get_reading_order (document, &n_order);
  if (first_position > last_position)
    {
      guint swap = first_position;

      first_position = last_position;
      last_position = swap;
    }
  if (n_order == 0)
    return g_string_free (out, FALSE);
  last_position = MIN (last_position, n_order - 1);

  for (guint l = 0; l < n_lines; l++)
    {
      const DcLine *line = &lines[l];
      g_autoptr (GPtrArray) texts = NULL;
      g_autoptr (GArray) indices = NULL;
      gboolean first_word = TRUE;

      if (line->first_glyph + line->n_glyphs <= first_position)
        continue;
      if (line->first_glyph > last_position)
        break;
      texts = g_ptr_array_new_with_free_func (g_free);
      indices = g_array_new (FALSE, FALSE, sizeof (guint32));
      _dc_reorder_line_tokens (document, l, value, user_data, texts, indices);
      for (guint i = 0; i < texts->len; i++)
        {
          const DcToken *token = &tokens[g_array_index (indices, guint32, i)];

          if (token->first_glyph + token->n_glyphs <= first_position
              || token->first_glyph > last_position)
            continue;
          if (first_word && out->len > 0)
            g_string_append_c (out, '\n');
          else if (!first_word)
            g_string_append_c (out, ' ');
          g_string_append (out, g_ptr_array_index (texts, i));
          first_word = FALSE;
        }
    }
  return g_string_free (out, FALSE);
}

/* The text of a run of pages, each page after the one before; @cache (nullable) has
 * the symbols' texts (dc-text-cache.c). */
static void
append_pages (GString *out, DcDocument *document, guint first_page, guint end_page,
              const DcTextCache *cache, DcValueFunc value, gpointer user_data)
{
  for (guint page = first_page; page < end_page; page++)
    {
      guint first, n;

      if (page > 0)
        g_string_append_c (out, '\f');
      dc_document_get_page_lines (document, page, &first, &n);
      for (guint l = first; l < first + n; l++)
        {
          _dc_reorder_line_cached (document, l, cache, value, user_data, out);
          g_string_append_c (out, '\n');
        }
    }
}

/* The plain text export's parts (dc-export-stream.c): the pages' lines as they read. */
typedef struct
{
  DcDocument *document;
  DcTextCache *cache;
  DcValueFunc value;
  gpointer user_data;
} TextPages;

static void
make_text_pages (guint first_page, guint end_page, GString *out, gpointer data)
{
  const TextPages *pages = data;

  append_pages (out, pages->document, first_page, end_page, pages->cache, pages->value,
                pages->user_data);
}

static gboolean
write_text (DcDocument *document, DcValueFunc value, gpointer user_data, DcExportWriteFunc write,
            gpointer write_data)
{
  TextPages pages = { document, _dc_text_cache_new (document, value, user_data), value, user_data };
  gboolean ok = _dc_export_stream_pages (document, make_text_pages, &pages, write, write_data);

  _dc_text_cache_free (pages.cache);
  return ok;
}

static gboolean
append_to_string (const char *data, gsize length, gpointer out)
{
  g_string_append_len (out, data, (gssize) length);
  return TRUE;
}

static char *
export_text (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  guint n_glyphs;
  GString *out;

  dc_document_get_reading_order (document, &n_glyphs);
  /* About two bytes a glyph (one for a Latin letter, two for Cyrillic, three for most
   * other scripts, and the spaces): room for that at once, rather than a string that
   * doubles and is copied ten times on its way to a book's size. */
  out = g_string_sized_new ((gsize) n_glyphs * 2 + dc_document_get_n_pages (document));
  write_text (document, value, user_data, append_to_string, out);
  return g_string_free (out, FALSE);
}

typedef DcScriptCount ScriptCount;

static int
compare_script_counts (gconstpointer a, gconstpointer b)
{
  const ScriptCount *ca = a, *cb = b;

  return ca->count != cb->count ? (ca->count < cb->count ? 1 : -1)
                                : (int) ca->script - (int) cb->script;
}

/* How a line is written: its scripts, most letters first, its direction and its writing
 * mode. */
typedef DcLineMetadata LineMetadata;

/* A line's letters per script, in the order their scripts first occur, and its strong
 * characters, into @counts (ScriptCount), @rtl and @ltr. */
static void
count_line (const char *text, GArray *counts, guint *rtl, guint *ltr)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c;
      GUnicodeScript script;
      FriBidiCharType type;
      guint i;

      /* Without a call for ASCII, of which only the letters are strong (left to right)
       * or of a script (Latin), and for U+FFFD, neither: the many undecoded glyphs. */
      if ((guchar) *p < 0x80 && !g_ascii_isalpha (*p))
        continue;
      if ((guchar) *p < 0x80)
        {
          script = G_UNICODE_SCRIPT_LATIN;
          type = FRIBIDI_TYPE_LTR;
        }
      else if ((c = _dc_utf8_get_char (p)) == 0xFFFD)
        continue;
      else
        {
          script = g_unichar_get_script (c);
          type = fribidi_get_bidi_type (c);
        }
      if (FRIBIDI_IS_STRONG (type))
        {
          *rtl += FRIBIDI_IS_RTL (type);
          *ltr += !FRIBIDI_IS_RTL (type);
        }
      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED
          || script == G_UNICODE_SCRIPT_UNKNOWN)
        continue;
      for (i = 0; i < counts->len; i++)
        if (g_array_index (counts, ScriptCount, i).script == script)
          break;
      if (i == counts->len)
        {
          ScriptCount count = { script, 0 };
          g_array_append_val (counts, count);
        }
      g_array_index (counts, ScriptCount, i).count++;
    }
}

/* The metadata from the line's counts (count_line()), which it takes. */
static void
finish_line_metadata (DcDocument *document, guint line, GArray *counts, guint rtl, guint ltr,
                      LineMetadata *out)
{
  gboolean vertical, left_to_right_columns = FALSE;

  out->counts = counts;
  out->script = G_UNICODE_SCRIPT_COMMON;
  out->n_first_seen = out->counts->len <= DC_LINE_FIRST_SCRIPTS ? out->counts->len : G_MAXUINT;
  /* An empty GArray's data may be NULL, which memcpy() must not be given. */
  if (out->counts->len > 0 && out->counts->len <= DC_LINE_FIRST_SCRIPTS)
    memcpy (out->first_seen, out->counts->data, out->counts->len * sizeof (ScriptCount));
  if (out->counts->len > 8)
    out->script = G_UNICODE_SCRIPT_INVALID_CODE;
  else if (out->counts->len > 0)
    {
      guint best = 0;

      for (guint i = 1; i < out->counts->len; i++)
        if (g_array_index (out->counts, ScriptCount, i).count
            > g_array_index (out->counts, ScriptCount, best).count)
          best = i;
      out->script = g_array_index (out->counts, ScriptCount, best).script;
    }
  g_array_sort (out->counts, compare_script_counts);

  vertical = _dc_line_is_vertical (document, line);
  if (vertical)
    out->direction = DC_DIRECTION_TTB;
  else
    out->direction = rtl > ltr ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;
  if (out->counts->len > 0)
    left_to_right_columns = _dc_script_has_left_to_right_columns (
        g_array_index (out->counts, ScriptCount, 0).script);
  /* Undecoded: glyphs on their side are Mongolian's, upright ones CJK's (dc-vertical.c). */
  if (vertical && out->counts->len == 0)
    {
      const DcLine *l = &dc_document_get_lines (document, NULL)[line];
      const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
      const guint32 *order = dc_document_get_reading_order (document, NULL);

      left_to_right_columns = l->n_glyphs > 0
                              && (glyphs[order[l->first_glyph]].flags & DC_GLYPH_UPRIGHT) == 0;
    }
  out->writing_mode = !vertical               ? "horizontal-tb"
                      : left_to_right_columns ? "vertical-lr"
                                              : "vertical-rl";
}

static void
line_metadata (DcDocument *document, guint line, const char *text, LineMetadata *out)
{
  GArray *counts = g_array_new (FALSE, TRUE, sizeof (ScriptCount));
  guint rtl = 0, ltr = 0;

  count_line (text, counts, &rtl, &ltr);
  finish_line_metadata (document, line, counts, rtl, ltr, out);
}

/**
 * dc_export_add_line_metadata:
 * @text: the line's text in logical order, as dc_export_line_text() gives it
 *
 * Adds the members that say how the line is written: `scripts` (ISO 15924 codes, most
 * letters first), `direction` ("ltr", "rtl" or "ttb") and `writing_mode`
 * ("horizontal-tb", "vertical-rl" with columns from right to left as in CJK, or
 * "vertical-lr" as in Mongolian). docs/ and the session protocol name them the same.
 */
void
dc_export_add_line_metadata (JsonBuilder *builder, DcDocument *document, guint line,
                             const char *text)
{
  LineMetadata metadata;

  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (DC_IS_DOCUMENT (document));
  g_return_if_fail (text != NULL);

  line_metadata (document, line, text, &metadata);
  json_builder_set_member_name (builder, "scripts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < metadata.counts->len; i++)
    {
      char code[5];

      dc_script_to_iso15924 (g_array_index (metadata.counts, ScriptCount, i).script, code);
      json_builder_add_string_value (builder, code);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "direction");
  json_builder_add_string_value (builder, dc_direction_to_string (metadata.direction));
  json_builder_set_member_name (builder, "writing_mode");
  json_builder_add_string_value (builder, metadata.writing_mode);
  g_array_unref (metadata.counts);
}

/* What dc_export_add_line_metadata() adds, for the JSON export, whose blocks read it too. */
void
_dc_export_line_metadata (DcDocument *document, guint line, const char *text, DcLineMetadata *out)
{
  line_metadata (document, line, text, out);
}

/* _dc_export_line_metadata() from the counts of the line's text, made otherwise: its
 * letters per script in the order their scripts first occur (@counts, of DcScriptCount,
 * which it takes) and its strong characters. */
void
_dc_export_line_metadata_counted (DcDocument *document, guint line, GArray *counts, guint rtl,
                                  guint ltr, DcLineMetadata *out)
{
  finish_line_metadata (document, line, counts, rtl, ltr, out);
}

void
_dc_export_line_metadata_clear (DcLineMetadata *metadata)
{
  g_clear_pointer (&metadata->counts, g_array_unref);
}

/* dc_export_add_line_metadata() for the JSON export, written as it is made. Returns
 * whether @text's script (dc_text_get_script()) is written right to left: its characters
 * were counted for the metadata anyway. */
gboolean
_dc_export_write_line_metadata (DcJsonWriter *writer, const DcLineMetadata *metadata,
                                const char *text)
{
  GUnicodeScript script;

  const char *direction = dc_direction_to_string (metadata->direction);

  /* Script codes and the names of directions and writing modes are ASCII letters and
   * dashes: nothing to escape, written as they are. */
  dc_json_writer_begin_array (writer, "scripts");
  for (guint i = 0; i < metadata->counts->len; i++)
    {
      char code[5];

      dc_script_to_iso15924 (g_array_index (metadata->counts, ScriptCount, i).script, code);
      _dc_json_writer_plain_string (writer, NULL, 0, code, strlen (code));
    }
  dc_json_writer_end_array (writer);
  _dc_json_writer_plain_string (writer, "direction", strlen ("direction"), direction,
                                strlen (direction));
  _dc_json_writer_plain_string (writer, "writing_mode", strlen ("writing_mode"),
                                metadata->writing_mode, strlen (metadata->writing_mode));
  script = metadata->script != G_UNICODE_SCRIPT_INVALID_CODE ? metadata->script
                                                             : dc_text_get_script (text, NULL);
  return dc_script_is_rtl (script);
}

/**
 * dc_export_document:
 * @value: the text of each symbol. %DC_EXPORT_TEXT calls it from several threads at once
 *   on a document of 16 pages or more (docs/architecture.md, "Threads"), all of them
 *   done by the time this returns: it must only read, as dc_key_value_func() and
 *   dc_document_pdf_value() do.
 *
 * Returns: (transfer full): the document's text in @format (docs/export-formats.md)
 */
char *
dc_export_document (DcDocument *document, DcExportFormat format, DcValueFunc value,
                    gpointer user_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  switch (format)
    {
    case DC_EXPORT_FREKI:
      return _dc_export_freki (document, value, user_data);
    case DC_EXPORT_LAYOUT:
      return _dc_export_layout (document, value, user_data);
    case DC_EXPORT_JSON:
      return _dc_export_json (document, DC_NORMALIZATION_NFC, value, user_data);
    case DC_EXPORT_TEXT:
    default:
      return export_text (document, value, user_data);
    }
}

/**
 * dc_normalization_from_string:
 * @name: "nfc", "nfkc" or "nfd", in any case
 *
 * Returns: whether @name is one of them; then *@normalization is set
 */
gboolean
dc_normalization_from_string (const char *name, DcNormalization *normalization)
{
  static const char *names[] = { "nfc", "nfkc", "nfd" };

  g_return_val_if_fail (name != NULL && normalization != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      {
        *normalization = (DcNormalization) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * dc_export_document_normalized:
 * @normalization: the form of every text in the export; the JSON format records it in
 *   each span's "normalization"
 *
 * dc_export_document() in a chosen Unicode normalization form: the text formats are
 * normalized as a whole, the JSON format span by span.
 *
 * Returns: (transfer full): the document's text in @format
 */
char *
dc_export_document_normalized (DcDocument *document, DcExportFormat format,
                               DcNormalization normalization, DcValueFunc value, gpointer user_data)
{
  static const GNormalizeMode modes[] = { G_NORMALIZE_NFC, G_NORMALIZE_NFKC, G_NORMALIZE_NFD };
  g_autofree char *text = NULL;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (normalization <= DC_NORMALIZATION_NFD, NULL);

  if (format == DC_EXPORT_JSON)
    return _dc_export_json (document, normalization, value, user_data);
  text = dc_export_document (document, format, value, user_data);
  return g_utf8_normalize (text, -1, modes[normalization]);
}

/**
 * dc_export_json_write:
 * @normalization: the form of every span's text
 * @value: as for dc_export_document(): called from several threads at once on a document
 *   of 16 pages or more, so it must only read
 * @write: takes the text as it is made, in order, a few pages at a time; called from
 *   any of those threads, never two calls at once
 *
 * The %DC_EXPORT_JSON export of dc_export_document_normalized(), byte for byte, written
 * out as it is made: the memory it takes stays a few pages' worth however long the
 * document is.
 *
 * Returns: FALSE when @write returned FALSE; nothing more was written then
 */
gboolean
dc_export_json_write (DcDocument *document, DcNormalization normalization, DcValueFunc value,
                      gpointer user_data, DcExportWriteFunc write, gpointer write_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (normalization <= DC_NORMALIZATION_NFD, FALSE);
  g_return_val_if_fail (write != NULL, FALSE);

  return _dc_export_json_write (document, normalization, value, user_data, write, write_data);
}

/**
 * dc_export_text_write:
 * @value: as for dc_export_document(): called from several threads at once on a document
 *   of 16 pages or more, so it must only read
 * @write: takes the text as it is made, in order, a few pages at a time; called from
 *   any of those threads, never two calls at once
 *
 * The %DC_EXPORT_TEXT export of dc_export_document(), byte for byte, written out as it
 * is made: a book's text is never held whole, and the memory that holds its parts is
 * filled again rather than new to the process at every page.
 *
 * Returns: FALSE when @write returned FALSE; nothing more was written then
 */
gboolean
dc_export_text_write (DcDocument *document, DcValueFunc value, gpointer user_data,
                      DcExportWriteFunc write, gpointer write_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (write != NULL, FALSE);

  return write_text (document, value, user_data, write, write_data);
}
