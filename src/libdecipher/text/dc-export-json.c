/* dc-export-json.c: the JSON export, the document around its pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format is described in docs/export-formats.md and its schema is
 * docs/text-json.schema.json. As in pdftract, a span is a run of glyphs of one line in
 * one font and size; it carries the script of its letters, its direction and writing
 * mode, its language with the evidence for it, and, per run of glyphs whose values share
 * their origin, where those values came from (level, confidence, status, provenance), so
 * a reader can tell recovered text from the PDF's own, and undecoded glyphs are flagged.
 *
 * This file writes the document's members, asks each symbol where its value comes from
 * and keeps the language guesses; the pages, blocks and lines are written by
 * dc-export-json-blocks.c, the spans and their runs by dc-export-json-spans.c.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <math.h>
#include <string.h>

#include <fribidi.h>
#include <json-glib/json-glib.h>

#include "dc-export-json-private.h"
#include "dc-parallel.h"

#define add_page _dc_export_json_add_page

#define DC_TEXT_JSON_VERSION 1

/* The document's and each page's members one a line, and each block and line of a page
 * on one line of its own, compact within: the indentation and newlines of a pretty
 * layout were most of a book's export. */
#define COMPACT_LEVEL 5

/* What the language cache holds at most, in bytes of text: a few pages' worth. */
#define GUESSES_MAX_BYTES (8 << 20)

typedef struct
{
  DcLanguageGuess guess;
  gboolean conflict;
} Guess;

/* _dc_export_guess_language(), once per distinct key: the detector answers the same for
 * the same sample and prior, with the prior or without (_dc_export_guess_language() asks
 * both). */
gboolean
_dc_export_json_guess_language (Export *e, const char *text, const char *declared,
                                DcLanguageGuess *out)
{
  g_autofree char *key = dc_language_guess_key (text, declared);
  Guess *cached;
  gboolean conflict;

  g_mutex_lock (&e->lock);
  dc_parallel_take_over (&e->lock);
  /* Read under the lock: another thread may replace (and free) the entry as soon as it
   * is released. */
  cached = g_hash_table_lookup (e->guesses, key);
  if (cached != NULL)
    {
      *out = cached->guess;
      conflict = cached->conflict;
    }
  dc_parallel_hand_over (&e->lock);
  g_mutex_unlock (&e->lock);
  if (cached != NULL)
    return conflict;

  cached = g_new (Guess, 1);
  cached->conflict = _dc_export_guess_language (text, declared, &cached->guess);
  *out = cached->guess;
  conflict = cached->conflict;

  g_mutex_lock (&e->lock);
  dc_parallel_take_over (&e->lock);
  if (e->guessed_bytes < GUESSES_MAX_BYTES)
    {
      gsize length = strlen (key);

      /* Another thread may have put the same guess meanwhile: it is replaced, not counted
       * again. No look-up first: the key is the text's first kilobytes. */
      if (g_hash_table_insert (e->guesses, g_steal_pointer (&key), g_steal_pointer (&cached)))
        e->guessed_bytes += length;
    }
  dc_parallel_hand_over (&e->lock);
  g_mutex_unlock (&e->lock);
  g_free (cached);
  return conflict;
}

/* What dc_text_get_script() counts of @text, if the letters are of one script. */
static void
find_script (const char *text, Origin *origin)
{
  origin->script_known = g_utf8_validate (text, -1, NULL);
  origin->script = G_UNICODE_SCRIPT_COMMON;
  origin->script_letters = 0;
  origin->unknowns = 0;
  origin->ltr_strong = 0;
  origin->rtl_strong = 0;
  for (const char *p = text; origin->script_known && *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeScript script;

      /* As dc_text_get_script() and the line's metadata tell them. */
      if (c < 0x80)
        {
          if (!g_ascii_isalpha (c))
            continue;
          script = G_UNICODE_SCRIPT_LATIN;
          origin->ltr_strong++;
        }
      else if (c == 0xFFFD)
        {
          origin->unknowns++;
          continue;
        }
      else
        {
          FriBidiCharType type = fribidi_get_bidi_type (c);

          script = g_unichar_get_script (c);
          if (FRIBIDI_IS_STRONG (type))
            {
              origin->rtl_strong += FRIBIDI_IS_RTL (type);
              origin->ltr_strong += !FRIBIDI_IS_RTL (type);
            }
        }
      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED
          || script == G_UNICODE_SCRIPT_UNKNOWN || script == G_UNICODE_SCRIPT_INVALID_CODE)
        continue;
      if (origin->script_letters > 0 && script != origin->script)
        origin->script_known = FALSE;
      origin->script = script;
      origin->script_letters++;
    }
}

