/* dc-width-offsets.c: runs of glyph numbers read as a Unicode block, width by width
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A font drawn by glyph number that is neither embedded nor installed (Arial on a system
 * without it: issue19550, issue20453) leaves only its numbers and the widths the PDF gives
 * them. Past the Macintosh order's 258 glyphs, a font's glyphs often follow a Unicode block
 * in its order (Arial's Cyrillic is its glyph number + 0x1D6). A font made with the same
 * advances as the one named (Liberation Sans for Arial: fontconfig's substitute) tells the
 * width of every character, so "this run of glyph numbers is Unicode at offset k" can be
 * checked glyph by glyph: the offset must give every glyph of the run a character whose
 * advance is the PDF's width, and no other offset may come near. With such a run found,
 * the font's first 258 glyphs are read in the standard order where each width agrees too.
 */

#define G_LOG_DOMAIN "dc-width-offsets"

#include "config.h"

#include <math.h>

#include "dc-agl-private.h"
#include "dc-font-installed-private.h"
#include "dc-width-offsets-private.h"

#include FT_ADVANCES_H

/* A width agrees within this many thousandths of an em plus WIDTH_TOLERANCE_SHARE of it:
 * /W holds whole thousandths, and a glyph's advance over its size, as measured, is off by
 * up to 0.2 % (issue20453's 824.8 for 823). */
#define WIDTH_TOLERANCE 1.0
#define WIDTH_TOLERANCE_SHARE 0.004
/* A run is this many glyphs at least, and twice as many as any other offset explains. */
#define MIN_RUN 6
#define MAX_RUNS 4

typedef struct
{
  DcKey *key;
  DcFont *font;
  GArray *symbols;        /* guint: the font's unknown symbols */
  float *widths;          /* per symbol: the PDF's, 0 where not measured */
  gboolean *decided;      /* per symbol */
  GHashTable *advance_of; /* gunichar → the twin's advance (float, 1000/em), as a pointer */
  char *twin;
} Font;

static float
advance_of (Font *f, gunichar u)
{
  gpointer value;

  if (!g_hash_table_lookup_extended (f->advance_of, GUINT_TO_POINTER (u), NULL, &value))
    return -1;
  return (float) GPOINTER_TO_UINT (value) / 16.0f;
}

static void
read_twin (Font *f, FT_Face face)
{
  FT_ULong c;
  FT_UInt gid;

  for (c = FT_Get_First_Char (face, &gid); gid != 0; c = FT_Get_Next_Char (face, c, &gid))
    {
      FT_Fixed advance = 0;

      if (c < 0x20 || (c != ' ' && !g_unichar_isgraph ((gunichar) c))
          || FT_Get_Advance (face, gid, FT_LOAD_NO_SCALE, &advance) != 0)
        continue;
      /* Sixteenths of a thousandth of an em, kept in the pointer. */
      g_hash_table_insert (f->advance_of, GUINT_TO_POINTER ((gunichar) c),
                           GUINT_TO_POINTER (
                               (guint) lround ((double) advance * 16000.0 / face->units_per_EM)));
    }
}

static gboolean
width_fits (Font *f, guint i, gunichar u)
{
  float advance = advance_of (f, u);

  return advance >= 0
         && fabsf (advance - f->widths[i])
                <= WIDTH_TOLERANCE + WIDTH_TOLERANCE_SHARE * f->widths[i];
}

static guint32
code_of (Font *f, guint i)
{
  DcDocument *document = dc_key_get_document (f->key);

  return dc_document_get_symbol (document, g_array_index (f->symbols, guint, i))->code;
}

/* How many undecided glyphs past the standard order offset @k reads with their widths. */
static guint
count_fitting (Font *f, gint64 k)
{
  guint n = 0;

  for (guint i = 0; i < f->symbols->len; i++)
    {
      gint64 u = (gint64) code_of (f, i) + k;

      n += !f->decided[i] && f->widths[i] > 0 && code_of (f, i) >= DC_AGL_N_MAC_GLYPHS && u > 0x20
           && u <= 0x10FFFF && g_unichar_isgraph ((gunichar) u) && width_fits (f, i, (gunichar) u);
    }
  return n;
}

static void
set_value (Font *f, guint i, gunichar u, const char *provenance)
{
  g_autoptr (GError) error = NULL;
  char text[8] = { 0 };

  g_unichar_to_utf8 (u, text);
  if (!dc_key_set_full (f->key, g_array_index (f->symbols, guint, i), text, DC_KEY_INFERRED,
                        DC_KEY_LEVEL_LAYOUT, -1, provenance, &error))
    g_debug ("%s", error->message);
  f->decided[i] = TRUE;
}

/* The offset that reads the most undecided glyphs with their widths, when it clearly
 * does: the candidates are the characters as wide as one of them. */
