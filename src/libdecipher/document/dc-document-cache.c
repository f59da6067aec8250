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
 * cache file is used before read_document() has checked every index it holds. Nothing
 * of an encrypted PDF is cached: the file would hold its text unencrypted.
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
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#define HAVE_DOCUMENT_CACHE 1
#endif

#include "dc-document-cache-private.h"
#include "dc-document-private.h"
#include "dc-file-private.h"
#include "dc-font-private.h"
#include "dc-tsan-private.h"

#define CACHE_MAGIC "Decipher document cache\n"
#define CACHE_END "end of it\n"
/* 2: a checksum after CACHE_END; 3: a block's table flag; 4: Type 3 glyph digests. */
#define CACHE_FORMAT 4
#define CACHE_SUFFIX ".dcdoc"
/* A document of fewer glyphs is read in a few tens of milliseconds: a file for it would
 * save nothing a user could notice. */
#define DEFAULT_MIN_GLYPHS 20000
/* A 500-page book takes some 40 MB: the newest documents are kept within both. */
#define MAX_FILES 16
#define MAX_BYTES ((goffset) 1 << 30)
/* A 30 KB PDF drawing one stream on many pages made a 325 MB file (issue 33). A book's
 * file is some 10 to 50 times its PDF: a document's file may take 100 times its PDF,
 * within these bounds, or it is not written (the PDF is read again next time). */
#define FILE_BYTES_PER_PDF_BYTE 100
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

typedef struct
{
  guintptr address;
  char *hex;
} BuildIdSearch;

/* The GNU build ID of the object that holds @data's address: the linker makes it a
 * digest of the code, so that any rebuild of the engine has a new one. */
static int
find_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  BuildIdSearch *search = data;
  gboolean holds_address = FALSE;

  for (int i = 0; i < info->dlpi_phnum && !holds_address; i++)
    {
      const ElfW (Phdr) *header = &info->dlpi_phdr[i];
      guintptr start = info->dlpi_addr + header->p_vaddr;

      holds_address = header->p_type == PT_LOAD && search->address >= start
                      && search->address < start + header->p_memsz;
    }
  if (!holds_address)
    return 0;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *header = &info->dlpi_phdr[i];
      const guint8 *note = (const guint8 *) (info->dlpi_addr + header->p_vaddr);
      const guint8 *end = note + header->p_memsz;

      if (header->p_type != PT_NOTE)
        continue;
      while (note + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *note_header = (const ElfW (Nhdr) *) (const void *) note;
          const guint8 *name = note + sizeof *note_header;
          const guint8 *desc = name + ((note_header->n_namesz + 3) & ~3u);

          if (desc + note_header->n_descsz > end)
            break;
          if (note_header->n_type == NT_GNU_BUILD_ID && note_header->n_namesz == 4
              && memcmp (name, "GNU", 4) == 0 && note_header->n_descsz > 0)
            {
              GString *hex = g_string_new (NULL);

              for (guint j = 0; j < note_header->n_descsz; j++)
                g_string_append_printf (hex, "%02x", desc[j]);
              search->hex = g_string_free (hex, FALSE);
              return 1;
            }
          note = desc + ((note_header->n_descsz + 3) & ~3u);
        }
    }
  return 1;
}

/* The engine's build ID, "" when the linker wrote none: then nothing is cached, since
 * nothing would tell a file written by another build. */
static const char *
engine_build_id (void)
{
  static gsize build_id;

  if (g_once_init_enter (&build_id))
    {
      BuildIdSearch search = { (guintptr) (gpointer) engine_build_id, NULL };

      dl_iterate_phdr (find_build_id, &search);
      g_once_init_leave (&build_id, (gsize) (search.hex != NULL ? search.hex : g_strdup ("")));
    }
  return (const char *) build_id;
}

/* What tells the file at @path apart from any other, and from itself once changed, or
 * NULL when nothing may be cached of it. */
