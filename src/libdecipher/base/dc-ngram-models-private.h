/* dc-ngram-models-private.h: the language models' tables, shared by dc-ngram.c (which
 * reads and uses them) and dc-ngram-cache.c (which keeps them between runs)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DC_NGRAM_MAX_N 3

typedef struct
{
  guint16 language;
  float weight; /* log frequency less the language's floor: > 0 */
} DcNgramEntry;

typedef struct
{
  GPtrArray *names;    /* language names, as fpdb.conf gives them */
  GArray *floors;      /* double: the score of an n-gram a language does not list */
  GArray *scripts;     /* GUnicodeScript: the script of a language's commonest letter */
  GHashTable *letters; /* gunichar: every letter some language lists */
  GHashTable *ngrams;  /* UTF-8 n-gram → GArray of DcNgramEntry, while the models are read */
  /* The same, looked up by the n-gram's characters packed in 64 bits (pack()): a text
   * is scored n-gram by n-gram, and making each a string to hash it was half the time.
   * Open addressing: slot i holds keys[i] (0: empty) and its entries,
   * entries[starts[i]] to entries[starts[i] + counts[i]]; at least one slot is empty. */
  guint64 *keys;
  guint32 *starts;
  guint32 *counts;
  gsize mask;
  DcNgramEntry *entries;
  gsize n_entries;
  gpointer cache;      /* what keys to entries point into when read from the cache */
  gboolean from_cache; /* whether the models were read from the cache file */
  /* What dc-ngram.c asks of a character of the Basic Multilingual Plane, 256 code points
   * a block, each made the first time one of its characters is scored. */
  gpointer char_blocks[256];
} DcNgramModels;

char *_dc_ngram_cache_path (void);
void _dc_ngram_stamp_add (GString *stamp, const char *path);
GString *_dc_ngram_stamp_new (const char *dir);
gboolean _dc_ngram_cache_load (DcNgramModels *models, const char *path, const char *dir);
void _dc_ngram_cache_save (const DcNgramModels *models, const char *path, const char *stamp);

G_END_DECLS
