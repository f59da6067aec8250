/* dc-pipeline.h: opening a document and filling its key, every level in one order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See docs/architecture.md, "The pipeline", for the order and who calls it.
 */

#pragma once

#include <gio/gio.h>

#include "dc-auto.h"
#include "dc-document.h"
#include "dc-fingerprint.h"
#include "dc-key.h"
#include "dc-library.h"
#include "dc-references.h"

G_BEGIN_DECLS

/**
 * DcPipelineLevels:
 * @DC_PIPELINE_LIBRARY: the font libraries: glyph shapes decided in other documents
 * @DC_PIPELINE_AUTOMATIC_PASS: each untrusted font's space and full stop, and the readings
 *   its words back (dc_auto_recover())
 * @DC_PIPELINE_REFERENCES: the installed fonts whose outlines are the document's glyphs
 * @DC_PIPELINE_PROPOSALS: code-page, offset and glyph-name layouts, proposed only
 *
 * The levels applied to new work besides the fonts' own evidence (which a new key holds
 * already), in the order they are applied.
 */
typedef enum
{
  DC_PIPELINE_LIBRARY = 1 << 0,
  DC_PIPELINE_AUTOMATIC_PASS = 1 << 1,
  DC_PIPELINE_REFERENCES = 1 << 2,
  DC_PIPELINE_PROPOSALS = 1 << 3,
} DcPipelineLevels;

/* What decodes without the user: what `--no-auto` leaves out. */
#define DC_PIPELINE_AUTOMATIC                                                                      \
  (DC_PIPELINE_LIBRARY | DC_PIPELINE_AUTOMATIC_PASS | DC_PIPELINE_REFERENCES)
#define DC_PIPELINE_ALL (DC_PIPELINE_AUTOMATIC | DC_PIPELINE_PROPOSALS)

#define DC_TYPE_PIPELINE (dc_pipeline_get_type ())

G_DECLARE_FINAL_TYPE (DcPipeline, dc_pipeline, DC, PIPELINE, GObject)

DcPipeline *dc_pipeline_new (DcPipelineLevels levels);
DcPipelineLevels dc_pipeline_get_levels (DcPipeline *self);
void dc_pipeline_set_levels (DcPipeline *self, DcPipelineLevels levels);

/* Where the values come from. */
DcLibrary *dc_pipeline_open_user_library (const char *path, char **resolved_path, GError **error);
DcLibrary *dc_pipeline_find_user_library (const char *path, GError **error);
void dc_pipeline_set_library (DcPipeline *self, DcLibrary *library);
DcLibrary *dc_pipeline_get_library (DcPipeline *self);
void dc_pipeline_add_library (DcPipeline *self, DcLibrary *library);
void dc_pipeline_set_references_path (DcPipeline *self, const char *path);
void dc_pipeline_set_references (DcPipeline *self, DcReferences *references);
DcReferences *dc_pipeline_get_references (DcPipeline *self);
gboolean dc_pipeline_references_need_building (DcPipeline *self);
const GError *dc_pipeline_get_references_error (DcPipeline *self);

/* The one way in. */
DcDocument *dc_pipeline_load_document (DcPipeline *self, const char *path, const char *password,
                                       const DcDocumentLimits *limits, DcProgressFunc progress,
                                       gpointer progress_data, GCancellable *cancellable,
                                       GError **error);
DcKey *dc_pipeline_load_key (DcPipeline *self, DcDocument *document, const char *project_path,
                             GError **error);
guint dc_pipeline_apply (DcPipeline *self, DcKey *key, DcShapes **shapes, DcAutoReport *report);
void dc_pipeline_drop_prefetch (DcPipeline *self);

G_END_DECLS
