/* test-three-ways.c: one PDF opened by `decipher-cli text`, by `decipher-cli session` and
 * in the window decodes to the same values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * All three go through the engine's pipeline (src/libdecipher/session/dc-pipeline.c); this
 * test keeps a level from being applied by one front end only. The fixtures need the
 * installed fonts: library-recoded.pdf is a subset of DejaVu Sans with its names, cmap
 * and ToUnicode stripped, read only by matching its outlines with the installed font (the
 * references level); installed-font.pdf draws its letters by DejaVu Sans's glyph numbers,
 * read through the installed font of its name. The installed fonts are those of a
 * fontconfig configuration this test writes, a folder holding a copy of DejaVu Sans, and
 * the index of them is this test's own ($DECIPHER_REFERENCES).
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "../dc-test-fixtures.h"
#include "gui-test-util.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

static char *fonts_root;

/* Before GTK or the engine starts fontconfig, which reads FONTCONFIG_FILE once; the CLI
 * processes inherit it. */
static void
set_up_fonts (void)
{
  g_autofree char *fonts = NULL;
  g_autofree char *font = NULL;
  g_autofree char *conf = NULL;
  g_autofree char *conf_path = NULL;
  g_autofree char *data = NULL;
  gsize length;

  fonts_root = g_dir_make_tmp ("decipher-three-ways-XXXXXX", NULL);
  g_assert_nonnull (fonts_root);
  fonts = g_build_filename (fonts_root, "fonts", NULL);
  g_assert_cmpint (g_mkdir (fonts, 0755), ==, 0);
  font = g_build_filename (fonts, "DejaVuSans.ttf", NULL);
  g_assert_true (g_file_get_contents (DEJAVU, &data, &length, NULL));
  g_assert_true (g_file_set_contents (font, data, (gssize) length, NULL));
  conf = g_strdup_printf ("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n"
                          "<fontconfig><dir>%s</dir><cachedir>%s/fc-cache</cachedir>"
                          "</fontconfig>\n",
                          fonts, fonts_root);
  conf_path = g_build_filename (fonts_root, "fonts.conf", NULL);
  g_assert_true (g_file_set_contents (conf_path, conf, -1, NULL));
  g_setenv ("FONTCONFIG_FILE", conf_path, TRUE);
}

/* Runs decipher-cli with @args and @input; returns its standard output. */
static char *
run_cli (const char *input, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("DECIPHER_CLI"));
  g_assert_nonnull (argv->pdata[0]);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_newv ((const char *const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                   | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, input, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    g_error ("decipher-cli %s failed: %s", args[0], err);
  return out;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* One symbol's entry of `fonts --json` or of the session's "symbols" agrees with the
 * window's key. */
static void
assert_same_symbol (const char *who, JsonObject *entry, DcKey *key, guint s)
{
  const char *value = json_object_get_string_member_with_default (entry, "value", NULL);
  const char *status = json_object_get_string_member (entry, "status");
  const char *level = json_object_get_string_member (entry, "level");
  const char *provenance = json_object_get_string_member (entry, "provenance");

  if (g_strcmp0 (value, dc_key_peek_value (key, s)) != 0
      || g_strcmp0 (status, dc_key_status_to_string (dc_key_get_status (key, s))) != 0
      || g_strcmp0 (level, dc_key_level_to_string (dc_key_get_level (key, s))) != 0
      || g_strcmp0 (provenance, dc_key_get_provenance (key, s)) != 0)
    g_error ("Symbol %u differs: %s has %s (%s, %s, %s), the window %s (%s, %s, %s)", s, who, value,
             status, level, provenance, dc_key_peek_value (key, s),
             dc_key_status_to_string (dc_key_get_status (key, s)),
             dc_key_level_to_string (dc_key_get_level (key, s)), dc_key_get_provenance (key, s));
}

/* `decipher-cli fonts --json` reports the key `text` and `repair` decode with: every
 * symbol of every font, in the document's order. */
static void
assert_same_as_text_key (const char *pdf, DcKey *key)
{
  const char *args[] = { "fonts", pdf, "--json", NULL };
  g_autofree char *out = run_cli (NULL, args);
  g_autoptr (JsonNode) root = parse (out);
  JsonArray *fonts = json_node_get_array (root);
  DcDocument *document = dc_key_get_document (key);
  guint n_symbols, n_compared = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  g_assert_cmpuint (json_array_get_length (fonts), ==, dc_document_get_n_fonts (document));
  for (guint f = 0; f < json_array_get_length (fonts); f++)
    {
      JsonArray *entries = json_object_get_array_member (json_array_get_object_element (fonts, f),
                                                         "key");
      guint i = 0;

      for (guint s = 0; s < n_symbols; s++)
        {
          JsonObject *entry;

          if (symbols[s].font != f)
            continue;
          g_assert_cmpuint (i, <, json_array_get_length (entries));
          entry = json_array_get_object_element (entries, i++);
          g_assert_cmpint (json_object_get_int_member (entry, "code"), ==, symbols[s].code);
          assert_same_symbol ("decipher-cli fonts --json", entry, key, s);
          n_compared++;
        }
      g_assert_cmpuint (i, ==, json_array_get_length (entries));
    }
  g_assert_cmpuint (n_compared, ==, n_symbols);
}

/* `decipher-cli session`: its status counts, every symbol of its "symbols" and its text. */
static void
assert_same_as_session (const char *pdf, DcKey *key, const char *text)
{
  const char *args[] = { "session", pdf, NULL };
  g_autofree char *out = run_cli ("{\"cmd\":\"status\"}\n{\"cmd\":\"symbols\"}\n"
                                  "{\"cmd\":\"text\"}\n",
                                  args);
  g_auto (GStrv) replies = g_strsplit (out, "\n", -1);
  g_autoptr (JsonNode) status = NULL;
  g_autoptr (JsonNode) symbols = NULL;
  g_autoptr (JsonNode) session_text = NULL;
  JsonArray *entries;
  guint n_decoded, n_glyphs_decoded, n_to_decode;

  g_assert_cmpuint (g_strv_length (replies), >=, 3);
  status = parse (replies[0]);
  symbols = parse (replies[1]);
  session_text = parse (replies[2]);

  dc_key_count_decoded (key, &n_decoded, &n_glyphs_decoded);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (status), "decoded_symbols"),
                   ==, n_decoded);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (status), "decoded_glyphs"), ==,
                   n_glyphs_decoded);

  entries = json_object_get_array_member (json_node_get_object (symbols), "symbols");
  dc_key_count_to_decode (key, &n_to_decode, NULL);
  g_assert_cmpuint (json_array_get_length (entries), ==, n_to_decode);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      assert_same_symbol ("decipher-cli session", entry, key,
                          (guint) json_object_get_int_member (entry, "symbol"));
    }

  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (session_text), "text"), ==,
                   text);
}

