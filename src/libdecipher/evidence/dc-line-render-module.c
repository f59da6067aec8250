/* dc-line-render-module.c: the drawing of lines, loaded the first time recognition draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recognition draws the lines it reads with poppler-glib and cairo. Linked at start, they
 * brought eighteen libraries into every run of decipher-cli (cairo, pixman, X11 and its
 * xcb libraries, poppler-glib), whose loading and symbol binding was 13 % of a one-file
 * `text`, which never draws (issue 32). dc-line-render.c is therefore built as a module,
 * decipher-line-render.so, installed in $libdir/decipher beside the PDF writer, and
 * opened here, as dc-pdf-writer-module.c opens the writer; dc-module.c says where it is
 * looked for. The window links both libraries anyway, to draw pages.
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-line-render-private.h"
#include "dc-module-private.h"

static DcLineRender render;
static char *load_error;

static void
load (void)
{
  /* DECIPHER_LINE_RENDER_MODULE: a module built elsewhere (and, for the tests, one that
   * is not there at all). */
  g_autofree char *path = _dc_module_path ("DECIPHER_LINE_RENDER_MODULE", DC_LINE_RENDER_MODULE,
                                           DC_LINE_RENDER_MODULE_UNINSTALLED);
  GModule *module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  struct
  {
    const char *name;
    gpointer *slot;
  } symbols[] = {
    { "dc_line_render_open", (gpointer *) &render.open },
    { "dc_line_render_draw", (gpointer *) &render.draw },
    { "dc_line_render_close", (gpointer *) &render.close },
  };

  if (module == NULL)
    {
      load_error = g_strdup_printf (_("Recognition needs Decipher’s line renderer (%s), which "
                                      "could not be loaded: %s. Reinstall Decipher; everything "
                                      "else works without it."),
                                       path, g_module_error ());
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (!g_module_symbol (module, symbols[i].name, symbols[i].slot) || *symbols[i].slot == NULL)
      {
        load_error = g_strdup_printf (_("“%s” is not Decipher’s line renderer: it lacks the "
                                        "function %s. Reinstall Decipher."),
                                         path, symbols[i].name);
        g_module_close (module);
        return;
      }
  /* poppler-glib's and cairo's types and caches are not made to be unloaded. */
  g_module_make_resident (module);
}

/**
 * _dc_line_render_get:
 *
 * Loads the line renderer on first use; thread-safe.
 *
 * Returns: (nullable): its functions, valid for the life of the process, or %NULL with
 *   @error saying what to do
 */
const DcLineRender *
_dc_line_render_get (GError **error)
{
  static gsize loaded;

  return _dc_module_load_once (&loaded, load, &load_error, error) ? &render : NULL;
}
