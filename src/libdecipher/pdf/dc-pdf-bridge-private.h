/* dc-pdf-bridge-private.h: plain C front of the one C++ file that talks to poppler's core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler-glib does not expose character codes, so the engine reads glyphs through a
 * small OutputDev subclass. Nothing but dc-pdf-bridge.cc includes poppler core headers:
 * everything crossing this header is plain C and GLib.
 */

#pragma once

#include <math.h>

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _DcPdfBridge DcPdfBridge;

typedef enum
{
  DC_BRIDGE_FONT_UNKNOWN,
  DC_BRIDGE_FONT_TYPE1,
  DC_BRIDGE_FONT_TYPE3,
  DC_BRIDGE_FONT_TRUETYPE,
  DC_BRIDGE_FONT_CID_TYPE0,
  DC_BRIDGE_FONT_CID_TYPE2,
} DcBridgeFontType;

#define DC_BRIDGE_TYPE3_DIGEST_LEN 16

typedef struct
{
  const char *name;         /* BaseFont, may be NULL */
  const char *encoding;     /* poppler's encoding name: "WinAnsi", "Identity-H", "Builtin"… */
  const char *program_kind; /* "Type1", "CFF", "TrueType", "OpenType", or NULL */
  const guint8 *program;    /* embedded font program, NULL when not embedded */
  gsize program_len;
  const char *const *glyph_names; /* 256 names for simple fonts, NULL for CID fonts */
  const int *cid_to_gid;          /* CIDFontType2 CID → glyph index map, NULL when identity */
  guint cid_to_gid_len;
  /* A simple font's code → glyph index of its program, as poppler's font engine draws
   * it (TrueType: cmap and encoding; Type 1/CFF: the encoding's glyph names): 256
   * entries, NULL for CID and Type 3 fonts and fonts without a program. */
  const int *code_to_gid;
  /* A Type 3 font's glyph procedures, code by code: 256 × DC_BRIDGE_TYPE3_DIGEST_LEN
   * bytes, each the SHA-256 head of the code's CharProc stream with its white space
   * normalised, all zero where the code draws no procedure of its own (none, blank, or
   * one that paints an XObject, whose bytes are elsewhere); NULL for other fonts. */
  const guint8 *type3_digests;
  DcBridgeFontType type;
  gboolean has_to_unicode;
  gboolean embedded;
  int writing_mode; /* 0 horizontal, 1 vertical */
  /* The font dictionary's indirect object, for writing a repaired copy; has_ref is FALSE
   * for a font dictionary written inline in a resource dictionary. */
  gboolean has_ref;
  int ref_num;
  int ref_gen;
  /* What the bridge knows the font by across pages: poppler's reference for the font
   * dictionary, real or invented (an inline dictionary gets one made of its place), the
   * same in every bridge open on the file, so that two bridges can tell they met the
   * same font. has_id is FALSE when poppler gave none: such a font is known by its
   * object in this bridge only. */
  gboolean has_id;
  int id_num;
  int id_gen;
  double ascent; /* in text space units of 1 em */
  double descent;
} DcBridgeFont;

/* One drawn glyph of a run (DcBridgeRun). Coordinates are page points with the top-left
 * origin of the page as poppler-glib displays it (CropBox and /Rotate applied), so boxes
 * line up with a poppler-glib rendering at scale 1. */
typedef struct
{
  double x, y;   /* origin */
  double dx, dy; /* the advance on the page, the character and word spacing taken off */
  guint32 code;
  guint code_len;
  guint unicode_at; /* the PDF's own text for the glyph: unicode_len characters of the */
  int unicode_len;  /* run's text from unicode_at, may be none */
} DcBridgeGlyph;

/* Glyphs drawn one after the other in one font, size and direction: a string's, or a
 * part of one. What they share is reported once, and a glyph's box is worked out from it
 * (dc_bridge_glyph_box()), so that the one reading the run can work out per glyph only
 * what differs from one to the next. */
typedef struct
{
  guint page;
  guint font;       /* index given to the font in the font callback */
  int render_mode;  /* 3 = invisible (OCR layers) */
  int rotation;     /* 0..3: direction of the baseline, as poppler's TextPage;
                     * for an upright glyph, the direction of its column */
  gboolean upright; /* glyphs of a vertical (WMode 1) font, standing upright in
                     * their column */
  double font_size; /* on the page */
  double ascent;    /* the box's edges from the baseline, in page points, ascent != descent */
  double descent;
  const DcBridgeGlyph *glyphs;
  guint n_glyphs;       /* at least one */
  const gunichar *text; /* the glyphs' texts */
} DcBridgeRun;

