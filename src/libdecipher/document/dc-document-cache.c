/* dc-document-cache.c: a document read once opens again from the cache folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading the pages of a 500-page book keeps poppler busy for most of half a second, and
 * a linguist opens one book again and again for weeks. What the loader made of a PDF is
 * therefore written to the user's cache folder, and the next dc_document_new_from_file_full()
 * of the same file reads it back in a fraction of that time (docs/architecture.md,
 * "The document cache").
 *
 * A cache file is named after the PDF's identity: its absolute path, size, modification
 * and change times, device and inode — finding it reads nothing of the PDF, as the
 * thumbnail specification finds thumbnails — and after the build ID of the engine that
 * wrote it, since any change of the loader may change what it makes. A file that is
 * short, damaged or inconsistent is deleted and the PDF read again; nothing read from a
 * cache file is used before _dc_document_cache_read_document() has checked every index
 * it holds. Nothing of an encrypted PDF is cached: the file would hold its text
 * unencrypted.
 *
 * This file owns the cache folder: naming a PDF's file, deciding what is written, writing
 * it on a thread of its own, keeping the folder within its bounds, and opening a file to
 * read. The file format is dc-document-cache-format-private.h; writing it,
 * dc-document-cache-write.c; reading it, dc-document-cache-read.c; checking what was
 * read, dc-document-cache-check.c.
 */

#define G_LOG_DOMAIN "dc-document"
/* dl_iterate_phdr() */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#endif

#include "dc-build-id-private.h"
#include "dc-document-cache-format-private.h"
#include "dc-document-cache-private.h"
#include "dc-document-private.h"
#include "dc-file-private.h"
#include "dc-font-private.h"
#include "dc-tsan-private.h"

#define CACHE_SUFFIX ".dcdoc"
/* A document of fewer glyphs is read in a few tens of milliseconds: a file for it would
 * save nothing a user could notice. */
#define DEFAULT_MIN_GLYPHS 20000
/* A 500-page book takes some 40 MB: the newest documents are kept within both. */
#define MAX_FILES 16
#define MAX_BYTES ((goffset) 1 << 30)
/* A 30 KB PDF drawing one stream on many pages made a 325 MB file (issue 33): 10,000
 * times its PDF. A cached glyph takes some 35 bytes, and Flate packs a page of dense text
 * to as little as 0.2 bytes a glyph: the 9 M-glyph varied book's 2 MB PDF makes a 324 MB
 * file, 164 times it, and at 100 times it was never written, so that every opening read
 * the PDF again (issue 32). A document's file may take 250 times its PDF, within these
 * bounds, or it is not written (the PDF is read again next time). */
#define FILE_BYTES_PER_PDF_BYTE 250
#define MIN_FILE_BYTES ((guint64) 16 << 20)
#define MAX_FILE_BYTES ((guint64) 512 << 20)
/* A file being written is named *.tmp; one older than this was left by a process that
 * died meanwhile. */
#define STALE_SECONDS 3600

/* DECIPHER_DOCUMENT_CACHE="0" keeps no cache (the extraction benchmarks measure reading
 * the PDF), "always" keeps every document (the tests use small ones); otherwise
 * documents of DEFAULT_MIN_GLYPHS glyphs or more are kept. Returns the least number of
 * glyphs a document needs to be written, G_MAXUINT when none is read or written. */
static guint
cache_min_glyphs (void)
{
  const char *env = g_getenv ("DECIPHER_DOCUMENT_CACHE");

  if (env == NULL || *env == '\0')
    return DEFAULT_MIN_GLYPHS;
  if (g_str_equal (env, "always"))
    return 0;
  if (g_str_equal (env, "0") || g_str_equal (env, "never"))
    return G_MAXUINT;
  return DEFAULT_MIN_GLYPHS;
}

#ifdef HAVE_DOCUMENT_CACHE

/* What tells the file at @path apart from any other, and from itself once changed, or
 * NULL when nothing may be cached of it. */
char *
_dc_document_cache_identity (const char *path)
{
  g_autofree char *absolute = NULL;
  struct stat st;

  g_assert (path != NULL);

  if (cache_min_glyphs () == G_MAXUINT || *_dc_build_id () == '\0')
    return NULL;
  absolute = g_canonicalize_filename (path, NULL);
  if (stat (absolute, &st) != 0 || !S_ISREG (st.st_mode))
    return NULL;
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%lld.%09ld\n%lld.%09ld\n%llu:%llu\n%s\n%d",
                          absolute, (gint64) st.st_size, (long long) st.st_mtim.tv_sec,
                          (long) st.st_mtim.tv_nsec, (long long) st.st_ctim.tv_sec,
                          (long) st.st_ctim.tv_nsec, (unsigned long long) st.st_dev,
                          (unsigned long long) st.st_ino, _dc_build_id (), CACHE_FORMAT);
}

#else

char *
_dc_document_cache_identity (const char *path)
{
  return NULL;
}

#endif

static char *
cache_folder (void)
{
  return g_build_filename (g_get_user_cache_dir (), "decipher", "documents", NULL);
}

