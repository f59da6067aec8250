/* decipher-glyph-palette.c: a grid of every symbol, with its shape and value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Like gnome-font-viewer's glyph grid, over a model of the document's symbols, sorted
 * and filtered in place. Selecting a cell selects the symbol in the session, which the
 * document view outlines; typing a character while a cell is selected assigns it, and
 * with "Unknown" shown the next unknown symbol moves into its place, so a linguist can
 * go through a font by reading one shape and typing one letter after another.
 *
 * This file is the widget: its selection, typing on a cell, its cells and the model it
 * gets once the document is on screen. Which symbols it shows, and in which order, is
 * in decipher-glyph-palette-filter.c.
 */

#define G_LOG_DOMAIN "decipher-glyph-palette"

#include "config.h"

#include <string.h>

#include "decipher-glyph-cell.h"
#include "decipher-glyph-palette-private.h"

G_DEFINE_FINAL_TYPE (DecipherGlyphPalette, decipher_glyph_palette, GTK_TYPE_WIDGET)

enum
{
  SYMBOL_ACTIVATED,
  ASSIGNED,
  ASSIGN_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum
{
  PROP_0,
  PROP_MATCHER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- selection ---------------------------------------------------------------------- */

static void
selection_changed_cb (DecipherGlyphPalette *self, GParamSpec *pspec, GtkSingleSelection *selection)
{
  DecipherSymbolItem *item;

  if (self->syncing || self->session == NULL)
    return;
  item = gtk_single_selection_get_selected_item (selection);
  decipher_view_state_set_selected_symbol (self->state, item != NULL
                                                            ? decipher_symbol_item_get_symbol (item)
                                                            : DC_SYMBOL_NONE);
}

static void
state_selected_cb (DecipherGlyphPalette *self, GParamSpec *pspec, DecipherViewState *state)
{
  if (!self->syncing && self->session != NULL)
    _decipher_glyph_palette_resync_selection (self);
}

static void
grid_activate_cb (DecipherGlyphPalette *self, guint position, GtkGridView *grid_view)
{
  g_autoptr (DecipherSymbolItem)
      item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  if (item != NULL)
    g_signal_emit (self, signals[SYMBOL_ACTIVATED], 0, decipher_symbol_item_get_symbol (item));
}

/**
 * decipher_glyph_palette_type_text:
 * @text: what the user typed on the selected cell
 *
 * Assigns @text to the selected symbol, as typing does.
 *
 * Returns: %TRUE if a value was assigned
 */
gboolean
decipher_glyph_palette_type_text (DecipherGlyphPalette *self, const char *text)
{
  g_autoptr (GError) error = NULL;
  DecipherSymbolItem *item;
  guint symbol;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), FALSE);

  item = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  if (item == NULL)
    return FALSE;

  symbol = decipher_symbol_item_get_symbol (item);
  self->advance_position = gtk_single_selection_get_selected (self->selection);
  if (!dc_session_assign (self->session, symbol, text, &error))
    {
      self->advance_position = GTK_INVALID_LIST_POSITION;
      g_signal_emit (self, signals[ASSIGN_FAILED], 0, error->message);
      return FALSE;
    }
  self->advance_position = GTK_INVALID_LIST_POSITION;
  g_signal_emit (self, signals[ASSIGNED], 0, symbol);
  return TRUE;
}

static void
im_commit_cb (DecipherGlyphPalette *self, const char *text, GtkIMContext *context)
{
  decipher_glyph_palette_type_text (self, text);
}

/* GTK 4.8's grid view makes each cell a Tab stop: sixty of them before the next
 * widget. The grid is one stop, like any list in GNOME; the arrows move inside it. */
