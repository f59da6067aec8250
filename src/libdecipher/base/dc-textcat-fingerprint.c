/* dc-textcat-fingerprint.c: libexttextcat's fingerprint of a text, made again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fp_Create() (libexttextcat 3.4) cleans the text (a run of spaces and digits becomes
 * one '_'), counts its n-grams of one to five characters in a chained hash table, passes
 * the table, bucket by bucket, through a heap that keeps the 400 most frequent, and ranks
 * them in the order the heap gives them back; fp_Print() lists them by rank. Which of
 * equally frequent n-grams make the cut, and in which order, follows from the hash, the
 * order of the buckets and of the entries within one (the newest first), and the heap's
 * moves; so all of these are made as the library makes them, and only the cost differs:
 * the hash is carried along as an n-gram grows by a character, an n-gram is a slice of
 * the cleaned text, the heap moves indices, and the ranks are read without sorting and
 * printing them. It was most of the JSON export's language guesses.
 *
 * tests/test-textcat.c compares the n-grams with fp_Create()'s and fp_Print()'s on many
 * texts.
 */

#define G_LOG_DOMAIN "dc-textcat"

#include "config.h"

#include <ctype.h>
#include <string.h>

#include <constants.h>

#include "dc-textcat-private.h"

#define N_BUCKETS (1u << TABLEPOW)

/* One n-gram of the text and its count; its bytes are cleaned[offset … offset + length). */
typedef struct
{
  guint32 count;
  guint32 next; /* the entry after it in its bucket, + 1; 0 for none */
  guint32 hash;
  guint32 offset;
  guint32 length;
} Gram;

/* The heap's entries carry their count: it moves them millions of times. */
typedef struct
{
  guint32 count;
  guint32 gram;
} HeapEntry;

typedef struct
{
  const char *cleaned;
  guint32 *buckets; /* N_BUCKETS: the newest entry of each, + 1, where used says so */
  guint64 *used;    /* N_BUCKETS bits */
  Gram *grams;
  guint n_grams, grams_size;
  HeapEntry *heap;
  guint heap_length;
} Counts;

/* Bytes after the cleaned text, so that n-grams can be compared a word at a time. */
#define PADDING 8

/* The library's INVALID(): what is no part of a word, in the locale's ctype. */
static inline gboolean
is_invalid (char c)
{
  return isspace ((unsigned char) c) || isdigit ((unsigned char) c);
}

/* prepbuffer(): runs of invalid bytes as one '_', a '_' before the first word and after
 * the last byte written when the room (@size + 1 bytes) runs out. It counts what it
 * writes, not what it reads, so it may read past @size (up to the NUL), as the library
 * does; @read is how far it looked. */
static char *
clean (const char *text, gsize size, gsize *read)
{
  const char *p = text;
  char *cleaned = g_malloc0 (size + 3 + PADDING);
  char *w = cleaned, *limit = cleaned + size + 1;

  if (is_invalid (*p))
    goto space;
  if (*p == '\0')
    goto end;
  *w++ = '_';
  if (w == limit)
    goto stop;
  goto word;
space:
  p++;
  if (is_invalid (*p))
    goto space;
  if (*p == '\0')
    goto end;
  *w++ = '_';
  if (w == limit)
    goto stop;
word:
  *w++ = *p++;
  if (w == limit)
    goto end;
  if (is_invalid (*p))
    goto space;
  if (*p == '\0')
    goto stop;
  goto word;
end:
  *w++ = '_';
stop:
  *w = '\0';
  /* The byte at p was looked at too, unless it is the NUL. */
  *read = (gsize) (p - text) + (*p != '\0');
  return cleaned;
}

/**
 * _dc_textcat_bytes_read:
 * @text: NUL-terminated
 * @size: the size the fingerprint is asked for
 *
 * How many bytes of @text the fingerprint of its first @size bytes depends on: more than
 * @size where runs of spaces and digits were folded into one byte, since cleaning counts
 * what it writes. A cache of guesses must key on all of them.
 *
 * Returns: a byte count, at most strlen (@text)
 */
