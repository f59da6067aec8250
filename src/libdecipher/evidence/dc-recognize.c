/* dc-recognize.c: OCR consensus (DESIGN §8)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page shows what each glyph is even when the font's map lies. Recognition renders
 * lines (poppler-glib, the same renderer the window uses), reads them with Tesseract,
 * aligns the text read with the line's glyphs, and lets every reading of a symbol vote:
 * a symbol's proposal is the value most of its readings agree on, as sure as they agree.
 * OCR misreads letters, but rarely the same glyph the same wrong way everywhere.
 *
 * Lines are chosen as What Next? chooses them: the fewest lines that show each unknown
 * symbol DC_RECOGNIZE_COVERAGE times, so a book costs a few hundred lines at most.
 *
 * Threads: dc_recognize_job_new() and dc_recognize_job_apply() run on the thread that
 * owns the key; dc_recognize_job_run() anywhere (it reads only its own snapshot and
 * opens its own PopplerDocument per worker, never sharing one between threads).
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <cairo.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <poppler.h>
#include <string.h>

#include "dc-align-private.h"
#include "dc-error.h"
#include "dc-fingerprint.h"
#include "dc-library.h"
#include "dc-lookalikes-private.h"
#include "dc-poppler-lock.h"
#include "dc-recognize.h"
#include "dc-tesseract-private.h"
#include "dc-tsan-private.h"

/* Pixels per em of the rendered text: Tesseract reads 30 px capitals best. */
#define TARGET_EM 48.0
#define PAD 12        /* white pixels around a line */
#define MAX_LINES 400 /* a book's worth; more lines add little once each symbol is covered */
#define GAP_COST 1.0
#define UNKNOWN_COST 0.5
#define MISMATCH_COST 1.6
#define CASE_COST 0.4
#define BOUNDARY_COST 0.3
/* A value that has look-alikes OCR confuses (х ӿ ҳ, К Қ, – —) is not told from them by
 * reading alone: it is proposed, never applied, however unanimous the readings. Stated at
 * what bench/calibrate-levels.py measured (issue 28): 34 of 34 such proposals right in
 * two runs, where 0.8 was stated; 0.96, as the bench counts a Δ of exactly 0.05 as off. */
#define LOOKALIKE_CONFIDENCE 0.96
/* A reading another glyph of the font owns (ӈ read as н) is a letter the reader does not
 * know: below any sensible "accept all" threshold, so What Next? asks for it. Measured
 * by bench/calibrate-levels.py: 1 of 10 right in two runs (0.15 was stated). */
#define TAKEN_CONFIDENCE 0.05
/* Such a reading at an ASCII letter's code is that letter (the legacy layout keeps
 * ASCII): proposed where "accept all above 50 %" takes it, never applied. */
#define ASCII_CONFIDENCE 0.7
/* Tesseract's confidence (0–100) in a word above which its letters count as read surely:
 * one such reading of a rare capital is as good as two uncertain ones. */
#define SURE_WORD 90.0f

struct _DcRecognizeJob
{
  DcDocument *document;
  char *path;
  char *password;
  char *languages;
  char **values;   /* per symbol: the usable value, NULL when unknown */
  guint8 *unknown; /* per symbol: needs a value and has none */
  guint n_symbols;
  GArray *lines;    /* guint: the lines to read */
  DcShapes *shapes; /* worked out while reading, to tell letters apart */

  GMutex lock;
  GHashTable **votes;   /* per symbol: value → count */
  GHashTable **sure;    /* per symbol: value → count of readings in words read surely */
  guint *n_inside;      /* per symbol: occurrences inside a word (not its first glyph) */
  guint *n_read;        /* per symbol: occurrences in the lines read */
  guint8 *keeps_cp1251; /* per font, worked out when applying: 0 not yet, 1 no, 2 yes */
  guint n_lines_read;
  gint done;
};

/* ---- the snapshot and the choice of lines ---------------------------------------- */

typedef struct
{
  guint line;
  guint n_unknown; /* distinct unknown symbols */
} LineScore;

static int
compare_scores (gconstpointer a, gconstpointer b)
{
  const LineScore *la = a, *lb = b;

  if (la->n_unknown != lb->n_unknown)
    return la->n_unknown > lb->n_unknown ? -1 : 1;
  return la->line < lb->line ? -1 : la->line > lb->line;
}

static void
choose_lines (DcRecognizeJob *job)
{
  guint n_lines, n_glyphs;
  const DcLine *lines = dc_document_get_lines (job->document, &n_lines);
  const guint32 *order = dc_document_get_reading_order (job->document, &n_glyphs);
  const DcGlyph *glyphs = dc_document_get_glyphs (job->document, NULL);
  g_autoptr (GArray) scores = g_array_new (FALSE, FALSE, sizeof (LineScore));
  g_autofree guint *coverage = g_new0 (guint, MAX (job->n_symbols, 1));
  g_autofree guint *seen = g_new0 (guint, MAX (job->n_symbols, 1));

  for (guint l = 0; l < n_lines; l++)
    {
      LineScore score = { l, 0 };

      if (lines[l].rotation != 0)
        continue;
      for (guint i = 0; i < lines[l].n_glyphs; i++)
        {
          guint s = glyphs[order[lines[l].first_glyph + i]].symbol;

          if (job->unknown[s] && seen[s] != l + 1)
            {
              seen[s] = l + 1;
              score.n_unknown++;
            }
        }
      if (score.n_unknown > 0)
        g_array_append_val (scores, score);
    }
  g_array_sort (scores, compare_scores);

  for (guint i = 0; i < scores->len && job->lines->len < MAX_LINES; i++)
    {
      const DcLine *line = &lines[g_array_index (scores, LineScore, i).line];
      gboolean wanted = FALSE;

      for (guint g = 0; g < line->n_glyphs && !wanted; g++)
        {
          guint s = glyphs[order[line->first_glyph + g]].symbol;

          wanted = job->unknown[s] && coverage[s] < DC_RECOGNIZE_COVERAGE;
        }
      if (!wanted)
        continue;
      for (guint g = 0; g < line->n_glyphs; g++)
        coverage[glyphs[order[line->first_glyph + g]].symbol]++;
      g_array_append_val (job->lines, g_array_index (scores, LineScore, i).line);
    }
}

/**
 * dc_recognize_job_new:
 * @key: the values known now; recognition reads the symbols still unknown
 * @languages: (nullable): Tesseract languages ("eng+rus"), or %NULL to choose from the
 *   scripts already known and what is installed
 * @password: (nullable): the document's password, to render it
 */
DcRecognizeJob *
dc_recognize_job_new (DcKey *key, const char *languages, const char *password)
{
  DcRecognizeJob *job;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);

  job = g_new0 (DcRecognizeJob, 1);
  job->document = g_object_ref (dc_key_get_document (key));
  job->path = g_strdup (dc_document_get_path (job->document));
  job->password = g_strdup (password);
  job->languages = g_strdup (languages);
  g_mutex_init (&job->lock);
  dc_document_get_symbols (job->document, &job->n_symbols);
  job->values = g_new0 (char *, job->n_symbols + 1);
  job->unknown = g_new0 (guint8, MAX (job->n_symbols, 1));
  job->votes = g_new0 (GHashTable *, MAX (job->n_symbols, 1));
  job->sure = g_new0 (GHashTable *, MAX (job->n_symbols, 1));
  job->n_inside = g_new0 (guint, MAX (job->n_symbols, 1));
  job->n_read = g_new0 (guint, MAX (job->n_symbols, 1));
  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);

      job->values[s] = value ? g_utf8_normalize (value, -1, G_NORMALIZE_NFC) : NULL;
      job->unknown[s] = value == NULL && dc_document_symbol_needs_decoding (job->document, s);
    }
  job->lines = g_array_new (FALSE, FALSE, sizeof (guint));
  choose_lines (job);
  return job;
}

