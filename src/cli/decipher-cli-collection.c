/* decipher-cli-collection.c: text and repair over many PDFs at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A linguist who decoded one volume of a series, or whose font library knows the fonts
 * of a whole archive, runs `decipher-cli text DIR -o OUTDIR` (or `repair`) once: every
 * PDF is decoded from the library (and from the project given with --project, whose
 * decisions reach the other files through the shapes of their glyphs), the automatic
 * pass and the fonts' own evidence, on all cores. The exit status tells a complete run
 * from one that left glyphs to decode or could not read a file (README.md,
 * docs/export-formats.md).
 *
 * The files are read by reading processes (decipher-cli --collection-item), one per
 * thread, each reading one file after another as it is asked: poppler shares
 * colour-management state between the documents of one process, so two documents are
 * never parsed side by side in one, and a PDF that brings its reader down costs that one
 * file, not the run (the next file gets a new reader). A reader starts once, not once
 * per file: the program, fontconfig and the libraries are loaded once for all the files
 * it reads, which was two thirds of a small file's time.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "decipher-cli-collection.h"
#include "decipher-cli-threads.h"

/* Exit statuses: 1 and 2 keep their meaning of the single-file commands. */
enum
{
  EXIT_COMPLETE = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_PARTIAL = 3,
};

typedef struct
{
  char *input;  /* as found */
  char *name;   /* shown: relative to the folder given, or as given */
  char *output; /* where its result goes */
  gboolean is_project_document;

  /* Written by the worker that reads it. */
  gboolean loaded;
  char *error;
  char *note;
  guint n_fonts;
  guint n_fonts_to_decode;
  guint n_symbols_to_decode;
  guint n_glyphs_to_decode;
  guint n_symbols_decoded;
  guint n_glyphs_decoded;
} Item;

typedef struct
{
  const DecipherCliCollection *options;
  GPtrArray *items;           /* of Item */
  char *project_library_path; /* the project's decisions, as a library; nullable */
  char *reader;               /* this program, run once per thread */
  GMutex progress_lock;       /* over n_started, n_done and standard error */
  guint n_started;
  guint n_done;
} Run;

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

/* A reading process, as its thread sees it. */
typedef struct
{
  GPid pid; /* 0: none running */
  int to_reader;
  FILE *from_reader;
  int err_fd; /* its standard error: a file of its own, read when it fails */
} Reader;

static void
item_free (gpointer data)
{
  Item *item = data;

  g_free (item->input);
  g_free (item->name);
  g_free (item->output);
  g_free (item->error);
  g_free (item->note);
  g_free (item);
}

static void
print_error (const char *message)
{
  g_printerr ("decipher-cli: %s\n", message);
}

static const char *
output_extension (const DecipherCliCollection *options)
{
  switch (options->kind)
    {
    case DECIPHER_CLI_COLLECTION_REPAIR:
      return ".pdf";
    case DECIPHER_CLI_COLLECTION_MAP:
      return ".map.json";
    case DECIPHER_CLI_COLLECTION_TEXT:
    default:
      break;
    }
  switch (options->format)
    {
    case DC_EXPORT_FREKI:
      return ".freki";
    case DC_EXPORT_JSON:
      return ".json";
    case DC_EXPORT_LAYOUT:
      return ".layout.txt";
    case DC_EXPORT_TEXT:
    default:
      return ".txt";
    }
}

static gboolean
is_pdf_name (const char *name)
{
  g_autofree char *folded = g_ascii_strdown (name, -1);

  return g_str_has_suffix (folded, ".pdf");
}

static void
add_item (GPtrArray *items, const char *input, const char *name)
{
  Item *item = g_new0 (Item, 1);

  item->input = g_strdup (input);
  item->name = g_strdup (name);
  g_ptr_array_add (items, item);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The PDFs under @folder, depth first in name order so that runs are repeatable.
 * Folders reached through symbolic links are not entered: a link back up would never
 * end. */
static gboolean
add_folder (GPtrArray *items, const char *folder, const char *prefix, guint depth, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  if (dir == NULL)
    return FALSE;
  while ((entry = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (entry));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *base = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (folder, base, NULL);
      g_autofree char *name = prefix != NULL ? g_build_filename (prefix, base, NULL)
                                             : g_strdup (base);

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) && g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth < 32 && !add_folder (items, path, name, depth + 1, error))
            return FALSE;
        }
      else if (is_pdf_name (base) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        add_item (items, path, name);
    }
  return TRUE;
}

