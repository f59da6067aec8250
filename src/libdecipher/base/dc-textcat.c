/* dc-textcat.c: libexttextcat's classifier, same answers, less work
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * textcat_ClassifyFull() merges the text's 400 n-grams with each of the ~160 languages'
 * 400, one language after another: two thirds of its cost, as a wrong language's distance
 * passes the running cutoff only late. Here every language's n-grams sit in one table
 * keyed by n-gram, so the text's n-grams are looked up once and each language's distance
 * is a sum over the hits. The distance is the same number: the merge adds |rank − rank'|
 * for an n-gram both hold and MAXOUTOFPLACE for one the language lacks, provided neither
 * side repeats an n-gram (checked: a repeat falls back to the library). The merge stops
 * with MAXSCORE once its sum, which only grows, passes the cutoff, that is exactly when
 * the whole sum does; so replaying the library's loop over the whole sums, in its order,
 * with its cutoff, gives its candidates, scores and sort.
 *
 * The text's fingerprint is fp_Create()'s, made again by dc-textcat-fingerprint.c (n-grams
 * by rank, as fp_Print() lists them). fpdb.conf and the models are read as
 * special_textcat_Init() and fp_Read() read them (tests/test-textcat.c compares the
 * verdicts); a line using wg_split()'s quoting or a model repeating an n-gram leaves
 * everything to the library, which is otherwise never loaded.
 */

#define G_LOG_DOMAIN "dc-textcat"

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <constants.h>

#include "dc-textcat-private.h"

typedef struct
{
  guint16 language;
  guint16 rank;
} Entry;

struct _DcTextcat
{
  char *conffile, *prefix;
  GMutex library_lock; /* guards the three below */
  void *library;
  candidate_t *library_output;
  gboolean library_failed;

  GPtrArray *names; /* the languages, fpdb.conf's order */
  /* Every language's n-grams in one table: an id per n-gram, its entries
   * entries[starts[id] … starts[id + 1]), by language. */
  GStringChunk *keys;
  guint *starts;
  Entry *entries;
  GArray *loading; /* (id, Entry) while the models are read */
  gboolean fast;
  /* The n-grams by their simplehash() (_dc_textcat_hash()), which the fingerprint works
   * out anyway: open addressing, at most half full, slot → id + 1 (0: empty) and the
   * hash; the ids' n-grams in keys_by_id. Made while the models are read, which meet
   * each n-gram two or three times. */
  GPtrArray *keys_by_id;
  guint32 *slot_hashes;
  guint *slot_ids;
  guint slot_mask;
};

typedef struct
{
  guint id;
  Entry entry;
} Loaded;

/* wg_trim(): the locale's isspace(), as the library's. */
static char *
trim (char *line)
{
  char *end;

  while (isspace ((unsigned char) *line))
    line++;
  end = line + strlen (line);
  while (end > line && isspace ((unsigned char) end[-1]))
    end--;
  *end = '\0';
  return line;
}

static inline guint
first_slot (const DcTextcat *self, guint32 hash)
{
  return (hash * 0x9E3779B1u) & self->slot_mask;
}

/* The id + 1 of @ngram, whose hash is @hash; 0 when no language holds it. */
static inline guint
find_id (const DcTextcat *self, const char *ngram, guint32 hash)
{
  for (guint slot = first_slot (self, hash); self->slot_ids[slot] != 0;
       slot = (slot + 1) & self->slot_mask)
    if (self->slot_hashes[slot] == hash
        && strcmp (g_ptr_array_index (self->keys_by_id, self->slot_ids[slot] - 1), ngram) == 0)
      return self->slot_ids[slot];
  return 0;
}

static void
put_slot (DcTextcat *self, guint32 hash, guint id)
{
  guint slot = first_slot (self, hash);

  while (self->slot_ids[slot] != 0)
    slot = (slot + 1) & self->slot_mask;
  self->slot_ids[slot] = id + 1;
  self->slot_hashes[slot] = hash;
}

