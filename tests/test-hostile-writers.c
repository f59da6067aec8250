/* test-hostile-writers.c: every writer of decipher-cli, given what it must not write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 33. Each command that writes a file the user names (save, repair, library export,
 * the library itself, collections) is pointed at what is not its to replace: the PDF, a
 * project, a project's journal or lock, links, a pipe, a folder, a device. Each must
 * refuse with a sentence and leave it as it was; the totals are printed. Then one test per
 * defect the issue lists about writers: the one-writer lock against another account's
 * lock file, the journal after a full disk, collections over existing files, a library
 * made to hang. (Standard output and the smaller items are in test-hostile.c.)
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "dc-test-cli.h"
#include "dc-test-fixtures.h"

static const char victim_text[] = "someone's notes\n";
static const char other_project[] = "{\"someone else's\": \"work\"}\n";

typedef enum
{
  TARGET_PDF,
  TARGET_PROJECT,
  TARGET_JOURNAL,
  TARGET_LOCK,
  TARGET_LINK,
  TARGET_DANGLING_LINK,
  TARGET_PIPE,
  TARGET_FOLDER,
  TARGET_DEVICE,
  N_TARGETS
} Target;

static const char *const target_names[] = {
  "the PDF", "a project", "the project's journal", "a project's lock", "a link",
  "a dangling link", "a pipe", "a folder", "a device",
};

typedef enum
{
  WRITER_SAVE,
  WRITER_REPAIR,
  WRITER_LIBRARY_EXPORT,
  WRITER_LIBRARY,
  WRITER_LIBRARY_IMPORT,
  WRITER_COLLECTION,
  WRITER_REPAIR_COLLECTION,
  N_WRITERS
} Writer;

static const char *const writer_names[] = {
  "session save",       "repair -o",           "library export",       "--library",
  "library import into", "text DIR -o OUTDIR", "repair DIR -o OUTDIR",
};

static void
write_file (const char *dir, const char *name, const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

/* A project with one decision, p.decipher, and its (empty) journal. */
static void
make_project (const char *dir)
{
  static const char input[] = "{\"cmd\":\"assign\",\"symbol\":21,\"text\":\"q\"}\n";
  RunOptions options = { .cwd = dir, .input = input, .input_length = strlen (input) };
  g_auto (Run) run = { 0 };

  run_cli (&run, &options, "session", "doc.pdf", "--project", "p.decipher", "--no-auto", NULL);
  g_assert_cmpint (run.status, ==, 0);
}

/* Puts the target of @kind at @dir/@name (the PDF is doc.pdf itself). FALSE when it
 * cannot be made here (a device node needs root). */
static gboolean
make_target (const char *dir, Target kind, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  switch (kind)
    {
    case TARGET_PDF:
    case TARGET_JOURNAL:
      return TRUE;
    case TARGET_PROJECT:
      write_file (dir, name, other_project);
      return TRUE;
    case TARGET_LOCK:
      write_file (dir, name, "decipher-cli session, process 1\n");
      return TRUE;
    case TARGET_LINK:
      write_file (dir, "victim.txt", victim_text);
      g_assert_cmpint (symlink ("victim.txt", path), ==, 0);
      return TRUE;
    case TARGET_DANGLING_LINK:
      g_assert_cmpint (symlink ("missing.txt", path), ==, 0);
      return TRUE;
    case TARGET_PIPE:
      g_assert_cmpint (mkfifo (path, 0600), ==, 0);
      return TRUE;
    case TARGET_FOLDER:
      {
        g_autofree char *inside = g_build_filename (path, "inside.txt", NULL);

        g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
        g_assert_true (g_file_set_contents (inside, victim_text, -1, NULL));
        return TRUE;
      }
    case TARGET_DEVICE:
      /* /dev/null's numbers, in the test's own folder: a failing test must not replace
       * the machine's /dev/null. */
      return mknod (path, S_IFCHR | 0666, makedev (1, 3)) == 0;
    case N_TARGETS:
    default:
      g_assert_not_reached ();
    }
}