char *
_dc_document_cache_identity (const char *path)
{
  g_autofree char *absolute = NULL;
  struct stat st;

  g_assert (path != NULL);

  if (cache_min_glyphs () == G_MAXUINT || *engine_build_id () == '\0')
    return NULL;
  absolute = g_canonicalize_filename (path, NULL);
  if (stat (absolute, &st) != 0 || !S_ISREG (st.st_mode))
    return NULL;
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%lld.%09ld\n%lld.%09ld\n%llu:%llu\n%s\n%d",
                          absolute, (gint64) st.st_size, (long long) st.st_mtim.tv_sec,
                          (long) st.st_mtim.tv_nsec, (long long) st.st_ctim.tv_sec,
                          (long) st.st_ctim.tv_nsec, (unsigned long long) st.st_dev,
                          (unsigned long long) st.st_ino, engine_build_id (), CACHE_FORMAT);
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

/* The checksum ------------------------------------------------------------------- */

/* A bit flipped on the disk changed the text a cached document gave, silently, in 13 of
 * 550 damaged files (issue 33): every byte before the checksum is summed as it is written
 * and again as it is read. Damage, not an attacker, is what it is for (the folder is the
 * user's own), so a fast 64-bit mix of each 8-byte word does, at several GB/s: the
 * cache exists to save time. */
typedef struct
{
  guint64 hash;
  guint64 length;
  guint8 tail[8];
  guint n_tail;
} Sum;

#define SUM_PRIME G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)

static inline void
sum_word (Sum *sum, guint64 word)
{
  sum->hash = (sum->hash ^ word) * SUM_PRIME;
  sum->hash ^= sum->hash >> 31;
}

static void
sum_update (Sum *sum, const void *data, gsize size)
{
  const guint8 *p = data;

  sum->length += size;
  while (size > 0 && sum->n_tail > 0)
    {
      sum->tail[sum->n_tail++] = *p++;
      size--;
      if (sum->n_tail == 8)
        {
          guint64 word;

          memcpy (&word, sum->tail, 8);
          sum_word (sum, word);
          sum->n_tail = 0;
        }
    }
  for (; size >= 8; p += 8, size -= 8)
    {
      guint64 word;

      memcpy (&word, p, 8);
      sum_word (sum, word);
    }
  if (size > 0)
    {
      memcpy (sum->tail, p, size);
      sum->n_tail = (guint) size;
    }
}

static guint64
sum_finish (const Sum *sum)
{
  Sum last = *sum;
  guint64 word = 0;

  memcpy (&word, last.tail, last.n_tail);
  sum_word (&last, word ^ ((guint64) last.n_tail << 56));
  sum_word (&last, last.length);
  last.hash ^= last.hash >> 33;
  last.hash *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  last.hash ^= last.hash >> 33;
  return last.hash;
}

/* Writing ------------------------------------------------------------------------- */

typedef struct
{
  FILE *file;
  gboolean failed;
  Sum sum;
  guint64 written;
  guint64 limit; /* the most the file may take */
} Writer;

static void
put (Writer *writer, const void *data, gsize size)
{
  if (writer->failed || size == 0)
    return;
  writer->written += size;
  if (writer->written > writer->limit || fwrite (data, 1, size, writer->file) != size)
    {
      writer->failed = TRUE;
      return;
    }
  sum_update (&writer->sum, data, size);
}

static void
put_u32 (Writer *writer, guint32 value)
{
  put (writer, &value, sizeof value);
}

static void
put_i32 (Writer *writer, gint32 value)
{
  put (writer, &value, sizeof value);
}

static void
put_f64 (Writer *writer, double value)
{
  put (writer, &value, sizeof value);
}

/* A NULL string is told from "" by its length, G_MAXUINT32. */
static void
put_string (Writer *writer, const char *string)
{
  gsize length = string != NULL ? strlen (string) : 0;

  if (length >= G_MAXUINT32)
    {
      writer->failed = TRUE;
      return;
    }
  put_u32 (writer, string != NULL ? (guint32) length : G_MAXUINT32);
  put (writer, string, length);
}

