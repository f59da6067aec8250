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
 */

#define G_LOG_DOMAIN "decipher-occurrence-strip"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "decipher-labels.h"
#include "decipher-occurrence-split.h"
#include "decipher-occurrence-strip.h"

#define CUT_EM_PIXELS 56.0 /* pixels per em of the glyph's font: body text reads easily */
#define CUT_MIN_SCALE 2.0  /* pixels per point, whatever the font size says */
#define CUT_MAX_SCALE 12.0
#define CUT_CONTEXT_EMS 5.0 /* context either side of the glyph: a word or two */
#define CUT_HEIGHT 80       /* pixels a cut is shown at, at most */
#define REFERENCE_POINTS 40 /* the value, drawn in an ordinary font beside each cut */

/* ---- one occurrence: a glyph of the symbol ------------------------------------------ */

#define DECIPHER_TYPE_OCCURRENCE (decipher_occurrence_get_type ())
G_DECLARE_FINAL_TYPE (DecipherOccurrence, decipher_occurrence, DECIPHER, OCCURRENCE, GObject)

struct _DecipherOccurrence
{
  GObject parent_instance;
  guint glyph;
};

G_DEFINE_FINAL_TYPE (DecipherOccurrence, decipher_occurrence, G_TYPE_OBJECT)

static void
decipher_occurrence_class_init (DecipherOccurrenceClass *klass)
{
}

static void
decipher_occurrence_init (DecipherOccurrence *self)
{
}

/* ---- the list: a symbol's glyphs, an item made only when a row asks for it ---------- */

#define DECIPHER_TYPE_OCCURRENCE_LIST (decipher_occurrence_list_get_type ())
G_DECLARE_FINAL_TYPE (DecipherOccurrenceList, decipher_occurrence_list, DECIPHER, OCCURRENCE_LIST,
                      GObject)

struct _DecipherOccurrenceList
{
  GObject parent_instance;
  guint32 *glyphs; /* a copy: the session's index is rebuilt when the document changes */
  guint n_glyphs;
};

static GType
occurrence_list_get_item_type (GListModel *model)
{
  return DECIPHER_TYPE_OCCURRENCE;
}

static guint
occurrence_list_get_n_items (GListModel *model)
{
  return DECIPHER_OCCURRENCE_LIST (model)->n_glyphs;
}

static gpointer
occurrence_list_get_item (GListModel *model, guint position)
{
  DecipherOccurrenceList *self = DECIPHER_OCCURRENCE_LIST (model);
  DecipherOccurrence *item;

  if (position >= self->n_glyphs)
    return NULL;
  item = g_object_new (DECIPHER_TYPE_OCCURRENCE, NULL);
  item->glyph = self->glyphs[position];
  return item;
}

static void
occurrence_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = occurrence_list_get_item_type;
  iface->get_n_items = occurrence_list_get_n_items;
  iface->get_item = occurrence_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DecipherOccurrenceList, decipher_occurrence_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      occurrence_list_model_init))

static void
decipher_occurrence_list_finalize (GObject *object)
{
  g_free (DECIPHER_OCCURRENCE_LIST (object)->glyphs);

  G_OBJECT_CLASS (decipher_occurrence_list_parent_class)->finalize (object);
}

static void
decipher_occurrence_list_class_init (DecipherOccurrenceListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = decipher_occurrence_list_finalize;
}

static void
decipher_occurrence_list_init (DecipherOccurrenceList *self)
{
}

static DecipherOccurrenceList *
occurrence_list_new (const guint32 *glyphs, guint n_glyphs)
{
  DecipherOccurrenceList *self = g_object_new (DECIPHER_TYPE_OCCURRENCE_LIST, NULL);

  self->glyphs = g_memdup2 (glyphs, (gsize) n_glyphs * sizeof *glyphs);
  self->n_glyphs = n_glyphs;
  return self;
}

/* ---- cuts of the page ----------------------------------------------------------------- */

/* The part of @glyph's page a cut shows, the glyph's box in it, and the scale to render it
 * at: the glyph's font size decides, so that small print and headings come out alike. */
