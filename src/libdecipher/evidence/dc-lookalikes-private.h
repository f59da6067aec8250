/* dc-lookalikes-private.h: which of a set of look-alike characters a glyph draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "dc-fingerprint.h"

G_BEGIN_DECLS

typedef struct _DcLookalikes DcLookalikes;

/* Whether @c cannot be the glyph's character. */
typedef gboolean (*DcLookalikesRuledOut) (gunichar c, gpointer data);

gboolean _dc_lookalikes_has (const char *value);
char *_dc_lookalikes_dup_others (const char *value);
DcLookalikes *_dc_lookalikes_new (void);
void _dc_lookalikes_free (DcLookalikes *self);
double _dc_lookalikes_distance (DcLookalikes *self, gunichar c, const DcShape *shape);
gunichar _dc_lookalikes_decide (DcLookalikes *self, const char *read, const DcShape *shape,
                                DcLookalikesRuledOut ruled_out, gpointer data, char **reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcLookalikes, _dc_lookalikes_free)

G_END_DECLS
