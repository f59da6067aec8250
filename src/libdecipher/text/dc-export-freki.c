/* dc-export-freki.c: Freki blocks and respaced plain text (docs/export-formats.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Interlinear glossed text keeps its meaning in columns: each word of the language line
 * stands above its gloss. Joining tokens with single spaces loses that, and so does a
 * naive conversion of positions to monospaced columns, because a gloss set in a
 * proportional font is often wider in characters than the word above it. So, as in
 * Freki (Goodman, Georgi and Xia), every token is projected to a monospaced column, each
 * line gets a tab-score (the share of its tokens that start in the column of a token of
 * the line above or below in the block), successive lines scoring at least 0.6 form a
 * group, and a column shared in a group is moved right as far as its widest line needs,
 * for every line of the group at once.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <math.h>

#include "dc-export-private.h"
#include "dc-reorder-private.h"

#define GROUP_TABSCORE 0.6

typedef struct
{
  guint line;   /* 0-based within the block */
  double x;     /* left edge of the token, points */
  int width;    /* in characters */
  int position; /* respaced column */
  char *text;
} Cell;

typedef struct
{
  GArray *cells;     /* of Cell, line by line, left to right */
  guint *line_first; /* per line of the block: first cell, n_lines + 1 entries */
  double *tabscore;  /* per line */
  double unit;       /* points per monospaced column */
  guint n_lines;
} Respaced;

static void
clear_cell (gpointer data)
{
  Cell *cell = data;

  g_clear_pointer (&cell->text, g_free);
}

static void
respaced_free (Respaced *respaced)
{
  g_clear_pointer (&respaced->cells, g_array_unref);
  g_clear_pointer (&respaced->line_first, g_free);
  g_clear_pointer (&respaced->tabscore, g_free);
  g_free (respaced);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Respaced, respaced_free)

/* Characters a monospaced rendering gives a cell to: combining marks take none. */
static int
text_width (const char *text)
{
  int width = 0;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_iszerowidth (g_utf8_get_char (p)))
      width++;
  return MAX (width, 1);
}

/* The block's average advance of a drawn, non-space glyph: the width of one column. */
static double
column_unit (DcDocument *document, const DcBlock *block)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  double sum = 0, size = 0;
  guint n = 0, n_size = 0;

  for (guint l = block->first_line; l < block->first_line + block->n_lines; l++)
    for (guint k = lines[l].first_glyph; k < lines[l].first_glyph + lines[l].n_glyphs; k++)
      {
        const DcGlyph *glyph = &glyphs[order[k]];

        size += dc_glyph_get_size (glyph);
        n_size++;
        if (dc_glyph_get_advance (glyph) > 0
            && !dc_document_symbol_is_space (document, glyph->symbol))
          {
            sum += dc_glyph_get_advance (glyph);
            n++;
          }
      }
  if (n > 0)
    return sum / n;
  return n_size > 0 && size > 0 ? 0.5 * size / n_size : 5.0;
}

static gboolean
aligned (const Respaced *r, const Cell *cell, guint other_line)
{
  const Cell *cells = (const Cell *) (void *) r->cells->data;

  for (guint c = r->line_first[other_line]; c < r->line_first[other_line + 1]; c++)
    if (fabs (cells[c].x - cell->x) <= r->unit / 2)
      return TRUE;
  return FALSE;
}

static int
compare_cells_x (gconstpointer a, gconstpointer b)
{
  const Cell *ca = *(Cell *const *) a, *cb = *(Cell *const *) b;

  if (ca->x != cb->x)
    return ca->x < cb->x ? -1 : 1;
  return ca->line < cb->line ? -1 : ca->line > cb->line;
}

/* Places the cells of lines [first, end): cells within half a column of each other form
 * one column, which goes to its projected position or, when a line's text before it is
 * longer, one space after that text — in every line of the group alike. */
