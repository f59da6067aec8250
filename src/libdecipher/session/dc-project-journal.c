/* dc-project-journal.c: every decision on disk the moment it is made
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rewriting the whole project after each click would be slow on a book and, debounced,
 * would lose the last second of work to a crash. So beside PROJECT lies PROJECT.journal:
 * one JSON line per change of the key (a symbol's whole new state, as the project's key
 * entry has it) or per typed input. A line is appended while the key announces the
 * change, before the main loop draws it or a session replies. Loading the project replays
 * the journal over it; a full save of the project empties it.
 *
 * A line records a state, not a step, so replaying a line the project already holds
 * changes nothing: a crash between the save and the emptying is harmless. A crash in the
 * middle of an append leaves a last line without its newline; it was never complete, so
 * the replay skips it and the next append cuts it off. Described for readers of the files
 * in docs/project-format.md.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-file-private.h"
#include "dc-json.h"
#include "dc-project-private.h"

/* A line is a key entry, a history item or the open conflicts: three levels. */
#define LINE_MAX_DEPTH 4
/* Where a fragment may be glued to a line (see replay_glued_line()): far above a line of
 * key entry, and a conflicts line holds a few objects. */
#define GLUED_MAX_BYTES (1024 * 1024)
#define GLUED_MAX_TRIES 64

struct _DcProjectJournal
{
  DcKey *key;
  DcDocument *document;
  char *project_path;
  char *path;
  int fd;
  gsize size;
  gulong changed_id;
  guint durable : 1;
  guint unsynced : 1;
  guint torn : 1;  /* a line cut short by a failed write is still at the end */
  guint retry : 1; /* a symbol's change could not be written: sync() tries again */
  GError *error;   /* the first append that failed since the last sync */

  /* What the journal last said of each symbol, so that a change of many symbols at once
   * (an undo, a match) writes only those that differ. */
  guint n_symbols;
  guint8 *statuses;
  guint8 *levels;
  double *confidences;
  char **values;
  char **provenances;
  char ***refused;

  /* What the journal last said of each split occurrence: glyph → value (NULL: it reads as
   * its symbol again). Splits are few, so each change compares them all. */
  GHashTable *splits;
};

char *
_dc_project_journal_path (const char *project_path)
{
  return g_strconcat (project_path, ".journal", NULL);
}

/* A symbol's state as the journal records it: the document's own (unknown or the PDF's
 * text) carries no value, since loading gives it back anyway. */
static DcKeyStatus
current_state (DcProjectJournal *self, guint symbol, const char **value, const char **provenance)
{
  DcKeyStatus status = dc_key_get_status (self->key, symbol);

  if (status == DC_KEY_UNKNOWN || status == DC_KEY_FROM_PDF)
    {
      *value = NULL;
      *provenance = NULL;
    }
  else
    {
      *value = dc_key_peek_value (self->key, symbol);
      *provenance = dc_key_get_provenance (self->key, symbol);
    }
  return status;
}

static void
remember (DcProjectJournal *self, guint symbol)
{
  const char *value, *provenance;

  self->statuses[symbol] = current_state (self, symbol, &value, &provenance);
  self->levels[symbol] = dc_key_get_level (self->key, symbol);
  self->confidences[symbol] = dc_key_get_confidence (self->key, symbol);
  g_free (self->values[symbol]);
  self->values[symbol] = g_strdup (value);
  g_free (self->provenances[symbol]);
  self->provenances[symbol] = g_strdup (provenance);
  g_strfreev (self->refused[symbol]);
  self->refused[symbol] = g_strdupv ((char **) dc_key_get_refused (self->key, symbol));
}

static gboolean
same_refused (const char *const *a, char **b)
{
  if (a == NULL || b == NULL)
    return a == NULL && b == NULL;
  return g_strv_equal (a, (const char *const *) b);
}

static gboolean cut_torn_line (int fd, gsize *size, GError **error);

static void
append_failed (DcProjectJournal *self, int saved_errno)
{
  g_autofree char *display = g_filename_display_name (self->path);

  if (self->error == NULL)
    g_set_error (&self->error, DC_ERROR, DC_ERROR_FAILED,
                 _("Could not record the latest change in “%s”: %s"), display,
                    g_strerror (saved_errno));
}

