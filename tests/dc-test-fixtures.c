/* dc-test-fixtures.c: opening the generated fixtures, shared by the engine tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "dc-test-fixtures.h"

/* FIXTURES_DIR is set by meson to tests/fixtures in the source tree. */
char *
dc_test_fixture_path (const char *file)
{
  const char *dir = g_getenv ("FIXTURES_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, file, NULL);
}

DcDocument *
dc_test_load_document (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".pdf", NULL);
  g_autofree char *path = dc_test_fixture_path (file);
  g_autoptr (GError) error = NULL;
  DcDocument *document;

  document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

/* The ground truth generate.py wrote beside the PDF; the object lives as long as @parser. */
JsonObject *
dc_test_load_truth (const char *name, JsonParser **parser)
{
  g_autofree char *file = g_strconcat (name, ".json", NULL);
  g_autofree char *path = dc_test_fixture_path (file);
  g_autoptr (GError) error = NULL;

  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, path, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

/* What each symbol of @document really stands for, by laying the truth's glyphs over the
 * document's lines (the truth numbers fonts its own way, so codes alone do not say which
 * font is meant). NULL for a symbol the truth never shows. */
GPtrArray *
dc_test_truth_symbol_values (DcDocument *document, const char *name)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (root, "pages");
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  GPtrArray *values;
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  values = g_ptr_array_new_full (n_symbols, g_free);
  g_ptr_array_set_size (values, n_symbols);

  g_assert_cmpuint (json_array_get_length (pages), ==, dc_document_get_n_pages (document));
  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonArray *truth_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                            page),
                                                             "lines");
      guint first, n;

      dc_document_get_page_lines (document, page, &first, &n);
      g_assert_cmpuint (n, ==, json_array_get_length (truth_lines));
      for (guint l = 0; l < n; l++)
        {
          JsonArray *truth_glyphs =
              json_object_get_array_member (json_array_get_object_element (truth_lines, l),
                                            "glyphs");
          const DcLine *line = &lines[first + l];

          g_assert_cmpuint (line->n_glyphs, ==, json_array_get_length (truth_glyphs));
          for (guint k = 0; k < line->n_glyphs; k++)
            {
              guint symbol = glyphs[order[line->first_glyph + k]].symbol;
              const char *text =
                  json_object_get_string_member (json_array_get_object_element (truth_glyphs, k),
                                                 "text");

              if (g_ptr_array_index (values, symbol) == NULL)
                g_ptr_array_index (values, symbol) = g_strdup (text);
              else
                g_assert_cmpstr (g_ptr_array_index (values, symbol), ==, text);
            }
        }
    }
  return values;
}

/* Every line's text in reading order, pages one after the other. */
GPtrArray *
dc_test_truth_lines (const char *name)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (root, "pages");
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *page_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                           p),
                                                            "lines");

      for (guint l = 0; l < json_array_get_length (page_lines); l++)
        g_ptr_array_add (lines, g_strdup (json_object_get_string_member (
                                    json_array_get_object_element (page_lines, l), "text")));
    }
  return lines;
}

/* Decodes fixture @name by the index of installed fonts alone, as the pipeline's identity
 * level does. Returns: how many symbols it decoded */
guint
dc_test_decode_with_references (DcReferences *references, const char *name)
{
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcShapes) shapes = dc_shapes_new (document);
  guint n;

  dc_key_begin_change (key, "identity");
  n = dc_references_apply (references, shapes, key);
  dc_key_end_change (key);
  return n;
}

/* The whole key a linguist would end with: every symbol to decode confirmed as the
 * truth says. */
void
dc_test_key_fill_from_truth (DcKey *key, const char *name)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GPtrArray) values = dc_test_truth_symbol_values (document, name);

  dc_key_begin_change (key, "truth");
  for (guint s = 0; s < values->len; s++)
    {
      g_autoptr (GError) error = NULL;

      if (!dc_document_symbol_needs_decoding (document, s))
        continue;
      g_assert_nonnull (g_ptr_array_index (values, s));
      dc_key_set (key, s, g_ptr_array_index (values, s), DC_KEY_CONFIRMED, "truth", &error);
      g_assert_no_error (error);
    }
  dc_key_end_change (key);
}

