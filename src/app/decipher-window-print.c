/* decipher-window-print.c: printing the recovered text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a linguist prints from Decipher is what Decipher adds to the PDF: its text as far
 * as it is recovered, to read and mark up on paper. The pages as they look print from
 * any PDF viewer. So Print lays out the decoded text of each PDF page in reading order
 * (the lines the text export writes, U+FFFD where a glyph is still unknown), under a
 * header naming the document and the page; a PDF page whose text is longer than a
 * sheet goes on over the next ones, each saying "continued".
 *
 * A book has hundreds of pages. The values are copied when printing starts, so that the
 * print is the key as it was then whatever the user does meanwhile, and the pages are
 * laid out a few PDF pages per "paginate", each on a main-loop turn of its own: the
 * window never waits for more than those few. A sheet is drawn from its PDF page's text
 * laid out again, so that only one layout is held at a time.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-window-private.h"

/* PDF pages laid out per "paginate". */
#define PAGES_PER_STEP 8
#define BODY_FONT "Serif 11"
#define HEADER_FONT "Sans 9"
/* Between the header's rule and the text, in points. */
#define HEADER_GAP 12.0

typedef struct
{
  guint pdf_page;
  int first_line; /* the first line of the page's layout on this sheet */
} Sheet;

typedef struct
{
  DcDocument *document;
  GPtrArray *values;  /* char *, each symbol's value when printing began; NULL unknown */
  GHashTable *splits; /* glyph → char *, the occurrences split off their symbol then */
  char *title;
  GPtrArray *texts; /* char *, each PDF page's text, as far as laid out */
  GArray *sheets;   /* Sheet, in print order */
  PangoFontDescription *body_font;
  PangoFontDescription *header_font;
  double header_height; /* the header, its rule and the gap under it */
  /* The last page laid out for drawing: the next sheet is often more of it. */
  PangoLayout *layout;
  guint layout_page;
} PrintJob;

static void
print_job_free (gpointer data)
{
  PrintJob *job = data;

  g_clear_object (&job->document);
  g_ptr_array_unref (job->values);
  g_hash_table_unref (job->splits);
  g_free (job->title);
  g_ptr_array_unref (job->texts);
  g_array_unref (job->sheets);
  pango_font_description_free (job->body_font);
  pango_font_description_free (job->header_font);
  g_clear_object (&job->layout);
  g_free (job);
}

static const char *
snapshot_value (guint symbol, gpointer data)
{
  GPtrArray *values = ((PrintJob *) data)->values;

  return symbol < values->len ? g_ptr_array_index (values, symbol) : NULL;
}

/* What a split occurrence reads (dc_key_split()), for dc_value_for_glyph(). */
static const char *
snapshot_split (guint glyph, gpointer data)
{
  return g_hash_table_lookup (((PrintJob *) data)->splits, GUINT_TO_POINTER (glyph));
}

static PrintJob *
print_job_new (DecipherSession *session)
{
  PrintJob *job = g_new0 (PrintJob, 1);
  DcKey *key = decipher_session_get_key (session);
  g_autofree guint *split = NULL;
  guint n_symbols, n_split;

  job->document = g_object_ref (decipher_session_get_document (session));
  dc_document_get_symbols (job->document, &n_symbols);
  job->values = g_ptr_array_new_full (n_symbols, g_free);
  for (guint s = 0; s < n_symbols; s++)
    g_ptr_array_add (job->values, g_strdup (dc_key_get_value (key, s)));
  job->splits = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  split = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_split);
  for (guint i = 0; i < n_split; i++)
    g_hash_table_insert (job->splits, GUINT_TO_POINTER (split[i]),
                         g_strdup (dc_key_get_split (key, split[i], NULL)));
  dc_value_func_add_glyph_func (snapshot_value, snapshot_split, NULL);
  job->title = decipher_session_dup_title (session);
  job->texts = g_ptr_array_new_with_free_func (g_free);
  job->sheets = g_array_new (FALSE, FALSE, sizeof (Sheet));
  job->body_font = pango_font_description_from_string (BODY_FONT);
  job->header_font = pango_font_description_from_string (HEADER_FONT);
  job->layout_page = G_MAXUINT;
  return job;
}