/* OUTDIR/NAME with its “.pdf” replaced by the result's extension; a second file of the
 * same name (a/x.pdf and b/x.pdf given as files) becomes NAME-2. */
static char *
output_path_for (const DecipherCliCollection *options, GHashTable *taken, const char *name)
{
  g_autofree char *stem = g_strdup (name);
  const char *extension = output_extension (options);

  if (is_pdf_name (stem))
    stem[strlen (stem) - 4] = '\0';
  for (guint n = 1;; n++)
    {
      g_autofree char *file = n == 1 ? g_strconcat (stem, extension, NULL)
                                     : g_strdup_printf ("%s-%u%s", stem, n, extension);
      g_autofree char *path = g_build_filename (options->output_dir, file, NULL);
      g_autofree char *folded = g_utf8_casefold (path, -1);

      if (!g_hash_table_contains (taken, folded))
        {
          g_hash_table_add (taken, g_steal_pointer (&folded));
          return g_steal_pointer (&path);
        }
    }
}

/* The SHA-256 of a file's bytes, as DcDocument computes it for projects. */
static char *
file_sha256 (const char *path)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buffer = g_malloc (1 << 16);
  FILE *file = g_fopen (path, "rb");
  size_t n;

  if (file == NULL)
    return NULL;
  while ((n = fread (buffer, 1, 1 << 16, file)) > 0)
    g_checksum_update (checksum, buffer, (gssize) n);
  fclose (file);
  return g_strdup (g_checksum_get_string (checksum));
}

/* A library in a private folder holding what the user decided in the project's own
 * document: the other files then read it by the shapes of their glyphs, whatever their
 * fonts' codes. */
static gboolean
learn_project (Run *run, Item *item, GError **error)
{
  const DecipherCliCollection *options = run->options;
  g_autoptr (DcPipeline) pipeline = dc_pipeline_new (0);
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (DcKey) key = NULL;
  g_autoptr (DcShapes) shapes = NULL;
  g_autoptr (DcLibrary) library = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  char **learned;
  guint n_symbols;
  gboolean ok;

  document = dc_pipeline_load_document (pipeline, item->input, options->password, NULL, NULL, NULL,
                                        NULL, error);
  if (document == NULL)
    return FALSE;
  if ((key = dc_pipeline_load_key (pipeline, document, options->project_path, error)) == NULL)
    return FALSE;
  if ((folder = g_dir_make_tmp ("decipher-collection-XXXXXX", error)) == NULL)
    return FALSE;
  path = g_build_filename (folder, "project.sqlite", NULL);
  run->project_library_path = g_strdup (path);
  if ((library = dc_library_open (path, error)) == NULL)
    return FALSE;
  shapes = dc_shapes_new (document);
  dc_document_get_symbols (document, &n_symbols);
  learned = g_new0 (char *, n_symbols);
  ok = dc_library_learn (library, shapes, key, learned, FALSE, error);
  /* Not a GStrv: symbols with nothing learned leave holes. */
  for (guint s = 0; s < n_symbols; s++)
    g_free (learned[s]);
  g_free (learned);
  return ok;
}

