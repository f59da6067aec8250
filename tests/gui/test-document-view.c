/* test-document-view.c: pages, highlights, hit testing, zoom and the glyph popover
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "decipher-document-view.h"
#include "gui-test-util.h"

typedef struct
{
  GtkWindow *window;
  DecipherDocumentView *view;
  DecipherSession *session;
} Fixture;

static void
fixture_open (Fixture *f, const char *name)
{
  g_autoptr (GFile) file = gui_test_fixture_copy (name);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  f->session = gui_test_load_session (file, NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 900, 800);
  f->view = g_object_ref_sink (g_object_new (DECIPHER_TYPE_DOCUMENT_VIEW, NULL));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (f->view));
  gtk_window_set_child (f->window, scroller);
  decipher_document_view_set_session (f->view, decipher_session_get_engine (f->session),
                                      decipher_session_get_render_file (f->session),
                                      decipher_session_get_password (f->session));
  gtk_window_present (f->window);
}

static void
fixture_close (Fixture *f)
{
  /* The X pointer rests over the window: GTK 4.8's tooltip timer must not outlive it, as
   * it does not for a user who moves the mouse to close it. */
  gui_test_pointer_away (f->window);
  gtk_window_destroy (f->window);
  gui_test_settle ();
  g_assert_finalize_object (f->view);
  g_assert_finalize_object (f->session);
}

static gboolean
drew_highlights (DecipherDocumentView *view)
{
  return decipher_document_view_get_n_drawn_highlights (view) > 0;
}

static gboolean
page_rendered_exactly (DecipherDocumentView *view)
{
  gboolean exact = FALSE;

  return decipher_page_renderer_lookup (decipher_document_view_get_renderer (view), 0, &exact)
             != NULL
         && exact;
}

static void
test_highlights (void)
{
  Fixture f;
  guint to_decode_glyphs, decoded_glyphs;

  fixture_open (&f, "legacy-cyrillic.pdf");
  dc_key_count_to_decode (decipher_session_get_key (f.session), NULL, &to_decode_glyphs);
  /* What the automatic pass guessed (the space, the full stop) is not highlighted. */
  dc_key_count_decoded (decipher_session_get_key (f.session), NULL, &decoded_glyphs);
  g_assert_cmpuint (decipher_document_view_get_n_highlighted (f.view), ==,
                    to_decode_glyphs - decoded_glyphs);
  GUI_TEST_WAIT (drew_highlights, f.view, "highlights drawn");
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the first page rendered");
  g_assert_cmpuint (decipher_document_view_get_n_drawn_highlights (f.view), <=, to_decode_glyphs);
  fixture_close (&f);
}

static void
test_hit_testing (void)
{
  Fixture f;
  guint n_glyphs, hits = 0, tried = 0;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (drew_highlights, f.view, "the view drawn");
  dc_document_get_glyphs (decipher_session_get_document (f.session), &n_glyphs);
  for (guint g = 0; g < n_glyphs && tried < 200; g++)
    {
      graphene_rect_t area;
      graphene_point_t center;
      int found;

      g_assert_true (decipher_document_view_get_glyph_area (f.view, g, &area));
      graphene_rect_get_center (&area, &center);
      if (center.y < 0 || center.y > gtk_widget_get_height (GTK_WIDGET (f.view)))
        continue;
      tried++;
      found = decipher_document_view_glyph_at (f.view, center.x, center.y);
      /* Boxes may overlap (a mark over a letter): the glyph found contains the point. */
      g_assert_cmpint (found, >=, 0);
      if ((guint) found == g)
        hits++;
      g_assert_true (decipher_document_view_get_glyph_area (f.view, found, &area));
      g_assert_true (graphene_rect_contains_point (&area, &center));
    }
  g_assert_cmpuint (tried, >, 50);
  g_assert_cmpuint (hits, >, tried * 9 / 10);
  /* Outside the pages there is nothing. */
  g_assert_cmpint (decipher_document_view_glyph_at (f.view, 2, 2), ==, -1);
  fixture_close (&f);
}

