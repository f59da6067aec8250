/* dc-repair.c: a copy of the PDF whose text copies correctly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each font with recovered values gets the recovered map as its /ToUnicode CMap, which
 * every reader consults before anything else, so copy and paste, search and pdftotext
 * give the text. A map gives each glyph its text, in the order the glyphs are drawn: a
 * word drawn in another order than it is read (ि before the क it follows, a reph after
 * its cluster) also gets an /ActualText span with its text in reading order, the only
 * change made to a content stream.
 *
 * A map speaks of codes, so it cannot say that one occurrence of a code reads otherwise
 * than the others (a split, dc_key_split()). Each word holding a split occurrence gets an
 * /ActualText span too: the map reads the occurrence as its code, the span as the user
 * split it. A word whose glyphs are not drawn one after another cannot be wrapped in a
 * span, nor one with a glyph not decoded yet (its span would read U+FFFD): those copy with
 * the code's value, the notes say how many, and the split still holds in Decipher's own
 * text.
 */

#define G_LOG_DOMAIN "dc-repair"

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-map.h"
#include "dc-pdf-writer-private.h"
#include "dc-reorder-private.h"
#include "dc-repair.h"

/* Everything the copy needs, taken from the key when the repair is planned, so that
 * writing can run in another thread while the user goes on changing the key. */
struct _DcRepair
{
  char *path;
  char *sha256;
  char *password;
  GArray *fonts; /* of DcPdfWriterFont, pointing into cmaps */
  GPtrArray *cmaps;
  GArray *pages;         /* of DcPdfWriterPage, pointing into page_spans and owned */
  GPtrArray *page_spans; /* per page of pages, a GArray of DcPdfWriterSpan */
  GPtrArray *owned;      /* code lengths and span texts */
  GPtrArray *notes;      /* NULL-terminated */
};

static guint
count_undecoded (DcKey *key, guint font)
{
  const DcSymbol *symbols;
  guint n_symbols, n = 0;

  symbols = dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font && dc_key_get_value (key, s) == NULL)
      n++;
  return n;
}

/* Which fonts get a new map, and what the user should know about the others. */
static void
plan_fonts (DcKey *key, DcRepair *plan)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_fonts = dc_document_get_n_fonts (document);

  plan->fonts = g_array_new (FALSE, TRUE, sizeof (DcPdfWriterFont));
  plan->cmaps = g_ptr_array_new_with_free_func (g_free);
  plan->notes = g_ptr_array_new_with_free_func (g_free);

  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);
      g_autofree char *name = dc_font_dup_display_name (font);
      g_autoptr (GError) local_error = NULL;
      DcPdfWriterFont entry = { 0 };
      guint undecoded = count_undecoded (key, f);
      char *cmap;

      if (!dc_map_font_is_recovered (key, f))
        {
          if (!dc_font_is_trusted (font) && dc_font_get_n_glyphs (font) > 0)
            g_ptr_array_add (plan->notes,
                             g_strdup_printf (_("Nothing of the font “%s” is decoded yet, so its "
                                                "text stays as wrong in the copy as it was."),
                                                 name));
          continue;
        }
      if (!dc_font_get_object_ref (font, &entry.num, &entry.gen))
        {
          g_ptr_array_add (plan->notes,
                           g_strdup_printf (_("The font “%s” is written inline in a page rather "
                                              "than as an object of its own, so its map cannot "
                                              "be replaced and its text stays as it was."),
                                               name));
          continue;
        }
      cmap = dc_map_font_to_cmap (key, f, &local_error);
      if (cmap == NULL)
        {
          g_ptr_array_add (plan->notes, g_strdup (local_error->message));
          continue;
        }
      entry.cmap = cmap;
      entry.cmap_len = strlen (cmap);
      g_ptr_array_add (plan->cmaps, cmap);
      g_array_append_val (plan->fonts, entry);

      if (undecoded > 0)
        g_ptr_array_add (plan->notes,
                         g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                       "%u code of the font “%s” is not decoded "
                                                       "yet; it still reads wrong in the copy.",
                                                       "%u codes of the font “%s” are not decoded "
                                                       "yet; they still read wrong in the copy.",
                                                       undecoded),
                                          undecoded, name));
    }
}

