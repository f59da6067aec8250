/* dc-key-restore.c: a key as a project file stored it, given back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-key.c: a project's entries turned back into slots, checked against what
 * the document itself says, and the key replaced with them once the whole file has been
 * read.
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include "dc-key-state-private.h"

void
_dc_key_entry_clear (DcKeyEntry *entry)
{
  g_clear_pointer (&entry->value, g_free);
  g_clear_pointer (&entry->provenance, g_free);
  g_clear_pointer (&entry->refused, g_strfreev);
}

/* A stored state back into a slot. The document's own states (unknown, the PDF's text) are
 * not stored with a value: they are what the document says now, and an entry that claims
 * the other one of the two describes some other document. */
gboolean
_dc_key_slot_from_entry (DcKey *self, const DcKeyEntry *entry, Slot *slot)
{
  g_assert (entry->symbol < self->n_slots);

  if (entry->on_glyph)
    return _dc_key_split_slot_from_entry (self, entry, slot);
  if (entry->status == DC_KEY_UNKNOWN || entry->status == DC_KEY_FROM_PDF)
    {
      _dc_key_seed_slot (self, entry->symbol, slot);
      slot->refused = g_strdupv (entry->refused);
      if (slot->status == entry->status)
        return TRUE;
      if (entry->status != DC_KEY_UNKNOWN || entry->refused == NULL)
        return FALSE;
      /* A trusted font's text the user rejected: unknown, as dc_key_reject() left it. */
      g_clear_pointer (&slot->value, g_free);
      g_clear_pointer (&slot->provenance, g_free);
      slot->status = DC_KEY_UNKNOWN;
      slot->level = DC_KEY_LEVEL_NONE;
      slot->confidence = 0;
      return TRUE;
    }
  if (entry->value == NULL)
    return FALSE;

  slot->value = g_strdup (entry->value);
  slot->provenance = g_strdup (entry->provenance);
  slot->status = entry->status;
  slot->level = entry->level;
  slot->confidence = entry->confidence;
  slot->refused = g_strdupv (entry->refused);
  if (slot->level == DC_KEY_LEVEL_NONE)
    slot->level = dc_key_level_for_status (entry->status, entry->provenance);
  if (entry->status == DC_KEY_CONFIRMED)
    slot->level = DC_KEY_LEVEL_USER;
  if (slot->confidence <= 0 || slot->confidence > 1)
    slot->confidence = dc_key_level_get_default_confidence (slot->level);
  return TRUE;
}

/* Loading a project replaces what the key knows: it is where the user left off, not a
 * step they could undo into some half state, so the history starts afresh (and
 * _dc_key_restore_steps() may then bring back the steps the project kept). */
void
_dc_key_restore (DcKey *self, const DcKeyEntry *entries, guint n_entries)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (self->depth == 0);

  could_undo = dc_key_can_undo (self);
  could_redo = dc_key_can_redo (self);

  for (guint s = 0; s < self->n_slots; s++)
    {
      Slot seed = { 0 };

      _dc_key_seed_slot (self, s, &seed);
      if (seed.status != self->slots[s].status || g_strcmp0 (seed.value, self->slots[s].value) != 0
          || g_strcmp0 (seed.provenance, self->slots[s].provenance) != 0
          || self->slots[s].refused != NULL)
        _dc_key_apply_slot (self, s, &seed);
      _dc_key_slot_clear (&seed);
    }

  _dc_key_clear_splits (self);
  for (guint i = 0; i < n_entries; i++)
    {
      Slot slot = { 0 };

      g_assert (entries[i].value != NULL || entries[i].refused != NULL);
      if (entries[i].on_glyph)
        {
          if (_dc_key_slot_from_entry (self, &entries[i], &slot))
            _dc_key_apply_split (self, entries[i].glyph, &slot);
          _dc_key_slot_clear (&slot);
          continue;
        }
      if (_dc_key_slot_from_entry (self, &entries[i], &slot))
        _dc_key_apply_slot (self, entries[i].symbol, &slot);
      _dc_key_slot_clear (&slot);
    }

  g_ptr_array_set_size (self->undo_stack, 0);
  g_ptr_array_set_size (self->redo_stack, 0);

  if (self->n_changed > 0)
    self->n_changed = 2;
  _dc_key_flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
}