static void
put_array (Writer *writer, const void *data, guint n, gsize element_size)
{
  put_u32 (writer, n);
  put (writer, data, (gsize) n * element_size);
}

static void
put_font (Writer *writer, DcFont *font)
{
  DcBridgeFont info;

  _dc_font_get_bridge_info (font, &info);
  put_string (writer, info.name);
  put_string (writer, info.encoding);
  put_string (writer, info.program_kind);
  put_u32 (writer, info.program != NULL ? (guint32) info.program_len : G_MAXUINT32);
  if (info.program != NULL)
    put (writer, info.program, info.program_len);
  put_u32 (writer, info.glyph_names != NULL);
  for (guint i = 0; info.glyph_names != NULL && i < 256; i++)
    put_string (writer, info.glyph_names[i]);
  put_array (writer, info.cid_to_gid, info.cid_to_gid != NULL ? info.cid_to_gid_len : 0,
             sizeof (int));
  put_u32 (writer, info.code_to_gid != NULL);
  if (info.code_to_gid != NULL)
    put (writer, info.code_to_gid, 256 * sizeof (int));
  put_u32 (writer, info.type3_digests != NULL);
  if (info.type3_digests != NULL)
    put (writer, info.type3_digests, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
  put_u32 (writer, info.type);
  put_u32 (writer, info.has_to_unicode);
  put_i32 (writer, info.writing_mode);
  put_u32 (writer, info.has_ref);
  put_i32 (writer, info.ref_num);
  put_i32 (writer, info.ref_gen);
  put_f64 (writer, info.ascent);
  put_f64 (writer, info.descent);
  put_u32 (writer, dc_font_is_trusted (font));
  put_string (writer, dc_font_get_trust_reason (font));
  put_string (writer, dc_font_get_double_byte_charset (font));
  put_u32 (writer, dc_font_get_n_symbols (font));
  put_u32 (writer, dc_font_get_n_glyphs (font));
}

static void
put_document (Writer *writer, DcDocument *document, DcTokens *tokens, const char *identity,
              guint64 held_glyphs, guint64 held_bytes)
{
  const DcSymbol *symbols = (const DcSymbol *) (void *) document->symbols->data;
  const DcBlock *blocks = (const DcBlock *) (void *) document->blocks->data;

  put (writer, CACHE_MAGIC, strlen (CACHE_MAGIC));
  put_u32 (writer, CACHE_FORMAT);
  /* The arrays are written as they lie in memory: this says how they lay. */
  put_u32 (writer, 0x01020304);
  put_u32 (writer, sizeof (DcGlyph));
  put_u32 (writer, sizeof (DcLine));
  put_u32 (writer, sizeof (DcToken));
  put_u32 (writer, sizeof (ActualTextSpan));
  put_string (writer, identity);
  put (writer, &held_glyphs, sizeof held_glyphs);
  put (writer, &held_bytes, sizeof held_bytes);

  put_string (writer, document->sha256);
  put_string (writer, document->language);
  put_u32 (writer, document->n_pages);
  put (writer, document->page_sizes, 2 * sizeof (double) * document->n_pages);
  put (writer, document->page_lines, sizeof (guint) * (document->n_pages + 1));
  put (writer, document->page_blocks, sizeof (guint) * (document->n_pages + 1));

  put_u32 (writer, document->fonts->len);
  for (guint f = 0; f < document->fonts->len; f++)
    put_font (writer, g_ptr_array_index (document->fonts, f));

  put_array (writer, document->glyphs->data, document->glyphs->len, sizeof (DcGlyph));
  put_u32 (writer, document->symbols->len);
  for (guint s = 0; s < document->symbols->len; s++)
    {
      put_string (writer, symbols[s].pdf_text);
      put_u32 (writer, symbols[s].code);
      put_u32 (writer, symbols[s].n_glyphs);
      put_u32 (writer, symbols[s].font);
      put_u32 (writer, symbols[s].code_len);
      put_u32 (writer, symbols[s].flags);
    }
  /* The flags and tokens as loaded: the first snapshot's, whatever a key learned since. */
  put_array (writer, tokens->symbol_is_space, document->space_capacity, 1);
  put_array (writer, document->spans->data, document->spans->len, sizeof (ActualTextSpan));
  put_array (writer, document->span_texts->str, (guint) document->span_texts->len, 1);
  put_array (writer, document->order->data, document->order->len, sizeof (guint32));
  put_array (writer, tokens->lines, tokens->n_lines, sizeof (DcLine));
  put_u32 (writer, document->blocks->len);
  for (guint b = 0; b < document->blocks->len; b++)
    {
      put (writer, &blocks[b].x0, 4 * sizeof (float));
      put_u32 (writer, blocks[b].page);
      put_u32 (writer, blocks[b].index);
      put_u32 (writer, blocks[b].first_line);
      put_u32 (writer, blocks[b].n_lines);
      put_string (writer, blocks[b].label);
      put_u32 (writer, blocks[b].table);
    }
  put_array (writer, tokens->tokens, tokens->n_tokens, sizeof (DcToken));
  put (writer, CACHE_END, strlen (CACHE_END));
  {
    guint64 checksum = sum_finish (&writer->sum);

    put (writer, &checksum, sizeof checksum);
  }
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
  put_document (&writer, document, tokens, identity, held_glyphs, held_bytes);
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

/* Reading ------------------------------------------------------------------------- */

typedef struct
{
  FILE *file;
  goffset remaining; /* bytes left in the file: no count read from it asks for more */
  gboolean failed;
  Sum sum;
} Reader;

static gboolean
get (Reader *reader, void *data, gsize size)
{
  if (reader->failed || (guint64) size > (guint64) reader->remaining
      || (size > 0 && fread (data, 1, size, reader->file) != size))
    {
      reader->failed = TRUE;
      memset (data, 0, size);
      return FALSE;
    }
  reader->remaining -= (goffset) size;
  sum_update (&reader->sum, data, size);
  return TRUE;
}

static guint32
get_u32 (Reader *reader)
{
  guint32 value = 0;

  get (reader, &value, sizeof value);
  return value;
}

static gint32
get_i32 (Reader *reader)
{
  gint32 value = 0;

  get (reader, &value, sizeof value);
  return value;
}

static double
get_f64 (Reader *reader)
{
  double value = 0;

  get (reader, &value, sizeof value);
  return value;
}

/* Whether @n elements of @size bytes can be in what is left of the file. */
static gboolean
fits (Reader *reader, guint64 n, gsize size)
{
  if (reader->failed || n > (guint64) reader->remaining / MAX (size, 1))
    reader->failed = TRUE;
  return !reader->failed;
}

static char *
get_string (Reader *reader)
{
  guint32 length = get_u32 (reader);
  char *string;

  if (length == G_MAXUINT32 || !fits (reader, length, 1))
    return NULL;
  string = g_malloc (length + 1);
  get (reader, string, length);
  string[length] = '\0';
  if (memchr (string, '\0', length) != NULL || !g_utf8_validate (string, length, NULL))
    reader->failed = TRUE;
  return string;
}

/* Faults in the pages of a large array in one call before read() fills it: the kernel
 * otherwise takes a fault per 4 KiB page, which in a virtual machine cost the reading
 * of a 500-page book's cache half its time. */
static void
prepare_pages (gpointer data, gsize size)
{
#if defined(HAVE_DOCUMENT_CACHE) && defined(MADV_POPULATE_WRITE)
  const guintptr page = 4096;
  guintptr start = ((guintptr) data + page - 1) & ~(page - 1);
  guintptr stop = ((guintptr) data + size) & ~(page - 1);

  if (size < (1 << 20) || stop <= start)
    return;
#ifdef MADV_HUGEPAGE
  madvise ((gpointer) start, stop - start, MADV_HUGEPAGE);
#endif
  /* An older kernel refuses (EINVAL): the pages then fault in one by one. */
  madvise ((gpointer) start, stop - start, MADV_POPULATE_WRITE);
#endif
}

/* An array of @element_size bytes each, into @array (resized), whose length is returned. */
static guint
get_garray (Reader *reader, GArray *array, gsize element_size)
{
  guint32 n = get_u32 (reader);

  g_assert (g_array_get_element_size (array) == element_size);

  if (!fits (reader, n, element_size))
    return 0;
  g_array_set_size (array, n);
  prepare_pages (array->data, (gsize) n * element_size);
  get (reader, array->data, (gsize) n * element_size);
  return n;
}

static gpointer
get_block (Reader *reader, guint32 *n_out, gsize element_size)
{
  guint32 n = get_u32 (reader);
  gpointer data;

  *n_out = 0;
  if (!fits (reader, n, element_size))
    return NULL;
  data = g_malloc ((gsize) MAX (n, 1) * element_size);
  prepare_pages (data, (gsize) n * element_size);
  get (reader, data, (gsize) n * element_size);
  *n_out = n;
  return data;
}

static DcFont *
get_font (Reader *reader, guint index)
{
  g_autofree char *name = get_string (reader);
  g_autofree char *encoding = get_string (reader);
  g_autofree char *program_kind = get_string (reader);
  g_autofree guint8 *program = NULL;
  g_autoptr (GPtrArray) glyph_names = NULL;
  g_autofree int *cid_to_gid = NULL;
  g_autofree int *code_to_gid = NULL;
  g_autofree guint8 *type3_digests = NULL;
  g_autofree char *trust_reason = NULL;
  g_autofree char *double_byte = NULL;
  DcBridgeFont info = { 0 };
  guint32 program_len = get_u32 (reader);
  guint32 n_cids;
  DcFont *font;
  gboolean trusted;
  guint n_symbols, n_glyphs;

  if (program_len != G_MAXUINT32 && fits (reader, program_len, 1))
    {
      program = g_malloc (MAX (program_len, 1));
      get (reader, program, program_len);
    }
  if (get_u32 (reader))
    {
      glyph_names = g_ptr_array_new_full (256, g_free);
      for (guint i = 0; i < 256; i++)
        g_ptr_array_add (glyph_names, get_string (reader));
    }
  cid_to_gid = get_block (reader, &n_cids, sizeof (int));
  if (get_u32 (reader))
    {
      code_to_gid = g_new0 (int, 256);
      get (reader, code_to_gid, 256 * sizeof (int));
    }
  if (get_u32 (reader))
    {
      type3_digests = g_new0 (guint8, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
      get (reader, type3_digests, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
    }
  info.type = (DcBridgeFontType) get_u32 (reader);
  info.has_to_unicode = get_u32 (reader) != 0;
  info.writing_mode = get_i32 (reader);
  info.has_ref = get_u32 (reader) != 0;
  info.ref_num = get_i32 (reader);
  info.ref_gen = get_i32 (reader);
  info.ascent = get_f64 (reader);
  info.descent = get_f64 (reader);
  trusted = get_u32 (reader) != 0;
  trust_reason = get_string (reader);
  double_byte = get_string (reader);
  n_symbols = get_u32 (reader);
  n_glyphs = get_u32 (reader);
  if (reader->failed || info.type > DC_BRIDGE_FONT_CID_TYPE2)
    {
      reader->failed = TRUE;
      return NULL;
    }

  info.name = name;
  info.encoding = encoding;
  info.program_kind = program_kind;
  info.embedded = program != NULL;
  info.program = program;
  info.program_len = program != NULL ? program_len : 0;
  info.glyph_names = glyph_names != NULL ? (const char *const *) glyph_names->pdata : NULL;
  info.cid_to_gid = n_cids > 0 ? cid_to_gid : NULL;
  info.cid_to_gid_len = n_cids;
  info.code_to_gid = code_to_gid;
  info.type3_digests = type3_digests;
  font = _dc_font_new_from_bridge (index, &info);
  _dc_font_set_counts (font, n_symbols, n_glyphs);
  _dc_font_set_trust (font, trusted, trust_reason);
  if (double_byte != NULL)
    {
      /* The loader takes the charset the font's name hints at; nothing else can be. */
      const char *hint = _dc_font_get_double_byte_hint (font);

      if (g_strcmp0 (hint, double_byte) != 0)
        reader->failed = TRUE;
      else
        _dc_font_set_double_byte (font, hint);
    }
  return font;
}

/* Whether every index @document holds points into what it holds, in the order the
 * loader makes them, so that no reader of it strays out of an array whatever a damaged
 * file said. */
static gboolean
check_document (DcDocument *document, const DcTokens *tokens)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) document->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) document->symbols->data;
  const guint32 *order = (const guint32 *) (void *) document->order->data;
  const ActualTextSpan *spans = (const ActualTextSpan *) (void *) document->spans->data;
  const DcBlock *blocks = (const DcBlock *) (void *) document->blocks->data;
  guint n_glyphs = document->glyphs->len, n_symbols = document->symbols->len;
  guint n_order = document->order->len, n_lines = tokens->n_lines;
  g_autofree guint8 *placed = NULL;
  guint next_glyph = 0, next_token = 0;

  if (n_glyphs == 0 || n_order > n_glyphs || document->space_capacity != MAX (1, n_symbols)
      || document->lines->len != n_lines || document->page_lines[0] != 0
      || document->page_lines[document->n_pages] != n_lines || document->page_blocks[0] != 0
      || document->page_blocks[document->n_pages] != document->blocks->len)
    return FALSE;
  for (guint page = 0; page < document->n_pages; page++)
    if (document->page_lines[page] > document->page_lines[page + 1]
        || document->page_blocks[page] > document->page_blocks[page + 1]
        || !isfinite (document->page_sizes[2 * page])
        || !isfinite (document->page_sizes[2 * page + 1]))
      return FALSE;
  for (guint g = 0; g < n_glyphs; g++)
    if (glyphs[g].symbol >= n_symbols || glyphs[g].page >= document->n_pages
        || !isfinite (glyphs[g].x) || !isfinite (glyphs[g].y))
      return FALSE;
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font >= document->fonts->len || symbols[s].code_len < 1
        || symbols[s].code_len > 4 || document->symbol_is_space[s] > 1)
      return FALSE;
  /* The reading order places each glyph once at most. */
  placed = g_new0 (guint8, n_glyphs);
  for (guint i = 0; i < n_order; i++)
    {
      if (order[i] >= n_glyphs || placed[order[i]])
        return FALSE;
      placed[order[i]] = 1;
    }
  /* Lines follow one another in the reading order, page by page, and so do their tokens. */
  for (guint page = 0; page < document->n_pages; page++)
    for (guint l = document->page_lines[page]; l < document->page_lines[page + 1]; l++)
      {
        const DcLine *line = &tokens->lines[l];

        if (line->page != page || line->rotation > 3 || line->first_glyph < next_glyph
            || line->first_glyph > n_order || line->n_glyphs > n_order - line->first_glyph
            || line->first_token != next_token || line->n_tokens > tokens->n_tokens - next_token)
          return FALSE;
        for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
          {
            const DcToken *token = &tokens->tokens[t];

            if (token->line != l || token->n_glyphs == 0 || token->first_glyph < line->first_glyph
                || token->first_glyph > line->first_glyph + line->n_glyphs
                || token->n_glyphs > line->first_glyph + line->n_glyphs - token->first_glyph)
              return FALSE;
          }
        next_glyph = line->first_glyph + line->n_glyphs;
        next_token = line->first_token + line->n_tokens;
      }
  if (next_token != tokens->n_tokens)
    return FALSE;
  for (guint page = 0; page < document->n_pages; page++)
    for (guint b = document->page_blocks[page]; b < document->page_blocks[page + 1]; b++)
      if (blocks[b].page != page || blocks[b].first_line < document->page_lines[page]
          || blocks[b].first_line > document->page_lines[page + 1]
          || blocks[b].n_lines > document->page_lines[page + 1] - blocks[b].first_line)
        return FALSE;
  if (document->spans->len > 0
      && (document->span_texts->len == 0
          || document->span_texts->str[document->span_texts->len - 1] != '\0'))
    return FALSE;
  for (guint i = 0; i < document->spans->len; i++)
    if (spans[i].first_glyph > n_glyphs || spans[i].n_glyphs > n_glyphs - spans[i].first_glyph
        || spans[i].text >= document->span_texts->len
        || !g_utf8_validate (document->span_texts->str + spans[i].text, -1, NULL))
      return FALSE;
  return TRUE;
}

