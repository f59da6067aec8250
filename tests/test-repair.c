/* test-repair.c: the recovered map as ToUnicode CMaps and JSON, and the repaired PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include <glib/gstdio.h>
#include <poppler.h>
#include <unistd.h>

#include "dc-test-fixtures.h"

static char *
make_temp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("decipher-repair-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_temp_dir (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_temp_dir (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (handle);
  while (g_dir_read_name (handle) != NULL)
    n++;
  return n;
}

/* The repaired copy, read back by the engine with nothing recovered: every font is
 * trusted and the PDF's own text is the truth, line for line. */
static void
assert_reads_as_truth (const char *path, const char *password, const char *truth)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) repaired = NULL;
  g_autoptr (GPtrArray) lines = dc_test_truth_lines (truth);
  guint n_lines;

  repaired = dc_document_new_from_file (path, password, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint f = 0; f < dc_document_get_n_fonts (repaired); f++)
    {
      DcFont *font = dc_document_get_font (repaired, f);

      if (!dc_font_is_trusted (font))
        g_test_message ("font %u: %s", f, dc_font_get_trust_reason (font));
      g_assert_true (dc_font_is_trusted (font));
    }

  dc_document_get_lines (repaired, &n_lines);
  g_assert_cmpuint (n_lines, ==, lines->len);
  for (guint l = 0; l < n_lines; l++)
    {
      g_autofree char *text = dc_export_line_text (repaired, l, dc_document_pdf_value, repaired);

      g_assert_cmpstr (text, ==, g_ptr_array_index (lines, l));
    }
}

static void
test_repair_fixture (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_auto (GStrv) notes = NULL;

  dc_test_key_fill_from_truth (key, name);
  g_assert_true (dc_repair_write (key, NULL, output, &notes, &error));
  g_assert_no_error (error);
  /* Everything is decoded, so no font stays wrong. */
  g_assert_cmpuint (g_strv_length (notes), ==, 0);
  g_assert_cmpuint (count_entries (dir), ==, 1);

  assert_reads_as_truth (output, NULL, name);
  remove_temp_dir (dir);
}

/* The plan is a snapshot: the key may change (in the window, while a worker writes)
 * without changing the copy. */
static void
test_repair_snapshot (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcRepair) repair = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);

  dc_test_key_fill_from_truth (key, "legacy-cyrillic");
  repair = dc_repair_new (key, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length ((char **) dc_repair_get_notes (repair)), ==, 0);
  g_assert_true (dc_key_undo (key));
  g_assert_false (dc_map_has_recovered (key));

  g_assert_true (dc_repair_save (repair, output, &error));
  g_assert_no_error (error);
  assert_reads_as_truth (output, NULL, "legacy-cyrillic");
  remove_temp_dir (dir);
}

/* The copy keeps the original's encryption: the same password opens it. */
static void
test_repair_encrypted (void)
{
  g_autofree char *path = dc_test_fixture_path ("encrypted.pdf");
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (DcDocument) locked = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);

  document = dc_document_new_from_file (path, "secret", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  key = dc_key_new (document);
  dc_test_key_fill_from_truth (key, "legacy-cyrillic");

  g_assert_false (dc_repair_write (key, "wrong", output, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_BAD_PASSWORD);
  g_assert_nonnull (strstr (error->message, "password"));
  g_clear_error (&error);
  g_assert_cmpuint (count_entries (dir), ==, 0);

  g_assert_true (dc_repair_write (key, "secret", output, NULL, &error));
  g_assert_no_error (error);

  locked = dc_document_new_from_file (output, NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, DC_ERROR, DC_ERROR_ENCRYPTED);
  g_assert_null (locked);
  g_clear_error (&error);
  assert_reads_as_truth (output, "secret", "legacy-cyrillic");
  remove_temp_dir (dir);
}

static guint
first_symbol_of_font_to_decode (DcDocument *document, guint nth)
{
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s) && nth-- == 0)
      return s;
  g_assert_not_reached ();
}

