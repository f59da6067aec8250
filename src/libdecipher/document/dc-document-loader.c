/* dc-document-loader.c: a DcDocument read from a PDF file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The loader extracts the glyphs page by page (dc-extract.c, on threads), interns them
 * into symbols, then runs the passes that make the document: double-byte legacy pairs
 * (dc-document-symbols.c), the trust analysis (dc-trust.c), ink, clusters, reshaping,
 * vertical columns and the layout of each page (dc-document-pages.c), and the first tokens.
 * What the extraction reports is stored by dc-document-loader-glyphs.c.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-document-cache-private.h"
#include "dc-document-loader-private.h"
#include "dc-document-private.h"
#include "dc-error.h"
#include "dc-extract-private.h"
#include "dc-glyph-private.h"
#include "dc-memory-private.h"
#include "dc-parallel-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-tsan-private.h"
#include "dc-trust-private.h"
#include "dc-clusters-private.h"
#include "dc-reshape-private.h"
#include "dc-sha256-private.h"
#include "dc-vertical-private.h"
#include "dc-unicode-private.h"

/* A file up to this size is checked on the loading thread: a thread of its own cost more
 * than reading it (issue 32: a one-page `text` runs three). */
#define SMALL_FILE (256 * 1024)

/* The SHA-256 of the file at @path, or NULL with @error set. Read with open() and read():
 * the first GFile of a run starts GIO's file system (its modules' cache, some twenty
 * types), which nothing else here needs. */
static char *
compute_sha256 (const char *path, GCancellable *cancellable, GError **error)
{
  DcSha256 sha;
  g_autofree guint8 *buffer = g_malloc (1 << 16);
  g_autofree char *name = NULL;
  gssize n = -1;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0), saved_errno;

  if (fd >= 0)
    {
      _dc_sha256_init (&sha);
      while (!g_cancellable_is_cancelled (cancellable)
             && ((n = read (fd, buffer, 1 << 16)) > 0 || (n < 0 && errno == EINTR)))
        if (n > 0)
          _dc_sha256_update (&sha, buffer, n);
      saved_errno = errno;
      g_close (fd, NULL);
      if (n == 0)
        return _dc_sha256_finish_string (&sha);
      _dc_sha256_clear (&sha);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  else
    saved_errno = errno;
  name = g_filename_display_name (path);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("“%s” could not be read: %s."), name, g_strerror (saved_errno));
  return NULL;
}

/* The SHA-256 of @contents, the file's bytes as poppler reads them, or NULL with @error
 * set when @cancellable is cancelled first. */
static char *
sha256_of_bytes (GBytes *contents, GCancellable *cancellable, GError **error)
{
  const gsize piece = 1 << 20;
  DcSha256 sha;
  gsize size;
  const guint8 *data = g_bytes_get_data (contents, &size);

  _dc_sha256_init (&sha);
  for (gsize at = 0; at < size; at += piece)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          _dc_sha256_clear (&sha);
          return NULL;
        }
      _dc_sha256_update (&sha, data + at, MIN (piece, size - at));
    }
  return _dc_sha256_finish_string (&sha);
}

/* The checksum reads the whole file, which the pages' reading need not: it runs on a
 * thread of its own meanwhile. Where the bridge read the file into memory, those bytes
 * are hashed, not the file read again: they are the bytes poppler reads, even should the
 * file change meanwhile. */
typedef struct
{
  const char *path;
  GBytes *contents; /* or NULL: the file is read */
  GCancellable *cancellable;
  GThread *thread;
  char *sha256;
  GError *error;
} Checksum;

static char *
checksum_compute (Checksum *checksum)
{
  if (checksum->contents != NULL)
    return sha256_of_bytes (checksum->contents, checksum->cancellable, &checksum->error);
  return compute_sha256 (checksum->path, checksum->cancellable, &checksum->error);
}

static gpointer
checksum_thread (gpointer data)
{
  Checksum *checksum = data;

  DC_TAKE_OVER (checksum);
  checksum->sha256 = checksum_compute (checksum);
  DC_HAND_OVER (checksum);
  return NULL;
}

static void
checksum_start (Checksum *checksum, const char *path, GBytes *contents, GCancellable *cancellable)
{
  GStatBuf info;
  gboolean small;

  checksum->path = path;
  checksum->contents = contents != NULL ? g_bytes_ref (contents) : NULL;
  checksum->cancellable = cancellable;
  small = contents != NULL ? g_bytes_get_size (contents) <= SMALL_FILE
                           : g_stat (path, &info) == 0 && info.st_size <= SMALL_FILE;
  if (small)
    {
      checksum->sha256 = checksum_compute (checksum);
      return;
    }
  DC_HAND_OVER (checksum);
  checksum->thread = g_thread_try_new ("dc-sha256", checksum_thread, checksum, NULL);
  if (checksum->thread == NULL)
    checksum->sha256 = checksum_compute (checksum);
}

