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
  guint32 offset;
  guint32 length;
} Gram;

typedef struct
{
  const char *cleaned;
  guint32 *buckets; /* N_BUCKETS: the newest entry of each, + 1 */
  Gram *grams;
  guint n_grams, grams_size;
  guint *heap;
  guint heap_length;
} Counts;

/* The library's INVALID(): what is no part of a word, in the locale's ctype. */
static inline gboolean
is_invalid (char c)
{
  return isspace ((unsigned char) c) || isdigit ((unsigned char) c);
}

/* prepbuffer(): runs of invalid bytes as one '_', a '_' before the first word and after
 * the last byte written when the room (@size + 1 bytes) runs out. It counts what it
 * writes, not what it reads, so it may read past @size (up to the NUL), as the library
 * does. */
static char *
clean (const char *text, gsize size)
{
  const char *p = text;
  char *cleaned = g_malloc (size + 3);
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
  return cleaned;
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

/* increasefreq() of the n-gram at @offset, @length bytes, whose simplehash() is @hash. */
static void
count (Counts *counts, guint32 offset, guint32 length, guint32 hash)
{
  guint32 *bucket = &counts->buckets[hash & (N_BUCKETS - 1)];
  Gram *gram;

  for (guint32 e = *bucket; e != 0; e = counts->grams[e - 1].next)
    {
      gram = &counts->grams[e - 1];
      if (gram->length == length
          && memcmp (counts->cleaned + gram->offset, counts->cleaned + offset, length) == 0)
        {
          gram->count++;
          return;
        }
    }
  if (counts->n_grams == counts->grams_size)
    {
      counts->grams_size *= 2;
      counts->grams = g_renew (Gram, counts->grams, counts->grams_size);
    }
  gram = &counts->grams[counts->n_grams++];
  *gram = (Gram){ 1, *bucket, offset, length };
  *bucket = counts->n_grams;
}

/* utfcreatengramtable(): from each character, the n-grams of one to MAXNGRAMSYMBOL
 * characters, the longer ones ending at the first '_' after the first character.
 * simplehash() of n bytes b1 … bn making k characters is k·13·31ⁿ + Σ bi·31ⁿ⁻ⁱ (bytes
 * signed, as the library's char), carried along as the n-gram grows. FALSE when a
 * character is cut by the end of the text. */
static gboolean
count_ngrams (Counts *counts)
{
  const char *text = counts->cleaned;
  const char *p = text;
  gboolean cut = FALSE;

  for (;;)
    {
      const char *q = p;
      guint32 sum = 0, power = 1;

      for (guint k = 1; k <= MAXNGRAMSYMBOL; k++)
        {
          guint n = char_length (q, &cut);
          gboolean underscore = *q == '_';

          if (cut)
            return FALSE;
          for (guint i = 0; i < n; i++)
            {
              sum = sum * 31 + (guint32) (gint32) (signed char) q[i];
              power *= 31;
            }
          count (counts, (guint32) (p - text), (guint32) (q + n - p), k * 13 * power + sum);
          q += n;
          if (k > 1 && underscore)
            break;
          if (*q == '\0')
            return TRUE;
        }
      p += char_length (p, &cut);
    }
}

/* The heap of table2heap(), heapinsert() and heapextract(): the least count on top, of
 * entries' indices. */
static inline gboolean
greater (const Counts *counts, guint a, guint b)
{
  return counts->grams[a].count > counts->grams[b].count;
}

static inline void
swap (guint *heap, guint a, guint b)
{
  guint t = heap[a];

  heap[a] = heap[b];
  heap[b] = t;
}

static void
sift_up (Counts *counts, guint child)
{
  while (child > 0)
    {
      guint parent = (child - 1) >> 1;

      if (!greater (counts, counts->heap[parent], counts->heap[child]))
        return;
      swap (counts->heap, parent, child);
      child = parent;
    }
}

static void
sift_down (Counts *counts, guint length, guint parent)
{
  guint child = parent * 2 + 1;

  while (child < length)
    {
      if (child + 1 < length && greater (counts, counts->heap[child], counts->heap[child + 1]))
        child++;
      if (!greater (counts, counts->heap[parent], counts->heap[child]))
        return;
      swap (counts->heap, parent, child);
      parent = child;
      child = parent * 2 + 1;
    }
}

static void
heap_insert (Counts *counts, guint gram)
{
  if (counts->heap_length < MAXNGRAMS)
    {
      counts->heap[counts->heap_length] = gram;
      sift_up (counts, counts->heap_length);
      counts->heap_length++;
      return;
    }
  /* An equal count takes the top's place. */
  if (counts->grams[gram].count < counts->grams[counts->heap[0]].count)
    return;
  counts->heap[0] = gram;
  sift_down (counts, counts->heap_length, 0);
}

/* heapextract() sifts the last entry down from the top with the heap still counting it. */
static guint
heap_extract (Counts *counts)
{
  guint top = counts->heap[0];

  if (counts->heap_length > 1)
    counts->heap[0] = counts->heap[counts->heap_length - 1];
  sift_down (counts, counts->heap_length, 0);
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
  g_autofree char *cleaned = NULL;
  g_autofree guint32 *buckets = NULL;
  g_autofree guint *heap = NULL;
  Counts counts = { 0 };
  guint n;
  gsize total = 0;
  char *out, *w;
  g_autofree guint *ranked = NULL;

  g_return_val_if_fail (text != NULL && ngrams != NULL && replayed != NULL, NULL);

  *replayed = TRUE;
  if (size < MINDOCSIZE)
    return NULL;
  counts.cleaned = cleaned = clean (text, size);
  counts.buckets = buckets = g_new0 (guint32, N_BUCKETS);
  counts.grams_size = 1024;
  counts.grams = g_new (Gram, counts.grams_size);
  counts.heap = heap = g_new (guint, MAXNGRAMS);
  if (!count_ngrams (&counts))
    {
      g_free (counts.grams);
      *replayed = FALSE;
      return NULL;
    }
  for (guint b = 0; b < N_BUCKETS; b++)
    for (guint32 e = buckets[b]; e != 0; e = counts.grams[e - 1].next)
      heap_insert (&counts, e - 1);
  n = counts.heap_length;
  ranked = g_new (guint, MAX (n, 1));
  for (guint i = n; i-- > 0;)
    ranked[i] = heap_extract (&counts);
  for (guint i = 0; i < n; i++)
    total += counts.grams[ranked[i]].length + 1;
  out = w = g_malloc (MAX (total, 1));
  for (guint i = 0; i < n; i++)
    {
      const Gram *gram = &counts.grams[ranked[i]];

      memcpy (w, cleaned + gram->offset, gram->length);
      w[gram->length] = '\0';
      g_ptr_array_add (ngrams, w);
      w += gram->length + 1;
    }
  g_free (counts.grams);
  return out;
}
