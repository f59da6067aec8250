/* dc-suggest.c: what the user should type next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recovering a font is a set cover: every unknown symbol must appear in some typed word,
 * and every word costs the user effort. The greedy choice — the window of words that
 * decodes the most unknown symbols per word typed, frequent ones weighing a little more
 * so the text becomes readable early — is close to the best cover. A window is only
 * suggested if pointing at its line makes it unambiguous: no other run starting on that
 * line has the same shape without a known glyph that tells them apart.
 */

#define G_LOG_DOMAIN "dc-suggest"

#include "config.h"

#include <math.h>

#include "dc-suggest.h"

#define MAX_WINDOW 5
#define KEEP_BEST 32 /* windows kept for the uniqueness check, best first */

/* Per token, its distinct symbols in the order they first occur, packed: token t's are
 * symbols[first[t]] … symbols[first[t + 1] − 1]; and per line, its distinct symbols
 * with how many glyphs each has there. A suggestion needs only the unknown ones, but
 * which are unknown changes with every key change while the glyphs never do: made once
 * per tokens snapshot, a suggestion filters short lists instead of walking a book's
 * glyphs through the reading order (most of its time, 80 ms on 9 M glyphs). */
typedef struct
{
  guint generation; /* of the tokens it was made from */
  guint *first;     /* n_tokens + 1 */
  guint32 *symbols;
  guint *line_first; /* n_lines + 1 */
  guint32 *line_symbols;
  guint *line_counts;
} SymbolIndex;

typedef struct _TokenUnknowns TokenUnknowns;

/* The document's current SymbolIndex, made by whichever thread asks first. */
typedef struct
{
  GMutex lock;
  SymbolIndex *index;
  TokenUnknowns *unknowns; /* (nullable) the last suggestion's, see token_unknowns_get() */
} SymbolIndexHolder;

/* Everything a suggestion reads: the document's glyphs (never change), a tokens snapshot
 * (never changes) and a key that only this thread uses, so that it may run in a worker. */
typedef struct
{
  DcDocument *document;
  DcKey *key;
  DcTokens *snapshot;
  SymbolIndex *index;
  const DcGlyph *glyphs;
  const guint32 *order;
  const DcLine *lines;
  const DcToken *tokens;
  guint n_lines;
  guint n_tokens;
  guint8 *unknown; /* per symbol: can typing still teach it? */
  double *weight;  /* per unknown symbol: what decoding it is worth */
  guint *seen;     /* per symbol: stamp of the window that counted it */
  guint stamp;
} Context;

static void
symbol_index_free (SymbolIndex *index)
{
  g_free (index->first);
  g_free (index->symbols);
  g_free (index->line_first);
  g_free (index->line_symbols);
  g_free (index->line_counts);
}

static void
symbol_index_unref (SymbolIndex *index)
{
  g_atomic_rc_box_release_full (index, (GDestroyNotify) symbol_index_free);
}

static void token_unknowns_unref (TokenUnknowns *u);

static void
symbol_index_holder_free (SymbolIndexHolder *holder)
{
  g_clear_pointer (&holder->index, symbol_index_unref);
  g_clear_pointer (&holder->unknowns, token_unknowns_unref);
  g_mutex_clear (&holder->lock);
  g_free (holder);
}

/* Appends glyphs [from, from + n) of the reading order's distinct symbols to @symbols
 * (and each one's count to @counts, if given); @seen is a per-symbol stamp, @where each
 * seen symbol's place in @symbols. */
static void
add_distinct (const DcGlyph *glyphs, const guint32 *order, guint from, guint n, guint *seen,
              guint *where, guint stamp, GArray *symbols, GArray *counts)
{
  for (guint k = from; k < from + n; k++)
    {
      guint32 symbol = glyphs[order[k]].symbol;

      if (seen[symbol] == stamp)
        {
          if (counts != NULL)
            g_array_index (counts, guint, where[symbol])++;
          continue;
        }
      seen[symbol] = stamp;
      where[symbol] = symbols->len;
      g_array_append_val (symbols, symbol);
      if (counts != NULL)
        {
          guint one = 1;

          g_array_append_val (counts, one);
        }
    }
}

