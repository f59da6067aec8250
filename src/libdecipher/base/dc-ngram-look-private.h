/* dc-ngram-look-private.h: a word looked up in the language models, shared by dc-ngram.c
 * (which looks words up and scores them) and dc-ngram-words.c (which keeps them)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-ngram-models-private.h"

G_BEGIN_DECLS

/* What a character standing alone (a one-character n-gram) costs beyond the floor,
 * told once per character of a word rather than once per language. */
typedef struct
{
  GUnicodeScript script; /* of the letters counted */
  guint letters;         /* letters of the script */
  guint unlisted;        /* of them, the ones no language lists */
} ScriptCount;

/* The entries of one n-gram of a word that some language lists: m->entries[first]
 * onwards; an index rather than a pointer, as a word kept (DcNgramWords) keeps a run for
 * each of its n-grams listed. */
typedef struct
{
  guint32 first;
  guint32 n_entries;
} Run;

/* What a word adds to each language, looked up: its listed n-grams' entries (@runs, in the
 * order they stand), its lone characters' costs (@counts) and how many n-grams and lone
 * characters it has. */
typedef struct
{
  const Run *runs;
  guint n_runs;
  const ScriptCount *counts;
  guint n_counts;
  guint n_ngrams;
  guint n_singles;
} Looked;

/* Room for looking a word up (_dc_ngram_look_up_word()): on the stack for the words of a
 * text, whose three allocations a word were a tenth of the time, allocated for a longer
 * one. Not zeroed: look_room_init() points into it, look_room_clear() frees what it
 * allocated. */
typedef struct
{
  gunichar *chars;
  Run *runs;
  ScriptCount *counts;
  gunichar *large_chars;
  Run *large_runs;
  ScriptCount *large_counts;
  gunichar small_chars[64];
  Run small_runs[DC_NGRAM_MAX_N * 64];
  ScriptCount small_counts[64];
} LookRoom;

/* Makes @room hold a word of @length characters. */
static inline void
look_room_init (LookRoom *room, gsize length)
{
  room->chars = room->small_chars;
  room->runs = room->small_runs;
  room->counts = room->small_counts;
  room->large_chars = NULL;
  room->large_runs = NULL;
  room->large_counts = NULL;
  if (length + 2 > G_N_ELEMENTS (room->small_chars))
    {
      room->chars = room->large_chars = g_new (gunichar, length + 2);
      room->runs = room->large_runs = g_new (Run, DC_NGRAM_MAX_N * (length + 2));
      room->counts = room->large_counts = g_new (ScriptCount, length);
    }
}

static inline void
look_room_clear (LookRoom *room)
{
  g_free (room->large_chars);
  g_free (room->large_runs);
  g_free (room->large_counts);
}

DcNgramModels *_dc_ngram_models (void);
void _dc_ngram_look_up_word (DcNgramModels *models, const gunichar *word, gsize length,
                             gunichar *chars, Run *runs, ScriptCount *counts, Looked *looked);
void _dc_ngram_make_terms (DcNgramModels *models, const Looked *looked, double *terms);
void _dc_ngram_add_looked (DcNgramModels *models, const Looked *looked, const double *terms,
                           double weight, double *totals);

G_END_DECLS