gsize
_dc_textcat_bytes_read (const char *text, gsize size)
{
  gsize read;

  g_return_val_if_fail (text != NULL, 0);

  g_free (clean (text, size, &read));
  return read;
}

/* The bytes utf8_charcopy() takes for the character at @p: as many as the lead byte's
 * high bits say (whatever follows them), never the NUL. Sets @cut where the NUL came
 * first: the library then compares bytes past the end of its copy. */
static inline guint
char_length (const char *p, gboolean *cut)
{
  guint n = 0;

  if ((guchar) *p & 0x80)
    {
      guchar escape = (guchar) (((guchar) *p & 0xF0) << 1);

      while ((escape & 0x80) && p[n] != '\0')
        {
          escape = (guchar) (escape << 1);
          n++;
        }
      if (escape & 0x80)
        *cut = TRUE;
    }
  if (p[n] != '\0')
    n++;
  return n;
}

/* Whether @length bytes at @a and @b are the same, a word at a time (the text is padded). */
static inline gboolean
same_bytes (const char *a, const char *b, guint length)
{
  guint64 x, y;

  for (; length >= 8; length -= 8, a += 8, b += 8)
    {
      memcpy (&x, a, 8);
      memcpy (&y, b, 8);
      if (x != y)
        return FALSE;
    }
  if (length == 0)
    return TRUE;
  memcpy (&x, a, 8);
  memcpy (&y, b, 8);
  return ((GUINT64_FROM_LE (x) ^ GUINT64_FROM_LE (y))
          & ((G_GUINT64_CONSTANT (1) << (length * 8)) - 1))
         == 0;
}

/* increasefreq() of the n-gram at @offset, @length bytes, whose simplehash() is @hash. */
static inline void
count (Counts *counts, guint offset, guint length, guint32 hash)
{
  guint b = hash & (N_BUCKETS - 1);
  guint64 bit = G_GUINT64_CONSTANT (1) << (b % 64);
  Gram *grams = counts->grams, *gram;
  guint32 first = 0;

  if (counts->used[b / 64] & bit)
    {
      first = counts->buckets[b];
      for (guint32 e = first; e != 0; e = grams[e - 1].next)
        {
          gram = &grams[e - 1];
          if (gram->hash == hash && gram->length == length
              && same_bytes (counts->cleaned + gram->offset, counts->cleaned + offset, length))
            {
              gram->count++;
              return;
            }
        }
    }
  if (G_UNLIKELY (counts->n_grams == counts->grams_size))
    {
      counts->grams_size *= 2;
      counts->grams = grams = g_renew (Gram, counts->grams, counts->grams_size);
    }
  grams[counts->n_grams++] = (Gram){ 1, first, hash, offset, length };
  counts->buckets[b] = counts->n_grams;
  counts->used[b / 64] |= bit;
}

/* One character of the cleaned text as count_ngrams() reads it: where it starts, its
 * bytes' part of simplehash() and 31 to the power of their number. */
typedef struct
{
  guint32 offset;
  guint32 hash;
  guint32 power;
  gboolean underscore;
} Char;

/* The characters of the cleaned text, cut as utf8_charcopy() cuts them, into @chars (room
 * for one a byte); -1 when the last is cut by the end of the text. Each is read by up to
 * MAXNGRAMSYMBOL n-grams: cut and hashed once. */
static int
split_chars (const char *text, Char *chars)
{
  gboolean cut = FALSE;
  int n_chars = 0;

  for (const char *p = text; *p != '\0';)
    {
      guint n = char_length (p, &cut);
      Char *c = &chars[n_chars++];

      if (cut)
        return -1;
      c->offset = (guint32) (p - text);
      c->hash = 0;
      c->power = 1;
      c->underscore = *p == '_';
      for (guint i = 0; i < n; i++)
        {
          c->hash = c->hash * 31 + (guint32) (gint32) (signed char) p[i];
          c->power *= 31;
        }
      p += n;
    }
  return n_chars;
}

