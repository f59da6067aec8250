/* dc-export-json.c: pages, blocks, lines and spans with their metadata
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format is described in docs/export-formats.md and its schema is
 * docs/text-json.schema.json. As in pdftract, a span is a run of glyphs of one line in
 * one font and size; it carries the script of its letters, its direction and writing
 * mode, its language with the evidence for it, and, per run of glyphs whose values share
 * their origin, where those values came from (level, confidence, status, provenance), so
 * a reader can tell recovered text from the PDF's own, and undecoded glyphs are flagged.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "dc-export-private.h"
#include "dc-key.h"
#include "dc-language.h"
#include "dc-parallel.h"
#include "dc-reorder-private.h"
#include "dc-script.h"

#define DC_TEXT_JSON_VERSION 1

/* Where one symbol's value comes from. */
typedef struct
{
  const char *value;
  gsize length; /* of what the glyph reads: the value, or U+FFFD */
  DcKeyStatus status;
  DcKeyLevel level;
  double confidence;
  const char *provenance;
  /* The provenance as JSON, written for each run: escaped once per symbol; NULL for a
   * split's, escaped as written. */
  const char *provenance_json;
  gsize provenance_json_length;
} Origin;

typedef struct
{
  DcDocument *document;
  DcValueFunc value;
  gpointer user_data;
  DcKey *key; /* when the values come from a key: where each came from */
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcToken *tokens;
  guint8 *token_start; /* per reading-order position: starts a token */
  guint32 *token_at;   /* per reading-order position: the token it starts */
  DcNormalization normalization;
  Origin *origins;    /* per symbol: asked once, read for each of its glyphs */
  guint8 *split;      /* per symbol: some of its glyphs are split off it; NULL with no key */
  guint8 *space;      /* per symbol: a word separator, as the document says */
  GPtrArray *escaped; /* the origins' provenances as JSON */
  double left_margin;

  /* Under the lock: the language guessed so far, by dc_language_guess_key() (the prior
   * and the part of the text the detector reads): a book repeats its running heads,
   * notes and boilerplate, and the detector is most of the export's time. */
  GMutex lock;
  GHashTable *guesses;
  gsize guessed_bytes;
} Export;

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
static gboolean
guess_language (Export *e, const char *text, const char *declared, DcLanguageGuess *out)
{
  g_autofree char *key = dc_language_guess_key (text, declared);
  Guess *cached;
  gboolean conflict;

  g_mutex_lock (&e->lock);
  dc_parallel_take_over (&e->lock);
  cached = g_hash_table_lookup (e->guesses, key);
  if (cached != NULL)
    *out = cached->guess;
  dc_parallel_hand_over (&e->lock);
  g_mutex_unlock (&e->lock);
  if (cached != NULL)
    return cached->conflict;

  cached = g_new (Guess, 1);
  cached->conflict = _dc_export_guess_language (text, declared, &cached->guess);
  *out = cached->guess;
  conflict = cached->conflict;

  g_mutex_lock (&e->lock);
  dc_parallel_take_over (&e->lock);
  if (e->guessed_bytes < GUESSES_MAX_BYTES && !g_hash_table_contains (e->guesses, key))
    {
      e->guessed_bytes += strlen (key);
      g_hash_table_insert (e->guesses, g_steal_pointer (&key), g_steal_pointer (&cached));
    }
  dc_parallel_hand_over (&e->lock);
  g_mutex_unlock (&e->lock);
  g_free (cached);
  return conflict;
}

static void
find_origin (Export *e, guint symbol, Origin *origin)
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
  origin->provenance_json = NULL;
  if (origin->provenance != NULL)
    {
      char *json = dc_json_writer_escape (origin->provenance);

      origin->provenance_json = json;
      origin->provenance_json_length = strlen (json);
      g_ptr_array_add (e->escaped, json);
    }
}