static char *
cmap_entry (const DcSymbol *symbol, const char *utf16)
{
  return symbol->code_len == 1 ? g_strdup_printf ("<%02X> <%s>\n", symbol->code, utf16)
                               : g_strdup_printf ("<%04X> <%s>\n", symbol->code, utf16);
}

/* Several characters in one value, a character outside the BMP (a surrogate pair in
 * UTF-16) and an ignored glyph, in the CMap text and read back by poppler. */
static void
test_cmap_values (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) repaired = NULL;
  g_autofree char *cmap = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *pair_entry = NULL, *astral_entry = NULL, *ignored_code = NULL;
  guint pair = first_symbol_of_font_to_decode (document, 0);
  guint astral = first_symbol_of_font_to_decode (document, 1);
  guint ignored = first_symbol_of_font_to_decode (document, 2);
  const DcSymbol *pair_symbol = dc_document_get_symbol (document, pair);
  const DcSymbol *astral_symbol = dc_document_get_symbol (document, astral);
  const DcSymbol *ignored_symbol = dc_document_get_symbol (document, ignored);
  guint font = pair_symbol->font;
  guint found;

  g_assert_cmpuint (astral_symbol->font, ==, font);
  g_assert_cmpuint (ignored_symbol->font, ==, font);

  /* Nothing known yet: no map to write. */
  g_assert_false (dc_map_font_is_recovered (key, font));
  g_assert_null (dc_map_font_to_cmap (key, font, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  dc_key_set (key, pair, "ст", DC_KEY_CONFIRMED, "test", &error);
  g_assert_no_error (error);
  dc_key_set (key, astral, "\xF0\x9D\x84\x9E", DC_KEY_CONFIRMED, "test", &error); /* U+1D11E */
  g_assert_no_error (error);
  dc_key_set (key, ignored, "", DC_KEY_CONFIRMED, "test", &error);
  g_assert_no_error (error);
  g_assert_true (dc_map_font_is_recovered (key, font));

  cmap = dc_map_font_to_cmap (key, font, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (cmap, "%!PS-Adobe-3.0 Resource-CMap\n"));
  g_assert_nonnull (strstr (cmap, "/CIDInit /ProcSet findresource begin\n"));
  g_assert_nonnull (strstr (cmap, "/CMapType 2 def\n"));
  g_assert_nonnull (
      strstr (cmap, pair_symbol->code_len == 1
                        ? "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
                        : "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"));
  g_assert_nonnull (strstr (cmap, "\n2 beginbfchar\n"));
  pair_entry = cmap_entry (pair_symbol, "04410442");
  astral_entry = cmap_entry (astral_symbol, "D834DD1E");
  g_assert_nonnull (strstr (cmap, pair_entry));
  g_assert_nonnull (strstr (cmap, astral_entry));
  ignored_code = ignored_symbol->code_len == 1
                     ? g_strdup_printf ("\n<%02X> ", ignored_symbol->code)
                     : g_strdup_printf ("\n<%04X> ", ignored_symbol->code);
  g_assert_null (strstr (cmap, ignored_code));
  g_assert_true (g_str_has_suffix (cmap, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
                                         "end\nend\n"));

  /* poppler reads both values back from the repaired copy. */
  g_assert_true (dc_repair_write (key, NULL, output, NULL, &error));
  g_assert_no_error (error);
  repaired = dc_document_new_from_file (output, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dc_document_lookup_symbol (repaired, font, pair_symbol->code, &found));
  g_assert_cmpstr (dc_document_get_symbol (repaired, found)->pdf_text, ==, "ст");
  g_assert_true (dc_document_lookup_symbol (repaired, font, astral_symbol->code, &found));
  g_assert_cmpstr (dc_document_get_symbol (repaired, found)->pdf_text, ==, "\xF0\x9D\x84\x9E");
  remove_temp_dir (dir);
}

/* A CMap section holds at most 100 entries. */
static void
test_cmap_sections (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-h");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *cmap = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_symbols, entries = 0, declared = 0;

  dc_document_get_symbols (document, &n_symbols);
  dc_test_key_fill_from_truth (key, "identity-h");
  cmap = dc_map_font_to_cmap (key, 0, &error);
  g_assert_no_error (error);

  lines = g_strsplit (cmap, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint n;

      if (sscanf (lines[i], "%u beginbfchar", &n) == 1 && strstr (lines[i], "beginbfchar"))
        {
          g_assert_cmpuint (n, <=, 100);
          declared += n;
        }
      else if (lines[i][0] == '<' && strlen (lines[i]) > 7 && lines[i][5] == '>'
               && !strstr (lines[i], "<0000> <FFFF>"))
        entries++;
    }
  g_assert_cmpuint (n_symbols, >, 0);
  g_assert_cmpuint (entries, ==, declared);
  g_assert_cmpuint (entries, ==, dc_font_get_n_symbols (dc_document_get_font (document, 0)));
}

static void
test_map_json (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *root, *font;
  JsonArray *fonts, *map;
  DcFont *legacy = NULL;

  /* Nothing recovered yet: a sentence, not an empty map. */
  g_assert_null (dc_map_to_json (key, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "Nothing has been recovered"));
  g_clear_error (&error);

  dc_test_key_fill_from_truth (key, "legacy-cyrillic");
  json = dc_map_to_json (key, &error);
  g_assert_no_error (error);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "decipher-map");
  g_assert_cmpstr (json_object_get_string_member (root, "sha256"), ==,
                   dc_document_get_sha256 (document));

  /* The trusted header font is the PDF's own business; only the legacy font is listed. */
  fonts = json_object_get_array_member (root, "fonts");
  g_assert_cmpuint (json_array_get_length (fonts), ==, 1);
  font = json_array_get_object_element (fonts, 0);
  legacy = dc_document_get_font (document, json_object_get_int_member (font, "index"));
  g_assert_false (dc_font_is_trusted (legacy));
  g_assert_cmpstr (json_object_get_string_member (font, "name"), ==, dc_font_get_name (legacy));
  g_assert_cmpstr (json_object_get_string_member (font, "sha256"), ==,
                   dc_font_get_program_sha256 (legacy));
  g_assert_cmpuint (strlen (json_object_get_string_member (font, "sha256")), ==, 64);
  g_assert_cmpstr (json_object_get_string_member (font, "codes"), ==, "bytes");
  map = json_object_get_array_member (font, "map");
  g_assert_cmpuint (json_array_get_length (map), ==, dc_font_get_n_symbols (legacy));
  for (guint i = 0; i < json_array_get_length (map); i++)
    {
      JsonObject *entry = json_array_get_object_element (map, i);
      guint symbol;

      g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "confirmed");
      g_assert_true (dc_document_lookup_symbol (document, dc_font_get_index (legacy),
                                                json_object_get_int_member (entry, "code"),
                                                &symbol));
      g_assert_cmpstr (json_object_get_string_member (entry, "value"), ==,
                       dc_key_get_value (key, symbol));
      if (i > 0)
        g_assert_cmpint (json_object_get_int_member (entry, "code"), >,
                         json_object_get_int_member (json_array_get_object_element (map, i - 1),
                                                     "code"));
    }
}

