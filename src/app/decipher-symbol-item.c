/* decipher-symbol-item.c: one symbol of a document, as a list item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Items hold no copy of the value: they read the key when asked and only say when it
 * changed, so a list of ten thousand symbols costs ten thousand small objects at most.
 */

#define G_LOG_DOMAIN "decipher-symbol-item"

#include "config.h"

#include "decipher-labels.h"
#include "decipher-symbol-item.h"

struct _DecipherSymbolItem
{
  GObject parent_instance;

  DcSession *session;
  DecipherGlyphShapes *shapes;
  guint symbol;
};

G_DEFINE_FINAL_TYPE (DecipherSymbolItem, decipher_symbol_item, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SYMBOL,
  PROP_STATUS,
  PROP_VALUE_LABEL,
  PROP_SHAPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
decipher_symbol_item_finalize (GObject *object)
{
  DecipherSymbolItem *self = DECIPHER_SYMBOL_ITEM (object);

  g_clear_object (&self->session);
  g_clear_object (&self->shapes);

  G_OBJECT_CLASS (decipher_symbol_item_parent_class)->finalize (object);
}

static void
decipher_symbol_item_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DecipherSymbolItem *self = DECIPHER_SYMBOL_ITEM (object);
  DecipherShapeState state;

  switch (prop_id)
    {
    case PROP_SYMBOL:
      g_value_set_uint (value, self->symbol);
      break;
    case PROP_STATUS:
      g_value_set_int (value, decipher_symbol_item_get_status (self));
      break;
    case PROP_VALUE_LABEL:
      g_value_take_string (value, decipher_symbol_item_dup_value_label (self));
      break;
    case PROP_SHAPE:
      g_value_set_object (value, decipher_symbol_item_get_shape (self, &state));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_symbol_item_class_init (DecipherSymbolItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = decipher_symbol_item_finalize;
  object_class->get_property = decipher_symbol_item_get_property;

  properties[PROP_SYMBOL] = g_param_spec_uint ("symbol", NULL, NULL, 0, G_MAXUINT, 0,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] = g_param_spec_int ("status", NULL, NULL, 0, G_MAXINT, 0,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE_LABEL] = g_param_spec_string ("value-label", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHAPE] = g_param_spec_object ("shape", NULL, NULL, GDK_TYPE_TEXTURE,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
decipher_symbol_item_init (DecipherSymbolItem *self)
{
}

DecipherSymbolItem *
decipher_symbol_item_new (DcSession *session, DecipherGlyphShapes *shapes, guint symbol)
{
  DecipherSymbolItem *self;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);

  self = g_object_new (DECIPHER_TYPE_SYMBOL_ITEM, NULL);
  self->session = g_object_ref (session);
  self->shapes = shapes != NULL ? g_object_ref (shapes) : NULL;
  self->symbol = symbol;
  return self;
}

guint
decipher_symbol_item_get_symbol (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), 0);

  return self->symbol;
}

DcSession *
decipher_symbol_item_get_session (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), NULL);

  return self->session;
}

static const DcSymbol *
get_dc_symbol (DecipherSymbolItem *self)
{
  return dc_document_get_symbol (dc_session_get_document (self->session), self->symbol);
}

guint
decipher_symbol_item_get_count (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), 0);

  return get_dc_symbol (self)->n_glyphs;
}

guint
decipher_symbol_item_get_font (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), 0);

  return get_dc_symbol (self)->font;
}

guint32
decipher_symbol_item_get_code (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), 0);

  return get_dc_symbol (self)->code;
}

gboolean
decipher_symbol_item_get_unknown (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), FALSE);

  return dc_session_symbol_is_unknown (self->session, self->symbol);
}

gboolean
decipher_symbol_item_get_needs_decoding (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), FALSE);

  return dc_document_symbol_needs_decoding (dc_session_get_document (self->session), self->symbol);
}

DcKeyStatus
decipher_symbol_item_get_status (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), DC_KEY_UNKNOWN);

  return dc_key_get_status (dc_session_get_key (self->session), self->symbol);
}

char *
decipher_symbol_item_dup_value_label (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), NULL);

  return decipher_labels_dup_value (dc_session_get_key (self->session), self->symbol);
}

char *
decipher_symbol_item_dup_title (DecipherSymbolItem *self)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), NULL);

  return decipher_labels_dup_symbol_title (dc_session_get_document (self->session), self->symbol);
}

/* Returns: (transfer none) (nullable): see decipher_glyph_shapes_lookup(). */
GdkTexture *
decipher_symbol_item_get_shape (DecipherSymbolItem *self, DecipherShapeState *state)
{
  g_return_val_if_fail (DECIPHER_IS_SYMBOL_ITEM (self), NULL);

  if (self->shapes == NULL)
    {
      *state = DECIPHER_SHAPE_FAILED;
      return NULL;
    }
  return decipher_glyph_shapes_lookup (self->shapes, self->symbol, state);
}

void
_decipher_symbol_item_value_changed (DecipherSymbolItem *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE_LABEL]);
}

void
_decipher_symbol_item_shape_changed (DecipherSymbolItem *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHAPE]);
}