/* What glyph @glyph reads and why: its symbol's, unless the user split it off. */
static inline void
origin_of (Export *e, guint glyph, Origin *origin)
{
  const char *split, *provenance;
  guint symbol = e->glyphs[glyph].symbol;

  *origin = e->origins[symbol];
  /* Asking the key for each glyph costs a lookup: only a symbol with splits has any. */
  if (e->split != NULL && e->split[symbol]
      && (split = dc_key_get_split (e->key, glyph, &provenance)) != NULL)
    {
      origin->value = split;
      origin->length = strlen (split);
      origin->provenance_json = NULL;
      origin->status = DC_KEY_CONFIRMED;
      origin->level = DC_KEY_LEVEL_USER;
      origin->confidence = 1.0;
      origin->provenance = provenance;
    }
}

static gboolean
same_origin (const Origin *a, const Origin *b)
{
  return (a->value == NULL) == (b->value == NULL) && a->status == b->status && a->level == b->level
         && a->confidence == b->confidence
         /* Mostly the same string of the key's: no need to read it. */
         && (a->provenance == b->provenance || g_strcmp0 (a->provenance, b->provenance) == 0);
}

static void
add_bbox (DcJsonWriter *w, float x0, float y0, float x1, float y1)
{
  dc_json_writer_begin_array (w, "bbox");
  dc_json_writer_double (w, NULL, x0);
  dc_json_writer_double (w, NULL, y0);
  dc_json_writer_double (w, NULL, x1);
  dc_json_writer_double (w, NULL, y1);
  dc_json_writer_end_array (w);
}

static void
add_language (DcJsonWriter *w, const DcLanguageGuess *guess)
{
  dc_json_writer_begin_object (w, "language");
  /* BCP 47's "und": the language is not known (pdftract writes it so, never a guess). */
  dc_json_writer_string (w, "tag", guess->tag[0] ? guess->tag : "und");
  dc_json_writer_string (w, "source", guess->source);
  dc_json_writer_double (w, "confidence", guess->confidence);
  dc_json_writer_end_object (w);
}

/* The span's script, direction and writing mode, named as the line's are
 * (dc_export_add_line_metadata()). */
static void
add_script (DcJsonWriter *w, GUnicodeScript script, gboolean vertical)
{
  char code[5];

  dc_script_to_iso15924 (script, code);
  dc_json_writer_string (w, "script", code);
  dc_json_writer_string (w, "direction",
                         dc_direction_to_string (vertical ? DC_DIRECTION_TTB
                                                          : dc_text_get_direction (script, 0)));
  dc_json_writer_string (w, "writing_mode",
                         !vertical                                       ? "horizontal-tb"
                         : _dc_script_has_left_to_right_columns (script) ? "vertical-lr"
                                                                         : "vertical-rl");
}

/* What the glyph reads, at the end of @out: a few bytes, for each glyph several times,
 * copied in place while there is room. */
static inline void
append_value (GString *out, const Origin *origin)
{
  const char *text = origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT;

  if (G_UNLIKELY (out->len + origin->length >= out->allocated_len))
    {
      g_string_append_len (out, text, (gssize) origin->length);
      return;
    }
  memcpy (out->str + out->len, text, origin->length);
  out->len += origin->length;
  out->str[out->len] = '\0';
}

/* Read for each glyph several times: the document's answer, kept per symbol. */
static inline gboolean
is_space (Export *e, guint k)
{
  return e->space[e->glyphs[e->order[k]].symbol];
}

/* One run: @n glyphs of the reading order in a row, spaces aside, all of one origin. */
static void
write_run (DcJsonWriter *w, const char *text, guint n, const Origin *origin)
{
  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_string (w, "text", text);
  dc_json_writer_int (w, "glyphs", n);
  dc_json_writer_boolean (w, "undecoded", origin->value == NULL);
  dc_json_writer_string (w, "status", dc_key_status_to_string (origin->status));
  dc_json_writer_string (w, "level", dc_key_level_to_string (origin->level));
  dc_json_writer_double (w, "confidence", origin->confidence);
  if (origin->provenance_json != NULL)
    dc_json_writer_json (w, "provenance", origin->provenance_json, origin->provenance_json_length);
  else
    dc_json_writer_string (w, "provenance", origin->provenance);
  dc_json_writer_end_object (w);
}

/* The glyphs of a token cut by a change of font, from @k to the token's or the span's
 * end, into @word; returns the position after them. On a right-to-left span the glyphs,
 * drawn left to right, are read right to left, each with the marks drawn over it. */
