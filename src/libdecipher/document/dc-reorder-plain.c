/* dc-reorder-plain.c: the text of a line that needs no reordering, glyph by glyph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-reorder-units-private.h"
#include "dc-string-private.h"
#include "dc-text-cache-private.h"

/* reorder_tokens() for a line whose glyphs all read plain text (_dc_text_is_plain()), drawn
 * each with an advance and none under /ActualText: there nothing moves, no mark merges, no
 * space closes up (only CJK and Thai-like text may) and the line runs left to right, so its
 * text is its glyphs' values in drawn order, tokens apart by one space. Most lines are so,
 * and they spare the units, the pool and the passes over them. Returns FALSE, with @out as
 * it was, for any other line. */
gboolean
_dc_reorder_plain_tokens (DcDocument *document, guint first_token, guint n_tokens,
                          DcValueFunc value, gpointer user_data, GString *out, GPtrArray *tokens,
                          GArray *token_indices)
{
  const DcToken *all_tokens = dc_document_get_tokens (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  gsize out_start = out->len;
  guint starts_on_stack[64];
  g_autofree guint *starts_on_heap = NULL;
  guint *starts = starts_on_stack;

  if (tokens != NULL && n_tokens + 1 > G_N_ELEMENTS (starts_on_stack))
    starts = starts_on_heap = g_new (guint, n_tokens + 1);

  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &all_tokens[first_token + t];

      if (t > 0)
        g_string_append_c (out, ' ');
      if (tokens != NULL)
        starts[t] = (guint) (out->len - out_start);
      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        {
          const DcGlyph *glyph = &glyphs[order[k]];
          const char *text;
          gsize length;

          if ((glyph->flags & DC_GLYPH_ACTUAL_TEXT) || glyph_has_no_advance (glyph))
            goto not_plain;
          text = dc_value_for_glyph (value, user_data, order[k], glyph->symbol);
          if (text == NULL)
            text = "\xEF\xBF\xBD";
          length = strlen (text);
          if (!_dc_text_is_plain (text, length))
            goto not_plain;
          _dc_string_append_len (out, text, length);
        }
    }

  if (tokens != NULL)
    {
      starts[n_tokens] = (guint) (out->len - out_start + 1);
      for (guint t = 0; t < n_tokens; t++)
        g_ptr_array_add (tokens, g_strndup (out->str + out_start + starts[t],
                                            starts[t + 1] - 1 - starts[t]));
    }
  if (token_indices != NULL)
    for (guint t = 0; t < n_tokens; t++)
      {
        guint32 index = first_token + t;

        g_array_append_val (token_indices, index);
      }
  return TRUE;

not_plain:
  g_string_truncate (out, out_start);
  return FALSE;
}

/* _dc_reorder_plain_tokens() with each symbol's text, length and plainness from @cache: the
 * per-glyph work of a plain line is a load and a copy, which a book of a million glyphs
 * does a million times. */
gboolean
_dc_reorder_cached_tokens (DcDocument *document, guint first_token, guint n_tokens,
                           const DcTextCache *cache, GString *out)
{
  const DcToken *all_tokens = cache->tokens;
  const DcGlyph *glyphs = cache->glyphs;
  const guint32 *order = cache->order;
  const DcTextCacheEntry *entries = cache->entries;
  gsize out_start = out->len, room;
  char *p;

  if (n_tokens == 0)
    return TRUE;
  /* Room for the longest text at every glyph, the spaces and an 8-byte move past the end,
   * made once: the loop below then writes without a check. */
  room = n_tokens + sizeof entries->bytes;
  for (guint t = 0; t < n_tokens; t++)
    room += (gsize) all_tokens[first_token + t].n_glyphs
            * MAX (cache->max_length, sizeof entries->bytes);
  if (out->len + room >= out->allocated_len)
    {
      g_string_set_size (out, out->len + room);
      g_string_truncate (out, out_start);
    }
  p = out->str + out_start;
  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &all_tokens[first_token + t];
      guint end = token->first_glyph + token->n_glyphs;

      if (t > 0)
        *p++ = ' ';
      for (guint k = token->first_glyph; k < end; k++)
        {
          const DcGlyph *glyph = &glyphs[order[k]];
          const DcTextCacheEntry *entry = &entries[glyph->symbol];

          if (!entry->plain || (glyph->flags & DC_GLYPH_ACTUAL_TEXT)
              || (!entry->mark && glyph_has_no_advance (glyph)))
            {
              g_string_truncate (out, out_start);
              return FALSE;
            }
          /* A fixed-size move rather than a call to memcpy() for one to three bytes. */
          if (G_LIKELY (entry->length <= sizeof entry->bytes))
            memcpy (p, entry->bytes, sizeof entry->bytes);
          else
            memcpy (p, entry->text, entry->length);
          p += entry->length;
        }
    }
  out->len = p - out->str;
  *p = '\0';
  return TRUE;
}
