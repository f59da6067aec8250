/* dc-trust-private.h: which fonts' text maps can be believed (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

/* Fewer letters than this (glyph-weighted) say nothing about how a language mixes its
 * accented letters: "íú." alone is a Spanish line's accents, not a legacy font's soup
 * (issue4550). */
#define DC_TRUST_MIN_LETTERS 4

/* The tokens each font's words count, and how many of them look odd: counted in parts,
 * on any threads, as the layout splits them. */
typedef struct _DcTrustCount DcTrustCount;
/* What one thread counts with. */
typedef struct _DcTrustCounter DcTrustCounter;

/* A count in @n_parts parts of the tokens of @document, whose symbols' texts are final. */
DcTrustCount *_dc_trust_count_new (DcDocument *document, guint n_parts);
void _dc_trust_count_free (DcTrustCount *count);
DcTrustCounter *_dc_trust_counter_new (void);
void _dc_trust_counter_free (DcTrustCounter *counter);
/* Counts @tokens into the part @part of @count, which no other thread counts into at the
 * same time. */
void _dc_trust_count_tokens (DcTrustCount *count, DcTrustCounter *counter, guint part,
                             const DcGlyph *glyphs, const DcSymbol *symbols, const guint32 *order,
                             const DcToken *tokens, guint n_tokens);

/* What the tokens say of one font, its parts added up. */
typedef struct
{
  guint tokens;           /* of this font alone, with text */
  guint odd_tokens;       /* of those, mixing letters as shifted maps do */
  guint own_token_glyphs; /* its glyphs in those */
  guint edge_glyphs;      /* its glyphs starting or ending another font's token */
  guint inner_glyphs;     /* its glyphs between another font's */
} DcTrustTokenTotals;

void _dc_trust_count_totals (const DcTrustCount *count, guint font, DcTrustTokenTotals *totals);

/* Judges every font of @document, @tokens its current tokens counted (by the layout). */
void dc_trust_analyse (DcDocument *document, const DcTrustCount *tokens);

G_END_DECLS