static guint
partial_word (Export *e, guint k, guint end, gboolean rtl, GString *word)
{
  g_autoptr (GPtrArray) clusters = g_ptr_array_new_with_free_func (g_free);

  do
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      Origin o;

      if (!is_space (e, k))
        {
          GString *cluster;
          gboolean mark = clusters->len > 0
                          && fabs (dc_glyph_get_advance (glyph))
                                 < 0.1 * MAX (dc_glyph_get_size (glyph), 0.5f);

          origin_of (e, e->order[k], &o);
          if (!mark)
            g_ptr_array_add (clusters, g_string_new (NULL));
          cluster = g_ptr_array_index (clusters, clusters->len - 1);
          append_value (cluster, &o);
        }
      k++;
    }
  while (k < end && !e->token_start[k]);

  for (guint i = 0; i < clusters->len; i++)
    {
      GString *cluster = g_ptr_array_index (clusters, rtl ? clusters->len - 1 - i : i);

      g_string_append_len (word, cluster->str, cluster->len);
    }
  for (guint i = 0; i < clusters->len; i++)
    g_string_free (g_ptr_array_index (clusters, i), TRUE);
  g_ptr_array_set_free_func (clusters, NULL);
  return k;
}

typedef struct
{
  gsize offset;
  gboolean closed; /* written together with the word before it */
} WordStart;

/* The span's text in logical order: its whole tokens as dc-reorder.c gives them (Indic
 * pre-base vowels after their consonant), in reverse on a right-to-left span, as are the
 * glyphs of a token cut by a change of font. */
static void
logical_text (Export *e, guint first, guint end, gboolean rtl, const DcTokenTexts *known,
              GString *out)
{
  /* The words one after the other, each ending in a NUL; where each starts and whether
   * it is written together with the word before it. */
  g_autoptr (GString) words = g_string_new (NULL);
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (WordStart));
  const DcToken *previous = NULL;

  for (guint k = first; k < end;)
    {
      WordStart word = { words->len, FALSE };

      if (is_space (e, k))
        {
          k++;
          continue;
        }
      if (e->token_start[k]
          && e->tokens[e->token_at[k]].first_glyph + e->tokens[e->token_at[k]].n_glyphs <= end)
        {
          const DcToken *token = &e->tokens[e->token_at[k]];
          const char *token_text = _dc_token_texts_get (known, e->token_at[k]);

          if (token_text != NULL)
            g_string_append (words, token_text);
          else
            _dc_reorder_token (e->document, e->token_at[k], e->value, e->user_data, words);
          /* Words of CJK or Thai written together, as in the line's text. */
          word.closed = previous != NULL && previous + 1 == token
                        && _dc_reorder_tokens_close_up (e->document, previous, token,
                                                        words->str
                                                            + g_array_index (starts, WordStart,
                                                                             starts->len - 1)
                                                                  .offset,
                                                        words->str + word.offset, e->value,
                                                        e->user_data);
          previous = token;
          k = token->first_glyph + token->n_glyphs;
        }
      else
        {
          k = partial_word (e, k, end, rtl, words);
          previous = NULL;
        }
      g_string_append_c (words, '\0');
      g_array_append_val (starts, word);
    }
  g_string_truncate (out, 0);
  for (guint i = 0; i < starts->len; i++)
    {
      guint w = rtl ? starts->len - 1 - i : i;

      /* A closed gap lies before the later word of the two in drawing order. */
      if (i > 0 && !g_array_index (starts, WordStart, rtl ? w + 1 : w).closed)
        g_string_append_c (out, ' ');
      g_string_append (out, words->str + g_array_index (starts, WordStart, w).offset);
    }
}

