/* test-hostile.c: decipher-cli as a process, given what an attacker or a bad day prepares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 11, items 5–10: paths a save must not write (the PDF, a link, a device, another
 * project, a NUL), a journal linked to a victim's file, a glyph bomb, requests with NUL or
 * of 100 MB, names that would drive the terminal, and a read-only file system; issue 33,
 * items 7 and 8: standard output that cannot be written, forms nested a million-fold and
 * the smaller ones. Each runs the real decipher-cli in a temporary folder; hostile PDFs
 * are made by tests/fixtures/generate-hostile.py and generate-form-bomb.py. (Every writer
 * against every target: test-hostile-writers.c.)
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dc-test-cli.h"
#include "dc-test-fixtures.h"

/* generate-hostile.py OUT PAGES GLYPHS BASE_FONT [GLYPH_NAME] into @dir. */
static char *
generate_named (const char *dir, const char *name, const char *pages, const char *glyphs,
                const char *base_font, const char *glyph_name)
{
  g_autofree char *script = dc_test_fixture_path ("generate-hostile.py");
  char *out = g_build_filename (dir, name, NULL);
  const char *argv[] = { "python3", script, out, pages, glyphs, base_font, glyph_name, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static char *
generate_hostile (const char *dir, const char *name, const char *pages, const char *glyphs,
                  const char *base_font)
{
  return generate_named (dir, name, pages, glyphs, base_font, NULL);
}

static JsonObject *
parse_reply (JsonParser *parser, const char *line)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Item 5: "save" writes only this session's own files, never the PDF, a device, a link
 * or another project, and a NUL in the path is refused, not cut at. */
static void
test_save_targets (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *pdf_before = read_file (dir, "doc.pdf");
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *link = g_build_filename (dir, "link.decipher", NULL);
  g_autofree char *other = g_build_filename (dir, "other.decipher", NULL);
  g_autofree char *other_after = NULL;
  g_autofree char *pdf_after = NULL;
  g_auto (GStrv) replies = NULL;
  g_auto (Run) run = { 0 };
  static const char input[] =
      "{\"cmd\":\"save\",\"path\":\"doc.pdf\"}\n"
      "{\"cmd\":\"save\",\"path\":\"x\\u0000y\"}\n"
      "{\"cmd\":\"save\",\"path\":\"fifo\"}\n"
      "{\"cmd\":\"save\",\"path\":\"link.decipher\"}\n"
      "{\"cmd\":\"save\",\"path\":\"other.decipher\"}\n"
      "{\"cmd\":\"save\",\"path\":\"copy.decipher\"}\n"
      "{\"cmd\":\"save\",\"path\":\"copy.decipher\"}\n"
      "{\"cmd\":\"save\",\"path\":\"p.decipher\"}\n";
  static const char *const expected[] = {
    "is the document itself",
    "U+0000",
    "is a pipe, not a regular file",
    "is a symbolic link",
    "already exists and is not this session’s project",
    NULL, NULL, NULL,
  };
  RunOptions options = { .cwd = dir, .input = input, .input_length = strlen (input) };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("victim.txt", link), ==, 0);
  g_assert_true (g_file_set_contents (other, "{\"someone else's\": \"work\"}\n", -1, NULL));

  run_cli (&run, &options, "session", "doc.pdf", "--project", "p.decipher", "--no-auto", NULL);
  g_assert_cmpint (run.status, ==, 0);
  replies = g_strsplit (run.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (replies), ==, G_N_ELEMENTS (expected) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *reply = parse_reply (parser, replies[i]);

      g_test_message ("%s", replies[i]);
      g_assert_cmpint (json_object_get_boolean_member (reply, "ok"), ==, expected[i] == NULL);
      if (expected[i] != NULL)
        g_assert_nonnull (strstr (json_object_get_string_member (reply, "error"), expected[i]));
    }

  pdf_after = read_file (dir, "doc.pdf");
  g_assert_true (g_str_equal (pdf_before, pdf_after));
  other_after = read_file (dir, "other.decipher");
  g_assert_cmpstr (other_after, ==, "{\"someone else's\": \"work\"}\n");
  {
    g_autofree char *x = g_build_filename (dir, "x", NULL);
    g_autofree char *victim = g_build_filename (dir, "victim.txt", NULL);
    g_autofree char *copy = g_build_filename (dir, "copy.decipher", NULL);
    g_autofree char *backup = g_build_filename (dir, "doc.pdf~", NULL);
    GStatBuf st;

    g_assert_false (g_file_test (x, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (victim, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (copy, G_FILE_TEST_IS_REGULAR));
    g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
    g_assert_true (S_ISFIFO (st.st_mode));
    g_assert_cmpint (g_lstat (link, &st), ==, 0);
    g_assert_true (S_ISLNK (st.st_mode));
  }
  remove_work_dir (dir);
}

/* Item 5: repair -o never replaces a project (or anything that is not a PDF). */
static void
test_repair_over_project (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_auto (Run) session = { 0 };
  g_auto (Run) repair = { 0 };
  static const char input[] = "{\"cmd\":\"assign\",\"symbol\":3,\"text\":\"q\"}\n";
  RunOptions options = { .cwd = dir, .input = input, .input_length = strlen (input) };
  RunOptions plain = { .cwd = dir };

  run_cli (&session, &options, "session", "doc.pdf", "--project", "p.decipher", NULL);
  g_assert_cmpint (session.status, ==, 0);
  before = read_file (dir, "p.decipher");

  run_cli (&repair, &plain, "repair", "doc.pdf", "--project", "p.decipher", "-o", "p.decipher",
           NULL);
  assert_one_sentence (&repair, "is not a PDF");
  after = read_file (dir, "p.decipher");
  g_assert_cmpstr (before, ==, after);
  remove_work_dir (dir);
}

/* Item 6: a journal (or project) that is a symbolic link is refused, and the file it
 * points to stays as it was. */
static void
test_journal_symlink (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *victim = g_build_filename (dir, "victim.txt", NULL);
  g_autofree char *journal = g_build_filename (dir, "p.decipher.journal", NULL);
  g_autofree char *project_link = g_build_filename (dir, "q.decipher", NULL);
  g_autofree char *after = NULL;
  static const char victim_text[] = "line one\nan unfinished line";
  static const char input[] = "{\"cmd\":\"status\"}\n";
  RunOptions options = { .cwd = dir, .input = input, .input_length = strlen (input) };

  g_assert_true (g_file_set_contents (victim, victim_text, -1, NULL));
  g_assert_cmpint (symlink ("victim.txt", journal), ==, 0);

  /* New work, and then a project that exists: neither follows the link. */
  for (guint round = 0; round < 2; round++)
    {
      g_auto (Run) run = { 0 };

      run_cli (&run, &options, "session", "doc.pdf", "--project", "p.decipher", NULL);
      assert_one_sentence (&run, "symbolic link");
      g_assert_cmpstr (run.out, ==, "");
      g_clear_pointer (&after, g_free);
      after = read_file (dir, "victim.txt");
      g_assert_cmpstr (after, ==, victim_text);
    }

  {
    g_auto (Run) run = { 0 };

    g_assert_cmpint (symlink ("victim.txt", project_link), ==, 0);
    run_cli (&run, &options, "session", "doc.pdf", "--project", "q.decipher", NULL);
    assert_one_sentence (&run, "symbolic link");
    g_clear_pointer (&after, g_free);
    after = read_file (dir, "victim.txt");
    g_assert_cmpstr (after, ==, victim_text);
  }
  remove_work_dir (dir);
}

/* Item 7: 2000 pages sharing one stream of 50 000 glyphs (100 million glyphs, 300 KB).
 * Without a cap it took 4.8 GB and aborted under a memory limit; now loading stops at
 * the limit with a sentence naming it and the option that raises it. */
static void
test_glyph_bomb (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *bomb = generate_hostile (dir, "bomb.pdf", "2000", "50000", "Helvetica");
  RunOptions limited = { .cwd = dir, .address_space = (guint64) 3 << 30 };
  RunOptions small = { .cwd = dir, .address_space = (guint64) 512 << 20 };
  RunOptions plain = { .cwd = dir };

  if (!UNDER_SANITIZER)
    {
      g_auto (Run) run = { 0 };

      run_cli (&run, &limited, "text", "bomb.pdf", NULL);
      assert_one_sentence (&run, "draws more than 10000000 glyphs");
      g_assert_nonnull (strstr (run.err, "--max-glyphs N"));
      g_assert_cmpstr (run.out, ==, "");
    }
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "glyphs", "bomb.pdf", "--max-glyphs", "1000", NULL);
    assert_one_sentence (&run, "draws more than 1000 glyphs");
    g_assert_nonnull (strstr (run.err, "page 1 of 2000"));
  }
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "fonts", "bomb.pdf", "--max-memory", "1", NULL);
    assert_one_sentence (&run, "1 MB");
    g_assert_nonnull (strstr (run.err, "--max-memory MB"));
  }
  /* Less memory than the limit needs: still a sentence, never an abort. */
  if (!UNDER_SANITIZER)
    {
      g_auto (Run) run = { 0 };

      run_cli (&run, &small, "text", "bomb.pdf", NULL);
      assert_one_sentence (&run, "bomb.pdf");
    }
  /* A real document within a raised limit loads as before. */
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "text", "doc.pdf", "--max-glyphs", "2000", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "");
    g_assert_cmpuint (strlen (run.out), >, 100);
  }
  remove_work_dir (dir);
}

