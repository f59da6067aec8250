/* dc-sha256-private.h: SHA-256 for the document checksum and the glyph fingerprints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <nettle/sha2.h>

G_BEGIN_DECLS

#define DC_SHA256_LEN 32

/* A SHA-256 under way: on the stack, begun by _dc_sha256_init() and ended by
 * _dc_sha256_finish() or _dc_sha256_clear(). It holds no memory of its own. */
typedef struct
{
  struct sha256_ctx context;
} DcSha256;

void _dc_sha256_init (DcSha256 *sha);
void _dc_sha256_clear (DcSha256 *sha);
void _dc_sha256_update (DcSha256 *sha, const void *data, gsize length);
void _dc_sha256_finish (DcSha256 *sha, guint8 digest[DC_SHA256_LEN]);
char *_dc_sha256_finish_string (DcSha256 *sha);
void _dc_sha256_of (const void *data, gsize length, guint8 digest[DC_SHA256_LEN]);

G_END_DECLS