/* The symbols, each indexed by its font and code as the loader indexes them. */
static gboolean
get_symbols (Reader *reader, DcDocument *document, guint32 n_symbols)
{
  if (!fits (reader, n_symbols, 24))
    return FALSE;
  g_array_set_size (document->symbols, n_symbols);
  for (guint s = 0; s < n_symbols && !reader->failed; s++)
    {
      DcSymbol *symbol = &g_array_index (document->symbols, DcSymbol, s);
      gint64 *key;

      symbol->pdf_text = get_string (reader);
      symbol->code = get_u32 (reader);
      symbol->n_glyphs = get_u32 (reader);
      symbol->font = (guint16) get_u32 (reader);
      symbol->code_len = (guint8) get_u32 (reader);
      symbol->flags = (guint8) get_u32 (reader);
      if (symbol->pdf_text == NULL || symbol->font >= document->fonts->len)
        return FALSE;
      symbol->glyph_name = dc_font_get_glyph_name (g_ptr_array_index (document->fonts,
                                                                      symbol->font),
                                                   symbol->code);
      key = g_new (gint64, 1);
      *key = ((gint64) symbol->font << 32) | symbol->code;
      g_hash_table_insert (document->symbol_index, key, GUINT_TO_POINTER (s + 1));
    }
  return TRUE;
}

