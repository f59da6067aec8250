/* dc-project.h: a document's recovered key and input history, saved as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "dc-document.h"
#include "dc-key.h"
#include "dc-matcher.h"

G_BEGIN_DECLS

#define DC_PROJECT_FORMAT "decipher-project"
/* 2 added each key entry's "level" and "confidence"; version 1 files still load (their
 * levels are told from status and provenance), but an older Decipher refuses version 2,
 * which would lose the levels on its next save. */
/* 3 added the values the user rejected per key entry ("refused"). 4 added splits
 * (occurrences that read otherwise than their code), written only by a project that holds
 * one, so that an older Decipher refuses it rather than drop the splits or take a split's
 * undo step for its whole code's; every other project stays version 3, which it opens. */
#define DC_PROJECT_VERSION 4
#define DC_PROJECT_VERSION_WITHOUT_SPLITS 3

#define DC_TYPE_PROJECT (dc_project_get_type ())

G_DECLARE_FINAL_TYPE (DcProject, dc_project, DC, PROJECT, GObject)

DcProject *dc_project_new (DcDocument *document, DcKey *key);
DcProject *dc_project_load (const char *path, DcDocument *document, DcKey *key, GError **error);
char *dc_project_peek_document (const char *path, char **file, GError **error);
gboolean dc_project_save (DcProject *self, const char *path, GError **error);

gboolean dc_project_start_journal (DcProject *self, const char *path, gboolean durable,
                                   GError **error);
gboolean dc_project_sync_journal (DcProject *self, GError **error);
void dc_project_set_matcher (DcProject *self, DcMatcher *matcher);

const char *dc_project_get_path (DcProject *self);
DcDocument *dc_project_get_document (DcProject *self);
DcKey *dc_project_get_key (DcProject *self);

void dc_project_add_history (DcProject *self, const char *input);
const char *const *dc_project_get_history (DcProject *self, guint *n_items);

/* One writer per project: see dc-project-lock.c. */
typedef struct _DcProjectLock DcProjectLock;

DcProjectLock *dc_project_lock (const char *path, const char *holder, GError **error);
void dc_project_unlock (DcProjectLock *lock);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcProjectLock, dc_project_unlock)

G_END_DECLS
