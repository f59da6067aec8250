/* dc-value.c: the text of one glyph, for a value func that knows of splits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything that writes text (export, search, copy, the drawn line) asks a DcValueFunc
 * what each glyph's symbol reads. A key may also say that some occurrences read otherwise
 * than their symbol (a split, dc_key_split()), but it sits above this layer, and the
 * value func's signature is the contract of dozens of callers. So the owner of a value
 * func registers, once, the function that tells a glyph's own text, and the few places
 * that turn glyphs into text ask dc_value_for_glyph() instead of calling the value func.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include "dc-document.h"

/* One per kind of key: a handful at most. */
#define MAX_GLYPH_FUNCS 4

typedef struct
{
  DcValueFunc value;
  DcGlyphValueFunc glyph_value;
  DcGlyphValueAnyFunc any; /* NULL: any glyph may read otherwise */
} GlyphFunc;

static GlyphFunc glyph_funcs[MAX_GLYPH_FUNCS];
static gint n_glyph_funcs;
static GMutex glyph_funcs_lock;

/**
 * dc_value_func_add_glyph_func:
 * @value: a value func
 * @glyph_value: what a glyph reads when it reads otherwise than its symbol, called with
 *   @value's user data
 * @any: (nullable): whether any glyph reads otherwise than its symbol, called with
 *   @value's user data; lets dc_value_reads_by_symbol() answer, so that a text written for
 *   a key that splits nothing takes each symbol's text once rather than per glyph
 *
 * Registers @glyph_value and @any for @value, for good: call it before the first value
 * func of its kind is handed out (from a class_init, say).
 */
void
dc_value_func_add_glyph_func (DcValueFunc value, DcGlyphValueFunc glyph_value,
                              DcGlyphValueAnyFunc any)
{
  gint n;

  g_return_if_fail (value != NULL && glyph_value != NULL);

  g_mutex_lock (&glyph_funcs_lock);
  n = g_atomic_int_get (&n_glyph_funcs);
  for (gint i = 0; i < n; i++)
    if (glyph_funcs[i].value == value)
      {
        g_mutex_unlock (&glyph_funcs_lock);
        return;
      }
  g_assert (n < MAX_GLYPH_FUNCS);
  glyph_funcs[n].value = value;
  glyph_funcs[n].glyph_value = glyph_value;
  glyph_funcs[n].any = any;
  /* Readers take no lock: the entry is written before the count that makes it visible. */
  g_atomic_int_set (&n_glyph_funcs, n + 1);
  g_mutex_unlock (&glyph_funcs_lock);
}

/**
 * dc_value_for_glyph:
 * @glyph: the glyph's index in the document
 * @symbol: its symbol
 *
 * Returns: (nullable): the text @glyph reads: its own if @value's owner split it off its
 *   symbol, otherwise @value's text for @symbol
 */
const char *
dc_value_for_glyph (DcValueFunc value, gpointer user_data, guint glyph, guint symbol)
{
  gint n = g_atomic_int_get (&n_glyph_funcs);

  for (gint i = 0; i < n; i++)
    if (glyph_funcs[i].value == value)
      {
        const char *text = glyph_funcs[i].glyph_value (glyph, user_data);

        if (text != NULL)
          return text;
        break;
      }
  return value (symbol, user_data);
}

/**
 * dc_value_reads_by_symbol:
 *
 * Returns: whether every glyph reads what @value gives for its symbol with @user_data,
 *   as long as @user_data does not change: then dc_value_for_glyph() need not be asked
 *   glyph by glyph
 */
gboolean
dc_value_reads_by_symbol (DcValueFunc value, gpointer user_data)
{
  gint n = g_atomic_int_get (&n_glyph_funcs);

  g_return_val_if_fail (value != NULL, FALSE);

  for (gint i = 0; i < n; i++)
    if (glyph_funcs[i].value == value)
      {
        return glyph_funcs[i].any != NULL && !glyph_funcs[i].any (user_data);
      }
  return TRUE;
}