/* Item 8: NUL in any string or on its own is refused and answered; a line of 100 MB is
 * refused without being held (the session runs within 256 MB of address space). */
static void
test_protocol_nul_and_length (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *input_path = g_build_filename (dir, "input.jsonl", NULL);
  g_autoptr (GString) input = g_string_new (NULL);
  g_auto (GStrv) replies = NULL;
  g_auto (Run) run = { 0 };
  RunOptions options = { .cwd = dir, .stdin_path = input_path,
                         .address_space = (guint64) 256 << 20 };
  FILE *file;

  g_string_append (input, "{\"cmd\":\"assign\",\"symbol\":3,\"text\":\"\\u0000\"}\n");
  g_string_append (input, "{\"cmd\":\"status\\u0000x\"}\n");
  g_string_append_len (input, "\0\n", 2);
  g_string_append_len (input, "{\"cmd\":\"status\"}\0junk\n", 22);
  g_string_append (input, "{\"cmd\":\"symbols\"}\n");

  file = fopen (input_path, "wb");
  g_assert_nonnull (file);
  fwrite (input->str, 1, input->len, file);
  /* 100 MB in one line. */
  {
    g_autofree char *block = g_malloc (1 << 20);

    memset (block, 'a', 1 << 20);
    fputs ("{\"cmd\":\"status\",\"pad\":\"", file);
    for (guint i = 0; i < 100; i++)
      fwrite (block, 1, 1 << 20, file);
    fputs ("\"}\n", file);
  }
  fputs ("{\"cmd\":\"status\"}\n", file);
  fclose (file);

  run_cli (&run, &options, "session", "doc.pdf", "--no-auto", NULL);
  g_assert_cmpint (run.status, ==, 0);
  replies = g_strsplit (run.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (replies), ==, 7 + 1);
  for (guint i = 0; i < 7; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *reply = parse_reply (parser, replies[i]);
      gboolean ok = i == 4 || i == 6;

      g_test_message ("%.200s", replies[i]);
      g_assert_cmpint (json_object_get_boolean_member (reply, "ok"), ==, ok);
      if (i < 4)
        g_assert_nonnull (strstr (json_object_get_string_member (reply, "error"), "U+0000"));
      if (i == 5)
        g_assert_nonnull (strstr (json_object_get_string_member (reply, "error"),
                                  "longer than 64 KiB"));
    }
  /* The assignment was refused, not made: the symbol is still unknown. */
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *reply = parse_reply (parser, replies[4]);
    JsonArray *symbols = json_object_get_array_member (reply, "symbols");

    for (guint i = 0; i < json_array_get_length (symbols); i++)
      {
        JsonObject *symbol = json_array_get_object_element (symbols, i);

        if (json_object_get_int_member (symbol, "symbol") == 3)
          g_assert_cmpstr (json_object_get_string_member (symbol, "status"), ==, "unknown");
      }
  }
  remove_work_dir (dir);
}

