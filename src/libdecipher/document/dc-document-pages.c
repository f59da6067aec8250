/* dc-document-pages.c: each page's lines and blocks, laid out on threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-document-private.h"
#include "dc-layout-private.h"
#include "dc-memory-private.h"
#include "dc-parallel-private.h"
#include "dc-script.h"
#include "dc-trust-private.h"
#include "dc-vertical-private.h"

/* Whether the page's columns are read right to left: most of its letters, as the PDF
 * gives them, are in a right-to-left script, or its vertical columns are CJK's. A font whose map
 * lies may mislead this; the cost is only the order in which columns are read. */
/* What page_is_rtl() counts a symbol's glyphs as: its PDF text's first character. */
enum
{
  LETTER_NONE, /* none, or not a letter */
  LETTER_RTL,  /* of a right-to-left script */
  LETTER_OTHER,
};

/* A symbol's LETTER_* for each symbol: judged once a symbol, not once a glyph. */
guint8 *
_dc_document_symbol_letter_kinds (DcDocument *self)
{
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  guint8 *kinds = g_new (guint8, MAX (1, self->symbols->len));

  for (guint s = 0; s < self->symbols->len; s++)
    {
      const char *text = symbols[s].pdf_text;
      gunichar c = text != NULL && *text ? g_utf8_get_char_validated (text, -1) : 0;

      if (c == 0 || c == (gunichar) -1 || c == (gunichar) -2 || !g_unichar_isalpha (c))
        kinds[s] = LETTER_NONE;
      else if (dc_script_is_rtl (g_unichar_get_script (c)))
        kinds[s] = LETTER_RTL;
      else
        kinds[s] = LETTER_OTHER;
    }
  return kinds;
}

typedef struct
{
  DcDocument *self;
  guint first, end;
} PageRange;

/* A DcLayoutRtlFunc: @letter_counts by LETTER_*. */
static gboolean
page_is_rtl (const guint letter_counts[3], guint n_turned, gpointer data)
{
  const PageRange *range = data;
  const DcGlyph *glyphs = (const DcGlyph *) (void *) range->self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) range->self->symbols->data;
  gboolean vertical, columns_rtl;

  /* A page of vertical writing: its columns' order is that of the vertical script. The
   * columns are looked at only where glyphs stand in them (rotation 1 or 3). */
  if (n_turned > 0)
    {
      columns_rtl = _dc_vertical_columns_right_to_left (glyphs, symbols, range->first, range->end,
                                                        &vertical);
      if (vertical)
        return columns_rtl;
    }
  return letter_counts[LETTER_RTL] > letter_counts[LETTER_OTHER];
}

/**
 * dc_tokens_ref:
 *
 * May be called from any thread.
 *
 * Returns: (transfer full): @tokens
 */

/* Laying out pages, each page on its own (dc_layout_lines()): on several threads, a part
 * of a few pages at a time. */
typedef struct
{
  GArray *lines;      /* of DcLine, the part's, in page order */
  GArray *blocks;     /* of DcBlock, the part's: their first_line counts from its first */
  guint *page_lines;  /* per page of the part: its first line in @lines */
  guint *page_blocks; /* per page of the part: its first block in @blocks */
  guint n_tokens;     /* its lines' tokens, stored from its first glyph's place on */
} LayoutPart;

typedef struct
{
  DcDocument *self;
  const guint *page_first_glyph;
  const guint8 *letter_kinds;
  DcToken *tokens;     /* room for a token a glyph */
  DcTrustCount *trust; /* the tokens counted for dc_trust_analyse(), a part a part */
  guint per_part;
  guint n_parts;
  LayoutPart *parts;
  gint next_part; /* atomic */
} Layout;

static void
lay_out_parts (gpointer data)
{
  Layout *layout = data;
  DcDocument *self = layout->self;
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  guint32 *order = (guint32 *) (void *) self->order->data;
  DcTrustCounter *counter = _dc_trust_counter_new ();
  guint p;

  while ((p = (guint) g_atomic_int_add (&layout->next_part, 1)) < layout->n_parts)
    {
      LayoutPart *part = &layout->parts[p];
      guint first_page = p * layout->per_part;
      guint end_page = MIN (self->n_pages, first_page + layout->per_part);

      guint place = layout->page_first_glyph[first_page];
      guint n_places = layout->page_first_glyph[end_page] - place;

      /* The part's places in the reading order and room for its tokens, memory new to
       * the process: faulted in at once, on the thread that fills them. */
      _dc_memory_populate (order + place, n_places * sizeof (guint32));
      _dc_memory_populate (layout->tokens + place,
                           (gsize) (n_places / SPLIT_GLYPHS_PER_TOKEN) * sizeof (DcToken));
      part->lines = g_array_new (FALSE, FALSE, sizeof (DcLine));
      part->blocks = g_array_new (FALSE, FALSE, sizeof (DcBlock));
      part->page_lines = g_new (guint, end_page - first_page);
      part->page_blocks = g_new (guint, end_page - first_page);
      for (guint page = first_page; page < end_page; page++)
        {
          guint first = layout->page_first_glyph[page];
          guint end = layout->page_first_glyph[page + 1];
          PageRange range = { self, first, end };
          guint n_tokens;

          part->page_lines[page - first_page] = part->lines->len;
          part->page_blocks[page - first_page] = part->blocks->len;
          dc_layout_lines (glyphs, first, end - first, page, self->page_sizes[2 * page],
                           self->page_sizes[2 * page + 1], layout->letter_kinds, page_is_rtl,
                           &range, order, part->lines, part->blocks);
          /* Its tokens now, while its glyphs are at hand: a pass over a book's glyphs
           * afterwards read them all from memory again. Their lines count from the
           * part's first, their first_token from the array's start. */
          n_tokens = dc_layout_tokens_into (glyphs, order, (DcLine *) (void *) part->lines->data,
                                            part->page_lines[page - first_page], part->lines->len,
                                            self->symbol_is_space, layout->tokens,
                                            place + part->n_tokens);
          /* And counted for the fonts' trust while at hand too. */
          _dc_trust_count_tokens (layout->trust, counter, p, glyphs, symbols, order,
                                  layout->tokens + place + part->n_tokens, n_tokens);
          part->n_tokens += n_tokens;
        }
    }
  _dc_trust_counter_free (counter);
}

