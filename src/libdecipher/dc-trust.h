/* dc-trust.h: which fonts' text maps can be believed (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

void dc_trust_analyse (DcDocument *document);

G_END_DECLS
