/* decipher-glyph-cell.c: one symbol in the glyph palette
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tile with the glyph's shape on paper, what it stands for ("?" while unknown) and how
 * often it occurs. The status is a style class, so the CSS says how each one looks.
 */

#define G_LOG_DOMAIN "decipher-glyph-cell"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-glyph-cell.h"
#include "decipher-labels.h"
#include "decipher-shape-paintable.h"

struct _DecipherGlyphCell
{
  GtkWidget parent_instance;

  DecipherSymbolItem *item;
  char *tooltip;

  GtkStack *tile;
  GtkPicture *shape;
  GtkLabel *no_shape;
  GtkLabel *value_label;
  GtkLabel *count_label;
  GtkLabel *confidence_label; /* a proposal's confidence, shown only for proposals */
};

G_DEFINE_FINAL_TYPE (DecipherGlyphCell, decipher_glyph_cell, GTK_TYPE_WIDGET)

static const char *const status_classes[] = {
  [DC_KEY_UNKNOWN] = "unknown",   [DC_KEY_FROM_PDF] = "from-pdf",   [DC_KEY_PROPOSED] = "proposed",
  [DC_KEY_INFERRED] = "inferred", [DC_KEY_CONFIRMED] = "confirmed",
};

static const char *const level_classes[] = {
  [DC_KEY_LEVEL_GUESS] = "level-guess",       [DC_KEY_LEVEL_SHAPE] = "level-shape",
  [DC_KEY_LEVEL_IDENTITY] = "level-identity", [DC_KEY_LEVEL_LAYOUT] = "level-layout",
  [DC_KEY_LEVEL_FONT] = "level-font",         [DC_KEY_LEVEL_LIBRARY] = "level-library",
};

static void
update_shape (DecipherGlyphCell *self)
{
  DecipherShapeState state;
  GdkTexture *texture = decipher_symbol_item_get_shape (self->item, &state);

  /* Not the texture itself: see decipher-shape-paintable.c. */
  gtk_picture_set_paintable (self->shape, texture != NULL
                                              ? decipher_shape_paintable_for_texture (texture)
                                              : NULL);
  if (texture != NULL)
    {
      gtk_stack_set_visible_child (self->tile, GTK_WIDGET (self->shape));
      return;
    }
  switch (state)
    {
    case DECIPHER_SHAPE_EMPTY:
      /* Translators: shown instead of the shape of a glyph that draws nothing. */
      gtk_label_set_text (self->no_shape, _("blank"));
      break;
    case DECIPHER_SHAPE_PENDING:
      gtk_label_set_text (self->no_shape, "…");
      break;
    default:
      gtk_label_set_text (self->no_shape, "");
      break;
    }
  gtk_stack_set_visible_child (self->tile, GTK_WIDGET (self->no_shape));
}

static void
update_value (DecipherGlyphCell *self)
{
  DcSession *session = decipher_symbol_item_get_session (self->item);
  guint symbol = decipher_symbol_item_get_symbol (self->item);
  DcKeyStatus status = decipher_symbol_item_get_status (self->item);
  g_autofree char *value = decipher_symbol_item_dup_value_label (self->item);
  g_autofree char *title = decipher_symbol_item_dup_title (self->item);
  g_autofree char *tooltip = NULL;
  g_autofree char *count = NULL;
  guint n = decipher_symbol_item_get_count (self->item);

  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self), status_classes[i]);
  if (status < G_N_ELEMENTS (status_classes))
    gtk_widget_add_css_class (GTK_WIDGET (self), status_classes[status]);
  if (dc_session_symbol_is_unknown (session, symbol))
    gtk_widget_add_css_class (GTK_WIDGET (self), "undecoded");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "undecoded");

  gtk_label_set_text (self->value_label, value);
  count = g_strdup_printf ("%u", n);
  gtk_label_set_text (self->count_label, count);

  /* A value the engine worked out says what it rests on: the font's tables, a layout, a
   * guess (DESIGN §7). */
  for (guint i = 0; i < G_N_ELEMENTS (level_classes); i++)
    if (level_classes[i] != NULL)
      gtk_widget_remove_css_class (GTK_WIDGET (self), level_classes[i]);
  gtk_widget_set_visible (GTK_WIDGET (self->confidence_label), status == DC_KEY_PROPOSED);
  if (status == DC_KEY_PROPOSED)
    {
      DcKey *key = dc_session_get_key (session);
      DcKeyLevel level = dc_key_get_level (key, symbol);
      double percent = dc_key_get_confidence (key, symbol) * 100.0;
      g_autofree char *sure = g_strdup_printf ("%.0f %%", percent);

      if (level < G_N_ELEMENTS (level_classes) && level_classes[level] != NULL)
        gtk_widget_add_css_class (GTK_WIDGET (self), level_classes[level]);
      /* The palette shows what a proposal rests on and how sure it is, so that "Accept
       * All Above" can be chosen knowingly. */
      gtk_label_set_text (self->confidence_label, sure);
      /* Translators: a glyph palette cell's tooltip for a proposal: symbol, value, status,
       * what the value rests on ("read by OCR"), confidence in percent, occurrences. */
      tooltip = g_strdup_printf (ngettext ("%s\nValue: %s · %s, %s, %.0f %% sure · %u occurrence",
                                           "%s\nValue: %s · %s, %s, %.0f %% sure · %u occurrences",
                                           n),
                                 title, value, decipher_labels_status (status),
                                 decipher_labels_level (level), percent, n);
    }
  else if (status == DC_KEY_INFERRED)
    {
      DcKeyLevel level = dc_key_get_level (dc_session_get_key (session), symbol);

      if (level < G_N_ELEMENTS (level_classes) && level_classes[level] != NULL)
        gtk_widget_add_css_class (GTK_WIDGET (self), level_classes[level]);
      /* Translators: a glyph palette cell's tooltip: symbol, value, status, what the value
       * rests on ("from the font's own tables"), occurrences. */
      tooltip = g_strdup_printf (ngettext ("%s\nValue: %s · %s, %s · %u occurrence",
                                           "%s\nValue: %s · %s, %s · %u occurrences", n),
                                 title, value, decipher_labels_status (status),
                                 decipher_labels_level (level), n);
    }
  else
    /* Translators: a glyph palette cell's tooltip: symbol, value, status, occurrences. */
    tooltip = g_strdup_printf (ngettext ("%s\nValue: %s · %s · %u occurrence",
                                         "%s\nValue: %s · %s · %u occurrences", n),
                               title, value, decipher_labels_status (status), n);
  /* What the engine worked out says why (issue 31.1): a font's own map judged untrusted,
   * the readings that agreed — the reason for its level and confidence. */
  if (status == DC_KEY_PROPOSED || status == DC_KEY_INFERRED)
    {
      const char *why = dc_key_get_provenance (dc_session_get_key (session), symbol);

      if (why != NULL && *why != '\0')
        {
          char *longer = g_strdup_printf (_("%s\nWhy: %s"), tooltip, why);

          g_free (tooltip);
          tooltip = longer;
        }
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  /* The focus is on the grid's own cell around this one, which a screen reader would
   * otherwise announce as "GtkListItemWidget" (GTK 4.8 has no list item label). */
  if (gtk_widget_get_parent (GTK_WIDGET (self)) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (GTK_WIDGET (self))),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  /* Not gtk_widget_set_tooltip_text(): in GTK 4.8 it asks the X server where the pointer
   * is, a round trip per cell, for every cell at every change of the key. */
  g_free (self->tooltip);
  self->tooltip = g_steal_pointer (&tooltip);
}