/* Writes one whole line, or nothing: a line cut short (the disk filled up in the middle of
 * it) is cut off again at once, since the next line would be glued to it and the journal
 * would no longer read. Says whether the line is in the file. */
static gboolean
append (DcProjectJournal *self, const char *data, gsize length)
{
  gsize start;

  if (self->torn)
    {
      /* An earlier fragment could not be cut off: nothing more goes after it until it is. */
      if (!cut_torn_line (self->fd, &self->size, NULL))
        {
          append_failed (self, errno);
          return FALSE;
        }
      self->torn = FALSE;
    }
  start = self->size;
  while (length > 0)
    {
      gssize written = write (self->fd, data, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          int saved_errno = written < 0 ? errno : ENOSPC;

          append_failed (self, saved_errno);
          if (self->size != start)
            {
              if (ftruncate (self->fd, (off_t) start) == 0)
                self->size = start;
              else
                self->torn = TRUE;
            }
          return FALSE;
        }
      data += written;
      length -= (gsize) written;
      self->size += (gsize) written;
    }
  self->unsynced = TRUE;
  return TRUE;
}

static gboolean
append_node (DcProjectJournal *self, JsonNode *node)
{
  g_autofree char *line = NULL;
  gsize length = 0;

  line = dc_json_generate (node, FALSE, &length);
  /* One write for the line and its newline, so that a crash leaves it whole or torn at
   * the end, never two lines run together. */
  line = g_realloc (line, length + 2);
  line[length] = '\n';
  line[length + 1] = '\0';
  return append (self, line, length + 1);
}

static void
record_symbol (DcProjectJournal *self, guint symbol)
{
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) node = NULL;
  const char *value, *provenance;
  DcKeyStatus status = current_state (self, symbol, &value, &provenance);
  DcKeyLevel level = dc_key_get_level (self->key, symbol);
  double confidence = dc_key_get_confidence (self->key, symbol);
  const char *const *refused = dc_key_get_refused (self->key, symbol);

  if (status == self->statuses[symbol] && level == self->levels[symbol]
      && confidence == self->confidences[symbol] && g_strcmp0 (value, self->values[symbol]) == 0
      && g_strcmp0 (provenance, self->provenances[symbol]) == 0
      && same_refused (refused, self->refused[symbol]))
    return;

  builder = json_builder_new ();
  _dc_project_add_entry (builder, self->document, symbol, status,
                         value != NULL ? level : DC_KEY_LEVEL_NONE, confidence, value, provenance,
                         refused);
  node = json_builder_get_root (builder);
  if (append_node (self, node))
    remember (self, symbol);
  else
    /* Not in the file: what the journal says of the symbol is still the old state, so
     * the next sync tries again. */
    self->retry = TRUE;
}

/* A split's state as a line {"split": entry}: an older Decipher refuses the journal
 * rather than take the occurrence's value for its whole code's. */
static void
record_split (DcProjectJournal *self, guint glyph, const char *value, const char *provenance)
{
  const DcGlyph *glyphs = dc_document_get_glyphs (self->document, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;
  DcKeyEntry entry = { 0 };

  entry.symbol = glyphs[glyph].symbol;
  entry.on_glyph = TRUE;
  entry.glyph = glyph;
  entry.status = value != NULL ? DC_KEY_CONFIRMED : DC_KEY_UNKNOWN;
  entry.level = DC_KEY_LEVEL_USER;
  entry.confidence = 1.0;
  entry.value = (char *) value;
  entry.provenance = (char *) provenance;
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "split");
  _dc_project_add_key_entry (builder, self->document, &entry);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  if (append_node (self, node))
    g_hash_table_replace (self->splits, GUINT_TO_POINTER (glyph), g_strdup (value));
  else
    self->retry = TRUE;
}