/* The span's glyphs in runs of one origin (level, status, provenance): an array. */
static void
add_runs (Export *e, DcJsonWriter *w, guint first, guint end)
{
  g_autoptr (GString) text = g_string_new (NULL);
  Origin current = { 0 };
  guint n = 0;
  gboolean open = FALSE;

  dc_json_writer_begin_array (w, "runs");
  for (guint k = first; k < end; k++)
    {
      Origin o;

      if (is_space (e, k))
        continue;
      origin_of (e, e->order[k], &o);
      if (open && !same_origin (&o, &current))
        {
          write_run (w, text->str, n, &current);
          g_string_truncate (text, 0);
          n = 0;
          open = FALSE;
        }
      if (!open)
        {
          current = o;
          open = TRUE;
        }
      if (e->token_start[k] && text->len > 0)
        g_string_append_c (text, ' ');
      append_value (text, &o);
      n++;
    }
  if (open)
    write_run (w, text->str, n, &current);
  dc_json_writer_end_array (w);
}

/* The font of the span's first glyph: index, name, size. */
static void
add_span_font (Export *e, DcJsonWriter *w, const DcGlyph *head)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  guint font = dc_glyph_get_font (head, symbols);

  dc_json_writer_begin_object (w, "font");
  dc_json_writer_int (w, "index", font);
  dc_json_writer_string (w, "name", dc_font_get_name (dc_document_get_font (e->document, font)));
  dc_json_writer_double (w, "size", dc_glyph_get_size (head));
  dc_json_writer_end_object (w);
}

/* One span: the non-space glyphs of [first, end) of the reading order. A span of
 * punctuation or digits alone (a comma in a font of its own) is in the script of its
 * neighbours, @neighbours. */
static void
add_span (Export *e, DcJsonWriter *w, gboolean vertical, guint first, guint end,
          const DcLanguageGuess *block_language, GUnicodeScript block_script,
          const DcTokenTexts *known, GUnicodeScript *neighbours)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) logical = g_string_new (NULL);
  g_autofree char *normalized = NULL;
  GUnicodeScript script;
  gboolean mixed;
  float x0 = G_MAXFLOAT, y0 = G_MAXFLOAT, x1 = -G_MAXFLOAT, y1 = -G_MAXFLOAT;
  guint undecoded = 0, n_glyphs = 0;
  DcLanguageGuess language;

  for (guint k = first; k < end; k++)
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      Origin o;

      if (is_space (e, k))
        continue;
      if (e->token_start[k] && text->len > 0)
        g_string_append_c (text, ' ');
      origin_of (e, e->order[k], &o);
      append_value (text, &o);
      undecoded += o.value == NULL;
      n_glyphs++;
      x0 = MIN (x0, dc_glyph_get_box (glyph).x0);
      y0 = MIN (y0, dc_glyph_get_box (glyph).y0);
      x1 = MAX (x1, dc_glyph_get_box (glyph).x1);
      y1 = MAX (y1, dc_glyph_get_box (glyph).y1);
    }
  script = dc_text_get_script (text->str, &mixed);
  if (script == G_UNICODE_SCRIPT_COMMON)
    script = *neighbours;
  else if (script != G_UNICODE_SCRIPT_UNKNOWN)
    *neighbours = script;
  logical_text (e, first, end, dc_script_is_rtl (script) && !vertical, known, logical);
  /* Values hold what the glyphs draw, one by one; a reader comparing or searching
   * text wants one spelling of each letter. */
  normalized = _dc_export_normalize (logical->str, e->normalization);
  if (script == block_script || script == G_UNICODE_SCRIPT_COMMON
      || script == G_UNICODE_SCRIPT_UNKNOWN)
    language = *block_language;
  else
    /* A word in another script than its paragraph is in another language, whatever the
     * paragraph's; it is guessed alone, or left unknown when too short. */
    guess_language (e, normalized, NULL, &language);

  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_string (w, "text", normalized);
  dc_json_writer_string (w, "normalization",
                         e->normalization == DC_NORMALIZATION_NFKC  ? "NFKC"
                         : e->normalization == DC_NORMALIZATION_NFD ? "NFD"
                                                                    : "NFC");
  add_bbox (w, x0, y0, x1, y1);
  add_span_font (e, w, &e->glyphs[e->order[first]]);
  add_script (w, script, vertical);
  dc_json_writer_boolean (w, "mixed_script", mixed);
  add_language (w, &language);
  dc_json_writer_int (w, "glyphs", n_glyphs);
  dc_json_writer_int (w, "undecoded_glyphs", undecoded);

  add_runs (e, w, first, end);
  dc_json_writer_end_object (w);
}