static void
assert_no_control_bytes (const char *text)
{
  for (const char *p = text; *p; p++)
    g_assert_true ((guchar) *p >= 0x20 || *p == '\n' || *p == '\t');
  g_assert_null (strstr (text, "\xc2\x9b"));
}

/* Item 9: a font, a file and a project's document named with terminal controls are
 * printed escaped: ESC ] 0 ; PWNED BEL would retitle the terminal. */
static void
test_escaped_names (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *evil = generate_hostile (dir, "evil.pdf", "1", "200",
                                            "Evil#1B#5D0;PWNED#07#C2#9Bx");
  g_autofree char *evil_name = g_build_filename (dir, "x\033]0;PWNED\a.pdf", NULL);
  g_autofree char *project = g_build_filename (dir, "evil.decipher", NULL);
  g_autofree char *contents = NULL;
  gsize length;
  RunOptions plain = { .cwd = dir };

  g_assert_true (g_file_get_contents (evil, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (evil_name, contents, (gssize) length, NULL));
  g_assert_true (g_file_set_contents (
      project,
      "{\"format\":\"decipher-project\",\"version\":1,\"document\":{\"sha256\":"
      "\"0000000000000000000000000000000000000000000000000000000000000000\",\"file\":"
      "\"\\u001b]0;PWNED\\u0007.pdf\",\"pages\":1},\"key\":[]}\n",
      -1, NULL));

  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "fonts", "evil.pdf", NULL);
    g_assert_cmpint (run.status, ==, 0);
    assert_no_control_bytes (run.out);
    g_assert_nonnull (strstr (run.out, "Evil\\x1b]0;PWNED\\x07\\u009bx"));
  }
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "fonts", "evil.pdf", "--json", NULL);
    g_assert_cmpint (run.status, ==, 0);
    assert_no_control_bytes (run.out);
    g_assert_nonnull (strstr (run.out, "Evil\\u001b]0;PWNED\\u0007\\u009bx"));
  }
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "text", "x\033]0;PWNED\a.pdf", "--project", "evil.decipher", NULL);
    assert_one_sentence (&run, "made for “\\x1b]0;PWNED\\x07.pdf”, not for “x\\x1b]0;PWNED\\x07.pdf”");
  }
  remove_work_dir (dir);
}

