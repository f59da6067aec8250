/* test-two-writers.c: one writer per project — a document open twice comes up in its
 * window, and a project a decipher-cli session writes opens read-only in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <unistd.h>

#include "decipher-application.h"
#include "decipher-window.h"
#include "gui-test-util.h"

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window) && decipher_window_get_session (window) != NULL;
}

static gboolean
application_has_no_windows (GtkApplication *application)
{
  return gtk_application_get_windows (application) == NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return gui_test_find_dialog () != NULL;
}

static DecipherApplication *
application_new (void)
{
  DecipherApplication *application = decipher_application_new ();
  g_autoptr (GError) error = NULL;

  /* Not unique: the test has no session bus to be unique on. */
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application))
                               | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  g_assert_no_error (error);
  return application;
}

static void
quit (DecipherApplication *application)
{
  gui_test_close_dialogs ();
  gui_test_pointer_away (NULL);
  g_action_group_activate_action (G_ACTION_GROUP (application), "quit", NULL);
  GUI_TEST_WAIT (application_has_no_windows, application, "Quit to close every window");
}

/* The same PDF opened again — from the command line, from a window, or by another name —
 * presents the window that shows it: two windows would be two writers of one project. */
static void
test_open_twice (void)
{
  g_autoptr (DecipherApplication) application = application_new ();
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *link_path = g_strconcat (path, "-linked.pdf", NULL);
  g_autoptr (GFile) linked = g_file_new_for_path (link_path);
  GFile *files[] = { file };
  GFile *linked_files[] = { linked };
  DecipherWindow *window, *empty;

  g_assert_cmpint (link (path, link_path), ==, 0);

  g_application_open (G_APPLICATION (application), files, 1, "");
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (application))), ==,
                    1);
  window = gtk_application_get_windows (GTK_APPLICATION (application))->data;
  /* Again while it loads, and again once it shows. */
  g_application_open (G_APPLICATION (application), files, 1, "");
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (application))), ==,
                    1);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  g_application_open (G_APPLICATION (application), files, 1, "");
  g_application_open (G_APPLICATION (application), linked_files, 1, "");
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (application))), ==,
                    1);
  g_assert_null (decipher_session_get_read_only_reason (decipher_window_get_session (window)));

  /* From another window's Open: that window stays as it was. */
  empty = decipher_window_new (GTK_APPLICATION (application));
  gtk_window_present (GTK_WINDOW (empty));
  decipher_window_open (empty, file);
  gui_test_settle ();
  g_assert_true (decipher_window_is_empty (empty));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (application))), ==,
                    2);

  quit (application);
  g_unlink (link_path);
}

/* A decipher-cli session writing the project of the document the window opens. */
typedef struct
{
  GSubprocess *process;
  GOutputStream *in;
  GDataInputStream *out;
} Cli;

static void
cli_start (Cli *cli, GFile *file, const char *project)
{
  g_autofree char *pdf = g_file_get_path (file);
  g_autoptr (GError) error = NULL;

  cli->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                   &error, g_getenv ("DECIPHER_CLI"), "session", pdf, "--project",
                                   project, "--no-auto", NULL);
  g_assert_no_error (error);
  cli->in = g_subprocess_get_stdin_pipe (cli->process);
  cli->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (cli->process));
  /* Its first reply: by then it holds the project. */
  {
    const char *status = "{\"cmd\": \"status\"}\n";
    g_autofree char *line = NULL;

    g_output_stream_write_all (cli->in, status, strlen (status), NULL, NULL, &error);
    g_assert_no_error (error);
    line = g_data_input_stream_read_line_utf8 (cli->out, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (line, "\"ok\":true"));
  }
}

