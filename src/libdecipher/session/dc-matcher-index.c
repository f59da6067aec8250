/* dc-matcher-index.c: the matcher's index of tokens by glyph count, and its known values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-matcher.c. A query looks at the few runs of the typed shape rather than
 * the whole book: the tokens are indexed by glyph count, with which of them spell the
 * same symbols and, in reading order, each glyph's symbol. The index is built from a
 * snapshot of the tokens, so any thread may build it (dc_matcher_index_new()). The
 * known values, in the form the aligner compares, are rebuilt here when the key changes.
 */

#define G_LOG_DOMAIN "dc-matcher"

#include "config.h"

#include <math.h>

#include "dc-matcher-private.h"

#define glyph_has_no_advance _dc_matcher_glyph_has_no_advance

struct _DcMatcherIndex
{
  DcDocument *document;
  DcTokens *tokens;      /* the snapshot it indexes: never changes */
  const DcGlyph *glyphs; /* never change once the document is loaded */
  const guint32 *order;
  gboolean built;
  GPtrArray *by_length;
  GPtrArray *types_by_length;
  guint32 *token_type;
  guint8 *token_glyphs;
  guint n_types;
  guint32 *order_symbol;
  guint8 *order_no_advance;
};

/**
 * dc_matcher_index_new:
 * @document: the document whose tokens to index
 *
 * Takes a reference to @document's current tokens snapshot, so that
 * dc_matcher_index_build() can run in another thread while this one goes on changing
 * the key (and so the tokens). Cheap: no copy.
 *
 * Returns: (transfer full): an index to build, then to give to dc_matcher_adopt_index()
 */
DcMatcherIndex *
dc_matcher_index_new (DcDocument *document)
{
  DcMatcherIndex *index;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  index = g_new0 (DcMatcherIndex, 1);
  index->document = g_object_ref (document);
  index->tokens = dc_document_ref_tokens (document);
  index->glyphs = dc_document_get_glyphs (document, NULL);
  index->order = dc_document_get_reading_order (document, NULL);
  return index;
}

void
dc_matcher_index_free (DcMatcherIndex *index)
{
  if (index == NULL)
    return;
  g_clear_object (&index->document);
  g_clear_pointer (&index->tokens, dc_tokens_unref);
  g_clear_pointer (&index->by_length, g_ptr_array_unref);
  g_clear_pointer (&index->types_by_length, g_ptr_array_unref);
  g_clear_pointer (&index->token_type, g_free);
  g_clear_pointer (&index->token_glyphs, g_free);
  g_clear_pointer (&index->order_symbol, g_free);
  g_clear_pointer (&index->order_no_advance, g_free);
  g_free (index);
}

/* "1f,3," for symbols 0x1f, 0x3: a token's symbol sequence as a hash key, without the
 * cost of printf for each of a million glyphs. */
static void
append_symbol (GString *sequence, guint32 symbol)
{
  static const char digits[] = "0123456789abcdef";
  char buffer[10];
  guint n = 0;

  do
    {
      buffer[n++] = digits[symbol & 0xf];
      symbol >>= 4;
    }
  while (symbol != 0);
  while (n > 0)
    g_string_append_c (sequence, buffer[--n]);
  g_string_append_c (sequence, ',');
}

/* A glyph drawn over its neighbour is a mark, not a letter (dc-align.c). */
gboolean
_dc_matcher_glyph_has_no_advance (const DcGlyph *glyph)
{
  return fabsf (dc_glyph_get_advance (glyph)) < 0.1f * MAX (dc_glyph_get_size (glyph), 0.5f);
}

static void
index_glyphs_in_order (DcMatcherIndex *index)
{
  guint n_glyphs;

  dc_document_get_reading_order (index->document, &n_glyphs);
  index->order_symbol = g_new (guint32, MAX (1, n_glyphs));
  index->order_no_advance = g_new (guint8, MAX (1, n_glyphs));
  for (guint k = 0; k < n_glyphs; k++)
    {
      const DcGlyph *glyph = &index->glyphs[index->order[k]];

      index->order_symbol[k] = glyph->symbol;
      index->order_no_advance[k] = glyph_has_no_advance (glyph);
    }
}

/**
 * dc_matcher_index_build:
 *
 * Builds the index from the snapshot: tokens by glyph count, and which tokens spell the
 * same symbols. The costly part (~100 ms for a million glyphs); it touches nothing but
 * @index and the document's glyphs, which never change, so any thread may run it.
 */
