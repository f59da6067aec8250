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

#include <json-glib/json-glib.h>

#include "dc-export-private.h"
#include "dc-json.h"
#include "dc-key.h"
#include "dc-language.h"
#include "dc-reorder-private.h"
#include "dc-script.h"

#define DC_TEXT_JSON_VERSION 1

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
} Export;

/* Where one symbol's value comes from. */
typedef struct
{
  const char *value;
  DcKeyStatus status;
  DcKeyLevel level;
  double confidence;
  const char *provenance;
} Origin;

static void
origin_of (Export *e, guint symbol, Origin *origin)
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
}

static gboolean
same_origin (const Origin *a, const Origin *b)
{
  return (a->value == NULL) == (b->value == NULL) && a->status == b->status && a->level == b->level
         && a->confidence == b->confidence && g_strcmp0 (a->provenance, b->provenance) == 0;
}

static void
add_bbox (JsonBuilder *builder, float x0, float y0, float x1, float y1)
{
  json_builder_begin_array (builder);
  json_builder_add_double_value (builder, x0);
  json_builder_add_double_value (builder, y0);
  json_builder_add_double_value (builder, x1);
  json_builder_add_double_value (builder, y1);
  json_builder_end_array (builder);
}

static void
add_string_or_null (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_language (JsonBuilder *builder, const DcLanguageGuess *guess)
{
  json_builder_set_member_name (builder, "language");
  json_builder_begin_object (builder);
  /* BCP 47's "und": the language is not known (pdftract writes it so, never a guess). */
  add_string_or_null (builder, "tag", guess->tag[0] ? guess->tag : "und");
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, guess->source);
  json_builder_set_member_name (builder, "confidence");
  json_builder_add_double_value (builder, guess->confidence);
  json_builder_end_object (builder);
}

/* The span's script, direction and writing mode, named as the line's are
 * (dc_export_add_line_metadata()). */
static void
add_script (JsonBuilder *builder, GUnicodeScript script, gboolean vertical)
{
  char code[5];

  dc_script_to_iso15924 (script, code);
  json_builder_set_member_name (builder, "script");
  json_builder_add_string_value (builder, code);
  json_builder_set_member_name (builder, "direction");
  json_builder_add_string_value (builder, dc_direction_to_string (
                                              vertical ? DC_DIRECTION_TTB
                                                       : dc_text_get_direction (script, 0)));
  json_builder_set_member_name (builder, "writing_mode");
  json_builder_add_string_value (builder, !vertical ? "horizontal-tb"
                                          : _dc_script_has_left_to_right_columns (script)
                                              ? "vertical-lr"
                                              : "vertical-rl");
}

static void
append_value (GString *out, const Origin *origin)
{
  g_string_append (out, origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT);
}

static gboolean
is_space (Export *e, guint k)
{
  return dc_document_symbol_is_space (e->document, e->glyphs[e->order[k]].symbol);
}

/* One run: glyphs [first, end) of the reading order, all of one origin. */
static void
add_run (Export *e, JsonBuilder *builder, guint first, guint end, const Origin *origin)
{
  g_autoptr (GString) text = g_string_new (NULL);

  guint n = 0;

  for (guint k = first; k < end; k++)
    {
      Origin o;

      if (is_space (e, k))
        continue;
      if (e->token_start[k] && text->len > 0)
        g_string_append_c (text, ' ');
      origin_of (e, e->glyphs[e->order[k]].symbol, &o);
      append_value (text, &o);
      n++;
    }
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text->str);
  json_builder_set_member_name (builder, "glyphs");
  json_builder_add_int_value (builder, n);
  json_builder_set_member_name (builder, "undecoded");
  json_builder_add_boolean_value (builder, origin->value == NULL);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, dc_key_status_to_string (origin->status));
  json_builder_set_member_name (builder, "level");
  json_builder_add_string_value (builder, dc_key_level_to_string (origin->level));
  json_builder_set_member_name (builder, "confidence");
  json_builder_add_double_value (builder, origin->confidence);
  add_string_or_null (builder, "provenance", origin->provenance);
  json_builder_end_object (builder);
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

          origin_of (e, glyph->symbol, &o);
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

/* The span's text in logical order: its whole tokens as dc-reorder.c gives them (Indic
 * pre-base vowels after their consonant), in reverse on a right-to-left span, as are the
 * glyphs of a token cut by a change of font. */
