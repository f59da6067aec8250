/* dc-auto.c: the automatic pass that guesses each untrusted font's space and full stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Knowing the space turns a line of glyphs into words, which is what the matcher works
 * on, and knowing the full stop spares the user typing it; both can be read off the
 * page's statistics before the user types anything. The obvious rule, "the space is the
 * symbol on the most lines", picks a frequent letter in many languages (Nenets а is on
 * more lines than the space), so several kinds of evidence are weighed:
 *
 * - a drawn space has no ink: its outline in the font program is empty;
 * - it never begins a line and never ends one (or, with producers that keep the trailing
 *   space of every line, nearly always ends one);
 * - cutting the lines at it gives words of plausible length;
 * - the glyphs just before it look like the glyphs that end lines, and the glyphs just
 *   after it like the glyphs that begin lines, since both are word ends and word starts;
 * - where the font draws no space at all, words are already apart by gaps, and a letter
 *   sits beside only a few of those gaps;
 * - the PDF itself may call it a space.
 *
 * A guess is only made on clear evidence; otherwise nothing is set and the words come from
 * the gaps between glyphs. Guesses are %DC_KEY_INFERRED, never override anything inferred
 * or confirmed, and form one undoable step.
 *
 * This file runs the pass: font by font, what the font's glyphs show
 * (dc-auto-stats.c), then the space (dc-auto-space.c), then the full stop
 * (dc-auto-full-stop.c), each guess set here; the constants of all of them are one table
 * in dc-auto-private.h.
 */

#define G_LOG_DOMAIN "dc-auto"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-agl-private.h"
#include "dc-auto-private.h"
#include "dc-document-private.h"
#include "dc-font-tables.h"
#include "dc-hypotheses-private.h"
#include "dc-parallel-private.h"
#include "dc-unicode-private.h"
#include "dc-width-offsets-private.h"

/* Pass.font_symbols: the symbols filed font by font, each font's in order. */
static void
index_font_symbols (Pass *pass, guint n_fonts)
{
  guint *starts = g_new0 (guint, n_fonts + 1);
  g_autofree guint *next = NULL;

  for (guint s = 0; s < pass->n_symbols; s++)
    if (pass->symbols[s].font < n_fonts)
      starts[pass->symbols[s].font + 1]++;
  for (guint f = 0; f < n_fonts; f++)
    starts[f + 1] += starts[f];
  next = g_memdup2 (starts, sizeof (guint) * MAX (1, n_fonts));
  pass->font_symbols = g_new (guint32, MAX (1, starts[n_fonts]));
  for (guint s = 0; s < pass->n_symbols; s++)
    if (pass->symbols[s].font < n_fonts)
      pass->font_symbols[next[pass->symbols[s].font]++] = s;
  pass->font_symbol_starts = starts;
}

/* Whether the glyph's name says it is something other than @value: no guess against it. */
gboolean
_dc_auto_name_says_otherwise (FontPass *fp, guint symbol, const char *value)
{
  const char *encoding = dc_font_get_encoding (fp->font);
  g_autofree char *named = NULL;

  gboolean own_names = g_strcmp0 (encoding, "Custom") == 0 || g_strcmp0 (encoding, "Builtin") == 0;

  named = _dc_agl_name_to_text (fp->pass->symbols[symbol].glyph_name);
  if (named == NULL || strcmp (named, value) == 0
      || (_dc_text_is_space (named) && _dc_text_is_space (value)))
    return FALSE;
  /* A standard encoding's names are the table's, not the font's: only where they name
   * ASCII punctuation (which legacy fonts leave in place; their lie is in the letters) do
   * they still speak against a guess (issue12963: the colon taken for the full stop). */
  return own_names
         || (named[1] == '\0' && (guchar) named[0] < 0x80
             && (g_ascii_ispunct (named[0]) || named[0] == ' '));
}

gboolean
_dc_auto_assign (Pass *pass, guint symbol, const char *value, const char *provenance)
{
  g_autoptr (GError) error = NULL;

  g_assert (dc_key_get_status (pass->key, symbol) < DC_KEY_INFERRED);

  /* A guess is the weakest evidence: where a proposal from the font's names or a layout
   * says otherwise, the key refuses it, and the guess is not made. */
  if (!dc_key_set_full (pass->key, symbol, value, DC_KEY_INFERRED, DC_KEY_LEVEL_GUESS, -1,
                        provenance, &error))
    {
      g_debug ("No automatic guess for symbol %u: %s", symbol, error->message);
      return FALSE;
    }
  pass->n_assigned++;
  return TRUE;
}