static void
remove_project_library (Run *run)
{
  g_autofree char *folder = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *entry;

  if (run->project_library_path == NULL)
    return;
  folder = g_path_get_dirname (run->project_library_path);
  if ((dir = g_dir_open (folder, 0, NULL)) != NULL)
    while ((entry = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (folder, entry, NULL);

        g_unlink (path);
      }
  g_rmdir (folder);
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

static const char *const kind_names[] = {
  [DECIPHER_CLI_COLLECTION_TEXT] = "text",
  [DECIPHER_CLI_COLLECTION_MAP] = "map",
  [DECIPHER_CLI_COLLECTION_REPAIR] = "repair",
};
/* Indexed by DcExportFormat. */
static const char *const format_names[] = {
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

static guint
member_uint (JsonObject *object, const char *name)
{
  gint64 value = json_object_get_int_member_with_default (object, name, 0);

  return (guint) CLAMP (value, 0, G_MAXUINT);
}

/* Starts a reading process for the thread's files; its standard error goes to a file of
 * its own, which no one else sees. */
static gboolean
start_reader (Run *run, Reader *reader, GError **error)
{
  const DecipherCliCollection *options = run->options;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *err_path = NULL;
  int to_reader = -1, from_reader = -1;

  g_ptr_array_add (args, run->reader);
  g_ptr_array_add (args, "--collection-item");
  g_ptr_array_add (args, "--kind");
  g_ptr_array_add (args, (gpointer) kind_names[options->kind]);
  g_ptr_array_add (args, "--format");
  g_ptr_array_add (args, (gpointer) format_names[options->format]);
  /* The project's decisions are the user's own: they apply even without the automatic
   * pass, as a project does for its own document; the library is part of that pass. */
  if (run->project_library_path != NULL)
    {
      g_ptr_array_add (args, "--library");
      g_ptr_array_add (args, run->project_library_path);
    }
  if (options->automatic_pass && options->library_path != NULL)
    {
      g_ptr_array_add (args, "--library");
      g_ptr_array_add (args, (gpointer) options->library_path);
    }
  if (!options->automatic_pass)
    g_ptr_array_add (args, "--no-auto");
  g_ptr_array_add (args, NULL);

  if (options->password != NULL)
    env = g_environ_setenv (env, "DECIPHER_COLLECTION_PASSWORD", options->password, TRUE);
  if ((reader->err_fd = g_file_open_tmp ("decipher-reader-XXXXXX", &err_path, error)) < 0)
    return FALSE;
  g_unlink (err_path);
  /* The pipes are read and written on this thread; GSubprocess would watch the child
   * from GLib's worker thread, a hand-off ThreadSanitizer cannot follow. */
  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) args->pdata,
                                         (const char *const *) env,
                                         G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                         NULL, -1, -1, reader->err_fd, NULL, NULL, 0, &reader->pid,
                                         &to_reader, &from_reader, NULL, error))
    {
      close (reader->err_fd);
      reader->pid = 0;
      return FALSE;
    }
  reader->to_reader = to_reader;
  reader->from_reader = fdopen (from_reader, "r");
  return TRUE;
}

/* Ends the reading process: its input closed, it ends. Returns its wait status. */
static int
stop_reader (Reader *reader)
{
  int status = 0;

  if (reader->pid == 0)
    return 0;
  close (reader->to_reader);
  fclose (reader->from_reader);
  while (waitpid (reader->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (reader->pid);
  close (reader->err_fd);
  reader->pid = 0;
  return status;
}

/* What the reading process said on its standard error since the request. */
static char *
reader_said (Reader *reader)
{
  GString *said = g_string_new (NULL);
  char buffer[4096];
  ssize_t n;
  off_t offset = 0;

  while ((n = pread (reader->err_fd, buffer, sizeof buffer, offset)) > 0 && said->len < 65536)
    {
      g_string_append_len (said, buffer, n);
      offset += n;
    }
  return g_string_free (said, FALSE);
}

static gboolean
send_request (Reader *reader, Item *item, const char *project)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL, *request = NULL;
  gsize length, written = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "input");
  json_builder_add_string_value (builder, item->input);
  json_builder_set_member_name (builder, "output");
  json_builder_add_string_value (builder, item->output);
  json_builder_set_member_name (builder, "project");
  json_builder_add_string_value (builder, project);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  request = g_strconcat (text, "\n", NULL);
  length = strlen (request);
  while (written < length)
    {
      ssize_t n = write (reader->to_reader, request + written, length - written);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      written += (gsize) n;
    }
  return TRUE;
}

/* Has @item read by the thread's reading process, started if need be, and takes its
 * answer. A reader that stops without answering is gone: the next file gets another. */
