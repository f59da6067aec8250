/* decipher-occurrence-strip.c: every occurrence of one symbol, large, beside its value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whether a value is right is judged by looking: the strip shows each place a symbol is
 * drawn, cut from the page large enough to read the word around it, the glyph boxed,
 * beside the value proposed or held drawn in an ordinary font. The user accepts the
 * value or rejects it from there. A symbol drawn thousands of times costs little more
 * than one screenful: the model makes an item when a row asks for it, the list view
 * binds a bounded number of rows, and only a row on screen asks for its cut, which the
 * page renderer's worker renders (the one thread that reads the PDF with poppler) unless
 * the row scrolled away first.
 *
 * A symbol that stands for different characters in different places (one code drawn for
 * Latin a and Cyrillic а) is split from here: the user selects the occurrences that read
 * otherwise and gives them their own value (decipher-occurrence-split.c); their rows then
 * show that value instead of the symbol's.
 *
 * This file is the widget. The model it lists is in decipher-occurrence-strip-list.c, the
 * cuts of the page its rows show in decipher-occurrence-strip-cuts.c.
 */

#define G_LOG_DOMAIN "decipher-occurrence-strip"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "decipher-labels.h"
#include "decipher-occurrence-split.h"
#include "decipher-occurrence-strip-private.h"

/* ---- the strip -------------------------------------------------------------------------- */

struct _DecipherOccurrenceStrip
{
  GtkWidget parent_instance;

  DcSession *session;
  DecipherPageRenderer *renderer;
  GSignalGroup *key_signals;
  GSignalGroup *state_signals; /* on the view state whose selected symbol it follows */
  guint symbol;
  char *value; /* what every row shows beside its cut */
  guint n_rendered;

  GtkStack *stack;
  GtkBox *reference_box;
  GtkLabel *title_label;
  GtkLabel *status_label;
  GtkLabel *count_label;
  GtkLabel *message_label;
  GtkButton *accept_button;
  GtkButton *reject_button;
  GtkListView *list_view;
  GtkMultiSelection *selection; /* several occurrences at once, to split them */
  GtkWidget *reference_label;
  GtkWidget *split;
  guint *splits; /* the symbol's split occurrences the rows show, to see them change */
  guint n_splits;
};