static void
checksum_finish (Checksum *checksum)
{
  if (checksum->thread != NULL)
    {
      g_thread_join (g_steal_pointer (&checksum->thread));
      DC_TAKE_OVER (checksum);
    }
}

/* Every way out of the loader waits for the thread: it reads the path it was given. */
static void
checksum_clear (Checksum *checksum)
{
  checksum_finish (checksum);
  g_clear_pointer (&checksum->contents, g_bytes_unref);
  g_clear_pointer (&checksum->sha256, g_free);
  g_clear_error (&checksum->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Checksum, checksum_clear)

/* The glyphs and bytes @limits (or the defaults, for NULL) allow. */
void
_dc_document_resolve_limits (const DcDocumentLimits *limits, guint64 *max_glyphs,
                             guint64 *max_bytes)
{
  *max_glyphs = limits != NULL && limits->max_glyphs > 0 ? limits->max_glyphs
                                                         : DC_DOCUMENT_DEFAULT_MAX_GLYPHS;
  *max_glyphs = MIN (*max_glyphs, G_MAXUINT32 / sizeof (DcGlyph));
  *max_bytes = (limits != NULL && limits->max_megabytes > 0
                    ? MIN (limits->max_megabytes, G_MAXUINT64 >> 21)
                    : DC_DOCUMENT_DEFAULT_MAX_MEGABYTES)
               << 20;
}

/**
 * dc_document_new_from_file:
 * @path: a PDF file
 * @password: (nullable): the password, for an encrypted PDF
 * @progress: (nullable): called after each page, from the calling thread
 * @cancellable: (nullable): cancels the extraction
 *
 * dc_document_new_from_file_full() with the default limits.
 */
DcDocument *
dc_document_new_from_file (const char *path, const char *password, DcProgressFunc progress,
                           gpointer progress_data, GCancellable *cancellable, GError **error)
{
  return dc_document_new_from_file_full (path, password, NULL, progress, progress_data, cancellable,
                                         error);
}

static void
cancel_stop (GCancellable *cancellable, gpointer stop)
{
  g_cancellable_cancel (stop);
}

static void
loader_page_begin (guint page, gpointer user_data)
{
  Loader *loader = user_data;
  DcDocument *self = loader->self;

  loader->page = page;
  dc_pdf_bridge_get_page_size (loader->bridge, page, &self->page_sizes[2 * page],
                               &self->page_sizes[2 * page + 1]);
  loader->page_first_glyph[page] = self->glyphs->len;
}

static gboolean
loader_page_done (guint page, gpointer user_data)
{
  Loader *loader = user_data;

  if (loader->error != NULL)
    return FALSE;
  loader->n_images += loader->images[page];
  if (loader->progress != NULL)
    loader->progress (page + 1, loader->self->n_pages, loader->progress_data);
  return TRUE;
}

static DcDocument *load_document (const char *path, const char *password,
                                  const DcDocumentLimits *limits, guint n_threads,
                                  const char *cache_identity, DcProgressFunc progress,
                                  gpointer progress_data, GCancellable *cancellable,
                                  GError **error);

/**
 * dc_document_new_from_file_full:
 * @path: a PDF file
 * @password: (nullable): the password, for an encrypted PDF
 * @limits: (nullable): how many glyphs, and how much memory for them and their texts,
 *   the document may take; %NULL for the defaults
 * @progress: (nullable): called after each page, from the calling thread
 * @cancellable: (nullable): cancels the extraction
 *
 * Extracts every drawn glyph, groups them into lines and tokens and judges which fonts
 * can be trusted. Runs synchronously: call it from a worker thread in a UI. A document
 * beyond @limits stops loading with %DC_ERROR_TOO_MANY_GLYPHS or %DC_ERROR_TOO_MUCH_TEXT
 * and a sentence naming the limit (the caller says how to raise it).
 *
 * What a book of 20,000 glyphs or more is made into is kept in the user's cache folder,
 * and the same file, unchanged, opens from there the next time (dc-document-cache.c;
 * DECIPHER_DOCUMENT_CACHE=0 turns that off). @progress is then called once.
 *
 * Returns: (transfer full): the document, or %NULL with @error set to a sentence the
 *   user can act on.
 */
DcDocument *
dc_document_new_from_file_full (const char *path, const char *password,
                                const DcDocumentLimits *limits, DcProgressFunc progress,
                                gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree char *identity = NULL;
  DcDocument *document;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  identity = _dc_document_cache_identity (path);
  document = _dc_document_cache_load (path, identity, limits);
  if (document != NULL)
    {
      /* The levels are still to fill the heap. */
      _dc_memory_expect_pages (document->n_pages);
      if (progress != NULL)
        progress (document->n_pages, document->n_pages, progress_data);
      return document;
    }
  return load_document (path, password, limits, 0, identity, progress, progress_data, cancellable,
                        error);
}

/* dc_document_new_from_file_full() with the pages read by @n_threads threads, the
 * calling one included, whatever the page count; 0 chooses (extract_threads()). Tests
 * compare one thread with several: the cache is neither read nor written. */
DcDocument *
_dc_document_new_from_file_threads (const char *path, const char *password,
                                    const DcDocumentLimits *limits, guint n_threads,
                                    DcProgressFunc progress, gpointer progress_data,
                                    GCancellable *cancellable, GError **error)
{
  return load_document (path, password, limits, n_threads, NULL, progress, progress_data,
                        cancellable, error);
}

/* Reads the PDF, and writes what it made into the cache as the file of @cache_identity
 * when that is not NULL. */
/* The document object with room for its pages' sizes and places, or NULL with @error. */
static DcDocument *
new_document (DcPdfBridge *bridge, const char *path, GError **error)
{
  g_autoptr (DcDocument) self = g_object_new (DC_TYPE_DOCUMENT, NULL);

  self->path = g_strdup (path);
  self->n_pages = dc_pdf_bridge_get_n_pages (bridge);
  _dc_memory_expect_pages (self->n_pages);
  self->language = dc_pdf_bridge_get_language (bridge);
  /* The page count comes from the file: asked for, not demanded. */
  self->page_sizes = g_try_new0 (double, 2 * (gsize) self->n_pages);
  self->page_lines = g_try_new0 (guint, (gsize) self->n_pages + 1);
  self->page_blocks = g_try_new0 (guint, (gsize) self->n_pages + 1);
  if ((self->n_pages > 0 && self->page_sizes == NULL) || self->page_lines == NULL
      || self->page_blocks == NULL)
    {
      g_autofree char *display = g_filename_display_basename (path);

      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("There is not enough memory to list the %u pages of “%s”."), self->n_pages,
                      display);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* Reads every page's glyphs into @loader's document, on @n_threads threads (0: as many
 * as the pages need). Returns FALSE with @error at a limit, a cancellation or a page
 * poppler cannot read. */
static gboolean
extract_glyphs (Loader *loader, DcPdfBridge *bridge, const char *path, const char *password,
                const DcDocumentLimits *limits, guint n_threads, GCancellable *cancellable,
                GError **error)
{
  DcExtractCallbacks callbacks = { _dc_document_loader_font, _dc_document_loader_run,
                                   _dc_document_loader_glyphs, _dc_document_loader_image,
                                   _dc_document_loader_actual_text };
  g_autoptr (GError) page_error = NULL;
  DcExtractLimits extract_limits;
  gulong cancel_id = 0;
  gboolean extracted = TRUE;

  _dc_document_resolve_limits (limits, &loader->max_glyphs, &loader->max_bytes);
  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_stop), loader->stop, NULL);
  extract_limits.max_glyphs = loader->max_glyphs;
  extract_limits.max_bytes = loader->max_bytes;
  extract_limits.glyph_bytes = sizeof (DcGlyph);
  /* A test watching the glyphs as the bridge reports them has them read on one thread. */
  loader->hooked = _dc_glyph_has_hook ();
  if (!_dc_extract_pages (bridge, path, password,
                          loader->hooked
                              ? 1
                              : (n_threads > 0 ? n_threads
                                               : _dc_parallel_threads (loader->self->n_pages)),
                          &extract_limits, &callbacks, loader_page_begin, loader_page_done, loader,
                          loader->stop, &page_error))
    {
      /* The loader's own reason comes first: a limit cancels the reading too. */
      extracted = FALSE;
      if (loader->error != NULL)
        g_propagate_error (error, g_steal_pointer (&loader->error));
      else
        g_propagate_error (error, g_steal_pointer (&page_error));
    }
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, cancel_id);
  g_clear_error (&loader->error);
  return extracted;
}

