/* decipher-page-sidebar.c: a thumbnail of every page, to see where one is and go elsewhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As Papers' sidebar: a list of small pages, the one on screen selected, a click (or the
 * arrows and Enter) going to another. The list is a GtkListView, so a book of a thousand
 * pages makes rows only for the few on screen; each thumbnail is rendered by the page
 * renderer's worker (the only thread that touches poppler) when its row first shows, and
 * the most recent ones are kept within a budget.
 */

#define G_LOG_DOMAIN "decipher-page-sidebar"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-page-sidebar.h"

#define THUMB_WIDTH 112
#define THUMB_HEIGHT 150
/* 112 × 150 pixels at 4 bytes: 200 of them are 13 MB, a few screens of the list. */
#define MAX_THUMBNAILS 200

struct _DecipherPageSidebar
{
  GtkWidget parent_instance;

  DcSession *session;
  DecipherViewState *state; /* the page shown, shared with the window */
  DecipherPageRenderer *renderer;
  guint generation; /* bumped with each document: late thumbnails of the last one are dropped */
  GtkStringList *pages;
  GtkSingleSelection *selection;
  GPtrArray *thumbnails; /* of GdkTexture, per page, NULL until rendered */
  guint8 *pending;       /* per page: a render is under way */
  GQueue kept;           /* pages whose thumbnail is kept, the oldest first */
  GHashTable *bound;     /* page → the GtkPicture showing it */

  GtkScrolledWindow *scroller;
  GtkListView *list_view;
};

G_DEFINE_FINAL_TYPE (DecipherPageSidebar, decipher_page_sidebar, GTK_TYPE_WIDGET)

typedef struct
{
  GWeakRef sidebar;
  guint generation;
  guint page;
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_weak_ref_clear (&request->sidebar);
  g_free (request);
}

static void
keep_thumbnail (DecipherPageSidebar *self, guint page, GdkTexture *texture)
{
  g_ptr_array_index (self->thumbnails, page) = g_object_ref (texture);
  g_queue_push_tail (&self->kept, GUINT_TO_POINTER (page));
  /* The oldest go first, but rows on screen keep theirs: each kept page is looked at
   * once at most. */
  for (guint n = self->kept.length; n > 0 && self->kept.length > MAX_THUMBNAILS; n--)
    {
      guint oldest = GPOINTER_TO_UINT (g_queue_pop_head (&self->kept));

      if (g_hash_table_contains (self->bound, GUINT_TO_POINTER (oldest)))
        g_queue_push_tail (&self->kept, GUINT_TO_POINTER (oldest));
      else
        g_clear_object ((GdkTexture **) &g_ptr_array_index (self->thumbnails, oldest));
    }
}

static void
thumbnail_done_cb (GdkTexture *texture, gpointer data)
{
  Request *request = data;
  g_autoptr (DecipherPageSidebar) self = g_weak_ref_get (&request->sidebar);
  GtkPicture *picture;

  if (self == NULL || request->generation != self->generation
      || request->page >= self->thumbnails->len)
    return;
  self->pending[request->page] = FALSE;
  if (texture == NULL)
    return;
  keep_thumbnail (self, request->page, texture);
  picture = g_hash_table_lookup (self->bound, GUINT_TO_POINTER (request->page));
  if (picture != NULL)
    gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
}

