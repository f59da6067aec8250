/* dc-extract.c: reading every page of a PDF, on several threads if asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler's objects belong to one thread, so two threads never share a PDFDoc: each
 * extra thread opens its own bridge on the same file and records what it reads of a run
 * of pages (a chunk). The calling thread hands every page to the caller's callbacks in
 * page order, replaying the recordings; the next chunk, when no thread has taken it yet,
 * it reads itself straight to the caller, as one thread does. What the caller sees is
 * what one bridge reading page after page reports: fonts numbered in order of first
 * use, one number per font dictionary whichever bridge met it first (DcBridgeFont's id),
 * glyphs renumbered to match, the same callbacks in the same order with the same values.
 * The loader's symbols, limits and error sentences therefore come out as they do on one
 * thread.
 *
 * A glyph is recorded in the form the document keeps (_dc_glyph_pack_inline()), by the
 * thread that read it: the calling thread, which hands every glyph on and so sets the
 * pace, only copies runs of them (DcExtractCallbacks.glyphs).
 *
 * The other threads take chunks from the far end of a window of chunks ahead of the one
 * being handed on, each thread its own in page order (the fonts and codes it numbers are
 * handed on in that order), leaving the next ones to the calling thread: a recording's
 * copy into the document is then paid for about half the pages. A thread takes one only
 * within that window, so that recordings waiting to be replayed hold a few chunks of
 * glyphs, never the book. A glyph's Unicode text is recorded once per font and code:
 * poppler derives it from those two alone.
 *
 * See docs/architecture.md, "Threads".
 */

#define G_LOG_DOMAIN "dc-extract"

#include "config.h"

#include "dc-hash-private.h"
#include "dc-extract-run-private.h"
#include "dc-tsan-private.h"

/* ---- the caller's font numbers -------------------------------------------------------- */

/* The caller's number for the extractor's next font, announcing it to the caller when
 * no bridge met it before. On the calling thread, in page order. */
static guint
map_font (Run *run, Extractor *ex, const DcBridgeFont *info)
{
  guint index;

  if (info->has_id)
    {
      gint64 key = ((gint64) info->id_num << 32) | (guint32) info->id_gen;
      gpointer found = g_hash_table_lookup (run->font_ids, &key);

      if (found != NULL)
        index = GPOINTER_TO_UINT (found) - 1;
      else
        {
          index = run->n_fonts++;
          g_hash_table_insert (run->font_ids, g_memdup2 (&key, sizeof key),
                               GUINT_TO_POINTER (index + 1));
          run->callbacks->font (index, info, run->user_data);
        }
    }
  else
    {
      index = run->n_fonts++;
      run->callbacks->font (index, info, run->user_data);
    }
  g_array_append_val (ex->font_map, index);
  return index;
}

/* ---- handing recordings on, on the calling thread -------------------------------------- */

