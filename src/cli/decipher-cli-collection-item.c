/* decipher-cli-collection-item.c: the reading process of a collection, decipher-cli
 * --collection-item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli-collection.c. A process of its own reads one request a line
 * on standard input, {"input", "output", "project"}: it decodes that file from the
 * libraries it was given, writes the result (text, map or repaired PDF) and answers with
 * the counts, one line of JSON on standard output, until its input ends.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "decipher-cli-collection-private.h"

#define format_names decipher_cli_collection_format_names
#define kind_names decipher_cli_collection_kind_names

/* What one reading process is asked to do. */
typedef struct
{
  DecipherCliCollectionKind kind;
  DcExportFormat format;
  const char *project_path; /* only for the project's own document */
  GPtrArray *libraries;     /* of DcLibrary, opened once, applied in this order */
  const char *password;
  gboolean automatic_pass;
  /* The index of installed fonts, opened with the first file that uses it and kept for
   * the next: bringing it up to date asks fontconfig for every font, each time. */
  DcReferences *references;
} ItemJob;

/* A file written a part at a time, and the first error that stopped it. */
typedef struct
{
  FILE *file;
  int error;
} FileOut;

static gboolean
write_to_file (const char *data, gsize length, gpointer user_data)
{
  FileOut *out = user_data;

  if (fwrite (data, 1, length, out->file) == length)
    return TRUE;
  out->error = errno;
  return FALSE;
}

/* The text or JSON of @document, written to @path as it is made (a book's JSON is half
 * a kilobyte a glyph: never held whole), into a file beside it (NAME.XXXXXX.tmp, as the
 * document cache's) that takes its name once whole, as g_file_set_contents() does: a
 * failed write leaves no half file. */
static gboolean
write_export (const char *path, DcDocument *document, DcExportFormat format, DcKey *key,
              GError **error)
{
  /* g_mkstemp_full() puts six random characters in place of the Xs. */
  g_autofree char *partial = g_strconcat (path, ".XXXXXX.tmp", NULL);
  g_autofree char *display = NULL;
  gboolean existed = g_file_test (path, G_FILE_TEST_EXISTS);
  FileOut out = { NULL, 0 };
  int fd;

  g_assert (format == DC_EXPORT_TEXT || format == DC_EXPORT_JSON);
  if ((fd = g_mkstemp_full (partial, O_WRONLY, 0666)) < 0)
    out.error = errno;
  else if ((out.file = fdopen (fd, "w")) == NULL)
    {
      out.error = errno;
      close (fd);
    }
  else
    {
      if (format == DC_EXPORT_JSON)
        dc_export_json_write (document, DC_NORMALIZATION_NFC, dc_key_value_func, key, write_to_file,
                              &out);
      else
        dc_export_text_write (document, dc_key_value_func, key, write_to_file, &out);
      /* Replacing a file: its new contents on the disk before its name. */
      if (out.error == 0 && (fflush (out.file) != 0 || (existed && fsync (fd) != 0)))
        out.error = errno;
      if (fclose (out.file) != 0 && out.error == 0)
        out.error = errno;
      if (out.error == 0 && g_rename (partial, path) != 0)
        out.error = errno;
    }
  if (out.error == 0)
    return TRUE;
  if (fd >= 0)
    g_unlink (partial);
  display = g_filename_display_name (path);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (out.error),
               _("Cannot write “%s”: %s. Check that the output folder has room and can be "
                 "written to, or give another one with -o."),
                  display, g_strerror (out.error));
  return FALSE;
}

/* A library given to a reading process; one that cannot be opened is left out, as the
 * default library is (the collection opened the user's before starting). */
static void
open_library (GPtrArray *libraries, const char *path)
{
  g_autoptr (DcLibrary) library = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL || path[0] == '\0')
    return;
  if ((library = dc_library_open (path, &error)) == NULL)
    {
      g_debug ("%s", error->message);
      return;
    }
  g_ptr_array_add (libraries, g_steal_pointer (&library));
}

