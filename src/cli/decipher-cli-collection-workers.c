/* decipher-cli-collection-workers.c: the threads of a collection, each with its reading
 * process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli-collection.c. A thread takes the next file not yet started, has
 * its reading process (decipher-cli-collection-item.c, started when there is none) read
 * it through a pipe, takes the answer and says the file's progress on standard error; a
 * reader that stops without answering costs that file, and the next one gets another.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "decipher-cli-collection-private.h"
#include "decipher-cli-threads.h"

#define decoded_share decipher_cli_collection_decoded_share
#define escape_for_terminal decipher_cli_collection_escape_for_terminal
#define format_names decipher_cli_collection_format_names
#define kind_names decipher_cli_collection_kind_names
#define reader_thread decipher_cli_collection_reader_thread

/* A reading process, as its thread sees it. */
typedef struct
{
  GPid pid; /* 0: none running */
  int to_reader;
  FILE *from_reader;
  int err_fd; /* its standard error: a file of its own, read when it fails */
} Reader;

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
gpointer
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
