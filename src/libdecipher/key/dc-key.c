/* dc-key.c: what each symbol of a document stands for, how sure we are, and why
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The object, its slots and counts, and its undo and redo. Setting a value (its checks,
 * conflicts and refusals) is dc-key-set.c, the levels and statuses dc-key-levels.c,
 * giving back a project's key dc-key-restore.c, the splits dc-key-split.c and the steps
 * as a project keeps them dc-key-history.c; they share dc-key-state-private.h.
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include "dc-key-state-private.h"
#include "dc-unicode-private.h"

#define PDF_PROVENANCE "pdf"

G_DEFINE_FINAL_TYPE (DcKey, dc_key, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_dc_key_slot_clear (Slot *slot)
{
  g_clear_pointer (&slot->value, g_free);
  g_clear_pointer (&slot->provenance, g_free);
  g_clear_pointer (&slot->refused, g_strfreev);
  slot->status = DC_KEY_UNKNOWN;
  slot->level = DC_KEY_LEVEL_NONE;
  slot->confidence = 0;
}

void
_dc_key_slot_copy (Slot *dest, const Slot *src)
{
  dest->value = g_strdup (src->value);
  dest->provenance = g_strdup (src->provenance);
  dest->status = src->status;
  dest->level = src->level;
  dest->confidence = src->confidence;
  dest->refused = g_strdupv (src->refused);
}

static void
edit_clear (gpointer data)
{
  Edit *edit = data;

  _dc_key_slot_clear (&edit->before);
  _dc_key_slot_clear (&edit->after);
}

Change *
_dc_key_change_new (const char *label)
{
  Change *change = g_new0 (Change, 1);

  change->label = g_strdup (label);
  change->edits = g_array_new (FALSE, TRUE, sizeof (Edit));
  g_array_set_clear_func (change->edits, edit_clear);
  return change;
}

void
_dc_key_change_free (gpointer data)
{
  Change *change = data;

  g_free (change->label);
  g_array_unref (change->edits);
  g_free (change);
}

static gboolean
status_is_usable (DcKeyStatus status)
{
  return status == DC_KEY_FROM_PDF || status == DC_KEY_INFERRED || status == DC_KEY_CONFIRMED;
}

static gboolean
slot_is_decoded (DcKey *self, guint symbol, const Slot *slot)
{
  return self->needs_decoding[symbol]
         && (slot->status == DC_KEY_INFERRED || slot->status == DC_KEY_CONFIRMED);
}

void
_dc_key_seed_slot (DcKey *self, guint symbol, Slot *slot)
{
  const DcSymbol *s = dc_document_get_symbol (self->document, symbol);

  if (self->needs_decoding[symbol])
    {
      slot->value = NULL;
      slot->provenance = NULL;
      slot->status = DC_KEY_UNKNOWN;
      slot->level = DC_KEY_LEVEL_NONE;
      slot->confidence = 0;
    }
  else
    {
      /* A ToUnicode is the PDF's word; a glyph name (no ToUnicode, or one that maps the
       * code to nothing) is the font's, which DESIGN §7 rates lower. */
      DcKeyLevel level = (s->flags & DC_SYMBOL_FROM_FONT) ? DC_KEY_LEVEL_FONT : DC_KEY_LEVEL_PDF;

      slot->value = g_strdup (s->pdf_text);
      slot->provenance = g_strdup (PDF_PROVENANCE);
      slot->status = DC_KEY_FROM_PDF;
      slot->level = level;
      slot->confidence = dc_key_level_get_default_confidence (level);
    }
}

/* Tokens are split at spaces, so the document has to hear when a symbol becomes one or
 * stops being one. While nothing better is known, and for the PDF's own values, the
 * document's reading of the PDF stands. */
static void
sync_space (DcKey *self, guint symbol)
{
  const Slot *slot = &self->slots[symbol];
  gboolean is_space;

  if (slot->status == DC_KEY_INFERRED || slot->status == DC_KEY_CONFIRMED)
    is_space = _dc_text_is_space (slot->value);
  else
    is_space = (dc_document_get_symbol (self->document, symbol)->flags & DC_SYMBOL_PDF_SPACE) != 0;

  if (dc_document_symbol_is_space (self->document, symbol) != is_space)
    dc_document_set_symbol_is_space (self->document, symbol, is_space);
}