static void
logical_text (Export *e, guint first, guint end, gboolean rtl, GString *out)
{
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) closed = g_array_new (FALSE, FALSE, sizeof (gboolean));
  const DcToken *previous = NULL;

  for (guint k = first; k < end;)
    {
      GString *word = g_string_new (NULL);
      gboolean close_up = FALSE;

      if (is_space (e, k))
        {
          k++;
          g_string_free (word, TRUE);
          continue;
        }
      if (e->token_start[k]
          && e->tokens[e->token_at[k]].first_glyph + e->tokens[e->token_at[k]].n_glyphs <= end)
        {
          const DcToken *token = &e->tokens[e->token_at[k]];

          _dc_reorder_token (e->document, e->token_at[k], e->value, e->user_data, word);
          /* Words of CJK or Thai written together, as in the line's text. */
          close_up = previous != NULL && previous + 1 == token
                     && _dc_reorder_tokens_close_up (e->document, previous, token,
                                                     g_ptr_array_index (words, words->len - 1),
                                                     word->str, e->value, e->user_data);
          previous = token;
          k = token->first_glyph + token->n_glyphs;
        }
      else
        {
          k = partial_word (e, k, end, rtl, word);
          previous = NULL;
        }
      g_ptr_array_add (words, g_string_free (word, FALSE));
      g_array_append_val (closed, close_up);
    }
  g_string_truncate (out, 0);
  for (guint i = 0; i < words->len; i++)
    {
      guint w = rtl ? words->len - 1 - i : i;

      /* A closed gap lies before the later word of the two in drawing order. */
      if (i > 0 && !g_array_index (closed, gboolean, rtl ? w + 1 : w))
        g_string_append_c (out, ' ');
      g_string_append (out, g_ptr_array_index (words, w));
    }
}

/* The span's glyphs in runs of one origin (level, status, provenance): an array. */
static void
add_runs (Export *e, JsonBuilder *builder, guint first, guint end)
{
  Origin current = { 0 };
  guint run_first = 0;
  gboolean open = FALSE;

  json_builder_begin_array (builder);
  for (guint k = first; k < end; k++)
    {
      Origin o;

      if (is_space (e, k))
        continue;
      origin_of (e, e->glyphs[e->order[k]].symbol, &o);
      if (open && !same_origin (&o, &current))
        {
          add_run (e, builder, run_first, k, &current);
          open = FALSE;
        }
      if (!open)
        {
          current = o;
          run_first = k;
          open = TRUE;
        }
    }
  if (open)
    add_run (e, builder, run_first, end, &current);
  json_builder_end_array (builder);
}

/* The font of the span's first glyph: index, name, size. */
static void
add_span_font (Export *e, JsonBuilder *builder, const DcGlyph *head)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  guint font = dc_glyph_get_font (head, symbols);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, font);
  add_string_or_null (builder, "name", dc_font_get_name (dc_document_get_font (e->document, font)));
  json_builder_set_member_name (builder, "size");
  json_builder_add_double_value (builder, dc_glyph_get_size (head));
  json_builder_end_object (builder);
}

/* One span: the non-space glyphs of [first, end) of the reading order. A span of
 * punctuation or digits alone (a comma in a font of its own) is in the script of its
 * neighbours, @neighbours. */