void
dc_recognize_job_free (DcRecognizeJob *job)
{
  if (job == NULL)
    return;
  for (guint s = 0; s < job->n_symbols; s++)
    {
      g_free (job->values[s]);
      if (job->votes[s] != NULL)
        g_hash_table_unref (job->votes[s]);
      if (job->sure[s] != NULL)
        g_hash_table_unref (job->sure[s]);
    }
  g_free (job->values);
  g_free (job->votes);
  g_free (job->sure);
  g_free (job->n_inside);
  g_free (job->keeps_cp1251);
  g_free (job->n_read);
  g_free (job->unknown);
  g_array_unref (job->lines);
  g_clear_pointer (&job->shapes, dc_shapes_free);
  g_mutex_clear (&job->lock);
  g_free (job->languages);
  g_free (job->password);
  g_free (job->path);
  g_object_unref (job->document);
  g_free (job);
}

/**
 * dc_recognize_job_set_render_file:
 * @job: a job not yet run
 * @path: a copy of the document made by dc_repair_write_render_copy(), which poppler
 *   draws as it looks
 *
 * Reads the pages from @path rather than from the document's own file, whose fonts
 * poppler would draw with the wrong glyphs: Tesseract must see what the linguist sees.
 * The copy is not encrypted, so the document's password is not used with it.
 */
void
dc_recognize_job_set_render_file (DcRecognizeJob *job, const char *path)
{
  g_return_if_fail (job != NULL);
  g_return_if_fail (path != NULL);

  g_free (job->path);
  job->path = g_strdup (path);
  g_clear_pointer (&job->password, g_free);
}

/* How many lines dc_recognize_job_run() will read. */
guint
dc_recognize_job_get_n_lines (DcRecognizeJob *job)
{
  g_return_val_if_fail (job != NULL, 0);

  return job->lines->len;
}

guint
dc_recognize_job_get_n_lines_read (DcRecognizeJob *job)
{
  g_return_val_if_fail (job != NULL, 0);

  return job->n_lines_read;
}

/* The languages Tesseract read with ("eng+rus"), once chosen. */
const char *
dc_recognize_job_get_languages (DcRecognizeJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);

  return job->languages;
}

/* ---- languages -------------------------------------------------------------------- */

static const char *const *
data_dirs (void)
{
  static const char *dirs[5];
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      guint n = 0;
      const char *prefix = g_getenv ("TESSDATA_PREFIX");

      if (prefix != NULL && prefix[0] != '\0')
        dirs[n++] = g_strdup (prefix);
      dirs[n++] = "/app/share/tessdata";
      dirs[n++] = "/usr/share/tesseract-ocr/5/tessdata";
      dirs[n++] = "/usr/share/tessdata";
      DC_ONCE_LEAVE (&initialized, 1);
    }
  DC_ONCE_ENTERED (&initialized);
  return dirs;
}

/* The folder holding @language's data, or NULL when it is not installed. */
static const char *
language_dir (const char *language)
{
  for (const char *const *dir = data_dirs (); *dir != NULL; dir++)
    {
      g_autofree char *name = g_strconcat (language, ".traineddata", NULL);
      g_autofree char *path = g_build_filename (*dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return *dir;
    }
  return NULL;
}

/**
 * dc_recognize_list_languages:
 *
 * Returns: (transfer full): the Tesseract languages installed, for reading text
 */
char **
dc_recognize_list_languages (void)
{
  g_autoptr (GPtrArray) languages = g_ptr_array_new_with_free_func (g_free);

  for (const char *const *dir = data_dirs (); *dir != NULL; dir++)
    {
      g_autoptr (GDir) folder = g_dir_open (*dir, 0, NULL);
      const char *name;

      while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
        {
          g_autofree char *language = NULL;
          gboolean have = FALSE;

          if (!g_str_has_suffix (name, ".traineddata"))
            continue;
          language = g_strndup (name, strlen (name) - strlen (".traineddata"));
          /* Orientation and script detection, and the equation model, read no text. */
          if (g_str_equal (language, "osd") || g_str_equal (language, "equ"))
            continue;
          for (guint i = 0; i < languages->len; i++)
            have |= g_str_equal (g_ptr_array_index (languages, i), language);
          if (!have)
            g_ptr_array_add (languages, g_steal_pointer (&language));
        }
    }
  g_ptr_array_sort (languages, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (languages, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&languages), FALSE);
}

/* The Tesseract language for the script most known values are in. */
static char *
languages_from_values (DcRecognizeJob *job)
{
  static const struct
  {
    const char *script;
    const char *language;
  } map[] = {
    { "Latn", "eng" }, { "Cyrl", "rus" }, { "Grek", "ell" }, { "Arab", "ara" },
    { "Hebr", "heb" }, { "Deva", "hin" }, { "Beng", "ben" }, { "Hani", "chi_sim" },
    { "Thai", "tha" }, { "Geor", "kat" }, { "Armn", "hye" }, { "Taml", "tam" },
  };
  guint counts[G_N_ELEMENTS (map)] = { 0 };
  guint best = G_N_ELEMENTS (map);

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *script = dc_library_script_of_value (job->values[s]);

      if (script == NULL || !dc_document_symbol_needs_decoding (job->document, s))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (map); i++)
        if (g_str_equal (map[i].script, script))
          counts[i]++;
    }
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (counts[i] >= 3 && language_dir (map[i].language) != NULL
        && (best == G_N_ELEMENTS (map) || counts[i] > counts[best]))
      best = i;
  return best < G_N_ELEMENTS (map) ? g_strdup (map[best].language) : NULL;
}

/* ---- rendering and reading a line -------------------------------------------------- */

static double
line_font_size (DcRecognizeJob *job, const DcLine *line)
{
  const guint32 *order = dc_document_get_reading_order (job->document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (job->document, NULL);
  double max = 0;

  for (guint i = 0; i < line->n_glyphs; i++)
    max = MAX (max, dc_glyph_get_size (&glyphs[order[line->first_glyph + i]]));
  return max > 0 ? max : 10.0;
}

/* The line as grey pixels, one byte each, black text on white. */
static guint8 *
render_line (PopplerDocument *pdf, DcRecognizeJob *job, const DcLine *line, int *width, int *height,
             double *scale_out)
{
  PopplerPage *page = poppler_document_get_page (pdf, (int) line->page);
  double size = line_font_size (job, line);
  double scale = CLAMP (TARGET_EM / size, 0.5, 12.0);
  double x0 = line->x0 - 0.3 * size, x1 = line->x1 + 0.3 * size;
  double y0 = line->y0 - 0.1 * size, y1 = line->y1 + 0.1 * size;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint8 *grey;
  const guint8 *data;
  int stride;

  if (page == NULL)
    return NULL;
  *width = (int) ceil ((x1 - x0) * scale) + 2 * PAD;
  *height = (int) ceil ((y1 - y0) * scale) + 2 * PAD;
  if (*width <= 2 * PAD || *height <= 2 * PAD || *width > 20000 || *height > 2000)
    {
      g_object_unref (page);
      return NULL;
    }
  *scale_out = scale;

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, *width, *height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_translate (cr, PAD, PAD);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -x0, -y0);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_clip (cr);
  dc_poppler_lock ();
  poppler_page_render (page, cr);
  dc_poppler_unlock ();
  g_object_unref (page);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  grey = g_malloc ((gsize) *width * *height);
  for (int y = 0; y < *height; y++)
    {
      const guint32 *row = (const guint32 *) (data + (gsize) y * stride);

      for (int x = 0; x < *width; x++)
        {
          guint32 p = row[x];

          grey[(gsize) y * *width + x] = (guint8) ((((p >> 16) & 0xff) * 30 + ((p >> 8) & 0xff) * 59
                                                    + (p & 0xff) * 11)
                                                   / 100);
        }
    }
  cairo_surface_destroy (surface);
  return grey;
}