G_DEFINE_FINAL_TYPE (DecipherOccurrenceStrip, decipher_occurrence_strip, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_VALUE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_value (DecipherOccurrenceStrip *self, const char *value)
{
  if (g_strcmp0 (self->value, value) == 0)
    return;
  g_free (self->value);
  self->value = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
}

static void
show_message (DecipherOccurrenceStrip *self, const char *message)
{
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

static void
update_header (DecipherOccurrenceStrip *self)
{
  DcKey *key;
  DcDocument *document;
  DcKeyStatus status;
  g_autofree char *title = NULL;
  g_autofree char *value = NULL;
  g_autofree char *status_text = NULL;
  g_autofree char *count = NULL;
  gboolean decodable;
  guint n, n_split;

  if (self->session == NULL || self->symbol == DC_SYMBOL_NONE)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      set_value (self, "");
      return;
    }
  key = dc_session_get_key (self->session);
  document = dc_session_get_document (self->session);
  status = dc_key_get_status (key, self->symbol);
  decodable = dc_document_symbol_needs_decoding (document, self->symbol);
  title = decipher_labels_dup_symbol_title (dc_session_get_document (self->session), self->symbol);
  value = decipher_labels_dup_value (dc_session_get_key (self->session), self->symbol);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  gtk_label_set_text (self->title_label, title);
  /* Translators: a symbol's status, then what its value rests on. */
  status_text = g_strdup_printf (_("%s · %s"), decipher_labels_status (status),
                                    decipher_labels_level (dc_key_get_level (key, self->symbol)));
  gtk_label_set_text (self->status_label, status_text);
  n_split = dc_key_count_split (key, self->symbol);
  if (n_split > 0)
    /* Which of them read otherwise than the symbol's value shown beside them. Translators:
     * the strip's count: all occurrences, then how many of them are split off. */
    count = g_strdup_printf (ngettext ("%u occurrence · %u split off",
                                       "%u occurrences · %u split off", n),
                             n, n_split);
  else
    count = g_strdup_printf (ngettext ("%u occurrence", "%u occurrences", n), n);
  gtk_label_set_text (self->count_label, count);
  set_value (self, value);
  gtk_label_set_text (GTK_LABEL (self->reference_label), value);
  gtk_widget_set_sensitive (GTK_WIDGET (self->accept_button),
                            decodable && status == DC_KEY_PROPOSED);
  gtk_widget_set_sensitive (GTK_WIDGET (self->reject_button),
                            decodable && status != DC_KEY_UNKNOWN);
  gtk_stack_set_visible_child_name (self->stack, "occurrences");
}

/**
 * decipher_occurrence_strip_set_symbol:
 * @symbol: a symbol of the document, or %DC_SYMBOL_NONE for none
 */
void
decipher_occurrence_strip_set_symbol (DecipherOccurrenceStrip *self, guint symbol)
{
  g_autoptr (DecipherOccurrenceList) list = NULL;
  const guint32 *glyphs = NULL;
  guint n = 0;

  g_return_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self));

  if (self->session != NULL && symbol != DC_SYMBOL_NONE)
    {
      guint n_symbols;

      dc_document_get_symbols (dc_session_get_document (self->session), &n_symbols);
      g_return_if_fail (symbol < n_symbols);
      glyphs = dc_document_get_symbol_glyphs (dc_session_get_document (self->session), symbol, &n);
    }
  else
    symbol = DC_SYMBOL_NONE;
  self->symbol = symbol;
  show_message (self, NULL);
  list = _decipher_occurrence_list_new (glyphs, n);
  gtk_multi_selection_set_model (self->selection, G_LIST_MODEL (list));
  g_clear_pointer (&self->splits, g_free);
  self->n_splits = 0;
  if (symbol != DC_SYMBOL_NONE)
    self->splits = dc_key_dup_split_glyphs (dc_session_get_key (self->session), symbol,
                                            &self->n_splits);
  update_header (self);
}

/* The header's count of occurrences, as shown. */
const char *
decipher_occurrence_strip_get_count_text (DecipherOccurrenceStrip *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self), NULL);

  return gtk_label_get_text (self->count_label);
}

guint
decipher_occurrence_strip_get_symbol (DecipherOccurrenceStrip *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self), DC_SYMBOL_NONE);

  return self->symbol;
}

/* Returns: (transfer none): the occurrences shown, one item a glyph. */
GListModel *
decipher_occurrence_strip_get_model (DecipherOccurrenceStrip *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self), NULL);

  return G_LIST_MODEL (self->selection);
}

/* How many cuts have arrived and been shown, for the tests. */
guint
decipher_occurrence_strip_get_n_rendered (DecipherOccurrenceStrip *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self), 0);

  return self->n_rendered;
}

/* The rows of occurrences split off or joined again show their new values: the list says
 * its items changed, and the list view binds them anew. */
static void
refresh_splits (DecipherOccurrenceStrip *self)
{
  g_autofree guint *splits = NULL;
  GtkBitset *selected, *current;
  GListModel *list;
  guint n_splits;

  splits = dc_key_dup_split_glyphs (dc_session_get_key (self->session), self->symbol, &n_splits);
  if (n_splits == self->n_splits
      && (n_splits == 0 || memcmp (splits, self->splits, n_splits * sizeof *splits) == 0))
    return;
  g_free (self->splits);
  self->splits = g_steal_pointer (&splits);
  self->n_splits = n_splits;
  list = gtk_multi_selection_get_model (self->selection);
  /* Rebinding every row drops the selection; the user may go on with the same occurrences
   * (correct the value, join them again), so it is put back. A copy: GTK 4.8's multiple
   * selection hands out its own bitset, which the rebinding empties. */
  current = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  selected = gtk_bitset_copy (current);
  gtk_bitset_unref (current);
  g_list_model_items_changed (list, 0, g_list_model_get_n_items (list),
                              g_list_model_get_n_items (list));
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), selected, selected);
  gtk_bitset_unref (selected);
}