static gboolean
key_pressed_cb (DecipherGlyphPalette *self, guint keyval, guint keycode, GdkModifierType state,
                GtkEventControllerKey *controller)
{
  GtkWidget *grid = GTK_WIDGET (self->grid_view);
  GtkDirectionType direction;

  if (keyval == GDK_KEY_ISO_Left_Tab)
    direction = GTK_DIR_TAB_BACKWARD;
  else if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    direction = (state & GDK_SHIFT_MASK) != 0 ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  else
    return FALSE;
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  /* Moved on from the grid as a whole: while it takes no focus, the window's focus
   * chain passes over it to the widget after (or before) it. */
  gtk_widget_set_can_focus (grid, FALSE);
  if (!gtk_widget_child_focus (GTK_WIDGET (gtk_widget_get_root (grid)), direction))
    gtk_widget_child_focus (GTK_WIDGET (gtk_widget_get_root (grid)), direction);
  gtk_widget_set_can_focus (grid, TRUE);
  return TRUE;
}

static void
focus_enter_cb (DecipherGlyphPalette *self)
{
  gtk_im_context_focus_in (self->im_context);
}

static void
focus_leave_cb (DecipherGlyphPalette *self)
{
  gtk_im_context_focus_out (self->im_context);
}

/* ---- factory ------------------------------------------------------------------------ */

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item)
{
  gtk_list_item_set_child (list_item, decipher_glyph_cell_new ());
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item)
{
  decipher_glyph_cell_set_item (DECIPHER_GLYPH_CELL (gtk_list_item_get_child (list_item)),
                                gtk_list_item_get_item (list_item));
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item)
{
  decipher_glyph_cell_set_item (DECIPHER_GLYPH_CELL (gtk_list_item_get_child (list_item)), NULL);
}

/* ---- object ------------------------------------------------------------------------- */

/* A property rather than a function: the window gives the palette the matcher whose
 * conflicts the Conflicts filter shows, and sets it again when they change. */
