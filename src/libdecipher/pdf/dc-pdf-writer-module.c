/* dc-pdf-writer-module.c: the PDF writer, loaded the first time a repaired copy is written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked at start, qpdf brought GnuTLS and eight libraries beneath it into every run of
 * decipher-cli and the app, and their constructors (GnuTLS reads its configuration and
 * sets up its ciphers) cost 18–26 ms of CPU before main(): a third of decipher-cli's
 * start-up, paid by every `text`, every session and every window though only a repair
 * writes a PDF. dc-pdf-writer.cc is therefore built as a module, decipher-pdf-writer.so,
 * installed in $libdir/decipher, and opened here when a repair first asks, as
 * dc-tesseract.c opens Tesseract; dc-module.c says where it is looked for.
 */

#define G_LOG_DOMAIN "decipher"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-module-private.h"
#include "dc-pdf-writer-private.h"

static DcPdfWriterRepairFunc repair;
static char *load_error;

static void
load (void)
{
  /* DECIPHER_PDF_WRITER_MODULE: a module built elsewhere (and, for the tests, one that
   * is not there at all). */
  g_autofree char *path = _dc_module_path ("DECIPHER_PDF_WRITER_MODULE", DC_PDF_WRITER_MODULE,
                                           DC_PDF_WRITER_MODULE_UNINSTALLED);
  GModule *module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  gpointer symbol = NULL;

  if (module == NULL)
    {
      load_error = g_strdup_printf (_("Writing a repaired copy needs Decipher’s PDF writer (%s), "
                                      "which could not be loaded: %s. Reinstall Decipher; "
                                      "everything else works without it."),
                                       path, g_module_error ());
      return;
    }
  if (!g_module_symbol (module, "dc_pdf_writer_repair", &symbol) || symbol == NULL)
    {
      load_error = g_strdup_printf (_("“%s” is not Decipher’s PDF writer: it lacks the "
                                      "function dc_pdf_writer_repair. Reinstall Decipher."),
                                       path);
      g_module_close (module);
      return;
    }
  repair = (DcPdfWriterRepairFunc) symbol;
  /* qpdf's C++ statics and GnuTLS's state are not made to be unloaded. */
  g_module_make_resident (module);
}

/**
 * _dc_pdf_writer_get_repair:
 *
 * Loads the PDF writer on first use; thread-safe.
 *
 * Returns: (nullable): dc_pdf_writer_repair(), valid for the life of the process, or
 *   %NULL with @error saying what to do
 */
DcPdfWriterRepairFunc
_dc_pdf_writer_get_repair (GError **error)
{
  static gsize loaded;

  return _dc_module_load_once (&loaded, load, &load_error, error) ? repair : NULL;
}
