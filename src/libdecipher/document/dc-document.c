/* dc-document.c: every drawn glyph of a PDF, its fonts, symbols, lines and tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Threads. Everything extracted from the PDF (glyphs, reading order, symbols, fonts,
 * the lines' places) is written once while loading and never again, so any thread may
 * read it for as long as it holds the document. Only the word boundaries change after
 * loading: learning that a symbol is a space (DcKey does it) splits tokens anew. The
 * tokens, the lines' token ranges and the space flags therefore live in a DcTokens
 * snapshot that is never changed once made; a space change makes a new one and drops
 * the document's reference to the old, which lives on as long as a worker holds it.
 *
 * Loading is dc-document-loader.c's and the tokens are dc-document-tokens.c's; this file
 * holds the object and its getters.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-document-private.h"
#include "dc-error.h"
#include "dc-hash-private.h"
#include "dc-font-private.h"
#include "dc-script.h"
#include "dc-tsan-private.h"

G_DEFINE_FINAL_TYPE (DcDocument, dc_document, G_TYPE_OBJECT)

void
_dc_document_clear_symbol (gpointer data)
{
  DcSymbol *symbol = data;

  g_clear_pointer (&symbol->pdf_text, g_free);
}

static void
clear_block (gpointer data)
{
  DcBlock *block = data;

  g_clear_pointer (&block->label, g_free);
}

static void
dc_document_finalize (GObject *object)
{
  DcDocument *self = DC_DOCUMENT (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->sha256, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->page_sizes, g_free);
  g_clear_pointer (&self->page_lines, g_free);
  g_clear_pointer (&self->page_blocks, g_free);
  g_clear_pointer (&self->fonts, g_ptr_array_unref);
  g_clear_pointer (&self->glyphs, g_array_unref);
  g_clear_pointer (&self->symbols, g_array_unref);
  g_clear_pointer (&self->symbol_index, g_hash_table_unref);
  g_clear_pointer (&self->symbol_is_space, g_free);
  g_clear_pointer (&self->spans, g_array_unref);
  if (self->span_texts != NULL)
    g_string_free (g_steal_pointer (&self->span_texts), TRUE);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_pointer (&self->blocks, g_array_unref);
  g_clear_pointer (&self->tokens, dc_tokens_unref);
  g_clear_pointer (&self->font_lines, g_free);
  g_clear_pointer (&self->font_line_starts, g_free);
  g_clear_pointer (&self->font_symbols, g_free);
  g_clear_pointer (&self->font_symbol_starts, g_free);
  g_clear_pointer (&self->page_glyphs, g_free);
  g_clear_pointer (&self->symbol_glyphs, g_free);

  G_OBJECT_CLASS (dc_document_parent_class)->finalize (object);
}

static void
dc_document_class_init (DcDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dc_document_finalize;
}

static void
dc_document_init (DcDocument *self)
{
  self->fonts = g_ptr_array_new_with_free_func (g_object_unref);
  self->glyphs = g_array_new (FALSE, FALSE, sizeof (DcGlyph));
  self->symbols = g_array_new (FALSE, TRUE, sizeof (DcSymbol));
  g_array_set_clear_func (self->symbols, _dc_document_clear_symbol);
  self->symbol_index = g_hash_table_new_full (_dc_hash_u64, g_int64_equal, g_free, NULL);
  self->spans = g_array_new (FALSE, FALSE, sizeof (ActualTextSpan));
  self->span_texts = g_string_new (NULL);
  self->order = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->lines = g_array_new (FALSE, TRUE, sizeof (DcLine));
  self->blocks = g_array_new (FALSE, TRUE, sizeof (DcBlock));
  g_array_set_clear_func (self->blocks, clear_block);
}

/* The document's language as its catalog states it (/Lang, a BCP 47 tag), or NULL. */
const char *
dc_document_get_language (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->language;
}

/* Valid as long as the document; never changes. */
const char *
dc_document_get_path (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->path;
}

/* The SHA-256 of the file: a project is tied to exactly this document. */
const char *
dc_document_get_sha256 (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->sha256;
}

guint
dc_document_get_n_pages (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->n_pages;
}

void
dc_document_get_page_size (DcDocument *self, guint page, double *width, double *height)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (width)
    *width = self->page_sizes[2 * page];
  if (height)
    *height = self->page_sizes[2 * page + 1];
}

guint
dc_document_get_n_fonts (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->fonts->len;
}

