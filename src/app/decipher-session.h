/* decipher-session.h: one open document, its key, and the project that keeps it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "decipher.h"

G_BEGIN_DECLS

#define DECIPHER_TYPE_SESSION (decipher_session_get_type ())

G_DECLARE_FINAL_TYPE (DecipherSession, decipher_session, DECIPHER, SESSION, GObject)

/* Called on the main thread while a document loads, @fraction in [0, 1], or -1 while the
 * installed fonts are read once (the first document opened takes a while longer). */
typedef void (*DecipherLoadProgress) (double fraction, gpointer user_data);

void decipher_session_load_async (GFile *file, const char *password, DecipherLoadProgress progress,
                                  gpointer progress_data, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
DecipherSession *decipher_session_load_finish (GAsyncResult *result, GError **error);

GFile *decipher_session_get_file (DecipherSession *self);
GFile *decipher_session_get_render_file (DecipherSession *self);
char *decipher_session_dup_title (DecipherSession *self);
const char *decipher_session_get_password (DecipherSession *self);
DcDocument *decipher_session_get_document (DecipherSession *self);
DcKey *decipher_session_get_key (DecipherSession *self);
DcProject *decipher_session_get_project (DecipherSession *self);
DcSession *decipher_session_get_engine (DecipherSession *self);

const char *decipher_session_get_autosave_path (DecipherSession *self);
gboolean decipher_session_get_restored (DecipherSession *self);
const char *decipher_session_get_restore_problem (DecipherSession *self);
const char *decipher_session_get_read_only_reason (DecipherSession *self);
guint decipher_session_get_n_guessed (DecipherSession *self);
gboolean decipher_session_get_dirty (DecipherSession *self);
gboolean decipher_session_save (DecipherSession *self, GError **error);

char *decipher_autosave_path_for_sha256 (const char *sha256);

G_END_DECLS