/* A table of @size slots (a power of two) holding the ids so far. */
static void
resize_slots (DcTextcat *self, guint size)
{
  g_autofree guint32 *hashes = self->slot_hashes;
  g_autofree guint *ids = self->slot_ids;
  guint old_size = ids != NULL ? self->slot_mask + 1 : 0;

  self->slot_mask = size - 1;
  self->slot_hashes = g_new0 (guint32, size);
  self->slot_ids = g_new0 (guint, size);
  for (guint slot = 0; slot < old_size; slot++)
    if (ids[slot] != 0)
      put_slot (self, hashes[slot], ids[slot] - 1);
}

/* The id of @ngram, given one if new. */
static guint
intern_ngram (DcTextcat *self, const char *ngram)
{
  guint32 hash = _dc_textcat_hash (ngram);
  guint found = find_id (self, ngram, hash);
  guint id;

  if (found != 0)
    return found - 1;
  id = self->keys_by_id->len;
  g_ptr_array_add (self->keys_by_id, g_string_chunk_insert (self->keys, ngram));
  if (2 * self->keys_by_id->len > self->slot_mask + 1)
    resize_slots (self, 2 * (self->slot_mask + 1));
  put_slot (self, hash, id);
  return id;
}

/* The bytes of the file at @path, as fopen() and fread() read them: NULL when it cannot
 * be opened. */
static GString *
read_whole (const char *path)
{
  FILE *file = fopen (path, "r");
  GString *contents;
  char chunk[8192];
  gsize n;

  if (file == NULL)
    return NULL;
  contents = g_string_sized_new (sizeof chunk);
  while ((n = fread (chunk, 1, sizeof chunk, file)) > 0)
    g_string_append_len (contents, chunk, (gssize) n);
  fclose (file);
  return contents;
}

/* fp_Read (model, path, MAXNGRAMS) read into the table: the rank of an n-gram is its
 * line's among the lines kept. The file is read whole and cut as fgets() into a buffer
 * of 1024 bytes cuts it: a line with its newline, or the 1023 bytes that fit. */
static gboolean
add_model (DcTextcat *self, const char *path)
{
  char buffer[1024];
  guint16 language = (guint16) self->names->len;
  guint16 rank = 0;
  g_autoptr (GString) contents = read_whole (path);
  /* The model's entries, added to the others at once. */
  Loaded loaded[MAXNGRAMS];

  if (contents == NULL)
    return FALSE;
  for (gsize at = 0; rank < MAXNGRAMS && at < contents->len;)
    {
      gsize n = MIN (contents->len - at, sizeof buffer - 1);
      const char *newline = memchr (contents->str + at, '\n', n);
      char *ngram, *end;

      if (newline != NULL)
        n = (gsize) (newline - (contents->str + at)) + 1;
      memcpy (buffer, contents->str + at, n);
      buffer[n] = '\0';
      at += n;
      /* strcspn (buffer, "\n\r"), then strcspn (ngram, " \t"), for a few bytes each. */
      for (end = buffer; *end != '\0' && *end != '\n' && *end != '\r'; end++)
        ;
      *end = '\0';
      ngram = trim (buffer);
      for (end = ngram; *end != '\0' && *end != ' ' && *end != '\t'; end++)
        ;
      *end = '\0';
      if (end - ngram > MAXNGRAMSIZE)
        continue;
      loaded[rank] = (Loaded){ intern_ngram (self, ngram), { language, rank } };
      rank++;
    }
  g_array_append_vals (self->loading, loaded, rank);
  return TRUE;
}

/* The entries grouped by n-gram, each group by language; FALSE when a model repeats an
 * n-gram, which makes the merge's answer depend on qsort()'s order of equal n-grams. */
static gboolean
group_entries (DcTextcat *self)
{
  guint n_ids = self->keys_by_id->len;
  g_autofree guint *next = g_new0 (guint, n_ids + 1);

  self->starts = g_new0 (guint, n_ids + 1);
  self->entries = g_new (Entry, self->loading->len);
  for (guint i = 0; i < self->loading->len; i++)
    self->starts[g_array_index (self->loading, Loaded, i).id + 1]++;
  for (guint id = 0; id < n_ids; id++)
    self->starts[id + 1] += self->starts[id];
  memcpy (next, self->starts, (n_ids + 1) * sizeof *next);
  /* In the order read, so by language within a group. */
  for (guint i = 0; i < self->loading->len; i++)
    {
      const Loaded *loaded = &g_array_index (self->loading, Loaded, i);
      guint at = next[loaded->id]++;

      if (at > self->starts[loaded->id] && self->entries[at - 1].language == loaded->entry.language)
        return FALSE;
      self->entries[at] = loaded->entry;
    }
  return TRUE;
}

