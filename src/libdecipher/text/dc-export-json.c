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
  add_string_or_null (builder, "tag", guess->tag[0] ? guess->tag : NULL);
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

/* The span's text in logical order: its whole tokens as dc-reorder.c gives them (Indic
 * pre-base vowels after their consonant), in reverse on a right-to-left span; a token cut
 * by a change of font keeps its glyphs' order. */
static void
logical_text (Export *e, guint first, guint end, gboolean rtl, GString *out)
{
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);

  for (guint k = first; k < end;)
    {
      GString *word = g_string_new (NULL);

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
          k = token->first_glyph + token->n_glyphs;
        }
      else
        do
          {
            Origin o;

            if (!is_space (e, k))
              {
                origin_of (e, e->glyphs[e->order[k]].symbol, &o);
                append_value (word, &o);
              }
            k++;
          }
        while (k < end && !e->token_start[k]);
      g_ptr_array_add (words, g_string_free (word, FALSE));
    }
  g_string_truncate (out, 0);
  for (guint i = 0; i < words->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, g_ptr_array_index (words, rtl ? words->len - 1 - i : i));
    }
}

/* One span: the non-space glyphs of [first, end) of the reading order. */
static void
add_span (Export *e, JsonBuilder *builder, gboolean vertical, guint first, guint end,
          const DcLanguageGuess *block_language, GUnicodeScript block_script)
{
  const DcGlyph *head = &e->glyphs[e->order[first]];
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *normalized = NULL;
  GUnicodeScript script;
  gboolean mixed;
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
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
  logical_text (e, first, end, dc_script_is_rtl (script) && !vertical, text);
  /* Values hold what the glyphs draw, one by one; a reader comparing or searching
   * text wants one spelling of each letter. */
  normalized = g_utf8_normalize (text->str, -1, G_NORMALIZE_NFC);
  if (script == block_script || script == G_UNICODE_SCRIPT_COMMON
      || script == G_UNICODE_SCRIPT_UNKNOWN)
    language = *block_language;
  else
    /* A word in another script than its paragraph is in another language, whatever the
     * paragraph's; it is guessed alone, or left unknown when too short. */
    dc_language_guess (normalized, NULL, &language);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, normalized);
  json_builder_set_member_name (builder, "normalization");
  json_builder_add_string_value (builder, "NFC");
  json_builder_set_member_name (builder, "bbox");
  add_bbox (builder, x0, y0, x1, y1);
  json_builder_set_member_name (builder, "font");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, dc_glyph_get_font (head, symbols));
  add_string_or_null (builder, "name",
                      dc_font_get_name (
                          dc_document_get_font (e->document, dc_glyph_get_font (head, symbols))));
  json_builder_set_member_name (builder, "size");
  json_builder_add_double_value (builder, dc_glyph_get_size (head));
  json_builder_end_object (builder);
  add_script (builder, script, vertical);
  json_builder_set_member_name (builder, "mixed_script");
  json_builder_add_boolean_value (builder, mixed);
  add_language (builder, &language);
  json_builder_set_member_name (builder, "glyphs");
  json_builder_add_int_value (builder, n_glyphs);
  json_builder_set_member_name (builder, "undecoded_glyphs");
  json_builder_add_int_value (builder, undecoded);

  json_builder_set_member_name (builder, "runs");
  json_builder_begin_array (builder);
  {
    Origin current = { 0 };
    guint run_first = 0;
    gboolean open = FALSE;

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
  }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* Spans: the line cut wherever the font or size changes (spaces go with the span they
 * are in, whatever font draws them). */
static void
add_spans (Export *e, JsonBuilder *builder, guint l, const DcLanguageGuess *block_language,
           GUnicodeScript block_script)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  const DcLine *line = &e->lines[l];
  gboolean vertical = _dc_line_is_vertical (e->document, l);
  guint end = line->first_glyph + line->n_glyphs;
  guint first = line->first_glyph;
  const DcGlyph *head = NULL;

  json_builder_set_member_name (builder, "spans");
  json_builder_begin_array (builder);
  for (guint k = line->first_glyph; k < end; k++)
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];

      if (is_space (e, k))
        continue;
      if (head != NULL
          && (dc_glyph_get_font (glyph, symbols) != dc_glyph_get_font (head, symbols)
              || dc_glyph_get_size (glyph) != dc_glyph_get_size (head)))
        {
          add_span (e, builder, vertical, first, k, block_language, block_script);
          first = k;
        }
      head = glyph;
    }
  if (head != NULL)
    add_span (e, builder, vertical, first, end, block_language, block_script);
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
  json_builder_set_member_name (builder, "tabscore");
  json_builder_add_double_value (builder, tabscore);
  dc_export_add_line_metadata (builder, e->document, l, text->str);
  add_spans (e, builder, l, block_language, block_script);
  json_builder_end_object (builder);
}

static void
add_page (Export *e, JsonBuilder *builder, guint page)
{
  const DcBlock *blocks = dc_document_get_blocks (e->document, NULL);
  double width, height;
  guint first, n;

  dc_document_get_page_size (e->document, page, &width, &height);
  dc_document_get_page_blocks (e->document, page, &first, &n);
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
      json_builder_set_member_name (builder, "bbox");
      add_bbox (builder, block->x0, block->y0, block->x1, block->y1);
      json_builder_set_member_name (builder, "first_line");
      json_builder_add_int_value (builder, e->lines[block->first_line].index);
      json_builder_set_member_name (builder, "n_lines");
      json_builder_add_int_value (builder, block->n_lines);
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
      g_autoptr (GString) text = g_string_new (NULL);
      DcLanguageGuess language;
      GUnicodeScript script;

      /* The block (a paragraph) is the unit whose language is guessed: a line is often
       * too short for the detector. */
      for (guint l = block->first_line; l < block->first_line + block->n_lines; l++)
        {
          _dc_export_append_line (text, e->document, l, e->value, e->user_data);
          g_string_append_c (text, '\n');
        }
      script = dc_text_get_script (text->str, NULL);
      dc_language_guess (text->str, dc_document_get_language (e->document), &language);
      for (guint i = 0; i < block->n_lines; i++)
        add_line (e, builder, block->first_line + i, block->index, tabscores[i], &language, script);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

char *
_dc_export_json (DcDocument *document, DcValueFunc value, gpointer user_data)
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
