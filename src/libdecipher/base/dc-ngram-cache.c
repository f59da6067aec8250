/* dc-ngram-cache.c: the language models kept between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading the ~170 fingerprints of libexttextcat-data (dc-ngram.c) costs a run that
 * weighs readings of a font more than half its instructions on a one-page PDF (issue 32:
 * a one-file `text` within 1.5× of pdftotext's start). The tables made of them are
 * therefore written to a file and mapped back whole at the next run, while the stamp they
 * were made under still holds: the folder read, every file read (fpdb.conf and each
 * model) with its size and time to the nanosecond or as missing, and the Flatpak commits
 * where files carry no times. Model files the package manager installs (libexttextcat-data
 * in /usr/share) are stamped by their folder, whose time changes whenever dpkg installs,
 * replaces or removes one of them (base/dc-packaged.c): 165 stat() calls a run were one.
 * The stamp is taken before a file is read, so one changed while it is read makes the
 * next run read again, and it names the engine's build, whose code made the tables: none
 * is kept by a build without a build ID.
 *
 * The file is $DECIPHER_NGRAM_CACHE, none when that is "", else
 * ~/.cache/decipher/language-models. It holds, in the machine's byte order, a header
 * (Header), then the stamp, the names, the floors, the scripts, the letters, the table's
 * keys, starts and counts, and its entries, each section starting on 8 bytes. A file that
 * is not exactly as long as its header says, whose checksum differs, or whose tables
 * would lead a lookup out of them or into an endless probe, is not used: the models are
 * read from their files again and the cache replaced (g_file_set_contents(), so a
 * reader sees the old file or the new one whole).
 */

#define G_LOG_DOMAIN "dc-ngram"

#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dc-build-id-private.h"
#include "dc-file-private.h"
#include "dc-ngram-models-private.h"
#include "dc-packaged-private.h"

#define STAMP_FORMAT "decipher-ngram-stamp-2\n"
#define MAGIC "DCNGRAM\n"
/* Raised when the file's layout changes. What dc-ngram.c makes of the same files may
 * change with any build: the stamp names the build (dc-build-id.c). */
#define FORMAT 3
#define BYTE_ORDER_MARK 0x01020304u
/* Far beyond libexttextcat-data (~170 languages, ~60 k n-grams): a header claiming more
 * is damaged, and no sum below can overflow. */
#define MAX_LANGUAGES 0xFFFFu
#define MAX_COUNT (1u << 24)
#define MAX_FILE (256u << 20)

typedef struct
{
  char magic[8];
  guint32 format;
  guint32 byte_order;
  guint32 entry_size;
  guint32 n_languages;
  guint32 n_letters;
  guint32 stamp_length; /* bytes, its final NUL included */
  guint32 names_length; /* bytes, each name's NUL included */
  guint32 table_size;   /* slots: a power of two */
  guint32 n_entries;
  guint32 reserved;
  guint64 checksum; /* of everything after the header */
} Header;

/**
 * _dc_ngram_cache_path:
 *
 * Returns: (transfer full) (nullable): the cache file, %NULL when none is kept
 *   ($DECIPHER_NGRAM_CACHE is "" or the build has no ID)
 */
char *
_dc_ngram_cache_path (void)
{
  const char *path = g_getenv ("DECIPHER_NGRAM_CACHE");

  if (*_dc_build_id () == '\0')
    return NULL;
  if (path == NULL)
    return g_build_filename (g_get_user_cache_dir (), "decipher", "language-models", NULL);
  if (path[0] == '\0')
    return NULL;
  return g_strdup (path);
}

/**
 * _dc_ngram_stamp_new:
 * @dir: the folder the models are read from
 *
 * Returns: (transfer full): a stamp naming @dir, for _dc_ngram_stamp_add() to add to
 */
GString *
_dc_ngram_stamp_new (const char *dir)
{
  GString *stamp = g_string_new (STAMP_FORMAT);

  /* Another build may read the same files otherwise. A folder holding a newline is
   * recorded as one that never matches. */
  g_string_append_printf (stamp, "%s\n%s\n", _dc_build_id (),
                          strchr (dir, '\n') != NULL ? "\t" : dir);
  _dc_packaged_add_sandbox (stamp);
  return stamp;
}

/* Appends @path's line: its size and time, or that it is missing. */
static void
add_state (GString *stamp, const char *path)
{
  struct stat buf;

  /* A path that cannot be told apart from the stamp's separators makes a stamp that
   * never matches: a line without a tab. */
  if (strpbrk (path, "\t\n") != NULL)
    g_string_append (stamp, "-\n");
  else if (stat (path, &buf) != 0)
    g_string_append_printf (stamp, "%s\t-\n", path);
  else
    g_string_append_printf (stamp, "%s\t%" G_GINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld\n", path,
                            (gint64) buf.st_size, (gint64) buf.st_mtim.tv_sec,
                            (long) buf.st_mtim.tv_nsec);
}

