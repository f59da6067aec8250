/* test-app-session.c: loading a document off the main thread, and autosaving its project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>

#include "gui-test-util.h"

static gboolean
file_exists (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

typedef struct
{
  gboolean done;
  guint n_progress;
  double last_fraction;
  GError *error;
  DecipherSession *session;
  GThread *main_thread;
} Load;

static void
progress_cb (double fraction, gpointer data)
{
  Load *load = data;

  /* Reports arrive on the main thread, in order. */
  g_assert_true (g_thread_self () == load->main_thread);
  g_assert_cmpfloat (fraction, >=, load->last_fraction);
  load->last_fraction = fraction;
  load->n_progress++;
}

static void
load_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Load *load = data;

  load->session = decipher_session_load_finish (result, &load->error);
  load->done = TRUE;
}

static gboolean
load_done (Load *load)
{
  return load->done;
}

static void
test_load_reports_progress (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  Load load = { 0 };

  load.main_thread = g_thread_self ();
  decipher_session_load_async (file, NULL, progress_cb, &load, NULL, load_cb, &load);
  g_assert_false (load.done); /* the main thread went on */
  GUI_TEST_WAIT (load_done, &load, "the load");
  g_assert_no_error (load.error);
  g_assert_cmpuint (load.n_progress, >=, 1);
  g_assert_cmpfloat (load.last_fraction, ==, 1.0);
  g_assert_false (decipher_session_get_restored (load.session));
  g_assert_finalize_object (load.session);
}

static void
test_load_errors (void)
{
  const struct
  {
    const char *fixture;
    int code;
  } cases[] = {
    { "not-a-pdf.pdf", DC_ERROR_NOT_PDF },
    { "encrypted.pdf", DC_ERROR_ENCRYPTED },
    { "image-only.pdf", DC_ERROR_SCANNED },
    { "no-text.pdf", DC_ERROR_NO_TEXT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GFile) file = gui_test_fixture_copy (cases[i].fixture);
      Load load = { 0 };

      decipher_session_load_async (file, NULL, NULL, NULL, NULL, load_cb, &load);
      GUI_TEST_WAIT (load_done, &load, cases[i].fixture);
      g_assert_null (load.session);
      g_assert_error (load.error, DC_ERROR, cases[i].code);
      g_clear_error (&load.error);
    }
}

static void
test_cancel (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("clean.pdf");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Load load = { 0 };

  decipher_session_load_async (file, NULL, NULL, NULL, cancellable, load_cb, &load);
  g_cancellable_cancel (cancellable);
  GUI_TEST_WAIT (load_done, &load, "the cancelled load");
  /* Cancelled before or after the extraction ended: never a half-made session. */
  if (load.session != NULL)
    g_assert_finalize_object (load.session);
  else
    g_assert_nonnull (load.error);
  g_clear_error (&load.error);
}

static gboolean
is_saved (DecipherSession *session)
{
  return !decipher_session_get_dirty (session);
}

/* What a second process would find on disk right now: the project and its journal. */
static char *
value_on_disk (DecipherSession *session, guint symbol)
{
  DcDocument *document = decipher_session_get_document (session);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcProject) project = NULL;
  g_autoptr (GError) error = NULL;

  project = dc_project_load (decipher_session_get_autosave_path (session), document, key, &error);
  g_assert_no_error (error);
  return g_strdup (dc_key_get_value (key, symbol));
}

static void
test_journal_then_autosave (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("uralic-legacy.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));
  g_autofree char *journal = g_strconcat (path, ".journal", NULL);
  g_autofree char *on_disk = NULL;
  g_autofree char *contents = NULL;
  DecipherSession *again;

  /* New work has its file from the start, for the journal to complete. */
  g_assert_true (file_exists (path));
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), 0, "н", NULL));
  g_assert_true (decipher_session_get_dirty (session));
  /* On disk before anything else happens: no autosave has run yet. */
  on_disk = value_on_disk (session, 0);
  g_assert_cmpstr (on_disk, ==, "н");
  g_assert_true (g_file_get_contents (journal, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"value\":\"н\""));

  /* A burst of typing is one full save, a second later, which empties the journal. */
  GUI_TEST_WAIT (is_saved, session, "the autosave");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (journal, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "");
  g_assert_finalize_object (session);

  again = gui_test_load_session (file, NULL);
  g_assert_true (decipher_session_get_restored (again));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (again), 0), ==, "н");
  g_assert_finalize_object (again);
}

/* A document only looked at (nothing guessed, nothing decided) leaves no project behind,
 * so opening it again does not claim to restore work. */
