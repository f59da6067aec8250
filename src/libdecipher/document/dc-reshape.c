/* dc-reshape.c: the Mongolian selectors a ToUnicode map leaves out, found by shaping again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In Mongolian the form a letter takes is chosen by invisible characters: the vowel
 * separator U+180E before a final a or e, the free variation selectors U+180B–U+180D and
 * U+180F after a letter. The shaper swallows them into the letter's glyph, and producers
 * (cairo among them) map that glyph to the letter alone, so the text loses them: ᠨᠡᠷ᠎ᠡ
 * comes out as ᠨᠡᠷᠡ, which is another word. The glyph itself still shows the choice.
 *
 * Where the PDF's font is installed (the same PostScript name), HarfBuzz shapes each word's
 * text again with it and compares the advances it gives with the ones drawn on the page.
 * A word that only matches once a selector is put back says which glyph carries it; a
 * symbol is given the selector when every word it occurs in agrees, and nothing changes
 * for a font the installed one does not explain (another version, another font).
 */

#define G_LOG_DOMAIN "dc-reshape"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <math.h>
#include <string.h>

#include "dc-clusters-private.h"
#include "dc-harfbuzz-private.h"
#include "dc-reshape-private.h"

/* Advances are compared in thousandths of an em; PDF widths are rounded to integers. */
#define ADVANCE_TOLERANCE 1.5

/* Longer runs are left alone: one selector is tried at every place, and a long run is
 * more likely a line the producer drew in one piece than a word. */
#define MAX_RUN_CHARS 40

/* Below this share of words shaped alike as they stand, the installed font is not the
 * one the PDF was made with. */
#define MIN_EXPLAINED_SHARE 0.5

static const gunichar selectors[] = { 0x180E, 0x180B, 0x180C, 0x180D, 0x180F };

static gboolean
is_mongolian_selector (gunichar c)
{
  return c >= 0x180B && c <= 0x180F;
}

/* The separator binds to the letter after it, a variation selector to the one before. */
static gboolean
binds_to_next (gunichar selector)
{
  return selector == 0x180E;
}

/* A run of one font's glyphs between spaces, in the order they were drawn. */
typedef struct
{
  guint first; /* index into the document's glyphs */
  guint n;
} Run;

typedef struct
{
  hb_font_t *font;
  hb_buffer_t *buffer;
  guint upem;
} Shaper;

static hb_font_t *
open_installed (const char *postscript_name)
{
  const DcHarfBuzz *hb = _dc_harfbuzz ();
  g_autofree char *path = NULL;
  FcPattern *pattern;
  FcObjectSet *objects;
  FcFontSet *set;
  int index = 0;
  hb_blob_t *blob;
  hb_face_t *face;
  hb_font_t *font;

  pattern = FcPatternCreate ();
  FcPatternAddString (pattern, FC_POSTSCRIPT_NAME, (const FcChar8 *) postscript_name);
  objects = FcObjectSetBuild (FC_FILE, FC_INDEX, NULL);
  set = FcFontList (NULL, pattern, objects);
  if (set != NULL && set->nfont > 0)
    {
      FcChar8 *file = NULL;

      if (FcPatternGetString (set->fonts[0], FC_FILE, 0, &file) == FcResultMatch)
        path = g_strdup ((const char *) file);
      FcPatternGetInteger (set->fonts[0], FC_INDEX, 0, &index);
    }
  if (set != NULL)
    FcFontSetDestroy (set);
  FcObjectSetDestroy (objects);
  FcPatternDestroy (pattern);
  if (path == NULL)
    return NULL;

  blob = hb->blob_create_from_file (path);
  face = hb->face_create (blob, (unsigned int) index);
  hb->blob_destroy (blob);
  if (hb->face_get_glyph_count (face) == 0)
    {
      hb->face_destroy (face);
      return NULL;
    }
  font = hb->font_create (face);
  hb->font_set_scale (font, (int) hb->face_get_upem (face), (int) hb->face_get_upem (face));
  hb->face_destroy (face);
  return font;
}

/* Whether @text, shaped, draws the advances @drawn (thousandths of an em). Glyphs the
 * shaper leaves for the selectors themselves (zero-width) are not drawn on a page. */