/* The decoded text of @page, its lines in reading order. */
static char *
page_text (PrintJob *job, guint page)
{
  GString *text = g_string_new (NULL);
  guint first, n;

  dc_document_get_page_lines (job->document, page, &first, &n);
  for (guint l = first; l < first + n; l++)
    {
      g_autofree char *line = dc_export_line_text (job->document, l, snapshot_value, job);

      if (l > first)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  return g_string_free (text, FALSE);
}

static PangoLayout *
body_layout (PrintJob *job, GtkPrintContext *context, const char *text)
{
  PangoLayout *layout = gtk_print_context_create_pango_layout (context);

  pango_layout_set_font_description (layout, job->body_font);
  pango_layout_set_width (layout, (int) (gtk_print_context_get_width (context) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

static void
begin_print_cb (GtkPrintOperation *operation, GtkPrintContext *context, PrintJob *job)
{
  g_autoptr (PangoLayout) layout = gtk_print_context_create_pango_layout (context);
  int height;

  /* From the start, should GTK lay the pages out again (a preview, then the print). */
  g_ptr_array_set_size (job->texts, 0);
  g_array_set_size (job->sheets, 0);
  g_clear_object (&job->layout);
  job->layout_page = G_MAXUINT;
  pango_layout_set_font_description (layout, job->header_font);
  pango_layout_set_text (layout, job->title, -1);
  pango_layout_get_size (layout, NULL, &height);
  job->header_height = (double) height / PANGO_SCALE + HEADER_GAP;
}

/* The sheets @page's text takes: a new one wherever the next line would not fit. */
static void
paginate_page (PrintJob *job, GtkPrintContext *context, guint page)
{
  char *text = page_text (job, page);
  g_autoptr (PangoLayout) layout = body_layout (job, context, text);
  PangoLayoutIter *iter = pango_layout_get_iter (layout);
  double room = MAX (gtk_print_context_get_height (context) - job->header_height, 1);
  Sheet sheet = { page, 0 };
  int line = 0, top = 0;

  g_ptr_array_add (job->texts, text);
  g_array_append_val (job->sheets, sheet);
  do
    {
      PangoRectangle logical;

      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      if (line > sheet.first_line
          && (double) (logical.y + logical.height - top) / PANGO_SCALE > room)
        {
          sheet.first_line = line;
          top = logical.y;
          g_array_append_val (job->sheets, sheet);
        }
      line++;
    }
  while (pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

/* A few pages each time it is called: GTK calls again, a main-loop turn later, until it
 * returns TRUE. */
static gboolean
paginate_cb (GtkPrintOperation *operation, GtkPrintContext *context, PrintJob *job)
{
  guint n_pages = dc_document_get_n_pages (job->document);
  guint end = MIN (job->texts->len + PAGES_PER_STEP, n_pages);

  for (guint page = job->texts->len; page < end; page++)
    paginate_page (job, context, page);
  if (job->texts->len < n_pages)
    return FALSE;
  gtk_print_operation_set_n_pages (operation, MAX (job->sheets->len, 1));
  return TRUE;
}

static void
draw_header (PrintJob *job, GtkPrintContext *context, const Sheet *sheet, gboolean continued)
{
  cairo_t *cr = gtk_print_context_get_cairo_context (context);
  g_autoptr (PangoLayout) layout = gtk_print_context_create_pango_layout (context);
  double width = gtk_print_context_get_width (context);
  g_autofree char *page = NULL;
  g_autofree char *header = NULL;
  int height;

  page = continued
      /* Translators: a printed page's header, for a PDF page's text continued from
       * the sheet before: page number, number of pages. */
      ? g_strdup_printf (_("Page %u of %u (continued)"), sheet->pdf_page + 1,
                            dc_document_get_n_pages (job->document))
      /* Translators: a printed page's header: page number, number of pages. */
      : g_strdup_printf (_("Page %u of %u"), sheet->pdf_page + 1,
                            dc_document_get_n_pages (job->document));
  /* Translators: a printed page's header: the document's name, then "Page 3 of 12". */
  header = g_strdup_printf (_("%s — %s"), job->title, page);
  pango_layout_set_font_description (layout, job->header_font);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_text (layout, header, -1);
  pango_layout_get_size (layout, NULL, &height);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_move_to (cr, 0, 0);
  pango_cairo_show_layout (cr, layout);
  cairo_set_line_width (cr, 0.5);
  cairo_move_to (cr, 0, (double) height / PANGO_SCALE + HEADER_GAP / 2);
  cairo_rel_line_to (cr, width, 0);
  cairo_stroke (cr);
}

static void
draw_page_cb (GtkPrintOperation *operation, GtkPrintContext *context, int sheet_nr, PrintJob *job)
{
  cairo_t *cr = gtk_print_context_get_cairo_context (context);
  const Sheet *sheet;
  PangoLayoutIter *iter;
  int line = 0, end = G_MAXINT, top = 0;

  if (sheet_nr < 0 || (guint) sheet_nr >= job->sheets->len)
    return;
  sheet = &g_array_index (job->sheets, Sheet, sheet_nr);
  if ((guint) sheet_nr + 1 < job->sheets->len && sheet[1].pdf_page == sheet->pdf_page)
    end = sheet[1].first_line;
  draw_header (job, context, sheet, sheet->first_line > 0);
  if (job->layout_page != sheet->pdf_page)
    {
      g_clear_object (&job->layout);
      job->layout = body_layout (job, context, g_ptr_array_index (job->texts, sheet->pdf_page));
      job->layout_page = sheet->pdf_page;
    }
  /* Line by line, as GTK's print demo does: the sheet shows its own run of lines. */
  iter = pango_layout_get_iter (job->layout);
  do
    {
      PangoRectangle logical;

      if (line < sheet->first_line)
        continue;
      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      if (line == sheet->first_line)
        top = logical.y;
      cairo_move_to (cr, (double) logical.x / PANGO_SCALE,
                     job->header_height
                         + (double) (pango_layout_iter_get_baseline (iter) - top) / PANGO_SCALE);
      pango_cairo_show_layout_line (cr, pango_layout_iter_get_line_readonly (iter));
    }
  while (++line < end && pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

static void
print_done_cb (GtkPrintOperation *operation, GtkPrintOperationResult result, DecipherWindow *self)
{
  g_autoptr (GError) error = NULL;

  g_object_set_data (G_OBJECT (operation), "decipher-print-done", GINT_TO_POINTER (TRUE));
  if (result == GTK_PRINT_OPERATION_RESULT_APPLY)
    g_set_object (&self->print_settings, gtk_print_operation_get_print_settings (operation));
  else if (result == GTK_PRINT_OPERATION_RESULT_ERROR)
    {
      gtk_print_operation_get_error (operation, &error);
      _decipher_window_show_error (self, _("Cannot Print"), error != NULL
                                                                 ? error->message
                                                                 : _("The printing failed."));
    }
}

/**
 * _decipher_window_print:
 * @action: %GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG for Print…, or
 *   %GTK_PRINT_OPERATION_ACTION_EXPORT to write @export_path (a PDF) without asking
 * @export_path: (nullable): where the export goes
 *
 * Prints the recovered text of the document shown, page by page. The operation runs on
 * after this returns; the window says so if it fails.
 *
 * Returns: (transfer full) (nullable): the operation, %NULL without a document or when
 *   it could not start (the window said why)
 */
GtkPrintOperation *
_decipher_window_print (DecipherWindow *self, GtkPrintOperationAction action,
                        const char *export_path)
{
  g_autoptr (GtkPrintOperation) operation = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *job_name = NULL;
  PrintJob *job;

  if (self->session == NULL)
    return NULL;
  job = print_job_new (self->session);
  operation = gtk_print_operation_new ();
  /* Translators: the print job's name: the document's, and what is printed. */
  job_name = g_strdup_printf (_("%s (recovered text)"), job->title);
  gtk_print_operation_set_job_name (operation, job_name);
  gtk_print_operation_set_allow_async (operation, TRUE);
  gtk_print_operation_set_embed_page_setup (operation, TRUE);
  if (self->print_settings != NULL)
    gtk_print_operation_set_print_settings (operation, self->print_settings);
  if (export_path != NULL)
    gtk_print_operation_set_export_filename (operation, export_path);
  g_object_set_data_full (G_OBJECT (operation), "decipher-print-job", job, print_job_free);
  g_signal_connect (operation, "begin-print", G_CALLBACK (begin_print_cb), job);
  g_signal_connect (operation, "paginate", G_CALLBACK (paginate_cb), job);
  g_signal_connect (operation, "draw-page", G_CALLBACK (draw_page_cb), job);
  g_signal_connect_object (operation, "done", G_CALLBACK (print_done_cb), self, 0);
  if (gtk_print_operation_run (operation, action, GTK_WINDOW (self), &error)
      == GTK_PRINT_OPERATION_RESULT_ERROR)
    {
      /* Once: "done" may have said it already. */
      if (g_object_get_data (G_OBJECT (operation), "decipher-print-done") == NULL)
        _decipher_window_show_error (self, _("Cannot Print"), error->message);
      return NULL;
    }
  return g_steal_pointer (&operation);
}
