/* dc-extract.c: reading every page of a PDF, on several threads if asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poppler's objects belong to one thread, so two threads never share a PDFDoc: each
 * extra thread opens its own bridge on the same file and records what it reads of a run
 * of pages (a chunk). The calling thread hands every page to the caller's callbacks in
 * page order, replaying the recordings; it records the next chunk itself when no thread
 * has taken it yet. What the caller sees is what one bridge reading page after page
 * reports: fonts numbered in order of first use, one number per font dictionary
 * whichever bridge met it first (DcBridgeFont's id), glyphs renumbered to match, the
 * same callbacks in the same order with the same values. The loader's symbols, limits
 * and error sentences therefore come out as they do on one thread.
 *
 * A glyph is recorded in the form the document keeps (_dc_glyph_pack()), by the thread
 * that read it: the calling thread, which hands every glyph on and so sets the pace,
 * only copies runs of them (DcExtractCallbacks.glyphs).
 *
 * Chunks are taken in page order from one counter; a thread takes one only within a
 * window of chunks ahead of the calling thread, so that recordings waiting to be replayed
 * hold a few chunks of glyphs, never the book. A glyph's Unicode text is recorded once
 * per font and code: poppler derives it from those two alone.
 *
 * See docs/architecture.md, "Threads".
 */

#define G_LOG_DOMAIN "dc-extract"

#include "config.h"

#include <string.h>

#include "dc-extract-private.h"
#include "dc-glyph-private.h"
#include "dc-memory-private.h"
#include "dc-tsan-private.h"

/* How often a recording thread compares what it holds with the limits. */
#define CHECK_EVERY 4096

typedef enum
{
  MARK_FONT,
  MARK_IMAGE,
  MARK_ACTUAL_TEXT,
  MARK_CODE, /* a font and code met first: before its first glyph */
} MarkKind;

/* A callback other than a glyph, at its place among the chunk's glyphs. */
typedef struct
{
  guint32 at; /* glyphs of the chunk recorded before it */
  guint32 kind;
  guint32 page;
  guint32 arg;      /* MARK_FONT: into the chunk's fonts; MARK_ACTUAL_TEXT: into its texts;
                     * MARK_CODE: into its codes */
  guint32 len;      /* MARK_ACTUAL_TEXT: characters */
  guint32 n_glyphs; /* MARK_ACTUAL_TEXT */
} Mark;

/* A glyph as the document keeps it (_dc_glyph_pack()), its symbol field the number of
 * its font and code among those the extractor met. */
typedef DcGlyph RecordedGlyph;

typedef struct
{
  guint font; /* the extractor's bridge's number */
  guint32 code;
  guint code_len;
  gunichar *unicode;
  int unicode_len;
} RecordedCode;

/* A DcBridgeFont points into poppler's memory: a deep copy. */
typedef struct
{
  DcBridgeFont info;
  char *name;
  char *encoding;
  char *program_kind;
  guint8 *program;
  char **glyph_names; /* 256, NULL-padded */
  int *cid_to_gid;
  int *code_to_gid;
  guint8 *type3_digests;
} RecordedFont;

typedef enum
{
  CHUNK_FREE,
  CHUNK_TAKEN,
  CHUNK_RECORDED,
} ChunkState;

typedef struct _Extractor Extractor;

typedef struct
{
  guint first_page;
  guint end_page;
  ChunkState state;
  Extractor *extractor; /* who recorded it */
  RecordedGlyph *glyphs;
  GArray *marks;      /* of Mark */
  GArray *texts;      /* of gunichar: the /ActualText strings */
  GPtrArray *fonts;   /* of RecordedFont: announced in this chunk */
  GArray *codes;      /* of RecordedCode: first met in this chunk */
  guint *page_glyphs; /* per page: glyphs recorded by its end */
  guint *page_marks;  /* per page: marks recorded by its end */
  guint n_whole;      /* pages read whole */
  GError *error;      /* why the next page stopped (cancelled), or NULL */
  gboolean truncated; /* stopped at the limits on the next page */
  guint64 n_glyphs;   /* under the lock: glyphs recorded, not yet handed on */
  guint n_recorded;   /* glyphs in @glyphs */
  guint glyph_room;   /* glyphs @glyphs has room for */
} Chunk;