/* Han, kana, bopomofo and hangul are written together (ISO 15924 Jpan, Kore, Hanb): a
 * change between them cuts no span. */
static GUnicodeScript
script_family (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_BOPOMOFO:
    case G_UNICODE_SCRIPT_HANGUL:
      return G_UNICODE_SCRIPT_HAN;
    default:
      return script;
    }
}

/* The script of the token starting at reading-order position @k: that of its first
 * character of a script of its own (UAX #24: Common and Inherited ones have none);
 * COMMON when it has none. */
static GUnicodeScript
token_script (Export *e, guint k)
{
  const DcToken *token = &e->tokens[e->token_at[k]];

  for (guint i = token->first_glyph; i < token->first_glyph + token->n_glyphs; i++)
    {
      Origin o;

      origin_of (e, e->order[i], &o);
      for (const char *c = o.value; c != NULL && *c; c = g_utf8_next_char (c))
        {
          GUnicodeScript script = g_unichar_get_script (g_utf8_get_char (c));

          if (script != G_UNICODE_SCRIPT_COMMON && script != G_UNICODE_SCRIPT_INHERITED
              && script != G_UNICODE_SCRIPT_UNKNOWN)
            return script_family (script);
        }
    }
  return G_UNICODE_SCRIPT_COMMON;
}

typedef struct
{
  guint first, end;
  gboolean ltr; /* its words are in a left-to-right script */
} SpanRange;

/* The order a right-to-left line's spans are read in: the line's runs from right to left,
 * but a run of left-to-right spans inside it (a Latin name in Hebrew) left to right. */
static void
order_spans_rtl (SpanRange *spans, guint n)
{
  for (guint i = 0; i < n / 2; i++)
    {
      SpanRange swap = spans[i];

      spans[i] = spans[n - 1 - i];
      spans[n - 1 - i] = swap;
    }
  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j < n && spans[j].ltr)
        j++;
      for (guint a = i, b = j; b > a + 1; a++, b--)
        {
          SpanRange swap = spans[a];

          spans[a] = spans[b - 1];
          spans[b - 1] = swap;
        }
      i = MAX (j, i + 1);
    }
}

/* Spans, as pdftract cuts them: wherever the font or size changes, and where a word in
 * another script begins (and with it, maybe, another direction); punctuation, digits and
 * marks (Common, Inherited) stay with the words around them. Spaces go with the span
 * they are in, whatever font draws them. A right-to-left line's spans come in logical
 * order, as its text does. */
static void
add_spans (Export *e, DcJsonWriter *w, guint l, gboolean rtl, const DcLanguageGuess *block_language,
           GUnicodeScript block_script, const DcTokenTexts *known)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  const DcLine *line = &e->lines[l];
  gboolean vertical = _dc_line_is_vertical (e->document, l);
  guint end = line->first_glyph + line->n_glyphs;
  const DcGlyph *head = NULL;
  GUnicodeScript span_script = G_UNICODE_SCRIPT_COMMON, neighbours = G_UNICODE_SCRIPT_COMMON;
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (SpanRange));
  SpanRange span = { line->first_glyph, 0, FALSE };

  for (guint k = line->first_glyph; k < end; k++)
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      GUnicodeScript script = G_UNICODE_SCRIPT_COMMON;

      if (is_space (e, k))
        continue;
      if (e->token_start[k])
        script = token_script (e, k);
      if (head != NULL
          && (dc_glyph_get_font (glyph, symbols) != dc_glyph_get_font (head, symbols)
              || dc_glyph_get_size (glyph) != dc_glyph_get_size (head)
              || (script != G_UNICODE_SCRIPT_COMMON && span_script != G_UNICODE_SCRIPT_COMMON
                  && script != span_script)))
        {
          span.end = k;
          span.ltr = span_script != G_UNICODE_SCRIPT_COMMON && !dc_script_is_rtl (span_script);
          g_array_append_val (spans, span);
          span.first = k;
          span_script = G_UNICODE_SCRIPT_COMMON;
        }
      if (script != G_UNICODE_SCRIPT_COMMON)
        span_script = script;
      head = glyph;
    }
  if (head != NULL)
    {
      span.end = end;
      span.ltr = span_script != G_UNICODE_SCRIPT_COMMON && !dc_script_is_rtl (span_script);
      g_array_append_val (spans, span);
    }
  if (rtl && !vertical)
    order_spans_rtl ((SpanRange *) (void *) spans->data, spans->len);

  /* A first span of punctuation alone takes the script of the words after it. */
  for (guint s = 0; s < spans->len && neighbours == G_UNICODE_SCRIPT_COMMON; s++)
    {
      const SpanRange *range = &g_array_index (spans, SpanRange, s);

      for (guint k = range->first; k < range->end && neighbours == G_UNICODE_SCRIPT_COMMON; k++)
        if (e->token_start[k])
          neighbours = token_script (e, k);
    }

  dc_json_writer_begin_array (w, "spans");
  for (guint s = 0; s < spans->len; s++)
    {
      const SpanRange *range = &g_array_index (spans, SpanRange, s);

      add_span (e, w, vertical, range->first, range->end, block_language, block_script, known,
                &neighbours);
    }
  dc_json_writer_end_array (w);
}