/* Whether @c is a letter a block counts, and of which script (ASCII without a call: its
 * letters are Latin; U+FFFD, an undecoded glyph and most of some blocks, is no letter). */
gboolean
_dc_export_json_letter_script (gunichar c, GUnicodeScript *script)
{
  if (c < 0x80)
    {
      if (!g_ascii_isalpha (c))
        return FALSE;
      *script = G_UNICODE_SCRIPT_LATIN;
      return TRUE;
    }
  if (c == 0xFFFD || !g_unichar_isalpha (c))
    return FALSE;
  *script = g_unichar_get_script (c);
  return *script != G_UNICODE_SCRIPT_COMMON && *script != G_UNICODE_SCRIPT_INHERITED;
}

/* The letters of @text a block counts, if they are of one script. */
static void
find_letters (const char *text, Origin *origin)
{
  origin->letters_known = g_utf8_validate (text, -1, NULL);
  origin->letter_script = G_UNICODE_SCRIPT_COMMON;
  origin->letters = 0;
  for (const char *p = text; origin->letters_known && *p; p = g_utf8_next_char (p))
    {
      GUnicodeScript script;

      if (!_dc_export_json_letter_script (g_utf8_get_char (p), &script))
        continue;
      if (origin->letters > 0 && script != origin->letter_script)
        origin->letters_known = FALSE;
      origin->letter_script = script;
      origin->letters++;
    }
}

/* @previous (nullable): the symbol before's, whose members are reused when alike: a
 * font's symbols mostly share their level, status, confidence and provenance. */
static void
find_origin (Export *e, guint symbol, Origin *origin, GHashTable *provenances,
             const Origin *previous)
{
  origin->value = e->value (symbol, e->user_data);
  if (e->key != NULL)
    {
      origin->status = dc_key_get_status (e->key, symbol);
      origin->level = dc_key_get_level (e->key, symbol);
      origin->confidence = dc_key_get_confidence (e->key, symbol);
      origin->provenance = dc_key_get_provenance (e->key, symbol);
    }
  else if (origin->value != NULL)
    {
      /* As a key seeds it: a glyph name is the font's word, not the PDF's (DESIGN §7). */
      origin->status = DC_KEY_FROM_PDF;
      origin->level = (dc_document_get_symbol (e->document, symbol)->flags & DC_SYMBOL_FROM_FONT)
                          ? DC_KEY_LEVEL_FONT
                          : DC_KEY_LEVEL_PDF;
      origin->confidence = dc_key_level_get_default_confidence (origin->level);
      origin->provenance = NULL;
    }
  else
    {
      origin->status = DC_KEY_UNKNOWN;
      origin->level = DC_KEY_LEVEL_NONE;
      origin->confidence = 0;
      origin->provenance = NULL;
    }
  /* A proposal is shown, never used as text: the glyph is still undecoded. */
  if (origin->value == NULL)
    {
      origin->level = DC_KEY_LEVEL_NONE;
      origin->confidence = 0;
    }
  origin->length = strlen (origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT);
  origin->plain = dc_json_writer_is_plain (origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT);
  find_script (origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT, origin);
  find_letters (origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT, origin);
  origin->first_script = _dc_export_json_first_script (origin->value);
  origin->short_value = origin->length <= sizeof origin->bytes;
  memset (origin->bytes, 0, sizeof origin->bytes);
  if (origin->short_value)
    memcpy (origin->bytes, origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT, origin->length);
  origin->normalized = _dc_export_is_normalized (origin->value != NULL ? origin->value
                                                                       : DC_UNKNOWN_TEXT,
                                                 e->normalization);
  /* One pointer per provenance: runs compare them for each glyph. */
  if (origin->provenance != NULL)
    {
      const char *first = g_hash_table_lookup (provenances, origin->provenance);

      if (first != NULL)
        origin->provenance = first;
      else
        g_hash_table_add (provenances, (gpointer) origin->provenance);
    }
  origin->members_json = NULL;
  if (previous != NULL && (previous->value == NULL) == (origin->value == NULL)
      && previous->status == origin->status && previous->level == origin->level
      && memcmp (&previous->confidence, &origin->confidence, sizeof origin->confidence) == 0
      && previous->provenance == origin->provenance)
    {
      /* What _dc_export_json_add_origin() writes of the two is the same. */
      origin->members_json = previous->members_json;
      origin->members_json_length = previous->members_json_length;
      return;
    }
  {
    GString *members = g_string_new (NULL);
    DcJsonWriter w;

    /* Compact throughout, as the runs are: the members without the braces. */
    dc_json_writer_init_lines (&w, members, 0, 0);
    dc_json_writer_begin_object (&w, NULL);
    _dc_export_json_add_origin (&w, origin);
    dc_json_writer_end_object (&w);
    g_assert (members->len >= 2);
    origin->members_json_length = members->len - 2;
    g_string_truncate (members, members->len - 1);
    g_string_erase (members, 0, 1);
    origin->members_json = members->str;
    g_ptr_array_add (e->escaped, g_string_free (members, FALSE));
  }
}

