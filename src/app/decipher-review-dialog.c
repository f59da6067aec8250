/* decipher-review-dialog.c: the proposals Accept-all does not take blindly, one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 31.1: one press of Accept took 76 values of gibberish from a font's own map that
 * lies, and 330 glyphs of ӿ read as х. What no level would apply by itself (below
 * DC_KEY_AUTOMATIC_CONFIDENCE) and the look-alike letters are reviewed here before they
 * count: each pair is the proposed letter drawn large in an ordinary serif, the letters it
 * is taken for beside it, what the value rests on, and under them a few places the glyph
 * is drawn, cut from their pages as the occurrence strip cuts them (only the rows on
 * screen ask for theirs); Accept or Reject each. A rejected value stays rejected: its
 * evidence does not propose it again. Nothing is applied by opening or closing the window.
 */

#define G_LOG_DOMAIN "decipher-review-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-labels.h"
#include "decipher-occurrence-strip.h"
#include "decipher-review-dialog.h"

#define LETTER_POINTS 40 /* the proposed letter, as the occurrence strip draws it */
#define N_PICTURES 3     /* occurrences shown per pair: enough to see it in a few words */
#define CUT_MARGIN 200   /* pixels beyond the visible part whose cuts are asked for already */

struct _DecipherReviewDialog
{
  AdwWindow parent_instance;

  DcSession *session;
  GArray *symbols;     /* guint, per pair */
  GPtrArray *rows;     /* GtkWidget, per pair */
  GPtrArray *values;   /* char *, per pair: the value proposed when listed */
  GPtrArray *pictures; /* GtkWidget, per pair: its occurrences, or NULL without a renderer */
  GtkWidget *scroller;
  GtkWidget *list;
  guint cuts_idle;
};

G_DEFINE_FINAL_TYPE (DecipherReviewDialog, decipher_review_dialog, ADW_TYPE_WINDOW)

static GtkWidget *
letter_label_new (const char *text, double scale)
{
  GtkWidget *label = gtk_label_new (text);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_family_new ("Serif"));
  pango_attr_list_insert (attrs, pango_attr_size_new_absolute (
                                     (int) (LETTER_POINTS * scale * PANGO_SCALE)));
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  return label;
}

static guint
row_pair (DecipherReviewDialog *self, GtkWidget *row)
{
  guint pair = 0;
  gboolean found = g_ptr_array_find (self->rows, row, &pair);

  g_return_val_if_fail (found, 0);
  return pair;
}

/* After Accept or Reject: the row says what became of it and takes no second answer. */
static void
settle_row (GtkWidget *row, const char *outcome)
{
  GtkLabel *state = g_object_get_data (G_OBJECT (row), "state-label");

  gtk_label_set_text (state, outcome);
  gtk_widget_remove_css_class (GTK_WIDGET (state), "error");
  gtk_widget_set_visible (GTK_WIDGET (state), TRUE);
  gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "accept-button"), FALSE);
  gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "reject-button"), FALSE);
}

static void
row_error (GtkWidget *row, const char *message)
{
  GtkLabel *state = g_object_get_data (G_OBJECT (row), "state-label");

  gtk_label_set_text (state, message);
  gtk_widget_add_css_class (GTK_WIDGET (state), "error");
  gtk_widget_set_visible (GTK_WIDGET (state), TRUE);
}

/* Whether the pair still is what the row shows: accepting one proposal weighs the others
 * again, and the user may have decided the symbol elsewhere meanwhile. */
static gboolean
still_proposed (DecipherReviewDialog *self, guint pair)
{
  DcKey *key = dc_session_get_key (self->session);
  guint symbol = g_array_index (self->symbols, guint, pair);

  return dc_key_get_status (key, symbol) == DC_KEY_PROPOSED
         && g_strcmp0 (dc_key_peek_value (key, symbol), g_ptr_array_index (self->values, pair))
                == 0;
}

typedef gboolean (*DecideFunc) (DcSession *session, guint symbol, GError **error);

/* Accept and Reject alike: the pair must still be what the row shows, then the session
 * decides it and the row says what became of it. */
static void
decide (DecipherReviewDialog *self, GtkWidget *button, DecideFunc func, const char *outcome)
{
  GtkWidget *row = g_object_get_data (G_OBJECT (button), "row");
  guint pair = row_pair (self, row);
  g_autoptr (GError) error = NULL;

  if (!still_proposed (self, pair))
    {
      row_error (row, _("This proposal changed meanwhile; decide it in the palette."));
      return;
    }
  if (!func (self->session, g_array_index (self->symbols, guint, pair), &error))
    row_error (row, error->message);
  else
    settle_row (row, outcome);
}

static void
accept_clicked_cb (GtkWidget *button, DecipherReviewDialog *self)
{
  decide (self, button, dc_session_accept, _("Accepted"));
}

