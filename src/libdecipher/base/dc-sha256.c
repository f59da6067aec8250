/* dc-sha256.c: SHA-256 for the document checksum and the glyph fingerprints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GChecksum's digests, on the processor's SHA extensions where it has them (most x86-64
 * processors since 2017), which hash five times as fast: loading a book hashes the whole
 * file and the outline of every glyph that needs decoding, and GLib's SHA-256 was 4 % of
 * the instructions of `text` on a book of sixty fonts (issue 32). Elsewhere GChecksum
 * itself hashes: a round-by-round C version was no faster than GLib's. The digests are
 * the same either way (the tests compare both with GChecksum's), so nothing persisted
 * changes: the document cache, the projects and the font library hold them.
 */

#define G_LOG_DOMAIN "dc-sha256"

#include "config.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1
#endif

#include "dc-sha256-private.h"

#ifdef HAVE_SHA_NI

static const guint32 K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Four rounds on the SHA extensions: @msg holds the four schedule words, ABEF and CDGH
 * the state as the instructions want it. */
#define QUAD(msg, i)                                                                               \
  G_STMT_START                                                                                     \
  {                                                                                                \
    __m128i sum = _mm_add_epi32 (msg, _mm_loadu_si128 ((const __m128i *) (const void *) &K[i]));   \
    cdgh = _mm_sha256rnds2_epu32 (cdgh, abef, sum);                                                \
    abef = _mm_sha256rnds2_epu32 (abef, cdgh, _mm_shuffle_epi32 (sum, 0x0e));                      \
  }                                                                                                \
  G_STMT_END

/* The next four schedule words from the sixteen before them, in m0..m3 (oldest first). */
#define NEXT(m0, m1, m2, m3)                                                                       \
  _mm_sha256msg2_epu32 (_mm_add_epi32 (_mm_sha256msg1_epu32 (m0, m1),                              \
                                       _mm_alignr_epi8 (m3, m2, 4)),                               \
                        m3)

__attribute__ ((target ("sha,sse4.1,ssse3"))) static void
compress_sha_ni (guint32 state[8], const guint8 *data, gsize n_blocks)
{
  const __m128i byte_swap = _mm_set_epi64x (0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i abef, cdgh, tmp;

  /* state[0..3] = ABCD, state[4..7] = EFGH, to ABEF and CDGH (high word first). */
  tmp = _mm_loadu_si128 ((const __m128i *) (const void *) &state[0]);
  cdgh = _mm_loadu_si128 ((const __m128i *) (const void *) &state[4]);
  tmp = _mm_shuffle_epi32 (tmp, 0xb1);      /* CDAB */
  cdgh = _mm_shuffle_epi32 (cdgh, 0x1b);    /* EFGH */
  abef = _mm_alignr_epi8 (tmp, cdgh, 8);    /* ABEF */
  cdgh = _mm_blend_epi16 (cdgh, tmp, 0xf0); /* CDGH */

  for (; n_blocks > 0; n_blocks--, data += 64)
    {
      __m128i saved_abef = abef, saved_cdgh = cdgh;
      __m128i m0, m1, m2, m3;

      m0 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (const void *) (data + 0)),
                             byte_swap);
      m1 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (const void *) (data + 16)),
                             byte_swap);
      m2 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (const void *) (data + 32)),
                             byte_swap);
      m3 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (const void *) (data + 48)),
                             byte_swap);
      QUAD (m0, 0);
      QUAD (m1, 4);
      QUAD (m2, 8);
      QUAD (m3, 12);
      for (guint i = 16; i < 64; i += 16)
        {
          m0 = NEXT (m0, m1, m2, m3);
          QUAD (m0, i);
          m1 = NEXT (m1, m2, m3, m0);
          QUAD (m1, i + 4);
          m2 = NEXT (m2, m3, m0, m1);
          QUAD (m2, i + 8);
          m3 = NEXT (m3, m0, m1, m2);
          QUAD (m3, i + 12);
        }
      abef = _mm_add_epi32 (abef, saved_abef);
      cdgh = _mm_add_epi32 (cdgh, saved_cdgh);
    }

  /* Back to ABCD and EFGH. */
  tmp = _mm_shuffle_epi32 (abef, 0x1b);     /* FEBA */
  cdgh = _mm_shuffle_epi32 (cdgh, 0xb1);    /* DCHG */
  abef = _mm_blend_epi16 (tmp, cdgh, 0xf0); /* DCBA */
  cdgh = _mm_alignr_epi8 (cdgh, tmp, 8);    /* HGFE */
  _mm_storeu_si128 ((__m128i *) (void *) &state[0], abef);
  _mm_storeu_si128 ((__m128i *) (void *) &state[4], cdgh);
}