/* The members same_origin() compares of a symbol's origin, in an order to sort them by. */
typedef struct
{
  gboolean undecoded;
  DcKeyStatus status;
  DcKeyLevel level;
  double confidence;
  const char *provenance; /* one pointer per string */
  guint symbol;
} KindKey;

static int
compare_kind_keys (gconstpointer a, gconstpointer b)
{
  const KindKey *ka = a, *kb = b;

  if (ka->undecoded != kb->undecoded)
    return ka->undecoded < kb->undecoded ? -1 : 1;
  if (ka->status != kb->status)
    return ka->status < kb->status ? -1 : 1;
  if (ka->level != kb->level)
    return ka->level < kb->level ? -1 : 1;
  if (ka->confidence != kb->confidence)
    return ka->confidence < kb->confidence ? -1 : 1;
  if (ka->provenance != kb->provenance)
    return (guintptr) ka->provenance < (guintptr) kb->provenance ? -1 : 1;
  return 0;
}

/* One kind for the origins that same_origin() takes for one (a NaN confidence, equal to
 * none, has none): sorted by what it compares, alike ones side by side. */
static void
sort_kinds (Origin *origins, guint n_symbols)
{
  g_autofree KindKey *keys = g_new (KindKey, MAX (n_symbols, 1));
  guint n = 0, kind = 0;

  for (guint s = 0; s < n_symbols; s++)
    {
      const Origin *origin = &origins[s];

      origins[s].kind = G_MAXUINT;
      if (isnan (origin->confidence))
        continue;
      keys[n++] = (KindKey){ origin->value == NULL, origin->status,     origin->level,
                             origin->confidence,    origin->provenance, s };
    }
  qsort (keys, n, sizeof *keys, compare_kind_keys);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0 && compare_kind_keys (&keys[i - 1], &keys[i]) != 0)
        kind++;
      origins[keys[i].symbol].kind = kind;
    }
}

/* Where a run's values come from: the members of a run after its text and glyphs. */
void
_dc_export_json_add_origin (DcJsonWriter *w, const Origin *origin)
{
  dc_json_writer_boolean (w, "undecoded", origin->value == NULL);
  dc_json_writer_string (w, "status", dc_key_status_to_string (origin->status));
  dc_json_writer_string (w, "level", dc_key_level_to_string (origin->level));
  dc_json_writer_double (w, "confidence", origin->confidence);
  dc_json_writer_string (w, "provenance", origin->provenance);
}