static void
test_zoom (void)
{
  Fixture f;
  DecipherPageRenderer *renderer;
  GtkAdjustment *vadjustment;
  double upper;
  guint generation;

  fixture_open (&f, "legacy-cyrillic.pdf");
  renderer = decipher_document_view_get_renderer (f.view);
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the first render");
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (f.view));
  upper = gtk_adjustment_get_upper (vadjustment);
  generation = decipher_page_renderer_get_generation (renderer);

  /* Two zooms in a row: the first one's renders are stale and dropped. */
  decipher_document_view_set_zoom (f.view, 1.5);
  decipher_document_view_set_zoom (f.view, 2.0);
  g_assert_cmpuint (decipher_page_renderer_get_generation (renderer), ==, generation + 2);
  GUI_TEST_WAIT_FOR (gtk_adjustment_get_upper (vadjustment) > upper * 1.8,
                     "the view to grow to the new zoom");
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the page at the new zoom");
  g_assert_cmpfloat (decipher_page_renderer_get_scale (renderer), ==,
                     2.0 * gtk_widget_get_scale_factor (GTK_WIDGET (f.view)));
  g_assert_cmpuint (decipher_page_renderer_get_cache_bytes (renderer), <=,
                    DECIPHER_PAGE_CACHE_BYTES);

  decipher_document_view_set_zoom (f.view, 1000);
  g_assert_cmpfloat (decipher_document_view_get_zoom (f.view), ==, DECIPHER_ZOOM_MAX);
  decipher_document_view_set_zoom (f.view, 0);
  g_assert_cmpfloat (decipher_document_view_get_zoom (f.view), ==, DECIPHER_ZOOM_MIN);
  decipher_document_view_set_zoom (f.view, 1.0);

  /* Page navigation. */
  decipher_document_view_set_page (f.view, 1);
  GUI_TEST_WAIT_FOR (decipher_document_view_get_page (f.view) == 1, "the view to show page 2");
  fixture_close (&f);
}

static void
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* Under the cairo renderer the view paints each page's cairo surface from a node that
 * holds it: a page replaced by a new render while a frame still shows it stays until
 * that frame goes, rather than being copied whole. */
static void
test_page_outlives_frame (void)
{
  static const cairo_user_data_key_t key;
  Fixture f;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  cairo_surface_t *surface;
  gboolean exact, gone = FALSE;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the first render");
  if (!GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (f.window))))
    {
      g_test_skip ("the view paints surfaces only under the cairo renderer (GSK_RENDERER=cairo)");
      fixture_close (&f);
      return;
    }
  surface = decipher_page_renderer_lookup_surface (decipher_document_view_get_renderer (f.view), 0,
                                                   &exact);
  cairo_surface_set_user_data (surface, &key, &gone, set_true);

  /* A frame of the page, as GTK keeps one until the next. */
  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (f.view)->snapshot (GTK_WIDGET (f.view), snapshot);
  node = gtk_snapshot_free_to_node (snapshot);

  decipher_document_view_set_zoom (f.view, 2.0);
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the page at the new zoom");
  /* A frame at the new zoom: GTK keeps nothing of the old page's any more. */
  gui_test_wait_frame (GTK_WIDGET (f.view));
  g_assert_false (gone);
  gsk_render_node_unref (node);
  g_assert_true (gone);
  fixture_close (&f);
}

/* The cairo nodes in @node's tree, in @nodes. */
static void
collect_cairo_nodes (GskRenderNode *node, GPtrArray *nodes)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CAIRO_NODE:
      g_ptr_array_add (nodes, node);
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        collect_cairo_nodes (gsk_container_node_get_child (node, i), nodes);
      break;
    case GSK_TRANSFORM_NODE:
      collect_cairo_nodes (gsk_transform_node_get_child (node), nodes);
      break;
    case GSK_CLIP_NODE:
      collect_cairo_nodes (gsk_clip_node_get_child (node), nodes);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      collect_cairo_nodes (gsk_rounded_clip_node_get_child (node), nodes);
      break;
    case GSK_OPACITY_NODE:
      collect_cairo_nodes (gsk_opacity_node_get_child (node), nodes);
      break;
    default:
      break;
    }
}

static GskRenderNode *
snapshot_view (DecipherDocumentView *view)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  GTK_WIDGET_GET_CLASS (view)->snapshot (GTK_WIDGET (view), snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}