static void
decipher_glyph_palette_set_property (GObject *object, guint prop_id, const GValue *value,
                                     GParamSpec *pspec)
{
  DecipherGlyphPalette *self = DECIPHER_GLYPH_PALETTE (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      g_set_object (&self->matcher, g_value_get_object (value));
      if (self->filter != NULL
          && self->filter_mode == _decipher_glyph_palette_conflicts_filter (self))
        _decipher_glyph_palette_refilter (self, FALSE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_glyph_palette_get_property (GObject *object, guint prop_id, GValue *value,
                                     GParamSpec *pspec)
{
  DecipherGlyphPalette *self = DECIPHER_GLYPH_PALETTE (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      g_value_set_object (value, self->matcher);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Focusing the palette focuses its cells, at the one last selected: what the arrows
 * and the typed letters are for. With no cell to show, the filter that hides them. */
static gboolean
decipher_glyph_palette_grab_focus (GtkWidget *widget)
{
  DecipherGlyphPalette *self = DECIPHER_GLYPH_PALETTE (widget);

  if (g_str_equal (gtk_stack_get_visible_child_name (self->stack), "grid")
      && gtk_widget_grab_focus (GTK_WIDGET (self->grid_view)))
    return TRUE;
  return gtk_widget_grab_focus (GTK_WIDGET (self->filter_dropdown));
}

/* Tab runs through the palette top to bottom: Recognize Shapes, the % box, Accept, the
 * filters, then the cells as one stop. GTK's own order entered it straight at the cells
 * (the grab_focus above), skipping every control over them. */
static gboolean
decipher_glyph_palette_focus (GtkWidget *widget, GtkDirectionType direction)
{
  gboolean forward = direction == GTK_DIR_TAB_FORWARD;
  GtkWidget *focus_child = gtk_widget_get_focus_child (widget);
  GtkWidget *child;

  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return GTK_WIDGET_CLASS (decipher_glyph_palette_parent_class)->focus (widget, direction);
  if (focus_child != NULL)
    {
      if (gtk_widget_child_focus (focus_child, direction))
        return TRUE;
      child = forward ? gtk_widget_get_next_sibling (focus_child)
                      : gtk_widget_get_prev_sibling (focus_child);
    }
  else
    child = forward ? gtk_widget_get_first_child (widget) : gtk_widget_get_last_child (widget);
  for (; child != NULL;
       child = forward ? gtk_widget_get_next_sibling (child) : gtk_widget_get_prev_sibling (child))
    if (gtk_widget_is_drawable (child) && gtk_widget_child_focus (child, direction))
      return TRUE;
  return FALSE;
}

static void
decipher_glyph_palette_dispose (GObject *object)
{
  DecipherGlyphPalette *self = DECIPHER_GLYPH_PALETTE (object);
  GtkWidget *child;

  g_clear_object (&self->matcher);
  g_clear_handle_id (&self->attach_source, g_source_remove);
  /* The session may outlive the palette (a reading still under way holds it): its key's
   * changes must not reach a palette without filter or model. */
  if (self->state_signals != NULL)
    g_signal_group_set_target (self->state_signals, NULL);
  if (self->key_signals != NULL)
    g_signal_group_set_target (self->key_signals, NULL);
  g_clear_object (&self->state_signals);
  g_clear_object (&self->key_signals);
  g_clear_object (&self->state);
  if (self->grid_view != NULL)
    gtk_grid_view_set_model (self->grid_view, NULL);
  if (self->im_context != NULL)
    gtk_im_context_set_client_widget (self->im_context, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_GLYPH_PALETTE);
  /* The template's unnamed boxes and separators are not cleared with it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->model);
  g_clear_object (&self->sorter);
  g_clear_object (&self->filter);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_object (&self->im_context);

  G_OBJECT_CLASS (decipher_glyph_palette_parent_class)->dispose (object);
}

static void
decipher_glyph_palette_class_init (DecipherGlyphPaletteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_glyph_palette_dispose;
  object_class->set_property = decipher_glyph_palette_set_property;
  object_class->get_property = decipher_glyph_palette_get_property;
  widget_class->grab_focus = decipher_glyph_palette_grab_focus;
  widget_class->focus = decipher_glyph_palette_focus;

  properties[PROP_MATCHER] = g_param_spec_object ("matcher", NULL, NULL, DC_TYPE_MATCHER,
                                                  G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DecipherGlyphPalette::symbol-activated:
   * @symbol: the symbol of the cell activated (Enter or a double click)
   */
  signals[SYMBOL_ACTIVATED] = g_signal_new ("symbol-activated", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                            G_TYPE_UINT);
  /**
   * DecipherGlyphPalette::assigned:
   * @symbol: the symbol a value was typed for
   */
  signals[ASSIGNED] = g_signal_new ("assigned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * DecipherGlyphPalette::assign-failed:
   * @message: a sentence saying why the typed value was refused
   */
  signals[ASSIGN_FAILED] = g_signal_new ("assign-failed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                         G_TYPE_STRING);

  g_type_ensure (DECIPHER_TYPE_RECOGNIZE_BAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-glyph-palette.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, recognize_bar);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, filter_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, stack);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, grid_view);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, key_controller);
  gtk_widget_class_bind_template_child (widget_class, DecipherGlyphPalette, summary_label);
  gtk_widget_class_set_css_name (widget_class, "glyphpalette");
}

static void
decipher_glyph_palette_init (DecipherGlyphPalette *self)
{
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkEventController *focus;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->state_signals = g_signal_group_new (DECIPHER_TYPE_VIEW_STATE);
  g_signal_group_connect_swapped (self->state_signals, "notify::selected-symbol",
                                  G_CALLBACK (state_selected_cb), self);
  /* A state of its own until the window hands over the one its widgets share. */
  self->state = decipher_view_state_new ();
  g_signal_group_set_target (self->state_signals, self->state);
  self->key_signals = g_signal_group_new (DC_TYPE_KEY);
  g_signal_group_connect_swapped (self->key_signals, "changed",
                                  G_CALLBACK (_decipher_glyph_palette_key_changed_cb), self);
  self->filter_mode = DECIPHER_PALETTE_UNKNOWN;
  self->advance_position = GTK_INVALID_LIST_POSITION;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), NULL);
  gtk_grid_view_set_factory (self->grid_view, factory);
  g_signal_connect_swapped (self->grid_view, "activate", G_CALLBACK (grid_activate_cb), self);

  /* Through an input method, so that dead keys, compose sequences and keyboard layouts
   * for the language being deciphered all reach the cell. */
  self->im_context = gtk_im_multicontext_new ();
  gtk_im_context_set_client_widget (self->im_context, GTK_WIDGET (self->grid_view));
  gtk_event_controller_key_set_im_context (self->key_controller, self->im_context);
  g_signal_connect_swapped (self->im_context, "commit", G_CALLBACK (im_commit_cb), self);
  g_signal_connect_swapped (self->key_controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_enter_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->grid_view), focus);

  self->settings = g_settings_new (APP_ID);
  g_settings_bind_with_mapping (self->settings, "palette-sort", self->sort_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, _decipher_glyph_palette_sort_from_setting,
                                _decipher_glyph_palette_sort_to_setting, NULL, NULL);
  self->sort_mode = gtk_drop_down_get_selected (self->sort_dropdown);
  g_signal_connect_swapped (self->sort_dropdown, "notify::selected",
                            G_CALLBACK (_decipher_glyph_palette_sort_selected_cb), self);
  g_signal_connect_swapped (self->filter_dropdown, "notify::selected",
                            G_CALLBACK (_decipher_glyph_palette_filter_selected_cb), self);
}

/* The grid makes a cell from its template for each item it shows as soon as it has a
 * model: given the model with the document, some seventy cells (a grid not yet
 * allocated does not know how many fit) took 10 to 20 ms of the main loop in the same
 * iteration as the rest of the document's setup. Given it once the window has drawn
 * the document, they are made in an iteration of their own, and only as many as fit.
 *
 * Each new cell also asks for its glyph's shape, which FreeType draws on first asking:
 * a third of that iteration. So the shapes of the first cells are drawn beforehand, a
 * few milliseconds' worth per iteration, and the grid gets its model once they are. */
#define WARM_SHAPES 120
#define WARM_SLICE_US 4000

static gboolean
attach_model_cb (gpointer data)
{
  DecipherGlyphPalette *self = data;
  GListModel *items = G_LIST_MODEL (self->selection);
  guint n_warm = MIN (g_list_model_get_n_items (items), WARM_SHAPES);
  gint64 deadline = g_get_monotonic_time () + WARM_SLICE_US;
  guint selected;

  while (self->n_warmed < n_warm)
    {
      g_autoptr (DecipherSymbolItem) item = g_list_model_get_item (items, self->n_warmed++);
      DecipherShapeState state;

      decipher_symbol_item_get_shape (item, &state);
      if (g_get_monotonic_time () > deadline && self->n_warmed < n_warm)
        return G_SOURCE_CONTINUE;
    }

  self->attach_source = 0;
  if (self->cells_held)
    {
      self->attach_pending = TRUE;
      return G_SOURCE_REMOVE;
    }
  selected = gtk_single_selection_get_selected (self->selection);
  gtk_grid_view_set_model (self->grid_view, GTK_SELECTION_MODEL (self->selection));
  if (selected != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->grid_view), "list.scroll-to-item", "u", selected);
  return G_SOURCE_REMOVE;
}