/* The shortest run of a token's glyphs that a ToUnicode alone reads in the wrong order,
 * and what it should read: the glyphs at either end that read right as drawn are left
 * out, as cairo does (only ि क of किसान needs the span कि). FALSE when the token reads
 * right, a glyph is not decoded, or its glyphs are not drawn one after another (a span
 * can only wrap a run of the content stream). */
static gboolean
misread_run (DcKey *key, guint token, guint *first, guint *n, char **text)
{
  DcDocument *document = dc_key_get_document (key);
  const DcToken *t = &dc_document_get_tokens (document, NULL)[token];
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  guint lowest = G_MAXUINT, highest = 0, start, end;
  g_autoptr (GString) reading = g_string_new (NULL);
  g_autoptr (GPtrArray) drawn = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *read = NULL;
  const char *rest, *rest_end;

  for (guint k = 0; k < t->n_glyphs; k++)
    {
      lowest = MIN (lowest, order[t->first_glyph + k]);
      highest = MAX (highest, order[t->first_glyph + k]);
    }
  if (t->n_glyphs == 0 || highest - lowest + 1 != t->n_glyphs)
    return FALSE;
  for (guint g = lowest; g <= highest; g++)
    {
      /* What the new map reads, per code: a split occurrence then differs from the
       * reading below, which has the split, and gets its span. */
      const char *value = dc_key_value_func (glyphs[g].symbol, key);

      if (value == NULL)
        return FALSE;
      g_ptr_array_add (drawn, g_utf8_normalize (value, -1, G_NORMALIZE_NFC));
    }
  _dc_reorder_token (document, token, dc_key_value_func, key, reading);
  read = g_utf8_normalize (reading->str, -1, G_NORMALIZE_NFC);
  if (read == NULL)
    return FALSE;

  rest = read;
  rest_end = read + strlen (read);
  for (start = 0; start < drawn->len; start++)
    {
      const char *value = g_ptr_array_index (drawn, start);

      if (value == NULL || *value == '\0' || !g_str_has_prefix (rest, value))
        break;
      rest += strlen (value);
    }
  for (end = drawn->len; end > start; end--)
    {
      const char *value = g_ptr_array_index (drawn, end - 1);
      gsize len = value != NULL ? strlen (value) : 0;

      if (len == 0 || (gsize) (rest_end - rest) < len || memcmp (rest_end - len, value, len) != 0)
        break;
      rest_end -= len;
    }
  if (start == end)
    return FALSE; /* read right as drawn */

  *first = lowest + start;
  *n = end - start;
  *text = g_utf8_normalize (rest, rest_end - rest, G_NORMALIZE_NFC);
  return *text != NULL;
}

/* How many occurrences of token @t the user split off to read otherwise than their code:
 * when the token gets no span, the copy reads them as the code. */
static guint
count_splits (DcKey *key, guint t)
{
  DcDocument *document = dc_key_get_document (key);
  const DcToken *token = &dc_document_get_tokens (document, NULL)[t];
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  guint n = 0;

  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    {
      const char *split = dc_key_get_split (key, order[k], NULL);

      n += split != NULL && g_strcmp0 (split, dc_key_get_value (key, glyphs[order[k]].symbol)) != 0;
    }
  return n;
}

static void
note_missed_splits (DcRepair *plan, guint n_missed)
{
  if (n_missed == 0)
    return;
  g_ptr_array_add (plan->notes,
                   g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u occurrence split off its code reads as the "
                                                 "code in the copy: its word is not all decoded "
                                                 "yet, or not drawn in one run.",
                                                 "%u occurrences split off their code read as the "
                                                 "code in the copy: their words are not all "
                                                 "decoded yet, or not drawn in one run.",
                                                 n_missed),
                                    n_missed));
}