static void
add_span (Export *e, JsonBuilder *builder, gboolean vertical, guint first, guint end,
          const DcLanguageGuess *block_language, GUnicodeScript block_script,
          GUnicodeScript *neighbours)
{
  g_autoptr (GString) text = g_string_new (NULL);
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
      origin_of (e, glyph->symbol, &o);
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
  logical_text (e, first, end, dc_script_is_rtl (script) && !vertical, text);
  /* Values hold what the glyphs draw, one by one; a reader comparing or searching
   * text wants one spelling of each letter. */
  normalized = g_utf8_normalize (text->str, -1,
                                 e->normalization == DC_NORMALIZATION_NFKC  ? G_NORMALIZE_NFKC
                                 : e->normalization == DC_NORMALIZATION_NFD ? G_NORMALIZE_NFD
                                                                            : G_NORMALIZE_NFC);
  if (script == block_script || script == G_UNICODE_SCRIPT_COMMON
      || script == G_UNICODE_SCRIPT_UNKNOWN)
    language = *block_language;
  else
    /* A word in another script than its paragraph is in another language, whatever the
     * paragraph's; it is guessed alone, or left unknown when too short. */
    _dc_export_guess_language (normalized, NULL, &language);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, normalized);
  json_builder_set_member_name (builder, "normalization");
  json_builder_add_string_value (builder, e->normalization == DC_NORMALIZATION_NFKC  ? "NFKC"
                                          : e->normalization == DC_NORMALIZATION_NFD ? "NFD"
                                                                                     : "NFC");
  json_builder_set_member_name (builder, "bbox");
  add_bbox (builder, x0, y0, x1, y1);
  json_builder_set_member_name (builder, "font");
  add_span_font (e, builder, &e->glyphs[e->order[first]]);
  add_script (builder, script, vertical);
  json_builder_set_member_name (builder, "mixed_script");
  json_builder_add_boolean_value (builder, mixed);
  add_language (builder, &language);
  json_builder_set_member_name (builder, "glyphs");
  json_builder_add_int_value (builder, n_glyphs);
  json_builder_set_member_name (builder, "undecoded_glyphs");
  json_builder_add_int_value (builder, undecoded);

  json_builder_set_member_name (builder, "runs");
  add_runs (e, builder, first, end);
  json_builder_end_object (builder);
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
      const char *value = e->value (e->glyphs[e->order[i]].symbol, e->user_data);

      for (const char *c = value; c != NULL && *c; c = g_utf8_next_char (c))
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
add_spans (Export *e, JsonBuilder *builder, guint l, gboolean rtl,
           const DcLanguageGuess *block_language, GUnicodeScript block_script)
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

  json_builder_set_member_name (builder, "spans");
  json_builder_begin_array (builder);
  for (guint s = 0; s < spans->len; s++)
    {
      const SpanRange *range = &g_array_index (spans, SpanRange, s);

      add_span (e, builder, vertical, range->first, range->end, block_language, block_script,
                &neighbours);
    }
  json_builder_end_array (builder);
}

static void
add_line (Export *e, JsonBuilder *builder, guint l, guint block_index, double tabscore,
          const DcLanguageGuess *block_language, GUnicodeScript block_script)
{
  const DcLine *line = &e->lines[l];
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) token_texts = g_ptr_array_new_with_free_func (g_free);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, line->index);
  json_builder_set_member_name (builder, "block");
  json_builder_add_int_value (builder, block_index);
  json_builder_set_member_name (builder, "bbox");
  add_bbox (builder, line->x0, line->y0, line->x1, line->y1);
  /* Tokens and text in logical order (dc-reorder.c): right-to-left lines reversed,
   * Indic pre-base vowels moved after their consonant. */
  _dc_reorder_line (e->document, l, e->value, e->user_data, text, token_texts);
  json_builder_set_member_name (builder, "tokens");
  json_builder_begin_array (builder);
  for (guint t = 0; t < token_texts->len; t++)
    json_builder_add_string_value (builder, g_ptr_array_index (token_texts, t));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text->str);
  /* Freki's iscore: a block's first line has none. */
  json_builder_set_member_name (builder, "tabscore");
  if (isnan (tabscore))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, tabscore);
  dc_export_add_line_metadata (builder, e->document, l, text->str);
  add_spans (e, builder, l, dc_script_is_rtl (dc_text_get_script (text->str, NULL)), block_language,
             block_script);
  json_builder_end_object (builder);
}

/* What a block (a paragraph) is written in: the unit whose language is guessed, as a
 * line is often too short for the detector. */
typedef struct
{
  GUnicodeScript script;
  DcLanguageGuess language;
  gboolean lang_conflict; /* the detector overrode the document's /Lang */
  GHashTable *letters;    /* GUnicodeScript → letters of that script */
} BlockText;

static int
compare_script_counts (gconstpointer a, gconstpointer b, gpointer letters)
{
  guint na = GPOINTER_TO_UINT (g_hash_table_lookup (letters, a));
  guint nb = GPOINTER_TO_UINT (g_hash_table_lookup (letters, b));

  if (na != nb)
    return na > nb ? -1 : 1;
  return GPOINTER_TO_INT (a) - GPOINTER_TO_INT (b);
}