/* A document without a glyph says why there is nothing to recover. */
static gboolean
check_has_text (DcDocument *self, guint n_images, GError **error)
{
  g_autofree char *display = NULL;

  if (self->glyphs->len > 0)
    return TRUE;
  display = g_filename_display_basename (self->path);
  if (n_images > 0)
    g_set_error (error, DC_ERROR, DC_ERROR_SCANNED,
                 _("“%s” contains only images of pages, as a scan does, and no text to recover. "
                   "Decipher repairs the text of PDFs made on a computer; recognising text in "
                   "images (OCR) is a job for another tool."),
                    display);
  else
    g_set_error (error, DC_ERROR, DC_ERROR_NO_TEXT,
                 _("“%s” contains no text at all, so there is nothing to recover."), display);
  return FALSE;
}

/* The passes that make the glyphs read: symbols, clusters, lines, tokens, trust. */
static void
run_passes (DcDocument *self, guint *page_first_glyph, guint n_threads)
{
  g_autofree guint8 *letter_kinds = NULL;
  DcTrustCount *trust;

  if (_dc_document_merge_double_byte (self))
    {
      /* Fewer glyphs now: each page starts where its first glyph went. */
      const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
      guint i = 0;

      for (guint page = 0; page <= self->n_pages; page++)
        {
          while (i < self->glyphs->len && glyphs[i].page < page)
            i++;
          page_first_glyph[page] = i;
        }
    }
  _dc_document_finish_symbols (self);
  _dc_clusters_infer (self);
  _dc_reshape_restore_selectors (self);
  _dc_vertical_mark_stacked ((DcGlyph *) (void *) self->glyphs->data,
                             (const DcSymbol *) (void *) self->symbols->data, self->glyphs->len);

  if (n_threads == 0)
    n_threads = _dc_parallel_threads (self->n_pages);
  letter_kinds = _dc_document_symbol_letter_kinds (self);
  trust = _dc_document_lay_out_pages (self, page_first_glyph, letter_kinds, n_threads);

  dc_trust_analyse (self, trust);
  _dc_trust_count_free (trust);
  if (_dc_document_unspace_inked_symbols (self))
    _dc_document_retokenize (self, g_memdup2 (self->symbol_is_space, self->space_capacity),
                             n_threads);
}