static void
cut_geometry (DcDocument *document, guint glyph, graphene_rect_t *area, graphene_rect_t *mark,
              double *scale)
{
  const DcGlyph *g = &dc_document_get_glyphs (document, NULL)[glyph];
  DcGlyphBox box = dc_glyph_get_box (g);
  double em = fabs (dc_glyph_get_size (g)), page_width, page_height, x0, x1, y0, y1;

  /* A text matrix can scale the font size away; the ink then says how large it is. */
  if (em < 1.0)
    em = MAX (1.0, box.y1 - box.y0);
  dc_document_get_page_size (document, g->page, &page_width, &page_height);
  x0 = CLAMP (MIN (box.x0, g->x) - CUT_CONTEXT_EMS * em, 0, page_width);
  x1 = CLAMP (MAX (box.x1, g->x) + CUT_CONTEXT_EMS * em, 0, page_width);
  y0 = CLAMP (MIN (box.y0, g->y - 1.0 * em), 0, page_height);
  y1 = CLAMP (MAX (box.y1, g->y + 0.35 * em), 0, page_height);
  graphene_rect_init (area, x0, y0, MAX (1.0, x1 - x0), MAX (1.0, y1 - y0));
  graphene_rect_init (mark, box.x0, box.y0, MAX (0.5, box.x1 - box.x0), MAX (0.5, box.y1 - box.y0));
  *scale = CLAMP (CUT_EM_PIXELS / em, CUT_MIN_SCALE, CUT_MAX_SCALE);
}

static void count_rendered (DecipherOccurrenceStrip *self);

typedef struct
{
  GWeakRef picture; /* may be gone, or showing another glyph, when the cut arrives */
  GWeakRef strip;   /* counts the cuts shown, when a strip asked for it */
  guint glyph;
  GCancellable *cancellable;
} CutTarget;

static void
cut_done_cb (GdkTexture *texture, gpointer data)
{
  CutTarget *target = data;
  g_autoptr (GtkPicture) picture = g_weak_ref_get (&target->picture);
  g_autoptr (DecipherOccurrenceStrip) strip = g_weak_ref_get (&target->strip);

  if (picture == NULL
      || GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (picture), "glyph")) != target->glyph + 1
      || g_object_get_data (G_OBJECT (picture), "cancellable") != target->cancellable)
    return;
  g_object_set_data (G_OBJECT (picture), "cancellable", NULL);
  if (texture == NULL)
    return;
  gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
  if (strip != NULL)
    count_rendered (strip);
}

static void
cut_target_free (gpointer data)
{
  CutTarget *target = data;

  g_weak_ref_clear (&target->picture);
  g_weak_ref_clear (&target->strip);
  g_clear_object (&target->cancellable);
  g_free (target);
}

/* Makes @picture the place for @glyph's cut, sized to its shape, still empty. */
static void
prepare_cut (GtkPicture *picture, DcSession *session, guint glyph)
{
  DcDocument *document = dc_session_get_document (session);
  const DcGlyph *g = &dc_document_get_glyphs (document, NULL)[glyph];
  g_autofree char *name = NULL;
  graphene_rect_t area, mark;
  double scale;

  cut_geometry (document, glyph, &area, &mark, &scale);
  /* Shown at its own shape: a line cut is wide and low, and a fixed box cut it off. */
  gtk_widget_set_size_request (GTK_WIDGET (picture), -1,
                               MIN (CUT_HEIGHT, (int) ceil (area.size.height * scale)));
  gtk_picture_set_paintable (picture, NULL);
  g_object_set_data (G_OBJECT (picture), "glyph", GUINT_TO_POINTER (glyph + 1));
  /* Translators: an accessible name: the place on the page a glyph is shown from. */
  name = g_strdup_printf (_("Occurrence on page %u"), g->page + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (picture), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  -1);
}

/* Asks the renderer's worker for the cut @picture was prepared for, unless it has it or
 * has asked already; stop_cut() takes the request back. */
static void
start_cut (GtkPicture *picture, DcSession *session, DecipherPageRenderer *renderer,
           DecipherOccurrenceStrip *strip)
{
  guint glyph = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (picture), "glyph"));
  DcDocument *document = dc_session_get_document (session);
  graphene_rect_t area, mark;
  CutTarget *target;
  double scale;

  if (glyph == 0 || gtk_picture_get_paintable (picture) != NULL
      || g_object_get_data (G_OBJECT (picture), "cancellable") != NULL)
    return;
  glyph--;
  cut_geometry (document, glyph, &area, &mark, &scale);
  target = g_new0 (CutTarget, 1);
  g_weak_ref_init (&target->picture, picture);
  g_weak_ref_init (&target->strip, strip);
  target->glyph = glyph;
  target->cancellable = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (picture), "cancellable", g_object_ref (target->cancellable),
                          g_object_unref);
  decipher_page_renderer_crop_marked (renderer, dc_document_get_glyphs (document, NULL)[glyph].page,
                                      &area, &mark, scale, target->cancellable, cut_done_cb, target,
                                      cut_target_free);
}

static void
stop_cut (GtkPicture *picture)
{
  GCancellable *cancellable = g_object_get_data (G_OBJECT (picture), "cancellable");

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
  g_object_set_data (G_OBJECT (picture), "cancellable", NULL);
}

static GtkWidget *
cut_picture_new (void)
{
  GtkWidget *picture = gtk_picture_new ();

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_halign (picture, GTK_ALIGN_START);
  gtk_widget_set_hexpand (picture, TRUE);
  gtk_widget_add_css_class (picture, "glyph-tile");
  return picture;
}