static void
test_repair_errors (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "repaired.pdf", NULL);
  g_autofree char *locked_dir = g_build_filename (dir, "locked", NULL);
  g_autofree char *locked = g_build_filename (locked_dir, "repaired.pdf", NULL);
  g_autofree char *existing = g_build_filename (dir, "existing.pdf", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.pdf", NULL);
  g_autofree char *original = dc_test_fixture_path ("legacy-cyrillic.pdf");
  g_autofree char *contents = NULL;
  g_autofree char *after = NULL;
  gsize length;

  /* Nothing recovered: a sentence, and no file. */
  g_assert_false (dc_repair_write (key, NULL, output, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "Nothing has been recovered"));
  g_clear_error (&error);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  dc_test_key_fill_from_truth (key, "legacy-cyrillic");

  g_assert_false (dc_repair_write (key, NULL, missing, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "that folder does not exist"));
  g_assert_nonnull (strstr (error->message, "choose another folder"));
  g_clear_error (&error);

  /* A "folder" that is a file. */
  g_assert_true (g_file_set_contents (existing, "old", -1, NULL));
  {
    g_autofree char *under_file = g_build_filename (existing, "repaired.pdf", NULL);

    g_assert_false (dc_repair_write (key, NULL, under_file, NULL, &error));
    g_assert_error (error, DC_ERROR, DC_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "that folder does not exist"));
    g_clear_error (&error);
  }

  /* A folder where the file should go stays a folder. */
  g_assert_false (dc_repair_write (key, NULL, dir, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "is a folder"));
  g_clear_error (&error);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));

  /* An unwritable folder: no partial file, nothing left behind. Root writes anywhere. */
  g_assert_cmpint (g_mkdir (locked_dir, 0500), ==, 0);
  if (geteuid () != 0)
    {
      g_assert_false (dc_repair_write (key, NULL, locked, NULL, &error));
      g_assert_error (error, DC_ERROR, DC_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, "you may not write to that folder"));
      g_clear_error (&error);
      g_assert_cmpuint (count_entries (locked_dir), ==, 0);
    }
  g_chmod (locked_dir, 0700);

  /* The original is never replaced by its repaired copy. */
  g_assert_true (g_file_get_contents (original, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  {
    g_autoptr (DcDocument)
        copied = dc_document_new_from_file (copy, NULL, NULL, NULL, NULL, &error);
    g_autoptr (DcKey) copied_key = NULL;

    g_assert_no_error (error);
    copied_key = dc_key_new (copied);
    dc_test_key_fill_from_truth (copied_key, "legacy-cyrillic");
    g_assert_false (dc_repair_write (copied_key, NULL, copy, NULL, &error));
    g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
    g_assert_nonnull (strstr (error->message, "choose another file name"));
    g_clear_error (&error);

    /* Changed since it was opened: the object numbers read then may name other things. */
    g_assert_true (g_file_set_contents (copy, "%PDF-1.4\n%%EOF\n", -1, NULL));
    g_assert_false (dc_repair_write (copied_key, NULL, output, NULL, &error));
    g_assert_error (error, DC_ERROR, DC_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "has changed since it was opened"));
    g_clear_error (&error);
    g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  }

  /* A file that is not a PDF (a project, say) is never replaced by a repaired copy. */
  g_assert_false (dc_repair_write (key, NULL, existing, NULL, &error));
  g_assert_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "is not a PDF"));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (existing, &after, &length, NULL));
  g_assert_cmpstr (after, ==, "old");
  g_clear_pointer (&after, g_free);

  /* An earlier PDF at the output is replaced whole, only once the copy is complete. */
  g_assert_true (g_file_set_contents (existing, "%PDF-1.4\nan earlier copy\n", -1, NULL));
  g_assert_true (dc_repair_write (key, NULL, existing, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (existing, &after, &length, NULL));
  g_assert_true (g_str_has_prefix (after, "%PDF-"));

  remove_temp_dir (dir);
}