static int
compare_spans (gconstpointer a, gconstpointer b)
{
  const DcPdfWriterSpan *x = a, *y = b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* The /ActualText spans: every word of a repaired font read in another order than drawn. */
static void
plan_spans (DcKey *key, DcRepair *plan)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_fonts = dc_document_get_n_fonts (document), n_tokens, n_glyphs;
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  g_autofree gboolean *repaired = g_new0 (gboolean, MAX (1, n_fonts));
  g_autofree guint *page_start = NULL;
  guint n_pages = dc_document_get_n_pages (document);
  GArray *spans = NULL;
  guint span_page = G_MAXUINT, n_missed = 0;

  plan->pages = g_array_new (FALSE, TRUE, sizeof (DcPdfWriterPage));
  plan->page_spans = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  plan->owned = g_ptr_array_new_with_free_func (g_free);
  for (guint f = 0; f < n_fonts; f++)
    repaired[f] = dc_map_font_is_recovered (key, f)
                  && !dc_font_is_trusted (dc_document_get_font (document, f));

  /* The glyphs are kept page after page, each page's in the order it draws them. */
  page_start = g_new0 (guint, n_pages + 1);
  for (guint page = 0, g = 0; page <= n_pages; page++)
    {
      while (g < n_glyphs && glyphs[g].page < page)
        g++;
      page_start[page] = g;
    }

  dc_document_get_tokens (document, &n_tokens);
  for (guint t = 0; t < n_tokens; t++)
    {
      g_autofree char *text = NULL;
      const DcGlyph *glyph = &glyphs[order[tokens[t].first_glyph]];
      DcPdfWriterSpan span = { 0 };
      gboolean any_repaired = FALSE;

      for (guint k = 0; k < tokens[t].n_glyphs; k++)
        any_repaired |=
            repaired[dc_glyph_get_font (&glyphs[order[tokens[t].first_glyph + k]], symbols)]
            || dc_key_get_split (key, order[tokens[t].first_glyph + k], NULL) != NULL;
      if (!any_repaired || !misread_run (key, t, &span.first, &span.n, &text))
        {
          n_missed += any_repaired ? count_splits (key, t) : 0;
          continue;
        }

      if (glyph->page != span_page)
        {
          DcPdfWriterPage page = { 0 };
          guint8 *lens;

          /* Tokens come page after page, so each page is started once. */
          span_page = glyph->page;
          page.page = span_page;
          page.n_glyphs = page_start[span_page + 1] - page_start[span_page];
          lens = g_new (guint8, MAX (1, page.n_glyphs));
          for (guint g = 0; g < page.n_glyphs; g++)
            lens[g] = symbols[glyphs[page_start[span_page] + g].symbol].code_len;
          page.code_lens = lens;
          g_ptr_array_add (plan->owned, lens);
          g_array_append_val (plan->pages, page);
          spans = g_array_new (FALSE, FALSE, sizeof (DcPdfWriterSpan));
          g_ptr_array_add (plan->page_spans, spans);
        }
      span.first -= page_start[span_page];
      span.text = g_steal_pointer (&text);
      g_ptr_array_add (plan->owned, (gpointer) span.text);
      g_array_append_val (spans, span);
    }

  note_missed_splits (plan, n_missed);

  /* The writer wants each page's spans in drawing order. */
  for (guint p = 0; p < plan->pages->len; p++)
    {
      DcPdfWriterPage *page = &g_array_index (plan->pages, DcPdfWriterPage, p);
      GArray *page_spans = g_ptr_array_index (plan->page_spans, p);

      g_array_sort (page_spans, compare_spans);
      page->spans = (const DcPdfWriterSpan *) (void *) page_spans->data;
      page->n_spans = page_spans->len;
    }
}

