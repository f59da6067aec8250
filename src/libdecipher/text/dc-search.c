/* dc-search.c: finding words in the recovered text, and where they are drawn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A linguist searches what they read, so the text searched is each line's in logical
 * order (dc-reorder.c), as the text export gives it, and a match is shown on the page by
 * the glyphs of the words it touches: in reordered scripts a character has no glyph of
 * its own to point at, but its word always has. Case and Unicode normalisation do not
 * matter. The search runs a slice of lines at a time, so that a window can search a book
 * without stalling and show the matches as they come.
 */

#define G_LOG_DOMAIN "dc-search"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dc-reorder-private.h"
#include "dc-search.h"

typedef struct
{
  guint32 page;
  guint32 first_glyph; /* into DcSearch.glyphs */
  guint32 n_glyphs;
} Match;

struct _DcSearch
{
  DcDocument *document;
  char *needle; /* folded; "" finds nothing */
  guint next_line;
  GArray *matches; /* of Match, in reading order */
  GArray *glyphs;  /* of guint32 document glyph indices, match after match */
  GArray *sorted;  /* the same glyphs sorted: those of the pages done, then the page under way */
  guint n_sorted_done; /* how many of @sorted are the glyphs of pages done */
  guint page;          /* the page of the line searched last */
  guint page_glyphs;   /* where that page's glyphs begin in @glyphs */
  gboolean pages_unordered;
};

/**
 * dc_search_fold:
 *
 * @text as a search compares it: NFC, case-folded, each run of white space one space,
 * none at either end.
 *
 * Returns: (transfer full):
 */
