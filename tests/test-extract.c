/* test-extract.c: reading pages on several threads gives the document one thread gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-extract.c reads chunks of pages on other threads, each with its own bridge, and
 * hands them to the loader in page order. Here every multi-page fixture, and one PDF made
 * of all the fixtures' pages (fonts of every kind, /ActualText spans, images), is loaded
 * with one thread and with several, and everything extracted must be equal: glyphs,
 * fonts and their numbers, symbols and theirs, lines, blocks, tokens, spans. The pages
 * are laid out on as many threads as read them (dc-parallel.c), and the text export is
 * written on several too: the same lines, blocks and text. Cancelling and the limits must
 * stop at the same page with the same sentence.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dc-document-private.h"
#include "dc-extract-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-export.h"
#include "dc-test-fixtures.h"

static const char *const multi_page_fixtures[] = {
  "clean.pdf",           "identity-h.pdf", "identity-named.pdf", "identity-unicode.pdf",
  "legacy-cyrillic.pdf",
};

static char *merged_dir;
static char *merged_path;

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* All the fixtures' pages in one PDF (qpdf, as the fixtures' generator uses), made once. */
static const char *
merged_pdf (void)
{
  g_autoptr (GPtrArray) argv = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *fixtures = NULL;
  g_autofree char *qpdf = NULL;
  g_autoptr (GPtrArray) names = NULL;
  const char *name;
  int status = 0;

  if (merged_path != NULL)
    return merged_path;
  if ((qpdf = g_find_program_in_path ("qpdf")) == NULL)
    return NULL;
  fixtures = dc_test_fixture_path ("");
  dir = g_dir_open (fixtures, 0, &error);
  g_assert_no_error (error);
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".pdf") && strstr (name, "encrypted") == NULL
        && strstr (name, "not-a-pdf") == NULL && strstr (name, "truncated") == NULL
        && strstr (name, "damaged") == NULL)
      g_ptr_array_add (names, g_build_filename (fixtures, name, NULL));
  g_ptr_array_sort (names, compare_names);

  merged_dir = g_dir_make_tmp ("test-extract-XXXXXX", &error);
  g_assert_no_error (error);
  merged_path = g_build_filename (merged_dir, "merged.pdf", NULL);
  argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "qpdf");
  g_ptr_array_add (argv, "--empty");
  g_ptr_array_add (argv, "--pages");
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (argv, names->pdata[i]);
  g_ptr_array_add (argv, "--");
  g_ptr_array_add (argv, merged_path);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  /* qpdf exits with 3 for warnings about its inputs, and still writes the file. */
  g_assert_true (g_file_test (merged_path, G_FILE_TEST_EXISTS));
  return merged_path;
}

typedef struct
{
  GArray *pages; /* the progress reported, in order */
  GCancellable *cancellable;
  guint cancel_after;
} Progress;

static void
on_progress (guint pages_done, guint n_pages, gpointer user_data)
{
  Progress *progress = user_data;

  g_assert_cmpuint (pages_done, <=, n_pages);
  g_array_append_val (progress->pages, pages_done);
  if (progress->cancellable != NULL && pages_done == progress->cancel_after)
    g_cancellable_cancel (progress->cancellable);
}

/* Pages are reported once each, in order, from the first. */
static void
assert_progress_in_order (GArray *pages)
{
  for (guint i = 0; i < pages->len; i++)
    g_assert_cmpuint (g_array_index (pages, guint, i), ==, i + 1);
}

static DcDocument *
load (const char *path, guint n_threads, const DcDocumentLimits *limits, guint *n_reported,
      GError **error)
{
  Progress progress = { g_array_new (FALSE, FALSE, sizeof (guint)), NULL, 0 };
  DcDocument *document;

  document = _dc_document_new_from_file_threads (path, NULL, limits, n_threads, on_progress,
                                                 &progress, NULL, error);
  assert_progress_in_order (progress.pages);
  if (n_reported != NULL)
    *n_reported = progress.pages->len;
  g_array_unref (progress.pages);
  return document;
}

