/* decipher-conflict-view.c: the open conflicts, each shown with both contexts to judge
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A conflict is typed input that contradicts a value held. The review shows, for each,
 * the glyph's shape, the value held and where it came from, the new value and where it
 * came from, and a cut of the page around each: a glyph of the symbol as read so far,
 * and the glyph the new input matched. The user keeps one value or takes the other;
 * the matcher confirms it and the key keeps the other evidence in its history.
 */

#define G_LOG_DOMAIN "decipher-conflict-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "decipher-conflict-view.h"

#define CROP_SCALE 3.0   /* pixels per point: a line of body text comes out ~40 px */
#define CROP_MARGIN 60.0 /* points of context either side of the glyph */
#define CROP_HEIGHT 44   /* pixels the cut is shown at */

struct _DecipherConflictView
{
  GtkWidget parent_instance;

  DecipherSession *session;
  DcMatcher *matcher;
  DecipherGlyphShapes *shapes;
  DecipherPageRenderer *renderer;

  GtkStack *stack;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (DecipherConflictView, decipher_conflict_view, GTK_TYPE_WIDGET)

enum
{
  RESOLVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- page cuts ---------------------------------------------------------------------- */

typedef struct
{
  GWeakRef picture;     /* may be gone by the time the renderer's worker is done */
  graphene_rect_t mark; /* the glyph, in pixels of the cut */
} CropTarget;

/* The cut with the glyph underlined in the accent blue, so the eye finds it. */
static GdkTexture *
mark_glyph (GdkTexture *texture, const graphene_rect_t *mark)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  g_autofree guchar *pixels = g_malloc ((gsize) stride * height);
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr (GBytes) bytes = NULL;

  gdk_texture_download (texture, pixels, stride);
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height,
                                                 stride);
  cr = cairo_create (surface);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1.0);
  cairo_rectangle (cr, mark->origin.x, mark->origin.y + mark->size.height + 1, mark->size.width,
                   MAX (2, height / 20));
  cairo_fill (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_destroy (surface);
  bytes = g_bytes_new_take (g_steal_pointer (&pixels), (gsize) stride * height);
  return gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
}

static void
crop_done_cb (GdkTexture *texture, gpointer data)
{
  CropTarget *target = data;
  g_autoptr (GtkPicture) picture = g_weak_ref_get (&target->picture);
  g_autoptr (GdkTexture) marked = NULL;

  if (picture == NULL || texture == NULL)
    return;
  marked = mark_glyph (texture, &target->mark);
  gtk_picture_set_paintable (picture, GDK_PAINTABLE (marked));
}

static void
crop_target_free (gpointer data)
{
  CropTarget *target = data;

  g_weak_ref_clear (&target->picture);
  g_free (target);
}

/* A cut of @glyph's line around it, with the glyph outlined so the eye finds it. */
static GtkWidget *
context_picture (DecipherConflictView *self, guint glyph)
{
  DcDocument *document = decipher_session_get_document (self->session);
  const DcGlyph *g = &dc_document_get_glyphs (document, NULL)[glyph];
  DcGlyphBox box = dc_glyph_get_box (g);
  double page_width, page_height;
  graphene_rect_t area;
  GtkWidget *picture = gtk_picture_new ();
  CropTarget *target = g_new0 (CropTarget, 1);
  double x0, x1;

  dc_document_get_page_size (document, g->page, &page_width, &page_height);
  x0 = MAX (0, box.x0 - CROP_MARGIN);
  x1 = MIN (page_width, box.x1 + CROP_MARGIN);
  graphene_rect_init (&area, x0, MAX (0, box.y0 - 4), x1 - x0, (box.y1 - box.y0) + 10);

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_size_request (picture, -1, CROP_HEIGHT);
  gtk_widget_set_halign (picture, GTK_ALIGN_START);
  gtk_widget_add_css_class (picture, "glyph-tile");
  g_weak_ref_init (&target->picture, picture);
  graphene_rect_init (&target->mark, (box.x0 - area.origin.x) * CROP_SCALE,
                      (box.y0 - area.origin.y) * CROP_SCALE, (box.x1 - box.x0) * CROP_SCALE,
                      (box.y1 - box.y0) * CROP_SCALE);
  decipher_page_renderer_crop (self->renderer, g->page, &area, CROP_SCALE, crop_done_cb, target,
                               crop_target_free);
  return picture;
}

/* The glyph of @symbol within the run the new input matched. */
static int
conflict_glyph (DecipherConflictView *self, const DcConflict *conflict)
{
  DcDocument *document = decipher_session_get_document (self->session);
  const DcLine *line = &dc_document_get_lines (document, NULL)[conflict->place.line];
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);

  for (guint t = conflict->place.token;
       t < conflict->place.token + conflict->place.n_tokens && t < line->n_tokens; t++)
    {
      const DcToken *token = &tokens[line->first_token + t];

      for (guint i = token->first_glyph; i < token->first_glyph + token->n_glyphs; i++)
        if (glyphs[order[i]].symbol == conflict->symbol)
          return (int) order[i];
    }
  return -1;
}

