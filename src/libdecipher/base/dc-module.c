/* dc-module.c: where Decipher's own modules are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What only a few commands need, and would cost every run its libraries' loading, is
 * built as a module of its own and opened the first time it is asked for: the PDF writer
 * (qpdf, dc-pdf-writer-module.c) and the drawing of lines for recognition (poppler-glib
 * and cairo, dc-line-render-module.c). A program run from its build folder (the
 * README's commands, the tests, the benchmarks) opens the modules of that build rather
 * than installed ones of another version, which could disagree about the structures
 * passed to them.
 */

#define G_LOG_DOMAIN "decipher"

#include "config.h"

#include <stdlib.h>

#include "dc-error.h"
#include "dc-module-private.h"
#include "dc-tsan-private.h"

/* Whether this program is one a build folder made, not an installed one. */
static gboolean
running_from_build (void)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *build = realpath (DC_BUILD_ROOT, NULL);
  g_autofree char *prefix = NULL;

  if (program == NULL || build == NULL)
    return FALSE;
  prefix = g_strconcat (build, G_DIR_SEPARATOR_S, NULL);
  return g_str_has_prefix (program, prefix);
}

/**
 * _dc_module_path:
 * @variable: the environment variable that names a module built elsewhere (and, for the
 *   tests, one that is not there at all)
 * @installed: the module's installed path
 * @uninstalled: its path in this build folder
 *
 * Returns: (transfer full): the module to open
 */
char *
_dc_module_path (const char *variable, const char *installed, const char *uninstalled)
{
  const char *chosen = g_getenv (variable);

  if (chosen != NULL)
    return g_strdup (chosen);
  return g_strdup (running_from_build () ? uninstalled : installed);
}

/**
 * _dc_module_load_once:
 * @loaded: the caller's static flag, 0 before the first call
 * @load: opens the module and fills the caller's table of its functions, or leaves in
 *   *@load_error a sentence saying what to do
 * @load_error: where @load leaves that sentence
 *
 * Runs @load the first time any thread asks (the PDF writer, the line renderer and
 * Tesseract are each opened this way); thread-safe.
 *
 * Returns: whether the module's functions are there; if not, @error says what to do
 */
gboolean
_dc_module_load_once (gsize *loaded, void (*load) (void), char *const *load_error, GError **error)
{
  if (g_once_init_enter (loaded))
    {
      load ();
      DC_ONCE_LEAVE (loaded, 1);
    }
  DC_ONCE_ENTERED (loaded);
  if (*load_error != NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_FAILED, *load_error);
      return FALSE;
    }
  return TRUE;
}
