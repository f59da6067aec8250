/* dc-hypotheses-private.h: layouts a font may follow, judged by the text they make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-key.h"

G_BEGIN_DECLS

guint _dc_hypotheses_apply (DcKey *key);

G_END_DECLS
