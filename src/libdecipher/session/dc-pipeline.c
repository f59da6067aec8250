/* dc-pipeline.c: opening a document and filling its key, every level in one order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every front end opens a document and starts its key here: `decipher-cli text`,
 * `repair`, `fonts --json` and each file of a collection through dc_pipeline_load_key(),
 * `decipher-cli session` and the window through dc_session_start_new_work(), which calls
 * dc_pipeline_apply(). So a PDF reads the same in all of them. The order, each level
 * taking only what the ones before left unknown (a value set is never lowered):
 *
 *   0. the fonts' own evidence: ToUnicode, cmaps, glyph names, installed fonts of the same
 *      name (dc_key_new(), DESIGN §7), or a project's decisions instead of 1–4;
 *   1. the font libraries: shapes decided in other documents (§8), a collection's project
 *      first, then the user's own;
 *   2. the automatic pass (dc-auto.c): each untrusted font's space and full stop, then
 *      the readings its words back (code-page hypotheses, width offsets);
 *   3. the installed fonts as references: an outline that is an installed font's glyph;
 *      then the fonts' own values checked against them: a letter where every installed
 *      font with the outline draws a hyphen is taken back (dc_references_verify());
 *   4. the library verified: what it gave in a script the document's own letters (1–3)
 *      are not read in is taken back, left to the installed fonts, else proposed;
 *   5. proposals (code pages, offsets, glyph names), never applied.
 *
 * 1–5 are one undoable step. Opening the index of installed fonts and the proposals'
 * code page tables needs nothing of the document: dc_pipeline_load_document() starts
 * both on threads of their own while the document loads (docs/architecture.md, Threads).
 */

#define G_LOG_DOMAIN "dc-pipeline"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dc-error.h"
#include "dc-pipeline.h"
#include "dc-project.h"
#include "dc-proposals.h"
#include "dc-references.h"
#include "dc-tsan-private.h"

/* The index of installed fonts, opened and brought up to date on a thread of its own. */
typedef struct
{
  char *path;
  GCancellable *cancellable;
  DcReferences *references; /* or NULL with @error */
  GError *error;
} Prefetch;

struct _DcPipeline
{
  GObject parent_instance;

  DcPipelineLevels levels;
  GPtrArray *libraries;  /* of DcLibrary, applied first, in order */
  DcLibrary *library;    /* the user's own, applied after them; nullable */
  char *references_path; /* NULL until asked: $DECIPHER_REFERENCES or the default */
  GError *references_error;
  /* A reader of many files opens the index once: given, it is used as it is; opened
   * here, it is kept for dc_pipeline_get_references() and opened again next time. */
  DcReferences *shared_references;
  DcReferences *last_references;

  GThread *prefetch_thread;
  Prefetch *prefetch;
};

G_DEFINE_FINAL_TYPE (DcPipeline, dc_pipeline, G_TYPE_OBJECT)

static void
prefetch_free (Prefetch *p)
{
  g_clear_object (&p->references);
  g_clear_error (&p->error);
  g_clear_object (&p->cancellable);
  g_free (p->path);
  g_free (p);
}

static void
dc_pipeline_dispose (GObject *object)
{
  DcPipeline *self = DC_PIPELINE (object);

  dc_pipeline_drop_prefetch (self);
  g_clear_pointer (&self->libraries, g_ptr_array_unref);
  g_clear_object (&self->library);
  g_clear_pointer (&self->references_path, g_free);
  g_clear_error (&self->references_error);
  g_clear_object (&self->shared_references);
  g_clear_object (&self->last_references);

  G_OBJECT_CLASS (dc_pipeline_parent_class)->dispose (object);
}

static void
dc_pipeline_class_init (DcPipelineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = dc_pipeline_dispose;
}