static void
reject_clicked_cb (GtkWidget *button, DecipherReviewDialog *self)
{
  decide (self, button, dc_session_reject,
          _("Rejected: no evidence proposes it for this glyph again"));
}

/* Asks for the cuts of the rows on screen, and a little beyond, that have none yet. The
 * rows are placed in the list, and the adjustment says which part of it is in view: the
 * list itself may not have moved yet when the adjustment has. */
static gboolean
start_visible_cuts (gpointer data)
{
  DecipherReviewDialog *self = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
      GTK_SCROLLED_WINDOW (self->scroller));
  double top = gtk_adjustment_get_value (adjustment) - CUT_MARGIN;
  double bottom = top + gtk_adjustment_get_page_size (adjustment) + 2 * CUT_MARGIN;

  self->cuts_idle = 0;
  for (guint pair = 0; pair < self->pictures->len; pair++)
    {
      GtkWidget *pictures = g_ptr_array_index (self->pictures, pair);
      graphene_rect_t bounds;

      if (pictures == NULL || !gtk_widget_get_mapped (pictures)
          || !gtk_widget_compute_bounds (pictures, self->list, &bounds))
        continue;
      if (bounds.origin.y + bounds.size.height >= top && bounds.origin.y <= bottom)
        decipher_occurrence_pictures_start (pictures);
    }
  return G_SOURCE_REMOVE;
}

/* After the list is laid out or scrolled: not during the layout itself. */
static void
queue_cuts (DecipherReviewDialog *self)
{
  if (self->cuts_idle == 0)
    self->cuts_idle = g_idle_add (start_visible_cuts, self);
}

/* The letter proposed, the letters it is taken for, what it rests on, the buttons; under
 * them a few occurrences in context. */
static GtkWidget *
row_new (DecipherReviewDialog *self, DecipherPageRenderer *renderer, guint symbol)
{
  DcDocument *document = dc_session_get_document (self->session);
  DcKey *key = dc_session_get_key (self->session);
  const char *value = dc_key_peek_value (key, symbol);
  const char *provenance = dc_key_get_provenance (key, symbol);
  g_autofree char *others = dc_value_dup_lookalikes (value);
  g_autofree char *title = decipher_labels_dup_symbol_title (document, symbol);
  g_autofree char *shown = decipher_labels_dup_value (key, symbol);
  g_autofree char *why = NULL;
  g_autofree char *name = NULL;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label, *accept, *reject, *state, *pictures = NULL;

  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_bottom (row, 6);
  gtk_box_append (GTK_BOX (row), line);
  if (renderer != NULL)
    {
      pictures = decipher_occurrence_pictures_new (self->session, renderer, symbol, N_PICTURES);
      gtk_box_append (GTK_BOX (row), pictures);
    }
  g_ptr_array_add (self->pictures, pictures);
  gtk_box_append (GTK_BOX (line), letter_label_new (shown, 1.0));
  if (others != NULL)
    {
      /* Translators: beside a proposed letter under review, the letters it is easily
       * taken for: "or ӿ ҳ ӽ?". */
      g_autofree char *or_others = g_strdup_printf (_("or %s?"), others);

      label = letter_label_new (or_others, 0.6);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (line), label);
    }

  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (text), label);
  /* Translators: under a proposal to review: its level ("from the font's own tables"),
   * its confidence and the engine's reason for it. */
  why = g_strdup_printf (_("%s · %.0f %%\nWhy: %s"),
                            decipher_labels_level (dc_key_get_level (key, symbol)),
                            dc_key_get_confidence (key, symbol) * 100.0,
                            provenance != NULL ? provenance : _("not recorded"));
  label = gtk_label_new (why);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (text), label);
  state = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (state), 0);
  gtk_label_set_wrap (GTK_LABEL (state), TRUE);
  gtk_widget_set_visible (state, FALSE);
  gtk_box_append (GTK_BOX (text), state);
  gtk_box_append (GTK_BOX (line), text);

  reject = gtk_button_new_with_mnemonic (_("_Reject"));
  accept = gtk_button_new_with_mnemonic (_("_Accept"));
  gtk_widget_add_css_class (reject, "destructive-action");
  gtk_widget_add_css_class (accept, "suggested-action");
  /* Translators: the accessible names of a review row's buttons; %s is the letter. */
  name = g_strdup_printf (_("Accept %s for %s"), shown, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (accept), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_free (name);
  name = g_strdup_printf (_("Reject %s for %s"), shown, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (reject), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *button = i == 0 ? reject : accept;

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      g_object_set_data (G_OBJECT (button), "row", row);
      g_signal_connect_object (button, "clicked",
                               G_CALLBACK (i == 0 ? reject_clicked_cb : accept_clicked_cb), self,
                               0);
      gtk_box_append (GTK_BOX (line), button);
    }
  g_object_set_data (G_OBJECT (row), "state-label", state);
  g_object_set_data (G_OBJECT (row), "accept-button", accept);
  g_object_set_data (G_OBJECT (row), "reject-button", reject);
  return row;
}