/**
 * _dc_ngram_stamp_add:
 * @stamp: from _dc_ngram_stamp_new()
 * @path: a file about to be read
 *
 * Records @path's size and time, or that it is missing; for a file the package manager
 * installs, its folder's instead (once).
 */
void
_dc_ngram_stamp_add (GString *stamp, const char *path)
{
  g_autofree char *folder = NULL;
  g_autofree char *line = NULL;

  if (!_dc_packaged_file (path))
    {
      add_state (stamp, path);
      return;
    }
  /* Its folder's line stands for it, recorded once, before the first of its files. */
  folder = g_path_get_dirname (path);
  line = g_strconcat ("\n", folder, "\t", NULL);
  if (strstr (stamp->str, line) == NULL)
    add_state (stamp, folder);
}

/* Whether every file of @stamp is as it says: the stamp of the same files taken now
 * would be the same. Each file's size and time are compared with the ones recorded:
 * printing them anew for some 170 models was a third of reading the cache (issue 32). */
static gboolean
stamp_is_current (const char *stamp, const char *dir)
{
  g_autoptr (GString) now = _dc_ngram_stamp_new (dir);
  const char *line, *end;

  if (strncmp (stamp, now->str, now->len) != 0)
    return FALSE;
  for (line = stamp + now->len; *line != '\0'; line = end + 1)
    {
      const char *tab = strchr (line, '\t');
      g_autofree char *path = NULL;

      end = strchr (line, '\n');
      if (tab == NULL || end == NULL || tab > end)
        return FALSE;
      path = g_strndup (line, (gsize) (tab - line));
      if (!_dc_file_state_matches (path, tab + 1, end))
        return FALSE;
    }
  return TRUE;
}

/* A damaged byte changes this (a key, a weight: nothing a bounds check would see), and
 * it costs a small fraction of reading the models. Four lanes of running sums, each word
 * added to its lane's first sum and that sum to its second, so that where a word sits
 * counts too: independent additions the compiler makes vector ones of, where one
 * multiplication after another was six instructions a word, a tenth of a one-page
 * `text`'s own work (issue 32). */
static guint64
checksum (const char *data, gsize length)
{
  const guint64 *words = (const guint64 *) (const void *) data;
  const guint64 mix = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint64 a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0, sum = length;
  gsize n = length / 8, i;

  for (i = 0; i + 4 <= n; i += 4)
    {
      a0 += words[i], a1 += words[i + 1], a2 += words[i + 2], a3 += words[i + 3];
      b0 += a0, b1 += a1, b2 += a2, b3 += a3;
    }
  for (; i < n; i++)
    a0 += words[i], b0 += a0;
  for (guint k = 0; k < 8; k++)
    {
      const guint64 lanes[8] = { a0, a1, a2, a3, b0, b1, b2, b3 };

      sum = (sum ^ lanes[k]) * mix;
      sum ^= sum >> 29;
    }
  return sum;
}

static gsize
align8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

/* The sections' offsets, in the file's order; the last is the file's length. */
typedef struct
{
  gsize stamp, names, floors, scripts, letters, keys, starts, counts, entries, end;
} Layout;

static void
layout_of (const Header *h, Layout *l)
{
  /* Every count is below MAX_COUNT, so no sum can overflow. */
  l->stamp = align8 (sizeof *h);
  l->names = l->stamp + align8 (h->stamp_length);
  l->floors = l->names + align8 (h->names_length);
  l->scripts = l->floors + align8 ((gsize) h->n_languages * sizeof (double));
  l->letters = l->scripts + align8 ((gsize) h->n_languages * sizeof (gint32));
  l->keys = l->letters + align8 ((gsize) h->n_letters * sizeof (guint32));
  l->starts = l->keys + (gsize) h->table_size * sizeof (guint64);
  l->counts = l->starts + align8 ((gsize) h->table_size * sizeof (guint32));
  l->entries = l->counts + align8 ((gsize) h->table_size * sizeof (guint32));
  l->end = l->entries + (gsize) h->n_entries * sizeof (DcNgramEntry);
}