/**
 * dc_document_get_font:
 *
 * Returns: (transfer none): the font, valid as long as the document; only its counts
 *   and trust, set while loading, are read by the engine, so any thread may read it
 */
DcFont *
dc_document_get_font (DcDocument *self, guint index)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (index < self->fonts->len, NULL);

  return g_ptr_array_index (self->fonts, index);
}

/**
 * dc_document_get_glyphs:
 *
 * Returns: (transfer none): every glyph, page by page in drawing order; never changes,
 *   so any thread may read it for as long as it holds the document
 */
const DcGlyph *
dc_document_get_glyphs (DcDocument *self, guint *n_glyphs)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_glyphs)
    *n_glyphs = self->glyphs->len;
  return (const DcGlyph *) (void *) self->glyphs->data;
}

/**
 * dc_document_get_symbols:
 *
 * Returns: (transfer none): the symbols; never change (their values live in a DcKey),
 *   so any thread may read them for as long as it holds the document
 */
const DcSymbol *
dc_document_get_symbols (DcDocument *self, guint *n_symbols)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_symbols)
    *n_symbols = self->symbols->len;
  return (const DcSymbol *) (void *) self->symbols->data;
}

/**
 * dc_document_get_symbol:
 *
 * Returns: (transfer none): one symbol, valid as long as the document (any thread)
 */
const DcSymbol *
dc_document_get_symbol (DcDocument *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (symbol < self->symbols->len, NULL);

  return &g_array_index (self->symbols, DcSymbol, symbol);
}

gboolean
dc_document_lookup_symbol (DcDocument *self, guint font, guint32 code, guint *symbol)
{
  gint64 key = ((gint64) font << 32) | code;
  gpointer found;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);

  found = g_hash_table_lookup (self->symbol_index, &key);
  if (found == NULL)
    return FALSE;
  if (symbol)
    *symbol = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

/* Whether the symbol's font map is untrusted, so that its value must be recovered. */
gboolean
dc_document_symbol_needs_decoding (DcDocument *self, guint symbol)
{
  const DcSymbol *s;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (symbol < self->symbols->len, FALSE);

  s = &g_array_index (self->symbols, DcSymbol, symbol);
  return !dc_font_is_trusted (g_ptr_array_index (self->fonts, s->font));
}

/**
 * dc_document_get_reading_order:
 *
 * Returns: (transfer none): glyph indices in reading order, line after line; never
 *   changes, so any thread may read it for as long as it holds the document
 */
const guint32 *
dc_document_get_reading_order (DcDocument *self, guint *n_glyphs)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_glyphs)
    *n_glyphs = self->order->len;
  return (const guint32 *) (void *) self->order->data;
}

/* Each font's lines, font after font, each font's in order: one look at every glyph.
 * Each line's fonts are noted as (font, line) pairs in line order, then filed font by font
 * in that order: a second look at every glyph to fill the lists cost as much as the
 * first. The line's bounds are read once, before its glyphs, and the pairs go to an array
 * grown by hand: read through the line and appended through a call, both were reloaded
 * for every glyph, a third of the look. */
static void
make_font_lines (DcDocument *self)
{
  guint n_fonts = self->fonts->len, n_lines = self->lines->len;
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  const DcLine *lines = (const DcLine *) (void *) self->lines->data;
  const guint32 *order = dc_document_get_reading_order (self, NULL);
  g_autofree guint *stamps = g_new0 (guint, MAX (1, n_fonts));
  guint *starts = g_new0 (guint, n_fonts + 1);
  gsize n_pairs = 0, capacity = MAX (1, (gsize) n_lines + n_lines / 4);
  g_autofree guint32 *pairs = NULL;
  g_autofree guint *next = NULL;

  /* A document in one font (a book, often) has it on every line that has a glyph: its
   * glyphs need not be looked at. */
  if (n_fonts == 1)
    {
      self->font_lines = g_new (guint32, MAX (1, n_lines));
      for (guint l = 0; l < n_lines; l++)
        if (lines[l].n_glyphs > 0)
          self->font_lines[starts[1]++] = l;
      self->font_line_starts = starts;
      return;
    }
  pairs = g_new (guint32, 2 * capacity);
  for (guint l = 0; l < n_lines; l++)
    {
      const guint32 *line_order = order + lines[l].first_glyph;
      guint n_glyphs = lines[l].n_glyphs, stamp = l + 1;

      for (guint k = 0; k < n_glyphs; k++)
        {
          guint font = dc_glyph_get_font (&glyphs[line_order[k]], symbols);

          if (G_LIKELY (stamps[font] == stamp))
            continue;
          stamps[font] = stamp;
          starts[font + 1]++;
          if (G_UNLIKELY (n_pairs == capacity))
            {
              capacity *= 2;
              pairs = g_renew (guint32, pairs, 2 * capacity);
            }
          pairs[2 * n_pairs] = font;
          pairs[2 * n_pairs + 1] = l;
          n_pairs++;
        }
    }
  for (guint f = 0; f < n_fonts; f++)
    starts[f + 1] += starts[f];
  next = g_memdup2 (starts, sizeof (guint) * MAX (1, n_fonts));
  self->font_lines = g_new (guint32, MAX (1, starts[n_fonts]));
  for (gsize i = 0; i < n_pairs; i++)
    self->font_lines[next[pairs[2 * i]]++] = pairs[2 * i + 1];
  self->font_line_starts = starts;
}