static void
record_splits (DcProjectJournal *self)
{
  g_autofree guint *split = NULL;
  g_autoptr (GPtrArray) gone = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer glyph, value;
  guint n_split;

  split = dc_key_dup_split_glyphs (self->key, DC_SYMBOL_NONE, &n_split);
  for (guint i = 0; i < n_split; i++)
    {
      const char *provenance;
      const char *now = dc_key_get_split (self->key, split[i], &provenance);

      if (!g_hash_table_lookup_extended (self->splits, GUINT_TO_POINTER (split[i]), NULL, &value)
          || g_strcmp0 (value, now) != 0)
        record_split (self, split[i], now, provenance);
    }
  g_hash_table_iter_init (&iter, self->splits);
  while (g_hash_table_iter_next (&iter, &glyph, &value))
    if (value != NULL && dc_key_get_split (self->key, GPOINTER_TO_UINT (glyph), NULL) == NULL)
      g_ptr_array_add (gone, glyph);
  for (guint i = 0; i < gone->len; i++)
    record_split (self, GPOINTER_TO_UINT (g_ptr_array_index (gone, i)), NULL, NULL);
}

static void
key_changed_cb (DcKey *key, guint symbol, DcProjectJournal *self)
{
  record_splits (self);
  if (symbol != G_MAXUINT)
    {
      record_symbol (self, symbol);
      return;
    }
  for (guint s = 0; s < self->n_symbols; s++)
    record_symbol (self, s);
}

/* An append cut short by a crash left a last line without its newline; the next line must
 * not be glued to it. */
static gboolean
cut_torn_line (int fd, gsize *size, GError **error)
{
  char buffer[4096];
  goffset end;
  struct stat st;

  if (fstat (fd, &st) != 0)
    goto failed;
  end = st.st_size;
  while (end > 0)
    {
      gsize chunk = MIN ((goffset) sizeof buffer, end);
      gssize got = pread (fd, buffer, chunk, end - (goffset) chunk);

      if (got < 0 && errno == EINTR)
        continue;
      if (got != (gssize) chunk)
        goto failed;
      for (gsize i = chunk; i > 0; i--)
        if (buffer[i - 1] == '\n')
          {
            end -= (goffset) (chunk - i);
            goto found;
          }
      end -= (goffset) chunk;
    }
found:
  if (end != st.st_size && ftruncate (fd, end) != 0)
    goto failed;
  *size = (gsize) end;
  return TRUE;

failed:
  g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (errno), g_strerror (errno));
  return FALSE;
}

/*
 * Starts recording every change of @key, and every input added, in @project_path's
 * journal, after what it already holds. @durable: sync() also flushes the appends to the
 * disk (a session that answers a script); otherwise they reach the kernel, which keeps
 * them through a crash or kill of the process, and the full save that follows within a
 * second makes them durable.
 */
DcProjectJournal *
_dc_project_journal_open (DcKey *key, const char *project_path, gboolean durable, GError **error)
{
  DcProjectJournal *self;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *path = _dc_project_journal_path (project_path);
  int fd;

  /* Not through a link, not a device: a journal linked to another file would have
   * that file cut short and emptied (issue 11). */
  fd = _dc_file_open_regular (path, O_RDWR | O_CREAT | O_APPEND, 0600, &local_error);
  if (fd < 0)
    {
      g_autofree char *display = g_filename_display_name (path);

      if (g_error_matches (local_error, DC_ERROR, DC_ERROR_INVALID_INPUT))
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Cannot record changes in “%s”. %s"), display, local_error->message);
      else if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ROFS))
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Cannot record changes in “%s”: its folder is on a read-only file "
                       "system. Copy the project to a folder you can write to."),
                        display);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                     _("Could not open “%s” to record changes in: %s"), display,
                        local_error->message);
      return NULL;
    }

  self = g_new0 (DcProjectJournal, 1);
  self->fd = fd;
  self->path = g_steal_pointer (&path);
  if (!cut_torn_line (fd, &self->size, &local_error))
    {
      g_autofree char *display = g_filename_display_name (self->path);

      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("Could not open “%s” to record changes in: %s"), display,
                      local_error->message);
      _dc_project_journal_free (self);
      return NULL;
    }

  self->key = g_object_ref (key);
  self->document = g_object_ref (dc_key_get_document (key));
  self->project_path = g_strdup (project_path);
  self->durable = durable;
  dc_document_get_symbols (self->document, &self->n_symbols);
  self->statuses = g_new0 (guint8, self->n_symbols);
  self->levels = g_new0 (guint8, self->n_symbols);
  self->confidences = g_new0 (double, self->n_symbols);
  self->values = g_new0 (char *, self->n_symbols);
  self->provenances = g_new0 (char *, self->n_symbols);
  self->refused = g_new0 (char **, self->n_symbols);
  for (guint s = 0; s < self->n_symbols; s++)
    remember (self, s);
  self->splits = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  {
    g_autofree guint *split = NULL;
    guint n_split;

    split = dc_key_dup_split_glyphs (key, DC_SYMBOL_NONE, &n_split);
    for (guint i = 0; i < n_split; i++)
      g_hash_table_insert (self->splits, GUINT_TO_POINTER (split[i]),
                           g_strdup (dc_key_get_split (key, split[i], NULL)));
  }
  self->changed_id = g_signal_connect (key, "changed", G_CALLBACK (key_changed_cb), self);
  return self;
}

