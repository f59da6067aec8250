/* dc-key-split.c: occurrences that read otherwise than their symbol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A symbol is a distinct (font, code), and the key gives each one value. But a home-made
 * font may draw Latin a and Cyrillic а with one code, one apostrophe glyph may serve as
 * both ’ and the glottal stop ʼ, one hyphen as - and –: which one only the context tells,
 * and only the user can. A split records that these occurrences (by glyph index) read X
 * although their symbol reads Y. It is the user's word on each occurrence, so it is always
 * confirmed, outlives any later change of the symbol's value, and is undone like any step.
 *
 * A split belongs to this document alone: the font map and the font library speak of
 * codes, so they never carry one (dc-map.c writes per-code values only).
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-key-state-private.h"
#include "dc-unicode-private.h"

void
_dc_key_apply_split (DcKey *self, guint glyph, const Slot *state)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (self->document, NULL);
  guint symbol = glyphs[glyph].symbol;
  gboolean was_split = g_hash_table_contains (self->splits, GUINT_TO_POINTER (glyph));
  Slot *slot;

  _dc_key_count_symbol (self, symbol, FALSE);
  self->n_split[symbol] -= was_split;
  if (state->value == NULL)
    g_hash_table_remove (self->splits, GUINT_TO_POINTER (glyph));
  else
    {
      slot = g_new0 (Slot, 1);
      slot->value = g_strdup (state->value);
      slot->provenance = g_strdup (state->provenance);
      slot->status = DC_KEY_CONFIRMED;
      slot->level = DC_KEY_LEVEL_USER;
      slot->confidence = 1.0;
      g_hash_table_replace (self->splits, GUINT_TO_POINTER (glyph), slot);
      self->n_split[symbol]++;
    }
  _dc_key_count_symbol (self, symbol, TRUE);
  _dc_key_mark_changed (self, symbol);
}

void
_dc_key_clear_splits (DcKey *self)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (self->document, NULL);
  GHashTableIter iter;
  gpointer glyph;

  g_hash_table_iter_init (&iter, self->splits);
  while (g_hash_table_iter_next (&iter, &glyph, NULL))
    {
      guint symbol = glyphs[GPOINTER_TO_UINT (glyph)].symbol;

      _dc_key_count_symbol (self, symbol, FALSE);
      self->n_split[symbol]--;
      _dc_key_count_symbol (self, symbol, TRUE);
      _dc_key_mark_changed (self, symbol);
    }
  g_hash_table_remove_all (self->splits);
}

/* A stored split state: confirmed with a value, or unknown (the occurrence reads as its
 * symbol). The glyph must be an occurrence of the entry's symbol: a loader checked. */
gboolean
_dc_key_split_slot_from_entry (DcKey *self, const DcKeyEntry *entry, Slot *slot)
{
  guint n_glyphs;
  const DcGlyph *glyphs = dc_document_get_glyphs (self->document, &n_glyphs);

  if (entry->glyph >= n_glyphs || glyphs[entry->glyph].symbol != entry->symbol)
    return FALSE;
  if (entry->status == DC_KEY_UNKNOWN)
    {
      *slot = (Slot){ 0 };
      return TRUE;
    }
  if (entry->status != DC_KEY_CONFIRMED || entry->value == NULL)
    return FALSE;
  slot->value = g_strdup (entry->value);
  slot->provenance = g_strdup (entry->provenance);
  slot->status = DC_KEY_CONFIRMED;
  slot->level = DC_KEY_LEVEL_USER;
  slot->confidence = 1.0;
  return TRUE;
}

/* Registered with dc_value_func_add_glyph_func() for dc_key_value_func(): asked for
 * every glyph of every text written, where most keys split nothing, so the table is
 * looked at directly rather than through dc_key_get_split()'s checks, a quarter of what
 * asking for a glyph's text cost. */