/* Whether the target of @kind at @dir/@name is as make_target() left it. */
static gboolean
target_intact (const char *dir, Target kind, const char *name, const char *pdf_before)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return FALSE;
  switch (kind)
    {
    case TARGET_PDF:
      contents = read_file (dir, name);
      return S_ISREG (st.st_mode) && g_strcmp0 (contents, pdf_before) == 0;
    case TARGET_PROJECT:
      contents = read_file (dir, name);
      return S_ISREG (st.st_mode) && g_strcmp0 (contents, other_project) == 0;
    case TARGET_JOURNAL:
      {
        /* Still empty, and its project still opens. */
        RunOptions options = { .cwd = dir };
        g_auto (Run) run = { 0 };

        run_cli (&run, &options, "text", "doc.pdf", "--project", "p.decipher", NULL);
        return S_ISREG (st.st_mode) && st.st_size == 0 && run.status == 0;
      }
    case TARGET_LOCK:
      contents = read_file (dir, name);
      return S_ISREG (st.st_mode)
             && g_strcmp0 (contents, "decipher-cli session, process 1\n") == 0;
    case TARGET_LINK:
      {
        g_autofree char *target = g_file_read_link (path, NULL);

        contents = read_file (dir, "victim.txt");
        return S_ISLNK (st.st_mode) && g_strcmp0 (target, "victim.txt") == 0
               && g_strcmp0 (contents, victim_text) == 0;
      }
    case TARGET_DANGLING_LINK:
      {
        g_autofree char *missing = g_build_filename (dir, "missing.txt", NULL);

        return S_ISLNK (st.st_mode) && !g_file_test (missing, G_FILE_TEST_EXISTS);
      }
    case TARGET_PIPE:
      return S_ISFIFO (st.st_mode);
    case TARGET_FOLDER:
      {
        g_autofree char *inside = g_build_filename (name, "inside.txt", NULL);

        contents = read_file (dir, inside);
        return S_ISDIR (st.st_mode) && g_strcmp0 (contents, victim_text) == 0;
      }
    case TARGET_DEVICE:
      return S_ISCHR (st.st_mode) && st.st_rdev == makedev (1, 3);
    case N_TARGETS:
    default:
      g_assert_not_reached ();
    }
}

/* Where @writer would write for a target of @kind, relative to the work folder, or NULL
 * when the pair means nothing (a collection's result is never named after the PDF). */
static const char *
target_name (Writer writer, Target kind)
{
  if (writer == WRITER_COLLECTION || writer == WRITER_REPAIR_COLLECTION)
    {
      if (kind == TARGET_PDF || kind == TARGET_JOURNAL || kind == TARGET_LOCK)
        return NULL;
      return writer == WRITER_COLLECTION ? "out/doc.txt" : "out/doc.pdf";
    }
  switch (kind)
    {
    case TARGET_PDF:
      return "doc.pdf";
    case TARGET_JOURNAL:
      return "p.decipher.journal";
    case TARGET_LOCK:
      return "q.decipher.lock";
    default:
      return "target";
    }
}

/* Runs @writer toward @name; whether it refused with a sentence. */
static gboolean
run_writer (const char *dir, Writer writer, Target kind, const char *name)
{
  RunOptions options = { .cwd = dir };
  g_auto (Run) run = { 0 };

  switch (writer)
    {
    case WRITER_SAVE:
      {
        g_autofree char *input = g_strdup_printf ("{\"cmd\":\"save\",\"path\":\"%s\"}\n", name);
        g_autoptr (JsonParser) parser = json_parser_new ();
        JsonObject *reply;

        options.input = input;
        options.input_length = strlen (input);
        run_cli (&run, &options, "session", "doc.pdf", "--project", "p.decipher", NULL);
        g_test_message ("%s", run.out);
        if (run.status != 0 || !json_parser_load_from_data (parser, run.out, -1, NULL))
          return FALSE;
        reply = json_node_get_object (json_parser_get_root (parser));
        return !json_object_get_boolean_member (reply, "ok")
               && strlen (json_object_get_string_member (reply, "error")) > 20;
      }
    case WRITER_REPAIR:
      run_cli (&run, &options, "repair", "doc.pdf", "--project", "p.decipher", "-o", name, NULL);
      break;
    case WRITER_LIBRARY_EXPORT:
      run_cli (&run, &options, "library", "export", name, "--library", "lib.sqlite", NULL);
      break;
    case WRITER_LIBRARY:
      run_cli (&run, &options, "text", "doc.pdf", "--library", name, NULL);
      break;
    case WRITER_LIBRARY_IMPORT:
      {
        g_auto (Run) exported = { 0 };

        run_cli (&exported, &options, "library", "export", "team.sqlite", "--library",
                 "lib.sqlite", NULL);
        g_assert_cmpint (exported.status, ==, 0);
        run_cli (&run, &options, "library", "import", "team.sqlite", "--library", name, NULL);
        break;
      }
    case WRITER_COLLECTION:
    case WRITER_REPAIR_COLLECTION:
      {
        const char *command = writer == WRITER_COLLECTION ? "text" : "repair";

        /* A regular file needs --overwrite to be replaced; what is not a regular file is
         * refused even with it. */
        if (kind == TARGET_PROJECT)
          run_cli (&run, &options, command, "in", "-o", "out", NULL);
        else
          run_cli (&run, &options, command, "in", "-o", "out", "--overwrite", NULL);
        break;
      }
    case N_WRITERS:
    default:
      g_assert_not_reached ();
    }
  g_test_message ("%s", run.err);
  return run.status > 0 && count_lines (run.err) >= 1
         && g_str_has_prefix (run.err, "decipher-cli: ");
}