/* A glyph of @symbol elsewhere than @avoid: where the value held can be seen. */
static int
held_glyph (DecipherConflictView *self, guint symbol, int avoid)
{
  guint n = 0;
  const guint32 *glyphs = decipher_session_get_symbol_glyphs (self->session, symbol, &n);

  for (guint i = 0; i < n; i++)
    if ((int) glyphs[i] != avoid)
      return (int) glyphs[i];
  return n > 0 ? (int) glyphs[0] : -1;
}

/* ---- provenance --------------------------------------------------------------------- */

/* The key notes where each value came from in a terse form meant for the project file
 * and decipher-cli ("assign", "type: «слово»", "proposal: code page cp1251", nested as
 * "accepted …" or "conflict: …"); the linguist reading the review is told in words. An
 * unknown form is shown as it is rather than hidden. */
static char *describe_provenance (const char *provenance);

/* The provenance that led to another, as a sentence of its own (ending in a full stop
 * once, however deep the nesting). */
static char *
describe_before (const char *provenance)
{
  g_autofree char *before = describe_provenance (provenance);

  if (g_str_has_suffix (before, "."))
    return g_steal_pointer (&before);
  return g_strconcat (before, ".", NULL);
}

static char *
describe_provenance (const char *provenance)
{
  const char *rest;

  if (provenance == NULL || *provenance == '\0')
    return g_strdup (_("Where it came from was not recorded"));
  if (strcmp (provenance, "assign") == 0)
    return g_strdup (_("You assigned it"));
  if (strcmp (provenance, "pdf") == 0)
    return g_strdup (_("Taken from the text the PDF gives"));
  if (g_str_has_prefix (provenance, "type: «") && g_str_has_suffix (provenance, "»"))
    {
      g_autofree char *typed = NULL;

      rest = provenance + strlen ("type: «");
      typed = g_strndup (rest, strlen (rest) - strlen ("»"));
      /* Translators: where a value came from: the user typed a word that contains it. */
      return g_strdup_printf (_("Learned from typing “%s”"), typed);
    }
  if (strcmp (provenance, "auto: space") == 0)
    return g_strdup (_("Guessed to be the space from how the pages are laid out"));
  if (strcmp (provenance, "auto: full stop") == 0)
    return g_strdup (_("Guessed to be the full stop from how the pages are laid out"));
  if (g_str_has_prefix (provenance, "auto: "))
    return g_strdup (_("Guessed from how the pages are laid out"));
  if (strcmp (provenance, "proposal: glyph names") == 0)
    return g_strdup (_("Proposed from the names the font gives its glyphs"));
  if (g_str_has_prefix (provenance, "proposal: code page "))
    /* Translators: %s is a legacy code page, like cp1251. */
    return g_strdup_printf (_("Proposed from the code page %s"),
                               provenance + strlen ("proposal: code page "));
  if (g_str_has_prefix (provenance, "proposal: "))
    return g_strdup (_("Proposed from the letters learned so far, which follow the font’s codes"));
  if (g_str_has_prefix (provenance, "accepted "))
    {
      g_autofree char *before = describe_before (provenance + strlen ("accepted "));

      /* Translators: the second sentence (ending in a full stop) says where the
       * proposal came from. */
      return g_strdup_printf (_("You accepted it when it was proposed. %s"), before);
    }
  if (g_str_has_prefix (provenance, "conflict: "))
    {
      g_autofree char *before = describe_before (provenance + strlen ("conflict: "));

      /* Translators: the second sentence (ending in a full stop) says where the value
       * first came from. */
      return g_strdup_printf (_("You chose it in an earlier conflict. %s"), before);
    }
  return g_strdup (provenance);
}

/* ---- rows --------------------------------------------------------------------------- */

static void
resolve_clicked_cb (GtkButton *button, DecipherConflictView *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "conflict"));
  gboolean take_proposed = GPOINTER_TO_UINT (
      g_object_get_data (G_OBJECT (button), "take-proposed"));
  g_autoptr (GError) error = NULL;

  if (self->matcher == NULL || index >= dc_matcher_get_n_conflicts (self->matcher))
    return;
  /* The engine's session settles it, and records it, as decipher-cli's "resolve" does. */
  if (!dc_session_resolve (decipher_session_get_engine (self->session), index, take_proposed,
                           &error))
    g_warning ("Could not resolve a conflict: %s", error->message);
  /* Settling one symbol settles every conflict about it: the list is built again. */
  decipher_conflict_view_update (self);
  g_signal_emit (self, signals[RESOLVED], 0);
}

static GtkWidget *
evidence_box (DecipherConflictView *self, const char *heading, const char *provenance, int glyph)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *described = describe_provenance (provenance);
  GtkWidget *title = gtk_label_new (heading);
  GtkWidget *from = gtk_label_new (described);

  gtk_widget_set_hexpand (box, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (from), 0);
  gtk_label_set_wrap (GTK_LABEL (from), TRUE);
  gtk_widget_add_css_class (from, "dim-label");
  gtk_widget_add_css_class (from, "caption");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), from);
  if (glyph >= 0)
    gtk_box_append (GTK_BOX (box), context_picture (self, (guint) glyph));
  return box;
}

