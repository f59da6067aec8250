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

void dc_trust_analyse (DcDocument *document);

G_END_DECLS