/**
 * decipher_glyph_palette_set_session:
 * @session: (nullable): the document to show, or %NULL for none
 * @shapes: (nullable): where the cells get their shapes
 */
void
decipher_glyph_palette_set_session (DecipherGlyphPalette *self, DcSession *session,
                                    DecipherGlyphShapes *shapes)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_PALETTE (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));

  g_clear_handle_id (&self->attach_source, g_source_remove);
  self->attach_pending = FALSE;
  gtk_grid_view_set_model (self->grid_view, NULL);
  g_signal_group_set_target (self->key_signals, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->model);
  g_clear_object (&self->sorter);
  g_clear_object (&self->filter);
  g_set_object (&self->session, session);
  decipher_recognize_bar_set_session (self->recognize_bar, session,
                                      shapes != NULL ? decipher_glyph_shapes_get_renderer (shapes)
                                                     : NULL);
  if (session == NULL)
    {
      _decipher_glyph_palette_update_summary (self);
      return;
    }

  self->model = decipher_symbol_model_new (session, shapes);
  self->sorter = gtk_custom_sorter_new (_decipher_glyph_palette_compare_symbols, self, NULL);
  self->filter = gtk_custom_filter_new (_decipher_glyph_palette_filter_symbol, self, NULL);
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->model)),
                                              g_object_ref (GTK_SORTER (self->sorter)));
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->sort_model)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);
  /* Low: after the first frame and the first pages, which the reader looks at first. */
  self->n_warmed = 0;
  self->attach_source = g_idle_add_full (G_PRIORITY_LOW, attach_model_cb, self, NULL);

  g_signal_group_set_target (self->key_signals, dc_session_get_key (session));

  _decipher_glyph_palette_fill_filter_names (self);
  /* A document whose fonts are all trusted has nothing to decode: show all of it. */
  if (self->filter_mode != DECIPHER_PALETTE_ALL)
    {
      guint to_decode = 0;

      dc_key_count_to_decode (dc_session_get_key (session), &to_decode, NULL);
      self->filter_mode = to_decode > 0 ? DECIPHER_PALETTE_UNKNOWN : DECIPHER_PALETTE_ALL;
    }
  gtk_drop_down_set_selected (self->filter_dropdown, self->filter_mode);
  _decipher_glyph_palette_refilter (self, FALSE);
}