/* The tooltip, which is also the cell's accessible label. */
const char *
decipher_glyph_cell_get_tooltip (DecipherGlyphCell *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_CELL (self), NULL);

  return self->tooltip;
}

static gboolean
decipher_glyph_cell_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                                   GtkTooltip *tooltip)
{
  DecipherGlyphCell *self = DECIPHER_GLYPH_CELL (widget);

  if (self->item == NULL || self->tooltip == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->tooltip);
  return TRUE;
}

static void
item_notify_cb (DecipherGlyphCell *self, GParamSpec *pspec, DecipherSymbolItem *item)
{
  if (g_str_equal (pspec->name, "shape"))
    update_shape (self);
  else
    update_value (self);
}

static void
decipher_glyph_cell_dispose (GObject *object)
{
  DecipherGlyphCell *self = DECIPHER_GLYPH_CELL (object);

  decipher_glyph_cell_set_item (self, NULL);
  g_clear_pointer (&self->tooltip, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_GLYPH_CELL);

  G_OBJECT_CLASS (decipher_glyph_cell_parent_class)->dispose (object);
}

static void
decipher_glyph_cell_class_init (DecipherGlyphCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_glyph_cell_dispose;
  widget_class->query_tooltip = decipher_glyph_cell_query_tooltip;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-glyph-cell.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, tile);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, shape);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, no_shape);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, value_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, count_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphCell, confidence_label);
  gtk_widget_class_set_css_name (widget_class, "glyphcell");
}

static void
decipher_glyph_cell_init (DecipherGlyphCell *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

GtkWidget *
decipher_glyph_cell_new (void)
{
  return g_object_new (DECIPHER_TYPE_GLYPH_CELL, NULL);
}

/* Returns: (transfer none): the label showing a proposal's confidence (hidden otherwise). */
GtkLabel *
decipher_glyph_cell_get_confidence_label (DecipherGlyphCell *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_CELL (self), NULL);

  return self->confidence_label;
}

DecipherSymbolItem *
decipher_glyph_cell_get_item (DecipherGlyphCell *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_CELL (self), NULL);

  return self->item;
}

/* Shows @item (or nothing), following its changes until another item is set. */
void
decipher_glyph_cell_set_item (DecipherGlyphCell *self, DecipherSymbolItem *item)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_CELL (self));
  g_return_if_fail (item == NULL || DECIPHER_IS_SYMBOL_ITEM (item));

  if (self->item == item)
    return;
  if (self->item != NULL)
    g_signal_handlers_disconnect_by_func (self->item, item_notify_cb, self);
  g_set_object (&self->item, item);
  if (item == NULL)
    return;

  g_signal_connect_object (item, "notify", G_CALLBACK (item_notify_cb), self, G_CONNECT_SWAPPED);
  update_shape (self);
  update_value (self);
}
