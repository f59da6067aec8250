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

/* Freki's INTERLINEAR_THRESHOLD: a line scoring at least this joins the group of the
 * line above it. */
#define GROUP_ISCORE 0.6
/* The widest a respaced line is padded: a block whose glyphs claim a tiny width spread
 * over a huge span (a broken or hostile PDF) would otherwise be padded with millions of
 * spaces per line (fuzz-pdf: 21 s for a 7 KB file). No page of text is this wide. */
#define MAX_COLUMN 4096

typedef struct
{
  guint line; /* 0-based within the block */
  double x0;  /* box of the token, points */
  double x1;
  int width;    /* in characters */
  int column;   /* projected */
  int position; /* respaced */
  char *text;
  /* The text is the cell's own, not a token's text the caller keeps (DcTokenTexts): a
   * block's scores alone copy none of those. */
  gboolean owned;
} Cell;

typedef struct
{
  GArray *cells;     /* of Cell, line by line, left to right */
  guint *line_first; /* per line of the block: first cell, n_lines + 1 entries */
  double *iscore;    /* per line; NAN where Freki writes none (a block's first line) */
  double unit;       /* points per monospaced column */
  guint n_lines;
} Respaced;

static void
clear_cell (gpointer data)
{
  Cell *cell = data;

  if (cell->owned)
    g_clear_pointer (&cell->text, g_free);
}

static void
respaced_free (Respaced *respaced)
{
  g_clear_pointer (&respaced->cells, g_array_unref);
  g_clear_pointer (&respaced->line_first, g_free);
  g_clear_pointer (&respaced->iscore, g_free);
  g_free (respaced);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Respaced, respaced_free)

/* Characters a cell takes. Freki counts code points (Python's len()); the layout text is
 * read on a terminal, where a combining mark takes no column. */
static int
text_width (const char *text, gboolean code_points)
{
  int width = 0;

  if (code_points)
    return (int) g_utf8_strlen (text, -1);
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_iszerowidth (g_utf8_get_char (p)))
      width++;
  return MAX (width, 1);
}

static int
compare_cells_x (gconstpointer a, gconstpointer b)
{
  const Cell *ca = a, *cb = b;

  return ca->x0 < cb->x0 ? -1 : ca->x0 > cb->x0;
}

static gboolean
strictly_left_to_right (const Cell *cells, guint n)
{
  for (guint i = 1; i < n; i++)
    if (!(cells[i - 1].x0 < cells[i].x0))
      return FALSE;
  return TRUE;
}

/* The tokens of one line as cells, left to right as Freki sorts them (a right-to-left
 * line too: each word keeps its letters in logical order). */
static void
collect_line (Respaced *r, DcDocument *document, guint i, const DcLine *line, DcValueFunc value,
              gpointer user_data, gboolean code_points, const DcTokenTexts *known)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  g_autoptr (GString) text = NULL;
  guint first = r->cells->len, n = first;

  /* Room for a cell per token, made once: a book has a hundred thousand of them. */
  g_array_set_size (r->cells, first + line->n_tokens);
  for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
    {
      Cell cell = { 0 };
      const char *token_text;

      cell.line = i;
      cell.x0 = G_MAXDOUBLE;
      cell.x1 = -G_MAXDOUBLE;
      for (guint k = tokens[t].first_glyph; k < tokens[t].first_glyph + tokens[t].n_glyphs; k++)
        {
          DcGlyphBox box = dc_glyph_get_box (&glyphs[order[k]]);

          cell.x0 = MIN (cell.x0, box.x0);
          cell.x1 = MAX (cell.x1, box.x1);
        }
      token_text = _dc_token_texts_get (known, t);
      /* Kept by the caller while the cells are: no copy. */
      cell.owned = token_text == NULL;
      if (token_text == NULL)
        {
          /* Made for the first such token only: most lines' texts are all known. */
          if (text == NULL)
            text = g_string_new (NULL);
          g_string_truncate (text, 0);
          _dc_export_append_token (text, document, &tokens[t], value, user_data);
          token_text = text->str;
        }
      /* Words written together are one cell, as they are one word of the text; a word
       * that starts below U+0800 closes up with none (_dc_reorder_tokens_close_up()),
       * which spares most words the call. */
      if (n > first && (guchar) token_text[0] >= 0xE0
          && _dc_reorder_tokens_close_up (document, &tokens[t - 1], &tokens[t],
                                          g_array_index (r->cells, Cell, n - 1).text, token_text,
                                          value, user_data))
        {
          Cell *previous = &g_array_index (r->cells, Cell, n - 1);
          char *joined = g_strconcat (previous->text, token_text, NULL);

          if (previous->owned)
            g_free (previous->text);
          previous->text = joined;
          previous->owned = TRUE;
          previous->width = text_width (joined, code_points);
          previous->x0 = MIN (previous->x0, cell.x0);
          previous->x1 = MAX (previous->x1, cell.x1);
          continue;
        }
      cell.width = text_width (token_text, code_points);
      cell.text = cell.owned ? g_strdup (token_text) : (char *) token_text;
      g_array_index (r->cells, Cell, n++) = cell;
    }
  /* The cells of tokens glued to the one before are none. */
  g_array_set_size (r->cells, n);
  /* Vertical or upside-down lines have no columns across lines: they keep their order.
   * Most lines' tokens come left to right already, with no two at one place: any sort
   * leaves those as they are. */
  if (line->rotation == 0 && r->cells->len > first
      && !strictly_left_to_right (&g_array_index (r->cells, Cell, first), r->cells->len - first))
    qsort (&g_array_index (r->cells, Cell, first), r->cells->len - first, sizeof (Cell),
           compare_cells_x);
}