/* A line with one letter that occurs once in it changed to Ж, which it lacks. */
char *
dc_test_with_one_letter_changed (const char *line)
{
  g_autofree gunichar *chars = g_utf8_to_ucs4_fast (line, -1, NULL);
  glong n = 0;

  while (chars[n])
    n++;
  for (glong i = 0; i < n; i++)
    {
      guint count = 0;

      for (glong k = 0; k < n; k++)
        count += chars[k] == chars[i];
      if (count == 1 && g_unichar_isalpha (chars[i]))
        {
          chars[i] = 0x0416;
          return g_ucs4_to_utf8 (chars, n, NULL, NULL, NULL);
        }
    }
  g_assert_not_reached ();
}

/* The text the truth gives for a fixture, lines ended by \n and pages split by \f, as
 * dc_session_dup_text() and `decipher-cli text` join them. */
char *
dc_test_truth_text (const char *name)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *truth = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (truth, "pages");
  GString *text = g_string_new (NULL);

  for (guint p = 0; p < json_array_get_length (pages); p++)
    {
      JsonArray *lines = json_object_get_array_member (json_array_get_object_element (pages, p),
                                                       "lines");

      if (p > 0)
        g_string_append_c (text, '\f');
      for (guint l = 0; l < json_array_get_length (lines); l++)
        {
          if (l > 0)
            g_string_append_c (text, '\n');
          g_string_append (text,
                           json_object_get_string_member (json_array_get_object_element (lines, l),
                                                          "text"));
        }
    }
  /* The export ends the last line too. */
  g_string_append_c (text, '\n');
  return g_string_free (text, FALSE);
}

/* Removes a test's temporary folder and everything in it. */
void
dc_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        dc_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Everything @a and @b hold is the same: what they were read from, their fonts, glyphs,
 * symbols, reading order, lines, tokens, blocks and /ActualText spans. */