/**
 * _dc_document_get_font_lines:
 * @starts: (out) (transfer none): n_fonts + 1 entries
 *
 * The lines with glyphs of each font: font f's are lines[@starts[f]] up to
 * lines[@starts[f + 1]], in order. What looks at one font's glyphs (the automatic pass's
 * statistics, a font's readings) goes through its own lines rather than through the whole
 * document once per font, and all of them share this one look at every glyph. Made the
 * first time it is asked for, from any thread, and never changed: a line's glyphs never
 * change.
 *
 * Returns: (transfer none): the lines
 */
const guint32 *
_dc_document_get_font_lines (DcDocument *self, const guint **starts)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (g_once_init_enter (&self->font_lines_made))
    {
      make_font_lines (self);
      DC_ONCE_LEAVE (&self->font_lines_made, 1);
    }
  DC_ONCE_ENTERED (&self->font_lines_made);
  *starts = self->font_line_starts;
  return self->font_lines;
}

/**
 * _dc_document_get_font_symbols:
 * @starts: (out) (transfer none): n_fonts + 1 entries
 *
 * The symbols of each font: font f's are @starts[f] up to @starts[f + 1] of the array
 * returned, in increasing order. What is made for one font (a font's readings, made for
 * every font by several levels) took its symbols from a look at all the document's:
 * on a book of a hundred fonts, a hundred looks at every symbol. Made the first time it is
 * asked for, from any thread, and never changed: the symbols are final once loaded.
 *
 * Returns: (transfer none): the symbols
 */
const guint32 *
_dc_document_get_font_symbols (DcDocument *self, const guint **starts)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (g_once_init_enter (&self->font_symbols_made))
    {
      guint n_fonts = self->fonts->len, n_symbols = self->symbols->len;
      const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
      guint *font_starts = g_new0 (guint, n_fonts + 1);
      g_autofree guint *next = NULL;

      for (guint s = 0; s < n_symbols; s++)
        {
          g_assert (symbols[s].font < n_fonts);
          font_starts[symbols[s].font + 1]++;
        }
      for (guint f = 0; f < n_fonts; f++)
        font_starts[f + 1] += font_starts[f];
      next = g_memdup2 (font_starts, sizeof (guint) * MAX (1, n_fonts));
      self->font_symbols = g_new (guint32, MAX (1, n_symbols));
      for (guint s = 0; s < n_symbols; s++)
        self->font_symbols[next[symbols[s].font]++] = s;
      self->font_symbol_starts = font_starts;
      DC_ONCE_LEAVE (&self->font_symbols_made, 1);
    }
  DC_ONCE_ENTERED (&self->font_symbols_made);
  *starts = self->font_symbol_starts;
  return self->font_symbols;
}

/**
 * dc_document_get_lines:
 *
 * The lines. Their places never change; their token ranges (first_token, n_tokens) are
 * those of the current snapshot and change, in place, when a space is learned or
 * forgotten (dc_document_set_symbol_is_space(), which DcKey calls when a change, undo
 * or redo touches a space). So only the thread that owns the document may read the
 * token ranges here; a worker reads dc_tokens_get_lines() of a snapshot it holds.
 *
 * Returns: (transfer none): the lines, valid as long as the document
 */
const DcLine *
dc_document_get_lines (DcDocument *self, guint *n_lines)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_lines)
    *n_lines = self->lines->len;
  return (const DcLine *) (void *) self->lines->data;
}