static char *
read_pixels (TessBaseAPI *api, const guint8 *grey, int width, int height, double scale,
             int *confidence)
{
  const DcTesseract *tess = _dc_tesseract_get (NULL); /* loaded by open_tesseract() */
  char *text, *copy;

  tess->BaseAPISetImage (api, grey, width, height, 1, width);
  tess->BaseAPISetSourceResolution (api, (int) lround (72.0 * scale));
  text = tess->BaseAPIGetUTF8Text (api);
  if (confidence != NULL)
    *confidence = tess->BaseAPIMeanTextConf (api);
  copy = g_strdup (text ? text : "");
  tess->DeleteText (text);
  return g_strstrip (copy);
}

/* Reads @grey as words, each with Tesseract's confidence in it (0–100). */
static char **
read_words (TessBaseAPI *api, const guint8 *grey, int width, int height, double scale,
            GArray *confidences)
{
  const DcTesseract *tess = _dc_tesseract_get (NULL); /* loaded by open_tesseract() */
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  TessResultIterator *it;

  tess->BaseAPISetImage (api, grey, width, height, 1, width);
  tess->BaseAPISetSourceResolution (api, (int) lround (72.0 * scale));
  if (tess->BaseAPIRecognize (api, NULL) != 0 || (it = tess->BaseAPIGetIterator (api)) == NULL)
    {
      g_ptr_array_add (words, NULL);
      return (char **) g_ptr_array_free (g_steal_pointer (&words), FALSE);
    }
  do
    {
      char *text = tess->ResultIteratorGetUTF8Text (it, RIL_WORD);
      g_autofree char *copy = g_strstrip (g_strdup (text != NULL ? text : ""));
      float confidence = tess->ResultIteratorConfidence (it, RIL_WORD);

      tess->DeleteText (text);
      if (copy[0] == '\0' || strpbrk (copy, " \t\n\r") != NULL)
        continue;
      g_ptr_array_add (words, g_steal_pointer (&copy));
      g_array_append_val (confidences, confidence);
    }
  while (tess->ResultIteratorNext (it, RIL_WORD));
  tess->ResultIteratorDelete (it);
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&words), FALSE);
}

/* ---- aligning the text read with the glyphs ---------------------------------------- */

typedef struct
{
  guint symbol;
  gboolean token_start;
} Slot;

typedef struct
{
  char *text; /* NFC */
  gboolean word_start;
  gboolean sure; /* in a word Tesseract is sure of */
} Unit;

static void
unit_clear (gpointer data)
{
  g_free (((Unit *) data)->text);
}

static double
substitution_cost (DcRecognizeJob *job, const Slot *slot, const Unit *unit)
{
  const char *known = job->values[slot->symbol];
  double cost;

  if (known == NULL)
    cost = UNKNOWN_COST;
  else if (g_str_equal (known, unit->text))
    cost = 0;
  else
    {
      g_autofree char *a = g_utf8_casefold (known, -1);
      g_autofree char *b = g_utf8_casefold (unit->text, -1);

      cost = g_str_equal (a, b) ? CASE_COST : MISMATCH_COST;
    }
  if (slot->token_start != unit->word_start)
    cost += BOUNDARY_COST;
  return cost;
}

/* The line's visible glyphs in reading order, each marked where a token starts. */
static GArray *
line_slots (DcRecognizeJob *job, const DcLine *line)
{
  const guint32 *order = dc_document_get_reading_order (job->document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (job->document, NULL);
  const DcToken *tokens = dc_document_get_tokens (job->document, NULL);
  GArray *slots = g_array_new (FALSE, FALSE, sizeof (Slot));

  for (guint t = 0; t < line->n_tokens; t++)
    {
      const DcToken *token = &tokens[line->first_token + t];

      for (guint i = 0; i < token->n_glyphs; i++)
        {
          const DcGlyph *glyph = &glyphs[order[token->first_glyph + i]];
          Slot slot = { glyph->symbol, i == 0 };

          if (glyph->flags & DC_GLYPH_INVISIBLE)
            continue;
          g_array_append_val (slots, slot);
        }
    }
  return slots;
}

/* The words read, one Unit a grapheme cluster. */
static GArray *
reading_units (char **words, const float *confidences)
{
  GArray *units = g_array_new (FALSE, FALSE, sizeof (Unit));
  g_auto (Typed) typed = { 0 };

  g_array_set_clear_func (units, unit_clear);
  _dc_typed_prepare (&typed, words, FALSE);
  for (guint w = 0; w < _dc_typed_n_words (&typed); w++)
    {
      guint end = g_array_index (typed.word_end, guint, w);

      for (guint c = _dc_typed_word_start (&typed, w); c < end;)
        {
          guint cluster_end = g_array_index (typed.cluster_end, guint, c);
          Unit unit = { _dc_chars_to_nfc (&typed, c, cluster_end - c),
                        c == _dc_typed_word_start (&typed, w), confidences[w] >= SURE_WORD };

          g_array_append_val (units, unit);
          c = cluster_end;
        }
    }
  return units;
}

/* An edit distance in which known values must agree and unknown glyphs take any
 * character. Returns per slot the unit it reads as + 1, or 0 for none. */
static guint *
align_reading (DcRecognizeJob *job, GArray *slots, GArray *units)
{
  guint n = slots->len, m = units->len;
  g_autofree double *cost = g_new (double, (gsize) (n + 1) * (m + 1));
  g_autofree guint8 *move = g_new (guint8, (gsize) (n + 1) * (m + 1));
  guint *reading = g_new0 (guint, n);

#define AT(i, j) ((gsize) (i) * (m + 1) + (j))
  cost[AT (0, 0)] = 0;
  move[AT (0, 0)] = 0;
  for (guint i = 0; i <= n; i++)
    for (guint j = i == 0 ? 1 : 0; j <= m; j++)
      {
        double best = G_MAXDOUBLE;
        guint8 how = 0;

        if (i > 0 && j > 0)
          {
            best = cost[AT (i - 1, j - 1)]
                   + substitution_cost (job, &g_array_index (slots, Slot, i - 1),
                                        &g_array_index (units, Unit, j - 1));
            how = 1;
          }
        if (i > 0 && cost[AT (i - 1, j)] + GAP_COST < best)
          {
            best = cost[AT (i - 1, j)] + GAP_COST;
            how = 2;
          }
        if (j > 0 && cost[AT (i, j - 1)] + GAP_COST < best)
          {
            best = cost[AT (i, j - 1)] + GAP_COST;
            how = 3;
          }
        cost[AT (i, j)] = best;
        move[AT (i, j)] = how;
      }

  for (guint i = n, j = m; i > 0 || j > 0;)
    {
      switch (move[AT (i, j)])
        {
        case 1:
          reading[i - 1] = j;
          i--, j--;
          break;
        case 2:
          i--;
          break;
        default:
          j--;
          break;
        }
    }
#undef AT
  return reading;
}

/* A line whose known glyphs the reading mostly contradicts was misread (or is not the
 * text the glyphs draw): it does not vote. */
static gboolean
reading_agrees (DcRecognizeJob *job, GArray *slots, GArray *units, const guint *reading)
{
  guint n_known = 0, n_agree = 0;

  for (guint i = 0; i < slots->len; i++)
    {
      const Slot *slot = &g_array_index (slots, Slot, i);
      const char *known = job->values[slot->symbol];

      if (known == NULL || known[0] == '\0')
        continue;
      n_known++;
      if (reading[i] != 0 && g_str_equal (known, g_array_index (units, Unit, reading[i] - 1).text))
        n_agree++;
    }
  return n_known < 3 || n_agree * 2 >= n_known;
}

static void
count_vote (GHashTable **table, const char *value)
{
  if (*table == NULL)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_replace (*table, g_strdup (value),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (*table, value))
                                          + 1));
}