/* Issue 33, all items: every writer × every target it must not write. */
static void
test_matrix (void)
{
  guint tried = 0, refused = 0, damaged = 0;

  for (guint w = 0; w < N_WRITERS; w++)
    for (guint t = 0; t < N_TARGETS; t++)
      {
        const char *name = target_name (w, t);
        g_autofree char *dir = NULL;
        g_autofree char *pdf_before = NULL;
        gboolean was_refused, intact;

        if (name == NULL)
          continue;
        dir = make_work_dir ();
        make_project (dir);
        if (w == WRITER_COLLECTION || w == WRITER_REPAIR_COLLECTION)
          {
            g_autofree char *in = g_build_filename (dir, "in", NULL);
            g_autofree char *out = g_build_filename (dir, "out", NULL);
            g_autofree char *pdf = g_build_filename (dir, "doc.pdf", NULL);
            g_autofree char *copy = g_build_filename (in, "doc.pdf", NULL);

            g_assert_cmpint (g_mkdir (in, 0700), ==, 0);
            g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
            g_assert_cmpint (link (pdf, copy), ==, 0);
          }
        if (!make_target (dir, t, name))
          {
            g_test_message ("%s x %s: cannot be made here", writer_names[w], target_names[t]);
            remove_work_dir (dir);
            continue;
          }
        pdf_before = read_file (dir, "doc.pdf");
        was_refused = run_writer (dir, w, t, name);
        intact = target_intact (dir, t, name, pdf_before);
        g_test_message ("%s x %s: %s, %s", writer_names[w], target_names[t],
                        was_refused ? "refused" : "NOT REFUSED", intact ? "intact" : "DAMAGED");
        tried++;
        refused += was_refused;
        damaged += !intact;
        remove_work_dir (dir);
      }
  g_test_message ("hostile targets: %u tried, %u refused, %u damaged", tried, refused, damaged);
  g_assert_cmpuint (damaged, ==, 0);
  g_assert_cmpuint (refused, ==, tried);
  g_assert_cmpuint (tried, >=, 30);
}

/* The value a new session on @dir's p.decipher gives @symbol, or NULL. */
static char *
project_value (const char *dir, gint64 symbol)
{
  static const char input[] = "{\"cmd\":\"symbols\"}\n";
  RunOptions options = { .cwd = dir, .input = input, .input_length = strlen (input) };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Run) run = { 0 };
  JsonArray *symbols;

  run_cli (&run, &options, "session", "doc.pdf", "--project", "p.decipher", "--no-auto", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, NULL));
  symbols = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "symbols");
  for (guint i = 0; i < json_array_get_length (symbols); i++)
    {
      JsonObject *entry = json_array_get_object_element (symbols, i);

      if (json_object_get_int_member (entry, "symbol") == symbol)
        return g_strdup (json_object_get_string_member (entry, "value"));
    }
  return NULL;
}

/* Item 1: `library export` onto the PDF, a project, a link, a pipe or a device printed
 * "2 entries exported." and replaced it; now each is refused and left as it was, and an
 * earlier export is still replaced. */