/* utfcreatengramtable(): from each character, the n-grams of one to MAXNGRAMSYMBOL
 * characters, the longer ones ending at the first '_' after the first character, until
 * one reaches the end of the text. simplehash() of n bytes b1 … bn making k characters is
 * k·13·31ⁿ + Σ bi·31ⁿ⁻ⁱ (bytes signed, as the library's char), carried along as the
 * n-gram grows by a character. FALSE when a character is cut by the end of the text. */
static gboolean
count_ngrams (Counts *counts)
{
  guint length = (guint) strlen (counts->cleaned);
  g_autofree Char *chars = g_new (Char, length + 1);
  int split = split_chars (counts->cleaned, chars);
  guint n_chars, end = length;

  if (split < 0)
    return FALSE;
  n_chars = (guint) split;
  for (guint i = 0; i < n_chars; i++)
    {
      guint32 sum = 0, power = 1;

      for (guint k = 1; k <= MAXNGRAMSYMBOL; k++)
        {
          const Char *c = &chars[i + k - 1];
          guint stop = i + k < n_chars ? chars[i + k].offset : end;

          sum = sum * c->power + c->hash;
          power *= c->power;
          count (counts, chars[i].offset, stop - chars[i].offset, k * 13 * power + sum);
          if (k > 1 && c->underscore)
            break;
          if (i + k == n_chars)
            return TRUE;
        }
    }
  return TRUE;
}

/**
 * _dc_textcat_hash:
 * @ngram: an n-gram, as the fingerprint lists it
 *
 * Returns: simplehash() of @ngram, as _dc_textcat_fingerprint() gives it for an n-gram of
 *   the text made of the same bytes, which are cut into the same characters
 */
guint32
_dc_textcat_hash (const char *ngram)
{
  guint32 sum = 0, power = 1, k = 0;
  gboolean cut = FALSE;

  for (const char *p = ngram; *p != '\0'; k++)
    {
      guint n = char_length (p, &cut);

      for (guint i = 0; i < n; i++)
        {
          sum = sum * 31 + (guint32) (gint32) (signed char) p[i];
          power *= 31;
        }
      p += n;
    }
  return k * 13 * power + sum;
}

/* The heap of table2heap(), heapinsert() and heapextract(): the least count on top. */
static inline void
swap (HeapEntry *heap, guint a, guint b)
{
  HeapEntry t = heap[a];

  heap[a] = heap[b];
  heap[b] = t;
}

static void
sift_up (HeapEntry *heap, guint child)
{
  while (child > 0)
    {
      guint parent = (child - 1) >> 1;

      if (heap[parent].count <= heap[child].count)
        return;
      swap (heap, parent, child);
      child = parent;
    }
}

static void
sift_down (HeapEntry *heap, guint length, guint parent)
{
  guint child = parent * 2 + 1;

  while (child < length)
    {
      if (child + 1 < length && heap[child].count > heap[child + 1].count)
        child++;
      if (heap[parent].count <= heap[child].count)
        return;
      swap (heap, parent, child);
      parent = child;
      child = parent * 2 + 1;
    }
}

static void
heap_insert (Counts *counts, guint gram)
{
  HeapEntry entry = { counts->grams[gram].count, gram };

  if (counts->heap_length < MAXNGRAMS)
    {
      counts->heap[counts->heap_length] = entry;
      sift_up (counts->heap, counts->heap_length);
      counts->heap_length++;
      return;
    }
  /* An equal count takes the top's place. */
  if (entry.count < counts->heap[0].count)
    return;
  counts->heap[0] = entry;
  sift_down (counts->heap, counts->heap_length, 0);
}

/* heapextract() sifts the last entry down from the top with the heap still counting it. */
static guint
heap_extract (Counts *counts)
{
  guint top = counts->heap[0].gram;

  if (counts->heap_length > 1)
    counts->heap[0] = counts->heap[counts->heap_length - 1];
  sift_down (counts->heap, counts->heap_length, 0);
  counts->heap_length--;
  return top;
}

