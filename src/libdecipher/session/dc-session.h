/* dc-session.h: one document being deciphered, and every rule of how a decision is taken
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See docs/architecture.md for who owns what, and docs/session-protocol.md for the
 * JSON-lines translation of this API that decipher-cli offers.
 */

#pragma once

#include <gio/gio.h>

#include "dc-auto.h"
#include "dc-document.h"
#include "dc-fingerprint.h"
#include "dc-key.h"
#include "dc-library.h"
#include "dc-matcher.h"
#include "dc-pipeline.h"
#include "dc-project.h"
#include "dc-recognize.h"
#include "dc-suggest.h"

G_BEGIN_DECLS

#define DC_TYPE_SESSION (dc_session_get_type ())

G_DECLARE_FINAL_TYPE (DcSession, dc_session, DC, SESSION, GObject)

DcSession *dc_session_new (DcDocument *document);

DcDocument *dc_session_get_document (DcSession *self);
DcKey *dc_session_get_key (DcSession *self);
DcMatcher *dc_session_get_matcher (DcSession *self);
DcProject *dc_session_get_project (DcSession *self);

/* The font library: shapes decided in other documents (DESIGN §8). */
void dc_session_set_library (DcSession *self, DcLibrary *library);
DcLibrary *dc_session_get_library (DcSession *self);
DcShapes *dc_session_get_shapes (DcSession *self);

/* The levels new work starts with (dc-pipeline.h). */
void dc_session_set_pipeline (DcSession *self, DcPipeline *pipeline);
DcPipeline *dc_session_get_pipeline (DcSession *self);

/* The project: where the key is kept. */
gboolean dc_session_lock_project (DcSession *self, const char *path, const char *holder,
                                  GError **error);
gboolean dc_session_load_project (DcSession *self, const char *path, GError **error);
const DcAutoReport *dc_session_get_auto_report (DcSession *self);
guint dc_session_start_new_work (DcSession *self, gboolean automatic_pass);
gboolean dc_session_save (DcSession *self, const char *path, GError **error);
gboolean dc_session_save_copy (DcSession *self, const char *path, GError **error);
gboolean dc_session_start_journal (DcSession *self, const char *path, gboolean durable,
                                   GError **error);
gboolean dc_session_sync (DcSession *self, GError **error);

/* Decisions: each is one undoable step, recorded before it returns. */
DcMatchResult *dc_session_type (DcSession *self, const char *text, int line, int token,
                                GError **error);
DcMatchResult *dc_session_type_in_view (DcSession *self, const char *text, int line, int token,
                                        int view_line, guint n_view_lines, GError **error);
gboolean dc_session_assign (DcSession *self, guint symbol, const char *value, GError **error);
gboolean dc_session_accept (DcSession *self, guint symbol, GError **error);
gboolean dc_session_split (DcSession *self, const guint *glyphs, guint n_glyphs, const char *value,
                           GError **error);
gboolean dc_session_unsplit (DcSession *self, const guint *glyphs, guint n_glyphs, GError **error);
gboolean dc_session_forget (DcSession *self, guint symbol, GError **error);
gboolean dc_session_reject (DcSession *self, guint symbol, GError **error);
gboolean dc_session_take_project (DcSession *self, const char *path, const char *label,
                                  guint *n_changed, GError **error);
gboolean dc_session_accept_all (DcSession *self, double min_confidence, guint *n_accepted,
                                GError **error);
gboolean dc_session_accept_all_full (DcSession *self, double min_confidence,
                                     gboolean skip_lookalikes, guint *n_accepted, GError **error);
guint dc_session_count_unreviewed (DcSession *self, guint *n_glyphs);
gboolean dc_session_recognize (DcSession *self, const char *languages, const char *password,
                               DcRecognizeProgressFunc progress, gpointer progress_data,
                               GCancellable *cancellable, guint *n_proposed, guint *n_lines,
                               GError **error);
gboolean dc_session_apply_recognition (DcSession *self, DcRecognizeJob *job, guint *n_proposed,
                                       GError **error);
gboolean dc_session_resolve (DcSession *self, guint conflict, gboolean take_proposed,
                             GError **error);
gboolean dc_session_undo (DcSession *self, GError **error);
gboolean dc_session_redo (DcSession *self, GError **error);

/* Questions. */
gboolean dc_session_symbol_is_unknown (DcSession *self, guint symbol);
char *dc_session_dup_text (DcSession *self);
void dc_session_suggest (DcSession *self, DcSuggestion *suggestion);
void dc_session_suggest_async (DcSession *self, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
gboolean dc_session_suggest_finish (DcSession *self, GAsyncResult *result, DcSuggestion *suggestion,
                                    GError **error);

/* The matcher's index, built in a worker thread (see docs/architecture.md). */
gboolean dc_session_has_index (DcSession *self);
void dc_session_prepare_index (DcSession *self);

G_END_DECLS
