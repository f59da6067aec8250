/* test-sha256.c: the engine's SHA-256 gives GChecksum's digests, on the processor's SHA
 * instructions and without them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The way of hashing is chosen once a process, so each way runs in a subprocess (this
 * program run again), the one without the instructions with DECIPHER_SHA256=glib. Every
 * length up to a few blocks is hashed, and longer random data fed in random pieces, so
 * that every way a piece can start and end inside a block is met; a document's checksum
 * is compared with the file's as GChecksum hashes it.
 */

#include "config.h"

#include <string.h>

#include "dc-document.h"
#include "dc-sha256-private.h"
#include "dc-test-fixtures.h"

static char *
glib_digest (const guint8 *data, gsize length)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, length);
}

/* @length random bytes hashed in random pieces of 0 to @most bytes. */
static char *
pieces_digest (GRand *rand, const guint8 *data, gsize length, guint most)
{
  DcSha256 sha;
  gsize at = 0;

  _dc_sha256_init (&sha);
  while (at < length)
    {
      gsize piece = (gsize) g_rand_int_range (rand, 0, (gint32) most + 1);

      piece = MIN (piece, length - at);
      _dc_sha256_update (&sha, data + at, piece);
      at += piece;
    }
  return _dc_sha256_finish_string (&sha);
}

static void
check_digests (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (32);
  g_autofree guint8 *data = g_malloc (100000);

  for (gsize i = 0; i < 100000; i++)
    data[i] = (guint8) g_rand_int (rand);

  /* Every length over four blocks, in one piece and in pieces. */
  for (gsize length = 0; length <= 260; length++)
    {
      g_autofree char *want = glib_digest (data, length);
      g_autofree char *whole = NULL;
      g_autofree char *pieces = pieces_digest (rand, data, length, 70);
      guint8 digest[DC_SHA256_LEN];
      DcSha256 sha;

      _dc_sha256_init (&sha);
      _dc_sha256_update (&sha, data, length);
      whole = _dc_sha256_finish_string (&sha);
      g_assert_cmpstr (whole, ==, want);
      g_assert_cmpstr (pieces, ==, want);

      _dc_sha256_of (data, length, digest);
      for (guint i = 0; i < DC_SHA256_LEN; i++)
        {
          char byte[3];

          g_snprintf (byte, sizeof byte, "%02x", digest[i]);
          g_assert_cmpint (byte[0], ==, want[2 * i]);
          g_assert_cmpint (byte[1], ==, want[2 * i + 1]);
        }
    }
  /* Long ones, in large pieces (many blocks at once) and in small ones. */
  for (guint round = 0; round < 40; round++)
    {
      gsize length = (gsize) g_rand_int_range (rand, 0, 100001);
      g_autofree char *want = glib_digest (data, length);
      g_autofree char *large = pieces_digest (rand, data, length, 20000);
      g_autofree char *small = pieces_digest (rand, data, length, 100);

      g_assert_cmpstr (large, ==, want);
      g_assert_cmpstr (small, ==, want);
    }

  /* One abandoned half way frees what it holds (the leak checkers see it). */
  {
    DcSha256 sha;

    _dc_sha256_init (&sha);
    _dc_sha256_update (&sha, data, 1000);
    _dc_sha256_clear (&sha);
  }
}

/* A loaded document's checksum is the file's. */
static void
check_document (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  g_autofree char *path = dc_test_fixture_path ("clean.pdf");
  g_autofree char *contents = NULL;
  g_autofree char *want = NULL;
  gsize length = 0;

  g_assert_nonnull (document);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  want = glib_digest ((const guint8 *) contents, length);
  g_assert_cmpstr (dc_document_get_sha256 (document), ==, want);
}

static void
test_cpu (void)
{
  if (g_test_subprocess ())
    {
      g_assert_true (_dc_sha256_uses_cpu_instructions ());
      check_digests ();
      check_document ();
      return;
    }
  if (!_dc_sha256_uses_cpu_instructions ())
    {
      g_test_skip ("this processor has no SHA instructions (or DECIPHER_SHA256=glib is set)");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_glib (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("DECIPHER_SHA256", "glib", TRUE);
      g_assert_false (_dc_sha256_uses_cpu_instructions ());
      check_digests ();
      check_document ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sha256/cpu", test_cpu);
  g_test_add_func ("/sha256/glib", test_glib);
  return g_test_run ();
}