static GtkWidget *
conflict_row (DecipherConflictView *self, guint index)
{
  const DcConflict *conflict = dc_matcher_get_conflict (self->matcher, index);
  DecipherShapeState state = DECIPHER_SHAPE_FAILED;
  GdkTexture *shape = self->shapes != NULL
                          ? decipher_glyph_shapes_lookup (self->shapes, conflict->symbol, &state)
                          : NULL;
  int new_glyph = conflict_glyph (self, conflict);
  int old_glyph = held_glyph (self, conflict->symbol, new_glyph);
  g_autofree char *held = g_strdup_printf (_("Held: “%s”"), conflict->current);
  g_autofree char *proposed = g_strdup_printf (_("New: “%s”"), conflict->proposed);
  g_autofree char *keep_label = g_strdup_printf (_("Keep “%s”"), conflict->current);
  g_autofree char *use_label = g_strdup_printf (_("Use “%s”"), conflict->proposed);
  g_autofree char *title = decipher_session_dup_symbol_title (self->session, conflict->symbol);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *tile = gtk_image_new_from_paintable (GDK_PAINTABLE (shape));
  GtkWidget *evidence = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *keep = gtk_button_new_with_label (keep_label);
  GtkWidget *use = gtk_button_new_with_label (use_label);

  /* An image, not a picture: a fixed size whatever the size the shape was drawn at. */
  gtk_image_set_pixel_size (GTK_IMAGE (tile), 64);
  gtk_widget_set_valign (tile, GTK_ALIGN_START);
  gtk_widget_add_css_class (tile, "glyph-tile");
  gtk_accessible_update_property (GTK_ACCESSIBLE (tile), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);

  gtk_box_append (GTK_BOX (evidence),
                  evidence_box (self, held, conflict->current_provenance, old_glyph));
  gtk_box_append (GTK_BOX (evidence),
                  evidence_box (self, proposed, conflict->proposed_provenance, new_glyph));

  g_object_set_data (G_OBJECT (keep), "conflict", GUINT_TO_POINTER (index));
  g_object_set_data (G_OBJECT (use), "conflict", GUINT_TO_POINTER (index));
  g_object_set_data (G_OBJECT (use), "take-proposed", GUINT_TO_POINTER (TRUE));
  g_signal_connect_object (keep, "clicked", G_CALLBACK (resolve_clicked_cb), self, 0);
  g_signal_connect_object (use, "clicked", G_CALLBACK (resolve_clicked_cb), self, 0);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), keep);
  gtk_box_append (GTK_BOX (buttons), use);
  gtk_box_append (GTK_BOX (evidence), buttons);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), tile);
  gtk_box_append (GTK_BOX (box), evidence);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  return row;
}

/* Builds the list again from the matcher's open conflicts. */
void
decipher_conflict_view_update (DecipherConflictView *self)
{
  GtkWidget *child;
  guint n;

  g_return_if_fail (DECIPHER_IS_CONFLICT_VIEW (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  n = self->matcher != NULL ? dc_matcher_get_n_conflicts (self->matcher) : 0;
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->list, conflict_row (self, i));
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "conflicts" : "empty");
}

/* ---- object ------------------------------------------------------------------------- */

void
decipher_conflict_view_set_session (DecipherConflictView *self, DecipherSession *session,
                                    DecipherGlyphShapes *shapes, DecipherPageRenderer *renderer)
{
  DcMatcher *matcher = session != NULL
                           ? dc_session_get_matcher (decipher_session_get_engine (session))
                           : NULL;

  g_return_if_fail (DECIPHER_IS_CONFLICT_VIEW (self));

  g_set_object (&self->session, session);
  g_set_object (&self->matcher, matcher);
  g_set_object (&self->shapes, shapes);
  g_set_object (&self->renderer, renderer);
  decipher_conflict_view_update (self);
}

GtkListBox *
decipher_conflict_view_get_list (DecipherConflictView *self)
{
  return self->list;
}

static void
decipher_conflict_view_dispose (GObject *object)
{
  DecipherConflictView *self = DECIPHER_CONFLICT_VIEW (object);

  g_clear_object (&self->session);
  g_clear_object (&self->matcher);
  g_clear_object (&self->shapes);
  g_clear_object (&self->renderer);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_CONFLICT_VIEW);

  G_OBJECT_CLASS (decipher_conflict_view_parent_class)->dispose (object);
}

static void
decipher_conflict_view_class_init (DecipherConflictViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_conflict_view_dispose;

  /* A conflict was settled: the key changed and the count of open ones went down. */
  signals[RESOLVED] = g_signal_new ("resolved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-conflict-view.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DecipherConflictView, stack);
  gtk_widget_class_bind_template_child (widget_class, DecipherConflictView, list);
}

static void
decipher_conflict_view_init (DecipherConflictView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
decipher_conflict_view_new (void)
{
  return g_object_new (DECIPHER_TYPE_CONFLICT_VIEW, NULL);
}