/* Freki's projection of a line: a token closer to the one before than a third of a column
 * is glued to it; the others go to the column their left edge rounds to. */
static void
columnize_line (Respaced *r, guint i, double origin, gboolean rotated)
{
  double last_x = 0;
  guint kept = r->line_first[i];

  if (rotated)
    {
      int column = 0;

      for (guint c = r->line_first[i]; c < r->line_first[i + 1]; c++)
        {
          Cell *cell = &g_array_index (r->cells, Cell, c);

          cell->column = column;
          column += cell->width + 1;
        }
      return;
    }

  for (guint c = r->line_first[i]; c < r->line_first[i + 1]; c++)
    {
      Cell *cell = &g_array_index (r->cells, Cell, c);
      double dx = cell->x0 - last_x;

      last_x = cell->x1;
      if (c > r->line_first[i] && !(r->unit > 0 && dx >= r->unit / 3))
        {
          Cell *previous = &g_array_index (r->cells, Cell, kept - 1);
          char *joined = g_strconcat (previous->text, cell->text, NULL);

          if (previous->owned)
            g_free (previous->text);
          previous->text = joined;
          previous->owned = TRUE;
          previous->width += cell->width;
          if (cell->owned)
            g_free (cell->text);
          cell->text = NULL;
          continue;
        }
      {
        double column = (cell->x0 - origin) / r->unit + 0.5;

        /* NaN and beyond int too: the cast alone would be undefined. */
        cell->column = isnan (column) ? 0 : (int) CLAMP (column, -MAX_COLUMN, MAX_COLUMN);
      }
      if (kept != c)
        {
          g_array_index (r->cells, Cell, kept) = *cell;
          cell->text = NULL;
        }
      kept++;
    }
  /* The glued cells' slots are left empty at the end of the line: drop them. */
  if (kept < r->line_first[i + 1])
    {
      /* Counted once: the loop changes line_first[i + 1] itself first. */
      guint removed = r->line_first[i + 1] - kept;

      g_array_remove_range (r->cells, kept, removed);
      for (guint j = i + 1; j <= r->n_lines; j++)
        r->line_first[j] -= removed;
    }
}

static gboolean
has_column (const Respaced *r, guint line, int column)
{
  for (guint c = r->line_first[line]; c < r->line_first[line + 1]; c++)
    if (g_array_index (r->cells, Cell, c).column == column)
      return TRUE;
  return FALSE;
}

/* Freki's interlinear score of a line against the one above: of the columns of the
 * line above that are not left of this line's first token, and this line's own, the
 * share found in both, counted over the longer of the two — so an example's number
 * ("(1)", "a.") left of its gloss line does not count. */
