/* decipher-occurrence-strip-cuts.c: a glyph cut from the page, large, and the value beside it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-occurrence-strip.c, which is the widget: the part of the page a
 * cut shows and its scale, the request to the page renderer's worker (taken back when the
 * picture is unmapped first), the cuts the conflict review and the review dialog show,
 * and the value drawn in an ordinary font to compare them with.
 */

#define G_LOG_DOMAIN "decipher-occurrence-strip"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-occurrence-strip-private.h"

#define CUT_EM_PIXELS 56.0 /* pixels per em of the glyph's font: body text reads easily */
#define CUT_MIN_SCALE 2.0  /* pixels per point, whatever the font size says */
#define CUT_MAX_SCALE 12.0
#define CUT_CONTEXT_EMS 5.0 /* context either side of the glyph: a word or two */
#define CUT_HEIGHT 80       /* pixels a cut is shown at, at most */
#define REFERENCE_POINTS 40 /* the value, drawn in an ordinary font beside each cut */

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
    _decipher_occurrence_strip_count_rendered (strip);
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
void
_decipher_occurrence_prepare_cut (GtkPicture *picture, DcSession *session, guint glyph)
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
 * has asked already; _decipher_occurrence_stop_cut() takes the request back. */
void
_decipher_occurrence_start_cut (GtkPicture *picture, DcSession *session,
                                DecipherPageRenderer *renderer, DecipherOccurrenceStrip *strip)
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

void
_decipher_occurrence_stop_cut (GtkPicture *picture)
{
  GCancellable *cancellable = g_object_get_data (G_OBJECT (picture), "cancellable");

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
  g_object_set_data (G_OBJECT (picture), "cancellable", NULL);
}

GtkWidget *
_decipher_occurrence_cut_picture_new (void)
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

  picture = _decipher_occurrence_cut_picture_new ();
  _decipher_occurrence_prepare_cut (GTK_PICTURE (picture), session, glyph);
  _decipher_occurrence_start_cut (GTK_PICTURE (picture), session, renderer, NULL);
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
      GtkWidget *picture = _decipher_occurrence_cut_picture_new ();

      /* The first, the last and between: different words, often different pages. */
      _decipher_occurrence_prepare_cut (GTK_PICTURE (picture), session,
                                        glyphs[n > 1 ? (guint) ((guint64) i * (n_glyphs - 1)
                                                                / (n - 1))
                                                     : 0]);
      g_signal_connect (picture, "unmap", G_CALLBACK (_decipher_occurrence_stop_cut), NULL);
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
    _decipher_occurrence_start_cut (GTK_PICTURE (child), session, renderer, NULL);
}

/* The value as it would be typeset, to compare with the glyph: an ordinary serif. */
GtkWidget *
_decipher_occurrence_reference_label_new (void)
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
