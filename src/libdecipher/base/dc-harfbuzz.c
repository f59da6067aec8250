/* dc-harfbuzz.c: HarfBuzz, opened the first time something shapes text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only a Mongolian page (dc-reshape.c) and the building of the installed fonts' index
 * (dc-fingerprint.c) shape text: every other run went through loading HarfBuzz and
 * Graphite (two libraries, 300 symbols to resolve) for nothing (issue 32: a one-file
 * `text` within 1.5× of pdftotext's start). So the library is opened by its soname when
 * first asked for.
 */

#define G_LOG_DOMAIN "dc-harfbuzz"

#include "config.h"

#include <gmodule.h>
#include <string.h>

#include "dc-harfbuzz-private.h"
#include "dc-tsan-private.h"

static DcHarfBuzz hb;

static void
load_harfbuzz (void)
{
  GModule *module = g_module_open (DC_HARFBUZZ_SONAME, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  const struct
  {
    const char *name;
    gpointer *slot;
  } symbols[] = {
    { "hb_blob_create_from_file", (gpointer *) &hb.blob_create_from_file },
    { "hb_face_create", (gpointer *) &hb.face_create },
    { "hb_blob_destroy", (gpointer *) &hb.blob_destroy },
    { "hb_face_get_glyph_count", (gpointer *) &hb.face_get_glyph_count },
    { "hb_face_destroy", (gpointer *) &hb.face_destroy },
    { "hb_font_create", (gpointer *) &hb.font_create },
    { "hb_font_set_scale", (gpointer *) &hb.font_set_scale },
    { "hb_face_get_upem", (gpointer *) &hb.face_get_upem },
    { "hb_buffer_clear_contents", (gpointer *) &hb.buffer_clear_contents },
    { "hb_buffer_add_utf32", (gpointer *) &hb.buffer_add_utf32 },
    { "hb_buffer_set_script", (gpointer *) &hb.buffer_set_script },
    { "hb_buffer_set_direction", (gpointer *) &hb.buffer_set_direction },
    { "hb_buffer_set_cluster_level", (gpointer *) &hb.buffer_set_cluster_level },
    { "hb_buffer_guess_segment_properties", (gpointer *) &hb.buffer_guess_segment_properties },
    { "hb_shape", (gpointer *) &hb.shape },
    { "hb_buffer_get_glyph_infos", (gpointer *) &hb.buffer_get_glyph_infos },
    { "hb_buffer_get_glyph_positions", (gpointer *) &hb.buffer_get_glyph_positions },
    { "hb_font_get_face", (gpointer *) &hb.font_get_face },
    { "hb_buffer_create", (gpointer *) &hb.buffer_create },
    { "hb_buffer_destroy", (gpointer *) &hb.buffer_destroy },
    { "hb_font_destroy", (gpointer *) &hb.font_destroy },
  };

  for (guint i = 0; module != NULL && i < G_N_ELEMENTS (symbols); i++)
    if (!g_module_symbol (module, symbols[i].name, symbols[i].slot) || *symbols[i].slot == NULL)
      g_clear_pointer (&module, g_module_close);
  if (module == NULL)
    {
      /* A broken installation: what shaping would tell is not told. */
      g_warning ("HarfBuzz (%s) could not be loaded: Mongolian selectors are not restored, "
                 "and the installed fonts' ligatures are not read",
                 DC_HARFBUZZ_SONAME);
      memset (&hb, 0, sizeof hb);
      return;
    }
  g_module_make_resident (module);
}

/**
 * _dc_harfbuzz:
 *
 * Returns: (nullable): HarfBuzz's functions, the library loaded the first time; %NULL
 *   where it cannot be loaded (a warning says so once)
 */
const DcHarfBuzz *
_dc_harfbuzz (void)
{
  static gsize loaded;

  if (g_once_init_enter (&loaded))
    {
      load_harfbuzz ();
      DC_ONCE_LEAVE (&loaded, 1);
    }
  DC_ONCE_ENTERED (&loaded);
  return hb.shape != NULL ? &hb : NULL;
}