/* Each unknown glyph's reading becomes its symbol's vote (and a sure vote when
 * Tesseract was sure of the word). */
static void
record_votes (DcRecognizeJob *job, GArray *slots, GArray *units, const guint *reading)
{
  DC_MUTEX_LOCK (&job->lock);
  for (guint i = 0; i < slots->len; i++)
    {
      const Slot *slot = &g_array_index (slots, Slot, i);
      const Unit *unit;

      if (!job->unknown[slot->symbol])
        continue;
      job->n_read[slot->symbol]++;
      if (!slot->token_start)
        job->n_inside[slot->symbol]++;
      if (reading[i] == 0)
        continue;
      unit = &g_array_index (units, Unit, reading[i] - 1);
      if (unit->sure)
        count_vote (&job->sure[slot->symbol], unit->text);
      count_vote (&job->votes[slot->symbol], unit->text);
    }
  job->n_lines_read++;
  DC_MUTEX_UNLOCK (&job->lock);
}

/* Aligns the words read with @line's glyphs and records each unknown glyph's reading.
 * Returns FALSE when the line does not vote. */
static gboolean
vote_line (DcRecognizeJob *job, const DcLine *line, char **words, const float *confidences)
{
  g_autoptr (GArray) slots = line_slots (job, line);
  g_autoptr (GArray) units = reading_units (words, confidences);
  g_autofree guint *reading = NULL;
  guint n = slots->len, m = units->len;

  if (n == 0 || m == 0 || m * 2 < n || m > n * 2)
    return FALSE;
  reading = align_reading (job, slots, units);
  if (!reading_agrees (job, slots, units, reading))
    return FALSE;
  record_votes (job, slots, units, reading);
  return TRUE;
}

/* ---- running --------------------------------------------------------------------- */

typedef struct
{
  DcRecognizeJob *job;
  guint worker;
  guint n_workers;
  DcRecognizeProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
  GError *error;
} Worker;

/* A document this job draws with: dropping it frees its fonts' faces, which must not
 * happen while another thread draws (dc-poppler-lock.c). */
typedef PopplerDocument DrawingPdf;

static void
drawing_pdf_free (DrawingPdf *pdf)
{
  dc_poppler_lock ();
  g_object_unref (pdf);
  dc_poppler_unlock ();
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DrawingPdf, drawing_pdf_free)

static PopplerDocument *
open_pdf (DcRecognizeJob *job, GError **error)
{
  g_autofree char *absolute = g_canonicalize_filename (job->path, NULL);
  g_autofree char *uri = g_filename_to_uri (absolute, NULL, error);
  g_autoptr (GError) local_error = NULL;
  PopplerDocument *pdf;

  if (uri == NULL)
    return NULL;
  pdf = poppler_document_new_from_file (uri, job->password, &local_error);
  if (pdf == NULL)
    g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                 _("The document could not be rendered for recognition: %s."),
                    local_error->message);
  return pdf;
}

/* Quiet: Tesseract would otherwise report its resolution guesses on stderr. Its
 * debug_file is one parameter for the whole process, so it is set once, before any
 * reading thread starts, and never by two threads at a time. */
static void
quiet_tesseract (const DcTesseract *tess)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      TessBaseAPI *api = tess->BaseAPICreate ();

      tess->BaseAPISetVariable (api, "debug_file", "/dev/null");
      tess->BaseAPIDelete (api);
      DC_ONCE_LEAVE (&done, 1);
    }
  DC_ONCE_ENTERED (&done);
}

static TessBaseAPI *
open_tesseract (const char *languages, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (languages, "+", -1);
  const char *dir = parts[0] != NULL ? language_dir (parts[0]) : NULL;
  const DcTesseract *tess = _dc_tesseract_get (error);
  TessBaseAPI *api;

  if (tess == NULL)
    return NULL;
  quiet_tesseract (tess);
  api = tess->BaseAPICreate ();

  if (dir == NULL || tess->BaseAPIInit3 (api, dir, languages) != 0)
    {
      tess->BaseAPIDelete (api);
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("Tesseract could not load the language data “%s”. Install its package "
                     "(tesseract-ocr-%s on Debian) or choose another language."),
                      languages, parts[0] != NULL ? parts[0] : languages);
      return NULL;
    }
  tess->BaseAPISetPageSegMode (api, PSM_SINGLE_LINE);
  return api;
}

/* Only ever given what open_tesseract() returned, so Tesseract is loaded. */
static void
close_tesseract (TessBaseAPI *api)
{
  const DcTesseract *tess = _dc_tesseract_get (NULL);

  tess->BaseAPIEnd (api);
  tess->BaseAPIDelete (api);
}

static gpointer
worker_thread (gpointer data)
{
  Worker *worker = data;
  DcRecognizeJob *job = worker->job;
  g_autoptr (DrawingPdf) pdf = NULL;
  const DcLine *lines = dc_document_get_lines (job->document, NULL);
  TessBaseAPI *api;

  if ((pdf = open_pdf (job, &worker->error)) == NULL)
    return NULL;
  if ((api = open_tesseract (job->languages, &worker->error)) == NULL)
    return NULL;
  for (guint i = worker->worker; i < job->lines->len; i += worker->n_workers)
    {
      const DcLine *line = &lines[g_array_index (job->lines, guint, i)];
      g_autofree guint8 *grey = NULL;
      int width, height;
      double scale;
      guint done;

      if (g_cancellable_is_cancelled (worker->cancellable))
        break;
      grey = render_line (pdf, job, line, &width, &height, &scale);
      if (grey != NULL)
        {
          g_autoptr (GArray) confidences = g_array_new (FALSE, FALSE, sizeof (float));
          g_auto (GStrv) words = read_words (api, grey, width, height, scale, confidences);

          vote_line (job, line, words, (const float *) (gpointer) confidences->data);
        }
      done = (guint) g_atomic_int_add (&job->done, 1) + 1;
      if (worker->progress != NULL)
        worker->progress (done, job->lines->len, worker->progress_data);
    }
  close_tesseract (api);
  return NULL;
}

/* With nothing known to tell the script, the installed language that reads the first
 * line most confidently. */
static char *
probe_language (DcRecognizeJob *job, GError **error)
{
  g_auto (GStrv) installed = dc_recognize_list_languages ();
  g_autoptr (DrawingPdf) pdf = NULL;
  const DcLine *lines = dc_document_get_lines (job->document, NULL);
  g_autofree guint8 *grey = NULL;
  char *best = NULL;
  int best_confidence = -1, width, height;
  double scale;

  if (installed[0] == NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_FAILED,
                           _("No Tesseract language data is installed. Install the package of "
                             "the document's language, such as tesseract-ocr-eng."));
      return NULL;
    }
  if (installed[1] == NULL || job->lines->len == 0)
    return g_strdup (g_str_equal (installed[0], "eng") || installed[1] == NULL ? installed[0]
                                                                               : "eng");
  if ((pdf = open_pdf (job, error)) == NULL)
    return NULL;
  grey = render_line (pdf, job, &lines[g_array_index (job->lines, guint, 0)], &width, &height,
                      &scale);
  for (guint i = 0; installed[i] != NULL && grey != NULL; i++)
    {
      TessBaseAPI *api = open_tesseract (installed[i], NULL);
      g_autofree char *text = NULL;
      int confidence;

      if (api == NULL)
        continue;
      text = read_pixels (api, grey, width, height, scale, &confidence);
      g_debug ("%s reads “%s” (%d)", installed[i], text, confidence);
      if (confidence > best_confidence)
        {
          best_confidence = confidence;
          g_free (best);
          best = g_strdup (installed[i]);
        }
      close_tesseract (api);
    }
  return best != NULL ? best : g_strdup (installed[0]);
}