/**
 * decipher_occurrence_picture_new:
 * @glyph: a glyph of the document
 *
 * A large cut of the page around @glyph with the glyph boxed, as the strip shows it: the
 * conflict review shows both places a value comes from this way.
 */
GtkWidget *
decipher_occurrence_picture_new (DcSession *session, DecipherPageRenderer *renderer, guint glyph)
{
  GtkWidget *picture;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (renderer), NULL);

  picture = cut_picture_new ();
  prepare_cut (GTK_PICTURE (picture), session, glyph);
  start_cut (GTK_PICTURE (picture), session, renderer, NULL);
  return picture;
}

/**
 * decipher_occurrence_pictures_new:
 * @symbol: a symbol of the document
 * @max_pictures: how many of its occurrences to show at most
 *
 * Up to @max_pictures cuts of @symbol's occurrences, spread over the document, one under
 * the other, as the strip shows them: several places in context tell a look-alike better
 * than one. Nothing is rendered until decipher_occurrence_pictures_start(), so that a
 * list of many symbols asks only for what is on screen.
 */
GtkWidget *
decipher_occurrence_pictures_new (DcSession *session, DecipherPageRenderer *renderer, guint symbol,
                                  guint max_pictures)
{
  GtkWidget *box;
  const guint32 *glyphs;
  guint n_glyphs, n;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (renderer), NULL);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_object_set_data_full (G_OBJECT (box), "session", g_object_ref (session), g_object_unref);
  g_object_set_data_full (G_OBJECT (box), "renderer", g_object_ref (renderer), g_object_unref);
  glyphs = dc_document_get_symbol_glyphs (dc_session_get_document (session), symbol, &n_glyphs);
  n = MIN (n_glyphs, max_pictures);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *picture = cut_picture_new ();

      /* The first, the last and between: different words, often different pages. */
      prepare_cut (GTK_PICTURE (picture), session,
                   glyphs[n > 1 ? (guint) ((guint64) i * (n_glyphs - 1) / (n - 1)) : 0]);
      g_signal_connect (picture, "unmap", G_CALLBACK (stop_cut), NULL);
      gtk_box_append (GTK_BOX (box), picture);
    }
  return box;
}

/* Asks for the cuts of decipher_occurrence_pictures_new()'s @pictures that it has not yet. */
void
decipher_occurrence_pictures_start (GtkWidget *pictures)
{
  DcSession *session;
  DecipherPageRenderer *renderer;

  g_return_if_fail (GTK_IS_BOX (pictures));

  session = g_object_get_data (G_OBJECT (pictures), "session");
  renderer = g_object_get_data (G_OBJECT (pictures), "renderer");
  g_return_if_fail (DC_IS_SESSION (session));
  for (GtkWidget *child = gtk_widget_get_first_child (pictures); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    start_cut (GTK_PICTURE (child), session, renderer, NULL);
}

/* The value as it would be typeset, to compare with the glyph: an ordinary serif. */
static GtkWidget *
reference_label_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_family_new ("Serif"));
  pango_attr_list_insert (attrs, pango_attr_size_new_absolute (REFERENCE_POINTS * PANGO_SCALE));
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
  gtk_widget_set_size_request (label, 72, -1);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  return label;
}

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
  list = occurrence_list_new (glyphs, n);
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
    start_cut (picture, self->session, self->renderer, self);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherOccurrenceStrip *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *picture = cut_picture_new ();
  GtkWidget *page = gtk_label_new (NULL);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), reference_label_new ());
  g_signal_connect (picture, "map", G_CALLBACK (picture_map_cb), self);
  g_signal_connect (picture, "unmap", G_CALLBACK (stop_cut), NULL);
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
  stop_cut (GTK_PICTURE (picture));
  prepare_cut (GTK_PICTURE (picture), self->session, occurrence->glyph);
  if (gtk_widget_get_mapped (picture))
    start_cut (GTK_PICTURE (picture), self->session, self->renderer, self);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherOccurrenceStrip *self)
{
  GBinding *binding = g_object_get_data (G_OBJECT (item), "binding");
  GtkWidget *letter = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *picture = gtk_widget_get_next_sibling (letter);

  stop_cut (GTK_PICTURE (picture));
  g_object_set_data (G_OBJECT (picture), "glyph", NULL);
  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (item), "binding", NULL);
}

static void
count_rendered (DecipherOccurrenceStrip *self)
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
  g_autoptr (DecipherOccurrenceList) empty = occurrence_list_new (NULL, 0);

  self->symbol = DC_SYMBOL_NONE;
  self->value = g_strdup ("");
  gtk_widget_init_template (GTK_WIDGET (self));

  self->reference_label = reference_label_new ();
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
