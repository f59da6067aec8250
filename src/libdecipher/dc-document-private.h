/* dc-document-private.h: what the engine's tests reach inside DcDocument
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

DcDocument *_dc_document_new_from_file_threads (const char *path, const char *password,
                                                const DcDocumentLimits *limits, guint n_threads,
                                                DcProgressFunc progress, gpointer progress_data,
                                                GCancellable *cancellable, GError **error);

G_END_DECLS