/* A line's text and its tokens' in logical order (dc-reorder.c): right-to-left lines
 * reversed, Indic pre-base vowels moved after their consonant. Worked out once for the
 * block's language and for the line's own members. */
typedef struct
{
  GString *text;
  GPtrArray *tokens;
} LineText;

static void
add_line (Export *e, DcJsonWriter *w, guint l, guint block_index, double tabscore,
          const LineText *line_text, const DcLanguageGuess *block_language,
          GUnicodeScript block_script, const DcTokenTexts *known)
{
  const DcLine *line = &e->lines[l];
  const GString *text = line_text->text;
  const GPtrArray *token_texts = line_text->tokens;

  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_int (w, "index", line->index);
  dc_json_writer_int (w, "block", block_index);
  add_bbox (w, line->x0, line->y0, line->x1, line->y1);
  dc_json_writer_begin_array (w, "tokens");
  for (guint t = 0; t < token_texts->len; t++)
    dc_json_writer_string (w, NULL, g_ptr_array_index (token_texts, t));
  dc_json_writer_end_array (w);
  dc_json_writer_string (w, "text", text->str);
  /* Freki's iscore: a block's first line has none. */
  if (isnan (tabscore))
    dc_json_writer_null (w, "tabscore");
  else
    dc_json_writer_double (w, "tabscore", tabscore);
  _dc_export_write_line_metadata (w, e->document, l, text->str);
  add_spans (e, w, l, dc_script_is_rtl (dc_text_get_script (text->str, NULL)), block_language,
             block_script, known);
  dc_json_writer_end_object (w);
}

/* What a block (a paragraph) is written in: the unit whose language is guessed, as a
 * line is often too short for the detector. */
typedef struct
{
  GUnicodeScript script;
  DcLanguageGuess language;
  gboolean lang_conflict; /* the detector overrode the document's /Lang */
  GArray *letters;        /* ScriptLetters, most first: a block holds few scripts */
  LineText *lines;        /* per line of the block */
} BlockText;

typedef struct
{
  GUnicodeScript script;
  guint letters;
} ScriptLetters;

static int
compare_script_letters (gconstpointer a, gconstpointer b)
{
  const ScriptLetters *sa = a, *sb = b;

  if (sa->letters != sb->letters)
    return sa->letters > sb->letters ? -1 : 1;
  return (int) sa->script - (int) sb->script;
}