void
_dc_export_json_add_bbox (DcJsonWriter *w, float x0, float y0, float x1, float y1)
{
  dc_json_writer_begin_array (w, "bbox");
  dc_json_writer_double (w, NULL, x0);
  dc_json_writer_double (w, NULL, y0);
  dc_json_writer_double (w, NULL, x1);
  dc_json_writer_double (w, NULL, y1);
  dc_json_writer_end_array (w);
}

#define BBOX_NAME "\"bbox\":"

/* _dc_export_json_add_bbox(), the same box as last time copied from what was written
 * then: the four numbers are most of the cost. */
void
_dc_export_json_add_bbox_kept (DcJsonWriter *w, KeptBbox *kept, float x0, float y0, float x1,
                               float y1)
{
  float box[4] = { x0, y0, x1, y1 };
  gsize start;
  const char *value;

  if (!dc_json_writer_is_compact (w))
    {
      _dc_export_json_add_bbox (w, x0, y0, x1, y1);
      return;
    }
  if (kept->length > 0 && memcmp (box, kept->box, sizeof box) == 0)
    {
      char *p = dc_json_writer_begin_raw (w, strlen (BBOX_NAME) + kept->length);

      memcpy (p, BBOX_NAME, strlen (BBOX_NAME));
      memcpy (p + strlen (BBOX_NAME), kept->json, kept->length);
      dc_json_writer_end_raw (w, p + strlen (BBOX_NAME) + kept->length);
      return;
    }
  start = w->out->len;
  _dc_export_json_add_bbox (w, x0, y0, x1, y1);
  /* What was written: a separator maybe, the name, then the array, the first '['. */
  value = memchr (w->out->str + start, '[', w->out->len - start);
  kept->length = 0;
  if (value != NULL && (gsize) (w->out->str + w->out->len - value) <= sizeof kept->json)
    {
      kept->length = (gsize) (w->out->str + w->out->len - value);
      memcpy (kept->json, value, kept->length);
      memcpy (kept->box, box, sizeof box);
    }
}

void
_dc_export_json_add_language (DcJsonWriter *w, const DcLanguageGuess *guess)
{
  dc_json_writer_begin_object (w, "language");
  /* BCP 47's "und": the language is not known (pdftract writes it so, never a guess). */
  dc_json_writer_string (w, "tag", guess->tag[0] ? guess->tag : "und");
  dc_json_writer_string (w, "source", guess->source);
  dc_json_writer_double (w, "confidence", guess->confidence);
  dc_json_writer_end_object (w);
}

/* Pages [first_page, end_page), each after the separator from the one before. */
static void
make_pages (guint first_page, guint end_page, GString *out, gpointer data)
{
  DcJsonWriter w;

  /* A page is an element of the root object's "pages". One writer for the pages, each
   * of which closes all it opens: the numbers it keeps serve the next page. */
  dc_json_writer_init_lines (&w, out, 2, COMPACT_LEVEL);
  for (guint page = first_page; page < end_page; page++)
    {
      g_string_append (out, dc_json_writer_separator (page == 0));
      add_page (data, &w, page);
    }
}

/* The warnings are built as a tree by dc_export_add_warnings(), which the session and
 * `fonts --json` use too: once per document, a few objects. */
static void
write_warnings (DcJsonWriter *w, DcDocument *document, DcValueFunc value, gpointer user_data)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  dc_export_add_warnings (builder, document, -1, value, user_data);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  dc_json_writer_node (w, "warnings",
                       json_object_get_member (json_node_get_object (root), "warnings"));
}

