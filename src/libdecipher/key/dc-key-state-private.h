/* dc-key-state-private.h: the key's slots and undo stacks, for the files of DcKey
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up DcKey include this (dc-key.c, dc-key-set.c,
 * dc-key-restore.c, dc-key-split.c, dc-key-history.c): everyone else goes through
 * dc-key.h and dc-key-private.h.
 */

#pragma once

#include "dc-key-private.h"

G_BEGIN_DECLS

typedef struct
{
  char *value;      /* NULL while unknown */
  char *provenance; /* NULL while unknown */
  DcKeyStatus status;
  DcKeyLevel level;
  double confidence; /* 0 while unknown */
  char **refused;    /* NULL while none: the values the user rejected for the symbol, which
                      * only the user may give it again (dc_key_reject()) */
} Slot;

/* An edit of a symbol's slot, or (on_glyph) of one occurrence's split: a split's slot
 * holds a confirmed value, or no value when the occurrence reads as its symbol. */
typedef struct
{
  guint symbol;
  guint glyph;
  gboolean on_glyph;
  Slot before;
  Slot after;
} Edit;

/* One undoable step: every set between the outermost begin/end pair. */
typedef struct
{
  char *label;
  GArray *edits; /* of Edit, in the order they were made */
} Change;

struct _DcKey
{
  GObject parent_instance;

  DcDocument *document;
  Slot *slots;
  guint n_slots;
  guint8 *needs_decoding;
  GHashTable *splits; /* glyph → Slot *: occurrences that read otherwise than their symbol */
  guint *n_split;     /* per symbol: how many of its occurrences are in splits */

  guint n_to_decode_symbols;
  guint n_to_decode_glyphs;
  guint n_decoded_symbols;
  guint n_decoded_glyphs;

  GPtrArray *undo_stack; /* of Change, oldest first */
  GPtrArray *redo_stack; /* of Change, the next redo last */
  Change *pending;
  guint depth;

  /* What the next "changed" emission reports: 0, 1 or 2 (= many) symbols. */
  guint changed_symbol;
  guint n_changed;
};

void _dc_key_slot_clear (Slot *slot);
void _dc_key_slot_copy (Slot *dest, const Slot *src);
void _dc_key_seed_slot (DcKey *self, guint symbol, Slot *slot);
void _dc_key_apply_slot (DcKey *self, guint symbol, const Slot *value);
void _dc_key_flush_changed (DcKey *self);
void _dc_key_slot_free (gpointer data);
void _dc_key_apply_edit (DcKey *self, const Edit *edit, gboolean backwards);
void _dc_key_mark_changed (DcKey *self, guint symbol);
void _dc_key_count_symbol (DcKey *self, guint symbol, gboolean add);

/* dc-key-split.c */
void _dc_key_apply_split (DcKey *self, guint glyph, const Slot *state);
void _dc_key_clear_splits (DcKey *self);
gboolean _dc_key_split_slot_from_entry (DcKey *self, const DcKeyEntry *entry, Slot *slot);
const char *_dc_key_split_value_func (guint glyph, gpointer key);
gboolean _dc_key_has_splits (gpointer key);
gboolean _dc_key_slot_from_entry (DcKey *self, const DcKeyEntry *entry, Slot *slot);
Change *_dc_key_change_new (const char *label);
void _dc_key_change_free (gpointer data);
void _dc_key_notify_undo_state (DcKey *self, gboolean could_undo, gboolean could_redo);

G_END_DECLS