static void
place_group (Respaced *r, guint first, guint end, double origin)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  g_autofree int *cursor = g_new0 (int, r->n_lines);
  g_autofree gboolean *started = g_new0 (gboolean, r->n_lines);
  g_autofree gboolean *in_column = g_new0 (gboolean, r->n_lines);

  for (guint c = r->line_first[first]; c < r->line_first[end]; c++)
    g_ptr_array_add (sorted, &g_array_index (r->cells, Cell, c));
  g_ptr_array_sort (sorted, compare_cells_x);

  for (guint i = 0; i < sorted->len;)
    {
      const Cell *head = g_ptr_array_index (sorted, i);
      int position = MAX (0, (int) lround ((head->x - origin) / r->unit));
      guint j;

      /* A column holds at most one cell of each line. */
      for (j = i; j < sorted->len; j++)
        {
          const Cell *cell = g_ptr_array_index (sorted, j);

          if (cell->x - head->x > r->unit / 2 || in_column[cell->line])
            break;
          in_column[cell->line] = TRUE;
          if (started[cell->line])
            position = MAX (position, cursor[cell->line] + 1);
        }
      for (guint k = i; k < j; k++)
        {
          Cell *cell = g_ptr_array_index (sorted, k);

          cell->position = position;
          cursor[cell->line] = position + cell->width;
          started[cell->line] = TRUE;
          in_column[cell->line] = FALSE;
        }
      i = j;
    }
}

/* Projects, scores and places the tokens of one block. Columns count from @origin. */
static Respaced *
respace_block (DcDocument *document, const DcBlock *block, double origin, DcValueFunc value,
               gpointer user_data)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  Respaced *r = g_new0 (Respaced, 1);
  g_autoptr (GString) text = g_string_new (NULL);

  r->n_lines = block->n_lines;
  r->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  g_array_set_clear_func (r->cells, clear_cell);
  r->line_first = g_new0 (guint, r->n_lines + 1);
  r->tabscore = g_new0 (double, r->n_lines);
  r->unit = column_unit (document, block);

  for (guint i = 0; i < r->n_lines; i++)
    {
      const DcLine *line = &lines[block->first_line + i];
      double x_prev = -G_MAXDOUBLE;

      r->line_first[i] = r->cells->len;
      for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
        {
          Cell cell = { 0 };

          cell.line = i;
          cell.x = G_MAXDOUBLE;
          for (guint k = tokens[t].first_glyph; k < tokens[t].first_glyph + tokens[t].n_glyphs; k++)
            cell.x = MIN (cell.x, dc_glyph_get_box (&glyphs[order[k]]).x0);
          /* Vertical or upside-down lines have no columns across lines: keep the order. */
          if (line->rotation != 0)
            cell.x = x_prev + 2 * r->unit;
          x_prev = cell.x;
          g_string_truncate (text, 0);
          _dc_export_append_token (text, document, &tokens[t], value, user_data);
          /* Words written together are one cell, as they are one word of the text. */
          if (r->cells->len > r->line_first[i]
              && _dc_reorder_tokens_close_up (document, &tokens[t - 1], &tokens[t],
                                              g_array_index (r->cells, Cell, r->cells->len - 1)
                                                  .text,
                                              text->str, value, user_data))
            {
              Cell *previous = &g_array_index (r->cells, Cell, r->cells->len - 1);
              char *joined = g_strconcat (previous->text, text->str, NULL);

              g_free (previous->text);
              previous->text = joined;
              previous->width = text_width (joined);
              continue;
            }
          cell.width = text_width (text->str);
          cell.text = g_strdup (text->str);
          g_array_append_val (r->cells, cell);
        }
    }
  r->line_first[r->n_lines] = r->cells->len;

  for (guint i = 0; i < r->n_lines; i++)
    {
      guint n = r->line_first[i + 1] - r->line_first[i], shared = 0;

      for (guint c = r->line_first[i]; c < r->line_first[i + 1]; c++)
        {
          const Cell *cell = &g_array_index (r->cells, Cell, c);

          if ((i > 0 && aligned (r, cell, i - 1))
              || (i + 1 < r->n_lines && aligned (r, cell, i + 1)))
            shared++;
        }
      r->tabscore[i] = n > 0 ? (double) shared / n : 0;
    }

  for (guint i = 0; i < r->n_lines;)
    {
      guint end = i + 1;

      if (r->tabscore[i] >= GROUP_TABSCORE)
        while (end < r->n_lines && r->tabscore[end] >= GROUP_TABSCORE)
          end++;
      place_group (r, i, end, origin);
      i = end;
    }
  return r;
}

