/* dc-export-stream.c: an export written out in page order while threads make its parts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pages are cut into parts of a few pages. Whichever thread is free makes the next
 * part into a string of its own, and whichever holds the next part to go out writes it,
 * one at a time and in order. A thread makes a part only a few parts ahead of the one
 * being written, so the memory held is a few parts' worth whatever the document's
 * length: a book's JSON text (half a kilobyte a glyph) is never held whole.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include "dc-document.h"
#include "dc-export-private.h"
#include "dc-parallel-private.h"
#include "dc-parallel.h"

/* Parts made ahead of the one being written, per thread. */
#define PARTS_AHEAD 3

typedef struct
{
  guint n_pages;
  guint per_part;
  guint n_parts;
  DcExportPagesFunc make;
  gpointer make_data;
  DcExportWriteFunc write;
  gpointer write_data;

  /* Under the lock. */
  GMutex lock;
  GCond cond;
  GString **parts; /* part p, made and not yet written, or NULL */
  guint next_make;
  guint next_write;
  guint window;
  gboolean writing; /* a thread is writing part next_write */
  gboolean failed;  /* a write failed: nothing more is made or written */
  GPtrArray *spare; /* strings written out, to fill again */
} Stream;

static void
free_string (gpointer string)
{
  g_string_free (string, TRUE);
}

static void
stream_lock (Stream *stream)
{
  g_mutex_lock (&stream->lock);
  dc_parallel_take_over (&stream->lock);
}

static void
stream_unlock (Stream *stream)
{
  dc_parallel_hand_over (&stream->lock);
  g_mutex_unlock (&stream->lock);
}

static void
stream_wait (Stream *stream)
{
  dc_parallel_hand_over (&stream->lock);
  g_cond_wait (&stream->cond, &stream->lock);
  dc_parallel_take_over (&stream->lock);
}

/* With the lock held; drops it while writing. */
static void
write_next_locked (Stream *stream)
{
  GString *text = stream->parts[stream->next_write];
  gboolean ok;

  stream->parts[stream->next_write] = NULL;
  stream->writing = TRUE;
  stream_unlock (stream);
  ok = stream->write (text->str, text->len, stream->write_data);
  g_string_truncate (text, 0);
  stream_lock (stream);
  stream->writing = FALSE;
  stream->failed |= !ok;
  g_ptr_array_add (stream->spare, text);
  stream->next_write++;
  g_cond_broadcast (&stream->cond);
}

/* With the lock held; drops it while making the part. */
static void
make_next_locked (Stream *stream)
{
  guint p = stream->next_make++;
  guint first = p * stream->per_part;
  GString *text = stream->spare->len > 0
                      ? g_ptr_array_steal_index_fast (stream->spare, stream->spare->len - 1)
                      : NULL;

  stream_unlock (stream);
  if (text == NULL)
    text = g_string_sized_new (1 << 16);
  stream->make (first, MIN (stream->n_pages, first + stream->per_part), text, stream->make_data);
  stream_lock (stream);
  stream->parts[p] = text;
  g_cond_broadcast (&stream->cond);
}

static void
stream_thread (gpointer data)
{
  Stream *stream = data;

  stream_lock (stream);
  while (!stream->failed && stream->next_write < stream->n_parts)
    {
      if (!stream->writing && stream->parts[stream->next_write] != NULL)
        write_next_locked (stream);
      else if (stream->next_make < stream->n_parts
               && stream->next_make < stream->next_write + stream->window)
        make_next_locked (stream);
      else
        stream_wait (stream);
    }
  /* A failed write leaves the others waiting: they see it and stop. */
  g_cond_broadcast (&stream->cond);
  stream_unlock (stream);
}

/**
 * _dc_export_stream_pages:
 * @make: writes pages [first, end) at the end of a string; called from several threads
 *   at once, each with pages of its own
 * @write: called with the parts in page order, one call at a time, from any of the
 *   threads; returns FALSE to stop
 *
 * Returns: FALSE when a write failed
 */
gboolean
_dc_export_stream_pages (DcDocument *document, DcExportPagesFunc make, gpointer make_data,
                         DcExportWriteFunc write, gpointer write_data)
{
  Stream stream = { 0 };
  guint n_threads;

  stream.n_pages = dc_document_get_n_pages (document);
  if (stream.n_pages == 0)
    return TRUE;
  n_threads = _dc_parallel_threads (stream.n_pages);
  /* Parts small enough that a few per thread are a few megabytes, and enough of them
   * that no thread waits long for the last one. */
  stream.per_part = CLAMP (stream.n_pages / (n_threads * 16), 1, 4);
  stream.n_parts = (stream.n_pages + stream.per_part - 1) / stream.per_part;
  stream.make = make;
  stream.make_data = make_data;
  stream.write = write;
  stream.write_data = write_data;
  stream.parts = g_new0 (GString *, stream.n_parts);
  stream.window = PARTS_AHEAD * n_threads;
  stream.spare = g_ptr_array_new_with_free_func (free_string);
  g_mutex_init (&stream.lock);
  g_cond_init (&stream.cond);

  _dc_parallel_run (MIN (n_threads, stream.n_parts), stream_thread, &stream);

  for (guint p = 0; p < stream.n_parts; p++)
    if (stream.parts[p] != NULL)
      g_string_free (stream.parts[p], TRUE);
  g_free (stream.parts);
  g_ptr_array_unref (stream.spare);
  g_mutex_clear (&stream.lock);
  g_cond_clear (&stream.cond);
  return !stream.failed;
}