/* The cache file of the PDF of @identity. */
char *
_dc_document_cache_file (const char *identity)
{
  g_autofree char *folder = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *name = NULL;

  g_assert (identity != NULL);

  folder = cache_folder ();
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, identity, -1);
  name = g_strconcat (digest, CACHE_SUFFIX, NULL);
  return g_build_filename (folder, name, NULL);
}

/* The most @document's file may take (see FILE_BYTES_PER_PDF_BYTE). */
static guint64
file_limit (DcDocument *document)
{
  GStatBuf st;

  if (g_stat (document->path, &st) != 0)
    return MIN_FILE_BYTES;
  return CLAMP ((guint64) st.st_size * FILE_BYTES_PER_PDF_BYTE, MIN_FILE_BYTES, MAX_FILE_BYTES);
}

/* What the largest parts of @document's file take, to give up before writing it. */
static guint64
estimate_bytes (DcDocument *document, DcTokens *tokens)
{
  return (guint64) document->glyphs->len * sizeof (DcGlyph)
         + (guint64) document->order->len * sizeof (guint32)
         + (guint64) tokens->n_tokens * sizeof (DcToken)
         + (guint64) tokens->n_lines * sizeof (DcLine) + document->span_texts->len;
}

typedef struct
{
  char *path;
  gint64 mtime;
  goffset size;
} CacheEntry;

static void
cache_entry_free (gpointer data)
{
  CacheEntry *entry = data;

  g_free (entry->path);
  g_free (entry);
}

static int
compare_newest_first (gconstpointer a, gconstpointer b)
{
  const CacheEntry *x = *(const CacheEntry *const *) a;
  const CacheEntry *y = *(const CacheEntry *const *) b;

  return x->mtime < y->mtime ? 1 : x->mtime > y->mtime ? -1 : 0;
}

/* Keeps the newest MAX_FILES documents within MAX_BYTES, @keep always, and deletes what a
 * process that died left half written. */
static void
evict (const char *folder, const char *keep)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (cache_entry_free);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  goffset total = 0;
  guint kept = 0;
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      GStatBuf st;

      if (g_stat (path, &st) != 0)
        continue;
      if (g_str_has_suffix (name, ".tmp"))
        {
          if (now - (gint64) st.st_mtime > STALE_SECONDS)
            g_unlink (path);
        }
      else if (g_str_has_suffix (name, CACHE_SUFFIX))
        {
          CacheEntry *entry = g_new0 (CacheEntry, 1);

          entry->path = g_steal_pointer (&path);
          entry->mtime = g_str_equal (entry->path, keep) ? G_MAXINT64 : (gint64) st.st_mtime;
          entry->size = st.st_size;
          g_ptr_array_add (entries, entry);
        }
    }
  g_ptr_array_sort (entries, compare_newest_first);
  for (guint i = 0; i < entries->len; i++)
    {
      CacheEntry *entry = g_ptr_array_index (entries, i);

      if (kept == 0 || (kept < MAX_FILES && total + entry->size <= MAX_BYTES))
        {
          kept++;
          total += entry->size;
        }
      else
        g_unlink (entry->path);
    }
}

/* Writes @document, just loaded from the file of @identity, with @tokens, its first
 * snapshot, to the cache. @held_glyphs and @held_bytes are what the loader measured
 * against the document's limits, so that a smaller limit later reads the PDF again and
 * says so. Failing to write is no error: the next opening reads the PDF again. */
static void
store (DcDocument *document, DcTokens *tokens, const char *identity, guint64 held_glyphs,
       guint64 held_bytes)
{
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  g_autofree char *temporary = NULL;
  g_autofree char *now = NULL;
  Writer writer = { 0 };
  int fd;

  if (identity == NULL || document->glyphs->len < cache_min_glyphs ())
    return;
  writer.limit = file_limit (document);
  if (estimate_bytes (document, tokens) > writer.limit)
    {
      g_debug ("Not cached: the document would take more than %" G_GUINT64_FORMAT " MB",
               writer.limit >> 20);
      return;
    }
  /* The file must still be the one that was read. */
  now = _dc_document_cache_identity (document->path);
  if (g_strcmp0 (now, identity) != 0)
    return;

  folder = cache_folder ();
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      g_debug ("No document cache: %s", g_strerror (errno));
      return;
    }
  path = _dc_document_cache_file (identity);
  /* The rule every writer follows (dc-file.c): a link, a device or a folder someone put
   * in the file's place is left alone, and the document is simply not cached. */
  if (!_dc_file_may_write (path, NULL, CACHE_SUFFIX, NULL))
    return;
  temporary = g_build_filename (folder, "XXXXXX.tmp", NULL);
  fd = g_mkstemp_full (temporary, O_WRONLY, 0600);
  if (fd < 0 || (writer.file = fdopen (fd, "wb")) == NULL)
    {
      g_debug ("No document cache: %s", g_strerror (errno));
      if (fd >= 0)
        {
          close (fd);
          g_unlink (temporary);
        }
      return;
    }
  _dc_document_cache_put_document (&writer, document, tokens, identity, held_glyphs, held_bytes);
  if (fclose (writer.file) != 0)
    writer.failed = TRUE;
  if (writer.failed || g_rename (temporary, path) != 0)
    {
      g_debug ("The document cache could not be written: %s", g_strerror (errno));
      g_unlink (temporary);
      return;
    }
  evict (folder, path);
}

