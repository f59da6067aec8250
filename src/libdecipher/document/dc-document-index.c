/* dc-document-index.c: a document's glyphs by page and by symbol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two questions every front end asks over and over: which glyphs a page drew (to draw
 * it, to hit-test a click) and where a symbol occurs (to outline it, to cut its
 * occurrences, to find it). Glyphs are stored page by page, so a page is one range; a
 * symbol's glyphs are scattered, so they are listed per symbol in one array (4 bytes a
 * glyph). Each index is built once, on the first question, by whichever thread asks
 * first (g_once_init_*(), told to ThreadSanitizer through dc-tsan-private.h), and never
 * changes after: the glyphs and symbols are fixed once the document has loaded (see the
 * top of dc-document.c), so any thread may read it.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include "dc-document-private.h"
#include "dc-tsan-private.h"

/* page_glyphs[page] is the first glyph of @page; n_pages + 1 entries. */
static guint32 *
build_page_index (DcDocument *self)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  guint32 *first = g_new (guint32, (gsize) self->n_pages + 1);
  guint g = 0;

  for (guint page = 0; page < self->n_pages; page++)
    {
      first[page] = g;
      while (g < self->glyphs->len && glyphs[g].page == page)
        g++;
    }
  first[self->n_pages] = self->glyphs->len;
  return first;
}

/* n_symbols + 1 offsets, then the glyphs of symbol s at [index[s], index[s + 1]) counted
 * from the end of the offsets, in page order: a counting sort over the glyphs. */
static guint32 *
build_symbol_index (DcDocument *self)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  guint n_symbols = self->symbols->len, n_glyphs = self->glyphs->len;
  guint32 *index = g_new0 (guint32, (gsize) n_symbols + 1 + n_glyphs);
  guint32 *listed = index + n_symbols + 1;
  g_autofree guint32 *fill = NULL;

  for (guint g = 0; g < n_glyphs; g++)
    index[glyphs[g].symbol + 1]++;
  for (guint s = 0; s < n_symbols; s++)
    index[s + 1] += index[s];
  fill = g_memdup2 (index, sizeof (guint32) * n_symbols);
  for (guint g = 0; g < n_glyphs; g++)
    listed[fill[glyphs[g].symbol]++] = g;
  return index;
}

/**
 * dc_document_get_page_glyphs:
 * @page: a page, counted from 0
 * @first_glyph: (out): the index of the page's first glyph in dc_document_get_glyphs()
 * @n_glyphs: (out): how many glyphs the page drew, in content-stream order
 *
 * The glyphs of one page, which the document keeps together. The first call builds the
 * index (one pass over the glyphs); any thread may call it.
 */
void
dc_document_get_page_glyphs (DcDocument *self, guint page, guint *first_glyph, guint *n_glyphs)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);
  g_return_if_fail (first_glyph != NULL && n_glyphs != NULL);

  if (g_once_init_enter (&self->page_glyphs))
    {
      /* Built before the hand-over, which DC_ONCE_LEAVE marks ahead of its value. */
      guint32 *built = build_page_index (self);

      DC_ONCE_LEAVE (&self->page_glyphs, built);
    }
  DC_ONCE_ENTERED (&self->page_glyphs);
  *first_glyph = self->page_glyphs[page];
  *n_glyphs = self->page_glyphs[page + 1] - self->page_glyphs[page];
}

/**
 * dc_document_get_symbol_glyphs:
 * @symbol: a symbol of the document
 * @n_glyphs: (out): how many glyphs draw it, the symbol's #DcSymbol.n_glyphs
 *
 * Where a symbol occurs. The first call builds the index for every symbol (one pass
 * over the glyphs, 4 bytes a glyph, kept as long as the document); any thread may call
 * it.
 *
 * Returns: (array length=n_glyphs) (transfer none): the indices of @symbol's glyphs in
 *   dc_document_get_glyphs(), in page order, valid as long as the document
 */
const guint32 *
dc_document_get_symbol_glyphs (DcDocument *self, guint symbol, guint *n_glyphs)
{
  const guint32 *index;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (symbol < self->symbols->len, NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  if (g_once_init_enter (&self->symbol_glyphs))
    {
      guint32 *built = build_symbol_index (self);

      DC_ONCE_LEAVE (&self->symbol_glyphs, built);
    }
  DC_ONCE_ENTERED (&self->symbol_glyphs);
  index = self->symbol_glyphs;
  *n_glyphs = index[symbol + 1] - index[symbol];
  return index + self->symbols->len + 1 + index[symbol];
}
