/* dc-textcat-private.h: libexttextcat's classifier, same answers, less work (private)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <textcat.h>

G_BEGIN_DECLS

typedef struct _DcTextcat DcTextcat;

DcTextcat *_dc_textcat_new (const char *conffile, const char *prefix);
void _dc_textcat_free (DcTextcat *self);
guint _dc_textcat_n_languages (DcTextcat *self);
gboolean _dc_textcat_is_fast (DcTextcat *self);
int _dc_textcat_classify (DcTextcat *self, const char *buffer, gsize size, candidate_t *candidates);
char *_dc_textcat_fingerprint (const char *text, gsize size, GPtrArray *ngrams, gboolean *replayed);
char *_dc_textcat_fingerprint_hashed (const char *text, gsize size, GPtrArray *ngrams,
                                      GArray *hashes, gboolean *replayed);
guint32 _dc_textcat_hash (const char *ngram);
gsize _dc_textcat_bytes_read (const char *text, gsize size);

G_END_DECLS