static void
test_library_export_targets (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *pdf_before = read_file (dir, "doc.pdf");
  RunOptions plain = { .cwd = dir };
  static const struct
  {
    Target kind;
    const char *name;
    const char *words;
  } cases[] = {
    { TARGET_PDF, "doc.pdf", "is not a Decipher font library" },
    { TARGET_PROJECT, "other.decipher", "is not a Decipher font library" },
    { TARGET_LINK, "link.sqlite", "symbolic link" },
    { TARGET_PIPE, "fifo", "is a pipe" },
    { TARGET_DEVICE, "null", "is a device" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Run) run = { 0 };

      if (!make_target (dir, cases[i].kind, cases[i].name))
        continue;
      run_cli (&run, &plain, "library", "export", cases[i].name, "--library", "lib.sqlite", NULL);
      assert_one_sentence (&run, cases[i].words);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_true (target_intact (dir, cases[i].kind, cases[i].name, pdf_before));
    }
  for (guint round = 0; round < 2; round++)
    {
      g_auto (Run) run = { 0 };

      run_cli (&run, &plain, "library", "export", "team.sqlite", "--library", "lib.sqlite", NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_cmpstr (run.out, ==, "0 entries exported.\n");
    }
  remove_work_dir (dir);
}

/* Item 2: `save` into the session's own (empty) journal was accepted, and after two
 * acknowledged decisions and a kill the project no longer opened; --library on an
 * emptied journal made it a database. */
static void
test_save_into_journal (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *journal = g_build_filename (dir, "p.decipher.journal", NULL);
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "session", "doc.pdf", "--project",
                         "p.decipher", "--no-auto", NULL };
  DcTestSpawn spawn = { .pipes = DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT, .cwd = dir };
  DcTestProcess session;
  g_autoptr (GError) error = NULL;
  static const char *const input[] = {
    "{\"cmd\":\"save\",\"path\":\"p.decipher.journal\"}\n",
    "{\"cmd\":\"save\",\"path\":\"q.decipher.journal\"}\n",
    "{\"cmd\":\"assign\",\"symbol\":22,\"text\":\"x\"}\n",
    "{\"cmd\":\"assign\",\"symbol\":23,\"text\":\"y\"}\n",
  };
  GStatBuf st;

  make_project (dir);
  write_file (dir, "q.decipher.journal", "");
  dc_test_process_spawn (&session, argv, &spawn);
  for (guint i = 0; i < G_N_ELEMENTS (input); i++)
    {
      g_autofree char *reply = NULL;

      g_assert_true (g_output_stream_write_all (session.in, input[i], strlen (input[i]), NULL,
                                                NULL, &error));
      g_assert_no_error (error);
      reply = g_data_input_stream_read_line (session.out, NULL, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s", reply);
      if (i < 2)
        {
          g_assert_true (g_str_has_prefix (reply, "{\"ok\":false"));
          g_assert_nonnull (strstr (reply, "journal or lock Decipher keeps"));
        }
      else
        g_assert_true (g_str_has_prefix (reply, "{\"ok\":true"));
    }
  /* Killed: the journal alone holds the two decisions. */
  dc_test_process_kill (&session);
  {
    g_autofree char *x = project_value (dir, 22);
    g_autofree char *y = project_value (dir, 23);
    g_autofree char *q = project_value (dir, 21);
    g_autofree char *other = read_file (dir, "q.decipher.journal");

    g_assert_cmpstr (x, ==, "x");
    g_assert_cmpstr (y, ==, "y");
    g_assert_cmpstr (q, ==, "q");
    /* The other project's journal is still empty. */
    g_assert_cmpstr (other, ==, "");
  }
  /* Nor does an emptied journal become a library. */
  {
    RunOptions plain = { .cwd = dir };
    g_auto (Run) run = { 0 };

    g_assert_cmpint (g_stat (journal, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, 0);
    run_cli (&run, &plain, "text", "doc.pdf", "--library", "p.decipher.journal", NULL);
    assert_one_sentence (&run, "journal or lock");
    g_assert_cmpint (g_stat (journal, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, 0);
  }
  remove_work_dir (dir);
}

/* Item 3: a lock file another account left, which this one cannot open for writing, was
 * taken as a read-only folder and skipped, and two sessions wrote at once. Now a lock
 * file that cannot be opened at all refuses with a sentence, and one that can be read is
 * locked all the same: a second session is refused. Root runs the sessions without the
 * right to override permissions, as another account would be. */
static void
test_lock_other_account (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *lock = g_build_filename (dir, "p.decipher.lock", NULL);
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "session", "doc.pdf", "--project",
                         "p.decipher", NULL };
  DcTestProcess first;
  g_autoptr (GError) error = NULL;
  static const char status[] = "{\"cmd\":\"status\"}\n";
  static const char assign[] = "{\"cmd\":\"assign\",\"symbol\":22,\"text\":\"z\"}\n";
  RunOptions other = { .cwd = dir, .other_account = TRUE, .input = status,
                       .input_length = strlen (status) };
  gboolean root = geteuid () == 0;

  make_project (dir);
  write_file (dir, "p.decipher.lock", "decipher-cli session, process 1\n");
  /* Not even readable: refused, with a sentence. */
  if (root)
    g_assert_cmpint (chown (lock, 65534, 65534), ==, 0);
  g_assert_cmpint (g_chmod (lock, root ? 0600 : 0000), ==, 0);
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &other, "session", "doc.pdf", "--project", "p.decipher", NULL);
    assert_one_sentence (&run, "belongs to another account");
    g_assert_cmpstr (run.out, ==, "");
  }

  /* Readable but not writable: the first session locks it, the second is refused. */
  g_assert_cmpint (g_chmod (lock, 0444), ==, 0);
  {
    DcTestSpawn spawn = { .pipes = DC_TEST_PIPE_IN | DC_TEST_PIPE_OUT,
                          .cwd = dir,
                          .child_setup = run_child_setup,
                          .child_setup_data = &other };

    dc_test_process_spawn (&first, argv, &spawn);
  }
  for (guint i = 0; i < 2; i++)
    {
      const char *request = i == 0 ? status : assign;
      g_autofree char *reply = NULL;

      g_assert_true (g_output_stream_write_all (first.in, request, strlen (request), NULL, NULL,
                                                &error));
      reply = g_data_input_stream_read_line (first.out, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (reply, "{\"ok\":true"));
      if (i == 0)
        {
          g_auto (Run) second = { 0 };

          run_cli (&second, &other, "session", "doc.pdf", "--project", "p.decipher", NULL);
          assert_one_sentence (&second, "is open in another program");
        }
    }
  g_assert_cmpint (dc_test_process_wait (&first), ==, 0);
  /* Not ours to remove. */
  g_assert_true (g_file_test (lock, G_FILE_TEST_IS_REGULAR));
  {
    g_autofree char *z = project_value (dir, 22);

    g_assert_cmpstr (z, ==, "z");
  }
  remove_work_dir (dir);
}

