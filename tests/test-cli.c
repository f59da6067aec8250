/* test-cli.c: decipher-cli as a process, as scripts and the benchmarks use it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

static const char *fixtures_dir;
static const char *cli;
/* poppler-utils' pdftotext: a test dependency (tests/meson.build finds it), the reader
 * that other programs' text extraction stands for. */
static const char *pdftotext;

typedef struct
{
  char *out;
  char *err;
  int status; /* exit code, or -1 when killed by a signal */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs decipher-cli with the arguments, in an environment where @variable (if not NULL)
 * is @value. */
static void
run_cli_va (Run *run, const char *variable, const char *value, const char *first, va_list ap)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *setting = variable != NULL ? g_strconcat (variable, "=", value, NULL) : NULL;
  const char *env[] = { setting, NULL };
  DcTestSpawn options = { DC_TEST_PIPE_OUT | DC_TEST_PIPE_ERR, env };
  DcTestProcess process;

  g_ptr_array_add (args, (gpointer) cli);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  g_ptr_array_add (args, NULL);

  dc_test_process_spawn (&process, (const char *const *) args->pdata, &options);
  run->status = dc_test_process_communicate (&process, NULL, 0, &run->out, &run->err);
  g_assert_true (g_utf8_validate (run->out, -1, NULL));
  g_assert_true (g_utf8_validate (run->err, -1, NULL));
}

static void
run_cli (Run *run, const char *first, ...)
{
  va_list ap;

  va_start (ap, first);
  run_cli_va (run, NULL, NULL, first, ap);
  va_end (ap);
}

static void
run_cli_with (Run *run, const char *variable, const char *value, const char *first, ...)
{
  va_list ap;

  va_start (ap, first);
  run_cli_va (run, variable, value, first, ap);
  va_end (ap);
}

static char *
fixture (const char *name)
{
  return g_build_filename (fixtures_dir, name, NULL);
}

/* A failure is one line on stderr, a sentence, and a non-zero exit: never a crash. */
static void
assert_clear_error (const Run *run, const char *expected_words)
{
  g_assert_cmpint (run->status, >, 0);
  g_assert_true (g_str_has_prefix (run->err, "decipher-cli: "));
  g_assert_nonnull (strstr (run->err, expected_words));
  g_assert_cmpstr (run->out, ==, "");
}

static void
test_fonts_json (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_auto (Run) run = { 0 };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *fonts;
  JsonObject *font;

  run_cli (&run, "fonts", pdf, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  fonts = json_node_get_array (json_parser_get_root (parser));
  /* the running header is set in a clean font, the body in the legacy one */
  g_assert_cmpuint (json_array_get_length (fonts), ==, 2);
  font = json_array_get_object_element (fonts, 0);
  g_assert_true (json_object_get_boolean_member (font, "trusted"));
  font = json_array_get_object_element (fonts, 1);
  g_assert_cmpstr (json_object_get_string_member (font, "type"), ==, "TrueType");
  g_assert_true (json_object_get_boolean_member (font, "embedded"));
  g_assert_true (json_object_get_boolean_member (font, "to_unicode"));
  g_assert_false (json_object_get_boolean_member (font, "trusted"));
  g_assert_cmpuint (strlen (json_object_get_string_member (font, "sha256")), ==, 64);
  g_assert_cmpint (json_object_get_int_member (font, "glyphs"), >, 100);
  g_assert_nonnull (strstr (json_object_get_string_member (font, "reason"), "legacy"));

  /* Per symbol: value, status, level, confidence and provenance (DESIGN §7). The
   * automatic pass guessed the space: the guess level, with its reason. */
  {
    JsonArray *key = json_object_get_array_member (font, "key");
    guint n_guesses = 0;

    g_assert_cmpuint (json_array_get_length (key), ==,
                      json_object_get_int_member (font, "symbols"));
    for (guint i = 0; i < json_array_get_length (key); i++)
      {
        JsonObject *entry = json_array_get_object_element (key, i);
        const char *level = json_object_get_string_member (entry, "level");

        g_assert_true (json_object_has_member (entry, "confidence"));
        g_assert_true (json_object_has_member (entry, "provenance"));
        if (g_str_equal (level, "guess"))
          {
            n_guesses++;
            g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "inferred");
            g_assert_cmpfloat (json_object_get_double_member (entry, "confidence"), ==, 0.99);
            g_assert_true (
                g_str_has_prefix (json_object_get_string_member (entry, "provenance"), "auto: "));
          }
        else if (g_str_equal (level, "none"))
          g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "unknown");
      }
    g_assert_cmpuint (n_guesses, >=, 1);
  }
}

