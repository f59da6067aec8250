/* decipher-glyph-palette-private.h: the palette's parts, for the files it is split into
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-glyph-palette.h"
#include "decipher-recognize-bar.h"
#include "decipher-symbol-model.h"

G_BEGIN_DECLS

typedef enum
{
  SORT_FREQUENCY,
  SORT_UNKNOWN_FIRST,
  SORT_CODE,
} SortMode;

struct _DecipherGlyphPalette
{
  GtkWidget parent_instance;

  DcSession *session;
  DecipherViewState *state; /* whose selected symbol the palette selects */
  /* On the state and on the session's key: retargeted with either, and with nothing to
   * disconnect by hand when either goes. */
  GSignalGroup *state_signals;
  GSignalGroup *key_signals;
  DecipherSymbolModel *model;
  GtkSortListModel *sort_model;
  GtkFilterListModel *filter_model;
  GtkSingleSelection *selection;
  GtkCustomSorter *sorter;
  GtkCustomFilter *filter;
  GSettings *settings;
  GtkIMContext *im_context;
  DcMatcher *matcher; /* where the open conflicts are, for the Conflicts filter */

  guint filter_mode;
  SortMode sort_mode;
  gboolean syncing;
  /* Set while a typed assignment is applied: where the next cell to type into is. */
  guint advance_position;
  guint attach_source;     /* gives the grid its model, once the document is on screen */
  guint n_warmed;          /* items whose shapes are drawn before the grid gets its model */
  gboolean cells_held;     /* see decipher_glyph_palette_hold_cells() */
  gboolean attach_pending; /* shapes warm, the model waits for the hold to end */

  DecipherRecognizeBar *recognize_bar;
  GtkDropDown *filter_dropdown;
  GtkDropDown *sort_dropdown;
  GtkStack *stack;
  GtkGridView *grid_view;
  GtkEventControllerKey *key_controller;
  GtkLabel *summary_label;
};

/* decipher-glyph-palette-filter.c */
int _decipher_glyph_palette_compare_symbols (gconstpointer a, gconstpointer b, gpointer data);
gboolean _decipher_glyph_palette_filter_symbol (gpointer item, gpointer data);
guint _decipher_glyph_palette_conflicts_filter (DecipherGlyphPalette *self);
void _decipher_glyph_palette_update_summary (DecipherGlyphPalette *self);
void _decipher_glyph_palette_resync_selection (DecipherGlyphPalette *self);
void _decipher_glyph_palette_refilter (DecipherGlyphPalette *self, gboolean resort);
void _decipher_glyph_palette_key_changed_cb (DecipherGlyphPalette *self, guint symbol, DcKey *key);
void _decipher_glyph_palette_fill_filter_names (DecipherGlyphPalette *self);
gboolean _decipher_glyph_palette_sort_from_setting (GValue *value, GVariant *variant,
                                                    gpointer data);
GVariant *_decipher_glyph_palette_sort_to_setting (const GValue *value, const GVariantType *type,
                                                   gpointer data);
void _decipher_glyph_palette_sort_selected_cb (DecipherGlyphPalette *self);
void _decipher_glyph_palette_filter_selected_cb (DecipherGlyphPalette *self);

G_END_DECLS
