/* test-same-key.c: the window and decipher-cli's session, given the same inputs, end
 * with the same key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both drive one DcSession (src/libdecipher/session/dc-session.c); this test is what keeps a rule
 * from creeping back into either side. One script of inputs goes to a real window (typing
 * in its input pane, assigning and accepting as its popover does, undo and redo as its
 * actions do) and, as JSON lines, to `decipher-cli session` run as a process; after every
 * step the CLI's "symbols" reply must say what the window's key holds.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "../dc-test-fixtures.h"
#include "decipher-input-pane.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

typedef struct
{
  GSubprocess *process;
  GOutputStream *in;
  GDataInputStream *out;
} Cli;

static gboolean
window_loaded (DecipherWindow *window)
{
  return !decipher_window_is_loading (window);
}

static gboolean
pane_idle (DecipherInputPane *pane)
{
  return !decipher_input_pane_is_busy (pane);
}

static void
cli_start (Cli *cli, const char *pdf)
{
  g_autoptr (GError) error = NULL;
  const char *argv[] = { g_getenv ("DECIPHER_CLI"), "session", pdf, NULL };

  g_assert_nonnull (argv[0]);
  cli->process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE
                                            | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  cli->in = g_subprocess_get_stdin_pipe (cli->process);
  cli->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (cli->process));
}

static void
cli_stop (Cli *cli)
{
  g_output_stream_close (cli->in, NULL, NULL);
  g_subprocess_wait_check (cli->process, NULL, NULL);
  g_clear_object (&cli->out);
  g_clear_object (&cli->process);
}

/* Sends @request and returns the reply, which must say "ok". */
static JsonObject *
cli_ask (Cli *cli, JsonParser *parser, JsonBuilder *request)
{
  g_autoptr (JsonNode) root = json_builder_get_root (request);
  g_autofree char *line = json_to_string (root, FALSE);
  g_autofree char *reply = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object;

  g_output_stream_write_all (cli->in, line, strlen (line), NULL, NULL, &error);
  g_output_stream_write_all (cli->in, "\n", 1, NULL, NULL, &error);
  g_output_stream_flush (cli->in, NULL, &error);
  g_assert_no_error (error);
  reply = g_data_input_stream_read_line_utf8 (cli->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);
  json_parser_load_from_data (parser, reply, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_get_boolean_member (object, "ok"))
    g_error ("%s → %s", line, reply);
  return object;
}

static JsonBuilder *
request (const char *cmd)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "cmd");
  json_builder_add_string_value (builder, cmd);
  return builder;
}

static JsonObject *
cli_simple (Cli *cli, JsonParser *parser, const char *cmd)
{
  g_autoptr (JsonBuilder) builder = request (cmd);

  json_builder_end_object (builder);
  return cli_ask (cli, parser, builder);
}

/* The CLI's "symbols" reply and the window's key agree on every symbol to decode. */
static void
assert_same_key (Cli *cli, DecipherSession *session, const char *after)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *reply = cli_simple (cli, parser, "symbols");
  JsonArray *symbols = json_object_get_array_member (reply, "symbols");
  DcDocument *document = decipher_session_get_document (session);
  DcKey *key = decipher_session_get_key (session);
  guint n_symbols, n_to_decode = 0;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    n_to_decode += dc_document_symbol_needs_decoding (document, s);
  g_assert_cmpuint (json_array_get_length (symbols), ==, n_to_decode);
  for (guint i = 0; i < json_array_get_length (symbols); i++)
    {
      JsonObject *symbol = json_array_get_object_element (symbols, i);
      guint s = (guint) json_object_get_int_member (symbol, "symbol");
      const char *status = dc_key_status_to_string (dc_key_get_status (key, s));

      if (g_strcmp0 (json_object_get_string_member (symbol, "value"), dc_key_peek_value (key, s))
            != 0
          || g_strcmp0 (json_object_get_string_member (symbol, "status"), status) != 0
          || g_strcmp0 (json_object_get_string_member (symbol, "provenance"),
                        dc_key_get_provenance (key, s))
               != 0)
        g_error ("After %s, symbol %u differs: the CLI has %s (%s, %s), the window %s (%s, %s)",
                 after, s, json_object_get_string_member (symbol, "value"),
                 json_object_get_string_member (symbol, "status"),
                 json_object_get_string_member (symbol, "provenance"), dc_key_peek_value (key, s),
                 status, dc_key_get_provenance (key, s));
    }
}

