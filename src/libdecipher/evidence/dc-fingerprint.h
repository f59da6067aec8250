/* dc-fingerprint.h: what a glyph looks like, independent of the code that draws it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DESIGN §8. Two descriptions of a glyph's shape:
 * - the fingerprint, a hash of its outline in font units normalised to the em: the same
 *   outline gives the same fingerprint whatever subset, code, encoding or hinting the font
 *   came with, so it identifies a glyph across documents (the font library) and against
 *   the installed fonts;
 * - the coarse descriptor, its ink over a small grid of the em, which survives what the
 *   fingerprint does not (TrueType ↔ CFF conversion, a re-rounded outline): near-identity.
 * A Type 3 glyph has no outline: its fingerprint is its glyph procedure's (the CharProc
 * stream with its white space normalised), and it has no coarse descriptor (no_ink).
 */

#pragma once

#include <glib.h>

#include "dc-document.h"

G_BEGIN_DECLS

#define DC_SHAPE_FINGERPRINT_LEN 16
#define DC_SHAPE_GRID 16
#define DC_SHAPE_COARSE_LEN (DC_SHAPE_GRID * DC_SHAPE_GRID)

typedef struct
{
  guint8 fingerprint[DC_SHAPE_FINGERPRINT_LEN];
  guint8 coarse[DC_SHAPE_COARSE_LEN]; /* ink per cell, 0–255, rows from the top */
  guint64 signature;                  /* 8×8 cells inked or not: a quick first filter */
  /* A Type 3 glyph known by its procedure only: coarse is empty, and the shape is near
   * no other (dc_shape_distance() is 1), so it is matched by its fingerprint alone. */
  gboolean no_ink;
  /* Where FreeType draws the outline away from its points (glyph_shift() in
   * dc-fingerprint.c), the fingerprint of the outline where it is drawn: what earlier
   * versions fingerprinted, and what a font library they filled is keyed by. */
  gboolean moved;
  guint8 drawn_fingerprint[DC_SHAPE_FINGERPRINT_LEN];
} DcShape;

char *dc_shape_fingerprint_to_string (const DcShape *shape);
double dc_shape_distance (const DcShape *a, const DcShape *b);
guint dc_shape_signature_distance (guint64 a, guint64 b);

/* Below this dc_shape_distance() two shapes are the same letter drawn the same way;
 * an accent (К against Ќ) is 0.03 away, another design of the letter 0.1 or more. */
#define DC_SHAPE_NEAR_DISTANCE 0.012

typedef struct _DcShapes DcShapes;

DcShapes *dc_shapes_new (DcDocument *document);
DcShapes *dc_shapes_new_trusted (DcDocument *document);
void dc_shapes_free (DcShapes *shapes);
DcDocument *dc_shapes_get_document (DcShapes *shapes);
const DcShape *dc_shapes_get (DcShapes *shapes, guint symbol);
const DcShape *dc_shapes_get_identity (DcShapes *shapes, guint symbol);

/* A font program not from a PDF (an installed font): calls @func for every glyph the
 * program maps a Unicode character to, with its shape (its fingerprint only, in
 * dc_shapes_scan_font_fingerprints(), which also reads the glyphs only their names
 * reach). */
typedef void (*DcShapeFunc) (gunichar unicode, const DcShape *shape, gpointer user_data);
/* The text of a glyph an installed font gives: its character, or the characters a glyph
 * only its name reaches stands for, shorter than DC_SHAPE_TEXT_MAX bytes. */
#define DC_SHAPE_TEXT_MAX 16
typedef void (*DcShapeTextFunc) (const char *text, const DcShape *shape, gpointer user_data);
gboolean dc_shapes_scan_font_fingerprints (const char *path, int face_index, DcShapeTextFunc func,
                                           gpointer user_data, GError **error);
gboolean dc_shapes_scan_font_chars (const char *path, int face_index, const gunichar *chars,
                                    guint n_chars, DcShapeFunc func, gpointer user_data,
                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcShapes, dc_shapes_free)

G_END_DECLS