static SymbolIndex *
symbol_index_new (DcDocument *document, DcTokens *tokens)
{
  SymbolIndex *index = g_atomic_rc_box_new0 (SymbolIndex);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  guint n_tokens, n_lines, n_symbols, stamp = 0;
  const DcToken *token = dc_tokens_get_tokens (tokens, &n_tokens);
  const DcLine *line = dc_tokens_get_lines (tokens, &n_lines);
  g_autofree guint *seen = NULL;
  g_autofree guint *where = NULL;
  GArray *symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *line_symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *line_counts = g_array_new (FALSE, FALSE, sizeof (guint));

  dc_document_get_symbols (document, &n_symbols);
  seen = g_new0 (guint, MAX (1, n_symbols));
  where = g_new0 (guint, MAX (1, n_symbols));
  index->generation = dc_tokens_get_generation (tokens);
  index->first = g_new (guint, n_tokens + 1);
  for (guint t = 0; t < n_tokens; t++)
    {
      index->first[t] = symbols->len;
      add_distinct (glyphs, order, token[t].first_glyph, token[t].n_glyphs, seen, where, ++stamp,
                    symbols, NULL);
    }
  index->first[n_tokens] = symbols->len;
  index->line_first = g_new (guint, n_lines + 1);
  for (guint l = 0; l < n_lines; l++)
    {
      index->line_first[l] = line_symbols->len;
      add_distinct (glyphs, order, line[l].first_glyph, line[l].n_glyphs, seen, where, ++stamp,
                    line_symbols, line_counts);
    }
  index->line_first[n_lines] = line_symbols->len;
  index->symbols = (guint32 *) (void *) g_array_free (symbols, FALSE);
  index->line_symbols = (guint32 *) (void *) g_array_free (line_symbols, FALSE);
  index->line_counts = (guint *) (void *) g_array_free (line_counts, FALSE);
  return index;
}

G_DEFINE_QUARK (dc - suggest - symbol - index, symbol_index)

/* The document's holder of its SymbolIndex, made by whichever thread asks first. */
static SymbolIndexHolder *
symbol_index_holder_get (DcDocument *document)
{
  GQuark quark = symbol_index_quark ();
  SymbolIndexHolder *holder;

  holder = g_object_get_qdata (G_OBJECT (document), quark);
  if (holder == NULL)
    {
      holder = g_new0 (SymbolIndexHolder, 1);
      g_mutex_init (&holder->lock);
      if (!g_object_replace_qdata (G_OBJECT (document), quark, NULL, holder,
                                   (GDestroyNotify) symbol_index_holder_free, NULL))
        {
          symbol_index_holder_free (holder);
          holder = g_object_get_qdata (G_OBJECT (document), quark);
        }
    }
  return holder;
}

/* The symbol index of @tokens, which are @document's tokens now or a snapshot of them:
 * kept on the document for the next suggestion, until the tokens change. */
static SymbolIndex *
symbol_index_get (DcDocument *document, DcTokens *tokens)
{
  SymbolIndexHolder *holder = symbol_index_holder_get (document);
  SymbolIndex *index;

  g_mutex_lock (&holder->lock);
  if (holder->index == NULL || holder->index->generation != dc_tokens_get_generation (tokens))
    {
      g_clear_pointer (&holder->index, symbol_index_unref);
      holder->index = symbol_index_new (document, tokens);
    }
  index = g_atomic_rc_box_acquire (holder->index);
  g_mutex_unlock (&holder->lock);
  return index;
}

