/* dc-ngram-private.h: how much a text reads like a language (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint _dc_ngram_n_languages (void);
gboolean _dc_ngram_models_from_cache (void);
const char *_dc_ngram_language_name (guint language);
GUnicodeScript _dc_ngram_language_script (guint language);
guint _dc_ngram_score (const gunichar *text, gsize length, double *totals);
guint _dc_ngram_score_word (const gunichar *word, gsize length, double weight, double *totals);

typedef struct _DcNgramWords DcNgramWords;

DcNgramWords *_dc_ngram_words_new (void);
void _dc_ngram_words_free (DcNgramWords *words);
guint _dc_ngram_words_add (DcNgramWords *words, const gunichar *word, gsize length);
guint _dc_ngram_words_intern (DcNgramWords *words, const gunichar *word, gsize length);
void _dc_ngram_words_score (DcNgramWords *words, guint index, double weight, double *totals);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcNgramWords, _dc_ngram_words_free)

G_END_DECLS
