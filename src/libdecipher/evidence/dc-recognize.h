/* dc-recognize.h: reading the glyphs' shapes with OCR, and voting per symbol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "dc-key.h"

G_BEGIN_DECLS

/* Called from the recognizing thread after each line read. */
typedef void (*DcRecognizeProgressFunc) (guint lines_done, guint n_lines, gpointer user_data);

typedef struct _DcRecognizeJob DcRecognizeJob;

/* How many times recognition tries to read each unknown symbol. */
#define DC_RECOGNIZE_COVERAGE 4

/* Readings at least this sure are applied as inferred, not proposed: readings that sure
 * were right at least 99 % of the time (bench/calibrate-recognize.py). */
#define DC_RECOGNIZE_AUTOMATIC 0.99

DcRecognizeJob *dc_recognize_job_new (DcKey *key, const char *languages, const char *password);
void dc_recognize_job_set_render_file (DcRecognizeJob *job, const char *path);
guint dc_recognize_job_get_n_lines (DcRecognizeJob *job);
gboolean dc_recognize_job_run (DcRecognizeJob *job, DcRecognizeProgressFunc progress,
                               gpointer progress_data, GCancellable *cancellable, GError **error);
const char *dc_recognize_job_get_languages (DcRecognizeJob *job);
guint dc_recognize_job_get_n_lines_read (DcRecognizeJob *job);
guint dc_recognize_job_apply (DcRecognizeJob *job, DcKey *key);
void dc_recognize_job_free (DcRecognizeJob *job);

char **dc_recognize_list_languages (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcRecognizeJob, dc_recognize_job_free)

G_END_DECLS