/**
 * decipher_glyph_palette_hold_cells:
 * @hold: whether the grid waits
 *
 * While held, the grid gets no model, so no cells: its shapes are drawn meanwhile, and
 * the cells come when the hold ends. The window holds them while a new document's first
 * page is drawn: the palette's first cells (made, laid out and drawn) and the page (its
 * render drawn) each cost a frame most of what the eye allows, and together, under the
 * cairo renderer, a frame the size of both.
 */
void
decipher_glyph_palette_hold_cells (DecipherGlyphPalette *self, gboolean hold)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_PALETTE (self));

  self->cells_held = hold;
  if (!hold && self->attach_pending)
    {
      self->attach_pending = FALSE;
      self->attach_source = g_idle_add_full (G_PRIORITY_LOW, attach_model_cb, self, NULL);
    }
}

/* Returns: (transfer none) (nullable): the items shown, in the order shown. */
GListModel *
decipher_glyph_palette_get_model (DecipherGlyphPalette *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), NULL);

  return G_LIST_MODEL (self->selection);
}

/**
 * decipher_glyph_palette_set_view_state:
 * @state: what the window shows, shared with its other widgets
 *
 * The palette selects @state's selected symbol and sets it when the user picks a cell. A
 * palette starts with a state of its own; a window hands it the one its widgets share.
 */
void
decipher_glyph_palette_set_view_state (DecipherGlyphPalette *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_GLYPH_PALETTE (self));
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (state));

  if (!g_set_object (&self->state, state))
    return;
  g_signal_group_set_target (self->state_signals, state);
  if (self->session != NULL && !self->syncing)
    _decipher_glyph_palette_resync_selection (self);
}

DecipherViewState *
decipher_glyph_palette_get_view_state (DecipherGlyphPalette *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), NULL);

  return self->state;
}

guint
decipher_glyph_palette_get_selected_symbol (DecipherGlyphPalette *self)
{
  DecipherSymbolItem *item;

  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), DC_SYMBOL_NONE);

  item = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  return item != NULL ? decipher_symbol_item_get_symbol (item) : DC_SYMBOL_NONE;
}

/* Recognize Shapes and Accept above the palette, for the window's shortcuts. */
DecipherRecognizeBar *
decipher_glyph_palette_get_recognize_bar (DecipherGlyphPalette *self)
{
  g_return_val_if_fail (DECIPHER_IS_GLYPH_PALETTE (self), NULL);

  return self->recognize_bar;
}