static void
append_respaced_line (GString *out, const Respaced *r, guint line)
{
  int column = 0;

  for (guint c = r->line_first[line]; c < r->line_first[line + 1]; c++)
    {
      const Cell *cell = &g_array_index (r->cells, Cell, c);

      for (; column < cell->position; column++)
        g_string_append_c (out, ' ');
      g_string_append (out, cell->text);
      column += cell->width;
    }
}

/* Freki's numbers: at most two decimals, at least one ("72.0", "302.62"). */
static void
append_number (GString *out, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  gsize len;

  g_ascii_formatd (buffer, sizeof buffer, "%.2f", value);
  len = strlen (buffer);
  while (len > 0 && buffer[len - 1] == '0' && len >= 2 && buffer[len - 2] != '.')
    buffer[--len] = '\0';
  if (strcmp (buffer, "-0.0") == 0)
    strcpy (buffer, "0.0");
  g_string_append (out, buffer);
}

/* Freki's bbox convention is the PDF's: llx,lly,urx,ury, y up from the bottom of the
 * page. The engine's boxes have y down from the top of the displayed page. */
static void
append_bbox (GString *out, double page_height, float x0, float y0, float x1, float y1)
{
  g_string_append (out, "bbox=");
  append_number (out, x0);
  g_string_append_c (out, ',');
  append_number (out, page_height - y1);
  g_string_append_c (out, ',');
  append_number (out, x1);
  g_string_append_c (out, ',');
  append_number (out, page_height - y0);
}

/* Freki separates attributes with spaces, fonts with commas, name from size with the
 * last '-', and keys from values with '=': none of the first three may occur in a name. */
static void
append_font_name (GString *out, const char *name)
{
  if (name == NULL || *name == '\0')
    name = "unnamed";
  for (const char *p = name; *p; p++)
    g_string_append_c (out, g_ascii_isspace (*p) || *p == ',' || *p == '=' || *p == ':' ? '_' : *p);
}

/* Every font-size pair drawn on the line, in the order they first occur. */
static void
append_line_fonts (GString *out, DcDocument *document, const DcLine *line)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);

  g_string_append (out, "fonts=");
  for (guint k = line->first_glyph; k < line->first_glyph + line->n_glyphs; k++)
    {
      const DcGlyph *glyph = &glyphs[order[k]];
      guint32 pair[2] = { dc_glyph_get_font (glyph, symbols),
                          (guint32) lround (dc_glyph_get_size (glyph) * 10) };
      gboolean found = FALSE;
      char size[G_ASCII_DTOSTR_BUF_SIZE];

      if (dc_document_symbol_is_space (document, glyph->symbol) && line->n_glyphs > 1)
        continue;
      for (guint s = 0; s < seen->len && !found; s++)
        found = memcmp (&g_array_index (seen, guint32, 2 * s), pair, sizeof pair) == 0;
      if (found)
        continue;
      g_array_append_vals (seen, pair, 1);
      if (seen->len > 1)
        g_string_append_c (out, ',');
      append_font_name (out,
                        dc_font_get_name (
                            dc_document_get_font (document, dc_glyph_get_font (glyph, symbols))));
      g_ascii_formatd (size, sizeof size, "%.1f", pair[1] / 10.0);
      g_string_append_c (out, '-');
      g_string_append (out, size);
    }
}