static void
context_init (Context *c, DcKey *key, DcTokens *snapshot)
{
  guint n_symbols;
  const DcSymbol *symbols;

  c->key = key;
  c->document = dc_key_get_document (key);
  c->snapshot = snapshot != NULL ? dc_tokens_ref (snapshot) : dc_document_ref_tokens (c->document);
  c->glyphs = dc_document_get_glyphs (c->document, NULL);
  c->order = dc_document_get_reading_order (c->document, NULL);
  c->lines = dc_tokens_get_lines (c->snapshot, &c->n_lines);
  c->tokens = dc_tokens_get_tokens (c->snapshot, &c->n_tokens);
  c->index = symbol_index_get (c->document, c->snapshot);
  symbols = dc_document_get_symbols (c->document, &n_symbols);
  c->unknown = g_new0 (guint8, MAX (1, n_symbols));
  c->weight = g_new0 (double, MAX (1, n_symbols));
  c->seen = g_new0 (guint, MAX (1, n_symbols));
  c->stamp = 0;

  for (guint s = 0; s < n_symbols; s++)
    {
      c->unknown[s] = dc_document_symbol_needs_decoding (c->document, s)
                      && dc_key_get_value (key, s) == NULL && symbols[s].n_glyphs > 0;
      /* Mostly a count of symbols (the cover), a little their frequency (readability).
       * Worked out once here, not once per glyph of every window. */
      if (c->unknown[s])
        c->weight[s] = 1.0 + 0.05 * log1p (symbols[s].n_glyphs);
    }
}

static void
context_clear (Context *c)
{
  g_clear_pointer (&c->snapshot, dc_tokens_unref);
  g_clear_pointer (&c->index, symbol_index_unref);
  g_clear_pointer (&c->unknown, g_free);
  g_clear_pointer (&c->weight, g_free);
  g_clear_pointer (&c->seen, g_free);
}

/* Per token, its distinct unknown symbols in the order they first occur, packed: token
 * t's are unknown[first[t]] … unknown[first[t + 1] − 1]. A window then adds up a few
 * short lists instead of walking its glyphs through the reading order again. Made for
 * one tokens generation and one set of unknown symbols, then never changed (shared). */
struct _TokenUnknowns
{
  guint generation;
  guint n_symbols;
  guint8 *unknown; /* the set it was made for, see Context */
  guint *first;    /* n_tokens + 1 */
  guint32 *symbols;
};

static void
token_unknowns_free (TokenUnknowns *u)
{
  g_free (u->unknown);
  g_free (u->first);
  g_free (u->symbols);
}

static void
token_unknowns_unref (TokenUnknowns *u)
{
  g_atomic_rc_box_release_full (u, (GDestroyNotify) token_unknowns_free);
}

/* The unknowns of @c's tokens, from the symbol index, or from @from's (made for more
 * unknown symbols than @c has: filtering its shorter lists keeps their order). */
static TokenUnknowns *
token_unknowns_new (Context *c, guint n_symbols, const TokenUnknowns *from)
{
  const SymbolIndex *index = c->index;
  TokenUnknowns *u = g_atomic_rc_box_new0 (TokenUnknowns);
  const guint *first = from != NULL ? from->first : index->first;
  const guint32 *symbols = from != NULL ? from->symbols : index->symbols;
  guint n = 0;

  u->generation = index->generation;
  u->n_symbols = n_symbols;
  u->unknown = g_memdup2 (c->unknown, MAX (1, n_symbols));
  u->first = g_new (guint, c->n_tokens + 1);
  u->symbols = g_new (guint32, MAX (1, first[c->n_tokens]));
  for (guint t = 0; t < c->n_tokens; t++)
    {
      u->first[t] = n;
      for (guint i = first[t]; i < first[t + 1]; i++)
        if (c->unknown[symbols[i]])
          u->symbols[n++] = symbols[i];
    }
  u->first[c->n_tokens] = n;
  return u;
}