/* A symbol of the font that the key already holds as @value on good authority. */
gboolean
_dc_auto_find_known (FontPass *fp, gboolean (*is_value) (const char *), guint *symbol)
{
  guint n;
  const guint32 *symbols = font_symbols (fp->pass, fp->index, &n);

  for (guint i = 0; i < n; i++)
    if (dc_key_get_status (fp->pass->key, symbols[i]) >= DC_KEY_INFERRED
        && is_value (dc_key_get_value (fp->pass->key, symbols[i])))
      {
        *symbol = symbols[i];
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------------------------ */

void
dc_auto_report_init (DcAutoReport *report)
{
  g_return_if_fail (report != NULL);

  memset (report, 0, sizeof *report);
  report->fonts = g_array_new (FALSE, TRUE, sizeof (DcAutoFontReport));
}

static void
font_report_clear (DcAutoFontReport *font)
{
  g_clear_pointer (&font->space.reason, g_free);
  g_clear_pointer (&font->full_stop.reason, g_free);
}

/* Frees what the report holds; it can be initialised again afterwards. */
void
dc_auto_report_clear (DcAutoReport *report)
{
  g_return_if_fail (report != NULL);

  if (report->fonts != NULL)
    {
      for (guint i = 0; i < report->fonts->len; i++)
        font_report_clear (&g_array_index (report->fonts, DcAutoFontReport, i));
      g_clear_pointer (&report->fonts, g_array_unref);
    }
  report->ran = FALSE;
  report->n_assigned = 0;
}

/* The space and the full stop of the untrusted font @fp, its lines looked at already;
 * what was found (or why not) into @report's list of fonts. */
static void
recover_font (FontPass *fp, DcAutoReport *report)
{
  DcAutoFontReport font_report = { 0 };

  font_report.font = fp->index;
  font_report.space.symbol = DC_AUTO_NO_SYMBOL;
  font_report.full_stop.symbol = DC_AUTO_NO_SYMBOL;
  if (_dc_auto_font_is_cjk_width (fp))
    {
      font_report.space.reason = g_strdup (
          _("No space: the font's glyphs are as wide as they are tall, as in Chinese or "
            "Japanese text, whose words are not set apart by spaces."));
      font_report.full_stop.reason = g_strdup (
          _("No full stop: the font's glyphs are as wide as they are tall, as in Chinese or "
            "Japanese text, whose full stop is no Latin period."));
    }
  else
    {
      /* The space first: the full stop is told by how it ends words. */
      _dc_auto_guess_space (fp, &font_report.space);
      _dc_auto_guess_full_stop (fp, &font_report.full_stop);
    }

  g_clear_pointer (&fp->face, FT_Done_Face);
  if (report != NULL)
    g_array_append_val (report->fonts, font_report);
  else
    font_report_clear (&font_report);
}

/* Glyphs of the untrusted fonts' lines that a font's look decodes: the glyphs of its
 * lines. */
static guint64
font_line_glyphs (const Pass *pass, guint font)
{
  guint64 n = 0;

  for (guint fl = pass->font_line_starts[font]; fl < pass->font_line_starts[font + 1]; fl++)
    n += pass->lines[pass->font_lines[fl]].n_glyphs;
  return n;
}

/* The jobs of the untrusted fonts' looks (FontLookJob), one a font, each counting into
 * the font's entries and its own @totals. On two threads, a font with nearly all the
 * glyphs (one body font) would leave the other thread idle: its lines are parted in two
 * of about as many glyphs, the second part counting into a table of its own (@parts,
 * freed by the caller), added up after (add_parts()). */
static FontLookJob *
plan_looks (const Pass *pass, FontPass **untrusted, guint n, guint n_threads,
            FontLookTotals *totals, GPtrArray *parts, guint *n_jobs)
{
  FontLookJob *jobs = g_new (FontLookJob, 2 * MAX (1, n));
  g_autofree guint64 *sizes = g_new (guint64, MAX (1, n));
  g_autofree gboolean *parted = g_new (gboolean, MAX (1, n));
  guint64 total = 0;

  *n_jobs = 0;
  for (guint i = 0; i < n; i++)
    {
      sizes[i] = font_line_glyphs (pass, untrusted[i]->index);
      total += sizes[i];
    }
  for (guint i = 0; i < n; i++)
    {
      FontPass *fp = untrusted[i];
      guint first = pass->font_line_starts[fp->index], end = pass->font_line_starts[fp->index + 1];

      parted[i] = n_threads > 1 && sizes[i] * 6 > total * 5 && end - first >= 2;
      if (parted[i])
        {
          SymbolStats *own = g_new0 (SymbolStats, MAX (1, pass->n_symbols));
          guint middle = first;
          guint64 seen = 0;

          while (middle + 1 < end && 2 * seen < sizes[i])
            seen += pass->lines[pass->font_lines[middle++]].n_glyphs;
          g_ptr_array_add (parts, own);
          jobs[*n_jobs] = (FontLookJob){ fp, first, middle, fp->stats, &totals[*n_jobs] };
          (*n_jobs)++;
          jobs[*n_jobs] = (FontLookJob){ fp, middle, end, own, &totals[*n_jobs] };
          (*n_jobs)++;
        }
    }
  /* After the parted fonts, whose parts are the longest jobs. */
  for (guint i = 0; i < n; i++)
    {
      FontPass *fp = untrusted[i];

      if (parted[i])
        continue;
      jobs[*n_jobs] = (FontLookJob){ fp, pass->font_line_starts[fp->index],
                                     pass->font_line_starts[fp->index + 1], fp->stats,
                                     &totals[*n_jobs] };
      (*n_jobs)++;
    }
  return jobs;
}

/* Adds @b's reach to @a's: the least and the most of both, where the same values looked at
 * in one run give the same. */
static void
add_reach (FontReach *a, const FontReach *b)
{
  a->n_advancing += b->n_advancing;
  a->n_wide += b->n_wide;
  for (guint r = 0; r < 4; r++)
    if (b->has_extent[r] && !a->has_extent[r])
      {
        a->u0[r] = b->u0[r];
        a->u1[r] = b->u1[r];
        a->has_extent[r] = TRUE;
      }
    else if (b->has_extent[r])
      {
        a->u0[r] = MIN (a->u0[r], b->u0[r]);
        a->u1[r] = MAX (a->u1[r], b->u1[r]);
      }
}

/* What the looks counted, into each font: a font looked at in two parts adds its second
 * part's counts to the first's. Whole numbers, and least and most: the same in any order. */
static void
add_parts (const FontLookJob *jobs, guint n_jobs)
{
  for (guint k = 0; k < n_jobs; k++)
    {
      const FontLookJob *j = &jobs[k];
      FontPass *fp = j->fp;

      if (j->stats == fp->stats)
        {
          fp->n_lines = j->totals->n_lines;
          fp->n_glyphs = j->totals->n_glyphs;
          fp->n_gaps = j->totals->n_gaps;
          fp->reach = j->totals->reach;
          continue;
        }
      g_assert (k > 0 && jobs[k - 1].fp == fp);
      {
        guint n;
        const guint32 *symbols = font_symbols (fp->pass, fp->index, &n);

        for (guint i = 0; i < n; i++)
          {
            SymbolStats *to = &fp->stats[symbols[i]];
            const SymbolStats *from = &j->stats[symbols[i]];

            to->n_lines += from->n_lines;
            to->n_begins += from->n_begins;
            to->n_ends += from->n_ends;
            to->n_pieces += from->n_pieces;
            to->n_beside_gaps += from->n_beside_gaps;
          }
      }
      fp->n_lines += j->totals->n_lines;
      fp->n_glyphs += j->totals->n_glyphs;
      fp->n_gaps += j->totals->n_gaps;
      add_reach (&fp->reach, &j->totals->reach);
    }
}

/* The space and the full stop of every untrusted font. What the fonts' glyphs show does
 * not depend on the key, so all fonts are looked at first, several at once, each into its
 * own symbols' entries of @stats; the guesses then go font by font, in order, each seeing
 * what the fonts before it set. */
static void
recover_fonts (Pass *pass, guint n_fonts, SymbolStats *stats, guint n_threads, DcAutoReport *report)
{
  g_autofree FontPass *fonts = g_new0 (FontPass, MAX (1, n_fonts));
  g_autofree FontPass **untrusted = g_new (FontPass *, MAX (1, n_fonts));
  g_autofree FontLookJob *jobs = NULL;
  g_autofree FontLookTotals *totals = g_new0 (FontLookTotals, 2 * MAX (1, n_fonts));
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  FontLook look = { 0 };
  guint n_untrusted = 0;

  for (guint f = 0; f < n_fonts; f++)
    {
      FontPass *fp = &fonts[f];

      fp->font = dc_document_get_font (pass->document, f);
      if (dc_font_is_trusted (fp->font))
        continue;
      fp->pass = pass;
      fp->index = f;
      fp->stats = stats;
      untrusted[n_untrusted++] = fp;
    }
  look.jobs = jobs = plan_looks (pass, untrusted, n_untrusted, n_threads, totals, parts,
                                 &look.n_jobs);
  _dc_parallel_run (MIN (n_threads, MAX (1, look.n_jobs)), _dc_auto_look_at_font, &look);
  add_parts (jobs, look.n_jobs);
  for (guint i = 0; i < n_untrusted; i++)
    _dc_auto_count_pieces (untrusted[i]);
  for (guint i = 0; i < n_untrusted; i++)
    recover_font (untrusted[i], report);
}

/**
 * dc_auto_recover:
 * @document: the document
 * @key: the key of @document
 * @report: (nullable) (out caller-allocates): zero-filled or initialised; replaced by what
 *   was guessed per untrusted font and why, to be freed with dc_auto_report_clear()
 *
 * Guesses the space and the full stop of every font whose map is not trusted, and sets
 * them in @key as %DC_KEY_INFERRED, all in one undoable step. A symbol that already has an
 * inferred or confirmed value is never touched, and a font whose space or full stop is
 * already known is left alone for that guess. Where the evidence is not clear nothing is
 * guessed: a wrong space would break every word.
 *
 * Returns: the number of symbols set
 */
guint
dc_auto_recover (DcDocument *document, DcKey *key, DcAutoReport *report)
{
  Pass pass = { 0 };
  g_autofree SymbolStats *stats = NULL;
  guint n_fonts, n_threads;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);
  g_return_val_if_fail (dc_key_get_document (key) == document, 0);

  if (report != NULL)
    {
      dc_auto_report_clear (report);
      dc_auto_report_init (report);
      report->ran = TRUE;
    }

  pass.document = document;
  pass.key = key;
  pass.glyphs = dc_document_get_glyphs (document, NULL);
  pass.order = dc_document_get_reading_order (document, NULL);
  pass.lines = dc_document_get_lines (document, &pass.n_lines);
  pass.symbols = dc_document_get_symbols (document, &pass.n_symbols);
  if (FT_Init_FreeType (&pass.library) != 0)
    pass.library = NULL;

  stats = g_new0 (SymbolStats, MAX (1, pass.n_symbols));
  n_fonts = dc_document_get_n_fonts (document);
  pass.font_lines = _dc_document_get_font_lines (document, &pass.font_line_starts);
  index_font_symbols (&pass, n_fonts);
  n_threads = MIN (2, _dc_parallel_threads (dc_document_get_n_pages (document)));

  dc_key_begin_change (key, _("Automatic guesses"));
  /* The cascade's stronger levels first (DESIGN §7): what the fonts' own tables and the
   * standard layouts say. The guesses below then only fill what they leave unknown. */
  pass.n_assigned += dc_font_tables_apply (key);
  recover_fonts (&pass, n_fonts, stats, n_threads, report);
  /* With the spaces known, the words the fonts' glyphs make tell their layout. */
  pass.n_assigned += _dc_hypotheses_apply (key);
  pass.n_assigned += _dc_width_offsets_apply (key);
  dc_key_end_change (key);

  g_clear_pointer (&pass.library, FT_Done_FreeType);
  g_free (pass.font_symbol_starts);
  g_free (pass.font_symbols);
  g_free (pass.word_initial);
  g_free (pass.word_final);
  if (report != NULL)
    report->n_assigned = pass.n_assigned;
  return pass.n_assigned;
}