/**
 * decipher_review_dialog_new:
 * @renderer: (nullable): cuts the glyphs from their pages; without it only the letters
 *   and the reasons are shown
 * @symbols: the proposals to review, in the order shown
 *
 * Returns: (transfer none): the window, presented; it closes with @parent
 */
DecipherReviewDialog *
decipher_review_dialog_new (GtkWindow *parent, DcSession *session, DecipherPageRenderer *renderer,
                            const guint *symbols, guint n_symbols)
{
  DecipherReviewDialog *self;
  GtkWidget *box, *header, *scroller, *list, *label;
  g_autofree char *intro = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DC_IS_SESSION (session), NULL);

  self = g_object_new (DECIPHER_TYPE_REVIEW_DIALOG, "modal", TRUE, "transient-for", parent,
                       "destroy-with-parent", TRUE, "default-width", 720, "default-height", 640,
                       "title", _("Review Proposals"), NULL);
  self->session = g_object_ref (session);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  intro = g_strdup_printf (
      ngettext ("This proposal is not sure enough to be taken with the others, or its letter "
                "is easily taken for another. Compare it with the glyph and decide.",
                "These %u proposals are not sure enough to be taken with the others, or their "
                "letters are easily taken for others. Compare each with its glyph and decide.",
                n_symbols),
      n_symbols);
  label = gtk_label_new (intro);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_box_append (GTK_BOX (box), label);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Proposals to review"), -1);
  for (guint i = 0; i < n_symbols; i++)
    {
      GtkWidget *row = row_new (self, renderer, symbols[i]);

      g_array_append_val (self->symbols, symbols[i]);
      g_ptr_array_add (self->rows, row);
      g_ptr_array_add (self->values,
                       g_strdup (dc_key_peek_value (dc_session_get_key (session), symbols[i])));
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list);
  gtk_box_append (GTK_BOX (box), scroller);
  self->scroller = scroller;
  self->list = list;
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
        GTK_SCROLLED_WINDOW (scroller));

    g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (queue_cuts), self,
                             G_CONNECT_SWAPPED);
    g_signal_connect_object (adjustment, "changed", G_CALLBACK (queue_cuts), self,
                             G_CONNECT_SWAPPED);
  }
  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

guint
decipher_review_dialog_get_n_pairs (DecipherReviewDialog *self)
{
  g_return_val_if_fail (DECIPHER_IS_REVIEW_DIALOG (self), 0);

  return self->symbols->len;
}

guint
decipher_review_dialog_get_symbol (DecipherReviewDialog *self, guint pair)
{
  g_return_val_if_fail (DECIPHER_IS_REVIEW_DIALOG (self), 0);
  g_return_val_if_fail (pair < self->symbols->len, 0);

  return g_array_index (self->symbols, guint, pair);
}

/* Returns: (nullable): the occurrences shown for @pair, one #GtkPicture each, or %NULL
 * without a renderer. */
GtkWidget *
decipher_review_dialog_get_pictures (DecipherReviewDialog *self, guint pair)
{
  g_return_val_if_fail (DECIPHER_IS_REVIEW_DIALOG (self), NULL);
  g_return_val_if_fail (pair < self->pictures->len, NULL);

  return g_ptr_array_index (self->pictures, pair);
}

/* The row showing @pair, with its Accept and Reject buttons. */
GtkWidget *
decipher_review_dialog_get_row (DecipherReviewDialog *self, guint pair)
{
  g_return_val_if_fail (DECIPHER_IS_REVIEW_DIALOG (self), NULL);
  g_return_val_if_fail (pair < self->rows->len, NULL);

  return g_ptr_array_index (self->rows, pair);
}

static void
decipher_review_dialog_dispose (GObject *object)
{
  DecipherReviewDialog *self = DECIPHER_REVIEW_DIALOG (object);

  g_clear_handle_id (&self->cuts_idle, g_source_remove);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (decipher_review_dialog_parent_class)->dispose (object);
}

static void
decipher_review_dialog_finalize (GObject *object)
{
  DecipherReviewDialog *self = DECIPHER_REVIEW_DIALOG (object);

  g_array_unref (self->symbols);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->values);
  g_ptr_array_unref (self->pictures);

  G_OBJECT_CLASS (decipher_review_dialog_parent_class)->finalize (object);
}

static void
decipher_review_dialog_class_init (DecipherReviewDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = decipher_review_dialog_dispose;
  object_class->finalize = decipher_review_dialog_finalize;
}

static void
decipher_review_dialog_init (DecipherReviewDialog *self)
{
  self->symbols = g_array_new (FALSE, FALSE, sizeof (guint));
  self->rows = g_ptr_array_new ();
  self->values = g_ptr_array_new_with_free_func (g_free);
  self->pictures = g_ptr_array_new ();
}