char *
dc_search_fold (const char *text)
{
  g_autofree char *nfc = NULL;
  g_autofree char *folded = NULL;
  GString *out;
  gboolean in_space = TRUE;

  g_return_val_if_fail (text != NULL, NULL);

  /* Most words of most documents: no need for Unicode's tables (and their copies). */
  for (const char *p = text;; p++)
    {
      if (*p == '\0')
        {
          out = g_string_new (NULL);
          for (const char *q = text; *q != '\0'; q++)
            {
              if (g_ascii_isspace (*q))
                {
                  in_space = TRUE;
                  continue;
                }
              if (in_space && out->len > 0)
                g_string_append_c (out, ' ');
              in_space = FALSE;
              g_string_append_c (out, g_ascii_tolower (*q));
            }
          return g_string_free (out, FALSE);
        }
      if ((guchar) *p >= 0x80)
        break;
    }

  nfc = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
  if (nfc == NULL)
    return g_strdup ("");
  folded = g_utf8_casefold (nfc, -1);
  out = g_string_sized_new (strlen (folded));
  for (const char *p = folded; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        {
          in_space = TRUE;
          continue;
        }
      if (in_space && out->len > 0)
        g_string_append_c (out, ' ');
      in_space = FALSE;
      g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/**
 * dc_search_new:
 * @text: what to find, as the user typed it
 *
 * Starts a search of @document's text for @text. Nothing is searched until
 * dc_search_step(). The search holds a reference to @document; its matches are about the
 * document's tokens as they are while it runs, so start a new one when the key changes.
 *
 * Returns: (transfer full):
 */
DcSearch *
dc_search_new (DcDocument *document, const char *text)
{
  DcSearch *search;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  search = g_new0 (DcSearch, 1);
  search->document = g_object_ref (document);
  search->needle = dc_search_fold (text);
  search->matches = g_array_new (FALSE, FALSE, sizeof (Match));
  search->glyphs = g_array_new (FALSE, FALSE, sizeof (guint32));
  search->sorted = g_array_new (FALSE, FALSE, sizeof (guint32));
  return search;
}

void
dc_search_free (DcSearch *search)
{
  if (search == NULL)
    return;
  g_object_unref (search->document);
  g_free (search->needle);
  g_array_unref (search->matches);
  g_array_unref (search->glyphs);
  g_array_unref (search->sorted);
  g_free (search);
}

/* Whether there is nothing to look for (only white space was typed). */
gboolean
dc_search_is_empty (DcSearch *search)
{
  g_return_val_if_fail (search != NULL, TRUE);

  return search->needle[0] == '\0';
}

gboolean
dc_search_is_done (DcSearch *search)
{
  guint n_lines;

  g_return_val_if_fail (search != NULL, TRUE);

  dc_document_get_lines (search->document, &n_lines);
  return dc_search_is_empty (search) || search->next_line >= n_lines;
}

static int
compare_glyphs (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Appends the glyphs found on the page under way since it began to @search->sorted, in
 * order. Glyphs are numbered page by page and lines are searched page by page, so a page's
 * glyphs sort after all those of the pages before: the sorted array grows a page at a
 * time, each sorted on its own, and a book's hundreds of thousands of matched glyphs are
 * never sorted, nor copied, again. */
static void
sort_page_under_way (DcSearch *search)
{
  guint from = search->n_sorted_done;
  guint n = search->glyphs->len - search->page_glyphs;

  if (search->pages_unordered)
    {
      /* Should a document ever number its glyphs out of its pages' order: all again. */
      g_array_set_size (search->sorted, 0);
      g_array_append_vals (search->sorted, search->glyphs->data, search->glyphs->len);
      qsort (search->sorted->data, search->sorted->len, sizeof (guint32), compare_glyphs);
      return;
    }
  g_array_set_size (search->sorted, from);
  if (n == 0)
    return;
  g_array_append_vals (search->sorted,
                       &g_array_index (search->glyphs, guint32, search->page_glyphs), n);
  qsort (&g_array_index (search->sorted, guint32, from), n, sizeof (guint32), compare_glyphs);
  if (from > 0
      && g_array_index (search->sorted, guint32, from - 1)
             > g_array_index (search->sorted, guint32, from))
    {
      search->pages_unordered = TRUE;
      sort_page_under_way (search);
    }
}

static void
add_match (DcSearch *search, const DcLine *line, const guint32 *token_indices, guint first, guint n)
{
  const DcToken *tokens = dc_document_get_tokens (search->document, NULL);
  const guint32 *order = dc_document_get_reading_order (search->document, NULL);
  Match match = { line->page, search->glyphs->len, 0 };

  for (guint i = first; i < first + n; i++)
    {
      const DcToken *token = &tokens[token_indices[i]];

      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        g_array_append_val (search->glyphs, order[k]);
    }
  match.n_glyphs = search->glyphs->len - match.first_glyph;
  if (match.n_glyphs > 0)
    g_array_append_val (search->matches, match);
}

static void
search_line (DcSearch *search, guint line, DcValueFunc value, gpointer user_data)
{
  const DcLine *l = &dc_document_get_lines (search->document, NULL)[line];
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) token_indices = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GString) haystack = g_string_new (NULL);
  gsize needle_length = strlen (search->needle);
  const char *hit;

  if (l->n_tokens == 0)
    return;
  _dc_reorder_line_tokens (search->document, line, value, user_data, texts, token_indices);
  g_assert (texts->len == token_indices->len);

  /* The words in logical order, one space apart; @starts[i] is where word i begins. */
  for (guint i = 0; i < texts->len; i++)
    {
      g_autofree char *folded = dc_search_fold (g_ptr_array_index (texts, i));

      if (i > 0)
        g_string_append_c (haystack, ' ');
      g_array_append_val (starts, haystack->len);
      g_string_append (haystack, folded);
    }
  g_array_append_val (starts, haystack->len); /* a sentinel past the last word */

  for (hit = strstr (haystack->str, search->needle); hit != NULL;
       hit = strstr (hit + needle_length, search->needle))
    {
      gsize begin = hit - haystack->str, end = begin + needle_length;
      guint first = 0, last;

      while (first + 1 < texts->len && g_array_index (starts, gsize, first + 1) <= begin)
        first++;
      last = first;
      while (last + 1 < texts->len && g_array_index (starts, gsize, last + 1) < end)
        last++;
      add_match (search, l, (const guint32 *) (void *) token_indices->data, first,
                 last - first + 1);
    }
}

/**
 * dc_search_step:
 * @max_lines: how many lines to search in this slice, in reading order
 * @value: the text of each symbol, e.g. dc_key_value_func()
 *
 * Searches the next @max_lines lines and adds their matches.
 *
 * Returns: %TRUE when the whole document has been searched
 */
gboolean
dc_search_step (DcSearch *search, guint max_lines, DcValueFunc value, gpointer user_data)
{
  const DcLine *lines;
  guint n_lines;

  g_return_val_if_fail (search != NULL, TRUE);
  g_return_val_if_fail (value != NULL, TRUE);

  if (dc_search_is_empty (search))
    return TRUE;
  lines = dc_document_get_lines (search->document, &n_lines);
  for (guint end = MIN (n_lines, search->next_line + max_lines); search->next_line < end;
       search->next_line++)
    {
      if (lines[search->next_line].page != search->page)
        {
          sort_page_under_way (search);
          search->n_sorted_done = search->sorted->len;
          search->page = lines[search->next_line].page;
          search->page_glyphs = search->glyphs->len;
        }
      search_line (search, search->next_line, value, user_data);
    }
  return search->next_line >= n_lines;
}

guint
dc_search_get_n_matches (DcSearch *search)
{
  g_return_val_if_fail (search != NULL, 0);

  return search->matches->len;
}

/**
 * dc_search_get_match:
 * @n_glyphs: (out): how many glyphs show the match
 * @page: (out) (optional): its page
 *
 * Returns: (array length=n_glyphs): the glyphs of the words the match touches, in reading
 *   order; valid until the next dc_search_step() or dc_search_free()
 */
const guint32 *
dc_search_get_match (DcSearch *search, guint match, guint *n_glyphs, guint *page)
{
  const Match *m;

  g_return_val_if_fail (search != NULL, NULL);
  g_return_val_if_fail (match < search->matches->len, NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  m = &g_array_index (search->matches, Match, match);
  *n_glyphs = m->n_glyphs;
  if (page != NULL)
    *page = m->page;
  return &g_array_index (search->glyphs, guint32, m->first_glyph);
}

/**
 * dc_search_get_glyphs:
 *
 * Returns: (array length=n_glyphs): every glyph of every match found so far, sorted, to
 *   point them all out; valid until the next dc_search_step() or dc_search_free()
 */
const guint32 *
dc_search_get_glyphs (DcSearch *search, guint *n_glyphs)
{
  g_return_val_if_fail (search != NULL, NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  sort_page_under_way (search);
  *n_glyphs = search->sorted->len;
  return (const guint32 *) (void *) search->sorted->data;
}

/**
 * dc_search_find_from:
 * @page: where the user is
 * @backwards: look for the last match before @page instead of the first from it
 *
 * Where "next" starts when no match is current yet: from the page on screen, as a
 * document viewer does, wrapping around the document.
 *
 * Returns: a match index, or G_MAXUINT when there is none
 */
guint
dc_search_find_from (DcSearch *search, guint page, gboolean backwards)
{
  guint n;

  g_return_val_if_fail (search != NULL, G_MAXUINT);

  n = search->matches->len;
  if (n == 0)
    return G_MAXUINT;
  if (!backwards)
    {
      for (guint i = 0; i < n; i++)
        if (g_array_index (search->matches, Match, i).page >= page)
          return i;
      return 0;
    }
  for (guint i = n; i-- > 0;)
    if (g_array_index (search->matches, Match, i).page < page)
      return i;
  return n - 1;
}