void
_dc_key_mark_changed (DcKey *self, guint symbol)
{
  if (self->n_changed == 0)
    {
      self->changed_symbol = symbol;
      self->n_changed = 1;
    }
  else if (self->changed_symbol != symbol)
    self->n_changed = 2;
}

void
_dc_key_flush_changed (DcKey *self)
{
  guint symbol;

  if (self->n_changed == 0)
    return;
  symbol = self->n_changed == 1 ? self->changed_symbol : DC_SYMBOL_NONE;
  self->n_changed = 0;
  g_signal_emit (self, signals[CHANGED], 0, symbol);
}

/* Adds (or takes away) what @symbol contributes to the decoded counts. The counts are of
 * what the reader sees: a glyph is decoded when the value it reads is, so an occurrence
 * split off its symbol (always the user's confirmed value) counts as decoded even while its
 * symbol is unknown, and the symbol's other occurrences still count as undecoded. A symbol
 * counts as decoded when its own value is, or when every occurrence is split off: then no
 * glyph it draws reads as U+FFFD, and its own value could change nothing on the page. */
void
_dc_key_count_symbol (DcKey *self, guint symbol, gboolean add)
{
  guint n_glyphs = dc_document_get_symbol (self->document, symbol)->n_glyphs;
  guint n_symbols = 0, n_decoded = 0;

  if (!self->needs_decoding[symbol])
    return;
  if (slot_is_decoded (self, symbol, &self->slots[symbol]))
    {
      n_symbols = 1;
      n_decoded = n_glyphs;
    }
  else
    {
      n_decoded = self->n_split[symbol];
      n_symbols = n_glyphs > 0 && n_decoded == n_glyphs;
    }
  if (add)
    {
      self->n_decoded_symbols += n_symbols;
      self->n_decoded_glyphs += n_decoded;
    }
  else
    {
      self->n_decoded_symbols -= n_symbols;
      self->n_decoded_glyphs -= n_decoded;
    }
}

/* Every change of a slot goes through here, so the counts and spaces stay true. */
void
_dc_key_apply_slot (DcKey *self, guint symbol, const Slot *value)
{
  Slot *slot = &self->slots[symbol];

  _dc_key_count_symbol (self, symbol, FALSE);
  _dc_key_slot_clear (slot);
  _dc_key_slot_copy (slot, value);
  _dc_key_count_symbol (self, symbol, TRUE);

  sync_space (self, symbol);
  _dc_key_mark_changed (self, symbol);
}

/* Replays one recorded edit, forwards (its after state) or backwards (its before). */
void
_dc_key_apply_edit (DcKey *self, const Edit *edit, gboolean backwards)
{
  const Slot *state = backwards ? &edit->before : &edit->after;

  if (edit->on_glyph)
    _dc_key_apply_split (self, edit->glyph, state);
  else
    _dc_key_apply_slot (self, edit->symbol, state);
}