/* Item 4: on a real 64 KB tmpfs, the journal fills the disk, the user frees space, twelve
 * more decisions are acknowledged and the session is killed: all twelve are in the
 * project. Needs a tmpfs mount: as root, or in a user namespace; skipped without. */
static void
test_journal_after_full_disk (void)
{
  g_autofree char *script = dc_test_fixture_path ("full-tmpfs-journal.py");
  g_autofree char *pdf = dc_test_fixture_path ("legacy-cyrillic.pdf");
  const char *argv[] = { "unshare", geteuid () == 0 ? "-m" : "-rm", "python3", script,
                         g_getenv ("DECIPHER_CLI"), pdf, NULL };
  RunOptions plain = { 0 };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Run) run = { 0 };
  JsonObject *counts;

  run_argv (&run, &plain, argv);
  if (run.status != 0)
    {
      g_test_message ("%s", run.err);
      g_test_skip ("No tmpfs mount here (needs root or user namespaces)");
      return;
    }
  g_test_message ("%s", run.out);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, NULL));
  counts = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_boolean_member (counts, "reopened"));
  g_assert_cmpint (json_object_get_int_member (counts, "refused_while_full"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (counts, "acknowledged"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (counts, "kept"), ==, 12);
}

/* Item 5: `text DIR -o OUTDIR` replaced book.txt and thesis.json, also with OUTDIR = DIR.
 * Now an existing result stops the run before anything is written, unless --overwrite;
 * and even then a link is not written through. */
static void
test_collection_overwrite (void)
{
  g_autofree char *dir = make_work_dir ();
  RunOptions plain = { .cwd = dir };

  write_file (dir, "doc.txt", "my own book\n");
  write_file (dir, "doc.json", "{\"my\": \"thesis\"}\n");
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "text", ".", "-o", ".", NULL);
    assert_one_sentence (&run, "already exists; nothing was written. Give --overwrite");
    g_assert_cmpint (run.status, ==, 2);
  }
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "text", ".", "-o", ".", "--format", "json", NULL);
    assert_one_sentence (&run, "doc.json");
  }
  {
    g_autofree char *book = read_file (dir, "doc.txt");
    g_autofree char *thesis = read_file (dir, "doc.json");

    g_assert_cmpstr (book, ==, "my own book\n");
    g_assert_cmpstr (thesis, ==, "{\"my\": \"thesis\"}\n");
  }
  {
    g_auto (Run) run = { 0 };
    g_autofree char *book = NULL;

    run_cli (&run, &plain, "text", ".", "-o", ".", "--overwrite", NULL);
    g_assert_cmpint (run.status, !=, 2);
    g_assert_cmpint (run.status, !=, 1);
    book = read_file (dir, "doc.txt");
    g_assert_cmpstr (book, !=, "my own book\n");
  }
  /* A write that fails half way (the file size limit; a full disk alike) leaves the
   * file it would replace as it was, and no half file beside it. */