static void
key_changed_cb (DecipherOccurrenceStrip *self, guint symbol)
{
  if (symbol == self->symbol || symbol == DC_SYMBOL_NONE)
    {
      update_header (self);
      if (self->session != NULL && self->symbol != DC_SYMBOL_NONE)
        refresh_splits (self);
    }
}

/* The glyphs of the occurrences selected, in the list's order. */
static guint *
dup_selected_glyphs (gpointer data, guint *n_glyphs)
{
  DecipherOccurrenceStrip *self = data;
  g_autoptr (GtkBitset)
      selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  GListModel *list = gtk_multi_selection_get_model (self->selection);
  GArray *glyphs = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkBitsetIter iter;
  guint position;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr (DecipherOccurrence) item = g_list_model_get_item (list, position);

      if (item != NULL)
        g_array_append_val (glyphs, item->glyph);
    }
  *n_glyphs = glyphs->len;
  return (guint *) (void *) g_array_free (glyphs, FALSE);
}

/* The Split… button, for the tests. */
GtkWidget *
decipher_occurrence_strip_get_split (DecipherOccurrenceStrip *self)
{
  g_return_val_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self), NULL);

  return self->split;
}

/* The strip follows the symbol chosen in the palette, the popover or the page; choosing
 * nothing (a click beside the text) leaves the last one on show. */
static void
selected_symbol_cb (DecipherOccurrenceStrip *self, GParamSpec *pspec, DecipherViewState *state)
{
  guint symbol = decipher_view_state_get_selected_symbol (state);

  if (symbol != DC_SYMBOL_NONE && symbol != self->symbol)
    decipher_occurrence_strip_set_symbol (self, symbol);
}

/* @state: (nullable): the view state whose selected symbol the strip follows */
void
decipher_occurrence_strip_set_session (DecipherOccurrenceStrip *self, DcSession *session,
                                       DecipherViewState *state, DecipherPageRenderer *renderer)
{
  g_return_if_fail (DECIPHER_IS_OCCURRENCE_STRIP (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));
  g_return_if_fail (state == NULL || DECIPHER_IS_VIEW_STATE (state));
  g_return_if_fail (session == NULL || DECIPHER_IS_PAGE_RENDERER (renderer));

  g_set_object (&self->session, session);
  if (session == NULL)
    renderer = NULL;
  g_set_object (&self->renderer, renderer);
  g_signal_group_set_target (self->key_signals,
                             session != NULL ? dc_session_get_key (session) : NULL);
  if (session == NULL)
    state = NULL;
  decipher_occurrence_split_set_session (DECIPHER_OCCURRENCE_SPLIT (self->split), session);
  g_signal_group_set_target (self->state_signals, state);
  decipher_occurrence_strip_set_symbol (self, state != NULL
                                                  ? decipher_view_state_get_selected_symbol (state)
                                                  : DC_SYMBOL_NONE);
}

/* ---- decisions ---------------------------------------------------------------------- */

static void
accept_clicked_cb (DecipherOccurrenceStrip *self)
{
  g_autoptr (GError) error = NULL;

  if (self->session == NULL || self->symbol == DC_SYMBOL_NONE)
    return;
  show_message (self, NULL);
  if (!dc_session_accept (self->session, self->symbol, &error))
    show_message (self, error->message);
}

/* Rejecting refuses the value for this symbol (dc_session_reject()): the evidence that
 * proposed it does not bring it back, and the user is told that only their own word
 * will. */