const char *
_dc_key_split_value_func (guint glyph, gpointer key)
{
  DcKey *self = key;
  const Slot *slot;

  if (g_hash_table_size (self->splits) == 0)
    return NULL;
  slot = g_hash_table_lookup (self->splits, GUINT_TO_POINTER (glyph));
  return slot != NULL ? slot->value : NULL;
}

/* Registered with dc_value_func_add_glyph_func() for dc_key_value_func(). */
gboolean
_dc_key_has_splits (gpointer key)
{
  DcKey *self = key;

  return g_hash_table_size (self->splits) > 0;
}

static void
record_split (DcKey *self, guint glyph, const Slot *after)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (self->document, NULL);
  const Slot *now = g_hash_table_lookup (self->splits, GUINT_TO_POINTER (glyph));
  Edit edit = { 0 };

  g_assert (self->pending != NULL);

  if (g_strcmp0 (now != NULL ? now->value : NULL, after->value) == 0)
    return;
  edit.symbol = glyphs[glyph].symbol;
  edit.glyph = glyph;
  edit.on_glyph = TRUE;
  if (now != NULL)
    {
      edit.before.value = g_strdup (now->value);
      edit.before.provenance = g_strdup (now->provenance);
      edit.before.status = now->status;
      edit.before.level = now->level;
      edit.before.confidence = now->confidence;
    }
  edit.after.value = g_strdup (after->value);
  edit.after.provenance = g_strdup (after->provenance);
  edit.after.status = after->value != NULL ? DC_KEY_CONFIRMED : DC_KEY_UNKNOWN;
  edit.after.level = after->value != NULL ? DC_KEY_LEVEL_USER : DC_KEY_LEVEL_NONE;
  edit.after.confidence = after->value != NULL ? 1.0 : 0;
  g_array_append_val (self->pending->edits, edit);
  _dc_key_apply_split (self, glyph, &edit.after);
}

static gboolean
check_glyphs (DcKey *self, const guint *glyphs, guint n_glyphs, GError **error)
{
  guint n_document_glyphs;
  const DcGlyph *all = dc_document_get_glyphs (self->document, &n_document_glyphs);

  if (n_glyphs == 0)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("Choose at least one occurrence to split."));
      return FALSE;
    }
  for (guint i = 0; i < n_glyphs; i++)
    {
      if (glyphs[i] >= n_document_glyphs)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("There is no glyph %u: the document has %u."), glyphs[i],
                          n_document_glyphs);
          return FALSE;
        }
      if (all[glyphs[i]].symbol != all[glyphs[0]].symbol)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("Glyphs %u and %u are different symbols; a split is of one symbol's "
                         "occurrences."),
                          glyphs[0], glyphs[i]);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * dc_key_split:
 * @glyphs: (array length=n_glyphs): occurrences of one symbol, by glyph index
 * @value: what they read; "" to ignore them
 * @provenance: (nullable): why, e.g. "split"; the label of the undo step
 *
 * Makes @glyphs read @value whatever their symbol reads, as one undoable step. Words are
 * cut where a symbol is a space, so neither may an occurrence become a space nor be split
 * off a symbol taken for one (a split occurrence of a symbol that becomes a space later
 * reads as a space while it is one).
 *
 * Returns: %TRUE when the occurrences now read @value
 */
gboolean
dc_key_split (DcKey *self, const guint *glyphs, guint n_glyphs, const char *value,
              const char *provenance, GError **error)
{
  g_autofree char *normalized = NULL;
  Slot after = { 0 };

  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (glyphs != NULL || n_glyphs == 0, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_glyphs (self, glyphs, n_glyphs, error))
    return FALSE;
  normalized = dc_key_normalize_value (value, error);
  if (normalized == NULL)
    return FALSE;
  if (dc_document_symbol_is_space (self->document,
                                   dc_document_get_glyphs (self->document, NULL)[glyphs[0]].symbol))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("These occurrences are taken for word spaces, which divide the "
                             "words: give their symbol its value first, then split off the "
                             "occurrences that read otherwise."));
      return FALSE;
    }
  if (_dc_text_is_space (normalized))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("An occurrence cannot be split off as a space: words are divided "
                             "where a symbol is a space, so give the whole symbol that value."));
      return FALSE;
    }

  after.value = normalized;
  after.provenance = (char *) (provenance != NULL ? provenance : "split");
  dc_key_begin_change (self, after.provenance);
  for (guint i = 0; i < n_glyphs; i++)
    record_split (self, glyphs[i], &after);
  dc_key_end_change (self);
  return TRUE;
}