static void
request_thumbnail (DecipherPageSidebar *self, guint page)
{
  DcDocument *document = dc_session_get_document (self->session);
  double width, height, scale;
  graphene_rect_t area;
  Request *request;

  if (self->pending[page] || self->renderer == NULL)
    return;
  dc_document_get_page_size (document, page, &width, &height);
  if (width <= 0 || height <= 0)
    return;
  scale = MIN (THUMB_WIDTH / width, THUMB_HEIGHT / height);
  graphene_rect_init (&area, 0, 0, width, height);
  request = g_new0 (Request, 1);
  g_weak_ref_init (&request->sidebar, self);
  request->generation = self->generation;
  request->page = page;
  self->pending[page] = TRUE;
  decipher_page_renderer_crop (self->renderer, page, &area, scale, thumbnail_done_cb, request,
                               request_free);
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherPageSidebar *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *picture = gtk_picture_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_size_request (picture, THUMB_WIDTH, THUMB_HEIGHT);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_halign (picture, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (picture, "page-thumbnail");
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), picture);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (item, box);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherPageSidebar *self)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *picture = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_last_child (box);
  guint page = gtk_list_item_get_position (item);
  g_autofree char *name = NULL;
  GdkTexture *texture;

  if (self->session == NULL || page >= self->thumbnails->len)
    return;
  gtk_label_set_text (GTK_LABEL (label), gtk_string_list_get_string (self->pages, page));
  /* Translators: how a screen reader names a page's thumbnail. */
  name = g_strdup_printf (_("Page %u"), page + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (picture), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  -1);
  texture = g_ptr_array_index (self->thumbnails, page);
  gtk_picture_set_paintable (GTK_PICTURE (picture),
                             texture != NULL ? GDK_PAINTABLE (texture) : NULL);
  g_hash_table_insert (self->bound, GUINT_TO_POINTER (page), picture);
  /* A hidden list binds rows too (as many as it might show): their pages are rendered
   * only once the sidebar is shown. */
  if (texture == NULL && gtk_widget_get_mapped (GTK_WIDGET (self)))
    request_thumbnail (self, page);
}

static void
unbind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, DecipherPageSidebar *self)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  guint page = gtk_list_item_get_position (item);

  if (box != NULL
      && g_hash_table_lookup (self->bound, GUINT_TO_POINTER (page))
             == gtk_widget_get_first_child (box))
    g_hash_table_remove (self->bound, GUINT_TO_POINTER (page));
}

static void
activate_cb (DecipherPageSidebar *self, guint position)
{
  if (self->state != NULL)
    decipher_view_state_set_page (self->state, position);
}

/* The page on screen is the one selected, and in sight in the list. */
static void
view_page_cb (DecipherPageSidebar *self)
{
  guint page;

  if (self->state == NULL || self->session == NULL)
    return;
  page = decipher_view_state_get_page (self->state);
  if (page >= g_list_model_get_n_items (G_LIST_MODEL (self->pages))
      || page == gtk_single_selection_get_selected (self->selection))
    return;
  /* Only activation turns pages, so following the view here cannot turn it back. */
  gtk_single_selection_set_selected (self->selection, page);
  if (gtk_widget_get_mapped (GTK_WIDGET (self->list_view)))
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", page);
}

/* Most pages have no thumbnail, and GPtrArray frees every slot. */
static void
unref_thumbnail (gpointer texture)
{
  if (texture != NULL)
    g_object_unref (texture);
}

static void
clear_document (DecipherPageSidebar *self)
{
  self->generation++;
  g_hash_table_remove_all (self->bound);
  g_queue_clear (&self->kept);
  g_clear_pointer (&self->thumbnails, g_ptr_array_unref);
  g_clear_pointer (&self->pending, g_free);
  g_clear_object (&self->renderer);
}

static void
fill_pages (DecipherPageSidebar *self)
{
  guint n_pages = self->thumbnails != NULL ? self->thumbnails->len : 0;
  g_autoptr (GPtrArray) labels = NULL;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->pages)) == n_pages)
    return;
  labels = g_ptr_array_new_full (n_pages + 1, g_free);
  for (guint page = 0; page < n_pages; page++)
    g_ptr_array_add (labels, g_strdup_printf ("%u", page + 1));
  g_ptr_array_add (labels, NULL);
  gtk_string_list_splice (self->pages, 0, g_list_model_get_n_items (G_LIST_MODEL (self->pages)),
                          (const char *const *) labels->pdata);
}

static void
decipher_page_sidebar_map (GtkWidget *widget)
{
  DecipherPageSidebar *self = DECIPHER_PAGE_SIDEBAR (widget);
  GHashTableIter iter;
  gpointer page;

  GTK_WIDGET_CLASS (decipher_page_sidebar_parent_class)->map (widget);

  if (self->session == NULL)
    return;
  fill_pages (self);
  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &page, NULL))
    if (g_ptr_array_index (self->thumbnails, GPOINTER_TO_UINT (page)) == NULL)
      request_thumbnail (self, GPOINTER_TO_UINT (page));
  view_page_cb (self);
}