/* The tokens the parts of @layout split, closed up into the document's first snapshot:
 * the same tokens as _dc_document_retokenize() splits from the lines. */
static void
take_tokens (DcDocument *self, Layout *layout)
{
  g_autofree guint *part_lines = g_new (guint, layout->n_parts + 1);
  g_autofree guint *part_places = g_new (guint, layout->n_parts);
  g_autofree guint *part_tokens = g_new (guint, layout->n_parts);
  guint n_tokens;

  for (guint p = 0; p < layout->n_parts; p++)
    {
      guint first_page = p * layout->per_part;
      guint first_line = self->page_lines[first_page];
      DcToken *tokens = layout->tokens + layout->page_first_glyph[first_page];

      part_lines[p] = first_line;
      part_places[p] = layout->page_first_glyph[first_page];
      part_tokens[p] = layout->parts[p].n_tokens;
      /* A token's line counted from its part's first line: from the document's now. */
      if (first_line > 0)
        for (guint t = 0; t < part_tokens[p]; t++)
          tokens[t].line += first_line;
    }
  part_lines[layout->n_parts] = self->lines->len;
  n_tokens = _dc_tokens_close_up (layout->tokens, (DcLine *) (void *) self->lines->data,
                                  layout->n_parts, part_lines, part_places, part_tokens,
                                  self->glyphs->len);
  _dc_document_take_tokens (self, g_memdup2 (self->symbol_is_space, self->space_capacity),
                            g_steal_pointer (&layout->tokens), n_tokens);
}

/* Lays out every page: the same lines and blocks whichever thread laid out which page,
 * since a page's lines depend on its glyphs alone and take the places of the reading
 * order its glyphs would take (the document's glyph range of that page). */
DcTrustCount *
_dc_document_lay_out_pages (DcDocument *self, const guint *page_first_glyph,
                            const guint8 *letter_kinds, guint n_threads)
{
  Layout layout = { 0 };

  g_array_set_size (self->order, self->glyphs->len);
  _dc_memory_advise_huge (self->order->data, (gsize) self->glyphs->len * sizeof (guint32));
  layout.self = self;
  layout.page_first_glyph = page_first_glyph;
  layout.letter_kinds = letter_kinds;
  /* Room for a token a glyph (a line has no more tokens than glyphs), of which only what
   * the tokens reach is ever touched: see _dc_document_retokenize(). */
  layout.tokens = g_new (DcToken, MAX (1, self->glyphs->len));
  /* Parts small enough that the threads finish together, large enough that taking one
   * costs nothing; one part on one thread. */
  layout.per_part = n_threads <= 1 ? MAX (1, self->n_pages)
                                   : CLAMP (self->n_pages / (n_threads * 8), 1, 8);
  layout.n_parts = (self->n_pages + layout.per_part - 1) / layout.per_part;
  layout.parts = g_new0 (LayoutPart, layout.n_parts);
  layout.trust = _dc_trust_count_new (self, layout.n_parts);
  _dc_parallel_run (MIN (n_threads, layout.n_parts), lay_out_parts, &layout);

  /* Room for every part's lines at once, faulted in at once: grown part by part, a
   * book's megabyte of lines was copied again and again into memory new to the process,
   * a page fault at a time, while the other threads waited. The document has no lines
   * before its pages are laid out. */
  {
    guint n_lines = 0;

    g_assert (self->lines->len == 0);
    for (guint p = 0; p < layout.n_parts; p++)
      n_lines += layout.parts[p].lines->len;
    g_array_unref (self->lines);
    self->lines = g_array_sized_new (FALSE, TRUE, sizeof (DcLine), n_lines);
    _dc_memory_populate (self->lines->data, (gsize) n_lines * sizeof (DcLine));
  }
  for (guint p = 0; p < layout.n_parts; p++)
    {
      LayoutPart *part = &layout.parts[p];
      guint first_page = p * layout.per_part;
      guint end_page = MIN (self->n_pages, first_page + layout.per_part);
      guint first_line = self->lines->len;

      for (guint page = first_page; page < end_page; page++)
        {
          self->page_lines[page] = first_line + part->page_lines[page - first_page];
          self->page_blocks[page] = self->blocks->len + part->page_blocks[page - first_page];
        }
      for (guint b = 0; b < part->blocks->len; b++)
        g_array_index (part->blocks, DcBlock, b).first_line += first_line;
      /* The labels go over to the document's blocks, which free them. */
      g_array_append_vals (self->lines, part->lines->data, part->lines->len);
      g_array_append_vals (self->blocks, part->blocks->data, part->blocks->len);
      g_array_unref (part->lines);
      g_array_unref (part->blocks);
      g_free (part->page_lines);
      g_free (part->page_blocks);
    }
  self->page_lines[self->n_pages] = self->lines->len;
  self->page_blocks[self->n_pages] = self->blocks->len;
  take_tokens (self, &layout);
  g_free (layout.parts);
  return layout.trust;
}