static gboolean
get_blocks (Reader *reader, DcDocument *document)
{
  guint32 n_blocks = get_u32 (reader);

  if (!fits (reader, n_blocks, 6 * sizeof (guint32)))
    return FALSE;
  g_array_set_size (document->blocks, n_blocks);
  for (guint b = 0; b < n_blocks && !reader->failed; b++)
    {
      DcBlock *block = &g_array_index (document->blocks, DcBlock, b);

      get (reader, &block->x0, 4 * sizeof (float));
      block->page = get_u32 (reader);
      block->index = get_u32 (reader);
      block->first_line = get_u32 (reader);
      block->n_lines = get_u32 (reader);
      block->label = get_string (reader);
      if (block->label == NULL)
        return FALSE;
      block->table = get_u32 (reader) != 0;
    }
  return TRUE;
}

static DcDocument *
read_document (Reader *reader, const char *identity, guint64 *held_glyphs, guint64 *held_bytes)
{
  g_autoptr (DcDocument) document = g_object_new (DC_TYPE_DOCUMENT, NULL);
  g_autofree char *stored_identity = NULL;
  g_autofree DcTokens *tokens = g_new0 (DcTokens, 1);
  g_autofree DcLine *lines = NULL;
  g_autofree DcToken *token_array = NULL;
  char magic[sizeof CACHE_MAGIC - 1], end[sizeof CACHE_END - 1];
  guint32 n_fonts, n_symbols, n_lines, n_tokens, n_texts;
  guint64 checksum = 0, expected;

  get (reader, magic, sizeof magic);
  if (memcmp (magic, CACHE_MAGIC, sizeof magic) != 0 || get_u32 (reader) != CACHE_FORMAT
      || get_u32 (reader) != 0x01020304 || get_u32 (reader) != sizeof (DcGlyph)
      || get_u32 (reader) != sizeof (DcLine) || get_u32 (reader) != sizeof (DcToken)
      || get_u32 (reader) != sizeof (ActualTextSpan))
    return NULL;
  stored_identity = get_string (reader);
  if (g_strcmp0 (stored_identity, identity) != 0)
    return NULL;
  get (reader, held_glyphs, sizeof *held_glyphs);
  get (reader, held_bytes, sizeof *held_bytes);

  document->sha256 = get_string (reader);
  document->language = get_string (reader);
  document->n_pages = get_u32 (reader);
  if (document->sha256 == NULL || document->n_pages == 0
      || !fits (reader, (guint64) document->n_pages, 2 * sizeof (double) + 2 * sizeof (guint)))
    return NULL;
  document->page_sizes = g_new (double, 2 * (gsize) document->n_pages);
  document->page_lines = g_new (guint, (gsize) document->n_pages + 1);
  document->page_blocks = g_new (guint, (gsize) document->n_pages + 1);
  get (reader, document->page_sizes, 2 * sizeof (double) * document->n_pages);
  get (reader, document->page_lines, sizeof (guint) * (document->n_pages + 1));
  get (reader, document->page_blocks, sizeof (guint) * (document->n_pages + 1));

  n_fonts = get_u32 (reader);
  for (guint f = 0; f < n_fonts && !reader->failed; f++)
    {
      DcFont *font = get_font (reader, f);

      if (font != NULL)
        g_ptr_array_add (document->fonts, font);
    }

  get_garray (reader, document->glyphs, sizeof (DcGlyph));
  n_symbols = get_u32 (reader);
  if (!get_symbols (reader, document, n_symbols))
    return NULL;
  document->symbol_is_space = get_block (reader, &document->space_capacity, 1);
  get_garray (reader, document->spans, sizeof (ActualTextSpan));
  n_texts = get_u32 (reader);
  if (fits (reader, n_texts, 1))
    {
      g_string_set_size (document->span_texts, n_texts);
      get (reader, document->span_texts->str, n_texts);
    }
  get_garray (reader, document->order, sizeof (guint32));
  lines = get_block (reader, &n_lines, sizeof (DcLine));
  if (!get_blocks (reader, document))
    return NULL;
  token_array = get_block (reader, &n_tokens, sizeof (DcToken));
  get (reader, end, sizeof end);
  expected = sum_finish (&reader->sum);
  get (reader, &checksum, sizeof checksum);
  if (reader->failed || reader->remaining != 0 || memcmp (end, CACHE_END, sizeof end) != 0
      || checksum != expected || document->symbol_is_space == NULL || lines == NULL
      || token_array == NULL)
    return NULL;

  g_array_append_vals (document->lines, lines, n_lines);
  tokens->ref_count = 1;
  tokens->generation = 1;
  tokens->lines = g_steal_pointer (&lines);
  tokens->n_lines = n_lines;
  tokens->tokens = g_steal_pointer (&token_array);
  tokens->n_tokens = n_tokens;
  tokens->n_symbols = n_symbols;
  tokens->symbol_is_space = g_memdup2 (document->symbol_is_space, document->space_capacity);
  document->tokens = g_steal_pointer (&tokens);
  if (!check_document (document, document->tokens))
    return NULL;
  return g_steal_pointer (&document);
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
      document = read_document (&reader, identity, &held_glyphs, &held_bytes);
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
