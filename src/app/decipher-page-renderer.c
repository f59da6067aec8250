/* decipher-page-renderer.c: pages rendered off the main thread, cached within a budget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler is not safe to use from two threads on one document, so one worker thread
 * opens its own PopplerDocument and is the only code that ever touches it (the engine's
 * DcDocument reads the file through its own bridge). The main thread queues jobs and
 * gets textures back through its main context; it never waits for poppler.
 *
 * Zooming bumps a generation counter: queued jobs of an older generation are skipped,
 * and their results, if a render was already under way, are dropped on arrival. Until
 * the new render lands, the view scales whatever texture it has.
 *
 * Each page is kept both as a GdkTexture and as the cairo image surface it was drawn
 * in (one buffer, shared). GPU renderers upload a texture once and reuse it; GTK 4.8's
 * cairo renderer instead converts every texture it draws, pixel by pixel through
 * floats, at every frame — 40 to 90 ms for two pages at 300%. Under that renderer the
 * view paints the surface, clipped to what is on screen, instead.
 */

#define G_LOG_DOMAIN "decipher-renderer"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <poppler.h>

#include "dc-poppler-lock.h"
#include "decipher-page-renderer.h"

/* A page is never rendered larger than this many pixels, whatever the zoom: the view
 * scales a texture up past it rather than allocating hundreds of megabytes. */
#define MAX_PAGE_PIXELS (8000.0 * 8000.0)

typedef enum
{
  JOB_PAGE,
  JOB_CROP,
} JobKind;

typedef struct
{
  JobKind kind;
  guint page;
  guint generation;
  double scale;
  graphene_rect_t area; /* crops: page points */
  graphene_rect_t mark; /* crops: the glyph to box, page points; empty for none */
  GCancellable *cancellable;
  DecipherCropFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
} Job;

/* What the worker and the main thread share. Everything but `owner` is guarded by
 * `lock`; `owner` is only read and written on the main thread. */
typedef struct
{
  GMutex lock;
  GCond cond;
  GQueue page_jobs; /* newest last: the worker takes the newest first */
  GQueue crop_jobs;
  gboolean quit;
  guint generation;
  GMainContext *context;
  char *uri;
  char *password;
  DecipherPageRenderer *owner;
} Shared;

typedef struct
{
  Shared *shared;
  Job *job;
  GBytes *bytes;
  cairo_surface_t *surface; /* what @bytes hold */
  int width;
  int height;
  int stride;
  char *error;
} Result;

typedef struct
{
  GdkTexture *texture;
  cairo_surface_t *surface; /* the texture's pixels */
  GList *lru_link;
  gsize bytes;
  guint page;
  guint generation;
} Entry;

struct _DecipherPageRenderer
{
  GObject parent_instance;

  Shared *shared;
  GFile *file;    /* what the worker opens */
  char *password; /* main thread's copy of shared->password */
  GThread *thread;
  GHashTable *cache;   /* page → Entry */
  GQueue lru;          /* of Entry, most recently used first */
  GHashTable *pending; /* page → generation + 1 of a queued or running job */
  gsize cache_bytes;
  double scale;
  guint generation;
  guint n_rendered;
  char *error;
};

G_DEFINE_FINAL_TYPE (DecipherPageRenderer, decipher_page_renderer, G_TYPE_OBJECT)