static void
test_glyphs_json_lines (void)
{
  g_autofree char *pdf = fixture ("identity-h.pdf");
  g_auto (Run) run = { 0 };
  g_auto (GStrv) lines = NULL;
  guint records = 0;

  run_cli (&run, "glyphs", pdf, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonObject *glyph;

      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      glyph = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpint (json_object_get_int_member (glyph, "page"), >=, 1);
      g_assert_cmpint (json_object_get_int_member (glyph, "code_len"), ==, 2);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (glyph, "bbox")), ==,
                        4);
      records++;
    }
  g_assert_cmpuint (records, >, 100);
}

static void
test_text_clean (void)
{
  g_autofree char *pdf = fixture ("clean.pdf");
  g_auto (Run) run = { 0 };
  g_auto (Run) freki = { 0 };
  g_auto (Run) json = { 0 };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  run_cli (&run, "text", pdf, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "\xEF\xBF\xBD"));
  g_assert_nonnull (strchr (run.out, '\f')); /* pages are separated by form feeds */

  run_cli (&freki, "text", pdf, "--format", "freki", NULL);
  g_assert_cmpint (freki.status, ==, 0);
  g_assert_true (g_str_has_prefix (freki.out, "doc_id=clean page=1 block_id=1-1 bbox="));
  g_assert_nonnull (strstr (freki.out, "\nline=1 fonts="));

  run_cli (&json, "text", pdf, "--format", "json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (
                        json_object_get_array_member (json_node_get_object (
                                                          json_parser_get_root (parser)),
                                                      "pages")),
                    ==, 3);
}

static char **
words_of (const char *text)
{
  g_autoptr (GRegex) space = g_regex_new ("\\s+", 0, 0, NULL);
  g_autofree char *trimmed = g_strstrip (g_strdup (text));

  return g_regex_split (space, trimmed, 0);
}

/* A clean PDF is fully trusted and reads exactly as pdftotext reads it, word for word. */
static void
test_text_equals_pdftotext (gconstpointer data)
{
  g_autofree char *pdf = fixture (data);
  g_autofree char *reference = NULL;
  g_auto (GStrv) ours = NULL, theirs = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Run) run = { 0 };
  const char *argv[] = { pdftotext, "-enc", "UTF-8", pdf, "-", NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &reference,
                NULL, &status, &error);
  g_assert_no_error (error);

  run_cli (&run, "text", pdf, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ours = words_of (run.out);
  theirs = words_of (reference);
  g_assert_cmpuint (g_strv_length (ours), >, 50);
  for (guint i = 0; ours[i] != NULL && theirs[i] != NULL; i++)
    g_assert_cmpstr (ours[i], ==, theirs[i]);
  g_assert_cmpuint (g_strv_length (ours), ==, g_strv_length (theirs));
}