/**
 * _dc_textcat_fingerprint:
 * @text: what fp_Create() is given: read from its start up to @size bytes of cleaned
 *   text, maybe past @size, never past its NUL
 * @ngrams: (out): where to add the fingerprint's n-grams, by rank, pointing into the
 *   returned string
 * @replayed: (out): FALSE when the text ends in a character cut short, where the library
 *   reads past what it copied: then nothing is added and the library must be asked
 *
 * fp_Create (handle, @text, @size, MAXNGRAMS) with TCPROP_UTF8AWARE and MINDOCSIZE,
 * read by fp_Print(). No n-gram, with @replayed set, is fp_Create()'s failure: a text
 * too short.
 *
 * Returns: (transfer full) (nullable): the n-grams' bytes, each ending in a NUL
 */
char *
_dc_textcat_fingerprint (const char *text, gsize size, GPtrArray *ngrams, gboolean *replayed)
{
  return _dc_textcat_fingerprint_hashed (text, size, ngrams, NULL, replayed);
}

/**
 * _dc_textcat_fingerprint_hashed:
 * @hashes: (nullable): where to add each n-gram's simplehash() (_dc_textcat_hash()), a
 *   guint32, in the order of @ngrams
 *
 * _dc_textcat_fingerprint() with the n-grams' hashes, worked out while counting them.
 */
char *
_dc_textcat_fingerprint_hashed (const char *text, gsize size, GPtrArray *ngrams, GArray *hashes,
                                gboolean *replayed)
{
  g_autofree char *cleaned = NULL;
  g_autofree guint32 *buckets = NULL;
  guint64 used[N_BUCKETS / 64] = { 0 };
  g_autofree HeapEntry *heap = NULL;
  Counts counts = { 0 };
  guint n;
  gsize total = 0;
  char *out, *w;
  g_autofree guint *ranked = NULL;
  guint first_hash = 0;

  g_return_val_if_fail (text != NULL && ngrams != NULL && replayed != NULL, NULL);

  *replayed = TRUE;
  if (size < MINDOCSIZE)
    return NULL;
  counts.cleaned = cleaned = clean (text, size, &(gsize){ 0 });
  /* A bucket is read only once used, so the table needs no clearing. */
  counts.buckets = buckets = g_new (guint32, N_BUCKETS);
  counts.used = used;
  counts.grams_size = 4096;
  counts.grams = g_new (Gram, counts.grams_size);
  counts.heap = heap = g_new (HeapEntry, MAXNGRAMS);
  if (!count_ngrams (&counts))
    {
      g_free (counts.grams);
      *replayed = FALSE;
      return NULL;
    }
  for (guint word = 0; word < N_BUCKETS / 64; word++)
    for (guint64 bits = used[word]; bits != 0; bits &= bits - 1)
      for (guint32 e = buckets[word * 64 + (guint) __builtin_ctzll (bits)]; e != 0;
           e = counts.grams[e - 1].next)
        heap_insert (&counts, e - 1);
  n = counts.heap_length;
  ranked = g_new (guint, MAX (n, 1));
  for (guint i = n; i-- > 0;)
    ranked[i] = heap_extract (&counts);
  for (guint i = 0; i < n; i++)
    total += counts.grams[ranked[i]].length + 1;
  out = w = g_malloc (MAX (total, 1));
  if (hashes != NULL)
    {
      first_hash = hashes->len;
      g_array_set_size (hashes, first_hash + n);
    }
  for (guint i = 0; i < n; i++)
    {
      const Gram *gram = &counts.grams[ranked[i]];

      memcpy (w, cleaned + gram->offset, gram->length);
      w[gram->length] = '\0';
      g_ptr_array_add (ngrams, w);
      if (hashes != NULL)
        g_array_index (hashes, guint32, first_hash + i) = gram->hash;
      w += gram->length + 1;
    }
  g_free (counts.grams);
  return out;
}