static void
dc_pipeline_init (DcPipeline *self)
{
  self->libraries = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * dc_pipeline_new:
 * @levels: which levels new work starts with (%DC_PIPELINE_ALL for a session,
 *   %DC_PIPELINE_AUTOMATIC for an export; 0 for the fonts' own evidence only)
 *
 * The pipeline of one document: make it, give it its libraries, then
 * dc_pipeline_load_document() and dc_pipeline_load_key() (or a #DcSession's
 * dc_session_start_new_work()). It belongs to the thread that uses it.
 */
DcPipeline *
dc_pipeline_new (DcPipelineLevels levels)
{
  DcPipeline *self = g_object_new (DC_TYPE_PIPELINE, NULL);

  self->levels = levels;
  return self;
}

DcPipelineLevels
dc_pipeline_get_levels (DcPipeline *self)
{
  g_return_val_if_fail (DC_IS_PIPELINE (self), 0);

  return self->levels;
}

/* Before dc_pipeline_load_document(): what it prefetches depends on the levels. */
void
dc_pipeline_set_levels (DcPipeline *self, DcPipelineLevels levels)
{
  g_return_if_fail (DC_IS_PIPELINE (self));

  self->levels = levels;
}

/* ---- where the values come from ------------------------------------------------------ */

static DcLibrary *
open_user_library (const char *path, gboolean make_default, char **resolved_path, GError **error)
{
  g_autofree char *resolved = NULL;
  g_autoptr (GError) local_error = NULL;
  DcLibrary *library;
  gboolean named = TRUE;

  if (resolved_path != NULL)
    *resolved_path = NULL;
  if (path == NULL)
    path = g_getenv ("DECIPHER_LIBRARY");
  if (path == NULL)
    {
      named = FALSE;
      resolved = dc_library_get_default_path ();
      if (!make_default && !g_file_test (resolved, G_FILE_TEST_EXISTS))
        return NULL;
    }
  else
    resolved = g_strdup (path);
  if (resolved[0] == '\0')
    return NULL;
  library = dc_library_open (resolved, &local_error);
  if (library == NULL)
    {
      if (named)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_debug ("%s", local_error->message);
      return NULL;
    }
  if (resolved_path != NULL)
    *resolved_path = g_steal_pointer (&resolved);
  return library;
}

/**
 * dc_pipeline_open_user_library:
 * @path: (nullable): the library a user named ("" for none), %NULL for $DECIPHER_LIBRARY
 *   or else the user's default one
 * @resolved_path: (out) (optional) (transfer full): the library's path, when one opened
 *
 * Opens the user's font library, made when missing, for a front end that records the
 * user's decisions in it (a session, the window). Only a library the user named (@path or
 * $DECIPHER_LIBRARY) is an error when it cannot be opened: the default one is a
 * convenience, and its absence is no library.
 *
 * Returns: (transfer full) (nullable): the library; %NULL with @error unset for none
 */
DcLibrary *
dc_pipeline_open_user_library (const char *path, char **resolved_path, GError **error)
{
  return open_user_library (path, TRUE, resolved_path, error);
}

/**
 * dc_pipeline_find_user_library:
 *
 * dc_pipeline_open_user_library() for a command that only reads values from the library
 * (`text`, `fonts`, `repair`): the default library is opened only when it exists, as an
 * empty one made now would give nothing, and a one-file run would pay for making it.
 *
 * Returns: (transfer full) (nullable): the library; %NULL with @error unset for none
 */
DcLibrary *
dc_pipeline_find_user_library (const char *path, GError **error)
{
  return open_user_library (path, FALSE, NULL, error);
}

/**
 * dc_pipeline_set_library:
 * @library: (nullable): the user's font library
 *
 * The library applied after those of dc_pipeline_add_library(): the user's own, which a
 * session records the user's decisions in (dc_session_set_library()).
 */
void
dc_pipeline_set_library (DcPipeline *self, DcLibrary *library)
{
  g_return_if_fail (DC_IS_PIPELINE (self));
  g_return_if_fail (library == NULL || DC_IS_LIBRARY (library));

  g_set_object (&self->library, library);
}

/* Returns: (transfer none) (nullable): the user's library */
DcLibrary *
dc_pipeline_get_library (DcPipeline *self)
{
  g_return_val_if_fail (DC_IS_PIPELINE (self), NULL);

  return self->library;
}

/* A library applied before the user's own, such as the decisions of a collection's
 * project: the libraries apply in the order given. */
void
dc_pipeline_add_library (DcPipeline *self, DcLibrary *library)
{
  g_return_if_fail (DC_IS_PIPELINE (self));
  g_return_if_fail (DC_IS_LIBRARY (library));

  g_ptr_array_add (self->libraries, g_object_ref (library));
}

/**
 * dc_pipeline_set_references_path:
 * @path: (nullable): the index of installed fonts ("" for none), %NULL for
 *   $DECIPHER_REFERENCES or else the user's cache (dc_references_get_default_path())
 */
void
dc_pipeline_set_references_path (DcPipeline *self, const char *path)
{
  g_return_if_fail (DC_IS_PIPELINE (self));

  g_free (self->references_path);
  self->references_path = g_strdup (path);
}

static const char *
references_path (DcPipeline *self)
{
  if (self->references_path == NULL)
    {
      const char *path = g_getenv ("DECIPHER_REFERENCES");

      self->references_path = path != NULL ? g_strdup (path) : dc_references_get_default_path ();
    }
  return self->references_path;
}

/**
 * dc_pipeline_set_references:
 * @references: (nullable): an index of installed fonts already open and up to date
 *
 * Uses @references rather than opening the index again: a process that reads many
 * files in turn (a collection's reader) opens and brings it up to date once, with the
 * first file's pipeline (dc_pipeline_get_references()). Not to be used from two threads
 * at once.
 */
void
dc_pipeline_set_references (DcPipeline *self, DcReferences *references)
{
  g_return_if_fail (DC_IS_PIPELINE (self));
  g_return_if_fail (references == NULL || DC_IS_REFERENCES (references));

  g_set_object (&self->shared_references, references);
}

/* Returns: (transfer none) (nullable): the index of installed fonts the last
 *   dc_pipeline_apply() used, %NULL when it used none */
DcReferences *
dc_pipeline_get_references (DcPipeline *self)
{
  g_return_val_if_fail (DC_IS_PIPELINE (self), NULL);

  return self->last_references;
}

/**
 * dc_pipeline_references_need_building:
 *
 * Whether new work will first read every installed font (the index does not exist yet),
 * which takes a while: a front end says so before.
 */
gboolean
dc_pipeline_references_need_building (DcPipeline *self)
{
  const char *path;

  g_return_val_if_fail (DC_IS_PIPELINE (self), FALSE);

  path = references_path (self);
  return (self->levels & DC_PIPELINE_REFERENCES) && path[0] != '\0' && self->prefetch == NULL
         && self->shared_references == NULL && !g_file_test (path, G_FILE_TEST_EXISTS);
}

/**
 * dc_pipeline_get_references_error:
 *
 * Why the last dc_pipeline_apply() went without the installed fonts (an index that
 * cannot be opened or read), for the front end to say; the other levels still applied.
 *
 * Returns: (nullable) (transfer none): the error, %NULL when there was none
 */
const GError *
dc_pipeline_get_references_error (DcPipeline *self)
{
  g_return_val_if_fail (DC_IS_PIPELINE (self), NULL);

  return self->references_error;
}

/* ---- prefetching while the document loads --------------------------------------------- */

static gpointer
prefetch_thread (gpointer data)
{
  Prefetch *p = data;
  guint n_indexed = 0;

  DC_TAKE_OVER (p);
  if ((p->references = dc_references_open (p->path, &p->error)) != NULL
      && !dc_references_update (p->references, &n_indexed, p->cancellable, &p->error))
    g_clear_object (&p->references);
  DC_HAND_OVER (p);
  return NULL;
}

/* A document file up to this size loads before a thread would have opened the index:
 * it is opened when needed, on the loading thread (issue 32: a one-page `text` started
 * three threads, each costing more than the overlap gave). */
#define SMALL_DOCUMENT (256 * 1024)

/* Opens the index on a thread when it exists already: a first build takes a while and
 * says so, and is left to the moment it is needed, as is a document that fails to load. */
static void
start_prefetch (DcPipeline *self, const char *document_path)
{
  const char *path = references_path (self);
  GStatBuf document;
  Prefetch *p;

  if (!(self->levels & DC_PIPELINE_REFERENCES) || self->prefetch != NULL
      || self->shared_references != NULL || path[0] == '\0'
      || (g_stat (document_path, &document) == 0 && document.st_size <= SMALL_DOCUMENT)
      || !g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  p = g_new0 (Prefetch, 1);
  p->path = g_strdup (path);
  p->cancellable = g_cancellable_new ();
  /* The index's stamp and the list of installed fonts both name the user's fontconfig
   * files, on this thread and on that one: GLib fills those folders' names once, behind
   * a lock inside libglib that ThreadSanitizer cannot see. Filled here, before the thread
   * starts, they reach it by its creation, and the two first askers do not look like a
   * race. */
  (void) g_get_user_config_dir ();
  (void) g_get_home_dir ();
  (void) g_get_user_cache_dir ();
  DC_HAND_OVER (p);
  self->prefetch_thread = g_thread_try_new ("dc-references", prefetch_thread, p, NULL);
  if (self->prefetch_thread == NULL)
    {
      DC_TAKE_OVER (p);
      prefetch_free (p);
      return;
    }
  self->prefetch = p;
}

/* Waits for the prefetch and hands its index (or error) over; FALSE when none ran. */
static gboolean
take_prefetch (DcPipeline *self, DcReferences **references, GError **error)
{
  Prefetch *p = self->prefetch;

  if (p == NULL)
    return FALSE;
  g_thread_join (g_steal_pointer (&self->prefetch_thread));
  DC_TAKE_OVER (p);
  self->prefetch = NULL;
  *references = g_steal_pointer (&p->references);
  if (p->error != NULL)
    g_propagate_error (error, g_steal_pointer (&p->error));
  prefetch_free (p);
  return TRUE;
}

/**
 * dc_pipeline_drop_prefetch:
 *
 * Stops and drops the index opened ahead, which a project loaded instead of new work
 * does not need.
 */
void
dc_pipeline_drop_prefetch (DcPipeline *self)
{
  g_return_if_fail (DC_IS_PIPELINE (self));

  if (self->prefetch == NULL)
    return;
  g_cancellable_cancel (self->prefetch->cancellable);
  g_thread_join (g_steal_pointer (&self->prefetch_thread));
  DC_TAKE_OVER (self->prefetch);
  g_clear_pointer (&self->prefetch, prefetch_free);
}

/**
 * dc_pipeline_load_document:
 * @password: (nullable): for an encrypted PDF
 * @limits: (nullable): what the document may hold (dc_document_new_from_file_full())
 *
 * dc_document_new_from_file_full(), with what the levels need of no document made
 * meanwhile on a thread of its own: the index of installed fonts.
 */
DcDocument *
dc_pipeline_load_document (DcPipeline *self, const char *path, const char *password,
                           const DcDocumentLimits *limits, DcProgressFunc progress,
                           gpointer progress_data, GCancellable *cancellable, GError **error)
{
  DcDocument *document;

  g_return_val_if_fail (DC_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  start_prefetch (self, path);
  document = dc_document_new_from_file_full (path, password, limits, progress, progress_data,
                                             cancellable, error);
  if (document == NULL)
    dc_pipeline_drop_prefetch (self);
  return document;
}

/* ---- the levels ----------------------------------------------------------------------- */

static DcReferences *
open_references (DcPipeline *self, GError **error)
{
  const char *path = references_path (self);
  g_autoptr (DcReferences) references = NULL;
  guint n_indexed = 0;

  g_clear_object (&self->last_references);
  if (self->shared_references != NULL)
    references = g_object_ref (self->shared_references);
  else if (!take_prefetch (self, &references, error))
    {
      if (path[0] == '\0')
        return NULL;
      if ((references = dc_references_open (path, error)) == NULL
          || !dc_references_update (references, &n_indexed, NULL, error))
        return NULL;
    }
  g_set_object (&self->last_references, references);
  return g_steal_pointer (&references);
}

static DcShapes *
ensure_shapes (DcKey *key, DcShapes **shapes)
{
  if (*shapes == NULL)
    *shapes = dc_shapes_new (dc_key_get_document (key));
  return *shapes;
}

/**
 * dc_pipeline_apply:
 * @key: a key that holds the fonts' own evidence only: new, or a session's new work
 * @shapes: (inout) (optional): the document's glyph shapes, made here when a level needs
 *   them and none were given
 * @report: (nullable): filled with why the automatic pass guessed what it did
 *
 * Applies the levels to @key in the order the top of this file gives, as one undoable
 * step. The installed fonts' index is built first when it does not exist yet (see
 * dc_pipeline_references_need_building()); when it cannot be used, the other levels
 * still apply and dc_pipeline_get_references_error() says why.
 *
 * Returns: how many symbols the library, the automatic pass and the references decoded
 */
guint
dc_pipeline_apply (DcPipeline *self, DcKey *key, DcShapes **shapes, DcAutoReport *report)
{
  g_autoptr (DcShapes) own_shapes = NULL;
  g_autoptr (DcReferences) references = NULL;
  guint n = 0;

  g_return_val_if_fail (DC_IS_PIPELINE (self), 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);

  if (shapes == NULL)
    shapes = &own_shapes;
  g_clear_error (&self->references_error);
  dc_key_begin_change (key, _("Automatic guesses"));
  /* What the user decided in another document outranks any guess. */
  if (self->levels & DC_PIPELINE_LIBRARY)
    {
      for (guint i = 0; i < self->libraries->len; i++)
        n += dc_library_apply (g_ptr_array_index (self->libraries, i), ensure_shapes (key, shapes),
                               key);
      if (self->library != NULL)
        n += dc_library_apply (self->library, ensure_shapes (key, shapes), key);
    }
  if (self->levels & DC_PIPELINE_AUTOMATIC_PASS)
    n += dc_auto_recover (dc_key_get_document (key), key, report);
  /* After the automatic pass: a font's own evidence outranks identity with an installed
   * font's glyph. */
  if (self->levels & DC_PIPELINE_REFERENCES)
    {
      references = open_references (self, &self->references_error);
      if (references != NULL)
        {
          n += dc_references_apply (references, ensure_shapes (key, shapes), key);
          /* A font's own value the outline contradicts is taken back (issue 28). */
          n += dc_references_verify (references, ensure_shapes (key, shapes), key);
        }
    }
  else
    dc_pipeline_drop_prefetch (self);
  /* Then the library is verified against what the document itself says: a value in a
   * script its other letters are not read in was a look-alike's (issue 28). The
   * installed fonts get another chance at those symbols before the library proposes. */
  if (self->levels & DC_PIPELINE_LIBRARY)
    {
      g_autoptr (GHashTable) demoted = dc_library_verify (key);

      if (g_hash_table_size (demoted) > 0)
        {
          n -= MIN (n, g_hash_table_size (demoted));
          if (references != NULL)
            n += dc_references_apply (references, ensure_shapes (key, shapes), key);
          dc_library_propose_demoted (key, demoted);
        }
    }
  /* Last: a proposal is only made for what no level decoded. */
  if (self->levels & DC_PIPELINE_PROPOSALS)
    dc_proposals_update (key);
  dc_key_end_change (key);
  return n;
}

/**
 * dc_pipeline_load_key:
 * @document: a document loaded by dc_pipeline_load_document()
 * @project_path: (nullable): a project file whose decisions are taken instead of the levels
 *
 * The key a command works from: the project's, or the fonts' own evidence and then the
 * levels (dc_pipeline_apply()). A project that cannot be loaded is an error.
 *
 * Returns: (transfer full) (nullable): the key
 */
DcKey *
dc_pipeline_load_key (DcPipeline *self, DcDocument *document, const char *project_path,
                      GError **error)
{
  g_autoptr (DcKey) key = NULL;

  g_return_val_if_fail (DC_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  key = dc_key_new (document);
  if (project_path != NULL)
    {
      g_autoptr (DcProject) project = NULL;

      dc_pipeline_drop_prefetch (self);
      project = dc_project_load (project_path, document, key, error);
      return project != NULL ? g_steal_pointer (&key) : NULL;
    }
  dc_pipeline_apply (self, key, NULL, NULL);
  return g_steal_pointer (&key);
}