void
_dc_project_journal_free (DcProjectJournal *self)
{
  if (self == NULL)
    return;
  g_clear_signal_handler (&self->changed_id, self->key);
  if (self->fd >= 0)
    g_close (self->fd, NULL);
  for (guint s = 0; s < self->n_symbols; s++)
    {
      g_free (self->values[s]);
      g_free (self->provenances[s]);
      g_strfreev (self->refused[s]);
    }
  g_free (self->statuses);
  g_free (self->levels);
  g_free (self->confidences);
  g_free (self->values);
  g_free (self->provenances);
  g_free (self->refused);
  g_clear_pointer (&self->splits, g_hash_table_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->key);
  g_clear_object (&self->document);
  g_free (self->project_path);
  g_free (self->path);
  g_free (self);
}

const char *
_dc_project_journal_get_project_path (DcProjectJournal *self)
{
  return self->project_path;
}

gsize
_dc_project_journal_get_size (DcProjectJournal *self)
{
  return self->size;
}

void
_dc_project_journal_add_history (DcProjectJournal *self, const char *input)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "history");
  json_builder_add_string_value (builder, input);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  append_node (self, node);
}

/* The whole list of open conflicts, as it is now: it is short, and a line that states it
 * needs no earlier one to be understood. */
void
_dc_project_journal_add_conflicts (DcProjectJournal *self, GPtrArray *conflicts)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "conflicts");
  _dc_project_add_conflicts (builder, self->document, conflicts);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  append_node (self, node);
}

/* Says whether every append since the last call reached the file (and, when durable, the
 * disk). */
gboolean
_dc_project_journal_sync (DcProjectJournal *self, GError **error)
{
  /* The changes a full disk refused earlier, now that there may be room: the key still
   * holds them, and a reply only says ok once they are recorded. Only after the failure
   * has been said once. */
  if (self->retry && self->error == NULL)
    {
      self->retry = FALSE;
      for (guint s = 0; s < self->n_symbols; s++)
        record_symbol (self, s);
      record_splits (self);
    }
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  if (self->durable && self->unsynced && fdatasync (self->fd) != 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (self->path);

      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("Could not record the latest change in “%s”: %s"), display,
                      g_strerror (saved_errno));
      return FALSE;
    }
  self->unsynced = FALSE;
  return TRUE;
}

/* The project file now holds everything the journal said. */
void
_dc_project_journal_truncate (DcProjectJournal *self)
{
  if (ftruncate (self->fd, 0) != 0)
    {
      /* Harmless: the lines left only say again what the project holds. */
      g_debug ("Could not empty %s: %s", self->path, g_strerror (errno));
      return;
    }
  self->size = 0;
  self->torn = FALSE;
}

static void
free_entry (gpointer data)
{
  _dc_key_entry_clear (data);
  g_free (data);
}

/* One complete line of the journal, applied to the entries by symbol (by glyph for a
 * split's). */
