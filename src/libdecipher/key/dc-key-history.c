/* dc-key-history.c: the key's undo and redo steps, as a project file keeps them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-key.c, which records the steps: here they are copied out for saving
 * (dc-project-history.c writes them) and given back on loading, as far as they still
 * describe the key.
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include "dc-key-state-private.h"

DcKeyStep *
_dc_key_step_new (const char *label)
{
  DcKeyStep *step = g_new0 (DcKeyStep, 1);

  step->label = g_strdup (label);
  step->edits = g_array_new (FALSE, TRUE, sizeof (DcKeyEntry));
  g_array_set_clear_func (step->edits, (GDestroyNotify) _dc_key_entry_clear);
  return step;
}

void
_dc_key_step_free (DcKeyStep *step)
{
  if (step == NULL)
    return;
  g_free (step->label);
  g_array_unref (step->edits);
  g_free (step);
}

static void
entry_from_slot (DcKeyEntry *entry, const Edit *edit, const Slot *slot)
{
  entry->symbol = edit->symbol;
  entry->on_glyph = edit->on_glyph;
  entry->glyph = edit->glyph;
  entry->status = slot->status;
  entry->level = slot->level;
  entry->confidence = slot->confidence;
  entry->value = g_strdup (slot->value);
  entry->provenance = g_strdup (slot->provenance);
  entry->refused = g_strdupv (slot->refused);
}

/**
 * _dc_key_dup_steps:
 * @redo: the redo history rather than the undo history
 * @max_edits: how many symbol changes to keep at most, the newest steps first
 *
 * Returns: (transfer container): of #DcKeyStep, in the stack's order: the oldest undo first,
 *   or the next redo last
 */
GPtrArray *
_dc_key_dup_steps (DcKey *self, gboolean redo, guint max_edits)
{
  GPtrArray *stack, *steps;
  guint first, n_edits = 0;

  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  stack = redo ? self->redo_stack : self->undo_stack;
  for (first = stack->len; first > 0; first--)
    {
      const Change *change = g_ptr_array_index (stack, first - 1);

      if (n_edits + change->edits->len > max_edits)
        break;
      n_edits += change->edits->len;
    }

  steps = g_ptr_array_new_with_free_func ((GDestroyNotify) _dc_key_step_free);
  for (guint i = first; i < stack->len; i++)
    {
      const Change *change = g_ptr_array_index (stack, i);
      DcKeyStep *step = _dc_key_step_new (change->label);

      g_array_set_size (step->edits, change->edits->len * 2);
      for (guint e = 0; e < change->edits->len; e++)
        {
          const Edit *edit = &g_array_index (change->edits, Edit, e);

          entry_from_slot (&g_array_index (step->edits, DcKeyEntry, 2 * e), edit, &edit->before);
          entry_from_slot (&g_array_index (step->edits, DcKeyEntry, 2 * e + 1), edit, &edit->after);
        }
      g_ptr_array_add (steps, step);
    }
  return steps;
}

static Change *
change_from_step (DcKey *self, const DcKeyStep *step)
{
  Change *change = _dc_key_change_new (step->label);

  g_array_set_size (change->edits, step->edits->len / 2);
  for (guint e = 0; e < change->edits->len; e++)
    {
      const DcKeyEntry *before = &g_array_index (step->edits, DcKeyEntry, 2 * e);
      const DcKeyEntry *after = &g_array_index (step->edits, DcKeyEntry, 2 * e + 1);
      Edit *edit = &g_array_index (change->edits, Edit, e);

      edit->symbol = before->symbol;
      edit->on_glyph = before->on_glyph;
      edit->glyph = before->glyph;
      if (after->symbol != before->symbol || before->symbol >= self->n_slots
          || after->on_glyph != before->on_glyph || after->glyph != before->glyph
          || !_dc_key_slot_from_entry (self, before, &edit->before)
          || !_dc_key_slot_from_entry (self, after, &edit->after))
        {
          _dc_key_change_free (change);
          return NULL;
        }
    }
  return change;
}

/* Equal as far as anyone reading the text can tell: a confidence rounded on its way to
 * the file does not make a step stale. */
static gboolean
slot_matches (const Slot *present, const Slot *stored)
{
  return present->status == stored->status && g_strcmp0 (present->value, stored->value) == 0
         && (present->refused == NULL) == (stored->refused == NULL)
         && (present->refused == NULL
             || g_strv_equal ((const char *const *) present->refused,
                              (const char *const *) stored->refused));
}

/* Turns @steps into changes for @stack, from its top (the end) down, as long as each one
 * can be replayed on what the key holds by then; the first that cannot, and all below it,
 * are left out: replaying those would set symbols to states nobody saw. */
static void
restore_stack (DcKey *self, GPtrArray *steps, GPtrArray *stack, gboolean backwards)
{
  /* symbol, or a split's n_slots + glyph → const Slot * */
  g_autoptr (GHashTable) present = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) newest_first = g_ptr_array_new ();
  guint n_fit = 0;

  for (guint k = steps != NULL ? steps->len : 0; k-- > 0;)
    {
      const DcKeyStep *step = g_ptr_array_index (steps, k);
      gboolean fits = TRUE;
      Change *change;

      if (step->edits->len % 2 != 0 || (change = change_from_step (self, step)) == NULL)
        break;
      /* Owned here until the end: @present points into its edits. */
      g_ptr_array_add (newest_first, change);
      for (guint n = 0; fits && n < change->edits->len; n++)
        {
          guint e = backwards ? change->edits->len - 1 - n : n;
          const Edit *edit = &g_array_index (change->edits, Edit, e);
          guint id = edit->on_glyph ? self->n_slots + edit->glyph : edit->symbol;
          const Slot *now = g_hash_table_lookup (present, GUINT_TO_POINTER (id));
          static const Slot not_split = { 0 };

          if (now == NULL && edit->on_glyph)
            now = g_hash_table_lookup (self->splits, GUINT_TO_POINTER (edit->glyph));
          if (now == NULL)
            now = edit->on_glyph ? &not_split : &self->slots[edit->symbol];
          fits = slot_matches (now, backwards ? &edit->after : &edit->before);
          g_hash_table_insert (present, GUINT_TO_POINTER (id),
                               (gpointer) (backwards ? &edit->before : &edit->after));
        }
      if (!fits)
        break;
      n_fit++;
    }

  g_ptr_array_set_size (stack, 0);
  for (guint i = n_fit; i-- > 0;)
    g_ptr_array_add (stack, g_ptr_array_index (newest_first, i));
  for (guint i = n_fit; i < newest_first->len; i++)
    _dc_key_change_free (g_ptr_array_index (newest_first, i));
}

/**
 * _dc_key_restore_steps:
 * @undo: (nullable): of #DcKeyStep, the oldest first
 * @redo: (nullable): of #DcKeyStep, the next redo last
 *
 * Gives back the undo and redo history a project kept, after _dc_key_restore(). Only the
 * steps that still describe the key are taken: a journal replayed since, or a file edited
 * by hand, may have changed what they would undo.
 */
void
_dc_key_restore_steps (DcKey *self, GPtrArray *undo, GPtrArray *redo)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (self->depth == 0);

  could_undo = dc_key_can_undo (self);
  could_redo = dc_key_can_redo (self);
  restore_stack (self, undo, self->undo_stack, TRUE);
  restore_stack (self, redo, self->redo_stack, FALSE);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
}