/* The text export with DECIPHER_EXTRACT_THREADS=@n_threads. */
static char *
export_text (DcDocument *document, guint n_threads)
{
  g_autofree char *value = g_strdup_printf ("%u", n_threads);
  char *text;

  g_setenv ("DECIPHER_EXTRACT_THREADS", value, TRUE);
  text = dc_export_document (document, DC_EXPORT_TEXT, dc_document_pdf_value, document);
  g_unsetenv ("DECIPHER_EXTRACT_THREADS");
  return text;
}

static void
check_same_as_one_thread (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) one = NULL;
  g_autofree char *text = NULL;
  guint n_reported = 0;

  one = load (path, 1, NULL, &n_reported, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_reported, ==, dc_document_get_n_pages (one));
  text = export_text (one, 1);
  for (guint n_threads = 2; n_threads <= 4; n_threads++)
    {
      g_autoptr (DcDocument) several = load (path, n_threads, NULL, &n_reported, &error);
      g_autofree char *several_text = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (n_reported, ==, dc_document_get_n_pages (one));
      dc_test_assert_same_document (one, several);
      several_text = export_text (several, n_threads);
      g_assert_cmpstr (several_text, ==, text);
    }
}

static void
test_fixtures_same_as_one_thread (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (multi_page_fixtures); i++)
    {
      g_autofree char *path = dc_test_fixture_path (multi_page_fixtures[i]);

      check_same_as_one_thread (path);
    }
}

static void
test_merged_same_as_one_thread (void)
{
  const char *path = merged_pdf ();
  g_autoptr (DcDocument) document = NULL;

  if (path == NULL)
    {
      g_test_skip ("qpdf is not installed");
      return;
    }
  check_same_as_one_thread (path);
  /* The merged file has what the comparison is about. */
  document = load (path, 1, NULL, NULL, NULL);
  g_assert_cmpuint (dc_document_get_n_pages (document), >=, 40);
  g_assert_cmpuint (dc_document_get_n_fonts (document), >=, 20);
  g_assert_cmpuint (dc_document_get_n_actual_texts (document), >, 0);
}

/* Cancelled from the progress callback after page @after: the load stops with
 * G_IO_ERROR_CANCELLED, having reported no page after it, however far the other threads
 * had read. */
static void
test_cancel_mid_load (void)
{
  g_autofree char *fixture = dc_test_fixture_path ("clean.pdf");
  const char *path = merged_pdf () != NULL ? merged_pdf () : fixture;

  for (guint n_threads = 1; n_threads <= 3; n_threads++)
    {
      guint after = n_threads == 1 ? 1 : 2;
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      Progress progress = { g_array_new (FALSE, FALSE, sizeof (guint)), cancellable, after };
      g_autoptr (GError) error = NULL;
      g_autoptr (DcDocument) document = NULL;

      document = _dc_document_new_from_file_threads (path, NULL, NULL, n_threads, on_progress,
                                                     &progress, cancellable, &error);
      g_assert_null (document);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      assert_progress_in_order (progress.pages);
      g_assert_cmpuint (progress.pages->len, ==, after);
      g_array_unref (progress.pages);
    }
}

/* A limit reached on a page in the second half: the same page, the same sentence. */
static void
test_limit_in_second_half (void)
{
  g_autofree char *fixture = dc_test_fixture_path ("clean.pdf");
  const char *path = merged_pdf () != NULL ? merged_pdf () : fixture;
  g_autoptr (DcDocument) whole = load (path, 1, NULL, NULL, NULL);
  const DcGlyph *glyphs;
  guint n_glyphs, n_pages = dc_document_get_n_pages (whole);
  guint page = n_pages - 1 - (n_pages - 1) / 4, first = 0;

  glyphs = dc_document_get_glyphs (whole, &n_glyphs);
  while (first < n_glyphs && glyphs[first].page < page)
    first++;
  g_assert_cmpuint (first, <, n_glyphs);

  for (guint k = 0; k < 2; k++)
    {
      /* A limit a few glyphs into the page, and one on the last of the pages. */
      DcDocumentLimits limits = { k == 0 ? first + 1 : n_glyphs - 1, 0 };
      g_autoptr (GError) one_error = NULL;
      guint one_reported = 0;
      g_autoptr (DcDocument) one = load (path, 1, &limits, &one_reported, &one_error);

      g_assert_null (one);
      g_assert_error (one_error, DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS);
      for (guint n_threads = 2; n_threads <= 3; n_threads++)
        {
          g_autoptr (GError) error = NULL;
          guint reported = 0;
          g_autoptr (DcDocument) several = load (path, n_threads, &limits, &reported, &error);

          g_assert_null (several);
          g_assert_error (error, DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS);
          g_assert_cmpstr (error->message, ==, one_error->message);
          g_assert_cmpuint (reported, ==, one_reported);
        }
    }
}

