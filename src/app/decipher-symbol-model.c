/* decipher-symbol-model.c: every symbol of a document as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Position i is symbol i. Items are made the first time something asks for them (the
 * grid only asks for what it shows, a sorter for all) and kept, so that an item's
 * identity is stable while its value changes underneath: the model never emits
 * items-changed, it tells each item that its value or shape did.
 */

#define G_LOG_DOMAIN "decipher-symbol-model"

#include "config.h"

#include "decipher-symbol-model.h"

struct _DecipherSymbolModel
{
  GObject parent_instance;

  DcSession *session;
  DecipherGlyphShapes *shapes;
  DecipherSymbolItem **items;
  guint n_items;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DecipherSymbolModel, decipher_symbol_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return DECIPHER_TYPE_SYMBOL_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  return DECIPHER_SYMBOL_MODEL (model)->n_items;
}

static gpointer
get_item (GListModel *model, guint position)
{
  DecipherSymbolModel *self = DECIPHER_SYMBOL_MODEL (model);

  if (position >= self->n_items)
    return NULL;
  if (self->items[position] == NULL)
    self->items[position] = decipher_symbol_item_new (self->session, self->shapes, position);
  return g_object_ref (self->items[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
key_changed_cb (DecipherSymbolModel *self, guint symbol, DcKey *key)
{
  if (symbol != DC_SYMBOL_NONE)
    {
      if (symbol < self->n_items && self->items[symbol] != NULL)
        _decipher_symbol_item_value_changed (self->items[symbol]);
      return;
    }
  for (guint i = 0; i < self->n_items; i++)
    if (self->items[i] != NULL)
      _decipher_symbol_item_value_changed (self->items[i]);
}

static void
shape_ready_cb (DecipherSymbolModel *self, guint symbol, DecipherGlyphShapes *shapes)
{
  if (symbol < self->n_items && self->items[symbol] != NULL)
    _decipher_symbol_item_shape_changed (self->items[symbol]);
}

static void
decipher_symbol_model_dispose (GObject *object)
{
  DecipherSymbolModel *self = DECIPHER_SYMBOL_MODEL (object);

  for (guint i = 0; i < self->n_items; i++)
    g_clear_object (&self->items[i]);

  G_OBJECT_CLASS (decipher_symbol_model_parent_class)->dispose (object);
}

static void
decipher_symbol_model_finalize (GObject *object)
{
  DecipherSymbolModel *self = DECIPHER_SYMBOL_MODEL (object);

  g_clear_pointer (&self->items, g_free);
  g_clear_object (&self->shapes);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (decipher_symbol_model_parent_class)->finalize (object);
}

static void
decipher_symbol_model_class_init (DecipherSymbolModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = decipher_symbol_model_dispose;
  object_class->finalize = decipher_symbol_model_finalize;
}

static void
decipher_symbol_model_init (DecipherSymbolModel *self)
{
}

/**
 * decipher_symbol_model_new:
 * @shapes: (nullable): where the items get their shapes from
 */
DecipherSymbolModel *
decipher_symbol_model_new (DcSession *session, DecipherGlyphShapes *shapes)
{
  DecipherSymbolModel *self;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);

  self = g_object_new (DECIPHER_TYPE_SYMBOL_MODEL, NULL);
  self->session = g_object_ref (session);
  self->shapes = shapes != NULL ? g_object_ref (shapes) : NULL;
  dc_document_get_symbols (dc_session_get_document (session), &self->n_items);
  self->items = g_new0 (DecipherSymbolItem *, MAX (self->n_items, 1));

  g_signal_connect_object (dc_session_get_key (session), "changed", G_CALLBACK (key_changed_cb),
                           self, G_CONNECT_SWAPPED);
  if (shapes != NULL)
    g_signal_connect_object (shapes, "shape-ready", G_CALLBACK (shape_ready_cb), self,
                             G_CONNECT_SWAPPED);
  return self;
}

DcSession *
decipher_symbol_model_get_session (DecipherSymbolModel *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_MODEL (self), NULL);

  return self->session;
}
