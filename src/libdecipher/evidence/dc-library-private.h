/* dc-library-private.h: what dc-library.c and dc-library-share.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "dc-library.h"

G_BEGIN_DECLS

/* A library value the document does not bear out is proposed at this confidence
 * (dc_library_verify()): such proposals were right for none of the 4 that
 * bench/calibrate-levels.py made (issue 28: an English document's a, p, o, x in a Yakut
 * one), a small sample; the rest were decoded by the installed fonts instead. */
#define DC_LIBRARY_DEMOTED_CONFIDENCE 0.05

struct _DcLibrary
{
  GObject parent_instance;

  char *path;
  sqlite3 *db;
  gint64 patience;  /* how long one call may keep SQLite busy, in microseconds */
  gint64 deadline;  /* monotonic time after which a statement is interrupted */
  gboolean gave_up; /* a statement ran past it: every later one fails at once */
  /* The lookup, prepared once: a document looks up every symbol, and compiling the
   * query each time was most of a small file's library pass. */
  sqlite3_stmt *lookup;
  GMutex lookup_lock; /* over lookup, which one caller at a time may step */
};

void _dc_library_begin (DcLibrary *self);
gboolean _dc_library_is_certain (DcKeyLevel level, double confidence);
void _dc_library_set_patience (DcLibrary *self, gint64 usec);
void _dc_library_distrust (DcLibrary *self);
void _dc_library_set_sqlite_error (GError **error, sqlite3 *db, const char *path, const char *what);
gboolean _dc_library_exec (DcLibrary *self, const char *sql, GError **error);
gboolean _dc_library_check_format (sqlite3 *db, const char *schema, gboolean *empty,
                                   gboolean *newer);
char *_dc_library_lookup (DcLibrary *self, const DcShape *shape, const char *script,
                          gboolean *ambiguous, DcKeyLevel *level, double *confidence);
gboolean _dc_library_has_column (sqlite3 *db, const char *schema, const char *column);
gboolean _dc_library_migrate (DcLibrary *self, const char *version, GError **error);
void _dc_library_set_not_a_library (GError **error, const char *path, gboolean newer,
                                    const char *advice);

G_END_DECLS