/* Under the cairo renderer a frame repaints what differs from the last one, and a node
 * seen in the last frame does not differ: the page keeps its node from frame to frame
 * until its image or its size changes, so a highlight that changes does not repaint the
 * whole page. */
static void
test_page_node_kept (void)
{
  g_autoptr (GPtrArray) first = g_ptr_array_new ();
  g_autoptr (GPtrArray) second = g_ptr_array_new ();
  g_autoptr (GPtrArray) zoomed = g_ptr_array_new ();
  GskRenderNode *before, *after, *node;
  Fixture f;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the first render");
  if (!GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (f.window))))
    {
      g_test_skip (
          "the view paints cairo nodes only under the cairo renderer (GSK_RENDERER=cairo)");
      fixture_close (&f);
      return;
    }

  before = snapshot_view (f.view);
  after = snapshot_view (f.view);
  collect_cairo_nodes (before, first);
  collect_cairo_nodes (after, second);
  g_assert_cmpuint (first->len, >, 0);
  g_assert_cmpuint (first->len, ==, second->len);
  for (guint i = 0; i < first->len; i++)
    g_assert_true (g_ptr_array_index (first, i) == g_ptr_array_index (second, i));

  /* A new zoom paints a new image, with a node of its own. */
  decipher_document_view_set_zoom (f.view, 2.0);
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the page at the new zoom");
  node = snapshot_view (f.view);
  collect_cairo_nodes (node, zoomed);
  g_assert_cmpuint (zoomed->len, >, 0);
  for (guint i = 0; i < zoomed->len; i++)
    g_assert_false (g_ptr_array_find (first, g_ptr_array_index (zoomed, i), NULL));

  gsk_render_node_unref (node);
  gsk_render_node_unref (before);
  gsk_render_node_unref (after);
  fixture_close (&f);
}

static void
glyph_activated_cb (DecipherDocumentView *view, guint symbol, guint *out)
{
  *out = symbol;
}

static void
test_activate_glyph (void)
{
  Fixture f;
  DecipherGlyphPopover *popover;
  const DcGlyph *glyphs;
  guint activated = DC_SYMBOL_NONE, glyph = 0, n_glyphs;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (drew_highlights, f.view, "the view drawn");
  glyphs = dc_document_get_glyphs (decipher_session_get_document (f.session), &n_glyphs);
  while (
      !dc_session_symbol_is_unknown (decipher_session_get_engine (f.session), glyphs[glyph].symbol))
    glyph++;

  g_signal_connect (f.view, "glyph-activated", G_CALLBACK (glyph_activated_cb), &activated);
  decipher_document_view_activate_glyph (f.view, glyph);
  g_assert_cmpuint (activated, ==, glyphs[glyph].symbol);
  popover = decipher_document_view_get_popover (f.view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));

  /* The selected symbol's occurrences are outlined. */
  gtk_widget_queue_draw (GTK_WIDGET (f.view));
  GUI_TEST_WAIT_FOR (decipher_document_view_get_n_drawn_outlines (f.view) > 0,
                     "the selected symbol's outlines drawn");

  /* A value the engine refuses keeps the popover open and says why. */
  decipher_glyph_popover_set_text (popover, "\x01");
  g_assert_false (decipher_glyph_popover_assign (popover));
  g_assert_nonnull (decipher_glyph_popover_get_error (popover));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  gui_test_screenshot ("view-popover-error");
  decipher_glyph_popover_set_text (popover, "");
  g_assert_false (decipher_glyph_popover_assign (popover));

  decipher_glyph_popover_set_text (popover, "ж");
  g_assert_true (decipher_glyph_popover_assign (popover));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (f.session), glyphs[glyph].symbol),
                   ==, "ж");
  g_assert_null (decipher_glyph_popover_get_error (popover));
  fixture_close (&f);
}

static guint
symbol_of_code (DecipherSession *session, guint32 code)
{
  DcDocument *document = decipher_session_get_document (session);
  guint symbol;

  for (guint font = 0; font < dc_document_get_n_fonts (document); font++)
    if (!dc_font_is_trusted (dc_document_get_font (document, font))
        && dc_document_lookup_symbol (document, font, code, &symbol))
      return symbol;
  g_assert_not_reached ();
}

