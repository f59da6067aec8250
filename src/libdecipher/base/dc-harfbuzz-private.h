/* dc-harfbuzz-private.h: HarfBuzz, opened the first time something shapes text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <hb.h>

G_BEGIN_DECLS

/* The HarfBuzz functions the engine calls, by their names without hb_. */
typedef struct
{
  __typeof__ (hb_blob_create_from_file) *blob_create_from_file;
  __typeof__ (hb_face_create) *face_create;
  __typeof__ (hb_blob_destroy) *blob_destroy;
  __typeof__ (hb_face_get_glyph_count) *face_get_glyph_count;
  __typeof__ (hb_face_destroy) *face_destroy;
  __typeof__ (hb_font_create) *font_create;
  __typeof__ (hb_font_set_scale) *font_set_scale;
  __typeof__ (hb_face_get_upem) *face_get_upem;
  __typeof__ (hb_buffer_clear_contents) *buffer_clear_contents;
  __typeof__ (hb_buffer_add_utf32) *buffer_add_utf32;
  __typeof__ (hb_buffer_set_script) *buffer_set_script;
  __typeof__ (hb_buffer_set_direction) *buffer_set_direction;
  __typeof__ (hb_buffer_set_cluster_level) *buffer_set_cluster_level;
  __typeof__ (hb_buffer_guess_segment_properties) *buffer_guess_segment_properties;
  __typeof__ (hb_shape) *shape;
  __typeof__ (hb_buffer_get_glyph_infos) *buffer_get_glyph_infos;
  __typeof__ (hb_buffer_get_glyph_positions) *buffer_get_glyph_positions;
  __typeof__ (hb_font_get_face) *font_get_face;
  __typeof__ (hb_buffer_create) *buffer_create;
  __typeof__ (hb_buffer_destroy) *buffer_destroy;
  __typeof__ (hb_font_destroy) *font_destroy;
} DcHarfBuzz;

const DcHarfBuzz *_dc_harfbuzz (void);

G_END_DECLS