void
dc_document_get_page_lines (DcDocument *self, guint page, guint *first_line, guint *n_lines)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (first_line)
    *first_line = self->page_lines[page];
  if (n_lines)
    *n_lines = self->page_lines[page + 1] - self->page_lines[page];
}

/**
 * dc_document_locate_glyph:
 * @glyph: an index into dc_document_get_glyphs()
 * @position: (out) (optional): where @glyph is in dc_document_get_reading_order()
 * @line: (out) (optional): the line holding it
 *
 * Where a glyph clicked or found on the page is in the text. There is no index from glyph
 * to position (it would cost 4 bytes a glyph for a lookup made once a click): the lines of
 * the glyph's page, a few thousand glyphs, are looked through.
 *
 * Returns: %FALSE for a glyph on no line
 */
gboolean
dc_document_locate_glyph (DcDocument *self, guint glyph, guint *position, guint *line)
{
  const DcLine *lines;
  const guint32 *order;
  guint page;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (glyph < self->glyphs->len, FALSE);

  lines = (const DcLine *) (void *) self->lines->data;
  order = (const guint32 *) (void *) self->order->data;
  page = g_array_index (self->glyphs, DcGlyph, glyph).page;
  for (guint l = self->page_lines[page]; l < self->page_lines[page + 1]; l++)
    for (guint p = lines[l].first_glyph; p < lines[l].first_glyph + lines[l].n_glyphs; p++)
      if (order[p] == glyph)
        {
          if (position)
            *position = p;
          if (line)
            *line = l;
          return TRUE;
        }
  return FALSE;
}

/**
 * dc_document_get_blocks:
 * @n_blocks: (out) (optional): the number of blocks
 *
 * The blocks of every page (paragraphs, headings, examples…), page by page in reading
 * order; their lines are consecutive ranges of dc_document_get_lines().
 */
const DcBlock *
dc_document_get_blocks (DcDocument *self, guint *n_blocks)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_blocks)
    *n_blocks = self->blocks->len;
  return (const DcBlock *) (void *) self->blocks->data;
}

void
dc_document_get_page_blocks (DcDocument *self, guint page, guint *first_block, guint *n_blocks)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (first_block)
    *first_block = self->page_blocks[page];
  if (n_blocks)
    *n_blocks = self->page_blocks[page + 1] - self->page_blocks[page];
}

static int
compare_span (const void *key, const void *element)
{
  guint glyph = *(const guint *) key;
  const ActualTextSpan *span = element;

  if (glyph < span->first_glyph)
    return -1;
  if (glyph >= span->first_glyph + span->n_glyphs)
    return 1;
  return 0;
}

/**
 * dc_document_get_actual_text:
 * @glyph: a glyph index (content-stream order, as dc_document_get_glyphs())
 * @first_glyph: (out) (optional): the span's first glyph
 * @n_glyphs: (out) (optional): how many glyphs it covers
 *
 * The /ActualText the PDF gives for a run of glyphs that includes @glyph: the text the run
 * stands for together, in logical order.
 *
 * Returns: (nullable): the text, or %NULL when @glyph is in no such span
 */
const char *
dc_document_get_actual_text (DcDocument *self, guint glyph, guint *first_glyph, guint *n_glyphs)
{
  const ActualTextSpan *span;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (glyph < self->glyphs->len, NULL);

  /* A flag without spans only comes from a damaged cache file, which must not make
   * bsearch() read from no array. */
  if (!(g_array_index (self->glyphs, DcGlyph, glyph).flags & DC_GLYPH_ACTUAL_TEXT)
      || self->spans->len == 0)
    return NULL;
  span = bsearch (&glyph, self->spans->data, self->spans->len, sizeof (ActualTextSpan),
                  compare_span);
  if (span == NULL)
    return NULL;
  if (first_glyph)
    *first_glyph = span->first_glyph;
  if (n_glyphs)
    *n_glyphs = span->n_glyphs;
  return self->span_texts->str + span->text;
}

guint
dc_document_get_n_actual_texts (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->spans->len;
}

/* Lets the cluster analysis replace a symbol's PDF text with what the document's
 * /ActualText spans show it stands for. */
void
_dc_document_set_symbol_pdf_text (DcDocument *self, guint symbol, const char *text)
{
  DcSymbol *s;

  g_assert (DC_IS_DOCUMENT (self));
  g_assert (symbol < self->symbols->len);

  s = &g_array_index (self->symbols, DcSymbol, symbol);
  g_free (s->pdf_text);
  s->pdf_text = g_strdup (text);
}