/* legacy-cyrillic puts Russian where CP1251 does: after six letters are taught, the
 * engine proposes the rest, and the popover offers the proposal to confirm. */
static void
test_proposals (void)
{
  const struct
  {
    guint32 code;
    const char *value;
  } taught[] = {
    { 0xE0, "а" }, { 0xEE, "о" }, { 0xE5, "е" }, { 0xF2, "т" }, { 0xED, "н" }, { 0xF0, "р" },
  };
  Fixture f;
  DcKey *key;
  DecipherGlyphPopover *popover;
  const guint32 *occurrences;
  guint symbol, n;

  fixture_open (&f, "legacy-cyrillic.pdf");
  key = decipher_session_get_key (f.session);
  /* Earlier tests' autosaved assignments (some deliberately wrong) are forgotten. */
  dc_document_get_symbols (decipher_session_get_document (f.session), &n);
  for (guint s = 0; s < n; s++)
    if (dc_key_get_status (key, s) == DC_KEY_CONFIRMED)
      dc_key_forget (key, s);
  for (guint i = 0; i < G_N_ELEMENTS (taught); i++)
    g_assert_true (dc_session_assign (decipher_session_get_engine (f.session),
                                      symbol_of_code (f.session, taught[i].code), taught[i].value,
                                      NULL));

  symbol = symbol_of_code (f.session, 0xEB); /* л in CP1251 */
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_PROPOSED);
  g_assert_cmpstr (dc_key_peek_value (key, symbol), ==, "л");
  /* A proposal is shown, never taken as text: the glyphs stay highlighted. */
  g_assert_true (dc_session_symbol_is_unknown (decipher_session_get_engine (f.session), symbol));

  occurrences = dc_document_get_symbol_glyphs (decipher_session_get_document (f.session), symbol, &n);
  decipher_document_view_activate_glyph (f.view, occurrences[0]);
  popover = decipher_document_view_get_popover (f.view);
  g_assert_true (decipher_glyph_popover_has_proposal (popover));
  gui_test_screenshot ("view-proposal");
  g_assert_true (decipher_glyph_popover_accept_proposal (popover));
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_value (key, symbol), ==, "л");
  g_assert_true (g_str_has_prefix (dc_key_get_provenance (key, symbol), "accepted "));

  /* One Ctrl+Z takes back the acceptance, not the proposal. */
  g_assert_true (dc_key_undo (key));
  g_assert_cmpint (dc_key_get_status (key, symbol), ==, DC_KEY_PROPOSED);
  fixture_close (&f);
}

static gboolean
drew_marks (DecipherDocumentView *view)
{
  return decipher_document_view_get_n_drawn_marks (view) > 0;
}

/* What the input pane and the conflict review will point out: drawn, then cleared. */
static void
test_marks (void)
{
  Fixture f;
  guint first, n;
  g_autofree guint32 *glyphs = NULL;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (drew_highlights, f.view, "the view drawn");
  g_assert_cmpuint (decipher_document_view_get_n_drawn_marks (f.view), ==, 0);
  dc_document_get_page_glyphs (decipher_session_get_document (f.session), 0, &first, &n);
  glyphs = g_new (guint32, 5);
  for (guint i = 0; i < 5; i++)
    glyphs[i] = first + 40 - i; /* any order */
  decipher_document_view_set_marks (f.view, DECIPHER_MARK_SUGGESTION, glyphs, 3);
  decipher_document_view_set_marks (f.view, DECIPHER_MARK_CONFLICT, glyphs + 3, 2);
  GUI_TEST_WAIT (drew_marks, f.view, "the marks drawn");
  g_assert_cmpuint (decipher_document_view_get_n_drawn_marks (f.view), ==, 5);
  gui_test_screenshot ("view-marks");
  decipher_document_view_set_marks (f.view, DECIPHER_MARK_SUGGESTION, NULL, 0);
  decipher_document_view_set_marks (f.view, DECIPHER_MARK_CONFLICT, NULL, 0);
  GUI_TEST_WAIT_FOR (decipher_document_view_get_n_drawn_marks (f.view) == 0, "the marks taken off");
  fixture_close (&f);
}

