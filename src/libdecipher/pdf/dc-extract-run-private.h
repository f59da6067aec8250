/* dc-extract-run-private.h: what dc-extract's files share while they read a PDF on threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-extract.c hands the pages on to the caller in order, on the calling thread;
 * dc-extract-record.c records chunks of pages, on any thread. See dc-extract.c.
 */

#pragma once

#include "dc-extract-private.h"
#include "dc-glyph-private.h"

G_BEGIN_DECLS

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

/* A glyph as the document keeps it (_dc_glyph_pack_inline()), its symbol field the number of
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
  char **glyph_names; /* 256, NULL-padded, with their strings in the same block */
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
  guint from_chunk; /* under the run's lock: the first chunk it may take, after those it
                     * took (the fonts and codes it numbers are handed on in that order) */

  /* The calling thread, handing on. */
  GArray *font_map; /* the bridge's font number → the caller's */
  GArray *codes;    /* of DcExtractCode, their texts taken over from the chunks replayed */
};

void _dc_extract_wait_locked (Run *run);
void _dc_extract_clear_recording (Chunk *chunk);
Chunk *_dc_extract_claim_chunk (Run *run, Extractor *ex, gboolean last);
gboolean _dc_extract_any_free_locked (Run *run, Extractor *ex);
void _dc_extract_record_locked (Run *run, Extractor *ex, Chunk *chunk);
gpointer _dc_extract_thread (gpointer data);

G_END_DECLS
