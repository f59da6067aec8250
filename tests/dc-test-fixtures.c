/* dc-test-fixtures.c: opening the generated fixtures, shared by the engine tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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
      JsonArray *truth_lines = json_object_get_array_member (
        json_array_get_object_element (pages, page), "lines");
      guint first, n;

      dc_document_get_page_lines (document, page, &first, &n);
      g_assert_cmpuint (n, ==, json_array_get_length (truth_lines));
      for (guint l = 0; l < n; l++)
        {
          JsonArray *truth_glyphs = json_object_get_array_member (
            json_array_get_object_element (truth_lines, l), "glyphs");
          const DcLine *line = &lines[first + l];

          g_assert_cmpuint (line->n_glyphs, ==, json_array_get_length (truth_glyphs));
          for (guint k = 0; k < line->n_glyphs; k++)
            {
              guint symbol = glyphs[order[line->first_glyph + k]].symbol;
              const char *text = json_object_get_string_member (
                json_array_get_object_element (truth_glyphs, k), "text");

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
      JsonArray *page_lines = json_object_get_array_member (
        json_array_get_object_element (pages, p), "lines");

      for (guint l = 0; l < json_array_get_length (page_lines); l++)
        g_ptr_array_add (lines, g_strdup (json_object_get_string_member (
                                  json_array_get_object_element (page_lines, l), "text")));
    }
  return lines;
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
          g_string_append (text, json_object_get_string_member (
                                   json_array_get_object_element (lines, l), "text"));
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
