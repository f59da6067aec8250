/* decipher-cli-collection-private.h: what the files of a collection share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-cli-collection.h"

G_BEGIN_DECLS

typedef struct
{
  char *input;  /* as found */
  char *name;   /* shown: relative to the folder given, or as given */
  char *output; /* where its result goes */
  gboolean is_project_document;

  /* Written by the worker that reads it. */
  gboolean loaded;
  char *error;
  char *note;
  guint n_fonts;
  guint n_fonts_to_decode;
  guint n_symbols_to_decode;
  guint n_glyphs_to_decode;
  guint n_symbols_decoded;
  guint n_glyphs_decoded;
} Item;

typedef struct
{
  const DecipherCliCollection *options;
  GPtrArray *items;           /* of Item */
  char *project_library_path; /* the project's decisions, as a library; nullable */
  char *reader;               /* this program, run once per thread */
  GMutex progress_lock;       /* over n_started, n_done and standard error */
  guint n_started;
  guint n_done;
} Run;

/* decipher-cli-collection.c */
double decipher_cli_collection_decoded_share (const Item *item);
char *decipher_cli_collection_escape_for_terminal (const char *text);

/* decipher-cli-collection-item.c: --kind and --format as the reading process is given them,
 * indexed by DecipherCliCollectionKind and DcExportFormat. */
extern const char *const decipher_cli_collection_kind_names[];
extern const char *const decipher_cli_collection_format_names[];

/* decipher-cli-collection-workers.c */
gpointer decipher_cli_collection_reader_thread (gpointer data);

G_END_DECLS