static gboolean
cpu_has_sha (void)
{
  unsigned int a, b, c, d;

  /* SSSE3 and SSE4.1 (leaf 1, ECX bits 9 and 19), SHA (leaf 7, EBX bit 29). */
  if (!__get_cpuid (1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
    return FALSE;
  if (!__get_cpuid_count (7, 0, &a, &b, &c, &d))
    return FALSE;
  return (b & (1u << 29)) != 0;
}

#endif

/* DECIPHER_SHA256=glib keeps to GChecksum (the tests compare both ways). */
static gboolean
choose_cpu (void)
{
#ifdef HAVE_SHA_NI
  return cpu_has_sha () && g_strcmp0 (g_getenv ("DECIPHER_SHA256"), "glib") != 0;
#else
  return FALSE;
#endif
}

/* Whether the processor's SHA instructions do the rounds, else GChecksum. */
gboolean
_dc_sha256_uses_cpu_instructions (void)
{
  static gboolean cpu;
  static gsize chosen;

  if (g_once_init_enter (&chosen))
    {
      cpu = choose_cpu ();
      g_once_init_leave (&chosen, 1);
    }
  return cpu;
}

void
_dc_sha256_init (DcSha256 *sha)
{
  static const guint32 initial[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

  memcpy (sha->state, initial, sizeof initial);
  sha->n_bytes = 0;
  sha->n_block = 0;
  sha->checksum = _dc_sha256_uses_cpu_instructions () ? NULL : g_checksum_new (G_CHECKSUM_SHA256);
}

void
_dc_sha256_clear (DcSha256 *sha)
{
  g_clear_pointer (&sha->checksum, g_checksum_free);
}

#ifdef HAVE_SHA_NI

static void
update_cpu (DcSha256 *sha, const guint8 *bytes, gsize length)
{
  sha->n_bytes += length;
  if (sha->n_block > 0)
    {
      gsize take = MIN (length, 64 - (gsize) sha->n_block);

      memcpy (sha->block + sha->n_block, bytes, take);
      sha->n_block += take;
      bytes += take;
      length -= take;
      if (sha->n_block < 64)
        return;
      compress_sha_ni (sha->state, sha->block, 1);
      sha->n_block = 0;
    }
  if (length >= 64)
    {
      compress_sha_ni (sha->state, bytes, length / 64);
      bytes += length & ~(gsize) 63;
      length &= 63;
    }
  memcpy (sha->block, bytes, length);
  sha->n_block = length;
}

#endif

void
_dc_sha256_update (DcSha256 *sha, const void *data, gsize length)
{
  if (sha->checksum != NULL)
    {
      g_checksum_update (sha->checksum, data, length);
      return;
    }
#ifdef HAVE_SHA_NI
  update_cpu (sha, data, length);
#endif
}

/* The digest; @sha is cleared. */
void
_dc_sha256_finish (DcSha256 *sha, guint8 digest[DC_SHA256_LEN])
{
  if (sha->checksum != NULL)
    {
      gsize length = DC_SHA256_LEN;

      g_checksum_get_digest (sha->checksum, digest, &length);
      _dc_sha256_clear (sha);
      return;
    }
#ifdef HAVE_SHA_NI
  {
    guint64 bits = sha->n_bytes * 8;
    guint8 tail[72] = { 0x80 };
    gsize pad = (sha->n_block < 56 ? 56 : 120) - sha->n_block;

    for (guint i = 0; i < 8; i++)
      tail[pad + i] = (guint8) (bits >> (56 - 8 * i));
    update_cpu (sha, tail, pad + 8);
    for (guint i = 0; i < 8; i++)
      {
        digest[4 * i] = (guint8) (sha->state[i] >> 24);
        digest[4 * i + 1] = (guint8) (sha->state[i] >> 16);
        digest[4 * i + 2] = (guint8) (sha->state[i] >> 8);
        digest[4 * i + 3] = (guint8) sha->state[i];
      }
  }
#endif
}

/* The digest in lower-case hexadecimal, as g_checksum_get_string() gives it; @sha is
 * cleared. */
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
