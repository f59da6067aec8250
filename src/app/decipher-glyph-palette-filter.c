/* decipher-glyph-palette-filter.c: which symbols the palette shows, and in which order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-glyph-palette.c, which is the widget: the sorter and the filter
 * over the model of the document's symbols, the count under the grid, the selection kept
 * on the state's symbol (or moved on to the next) as the list changes under it, the
 * filters' names and the one chosen, and the order kept in the settings.
 */

#define G_LOG_DOMAIN "decipher-glyph-palette"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-glyph-palette-private.h"

static const char *const sort_nicks[] = { "frequency", "unknown-first", "code" };

/* ---- sorting and filtering ---------------------------------------------------------- */

int
_decipher_glyph_palette_compare_symbols (gconstpointer a, gconstpointer b, gpointer data)
{
  DecipherGlyphPalette *self = data;
  DecipherSymbolItem *x = (gpointer) a, *y = (gpointer) b;
  guint cx, cy;

  if (self->sort_mode == SORT_CODE)
    {
      guint fx = decipher_symbol_item_get_font (x), fy = decipher_symbol_item_get_font (y);
      guint32 kx = decipher_symbol_item_get_code (x), ky = decipher_symbol_item_get_code (y);

      if (fx != fy)
        return fx < fy ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
      return kx < ky ? GTK_ORDERING_SMALLER : kx > ky ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  if (self->sort_mode == SORT_UNKNOWN_FIRST)
    {
      gboolean ux = decipher_symbol_item_get_unknown (x), uy = decipher_symbol_item_get_unknown (y);

      if (ux != uy)
        return ux ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  cx = decipher_symbol_item_get_count (x);
  cy = decipher_symbol_item_get_count (y);
  if (cx != cy)
    return cx > cy ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  cx = decipher_symbol_item_get_symbol (x);
  cy = decipher_symbol_item_get_symbol (y);
  return cx < cy ? GTK_ORDERING_SMALLER : cx > cy ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* The last filter, after the fonts: the symbols with an open conflict. */
guint
_decipher_glyph_palette_conflicts_filter (DecipherGlyphPalette *self)
{
  return DECIPHER_PALETTE_FONT
         + (self->session != NULL
                ? dc_document_get_n_fonts (dc_session_get_document (self->session))
                : 0);
}

/* After the conflicts: the symbols with a proposal not yet accepted (what recognition
 * read, among others), to go through them before "Accept All Above". */
guint
decipher_glyph_palette_get_proposals_filter (DecipherGlyphPalette *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), 0);

  return _decipher_glyph_palette_conflicts_filter (self) + 1;
}

static gboolean
in_conflict (DecipherGlyphPalette *self, guint symbol)
{
  guint n = self->matcher != NULL ? dc_matcher_get_n_conflicts (self->matcher) : 0;

  for (guint i = 0; i < n; i++)
    if (dc_matcher_get_conflict (self->matcher, i)->symbol == symbol)
      return TRUE;
  return FALSE;
}

gboolean
_decipher_glyph_palette_filter_symbol (gpointer item, gpointer data)
{
  DecipherGlyphPalette *self = data;

  switch (self->filter_mode)
    {
    case DECIPHER_PALETTE_UNKNOWN:
      return decipher_symbol_item_get_unknown (item);
    case DECIPHER_PALETTE_TO_DECODE:
      return decipher_symbol_item_get_needs_decoding (item);
    case DECIPHER_PALETTE_ALL:
      return TRUE;
    default:
      if (self->filter_mode == decipher_glyph_palette_get_proposals_filter (self))
        return decipher_symbol_item_get_status (item) == DC_KEY_PROPOSED;
      if (self->filter_mode == _decipher_glyph_palette_conflicts_filter (self))
        return in_conflict (self, decipher_symbol_item_get_symbol (item));
      return decipher_symbol_item_get_font (item) == self->filter_mode - DECIPHER_PALETTE_FONT;
    }
}

void
_decipher_glyph_palette_update_summary (DecipherGlyphPalette *self)
{
  g_autofree char *text = NULL;
  guint shown, total;

  if (self->model == NULL)
    {
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  total = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (self->session != NULL && self->filter_mode == DECIPHER_PALETTE_UNKNOWN)
    {
      /* In the status bar's terms: of the symbols to decode, these are still unknown;
       * the two counts add up to its total. */
      dc_key_count_to_decode (dc_session_get_key (self->session), &total, NULL);
      /* Translators: below the glyph palette, when it shows the unknown symbols. */
      text = g_strdup_printf (ngettext ("%u of %u symbol still unknown",
                                        "%u of %u symbols still unknown", total),
                              shown, total);
    }
  else if (self->session != NULL && self->filter_mode == DECIPHER_PALETTE_TO_DECODE)
    {
      dc_key_count_to_decode (dc_session_get_key (self->session), &total, NULL);
      /* Translators: below the glyph palette. */
      text = g_strdup_printf (ngettext ("%u of %u symbol shown", "%u of %u symbols shown", total),
                              shown, total);
    }
  else
    /* Translators: below the glyph palette. */
    text = g_strdup_printf (ngettext ("%u of %u symbol shown", "%u of %u symbols shown", total),
                            shown, total);
  gtk_label_set_text (self->summary_label, text);
  gtk_stack_set_visible_child_name (self->stack, shown > 0 ? "grid" : "empty");
}

static guint
find_position (DecipherGlyphPalette *self, guint symbol)
{
  GListModel *list = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (list);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DecipherSymbolItem) item = g_list_model_get_item (list, i);

      if (decipher_symbol_item_get_symbol (item) == symbol)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
select_position (DecipherGlyphPalette *self, guint position)
{
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  /* A grid still without its model scrolls to the selection when it gets it. */
  if (position != GTK_INVALID_LIST_POSITION && self->attach_source == 0 && !self->attach_pending)
    gtk_widget_activate_action (GTK_WIDGET (self->grid_view), "list.scroll-to-item", "u", position);
}

/* After the list changed under it, the selection follows the state's symbol, or, after
 * a typed assignment took the symbol out of the list, moves on to the next one. */
void
_decipher_glyph_palette_resync_selection (DecipherGlyphPalette *self)
{
  guint symbol = decipher_view_state_get_selected_symbol (self->state);
  guint position = symbol != DC_SYMBOL_NONE ? find_position (self, symbol)
                                            : GTK_INVALID_LIST_POSITION;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  if (position == GTK_INVALID_LIST_POSITION && self->advance_position != GTK_INVALID_LIST_POSITION
      && n > 0)
    {
      g_autoptr (DecipherSymbolItem) item = NULL;

      position = MIN (self->advance_position, n - 1);
      item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
      select_position (self, position);
      decipher_view_state_set_selected_symbol (self->state, decipher_symbol_item_get_symbol (item));
      return;
    }
  if (gtk_single_selection_get_selected (self->selection) != position)
    select_position (self, position);
}

void
_decipher_glyph_palette_refilter (DecipherGlyphPalette *self, gboolean resort)
{
  self->syncing = TRUE;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (resort)
    gtk_sorter_changed (GTK_SORTER (self->sorter), GTK_SORTER_CHANGE_DIFFERENT);
  self->syncing = FALSE;
  _decipher_glyph_palette_resync_selection (self);
  _decipher_glyph_palette_update_summary (self);
}

void
_decipher_glyph_palette_key_changed_cb (DecipherGlyphPalette *self, guint symbol, DcKey *key)
{
  /* Values only move items when the filter or the order depends on them; settling a
   * conflict changes the key too. */
  if (self->filter_mode == DECIPHER_PALETTE_UNKNOWN || self->sort_mode == SORT_UNKNOWN_FIRST
      || self->filter_mode == _decipher_glyph_palette_conflicts_filter (self)
      || self->filter_mode == decipher_glyph_palette_get_proposals_filter (self))
    _decipher_glyph_palette_refilter (self, self->sort_mode == SORT_UNKNOWN_FIRST);
}

/* ---- the filter chosen -------------------------------------------------------------- */

void
_decipher_glyph_palette_fill_filter_names (DecipherGlyphPalette *self)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  DcDocument *document = dc_session_get_document (self->session);

  /* "To Decode" names what is left to do, so it is the filter whose symbols leave as
   * they are decoded (typing on a cell moves the selection on to the next one); the
   * untrusted fonts' symbols, decoded or not, have a name that says just that. */
  gtk_string_list_append (names, _("To Decode"));
  /* Translators: a glyph palette filter: every symbol of the fonts whose text cannot be
   * trusted, decoded or not. */
  gtk_string_list_append (names, _("Untrusted Fonts"));
  gtk_string_list_append (names, _("All Symbols"));
  for (guint i = 0; i < dc_document_get_n_fonts (document); i++)
    {
      DcFont *font = dc_document_get_font (document, i);
      g_autofree char *name = dc_font_dup_display_name (font);
      g_autofree char *label = NULL;

      if (dc_font_get_name (font) == NULL)
        /* Translators: a glyph palette filter showing the symbols of one unnamed font. */
        label = g_strdup_printf (_("Font %u"), i + 1);
      else
        /* Translators: a glyph palette filter showing the symbols of one font. */
        label = g_strdup_printf (_("Font %u: %s"), i + 1, name);
      gtk_string_list_append (names, label);
    }
  /* Translators: a glyph palette filter showing the symbols two pieces of evidence
   * disagree about. */
  gtk_string_list_append (names, _("Conflicts"));
  /* Translators: a glyph palette filter showing the symbols with a value proposed but
   * not yet accepted. */
  gtk_string_list_append (names, _("Proposals"));
  gtk_drop_down_set_model (self->filter_dropdown, G_LIST_MODEL (names));
}

/* Shows only the symbols @filter (a #DecipherPaletteFilter) lets through. */
void
decipher_glyph_palette_set_filter (DecipherGlyphPalette *self, guint filter)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_PALETTE (self));

  if (self->session != NULL && filter > decipher_glyph_palette_get_proposals_filter (self))
    filter = DECIPHER_PALETTE_ALL;
  if (filter == self->filter_mode)
    return;
  self->filter_mode = filter;
  if (gtk_drop_down_get_selected (self->filter_dropdown) != filter)
    gtk_drop_down_set_selected (self->filter_dropdown, filter);
  if (self->filter != NULL)
    _decipher_glyph_palette_refilter (self, FALSE);
}