static void
test_errors (void)
{
  g_autofree char *not_pdf = fixture ("not-a-pdf.pdf");
  g_autofree char *truncated = fixture ("truncated.pdf");
  g_autofree char *encrypted = fixture ("encrypted.pdf");
  g_autofree char *no_text = fixture ("no-text.pdf");
  g_autofree char *image_only = fixture ("image-only.pdf");
  g_autofree char *empty_page = fixture ("empty-page.pdf");
  g_autofree char *missing = fixture ("does-not-exist.pdf");
  g_autofree char *clean = fixture ("clean.pdf");
  g_auto (Run) a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 }, f = { 0 };
  g_auto (Run) g = { 0 }, h = { 0 }, i = { 0 }, j = { 0 }, k = { 0 }, l = { 0 };

  run_cli (&a, "fonts", not_pdf, NULL);
  assert_clear_error (&a, "is not a PDF file");
  run_cli (&b, "text", truncated, NULL);
  assert_clear_error (&b, "is incomplete");
  run_cli (&c, "text", encrypted, NULL);
  assert_clear_error (&c, "--password");
  run_cli (&d, "text", encrypted, "--password", "wrong", NULL);
  assert_clear_error (&d, "not correct");
  run_cli (&e, "text", no_text, NULL);
  assert_clear_error (&e, "no text");
  run_cli (&f, "text", image_only, NULL);
  assert_clear_error (&f, "OCR");
  run_cli (&g, "text", empty_page, NULL);
  assert_clear_error (&g, "no text");
  run_cli (&h, "glyphs", missing, NULL);
  assert_clear_error (&h, "could not be opened");
  run_cli (&i, "frobnicate", clean, NULL);
  assert_clear_error (&i, "is not a command");
  run_cli (&j, "text", clean, "--format", "docx", NULL);
  assert_clear_error (&j, "is not a text format");
  run_cli (&k, "text", NULL);
  assert_clear_error (&k, "Give exactly one PDF file");

  /* The right password opens it. */
  run_cli (&l, "fonts", encrypted, "--password", "secret", NULL);
  g_assert_cmpint (l.status, ==, 0);
  g_assert_cmpstr (l.err, ==, "");
}

static void
collect_pdfs (const char *dir, GPtrArray *found)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_pdfs (path, found);
      else if (g_str_has_suffix (name, ".pdf"))
        g_ptr_array_add (found, g_steal_pointer (&path));
    }
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Under a sanitizer each command runs on a third of the PDFs, in turn: a start of
 * decipher-cli costs several times the normal build's there, and three hundred of them
 * were the longest test of CI's two sanitizer suites (213 and 166 s). Every PDF is still
 * read by a sanitized process, and every command on a third of them; the normal build
 * runs them all. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COMMANDS_IN_TURN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COMMANDS_IN_TURN 1
#endif
#endif
#ifndef COMMANDS_IN_TURN
#define COMMANDS_IN_TURN 0
#endif

/* Whatever PDF lies under tests/, every command ends cleanly or with a clear sentence. */
static void
test_robustness (void)
{
  g_autofree char *tests_dir = g_path_get_dirname (fixtures_dir);
  g_autoptr (GPtrArray) pdfs = g_ptr_array_new_with_free_func (g_free);
  static const char *commands[] = { "glyphs", "fonts", "text" };
  guint n_commands = G_N_ELEMENTS (commands);

  collect_pdfs (tests_dir, pdfs);
  g_assert_cmpuint (pdfs->len, >=, 10);
  /* In the folder's order, which files a command has in turn would change from one
   * machine to the next. */
  g_ptr_array_sort (pdfs, compare_paths);

  for (guint p = 0; p < pdfs->len; p++)
    for (guint c = 0; c < n_commands; c++)
      {
        if (COMMANDS_IN_TURN && c != p % n_commands)
          continue;
        g_auto (Run) run = { 0 };

        run_cli (&run, commands[c], g_ptr_array_index (pdfs, p), NULL);
        if (run.status != 0)
          {
            g_assert_cmpint (run.status, ==, 1);
            g_assert_true (g_str_has_prefix (run.err, "decipher-cli: "));
            /* one sentence on one line */
            g_assert_cmpint (strchr (run.err, '\n') - run.err, ==, strlen (run.err) - 1);
          }
      }
}

/* A project holding the whole key, as a linguist would end with it. */
static char *
save_full_project (const char *name, const char *dir)
{
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcProject) project = dc_project_new (document, key);
  g_autoptr (GError) error = NULL;
  g_autofree char *file = g_strconcat (name, ".decipher", NULL);
  char *path = g_build_filename (dir, file, NULL);

  dc_test_key_fill_from_truth (key, name);
  g_assert_true (dc_project_save (project, path, &error));
  g_assert_no_error (error);
  return path;
}