static gboolean
shapes_as (Shaper *shaper, const gunichar *text, guint n_chars, const double *drawn, guint n_drawn)
{
  const DcHarfBuzz *hb = _dc_harfbuzz ();
  hb_glyph_info_t *infos;
  hb_glyph_position_t *positions;
  unsigned int n_glyphs;
  guint k = 0;

  hb->buffer_clear_contents (shaper->buffer);
  hb->buffer_add_utf32 (shaper->buffer, text, (int) n_chars, 0, (int) n_chars);
  hb->buffer_set_script (shaper->buffer, HB_SCRIPT_MONGOLIAN);
  hb->buffer_set_direction (shaper->buffer, HB_DIRECTION_LTR);
  hb->buffer_guess_segment_properties (shaper->buffer);
  hb->shape (shaper->font, shaper->buffer, NULL, 0);
  infos = hb->buffer_get_glyph_infos (shaper->buffer, &n_glyphs);
  positions = hb->buffer_get_glyph_positions (shaper->buffer, NULL);

  for (unsigned int i = 0; i < n_glyphs; i++)
    {
      double advance = positions[i].x_advance * 1000.0 / shaper->upem;

      if (advance == 0 && infos[i].cluster < n_chars
          && is_mongolian_selector (text[infos[i].cluster]))
        continue;
      if (k >= n_drawn || fabs (advance - drawn[k]) > ADVANCE_TOLERANCE)
        return FALSE;
      k++;
    }
  return k == n_drawn;
}

/* What the symbols say, one after another; @owner[i] is the glyph (within the run) that
 * character i of @text came from. */
static guint
run_text (DcDocument *document, const DcGlyph *glyphs, const Run *run, gunichar *text, guint *owner)
{
  guint n_chars = 0;

  for (guint k = 0; k < run->n; k++)
    {
      const char *p = dc_document_get_symbol (document, glyphs[run->first + k].symbol)->pdf_text;

      for (; *p; p = g_utf8_next_char (p))
        {
          if (n_chars == MAX_RUN_CHARS)
            return MAX_RUN_CHARS + 1;
          owner[n_chars] = k;
          text[n_chars++] = g_utf8_get_char (p);
        }
    }
  return n_chars;
}

typedef struct
{
  char *text;     /* the symbol's text with its selector, or "" once words disagree */
  guint n_votes;  /* words that needed it */
  gboolean as_is; /* some word read right with the symbol as the PDF says it */
} Vote;

static void
vote (Vote *votes, guint symbol, const char *text)
{
  if (votes[symbol].text == NULL)
    votes[symbol].text = g_strdup (text);
  else if (strcmp (votes[symbol].text, text) != 0)
    g_free (votes[symbol].text), votes[symbol].text = g_strdup ("");
  votes[symbol].n_votes++;
}

/* Tries one selector at every place of a run that does not shape as drawn; votes for the
 * symbol that carries it when exactly one choice makes the run match. */
static gboolean
find_selector (Shaper *shaper, DcDocument *document, const DcGlyph *glyphs, const Run *run,
               const gunichar *text, const guint *owner, guint n_chars, const double *drawn,
               Vote *votes)
{
  gunichar candidate[MAX_RUN_CHARS + 1];
  guint found_symbol = G_MAXUINT, n_found = 0;
  g_autofree char *found_text = NULL;

  for (guint place = 1; place <= n_chars; place++)
    for (guint s = 0; s < G_N_ELEMENTS (selectors); s++)
      {
        gunichar selector = selectors[s];
        guint carrier_char = binds_to_next (selector) ? place : place - 1;
        const DcSymbol *carrier;
        GString *with = NULL;
        guint start;

        /* A separator before a word's first letter or a selector after nothing. */
        if (carrier_char >= n_chars || is_mongolian_selector (text[carrier_char]))
          continue;
        memcpy (candidate, text, place * sizeof (gunichar));
        candidate[place] = selector;
        memcpy (candidate + place + 1, text + place, (n_chars - place) * sizeof (gunichar));
        if (!shapes_as (shaper, candidate, n_chars + 1, drawn, run->n))
          continue;

        /* The selector goes into the carrier's own text, where it stood in the word. */
        carrier = dc_document_get_symbol (document,
                                          glyphs[run->first + owner[carrier_char]].symbol);
        start = carrier_char;
        while (start > 0 && owner[start - 1] == owner[carrier_char])
          start--;
        with = g_string_new (NULL);
        for (guint i = start; i < n_chars && owner[i] == owner[carrier_char]; i++)
          {
            if (i == place)
              g_string_append_unichar (with, selector);
            g_string_append_unichar (with, text[i]);
          }
        if (place == n_chars || owner[place] != owner[carrier_char])
          if (!binds_to_next (selector))
            g_string_append_unichar (with, selector);
        n_found++;
        found_symbol = (guint) (carrier - dc_document_get_symbols (document, NULL));
        g_free (found_text);
        found_text = g_string_free (with, FALSE);
      }
  if (n_found != 1)
    return FALSE;
  vote (votes, found_symbol, found_text);
  return TRUE;
}