static void
reject_clicked_cb (DecipherOccurrenceStrip *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *message = NULL;

  if (self->session == NULL || self->symbol == DC_SYMBOL_NONE)
    return;
  before = g_strdup (self->value);
  show_message (self, NULL);
  if (!dc_session_reject (self->session, self->symbol, &error))
    {
      show_message (self, error->message);
      return;
    }
  /* Translators: %s is the value just rejected for a glyph. */
  message = g_strdup_printf (_("“%s” is rejected for this glyph: no evidence proposes it here "
                               "again. Type or assign it to use it after all."),
                                before);
  show_message (self, message);
}

/* ---- rows --------------------------------------------------------------------------- */

/* The list view keeps a couple of hundred rows bound, of which a screenful is mapped:
 * only a row on screen asks for its cut, and one scrolled off before it came cancels. */
static void
picture_map_cb (GtkPicture *picture, DecipherOccurrenceStrip *self)
{
  if (self->session != NULL && self->renderer != NULL)
    _decipher_occurrence_start_cut (picture, self->session, self->renderer, self);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherOccurrenceStrip *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *picture = _decipher_occurrence_cut_picture_new ();
  GtkWidget *page = gtk_label_new (NULL);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), _decipher_occurrence_reference_label_new ());
  g_signal_connect (picture, "map", G_CALLBACK (picture_map_cb), self);
  g_signal_connect (picture, "unmap", G_CALLBACK (_decipher_occurrence_stop_cut), NULL);
  gtk_box_append (GTK_BOX (box), picture);
  gtk_widget_add_css_class (page, "dim-label");
  gtk_widget_add_css_class (page, "caption");
  gtk_widget_set_valign (page, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), page);
  gtk_list_item_set_child (item, box);
  gtk_list_item_set_activatable (item, FALSE);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherOccurrenceStrip *self)
{
  DecipherOccurrence *occurrence = gtk_list_item_get_item (item);
  GtkWidget *letter = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *picture = gtk_widget_get_next_sibling (letter);
  GtkWidget *page = gtk_widget_get_next_sibling (picture);
  const DcGlyph *g = &dc_document_get_glyphs (dc_session_get_document (self->session),
                                              NULL)[occurrence->glyph];
  g_autofree char *page_text = NULL;
  const char *split = dc_key_get_split (dc_session_get_key (self->session), occurrence->glyph,
                                        NULL);
  GBinding *binding;

  /* A split occurrence shows its own value, marked, rather than the symbol's. */
  if (split != NULL)
    {
      g_autofree char *tooltip = NULL;

      gtk_label_set_label (GTK_LABEL (letter), split);
      gtk_widget_add_css_class (letter, "accent");
      /* Translators: the tooltip of an occurrence given a value of its own. */
      tooltip = g_strdup_printf (_("Split off: this occurrence reads “%s”"), split);
      gtk_widget_set_tooltip_text (letter, tooltip);
    }
  else
    {
      gtk_widget_remove_css_class (letter, "accent");
      gtk_widget_set_tooltip_text (letter, NULL);
      binding = g_object_bind_property (self, "value", letter, "label", G_BINDING_SYNC_CREATE);
      g_object_set_data (G_OBJECT (item), "binding", binding);
    }
  /* Translators: the page an occurrence is on. */
  page_text = g_strdup_printf (_("p. %u"), g->page + 1);
  gtk_label_set_text (GTK_LABEL (page), page_text);
  _decipher_occurrence_stop_cut (GTK_PICTURE (picture));
  _decipher_occurrence_prepare_cut (GTK_PICTURE (picture), self->session, occurrence->glyph);
  if (gtk_widget_get_mapped (picture))
    _decipher_occurrence_start_cut (GTK_PICTURE (picture), self->session, self->renderer, self);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherOccurrenceStrip *self)
{
  GBinding *binding = g_object_get_data (G_OBJECT (item), "binding");
  GtkWidget *letter = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *picture = gtk_widget_get_next_sibling (letter);

  _decipher_occurrence_stop_cut (GTK_PICTURE (picture));
  g_object_set_data (G_OBJECT (picture), "glyph", NULL);
  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (item), "binding", NULL);
}