static void
replay_mark (Run *run, Extractor *ex, Chunk *chunk, const Mark *mark)
{
  const DcExtractCallbacks *callbacks = run->callbacks;

  switch ((MarkKind) mark->kind)
    {
    case MARK_FONT:
      g_assert (mark->arg < chunk->fonts->len);
      map_font (run, ex, &((RecordedFont *) g_ptr_array_index (chunk->fonts, mark->arg))->info);
      break;
    case MARK_IMAGE:
      if (callbacks->image != NULL)
        callbacks->image (mark->page, run->user_data);
      break;
    case MARK_ACTUAL_TEXT:
      if (callbacks->actual_text != NULL)
        callbacks->actual_text (mark->page, &g_array_index (chunk->texts, gunichar, mark->arg),
                                (int) mark->len, mark->n_glyphs, run->user_data);
      break;
    case MARK_CODE:
      {
        RecordedCode *recorded = &g_array_index (chunk->codes, RecordedCode, mark->arg);
        DcExtractCode code = { 0 };

        /* Its font was announced before: this bridge met it first. */
        code.font = g_array_index (ex->font_map, guint, recorded->font);
        code.code = recorded->code;
        code.code_len = recorded->code_len;
        code.unicode = g_steal_pointer (&recorded->unicode);
        code.unicode_len = recorded->unicode_len;
        g_array_append_val (ex->codes, code);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Hands the glyphs [@from, @to) of @chunk on. */
static void
replay_glyphs (Run *run, Extractor *ex, Chunk *chunk, guint from, guint to)
{
  if (to > from)
    run->callbacks->glyphs (&chunk->glyphs[from], to - from,
                            (DcExtractCode *) (void *) ex->codes->data, run->user_data);
}

static gboolean
replay_chunk (Run *run, Chunk *chunk, GError **error)
{
  Extractor *ex = chunk->extractor;
  const Mark *marks = (const Mark *) (void *) chunk->marks->data;
  guint n_pages = chunk->end_page - chunk->first_page;
  guint g = 0, m = 0;

  for (guint i = 0; i <= chunk->n_whole && i < n_pages; i++)
    {
      guint page = chunk->first_page + i;

      run->page_begin (page, run->user_data);
      /* The glyphs between two marks go on in one run. */
      while (m < chunk->page_marks[i])
        {
          guint at = MIN (marks[m].at, chunk->page_glyphs[i]);

          replay_glyphs (run, ex, chunk, g, MAX (g, at));
          g = MAX (g, at);
          replay_mark (run, ex, chunk, &marks[m++]);
        }
      replay_glyphs (run, ex, chunk, g, chunk->page_glyphs[i]);
      g = MAX (g, chunk->page_glyphs[i]);

      /* As the bridge does at the end of a page it reads: a cancel that came since
       * stops here, however far the other threads read. */
      if (i < chunk->n_whole && g_cancellable_set_error_if_cancelled (run->halt, error))
        return FALSE;
      if (i == chunk->n_whole)
        {
          /* The page stopped: cancelled, or at the limits, where the caller has
           * stopped by now (its own error says why). */
          if (chunk->error != NULL)
            g_propagate_error (error, g_steal_pointer (&chunk->error));
          else
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "stopped at the limits");
          return FALSE;
        }
      if (!run->page_done (page, run->user_data))
        return FALSE;
    }
  return TRUE;
}

/* ---- the run -------------------------------------------------------------------------- */

static void
cancel_halt (GCancellable *cancellable, gpointer halt)
{
  g_cancellable_cancel (halt);
}

static void
cancel_cut (GCancellable *cancellable, gpointer cut)
{
  g_cancellable_cancel (cut);
}

static void
extractor_init (Extractor *ex, Run *run)
{
  ex->run = run;
  ex->cut = g_cancellable_new ();
  ex->halt_id = g_cancellable_connect (run->halt, G_CALLBACK (cancel_cut), ex->cut, NULL);
  ex->code_tables = g_ptr_array_new_with_free_func (g_free);
  ex->code_index = g_hash_table_new_full (_dc_hash_u64, g_int64_equal, g_free, NULL);
  ex->font_map = g_array_new (FALSE, FALSE, sizeof (guint));
  ex->codes = g_array_new (FALSE, FALSE, sizeof (DcExtractCode));
}

static void
extractor_clear (Extractor *ex)
{
  g_cancellable_disconnect (ex->run->halt, ex->halt_id);
  g_clear_object (&ex->cut);
  g_clear_pointer (&ex->code_tables, g_ptr_array_unref);
  g_clear_pointer (&ex->code_index, g_hash_table_unref);
  g_clear_pointer (&ex->font_map, g_array_unref);
  for (guint i = 0; i < ex->codes->len; i++)
    g_free ((gunichar *) g_array_index (ex->codes, DcExtractCode, i).unicode);
  g_clear_pointer (&ex->codes, g_array_unref);
}

/* ---- reading the chunk to be handed on next, on the calling thread --------------------- */

/* What the calling thread reads with its own bridge straight to the caller: the
 * bridge's font numbers are the extractor's, mapped to the caller's as a recording's are
 * when it is replayed (map_font()). */
typedef struct
{
  Run *run;
  Extractor *ex;
  Chunk *chunk;
  guint64 n_glyphs; /* as a recording would have counted them (record_run_cb()) */
  guint since_check;
} Direct;

/* How often the glyphs read are told to the threads recording (every few thousand, as
 * they check theirs): what the caller must have been given bounds what they record. */
#define TELL_EVERY 4096

static void
direct_font_cb (guint font_index, const DcBridgeFont *font, gpointer user_data)
{
  Direct *direct = user_data;
  Extractor *ex = direct->ex;

  g_assert (font_index == ex->n_fonts);
  ex->n_fonts++;
  g_ptr_array_add (ex->code_tables, NULL);
  map_font (direct->run, ex, font);
}

static void
direct_run_cb (const DcBridgeRun *run, gpointer user_data)
{
  Direct *direct = user_data;
  DcBridgeRun mapped = *run;

  if (run->page < DC_GLYPH_MAX_PAGES)
    {
      direct->n_glyphs += run->n_glyphs;
      direct->since_check += run->n_glyphs;
      if (direct->since_check >= TELL_EVERY)
        {
          direct->since_check = 0;
          DC_MUTEX_LOCK (&direct->run->lock);
          direct->chunk->n_glyphs = direct->n_glyphs;
          DC_MUTEX_UNLOCK (&direct->run->lock);
        }
    }
  mapped.font = g_array_index (direct->ex->font_map, guint, run->font);
  direct->run->callbacks->run (&mapped, direct->run->user_data);
}

static void
direct_image_cb (guint page, gpointer user_data)
{
  Direct *direct = user_data;

  if (direct->run->callbacks->image != NULL)
    direct->run->callbacks->image (page, direct->run->user_data);
}

static void
direct_actual_text_cb (guint page, const gunichar *text, int text_len, guint n_glyphs,
                       gpointer user_data)
{
  Direct *direct = user_data;

  if (direct->run->callbacks->actual_text != NULL)
    direct->run->callbacks->actual_text (page, text, text_len, n_glyphs, direct->run->user_data);
}

/* Reads @chunk, the next to be handed on, handing each page on as it is read, as one
 * thread reading page after page does: no recording, and no copy of the glyphs. Every
 * chunk before it was handed on, so every font this bridge announced has the caller's
 * number. Adds to @n_glyphs what the chunk's recording would have held; meanwhile the
 * chunk's count tells the recording threads, as a recording's does (check_limits()). */
static gboolean
read_chunk (Run *run, Extractor *ex, Chunk *chunk, guint64 *n_glyphs, GError **error)
{
  const DcBridgeCallbacks callbacks = { direct_font_cb, direct_run_cb, direct_image_cb,
                                        direct_actual_text_cb };
  Direct direct = { run, ex, chunk, 0, 0 };
  gboolean ok = TRUE;

  g_assert (ex->font_map->len == ex->n_fonts);
  for (guint page = chunk->first_page; ok && page < chunk->end_page; page++)
    {
      run->page_begin (page, run->user_data);
      ok = dc_pdf_bridge_extract_page (ex->bridge, page, &callbacks, &direct, run->halt, error)
           && run->page_done (page, run->user_data);
    }
  *n_glyphs += direct.n_glyphs;
  return ok;
}

/* Hands every page on in order: the next chunk read here when nobody took it, a
 * recording replayed when it is ready, and meanwhile a chunk further on recorded here,
 * so that this thread never waits while there is work. */
static gboolean
hand_on (Run *run, Extractor *self, GError **error)
{
  gboolean ok = TRUE;

  DC_MUTEX_LOCK (&run->lock);
  while (ok && run->next_replay < run->n_chunks)
    {
      Chunk *chunk = &run->chunks[run->next_replay];
      Chunk *ahead;

      if (chunk->state == CHUNK_FREE)
        {
          guint64 n_glyphs = 0;

          chunk->state = CHUNK_TAKEN;
          self->from_chunk = MAX (self->from_chunk, run->next_replay + 1);
          DC_MUTEX_UNLOCK (&run->lock);
          ok = read_chunk (run, self, chunk, &n_glyphs, error);
          DC_MUTEX_LOCK (&run->lock);
          chunk->state = CHUNK_RECORDED;
          chunk->n_glyphs = 0;
          run->delivered += n_glyphs;
          run->next_replay++;
          g_cond_broadcast (&run->cond);
        }
      else if (chunk->state == CHUNK_RECORDED)
        {
          Room room;

          DC_MUTEX_UNLOCK (&run->lock);
          ok = replay_chunk (run, chunk, error);
          DC_MUTEX_LOCK (&run->lock);
          run->delivered += chunk->n_glyphs;
          chunk->n_glyphs = 0;
          run->next_replay++;
          room.glyphs = g_steal_pointer (&chunk->glyphs);
          room.room = chunk->glyph_room;
          g_array_append_val (run->spare_rooms, room);
          g_cond_broadcast (&run->cond);
          DC_MUTEX_UNLOCK (&run->lock);
          _dc_extract_clear_recording (chunk);
          DC_MUTEX_LOCK (&run->lock);
        }
      else if ((ahead = _dc_extract_claim_chunk (run, self, FALSE)) != NULL)
        _dc_extract_record_locked (run, self, ahead);
      else
        _dc_extract_wait_locked (run);
    }
  run->quit = TRUE;
  g_cond_broadcast (&run->cond);
  DC_MUTEX_UNLOCK (&run->lock);
  return ok;
}

static int
pages_per_chunk (guint n_pages, guint n_threads)
{
  /* Small enough that the threads finish together and a recording waiting to be handed
   * on is small; large enough that taking one costs nothing. */
  return (int) CLAMP (n_pages / (n_threads * 8), 1, 8);
}

/**
 * _dc_extract_pages:
 * @bridge: the caller's bridge on @path, for the calling thread
 * @n_threads: how many threads read, the calling one included; 1 reads page after page
 *   with @bridge alone
 * @callbacks: what one bridge reading page after page would be given, in the same
 *   order, on the calling thread
 * @stop: cancels the reading
 *
 * Returns: %FALSE when @page_done asked to stop (@error not set), or when a page could
 *   not be read (@error set: cancelled)
 */
gboolean
_dc_extract_pages (DcPdfBridge *bridge, const char *path, const char *password, guint n_threads,
                   const DcExtractLimits *limits, const DcExtractCallbacks *callbacks,
                   DcExtractPageBegin page_begin, DcExtractPageDone page_done, gpointer user_data,
                   GCancellable *stop, GError **error)
{
  guint n_pages = dc_pdf_bridge_get_n_pages (bridge);
  g_autofree Extractor *extractors = NULL;
  g_autoptr (GCancellable) halt = NULL;
  gulong stop_id = 0;
  guint per_chunk;
  gboolean ok;
  Run run = { 0 };

  g_return_val_if_fail (limits != NULL, FALSE);

  if (n_threads <= 1 || n_pages < 2)
    {
      const DcBridgeCallbacks bridge_callbacks = { callbacks->font, callbacks->run,
                                                   callbacks->image, callbacks->actual_text };

      for (guint page = 0; page < n_pages; page++)
        {
          page_begin (page, user_data);
          if (!dc_pdf_bridge_extract_page (bridge, page, &bridge_callbacks, user_data, stop, error)
              || !page_done (page, user_data))
            return FALSE;
        }
      return TRUE;
    }

  n_threads = MIN (n_threads, n_pages);
  per_chunk = (guint) pages_per_chunk (n_pages, n_threads);
  run.bridge = bridge;
  run.path = path;
  run.password = password;
  run.limits = limits;
  run.callbacks = callbacks;
  run.page_begin = page_begin;
  run.page_done = page_done;
  run.user_data = user_data;
  run.halt = halt = g_cancellable_new ();
  run.n_chunks = (n_pages + per_chunk - 1) / per_chunk;
  run.chunks = g_new0 (Chunk, run.n_chunks);
  run.window = 2 * n_threads;
  run.limit_chunk = G_MAXUINT;
  run.font_ids = g_hash_table_new_full (_dc_hash_u64, g_int64_equal, g_free, NULL);
  run.spare_rooms = g_array_new (FALSE, FALSE, sizeof (Room));
  g_mutex_init (&run.lock);
  g_cond_init (&run.cond);
  for (guint c = 0; c < run.n_chunks; c++)
    {
      run.chunks[c].first_page = c * per_chunk;
      run.chunks[c].end_page = MIN (n_pages, (c + 1) * per_chunk);
    }
  if (stop != NULL)
    stop_id = g_cancellable_connect (stop, G_CALLBACK (cancel_halt), halt, NULL);

  extractors = g_new0 (Extractor, n_threads);
  for (guint t = 0; t < n_threads; t++)
    extractor_init (&extractors[t], &run);
  extractors[0].bridge = bridge;
  for (guint t = 1; t < n_threads; t++)
    {
      DC_HAND_OVER (&extractors[t]);
      extractors[t].thread = g_thread_try_new ("dc-extract", _dc_extract_thread, &extractors[t],
                                               NULL);
    }

  ok = hand_on (&run, &extractors[0], error);

  /* Stopped early: the others are told to stop reading at once. */
  if (!ok)
    g_cancellable_cancel (halt);
  for (guint t = 1; t < n_threads; t++)
    if (extractors[t].thread != NULL)
      {
        g_thread_join (g_steal_pointer (&extractors[t].thread));
        DC_TAKE_OVER (&extractors[t]);
      }
  extractors[0].bridge = NULL;
  for (guint t = 0; t < n_threads; t++)
    extractor_clear (&extractors[t]);
  for (guint c = 0; c < run.n_chunks; c++)
    _dc_extract_clear_recording (&run.chunks[c]);
  if (stop != NULL)
    g_cancellable_disconnect (stop, stop_id);
  g_free (run.chunks);
  g_hash_table_unref (run.font_ids);
  for (guint i = 0; i < run.spare_rooms->len; i++)
    g_free (g_array_index (run.spare_rooms, Room, i).glyphs);
  g_array_unref (run.spare_rooms);
  g_mutex_clear (&run.lock);
  g_cond_clear (&run.cond);
  return ok;
}
