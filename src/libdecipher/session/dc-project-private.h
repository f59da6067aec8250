/* dc-project-private.h: what the project file and its journal share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "dc-key-private.h"
#include "dc-matcher.h"
#include "dc-project.h"

G_BEGIN_DECLS

/* Far above any real project (a book has a few thousand symbols and a session a few
 * thousand inputs, a few MB in all), low enough that a hostile file cannot make the
 * parser eat the machine's memory. */
#define DC_PROJECT_MAX_FILE_SIZE (32 * 1024 * 1024)
/* Inputs are capped at 64 KiB where they are typed; provenance quotes them. */
#define DC_PROJECT_MAX_TEXT_BYTES (65 * 1024)

typedef struct
{
  const char *display; /* the project's file name, for sentences */
  const char *journal; /* the journal's, while it is read */
  DcDocument *document;
  GError **error;
} DcProjectLoader;

typedef struct _DcProjectJournal DcProjectJournal;

gboolean _dc_project_invalid (DcProjectLoader *loader, const char *format, ...)
    G_GNUC_PRINTF (2, 3);
gboolean _dc_project_read_string (DcProjectLoader *loader, JsonObject *object, const char *name,
                                  const char *where, gboolean nullable, gsize max_bytes,
                                  const char **out);
gboolean _dc_project_read_uint (DcProjectLoader *loader, JsonObject *object, const char *name,
                                const char *where, guint64 max, guint64 *out);
gboolean _dc_project_read_entry (DcProjectLoader *loader, JsonNode *node, guint index, guint8 *seen,
                                 gboolean any_status, DcKeyEntry *entry);
void _dc_project_add_entry (JsonBuilder *builder, DcDocument *document, guint symbol,
                            DcKeyStatus status, DcKeyLevel level, double confidence,
                            const char *value, const char *provenance, const char *const *refused);

void _dc_project_add_key_entry (JsonBuilder *builder, DcDocument *document,
                                const DcKeyEntry *entry);

void _dc_project_add_conflicts (JsonBuilder *builder, DcDocument *document, GPtrArray *conflicts);
gboolean _dc_project_read_conflicts (DcProjectLoader *loader, JsonNode *node, GPtrArray *conflicts);

gboolean _dc_project_add_history_steps (JsonBuilder *builder, DcDocument *document, DcKey *key);
void _dc_project_restore_history_steps (JsonObject *root, const char *display, DcDocument *document,
                                        DcKey *key);

char *_dc_project_journal_path (const char *project_path);
DcProjectJournal *_dc_project_journal_open (DcKey *key, const char *project_path, gboolean durable,
                                            GError **error);
void _dc_project_journal_free (DcProjectJournal *journal);
const char *_dc_project_journal_get_project_path (DcProjectJournal *journal);
gsize _dc_project_journal_get_size (DcProjectJournal *journal);
void _dc_project_journal_add_history (DcProjectJournal *journal, const char *input);
gboolean _dc_project_journal_sync (DcProjectJournal *journal, GError **error);
void _dc_project_journal_add_conflicts (DcProjectJournal *journal, GPtrArray *conflicts);
void _dc_project_journal_truncate (DcProjectJournal *journal);
gboolean _dc_project_journal_replay (DcProjectLoader *loader, const char *project_path,
                                     GArray *entries, GPtrArray *history, GPtrArray **conflicts);

G_END_DECLS
