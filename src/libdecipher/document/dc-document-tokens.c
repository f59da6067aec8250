/* dc-document-tokens.c: a document's tokens, in snapshots that never change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-document.c. Only the word boundaries change after loading: learning that
 * a symbol is a space splits the lines into tokens anew, on several threads, into a new
 * DcTokens snapshot; a worker keeps reading the one it holds.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <string.h>

#include "dc-document-private.h"
#include "dc-layout-private.h"
#include "dc-memory-private.h"
#include "dc-parallel-private.h"

G_DEFINE_BOXED_TYPE (DcTokens, dc_tokens, dc_tokens_ref, dc_tokens_unref)

DcTokens *
dc_tokens_ref (DcTokens *tokens)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  g_atomic_int_inc (&tokens->ref_count);
  return tokens;
}

/* May be called from any thread; the last reference frees the snapshot. */
void
dc_tokens_unref (DcTokens *tokens)
{
  g_return_if_fail (tokens != NULL);

  if (!g_atomic_int_dec_and_test (&tokens->ref_count))
    return;
  g_free (tokens->lines);
  g_free (tokens->tokens);
  g_free (tokens->symbol_is_space);
  g_free (tokens);
}

/* The generation of the tokens: a new snapshot has a new one. */
guint
dc_tokens_get_generation (DcTokens *tokens)
{
  g_return_val_if_fail (tokens != NULL, 0);

  return tokens->generation;
}

/**
 * dc_tokens_get_tokens:
 *
 * Returns: (transfer none): the tokens, valid as long as @tokens is held
 */
const DcToken *
dc_tokens_get_tokens (DcTokens *tokens, guint *n_tokens)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  if (n_tokens)
    *n_tokens = tokens->n_tokens;
  return tokens->tokens;
}

/**
 * dc_tokens_get_lines:
 *
 * Returns: (transfer none): the lines with the token ranges of this snapshot, valid as
 *   long as @tokens is held
 */
const DcLine *
dc_tokens_get_lines (DcTokens *tokens, guint *n_lines)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  if (n_lines)
    *n_lines = tokens->n_lines;
  return tokens->lines;
}

/* Whether @symbol separated words when the snapshot was made. */
gboolean
dc_tokens_symbol_is_space (DcTokens *tokens, guint symbol)
{
  g_return_val_if_fail (tokens != NULL, FALSE);
  g_return_val_if_fail (symbol < tokens->n_symbols, FALSE);

  return tokens->symbol_is_space[symbol];
}

/* Splitting lines into tokens on several threads: parts of a few hundred lines taken in
 * turn, each storing its tokens from the place its first glyph has among the lines'
 * glyphs (a line has no more tokens than glyphs, so a part's tokens end before the next
 * part's place), then moved down in part order to follow one another. */
typedef struct
{
  const DcGlyph *glyphs;
  const guint32 *order;
  DcLine *lines;
  const guint8 *symbol_is_space;
  DcToken *tokens;
  const guint *part_lines;  /* n_parts + 1: the first line of each part */
  const guint *part_places; /* n_parts: where each part stores its tokens */
  guint *part_tokens;       /* n_parts: how many each stored */
  guint n_parts;
  guint n_places; /* the lines' glyphs */
  gint next_part; /* atomic */
} Split;

/* The room part @p has faulted in: a token every SPLIT_GLYPHS_PER_TOKEN glyphs (text has
 * a word every five or six). */
static guint part_room (const guint *part_places, guint n_parts, guint n_places, guint p);

static guint
split_room (const Split *split, guint p)
{
  return part_room (split->part_places, split->n_parts, split->n_places, p);
}

static void
split_parts (gpointer data)
{
  Split *split = data;
  guint p;

  while ((p = (guint) g_atomic_int_add (&split->next_part, 1)) < split->n_parts)
    {
      _dc_memory_populate (&split->tokens[split->part_places[p]],
                           (gsize) split_room (split, p) * sizeof (DcToken));
      split->part_tokens[p] = dc_layout_tokens_into (split->glyphs, split->order, split->lines,
                                                     split->part_lines[p], split->part_lines[p + 1],
                                                     split->symbol_is_space, split->tokens,
                                                     split->part_places[p]);
    }
}

/* Splits @lines into @tokens (room for as many as the lines have glyphs) on @n_threads
 * threads: the same tokens, in the same places, as dc_layout_tokens(). Returns their
 * count. */
