/* dc-tesseract.c: Tesseract, loaded the first time recognition runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked at start, libtesseract brought 29 of the 96 libraries every run of decipher-cli
 * and the app loaded (ICU, libxml2, libcurl and its TLS and Kerberos libraries, the image
 * codecs of Leptonica), whether it recognised anything or not; resolving their symbols
 * was most of the 80 ms decipher-cli took to start, against 23 ms for pdftotext. Only
 * recognition needs it, so it is opened by its soname when recognition first asks, and
 * a system without it still opens, reads and repairs documents.
 */

#define G_LOG_DOMAIN "decipher"

#include "config.h"

#include <gmodule.h>
#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-module-private.h"
#include "dc-tesseract-private.h"

static DcTesseract tesseract;
static char *load_error;

static gboolean
find (GModule *module, const char *library, const char *name, gpointer *symbol)
{
  if (g_module_symbol (module, name, symbol) && *symbol != NULL)
    return TRUE;
  load_error = g_strdup_printf (_("The Tesseract library “%s” lacks the function %s, so text "
                                  "cannot be recognised. Install Tesseract %s or newer."),
                                   library, name, "4.1");
  return FALSE;
}

static void
load (void)
{
  /* DECIPHER_TESSERACT_LIBRARY: a Tesseract installed elsewhere (and, for the tests, one
   * that is not there at all). */
  const char *library = g_getenv ("DECIPHER_TESSERACT_LIBRARY") != NULL
                            ? g_getenv ("DECIPHER_TESSERACT_LIBRARY")
                            : DC_TESSERACT_SONAME;
  GModule *module = g_module_open (library, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  struct
  {
    const char *name;
    gpointer *slot;
  } symbols[] = {
    { "TessBaseAPICreate", (gpointer *) &tesseract.BaseAPICreate },
    { "TessBaseAPIDelete", (gpointer *) &tesseract.BaseAPIDelete },
    { "TessBaseAPIEnd", (gpointer *) &tesseract.BaseAPIEnd },
    { "TessBaseAPIInit3", (gpointer *) &tesseract.BaseAPIInit3 },
    { "TessBaseAPISetVariable", (gpointer *) &tesseract.BaseAPISetVariable },
    { "TessBaseAPISetPageSegMode", (gpointer *) &tesseract.BaseAPISetPageSegMode },
    { "TessBaseAPISetImage", (gpointer *) &tesseract.BaseAPISetImage },
    { "TessBaseAPISetSourceResolution", (gpointer *) &tesseract.BaseAPISetSourceResolution },
    { "TessBaseAPIGetUTF8Text", (gpointer *) &tesseract.BaseAPIGetUTF8Text },
    { "TessBaseAPIMeanTextConf", (gpointer *) &tesseract.BaseAPIMeanTextConf },
    { "TessBaseAPIRecognize", (gpointer *) &tesseract.BaseAPIRecognize },
    { "TessBaseAPIGetIterator", (gpointer *) &tesseract.BaseAPIGetIterator },
    { "TessResultIteratorGetUTF8Text", (gpointer *) &tesseract.ResultIteratorGetUTF8Text },
    { "TessResultIteratorConfidence", (gpointer *) &tesseract.ResultIteratorConfidence },
    { "TessResultIteratorNext", (gpointer *) &tesseract.ResultIteratorNext },
    { "TessResultIteratorDelete", (gpointer *) &tesseract.ResultIteratorDelete },
    { "TessDeleteText", (gpointer *) &tesseract.DeleteText },
  };

  if (module == NULL)
    {
      load_error = g_strdup_printf (_("Text recognition needs the Tesseract library (%s), which "
                                      "could not be loaded: %s. Install Tesseract (libtesseract5 "
                                      "on Debian 12) to recognise text."),
                                       library, g_module_error ());
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (!find (module, library, symbols[i].name, symbols[i].slot))
      {
        g_module_close (module);
        return;
      }
  /* Kept for the life of the process: its threads and data outlive any one reading. */
  g_module_make_resident (module);
}

/**
 * _dc_tesseract_get:
 *
 * Loads Tesseract on first use; thread-safe.
 *
 * Returns: (nullable): its functions, valid for the life of the process, or %NULL with
 *   @error saying what to install
 */
const DcTesseract *
_dc_tesseract_get (GError **error)
{
  static gsize loaded;

  return _dc_module_load_once (&loaded, load, &load_error, error) ? &tesseract : NULL;
}
