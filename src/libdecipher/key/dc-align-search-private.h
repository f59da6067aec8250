/* dc-align-search-private.h: what the search asks of the typed text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-align.c knows what scripts let one glyph spell; dc-align-search.c asks it at each
 * step. dc-align-private.h is what the matcher and recognition call.
 */

#pragma once

#include "dc-align-private.h"

G_BEGIN_DECLS

gboolean _dc_align_chars_equal (const Typed *typed, guint start, const gunichar *value,
                                guint length);
guint _dc_align_rtl_unit_start (const gunichar *c, guint end);
gboolean _dc_align_is_conjunct (const Typed *typed, guint start, guint end);
gboolean _dc_align_is_plausible_ligature (const Typed *typed, guint start, guint end);
gboolean _dc_align_has_vowel_sign (const Typed *typed, guint start, guint end);
gboolean _dc_align_post_base_form_at (const Typed *typed, guint i);
gboolean _dc_align_below_base_ra_at (const Typed *typed, guint i);
gboolean _dc_align_is_fused_tamil_sign (gunichar c);
gboolean _dc_align_draws_spacing_sign (const Typed *typed, guint start, guint end);
gboolean _dc_align_may_fuse_spacing_sign (gunichar base);
gboolean _dc_align_is_invisible_format (gunichar c);

G_END_DECLS