#if !defined(__SANITIZE_THREAD__)
  {
    RunOptions limited = { .cwd = dir, .file_size = 4096 };
    g_auto (Run) run = { 0 };
    g_autoptr (GDir) folder = NULL;
    g_autofree char *thesis = NULL;
    const char *name;

    write_file (dir, "doc.json", "{\"my\": \"thesis\"}\n");
    run_cli (&run, &limited, "text", "doc.pdf", "-o", ".", "--format", "json", "--overwrite",
             NULL);
    g_assert_true (strstr (run.err, "Cannot write") != NULL);
    g_assert_true (strstr (run.err, "doc.json") != NULL);
    g_assert_cmpint (run.status, ==, 1);
    thesis = read_file (dir, "doc.json");
    g_assert_cmpstr (thesis, ==, "{\"my\": \"thesis\"}\n");
    folder = g_dir_open (dir, 0, NULL);
    while ((name = g_dir_read_name (folder)) != NULL)
      g_assert_false (g_str_has_prefix (name, "doc.json."));
  }
#endif
  /* A link in the way is refused even with --overwrite. */
  {
    g_autofree char *link = g_build_filename (dir, "doc.txt", NULL);
    g_autofree char *victim = NULL;
    g_auto (Run) run = { 0 };

    g_assert_cmpint (g_unlink (link), ==, 0);
    write_file (dir, "victim.txt", victim_text);
    g_assert_cmpint (symlink ("victim.txt", link), ==, 0);
    run_cli (&run, &plain, "text", ".", "-o", ".", "--overwrite", NULL);
    assert_one_sentence (&run, "symbolic link");
    victim = read_file (dir, "victim.txt");
    g_assert_cmpstr (victim, ==, victim_text);
  }
  remove_work_dir (dir);
}

/* python3 -c SCRIPT ARG, which must succeed. */
static void
python (const char *script, const char *arg)
{
  const char *argv[] = { "python3", "-c", script, arg, NULL };
  RunOptions plain = { 0 };
  g_auto (Run) run = { 0 };

  run_argv (&run, &plain, argv);
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 0);
}

#define LIBRARY_META                                                                               \
  "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n"                              \
  "INSERT INTO meta VALUES ('format', 'decipher-font-library'), ('version', '%s');\n"
#define LIBRARY_GLYPHS                                                                             \
  "CREATE TABLE glyphs (fingerprint BLOB NOT NULL, value TEXT NOT NULL, script TEXT, "             \
  "language TEXT, coarse BLOB NOT NULL, font TEXT, uses INTEGER NOT NULL, "                        \
  "updated INTEGER NOT NULL, PRIMARY KEY (fingerprint, value));\n"

/* @dir/@name made by SQLite from @sql. */
static void
make_database (const char *dir, const char *name, const char *sql)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *sql_path = g_build_filename (dir, "schema.sql", NULL);
  g_autofree char *script = g_strdup_printf (
      "import sqlite3, sys\n"
      "db = sqlite3.connect (sys.argv[1])\n"
      "db.executescript (open ('%s').read ())\n"
      "db.commit ()\n",
      sql_path);

  g_assert_true (g_file_set_contents (sql_path, sql, -1, NULL));
  python (script, path);
}

/* Item 6: a library whose glyphs are a view that never ends kept every command busy past
 * 30 s; one of version 999 was written to; a dangling link as the library made its
 * target (and a link to an empty file would have made it a library). Each is now refused with a sentence, and left as it was. (A command that hung
 * would keep this test past its time-out.) */