void
dc_test_assert_same_document (DcDocument *a, DcDocument *b)
{
  const DcGlyph *glyphs_a, *glyphs_b;
  const DcSymbol *symbols_a, *symbols_b;
  const guint32 *order_a, *order_b;
  const DcLine *lines_a, *lines_b;
  const DcToken *tokens_a, *tokens_b;
  const DcBlock *blocks_a, *blocks_b;
  guint n_a, n_b;

  g_assert_cmpstr (dc_document_get_sha256 (a), ==, dc_document_get_sha256 (b));
  g_assert_cmpstr (dc_document_get_language (a), ==, dc_document_get_language (b));
  g_assert_cmpuint (dc_document_get_n_pages (a), ==, dc_document_get_n_pages (b));
  for (guint page = 0; page < dc_document_get_n_pages (a); page++)
    {
      double wa, ha, wb, hb;

      dc_document_get_page_size (a, page, &wa, &ha);
      dc_document_get_page_size (b, page, &wb, &hb);
      g_assert_cmpfloat (wa, ==, wb);
      g_assert_cmpfloat (ha, ==, hb);
    }

  glyphs_a = dc_document_get_glyphs (a, &n_a);
  glyphs_b = dc_document_get_glyphs (b, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  g_assert_cmpmem (glyphs_a, n_a * sizeof (DcGlyph), glyphs_b, n_b * sizeof (DcGlyph));

  g_assert_cmpuint (dc_document_get_n_fonts (a), ==, dc_document_get_n_fonts (b));
  for (guint f = 0; f < dc_document_get_n_fonts (a); f++)
    {
      DcFont *fa = dc_document_get_font (a, f), *fb = dc_document_get_font (b, f);
      int num_a = 0, gen_a = 0, num_b = 0, gen_b = 0;

      g_assert_cmpuint (dc_font_get_index (fa), ==, f);
      g_assert_cmpuint (dc_font_get_index (fb), ==, f);
      g_assert_cmpstr (dc_font_get_name (fa), ==, dc_font_get_name (fb));
      g_assert_cmpstr (dc_font_get_encoding (fa), ==, dc_font_get_encoding (fb));
      g_assert_cmpstr (dc_font_get_program_kind (fa), ==, dc_font_get_program_kind (fb));
      g_assert_cmpstr (dc_font_get_program_sha256 (fa), ==, dc_font_get_program_sha256 (fb));
      for (guint32 code = 0; code < 256; code++)
        {
          const guint8 *da = dc_font_get_type3_digest (fa, code);
          const guint8 *db = dc_font_get_type3_digest (fb, code);

          g_assert_true ((da == NULL) == (db == NULL));
          if (da != NULL)
            g_assert_cmpmem (da, DC_FONT_TYPE3_DIGEST_LEN, db, DC_FONT_TYPE3_DIGEST_LEN);
        }
      g_assert_cmpint (dc_font_get_object_ref (fa, &num_a, &gen_a), ==,
                       dc_font_get_object_ref (fb, &num_b, &gen_b));
      g_assert_cmpint (num_a, ==, num_b);
      g_assert_cmpint (gen_a, ==, gen_b);
      g_assert_cmpint (dc_font_is_trusted (fa), ==, dc_font_is_trusted (fb));
      g_assert_cmpstr (dc_font_get_trust_reason (fa), ==, dc_font_get_trust_reason (fb));
      g_assert_cmpint (dc_font_get_font_type (fa), ==, dc_font_get_font_type (fb));
      g_assert_cmpint (dc_font_has_to_unicode (fa), ==, dc_font_has_to_unicode (fb));
      g_assert_cmpint (dc_font_is_embedded (fa), ==, dc_font_is_embedded (fb));
      g_assert_cmpint (dc_font_get_writing_mode (fa), ==, dc_font_get_writing_mode (fb));
      g_assert_cmpstr (dc_font_get_double_byte_charset (fa), ==,
                       dc_font_get_double_byte_charset (fb));
      for (guint32 cid = 0; cid < 1024; cid++)
        g_assert_cmpint (dc_font_get_cid_glyph_index (fa, cid), ==,
                         dc_font_get_cid_glyph_index (fb, cid));
      g_assert_cmpuint (dc_font_get_n_symbols (fa), ==, dc_font_get_n_symbols (fb));
      g_assert_cmpuint (dc_font_get_n_glyphs (fa), ==, dc_font_get_n_glyphs (fb));
      for (guint32 code = 0; code < 256; code++)
        {
          g_assert_cmpstr (dc_font_get_glyph_name (fa, code), ==,
                           dc_font_get_glyph_name (fb, code));
          g_assert_cmpint (dc_font_get_glyph_index (fa, code), ==,
                           dc_font_get_glyph_index (fb, code));
        }
    }

  symbols_a = dc_document_get_symbols (a, &n_a);
  symbols_b = dc_document_get_symbols (b, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  for (guint s = 0; s < n_a; s++)
    {
      g_assert_cmpuint (symbols_a[s].font, ==, symbols_b[s].font);
      g_assert_cmpuint (symbols_a[s].code, ==, symbols_b[s].code);
      g_assert_cmpuint (symbols_a[s].code_len, ==, symbols_b[s].code_len);
      g_assert_cmpuint (symbols_a[s].flags, ==, symbols_b[s].flags);
      g_assert_cmpuint (symbols_a[s].n_glyphs, ==, symbols_b[s].n_glyphs);
      g_assert_cmpstr (symbols_a[s].pdf_text, ==, symbols_b[s].pdf_text);
      g_assert_cmpstr (symbols_a[s].glyph_name, ==, symbols_b[s].glyph_name);
      g_assert_cmpint (dc_document_symbol_is_space (a, s), ==, dc_document_symbol_is_space (b, s));
    }

  order_a = dc_document_get_reading_order (a, &n_a);
  order_b = dc_document_get_reading_order (b, &n_b);
  g_assert_cmpmem (order_a, n_a * sizeof (guint32), order_b, n_b * sizeof (guint32));
  lines_a = dc_document_get_lines (a, &n_a);
  lines_b = dc_document_get_lines (b, &n_b);
  g_assert_cmpmem (lines_a, n_a * sizeof (DcLine), lines_b, n_b * sizeof (DcLine));
  tokens_a = dc_document_get_tokens (a, &n_a);
  tokens_b = dc_document_get_tokens (b, &n_b);
  g_assert_cmpmem (tokens_a, n_a * sizeof (DcToken), tokens_b, n_b * sizeof (DcToken));

  for (guint page = 0; page < dc_document_get_n_pages (a); page++)
    {
      guint first_a, first_b, count_a, count_b;

      dc_document_get_page_lines (a, page, &first_a, &count_a);
      dc_document_get_page_lines (b, page, &first_b, &count_b);
      g_assert_cmpuint (first_a, ==, first_b);
      g_assert_cmpuint (count_a, ==, count_b);
      dc_document_get_page_blocks (a, page, &first_a, &count_a);
      dc_document_get_page_blocks (b, page, &first_b, &count_b);
      g_assert_cmpuint (first_a, ==, first_b);
      g_assert_cmpuint (count_a, ==, count_b);
    }
  blocks_a = dc_document_get_blocks (a, &n_a);
  blocks_b = dc_document_get_blocks (b, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  for (guint i = 0; i < n_a; i++)
    {
      g_assert_cmpmem (&blocks_a[i].x0, 4 * sizeof (float), &blocks_b[i].x0, 4 * sizeof (float));
      g_assert_cmpuint (blocks_a[i].page, ==, blocks_b[i].page);
      g_assert_cmpuint (blocks_a[i].index, ==, blocks_b[i].index);
      g_assert_cmpuint (blocks_a[i].first_line, ==, blocks_b[i].first_line);
      g_assert_cmpuint (blocks_a[i].n_lines, ==, blocks_b[i].n_lines);
      g_assert_cmpstr (blocks_a[i].label, ==, blocks_b[i].label);
    }

  g_assert_cmpuint (dc_document_get_n_actual_texts (a), ==, dc_document_get_n_actual_texts (b));
  dc_document_get_glyphs (a, &n_a);
  for (guint g = 0; g < n_a; g++)
    {
      guint first_a = 0, first_b = 0, len_a = 0, len_b = 0;

      g_assert_cmpstr (dc_document_get_actual_text (a, g, &first_a, &len_a), ==,
                       dc_document_get_actual_text (b, g, &first_b, &len_b));
      g_assert_cmpuint (first_a, ==, first_b);
      g_assert_cmpuint (len_a, ==, len_b);
    }
}

/* Edits between @text and @truth, white space left out, over the truth's length. */
double
dc_test_character_error_rate (const char *text, const char *truth)
{
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (gunichar));
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (gunichar));
  g_autofree guint *row = NULL;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      g_array_append_val (a, *(gunichar[]){ g_utf8_get_char (p) });
  for (const char *p = truth; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      g_array_append_val (b, *(gunichar[]){ g_utf8_get_char (p) });
  row = g_new (guint, b->len + 1);
  for (guint j = 0; j <= b->len; j++)
    row[j] = j;
  for (guint i = 1; i <= a->len; i++)
    {
      guint diagonal = row[0];

      row[0] = i;
      for (guint j = 1; j <= b->len; j++)
        {
          guint above = row[j];
          guint substitute = diagonal
                             + (g_array_index (a, gunichar, i - 1)
                                != g_array_index (b, gunichar, j - 1));

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), substitute);
          diagonal = above;
        }
    }
  return (double) row[b->len] / MAX (1, b->len);
}