/**
 * dc_recognize_job_run:
 * @progress: (nullable): called from the reading threads after each line
 *
 * Reads the chosen lines (on two threads when the machine has two cores) and counts the
 * votes. Safe in any thread.
 */
gboolean
dc_recognize_job_run (DcRecognizeJob *job, DcRecognizeProgressFunc progress, gpointer progress_data,
                      GCancellable *cancellable, GError **error)
{
  Worker workers[2];
  GThread *threads[2] = { NULL, NULL };
  guint n_workers;
  gboolean ok = TRUE;

  g_return_val_if_fail (job != NULL, FALSE);

  if (job->lines->len == 0)
    return TRUE;
  if (job->languages == NULL)
    job->languages = languages_from_values (job);
  if (job->languages == NULL && (job->languages = probe_language (job, error)) == NULL)
    return FALSE;

  if (job->shapes == NULL)
    job->shapes = dc_shapes_new (job->document);

  n_workers = CLAMP (g_get_num_processors (), 1, 2);
  n_workers = MIN (n_workers, job->lines->len);
  for (guint w = 0; w < n_workers; w++)
    {
      workers[w] = (Worker){ job, w, n_workers, progress, progress_data, cancellable, NULL };
      if (w > 0)
        threads[w] = g_thread_new ("dc-recognize", worker_thread, &workers[w]);
    }
  worker_thread (&workers[0]);
  for (guint w = 1; w < n_workers; w++)
    g_thread_join (threads[w]);
  for (guint w = 0; w < n_workers; w++)
    {
      if (workers[w].error != NULL && ok)
        {
          g_propagate_error (error, workers[w].error);
          ok = FALSE;
        }
      else
        g_clear_error (&workers[w].error);
    }
  if (ok && g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  return ok;
}

/* The value most of @symbol's readings agree on (ties: the smaller string, so that the
 * result does not depend on the hash table's order), and how many agree. */
static const char *
winner (DcRecognizeJob *job, guint symbol, guint *count_out)
{
  GHashTableIter iter;
  gpointer value, count;
  const char *best = NULL;
  guint best_count = 0;

  g_hash_table_iter_init (&iter, job->votes[symbol]);
  while (g_hash_table_iter_next (&iter, &value, &count))
    if (GPOINTER_TO_UINT (count) > best_count
        || (GPOINTER_TO_UINT (count) == best_count && g_strcmp0 (value, best) < 0))
      {
        best = value;
        best_count = GPOINTER_TO_UINT (count);
      }
  *count_out = best_count;
  return best;
}

/* Whether @a and @b draw different shapes; without outlines (Type 3) they may. */
static gboolean
shapes_differ (DcRecognizeJob *job, guint a, guint b)
{
  const DcShape *sa = job->shapes != NULL ? dc_shapes_get (job->shapes, a) : NULL;
  const DcShape *sb = job->shapes != NULL ? dc_shapes_get (job->shapes, b) : NULL;

  if (sa == NULL || sb == NULL)
    return TRUE;
  return dc_shape_distance (sa, sb) > DC_SHAPE_NEAR_DISTANCE;
}

/* The ASCII character a one-byte code stands for in every legacy code page (they keep
 * ASCII below 0x80), or 0. */
static char
ascii_of (const DcSymbol *symbol)
{
  return symbol->code_len == 1 && symbol->code > 0x20 && symbol->code < 0x7f ? (char) symbol->code
                                                                             : 0;
}

/* The Russian letter a one-byte code stands for in windows-1251, which legacy Cyrillic
 * fonts keep for the letters they share with Russian (national letters take the free
 * codes), as UTF-8 in @out; FALSE for other codes. */
static gboolean
cp1251_letter_of (const DcSymbol *symbol, char out[8])
{
  gunichar c;

  if (symbol->code_len != 1
      || (symbol->code < 0xC0 && symbol->code != 0xA8 && symbol->code != 0xB8))
    return FALSE;
  c = symbol->code == 0xA8   ? 0x0401
      : symbol->code == 0xB8 ? 0x0451
                             : 0x0410 + (symbol->code - 0xC0);
  out[g_unichar_to_utf8 (c, out)] = '\0';
  return TRUE;
}

/* Whether a glyph read as @value, which another glyph of its font owns, is taken for what
 * its code is in ASCII: a letter, a digit or a common punctuation mark there, which
 * legacy fonts keep (a hacked font puts its letters at the brackets and the accents). */
static gboolean
ascii_stands (const DcSymbol *symbol)
{
  char c = ascii_of (symbol);

  return c != 0 && (g_ascii_isalnum (c) || strchr (".,;:!?()", c) != NULL);
}

/* What @symbol's one-byte code is in ASCII, as a string. */
static const char *
ascii_value (const DcSymbol *symbol)
{
  static const char *const table[] = {
    " ", "!", "\"", "#",  "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/", "0", "1", "2",
    "3", "4", "5",  "6",  "7", "8", "9", ":", ";", "<", "=", ">", "?", "@", "A", "B", "C", "D", "E",
    "F", "G", "H",  "I",  "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X",
    "Y", "Z", "[",  "\\", "]", "^", "_", "`", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
    "l", "m", "n",  "o",  "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "{", "|", "}", "~",
  };

  return table[ascii_of (symbol) - 0x20];
}

/* Whether @value is the one ASCII character @c. */
static gboolean
is_ascii (const char *value, char c)
{
  return c != 0 && value[0] == c && value[1] == '\0';
}

/* Whether @value is what @symbol's one-byte code stands for in ASCII or, for a Russian
 * letter, windows-1251: the layout agrees with the reading. */
static gboolean
at_own_code (const DcSymbol *symbol, const char *value)
{
  char letter[8];

  return is_ascii (value, ascii_of (symbol))
         || (cp1251_letter_of (symbol, letter) && g_str_equal (letter, value));
}

/* Measured by bench/calibrate-recognize.py (issue 30) on 24 generated legacy PDFs, UDHR
 * texts in Latin and Cyrillic (English, Russian, Yakut, Evenki, Nenets, Nivkh) set in
 * Charis SIL, Andika, Gentium Plus and Schoolbook Uralic, none of them installed: the
 * share of proposals that were right, by the share of a symbol's readings that agree
 * (agreement(); look-alikes left out, they are capped). Precision there:
 * 1.0: 1077 of 1077; [0.875, 1): 265 of 265; [0.625, 0.875): 83 of 85; [0.375, 0.625):
 * 21 of 23; below: 45 of 226. Each band's figure is a little under what was measured,
 * and a split vote under 0.5, which "accept all above 50 %" leaves for a look: though
 * bench/calibrate-levels.py found 12 of 12 right (issue 28), a split vote can be wrong
 * (test-recognize: "!" for "?" 10 of 19 times), and taken without a look it would stay. */
static const struct
{
  double agreement; /* at least */
  double confidence;
} calibration[] = {
  { 1.0, 0.995 }, { 0.875, 0.99 }, { 0.625, 0.97 }, { 0.375, 0.45 }, { 0.0, 0.2 },
};

/* How sure a reading @agreement of the symbol's readings agree on is (calibration[]). */
static double
calibrated (double agreement)
{
  for (guint i = 0; i < G_N_ELEMENTS (calibration); i++)
    if (agreement >= calibration[i].agreement - 1e-9)
      return calibration[i].confidence;
  return 0.0;
}

/* The symbols of each font holding or read as each value: "font:value" → GArray of guint. */
static GHashTable *
index_values (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best)
{
  GHashTable *index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_array_unref);

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s] != NULL ? job->values[s] : best[s];
      char *name;
      GArray *list;

      if (value == NULL || value[0] == '\0')
        continue;
      name = g_strdup_printf ("%u:%s", symbols[s].font, value);
      list = g_hash_table_lookup (index, name);
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (index, name, list);
        }
      else
        g_free (name);
      g_array_append_val (list, s);
    }
  return index;
}