/* The unknowns of @c's tokens. Kept on the document for the next suggestion: a
 * suggestion asked again with the same symbols unknown (the key changed and changed
 * back, or not at all) takes them as they are, and one asked after values were learned
 * filters the last lists rather than the whole index again, the longest part of a
 * suggestion in a large book. */
static TokenUnknowns *
token_unknowns_get (Context *c)
{
  SymbolIndexHolder *holder = symbol_index_holder_get (c->document);
  TokenUnknowns *cached, *u;
  gboolean fewer = TRUE;
  guint n_symbols;

  dc_document_get_symbols (c->document, &n_symbols);
  g_mutex_lock (&holder->lock);
  cached = holder->unknowns;
  if (cached != NULL
      && (cached->generation != c->index->generation || cached->n_symbols != n_symbols))
    cached = NULL;
  if (cached != NULL && memcmp (cached->unknown, c->unknown, MAX (1, n_symbols)) == 0)
    {
      u = g_atomic_rc_box_acquire (cached);
      g_mutex_unlock (&holder->lock);
      return u;
    }
  for (guint s = 0; cached != NULL && fewer && s < n_symbols; s++)
    fewer = !c->unknown[s] || cached->unknown[s];
  u = token_unknowns_new (c, n_symbols, cached != NULL && fewer ? cached : NULL);
  g_clear_pointer (&holder->unknowns, token_unknowns_unref);
  holder->unknowns = g_atomic_rc_box_acquire (u);
  g_mutex_unlock (&holder->lock);
  return u;
}