/* Child processes without GSubprocess: GSubprocess watches its child from GLib's worker
 * thread and hands results over through GLib's own futexes, which ThreadSanitizer cannot
 * see (build-aux/tsan.supp), so every test that ran decipher-cli through it filled the
 * TSan build's log with GLib's hand-offs. Spawning, reading the pipes and waitpid() on
 * the test's own thread start no thread at all. */
/* In the child: SIGPIPE as decipher-cli would have it outside the tests (this process
 * ignores it, see below, and an ignored signal stays ignored across exec), then what the
 * test asked for. */
static void
spawn_child_setup (gpointer data)
{
  const DcTestSpawn *options = data;

  signal (SIGPIPE, SIG_DFL);
  if (options->child_setup != NULL)
    options->child_setup (options->child_setup_data);
}

void
dc_test_process_spawn (DcTestProcess *process, const char *const *argv, const DcTestSpawn *options)
{
  static const DcTestSpawn defaults = { DC_TEST_PIPE_OUT | DC_TEST_PIPE_ERR };
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  int in = -1, out = -1, err = -1, stdin_fd = -1, stdout_fd = -1;

  if (options == NULL)
    options = &defaults;
  for (guint i = 0; options->env != NULL && options->env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (options->env[i], "=", 2);

      g_assert_nonnull (pair[1]);
      env = g_environ_setenv (env, pair[0], pair[1], TRUE);
    }
  if (options->stdin_path != NULL)
    {
      stdin_fd = g_open (options->stdin_path, O_RDONLY | O_CLOEXEC, 0);
      g_assert_cmpint (stdin_fd, >=, 0);
    }
  if (options->stdout_path != NULL)
    {
      stdout_fd = g_open (options->stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      g_assert_cmpint (stdout_fd, >=, 0);
    }
  /* A child that exits before reading all its input must not kill the test. */
  signal (SIGPIPE, SIG_IGN);
  g_spawn_async_with_pipes_and_fds (options->cwd, argv, (const char *const *) env,
                                    G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH,
                                    spawn_child_setup, (gpointer) options, stdin_fd, stdout_fd, -1,
                                    NULL, NULL, 0, &process->pid,
                                    (options->pipes & DC_TEST_PIPE_IN) ? &in : NULL,
                                    (options->pipes & DC_TEST_PIPE_OUT) ? &out : NULL,
                                    (options->pipes & DC_TEST_PIPE_ERR) ? &err : NULL, &error);
  g_assert_no_error (error);
  if (stdin_fd >= 0)
    g_close (stdin_fd, NULL);
  if (stdout_fd >= 0)
    g_close (stdout_fd, NULL);
  process->in = in >= 0 ? g_unix_output_stream_new (in, TRUE) : NULL;
  process->out = out >= 0 ? g_data_input_stream_new (g_unix_input_stream_new (out, TRUE)) : NULL;
  process->err = err >= 0 ? g_unix_input_stream_new (err, TRUE) : NULL;
  if (process->out != NULL)
    g_object_unref (g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (process->out)));
}