/* A font and a glyph named with a quote, a backslash, UTF-8, a byte that is not UTF-8 and
 * a control: every line of `glyphs --json` and the whole of `fonts --json` is valid
 * UTF-8 JSON, each string escaped once, and both name the glyph alike (U+FFFD for the
 * stray byte). */
static void
test_json_names (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *pdf = generate_named (dir, "names.pdf", "1", "200", "Fo#22o#5Cb#C3#A9r#E9",
                                         "q#22b#5Cc#C3#A9#E9#01");
  const char *glyph_name = "q\"b\\c\u00e9\ufffd\001"; /* as a JSON reader gives it */
  const char *shown = "q\\\"b\\\\c\xc3\xa9\xef\xbf\xbd\\u0001"; /* as written */
  RunOptions plain = { .cwd = dir };
  guint named = 0;

  {
    g_auto (Run) run = { 0 };
    g_auto (GStrv) lines = NULL;

    run_cli (&run, &plain, "glyphs", "names.pdf", "--json", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_utf8_validate (run.out, -1, NULL));
    assert_no_control_bytes (run.out);
    g_assert_nonnull (strstr (run.out, shown));
    lines = g_strsplit (run.out, "\n", -1);
    for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_autoptr (JsonParser) parser = json_parser_new ();
        JsonObject *glyph = parse_reply (parser, lines[i]);

        /* A name the AGL does not know gives no text, not the code's "a" (issue 28). */
        if (g_strcmp0 (json_object_get_string_member (glyph, "glyph_name"), glyph_name) == 0)
          {
            g_assert_cmpstr (json_object_get_string_member (glyph, "pdf_text"), ==, "");
            named++;
          }
      }
    g_assert_cmpuint (named, >, 0);
  }
  {
    g_auto (Run) run = { 0 };
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (GError) error = NULL;
    JsonObject *font;
    JsonArray *key;
    gboolean found = FALSE;

    run_cli (&run, &plain, "fonts", "names.pdf", "--json", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_utf8_validate (run.out, -1, NULL));
    json_parser_load_from_data (parser, run.out, -1, &error);
    g_assert_no_error (error);
    font = json_array_get_object_element (json_node_get_array (json_parser_get_root (parser)), 0);
    g_assert_cmpstr (json_object_get_string_member (font, "name"), ==, "Fo\"o\\b\u00e9r\ufffd");
    key = json_object_get_array_member (font, "key");
    for (guint i = 0; i < json_array_get_length (key); i++)
      {
        JsonObject *entry = json_array_get_object_element (key, i);

        if (json_object_get_int_member (entry, "code") == 97)
          {
            g_assert_cmpstr (json_object_get_string_member (entry, "glyph_name"), ==, glyph_name);
            found = TRUE;
          }
      }
    g_assert_true (found);
  }
  remove_work_dir (dir);
}