enum
{
  PAGE_READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
job_free (Job *job)
{
  if (job->destroy != NULL)
    job->destroy (job->user_data);
  g_clear_object (&job->cancellable);
  g_free (job);
}

static void
shared_clear (Shared *shared)
{
  g_queue_clear_full (&shared->page_jobs, (GDestroyNotify) job_free);
  g_queue_clear_full (&shared->crop_jobs, (GDestroyNotify) job_free);
  g_mutex_clear (&shared->lock);
  g_cond_clear (&shared->cond);
  g_main_context_unref (shared->context);
  g_free (shared->uri);
  g_free (shared->password);
}

static void
shared_release (Shared *shared)
{
  g_atomic_rc_box_release_full (shared, (GDestroyNotify) shared_clear);
}

static void
result_free (Result *result)
{
  g_clear_pointer (&result->job, job_free);
  g_clear_pointer (&result->bytes, g_bytes_unref);
  g_clear_pointer (&result->surface, cairo_surface_destroy);
  g_clear_pointer (&result->error, g_free);
  shared_release (result->shared);
  g_free (result);
}

static void
entry_free (Entry *entry)
{
  g_clear_object (&entry->texture);
  g_clear_pointer (&entry->surface, cairo_surface_destroy);
  g_free (entry);
}

/* ---- main thread: results --------------------------------------------------------- */

static void
evict (DecipherPageRenderer *self, Entry *keep)
{
  while (self->cache_bytes > DECIPHER_PAGE_CACHE_BYTES)
    {
      Entry *oldest = g_queue_peek_tail (&self->lru);

      if (oldest == NULL || oldest == keep)
        break;
      g_queue_delete_link (&self->lru, oldest->lru_link);
      self->cache_bytes -= oldest->bytes;
      g_hash_table_remove (self->cache, GUINT_TO_POINTER (oldest->page));
    }
}

static void
store_page (DecipherPageRenderer *self, Result *result)
{
  g_autoptr (GdkTexture) texture = NULL;
  Entry *entry, *old;

  texture = gdk_memory_texture_new (result->width, result->height, GDK_MEMORY_DEFAULT,
                                    result->bytes, result->stride);
  old = g_hash_table_lookup (self->cache, GUINT_TO_POINTER (result->job->page));
  if (old != NULL)
    {
      g_queue_delete_link (&self->lru, old->lru_link);
      self->cache_bytes -= old->bytes;
      g_hash_table_remove (self->cache, GUINT_TO_POINTER (result->job->page));
    }

  entry = g_new0 (Entry, 1);
  entry->texture = g_steal_pointer (&texture);
  entry->surface = cairo_surface_reference (result->surface);
  entry->bytes = g_bytes_get_size (result->bytes);
  entry->page = result->job->page;
  entry->generation = result->job->generation;
  g_queue_push_head (&self->lru, entry);
  entry->lru_link = self->lru.head;
  g_hash_table_insert (self->cache, GUINT_TO_POINTER (entry->page), entry);
  self->cache_bytes += entry->bytes;
  self->n_rendered++;
  evict (self, entry);
}

static gboolean
deliver_result (gpointer data)
{
  Result *result = data;
  DecipherPageRenderer *self = result->shared->owner;
  Job *job = result->job;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  if (result->error != NULL && self->error == NULL)
    {
      g_warning ("Cannot render %s: %s", result->shared->uri, result->error);
      self->error = g_strdup (result->error);
    }
  if (job == NULL)
    return G_SOURCE_REMOVE;

  if (job->kind == JOB_CROP)
    {
      g_autoptr (GdkTexture) texture = NULL;

      if (result->bytes != NULL)
        texture = gdk_memory_texture_new (result->width, result->height, GDK_MEMORY_DEFAULT,
                                          result->bytes, result->stride);
      job->func (texture, job->user_data);
      return G_SOURCE_REMOVE;
    }

  if (GPOINTER_TO_UINT (g_hash_table_lookup (self->pending, GUINT_TO_POINTER (job->page)))
      == job->generation + 1)
    g_hash_table_remove (self->pending, GUINT_TO_POINTER (job->page));

  /* A render for a zoom that is gone: its texture would only be thrown away later. */
  if (job->generation != self->generation || result->bytes == NULL)
    return G_SOURCE_REMOVE;

  store_page (self, result);
  g_signal_emit (self, signals[PAGE_READY], 0, job->page);
  return G_SOURCE_REMOVE;
}

/* ---- worker thread ---------------------------------------------------------------- */

static void
post_surface (Shared *shared, Job *job, cairo_surface_t *surface, char *error)
{
  Result *result = g_new0 (Result, 1);
  GSource *source;

  result->shared = g_atomic_rc_box_acquire (shared);
  result->job = job;
  if (surface != NULL)
    {
      int height = cairo_image_surface_get_height (surface);
      int stride = cairo_image_surface_get_stride (surface);

      result->surface = surface;
      result->bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                                  (gsize) stride * height,
                                                  (GDestroyNotify) cairo_surface_destroy,
                                                  cairo_surface_reference (surface));
      result->width = cairo_image_surface_get_width (surface);
      result->height = height;
      result->stride = stride;
    }
  result->error = error;
  /* Never g_main_context_invoke(): it runs the callback in this thread whenever the main
   * thread does not hold its context at that moment. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_callback (source, deliver_result, result, (GDestroyNotify) result_free);
  g_source_set_static_name (source, "[decipher] page render");
  g_source_attach (source, shared->context);
  g_source_unref (source);
}

static void
post (Shared *shared, Job *job, char *error)
{
  post_surface (shared, job, NULL, error);
}

/* The glyph boxed in the accent blue over a pale fill, drawn on the page's own pixels:
 * a box finds the eye at any size where a thin underline got lost among the strokes. */
static void
mark_area (cairo_t *cr, const graphene_rect_t *mark, double scale)
{
  double pad = 1.5 / scale; /* a pixel and a half clear of the ink */

  cairo_rectangle (cr, mark->origin.x - pad, mark->origin.y - pad, mark->size.width + 2 * pad,
                   mark->size.height + 2 * pad);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.18);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1.0);
  cairo_set_line_width (cr, MAX (2.0, scale / 2) / scale);
  cairo_stroke (cr);
}

