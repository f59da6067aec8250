/* dc-project-state-private.h: what the files of DcProject share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up DcProject include this (dc-project.c, dc-project-save.c,
 * dc-project-load.c, dc-project-entries.c): the journal, the conflicts and the history
 * go through dc-project-private.h.
 */

#pragma once

#include "dc-project-private.h"

G_BEGIN_DECLS

#define DC_PROJECT_MAX_ITEMS 1000000
#define DC_PROJECT_MAX_NAME_BYTES 4096

struct _DcProject
{
  GObject parent_instance;

  DcDocument *document;
  DcKey *key;
  char *path;
  GPtrArray *history; /* of char *, NULL-terminated */
  DcProjectJournal *journal;
  /* The open conflicts live in the matcher once there is one; until then, those loaded. */
  DcMatcher *matcher;
  gulong conflicts_handler;
  GPtrArray *conflicts; /* of DcConflict */
};

GPtrArray *_dc_project_open_conflicts (DcProject *self);
gboolean _dc_project_node_is_string (JsonNode *node);

/* dc-project-entries.c */
guint _dc_project_add_splits (JsonBuilder *builder, DcDocument *document, DcKey *key);
gboolean _dc_project_read_key (DcProjectLoader *loader, JsonObject *root, GArray *entries);

G_END_DECLS