void
_decipher_occurrence_strip_count_rendered (DecipherOccurrenceStrip *self)
{
  self->n_rendered++;
}

/* ---- object ------------------------------------------------------------------------- */

static void
decipher_occurrence_strip_get_property (GObject *object, guint prop_id, GValue *value,
                                        GParamSpec *pspec)
{
  DecipherOccurrenceStrip *self = DECIPHER_OCCURRENCE_STRIP (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_occurrence_strip_dispose (GObject *object)
{
  DecipherOccurrenceStrip *self = DECIPHER_OCCURRENCE_STRIP (object);

  if (self->key_signals != NULL)
    g_signal_group_set_target (self->key_signals, NULL);
  if (self->state_signals != NULL)
    g_signal_group_set_target (self->state_signals, NULL);
  g_clear_object (&self->key_signals);
  g_clear_object (&self->state_signals);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_OCCURRENCE_STRIP);
  g_clear_object (&self->session);
  g_clear_object (&self->renderer);

  G_OBJECT_CLASS (decipher_occurrence_strip_parent_class)->dispose (object);
}

static void
decipher_occurrence_strip_finalize (GObject *object)
{
  g_free (DECIPHER_OCCURRENCE_STRIP (object)->value);
  g_free (DECIPHER_OCCURRENCE_STRIP (object)->splits);

  G_OBJECT_CLASS (decipher_occurrence_strip_parent_class)->finalize (object);
}

static void
decipher_occurrence_strip_class_init (DecipherOccurrenceStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = decipher_occurrence_strip_get_property;
  object_class->dispose = decipher_occurrence_strip_dispose;
  object_class->finalize = decipher_occurrence_strip_finalize;

  /* The value shown beside every cut, as decipher_labels_dup_value() gives it. */
  properties[PROP_VALUE] = g_param_spec_string ("value", NULL, NULL, "",
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                    | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-occurrence-strip.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, stack);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, reference_box);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, title_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, status_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, count_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, message_label);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, accept_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, reject_button);
  gtk_widget_class_bind_template_child (widget_class, DecipherOccurrenceStrip, list_view);
  gtk_widget_class_bind_template_callback (widget_class, accept_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, reject_clicked_cb);
}

static void
decipher_occurrence_strip_init (DecipherOccurrenceStrip *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr (DecipherOccurrenceList) empty = _decipher_occurrence_list_new (NULL, 0);

  self->symbol = DC_SYMBOL_NONE;
  self->value = g_strdup ("");
  gtk_widget_init_template (GTK_WIDGET (self));

  self->reference_label = _decipher_occurrence_reference_label_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->reference_label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Value in a reference font"), -1);
  gtk_box_prepend (self->reference_box, self->reference_label);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (empty)));
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection); /* the list view holds it */
  g_object_unref (factory);

  self->split = decipher_occurrence_split_new (GTK_SELECTION_MODEL (self->selection),
                                               dup_selected_glyphs, self);
  gtk_box_insert_child_after (self->reference_box, self->split,
                              gtk_widget_get_prev_sibling (GTK_WIDGET (self->reject_button)));

  self->key_signals = g_signal_group_new (DC_TYPE_KEY);
  g_signal_group_connect_swapped (self->key_signals, "changed", G_CALLBACK (key_changed_cb), self);
  self->state_signals = g_signal_group_new (DECIPHER_TYPE_VIEW_STATE);
  g_signal_group_connect_swapped (self->state_signals, "notify::selected-symbol",
                                  G_CALLBACK (selected_symbol_cb), self);
  update_header (self);
}