static void
render (Shared *shared, PopplerDocument *document, Job *job)
{
  /* poppler-glib 22.12 declares no autoptr cleanups. */
  PopplerPage *page = poppler_document_get_page (document, (int) job->page);
  cairo_surface_t *surface;
  cairo_t *cr;
  double page_width, page_height, scale = job->scale;
  double x = 0, y = 0, width, height;
  int px_width, px_height;

  if (page == NULL)
    {
      post (shared, job, NULL);
      return;
    }

  poppler_page_get_size (page, &page_width, &page_height);
  if (job->kind == JOB_CROP)
    {
      x = job->area.origin.x;
      y = job->area.origin.y;
      width = job->area.size.width;
      height = job->area.size.height;
    }
  else
    {
      width = page_width;
      height = page_height;
    }
  if (width * scale * height * scale > MAX_PAGE_PIXELS)
    scale = sqrt (MAX_PAGE_PIXELS / (width * height));
  px_width = MAX (1, (int) ceil (width * scale));
  px_height = MAX (1, (int) ceil (height * scale));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, px_width, px_height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      g_object_unref (page);
      post (shared, job, g_strdup (_("Out of memory for a page image.")));
      return;
    }
  cr = cairo_create (surface);
  /* Paper is white whatever the theme: the page is what was printed. */
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -x, -y);
  /* Other threads draw with poppler-glib too (dc-poppler-lock.c). */
  dc_poppler_lock ();
  poppler_page_render (page, cr);
  dc_poppler_unlock ();
  if (job->kind == JOB_CROP && job->mark.size.width > 0)
    mark_area (cr, &job->mark, scale);
  cairo_destroy (cr);
  g_object_unref (page);
  cairo_surface_flush (surface);

  post_surface (shared, job, surface, NULL);
}

static gpointer
worker (gpointer data)
{
  Shared *shared = data;
  g_autoptr (GError) error = NULL;
  PopplerDocument *document;

  document = poppler_document_new_from_file (shared->uri, shared->password, &error);
  if (document == NULL)
    post (shared, NULL, g_strdup (error->message));

  for (;;)
    {
      Job *job;

      g_mutex_lock (&shared->lock);
      while (!shared->quit && shared->page_jobs.length == 0 && shared->crop_jobs.length == 0)
        g_cond_wait (&shared->cond, &shared->lock);
      if (shared->quit)
        {
          g_mutex_unlock (&shared->lock);
          break;
        }
      /* Pages on screen first, and of those the latest asked for. */
      job = g_queue_pop_tail (&shared->page_jobs);
      if (job == NULL)
        job = g_queue_pop_head (&shared->crop_jobs);
      /* A crop whose row scrolled away is not worth rendering any more. */
      if ((job->kind == JOB_PAGE && job->generation != shared->generation)
          || g_cancellable_is_cancelled (job->cancellable))
        {
          g_mutex_unlock (&shared->lock);
          post (shared, job, NULL); /* lets the main thread forget it */
          continue;
        }
      g_mutex_unlock (&shared->lock);

      if (document == NULL)
        post (shared, job, NULL);
      else
        render (shared, document, job);
    }

  dc_poppler_lock ();
  g_clear_object (&document);
  dc_poppler_unlock ();
  shared_release (shared);
  return NULL;
}

/* ---- object ----------------------------------------------------------------------- */

static void
decipher_page_renderer_dispose (GObject *object)
{
  DecipherPageRenderer *self = DECIPHER_PAGE_RENDERER (object);

  if (self->shared != NULL)
    {
      /* The worker may be inside poppler for a moment more: it is told to stop and left
       * to finish on its own, so closing a window never waits for a render. */
      self->shared->owner = NULL;
      g_mutex_lock (&self->shared->lock);
      self->shared->quit = TRUE;
      g_queue_clear_full (&self->shared->page_jobs, (GDestroyNotify) job_free);
      g_queue_clear_full (&self->shared->crop_jobs, (GDestroyNotify) job_free);
      g_cond_signal (&self->shared->cond);
      g_mutex_unlock (&self->shared->lock);
      g_clear_pointer (&self->shared, shared_release);
    }
  g_clear_pointer (&self->thread, g_thread_unref);

  G_OBJECT_CLASS (decipher_page_renderer_parent_class)->dispose (object);
}

