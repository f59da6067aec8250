/* dc-clusters-private.h: what /ActualText spans say about the glyphs inside them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

void _dc_clusters_infer (DcDocument *document);
void _dc_document_set_symbol_pdf_text (DcDocument *self, guint symbol, const char *text);

G_END_DECLS