static gboolean
read_in_process (Run *run, Reader *reader, Item *item, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  size_t capacity = 0;
  JsonObject *answer;
  JsonNode *root;
  gboolean answered;

  if (reader->pid == 0 && !start_reader (run, reader, error))
    return FALSE;
  /* What it says on its standard error is about this file only. */
  if (ftruncate (reader->err_fd, 0) != 0 || lseek (reader->err_fd, 0, SEEK_SET) < 0)
    g_debug ("%s", g_strerror (errno));

  answered = send_request (reader, item,
                           item->is_project_document ? run->options->project_path : NULL)
             && getline (&out, &capacity, reader->from_reader) > 0;
  if (!answered || !json_parser_load_from_data (parser, out, -1, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *err = reader_said (reader);
      int status = stop_reader (reader);

      if (WIFSIGNALED (status))
        g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                     _("Decipher stopped while reading it (signal %d): it is probably damaged "
                       "in a way Decipher does not handle. The other files are not affected."),
                        WTERMSIG (status));
      else
        {
          /* What the reader said, in a message that must be UTF-8. */
          g_autofree char *said = g_utf8_make_valid (g_strstrip (err), -1);

          g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                       _("Decipher could not read it: %s"),
                          said[0] != '\0' ? said : _("no answer"));
        }
      return FALSE;
    }

  answer = json_node_get_object (root);
  item->loaded = json_object_get_boolean_member_with_default (answer, "loaded", FALSE);
  item->n_fonts = member_uint (answer, "fonts");
  item->n_fonts_to_decode = member_uint (answer, "fonts_to_decode");
  item->n_symbols_to_decode = member_uint (answer, "symbols_to_decode");
  item->n_glyphs_to_decode = member_uint (answer, "glyphs_to_decode");
  item->n_symbols_decoded = member_uint (answer, "symbols_decoded");
  item->n_glyphs_decoded = member_uint (answer, "glyphs_decoded");
  item->note = g_strdup (json_object_get_string_member_with_default (answer, "note", NULL));
  if (!json_object_get_boolean_member_with_default (answer, "written", FALSE))
    g_clear_pointer (&item->output, g_free);
  if (json_object_get_string_member_with_default (answer, "error", NULL) != NULL)
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_FAILED,
                           json_object_get_string_member (answer, "error"));
      return FALSE;
    }
  return TRUE;
}

static double
decoded_share (const Item *item)
{
  return item->n_glyphs_to_decode > 0 ? 100.0 * item->n_glyphs_decoded / item->n_glyphs_to_decode
                                      : 100.0;
}