static void
decipher_page_renderer_finalize (GObject *object)
{
  DecipherPageRenderer *self = DECIPHER_PAGE_RENDERER (object);

  g_queue_clear (&self->lru);
  g_clear_pointer (&self->cache, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->error, g_free);
  g_clear_object (&self->file);
  g_clear_pointer (&self->password, g_free);

  G_OBJECT_CLASS (decipher_page_renderer_parent_class)->finalize (object);
}

static void
decipher_page_renderer_class_init (DecipherPageRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = decipher_page_renderer_dispose;
  object_class->finalize = decipher_page_renderer_finalize;

  /**
   * DecipherPageRenderer::page-ready:
   * @page: 0-based
   *
   * A texture of @page at the current scale is in the cache.
   */
  signals[PAGE_READY] = g_signal_new ("page-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
decipher_page_renderer_init (DecipherPageRenderer *self)
{
  self->cache = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) entry_free);
  self->pending = g_hash_table_new (NULL, NULL);
  self->scale = 1.0;
}

/**
 * decipher_page_renderer_new:
 * @password: (nullable): for an encrypted PDF
 *
 * Starts the worker thread, which opens its own copy of the document.
 */
DecipherPageRenderer *
decipher_page_renderer_new (GFile *file, const char *password)
{
  DecipherPageRenderer *self;
  Shared *shared;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (DECIPHER_TYPE_PAGE_RENDERER, NULL);
  self->file = g_object_ref (file);
  self->password = g_strdup (password);
  shared = g_atomic_rc_box_new0 (Shared);
  g_mutex_init (&shared->lock);
  g_cond_init (&shared->cond);
  shared->context = g_main_context_ref_thread_default ();
  shared->uri = g_file_get_uri (file);
  shared->password = g_strdup (password);
  shared->owner = self;
  self->shared = shared;
  self->thread = g_thread_new ("decipher-render", worker, g_atomic_rc_box_acquire (shared));
  return self;
}

/* The file the pages are drawn from: the render copy when the document has one, so
 * whoever must see the pages as the reader does (recognition) reads this one. */
GFile *
decipher_page_renderer_get_file (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), NULL);

  return self->file;
}

const char *
decipher_page_renderer_get_password (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), NULL);

  return self->password;
}

guint
decipher_page_renderer_get_generation (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), 0);

  return self->generation;
}

double
decipher_page_renderer_get_scale (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), 1.0);

  return self->scale;
}

/* Pixels per page point for the renders from now on (zoom × the display's scale). */
void
decipher_page_renderer_set_scale (DecipherPageRenderer *self, double scale)
{
  g_return_if_fail (DECIPHER_IS_PAGE_RENDERER (self));
  g_return_if_fail (scale > 0);

  if (G_APPROX_VALUE (scale, self->scale, 1e-6))
    return;
  self->scale = scale;
  self->generation++;
  g_hash_table_remove_all (self->pending);

  g_mutex_lock (&self->shared->lock);
  self->shared->generation = self->generation;
  g_queue_clear_full (&self->shared->page_jobs, (GDestroyNotify) job_free);
  g_mutex_unlock (&self->shared->lock);
}

/**
 * decipher_page_renderer_lookup:
 * @exact: (out): whether the texture is at the current scale
 *
 * Returns: (transfer none) (nullable): the latest texture of @page, perhaps at another
 * scale, for the view to stretch while the right one renders.
 */
GdkTexture *
decipher_page_renderer_lookup (DecipherPageRenderer *self, guint page, gboolean *exact)
{
  Entry *entry;

  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), NULL);

  *exact = FALSE;
  entry = g_hash_table_lookup (self->cache, GUINT_TO_POINTER (page));
  if (entry == NULL)
    return NULL;
  g_queue_unlink (&self->lru, entry->lru_link);
  g_queue_push_head_link (&self->lru, entry->lru_link);
  *exact = entry->generation == self->generation;
  return entry->texture;
}

/**
 * decipher_page_renderer_lookup_surface:
 * @exact: (out): whether the image is at the current scale
 *
 * Returns: (transfer none) (nullable): the same image as decipher_page_renderer_lookup()
 * gives, as the cairo image surface it was drawn in.
 */
cairo_surface_t *
decipher_page_renderer_lookup_surface (DecipherPageRenderer *self, guint page, gboolean *exact)
{
  Entry *entry;

  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), NULL);

  if (decipher_page_renderer_lookup (self, page, exact) == NULL)
    return NULL;
  entry = g_hash_table_lookup (self->cache, GUINT_TO_POINTER (page));
  return entry->surface;
}

