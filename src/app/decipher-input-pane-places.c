/* decipher-input-pane-places.c: runs of tokens, as the input pane shows and fills them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the input pane needs to know of the document: the line a glyph is on, the glyphs
 * of a place the matcher names, a place's line as text, and the words a drag spans.
 * Only the document and the key: split from decipher-input-pane.c, which is the widget.
 */

#define G_LOG_DOMAIN "decipher-input-pane"

#include "config.h"

#include "decipher-input-pane-private.h"

/* The line drawing @glyph, or DECIPHER_NO_LINE (a glyph outside every line). */
guint
_decipher_line_of_glyph (DcDocument *document, guint glyph)
{
  guint line;

  return dc_document_locate_glyph (document, glyph, NULL, &line) ? line : DECIPHER_NO_LINE;
}

/* The glyphs of tokens @token … @token + @n_tokens − 1 of @line, in reading order. */
GArray *
_decipher_place_glyphs (DcDocument *document, guint line, guint token, guint n_tokens)
{
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  GArray *glyphs = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint t = token; t < token + n_tokens && t < lines[line].n_tokens; t++)
    {
      const DcToken *tok = &tokens[lines[line].first_token + t];

      for (guint i = tok->first_glyph; i < tok->first_glyph + tok->n_glyphs; i++)
        g_array_append_val (glyphs, order[i]);
    }
  return glyphs;
}

/* @line as far as it is decoded, unknown glyphs as “?”, with the tokens of the place in
 * bold on a highlight so that the user sees which words the row stands for. */
char *
_decipher_place_markup (DcDocument *document, DcKey *key, const DcMatchPlace *place)
{
  const DcLine *line = &dc_document_get_lines (document, NULL)[place->line];
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autoptr (GString) markup = g_string_new (NULL);

  for (guint t = 0; t < line->n_tokens; t++)
    {
      const DcToken *token = &tokens[line->first_token + t];
      gboolean in_place = t >= place->token && t < place->token + place->n_tokens;
      g_autoptr (GString) text = g_string_new (NULL);
      g_autofree char *escaped = NULL;

      for (guint i = token->first_glyph; i < token->first_glyph + token->n_glyphs; i++)
        {
          const char *value = dc_key_get_value (key, glyphs[order[i]].symbol);

          g_string_append (text, value != NULL ? value : "?");
        }
      escaped = g_markup_escape_text (text->str, -1);
      if (t > 0)
        g_string_append_c (markup, ' ');
      if (in_place)
        g_string_append_printf (markup, "<span weight=\"bold\" underline=\"single\">%s</span>",
                                escaped);
      else
        g_string_append (markup, escaped);
    }
  return g_string_free (g_steal_pointer (&markup), FALSE);
}

/* Widens [@first, @last] of the reading order to whole tokens: the matcher reads words. */
static void
widen_to_tokens (DcDocument *document, guint *first, guint *last)
{
  guint n_tokens = 0;
  const DcToken *tokens = dc_document_get_tokens (document, &n_tokens);

  /* Tokens are in reading order: a binary search finds the one holding a position. */
  for (int end = 0; end < 2; end++)
    {
      guint position = end ? *last : *first;
      guint lo = 0, hi = n_tokens;

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;

          if (tokens[mid].first_glyph + tokens[mid].n_glyphs <= position)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < n_tokens && tokens[lo].first_glyph <= position)
        {
          if (end)
            *last = tokens[lo].first_glyph + tokens[lo].n_glyphs - 1;
          else
            *first = tokens[lo].first_glyph;
        }
    }
}

/**
 * _decipher_run_text:
 * @line_out: (out): the line of the run's first glyph
 * @placeholder: (inout): set to the character offset of the first “?”, if any
 *
 * The words from @first_glyph to @last_glyph (either order, widened to whole tokens),
 * as far as they are decoded, unknown glyphs as “?”.
 *
 * Returns: (nullable): the text, or %NULL if a glyph is on no line
 */
char *
_decipher_run_text (DcDocument *document, DcKey *key, guint first_glyph, guint last_glyph,
                    guint *line_out, int *placeholder)
{
  const guint32 *order;
  const DcGlyph *glyphs;
  const DcLine *lines;
  g_autoptr (GString) text = g_string_new (NULL);
  guint first, last, first_line, last_line;

  if (!dc_document_locate_glyph (document, first_glyph, &first, &first_line)
      || !dc_document_locate_glyph (document, last_glyph, &last, &last_line))
    return NULL;
  if (first > last)
    {
      guint t = first;

      first = last;
      last = t;
      t = first_line;
      first_line = last_line;
      last_line = t;
    }
  widen_to_tokens (document, &first, &last);
  order = dc_document_get_reading_order (document, NULL);
  glyphs = dc_document_get_glyphs (document, NULL);
  lines = dc_document_get_lines (document, NULL);
  for (guint i = first, line = first_line; i <= last; i++)
    {
      guint symbol = glyphs[order[i]].symbol;
      const char *value = dc_key_get_value (key, symbol);

      /* A line break inside the run reads as a space, as the user would type it. */
      while (line < last_line && i >= lines[line].first_glyph + lines[line].n_glyphs)
        {
          line++;
          if (text->len > 0 && text->str[text->len - 1] != ' ')
            g_string_append_c (text, ' ');
        }
      if (dc_document_symbol_is_space (document, symbol))
        {
          if (text->len > 0 && text->str[text->len - 1] != ' ')
            g_string_append_c (text, ' ');
          continue;
        }
      if (value == NULL)
        {
          if (*placeholder < 0)
            *placeholder = (int) g_utf8_strlen (text->str, -1);
          value = "?";
        }
      g_string_append (text, value);
    }
  g_strchomp (text->str);

  *line_out = first_line;
  return g_string_free (g_steal_pointer (&text), FALSE);
}