static gboolean
header_is_sound (const Header *h, gsize length, Layout *l)
{
  if (length < sizeof *h || memcmp (h->magic, MAGIC, sizeof h->magic) != 0 || h->format != FORMAT
      || h->byte_order != BYTE_ORDER_MARK || h->entry_size != sizeof (DcNgramEntry)
      || h->n_languages > MAX_LANGUAGES || h->n_letters > MAX_COUNT || h->stamp_length == 0
      || h->stamp_length > MAX_COUNT || h->names_length > MAX_COUNT || h->table_size < 2
      || h->table_size > MAX_COUNT || (h->table_size & (h->table_size - 1)) != 0
      || h->n_entries > MAX_COUNT)
    return FALSE;
  layout_of (h, l);
  return l->end == length;
}

/* Whether the names are n_languages UTF-8 strings filling their section. */
static gboolean
names_are_sound (const char *names, const Header *h)
{
  const char *p = names, *end = names + h->names_length;

  for (guint i = 0; i < h->n_languages; i++)
    {
      const char *nul = memchr (p, '\0', (gsize) (end - p));

      if (nul == NULL || !g_utf8_validate (p, nul - p, NULL))
        return FALSE;
      p = nul + 1;
    }
  return p == end;
}

/* Whether every lookup ends (a slot is empty) and stays within the entries, and every
 * entry names a language there is. Every slot and entry is looked at, without stopping
 * at the first fault: loops the compiler makes vector ones of. */
static gboolean
table_is_sound (const DcNgramModels *m, const Header *h)
{
  gboolean has_empty = FALSE, beyond = FALSE, unsound = FALSE;

  for (gsize i = 0; i < h->table_size; i++)
    {
      has_empty |= m->keys[i] == 0;
      beyond |= m->keys[i] != 0 && (guint64) m->starts[i] + m->counts[i] > h->n_entries;
    }
  for (gsize i = 0; i < h->n_entries; i++)
    unsound |= m->entries[i].language >= h->n_languages || !isfinite (m->entries[i].weight);
  return has_empty && !beyond && !unsound;
}

/* Maps @path whole, read-only: a one-page `text` copied the ~400 KB into fresh memory,
 * zeroed and faulted in page by page, to read it once (issue 32). The mapping is never
 * undone, as the models are kept for the process. Only a file truncated in place while
 * a run reads it could take pages away under it: Decipher replaces the cache whole
 * (g_file_set_contents() renames a new file over it), which leaves a mapped file as it
 * was. */