static void
block_text (Export *e, const DcBlock *block, BlockText *out)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint l = block->first_line; l < block->first_line + block->n_lines; l++)
    {
      _dc_export_append_line (text, e->document, l, e->value, e->user_data);
      g_string_append_c (text, '\n');
    }
  out->script = dc_text_get_script (text->str, NULL);
  out->lang_conflict = _dc_export_guess_language (text->str, dc_document_get_language (e->document),
                                                  &out->language);
  out->letters = g_hash_table_new (NULL, NULL);
  for (const char *c = text->str; *c; c = g_utf8_next_char (c))
    {
      gunichar u = g_utf8_get_char (c);
      GUnicodeScript script = g_unichar_get_script (u);
      gpointer key = GINT_TO_POINTER (script);

      if (g_unichar_isalpha (u) && script != G_UNICODE_SCRIPT_COMMON
          && script != G_UNICODE_SCRIPT_INHERITED)
        g_hash_table_insert (out->letters, key,
                             GUINT_TO_POINTER (
                                 GPOINTER_TO_UINT (g_hash_table_lookup (out->letters, key)) + 1));
    }
}

/* The block's totals: its letters per script, most first, and its language. */
static void
add_block_totals (JsonBuilder *builder, const BlockText *totals)
{
  g_autoptr (GList) scripts = g_hash_table_get_keys (totals->letters);

  scripts = g_list_sort_with_data (scripts, (GCompareDataFunc) compare_script_counts,
                                   totals->letters);
  json_builder_set_member_name (builder, "scripts");
  json_builder_begin_array (builder);
  for (GList *s = scripts; s != NULL; s = s->next)
    {
      char code[5];

      dc_script_to_iso15924 (GPOINTER_TO_INT (s->data), code);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "script");
      json_builder_add_string_value (builder, code);
      json_builder_set_member_name (builder, "letters");
      json_builder_add_int_value (builder, GPOINTER_TO_UINT (
                                               g_hash_table_lookup (totals->letters, s->data)));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "mixed_script");
  json_builder_add_boolean_value (builder, g_hash_table_size (totals->letters) > 1);
  add_language (builder, &totals->language);
  /* The document states a language its text is surely not in: a /Lang left over from a
   * template, or a paragraph in another language. */
  json_builder_set_member_name (builder, "lang_conflict");
  json_builder_add_boolean_value (builder, totals->lang_conflict);
}

static void
add_page (Export *e, JsonBuilder *builder, guint page)
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

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "page");
  json_builder_add_int_value (builder, page + 1);
  json_builder_set_member_name (builder, "width");
  json_builder_add_double_value (builder, width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_double_value (builder, height);

  json_builder_set_member_name (builder, "blocks");
  json_builder_begin_array (builder);
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, block->index);
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, block->label);
      /* pdftract's block kind; of its kinds, only tables are told apart yet. */
      json_builder_set_member_name (builder, "kind");
      if (block->table)
        json_builder_add_string_value (builder, "table");
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "bbox");
      add_bbox (builder, block->x0, block->y0, block->x1, block->y1);
      json_builder_set_member_name (builder, "first_line");
      json_builder_add_int_value (builder, e->lines[block->first_line].index);
      json_builder_set_member_name (builder, "n_lines");
      json_builder_add_int_value (builder, block->n_lines);
      add_block_totals (builder, &texts[b - first]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "lines");
  json_builder_begin_array (builder);
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];
      g_autofree double *tabscores = dc_export_block_tabscores (e->document, block, e->value,
                                                                e->user_data);
      const BlockText *text = &texts[b - first];

      for (guint i = 0; i < block->n_lines; i++)
        add_line (e, builder, block->first_line + i, block->index, tabscores[i], &text->language,
                  text->script);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  for (guint b = 0; b < n; b++)
    g_hash_table_unref (texts[b].letters);
}

char *
_dc_export_json (DcDocument *document, DcNormalization normalization, DcValueFunc value,
                 gpointer user_data)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *name = g_path_get_basename (dc_document_get_path (document));
  g_autofree guint8 *token_start = NULL;
  g_autofree guint32 *token_at = NULL;
  guint n_pages = dc_document_get_n_pages (document);
  guint n_glyphs, n_tokens;
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

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "decipher-text");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, DC_TEXT_JSON_VERSION);
  json_builder_set_member_name (builder, "document");
  json_builder_add_string_value (builder, name);
  add_string_or_null (builder, "language", dc_document_get_language (document));
  json_builder_set_member_name (builder, "language_detector");
  json_builder_add_boolean_value (builder, dc_language_detector_available ());
  json_builder_set_member_name (builder, "pages");
  json_builder_begin_array (builder);
  for (guint page = 0; page < n_pages; page++)
    add_page (&e, builder, page);
  json_builder_end_array (builder);
  dc_export_add_warnings (builder, document, -1, value, user_data);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return dc_json_generate (root, TRUE, NULL);
}