/* Writing the 500-page book's 35 MB took 70 ms of CPU and more of waiting for the disk,
 * all of it before the first page could be shown or a session's first reply sent. The
 * file is written on a thread of its own instead, from what a loaded document never
 * changes (its glyphs, symbols, fonts, blocks and spans) and its first tokens snapshot.
 * One write at a time: a collection of books holds at most the one being written
 * besides the one being read. The thread that joins the writer drops the references the
 * write held, so that a document is never finalized on a thread that did not take it
 * over (GObject's reference count is atomic inside an uninstrumented libgobject, where
 * ThreadSanitizer cannot see it order anything). */
typedef struct
{
  DcDocument *document;
  DcTokens *tokens;
  char *identity;
  guint64 held_glyphs;
  guint64 held_bytes;
} Write;

static GMutex writer_lock;
static GThread *writer; /* under writer_lock: the write under way, or NULL */
static Write *writing;  /* under writer_lock: what it writes */

static void
write_free (Write *write)
{
  dc_tokens_unref (write->tokens);
  g_object_unref (write->document);
  g_free (write->identity);
  g_free (write);
}

static gpointer
write_thread (gpointer data)
{
  Write *write = data;

  store (write->document, write->tokens, write->identity, write->held_glyphs, write->held_bytes);
  return NULL;
}

static void
join_writer_locked (void)
{
  if (writer != NULL)
    g_thread_join (g_steal_pointer (&writer));
  g_clear_pointer (&writing, write_free);
}

void
_dc_document_cache_store (DcDocument *document, const char *identity, guint64 held_glyphs,
                          guint64 held_bytes)
{
  Write *write;

  g_assert (DC_IS_DOCUMENT (document));

  if (identity == NULL || document->glyphs->len < cache_min_glyphs ())
    return;
  write = g_new0 (Write, 1);
  write->document = g_object_ref (document);
  write->tokens = dc_tokens_ref (document->tokens);
  write->identity = g_strdup (identity);
  write->held_glyphs = held_glyphs;
  write->held_bytes = held_bytes;

  DC_MUTEX_LOCK (&writer_lock);
  join_writer_locked ();
  writing = write;
  writer = g_thread_try_new ("dc-cache-write", write_thread, write, NULL);
  if (writer == NULL)
    write_thread (write);
  DC_MUTEX_UNLOCK (&writer_lock);
}

/**
 * dc_document_flush_cache:
 *
 * Waits until what this process read is written to the document cache, and drops the
 * reference the write held on its document. A document is written on a thread of its
 * own after it loads; a program calls this before it exits, or the file is left half
 * written (and deleted by a later process).
 */
void
dc_document_flush_cache (void)
{
  DC_MUTEX_LOCK (&writer_lock);
  join_writer_locked ();
  DC_MUTEX_UNLOCK (&writer_lock);
}

/* The document of the PDF at @path, if the cache holds it as it is now (@identity, from
 * _dc_document_cache_identity()) and within @limits; else NULL, and the PDF is read. */
DcDocument *
_dc_document_cache_load (const char *path, const char *identity, const DcDocumentLimits *limits)
{
  g_autofree char *file = NULL;
  g_autoptr (DcDocument) document = NULL;
  Reader reader = { 0 };
  guint64 held_glyphs = 0, held_bytes = 0, max_glyphs, max_bytes;
  GStatBuf st;
  int fd;

  g_assert (path != NULL);

  if (identity == NULL)
    return NULL;
  file = _dc_document_cache_file (identity);
  /* Only a regular file, never through a link: a pipe put there would block the open for
   * ever, and what is not the cache's own is not its to delete either. */
  fd = _dc_file_open_regular (file, O_RDONLY, 0, NULL);
  if (fd < 0)
    return NULL;
  reader.file = fdopen (fd, "rb");
  if (reader.file == NULL)
    {
      close (fd);
      return NULL;
    }
  if (fstat (fileno (reader.file), &st) == 0)
    {
      reader.remaining = st.st_size;
      document = _dc_document_cache_read_document (&reader, identity, &held_glyphs, &held_bytes);
    }
  fclose (reader.file);
  if (document == NULL)
    {
      g_debug ("The cached document %s is damaged: the PDF is read again", file);
      g_unlink (file);
      return NULL;
    }

  _dc_document_resolve_limits (limits, &max_glyphs, &max_bytes);
  if (held_glyphs > max_glyphs || held_bytes > max_bytes)
    return NULL;
  document->path = g_strdup (path);
  /* The newest used are the last evicted. */
  g_utime (file, NULL);
  return g_steal_pointer (&document);
}