void
dc_matcher_index_build (DcMatcherIndex *index)
{
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GString) sequence = g_string_new (NULL);
  const DcToken *tokens;
  guint n_tokens;

  g_return_if_fail (index != NULL);

  if (index->built)
    return;
  tokens = dc_tokens_get_tokens (index->tokens, &n_tokens);
  index->by_length = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  index->types_by_length = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  index->token_type = g_new (guint32, MAX (1, n_tokens));
  index->token_glyphs = g_new (guint8, MAX (1, n_tokens));
  types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &tokens[t];
      guint length = token->n_glyphs;
      gpointer type;

      while (index->by_length->len <= length)
        {
          g_ptr_array_add (index->by_length, g_array_new (FALSE, FALSE, sizeof (guint)));
          g_ptr_array_add (index->types_by_length, g_array_new (FALSE, FALSE, sizeof (guint)));
        }
      g_array_append_val (g_ptr_array_index (index->by_length, length), t);
      index->token_glyphs[t] = (guint8) MIN (length, G_MAXUINT8);

      g_string_truncate (sequence, 0);
      for (guint k = token->first_glyph; k < token->first_glyph + length; k++)
        append_symbol (sequence, index->glyphs[index->order[k]].symbol);
      if (!g_hash_table_lookup_extended (types, sequence->str, NULL, &type))
        {
          type = GUINT_TO_POINTER (g_hash_table_size (types));
          g_hash_table_insert (types, g_strdup (sequence->str), type);
          g_array_append_val (g_ptr_array_index (index->types_by_length, length), t);
        }
      index->token_type[t] = GPOINTER_TO_UINT (type);
    }
  index->n_types = g_hash_table_size (types);
  index_glyphs_in_order (index);
  index->built = TRUE;
}

/**
 * dc_matcher_has_index:
 *
 * Returns: whether the matcher's index fits the document's tokens as they are, so that
 *   dc_matcher_type() will not build one first
 */
gboolean
dc_matcher_has_index (DcMatcher *self)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);

  return self->index_built
         && self->index_generation == dc_document_get_tokens_generation (self->document);
}

/**
 * dc_matcher_adopt_index:
 * @index: an index built with dc_matcher_index_build()
 *
 * Takes @index's tables over, if they still fit the document: a space learned since the
 * snapshot was taken changes the tokens, and then the index is of no use.
 *
 * Returns: whether the index was taken
 */
gboolean
dc_matcher_adopt_index (DcMatcher *self, DcMatcherIndex *index)
{
  g_return_val_if_fail (DC_IS_MATCHER (self), FALSE);
  g_return_val_if_fail (index != NULL, FALSE);

  if (!index->built || index->document != self->document
      || dc_tokens_get_generation (index->tokens)
             != dc_document_get_tokens_generation (self->document))
    return FALSE;
  if (dc_matcher_has_index (self))
    return TRUE;
  g_clear_pointer (&self->by_length, g_ptr_array_unref);
  g_clear_pointer (&self->types_by_length, g_ptr_array_unref);
  g_clear_pointer (&self->token_type, g_free);
  g_clear_pointer (&self->token_glyphs, g_free);
  self->by_length = g_steal_pointer (&index->by_length);
  self->types_by_length = g_steal_pointer (&index->types_by_length);
  self->token_type = g_steal_pointer (&index->token_type);
  self->token_glyphs = g_steal_pointer (&index->token_glyphs);
  g_clear_pointer (&self->order_symbol, g_free);
  g_clear_pointer (&self->order_no_advance, g_free);
  self->order_symbol = g_steal_pointer (&index->order_symbol);
  self->order_no_advance = g_steal_pointer (&index->order_no_advance);
  self->n_types = index->n_types;
  self->index_generation = dc_tokens_get_generation (index->tokens);
  self->index_built = TRUE;
  index->built = FALSE;
  return TRUE;
}

void
_dc_matcher_ensure_index (DcMatcher *self)
{
  g_autoptr (DcMatcherIndex) index = NULL;

  if (dc_matcher_has_index (self))
    return;
  index = dc_matcher_index_new (self->document);
  dc_matcher_index_build (index);
  dc_matcher_adopt_index (self, index);
}

static void
free_value (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

void
_dc_matcher_ensure_values (DcMatcher *self)
{
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (self->document, &n_symbols);

  if (!self->values_dirty && self->nfd_values != NULL)
    return;

  g_clear_pointer (&self->nfd_values, g_ptr_array_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  g_clear_pointer (&self->reach, g_free);
  self->nfd_values = g_ptr_array_new_full (n_symbols, free_value);
  self->reach = g_new (guint8, MAX (1, n_symbols));
  self->holders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->has_silent = FALSE;

  /* Symbols' values only, never a split occurrence's (dc_key_split()): the matcher learns
   * what a code reads, its token types are sequences of codes shared by every occurrence,
   * and a split is the user's exception to that, which no typed word should overturn. */
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (self->key, s);

      g_ptr_array_add (self->nfd_values, value != NULL ? _dc_nfd_visual_of (value) : NULL);
      self->has_silent |= value != NULL && *value == '\0';
      self->reach[s] = value == NULL
                           ? DC_MATCHER_REACH_UNKNOWN
                           : MIN (DC_MATCHER_REACH_FAR,
                                  _dc_align_glyph_reach (g_ptr_array_index (self->nfd_values, s)));
      if (value != NULL && *value != '\0' && dc_document_symbol_needs_decoding (self->document, s))
        g_hash_table_insert (self->holders, _dc_holder_key (symbols[s].font, value),
                             GUINT_TO_POINTER (s + 1));
    }
  self->values_dirty = FALSE;
}