static void
test_looked_at_leaves_nothing (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("clean.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));
  g_autofree char *journal = g_strconcat (path, ".journal", NULL);

  g_assert_cmpuint (decipher_session_get_n_guessed (session), ==, 0);
  g_assert_finalize_object (session);
  g_assert_false (file_exists (path));
  g_assert_false (file_exists (journal));

  session = gui_test_load_session (file, NULL);
  g_assert_false (decipher_session_get_restored (session));
  g_assert_finalize_object (session);
}

/* Killed with SIGKILL right after three decisions, before the autosave could run: the
 * next opening has all three, undo included. */
static void
test_kill_loses_nothing (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("uralic-legacy.pdf");
  DecipherSession *again;
  DcKey *key;

  if (g_test_subprocess ())
    {
      DecipherSession *session = gui_test_load_session (file, NULL);

      g_assert_true (dc_session_assign (decipher_session_get_engine (session), 0, "н", NULL));
      g_assert_true (dc_session_assign (decipher_session_get_engine (session), 1, "а", NULL));
      g_assert_true (dc_session_assign (decipher_session_get_engine (session), 2, "x", NULL));
      g_assert_true (dc_key_undo (decipher_session_get_key (session)));
      kill (getpid (), SIGKILL);
      g_assert_not_reached ();
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();

  again = gui_test_load_session (file, NULL);
  key = decipher_session_get_key (again);
  g_assert_true (decipher_session_get_restored (again));
  g_assert_cmpstr (dc_key_get_value (key, 0), ==, "н");
  g_assert_cmpstr (dc_key_get_value (key, 1), ==, "а");
  g_assert_cmpint (dc_key_get_status (key, 2), !=, DC_KEY_CONFIRMED);
  g_assert_finalize_object (again);
}

static void
test_save_on_dispose (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("identity-h.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));

  g_assert_true (dc_session_assign (decipher_session_get_engine (session), 1, "x", NULL));
  /* Dropped before the timer fired: the work is written anyway. */
  g_assert_finalize_object (session);
  g_assert_true (file_exists (path));
}

static void
test_damaged_autosave_set_aside (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("type3.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr (GDir) dir = NULL;
  const char *name;
  gboolean kept = FALSE;

  g_assert_finalize_object (session);
  g_mkdir_with_parents (folder, 0700);
  g_assert_true (g_file_set_contents (path, "{ not json", -1, NULL));

  session = gui_test_load_session (file, NULL);
  g_assert_false (decipher_session_get_restored (session));
  g_assert_nonnull (decipher_session_get_restore_problem (session));
  /* The damaged file is kept for whoever wants it, as it was; the new work has a file of
   * its own. */
  dir = g_dir_open (folder, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (strstr (name, ".damaged-") != NULL)
      {
        g_autofree char *aside = g_build_filename (folder, name, NULL);
        g_autofree char *data = NULL;

        g_assert_true (g_file_get_contents (aside, &data, NULL, NULL));
        g_assert_cmpstr (data, ==, "{ not json");
        kept = TRUE;
      }
  g_assert_true (kept);
  g_assert_true (file_exists (path));
  g_assert_finalize_object (session);
}

/* Two damaged projects set aside one after the other (within the same second, as a
 * quick reopen does): both are kept, neither moved over the other. */
static void
test_set_aside_never_overwrites (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("clean-pango.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  const char *contents[] = { "{ first", "{ second" };
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) dir = NULL;
  const char *name;

  g_assert_finalize_object (session);
  g_mkdir_with_parents (folder, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (contents); i++)
    {
      g_unlink (path);
      g_assert_true (g_file_set_contents (path, contents[i], -1, NULL));
      session = gui_test_load_session (file, NULL);
      g_assert_nonnull (strstr (decipher_session_get_restore_problem (session), "kept as"));
      g_assert_finalize_object (session);
    }
  dir = g_dir_open (folder, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, base) && strstr (name, ".damaged-") != NULL)
      {
        g_autofree char *aside = g_build_filename (folder, name, NULL);
        g_autofree char *data = NULL;

        g_assert_true (g_file_get_contents (aside, &data, NULL, NULL));
        g_ptr_array_add (kept, g_steal_pointer (&data));
      }
  g_assert_cmpuint (kept->len, ==, 2);
  g_assert_true (g_ptr_array_find_with_equal_func (kept, contents[0], g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (kept, contents[1], g_str_equal, NULL));
}

static void
test_automatic_guesses (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("rotated.pdf");
  DecipherSession *session = gui_test_load_session (file, NULL);
  g_autofree char *path = g_strdup (decipher_session_get_autosave_path (session));
  DcKey *key = decipher_session_get_key (session);
  guint decoded;

  /* New work opens with the space and full stop guessed, saved at once… */
  g_assert_cmpuint (decipher_session_get_n_guessed (session), >, 0);
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, decipher_session_get_n_guessed (session));
  g_assert_true (file_exists (path));
  g_assert_false (decipher_session_get_dirty (session));

  /* …and undone in one step. */
  g_assert_true (dc_key_can_undo (key));
  g_assert_true (dc_key_undo (key));
  dc_key_count_decoded (key, &decoded, NULL);
  g_assert_cmpuint (decoded, ==, 0);
  g_assert_finalize_object (session);

  /* Restored work is not guessed over again. */
  session = gui_test_load_session (file, NULL);
  g_assert_true (decipher_session_get_restored (session));
  g_assert_cmpuint (decipher_session_get_n_guessed (session), ==, 0);
  dc_key_count_decoded (decipher_session_get_key (session), &decoded, NULL);
  g_assert_cmpuint (decoded, ==, 0);
  g_assert_finalize_object (session);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/session/load-reports-progress", test_load_reports_progress);
  g_test_add_func ("/session/load-errors", test_load_errors);
  g_test_add_func ("/session/cancel", test_cancel);
  g_test_add_func ("/session/journal-then-autosave", test_journal_then_autosave);
  g_test_add_func ("/session/kill-loses-nothing", test_kill_loses_nothing);
  g_test_add_func ("/session/looked-at-leaves-nothing", test_looked_at_leaves_nothing);
  g_test_add_func ("/session/save-on-dispose", test_save_on_dispose);
  g_test_add_func ("/session/damaged-autosave-set-aside", test_damaged_autosave_set_aside);
  g_test_add_func ("/session/set-aside-never-overwrites", test_set_aside_never_overwrites);
  g_test_add_func ("/session/automatic-guesses", test_automatic_guesses);
  return g_test_run ();
}