static gboolean
write_result (const ItemJob *job, Item *item, DcDocument *document, DcKey *key, GError **error)
{
  g_autofree char *folder = g_path_get_dirname (item->output);
  g_autofree char *text = NULL;

  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (folder);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Cannot make the folder “%s”: %s."), display, g_strerror (saved_errno));
      return FALSE;
    }

  /* A file with nothing recovered gets no repaired copy or map, and says why: that is
   * what is left to do in it, not a failure to read or write it. */
  if (job->kind != DECIPHER_CLI_COLLECTION_TEXT && !dc_map_has_recovered (key))
    {
      item->note = g_strdup (item->n_glyphs_to_decode == 0
                             ? _("its text already reads right: nothing to write")
                             : _("nothing recovered yet: nothing written"));
      g_clear_pointer (&item->output, g_free);
      return TRUE;
    }

  switch (job->kind)
    {
    case DECIPHER_CLI_COLLECTION_REPAIR:
      {
        g_auto (GStrv) notes = NULL;

        if (!dc_repair_write (key, job->password, item->output, &notes, error))
          return FALSE;
        if (notes != NULL && notes[0] != NULL)
          item->note = g_strjoinv (" ", notes);
        return TRUE;
      }
    case DECIPHER_CLI_COLLECTION_MAP:
      if ((text = dc_map_to_json (key, error)) == NULL)
        return FALSE;
      break;
    case DECIPHER_CLI_COLLECTION_TEXT:
    default:
      if (job->format == DC_EXPORT_TEXT || job->format == DC_EXPORT_JSON)
        return write_export (item->output, document, job->format, key, error);
      text = dc_export_document (document, job->format, dc_key_value_func, key);
      break;
    }
  return g_file_set_contents (item->output, text, -1, error);
}

static void
count_fonts (Item *item, DcDocument *document)
{
  item->n_fonts = dc_document_get_n_fonts (document);
  for (guint f = 0; f < item->n_fonts; f++)
    if (!dc_font_is_trusted (dc_document_get_font (document, f)))
      item->n_fonts_to_decode++;
}

static gboolean
process (ItemJob *job, Item *item, GError **error)
{
  g_autoptr (DcPipeline) pipeline = NULL;
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (DcKey) key = NULL;

  /* The project's decisions are the user's own: they apply even without the automatic
   * levels, as a project does for its own document (read_in_process()). */
  pipeline = dc_pipeline_new (job->automatic_pass ? DC_PIPELINE_AUTOMATIC : DC_PIPELINE_LIBRARY);
  for (guint i = 0; i < job->libraries->len; i++)
    dc_pipeline_add_library (pipeline, g_ptr_array_index (job->libraries, i));
  dc_pipeline_set_references (pipeline, job->references);
  document = dc_pipeline_load_document (pipeline, item->input, job->password, NULL, NULL, NULL,
                                        NULL, error);
  if (document == NULL)
    return FALSE;
  key = dc_pipeline_load_key (pipeline, document, job->project_path, error);
  if (key == NULL)
    return FALSE;
  if (dc_pipeline_get_references_error (pipeline) != NULL)
    g_printerr ("decipher-cli: %s\n", dc_pipeline_get_references_error (pipeline)->message);
  if (job->references == NULL && dc_pipeline_get_references (pipeline) != NULL)
    job->references = g_object_ref (dc_pipeline_get_references (pipeline));

  item->loaded = TRUE;
  count_fonts (item, document);
  dc_key_count_to_decode (key, &item->n_symbols_to_decode, &item->n_glyphs_to_decode);
  dc_key_count_decoded (key, &item->n_symbols_decoded, &item->n_glyphs_decoded);
  return write_result (job, item, document, key, error);
}

const char *const kind_names[] = {
  [DECIPHER_CLI_COLLECTION_TEXT] = "text",
  [DECIPHER_CLI_COLLECTION_MAP] = "map",
  [DECIPHER_CLI_COLLECTION_REPAIR] = "repair",
};
/* Indexed by DcExportFormat. */
const char *const format_names[] = {
  [DC_EXPORT_TEXT] = "txt",
  [DC_EXPORT_FREKI] = "freki",
  [DC_EXPORT_JSON] = "json",
  [DC_EXPORT_LAYOUT] = "layout",
};