/* Typed in the window's input pane, with its line cue, and sent to the CLI. */
static void
type_both (Cli *cli, DecipherInputPane *pane, const char *text, int line)
{
  g_autoptr (JsonBuilder) builder = request ("type");
  g_autoptr (JsonParser) parser = json_parser_new ();
  GtkEditable *entry = decipher_input_pane_get_entry (pane);
  JsonObject *reply;

  decipher_input_pane_set_line (pane, line >= 0 ? (guint) line : DECIPHER_NO_LINE);
  gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  GUI_TEST_WAIT (pane_idle, pane, "the answer to a query");

  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  if (line >= 0)
    {
      json_builder_set_member_name (builder, "line");
      json_builder_add_int_value (builder, line);
    }
  json_builder_end_object (builder);
  reply = cli_ask (cli, parser, builder);
  g_assert_cmpstr (json_object_get_string_member (reply, "result"), ==,
                   dc_match_kind_to_string (decipher_input_pane_get_last_kind (pane)));
}

static guint
first_with_status (DecipherSession *session, DcKeyStatus status, gboolean unknown)
{
  DcDocument *document = decipher_session_get_document (session);
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s)
        && (unknown ? dc_session_symbol_is_unknown (decipher_session_get_engine (session), s)
                          && !dc_document_symbol_is_space (document, s)
                    : dc_key_get_status (decipher_session_get_key (session), s) == status))
      return s;
  g_assert_not_reached ();
}

static void
symbol_request (Cli *cli, const char *cmd, guint symbol, const char *text)
{
  g_autoptr (JsonBuilder) builder = request (cmd);
  g_autoptr (JsonParser) parser = json_parser_new ();

  json_builder_set_member_name (builder, "symbol");
  json_builder_add_int_value (builder, symbol);
  if (text != NULL)
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
    }
  json_builder_end_object (builder);
  cli_ask (cli, parser, builder);
}

static void
test_same_key (void)
{
  g_autoptr (GFile) file = gui_test_fixture_copy ("legacy-cyrillic.pdf");
  g_autofree char *pdf = g_file_get_path (file);
  g_autoptr (GPtrArray) lines = dc_test_truth_lines ("legacy-cyrillic");
  g_autofree char *changed = NULL;
  g_autoptr (JsonParser) undo_parser = json_parser_new ();
  g_autoptr (JsonParser) redo_parser = json_parser_new ();
  DecipherWindow *window = decipher_window_new (NULL);
  DecipherSession *session;
  DecipherInputPane *pane;
  guint symbol;
  Cli cli = { 0 };

#define LINE(i) ((const char *) g_ptr_array_index (lines, (i)))

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  decipher_window_open (window, file);
  GUI_TEST_WAIT (window_loaded, window, "the document to load");
  session = decipher_window_get_session (window);
  pane = _decipher_window_get_input_pane (window);
  cli_start (&cli, pdf);

  /* The automatic pass on new work. */
  assert_same_key (&cli, session, "opening");

  type_both (&cli, pane, LINE (1), 1);
  assert_same_key (&cli, session, "typing line 1");
  type_both (&cli, pane, LINE (2), 2);
  assert_same_key (&cli, session, "typing line 2");

  /* What the glyph popover does. */
  symbol = first_with_status (session, DC_KEY_UNKNOWN, TRUE);
  g_assert_true (dc_session_assign (decipher_session_get_engine (session), symbol, "ж", NULL));
  symbol_request (&cli, "assign", symbol, "ж");
  assert_same_key (&cli, session, "assigning");

  symbol = first_with_status (session, DC_KEY_PROPOSED, FALSE);
  g_assert_true (dc_session_accept (decipher_session_get_engine (session), symbol, NULL));
  symbol_request (&cli, "accept", symbol, NULL);
  assert_same_key (&cli, session, "accepting a proposal");

  /* What the window's Undo and Redo do. */
  g_assert_true (dc_session_undo (decipher_session_get_engine (session), NULL));
  cli_simple (&cli, undo_parser, "undo");
  assert_same_key (&cli, session, "undoing");
  g_assert_true (dc_session_redo (decipher_session_get_engine (session), NULL));
  cli_simple (&cli, redo_parser, "redo");
  assert_same_key (&cli, session, "redoing");

  /* Without a line cue, and then a contradiction of what was learned. */
  type_both (&cli, pane, LINE (3), -1);
  assert_same_key (&cli, session, "typing line 3 without a cue");
  changed = dc_test_with_one_letter_changed (LINE (2));
  type_both (&cli, pane, changed, 2);
  assert_same_key (&cli, session, "typing line 2 with a letter changed");
  type_both (&cli, pane, LINE (4), 4);
  assert_same_key (&cli, session, "typing line 4");
#undef LINE

  cli_stop (&cli);
  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/same-key/window-and-cli", test_same_key);

  return g_test_run ();
}