/* special_textcat_Init()'s reading: 1024-byte lines, '#' comments, file and name. */
static gboolean
load_models (DcTextcat *self, const char *conffile, const char *prefix)
{
  char line[1024];
  FILE *conf = fopen (conffile, "r");
  gboolean ok = conf != NULL;

  while (ok && fgets (line, sizeof line, conf) != NULL)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *path = NULL;
      const char *field[2] = { NULL, NULL };
      guint n = 0;
      char *p;

      line[strcspn (line, "\n\r")] = '\0';
      if ((p = strchr (line, '#')) != NULL)
        *p = '\0';
      /* wg_split()'s quoting is left to the library. */
      if (strpbrk (line, "'\\") != NULL)
        {
          ok = FALSE;
          break;
        }
      for (p = line; *p != '\0'; p++)
        if (isspace ((unsigned char) *p))
          *p = ' ';
      fields = g_strsplit (line, " ", -1);
      for (guint i = 0; fields[i] != NULL && n < 2; i++)
        if (*fields[i] != '\0')
          field[n++] = fields[i];
      if (n < 2)
        continue;
      path = g_strconcat (prefix, field[0], NULL);
      ok = self->names->len < G_MAXUINT16 && add_model (self, path);
      g_ptr_array_add (self->names, g_strdup (field[1]));
    }
  if (conf != NULL)
    fclose (conf);
  return ok && self->names->len > 0;
}

/* The library's own classifier, for what the table cannot answer: loaded only then. */
static void *
library (DcTextcat *self)
{
  if (self->library == NULL && !self->library_failed)
    {
      self->library = special_textcat_Init (self->conffile, self->prefix);
      self->library_failed = self->library == NULL;
      if (self->library != NULL)
        self->library_output = textcat_GetClassifyFullOutput (self->library);
    }
  return self->library;
}

DcTextcat *
_dc_textcat_new (const char *conffile, const char *prefix)
{
  DcTextcat *self = g_new0 (DcTextcat, 1);

  g_mutex_init (&self->library_lock);
  self->conffile = g_strdup (conffile);
  self->prefix = g_strdup (prefix);
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->keys = g_string_chunk_new (64 * 1024);
  self->loading = g_array_new (FALSE, FALSE, sizeof (Loaded));
  self->keys_by_id = g_ptr_array_new ();
  resize_slots (self, 1024);
  self->fast = load_models (self, conffile, prefix) && group_entries (self);
  g_clear_pointer (&self->loading, g_array_unref);
  if (!self->fast)
    {
      g_debug ("language fingerprints left to libexttextcat's own comparison");
      if (library (self) == NULL)
        {
          _dc_textcat_free (self);
          return NULL;
        }
    }
  return self;
}

void
_dc_textcat_free (DcTextcat *self)
{
  if (self == NULL)
    return;
  if (self->library != NULL)
    {
      textcat_ReleaseClassifyFullOutput (self->library, self->library_output);
      textcat_Done (self->library);
    }
  g_mutex_clear (&self->library_lock);
  g_free (self->conffile);
  g_free (self->prefix);
  g_ptr_array_unref (self->names);
  g_string_chunk_free (self->keys);
  g_ptr_array_unref (self->keys_by_id);
  g_free (self->slot_hashes);
  g_free (self->slot_ids);
  g_free (self->starts);
  g_free (self->entries);
  if (self->loading != NULL)
    g_array_unref (self->loading);
  g_free (self);
}

gboolean
_dc_textcat_is_fast (DcTextcat *self)
{
  return self->fast;
}

/* The most candidates _dc_textcat_classify() writes, fast or not. */
guint
_dc_textcat_n_languages (DcTextcat *self)
{
  return MAX (self->names->len, MAXCANDIDATES + 1);
}

static int
by_score (const void *a, const void *b)
{
  const candidate_t *x = a, *y = b;

  /* The library's comparison: qsort() of the same array then orders ties the same. */
  return x->score - y->score;
}