/* The document's members around its pages, which are written between them. */
static gboolean
write_document (Export *e, GString *out, DcExportWriteFunc write, gpointer write_data)
{
  DcDocument *document = e->document;
  g_autofree char *name = g_path_get_basename (dc_document_get_path (document));
  DcJsonWriter writer, *w = &writer;

  dc_json_writer_init_lines (w, out, 0, COMPACT_LEVEL);
  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_string (w, "format", "decipher-text");
  dc_json_writer_int (w, "version", DC_TEXT_JSON_VERSION);
  dc_json_writer_string (w, "document", name);
  dc_json_writer_string (w, "language", dc_document_get_language (document));
  dc_json_writer_boolean (w, "language_detector", dc_language_detector_available ());
  dc_json_writer_begin_array (w, "pages");
  if (!write (out->str, out->len, write_data))
    return FALSE;
  g_string_truncate (out, 0);
  if (!_dc_export_stream_pages (document, make_pages, e, write, write_data))
    return FALSE;
  if (dc_document_get_n_pages (document) > 0)
    dc_json_writer_set_filled (w);
  dc_json_writer_end_array (w);
  write_warnings (w, document, e->value, e->user_data);
  dc_json_writer_end_object (w);
  return write (out->str, out->len, write_data);
}

/* The export, written out as it is made: the pages, a few at a time, on several threads
 * (dc-export-stream.c). */
gboolean
_dc_export_json_write (DcDocument *document, DcNormalization normalization, DcValueFunc value,
                       gpointer user_data, DcExportWriteFunc write, gpointer write_data)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree guint8 *token_start = NULL;
  g_autofree guint32 *token_at = NULL;
  g_autofree Origin *origins = NULL;
  g_autofree guint8 *split = NULL;
  g_autofree guint8 *space = NULL;
  guint n_glyphs, n_tokens, n_symbols;
  gboolean ok;
  Export e = { 0 };

  e.document = document;
  e.value = value;
  e.user_data = user_data;
  e.normalization = normalization;
  /* Values from a key can say where they come from; a key is what every caller but the
   * plain PDF view (dc_document_pdf_value) passes. */
  e.key = value == dc_key_value_func && DC_IS_KEY (user_data) ? user_data : NULL;
  e.glyphs = dc_document_get_glyphs (document, NULL);
  e.order = dc_document_get_reading_order (document, &n_glyphs);
  e.lines = dc_document_get_lines (document, NULL);
  e.tokens = dc_document_get_tokens (document, &n_tokens);
  token_start = g_new0 (guint8, MAX (n_glyphs, 1));
  token_at = g_new0 (guint32, MAX (n_glyphs, 1));
  for (guint t = 0; t < n_tokens; t++)
    {
      token_start[e.tokens[t].first_glyph] = 1;
      token_at[e.tokens[t].first_glyph] = t;
    }
  e.token_start = token_start;
  e.token_at = token_at;
  dc_document_get_symbols (document, &n_symbols);
  origins = g_new (Origin, MAX (n_symbols, 1));
  e.escaped = g_ptr_array_new_with_free_func (g_free);
  {
    g_autoptr (GHashTable) provenances = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint s = 0; s < n_symbols; s++)
      find_origin (&e, s, &origins[s], provenances, s > 0 ? &origins[s - 1] : NULL);
  }
  e.origins = origins;
  sort_kinds (origins, n_symbols);
  space = g_new (guint8, MAX (n_symbols, 1));
  for (guint s = 0; s < n_symbols; s++)
    space[s] = dc_document_symbol_is_space (document, s);
  e.space = space;
  if (e.key != NULL)
    {
      split = g_new (guint8, MAX (n_symbols, 1));
      for (guint s = 0; s < n_symbols; s++)
        split[s] = dc_key_count_split (e.key, s) > 0;
      e.split = split;
    }
  e.text_cache = _dc_text_cache_new (document, value, user_data);
  e.left_margin = _dc_export_left_margin (document);
  g_mutex_init (&e.lock);
  e.guesses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  ok = write_document (&e, out, write, write_data);
  g_hash_table_unref (e.guesses);
  g_ptr_array_unref (e.escaped);
  _dc_text_cache_free (e.text_cache);
  g_mutex_clear (&e.lock);
  return ok;
}

static gboolean
append_to_string (const char *data, gsize length, gpointer out)
{
  g_string_append_len (out, data, (gssize) length);
  return TRUE;
}

char *
_dc_export_json (DcDocument *document, DcNormalization normalization, DcValueFunc value,
                 gpointer user_data)
{
  GString *out = g_string_new (NULL);

  _dc_export_json_write (document, normalization, value, user_data, append_to_string, out);
  return g_string_free (out, FALSE);
}