/* Room for glyphs, kept from one recording to the next. */
typedef struct
{
  RecordedGlyph *glyphs;
  guint room;
} Room;

typedef struct
{
  DcPdfBridge *bridge; /* the calling thread's: the others read the bytes it read */
  const char *path;
  const char *password;
  const DcExtractLimits *limits;
  const DcExtractCallbacks *callbacks;
  DcExtractPageBegin page_begin;
  DcExtractPageDone page_done;
  gpointer user_data;
  GCancellable *halt; /* cancelled by the caller's @stop, or when the run ends early */

  Chunk *chunks;
  guint n_chunks;
  guint window; /* chunks a thread may take ahead of the one being handed on */

  /* Under the lock. */
  GMutex lock;
  GCond cond;
  guint next_claim;
  guint next_replay;
  guint limit_chunk; /* no chunk after it is needed: it reaches the limits */
  gboolean quit;
  guint64 delivered; /* glyphs handed on with the chunks done */
  /* Glyph arrays of recordings handed on, to be filled again (Room): memory new to the
   * process costs a page fault per 4 KiB on first touch (dc-memory-private.h), a
   * recording a few hundred KiB, and a book's worth of recordings made afresh cost more
   * than the second thread saved. */
  GArray *spare_rooms;
  guint most_per_page; /* the most glyphs a page of a chunk recorded had, on average */

  /* The calling thread's. */
  GHashTable *font_ids; /* (id_num, id_gen) → the caller's font number + 1 */
  guint n_fonts;
} Run;

struct _Extractor
{
  Run *run;
  DcPdfBridge *bridge; /* the caller's for the calling thread, else owned */
  GCancellable *cut;   /* cancelled by halt, or when its chunk reaches the limits */
  gulong halt_id;
  GThread *thread;

  /* The thread reading with the bridge. */
  Chunk *chunk;           /* being recorded */
  guint n_fonts;          /* fonts the bridge announced */
  GPtrArray *code_tables; /* per font: guint32[256] of code + 1, for one-byte codes */
  GHashTable *code_index; /* font, code length and code (code_key()) → code + 1, for others */
  guint32 n_codes;
  guint since_check;

  /* The calling thread, handing on. */
  GArray *font_map; /* the bridge's font number → the caller's */
  GArray *codes;    /* of DcExtractCode, their texts taken over from the chunks replayed */
};

static void
wait_locked (Run *run)
{
  DC_HAND_OVER (&run->lock);
  g_cond_wait (&run->cond, &run->lock);
  DC_TAKE_OVER (&run->lock);
}

static void
free_recorded_font (gpointer data)
{
  RecordedFont *font = data;

  g_free (font->name);
  g_free (font->encoding);
  g_free (font->program_kind);
  g_free (font->program);
  if (font->glyph_names != NULL)
    for (guint i = 0; i < 256; i++)
      g_free (font->glyph_names[i]);
  g_free (font->glyph_names);
  g_free (font->cid_to_gid);
  g_free (font->code_to_gid);
  g_free (font->type3_digests);
  g_free (font);
}