/* For a symbol read as @value, the symbol of the same font that owns @value: one that
 * already has it, or one read as it more unanimously (then more often), readings counted
 * as (agreeing + 1) / (read + 2) so that a few unanimous readings weigh little. A reader trained
 * on a national language reads a letter it does not know as its nearest letter (Nivkh ӊ
 * as н, ғ as г, Nenets ӈ as н): two glyphs of different shapes read alike are told apart
 * by giving the value to the one that reads it better; a glyph whose one-byte code is
 * the value in ASCII owns it outright. Returns G_MAXUINT for none. */
static guint
owner_of (DcRecognizeJob *job, const DcSymbol *symbols, GHashTable *index, const guint *best_count,
          guint symbol, const char *value)
{
  g_autofree char *name = g_strdup_printf ("%u:%s", symbols[symbol].font, value);
  GArray *list = g_hash_table_lookup (index, name);
  /* Smoothed, so that 4 of 4 readings do not outweigh 179 of 180. */
  double share = (best_count[symbol] + 1.0) / (job->n_read[symbol] + 2.0);
  char letter[8];

  if (at_own_code (&symbols[symbol], value))
    return G_MAXUINT;
  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      guint s = g_array_index (list, guint, i);
      double other;

      if (s == symbol || !shapes_differ (job, s, symbol))
        continue;
      /* A legacy font keeps ASCII at its codes, and a Cyrillic one mostly windows-1251's
       * Russian letters: the glyph at 0x35 owns "5", the one at 0xCA "К". */
      if (job->values[s] != NULL || is_ascii (value, ascii_of (&symbols[s])))
        return s;
      if (cp1251_letter_of (&symbols[s], letter) && g_str_equal (letter, value))
        return s;
      other = (best_count[s] + 1.0) / (job->n_read[s] + 2.0);
      if (other > share
          || (other == share
              && (symbols[s].n_glyphs > symbols[symbol].n_glyphs
                  || (symbols[s].n_glyphs == symbols[symbol].n_glyphs && s < symbol))))
        return s;
    }
  return G_MAXUINT;
}

/* Whether most letters of @font are Cyrillic, as known or read. */
static gboolean
font_is_cyrillic (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best, guint font)
{
  guint cyrillic = 0, other = 0;

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s] != NULL ? job->values[s] : best[s];
      const char *script;

      if (symbols[s].font != font || value == NULL
          || (script = dc_library_script_of_value (value)) == NULL)
        continue;
      if (g_str_equal (script, "Cyrl"))
        cyrillic += symbols[s].n_glyphs;
      else
        other += symbols[s].n_glyphs;
    }
  return cyrillic > 2 * other;
}

/* Whether @font keeps windows-1251's Russian letters at their codes: of its symbols read
 * (by a clear majority) as a Russian letter, two in three at least, and ten, sit at that
 * letter's code. */
static gboolean
font_keeps_cp1251 (DcRecognizeJob *job, const DcSymbol *symbols, guint font)
{
  guint own = 0, other = 0;

  for (guint s = 0; s < job->n_symbols; s++)
    {
      const char *value = job->values[s];
      guint count = 0;
      char letter[8];
      gunichar c;

      if (symbols[s].font != font)
        continue;
      if (value == NULL && job->votes[s] != NULL && (value = winner (job, s, &count)) != NULL
          && count * 3 < job->n_read[s] * 2)
        value = NULL;
      if (value == NULL || (c = g_utf8_get_char (value)) == 0
          || value[g_unichar_to_utf8 (c, letter)] != '\0'
          || !((c >= 0x0410 && c <= 0x044F) || c == 0x0401 || c == 0x0451))
        continue;
      if (cp1251_letter_of (&symbols[s], letter) && g_str_equal (letter, value))
        own++;
      else
        other++;
    }
  return own >= 10 && own >= 2 * other;
}

/* Whether the legacy layout of @symbol's font puts @value, a Russian letter or an ASCII
 * letter or digit, at another code: a Cyrillic legacy font keeps ASCII and
 * windows-1251's Russian letters where they are (see cp1251_letter_of()), so a glyph
 * elsewhere read as one (Nivkh Ӿ as Х, the S of a Latin name as 5) is a letter the
 * reader does not know. */
static gboolean
layout_owns (DcRecognizeJob *job, const DcSymbol *symbols, guint symbol, const char *value)
{
  char letter[8];
  gunichar c = g_utf8_get_char (value);

  if (c == 0 || value[g_unichar_to_utf8 (c, letter)] != '\0' || symbols[symbol].code_len != 1
      || !((c >= 0x0410 && c <= 0x044F) || c == 0x0401 || c == 0x0451
           || (c < 0x80 && g_ascii_isalnum ((char) c)))
      || (cp1251_letter_of (&symbols[symbol], letter) && g_str_equal (letter, value))
      || is_ascii (value, ascii_of (&symbols[symbol])))
    return FALSE;
  if (job->keeps_cp1251 == NULL)
    {
      guint n_fonts = dc_document_get_n_fonts (job->document);

      job->keeps_cp1251 = g_new0 (guint8, MAX (n_fonts, 1));
      for (guint f = 0; f < n_fonts; f++)
        job->keeps_cp1251[f] = 1 + font_keeps_cp1251 (job, symbols, f);
    }
  return symbols[symbol].font < dc_document_get_n_fonts (job->document)
         && job->keeps_cp1251[symbols[symbol].font] == 2;
}

/* What a reading stands for in this document. An apostrophe read inside words of a
 * Cyrillic text is a letter — the Nenets and Nivkh glottal stop, the Ukrainian and
 * Belarusian separation sign — which Unicode writes U+02BC MODIFIER LETTER APOSTROPHE;
 * Tesseract only knows the punctuation marks. */
static const char *
interpret (DcRecognizeJob *job, const DcSymbol *symbols, const char *const *best, guint symbol)
{
  static const char *const latin[][2] = {
    { "а", "a" }, { "в", "B" }, { "е", "e" }, { "к", "k" }, { "м", "m" }, { "н", "H" },
    { "о", "o" }, { "п", "n" }, { "р", "p" }, { "с", "c" }, { "т", "t" }, { "у", "y" },
    { "х", "x" }, { "і", "i" }, { "ј", "j" }, { "ѕ", "s" }, { "ь", "b" }, { "А", "A" },
    { "В", "B" }, { "Е", "E" }, { "К", "K" }, { "М", "M" }, { "Н", "H" }, { "О", "O" },
    { "Р", "P" }, { "С", "C" }, { "Т", "T" }, { "У", "Y" }, { "Х", "X" }, { "І", "I" },
    { "Ј", "J" }, { "Ѕ", "S" },
  };
  const char *value = best[symbol];
  char ascii = ascii_of (&symbols[symbol]);

  /* A Latin letter in a Cyrillic text, read by a Cyrillic reader as its look-alike, at
   * the code that is that Latin letter in every legacy code page: the Latin letter. */
  for (guint i = 0; ascii != 0 && i < G_N_ELEMENTS (latin); i++)
    if (g_str_equal (value, latin[i][0]) && is_ascii (latin[i][1], ascii))
      return latin[i][1];
  if ((g_str_equal (value, "\u2019") || g_str_equal (value, "'"))
      && job->n_inside[symbol] * 2 > job->n_read[symbol]
      && font_is_cyrillic (job, symbols, best, symbols[symbol].font))
    return "\u02BC";
  return value;
}

/* Per font: whether OCR contradicts the proposals its own tables made (a cmap that says
 * "?" where the page shows "$"): most of the symbols it proposed a value for, read at
 * least twice with a clear majority, read as something else. Such a font's proposals
 * below the library level give way to the readings. */
