/* decipher-session-private.h: what the session and its loader share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-session.h"

G_BEGIN_DECLS

struct _DecipherSession
{
  GObject parent_instance;

  GFile *file;
  GFile *render_file; /* a copy poppler draws right (dc-render-copy.c), or NULL */
  char *password;
  DcSession *engine;
  DcDocument *document; /* the engine's, for short */
  DcKey *key;           /* the engine's, for short */

  char *autosave_path;
  char *restore_problem;
  char *read_only_reason; /* another program writes the project: this one never does */
  guint autosave_source;
  guint n_guessed;
  guint dirty : 1;
  guint restored : 1;
  guint keep_in_place : 1; /* an unreadable project that could not be moved aside */
  guint journaling : 1;
};

void _decipher_session_start_journal (DecipherSession *self);
void _decipher_session_watch_key (DecipherSession *self);

G_END_DECLS