char *
_dc_export_freki (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcBlock *blocks = dc_document_get_blocks (document, NULL);
  g_autofree char *doc_id = g_path_get_basename (dc_document_get_path (document));
  g_autoptr (GPtrArray) preambles = g_ptr_array_new_with_free_func (g_free);
  guint n_pages = dc_document_get_n_pages (document);
  guint line_number = 1;

  for (char *p = doc_id; *p; p++)
    if (g_ascii_isspace (*p))
      *p = '_';

  for (guint page = 0; page < n_pages; page++)
    {
      double width, height;
      guint first, n;

      dc_document_get_page_size (document, page, &width, &height);
      dc_document_get_page_blocks (document, page, &first, &n);
      for (guint b = first; b < first + n; b++)
        {
          const DcBlock *block = &blocks[b];
          g_autoptr (Respaced) r = respace_block (document, block, block->x0, value, user_data);
          gsize widest = 0;

          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append_printf (out, "doc_id=%s page=%u block_id=%u-%u ", doc_id, page + 1,
                                  page + 1, block->index + 1);
          append_bbox (out, height, block->x0, block->y0, block->x1, block->y1);
          g_string_append_printf (out, " label=%s %u %u\n", block->label, line_number,
                                  line_number + block->n_lines - 1);

          g_ptr_array_set_size (preambles, 0);
          for (guint i = 0; i < block->n_lines; i++)
            {
              const DcLine *line = &lines[block->first_line + i];
              GString *preamble = g_string_new (NULL);

              g_string_append_printf (preamble, "line=%u ", line_number + i);
              append_line_fonts (preamble, document, line);
              if (block->n_lines > 1)
                g_string_append_printf (preamble, " tabscore=%.2f", r->tabscore[i]);
              g_string_append_c (preamble, ' ');
              append_bbox (preamble, height, line->x0, line->y0, line->x1, line->y1);
              widest = MAX (widest, preamble->len);
              g_ptr_array_add (preambles, g_string_free (preamble, FALSE));
            }
          /* The text of every line of a block starts in one column, after a space. */
          for (guint i = 0; i < block->n_lines; i++)
            {
              const char *preamble = g_ptr_array_index (preambles, i);

              g_string_append (out, preamble);
              for (gsize pad = strlen (preamble); pad <= widest; pad++)
                g_string_append_c (out, ' ');
              g_string_append_c (out, ':');
              append_respaced_line (out, r, i);
              g_string_append_c (out, '\n');
            }
          line_number += block->n_lines;
        }
    }
  return g_string_free (out, FALSE);
}

/* Like pdftotext -layout, positions across the page are kept (indents, centred headings,
 * columns of an example), but blocks come one after the other in reading order, blank
 * line between them, so a two-column page reads column by column. */
char *
_dc_export_layout (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcBlock *blocks = dc_document_get_blocks (document, NULL);
  guint n_pages = dc_document_get_n_pages (document);

  for (guint page = 0; page < n_pages; page++)
    {
      guint first, n, first_line, n_lines;
      double left = G_MAXDOUBLE;

      if (page > 0)
        g_string_append_c (out, '\f');
      dc_document_get_page_lines (document, page, &first_line, &n_lines);
      for (guint l = first_line; l < first_line + n_lines; l++)
        left = MIN (left, lines[l].x0);

      dc_document_get_page_blocks (document, page, &first, &n);
      for (guint b = first; b < first + n; b++)
        {
          g_autoptr (Respaced) r = respace_block (document, &blocks[b], left, value, user_data);

          if (b > first)
            g_string_append_c (out, '\n');
          for (guint i = 0; i < blocks[b].n_lines; i++)
            {
              append_respaced_line (out, r, i);
              g_string_append_c (out, '\n');
            }
        }
    }
  return g_string_free (out, FALSE);
}

/**
 * dc_export_block_tabscores:
 * @block: one of dc_document_get_blocks()
 *
 * The tab-score of every line of @block: the share of its tokens that start in the
 * monospaced column of a token of the line above or below.
 *
 * Returns: (transfer full): @block->n_lines scores between 0 and 1
 */
double *
dc_export_block_tabscores (DcDocument *document, const DcBlock *block, DcValueFunc value,
                           gpointer user_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (block != NULL && value != NULL, NULL);

  {
    g_autoptr (Respaced) r = respace_block (document, block, block->x0, value, user_data);

    return g_steal_pointer (&r->tabscore);
  }
}