static void
block_text (Export *e, const DcBlock *block, BlockText *out)
{
  g_autoptr (GString) text = g_string_new (NULL);

  out->lines = g_new (LineText, MAX (1, block->n_lines));
  for (guint i = 0; i < block->n_lines; i++)
    {
      LineText *line = &out->lines[i];

      line->text = g_string_new (NULL);
      line->tokens = g_ptr_array_new_with_free_func (g_free);
      _dc_reorder_line (e->document, block->first_line + i, e->value, e->user_data, line->text,
                        line->tokens);
      g_string_append_len (text, line->text->str, line->text->len);
      g_string_append_c (text, '\n');
    }
  out->script = dc_text_get_script (text->str, NULL);
  out->lang_conflict = guess_language (e, text->str, dc_document_get_language (e->document),
                                       &out->language);
  out->letters = g_array_new (FALSE, FALSE, sizeof (ScriptLetters));
  for (const char *c = text->str; *c; c = g_utf8_next_char (c))
    {
      gunichar u = g_utf8_get_char (c);
      GUnicodeScript script;
      guint i;

      if (!g_unichar_isalpha (u))
        continue;
      script = g_unichar_get_script (u);
      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED)
        continue;
      for (i = 0; i < out->letters->len; i++)
        if (g_array_index (out->letters, ScriptLetters, i).script == script)
          break;
      if (i == out->letters->len)
        {
          ScriptLetters first = { script, 0 };

          g_array_append_val (out->letters, first);
        }
      g_array_index (out->letters, ScriptLetters, i).letters++;
    }
  g_array_sort (out->letters, compare_script_letters);
}

/* The block's totals: its letters per script, most first, and its language. */
static void
add_block_totals (DcJsonWriter *w, const BlockText *totals)
{
  dc_json_writer_begin_array (w, "scripts");
  for (guint i = 0; i < totals->letters->len; i++)
    {
      const ScriptLetters *s = &g_array_index (totals->letters, ScriptLetters, i);
      char code[5];

      dc_script_to_iso15924 (s->script, code);
      dc_json_writer_begin_object (w, NULL);
      dc_json_writer_string (w, "script", code);
      dc_json_writer_int (w, "letters", s->letters);
      dc_json_writer_end_object (w);
    }
  dc_json_writer_end_array (w);
  dc_json_writer_boolean (w, "mixed_script", totals->letters->len > 1);
  add_language (w, &totals->language);
  /* The document states a language its text is surely not in: a /Lang left over from a
   * template, or a paragraph in another language. */
  dc_json_writer_boolean (w, "lang_conflict", totals->lang_conflict);
}

/* Whether @text, a line's text in logical order, holds no letter or mark that could be
 * right to left: dc-reorder.c's test of a line's glyphs (may_hold_rtl()), here on what
 * they read, which holds the same characters. */
