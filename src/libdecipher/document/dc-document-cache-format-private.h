/* dc-document-cache-format-private.h: the cache file's format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the cache folder (dc-document-cache.c), the writer (dc-document-cache-write.c), the
 * reader (dc-document-cache-read.c) and the check (dc-document-cache-check.c) share: the
 * file's markers and version, its checksum, and the writer's and the reader's state.
 */

#pragma once

#include <stdio.h>
#include <string.h>

#include "dc-document-private.h"

G_BEGIN_DECLS

/* The cache needs the GNU build ID and POSIX file calls. */
#ifdef __linux__
#define HAVE_DOCUMENT_CACHE 1
#endif

#define CACHE_MAGIC "Decipher document cache\n"
#define CACHE_END "end of it\n"
/* 2: a checksum after CACHE_END; 3: a block's table flag; 4: Type 3 glyph digests; 5: the
 * checksum in lanes. */
#define CACHE_FORMAT 5

/* The checksum ------------------------------------------------------------------- */

/* A bit flipped on the disk changed the text a cached document gave, silently, in 13 of
 * 550 damaged files (issue 33): every byte before the checksum is summed as it is written
 * and again as it is read. Damage, not an attacker, is what it is for (the folder is the
 * user's own), so a fast 64-bit mix of each 8-byte word does: the cache exists to save
 * time. Each step of the mix is invertible, so a word changed changes its lane's sum. The
 * words go to SUM_LANES sums in turn, which the processor computes side by side: as one
 * chain of multiplications, summing the 9 M-glyph book's 324 MB file took 130 ms of the
 * 1.1 s its reopening took, in four lanes 46 ms. */
#define SUM_LANES 4

typedef struct
{
  guint64 lanes[SUM_LANES];
  guint64 length;
  guint8 tail[8];
  guint n_tail;
  guint lane; /* the lane of the next word */
} Sum;

#define SUM_PRIME G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)

static inline guint64
sum_mix (guint64 hash, guint64 word)
{
  hash = (hash ^ word) * SUM_PRIME;
  return hash ^ (hash >> 31);
}

static inline void
sum_word (Sum *sum, guint64 word)
{
  sum->lanes[sum->lane] = sum_mix (sum->lanes[sum->lane], word);
  sum->lane = (sum->lane + 1) % SUM_LANES;
}

static inline guint64
sum_load (const guint8 *p)
{
  guint64 word;

  memcpy (&word, p, 8);
  return word;
}

static inline void
sum_update (Sum *sum, const void *data, gsize size)
{
  const guint8 *p = data;

  sum->length += size;
  /* n_tail stays below 8 (a full tail is summed at once); saying so in the condition
   * lets the compiler see the tail cannot overflow. */
  while (size > 0 && sum->n_tail > 0 && sum->n_tail < sizeof sum->tail)
    {
      sum->tail[sum->n_tail++] = *p++;
      size--;
      if (sum->n_tail == 8)
        {
          sum_word (sum, sum_load (sum->tail));
          sum->n_tail = 0;
        }
    }
  for (; size >= 8 && sum->lane != 0; p += 8, size -= 8)
    sum_word (sum, sum_load (p));
  for (; size >= 8 * SUM_LANES; p += 8 * SUM_LANES, size -= 8 * SUM_LANES)
    for (guint i = 0; i < SUM_LANES; i++)
      sum->lanes[i] = sum_mix (sum->lanes[i], sum_load (p + 8 * i));
  for (; size >= 8; p += 8, size -= 8)
    sum_word (sum, sum_load (p));
  if (size > 0)
    {
      memcpy (sum->tail, p, size);
      sum->n_tail = (guint) size;
    }
}

static inline guint64
sum_finish (const Sum *sum)
{
  guint64 word = 0, hash = 0;

  memcpy (&word, sum->tail, sum->n_tail);
  for (guint i = 0; i < SUM_LANES; i++)
    hash = sum_mix (hash, sum->lanes[i]);
  hash = sum_mix (hash, word ^ ((guint64) sum->n_tail << 56));
  hash = sum_mix (hash, sum->length);
  hash ^= hash >> 33;
  hash *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  hash ^= hash >> 33;
  return hash;
}

typedef struct
{
  FILE *file;
  gboolean failed;
  Sum sum;
  guint64 written;
  guint64 limit; /* the most the file may take */
} Writer;

typedef struct
{
  FILE *file;
  goffset remaining; /* bytes left in the file: no count read from it asks for more */
  gboolean failed;
  Sum sum;
} Reader;

void _dc_document_cache_put_document (Writer *writer, DcDocument *document, DcTokens *tokens,
                                      const char *identity, guint64 held_glyphs,
                                      guint64 held_bytes);
DcDocument *_dc_document_cache_read_document (Reader *reader, const char *identity,
                                              guint64 *held_glyphs, guint64 *held_bytes);
gboolean _dc_document_cache_check_document (DcDocument *document, const DcTokens *tokens);

G_END_DECLS
