/* test-memory.c: the heap a front end asks for in huge pages is advised so
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc_memory_prefer_huge_pages() (base/dc-memory.c) changes nothing a program sees but the
 * kernel's pages under it, so the test reads what the kernel says of the process: the
 * mapping a block of a few megabytes lands in is the heap, and carries the huge-page
 * advice (VmFlags "hg" in /proc/self/smaps). Without the call that block would be a mapping
 * of its own, not advised. Where the kernel has no transparent huge pages to give, or a
 * sanitizer replaces malloc(), there is nothing to look at.
 */

#include "config.h"

#include <string.h>

#include "dc-document.h"
#include "dc-memory.h"
#include "dc-parallel-private.h"
#include "dc-test-fixtures.h"

/* The VmFlags of the mapping @address is in, with its name ("[heap]"), or FALSE. */
static gboolean
mapping_of (gconstpointer address, char **flags, char **name)
{
  g_autofree char *smaps = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;
      char *dash;

      /* A mapping's first line: "start-end perms offset device inode [name]". */
      if (g_ascii_isxdigit (lines[i][0]) && (dash = strchr (lines[i], '-')) != NULL
          && strchr (lines[i], ' ') > dash)
        {
          g_auto (GStrv) fields = g_strsplit_set (lines[i], " ", -1);
          guint n = g_strv_length (fields);

          start = g_ascii_strtoull (lines[i], NULL, 16);
          end = g_ascii_strtoull (dash + 1, NULL, 16);
          inside = (guintptr) address >= start && (guintptr) address < end;
          if (inside)
            *name = g_strdup (n > 5 ? fields[n - 1] : "");
        }
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        {
          *flags = g_strdup (lines[i] + strlen ("VmFlags:"));
          return TRUE;
        }
    }
  return FALSE;
}

/* A PDF of @n_pages pages, each a line of Helvetica: a book, to the loader, from 16. */
static char *
write_book (const char *dir, guint n_pages)
{
  g_autoptr (GString) pdf = g_string_new ("%PDF-1.4\n");
  g_autoptr (GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GString) kids = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "book.pdf", NULL);
  guint n_objects = 3 + 2 * n_pages;
  gsize xref;

#define OBJECT(...)                                                                                \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_array_append_val (offsets, pdf->len);                                                        \
    g_string_append_printf (pdf, __VA_ARGS__);                                                     \
  }                                                                                                \
  G_STMT_END
  for (guint p = 0; p < n_pages; p++)
    g_string_append_printf (kids, "%u 0 R ", 4 + 2 * p);
  OBJECT ("1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n");
  OBJECT ("2 0 obj << /Type /Pages /Kids [%s] /Count %u >> endobj\n", kids->str, n_pages);
  OBJECT ("3 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n");
  for (guint p = 0; p < n_pages; p++)
    {
      g_autofree char
          *content = g_strdup_printf ("BT /F1 12 Tf 72 720 Td (Page %u of the book.) Tj ET", p + 1);

      OBJECT ("%u 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
              "<< /Font << /F1 3 0 R >> >> /Contents %u 0 R >> endobj\n",
              4 + 2 * p, 5 + 2 * p);
      OBJECT ("%u 0 obj << /Length %zu >> stream\n%s\nendstream endobj\n", 5 + 2 * p,
              strlen (content), content);
    }
#undef OBJECT
  xref = pdf->len;
  g_string_append_printf (pdf, "xref\n0 %u\n0000000000 65535 f \n", n_objects);
  for (guint i = 0; i < offsets->len; i++)
    g_string_append_printf (pdf, "%010zu 00000 n \n", g_array_index (offsets, gsize, i));
  g_string_append_printf (pdf, "trailer << /Size %u /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
                          n_objects, xref);
  g_file_set_contents (path, pdf->str, (gssize) pdf->len, &error);
  g_assert_no_error (error);
  return path;
}

/* Whether a block of 8 MiB made now lands in the heap, advised. */
static gboolean
block_is_in_advised_heap (void)
{
  g_autofree char *flags = NULL, *name = NULL;
  /* Far beyond glibc's first threshold for a mapping of its own (128 KiB). */
  g_autofree guint8 *block = g_malloc (8 << 20);
  g_auto (GStrv) each_flag = NULL;

  memset (block, 1, 8 << 20);
  g_assert_true (mapping_of (block + (4 << 20), &flags, &name));
  if (g_strcmp0 (name, "[heap]") != 0)
    return FALSE;
  each_flag = g_strsplit_set (g_strstrip (flags), " ", -1);
  return g_strv_contains ((const char *const *) each_flag, "hg");
}

/* Why the heap cannot be looked at here, or NULL. */
static const char *
heap_cannot_be_seen (void)
{
  g_autofree char *enabled = NULL;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return "a sanitizer's malloc() keeps no heap of glibc's";
#endif
#ifndef __GLIBC__
  return "only glibc's heap is advised";
#endif
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &enabled, NULL, NULL)
      || strstr (enabled, "[never]") != NULL)
    return "this kernel gives no transparent huge pages";
  return NULL;
}

/* A document of a few pages leaves the heap as it is (zeroing a 2 MiB page on first touch
 * would cost a one-page `text` more than it saves); a book has it advised from then on. */
static void
test_heap_advised_for_books (void)
{
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-memory-XXXXXX", NULL);
  g_autoptr (DcDocument) small = NULL, book = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *small_path = dc_test_fixture_path ("legacy-cyrillic.pdf");
  g_autofree char *book_path = NULL;
  const char *reason = heap_cannot_be_seen ();

  if (reason != NULL)
    {
      g_test_skip (reason);
      return;
    }
  book_path = write_book (dir, DC_PARALLEL_MIN_PAGES);
  /* As the command line does first thing; a second call (a front end and a library
   * both) changes nothing. */
  dc_memory_prefer_huge_pages ();
  dc_memory_prefer_huge_pages ();

  small = dc_document_new_from_file_full (small_path, NULL, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (block_is_in_advised_heap ());

  book = dc_document_new_from_file_full (book_path, NULL, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dc_document_get_n_pages (book), ==, DC_PARALLEL_MIN_PAGES);
  g_assert_true (block_is_in_advised_heap ());
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory/heap-advised-for-books", test_heap_advised_for_books);
  return g_test_run ();
}