static char **
truth_words (const char *name)
{
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (name);
  g_autofree char *text = NULL;

  g_ptr_array_add (lines, NULL);
  text = g_strjoinv ("\n", (char **) lines->pdata);
  return words_of (text);
}

static void
assert_same_words (char **ours, char **theirs)
{
  for (guint i = 0; ours[i] != NULL && theirs[i] != NULL; i++)
    g_assert_cmpstr (ours[i], ==, theirs[i]);
  g_assert_cmpuint (g_strv_length (ours), ==, g_strv_length (theirs));
}

/* The repaired copy reads as the truth, word for word, in decipher-cli and pdftotext. */
static void
test_repair (gconstpointer data)
{
  const char *name = data;
  g_autofree char *file = g_strconcat (name, ".pdf", NULL);
  g_autofree char *pdf = fixture (file);
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-repair-XXXXXX", NULL);
  g_autofree char *project = save_full_project (name, dir);
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_auto (GStrv) expected = truth_words (name);
  g_auto (GStrv) ours = NULL;
  g_auto (Run) repair = { 0 };
  g_auto (Run) text = { 0 };

  run_cli (&repair, "repair", pdf, "--project", project, "-o", output, NULL);
  g_assert_cmpstr (repair.err, ==, "");
  g_assert_cmpint (repair.status, ==, 0);

  /* Nothing to recover any more: --no-auto reads the PDF's own text. */
  run_cli (&text, "text", output, "--no-auto", NULL);
  g_assert_cmpint (text.status, ==, 0);
  ours = words_of (text.out);
  assert_same_words (ours, expected);

  /* Through poppler's own text extraction too, as other readers of the copy see it. */
  {
    const char *argv[] = { pdftotext, "-enc", "UTF-8", output, "-", NULL };
    g_autofree char *reference = NULL;
    g_auto (GStrv) theirs = NULL;
    g_autoptr (GError) error = NULL;
    int status;

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &reference,
                  NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    theirs = words_of (reference);
    assert_same_words (theirs, expected);
  }
}

