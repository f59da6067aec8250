/* dc-extract-record.c: recording chunks of pages, on any thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thread reading with its own bridge keeps what the bridge reports of a chunk of pages
 * (glyphs packed as the document keeps them, deep copies of the fonts, marks for the
 * rest) for the calling thread to hand on in page order (dc-extract.c).
 */

#define G_LOG_DOMAIN "dc-extract"

#include "config.h"

#include <string.h>

#include "dc-extract-run-private.h"
#include "dc-glyph-pack-private.h"
#include "dc-memory-private.h"
#include "dc-tsan-private.h"

/* How often a recording thread compares what it holds with the limits. */
#define CHECK_EVERY 4096

void
_dc_extract_wait_locked (Run *run)
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
  g_free (font->glyph_names);
  g_free (font->cid_to_gid);
  g_free (font->code_to_gid);
  g_free (font->type3_digests);
  g_free (font);
}

/* A simple font's 256 glyph names (NULL where none) in one block, the pointers first and
 * the strings after them: a copy a name, and its free, were two allocator calls a name. */
static char **
copy_names (const char *const *names)
{
  gsize lengths[256], total = 256 * sizeof (char *);
  char **copy;
  char *at;

  for (guint i = 0; i < 256; i++)
    total += lengths[i] = names[i] != NULL ? strlen (names[i]) + 1 : 0;
  copy = g_malloc (total);
  at = (char *) (copy + 256);
  for (guint i = 0; i < 256; i++)
    {
      copy[i] = names[i] != NULL ? memcpy (at, names[i], lengths[i]) : NULL;
      at += lengths[i];
    }
  return copy;
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
      font->glyph_names = copy_names (info->glyph_names);
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

void
_dc_extract_clear_recording (Chunk *chunk)
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
code_key (guint font, const DcBridgeGlyph *glyph)
{
  return ((gint64) font << 34) | ((gint64) (code_length (glyph) - 1) << 32) | glyph->code;
}

/* The extractor's number for the code and code length of @glyph in @run's font when it
 * is not a one-byte code its font's @table holds (intern_code()), recording its text the
 * first time (with a mark, so that the calling thread hands it on before the glyph, the
 * chunk's glyph @n_recorded). A code of one length and of another may both be met: the
 * loader's symbol takes the length of the first glyph of the document drawn with it, as
 * on one thread. */
G_NO_INLINE static guint32
record_code (Extractor *ex, const DcBridgeRun *run, guint32 *table, const DcBridgeGlyph *glyph,
             guint n_recorded)
{
  gboolean in_table = glyph->code < 256 && code_length (glyph) == 1;
  gint64 key = 0;
  RecordedCode code;
  gpointer found;

  /* The key is made only for the codes the table does not hold: made for every glyph,
   * it was kept in memory for the lookup's pointer, a sixth of recording a glyph. */
  if (!in_table)
    {
      key = code_key (run->font, glyph);
      if ((found = g_hash_table_lookup (ex->code_index, &key)) != NULL)
        return GPOINTER_TO_UINT (found) - 1;
    }

  code.font = run->font;
  code.code = glyph->code;
  code.code_len = code_length (glyph);
  code.unicode_len = glyph->unicode_len;
  code.unicode = code.unicode_len > 0 ? g_memdup2 (run->text + glyph->unicode_at,
                                                   code.unicode_len * sizeof (gunichar))
                                      : NULL;
  ex->chunk->n_recorded = n_recorded;
  add_mark (ex, MARK_CODE, 0, ex->chunk->codes->len, 0, 0);
  g_array_append_val (ex->chunk->codes, code);
  if (in_table)
    table[glyph->code] = ex->n_codes + 1;
  else
    g_hash_table_insert (ex->code_index, g_memdup2 (&key, sizeof key),
                         GUINT_TO_POINTER (ex->n_codes + 1));
  return ex->n_codes++;
}

/* record_code() for a one-byte code met before, told here from its font's @table. */
static inline guint32
intern_code (Extractor *ex, const DcBridgeRun *run, guint32 *table, const DcBridgeGlyph *glyph,
             guint n_recorded)
{
  if (glyph->code < 256 && glyph->code_len <= 1 && table[glyph->code] != 0)
    return table[glyph->code] - 1;
  return record_code (ex, run, table, glyph, n_recorded);
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
  RecordedGlyph *grown = g_new (RecordedGlyph, room);

  /* Not g_renew(): realloc() copied into memory new to the process, faulting it in a
   * page at a time, a twelfth of the page faults of loading a book. */
  _dc_memory_populate (grown, room * sizeof (RecordedGlyph));
  if (chunk->n_recorded > 0)
    memcpy (grown, chunk->glyphs, chunk->n_recorded * sizeof (RecordedGlyph));
  g_free (chunk->glyphs);
  chunk->glyphs = grown;
  chunk->glyph_room = room;
}

/* The glyphs of @run packed into @recorded, the chunk's glyph @first on, with the numbers
 * of their codes. @fast is @packer's, a constant where inlined: the loop for a run along
 * a baseline of rotation 0 does not test it at each glyph. */
G_ALWAYS_INLINE static inline void
record_glyphs (Extractor *ex, DcGlyphPacker *packer, gboolean fast, const DcBridgeRun *run,
               guint32 *table, RecordedGlyph *recorded, guint first)
{
  /* In locals: the stores of the glyphs might change the run, for all the compiler knows,
   * which read both again at every glyph. */
  const DcBridgeGlyph *glyphs = run->glyphs;
  const guint n_glyphs = run->n_glyphs;

  for (guint i = 0; i < n_glyphs; i++)
    {
      _dc_glyph_packer_pack (packer, fast, &recorded[i], &glyphs[i]);
      recorded[i].symbol = intern_code (ex, run, table, &glyphs[i], first + i);
    }
}

static void
record_run_cb (const DcBridgeRun *run, gpointer user_data)
{
  Extractor *ex = user_data;
  Chunk *chunk = ex->chunk;
  RecordedGlyph *recorded;
  DcGlyphPacker packer;
  guint first;
  guint32 *table;

  /* The loader drops a glyph whose page does not fit its record: so does the recording. */
  if (chunk->truncated || run->page >= DC_GLYPH_MAX_PAGES)
    return;
  /* Stored in room made ahead: g_array_append_val() was a call a glyph. */
  while (G_UNLIKELY (chunk->n_recorded + run->n_glyphs > chunk->glyph_room))
    grow_room (chunk);
  table = g_ptr_array_index (ex->code_tables, run->font);
  if (table == NULL)
    table = ex->code_tables->pdata[run->font] = g_new0 (guint32, 256);
  _dc_glyph_packer_init (&packer, run);
  first = chunk->n_recorded;
  recorded = &chunk->glyphs[first];
  if (packer.fast)
    record_glyphs (ex, &packer, TRUE, run, table, recorded, first);
  else
    record_glyphs (ex, &packer, FALSE, run, table, recorded, first);
  chunk->n_recorded = first + run->n_glyphs;
  /* A run holds a few hundred glyphs at most: the limits are still looked at every few
   * thousand. */
  ex->since_check += run->n_glyphs;
  if (ex->since_check >= CHECK_EVERY)
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
  const DcBridgeCallbacks callbacks = { record_font_cb, record_run_cb, record_image_cb,
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

/* Where the chunks no thread needs begin: after the chunk reaching the limits, if one
 * does; with the lock held. */
static guint
needed_end (Run *run)
{
  return run->limit_chunk != G_MAXUINT ? MIN (run->n_chunks, run->limit_chunk + 1) : run->n_chunks;
}

/* The first chunk free for @ex before @end, after the one to be handed on next and after
 * those @ex took, or the last such one (@last); NULL when there is none. With the lock
 * held. */
static Chunk *
find_free (Run *run, Extractor *ex, guint end, gboolean last)
{
  Chunk *chunk = NULL;

  for (guint c = MAX (run->next_replay + 1, ex->from_chunk); c < end; c++)
    if (run->chunks[c].state == CHUNK_FREE)
      {
        chunk = &run->chunks[c];
        if (!last)
          break;
      }
  return chunk;
}

/* Takes a chunk for @ex to record, after the one to be handed on next and after those @ex
 * took, within the window: the first free one, or the @last. The chunk to be handed on
 * next is left to the calling thread, which reads it as one thread would, handing it on
 * as it reads (dc-extract.c): what a recording costs beyond that, its copy into the
 * document, is then paid for half the pages only. The other threads take from the
 * window's far end, so that the calling thread, done with a chunk and the recordings
 * after it, finds the next one still free as often as not. With the lock held. */
Chunk *
_dc_extract_claim_chunk (Run *run, Extractor *ex, gboolean last)
{
  Chunk *chunk;

  if (run->quit)
    return NULL;
  chunk = find_free (run, ex, MIN (needed_end (run), run->next_replay + run->window), last);
  if (chunk != NULL)
    {
      chunk->state = CHUNK_TAKEN;
      ex->from_chunk = (guint) (chunk - run->chunks) + 1;
    }
  return chunk;
}

/* Whether a chunk is still there for @ex to take (_dc_extract_claim_chunk()), now or once
 * the window moves on; with the lock held. */
gboolean
_dc_extract_any_free_locked (Run *run, Extractor *ex)
{
  return find_free (run, ex, needed_end (run), FALSE) != NULL;
}

/* Records @chunk, then gives it to the calling thread; with the lock held, which it
 * drops while reading. */
void
_dc_extract_record_locked (Run *run, Extractor *ex, Chunk *chunk)
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

gpointer
_dc_extract_thread (gpointer data)
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
      Chunk *chunk = _dc_extract_claim_chunk (run, ex, TRUE);

      if (chunk != NULL)
        {
          _dc_extract_record_locked (run, ex, chunk);
          stopped = chunk->truncated || chunk->error != NULL;
        }
      else if (run->quit || !_dc_extract_any_free_locked (run, ex))
        stopped = TRUE;
      else
        _dc_extract_wait_locked (run);
    }
  DC_MUTEX_UNLOCK (&run->lock);

  g_clear_pointer (&ex->bridge, dc_pdf_bridge_free);
  DC_HAND_OVER (ex);
  return NULL;
}