static void
page_ready_cb (DecipherPageRenderer *renderer, guint page, guint *count)
{
  (*count)++;
}

static gboolean
positive (guint *count)
{
  return *count > 0;
}

static void
test_renderer_alone (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("rotated.pdf");
  DecipherPageRenderer *renderer = decipher_page_renderer_new (file, NULL);
  guint ready = 0;
  gboolean exact;
  GdkTexture *texture;

  g_signal_connect (renderer, "page-ready", G_CALLBACK (page_ready_cb), &ready);
  decipher_page_renderer_set_scale (renderer, 1.0);
  decipher_page_renderer_request (renderer, 0);
  decipher_page_renderer_request (renderer, 0); /* asked twice, rendered once */
  GUI_TEST_WAIT (positive, &ready, "a page render");
  gui_test_settle ();
  /* The second request found the first pending and queued nothing. */
  g_assert_cmpuint (decipher_page_renderer_get_n_rendered (renderer), ==, 1);
  g_assert_cmpuint (ready, ==, 1);
  texture = decipher_page_renderer_lookup (renderer, 0, &exact);
  g_assert_nonnull (texture);
  g_assert_true (exact);
  /* The displayed page of rotated.pdf is landscape, 700 × 540 points. */
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 700);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 540);
  g_assert_finalize_object (renderer);
}

/* Page 1 of @file at 72 dpi, as the view's renderer draws it, in grey levels. */
static guint8 *
render_grey (GFile *file, int *width, int *height)
{
  DecipherPageRenderer *renderer = decipher_page_renderer_new (file, NULL);
  g_autofree guint8 *rgba = NULL;
  guint8 *grey;
  guint ready = 0;
  gboolean exact;
  GdkTexture *texture;

  g_signal_connect (renderer, "page-ready", G_CALLBACK (page_ready_cb), &ready);
  decipher_page_renderer_set_scale (renderer, 1.0);
  decipher_page_renderer_request (renderer, 0);
  GUI_TEST_WAIT (positive, &ready, "a page render");
  texture = decipher_page_renderer_lookup (renderer, 0, &exact);
  g_assert_nonnull (texture);
  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  rgba = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, rgba, (gsize) *width * 4);
  grey = g_malloc ((gsize) *width * *height);
  for (gsize i = 0; i < (gsize) *width * *height; i++)
    grey[i] = rgba[4 * i + 1];
  g_assert_finalize_object (renderer);
  return grey;
}

/* A font the PDF does not embed, drawn by the glyph numbers of the installed DejaVu Sans:
 * poppler would draw other letters from the original, so the view draws the copy that
 * dc_repair_write_render_copy() made, which looks like the page with the font embedded. */
static void
test_render_copy (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("installed-font.pdf");
  g_autoptr (GFile) reference = gui_test_fixture_copy ("installed-embedded.pdf");
  g_autoptr (DecipherSession) session = gui_test_load_session (file, NULL);
  g_autoptr (GFile) cache = g_file_new_for_path (g_get_user_cache_dir ());
  GFile *render_file = decipher_session_get_render_file (session);
  g_autofree guint8 *drawn = NULL;
  g_autofree guint8 *expected = NULL;
  int width, height, expected_width, expected_height;
  guint inked = 0, differing = 0;

  g_assert_false (g_file_equal (render_file, file));
  g_assert_true (g_file_has_prefix (render_file, cache));
  drawn = render_grey (render_file, &width, &height);
  expected = render_grey (reference, &expected_width, &expected_height);
  g_assert_cmpint (width, ==, expected_width);
  g_assert_cmpint (height, ==, expected_height);
  for (int i = 0; i < width * height; i++)
    if (drawn[i] < 192 || expected[i] < 192)
      {
        inked++;
        differing += ABS (drawn[i] - expected[i]) > 64;
      }
  g_assert_cmpuint (inked, >, 1000);
  g_assert_cmpuint (differing, <, inked / 20);

  /* A PDF poppler draws right is drawn from itself. */
  {
    g_autoptr (GFile) clean = gui_test_fixture_copy ("clean.pdf");
    g_autoptr (DecipherSession) clean_session = gui_test_load_session (clean, NULL);

    g_assert_true (g_file_equal (decipher_session_get_render_file (clean_session), clean));
  }
}