static gboolean
map_regular (const char *path, const char **data, gsize *length)
{
  struct stat st;
  void *mapped;
  int fd;

  if ((fd = _dc_file_open_regular (path, O_RDONLY, 0, NULL)) < 0)
    return FALSE;
  if (fstat (fd, &st) != 0 || st.st_size <= 0 || (guint64) st.st_size > MAX_FILE)
    {
      close (fd);
      return FALSE;
    }
  mapped = mmap (NULL, (gsize) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (mapped == MAP_FAILED)
    return FALSE;
  *data = mapped;
  *length = (gsize) st.st_size;
  return TRUE;
}

/**
 * _dc_ngram_cache_load:
 * @models: empty models to fill
 * @path: the cache file
 * @dir: the folder the models would be read from
 *
 * Returns: whether @models now hold what @path kept, made from the files as they are
 */
gboolean
_dc_ngram_cache_load (DcNgramModels *m, const char *path, const char *dir)
{
  const char *data = NULL;
  const Header *h;
  Layout l;
  gsize length;
  const char *name;
  const double *floors;
  const gint32 *scripts;
  const guint32 *letters;

  if (!map_regular (path, &data, &length))
    return FALSE;
  /* A mapping starts on a page, aligned for any type, and so is every section in it. */
  h = (const Header *) (const void *) data;
  /* The checksum is checked before the stamp, whose paths are the first thing used. */
  if (!header_is_sound (h, length, &l) || checksum (data + l.stamp, length - l.stamp) != h->checksum
      || data[l.stamp + h->stamp_length - 1] != '\0'
      || strlen (data + l.stamp) != h->stamp_length - 1 || !names_are_sound (data + l.names, h))
    {
      g_debug ("%s is not a cache of language models: they are read again", path);
      munmap ((void *) data, length);
      return FALSE;
    }
  if (!stamp_is_current (data + l.stamp, dir))
    {
      munmap ((void *) data, length);
      return FALSE;
    }
  m->keys = (guint64 *) (void *) (data + l.keys);
  m->starts = (guint32 *) (void *) (data + l.starts);
  m->counts = (guint32 *) (void *) (data + l.counts);
  m->entries = (DcNgramEntry *) (void *) (data + l.entries);
  if (!table_is_sound (m, h))
    {
      m->keys = NULL, m->starts = m->counts = NULL, m->entries = NULL;
      g_debug ("%s holds a damaged table of language models: they are read again", path);
      munmap ((void *) data, length);
      return FALSE;
    }
  m->mask = h->table_size - 1;
  m->n_entries = h->n_entries;
  floors = (const double *) (const void *) (data + l.floors);
  scripts = (const gint32 *) (const void *) (data + l.scripts);
  letters = (const guint32 *) (const void *) (data + l.letters);
  name = data + l.names;
  for (guint i = 0; i < h->n_languages; i++)
    {
      GUnicodeScript script = (GUnicodeScript) scripts[i];

      g_ptr_array_add (m->names, g_strdup (name));
      name += strlen (name) + 1;
      g_array_append_val (m->floors, floors[i]);
      g_array_append_val (m->scripts, script);
    }
  for (guint i = 0; i < h->n_letters; i++)
    g_hash_table_add (m->letters, GUINT_TO_POINTER (letters[i]));
  m->cache = (gpointer) data;
  m->from_cache = TRUE;
  return TRUE;
}

static void
append_section (GString *out, gconstpointer data, gsize length)
{
  g_string_append_len (out, data, (gssize) length);
  while (out->len % 8 != 0)
    g_string_append_c (out, '\0');
}

/**
 * _dc_ngram_cache_save:
 * @models: the models read from their files
 * @path: the cache file
 * @stamp: what _dc_ngram_stamp_new() and _dc_ngram_stamp_add() made before they were read
 *
 * Keeps @models for the next run; a cache that cannot be written is not kept, the user
 * is told so, and the models are read from their files again next time.
 */
void
_dc_ngram_cache_save (const DcNgramModels *m, const char *path, const char *stamp)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  g_autoptr (GArray) letters = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree gint32 *scripts = g_new0 (gint32, MAX (1, m->names->len));
  g_autofree DcNgramEntry *entries = g_new0 (DcNgramEntry, MAX (1, m->n_entries));
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  GHashTableIter iter;
  gpointer key;
  Header h = { .format = FORMAT,
               .byte_order = BYTE_ORDER_MARK,
               .entry_size = sizeof (DcNgramEntry) };
  gsize table_size = m->mask + 1;

  memcpy (h.magic, MAGIC, sizeof h.magic);
  if (m->names->len > MAX_LANGUAGES || table_size > MAX_COUNT || m->n_entries > MAX_COUNT)
    return;
  for (guint i = 0; i < m->names->len; i++)
    {
      g_string_append (names, g_ptr_array_index (m->names, i));
      g_string_append_c (names, '\0');
      scripts[i] = (gint32) g_array_index (m->scripts, GUnicodeScript, i);
    }
  g_hash_table_iter_init (&iter, m->letters);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint32 letter = GPOINTER_TO_UINT (key);

      g_array_append_val (letters, letter);
    }
  /* Field by field: the padding of an entry read would be whatever memory held. */
  for (gsize i = 0; i < m->n_entries; i++)
    entries[i].language = m->entries[i].language, entries[i].weight = m->entries[i].weight;
  h.n_languages = m->names->len;
  h.n_letters = letters->len;
  h.stamp_length = (guint32) strlen (stamp) + 1;
  h.names_length = (guint32) names->len;
  h.table_size = (guint32) table_size;
  h.n_entries = (guint32) m->n_entries;
  append_section (out, &h, sizeof h);
  append_section (out, stamp, h.stamp_length);
  append_section (out, names->str, names->len);
  append_section (out, m->floors->data, m->names->len * sizeof (double));
  append_section (out, scripts, m->names->len * sizeof (gint32));
  append_section (out, letters->data, letters->len * sizeof (guint32));
  append_section (out, m->keys, table_size * sizeof (guint64));
  append_section (out, m->starts, table_size * sizeof (guint32));
  append_section (out, m->counts, table_size * sizeof (guint32));
  append_section (out, entries, m->n_entries * sizeof (DcNgramEntry));
  h.checksum = checksum (out->str + align8 (sizeof h), out->len - align8 (sizeof h));
  memcpy (out->str, &h, sizeof h);
  g_mkdir_with_parents (folder, 0700);
  /* Said, not only logged for debugging: a cache that is never written (a folder named
   * where a file is meant, a cache folder that cannot be written) makes every run read
   * the models again, several times the work of a one-page `text`, with no other sign. */
  if (!g_file_set_contents (path, out->str, (gssize) out->len, &error))
    g_message ("The language models could not be kept for the next run: %s. Each run reads "
               "them again, which is slower; $DECIPHER_NGRAM_CACHE can name another file "
               "for them.",
               error->message);
}
