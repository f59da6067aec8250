/* decipher-cli-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher.h"

G_BEGIN_DECLS

/* The JSON-lines protocol of docs/session-protocol.md, reachable without a process so that the
 * fuzzer can drive it. */
typedef struct _DecipherCliSession DecipherCliSession;

DecipherCliSession *decipher_cli_session_new (DcDocument *document, const char *project_path,
                                              gboolean automatic_pass, GError **error);
DecipherCliSession *decipher_cli_session_new_with_pipeline (DcDocument *document,
                                                            const char *project_path,
                                                            DcPipeline *pipeline, GError **error);
void decipher_cli_session_set_password (DecipherCliSession *session, const char *password);
char *decipher_cli_session_answer (DecipherCliSession *session, const char *line);
char *decipher_cli_session_answer_bytes (DecipherCliSession *session, const char *line,
                                         gsize length);
char *decipher_cli_escape_controls (const char *text, gboolean keep_layout);
DcKey *decipher_cli_session_get_key (DecipherCliSession *session);
int decipher_cli_session_run (DecipherCliSession *session);
gboolean decipher_cli_session_close (DecipherCliSession *session, GError **error);
void decipher_cli_session_free (DecipherCliSession *session);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DecipherCliSession, decipher_cli_session_free)

G_END_DECLS