static void
test_map_formats (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-map-XXXXXX", NULL);
  g_autofree char *project = save_full_project ("legacy-cyrillic", dir);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_auto (Run) json = { 0 }, cmap = { 0 }, font = { 0 }, no_font = { 0 }, nothing = { 0 };
  g_auto (Run) stray = { 0 };
  JsonArray *fonts;
  gint64 index;
  g_autofree char *index_arg = NULL;

  run_cli (&json, "text", pdf, "--project", project, "--format", "map-json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  fonts = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "fonts");
  g_assert_cmpuint (json_array_get_length (fonts), ==, 1);
  index = json_object_get_int_member (json_array_get_object_element (fonts, 0), "index");

  /* One font recovered: --format cmap needs no --font. */
  run_cli (&cmap, "text", pdf, "--project", project, "--format", "cmap", NULL);
  g_assert_cmpint (cmap.status, ==, 0);
  g_assert_true (g_str_has_prefix (cmap.out, "%!PS-Adobe-3.0 Resource-CMap\n"));
  g_assert_nonnull (strstr (cmap.out, "beginbfchar"));

  index_arg = g_strdup_printf ("%" G_GINT64_FORMAT, index);
  run_cli (&font, "text", pdf, "--project", project, "--format", "cmap", "--font", index_arg, NULL);
  g_assert_cmpint (font.status, ==, 0);
  g_assert_cmpstr (font.out, ==, cmap.out);

  run_cli (&no_font, "text", pdf, "--project", project, "--format", "cmap", "--font", "99", NULL);
  assert_clear_error (&no_font, "has no font 99");
  run_cli (&stray, "text", pdf, "--project", project, "--font", "0", NULL);
  assert_clear_error (&stray, "--font only chooses");
  run_cli (&nothing, "text", pdf, "--no-auto", "--format", "map-json", NULL);
  assert_clear_error (&nothing, "Nothing has been recovered");
  g_assert_nonnull (strstr (nothing.err, "--project"));
}

static void
test_repair_errors (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-repair-XXXXXX", NULL);
  g_autofree char *project = save_full_project ("legacy-cyrillic", dir);
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "repaired.pdf", NULL);
  g_auto (Run) no_output = { 0 }, nothing = { 0 }, unwritable = { 0 }, itself = { 0 };

  run_cli (&no_output, "repair", pdf, "--project", project, NULL);
  assert_clear_error (&no_output, "-o OUT.pdf");
  g_assert_cmpint (no_output.status, ==, 2);

  run_cli (&nothing, "repair", pdf, "--no-auto", "-o", output, NULL);
  assert_clear_error (&nothing, "Nothing has been recovered");
  g_assert_nonnull (strstr (nothing.err, "--project"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  run_cli (&unwritable, "repair", pdf, "--project", project, "-o", missing, NULL);
  assert_clear_error (&unwritable, "that folder does not exist");

  run_cli (&itself, "repair", pdf, "--project", project, "-o", pdf, NULL);
  assert_clear_error (&itself, "would replace the original");
}

/* qpdf and the GnuTLS beneath it cost a third of every start-up, so only writing a
 * repaired copy loads them (dc-pdf-writer-module.c): the dynamic loader's own account of
 * what it opened (LD_DEBUG=libs) shows them absent from `text` and present in `repair`. */
static void
test_repair_writer_on_demand (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-writer-XXXXXX", NULL);
  g_autofree char *project = save_full_project ("legacy-cyrillic", dir);
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_auto (Run) text = { 0 }, repair = { 0 };

  run_cli_with (&text, "LD_DEBUG", "libs", "text", pdf, "--project", project, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "Весной река"));
  g_assert_nonnull (strstr (text.err, "libpoppler"));
  g_assert_null (strstr (text.err, "libqpdf"));
  g_assert_null (strstr (text.err, "libgnutls"));
  g_assert_null (strstr (text.err, "decipher-pdf-writer"));

  run_cli_with (&repair, "LD_DEBUG", "libs", "repair", pdf, "--project", project, "-o", output,
                NULL);
  g_assert_cmpint (repair.status, ==, 0);
  g_assert_nonnull (strstr (repair.err, "decipher-pdf-writer.so"));
  g_assert_nonnull (strstr (repair.err, "libqpdf"));
  g_assert_true (g_file_test (output, G_FILE_TEST_IS_REGULAR));
}

/* Without the writer module, a repair says what to do, writes nothing, and the project
 * is as it was. */
static void
test_repair_writer_missing (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-writer-XXXXXX", NULL);
  g_autofree char *project = save_full_project ("legacy-cyrillic", dir);
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-module.so", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_auto (Run) repair = { 0 };

  g_assert_true (g_file_get_contents (project, &before, NULL, NULL));
  run_cli_with (&repair, "DECIPHER_PDF_WRITER_MODULE", missing, "repair", pdf, "--project", project,
                "-o", output, NULL);
  assert_clear_error (&repair, "needs Decipher’s PDF writer");
  g_assert_nonnull (strstr (repair.err, "Reinstall Decipher"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (project, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
}

/* `decipher-cli text` with zero typing reads what the fonts themselves say (DESIGN §7):
 * every line of the truth, and no U+FFFD. */
static void
test_text_zero_typing (gconstpointer data)
{
  const char *name = data;
  g_autofree char *file = g_strconcat (name, ".pdf", NULL);
  g_autofree char *pdf = fixture (file);
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (name);
  g_auto (Run) run = { 0 };

  run_cli (&run, "text", pdf, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "\uFFFD"));
  for (guint i = 0; i < lines->len; i++)
    g_assert_nonnull (strstr (run.out, g_ptr_array_index (lines, i)));

  /* --no-auto leaves them unknown: the text is the fonts' own evidence, not the PDF's. */
  {
    g_auto (Run) bare = { 0 };

    run_cli (&bare, "text", pdf, "--no-auto", NULL);
    g_assert_cmpint (bare.status, ==, 0);
    g_assert_nonnull (strstr (bare.out, "\uFFFD"));
  }
}

/* Runs decipher-cli with no library named, the user's data folder being @data_home;
 * returns its exit status. */
static int
run_as_new_user (const char *data_home, const char *command, const char *pdf)
{
  const char *argv[] = { cli, command, pdf, NULL };
  g_auto (GStrv) env = g_environ_setenv (g_environ_unsetenv (g_get_environ (), "DECIPHER_LIBRARY"),
                                         "XDG_DATA_HOME", data_home, TRUE);
  g_autoptr (GError) error = NULL;
  int status = -1;

  /* The session reads an empty standard input: it stops at once. */
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  return status;
}

/* `text` only reads the user's library: a new user's first run makes none (nor pays for
 * making it); a session, which records decisions in it, does. */
static void
test_text_makes_no_library (void)
{
  g_autofree char *pdf = fixture ("legacy-cyrillic.pdf");
  g_autoptr (DcTestDir) dir = g_dir_make_tmp ("decipher-cli-new-user-XXXXXX", NULL);
  g_autofree char *library = g_build_filename (dir, "decipher", "library.sqlite", NULL);

  g_assert_true (g_spawn_check_wait_status (run_as_new_user (dir, "text", pdf), NULL));
  g_assert_false (g_file_test (library, G_FILE_TEST_EXISTS));
  g_assert_true (g_spawn_check_wait_status (run_as_new_user (dir, "fonts", pdf), NULL));
  g_assert_false (g_file_test (library, G_FILE_TEST_EXISTS));
  g_assert_true (g_spawn_check_wait_status (run_as_new_user (dir, "session", pdf), NULL));
  g_assert_true (g_file_test (library, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  fixtures_dir = g_getenv ("FIXTURES_DIR");
  cli = g_getenv ("DECIPHER_CLI");
  pdftotext = g_getenv ("PDFTOTEXT");
  g_assert_nonnull (fixtures_dir);
  g_assert_nonnull (cli);
  g_assert_nonnull (pdftotext);

  g_test_add_func ("/cli/fonts-json", test_fonts_json);
  g_test_add_func ("/cli/text-makes-no-library", test_text_makes_no_library);
  g_test_add_data_func ("/cli/text-zero-typing/mac-order", "mac-order", test_text_zero_typing);
  g_test_add_data_func ("/cli/text-zero-typing/core-order", "core-order", test_text_zero_typing);
  g_test_add_data_func ("/cli/text-zero-typing/numeric-names", "numeric-names",
                        test_text_zero_typing);
  g_test_add_data_func ("/cli/text-zero-typing/identity-unicode", "identity-unicode",
                        test_text_zero_typing);
  g_test_add_data_func ("/cli/text-zero-typing/gbk-winansi", "gbk-winansi", test_text_zero_typing);
  g_test_add_func ("/cli/glyphs-json-lines", test_glyphs_json_lines);
  g_test_add_func ("/cli/text-clean", test_text_clean);
  g_test_add_data_func ("/cli/pdftotext/clean", "clean.pdf", test_text_equals_pdftotext);
  g_test_add_data_func ("/cli/pdftotext/clean-pango", "clean-pango.pdf",
                        test_text_equals_pdftotext);
  g_test_add_data_func ("/cli/pdftotext/two-columns", "two-columns.pdf",
                        test_text_equals_pdftotext);
  g_test_add_func ("/cli/errors", test_errors);
  g_test_add_data_func ("/cli/repair/legacy-cyrillic", "legacy-cyrillic", test_repair);
  g_test_add_data_func ("/cli/repair/identity-h", "identity-h", test_repair);
  g_test_add_func ("/cli/repair/errors", test_repair_errors);
  g_test_add_func ("/cli/repair/writer-on-demand", test_repair_writer_on_demand);
  g_test_add_func ("/cli/repair/writer-missing", test_repair_writer_missing);
  g_test_add_func ("/cli/map-formats", test_map_formats);
  g_test_add_func ("/cli/robustness", test_robustness);

  return g_test_run ();
}