/* A PDF of @n_pages pages drawn by @contents, each page with the same resources written
 * out again (inline, as the 500-page book has them), which the bridge reads with one
 * Gfx; /oc1 is optional content that is off. With @alternate, the odd pages' /F1 is
 * another font: two sets of resources, taking turns. */
static char *
write_pages_pdf (const char *dir, const char *const *contents, guint n_pages, gboolean alternate)
{
  g_autoptr (GString) pdf = g_string_new ("%PDF-1.5\n");
  g_autoptr (GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GString) kids = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "pages.pdf", NULL);
  gsize xref;

#define OBJECT(...)                                                                             \
  do                                                                                            \
    {                                                                                           \
      gsize at = pdf->len;                                                                      \
      g_array_append_val (offsets, at);                                                         \
      g_string_append_printf (pdf, "%u 0 obj\n", offsets->len);                                 \
      g_string_append_printf (pdf, __VA_ARGS__);                                                \
      g_string_append (pdf, "\nendobj\n");                                                      \
    }                                                                                           \
  while (0)

  for (guint i = 0; i < n_pages; i++)
    g_string_append_printf (kids, "%u 0 R ", 6 + 2 * i);
  OBJECT ("<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [4 0 R] /D << /OFF [4 0 R] "
          ">> >> >>");
  OBJECT ("<< /Type /Pages /Kids [%s] /Count %u >>", kids->str, n_pages);
  OBJECT ("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  OBJECT ("<< /Type /OCG /Name (Hidden) >>");
  OBJECT ("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>");
  for (guint i = 0; i < n_pages; i++)
    {
      OBJECT ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 "
              "%u 0 R >> /Properties << /oc1 4 0 R >> >> /Contents %u 0 R >>",
              alternate && i % 2 == 1 ? 5 : 3, 7 + 2 * i);
      OBJECT ("<< /Length %zu >>\nstream\n%s\nendstream", strlen (contents[i]) + 1, contents[i]);
    }
#undef OBJECT

  xref = pdf->len;
  g_string_append_printf (pdf, "xref\n0 %u\n0000000000 65535 f \n", offsets->len + 1);
  for (guint i = 0; i < offsets->len; i++)
    g_string_append_printf (pdf, "%010zu 00000 n \n", g_array_index (offsets, gsize, i));
  g_string_append_printf (pdf, "trailer\n<< /Size %u /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
                          offsets->len + 1, xref);
  g_file_set_contents (path, pdf->str, (gssize) pdf->len, &error);
  g_assert_no_error (error);
  return path;
}

/* The glyphs of @page, as records. */
static GArray *
page_glyphs (DcDocument *document, guint page)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (DcGlyph));
  const DcGlyph *glyphs;
  guint n_glyphs;

  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  for (guint i = 0; i < n_glyphs; i++)
    if (glyphs[i].page == page)
      {
        DcGlyph glyph = glyphs[i];

        glyph.page = 0;
        g_array_append_val (found, glyph);
      }
  return found;
}

/* A page read with the Gfx of the page before (pages with the same resources, in
 * dc-pdf-bridge.cc) starts as it would with a Gfx of its own: marked content, graphics
 * states and /ActualText spans the page before left open do not carry over. Pages 2 and
 * 4 draw what page 0 draws, after a page that leaves hidden optional content open and
 * one that leaves a scaled graphics state and an /ActualText span open. */