static char *
escape_for_terminal (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_printf (out, "\\x%02x", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static void
work (Run *run, Reader *reader, Item *item)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  guint done;

  if (!read_in_process (run, reader, item, &error))
    item->error = g_strdup (error->message);

  name = escape_for_terminal (item->name);
  decipher_cli_lock (&run->progress_lock);
  done = ++run->n_done;
  if (item->error != NULL)
    {
      /* The sentence names the file, which the folder's owner chose. */
      g_autofree char *shown = escape_for_terminal (item->error);

      g_printerr (_("decipher-cli: %u/%u %s: %s\n"), done, run->items->len, name, shown);
    }
  else
    g_printerr (_("decipher-cli: %u/%u %s: %.1f %% decoded\n"), done, run->items->len, name,
                   decoded_share (item));
  decipher_cli_unlock (&run->progress_lock);
}

/* A reader thread: the next file not yet started, until none is left. The threads are
 * started and joined by the caller, which orders what they read and write with its own
 * (a GThreadPool's queue is a hand-off inside GLib that ThreadSanitizer cannot see). */
static gpointer
reader_thread (gpointer data)
{
  Run *run = data;
  Reader reader = { 0 };

  for (;;)
    {
      Item *item = NULL;

      decipher_cli_lock (&run->progress_lock);
      if (run->n_started < run->items->len)
        item = g_ptr_array_index (run->items, run->n_started++);
      decipher_cli_unlock (&run->progress_lock);
      if (item == NULL)
        break;
      work (run, &reader, item);
    }
  stop_reader (&reader);
  return NULL;
}

/* One line per file, tab-separated under a header, then a sentence with the counts. */
static int
print_summary (Run *run)
{
  guint n_complete = 0, n_partial = 0, n_failed = 0;

  g_print ("file\tfonts\tfonts_to_decode\tglyphs_to_decode\tglyphs_decoded\tdecoded\t"
           "symbols_left\tresult\n");
  for (guint i = 0; i < run->items->len; i++)
    {
      Item *item = g_ptr_array_index (run->items, i);
      g_autofree char *name = escape_for_terminal (item->name);
      g_autofree char *result = NULL;
      guint left = item->n_symbols_to_decode - item->n_symbols_decoded;

      if (item->error != NULL)
        n_failed++;
      else if (left == 0)
        n_complete++;
      else
        n_partial++;
      if (!item->loaded)
        {
          result = escape_for_terminal (item->error);
          g_print ("%s\t-\t-\t-\t-\t-\t-\t%s\n", name, result);
          continue;
        }
      if (item->error != NULL)
        result = escape_for_terminal (item->error);
      else if (item->output != NULL && item->note != NULL)
        {
          g_autofree char *both = g_strdup_printf ("%s (%s)", item->output, item->note);

          result = escape_for_terminal (both);
        }
      else
        result = escape_for_terminal (item->output != NULL ? item->output
                                      : item->note != NULL ? item->note
                                                           : "");
      g_print ("%s\t%u\t%u\t%u\t%u\t%.1f %%\t%u\t%s\n", name, item->n_fonts,
               item->n_fonts_to_decode, item->n_glyphs_to_decode, item->n_glyphs_decoded,
               decoded_share (item), left, result);
    }
  g_print (g_dngettext (GETTEXT_PACKAGE,
                        "%u file: %u complete, %u with glyphs left to decode, "
                        "%u that could not be read or written.\n",
                        "%u files: %u complete, %u with glyphs left to decode, %u that could "
                        "not be read or written.\n",
                        run->items->len),
           run->items->len, n_complete, n_partial, n_failed);
  return n_failed > 0 ? EXIT_FAILED : n_partial > 0 ? EXIT_PARTIAL : EXIT_COMPLETE;
}

/* Refuses, before anything is written, a run whose results would replace one of its
 * own PDFs (OUTDIR being where the PDFs are, for repair), or any existing file unless
 * --overwrite is given. */
static gboolean
check_outputs (Run *run, GError **error)
{
  g_autoptr (GHashTable) inputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < run->items->len; i++)
    {
      Item *item = g_ptr_array_index (run->items, i);

      g_hash_table_add (inputs, g_canonicalize_filename (item->input, NULL));
    }
  for (guint i = 0; i < run->items->len; i++)
    {
      Item *item = g_ptr_array_index (run->items, i);
      g_autofree char *output = g_canonicalize_filename (item->output, NULL);

      GStatBuf st;

      if (g_hash_table_contains (inputs, output))
        {
          g_autofree char *display = g_filename_display_name (item->output);

          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The result for “%s” would replace the PDF “%s” itself: choose an "
                         "output folder that is not where the PDFs are."),
                          item->name, display);
          return FALSE;
        }
      if (g_lstat (item->output, &st) != 0)
        continue;
      /* An earlier run's results, or the user's own book.txt: replaced only when asked,
       * and then only a regular file, never through a link (issue 33). */
      if (!run->options->overwrite)
        {
          g_autofree char *display = g_filename_display_name (item->output);

          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("“%s” already exists; nothing was written. Give --overwrite to "
                         "replace the results of an earlier run, or choose an empty output "
                         "folder."),
                          display);
          return FALSE;
        }
      if (!dc_file_may_write (item->output, NULL, "book.txt", error))
        return FALSE;
    }
  return TRUE;
}

/* Which file the project belongs to: its decisions are loaded for that file and carried
 * to the others. */