void
_dc_key_notify_undo_state (DcKey *self, gboolean could_undo, gboolean could_redo)
{
  if (could_undo != dc_key_can_undo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (could_redo != dc_key_can_redo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
}

static void
dc_key_constructed (GObject *object)
{
  DcKey *self = DC_KEY (object);

  G_OBJECT_CLASS (dc_key_parent_class)->constructed (object);

  g_assert (DC_IS_DOCUMENT (self->document));

  dc_document_get_symbols (self->document, &self->n_slots);
  self->slots = g_new0 (Slot, self->n_slots);
  self->needs_decoding = g_new0 (guint8, self->n_slots);
  self->n_split = g_new0 (guint, self->n_slots);

  for (guint s = 0; s < self->n_slots; s++)
    {
      self->needs_decoding[s] = dc_document_symbol_needs_decoding (self->document, s);
      _dc_key_seed_slot (self, s, &self->slots[s]);
      if (self->needs_decoding[s])
        {
          self->n_to_decode_symbols++;
          self->n_to_decode_glyphs += dc_document_get_symbol (self->document, s)->n_glyphs;
        }
    }
}

static void
dc_key_finalize (GObject *object)
{
  DcKey *self = DC_KEY (object);

  for (guint s = 0; s < self->n_slots; s++)
    _dc_key_slot_clear (&self->slots[s]);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->needs_decoding, g_free);
  g_clear_pointer (&self->n_split, g_free);
  g_clear_pointer (&self->splits, g_hash_table_unref);
  g_clear_pointer (&self->undo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->redo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->pending, _dc_key_change_free);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (dc_key_parent_class)->finalize (object);
}

static void
dc_key_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DcKey *self = DC_KEY (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, dc_key_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, dc_key_can_redo (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dc_key_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  DcKey *self = DC_KEY (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dc_key_class_init (DcKeyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = dc_key_constructed;
  object_class->finalize = dc_key_finalize;
  object_class->get_property = dc_key_get_property;
  object_class->set_property = dc_key_set_property;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, DC_TYPE_DOCUMENT,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                                       | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DcKey::changed:
   * @symbol: the symbol whose value or status changed, or %DC_SYMBOL_NONE when several did
   *
   * Emitted once per finished change, undo or redo. The document's tokens are already
   * up to date when it runs, since a symbol may have become a space or stopped being one.
   */
  dc_value_func_add_glyph_func (dc_key_value_func, _dc_key_split_value_func, _dc_key_has_splits);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
dc_key_init (DcKey *self)
{
  self->undo_stack = g_ptr_array_new_with_free_func (_dc_key_change_free);
  self->redo_stack = g_ptr_array_new_with_free_func (_dc_key_change_free);
  self->splits = g_hash_table_new_full (NULL, NULL, NULL, _dc_key_slot_free);
}

/**
 * dc_key_new:
 * @document: the document whose symbols the key is about
 *
 * Trusted fonts' symbols start with the PDF's own text (%DC_KEY_FROM_PDF); the symbols
 * that need decoding start unknown.
 */
DcKey *
dc_key_new (DcDocument *document)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  return g_object_new (DC_TYPE_KEY, "document", document, NULL);
}

DcDocument *
dc_key_get_document (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  return self->document;
}

/**
 * dc_key_get_value:
 *
 * Returns: the text @symbol stands for ("" when it is to be ignored), or %NULL while it
 * is unknown or only proposed.
 */
const char *
dc_key_get_value (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  if (!status_is_usable (self->slots[symbol].status))
    return NULL;
  return self->slots[symbol].value;
}

/**
 * dc_key_peek_value:
 *
 * Like dc_key_get_value(), but also gives a proposal's text, for showing it.
 */
const char *
dc_key_peek_value (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  return self->slots[symbol].value;
}

DcKeyStatus
dc_key_get_status (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), DC_KEY_UNKNOWN);
  g_return_val_if_fail (symbol < self->n_slots, DC_KEY_UNKNOWN);

  return self->slots[symbol].status;
}

/**
 * dc_key_get_provenance:
 *
 * Returns: (nullable): which input or rule set the value ("pdf" for a trusted font's own
 * map), or %NULL while the symbol is unknown.
 */
const char *
dc_key_get_provenance (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  return self->slots[symbol].provenance;
}

/**
 * dc_key_get_level:
 *
 * Returns: what kind of evidence the value rests on (%DC_KEY_LEVEL_NONE while unknown)
 */
DcKeyLevel
dc_key_get_level (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), DC_KEY_LEVEL_NONE);
  g_return_val_if_fail (symbol < self->n_slots, DC_KEY_LEVEL_NONE);

  return self->slots[symbol].level;
}

/**
 * dc_key_get_confidence:
 *
 * Returns: how sure the evidence is, from 0 (unknown) to 1 (the user or a trusted PDF)
 */
double
dc_key_get_confidence (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), 0);
  g_return_val_if_fail (symbol < self->n_slots, 0);

  return self->slots[symbol].confidence;
}

/**
 * dc_key_begin_change:
 * @label: (nullable): how the step reads in an Undo menu, e.g. "type: «слово»"
 *
 * Groups every set until the matching dc_key_end_change() into one undoable step, and one
 * #DcKey::changed emission. Pairs nest; the outermost label names the step.
 */