static gboolean
surely_left_to_right (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      gunichar c;

      if (*p < 0xD6)
        continue;
      if (*p < 0xE0 || *p >= 0xF0 || p[1] == '\0' || p[2] == '\0')
        return FALSE;
      c = ((gunichar) (p[0] & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      if (c <= 0x08FF || c == 0x200F || c == 0x202B || c == 0x202E || c == 0x2067
          || (c >= 0xFB1D && c <= 0xFEFF))
        return FALSE;
      p += 2;
    }
  return TRUE;
}

/* The texts of the block's tokens, which the tab-scores and the spans both read. A line
 * read left to right throughout (most lines) already gave each of its tokens' texts, in
 * order (block_text()): dc-reorder.c reorders the glyphs of a token among themselves
 * only, and moves tokens only for right-to-left text, so they are what the token alone
 * gives (tests/test-json.c checks it on every fixture); the others' tokens are worked
 * out alone. Sets @owned[i] where known->texts[i] is a copy of its own. */
static void
block_token_texts (Export *e, const DcBlock *block, const BlockText *text, DcTokenTexts *known,
                   guint8 **owned)
{
  guint first = G_MAXUINT, end = 0;

  for (guint l = block->first_line; l < block->first_line + block->n_lines; l++)
    {
      first = MIN (first, e->lines[l].first_token);
      end = MAX (end, e->lines[l].first_token + e->lines[l].n_tokens);
    }
  known->first = first;
  known->n = end > first ? end - first : 0;
  known->texts = g_new0 (char *, MAX (1, known->n));
  *owned = g_new0 (guint8, MAX (1, known->n));
  for (guint i = 0; i < block->n_lines; i++)
    {
      const DcLine *line = &e->lines[block->first_line + i];
      const LineText *line_text = &text->lines[i];

      if (line->n_tokens == 0 || line_text->tokens->len != line->n_tokens
          || !surely_left_to_right (line_text->text->str))
        continue;
      for (guint t = 0; t < line->n_tokens; t++)
        known->texts[line->first_token + t - first] = g_ptr_array_index (line_text->tokens, t);
    }
  for (guint i = 0; i < known->n; i++)
    if (known->texts[i] == NULL)
      {
        GString *token_text = g_string_new (NULL);

        _dc_reorder_token (e->document, first + i, e->value, e->user_data, token_text);
        known->texts[i] = g_string_free (token_text, FALSE);
        (*owned)[i] = 1;
      }
}

static void
block_text_clear (BlockText *text, guint n_lines)
{
  for (guint i = 0; i < n_lines; i++)
    {
      g_string_free (text->lines[i].text, TRUE);
      g_ptr_array_unref (text->lines[i].tokens);
    }
  g_free (text->lines);
  g_array_unref (text->letters);
}

static void
add_page (Export *e, DcJsonWriter *w, guint page)
{
  const DcBlock *blocks = dc_document_get_blocks (e->document, NULL);
  double width, height;
  guint first, n;
  g_autofree BlockText *texts = NULL;

  dc_document_get_page_size (e->document, page, &width, &height);
  dc_document_get_page_blocks (e->document, page, &first, &n);
  texts = g_new0 (BlockText, MAX (1, n));
  for (guint b = 0; b < n; b++)
    block_text (e, &blocks[first + b], &texts[b]);

  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_int (w, "page", page + 1);
  dc_json_writer_double (w, "width", width);
  dc_json_writer_double (w, "height", height);

  dc_json_writer_begin_array (w, "blocks");
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];

      dc_json_writer_begin_object (w, NULL);
      dc_json_writer_int (w, "index", block->index);
      dc_json_writer_string (w, "label", block->label);
      /* pdftract's block kind; of its kinds, only tables are told apart yet. */
      dc_json_writer_string (w, "kind", block->table ? "table" : NULL);
      add_bbox (w, block->x0, block->y0, block->x1, block->y1);
      dc_json_writer_int (w, "first_line", e->lines[block->first_line].index);
      dc_json_writer_int (w, "n_lines", block->n_lines);
      add_block_totals (w, &texts[b - first]);
      dc_json_writer_end_object (w);
    }
  dc_json_writer_end_array (w);

  dc_json_writer_begin_array (w, "lines");
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];
      g_autofree double *tabscores = NULL;
      const BlockText *text = &texts[b - first];
      DcTokenTexts known;
      g_autofree guint8 *owned = NULL;

      block_token_texts (e, block, text, &known, &owned);
      tabscores = _dc_export_block_tabscores (e->document, block, e->left_margin, e->value,
                                              e->user_data, &known);
      for (guint i = 0; i < block->n_lines; i++)
        add_line (e, w, block->first_line + i, block->index, tabscores[i], &text->lines[i],
                  &text->language, text->script, &known);
      for (guint i = 0; i < known.n; i++)
        if (owned[i])
          g_free (known.texts[i]);
      g_free (known.texts);
    }
  dc_json_writer_end_array (w);
  dc_json_writer_end_object (w);
  for (guint b = 0; b < n; b++)
    block_text_clear (&texts[b], blocks[first + b].n_lines);
}

/* Pages [first_page, end_page), each after the separator from the one before. */
static void
make_pages (guint first_page, guint end_page, GString *out, gpointer data)
{
  for (guint page = first_page; page < end_page; page++)
    {
      DcJsonWriter w;

      g_string_append (out, dc_json_writer_separator (page == 0));
      /* A page is an element of the root object's "pages". */
      dc_json_writer_init (&w, out, 2);
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

  dc_json_writer_init (w, out, 0);
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
  for (guint s = 0; s < n_symbols; s++)
    find_origin (&e, s, &origins[s]);
  e.origins = origins;
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
  e.left_margin = _dc_export_left_margin (document);
  g_mutex_init (&e.lock);
  e.guesses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  ok = write_document (&e, out, write, write_data);
  g_hash_table_unref (e.guesses);
  g_ptr_array_unref (e.escaped);
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