static gboolean
run_is_mongolian (const gunichar *text, guint n_chars)
{
  for (guint i = 0; i < n_chars; i++)
    if (g_unichar_get_script (text[i]) == G_UNICODE_SCRIPT_MONGOLIAN
        && !is_mongolian_selector (text[i]))
      return TRUE;
  return FALSE;
}

static void
reshape_font (DcDocument *document, guint font_index, GArray *runs, Vote *votes)
{
  const DcHarfBuzz *hb = _dc_harfbuzz ();
  DcFont *font = dc_document_get_font (document, font_index);
  const char *name = dc_font_get_name (font);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  gunichar text[MAX_RUN_CHARS + 1];
  guint owner[MAX_RUN_CHARS + 1];
  Shaper shaper = { 0 };
  guint n_mongolian = 0, n_as_is = 0;
  g_autoptr (GArray) mismatched = g_array_new (FALSE, FALSE, sizeof (Run));

  if (name == NULL)
    return;
  if (strlen (name) > 7 && name[6] == '+')
    name += 7;
  shaper.font = open_installed (name);
  if (shaper.font == NULL)
    return;
  shaper.upem = hb->face_get_upem (hb->font_get_face (shaper.font));
  shaper.buffer = hb->buffer_create ();

  for (guint r = 0; r < runs->len; r++)
    {
      const Run *run = &g_array_index (runs, Run, r);
      guint n_chars = run_text (document, glyphs, run, text, owner);
      double drawn[MAX_RUN_CHARS + 1];

      if (n_chars == 0 || n_chars > MAX_RUN_CHARS || run->n > MAX_RUN_CHARS
          || !run_is_mongolian (text, n_chars))
        continue;
      n_mongolian++;
      for (guint k = 0; k < run->n; k++)
        drawn[k] = dc_glyph_get_advance (&glyphs[run->first + k]) * 1000.0
                   / dc_glyph_get_size (&glyphs[run->first + k]);
      if (shapes_as (&shaper, text, n_chars, drawn, run->n))
        {
          n_as_is++;
          for (guint k = 0; k < run->n; k++)
            votes[glyphs[run->first + k].symbol].as_is = TRUE;
        }
      else
        g_array_append_val (mismatched, *run);
    }

  /* Only a font that reads most words as they stand is the one the page was made with. */
  if (n_mongolian > 0 && n_as_is >= MIN_EXPLAINED_SHARE * n_mongolian)
    for (guint r = 0; r < mismatched->len; r++)
      {
        const Run *run = &g_array_index (mismatched, Run, r);
        guint n_chars = run_text (document, glyphs, run, text, owner);
        double drawn[MAX_RUN_CHARS + 1];

        for (guint k = 0; k < run->n; k++)
          drawn[k] = dc_glyph_get_advance (&glyphs[run->first + k]) * 1000.0
                     / dc_glyph_get_size (&glyphs[run->first + k]);
        find_selector (&shaper, document, glyphs, run, text, owner, n_chars, drawn, votes);
      }
  else if (n_mongolian > 0)
    g_debug ("The installed “%s” shapes %u of %u words as drawn: not the PDF's font", name, n_as_is,
             n_mongolian);

  hb->buffer_destroy (shaper.buffer);
  hb->font_destroy (shaper.font);
}

/* Whether @next starts about where @prev ends, as the next glyph of a word does: a line
 * break without a space glyph must not join two words. */