/* Whether the runs starting at @a and @b could both spell the same typed words. */
static gboolean
runs_look_alike (Context *c, guint a, guint b, guint n_tokens)
{
  if (b + n_tokens > c->n_tokens)
    return FALSE;
  for (guint i = 0; i < n_tokens; i++)
    {
      const DcToken *ta = &c->tokens[a + i], *tb = &c->tokens[b + i];

      if (ta->n_glyphs != tb->n_glyphs)
        return FALSE;
      for (guint k = 0; k < ta->n_glyphs; k++)
        {
          guint sa = c->glyphs[c->order[ta->first_glyph + k]].symbol;
          guint sb = c->glyphs[c->order[tb->first_glyph + k]].symbol;
          const char *va, *vb;

          if (sa == sb)
            continue;
          va = dc_key_get_value (c->key, sa);
          vb = dc_key_get_value (c->key, sb);
          if (va != NULL && vb != NULL && g_strcmp0 (va, vb) != 0)
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
unique_on_line (Context *c, guint line, guint start, guint n_tokens)
{
  const DcLine *l = &c->lines[line];

  for (guint other = l->first_token; other < l->first_token + l->n_tokens; other++)
    if (other != start && runs_look_alike (c, start, other, n_tokens))
      return FALSE;
  return TRUE;
}

typedef struct
{
  double score;
  guint line, start, n_tokens, n_new, n_glyphs;
} Window;

static int
compare_windows (gconstpointer a, gconstpointer b)
{
  const Window *wa = a, *wb = b;

  if (wa->score != wb->score)
    return wa->score > wb->score ? -1 : 1;
  if (wa->n_tokens != wb->n_tokens)
    return wa->n_tokens < wb->n_tokens ? -1 : 1;
  return wa->start < wb->start ? -1 : wa->start > wb->start;
}

/* A book has hundreds of thousands of windows: keep only the best few, sorted. */
static void
keep_if_among_best (GArray *best, const Window *window)
{
  guint position = best->len;

  while (position > 0 && compare_windows (window, &g_array_index (best, Window, position - 1)) < 0)
    position--;
  if (position >= KEEP_BEST)
    return;
  g_array_insert_val (best, position, *window);
  if (best->len > KEEP_BEST)
    g_array_set_size (best, KEEP_BEST);
}

/* Keeps the best windows of line @l among @windows. The windows starting at one token
 * grow a token at a time: each adds only what its last token brings that the shorter one
 * lacked. @gains is scratch. */
static void
windows_of_line (Context *c, const TokenUnknowns *unknowns, const DcSymbol *symbols, guint l,
                 GArray *windows, GArray *gains)
{
  const DcLine *line = &c->lines[l];
  guint line_end = line->first_token + line->n_tokens;
  double *gain_of;

  /* What each token's unknown symbols weigh on their own. A window's score (what its
   * distinct unknown symbols weigh, by token) is at most the heaviest of its tokens':
   * once the best windows are kept, the starts whose next tokens all weigh less than the
   * worst of them are passed over, and most tokens of a book are (a margin for the
   * rounding of sums taken in another order). */
  g_array_set_size (gains, line->n_tokens);
  gain_of = (double *) (void *) gains->data;
  for (guint t = line->first_token; t < line_end; t++)
    {
      double gain = 0;

      for (guint i = unknowns->first[t]; i < unknowns->first[t + 1]; i++)
        gain += c->weight[unknowns->symbols[i]];
      gain_of[t - line->first_token] = gain;
    }

  for (guint t = line->first_token; t < line_end; t++)
    {
      Window window = { 0 };
      double gain = 0;

      if (windows->len == KEEP_BEST)
        {
          double heaviest = 0;

          for (guint u = t; u < t + MAX_WINDOW && u < line_end; u++)
            heaviest = MAX (heaviest, gain_of[u - line->first_token]);
          if (heaviest * (1 + 1e-9) < g_array_index (windows, Window, KEEP_BEST - 1).score)
            continue;
        }

      c->stamp++;
      for (guint w = 1; w <= MAX_WINDOW && t + w <= line_end; w++)
        {
          guint last = t + w - 1;

          for (guint i = unknowns->first[last]; i < unknowns->first[last + 1]; i++)
            {
              guint32 symbol = unknowns->symbols[i];

              if (c->seen[symbol] == c->stamp)
                continue;
              c->seen[symbol] = c->stamp;
              gain += c->weight[symbol];
              window.n_new++;
              window.n_glyphs += symbols[symbol].n_glyphs;
            }
          if (window.n_new == 0)
            continue;
          window.score = gain / w;
          /* Most windows of a book score below the worst of those kept: skip them
           * without the call and the comparisons (ties still go the long way). */
          if (windows->len == KEEP_BEST
              && window.score < g_array_index (windows, Window, KEEP_BEST - 1).score)
            continue;
          window.line = l;
          window.start = t;
          window.n_tokens = w;
          keep_if_among_best (windows, &window);
        }
    }
}

/**
 * dc_suggest_next_in:
 * @key: the values to go by; only the calling thread may use it meanwhile
 * @snapshot: (nullable): the tokens to go by, or %NULL for the document's current ones
 * @suggestion: (out caller-allocates): where to type next, or done; its line and
 *   tokens are those of @snapshot
 *
 * The window of at most five tokens on one line that decodes the most unknown symbols
 * per typed word, among those the line cue makes unambiguous. Reads nothing that another
 * thread may change, so a worker may run it on a key of its own (a copy) and a
 * snapshot taken on the thread that owns the document.
 */
void
dc_suggest_next_in (DcKey *key, DcTokens *snapshot, DcSuggestion *suggestion)
{
  g_autoptr (GArray) windows = g_array_new (FALSE, FALSE, sizeof (Window));
  g_autoptr (GArray) gains = g_array_new (FALSE, FALSE, sizeof (double));
  TokenUnknowns *unknowns;
  const DcSymbol *symbols;
  Context c = { 0 };

  g_return_if_fail (DC_IS_KEY (key));
  g_return_if_fail (suggestion != NULL);

  symbols = dc_document_get_symbols (dc_key_get_document (key), NULL);

  memset (suggestion, 0, sizeof *suggestion);
  context_init (&c, key, snapshot);
  unknowns = token_unknowns_get (&c);

  for (guint l = 0; l < c.n_lines; l++)
    windows_of_line (&c, unknowns, symbols, l, windows, gains);
  token_unknowns_unref (unknowns);

  suggestion->done = TRUE;
  if (windows->len > 0)
    {
      for (guint i = 0; i < windows->len; i++)
        {
          const Window *window = &g_array_index (windows, Window, i);

          /* Fall back on the best window even if ambiguous: the line cue and a pick
           * among candidates still settle it. */
          if (i + 1 < windows->len
              && !unique_on_line (&c, window->line, window->start, window->n_tokens))
            continue;
          suggestion->done = FALSE;
          suggestion->line = window->line;
          suggestion->token = window->start - c.lines[window->line].first_token;
          suggestion->n_tokens = window->n_tokens;
          suggestion->n_new_symbols = window->n_new;
          suggestion->n_new_glyphs = window->n_glyphs;
          break;
        }
    }
  context_clear (&c);
}

/**
 * dc_suggest_next:
 * @suggestion: (out caller-allocates): where to type next, or done
 *
 * dc_suggest_next_in() on the document's current tokens.
 */
void
dc_suggest_next (DcKey *key, DcSuggestion *suggestion)
{
  dc_suggest_next_in (key, NULL, suggestion);
}

static int
compare_counts_desc (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const guint *counts = user_data;
  guint ca = counts[*(const guint *) a], cb = counts[*(const guint *) b];

  return ca > cb ? -1 : ca < cb;
}

/**
 * dc_suggest_frequent_symbols:
 *
 * Returns: (transfer full) (element-type guint): up to @max unknown symbols, most
 *   frequent first
 */
GArray *
dc_suggest_frequent_symbols (DcKey *key, guint max)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *counts = NULL;
  const DcSymbol *symbols;
  guint n_symbols;
  Context c = { 0 };

  g_return_val_if_fail (DC_IS_KEY (key), result);

  context_init (&c, key, NULL);
  symbols = dc_document_get_symbols (c.document, &n_symbols);
  counts = g_new0 (guint, MAX (1, n_symbols));
  for (guint s = 0; s < n_symbols; s++)
    if (c.unknown[s])
      {
        counts[s] = symbols[s].n_glyphs;
        g_array_append_val (result, s);
      }
  g_array_sort_with_data (result, compare_counts_desc, counts);
  if (result->len > max)
    g_array_set_size (result, max);
  context_clear (&c);
  return result;
}

/**
 * dc_suggest_busiest_lines:
 *
 * Returns: (transfer full) (element-type guint): up to @max lines, those with the most
 *   unknown glyphs first
 */
GArray *
dc_suggest_busiest_lines (DcKey *key, guint max)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *best_counts = NULL;
  Context c = { 0 };

  g_return_val_if_fail (DC_IS_KEY (key), result);

  if (max == 0)
    return result;
  context_init (&c, key, NULL);
  best_counts = g_new (guint, max + 1);
  /* Only the first @max are wanted: kept in order as the lines go by, rather than all
   * of a book's lines sorted. A line ties with the earlier ones after them. */
  for (guint l = 0; l < c.n_lines; l++)
    {
      guint count = 0, position;

      for (guint i = c.index->line_first[l]; i < c.index->line_first[l + 1]; i++)
        if (c.unknown[c.index->line_symbols[i]])
          count += c.index->line_counts[i];
      if (count == 0 || (result->len == max && count <= best_counts[max - 1]))
        continue;
      position = result->len;
      while (position > 0 && count > best_counts[position - 1])
        position--;
      if (position >= max)
        continue;
      g_array_insert_val (result, position, l);
      memmove (&best_counts[position + 1], &best_counts[position],
               (result->len - 1 - position) * sizeof (guint));
      best_counts[position] = count;
      if (result->len > max)
        g_array_set_size (result, max);
    }
  context_clear (&c);
  return result;
}