void
dc_key_begin_change (DcKey *self, const char *label)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (self->depth++ == 0)
    {
      g_assert (self->pending == NULL);
      self->pending = _dc_key_change_new (label);
    }
}

void
dc_key_end_change (DcKey *self)
{
  gboolean could_undo, could_redo;
  Change *change;

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (self->depth > 0);

  if (--self->depth > 0)
    return;

  change = g_steal_pointer (&self->pending);
  if (change->edits->len == 0)
    {
      _dc_key_change_free (change);
      return;
    }

  could_undo = dc_key_can_undo (self);
  could_redo = dc_key_can_redo (self);
  g_ptr_array_add (self->undo_stack, change);
  g_ptr_array_set_size (self->redo_stack, 0);

  _dc_key_flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
}

gboolean
dc_key_can_undo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);

  return self->undo_stack->len > 0;
}

gboolean
dc_key_can_redo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);

  return self->redo_stack->len > 0;
}

/* Returns: (nullable): the label of the step dc_key_undo() would revert. */
const char *
dc_key_get_undo_label (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  if (self->undo_stack->len == 0)
    return NULL;
  return ((Change *) g_ptr_array_index (self->undo_stack, self->undo_stack->len - 1))->label;
}

const char *
dc_key_get_redo_label (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  if (self->redo_stack->len == 0)
    return NULL;
  return ((Change *) g_ptr_array_index (self->redo_stack, self->redo_stack->len - 1))->label;
}

/* Moves the last step of @from onto @to, replaying it backwards or forwards. */
static gboolean
replay (DcKey *self, GPtrArray *from, GPtrArray *to, gboolean backwards)
{
  gboolean could_undo = dc_key_can_undo (self);
  gboolean could_redo = dc_key_can_redo (self);
  Change *change;

  if (from->len == 0)
    return FALSE;

  change = g_ptr_array_steal_index (from, from->len - 1);
  if (backwards)
    {
      for (guint i = change->edits->len; i-- > 0;)
        _dc_key_apply_edit (self, &g_array_index (change->edits, Edit, i), TRUE);
    }
  else
    {
      for (guint i = 0; i < change->edits->len; i++)
        _dc_key_apply_edit (self, &g_array_index (change->edits, Edit, i), FALSE);
    }
  g_ptr_array_add (to, change);

  _dc_key_flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
  return TRUE;
}

/* Reverts the last step, every symbol it set at once. Returns: %FALSE if there was none. */
gboolean
dc_key_undo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  return replay (self, self->undo_stack, self->redo_stack, TRUE);
}

gboolean
dc_key_redo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  return replay (self, self->redo_stack, self->undo_stack, FALSE);
}

/**
 * dc_key_count_decoded:
 * @n_symbols: (out) (optional): symbols that needed decoding and now have a value
 * @n_glyphs: (out) (optional): their occurrences
 *
 * Only symbols of untrusted fonts count, and only inferred or confirmed values: a
 * proposal is not decoded yet, and an ignored glyph ("") is. Glyphs are counted by what
 * each reads: an occurrence split off its symbol is decoded, and a symbol is when each of
 * its occurrences is (see _dc_key_count_symbol()).
 */
void
dc_key_count_decoded (DcKey *self, guint *n_symbols, guint *n_glyphs)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (n_symbols)
    *n_symbols = self->n_decoded_symbols;
  if (n_glyphs)
    *n_glyphs = self->n_decoded_glyphs;
}

/* What dc_key_count_decoded() counts towards: every symbol of the untrusted fonts. */
void
dc_key_count_to_decode (DcKey *self, guint *n_symbols, guint *n_glyphs)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (n_symbols)
    *n_symbols = self->n_to_decode_symbols;
  if (n_glyphs)
    *n_glyphs = self->n_to_decode_glyphs;
}

/**
 * dc_key_value_func:
 * @key: a #DcKey, as user data
 *
 * A #DcValueFunc, so that dc_export_document (document, format, dc_key_value_func, key)
 * renders the text as far as it is recovered.
 */
const char *
dc_key_value_func (guint symbol, gpointer key)
{
  return dc_key_get_value (key, symbol);
}

void
_dc_key_slot_free (gpointer data)
{
  _dc_key_slot_clear (data);
  g_free (data);
}
