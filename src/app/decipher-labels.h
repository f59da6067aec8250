/* decipher-labels.h: how the window words a document's state, a symbol and a value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher.h"

G_BEGIN_DECLS

char *decipher_labels_dup_progress_text (DcSession *session);
char *decipher_labels_dup_unmapped_tooltip (DcSession *session);
char *decipher_labels_dup_symbol_title (DcDocument *document, guint symbol);
char *decipher_labels_dup_value (DcKey *key, guint symbol);
char *decipher_labels_dup_text (const char *value);
char *decipher_labels_dup_split (DcKey *key, guint glyph);
const char *decipher_labels_level (DcKeyLevel level);
const char *decipher_labels_status (DcKeyStatus status);

G_END_DECLS