static guint
split_tokens (DcDocument *self, DcLine *lines, guint n_lines, const guint8 *symbol_is_space,
              DcToken *tokens, guint n_threads)
{
  Split split = { 0 };
  g_autofree guint *part_lines = NULL;
  g_autofree guint *part_places = NULL;
  g_autofree guint *part_tokens = NULL;
  guint per_part;

  if (n_threads <= 1 || n_lines < 2)
    return dc_layout_tokens_into ((const DcGlyph *) (void *) self->glyphs->data,
                                  (const guint32 *) (void *) self->order->data, lines, 0, n_lines,
                                  symbol_is_space, tokens, 0);

  /* Parts small enough that the threads finish together. */
  per_part = MAX (1, n_lines / (n_threads * 8));
  split.n_parts = (n_lines + per_part - 1) / per_part;
  part_lines = g_new (guint, split.n_parts + 1);
  part_places = g_new (guint, split.n_parts);
  part_tokens = g_new0 (guint, split.n_parts);
  for (guint p = 0, place = 0; p < split.n_parts; p++)
    {
      part_lines[p] = p * per_part;
      part_places[p] = place;
      for (guint l = p * per_part; l < MIN (n_lines, (p + 1) * per_part); l++)
        place += lines[l].n_glyphs;
    }
  part_lines[split.n_parts] = n_lines;
  for (guint l = 0; l < n_lines; l++)
    split.n_places += lines[l].n_glyphs;
  split.glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  split.order = (const guint32 *) (void *) self->order->data;
  split.lines = lines;
  split.symbol_is_space = symbol_is_space;
  split.tokens = tokens;
  split.part_lines = part_lines;
  split.part_places = part_places;
  split.part_tokens = part_tokens;
  _dc_parallel_run (MIN (n_threads, split.n_parts), split_parts, &split);

  return _dc_tokens_close_up (tokens, lines, split.n_parts, part_lines, part_places, part_tokens,
                              split.n_places);
}

/* The room the part of @part_places' @p has faulted in, of the @n_places places in all. */
static guint
part_room (const guint *part_places, guint n_parts, guint n_places, guint p)
{
  guint end = p + 1 < n_parts ? part_places[p + 1] : n_places;

  return (end - part_places[p]) / SPLIT_GLYPHS_PER_TOKEN;
}

guint
_dc_tokens_close_up (DcToken *tokens, DcLine *lines, guint n_parts, const guint *part_lines,
                     const guint *part_places, const guint *part_tokens, guint n_places)
{
  guint n = 0, n_tokens = 0;

  for (guint p = 0; p < n_parts; p++)
    n_tokens += part_tokens[p];
  /* Room faulted in that no token took, beyond where they will all end: given back. */
  for (guint p = 0; p < n_parts; p++)
    {
      guint from = MAX (n_tokens, part_places[p] + part_tokens[p]);
      guint to = part_places[p] + part_room (part_places, n_parts, n_places, p);

      if (to > from)
        _dc_memory_release (&tokens[from], (gsize) (to - from) * sizeof (DcToken));
    }
  for (guint p = 0; p < n_parts; p++)
    {
      guint moved_by = part_places[p] - n;

      if (moved_by > 0)
        {
          guint end = part_places[p] + part_tokens[p];

          /* Where they go, faulted in at once rather than a page at a time by the move. */
          _dc_memory_populate (&tokens[n], (gsize) part_tokens[p] * sizeof (DcToken));
          memmove (&tokens[n], &tokens[part_places[p]], part_tokens[p] * sizeof (DcToken));
          for (guint l = part_lines[p]; l < part_lines[p + 1]; l++)
            lines[l].first_token -= moved_by;
          /* Where the tokens were, beyond where they all end now: given back at once, so
           * that the moves add nothing to what loading holds at its peak. */
          if (end > n_tokens)
            _dc_memory_release (&tokens[MAX (n_tokens, part_places[p])],
                                (end - MAX (n_tokens, part_places[p])) * sizeof (DcToken));
        }
      n += part_tokens[p];
    }
  return n;
}

/* A new snapshot of the document's lines and @symbol_is_space (taken over), its tokens to
 * come: snapshot_take() makes it the current one. */
static DcTokens *
snapshot_new (DcDocument *self, guint8 *symbol_is_space)
{
  DcTokens *tokens = g_new0 (DcTokens, 1);

  tokens->ref_count = 1;
  tokens->generation = self->tokens != NULL ? self->tokens->generation + 1 : 1;
  tokens->n_lines = self->lines->len;
  /* A book's lines are most of a megabyte, memory new to the process: faulted in at
   * once. */
  tokens->lines = g_malloc (sizeof (DcLine) * MAX (1, self->lines->len));
  _dc_memory_populate (tokens->lines, sizeof (DcLine) * MAX (1, self->lines->len));
  memcpy (tokens->lines, self->lines->data, sizeof (DcLine) * self->lines->len);
  tokens->n_symbols = self->symbols->len;
  tokens->symbol_is_space = symbol_is_space;
  return tokens;
}

