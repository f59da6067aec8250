/* dc-reshape-private.h: the Mongolian selectors a ToUnicode map leaves out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"

G_BEGIN_DECLS

guint _dc_reshape_restore_selectors (DcDocument *document);

G_END_DECLS