static guint8 *
fonts_contradicted (DcRecognizeJob *job, DcKey *key, const DcSymbol *symbols,
                    const char *const *best, const guint *best_count)
{
  guint n_fonts = dc_document_get_n_fonts (job->document);
  g_autofree guint *agree = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *disagree = g_new0 (guint, MAX (n_fonts, 1));
  guint8 *contradicted = g_new0 (guint8, MAX (n_fonts, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      g_autofree char *held = NULL;
      DcKeyLevel level;

      if (best[s] == NULL || symbols[s].font >= n_fonts
          || dc_key_get_status (key, s) != DC_KEY_PROPOSED || best_count[s] < 2
          || best_count[s] * 3 < job->n_read[s] * 2)
        continue;
      level = dc_key_get_level (key, s);
      if (level <= DC_KEY_LEVEL_SHAPE || level >= DC_KEY_LEVEL_LIBRARY)
        continue;
      held = g_utf8_normalize (dc_key_peek_value (key, s), -1, G_NORMALIZE_NFC);
      if (g_strcmp0 (held, best[s]) == 0)
        agree[symbols[s].font]++;
      else
        disagree[symbols[s].font]++;
    }
  for (guint f = 0; f < n_fonts; f++)
    contradicted[f] = disagree[f] >= 2 && disagree[f] > 2 * agree[f];
  return contradicted;
}

typedef struct
{
  DcRecognizeJob *job;
  const DcSymbol *symbols;
  guint symbol;
  GHashTable *index; /* the readings, as index_values() */
  const guint *best_count;
} RuledOut;

/* Whether another glyph of the symbol's font, of another shape, already has @c. Only a
 * value held counts: which of two glyphs read alike is the letter read is no surer by
 * shape than by reading (the Latin K of a Cyrillic font is read as К too). */
static gboolean
held_elsewhere (gunichar c, gpointer data)
{
  RuledOut *r = data;
  char value[8];

  value[g_unichar_to_utf8 (c, value)] = '\0';
  for (guint s = 0; s < r->job->n_symbols; s++)
    if (s != r->symbol && r->symbols[s].font == r->symbols[r->symbol].font
        && g_strcmp0 (r->job->values[s], value) == 0 && shapes_differ (r->job, s, r->symbol))
      return TRUE;
  return FALSE;
}

/* Whether another glyph of the font, of another shape, owns @c (owner_of(): it holds
 * it, sits at its code in the legacy layout, or is read as it more unanimously). Used
 * only once the reading itself is owned: the glyph is then a letter the reader does not
 * know, and its look-alikes that other glyphs own are not it either. */
static gboolean
owned_elsewhere (gunichar c, gpointer data)
{
  RuledOut *r = data;
  char value[8];

  value[g_unichar_to_utf8 (c, value)] = '\0';
  return held_elsewhere (c, data)
         || owner_of (r->job, r->symbols, r->index, r->best_count, r->symbol, value) != G_MAXUINT
         || layout_owns (r->job, r->symbols, r->symbol, value);
}

/* Readings with look-alikes (х for ӿ, К for Қ, 5 for 3, – for —) are not decided by OCR:
 * each such symbol's glyph is compared with the candidates drawn in installed fonts
 * (dc-lookalikes.c), leaving out those another glyph of the font already has. The value
 * its shape names replaces the reading in @best (new strings kept in @kept), and
 * @reasons gets why, for the provenance. */
static void
resolve_lookalikes (DcRecognizeJob *job, const DcSymbol *symbols, const char **best,
                    const guint *best_count, GPtrArray *kept, char **reasons, guint8 *shape_agrees)
{
  g_autoptr (DcLookalikes) lookalikes = _dc_lookalikes_new ();
  g_autoptr (GHashTable) index = index_values (job, symbols, (const char *const *) best);
  g_autofree const char **decided = g_new0 (const char *, MAX (job->n_symbols, 1));
  g_autofree guint8 *clash = g_new0 (guint8, MAX (job->n_symbols, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      RuledOut r = { job, symbols, s, index, best_count };
      g_autofree char *why = NULL;
      const DcShape *shape;
      gboolean owned;
      gunichar c;
      char value[8];

      if (best[s] == NULL || !_dc_lookalikes_has (best[s]) || job->shapes == NULL
          || (shape = dc_shapes_get (job->shapes, s)) == NULL)
        continue;
      /* A reading another glyph owns (ӿ read as х, the х being elsewhere) names the
       * glyph's look-alike group, not its letter: the shape picks among the rest. A split
       * vote names nothing (the apostrophe read as г on a few lines). */
      owned = owner_of (job, symbols, index, best_count, s, best[s]) != G_MAXUINT
              || layout_owns (job, symbols, s, best[s]);
      if (owned && (best_count[s] * 2 <= job->n_read[s] || ascii_stands (&symbols[s])))
        continue;
      c = _dc_lookalikes_decide (lookalikes, best[s], shape,
                                 owned ? owned_elsewhere : held_elsewhere, &r, &why);
      if (c == 0)
        continue;
      value[g_unichar_to_utf8 (c, value)] = '\0';
      if (g_str_equal (value, best[s]))
        {
          shape_agrees[s] = TRUE;
          continue;
        }
      reasons[s] = g_strdup_printf ("; shape: “%s”, %s", value, why);
      g_ptr_array_add (kept, g_strdup (value));
      decided[s] = best[s] = g_ptr_array_index (kept, kept->len - 1);
      /* The reader named the group, the shape its member: two sides agree. */
      shape_agrees[s] = owned;
    }
  /* Two glyphs of different shapes are not one letter: where the shapes named the same
   * one for both, neither is sure, and both keep what was read. */
  for (guint s = 0; s < job->n_symbols; s++)
    for (guint t = 0; decided[s] != NULL && t < job->n_symbols; t++)
      if (t != s && decided[t] != NULL && symbols[s].font == symbols[t].font
          && g_str_equal (decided[s], decided[t]) && shapes_differ (job, s, t))
        clash[s] = TRUE;
  for (guint s = 0; s < job->n_symbols; s++)
    if (clash[s])
      {
        guint count;

        g_clear_pointer (&reasons[s], g_free);
        best[s] = winner (job, s, &count);
        shape_agrees[s] = FALSE;
      }
}

/* Whether another glyph or the legacy layout owns @symbol's reading, and what that makes
 * of it: the glyph's own ASCII letter (proposed at ASCII_CONFIDENCE), or a letter the
 * reader does not know (capped at TAKEN_CONFIDENCE). Updates @value and @confidence;
 * returns the provenance. */
static char *
judge_owned (DcRecognizeJob *job, const DcSymbol *symbols, GHashTable *index, const char **best,
             const guint *best_count, const char *reason, guint s, const char **value,
             double *confidence)
{
  guint owner = owner_of (job, symbols, index, best_count, s, best[s]);
  gboolean by_layout = owner == G_MAXUINT && layout_owns (job, symbols, s, best[s]);

  if (reason == NULL)
    reason = "";
  if ((owner != G_MAXUINT || by_layout) && ascii_stands (&symbols[s]))
    {
      /* A legacy font keeps ASCII: a Latin letter in a Cyrillic text (the G of "Gilyak"),
       * read as the Cyrillic letter another glyph is, is its own code's. */
      *confidence = ASCII_CONFIDENCE;
      *value = ascii_value (&symbols[s]);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, as a glyph of another shape "
                              "is or the layout has elsewhere: the legacy layout's “%c” at its "
                              "code",
                              best[s], best_count[s], job->n_read[s], ascii_of (&symbols[s]));
    }
  if (by_layout)
    {
      *confidence = MIN (*confidence, TAKEN_CONFIDENCE);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, which the legacy layout has "
                              "at another code: a letter the reader may not know%s",
                              best[s], best_count[s], job->n_read[s], reason);
    }
  if (owner != G_MAXUINT)
    {
      *confidence = MIN (*confidence, TAKEN_CONFIDENCE);
      return g_strdup_printf ("ocr: read as “%s” %u of %u times, as a glyph of another shape is "
                              "(code 0x%X): a letter the reader may not know%s",
                              best[s], best_count[s], job->n_read[s], symbols[owner].code, reason);
    }
  return g_strdup_printf ("ocr: read as “%s” %u of %u times%s", best[s], best_count[s],
                          job->n_read[s], reason);
}

