/* dc-search.h: finding words in the recovered text, and where they are drawn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-export.h"

G_BEGIN_DECLS

typedef struct _DcSearch DcSearch;

DcSearch *dc_search_new (DcDocument *document, const char *text);
gboolean dc_search_is_empty (DcSearch *search);
gboolean dc_search_step (DcSearch *search, guint max_lines, DcValueFunc value, gpointer user_data);
gboolean dc_search_is_done (DcSearch *search);
guint dc_search_get_n_matches (DcSearch *search);
const guint32 *dc_search_get_match (DcSearch *search, guint match, guint *n_glyphs, guint *page);
const guint32 *dc_search_get_glyphs (DcSearch *search, guint *n_glyphs);
guint dc_search_find_from (DcSearch *search, guint page, gboolean backwards);
void dc_search_free (DcSearch *search);

char *dc_search_fold (const char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcSearch, dc_search_free)

G_END_DECLS
