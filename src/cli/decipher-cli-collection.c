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
 *
 * This file gathers the files, decides where each result goes and refuses a run that
 * would replace what it should not, carries the project's decisions, starts the threads
 * and prints the summary; decipher-cli-collection-workers.c has the files read, one
 * reading process per thread, and decipher-cli-collection-item.c is that process.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "decipher-cli-collection-private.h"

#define decoded_share decipher_cli_collection_decoded_share
#define escape_for_terminal decipher_cli_collection_escape_for_terminal
#define reader_thread decipher_cli_collection_reader_thread

/* Exit statuses: 1 and 2 keep their meaning of the single-file commands. */
enum
{
  EXIT_COMPLETE = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_PARTIAL = 3,
};

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

double
decoded_share (const Item *item)
{
  return item->n_glyphs_to_decode > 0 ? 100.0 * item->n_glyphs_decoded / item->n_glyphs_to_decode
                                      : 100.0;
}

char *
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
