/* dc-sha256.c: SHA-256 for the document checksum and the glyph fingerprints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * nettle's, not GChecksum's: loading a book hashes the whole file and the outline of every
 * glyph that needs decoding, and GLib's SHA-256 was 4 % of the instructions of `text` on a
 * book of sixty fonts (issue 32). nettle picks the processor's SHA extensions at run time
 * where it has them (most x86-64 processors since 2017; Debian and the GNOME runtime build
 * it "fat"), about five times as fast. The digests are SHA-256's either way (the tests
 * compare them with GChecksum's), so nothing persisted changes: the document cache, the
 * projects and the font library hold them.
 */

#define G_LOG_DOMAIN "dc-sha256"

#include "config.h"

#include "dc-sha256-private.h"

G_STATIC_ASSERT (SHA256_DIGEST_SIZE == DC_SHA256_LEN);

void
_dc_sha256_init (DcSha256 *sha)
{
  g_assert (sha != NULL);

  sha256_init (&sha->context);
}

/* Nothing to free: kept so that an abandoned hash reads as one at its callers. */
void
_dc_sha256_clear (DcSha256 *sha)
{
  g_assert (sha != NULL);
}

void
_dc_sha256_update (DcSha256 *sha, const void *data, gsize length)
{
  g_assert (sha != NULL);
  g_assert (data != NULL || length == 0);

  if (length > 0)
    sha256_update (&sha->context, length, data);
}

void
_dc_sha256_finish (DcSha256 *sha, guint8 digest[DC_SHA256_LEN])
{
  g_assert (sha != NULL);

  sha256_digest (&sha->context, DC_SHA256_LEN, digest);
}

/* The digest in lower-case hexadecimal, as g_checksum_get_string() gives it. */
char *
_dc_sha256_finish_string (DcSha256 *sha)
{
  static const char hex[] = "0123456789abcdef";
  guint8 digest[DC_SHA256_LEN];
  char *out = g_malloc (2 * DC_SHA256_LEN + 1);

  _dc_sha256_finish (sha, digest);
  for (guint i = 0; i < DC_SHA256_LEN; i++)
    {
      out[2 * i] = hex[digest[i] >> 4];
      out[2 * i + 1] = hex[digest[i] & 15];
    }
  out[2 * DC_SHA256_LEN] = '\0';
  return out;
}

void
_dc_sha256_of (const void *data, gsize length, guint8 digest[DC_SHA256_LEN])
{
  DcSha256 sha;

  _dc_sha256_init (&sha);
  _dc_sha256_update (&sha, data, length);
  _dc_sha256_finish (&sha, digest);
}