/* Pages joined by a form feed alone, as the truth files have them. */
static char *
as_truth (const char *text)
{
  g_auto (GStrv) pages = g_strsplit (text, "\n\f", -1);

  return g_strjoinv ("\f", pages);
}

typedef struct
{
  const char *fixture;
  double max_cer; /* 0: every symbol decoded and the text exactly the truth */
} Case;

static void
test_three_ways (gconstpointer data)
{
  const Case *c = data;
  const char *fixture = c->fixture;
  g_autofree char *name = g_strconcat (fixture, ".pdf", NULL);
  g_autoptr (GFile) file = gui_test_fixture_copy (name);
  g_autofree char *pdf = g_file_get_path (file);
  const char *text_args[] = { "text", pdf, NULL };
  g_autofree char *cli_text = NULL;
  g_autofree char *window_text = NULL;
  g_autofree char *expected = dc_test_truth_text (fixture);
  g_autofree char *read = NULL;
  g_autofree char *index_name = g_strconcat (fixture, "-references.sqlite", NULL);
  g_autofree char *index = g_build_filename (fonts_root, index_name, NULL);
  DecipherWindow *window;
  DcSession *engine;
  DcKey *key;
  guint n_to_decode, n_decoded;

  /* An index of the installed fonts that does not exist yet: the window, first, builds
   * it while it opens, and the CLI then reads it. */
  g_setenv ("DECIPHER_REFERENCES", index, TRUE);
  g_assert_false (g_file_test (index, G_FILE_TEST_EXISTS));
  window = gui_test_open_window (name, NULL, 900, 700);
  g_assert_true (g_file_test (index, G_FILE_TEST_EXISTS));
  engine = decipher_session_get_engine (decipher_window_get_session (window));
  key = dc_session_get_key (engine);
  cli_text = run_cli (NULL, text_args);

  /* What the window shows is what `decipher-cli text` prints, and it is the document's
   * text: no symbol is left for the user. */
  window_text = dc_session_dup_text (engine);
  g_assert_cmpstr (window_text, ==, cli_text);
  read = as_truth (window_text);
  dc_key_count_to_decode (key, &n_to_decode, NULL);
  dc_key_count_decoded (key, &n_decoded, NULL);
  g_assert_cmpuint (n_to_decode, >, 0);
  if (c->max_cer == 0)
    {
      g_assert_cmpstr (read, ==, expected);
      g_assert_cmpuint (n_decoded, ==, n_to_decode);
    }
  else
    {
      double cer = dc_test_character_error_rate (read, expected);

      g_test_message ("%s: CER %.4f with zero typing", fixture, cer);
      g_assert_cmpfloat (cer, <=, c->max_cer);
    }

  assert_same_as_text_key (pdf, key);
  assert_same_as_session (pdf, key, cli_text);

  gui_test_close_window (window);
}

int
main (int argc, char **argv)
{
  int status;

  set_up_fonts ();
  gui_test_init (&argc, &argv);

  static const Case references = { "library-recoded", 0 };
  static const Case installed = { "installed-font", 0 };
  /* Issue 28: a legacy font whose own cmap lies (Cyrillic at Latin-1 codes), read through
   * the code page the document's words choose; « and » only an installed Roman Uralic
   * would tell, and this test's fonts have none. */
  static const Case roman_uralic = { "uralic-roman", 0.02 };

  g_test_add_data_func ("/three-ways/references", &references, test_three_ways);
  g_test_add_data_func ("/three-ways/installed-font", &installed, test_three_ways);
  g_test_add_data_func ("/three-ways/roman-uralic", &roman_uralic, test_three_ways);

  status = g_test_run ();
  dc_test_remove_tree (fonts_root);
  return status;
}