static void
test_hostile_library (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *hanging = g_strdup_printf (
      LIBRARY_META "CREATE VIEW glyphs AS WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL "
                   "SELECT n + 1 FROM r) SELECT x'00' AS fingerprint, 'a' AS value, NULL AS "
                   "script, NULL AS language, x'00' AS coarse, NULL AS font, n AS uses, 0 AS "
                   "updated FROM r;\n",
      "1");
  g_autofree char *newer = g_strdup_printf (LIBRARY_META LIBRARY_GLYPHS, "999");
  g_autofree char *trigger = g_strdup_printf (
      LIBRARY_META LIBRARY_GLYPHS
      "CREATE TRIGGER t AFTER INSERT ON glyphs BEGIN DELETE FROM meta; END;\n",
      "1");
  g_autofree char *newer_before = NULL;
  g_autofree char *newer_after = NULL;
  RunOptions plain = { .cwd = dir };
  static const char input[] = "{\"cmd\":\"status\"}\n";
  RunOptions session = { .cwd = dir, .input = input, .input_length = strlen (input) };
  static const char *const libraries[] = { "hang.sqlite", "newer.sqlite", "trigger.sqlite" };

  make_database (dir, "hang.sqlite", hanging);
  make_database (dir, "newer.sqlite", newer);
  make_database (dir, "trigger.sqlite", trigger);
  newer_before = read_file (dir, "newer.sqlite");

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      const char *library = libraries[i];
      const char *words = i == 1 ? "made by a newer version of Decipher"
                                 : "is not a Decipher font library";
      g_auto (Run) text = { 0 };
      g_auto (Run) fonts = { 0 };
      g_auto (Run) run_session = { 0 };
      g_auto (Run) export = { 0 };
      g_auto (Run) import = { 0 };

      run_cli (&text, &plain, "text", "doc.pdf", "--library", library, NULL);
      assert_one_sentence (&text, words);
      run_cli (&fonts, &plain, "fonts", "doc.pdf", "--json", "--library", library, NULL);
      assert_one_sentence (&fonts, words);
      run_cli (&run_session, &session, "session", "doc.pdf", "--library", library, NULL);
      assert_one_sentence (&run_session, words);
      run_cli (&export, &plain, "library", "export", "out.sqlite", "--library", library, NULL);
      assert_one_sentence (&export, words);
      run_cli (&import, &plain, "library", "import", library, "--library", "mine.sqlite", NULL);
      assert_one_sentence (&import, words);
    }
  newer_after = read_file (dir, "newer.sqlite");
  g_assert_true (g_str_equal (newer_before, newer_after));

  /* A dangling link as the library: refused, its target not made. */
  {
    g_autofree char *link = g_build_filename (dir, "link.sqlite", NULL);
    g_autofree char *missing = g_build_filename (dir, "missing.sqlite", NULL);
    g_auto (Run) run = { 0 };

    g_assert_cmpint (symlink ("missing.sqlite", link), ==, 0);
    run_cli (&run, &plain, "text", "doc.pdf", "--library", "link.sqlite", NULL);
    assert_one_sentence (&run, "symbolic link to a file that does not exist");
    g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  }
  /* Nor one to an empty file, which would become a library. */
  {
    g_autofree char *link = g_build_filename (dir, "empty-link.sqlite", NULL);
    g_autofree char *after = NULL;
    g_auto (Run) run = { 0 };

    write_file (dir, "empty.txt", "");
    g_assert_cmpint (symlink ("empty.txt", link), ==, 0);
    run_cli (&run, &plain, "text", "doc.pdf", "--library", "empty-link.sqlite", NULL);
    assert_one_sentence (&run, "symbolic link to an empty file");
    after = read_file (dir, "empty.txt");
    g_assert_cmpstr (after, ==, "");
  }
  remove_work_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile-writers/matrix", test_matrix);
  g_test_add_func ("/hostile-writers/library-export-targets", test_library_export_targets);
  g_test_add_func ("/hostile-writers/save-into-journal", test_save_into_journal);
  g_test_add_func ("/hostile-writers/lock-other-account", test_lock_other_account);
  g_test_add_func ("/hostile-writers/journal-after-full-disk", test_journal_after_full_disk);
  g_test_add_func ("/hostile-writers/collection-overwrite", test_collection_overwrite);
  g_test_add_func ("/hostile-writers/hostile-library", test_hostile_library);
  return g_test_run ();
}