static gboolean
same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  if (g_stat (a, &sa) != 0 || g_stat (b, &sb) != 0)
    return FALSE;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A repaired copy may replace nothing, an empty file or a PDF (an earlier copy): PDF
 * readers accept the header anywhere in the first kilobyte. */
static gboolean
is_replaceable_output (const char *path)
{
  char head[1024];
  gssize n;
  int fd;

  if ((fd = _dc_file_open_regular (path, O_RDONLY, 0, NULL)) < 0)
    return TRUE; /* missing, or unreadable: the write says what is wrong */
  n = read (fd, head, sizeof head);
  close (fd);
  if (n <= 0)
    return TRUE;
  for (gssize i = 0; i + 5 <= n; i++)
    if (memcmp (head + i, "%PDF-", 5) == 0)
      return TRUE;
  return FALSE;
}

static const char *
why_not_written (const GError *error)
{
  if (error->domain != G_FILE_ERROR)
    return error->message;
  switch (error->code)
    {
    case G_FILE_ERROR_ACCES:
    case G_FILE_ERROR_PERM:
    case G_FILE_ERROR_ROFS:
      return _("you may not write to that folder");
    case G_FILE_ERROR_NOENT:
    case G_FILE_ERROR_NOTDIR:
      return _("that folder does not exist");
    case G_FILE_ERROR_ISDIR:
      return _("a folder has that name");
    case G_FILE_ERROR_NOSPC:
      return _("the disk is full");
    default:
      return error->message;
    }
}

/**
 * dc_repair_new:
 * @key: the recovered key of a document
 * @password: (nullable): the password the document was opened with
 *
 * Plans a repaired copy of the key's document: every font with recovered values will
 * carry the recovered map, as it is now, as its ToUnicode CMap. Later changes to the key
 * do not change the plan.
 *
 * Returns: (transfer full): the plan, or %NULL with @error set when nothing is recovered
 *   or no recovered font can be repaired
 */
DcRepair *
dc_repair_new (DcKey *key, const char *password, GError **error)
{
  g_autoptr (DcRepair) self = NULL;
  DcDocument *document;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  document = dc_key_get_document (key);
  if (!dc_map_has_recovered (key))
    {
      g_autofree char *display = g_filename_display_basename (dc_document_get_path (document));

      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("Nothing has been recovered in “%s” yet, so a repaired copy would read "
                     "as wrong as the original: decode some of its text first."),
                      display);
      return NULL;
    }

  self = g_new0 (DcRepair, 1);
  self->path = g_strdup (dc_document_get_path (document));
  self->sha256 = g_strdup (dc_document_get_sha256 (document));
  self->password = g_strdup (password);
  plan_fonts (key, self);
  plan_spans (key, self);
  if (self->fonts->len == 0)
    {
      /* Every recovered font has a note saying why it cannot be repaired. */
      g_assert (self->notes->len > 0);
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("No repaired copy can be made: %s"),
                      (const char *) g_ptr_array_index (self->notes, self->notes->len - 1));
      return NULL;
    }
  g_ptr_array_add (self->notes, NULL);
  return g_steal_pointer (&self);
}

void
dc_repair_free (DcRepair *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->sha256);
  if (self->password != NULL)
    memset (self->password, 0, strlen (self->password));
  g_free (self->password);
  g_clear_pointer (&self->fonts, g_array_unref);
  g_clear_pointer (&self->cmaps, g_ptr_array_unref);
  g_clear_pointer (&self->pages, g_array_unref);
  g_clear_pointer (&self->page_spans, g_ptr_array_unref);
  g_clear_pointer (&self->owned, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_free (self);
}

/**
 * dc_repair_get_notes:
 *
 * Returns: (transfer none): sentences about the fonts that stay wrong in the copy (not
 *   decoded, only partly decoded, or not repairable), %NULL-terminated
 */