/* Queues a render of @page at the current scale unless one is cached or queued. */
void
decipher_page_renderer_request (DecipherPageRenderer *self, guint page)
{
  Entry *entry;
  Job *job;

  g_return_if_fail (DECIPHER_IS_PAGE_RENDERER (self));

  entry = g_hash_table_lookup (self->cache, GUINT_TO_POINTER (page));
  if (entry != NULL && entry->generation == self->generation)
    return;
  if (GPOINTER_TO_UINT (g_hash_table_lookup (self->pending, GUINT_TO_POINTER (page)))
      == self->generation + 1)
    return;

  job = g_new0 (Job, 1);
  job->kind = JOB_PAGE;
  job->page = page;
  job->scale = self->scale;
  job->generation = self->generation;
  g_hash_table_insert (self->pending, GUINT_TO_POINTER (page),
                       GUINT_TO_POINTER (self->generation + 1));

  g_mutex_lock (&self->shared->lock);
  g_queue_push_tail (&self->shared->page_jobs, job);
  g_cond_signal (&self->shared->cond);
  g_mutex_unlock (&self->shared->lock);
}

/* Drops queued page renders outside [@first_page, @last_page]: after a fast scroll
 * through a long document, the pages flown past are not worth rendering any more. */
void
decipher_page_renderer_keep_only (DecipherPageRenderer *self, guint first_page, guint last_page)
{
  GList *l, *next;

  g_return_if_fail (DECIPHER_IS_PAGE_RENDERER (self));

  g_mutex_lock (&self->shared->lock);
  for (l = self->shared->page_jobs.head; l != NULL; l = next)
    {
      Job *job = l->data;

      next = l->next;
      if (job->page < first_page || job->page > last_page)
        {
          g_hash_table_remove (self->pending, GUINT_TO_POINTER (job->page));
          g_queue_delete_link (&self->shared->page_jobs, l);
          job_free (job);
        }
    }
  g_mutex_unlock (&self->shared->lock);
}

/**
 * decipher_page_renderer_crop:
 * @area: the part of @page to render, in page points
 * @scale: pixels per point
 * @func: called on the main thread with the image, or %NULL if it could not be made
 *
 * Renders a small part of a page: the shape of a glyph whose font program FreeType
 * cannot draw (Type3, not embedded). Runs after the visible pages.
 */
void
decipher_page_renderer_crop (DecipherPageRenderer *self, guint page, const graphene_rect_t *area,
                             double scale, DecipherCropFunc func, gpointer user_data,
                             GDestroyNotify destroy)
{
  decipher_page_renderer_crop_marked (self, page, area, NULL, scale, NULL, func, user_data,
                                      destroy);
}

/**
 * decipher_page_renderer_crop_marked:
 * @mark: (nullable): a glyph's box in page points, boxed in the accent colour
 * @cancellable: (nullable): cancelled, the crop is not rendered and @func gets %NULL
 *
 * As decipher_page_renderer_crop(), with the glyph marked by the worker, so that a
 * list of thousands of cuts costs the main thread nothing but showing them.
 */
void
decipher_page_renderer_crop_marked (DecipherPageRenderer *self, guint page,
                                    const graphene_rect_t *area, const graphene_rect_t *mark,
                                    double scale, GCancellable *cancellable, DecipherCropFunc func,
                                    gpointer user_data, GDestroyNotify destroy)
{
  Job *job;

  g_return_if_fail (DECIPHER_IS_PAGE_RENDERER (self));
  g_return_if_fail (func != NULL);

  job = g_new0 (Job, 1);
  job->kind = JOB_CROP;
  job->page = page;
  job->scale = scale;
  job->area = *area;
  if (mark != NULL)
    job->mark = *mark;
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  job->func = func;
  job->user_data = user_data;
  job->destroy = destroy;

  g_mutex_lock (&self->shared->lock);
  g_queue_push_tail (&self->shared->crop_jobs, job);
  g_cond_signal (&self->shared->cond);
  g_mutex_unlock (&self->shared->lock);
}

gsize
decipher_page_renderer_get_cache_bytes (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), 0);

  return self->cache_bytes;
}

/* How many page textures have arrived, for the tests. */
guint
decipher_page_renderer_get_n_rendered (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), 0);

  return self->n_rendered;
}

/* Returns: (nullable): why the worker could not render, if it could not. */
const char *
decipher_page_renderer_get_error (DecipherPageRenderer *self)
{
  g_return_val_if_fail (DECIPHER_IS_PAGE_RENDERER (self), NULL);

  return self->error;
}