typedef struct
{
  DecipherDocumentView *view;
  guint first, last; /* the first and last glyph of the page */
} PageShown;

/* The page's first and last glyphs both in the view. */
static gboolean
page_whole_in_view (PageShown *shown)
{
  graphene_rect_t first, last;
  int height = gtk_widget_get_height (GTK_WIDGET (shown->view));

  return decipher_document_view_get_glyph_area (shown->view, shown->first, &first)
         && decipher_document_view_get_glyph_area (shown->view, shown->last, &last)
         && first.origin.y >= 0 && last.origin.y + last.size.height <= height;
}

/* Issue 31.10: Fit Page scrolled to the page's top at the old zoom's extent, and the
 * zoom's own anchor then put the view elsewhere: reading the top of page 2, Fit Page
 * left page 1 current. It shows page 2, whole, and page 2 stays the current one. */
static void
test_fit_page_keeps_page (void)
{
  const DcGlyph *glyphs;
  PageShown shown;
  guint n_glyphs;
  Fixture f;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (drew_highlights, f.view, "the view drawn");
  glyphs = dc_document_get_glyphs (decipher_session_get_document (f.session), &n_glyphs);
  shown.view = f.view;
  shown.first = shown.last = G_MAXUINT;
  for (guint g = 0; g < n_glyphs; g++)
    if (glyphs[g].page == 1)
      {
        if (shown.first == G_MAXUINT)
          shown.first = g;
        shown.last = g;
      }
  g_assert_cmpuint (shown.first, !=, G_MAXUINT);

  decipher_document_view_set_zoom (f.view, 3.0);
  gui_test_wait_frame (GTK_WIDGET (f.view));
  /* Reading the top of page 2. */
  decipher_document_view_set_page (f.view, 1);
  gui_test_wait_frame (GTK_WIDGET (f.view));
  g_assert_cmpuint (decipher_document_view_get_page (f.view), ==, 1);
  g_assert_false (page_whole_in_view (&shown));

  decipher_document_view_fit_page (f.view);
  gui_test_wait_frame (GTK_WIDGET (f.view));
  GUI_TEST_WAIT (page_whole_in_view, &shown, "page 2 whole in the view");
  g_assert_cmpuint (decipher_document_view_get_page (f.view), ==, 1);
  fixture_close (&f);
}

/* The view as the screen shows it, as bytes (GDK_MEMORY_DEFAULT: B, G, R, A). */
static guchar *
view_pixels (DecipherDocumentView *view, int *width, int *height)
{
  GtkWidget *widget = GTK_WIDGET (view);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GskRenderer) renderer = NULL;
  guchar *pixels;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, snapshot, *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  /* Drawn by a cairo renderer of the test's own: what the view draws, whichever renderer
   * the window uses, read back the same way. */
  renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  gsk_renderer_unrealize (renderer);
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