/**
 * dc_key_unsplit:
 * @glyphs: (array length=n_glyphs): glyph indices; those not split are passed over
 *
 * Makes @glyphs read as their symbol again, as one undoable step.
 *
 * Returns: %TRUE when any of them was split
 */
gboolean
dc_key_unsplit (DcKey *self, const guint *glyphs, guint n_glyphs)
{
  Slot none = { 0 };
  gboolean any = FALSE;

  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (glyphs != NULL || n_glyphs == 0, FALSE);

  dc_key_begin_change (self, _("Read as symbol"));
  for (guint i = 0; i < n_glyphs; i++)
    if (g_hash_table_contains (self->splits, GUINT_TO_POINTER (glyphs[i])))
      {
        record_split (self, glyphs[i], &none);
        any = TRUE;
      }
  dc_key_end_change (self);
  return any;
}

/**
 * dc_key_get_split:
 * @provenance: (out) (optional) (nullable): why it was split
 *
 * Returns: (nullable): what @glyph reads if it was split off its symbol, otherwise %NULL
 */
const char *
dc_key_get_split (DcKey *self, guint glyph, const char **provenance)
{
  const Slot *slot;

  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  slot = g_hash_table_size (self->splits) > 0
             ? g_hash_table_lookup (self->splits, GUINT_TO_POINTER (glyph))
             : NULL;
  if (provenance != NULL)
    *provenance = slot != NULL ? slot->provenance : NULL;
  return slot != NULL ? slot->value : NULL;
}

/**
 * dc_key_count_split:
 *
 * Returns: how many occurrences of @symbol are split off it
 */
guint
dc_key_count_split (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), 0);
  g_return_val_if_fail (symbol < self->n_slots, 0);

  return self->n_split[symbol];
}

/**
 * dc_key_get_glyph_value:
 *
 * Returns: (nullable): what the occurrence @glyph reads: its split value, or its symbol's
 *   (see dc_key_get_value())
 */
const char *
dc_key_get_glyph_value (DcKey *self, guint glyph)
{
  guint n_glyphs;
  const DcGlyph *glyphs;
  const char *split;

  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  glyphs = dc_document_get_glyphs (self->document, &n_glyphs);
  g_return_val_if_fail (glyph < n_glyphs, NULL);

  split = dc_key_get_split (self, glyph, NULL);
  return split != NULL ? split : dc_key_get_value (self, glyphs[glyph].symbol);
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/**
 * dc_key_dup_split_glyphs:
 * @symbol: a symbol, or %DC_SYMBOL_NONE for all
 * @n_glyphs: (out): how many
 *
 * Returns: (transfer full) (array length=n_glyphs): the split occurrences, by glyph index,
 *   in order
 */
guint *
dc_key_dup_split_glyphs (DcKey *self, guint symbol, guint *n_glyphs)
{
  const DcGlyph *glyphs;
  GHashTableIter iter;
  gpointer glyph;
  GArray *out;

  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  glyphs = dc_document_get_glyphs (self->document, NULL);
  out = g_array_new (FALSE, FALSE, sizeof (guint));
  g_hash_table_iter_init (&iter, self->splits);
  while (g_hash_table_iter_next (&iter, &glyph, NULL))
    {
      guint g = GPOINTER_TO_UINT (glyph);

      if (symbol == DC_SYMBOL_NONE || glyphs[g].symbol == symbol)
        g_array_append_val (out, g);
    }
  g_array_sort (out, compare_uint);
  *n_glyphs = out->len;
  return (guint *) (void *) g_array_free (out, FALSE);
}