static int
by_id (const void *a, const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* Every language's whole distance to the text whose n-grams, by rank, are @ngrams; FALSE
 * when the text repeats an n-gram that a language holds (which the library's merge would
 * count once). */
static gboolean
distances (DcTextcat *self, GPtrArray *ngrams, const guint32 *hashes, int *sums)
{
  g_autofree guint *hits = g_new (guint, ngrams->len + 1);
  guint n_hits = 0;

  for (guint i = 0; i < self->names->len; i++)
    sums[i] = (int) ngrams->len * MAXOUTOFPLACE;
  for (guint rank = 0; rank < ngrams->len; rank++)
    {
      guint found = find_id (self, g_ptr_array_index (ngrams, rank), hashes[rank]);
      guint id = found - 1;

      if (found == 0)
        continue;
      hits[n_hits++] = id;
      for (guint k = self->starts[id]; k < self->starts[id + 1]; k++)
        {
          const Entry *entry = &self->entries[k];

          sums[entry->language] += ABS ((int) entry->rank - (int) rank) - MAXOUTOFPLACE;
        }
    }
  qsort (hits, n_hits, sizeof *hits, by_id);
  for (guint i = 1; i < n_hits; i++)
    if (hits[i] == hits[i - 1])
      return FALSE;
  return TRUE;
}

/* textcat_ClassifyFull()'s loop and verdict, over whole distances. */
static int
verdict (DcTextcat *self, const int *sums, candidate_t *candidates)
{
  int minscore = MAXSCORE, threshold = MAXSCORE;
  guint cnt = 0;

  for (guint i = 0; i < self->names->len; i++)
    {
      int score = sums[i] > threshold ? MAXSCORE : sums[i];

      candidates[i].score = score;
      candidates[i].name = g_ptr_array_index (self->names, i);
      if (score < minscore)
        {
          minscore = score;
          threshold = (int) ((double) score * THRESHOLDVALUE);
        }
    }
  for (guint i = 0; i < self->names->len; i++)
    if (candidates[i].score < threshold)
      {
        if (++cnt == MAXCANDIDATES + 1)
          return TEXTCAT_RESULT_UNKNOWN;
        candidates[cnt - 1] = candidates[i];
      }
  qsort (candidates, cnt, sizeof *candidates, by_score);
  return (int) cnt;
}

static int
classify_by_library (DcTextcat *self, const char *buffer, gsize size, candidate_t *candidates)
{
  int n;

  g_mutex_lock (&self->library_lock);
  n = library (self) != NULL
          ? textcat_ClassifyFull (self->library, buffer, size, self->library_output)
          : TEXTCAT_RESULT_UNKNOWN;
  for (int i = 0; i < n && i < MAXCANDIDATES; i++)
    candidates[i] = self->library_output[i];
  g_mutex_unlock (&self->library_lock);
  return n;
}

/**
 * _dc_textcat_classify:
 * @candidates: (out): room for _dc_textcat_n_languages() candidates
 *
 * textcat_ClassifyFull() of @buffer: the same count, candidates, scores and order. Calls
 * may run at once.
 *
 * Returns: the number of candidates, or TEXTCAT_RESULT_UNKNOWN / TEXTCAT_RESULT_SHORT
 */
int
_dc_textcat_classify (DcTextcat *self, const char *buffer, gsize size, candidate_t *candidates)
{
  g_autoptr (GPtrArray) ngrams = g_ptr_array_new ();
  g_autoptr (GArray) hashes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *text = NULL;
  g_autofree int *sums = NULL;
  gboolean replayed;

  g_return_val_if_fail (self != NULL && buffer != NULL && candidates != NULL, 0);

  if (!self->fast)
    return classify_by_library (self, buffer, size, candidates);
  text = _dc_textcat_fingerprint_hashed (buffer, size, ngrams, hashes, &replayed);
  if (!replayed)
    return classify_by_library (self, buffer, size, candidates);
  if (ngrams->len == 0)
    return TEXTCAT_RESULT_SHORT;
  sums = g_new (int, self->names->len);
  if (!distances (self, ngrams, (const guint32 *) (void *) hashes->data, sums))
    return classify_by_library (self, buffer, size, candidates);
  return verdict (self, sums, candidates);
}