static DcDocument *
load_document (const char *path, const char *password, const DcDocumentLimits *limits,
               guint n_threads, const char *cache_identity, DcProgressFunc progress,
               gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (DcDocument) self = NULL;
  g_autoptr (DcPdfBridge) bridge = NULL;
  g_autoptr (GPtrArray) byte_tables = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GCancellable) stop = g_cancellable_new ();
  g_autofree guint *images = NULL;
  g_autofree guint *page_first_glyph = NULL;
  Loader loader = { 0 };
  g_auto (Checksum) checksum = { 0 };
  gboolean extracted, encrypted;
  guint64 held_glyphs;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bridge = dc_pdf_bridge_open (path, password, error);
  if (bridge == NULL || (self = new_document (bridge, path, error)) == NULL)
    return NULL;
  checksum_start (&checksum, self->path, dc_pdf_bridge_get_contents (bridge), cancellable);
  images = g_try_new0 (guint, self->n_pages);
  page_first_glyph = g_try_new0 (guint, (gsize) self->n_pages + 1);
  if ((self->n_pages > 0 && images == NULL) || page_first_glyph == NULL)
    {
      g_autofree char *display = g_filename_display_basename (path);

      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("There is not enough memory to list the %u pages of “%s”."), self->n_pages,
                      display);
      return NULL;
    }

  loader.self = self;
  loader.bridge = bridge;
  loader.byte_tables = byte_tables;
  loader.images = images;
  loader.stop = stop;
  loader.page_first_glyph = page_first_glyph;
  loader.progress = progress;
  loader.progress_data = progress_data;
  extracted = extract_glyphs (&loader, bridge, path, password, limits, n_threads, cancellable,
                              error);
  /* An unreadable file says so before anything found in its pages. */
  checksum_finish (&checksum);
  if (checksum.sha256 == NULL)
    {
      g_clear_error (error);
      g_propagate_error (error, g_steal_pointer (&checksum.error));
      return NULL;
    }
  self->sha256 = g_steal_pointer (&checksum.sha256);
  /* Every page is read: poppler's document, and the copy of the file it read, go before
   * the arrays the rest of the loading makes, rather than after. */
  encrypted = dc_pdf_bridge_is_encrypted (bridge);
  g_clear_pointer (&bridge, dc_pdf_bridge_free);
  if (!extracted || !check_has_text (self, loader.n_images, error))
    return NULL;
  page_first_glyph[self->n_pages] = self->glyphs->len;
  held_glyphs = self->glyphs->len; /* before double-byte pairs are merged */

  run_passes (self, page_first_glyph, n_threads);
  if (cache_identity != NULL && !encrypted)
    _dc_document_cache_store (self, cache_identity, held_glyphs, loader.bytes);
  return g_steal_pointer (&self);
}
