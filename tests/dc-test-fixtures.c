/* dc-test-fixtures.c: opening the generated fixtures, shared by the engine tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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
