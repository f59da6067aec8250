/* dc-session-private.h: what the files of DcSession share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the files that make up DcSession include this (dc-session.c, dc-session-project.c,
 * dc-session-decisions.c, dc-session-workers.c): everyone else goes through dc-session.h.
 */

#pragma once

#include "dc-session.h"

G_BEGIN_DECLS

struct _DcSession
{
  GObject parent_instance;

  DcDocument *document;
  DcKey *key;
  DcMatcher *matcher;
  DcProject *project;
  DcProjectLock *lock;  /* while this session is the project's only writer */
  DcLibrary *library;   /* the user's font library, if the caller gave one */
  DcPipeline *pipeline; /* the levels new work starts with */
  DcShapes *shapes;     /* the symbols' glyph shapes, made when first needed */
  char **learned;       /* per symbol: the value last recorded in the library */
  guint n_learned;

  DcAutoReport auto_report;        /* why the automatic pass guessed what it did */
  guint key_serial;                /* bumped by every change of the key */
  gboolean background_index;       /* keep the index built in a worker */
  GCancellable *index_cancellable; /* the index being built, if any */
  GHashTable *own_paths;           /* the project files this session loaded or wrote */
  /* the words What Next? last highlighted, until the next query: typing them with the
   * line as cue is matched there first */
  DcSuggestion suggested;
  gboolean has_suggested;
};

enum
{
  DC_SESSION_CHANGED,
  DC_SESSION_CONFLICTS_CHANGED,
  DC_SESSION_INDEX_READY,
  DC_SESSION_N_SIGNALS
};

extern guint _dc_session_signals[DC_SESSION_N_SIGNALS];

/* dc-session.c */
void _dc_session_learn (DcSession *self, gboolean first);

/* dc-session-workers.c */
void _dc_session_start_index (DcSession *self);

G_END_DECLS
