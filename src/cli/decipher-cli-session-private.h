/* decipher-cli-session-private.h: what the files of the session share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "decipher-cli-session.h"

G_BEGIN_DECLS

struct _DecipherCliSession
{
  DcSession *session;
  /* Shortcuts into the session, for the questions a reply answers. */
  DcDocument *document;
  DcKey *key;
  DcMatcher *matcher;
  char *project_path;
  char *password;          /* to render the document for recognize */
  gboolean print_progress; /* recognize writes {"progress":…} lines before its reply */
  GMutex progress_lock;
};

typedef DecipherCliSession Session;

/* decipher-cli-session.c: reading a request's fields, writing a reply's */
void decipher_cli_session_set_int (JsonBuilder *reply, const char *name, gint64 value);
gboolean decipher_cli_session_get_int (JsonObject *request, const char *name, gboolean required,
                                       gint64 minimum, gint64 maximum, gint64 *value,
                                       GError **error);
const char *decipher_cli_session_get_string (JsonObject *request, const char *name, GError **error);
gboolean decipher_cli_session_get_boolean (JsonObject *request, const char *name, gboolean *value,
                                           GError **error);
gboolean decipher_cli_session_get_fraction (JsonObject *request, const char *name, double *value,
                                            GError **error);

/* decipher-cli-session-replies.c */
void decipher_cli_session_add_conflicts (JsonBuilder *reply, GPtrArray *conflicts);
void decipher_cli_session_add_refused (JsonBuilder *reply, DcKey *key, guint symbol);
gboolean decipher_cli_session_handle_status (Session *session, JsonObject *request,
                                             JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_lines (Session *session, JsonObject *request,
                                            JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_symbols (Session *session, JsonObject *request,
                                              JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_text (Session *session, JsonObject *request,
                                           JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_conflicts (Session *session, JsonObject *request,
                                                JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_occurrences (Session *session, JsonObject *request,
                                                  JsonBuilder *reply, GError **error);

/* decipher-cli-session-edits.c */
gboolean decipher_cli_session_handle_type (Session *session, JsonObject *request,
                                           JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_suggest (Session *session, JsonObject *request,
                                              JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_assign (Session *session, JsonObject *request,
                                             JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_accept (Session *session, JsonObject *request,
                                             JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_reject (Session *session, JsonObject *request,
                                             JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_recognize (Session *session, JsonObject *request,
                                                JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_undo (Session *session, JsonObject *request,
                                           JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_redo (Session *session, JsonObject *request,
                                           JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_save (Session *session, JsonObject *request,
                                           JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_resolve (Session *session, JsonObject *request,
                                              JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_split (Session *session, JsonObject *request,
                                            JsonBuilder *reply, GError **error);
gboolean decipher_cli_session_handle_unsplit (Session *session, JsonObject *request,
                                              JsonBuilder *reply, GError **error);

G_END_DECLS