static RecordedFont *
record_font (const DcBridgeFont *info)
{
  RecordedFont *font = g_new0 (RecordedFont, 1);

  font->info = *info;
  font->info.name = font->name = g_strdup (info->name);
  font->info.encoding = font->encoding = g_strdup (info->encoding);
  font->info.program_kind = font->program_kind = g_strdup (info->program_kind);
  if (info->program != NULL)
    font->info.program = font->program = g_memdup2 (info->program, MAX (1, info->program_len));
  if (info->glyph_names != NULL)
    {
      font->glyph_names = g_new0 (char *, 256);
      for (guint i = 0; i < 256; i++)
        font->glyph_names[i] = g_strdup (info->glyph_names[i]);
      font->info.glyph_names = (const char *const *) font->glyph_names;
    }
  if (info->cid_to_gid != NULL)
    font->info.cid_to_gid = font->cid_to_gid = g_memdup2 (info->cid_to_gid,
                                                          MAX (1, info->cid_to_gid_len)
                                                              * sizeof (int));
  if (info->code_to_gid != NULL)
    font->info.code_to_gid = font->code_to_gid = g_memdup2 (info->code_to_gid, 256 * sizeof (int));
  if (info->type3_digests != NULL)
    font->info.type3_digests = font->type3_digests = g_memdup2 (info->type3_digests,
                                                                256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
  return font;
}

static void
clear_recording (Chunk *chunk)
{
  g_clear_pointer (&chunk->glyphs, g_free);
  g_clear_pointer (&chunk->marks, g_array_unref);
  g_clear_pointer (&chunk->texts, g_array_unref);
  g_clear_pointer (&chunk->fonts, g_ptr_array_unref);
  if (chunk->codes != NULL)
    {
      for (guint i = 0; i < chunk->codes->len; i++)
        g_free (g_array_index (chunk->codes, RecordedCode, i).unicode);
      g_clear_pointer (&chunk->codes, g_array_unref);
    }
  g_clear_pointer (&chunk->page_glyphs, g_free);
  g_clear_pointer (&chunk->page_marks, g_free);
  g_clear_error (&chunk->error);
}

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

/* ---- recording, on any thread ---------------------------------------------------------- */

static void
add_mark (Extractor *ex, MarkKind kind, guint page, guint32 arg, guint32 len, guint32 n_glyphs)
{
  Mark mark = { ex->chunk->n_recorded, kind, page, arg, len, n_glyphs };

  g_array_append_val (ex->chunk->marks, mark);
}

static void
record_font_cb (guint font_index, const DcBridgeFont *font, gpointer user_data)
{
  Extractor *ex = user_data;
  Chunk *chunk = ex->chunk;

  if (chunk->truncated)
    return;
  g_assert (font_index == ex->n_fonts);
  ex->n_fonts++;
  g_ptr_array_add (ex->code_tables, NULL);
  add_mark (ex, MARK_FONT, 0, chunk->fonts->len, 0, 0);
  g_ptr_array_add (chunk->fonts, record_font (font));
}

/* The length of a glyph's code as the loader keeps it. */
static guint
code_length (const DcBridgeGlyph *glyph)
{
  return CLAMP (glyph->code_len, 1, 4);
}

static gint64
code_key (const DcBridgeGlyph *glyph)
{
  return ((gint64) glyph->font << 34) | ((gint64) (code_length (glyph) - 1) << 32) | glyph->code;
}

/* The extractor's number for the glyph's font, code and code length, recording its text
 * the first time (with a mark, so that the calling thread hands it on before the
 * glyph). A code of one length and of another may both be met: the loader's symbol
 * takes the length of the first glyph of the document drawn with it, as on one thread. */
static guint32
intern_code (Extractor *ex, const DcBridgeGlyph *glyph)
{
  guint32 *table = NULL;
  gint64 key = 0;
  RecordedCode code;
  gpointer found;

  /* The key is made only for the codes the table does not hold: made for every glyph,
   * it was kept in memory for the lookup's pointer, a sixth of recording a glyph. */
  if (glyph->code < 256 && code_length (glyph) == 1)
    {
      table = g_ptr_array_index (ex->code_tables, glyph->font);
      if (table == NULL)
        table = ex->code_tables->pdata[glyph->font] = g_new0 (guint32, 256);
      if (table[glyph->code] != 0)
        return table[glyph->code] - 1;
    }
  else
    {
      key = code_key (glyph);
      if ((found = g_hash_table_lookup (ex->code_index, &key)) != NULL)
        return GPOINTER_TO_UINT (found) - 1;
    }

  code.font = glyph->font;
  code.code = glyph->code;
  code.code_len = code_length (glyph);
  code.unicode_len = MAX (0, glyph->unicode_len);
  code.unicode = code.unicode_len > 0
                     ? g_memdup2 (glyph->unicode, code.unicode_len * sizeof (gunichar))
                     : NULL;
  add_mark (ex, MARK_CODE, 0, ex->chunk->codes->len, 0, 0);
  g_array_append_val (ex->chunk->codes, code);
  if (table != NULL)
    table[glyph->code] = ex->n_codes + 1;
  else
    g_hash_table_insert (ex->code_index, g_memdup2 (&key, sizeof key),
                         GUINT_TO_POINTER (ex->n_codes + 1));
  return ex->n_codes++;
}

/* Whether the glyphs the caller must have been handed by the end of this chunk's
 * recording so far — those handed on already, those of the chunks before it, this
 * chunk's — go beyond the limits: then the caller stops at one of them, and nothing
 * after is needed. */
static void
check_limits (Extractor *ex)
{
  Run *run = ex->run;
  Chunk *chunk = ex->chunk;
  guint index = (guint) (chunk - run->chunks);
  guint64 bound;

  ex->since_check = 0;
  DC_MUTEX_LOCK (&run->lock);
  chunk->n_glyphs = chunk->n_recorded;
  bound = run->delivered;
  for (guint c = run->next_replay; c <= index; c++)
    bound += run->chunks[c].n_glyphs;
  if (bound > run->limits->max_glyphs || bound * run->limits->glyph_bytes > run->limits->max_bytes)
    {
      chunk->truncated = TRUE;
      run->limit_chunk = MIN (run->limit_chunk, index);
    }
  DC_MUTEX_UNLOCK (&run->lock);
  if (chunk->truncated)
    g_cancellable_cancel (ex->cut);
}

/* Makes room for more glyphs in @chunk's recording: twice as much. */
static void
grow_room (Chunk *chunk)
{
  guint room = MAX (2 * chunk->glyph_room, 4096);

  chunk->glyphs = g_renew (RecordedGlyph, chunk->glyphs, room);
  _dc_memory_populate (chunk->glyphs + chunk->glyph_room,
                       (room - chunk->glyph_room) * sizeof (RecordedGlyph));
  chunk->glyph_room = room;
}

static void
record_glyph_cb (const DcBridgeGlyph *glyph, gpointer user_data)
{
  Extractor *ex = user_data;
  Chunk *chunk = ex->chunk;
  RecordedGlyph *recorded;

  /* The loader drops a glyph whose page does not fit its record: so does the recording. */
  if (chunk->truncated || glyph->page >= DC_GLYPH_MAX_PAGES)
    return;
  /* Stored in room made ahead: g_array_append_val() was a call a glyph. */
  if (G_UNLIKELY (chunk->n_recorded >= chunk->glyph_room))
    grow_room (chunk);
  recorded = &chunk->glyphs[chunk->n_recorded];
  _dc_glyph_pack (recorded, glyph);
  recorded->symbol = intern_code (ex, glyph);
  chunk->n_recorded++;
  if (++ex->since_check >= CHECK_EVERY)
    check_limits (ex);
}

static void
record_image_cb (guint page, gpointer user_data)
{
  Extractor *ex = user_data;

  if (!ex->chunk->truncated)
    add_mark (ex, MARK_IMAGE, page, 0, 0, 0);
}

static void
record_actual_text_cb (guint page, const gunichar *text, int text_len, guint n_glyphs,
                       gpointer user_data)
{
  Extractor *ex = user_data;
  Chunk *chunk = ex->chunk;

  if (chunk->truncated)
    return;
  text_len = MAX (0, text_len);
  add_mark (ex, MARK_ACTUAL_TEXT, page, chunk->texts->len, (guint32) text_len, n_glyphs);
  g_array_append_vals (chunk->texts, text, (guint) text_len);
}

/* Records @chunk into @room (taken over), which has room for @expected glyphs: as many
 * as the chunks before had, or none. */
static void
record_chunk (Extractor *ex, Chunk *chunk, Room *room, guint expected)
{
  const DcBridgeCallbacks callbacks = { record_font_cb, record_glyph_cb, record_image_cb,
                                        record_actual_text_cb };
  guint n_pages = chunk->end_page - chunk->first_page;

  chunk->glyphs = room->glyphs;
  chunk->glyph_room = room->room;
  if (chunk->glyph_room < expected)
    {
      /* As much room as the chunks before show is needed, faulted in at once. */
      g_free (chunk->glyphs);
      chunk->glyphs = g_new (RecordedGlyph, expected);
      _dc_memory_populate (chunk->glyphs, expected * sizeof (RecordedGlyph));
      chunk->glyph_room = expected;
    }
  chunk->n_recorded = 0;
  chunk->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  chunk->texts = g_array_new (FALSE, FALSE, sizeof (gunichar));
  chunk->fonts = g_ptr_array_new_with_free_func (free_recorded_font);
  chunk->codes = g_array_new (FALSE, FALSE, sizeof (RecordedCode));
  chunk->page_glyphs = g_new0 (guint, n_pages);
  chunk->page_marks = g_new0 (guint, n_pages);
  chunk->extractor = ex;
  ex->chunk = chunk;

  for (guint page = chunk->first_page; page < chunk->end_page; page++)
    {
      g_autoptr (GError) error = NULL;
      gboolean read;

      read = dc_pdf_bridge_extract_page (ex->bridge, page, &callbacks, ex, ex->cut, &error);
      chunk->page_glyphs[chunk->n_whole] = chunk->n_recorded;
      chunk->page_marks[chunk->n_whole] = chunk->marks->len;
      if (chunk->truncated)
        break;
      if (!read)
        {
          chunk->error = g_steal_pointer (&error);
          break;
        }
      chunk->n_whole++;
    }
  ex->chunk = NULL;
}

/* Takes the next chunk for @ex when the window allows; with the lock held. */
static Chunk *
claim_chunk (Run *run)
{
  Chunk *chunk;

  if (run->quit || run->next_claim >= run->n_chunks || run->next_claim > run->limit_chunk
      || run->next_claim >= run->next_replay + run->window)
    return NULL;
  chunk = &run->chunks[run->next_claim++];
  chunk->state = CHUNK_TAKEN;
  return chunk;
}

/* Records @chunk, then gives it to the calling thread; with the lock held, which it
 * drops while reading. */
static void
record_locked (Run *run, Extractor *ex, Chunk *chunk)
{
  Room room = { NULL, 0 };
  guint expected;

  if (run->spare_rooms->len > 0)
    {
      room = g_array_index (run->spare_rooms, Room, run->spare_rooms->len - 1);
      g_array_set_size (run->spare_rooms, run->spare_rooms->len - 1);
    }
  /* A tenth more than the most a chunk's pages had on average: a recording that grows
   * is copied. */
  expected = (guint) MIN ((guint64) run->most_per_page * (chunk->end_page - chunk->first_page) * 11
                              / 10,
                          G_MAXUINT / 2 / sizeof (RecordedGlyph));
  DC_MUTEX_UNLOCK (&run->lock);
  record_chunk (ex, chunk, &room, expected);
  DC_MUTEX_LOCK (&run->lock);
  chunk->state = CHUNK_RECORDED;
  chunk->n_glyphs = chunk->n_recorded;
  if (chunk->n_whole > 0)
    run->most_per_page = MAX (run->most_per_page,
                              chunk->page_glyphs[chunk->n_whole - 1] / chunk->n_whole);
  g_cond_broadcast (&run->cond);
}

static gpointer
extractor_thread (gpointer data)
{
  Extractor *ex = data;
  Run *run = ex->run;
  gboolean stopped = FALSE;

  DC_TAKE_OVER (ex);
  /* The calling thread opened the file with the same password a moment ago; if this
   * copy cannot be opened, the others read its share. */
  ex->bridge = dc_pdf_bridge_open_again (run->bridge, run->path, run->password, NULL);

  DC_MUTEX_LOCK (&run->lock);
  while (ex->bridge != NULL && !stopped)
    {
      Chunk *chunk = claim_chunk (run);

      if (chunk != NULL)
        {
          record_locked (run, ex, chunk);
          stopped = chunk->truncated || chunk->error != NULL;
        }
      else if (run->quit || run->next_claim >= run->n_chunks || run->next_claim > run->limit_chunk)
        stopped = TRUE;
      else
        wait_locked (run);
    }
  DC_MUTEX_UNLOCK (&run->lock);

  g_clear_pointer (&ex->bridge, dc_pdf_bridge_free);
  DC_HAND_OVER (ex);
  return NULL;
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
  ex->code_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
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

/* Hands every page on in order: a recording replayed when it is ready, the next chunk
 * recorded here when nobody took it, and meanwhile a chunk further on recorded here too,
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
          g_assert (run->next_claim == run->next_replay);
          run->next_claim++;
          chunk->state = CHUNK_TAKEN;
          record_locked (run, self, chunk);
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
          clear_recording (chunk);
          DC_MUTEX_LOCK (&run->lock);
        }
      else if ((ahead = claim_chunk (run)) != NULL)
        record_locked (run, self, ahead);
      else
        wait_locked (run);
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
      const DcBridgeCallbacks bridge_callbacks = { callbacks->font, callbacks->glyph,
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
  run.font_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
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
      extractors[t].thread = g_thread_try_new ("dc-extract", extractor_thread, &extractors[t],
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
    clear_recording (&run.chunks[c]);
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