static void
test_page_leaves_nothing_open (void)
{
  static const char *const contents[] = {
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
    "/OC /oc1 BDC BT /F1 12 Tf 72 100 Td (Hidden) Tj ET",
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
    "q 2 0 0 2 0 0 cm /Span << /ActualText (Bye) >> BDC BT /F1 12 Tf 72 100 Td (Open) Tj ET",
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
  };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-extract-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GArray) first = NULL;

  g_assert_no_error (error);
  path = write_pages_pdf (dir, contents, G_N_ELEMENTS (contents), FALSE);
  for (guint n_threads = 1; n_threads <= 2; n_threads++)
    {
      g_clear_object (&document);
      document = load (path, n_threads, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (dc_document_get_n_pages (document), ==, G_N_ELEMENTS (contents));
      g_clear_pointer (&first, g_array_unref);
      first = page_glyphs (document, 0);
      g_assert_cmpuint (first->len, ==, 5);
      for (guint page = 2; page <= 4; page += 2)
        {
          g_autoptr (GArray) again = page_glyphs (document, page);

          g_assert_cmpmem (again->data, again->len * sizeof (DcGlyph), first->data,
                           first->len * sizeof (DcGlyph));
        }
      /* The span left open on page 3 is not one: it never ended. */
      g_assert_cmpuint (dc_document_get_n_actual_texts (document), ==, 0);
    }
  g_remove (path);
  g_rmdir (dir);
}

static void
ignore_font (guint font_index, const DcBridgeFont *font, gpointer user_data)
{
}

static void
ignore_run (const DcBridgeRun *run, gpointer user_data)
{
}

/* Pages whose resources take turns are read with the Gfx each set of resources had before
 * (dc-pdf-bridge.cc): two made for six pages, not one a page. Each starts as it would with
 * a Gfx of its own, whatever the page before it with the same Gfx, or the one just before
 * it with the other, left open. */