const char *const *
dc_repair_get_notes (DcRepair *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char *const *) self->notes->pdata;
}

/**
 * dc_repair_save:
 * @output: where to write the repaired copy; never the original itself
 *
 * Writes the planned copy. It appears atomically: on any failure nothing is left at
 * @output (a file already there stays as it was). Touches nothing but the plan and the
 * files, so it may run in any thread.
 *
 * Returns: whether the copy was written; %FALSE with @error set to a sentence when the
 *   original changed or cannot be read, or @output cannot be written
 */
gboolean
dc_repair_save (DcRepair *self, const char *output, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GBytes) original = NULL;
  g_autoptr (GBytes) repaired = NULL;
  g_autofree char *display = NULL;
  g_autofree char *output_display = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *sha256 = NULL;
  DcPdfWriterRepairFunc write_repaired;
  gsize length;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  display = g_filename_display_basename (self->path);
  output_display = g_filename_display_name (output);

  if (same_file (self->path, output))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("The repaired copy would replace the original “%s”: choose another file "
                     "name, so that the original and its project stay as they are."),
                      display);
      return FALSE;
    }

  /* Only a new file or an earlier PDF is replaced: never a project, a link or a device
   * (issue 11: "repair -o p.decipher" replaced a project with a PDF). */
  if (!_dc_file_may_write (output, NULL, "repaired.pdf", error))
    return FALSE;
  if (!is_replaceable_output (output))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   _("“%s” already exists and is not a PDF (it may be a project); writing the "
                     "repaired copy would replace it. Choose another file name."),
                      output_display);
      return FALSE;
    }

  /* The fonts are found by the object numbers poppler read: if the file changed since,
   * they could name other objects. Reading it whole also means qpdf sees what was
   * checked, not whatever the file becomes a moment later. */
  if (!g_file_get_contents (self->path, &contents, &length, &local_error))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                   _("“%s” could not be read again to make the repaired copy: %s."), display,
                      local_error->message);
      return FALSE;
    }
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
  if (g_strcmp0 (sha256, self->sha256) != 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("“%s” has changed since it was opened: open it again before making a "
                     "repaired copy."),
                      display);
      return FALSE;
    }
  original = g_bytes_new_take (g_steal_pointer (&contents), length);

  if ((write_repaired = _dc_pdf_writer_get_repair (error)) == NULL)
    return FALSE;
  repaired = write_repaired (original, display, self->password,
                             (const DcPdfWriterFont *) (void *) self->fonts->data, self->fonts->len,
                             (const DcPdfWriterPage *) (void *) self->pages->data, self->pages->len,
                             NULL, error);
  if (repaired == NULL)
    return FALSE;

  if (!g_file_set_contents_full (output, g_bytes_get_data (repaired, NULL),
                                 (gssize) g_bytes_get_size (repaired),
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0666,
                                 &local_error))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("Could not save the repaired copy as “%s” (%s): choose another folder or "
                     "file name."),
                      output_display, why_not_written (local_error));
      return FALSE;
    }
  return TRUE;
}

/**
 * dc_repair_write:
 * @key: the recovered key of a document
 * @password: (nullable): the password the document was opened with
 * @output: where to write the repaired copy; never the original itself
 * @notes: (out) (optional) (transfer full): what dc_repair_get_notes() says
 *
 * dc_repair_new() and dc_repair_save() in one go.
 */
gboolean
dc_repair_write (DcKey *key, const char *password, const char *output, char ***notes,
                 GError **error)
{
  g_autoptr (DcRepair) repair = NULL;

  g_return_val_if_fail (DC_IS_KEY (key), FALSE);
  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (notes)
    *notes = NULL;
  if ((repair = dc_repair_new (key, password, error)) == NULL)
    return FALSE;
  if (!dc_repair_save (repair, output, error))
    return FALSE;
  if (notes)
    *notes = g_strdupv ((char **) dc_repair_get_notes (repair));
  return TRUE;
}