/* The answer to one request: the counts and what was written, one line of JSON. */
static void
print_answer (const Item *item)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *reply = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "loaded");
  json_builder_add_boolean_value (builder, item->loaded);
  json_builder_set_member_name (builder, "fonts");
  json_builder_add_int_value (builder, item->n_fonts);
  json_builder_set_member_name (builder, "fonts_to_decode");
  json_builder_add_int_value (builder, item->n_fonts_to_decode);
  json_builder_set_member_name (builder, "symbols_to_decode");
  json_builder_add_int_value (builder, item->n_symbols_to_decode);
  json_builder_set_member_name (builder, "glyphs_to_decode");
  json_builder_add_int_value (builder, item->n_glyphs_to_decode);
  json_builder_set_member_name (builder, "symbols_decoded");
  json_builder_add_int_value (builder, item->n_symbols_decoded);
  json_builder_set_member_name (builder, "glyphs_decoded");
  json_builder_add_int_value (builder, item->n_glyphs_decoded);
  json_builder_set_member_name (builder, "written");
  json_builder_add_boolean_value (builder, item->error == NULL && item->output != NULL);
  json_builder_set_member_name (builder, "note");
  json_builder_add_string_value (builder, item->note);
  json_builder_set_member_name (builder, "error");
  json_builder_add_string_value (builder, item->error);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  reply = json_to_string (root, FALSE);
  g_print ("%s\n", reply);
  fflush (stdout);
}

/* Reads the file one request names: {"input", "output", "project"}. FALSE when the
 * request is not one. */
static gboolean
answer_request (ItemJob *job, const char *request)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *object;
  JsonNode *root;
  g_autoptr (GError) error = NULL;
  Item item = { 0 };

  if (!json_parser_load_from_data (parser, request, -1, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  object = json_node_get_object (root);
  item.input = (char *) json_object_get_string_member_with_default (object, "input", NULL);
  item.output = g_strdup (json_object_get_string_member_with_default (object, "output", NULL));
  if (item.input == NULL || item.output == NULL)
    {
      g_free (item.output);
      return FALSE;
    }
  job->project_path = json_object_get_string_member_with_default (object, "project", NULL);

  if (!process (job, &item, &error))
    item.error = g_strdup (error->message);
  print_answer (&item);
  g_free (item.output);
  g_free (item.note);
  g_free (item.error);
  return TRUE;
}

/* The reading process: decipher-cli --collection-item … (see read_in_process()). It
 * reads one request a line on standard input, a file at a time, and answers each with
 * one line on standard output, until its input ends. */
int
decipher_cli_collection_item_main (int argc, char **argv)
{
  g_autofree char *kind = NULL, *format = NULL;
  g_auto (GStrv) libraries = NULL;
  gboolean no_auto = FALSE;
  const GOptionEntry entries[] = {
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, NULL, NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, NULL, NULL },
    { "library", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &libraries, NULL, NULL },
    { "no-auto", 0, 0, G_OPTION_ARG_NONE, &no_auto, NULL, NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) opened = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *line = NULL;
  size_t capacity = 0;
  ItemJob job = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || kind == NULL || format == NULL)
    {
      g_printerr ("decipher-cli --collection-item: %s\n",
                  error != NULL ? error->message : "missing arguments");
      return 2;
    }
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_str_equal (kind, kind_names[i]))
      job.kind = (DecipherCliCollectionKind) i;
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_str_equal (format, format_names[i]))
      job.format = (DcExportFormat) i;
  for (guint i = 0; libraries != NULL && libraries[i] != NULL; i++)
    open_library (opened, libraries[i]);
  job.libraries = opened;
  job.password = g_getenv ("DECIPHER_COLLECTION_PASSWORD");
  job.automatic_pass = !no_auto;

  while (getline (&line, &capacity, stdin) > 0)
    if (!answer_request (&job, line))
      {
        g_printerr ("decipher-cli --collection-item: not a request\n");
        g_clear_object (&job.references);
        return 2;
      }
  g_clear_object (&job.references);
  return 0;
}