/* Item 10: a session on a read-only file system says so in one sentence. It needs a
 * read-only mount: as root, or in a user namespace (unshare -rm); skipped without. */
static void
test_read_only (void)
{
  g_autofree char *dir = make_work_dir ();
  g_autofree char *mount_point = g_build_filename (dir, "ro", NULL);
  g_autofree char *script = NULL;
  g_auto (Run) probe = { 0 };
  RunOptions plain = { .cwd = dir };
  const char *cli = g_getenv ("DECIPHER_CLI");

  g_assert_cmpint (g_mkdir (mount_point, 0700), ==, 0);
  /* One project made while writable, then the mount turns read-only; the session on the
   * existing project and one on a new project each get one sentence. */
  script = g_strdup_printf (
      "set -e; mount -t tmpfs -o size=8m tmpfs ro; cp doc.pdf ro/; cd ro; "
      "echo '{\"cmd\":\"assign\",\"symbol\":3,\"text\":\"q\"}' | '%s' session doc.pdf "
      "--project p.decipher > /dev/null; cd ..; mount -o remount,ro ro; cd ro; set +e; "
      "echo '{\"cmd\":\"status\"}' | '%s' session doc.pdf --project p.decipher "
      "2> ../existing.err; echo $? > ../existing.status; "
      "echo '{\"cmd\":\"status\"}' | '%s' session doc.pdf --project new.decipher "
      "2> ../new.err; echo $? > ../new.status; cd ..; umount ro",
      cli, cli, cli);
  {
    const char *argv[] = { "unshare", geteuid () == 0 ? "-m" : "-rm", "sh", "-c", script, NULL };

    run_argv (&probe, &plain, argv);
  }
  if (probe.status != 0)
    {
      g_test_message ("%s", probe.err);
      g_test_skip ("No read-only mount here (needs root or user namespaces)");
      remove_work_dir (dir);
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "existing" : "new";
      g_autofree char *err_name = g_strconcat (name, ".err", NULL);
      g_autofree char *status_name = g_strconcat (name, ".status", NULL);
      g_autofree char *status = read_file (dir, status_name);
      g_auto (Run) run = { 0 };

      run.err = read_file (dir, err_name);
      run.status = atoi (status);
      assert_one_sentence (&run, "read-only file system");
    }
  remove_work_dir (dir);
}

/* Issue 33, item 7: `text --format json > /full/out.json` exited 0 with 16 KB of 143 KB written.
 * Every command writing to a full disk (/dev/full) now exits 1 with a sentence; and past
 * `ulimit -f` a write fails with a sentence instead of SIGXFSZ killing the process. */
