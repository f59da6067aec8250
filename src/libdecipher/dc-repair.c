/* dc-repair.c: a copy of the PDF whose text copies correctly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each font with recovered values gets the recovered map as its /ToUnicode CMap, which
 * every reader consults before anything else, so copy and paste, search and pdftotext
 * give the text. No /ActualText spans: the content streams stay untouched.
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
  GPtrArray *notes; /* NULL-terminated */
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
  if (!_dc_file_check_target (output, "repaired.pdf", error))
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

  repaired = dc_pdf_writer_replace_to_unicode (original, display, self->password,
                                               (const DcPdfWriterFont *) (void *) self->fonts->data,
                                               self->fonts->len, error);
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