/* Gives @tokens its tokens @array (tokens->n_tokens of them, room for more) and makes it
 * the document's current snapshot. */
static void
snapshot_take (DcDocument *self, DcTokens *tokens, DcToken *array)
{
  DcTokens *old;

  /* Exactly the size needed: a book keeps a hundred thousand tokens or more. */
  tokens->tokens = g_renew (DcToken, array, MAX (1, tokens->n_tokens));

  /* The document's own lines stay where they are (callers keep pointers to them) and
   * take the new ranges; a worker reads its snapshot's copy, never these. */
  memcpy (self->lines->data, tokens->lines, sizeof (DcLine) * tokens->n_lines);
  old = self->tokens;
  self->tokens = tokens;
  if (old != NULL)
    dc_tokens_unref (old);
}

/* Splits the lines into tokens at the spaces @symbol_is_space (taken over) says, into
 * a new snapshot that replaces the document's current one, on @n_threads threads. The
 * tokens go into one array with room for a token a glyph, of which only the pages the
 * tokens reach are ever touched, then cut to their number: split into an array a part,
 * the parts and the snapshot's array were held at once, two bytes a glyph more at the
 * peak of loading than the budget allows. */
void
_dc_document_retokenize (DcDocument *self, guint8 *symbol_is_space, guint n_threads)
{
  DcTokens *tokens = snapshot_new (self, symbol_is_space);
  gsize room = 0;
  DcToken *array;

  for (guint l = 0; l < tokens->n_lines; l++)
    room += tokens->lines[l].n_glyphs;
  array = g_new (DcToken, MAX (1, room));
  tokens->n_tokens = split_tokens (self, tokens->lines, tokens->n_lines, symbol_is_space, array,
                                   n_threads);
  snapshot_take (self, tokens, array);
}

/* _dc_document_retokenize() for tokens split already, as the layout splits each page's
 * lines while their glyphs are at hand: the document's lines hold their ranges of @array
 * (@n_tokens tokens, room for more), which the new snapshot takes over. */
void
_dc_document_take_tokens (DcDocument *self, guint8 *symbol_is_space, DcToken *array, guint n_tokens)
{
  DcTokens *tokens = snapshot_new (self, symbol_is_space);

  tokens->n_tokens = n_tokens;
  snapshot_take (self, tokens, array);
}

/**
 * dc_document_get_tokens:
 *
 * The tokens of the current snapshot, for use on the thread that owns the document.
 *
 * Returns: (transfer none): the tokens, valid until the next space change (see
 *   dc_document_get_lines()): do not keep the pointer across a key change. A worker
 *   holds a snapshot from dc_document_ref_tokens() instead.
 */
const DcToken *
dc_document_get_tokens (DcDocument *self, guint *n_tokens)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return dc_tokens_get_tokens (self->tokens, n_tokens);
}

/**
 * dc_document_ref_tokens:
 *
 * The current snapshot of the tokens, the lines' token ranges and the space flags.
 * Nothing in it ever changes: a space change gives the document a new snapshot and
 * leaves this one as it is. Take it on the thread that owns the document (the one that
 * changes the key), then hand it to a worker: a worker asking for the current one could
 * get it while the owner replaces it.
 *
 * Returns: (transfer full): the snapshot, to release with dc_tokens_unref()
 */
DcTokens *
dc_document_ref_tokens (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return dc_tokens_ref (self->tokens);
}

/* Whether @symbol separates words now; for the thread that owns the document (a worker
 * asks its snapshot, dc_tokens_symbol_is_space()). */
gboolean
dc_document_symbol_is_space (DcDocument *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (symbol < self->symbols->len, FALSE);

  return self->symbol_is_space[symbol];
}

/* Marks a symbol as a word separator (or not) and recomputes the tokens into a new
 * snapshot; on the thread that owns the document only. */
void
dc_document_set_symbol_is_space (DcDocument *self, guint symbol, gboolean is_space)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (symbol < self->symbols->len);

  if (self->symbol_is_space[symbol] == !!is_space)
    return;
  self->symbol_is_space[symbol] = !!is_space;
  _dc_document_retokenize (self, g_memdup2 (self->symbol_is_space, self->space_capacity),
                           _dc_parallel_threads (self->n_pages));
}

/* Changes whenever the tokens are recomputed, so indexes over them know to rebuild;
 * for the owning thread (a snapshot knows its own, dc_tokens_get_generation()). */
guint
dc_document_get_tokens_generation (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->tokens->generation;
}