static double
interlinear_score (const Respaced *r, guint i)
{
  const Cell *cells = (const Cell *) (void *) r->cells->data;
  /* The line above's columns as a set: a few, on the stack as a rule. */
  int above_on_stack[64];
  g_autofree int *above_on_heap = NULL;
  int *above = above_on_stack;
  guint n_above = 0;
  int left = G_MAXINT;
  guint n = r->line_first[i + 1] - r->line_first[i], shared = 0;

  if (n == 0 || r->line_first[i] == r->line_first[i - 1])
    return NAN;
  if (r->line_first[i] - r->line_first[i - 1] > G_N_ELEMENTS (above_on_stack))
    above = above_on_heap = g_new (int, r->line_first[i] - r->line_first[i - 1]);
  for (guint c = r->line_first[i]; c < r->line_first[i + 1]; c++)
    left = MIN (left, cells[c].column);
  for (guint c = r->line_first[i - 1]; c < r->line_first[i]; c++)
    {
      gboolean seen = FALSE;

      for (guint k = 0; k < n_above && !seen; k++)
        seen = above[k] == cells[c].column;
      if (cells[c].column >= left && !seen)
        above[n_above++] = cells[c].column;
    }
  if (n > n_above)
    {
      for (guint k = 0; k < n_above; k++)
        shared += has_column (r, i, above[k]);
      return (double) shared / n;
    }
  if (n_above == 0)
    return 0;
  for (guint c = r->line_first[i]; c < r->line_first[i + 1]; c++)
    for (guint k = 0; k < n_above; k++)
      if (above[k] == cells[c].column)
        {
          shared++;
          break;
        }
  return (double) shared / n_above;
}

static int
compare_cells_column (gconstpointer a, gconstpointer b)
{
  const Cell *ca = *(Cell *const *) a, *cb = *(Cell *const *) b;

  if (ca->column != cb->column)
    return ca->column < cb->column ? -1 : 1;
  if (ca->line != cb->line)
    return ca->line < cb->line ? -1 : 1;
  return ca < cb ? -1 : ca > cb;
}

/* Freki's respacing of the group of lines [first, end): column by column from the left,
 * the tokens of a column all go to it, or further right as far as the longest text
 * before it on one of their lines needs (one space after it). */
static void
place_group (Respaced *r, guint first, guint end)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  g_autofree int *next = g_new0 (int, r->n_lines);

  for (guint c = r->line_first[first]; c < r->line_first[end]; c++)
    g_ptr_array_add (sorted, &g_array_index (r->cells, Cell, c));
  g_ptr_array_sort (sorted, compare_cells_column);

  for (guint i = 0; i < sorted->len;)
    {
      const Cell *head = g_ptr_array_index (sorted, i);
      int start = head->column;
      guint j;

      for (j = i; j < sorted->len; j++)
        {
          const Cell *cell = g_ptr_array_index (sorted, j);

          if (cell->column != head->column)
            break;
          start = MAX (start, next[cell->line]);
        }
      for (; i < j; i++)
        {
          Cell *cell = g_ptr_array_index (sorted, i);

          cell->position = start;
          next[cell->line] = start + cell->width + 1;
        }
    }
}

/* Projects, scores and places the tokens of one block as Freki does (its main.py,
 * respace()). Columns count from @origin; a column is the block's average character
 * width (token widths over their characters). */
static Respaced *
respace_block_full (DcDocument *document, const DcBlock *block, double origin, gboolean code_points,
                    gboolean place, DcValueFunc value, gpointer user_data,
                    const DcTokenTexts *known)
{
  const DcLine *lines = dc_document_get_lines (document, NULL);
  Respaced *r = g_new0 (Respaced, 1);
  double width = 0;
  guint chars = 0;

  r->n_lines = block->n_lines;
  r->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  g_array_set_clear_func (r->cells, clear_cell);
  r->line_first = g_new0 (guint, r->n_lines + 1);
  r->iscore = g_new0 (double, r->n_lines);

  for (guint i = 0; i < r->n_lines; i++)
    {
      r->line_first[i] = r->cells->len;
      collect_line (r, document, i, &lines[block->first_line + i], value, user_data, code_points,
                    known);
    }
  r->line_first[r->n_lines] = r->cells->len;

  for (guint c = 0; c < r->cells->len; c++)
    {
      const Cell *cell = &g_array_index (r->cells, Cell, c);

      width += cell->x1 - cell->x0;
      /* Counted in code points, a cell's width is its length already. */
      chars += code_points ? (guint) cell->width : (guint) g_utf8_strlen (cell->text, -1);
    }
  r->unit = chars > 0 && width > 0 ? width / chars : 1.0;

  for (guint i = 0; i < r->n_lines; i++)
    columnize_line (r, i, origin, lines[block->first_line + i].rotation != 0);

  for (guint i = 0; i < r->n_lines; i++)
    r->iscore[i] = i == 0 ? NAN : interlinear_score (r, i);

  /* The scores alone need no layout. */
  for (guint i = 0; place && i < r->n_lines;)
    {
      guint end = i + 1;

      while (end < r->n_lines && r->iscore[end] >= GROUP_ISCORE)
        end++;
      place_group (r, i, end);
      i = end;
    }
  return r;
}