static gboolean
find_run (Font *f, gint64 *offset, guint *n_fitting)
{
  GHashTableIter iter;
  gpointer key;
  guint anchor = G_MAXUINT, best = 0, second = 0;

  for (guint i = 0; i < f->symbols->len && anchor == G_MAXUINT; i++)
    if (!f->decided[i] && f->widths[i] > 0 && code_of (f, i) >= DC_AGL_N_MAC_GLYPHS)
      anchor = i;
  if (anchor == G_MAXUINT)
    return FALSE;
  g_hash_table_iter_init (&iter, f->advance_of);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gunichar u = GPOINTER_TO_UINT (key);
      gint64 k = (gint64) u - code_of (f, anchor);
      guint n;

      if (!width_fits (f, anchor, u))
        continue;
      n = count_fitting (f, k);
      if (n > best)
        {
          second = best;
          best = n;
          *offset = k;
        }
      else if (n > second)
        second = n;
    }
  *n_fitting = best;
  g_debug ("best offset %+" G_GINT64_FORMAT ": %u glyphs, the next %u", *offset, best, second);
  return best >= MIN_RUN && best >= 2 * second;
}

/* The glyphs of the standard order, each where its width is its character's. */
static void
read_standard_order (Font *f)
{
  g_autofree char *provenance = NULL;

  for (guint i = 0; i < f->symbols->len; i++)
    {
      guint32 code = code_of (f, i);
      const char *mac = code < DC_AGL_N_MAC_GLYPHS ? _dc_agl_mac_glyph_name (code) : NULL;
      const char *core = code < DC_AGL_N_MAC_GLYPHS ? _dc_agl_core_font_glyph_name (code) : NULL;
      g_autofree char *mac_text = mac != NULL ? _dc_agl_name_to_text (mac) : NULL;
      g_autofree char *core_text = core != NULL ? _dc_agl_name_to_text (core) : NULL;
      const char *text = NULL;

      if (f->decided[i] || f->widths[i] <= 0)
        continue;
      /* The two orders part after glyph 207: where they differ, the width chooses. */
      if (mac_text != NULL && g_utf8_strlen (mac_text, -1) == 1
          && width_fits (f, i, g_utf8_get_char (mac_text)))
        text = mac_text;
      if (core_text != NULL && g_utf8_strlen (core_text, -1) == 1
          && width_fits (f, i, g_utf8_get_char (core_text)))
        text = text != NULL && g_strcmp0 (text, core_text) != 0 ? NULL : core_text;
      if (text == NULL)
        continue;
      g_free (provenance);
      provenance = g_strdup_printf ("layout: the standard glyph order, glyph %u, its width that "
                                    "of the installed %s",
                                    code, f->twin);
      set_value (f, i, g_utf8_get_char (text), provenance);
    }
}

static guint
apply_font (DcKey *key, guint font_index)
{
  DcDocument *document = dc_key_get_document (key);
  Font f = { key, dc_document_get_font (document, font_index), NULL };
  FT_Library library = NULL;
  FT_Face face = NULL;
  guint n_symbols, n_runs = 0, n_set = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  f.symbols = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font_index && dc_key_get_value (key, s) == NULL
        && dc_document_symbol_needs_decoding (document, s))
      g_array_append_val (f.symbols, s);
  if (f.symbols->len >= MIN_RUN && FT_Init_FreeType (&library) == 0)
    face = _dc_font_open_metric_twin (f.font, library, &f.twin);
  if (face != NULL)
    {
      f.widths = _dc_font_measure_widths (document, f.symbols);
      f.decided = g_new0 (gboolean, f.symbols->len);
      f.advance_of = g_hash_table_new (NULL, NULL);
      read_twin (&f, face);
      for (guint run = 0; run < MAX_RUNS; run++)
        {
          g_autofree char *provenance = NULL;
          gint64 k = 0;
          guint n;

          if (!find_run (&f, &k, &n))
            break;
          provenance = g_strdup_printf ("layout: Unicode = glyph number %+" G_GINT64_FORMAT
                                        ", every width that of the installed %s",
                                        k, f.twin);
          for (guint i = 0; i < f.symbols->len; i++)
            if (!f.decided[i] && f.widths[i] > 0 && code_of (&f, i) >= DC_AGL_N_MAC_GLYPHS
                && width_fits (&f, i, (gunichar) ((gint64) code_of (&f, i) + k)))
              set_value (&f, i, (gunichar) ((gint64) code_of (&f, i) + k), provenance);
          n_runs++;
        }
      if (n_runs > 0)
        read_standard_order (&f);
      for (guint i = 0; i < f.symbols->len; i++)
        n_set += f.decided[i];
      FT_Done_Face (face);
      g_hash_table_unref (f.advance_of);
    }
  if (library != NULL)
    FT_Done_FreeType (library);
  g_free (f.widths);
  g_free (f.decided);
  g_free (f.twin);
  g_array_unref (f.symbols);
  return n_set;
}

/**
 * _dc_width_offsets_apply:
 * @key: the key of the document, inside a change
 *
 * For every font drawn by glyph number that is not embedded, reads the runs of glyph
 * numbers that an offset makes a Unicode block whose every character has the width the
 * PDF gives the glyph in the installed font made with the named font's advances.
 *
 * Returns: how many values were applied
 */
guint
_dc_width_offsets_apply (DcKey *key)
{
  DcDocument *document;
  guint n_fonts, n = 0;

  g_return_val_if_fail (DC_IS_KEY (key), 0);

  document = dc_key_get_document (key);
  n_fonts = dc_document_get_n_fonts (document);
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);

      if (!dc_font_is_trusted (font) && _dc_font_is_drawn_by_installed_glyphs (font)
          && !dc_font_has_to_unicode (font))
        n += apply_font (key, f);
    }
  return n;
}