/* A partly decoded font is repaired as far as it goes, and the notes say what is not. */
static void
test_repair_partial (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_auto (GStrv) notes = NULL;
  guint symbol = first_symbol_of_font_to_decode (document, 0);

  dc_key_set (key, symbol, "а", DC_KEY_CONFIRMED, "test", &error);
  g_assert_no_error (error);
  g_assert_true (dc_repair_write (key, NULL, output, &notes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (notes), ==, 1);
  g_assert_nonnull (strstr (notes[0], "not decoded yet"));
  remove_temp_dir (dir);
}

/* @text in NFC without white space: readers lay words out as they see fit. */
static char *
squashed (const char *text)
{
  g_autofree char *nfc = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);
  GString *out = g_string_new (NULL);

  for (const char *p = nfc; *p; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      g_string_append_unichar (out, g_utf8_get_char (p));
  return g_string_free (out, FALSE);
}

/* Words drawn in another order than read (ि before क, a reph after its cluster, ঁ
 * before া) come out of the repaired copy in reading order, as another reader (poppler's
 * text extraction, which pdftotext and Evince's copy use) reads it: the ToUnicode gives
 * each glyph its text, the /ActualText spans the order. */
static void
test_repair_reordered (gconstpointer data)
{
  const char *script = data;
  g_autofree char *name = g_strdup_printf ("script-%s-stripped", script);
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (DcMatcher) matcher = dc_matcher_new (key);
  g_autoptr (GPtrArray) truth = dc_test_truth_lines (name);
  g_autoptr (GString) expected = g_string_new (NULL);
  g_autoptr (GString) read = g_string_new (NULL);
  PopplerDocument *copy; /* poppler-glib 22.12 declares no autoptr cleanups */
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *output = g_build_filename (dir, "repaired.pdf", NULL);
  g_autofree char *uri = NULL;
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;

  /* Last line first, as test-scripts.c types them: each line is then the first to show
   * some of its glyphs. */
  for (guint l = truth->len; l-- > 0;)
    {
      g_autoptr (DcMatchResult)
          result = dc_matcher_type (matcher, g_ptr_array_index (truth, l), (int) l, -1, &error);

      g_assert_no_error (error);
      g_assert_true (result->kind == DC_MATCH_ASSIGNED || result->kind == DC_MATCH_KNOWN);
    }
  for (guint l = 0; l < truth->len; l++)
    g_string_append (expected, g_ptr_array_index (truth, l));
  g_assert_true (dc_repair_write (key, NULL, output, NULL, &error));
  g_assert_no_error (error);

  uri = g_filename_to_uri (output, NULL, &error);
  g_assert_no_error (error);
  copy = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  for (int p = 0; p < poppler_document_get_n_pages (copy); p++)
    {
      PopplerPage *page = poppler_document_get_page (copy, p);
      g_autofree char *text = poppler_page_get_text (page);

      g_string_append (read, text);
      g_object_unref (page);
    }
  g_object_unref (copy);
  want = squashed (expected->str);
  got = squashed (read->str);
  g_assert_cmpstr (got, ==, want);
  remove_temp_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/repair/legacy-cyrillic", "legacy-cyrillic", test_repair_fixture);
  g_test_add_data_func ("/repair/identity-h", "identity-h", test_repair_fixture);
  g_test_add_data_func ("/repair/type3", "type3", test_repair_fixture);
  g_test_add_func ("/repair/encrypted", test_repair_encrypted);
  g_test_add_func ("/repair/snapshot", test_repair_snapshot);
  g_test_add_func ("/repair/partial", test_repair_partial);
  g_test_add_func ("/repair/errors", test_repair_errors);
  g_test_add_data_func ("/repair/reordered/hindi", "hindi", test_repair_reordered);
  g_test_add_data_func ("/repair/reordered/hindi-reph", "hindi-reph", test_repair_reordered);
  g_test_add_data_func ("/repair/reordered/tamil", "tamil", test_repair_reordered);
  /* cairo's /Span BMC around each cluster: the spans must nest with them. */
  g_test_add_data_func ("/repair/reordered/bengali", "bengali", test_repair_reordered);
  g_test_add_data_func ("/repair/reordered/bengali-marks", "bengali-marks", test_repair_reordered);
  g_test_add_data_func ("/map/cmap-values/simple", "legacy-cyrillic", test_cmap_values);
  g_test_add_data_func ("/map/cmap-values/identity-h", "identity-h", test_cmap_values);
  g_test_add_func ("/map/cmap-sections", test_cmap_sections);
  g_test_add_func ("/map/json", test_map_json);

  return g_test_run ();
}
