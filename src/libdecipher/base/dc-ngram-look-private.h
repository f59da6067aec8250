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

DcNgramModels *_dc_ngram_models (void);
void _dc_ngram_look_up_word (DcNgramModels *models, const gunichar *word, gsize length,
                             gunichar *chars, Run *runs, ScriptCount *counts, Looked *looked);
void _dc_ngram_make_terms (DcNgramModels *models, const Looked *looked, double *terms);
void _dc_ngram_add_looked (DcNgramModels *models, const Looked *looked, const double *terms,
                           double weight, double *totals);

G_END_DECLS