static gboolean
replay_line (DcProjectLoader *loader, const char *line, gsize length, guint number,
             DcKeyEntry *by_symbol, GHashTable *by_glyph, GPtrArray *history, GPtrArray **conflicts)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  DcKeyEntry entry = { 0 };
  JsonObject *object;
  JsonNode *input;

  if (dc_json_check_text (line, length, LINE_MAX_DEPTH, NULL) != DC_JSON_TEXT_ONE_VALUE
      || !json_parser_load_from_data (parser, line, (gssize) length, NULL)
      || json_parser_get_root (parser) == NULL
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return _dc_project_invalid (loader, _("Line %u is not a change Decipher records."), number);
  object = json_node_get_object (json_parser_get_root (parser));

  input = json_object_get_member (object, "conflicts");
  if (input != NULL)
    {
      g_autoptr (GPtrArray) now = NULL;

      now = g_ptr_array_new_with_free_func ((GDestroyNotify) dc_conflict_free);

      if (!_dc_project_read_conflicts (loader, input, now))
        return FALSE;
      g_ptr_array_unref (*conflicts);
      *conflicts = g_steal_pointer (&now);
      return TRUE;
    }

  input = json_object_get_member (object, "split");
  if (input != NULL)
    {
      DcKeyEntry *split = g_new0 (DcKeyEntry, 1);

      if (!_dc_project_read_entry (loader, input, number - 1, NULL, TRUE, split)
          || (!split->on_glyph
              /* _dc_project_invalid() says FALSE: the line is refused. */
              && !_dc_project_invalid (loader, _("Line %u splits off no glyph."), number)))
        {
          _dc_key_entry_clear (split);
          g_free (split);
          return FALSE;
        }
      g_hash_table_replace (by_glyph, GUINT_TO_POINTER (split->glyph), split);
      return TRUE;
    }

  input = json_object_get_member (object, "history");
  if (input != NULL)
    {
      const char *text;

      if (!JSON_NODE_HOLDS_VALUE (input) || json_node_get_value_type (input) != G_TYPE_STRING)
        return _dc_project_invalid (loader, _("Line %u holds an input that is not text."), number);
      text = json_node_get_string (input);
      if (strlen (text) > DC_PROJECT_MAX_TEXT_BYTES)
        return _dc_project_invalid (loader,
                                    _("Line %u holds an input far longer than can be typed."),
                                       number);
      g_ptr_array_add (history, g_strdup (text));
      return TRUE;
    }

  if (!_dc_project_read_entry (loader, json_parser_get_root (parser), number - 1, NULL, TRUE,
                               &entry))
    {
      _dc_key_entry_clear (&entry);
      return FALSE;
    }
  if (entry.on_glyph)
    {
      _dc_key_entry_clear (&entry);
      return _dc_project_invalid (loader, _("Line %u gives a glyph where a code is expected."),
                                             number);
    }
  _dc_key_entry_clear (&by_symbol[entry.symbol]);
  by_symbol[entry.symbol] = entry;
  return TRUE;
}

/* Before appends cut a failed write back (a full disk), the next line was glued to the
 * fragment it left: "…\"value\":\"д\",\"stat{\"font\":…}". Such a line is the fragment of a
 * change never acknowledged followed by a whole line that was. One per journal is
 * mended: when the line does not read as it is, the whole line that ends it is replayed
 * and the fragment before it skipped. Says whether it was. */
static gboolean
replay_glued_line (DcProjectLoader *loader, const char *line, gsize length, guint number,
                   DcKeyEntry *by_symbol, GHashTable *by_glyph, GPtrArray *history,
                   GPtrArray **conflicts)
{
  g_autoptr (GError) error = NULL;
  DcProjectLoader quiet = *loader;

  quiet.error = &error;
  guint n_tried = 0;

  /* From the end: the only brace that starts a whole line there is the one the appended
   * line began with (a brace inside a line starts a value that the line's own closing
   * brackets follow). Bounded, so that a hostile line costs little. */
  if (line[0] != '{' || length > GLUED_MAX_BYTES)
    return FALSE;
  for (gsize start = length - 1; start > 0 && n_tried < GLUED_MAX_TRIES; start--)
    {
      if (line[start] != '{')
        continue;
      n_tried++;
      if (dc_json_check_text (line + start, length - start, LINE_MAX_DEPTH, NULL)
          != DC_JSON_TEXT_ONE_VALUE)
        continue;
      g_clear_error (&error);
      if (replay_line (&quiet, line + start, length - start, number, by_symbol, by_glyph, history,
                       conflicts))
        {
          g_debug ("%s: line %u began with an unfinished change, skipped", loader->journal, number);
          return TRUE;
        }
    }
  return FALSE;
}

/*
 * Applies the journal beside @project_path, if there is one, to the @entries and @history
 * just read from the project. A damaged journal is refused like a damaged project: an
 * error naming it, and nothing applied (the caller changes no key).
 */
