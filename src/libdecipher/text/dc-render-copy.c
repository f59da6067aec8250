/* dc-render-copy.c: a copy of the PDF that poppler draws as it was meant to look
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A font that is not embedded and is drawn by glyph number (Identity-H over TrueType) can
 * only be drawn by glyph number with the very font the PDF names. Poppler does not do
 * that: it takes each code through the font's /ToUnicode to a character and draws that
 * character's glyph of the installed font, so with a missing or lying ToUnicode it draws
 * nonsense (issue5801's "6R SLĈWHN" is on the page, not only in its text). When the
 * evidence cascade has found the installed font (dc-font-installed.c), giving the copy a
 * ToUnicode of that font's own characters makes poppler draw exactly the glyphs the codes
 * number. Nothing the user decides goes into it: it is what the page looks like.
 */

#define G_LOG_DOMAIN "dc-render-copy"

#include "config.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-font-installed-private.h"
#include "dc-font-tables.h"
#include "dc-repair.h"

static gboolean
has_font_drawn_by_installed_glyphs (DcDocument *document)
{
  for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
    if (_dc_font_is_drawn_by_installed_glyphs (dc_document_get_font (document, f)))
      return TRUE;
  return FALSE;
}

/**
 * dc_repair_write_render_copy:
 * @document: a document
 * @password: (nullable): its password, when it is encrypted
 * @directory: the folder to write the copy in, made if need be
 * @error: where to say why the copy could not be written
 *
 * Writes, when the page would otherwise be drawn wrong, a copy of @document's PDF in
 * which every font not embedded but drawn by the glyph numbers of an installed font has
 * that font's characters as its ToUnicode, so that poppler draws those glyphs. The copy
 * is named after the PDF's SHA-256 and written again each time.
 *
 * Returns: (transfer full) (nullable): the copy's path, or %NULL when the PDF needs none
 *   (@error is then not set) or when it could not be written (@error says why)
 */
char *
dc_repair_write_render_copy (DcDocument *document, const char *password, const char *directory,
                             GError **error)
{
  g_autoptr (DcKey) tables = NULL;
  g_autoptr (DcKey) installed = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  guint n_symbols, n_installed = 0;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!has_font_drawn_by_installed_glyphs (document))
    return NULL;

  tables = dc_key_new (document);
  installed = dc_key_new (document);
  dc_font_tables_apply (tables);
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *provenance = dc_key_get_provenance (tables, s);

      if (provenance == NULL || !g_str_has_prefix (provenance, DC_FONT_INSTALLED_PROVENANCE))
        continue;
      if (dc_key_set_full (installed, s, dc_key_get_value (tables, s), DC_KEY_INFERRED,
                           DC_KEY_LEVEL_FONT, -1, provenance, NULL))
        n_installed++;
    }
  if (n_installed == 0)
    return NULL;

  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (directory);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("The folder %s cannot be made: %s"), display, g_strerror (saved_errno));
      return NULL;
    }
  name = g_strconcat (dc_document_get_sha256 (document), ".pdf", NULL);
  path = g_build_filename (directory, name, NULL);
  if (!dc_repair_write (installed, password, path, NULL, error))
    return NULL;
  return g_steal_pointer (&path);
}

/**
 * dc_repair_write_cached_render_copy:
 * @document: a document
 * @password: (nullable): its password, when it is encrypted
 * @error: where to say why the copy could not be written
 *
 * dc_repair_write_render_copy() into the user's cache folder (decipher/render), where the
 * app draws pages and recognition reads them from. None is written for an encrypted PDF
 * (@password not %NULL): the copy would hold its pages unencrypted.
 *
 * Returns: (transfer full) (nullable): the copy's path, or %NULL when none is needed or
 *   allowed (@error not set) or when it could not be written (@error says why)
 */
char *
dc_repair_write_cached_render_copy (DcDocument *document, const char *password, GError **error)
{
  g_autofree char *folder = NULL;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (password != NULL)
    return NULL;
  folder = g_build_filename (g_get_user_cache_dir (), "decipher", "render", NULL);
  return dc_repair_write_render_copy (document, NULL, folder, error);
}