static gboolean
cli_assign (Cli *cli, guint symbol, const char *text)
{
  g_autofree char *request = g_strdup_printf ("{\"cmd\": \"assign\", \"symbol\": %u, \"text\": "
                                              "\"%s\"}\n",
                                              symbol, text);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;

  g_output_stream_write_all (cli->in, request, strlen (request), NULL, NULL, &error);
  g_assert_no_error (error);
  line = g_data_input_stream_read_line_utf8 (cli->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (json_parser_load_from_data (parser, line, -1, NULL));
  return json_object_get_boolean_member (json_node_get_object (json_parser_get_root (parser)),
                                         "ok");
}

static int
cli_stop (Cli *cli)
{
  int status;

  g_output_stream_close (cli->in, NULL, NULL);
  g_subprocess_wait (cli->process, NULL, NULL);
  status = g_subprocess_get_exit_status (cli->process);
  g_clear_object (&cli->out);
  g_clear_object (&cli->process);
  return status;
}

static char *
read_or_empty (const char *path)
{
  char *data = NULL;

  if (!g_file_get_contents (path, &data, NULL, NULL))
    return g_strdup ("");
  return data;
}

/* The window and a session on one project: whichever came second does not write. */
static void
test_session_and_window (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autofree char *pdf = g_file_get_path (file);
  g_autofree char *contents = NULL;
  g_autofree char *sha256 = NULL;
  g_autofree char *project = NULL;
  g_autofree char *journal = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *project_before = NULL, *journal_before = NULL;
  g_autofree char *project_after = NULL, *journal_after = NULL;
  DecipherSession *session;
  gsize length = 0;
  guint symbols[3];
  guint n = 0, n_symbols = 0;
  Cli cli = { 0 };

  g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
  project = decipher_autosave_path_for_sha256 (sha256);
  journal = g_strconcat (project, ".journal", NULL);
  folder = g_path_get_dirname (project);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);

  /* The session first: the window opens read-only, with what the session has decided. */
  cli_start (&cli, file, project);
  session = gui_test_load_session (file, NULL);
  {
    DcDocument *document = decipher_session_get_document (session);

    dc_document_get_symbols (document, &n_symbols);
    for (guint s = 0; s < n_symbols && n < G_N_ELEMENTS (symbols); s++)
      if (dc_document_symbol_needs_decoding (document, s))
        symbols[n++] = s;
    g_assert_cmpuint (n, ==, G_N_ELEMENTS (symbols));
  }
  g_assert_nonnull (decipher_session_get_read_only_reason (session));
  g_test_message ("%s", decipher_session_get_read_only_reason (session));
  g_assert_nonnull (strstr (decipher_session_get_read_only_reason (session),
                            "open in another program (decipher-cli session, process"));
  g_assert_finalize_object (session);

  g_assert_true (cli_assign (&cli, symbols[0], "д"));
  session = gui_test_load_session (file, NULL);
  g_assert_nonnull (decipher_session_get_read_only_reason (session));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (session), symbols[0]), ==, "д");
  /* What the window decides is not written over the session's work. */
  project_before = read_or_empty (project);
  journal_before = read_or_empty (journal);
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), symbols[1], "ж", NULL));
  g_assert_true (dc_session_undo (decipher_session_get_engine (session), NULL));
  g_assert_true (decipher_session_save (session, NULL));
  g_assert_finalize_object (session);
  project_after = read_or_empty (project);
  journal_after = read_or_empty (journal);
  g_assert_cmpstr (project_after, ==, project_before);
  g_assert_cmpstr (journal_after, ==, journal_before);

  /* In a window, the read-only opening is said. */
  {
    DecipherWindow *window = decipher_window_new (NULL);
    AdwMessageDialog *dialog;

    gtk_window_present (GTK_WINDOW (window));
    decipher_window_open (window, file);
    GUI_TEST_WAIT (window_loaded, window, "the document to load");
    GUI_TEST_WAIT (dialog_shown, NULL, "the read-only dialog");
    dialog = gui_test_find_dialog ();
    g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Opened Read-Only");
    g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "decipher-cli session"));
    gui_test_screenshot ("window-read-only");
    gui_test_close_dialogs ();
    gui_test_pointer_away (GTK_WINDOW (window));
    gtk_window_close (GTK_WINDOW (window));
    gui_test_settle ();
  }

  /* The session goes on and ends with its work whole. */
  g_assert_true (cli_assign (&cli, symbols[2], "щ"));
  g_assert_cmpint (cli_stop (&cli), ==, 0);

  /* Now the window is the writer, and a session is refused. */
  session = gui_test_load_session (file, NULL);
  g_assert_null (decipher_session_get_read_only_reason (session));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (session), symbols[0]), ==, "д");
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (session), symbols[2]), ==, "щ");
  g_assert_cmpint (dc_key_get_status (decipher_session_get_key (session), symbols[1]), !=,
                   DC_KEY_CONFIRMED);
  {
    g_autoptr (GSubprocess) process = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *out = NULL, *err = NULL;

    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                    | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                &error, g_getenv ("DECIPHER_CLI"), "session", pdf, "--project",
                                project, NULL);
    g_assert_no_error (error);
    /* Nothing on its standard input: it refuses before reading any, and a command
     * written to it would race its exit (a broken pipe, now and then). Were it to start
     * instead, the end of input ends it with status 0. */
    g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
    g_assert_cmpstr (out, ==, "");
    g_test_message ("%s", err);
    g_assert_nonnull (strstr (err, "open in another program (the Decipher window, process"));
  }
  g_assert_finalize_object (session);
}

/* Issue 33: a lock that cannot be taken for another reason than a read-only folder (here a
 * folder in the lock file's place) leaves the window read-only too, saying why: writing
 * without it would let a second writer save over this window's work. */
static void
test_lock_in_the_way (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("nenets-space.pdf");
  g_autofree char *pdf = g_file_get_path (file);
  g_autofree char *contents = NULL;
  g_autofree char *sha256 = NULL;
  g_autofree char *project = NULL;
  g_autofree char *lock = NULL;
  g_autofree char *before = NULL, *after = NULL;
  DecipherSession *session;
  const char *reason;
  gsize length = 0;

  g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
  project = decipher_autosave_path_for_sha256 (sha256);
  lock = g_strconcat (project, ".lock", NULL);
  g_assert_cmpint (g_mkdir_with_parents (lock, 0700), ==, 0);
  before = read_or_empty (project);

  session = gui_test_load_session (file, NULL);
  reason = decipher_session_get_read_only_reason (session);
  g_assert_nonnull (reason);
  g_test_message ("%s", reason);
  g_assert_nonnull (strstr (reason, "nothing you decide here will be saved"));
  /* What is decided is not saved. */
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), 0, "ж", NULL));
  g_assert_true (decipher_session_save (session, NULL));
  g_assert_finalize_object (session);
  after = read_or_empty (project);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (g_rmdir (lock), ==, 0);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/two-writers/open-twice", test_open_twice);
  g_test_add_func ("/two-writers/session-and-window", test_session_and_window);
  g_test_add_func ("/two-writers/lock-in-the-way", test_lock_in_the_way);
  return g_test_run ();
}