static void
test_short_writes (void)
{
  g_autofree char *dir = make_work_dir ();
  static const char input[] = "{\"cmd\":\"status\"}\n";
  RunOptions full = { .cwd = dir, .stdout_path = "/dev/full" };
  RunOptions full_session = { .cwd = dir, .stdout_path = "/dev/full", .input = input,
                              .input_length = strlen (input) };
  static const char *const commands[][6] = {
    { "text", "doc.pdf", "--format", "json", NULL },
    { "text", "doc.pdf", NULL },
    { "glyphs", "doc.pdf", NULL },
    { "glyphs", "doc.pdf", "--json", NULL },
    { "fonts", "doc.pdf", NULL },
    { "fonts", "doc.pdf", "--json", NULL },
    { "text", "doc.pdf", "--format", "map-json", NULL },
    { "text", "doc.pdf", "--format", "cmap", "--font", "1" },
    { "session", "doc.pdf", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto (Run) run = { 0 };
      const char *const *c = commands[i];

      g_test_message ("%s %s %s", c[0], c[2] ? c[2] : "", c[3] ? c[3] : "");
      run_cli (&run, g_str_equal (c[0], "session") ? &full_session : &full, c[0], c[1], c[2],
               c[3], c[4], c[5], NULL);
      assert_one_sentence (&run, "The output could not be written whole");
      g_assert_cmpint (run.status, ==, 1);
    }
#if !defined(__SANITIZE_THREAD__)
  {
    g_autofree char *out = g_build_filename (dir, "out.json", NULL);
    RunOptions limited = { .cwd = dir, .stdout_path = out, .file_size = 4096 };
    g_auto (Run) run = { 0 };

    run_cli (&run, &limited, "text", "doc.pdf", "--format", "json", NULL);
    assert_one_sentence (&run, "could not be written whole");
    g_assert_cmpint (run.status, ==, 1);
  }
#else
  /* ThreadSanitizer's own runtime takes SIGBUS under a file size limit, in its shadow
   * memory, before decipher-cli writes anything (`ulimit -f 4; decipher-cli text …` in
   * the _build/tsan build): the normal and ASan builds test the limit. */
  g_test_message ("ulimit -f is tested in the builds without ThreadSanitizer");
#endif
  remove_work_dir (dir);
}

/* Issue 33, item 8: the smaller ones. */
static void
test_small (void)
{
  g_autofree char *dir = make_work_dir ();
  RunOptions plain = { .cwd = dir };

  /* --max-glyphs 0 meant the default without a word. */
  {
    g_auto (Run) run = { 0 };

    run_cli (&run, &plain, "text", "doc.pdf", "--max-glyphs", "0", NULL);
    assert_one_sentence (&run, "take a positive number");
    g_assert_cmpint (run.status, ==, 2);
  }
  /* A collection's progress line printed a file's error as it was, escapes and all. */
  {
    g_autofree char *in = g_build_filename (dir, "in", NULL);
    g_autofree char *evil = g_build_filename (in, "x\033]0;PWNED\a.pdf", NULL);
    g_auto (Run) run = { 0 };

    g_assert_cmpint (g_mkdir (in, 0700), ==, 0);
    g_assert_true (g_file_set_contents (evil, "not a PDF at all\n", -1, NULL));
    run_cli (&run, &plain, "text", "in", "-o", "out", NULL);
    g_test_message ("%s", run.err);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_null (strchr (run.err, '\033'));
    g_assert_null (strchr (run.err, '\a'));
    g_assert_nonnull (strstr (run.err, "x\\x1b]0;PWNED\\x07.pdf"));
  }
  /* Forms drawing forms, 2 wide and 30 deep: over 120 s on one page. Now the page is
   * refused with a sentence once its work passes what any real page needs; the same
   * forms 12 deep (4095 of them, 2048 glyphs) still read whole. */
  {
    g_autofree char *script = dc_test_fixture_path ("generate-form-bomb.py");
    g_autofree char *deep = g_build_filename (dir, "deep.pdf", NULL);
    g_autofree char *shallow = g_build_filename (dir, "shallow.pdf", NULL);
    const char *make_deep[] = { "python3", script, deep, "30", "2", NULL };
    const char *make_shallow[] = { "python3", script, shallow, "12", "2", NULL };
    g_auto (Run) made = { 0 };
    g_auto (Run) made_too = { 0 };
    g_auto (Run) run = { 0 };
    g_auto (Run) whole = { 0 };

    run_argv (&made, &plain, make_deep);
    g_assert_cmpint (made.status, ==, 0);
    run_argv (&made_too, &plain, make_shallow);
    g_assert_cmpint (made_too.status, ==, 0);
    run_cli (&run, &plain, "text", "deep.pdf", NULL);
    assert_one_sentence (&run, "far more drawing work than any real page");
    g_assert_cmpstr (run.out, ==, "");
    run_cli (&whole, &plain, "glyphs", "shallow.pdf", NULL);
    g_assert_cmpint (whole.status, ==, 0);
    g_assert_cmpuint (count_lines (whole.out), ==, 2048 + 1); /* a header, then glyphs */
  }
  remove_work_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile/save-targets", test_save_targets);
  g_test_add_func ("/hostile/repair-over-project", test_repair_over_project);
  g_test_add_func ("/hostile/journal-symlink", test_journal_symlink);
  g_test_add_func ("/hostile/glyph-bomb", test_glyph_bomb);
  g_test_add_func ("/hostile/protocol-nul-and-length", test_protocol_nul_and_length);
  g_test_add_func ("/hostile/escaped-names", test_escaped_names);
  g_test_add_func ("/hostile/json-names", test_json_names);
  g_test_add_func ("/hostile/read-only", test_read_only);
  g_test_add_func ("/hostile/short-writes", test_short_writes);
  g_test_add_func ("/hostile/small", test_small);
  return g_test_run ();
}