guint
decipher_glyph_palette_get_filter (DecipherGlyphPalette *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), 0);

  return self->filter_mode;
}

/* ---- settings ----------------------------------------------------------------------- */

gboolean
_decipher_glyph_palette_sort_from_setting (GValue *value, GVariant *variant, gpointer data)
{
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sort_nicks); i++)
    if (g_str_equal (nick, sort_nicks[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

GVariant *
_decipher_glyph_palette_sort_to_setting (const GValue *value, const GVariantType *type,
                                         gpointer data)
{
  guint i = g_value_get_uint (value);

  return g_variant_new_string (sort_nicks[i < G_N_ELEMENTS (sort_nicks) ? i : 0]);
}

void
_decipher_glyph_palette_sort_selected_cb (DecipherGlyphPalette *self)
{
  guint selected = gtk_drop_down_get_selected (self->sort_dropdown);

  if (selected >= G_N_ELEMENTS (sort_nicks) || selected == self->sort_mode)
    return;
  self->sort_mode = selected;
  if (self->model != NULL)
    _decipher_glyph_palette_refilter (self, TRUE);
}

void
_decipher_glyph_palette_filter_selected_cb (DecipherGlyphPalette *self)
{
  guint selected = gtk_drop_down_get_selected (self->filter_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    decipher_glyph_palette_set_filter (self, selected);
}
