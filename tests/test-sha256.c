/* test-sha256.c: the engine's SHA-256 (nettle's) gives GChecksum's digests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every length up to a few blocks is hashed, and longer random data fed in random pieces,
 * so that every way a piece can start and end inside a block is met; a document's
 * checksum is compared with the file's as GChecksum hashes it, for a file hashed on the
 * loading thread and one hashed on a thread of its own.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

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

  /* One abandoned half way is cleared without a digest. */
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

/* A one-page PDF of @padding bytes more than its text needs, in a stream no page uses,
 * written to a temporary file: one larger than the loader's SMALL_FILE is hashed on a
 * thread of its own. */
static char *
write_padded_pdf (gsize padding)
{
  static const char content[] = "BT /F1 24 Tf 72 720 Td (Hashed on a thread) Tj ET";
  g_autoptr (GString) pdf = g_string_new ("%PDF-1.4\n");
  g_autoptr (GError) error = NULL;
  g_autofree char *filler = g_strnfill (padding, 'x');
  gsize offsets[6];
  char *path = NULL;
  int fd = g_file_open_tmp ("test-sha256-XXXXXX.pdf", &path, &error);

  g_assert_no_error (error);
  g_close (fd, NULL);
  offsets[1] = pdf->len;
  g_string_append (pdf, "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
  offsets[2] = pdf->len;
  g_string_append (pdf, "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n");
  offsets[3] = pdf->len;
  g_string_append (pdf, "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                        "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 "
                        "/BaseFont /Helvetica >> >> >> /Contents 4 0 R >>\nendobj\n");
  offsets[4] = pdf->len;
  g_string_append_printf (pdf, "4 0 obj\n<< /Length %zu >>\nstream\n%s\nendstream\nendobj\n",
                          strlen (content), content);
  offsets[5] = pdf->len;
  g_string_append_printf (pdf, "5 0 obj\n<< /Length %zu >>\nstream\n%s\nendstream\nendobj\n",
                          padding, filler);
  {
    gsize xref = pdf->len;

    g_string_append (pdf, "xref\n0 6\n0000000000 65535 f \n");
    for (guint i = 1; i < 6; i++)
      g_string_append_printf (pdf, "%010zu 00000 n \n", offsets[i]);
    g_string_append_printf (pdf, "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
                            xref);
  }
  g_file_set_contents (path, pdf->str, (gssize) pdf->len, &error);
  g_assert_no_error (error);
  return path;
}

/* A document's checksum is its file's, for a file hashed on the loading thread and for
 * one hashed on a thread of its own. */
static void
check_large_document (void)
{
  g_autofree char *path = write_padded_pdf (400 * 1024);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument)
      document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *contents = NULL;
  g_autofree char *want = NULL;
  gsize length = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 256 * 1024);
  want = glib_digest ((const guint8 *) contents, length);
  g_assert_cmpstr (dc_document_get_sha256 (document), ==, want);
  g_unlink (path);
}

static void
test_digests (void)
{
  check_digests ();
}

static void
test_document (void)
{
  check_document ();
  check_large_document ();
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sha256/digests", test_digests);
  g_test_add_func ("/sha256/document", test_document);
  return g_test_run ();
}