static gboolean
find_project_document (Run *run, GError **error)
{
  g_autofree char *file = NULL;
  g_autofree char *sha256 = dc_project_peek_document (run->options->project_path, &file, error);
  g_autofree char *display = NULL;

  if (sha256 == NULL)
    return FALSE;
  for (guint i = 0; i < run->items->len; i++)
    {
      Item *item = g_ptr_array_index (run->items, i);
      g_autofree char *checksum = file_sha256 (item->input);

      if (g_strcmp0 (checksum, sha256) == 0)
        {
          item->is_project_document = TRUE;
          return learn_project (run, item, error);
        }
    }
  display = g_filename_display_basename (run->options->project_path);
  g_set_error (error, DC_ERROR, DC_ERROR_PROJECT,
               _("The project “%s” was made for “%s”, which is not among these files. Add that "
                 "PDF: its decisions are carried to the others through the shapes of their "
                 "glyphs."),
                  display, file != NULL ? file : "?");
  return FALSE;
}

/**
 * decipher_cli_collection_run:
 * @inputs: PDF files and folders (searched for *.pdf, recursively)
 *
 * Decodes every PDF and writes its result under the output folder, a progress line per
 * file on standard error and a summary table on standard output.
 *
 * Returns: the exit status: 0 when every file is written and fully decoded, 3 when
 *   every file is written but some have glyphs left to decode, 1 when a file could not
 *   be read or written (the others are still written), 2 when nothing could start.
 */
int
decipher_cli_collection_run (const DecipherCliCollection *options, char **inputs, guint n_inputs)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (item_free);
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GError) error = NULL;
  Run run = { options, items, NULL, NULL, { 0 }, 0, 0 };
  g_autofree GThread **threads = NULL;
  void (*previous_sigpipe) (int);
  guint n_threads;
  int status;

  g_return_val_if_fail (options != NULL && options->output_dir != NULL, EXIT_USAGE);

  for (guint i = 0; i < n_inputs; i++)
    {
      g_autofree char *display = g_filename_display_name (inputs[i]);

      if (g_file_test (inputs[i], G_FILE_TEST_IS_DIR))
        {
          if (!add_folder (items, inputs[i], NULL, 0, &error))
            {
              print_error (error->message);
              return EXIT_FAILED;
            }
        }
      else if (g_file_test (inputs[i], G_FILE_TEST_EXISTS))
        {
          g_autofree char *base = g_path_get_basename (inputs[i]);

          add_item (items, inputs[i], base);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("“%s” does not exist."), display);

          print_error (message);
          return EXIT_USAGE;
        }
    }
  if (items->len == 0)
    {
      print_error (_("No PDF file was found in what was given (folders are searched for "
                     "files ending in .pdf)."));
      return EXIT_USAGE;
    }
  for (guint i = 0; i < items->len; i++)
    {
      Item *item = g_ptr_array_index (items, i);

      item->output = output_path_for (options, taken, item->name);
    }
  if (!check_outputs (&run, &error))
    {
      print_error (error->message);
      return EXIT_USAGE;
    }
  if (options->project_path != NULL && !find_project_document (&run, &error))
    {
      print_error (error->message);
      remove_project_library (&run);
      g_free (run.project_library_path);
      return EXIT_FAILED;
    }

  if ((run.reader = g_file_read_link ("/proc/self/exe", &error)) == NULL)
    {
      print_error (error->message);
      remove_project_library (&run);
      g_free (run.project_library_path);
      return EXIT_FAILED;
    }
  g_mutex_init (&run.progress_lock);
  /* A reader that stopped leaves a pipe no one reads: writing to it must fail, not end
   * the run. */
  previous_sigpipe = signal (SIGPIPE, SIG_IGN);
  /* GLib fills its temporary folder's name once, behind a g_once that ThreadSanitizer
   * cannot see inside libglib: filled here, before the readers start, it is handed to
   * them by their creation and two first readers do not look like a race. */
  (void) g_get_tmp_dir ();
  n_threads = CLAMP (g_get_num_processors (), 1, items->len);
  threads = g_new (GThread *, n_threads);
  for (guint t = 0; t < n_threads; t++)
    threads[t] = g_thread_new ("decipher-reader", reader_thread, &run);
  for (guint t = 0; t < n_threads; t++)
    g_thread_join (threads[t]);
  signal (SIGPIPE, previous_sigpipe);
  g_mutex_clear (&run.progress_lock);

  status = print_summary (&run);
  remove_project_library (&run);
  g_free (run.project_library_path);
  g_free (run.reader);
  return status;
}