static double
channel_luminance (guchar value)
{
  double c = value / 255.0;

  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* WCAG's contrast ratio of a pixel against white paper. */
static double
contrast_with_paper (const guchar *pixel)
{
  double l = 0.2126 * channel_luminance (pixel[2]) + 0.7152 * channel_luminance (pixel[1])
             + 0.0722 * channel_luminance (pixel[0]);

  return 1.05 / (l + 0.05);
}

/* The strongest contrast with the paper on the ring of pixels just around @area, where
 * the highlight may draw but the glyph's ink does not. */
static double
ring_contrast (const guchar *pixels, int width, int height, const graphene_rect_t *area)
{
  int x0 = (int) floor (area->origin.x) - 1, y0 = (int) floor (area->origin.y) - 1;
  int x1 = (int) ceil (area->origin.x + area->size.width);
  int y1 = (int) ceil (area->origin.y + area->size.height);
  double best = 1;

  for (int x = x0 + 1; x < x1; x++)
    for (int i = 0; i < 2; i++)
      {
        int y = i == 0 ? y0 : y1;

        if (x >= 0 && x < width && y >= 0 && y < height)
          best = MAX (best, contrast_with_paper (pixels + ((gsize) y * width + x) * 4));
      }
  return best;
}

static gboolean
style_high_contrast (gpointer data)
{
  return adw_style_manager_get_high_contrast (adw_style_manager_get_default ())
         == GPOINTER_TO_INT (data);
}

/* Issue 31.9: in high contrast the highlight of a glyph still to decode was the same
 * pale wash, barely apart from the paper. There it has an outline at over 3:1 (WCAG's
 * bar for what is not text). GNOME's setting is read through libadwaita. */
static void
test_high_contrast_highlight (void)
{
  g_autoptr (GSettings) a11y = g_settings_new ("org.gnome.desktop.a11y.interface");
  const DcGlyph *glyphs;
  g_autofree guchar *normal = NULL;
  g_autofree guchar *high = NULL;
  graphene_rect_t area;
  guint n_glyphs, glyph;
  int width, height;
  double normal_contrast, high_contrast;
  Fixture f;

  fixture_open (&f, "legacy-cyrillic.pdf");
  GUI_TEST_WAIT (drew_highlights, f.view, "highlights drawn");
  GUI_TEST_WAIT (page_rendered_exactly, f.view, "the first page rendered");
  glyphs = dc_document_get_glyphs (decipher_session_get_document (f.session), &n_glyphs);
  /* A glyph to decode on screen with nothing else drawn just above or below it. */
  for (glyph = 0; glyph < n_glyphs; glyph++)
    {
      graphene_point_t above, below;

      if (!dc_session_symbol_is_unknown (decipher_session_get_engine (f.session),
                                         glyphs[glyph].symbol)
          || !decipher_document_view_get_glyph_area (f.view, glyph, &area) || area.origin.y < 4
          || area.origin.y + area.size.height > gtk_widget_get_height (GTK_WIDGET (f.view)) - 4
          || area.size.width < 4)
        continue;
      graphene_point_init (&above, area.origin.x + area.size.width / 2, area.origin.y - 1);
      graphene_point_init (&below, above.x, area.origin.y + area.size.height + 1);
      if (decipher_document_view_glyph_at (f.view, above.x, above.y) == -1
          && decipher_document_view_glyph_at (f.view, below.x, below.y) == -1)
        break;
    }
  g_assert_cmpuint (glyph, <, n_glyphs);

  gui_test_wait_frame (GTK_WIDGET (f.view));
  normal = view_pixels (f.view, &width, &height);
  normal_contrast = ring_contrast (normal, width, height, &area);

  g_settings_set_boolean (a11y, "high-contrast", TRUE);
  GUI_TEST_WAIT (style_high_contrast, GINT_TO_POINTER (TRUE), "the style in high contrast");
  gui_test_wait_frame (GTK_WIDGET (f.view));
  high = view_pixels (f.view, &width, &height);
  high_contrast = ring_contrast (high, width, height, &area);
  gui_test_screenshot ("document-view-high-contrast");
  g_test_message ("around glyph %u: contrast with the paper %.2f:1, in high contrast %.2f:1", glyph,
                  normal_contrast, high_contrast);
  g_assert_cmpfloat (high_contrast, >=, 3.0);
  g_assert_cmpfloat (high_contrast, >, normal_contrast);

  g_settings_reset (a11y, "high-contrast");
  GUI_TEST_WAIT (style_high_contrast, GINT_TO_POINTER (FALSE), "the style back to normal");
  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/document-view/highlights", test_highlights);
  g_test_add_func ("/document-view/hit-testing", test_hit_testing);
  g_test_add_func ("/document-view/zoom", test_zoom);
  g_test_add_func ("/document-view/page-outlives-frame", test_page_outlives_frame);
  g_test_add_func ("/document-view/page-node-kept", test_page_node_kept);
  g_test_add_func ("/document-view/activate-glyph", test_activate_glyph);
  g_test_add_func ("/document-view/marks", test_marks);
  g_test_add_func ("/document-view/proposals", test_proposals);
  g_test_add_func ("/document-view/renderer-alone", test_renderer_alone);
  g_test_add_func ("/document-view/render-copy", test_render_copy);
  g_test_add_func ("/document-view/high-contrast-highlight", test_high_contrast_highlight);
  g_test_add_func ("/document-view/fit-page-keeps-page", test_fit_page_keeps_page);
  return g_test_run ();
}
