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
 * opens its own document per worker, never sharing one between threads).
 *
 * This file owns the job and the reading: which lines to read, which Tesseract languages,
 * drawing each line (with dc-line-render.c, a module) and reading it, on as many threads
 * as the machine has. The reading's
 * fit with the glyphs and its votes are dc-recognize-vote.c; weighing the votes into
 * values, dc-recognize-apply.c.
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "dc-error.h"
#include "dc-fingerprint.h"
#include "dc-library.h"
#include "dc-line-render-private.h"
#include "dc-poppler-lock.h"
#include "dc-recognize-private.h"
#include "dc-tesseract-private.h"
#include "dc-tsan-private.h"

/* Pixels per em of the rendered text: Tesseract reads 30 px capitals best. */
#define TARGET_EM 48.0
#define PAD 12        /* white pixels around a line */
#define MAX_LINES 400 /* a book's worth; more lines add little once each symbol is covered */

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
render_line (DcLineRenderPdf *pdf, DcRecognizeJob *job, const DcLine *line, int *width, int *height,
             double *scale_out)
{
  const DcLineRender *render = _dc_line_render_get (NULL); /* loaded by open_pdf() */
  double size = line_font_size (job, line);
  double scale = CLAMP (TARGET_EM / size, 0.5, 12.0);
  double x0 = line->x0 - 0.3 * size, x1 = line->x1 + 0.3 * size;
  double y0 = line->y0 - 0.1 * size, y1 = line->y1 + 0.1 * size;

  *width = (int) ceil ((x1 - x0) * scale) + 2 * PAD;
  *height = (int) ceil ((y1 - y0) * scale) + 2 * PAD;
  if (*width <= 2 * PAD || *height <= 2 * PAD || *width > 20000 || *height > 2000)
    return NULL;
  *scale_out = scale;
  return render->draw (pdf, line->page, x0, y0, x1, y1, scale, *width, *height, PAD);
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

/* A document this job draws with, one per thread. */
typedef DcLineRenderPdf DrawingPdf;

static void
drawing_pdf_free (DrawingPdf *pdf)
{
  _dc_line_render_get (NULL)->close (pdf); /* only made by open_pdf() */
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DrawingPdf, drawing_pdf_free)

static DrawingPdf *
open_pdf (DcRecognizeJob *job, GError **error)
{
  const DcLineRender *render = _dc_line_render_get (error);

  if (render == NULL)
    return NULL;
  return render->open (job->path, job->password, dc_poppler_lock, dc_poppler_unlock, error);
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

          _dc_recognize_vote_line (job, line, words, (const float *) (gpointer) confidences->data);
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