static int
stream_fd (gpointer stream)
{
  if (stream == NULL)
    return -1;
  if (G_IS_FILTER_INPUT_STREAM (stream))
    stream = g_filter_input_stream_get_base_stream (stream);
  if (G_IS_UNIX_INPUT_STREAM (stream))
    return g_unix_input_stream_get_fd (stream);
  return g_unix_output_stream_get_fd (stream);
}

/* Writes @input to the child's standard input (when a pipe) and closes it, reads its
 * standard output and error (when pipes) to their end, and waits for it: what
 * g_subprocess_communicate() does, on this thread. Returns its exit code, or -1 when a
 * signal ended it. */
int
dc_test_process_communicate (DcTestProcess *process, const char *input, gssize input_length,
                             char **out, char **err)
{
  g_autoptr (GString) read_out = g_string_new (NULL), read_err = g_string_new (NULL);
  struct pollfd fds[3] = { { stream_fd (process->in), POLLOUT, 0 },
                           { stream_fd (process->out), POLLIN, 0 },
                           { stream_fd (process->err), POLLIN, 0 } };
  GString *sinks[3] = { NULL, read_out, read_err };
  gsize written = 0, length;

  length = input == NULL ? 0 : input_length < 0 ? strlen (input) : (gsize) input_length;
  if (fds[0].fd >= 0)
    g_assert_true (g_unix_set_fd_nonblocking (fds[0].fd, TRUE, NULL));
  while (fds[0].fd >= 0 || fds[1].fd >= 0 || fds[2].fd >= 0)
    {
      if (fds[0].fd >= 0 && written == length)
        {
          g_output_stream_close (process->in, NULL, NULL);
          fds[0].fd = -1;
          continue;
        }
      if (poll (fds, 3, -1) < 0)
        {
          g_assert_cmpint (errno, ==, EINTR);
          continue;
        }
      if (fds[0].revents != 0)
        {
          gssize n = write (fds[0].fd, input + written, MIN (length - written, 4096));

          if (n > 0)
            written += (gsize) n;
          else if (n < 0 && errno != EAGAIN && errno != EINTR)
            written = length; /* EPIPE: the child stopped reading */
        }
      for (guint i = 1; i < 3; i++)
        if (fds[i].revents != 0)
          {
            char buffer[4096];
            gssize n = read (fds[i].fd, buffer, sizeof buffer);

            if (n > 0)
              g_string_append_len (sinks[i], buffer, n);
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
              fds[i].fd = -1;
          }
    }
  if (out != NULL)
    *out = g_string_free (g_steal_pointer (&read_out), FALSE);
  if (err != NULL)
    *err = g_string_free (g_steal_pointer (&read_err), FALSE);
  return dc_test_process_wait (process);
}

/* Closes the child's standard input, as the end of a script does, and waits for it.
 * Returns its exit code, or -1 when a signal ended it. */
int
dc_test_process_wait (DcTestProcess *process)
{
  int status;

  if (process->in != NULL)
    g_output_stream_close (process->in, NULL, NULL);
  while (waitpid (process->pid, &status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_spawn_close_pid (process->pid);
  g_clear_object (&process->in);
  g_clear_object (&process->out);
  g_clear_object (&process->err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* As a crash or kill -9 ends it: nothing more is read or written. */
void
dc_test_process_kill (DcTestProcess *process)
{
  kill (process->pid, SIGKILL);
  dc_test_process_wait (process);
}