gboolean
_dc_project_journal_replay (DcProjectLoader *loader, const char *project_path, GArray *entries,
                            GPtrArray *history, GPtrArray **conflicts)
{
  g_autofree char *path = _dc_project_journal_path (project_path);
  g_autofree char *display = g_filename_display_basename (path);
  g_autoptr (GError) local_error = NULL;
  g_autofree DcKeyEntry *by_symbol = NULL;
  g_autoptr (GHashTable) by_glyph = NULL;
  g_autofree char *data = NULL;
  DcProjectLoader journal_loader = *loader;
  const char *line, *end;
  gboolean ok = TRUE, mended = FALSE;
  guint n_symbols, number = 0;
  gsize length = 0;

  journal_loader.journal = display;
  /* Read as it is opened for appending: not through a link, only a regular file. */
  if (!_dc_file_read_regular (path, DC_PROJECT_MAX_FILE_SIZE, &data, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      if (g_error_matches (local_error, DC_ERROR, DC_ERROR_INVALID_INPUT))
        {
          /* A link or a device put there is not damage: say what it is. */
          g_set_error (loader->error, DC_ERROR, DC_ERROR_PROJECT,
                       _("Cannot open the project “%s”: its journal of recent changes, “%s”, "
                         "is not a file Decipher wrote. %s"),
                          loader->display, display, local_error->message);
          return FALSE;
        }
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_FAILED))
        return _dc_project_invalid (&journal_loader, _("It is far larger than Decipher writes."));
      return _dc_project_invalid (&journal_loader, "%s", local_error->message);
    }
  if (length > DC_PROJECT_MAX_FILE_SIZE)
    return _dc_project_invalid (&journal_loader, _("It is far larger than Decipher writes."));
  /* A last line without its newline was being written when the program died (or the disk
   * filled up): it was never acknowledged and is skipped, so it must not make the rest of
   * the journal "not text" when it stops inside a character. */
  while (length > 0 && data[length - 1] != '\n')
    length--;
  if (!g_utf8_validate_len (data, length, NULL))
    return _dc_project_invalid (&journal_loader, _("It is not text."));

  dc_document_get_symbols (loader->document, &n_symbols);
  by_symbol = g_new0 (DcKeyEntry, n_symbols);
  by_glyph = g_hash_table_new_full (NULL, NULL, NULL, free_entry);
  for (guint i = 0; i < entries->len; i++)
    {
      DcKeyEntry *entry = &g_array_index (entries, DcKeyEntry, i);

      if (entry->on_glyph)
        g_hash_table_replace (by_glyph, GUINT_TO_POINTER (entry->glyph),
                              g_memdup2 (entry, sizeof *entry));
      else
        by_symbol[entry->symbol] = *entry;
      *entry = (DcKeyEntry){ 0 };
    }
  g_array_set_size (entries, 0);

  for (line = data; ok && (end = memchr (line, '\n', data + length - line)) != NULL; line = end + 1)
    {
      number++;
      if (end == line)
        continue;
      ok = replay_line (&journal_loader, line, (gsize) (end - line), number, by_symbol, by_glyph,
                        history, conflicts);
      if (!ok && !mended
          && replay_glued_line (&journal_loader, line, (gsize) (end - line), number, by_symbol,
                                by_glyph, history, conflicts))
        {
          if (loader->error != NULL)
            g_clear_error (loader->error);
          ok = mended = TRUE;
        }
    }

  for (guint s = 0; s < n_symbols; s++)
    {
      DcKeyStatus status = by_symbol[s].status;

      if ((by_symbol[s].value != NULL && status != DC_KEY_UNKNOWN && status != DC_KEY_FROM_PDF)
          || by_symbol[s].refused != NULL)
        g_array_append_val (entries, by_symbol[s]);
      else
        _dc_key_entry_clear (&by_symbol[s]);
    }
  {
    GHashTableIter iter;
    gpointer split;

    g_hash_table_iter_init (&iter, by_glyph);
    while (g_hash_table_iter_next (&iter, NULL, &split))
      {
        DcKeyEntry *entry = split;

        if (entry->value != NULL && entry->status == DC_KEY_CONFIRMED)
          {
            g_array_append_val (entries, *entry);
            *entry = (DcKeyEntry){ 0 };
          }
      }
  }
  return ok;
}