static void
decipher_page_sidebar_dispose (GObject *object)
{
  DecipherPageSidebar *self = DECIPHER_PAGE_SIDEBAR (object);

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  clear_document (self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_PAGE_SIDEBAR);

  G_OBJECT_CLASS (decipher_page_sidebar_parent_class)->dispose (object);
}

static void
decipher_page_sidebar_finalize (GObject *object)
{
  DecipherPageSidebar *self = DECIPHER_PAGE_SIDEBAR (object);

  g_clear_object (&self->selection);
  g_clear_pointer (&self->bound, g_hash_table_unref);

  G_OBJECT_CLASS (decipher_page_sidebar_parent_class)->finalize (object);
}

static void
decipher_page_sidebar_class_init (DecipherPageSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_page_sidebar_dispose;
  object_class->finalize = decipher_page_sidebar_finalize;
  widget_class->map = decipher_page_sidebar_map;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-page-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, DecipherPageSidebar, scroller);
  gtk_widget_class_bind_template_child (widget_class, DecipherPageSidebar, list_view);
}

static void
decipher_page_sidebar_init (DecipherPageSidebar *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->bound = g_hash_table_new (NULL, NULL);
  self->pages = gtk_string_list_new (NULL);
  /* The selection model owns the list: one reference for the view to hold. */
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->pages));
  gtk_single_selection_set_can_unselect (self->selection, FALSE);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  g_signal_connect_swapped (self->list_view, "activate", G_CALLBACK (activate_cb), self);
}

/* The page shown: the sidebar selects it, and an activated row turns to its page. */
void
decipher_page_sidebar_set_view_state (DecipherPageSidebar *self, DecipherViewState *state)
{
  g_return_if_fail (DECIPHER_IS_PAGE_SIDEBAR (self));
  g_return_if_fail (state == NULL || DECIPHER_IS_VIEW_STATE (state));

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_set_object (&self->state, state);
  if (state != NULL)
    g_signal_connect_swapped (state, "notify::page", G_CALLBACK (view_page_cb), self);
}

/**
 * decipher_page_sidebar_set_session:
 * @renderer: (nullable): what draws @session's pages, shared with the document view
 */
void
decipher_page_sidebar_set_session (DecipherPageSidebar *self, DcSession *session,
                                   DecipherPageRenderer *renderer)
{
  guint n_pages;

  g_return_if_fail (DECIPHER_IS_PAGE_SIDEBAR (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));

  clear_document (self);
  g_set_object (&self->session, session);
  n_pages = session != NULL ? dc_document_get_n_pages (dc_session_get_document (session)) : 0;
  self->thumbnails = g_ptr_array_new_full (n_pages, unref_thumbnail);
  g_ptr_array_set_size (self->thumbnails, n_pages);
  self->pending = g_new0 (guint8, MAX (1, n_pages));
  if (session != NULL && renderer != NULL)
    self->renderer = g_object_ref (renderer);
  /* Rows cost the main thread (a list binds up to 200 even while hidden): made when the
   * sidebar is first shown for this document, not when the document opens. */
  gtk_string_list_splice (self->pages, 0, g_list_model_get_n_items (G_LIST_MODEL (self->pages)),
                          NULL);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      fill_pages (self);
      view_page_cb (self);
    }
}

GtkListView *
decipher_page_sidebar_get_list_view (DecipherPageSidebar *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_SIDEBAR (self), NULL);

  return self->list_view;
}

/* How many pages have their thumbnail now. */
guint
decipher_page_sidebar_get_n_thumbnails (DecipherPageSidebar *self)
{
  guint n = 0;

  g_return_val_if_fail (DECIPHER_IS_PAGE_SIDEBAR (self), 0);

  for (guint page = 0; self->thumbnails != NULL && page < self->thumbnails->len; page++)
    n += g_ptr_array_index (self->thumbnails, page) != NULL;
  return n;
}