static void
test_gfx_kept_for_resources_in_turn (void)
{
  static const char *const contents[] = {
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
    "/OC /oc1 BDC BT /F1 12 Tf 72 100 Td (Hidden) Tj ET",
    "q 2 0 0 2 0 0 cm /Span << /ActualText (Bye) >> BDC BT /F1 12 Tf 72 100 Td (Open) Tj ET",
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
    "BT /F1 12 Tf 72 200 Td (Hello) Tj ET",
  };
  const DcBridgeCallbacks callbacks = { ignore_font, ignore_run, NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-extract-XXXXXX", &error);
  g_autofree char *path = NULL;
  DcPdfBridge *bridge;

  g_assert_no_error (error);
  path = write_pages_pdf (dir, contents, G_N_ELEMENTS (contents), TRUE);

  bridge = dc_pdf_bridge_open (path, NULL, &error);
  g_assert_no_error (error);
  for (guint page = 0; page < G_N_ELEMENTS (contents); page++)
    {
      g_assert_true (dc_pdf_bridge_extract_page (bridge, page, &callbacks, NULL, NULL, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (dc_pdf_bridge_get_n_gfx_made (bridge), ==, 2);
  dc_pdf_bridge_free (bridge);

  for (guint n_threads = 1; n_threads <= 2; n_threads++)
    {
      g_autoptr (DcDocument) document = load (path, n_threads, NULL, NULL, &error);
      g_autoptr (GArray) first = NULL;
      g_autoptr (GArray) other = NULL;
      g_autoptr (GArray) again = NULL;

      g_assert_no_error (error);
      first = page_glyphs (document, 0);
      other = page_glyphs (document, 3);
      g_assert_cmpuint (first->len, ==, 5);
      g_assert_cmpuint (other->len, ==, 5);
      /* Another font: Courier's advances are not Helvetica's. */
      g_assert_true (memcmp (other->data, first->data, first->len * sizeof (DcGlyph)) != 0);
      again = page_glyphs (document, 4);
      g_assert_cmpmem (again->data, again->len * sizeof (DcGlyph), first->data,
                       first->len * sizeof (DcGlyph));
      g_clear_pointer (&again, g_array_unref);
      again = page_glyphs (document, 5);
      g_assert_cmpmem (again->data, again->len * sizeof (DcGlyph), other->data,
                       other->len * sizeof (DcGlyph));
      g_assert_cmpuint (dc_document_get_n_actual_texts (document), ==, 0);
    }
  g_remove (path);
  g_rmdir (dir);
}

/* What _dc_extract_pages() hands on, counted: glyphs as the bridge reported them (read by
 * the calling thread as one thread reads) and as recordings packed them. */
typedef struct
{
  guint n_fonts;
  guint64 n_read;
  guint64 n_replayed;
  guint next_page;
} Handed;

static void
count_font (guint font_index, const DcBridgeFont *font, gpointer user_data)
{
  Handed *handed = user_data;

  g_assert_cmpuint (font_index, ==, handed->n_fonts);
  handed->n_fonts++;
}

static void
count_run (const DcBridgeRun *run, gpointer user_data)
{
  Handed *handed = user_data;

  g_assert_cmpuint (run->font, <, handed->n_fonts);
  handed->n_read += run->n_glyphs;
}

static void
count_glyphs (const DcGlyph *glyphs, guint n_glyphs, DcExtractCode *codes, gpointer user_data)
{
  Handed *handed = user_data;

  for (guint i = 0; i < n_glyphs; i++)
    g_assert_cmpuint (codes[glyphs[i].symbol].font, <, handed->n_fonts);
  handed->n_replayed += n_glyphs;
}

static void
count_page_begin (guint page, gpointer user_data)
{
  Handed *handed = user_data;

  g_assert_cmpuint (page, ==, handed->next_page);
}

static gboolean
count_page_done (guint page, gpointer user_data)
{
  Handed *handed = user_data;

  handed->next_page = page + 1;
  return TRUE;
}

/* On two threads, the calling thread reads the chunk to be handed on next itself when the
 * other has not taken it, handing its glyphs on as one thread does rather than recording
 * them and copying the recording: the first chunk at least, which the other thread never
 * takes. Everything is handed on once, in order, the fonts numbered as on one thread. */
static void
test_next_chunk_read_directly (void)
{
  enum { N_PAGES = 40 };
  const char *contents[N_PAGES];
  const DcExtractCallbacks callbacks = { count_font, count_run, count_glyphs, NULL, NULL };
  const DcExtractLimits limits = { G_MAXUINT64, G_MAXUINT64, sizeof (DcGlyph) };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-extract-XXXXXX", &error);
  g_autofree char *path = NULL;
  Handed one = { 0 };

  g_assert_no_error (error);
  for (guint i = 0; i < N_PAGES; i++)
    contents[i] = "BT /F1 12 Tf 72 200 Td (Hello) Tj ET";
  path = write_pages_pdf (dir, contents, N_PAGES, TRUE);

  for (guint n_threads = 1; n_threads <= 2; n_threads++)
    {
      DcPdfBridge *bridge = dc_pdf_bridge_open (path, NULL, &error);
      Handed handed = { 0 };

      g_assert_no_error (error);
      g_assert_true (_dc_extract_pages (bridge, path, NULL, n_threads, &limits, &callbacks,
                                        count_page_begin, count_page_done, &handed, NULL,
                                        &error));
      g_assert_no_error (error);
      dc_pdf_bridge_free (bridge);
      g_assert_cmpuint (handed.next_page, ==, N_PAGES);
      if (n_threads == 1)
        {
          one = handed;
          g_assert_cmpuint (one.n_read, ==, 5 * N_PAGES);
          continue;
        }
      g_assert_cmpuint (handed.n_fonts, ==, one.n_fonts);
      g_assert_cmpuint (handed.n_read + handed.n_replayed, ==, one.n_read);
      /* The first chunk's at least, its first page's five glyphs among them. */
      g_assert_cmpuint (handed.n_read, >=, 5);
    }
  g_remove (path);
  g_rmdir (dir);
}

/* Tokens split anew when a symbol becomes a space (a space learned in a session) are
 * the same on several threads as on one: the parts' tokens in their places, in order. */
static void
test_retokenize_same_as_one_thread (void)
{
  g_autofree char *fixture = dc_test_fixture_path ("legacy-cyrillic.pdf");
  const char *path = merged_pdf () != NULL ? merged_pdf () : fixture;
  g_autoptr (DcDocument) one = load (path, 1, NULL, NULL, NULL);
  g_autoptr (DcDocument) several = load (path, 4, NULL, NULL, NULL);
  guint n_symbols, stride;

  dc_document_get_symbols (one, &n_symbols);
  /* Every fifth symbol a space, then not: tokens of every length, lines with none. Each
   * change splits the whole book again, twice; on the book of every fixture (4,657
   * symbols) every fifth was 1,864 changes, a minute under ThreadSanitizer, so a larger
   * book takes a wider stride, about two hundred changes a round, spread over it all;
   * the two are compared after every fifth change, as they were. */
  stride = MAX (5, (n_symbols / 200 + 4) / 5 * 5);
  for (guint round = 0; round < 2; round++)
    for (guint s = 0; s < n_symbols; s += stride)
      {
        gboolean is_space = round == 0;

        g_setenv ("DECIPHER_EXTRACT_THREADS", "1", TRUE);
        dc_document_set_symbol_is_space (one, s, is_space);
        g_setenv ("DECIPHER_EXTRACT_THREADS", "4", TRUE);
        dc_document_set_symbol_is_space (several, s, is_space);
        g_unsetenv ("DECIPHER_EXTRACT_THREADS");
        if (s / stride % 5 == 0)
          dc_test_assert_same_document (one, several);
      }
  dc_test_assert_same_document (one, several);
}

/* The tokens split with the layout, page by page on several threads as a document
 * loads, are those a retokenize splits from the laid-out lines at the same spaces. */
static void
test_layout_tokens_same_as_retokenize (void)
{
  /* Documents with no space unlearned at load: their tokens are the layout's. */
  const char *names[] = { "two-columns.pdf", "multiscript.pdf", "reading.pdf", "script-hindi.pdf",
                          "script-arabic.pdf", "igt.pdf" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint n_threads = 1; n_threads <= 4; n_threads *= 4)
      {
        g_autofree char *path = dc_test_fixture_path (names[i]);
        g_autoptr (DcDocument) document = load (path, n_threads, NULL, NULL, NULL);
        g_autofree DcToken *loaded_tokens = NULL;
        g_autofree DcLine *loaded_lines = NULL;
        const DcToken *tokens;
        const DcLine *lines;
        guint n_tokens, n_lines, n_loaded_tokens, n_loaded_lines, n_symbols;
        gboolean is_space;

        g_test_message ("%s, %u threads", names[i], n_threads);
        g_assert_cmpuint (dc_document_get_tokens_generation (document), ==, 1);
        lines = dc_document_get_lines (document, &n_loaded_lines);
        loaded_lines = g_memdup2 (lines, n_loaded_lines * sizeof (DcLine));
        tokens = dc_document_get_tokens (document, &n_loaded_tokens);
        loaded_tokens = g_memdup2 (tokens, n_loaded_tokens * sizeof (DcToken));
        g_assert_cmpuint (n_loaded_tokens, >, 10);

        /* A symbol changed and changed back: the same spaces, split anew. */
        dc_document_get_symbols (document, &n_symbols);
        is_space = dc_document_symbol_is_space (document, n_symbols / 2);
        dc_document_set_symbol_is_space (document, n_symbols / 2, !is_space);
        dc_document_set_symbol_is_space (document, n_symbols / 2, is_space);
        g_assert_cmpuint (dc_document_get_tokens_generation (document), ==, 3);

        tokens = dc_document_get_tokens (document, &n_tokens);
        lines = dc_document_get_lines (document, &n_lines);
        g_assert_cmpuint (n_tokens, ==, n_loaded_tokens);
        g_assert_cmpmem (tokens, n_tokens * sizeof (DcToken), loaded_tokens,
                         n_loaded_tokens * sizeof (DcToken));
        g_assert_cmpmem (lines, n_lines * sizeof (DcLine), loaded_lines,
                         n_loaded_lines * sizeof (DcLine));
        /* And every token lies in its line. */
        for (guint t = 0; t < n_tokens; t++)
          {
            const DcLine *line = &lines[tokens[t].line];

            g_assert_cmpuint (t, >=, line->first_token);
            g_assert_cmpuint (t, <, line->first_token + line->n_tokens);
            g_assert_cmpuint (tokens[t].first_glyph, >=, line->first_glyph);
          }
      }
}

/* Takes an export's text as it comes; refuses its call number @fail_at. */
typedef struct
{
  GString *text;
  guint n_calls;
  guint fail_at;
} Sink;

static gboolean
sink_write (const char *data, gsize length, gpointer user_data)
{
  Sink *sink = user_data;

  if (sink->n_calls++ == sink->fail_at)
    return FALSE;
  g_string_append_len (sink->text, data, (gssize) length);
  return TRUE;
}

/* An export written as it is made (dc_export_json_write(), dc_export_text_write()), its
 * pages on several threads: the same text as dc_export_document() on one, in several
 * writes; a write that fails stops it. */
static gboolean
write_export (DcDocument *document, DcExportFormat format, Sink *sink)
{
  if (format == DC_EXPORT_JSON)
    return dc_export_json_write (document, DC_NORMALIZATION_NFC, dc_document_pdf_value, document,
                                 sink_write, sink);
  return dc_export_text_write (document, dc_document_pdf_value, document, sink_write, sink);
}

static void
check_streamed_same_as_one_thread (DcExportFormat format, guint least_calls)
{
  g_autofree char *fixture = dc_test_fixture_path ("legacy-cyrillic.pdf");
  const char *path = merged_pdf () != NULL ? merged_pdf () : fixture;
  g_autoptr (DcDocument) document = load (path, 1, NULL, NULL, NULL);
  g_autofree char *expected = NULL;

  g_setenv ("DECIPHER_EXTRACT_THREADS", "1", TRUE);
  expected = dc_export_document (document, format, dc_document_pdf_value, document);
  g_assert_cmpuint (strlen (expected), >, 1000);
  for (guint n_threads = 1; n_threads <= 4; n_threads++)
    {
      g_autofree char *value = g_strdup_printf ("%u", n_threads);
      Sink sink = { g_string_new (NULL), 0, G_MAXUINT };
      Sink failing = { g_string_new (NULL), 0, 1 };

      g_setenv ("DECIPHER_EXTRACT_THREADS", value, TRUE);
      g_assert_true (write_export (document, format, &sink));
      g_assert_cmpstr (sink.text->str, ==, expected);
      g_assert_cmpuint (sink.n_calls, >=, least_calls);

      /* Refused its second write, the export stops there. */
      if (sink.n_calls >= 2)
        {
          g_assert_false (write_export (document, format, &failing));
          g_assert_cmpuint (failing.n_calls, ==, 2);
        }
      g_string_free (sink.text, TRUE);
      g_string_free (failing.text, TRUE);
    }
  g_unsetenv ("DECIPHER_EXTRACT_THREADS");
}

static void
test_json_streamed_same_as_one_thread (void)
{
  /* The head, each part of a few pages, the warnings. */
  check_streamed_same_as_one_thread (DC_EXPORT_JSON, 3);
}

static void
test_text_streamed_same_as_one_thread (void)
{
  /* A part of a few pages at a time: several on a book of many pages. */
  check_streamed_same_as_one_thread (DC_EXPORT_TEXT, merged_pdf () != NULL ? 3 : 1);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/extract/fixtures-same-as-one-thread", test_fixtures_same_as_one_thread);
  g_test_add_func ("/extract/merged-same-as-one-thread", test_merged_same_as_one_thread);
  g_test_add_func ("/extract/cancel-mid-load", test_cancel_mid_load);
  g_test_add_func ("/extract/limit-in-second-half", test_limit_in_second_half);
  g_test_add_func ("/extract/page-leaves-nothing-open", test_page_leaves_nothing_open);
  g_test_add_func ("/extract/gfx-kept-for-resources-in-turn", test_gfx_kept_for_resources_in_turn);
  g_test_add_func ("/extract/next-chunk-read-directly", test_next_chunk_read_directly);
  g_test_add_func ("/extract/retokenize-same-as-one-thread", test_retokenize_same_as_one_thread);
  g_test_add_func ("/extract/layout-tokens-same-as-retokenize",
                   test_layout_tokens_same_as_retokenize);
  g_test_add_func ("/extract/json-streamed-same-as-one-thread",
                   test_json_streamed_same_as_one_thread);
  g_test_add_func ("/extract/text-streamed-same-as-one-thread",
                   test_text_streamed_same_as_one_thread);

  status = g_test_run ();
  if (merged_dir != NULL)
    dc_test_remove_tree (merged_dir);
  g_free (merged_path);
  g_free (merged_dir);
  return status;
}