GtkWidget *
decipher_occurrence_strip_new (void)
{
  return g_object_new (DECIPHER_TYPE_OCCURRENCE_STRIP, NULL);
}

/* ---- its window --------------------------------------------------------------------- */

#define STRIP_WINDOW_KEY "decipher-occurrence-window"

/* Ctrl+Z and Shift+Ctrl+Z in the strip's window take back or redo the key's last step, as
 * in the document's window: a split or an accept made here is undone from here. The
 * split popover's entry keeps its own while it has the focus. */
static gboolean
strip_undo_cb (GtkWidget *window, GVariant *args, gpointer redo)
{
  DecipherOccurrenceStrip *self = DECIPHER_OCCURRENCE_STRIP (
      gtk_window_get_child (GTK_WINDOW (window)));
  g_autoptr (GError) error = NULL;
  gboolean done;

  if (self->session == NULL)
    return FALSE;
  show_message (self, NULL);
  done = redo ? dc_session_redo (self->session, &error) : dc_session_undo (self->session, &error);
  if (!done)
    show_message (self, error->message);
  return TRUE;
}

static void
strip_window_destroyed (GtkWindow *parent)
{
  g_object_set_data (G_OBJECT (parent), STRIP_WINDOW_KEY, NULL);
}

/**
 * decipher_occurrence_strip_present:
 * @parent: the document's window
 * @state: @parent's view state, whose selected symbol the strip shows
 *
 * Shows the strip in a window of its own beside @parent, for the symbol selected there,
 * following the selection while it stays open: the cuts want room, and the palette and
 * the page stay usable to pick the next symbol.
 *
 * Returns: (transfer none): the strip shown
 */
DecipherOccurrenceStrip *
decipher_occurrence_strip_present (GtkWindow *parent, DcSession *session, DecipherViewState *state,
                                   DecipherPageRenderer *renderer)
{
  GtkWindow *window;
  GtkWidget *strip;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DC_IS_SESSION (session), NULL);
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (state), NULL);

  window = g_object_get_data (G_OBJECT (parent), STRIP_WINDOW_KEY);
  if (window == NULL)
    {
      GtkEventController *escape = gtk_shortcut_controller_new ();

      window = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_title (window, _("Occurrences"));
      gtk_window_set_transient_for (window, parent);
      gtk_window_set_destroy_with_parent (window, TRUE);
      gtk_window_set_default_size (window, 800, 640);
      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (escape),
          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                            gtk_named_action_new ("window.close")));
      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (escape),
          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Primary>z"),
                            gtk_callback_action_new (strip_undo_cb, NULL, NULL)));
      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (escape),
          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Shift><Primary>z"),
                            gtk_callback_action_new (strip_undo_cb, GINT_TO_POINTER (TRUE), NULL)));
      gtk_widget_add_controller (GTK_WIDGET (window), escape);
      gtk_window_set_titlebar (window, adw_header_bar_new ());
      gtk_window_set_child (window, decipher_occurrence_strip_new ());
      g_object_set_data (G_OBJECT (parent), STRIP_WINDOW_KEY, window);
      g_signal_connect_object (window, "destroy", G_CALLBACK (strip_window_destroyed), parent,
                               G_CONNECT_SWAPPED);
    }
  strip = gtk_window_get_child (window);
  decipher_occurrence_strip_set_session (DECIPHER_OCCURRENCE_STRIP (strip), session, state,
                                         renderer);
  gtk_window_present (window);
  return DECIPHER_OCCURRENCE_STRIP (strip);
}

/* Closes the strip's window over @parent, if one is open: the document it showed is
 * being closed or replaced. */
void
decipher_occurrence_strip_close_for (GtkWindow *parent)
{
  GtkWindow *window;

  g_return_if_fail (GTK_IS_WINDOW (parent));

  window = g_object_get_data (G_OBJECT (parent), STRIP_WINDOW_KEY);
  if (window != NULL)
    gtk_window_destroy (window);
}