static gboolean
follows (const DcGlyph *prev, const DcGlyph *next)
{
  double distance = hypot (next->x - prev->x, next->y - prev->y);

  return fabs (distance - dc_glyph_get_advance (prev))
         <= 0.35 * MAX (dc_glyph_get_size (prev), dc_glyph_get_size (next));
}

/* Runs of one font's glyphs, split where the font changes, at spaces, gaps and pages. */
static void
collect_runs (DcDocument *document, GPtrArray *runs_by_font)
{
  guint n_glyphs;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  guint start = 0;

  for (guint g = 0; g <= n_glyphs; g++)
    {
      gboolean ends = g == n_glyphs;

      if (!ends)
        {
          const DcSymbol *symbol = dc_document_get_symbol (document, glyphs[g].symbol);

          ends = (symbol->flags & DC_SYMBOL_PDF_SPACE) != 0 || symbol->pdf_text[0] == '\0';
          if (!ends && g > start)
            ends = dc_glyph_get_font (&glyphs[g], symbols)
                       != dc_glyph_get_font (&glyphs[start], symbols)
                   || glyphs[g].page != glyphs[start].page || !follows (&glyphs[g - 1], &glyphs[g]);
          if (!ends)
            continue;
        }
      if (g > start)
        {
          Run run = { start, g - start };

          g_array_append_val (g_ptr_array_index (runs_by_font,
                                                 dc_glyph_get_font (&glyphs[start], symbols)),
                              run);
        }
      /* A space or an empty text ends the run and starts nothing; a font change starts
       * the next run at this glyph. */
      if (g < n_glyphs)
        {
          const DcSymbol *symbol = dc_document_get_symbol (document, glyphs[g].symbol);

          start = ((symbol->flags & DC_SYMBOL_PDF_SPACE) != 0 || symbol->pdf_text[0] == '\0')
                      ? g + 1
                      : g;
        }
    }
}

static gboolean
font_may_be_mongolian (DcDocument *document, guint font)
{
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font == font)
      for (const char *p = symbols[s].pdf_text; *p; p = g_utf8_next_char (p))
        if (g_unichar_get_script (g_utf8_get_char (p)) == G_UNICODE_SCRIPT_MONGOLIAN)
          return TRUE;
  return FALSE;
}

/**
 * _dc_reshape_restore_selectors:
 * @document: a document being loaded, before its lines are made
 *
 * Puts back into the symbols' texts the Mongolian selectors their glyphs show and the
 * PDF's map left out (see the top of this file). Does nothing for a font that is not
 * installed.
 *
 * Returns: the number of symbols whose text changed
 */
guint
_dc_reshape_restore_selectors (DcDocument *document)
{
  guint n_fonts = dc_document_get_n_fonts (document), n_symbols, n_changed = 0;
  g_autoptr (GPtrArray) runs_by_font = NULL;
  g_autofree Vote *votes = NULL;
  gboolean any = FALSE;

  g_assert (DC_IS_DOCUMENT (document));

  for (guint f = 0; f < n_fonts && !any; f++)
    any = font_may_be_mongolian (document, f);
  if (!any || _dc_harfbuzz () == NULL)
    return 0;

  dc_document_get_symbols (document, &n_symbols);
  votes = g_new0 (Vote, n_symbols);
  runs_by_font = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint f = 0; f < n_fonts; f++)
    g_ptr_array_add (runs_by_font, g_array_new (FALSE, FALSE, sizeof (Run)));
  collect_runs (document, runs_by_font);

  for (guint f = 0; f < n_fonts; f++)
    if (font_may_be_mongolian (document, f))
      reshape_font (document, f, g_ptr_array_index (runs_by_font, f), votes);

  for (guint s = 0; s < n_symbols; s++)
    {
      /* A glyph some word reads right without a selector does not carry one. */
      if (votes[s].text != NULL && votes[s].text[0] != '\0' && !votes[s].as_is)
        {
          g_debug ("symbol %u reads “%s” once shaped again", s, votes[s].text);
          _dc_document_set_symbol_pdf_text (document, s, votes[s].text);
          n_changed++;
        }
      g_free (votes[s].text);
    }
  return n_changed;
}