static Respaced *
respace_block (DcDocument *document, const DcBlock *block, double origin, gboolean code_points,
               DcValueFunc value, gpointer user_data)
{
  return respace_block_full (document, block, origin, code_points, TRUE, value, user_data, NULL);
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
      column = cell->position + cell->width;
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

/* One token's font as Freki's reader gives it: the font and size most of its glyphs are
 * in (the first such on a tie), as "NAME-SIZE". */
static char *
token_font (DcDocument *document, const DcToken *token)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  guint best = 0, best_count = 0;
  GString *out = g_string_new (NULL);
  char size[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint k = 0; k < token->n_glyphs; k++)
    {
      const DcGlyph *glyph = &glyphs[order[token->first_glyph + k]];
      guint count = 0;

      for (guint j = 0; j < token->n_glyphs; j++)
        {
          const DcGlyph *other = &glyphs[order[token->first_glyph + j]];

          count += dc_glyph_get_font (other, symbols) == dc_glyph_get_font (glyph, symbols)
                   && lround (dc_glyph_get_size (other) * 10)
                          == lround (dc_glyph_get_size (glyph) * 10);
        }
      if (count > best_count)
        {
          best = k;
          best_count = count;
        }
    }
  {
    const DcGlyph *glyph = &glyphs[order[token->first_glyph + best]];

    append_font_name (out,
                      dc_font_get_name (
                          dc_document_get_font (document, dc_glyph_get_font (glyph, symbols))));
    g_ascii_formatd (size, sizeof size, "%.1f", dc_glyph_get_size (glyph));
  }
  g_string_append_c (out, '-');
  g_string_append (out, size);
  return g_string_free (out, FALSE);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Freki's fonts= of a line: its tokens' fonts, each once, sorted. */
static void
append_line_fonts (GString *out, DcDocument *document, const DcLine *line)
{
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  g_autoptr (GPtrArray) fonts = g_ptr_array_new_with_free_func (g_free);

  for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
    if (tokens[t].n_glyphs > 0)
      g_ptr_array_add (fonts, token_font (document, &tokens[t]));
  g_ptr_array_sort (fonts, compare_strings);
  g_string_append (out, "fonts=");
  for (guint f = 0; f < fonts->len; f++)
    {
      if (f > 0 && strcmp (g_ptr_array_index (fonts, f), g_ptr_array_index (fonts, f - 1)) == 0)
        continue;
      if (f > 0)
        g_string_append_c (out, ',');
      g_string_append (out, g_ptr_array_index (fonts, f));
    }
}

/* Freki's doc_id: the file's name without its extension (nor a ".gz" before that). Spaces
 * become '_', as Freki's own reader splits the preamble at white space. */
static char *
freki_doc_id (DcDocument *document)
{
  char *doc_id = g_path_get_basename (dc_document_get_path (document));
  char *dot;

  if (g_str_has_suffix (doc_id, ".gz"))
    doc_id[strlen (doc_id) - 3] = '\0';
  dot = strrchr (doc_id, '.');
  if (dot != NULL && dot > doc_id + strspn (doc_id, "."))
    *dot = '\0';
  for (char *p = doc_id; *p; p++)
    if (g_ascii_isspace (*p))
      *p = '_';
  return doc_id;
}

/* Freki counts its columns from the leftmost token of the whole document. */
static double
document_left_margin (DcDocument *document)
{
  guint n_lines;
  const DcLine *lines = dc_document_get_lines (document, &n_lines);
  double left = G_MAXDOUBLE;

  for (guint l = 0; l < n_lines; l++)
    if (lines[l].n_tokens > 0)
      left = MIN (left, lines[l].x0);
  return left == G_MAXDOUBLE ? 0 : left;
}

static void
append_block (GString *out, DcDocument *document, const DcBlock *block, guint page, double height,
              double left, guint line_number, DcValueFunc value, gpointer user_data)
{
  const DcLine *lines = dc_document_get_lines (document, NULL);
  g_autoptr (Respaced) r = respace_block (document, block, left, TRUE, value, user_data);
  g_autoptr (GPtrArray) preambles = g_ptr_array_new_with_free_func (g_free);
  glong widest = 0;

  g_string_append_printf (out, "page=%u block_id=%u-%u ", page + 1, page + 1, block->index + 1);
  append_bbox (out, height, block->x0, block->y0, block->x1, block->y1);
  g_string_append_printf (out, " label=%s %u %u\n", block->label, line_number,
                          line_number + block->n_lines - 1);

  for (guint i = 0; i < block->n_lines; i++)
    {
      const DcLine *line = &lines[block->first_line + i];
      GString *preamble = g_string_new (NULL);

      g_string_append_printf (preamble, "line=%u ", line_number + i);
      append_line_fonts (preamble, document, line);
      if (!isnan (r->iscore[i]))
        g_string_append_printf (preamble, " iscore=%.2f", r->iscore[i]);
      g_string_append_c (preamble, ' ');
      append_bbox (preamble, height, line->x0, line->y0, line->x1, line->y1);
      widest = MAX (widest, g_utf8_strlen (preamble->str, -1));
      g_ptr_array_add (preambles, g_string_free (preamble, FALSE));
    }
  /* Every preamble padded to the block's longest, then ':' and the text. */
  for (guint i = 0; i < block->n_lines; i++)
    {
      const char *preamble = g_ptr_array_index (preambles, i);

      g_string_append (out, preamble);
      for (glong pad = g_utf8_strlen (preamble, -1); pad < widest; pad++)
        g_string_append_c (out, ' ');
      g_string_append_c (out, ':');
      append_respaced_line (out, r, i);
      g_string_append_c (out, '\n');
    }
}

char *
_dc_export_freki (DcDocument *document, DcValueFunc value, gpointer user_data)
{
  GString *out = g_string_new (NULL);
  const DcBlock *blocks = dc_document_get_blocks (document, NULL);
  g_autofree char *doc_id = freki_doc_id (document);
  guint n_pages = dc_document_get_n_pages (document);
  double left = document_left_margin (document);
  guint line_number = 1;

  for (guint page = 0; page < n_pages; page++)
    {
      double width, height;
      guint first, n;

      dc_document_get_page_size (document, page, &width, &height);
      dc_document_get_page_blocks (document, page, &first, &n);
      for (guint b = first; b < first + n; b++)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append_printf (out, "doc_id=%s ", doc_id);
          append_block (out, document, &blocks[b], page, height, left, line_number, value,
                        user_data);
          line_number += blocks[b].n_lines;
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
          g_autoptr (Respaced)
              r = respace_block (document, &blocks[b], left, FALSE, value, user_data);

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
 * Freki's interlinear score (its `iscore`, the tab-score) of every line of @block against
 * the line above it: how many of the line's monospaced columns the line above shares,
 * counted from the line's first token.
 *
 * Returns: (transfer full): @block->n_lines scores between 0 and 1, NAN for the block's
 *   first line, which has no line above
 */
double *
dc_export_block_tabscores (DcDocument *document, const DcBlock *block, DcValueFunc value,
                           gpointer user_data)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (block != NULL && value != NULL, NULL);

  return _dc_export_block_tabscores (document, block, document_left_margin (document), value,
                                     user_data, NULL);
}

/* dc_export_block_tabscores() with the document's left margin (_dc_export_left_margin())
 * worked out once for all its blocks, and the texts of its tokens when the caller has
 * them (@known, or NULL). */
double *
_dc_export_block_tabscores (DcDocument *document, const DcBlock *block, double left,
                            DcValueFunc value, gpointer user_data, const DcTokenTexts *known)
{
  g_autoptr (Respaced)
      r = respace_block_full (document, block, left, TRUE, FALSE, value, user_data, known);

  return g_steal_pointer (&r->iscore);
}

double
_dc_export_left_margin (DcDocument *document)
{
  return document_left_margin (document);
}