/* Per font, the share of its readings made in words Tesseract was sure of (SURE_WORD): a
 * reader that does not know the text's script (Greek, with no Greek data installed)
 * reads its letters as its own nearest ones, unanimously and never sure of a word: Greek
 * read so, 0.001 of its readings were in sure words; Russian 0.994, Nenets (letters
 * Russian lacks) 0.957, Nivkh (many letters Russian lacks, in a serif) 0.497 with its
 * readings right as often as Russian's (bench/recognize-udhr.py). Below MIN_SURE_SHARE,
 * far under a real Cyrillic minority language, its readings are stated at
 * UNREAD_CONFIDENCE: 1 of the 48 such Greek readings was right (issue 28). */
#define MIN_SURE_SHARE 0.2
#define UNREAD_CONFIDENCE 0.05
/* A font with fewer readings than this is not judged so: the few glyphs the other levels
 * left to read are the rare letters and marks of words the reader is least sure of
 * (Evenki in Schoolbook Uralic: 18 readings, 0.389 in sure words, all of them right). */
#define MIN_JUDGED_READINGS 100

static double *
sure_shares (DcRecognizeJob *job, const DcSymbol *symbols)
{
  guint n_fonts = dc_document_get_n_fonts (job->document);
  g_autofree guint *read = g_new0 (guint, MAX (n_fonts, 1));
  double *shares = g_new0 (double, MAX (n_fonts, 1));

  for (guint s = 0; s < job->n_symbols; s++)
    {
      GHashTableIter iter;
      gpointer count;

      if (symbols[s].font >= n_fonts)
        continue;
      read[symbols[s].font] += job->n_read[s];
      if (job->sure[s] == NULL)
        continue;
      g_hash_table_iter_init (&iter, job->sure[s]);
      while (g_hash_table_iter_next (&iter, NULL, &count))
        shares[symbols[s].font] += GPOINTER_TO_UINT (count);
    }
  for (guint f = 0; f < n_fonts; f++)
    {
      shares[f] = read[f] >= MIN_JUDGED_READINGS ? shares[f] / read[f] : 1;
      g_debug ("font %u: %.3f of %u readings in sure words", f, shares[f], read[f]);
    }
  return shares;
}

/**
 * dc_recognize_job_apply:
 *
 * Proposes for each symbol read the value most of its readings agree on, at the shape
 * level (DESIGN §7), as sure as readings that agree that much have been right
 * (calibrated(); counting at least three readings, so that one reading is never sure);
 * at %DC_RECOGNIZE_AUTOMATIC or above it is applied as inferred instead. A value with
 * look-alikes (_dc_lookalikes_has()) is only proposed, and which of them the glyph
 * draws is decided by its shape (resolve_lookalikes()). A value another glyph of the font owns
 * (see owner_of()) is proposed only at TAKEN_CONFIDENCE: a letter the reader does not know, left
 * for the user. Symbols that got a value meanwhile, or hold a stronger proposal, keep it — unless
 * OCR contradicts most of what their font's own tables proposed (fonts_contradicted()). Call it
 * within a change of @key.
 *
 * Returns: how many proposals were made
 */
guint
dc_recognize_job_apply (DcRecognizeJob *job, DcKey *key)
{
  const DcSymbol *symbols;
  g_autofree const char **best = NULL;
  g_autofree guint *best_count = NULL;
  g_autoptr (GHashTable) index = NULL;
  g_autofree guint8 *contradicted = NULL;
  g_autofree guint8 *shape_agrees = NULL;
  g_autofree double *sure_share = NULL;
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
  /* Per symbol, mostly NULL: not a GStrv, which would end at the first NULL. */
  g_autoptr (GPtrArray) reason_list = NULL;
  char **reasons;
  guint n = 0;

  g_return_val_if_fail (job != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key) && dc_key_get_document (key) == job->document, 0);

  symbols = dc_document_get_symbols (job->document, NULL);
  best = g_new0 (const char *, MAX (job->n_symbols, 1));
  best_count = g_new0 (guint, MAX (job->n_symbols, 1));
  reason_list = g_ptr_array_new_full (job->n_symbols, g_free);
  g_ptr_array_set_size (reason_list, job->n_symbols);
  reasons = (char **) reason_list->pdata;
  for (guint s = 0; s < job->n_symbols; s++)
    if (job->votes[s] != NULL)
      best[s] = winner (job, s, &best_count[s]);
  shape_agrees = g_new0 (guint8, MAX (job->n_symbols, 1));
  resolve_lookalikes (job, symbols, best, best_count, kept, reasons, shape_agrees);
  index = index_values (job, symbols, (const char *const *) best);
  contradicted = fonts_contradicted (job, key, symbols, (const char *const *) best, best_count);
  sure_share = sure_shares (job, symbols);

  for (guint s = 0; s < job->n_symbols; s++)
    {
      g_autofree char *provenance = NULL;
      DcKeyStatus status = dc_key_get_status (key, s);
      double confidence;
      const char *value;

      if (best[s] == NULL)
        continue;
      if (status == DC_KEY_PROPOSED && dc_key_get_level (key, s) > DC_KEY_LEVEL_SHAPE
          && dc_key_get_level (key, s) < DC_KEY_LEVEL_LIBRARY && contradicted[symbols[s].font])
        {
          dc_key_forget (key, s);
          status = dc_key_get_status (key, s);
        }
      if (status != DC_KEY_UNKNOWN
          && !(status == DC_KEY_PROPOSED && dc_key_get_level (key, s) <= DC_KEY_LEVEL_SHAPE))
        continue;
      {
        /* One unanimous reading counts as three where the legacy layout gives that
         * character at that code: two sides agree. In a word Tesseract is sure of it
         * counts as two only: Russian OCR is sure of "Эжем" for Kazakh "Әжем". */
        guint sure = job->sure[s] != NULL
                         ? GPOINTER_TO_UINT (g_hash_table_lookup (job->sure[s], best[s]))
                         : 0;
        guint least = best_count[s] != job->n_read[s]      ? 3
                      : at_own_code (&symbols[s], best[s]) ? 1
                      : shape_agrees[s]                    ? 1
                      : sure > 0                           ? 2
                                                           : 3;

        confidence = calibrated (best_count[s] / (double) MAX (job->n_read[s], least));
      }
      value = interpret (job, symbols, (const char *const *) best, s);
      if (_dc_lookalikes_has (best[s]) || _dc_lookalikes_has (value))
        confidence = MIN (confidence, LOOKALIKE_CONFIDENCE);
      provenance = judge_owned (job, symbols, index, best, best_count, reasons[s], s, &value,
                                &confidence);
      if (symbols[s].font < dc_document_get_n_fonts (job->document)
          && sure_share[symbols[s].font] < MIN_SURE_SHARE)
        {
          char *unread = g_strconcat (provenance,
                                      "; the reader was sure of almost no word in this font: "
                                      "a script it does not know",
                                      NULL);

          g_free (provenance);
          provenance = unread;
          confidence = MIN (confidence, UNREAD_CONFIDENCE);
        }
      /* Where readings this sure have been right at least 99 % of the time, the value is
       * applied without the user, as inferred: undone with the rest of the step. */
      if (dc_key_set_full (key, s, value,
                           confidence >= DC_RECOGNIZE_AUTOMATIC ? DC_KEY_INFERRED : DC_KEY_PROPOSED,
                           DC_KEY_LEVEL_SHAPE, confidence, provenance, NULL))
        n++;
    }
  return n;
}