/* The length of @glyph's advance along its baseline and its box (x0, y0, x1, y1): like
 * poppler's TextPage::addChar, the box ends where the glyph ends, not after the spacing.
 * Plain C for both sides of the bridge. */
static inline void
dc_bridge_glyph_box (const DcBridgeRun *run, const DcBridgeGlyph *glyph, double *advance,
                     double box[4])
{
  double x = glyph->x, y = glyph->y, w = glyph->dx, h = glyph->dy;
  double ascent = run->ascent, descent = run->descent;

  /* The minimum and maximum as std::min() and std::max() take them. */
#define DC_BRIDGE_MIN(a, b) ((b) < (a) ? (b) : (a))
#define DC_BRIDGE_MAX(a, b) ((a) < (b) ? (b) : (a))
  if (run->upright)
    {
      /* Its column runs along the glyph's own downward axis. */
      *advance = hypot (w, h);
      box[0] = x - run->font_size / 2;
      box[1] = DC_BRIDGE_MIN (y, y + h);
      box[2] = x + run->font_size / 2;
      box[3] = DC_BRIDGE_MAX (y, y + h);
      return;
    }
  switch (run->rotation)
    {
    case 0:
      *advance = w;
      box[0] = DC_BRIDGE_MIN (x, x + w);
      box[1] = y - ascent;
      box[2] = DC_BRIDGE_MAX (x, x + w);
      box[3] = y - descent;
      break;
    case 1:
      *advance = h;
      box[0] = x + descent;
      box[1] = DC_BRIDGE_MIN (y, y + h);
      box[2] = x + ascent;
      box[3] = DC_BRIDGE_MAX (y, y + h);
      break;
    case 2:
      *advance = -w;
      box[0] = DC_BRIDGE_MIN (x, x + w);
      box[1] = y + descent;
      box[2] = DC_BRIDGE_MAX (x, x + w);
      box[3] = y + ascent;
      break;
    default:
      *advance = -h;
      box[0] = x - ascent;
      box[1] = DC_BRIDGE_MIN (y, y + h);
      box[2] = x - descent;
      box[3] = DC_BRIDGE_MAX (y, y + h);
      break;
    }
#undef DC_BRIDGE_MIN
#undef DC_BRIDGE_MAX
}

typedef struct
{
  /* Called once per distinct font, before its first glyph. */
  void (*font) (guint font_index, const DcBridgeFont *font, gpointer user_data);
  /* Called with the glyphs drawn, a run at a time, in the order they are drawn. */
  void (*run) (const DcBridgeRun *run, gpointer user_data);
  /* Called for every raster image drawn, so scanned pages can be told apart. */
  void (*image) (guint page, gpointer user_data);
  /* Called at the end of an /ActualText marked-content span (outermost spans only), with
   * the number of glyphs reported inside it: the text those glyphs stand for together,
   * in logical order, as producers write it for reordered clusters. May be NULL. */
  void (*actual_text) (guint page, const gunichar *text, int text_len, guint n_glyphs,
                       gpointer user_data);
} DcBridgeCallbacks;

DcPdfBridge *dc_pdf_bridge_open (const char *path, const char *password, GError **error);
DcPdfBridge *dc_pdf_bridge_open_again (DcPdfBridge *bridge, const char *path, const char *password,
                                       GError **error);
void dc_pdf_bridge_free (DcPdfBridge *bridge);
guint dc_pdf_bridge_get_n_pages (DcPdfBridge *bridge);
gboolean dc_pdf_bridge_was_reconstructed (DcPdfBridge *bridge);
GBytes *dc_pdf_bridge_get_contents (DcPdfBridge *bridge);
char *dc_pdf_bridge_get_language (DcPdfBridge *bridge);
gboolean dc_pdf_bridge_is_encrypted (DcPdfBridge *bridge);
void dc_pdf_bridge_get_page_size (DcPdfBridge *bridge, guint page, double *width, double *height);
/* How many Gfxs (poppler's page interpreters, each making its page's fonts) @bridge made:
 * for the tests of their reuse. */
guint dc_pdf_bridge_get_n_gfx_made (DcPdfBridge *bridge);
gboolean dc_pdf_bridge_extract_page (DcPdfBridge *bridge, guint page,
                                     const DcBridgeCallbacks *callbacks, gpointer user_data,
                                     GCancellable *cancellable, GError **error);

gboolean dc_pdf_bridge_glyph_name_to_unicode (const char *name, gunichar *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcPdfBridge, dc_pdf_bridge_free)

G_END_DECLS
