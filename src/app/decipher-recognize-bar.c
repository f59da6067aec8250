/* decipher-recognize-bar.c: reading the glyphs' shapes in the background, and accepting
 * what was read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Above the glyph palette: "Recognize Shapes" reads the unknown symbols with OCR
 * (DESIGN §8, dc-recognize.c) in a worker thread, with a progress bar and a Cancel
 * button; the main loop only polls two counters, so the window stays responsive however
 * long a book takes. What was read becomes proposals (level "shape") in one undo step,
 * shown in the palette with their confidence; "Accept All Above" confirms every proposal
 * at least as sure as the chosen percentage, as one undo step too.
 *
 * Threads: the job is made on the main thread from the key (a snapshot), run in a GTask
 * thread that touches nothing else, and applied back on the main thread.
 */

#define G_LOG_DOMAIN "decipher-recognize-bar"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "decipher-labels.h"
#include "decipher-recognize-bar.h"
#include "decipher-review-dialog.h"

#define POLL_MS 100

struct _DecipherRecognizeBar
{
  GtkWidget parent_instance;

  DcSession *session;
  DecipherPageRenderer *renderer;
  GArray *to_review;            /* guint: the symbols the confirmation offers to review */
  DecipherReviewDialog *review; /* weak */
  GCancellable *cancellable;    /* while running */
  GTask *task;                  /* while running */
  guint poll_source;
  char *message;
  /* The message says that Accept finds nothing to take: a statement about the key and
   * the % box as they are, kept true while either changes (it went on saying "No
   * proposal is at least 50 % sure" with the box at 30 or after new proposals came). */
  gboolean message_is_state;

  GtkWidget *recognize_button;
  GtkWidget *progress_bar;
  GtkWidget *cancel_button;
  GtkWidget *spin;
  GtkWidget *accept_button;
  GtkWidget *message_label;
};

G_DEFINE_FINAL_TYPE (DecipherRecognizeBar, decipher_recognize_bar, GTK_TYPE_WIDGET)

/* What the worker shares with the main thread: two counters, written with atomics. */
typedef struct
{
  DcRecognizeJob *job;
  DcSession *session; /* main thread only */
  gint done;
  gint total;
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  dc_recognize_job_free (run->job);
  g_clear_object (&run->session);
  g_free (run);
}

static void
set_message (DecipherRecognizeBar *self, const char *message)
{
  self->message_is_state = FALSE;
  g_free (self->message);
  self->message = g_strdup (message);
  if (self->message_label == NULL) /* disposed while reading */
    return;
  gtk_label_set_text (GTK_LABEL (self->message_label), message != NULL ? message : "");
  gtk_widget_set_visible (self->message_label, message != NULL && message[0] != '\0');
}

static void
update_state (DecipherRecognizeBar *self)
{
  gboolean running = self->task != NULL;

  if (self->recognize_button == NULL) /* disposed while reading */
    return;
  gtk_widget_set_visible (self->recognize_button, !running);
  gtk_widget_set_visible (self->progress_bar, running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_sensitive (self->recognize_button,
                            self->session != NULL && self->renderer != NULL);
  gtk_widget_set_sensitive (self->accept_button, self->session != NULL && !running);
  gtk_widget_set_sensitive (self->spin, self->session != NULL);
}

/* ---- running ------------------------------------------------------------------------ */

static void
progress_cb (guint done, guint total, gpointer data)
{
  Run *run = data;

  g_atomic_int_set (&run->total, (gint) total);
  g_atomic_int_set (&run->done, (gint) done);
}

/* Reading keeps both cores busy; the window's thread must still get one whenever it
 * wants it (a frame every 16 ms). On Linux nice is per thread and inherited by the
 * threads this one starts, so the readers run at a lower priority than the main loop,
 * and the pool thread gets its own back afterwards. */
static void
recognize_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Run *run = data;
  GError *error = NULL;
  gboolean ok;
#ifdef __linux__
  pid_t tid = (pid_t) syscall (SYS_gettid);
  int niceness = getpriority (PRIO_PROCESS, (id_t) tid);

  setpriority (PRIO_PROCESS, (id_t) tid, MIN (niceness + 10, 19));
#endif
  ok = dc_recognize_job_run (run->job, progress_cb, run, cancellable, &error);
#ifdef __linux__
  /* Lowering nice again needs no privilege only back down to RLIMIT_NICE; where that
   * fails the pool thread stays low, which costs nothing but speed. */
  setpriority (PRIO_PROCESS, (id_t) tid, niceness);
#endif
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

double
decipher_recognize_bar_get_fraction (DecipherRecognizeBar *self)
{
  Run *run;
  gint total;

  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), 0);

  if (self->task == NULL)
    return 0;
  run = g_task_get_task_data (self->task);
  total = g_atomic_int_get (&run->total);
  return total > 0 ? (double) g_atomic_int_get (&run->done) / total : 0;
}

static gboolean
poll_cb (gpointer data)
{
  DecipherRecognizeBar *self = data;
  Run *run = g_task_get_task_data (self->task);
  g_autofree char *text = NULL;

  if (self->progress_bar == NULL)
    return G_SOURCE_CONTINUE;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 decipher_recognize_bar_get_fraction (self));
  /* Translators: while the glyphs' shapes are read, lines read of lines to read. */
  text = g_strdup_printf (_("Reading line %d of %d"), g_atomic_int_get (&run->done),
                             g_atomic_int_get (&run->total));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
  return G_SOURCE_CONTINUE;
}

static void
recognize_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  DecipherRecognizeBar *self = DECIPHER_RECOGNIZE_BAR (source);
  GTask *task = G_TASK (result);
  Run *run = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;
  guint n = 0;

  if (task == self->task)
    {
      g_clear_handle_id (&self->poll_source, g_source_remove);
      g_clear_object (&self->cancellable);
      g_clear_object (&self->task);
    }
  if (!g_task_propagate_boolean (task, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        message = g_strdup (_("Recognition canceled; nothing changed."));
      else
        message = g_strdup (error->message);
    }
  else if (run->session != self->session || self->session == NULL)
    message = NULL; /* another document came meanwhile */
  else if (!dc_session_apply_recognition (self->session, run->job, &n, &error))
    message = g_strdup (error->message);
  else
    /* Translators: after reading the glyphs' shapes. */
    message = g_strdup_printf (ngettext ("%u symbol proposed from %u lines read",
                                         "%u symbols proposed from %u lines read", n),
                               n, dc_recognize_job_get_n_lines_read (run->job));
  set_message (self, message);
  update_state (self);
}

/**
 * decipher_recognize_bar_start:
 *
 * Reads the unknown symbols' shapes in a worker; what they read is proposed when it is
 * done (one undo step). Does nothing while a reading is under way.
 */
void
decipher_recognize_bar_start (DecipherRecognizeBar *self)
{
  g_autofree char *render_path = NULL;
  Run *run;

  g_return_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self));

  if (self->session == NULL || self->renderer == NULL || self->task != NULL)
    return;
  run = g_new0 (Run, 1);
  run->session = g_object_ref (self->session);
  run->job = dc_recognize_job_new (dc_session_get_key (self->session), NULL,
                                   decipher_page_renderer_get_password (self->renderer));
  /* The pages as the view draws them: the renderer's file is the render copy when the
   * document has one. */
  render_path = g_file_get_path (decipher_page_renderer_get_file (self->renderer));
  if (render_path != NULL
      && g_strcmp0 (render_path, dc_document_get_path (dc_session_get_document (self->session)))
             != 0)
    dc_recognize_job_set_render_file (run->job, render_path);
  run->total = (gint) dc_recognize_job_get_n_lines (run->job);
  self->cancellable = g_cancellable_new ();
  self->task = g_task_new (self, self->cancellable, recognize_done_cb, NULL);
  g_task_set_source_tag (self->task, decipher_recognize_bar_start);
  g_task_set_task_data (self->task, run, run_free);
  g_task_run_in_thread (self->task, recognize_thread);
  set_message (self, NULL);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  poll_cb (self);
  self->poll_source = g_timeout_add (POLL_MS, poll_cb, self);
  update_state (self);
}

/* Stops a reading under way: nothing it read is proposed. */
void
decipher_recognize_bar_cancel (DecipherRecognizeBar *self)
{
  g_return_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

gboolean
decipher_recognize_bar_get_running (DecipherRecognizeBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), FALSE);

  return self->task != NULL;
}

/* ---- accepting ---------------------------------------------------------------------- */

double
decipher_recognize_bar_get_min_confidence (DecipherRecognizeBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), 0);

  if (self->spin == NULL)
    return 1.0;
  return gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->spin)) / 100.0;
}

void
decipher_recognize_bar_set_min_confidence (DecipherRecognizeBar *self, double confidence)
{
  g_return_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self));

  if (self->spin != NULL)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->spin), CLAMP (confidence, 0, 1) * 100.0);
}

/* A confidence as the palette's cells show it, in whole percent. */
static int
shown_percent (double confidence)
{
  return (int) round (confidence * 100.0);
}

/* The % box's value, in whole percent. */
static int
box_percent (DecipherRecognizeBar *self)
{
  return (int) round (decipher_recognize_bar_get_min_confidence (self) * 100.0);
}

/* Whether the % box asks for a proposal: compared as both are shown, so that a cell that
 * reads "50 %" is taken at 50, whatever digits its confidence has beyond. */
static gboolean
box_takes (DecipherRecognizeBar *self, double confidence)
{
  return shown_percent (confidence) >= box_percent (self);
}

/* What Accept All takes without a look at each: what the % box asks for, never less sure
 * than what a level applies by itself (issue 31.1: at the box's lowest setting, a lying
 * cmap's proposals at 8 % were taken with the rest). Below it, each is reviewed. */
static double
accept_floor (DecipherRecognizeBar *self)
{
  return MAX ((box_percent (self) - 0.5) / 100.0, DC_KEY_AUTOMATIC_CONFIDENCE);
}

/* The percentage Accept All takes at least, as said to the user. */
static int
accept_floor_percent (DecipherRecognizeBar *self)
{
  return MAX (box_percent (self), shown_percent (DC_KEY_AUTOMATIC_CONFIDENCE));
}

/**
 * decipher_recognize_bar_accept_above:
 *
 * Accepts every proposal at least as sure as the chosen confidence and as
 * %DC_KEY_AUTOMATIC_CONFIDENCE, as one undo step.
 *
 * Returns: how many were accepted
 */
static guint
accept_above (DecipherRecognizeBar *self, gboolean skip_lookalikes, GError **error)
{
  g_autofree char *message = NULL;
  guint n = 0;

  if (self->session == NULL)
    return 0;
  if (!dc_session_accept_all_full (self->session, accept_floor (self), skip_lookalikes, &n, error))
    return n;
  /* Translators: after "Accept All Above"; the percentage is the confidence taken. */
  message = g_strdup_printf (ngettext ("%u proposal at least %d %% sure accepted",
                                       "%u proposals at least %d %% sure accepted", n),
                             n, accept_floor_percent (self));
  set_message (self, message);
  return n;
}

guint
decipher_recognize_bar_accept_above (DecipherRecognizeBar *self, GError **error)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), 0);

  return accept_above (self, FALSE, error);
}

static void
accept_response_cb (AdwMessageDialog *dialog, const char *response, DecipherRecognizeBar *self)
{
  g_autoptr (GError) error = NULL;

  if (g_str_equal (response, "accept"))
    accept_above (self, FALSE, &error);
  else if (g_str_equal (response, "accept-sure"))
    accept_above (self, TRUE, &error);
  else if (g_str_equal (response, "review") && self->session != NULL && self->to_review->len > 0)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

      if (self->review != NULL)
        gtk_window_destroy (GTK_WINDOW (self->review));
      self->review = decipher_review_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                 self->session, self->renderer,
                                                 (const guint *) self->to_review->data,
                                                 self->to_review->len);
      g_object_add_weak_pointer (G_OBJECT (self->review), (gpointer *) &self->review);
    }
  if (error != NULL)
    set_message (self, error->message);
}

/* What "Accept" would take, level by level (DESIGN §7), and what it leaves: the sentence
 * the confirmation shows before anything is applied. */
static char *
describe_acceptance (DecipherRecognizeBar *self, guint *n_taken, guint *n_lookalikes)
{
  DcKey *key = dc_session_get_key (self->session);
  guint per_level[DC_KEY_LEVEL_LAST + 1] = { 0 }, n_symbols, n_left = 0, n_unsure = 0;
  GString *body = g_string_new (NULL);

  dc_document_get_symbols (dc_session_get_document (self->session), &n_symbols);
  *n_taken = *n_lookalikes = 0;
  g_array_set_size (self->to_review, 0);
  for (guint s = 0; s < n_symbols; s++)
    {
      gboolean lookalike;

      if (dc_key_get_status (key, s) != DC_KEY_PROPOSED)
        continue;
      if (!box_takes (self, dc_key_get_confidence (key, s)))
        {
          n_left++;
          continue;
        }
      lookalike = dc_value_is_lookalike (dc_key_peek_value (key, s));
      if (dc_key_get_confidence (key, s) < accept_floor (self))
        {
          n_unsure++;
          g_array_append_val (self->to_review, s);
          continue;
        }
      per_level[MIN (dc_key_get_level (key, s), DC_KEY_LEVEL_LAST)]++;
      (*n_taken)++;
      *n_lookalikes += lookalike;
      if (lookalike)
        g_array_append_val (self->to_review, s);
    }
  for (guint level = 0; level <= DC_KEY_LEVEL_LAST; level++)
    if (per_level[level] > 0)
      /* Translators: one line of the accept-all confirmation: how many values, and
       * where they come from ("from the font's own tables"). */
      g_string_append_printf (body,
                              ngettext ("• %u value %s\n", "• %u values %s\n", per_level[level]),
                              per_level[level], decipher_labels_level (level));
  if (*n_lookalikes > 0)
    g_string_append_printf (body,
                            ngettext ("%u of them is a letter easily taken for another (х and "
                                      "ӿ, н and ӊ): “Accept All but Look-alikes” leaves it "
                                      "proposed; “Review” shows it beside its glyph.\n",
                                      "%u of them are letters easily taken for others (х and "
                                      "ӿ, н and ӊ): “Accept All but Look-alikes” leaves them "
                                      "proposed; “Review” shows each beside its glyph.\n",
                                      *n_lookalikes),
                            *n_lookalikes);
  if (n_unsure > 0)
    g_string_append_printf (body,
                            ngettext ("%u proposal is less sure than %.0f %%, under which no "
                                      "level applies a value by itself: it is taken only "
                                      "once reviewed.\n",
                                      "%u proposals are less sure than %.0f %%, under which no "
                                      "level applies a value by itself: they are taken only "
                                      "once reviewed, one by one.\n",
                                      n_unsure),
                            n_unsure, DC_KEY_AUTOMATIC_CONFIDENCE * 100.0);
  if (n_left > 0)
    g_string_append_printf (body,
                            ngettext ("%u proposal less sure than %d %% stays to review "
                                      "in the palette.",
                                      "%u proposals less sure than %d %% stay to review "
                                      "in the palette.",
                                      n_left),
                            n_left, box_percent (self));
  g_strchomp (body->str);
  return g_string_free (body, FALSE);
}

/* Why Accept finds nothing to take, for the key and the % box as they are now; %NULL
 * once it would find something. */
static char *
describe_nothing (DecipherRecognizeBar *self)
{
  DcKey *key = dc_session_get_key (self->session);
  guint n_symbols, n_proposed = 0;
  double surest = 0;

  dc_document_get_symbols (dc_session_get_document (self->session), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_key_get_status (key, s) == DC_KEY_PROPOSED)
      {
        if (box_takes (self, dc_key_get_confidence (key, s)))
          return NULL;
        surest = MAX (surest, dc_key_get_confidence (key, s));
        n_proposed++;
      }
  if (n_proposed == 0)
    return g_strdup (_("Nothing is proposed: there is nothing to accept."));
  /* Translators: the % box's value, then the highest confidence among the proposals. */
  return g_strdup_printf (_("No proposal is at least %d %% sure; the surest is %d %%."),
                             box_percent (self), shown_percent (surest));
}

/* The message that Accept found nothing, said again for the key and the % box as they
 * are now, or gone once Accept would take something. */
static void
update_nothing_message (DecipherRecognizeBar *self)
{
  g_autofree char *message = NULL;

  if (!self->message_is_state)
    return;
  message = self->session != NULL ? describe_nothing (self) : NULL;
  set_message (self, message);
  self->message_is_state = message != NULL;
}

/* Nothing is applied before the user has seen how many values each kind of evidence
 * would give (a font's own map that lies gave 76 values of gibberish in one press). */
static void
accept_clicked_cb (DecipherRecognizeBar *self)
{
  g_autofree char *body = NULL;
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  guint n_taken, n_lookalikes;

  if (self->session == NULL)
    return;
  body = describe_acceptance (self, &n_taken, &n_lookalikes);
  if (n_taken == 0 && self->to_review->len == 0)
    {
      self->message_is_state = TRUE;
      update_nothing_message (self);
      return;
    }
  heading = n_taken > 0 ? g_strdup_printf (ngettext ("Accept %u Proposal?", "Accept %u Proposals?",
                                                     n_taken),
                                           n_taken)
                        : g_strdup_printf (ngettext ("Review %u Proposal?", "Review %u Proposals?",
                                                     self->to_review->len),
                                           self->to_review->len);
  dialog = ADW_MESSAGE_DIALOG (
      adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body));
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
  if (self->to_review->len > 0)
    {
      g_autofree char *review = g_strdup_printf (_("_Review %u…"), self->to_review->len);

      adw_message_dialog_add_response (dialog, "review", review);
    }
  if (n_taken == 0)
    adw_message_dialog_set_response_appearance (dialog, "review", ADW_RESPONSE_SUGGESTED);
  else if (n_lookalikes > 0)
    {
      adw_message_dialog_add_response (dialog, "accept", _("Accept _All"));
      adw_message_dialog_add_response (dialog, "accept-sure", _("Accept All but _Look-alikes"));
      adw_message_dialog_set_response_appearance (dialog, "accept-sure", ADW_RESPONSE_SUGGESTED);
    }
  else
    {
      adw_message_dialog_add_response (dialog, "accept", _("_Accept"));
      adw_message_dialog_set_response_appearance (dialog, "accept", ADW_RESPONSE_SUGGESTED);
    }
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (accept_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * decipher_recognize_bar_activate_accept:
 *
 * Does what a click on Accept does (the window's shortcut), whatever that click leads
 * to, so that the keys never skip a step the button takes.
 *
 * Returns: whether Accept could be pressed
 */
gboolean
decipher_recognize_bar_activate_accept (DecipherRecognizeBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), FALSE);

  if (self->accept_button == NULL || !gtk_widget_is_sensitive (self->accept_button))
    return FALSE;
  return gtk_widget_activate (self->accept_button);
}

/* The review window the confirmation's "Review" opened, while it is open. */
DecipherReviewDialog *
decipher_recognize_bar_get_review_dialog (DecipherRecognizeBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), NULL);

  return self->review;
}

const char *
decipher_recognize_bar_get_message (DecipherRecognizeBar *self)
{
  g_return_val_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self), NULL);

  return self->message;
}

/* ---- object ------------------------------------------------------------------------- */

/**
 * decipher_recognize_bar_set_session:
 * @session: (nullable): the document to read, or %NULL for none
 * @renderer: (nullable): the pages as the view draws them; recognition reads its file
 *
 * A reading under way for the previous document is canceled.
 */
void
decipher_recognize_bar_set_session (DecipherRecognizeBar *self, DcSession *session,
                                    DecipherPageRenderer *renderer)
{
  g_return_if_fail (DECIPHER_IS_RECOGNIZE_BAR (self));
  g_return_if_fail (session == NULL || DC_IS_SESSION (session));
  g_return_if_fail (renderer == NULL || DECIPHER_IS_PAGE_RENDERER (renderer));

  g_set_object (&self->renderer, renderer);
  if (session == self->session)
    return;
  decipher_recognize_bar_cancel (self);
  if (self->review != NULL)
    gtk_window_destroy (GTK_WINDOW (self->review));
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (dc_session_get_key (self->session), self);
  g_set_object (&self->session, session);
  if (session != NULL)
    g_signal_connect_object (dc_session_get_key (session), "changed",
                             G_CALLBACK (update_nothing_message), self, G_CONNECT_SWAPPED);
  set_message (self, NULL);
  update_state (self);
}

static void
decipher_recognize_bar_dispose (GObject *object)
{
  DecipherRecognizeBar *self = DECIPHER_RECOGNIZE_BAR (object);
  GtkWidget *child;

  decipher_recognize_bar_cancel (self);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (dc_session_get_key (self->session), self);
  g_clear_object (&self->session);
  g_clear_object (&self->renderer);
  if (self->review != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->review), (gpointer *) &self->review);
  self->review = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  /* The reading's callback may still come (the task holds the bar): it must find no
   * widget to update. */
  self->recognize_button = self->progress_bar = self->cancel_button = NULL;
  self->spin = self->accept_button = self->message_label = NULL;

  G_OBJECT_CLASS (decipher_recognize_bar_parent_class)->dispose (object);
}

static void
decipher_recognize_bar_finalize (GObject *object)
{
  DecipherRecognizeBar *self = DECIPHER_RECOGNIZE_BAR (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->task);
  g_free (self->message);
  g_array_unref (self->to_review);

  G_OBJECT_CLASS (decipher_recognize_bar_parent_class)->finalize (object);
}

static void
decipher_recognize_bar_class_init (DecipherRecognizeBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_recognize_bar_dispose;
  object_class->finalize = decipher_recognize_bar_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "recognizebar");
}

static void
decipher_recognize_bar_init (DecipherRecognizeBar *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *accept_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label;

  self->to_review = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (widget)),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (widget)), 6);
  gtk_widget_set_margin_start (widget, 6);
  gtk_widget_set_margin_end (widget, 6);
  gtk_widget_set_margin_top (widget, 6);

  self->recognize_button = gtk_button_new_with_mnemonic (_("_Recognize Shapes"));
  gtk_widget_set_hexpand (self->recognize_button, TRUE);
  gtk_widget_set_tooltip_text (self->recognize_button,
                               _("Read the unknown glyphs with OCR and propose what the "
                                 "readings agree on (Ctrl+R)"));
  g_signal_connect_swapped (self->recognize_button, "clicked",
                            G_CALLBACK (decipher_recognize_bar_start), self);
  self->progress_bar = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (self->progress_bar), TRUE);
  gtk_widget_set_hexpand (self->progress_bar, TRUE);
  gtk_widget_set_valign (self->progress_bar, GTK_ALIGN_CENTER);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (self->cancel_button, _("Stop reading; nothing is proposed"));
  g_signal_connect_swapped (self->cancel_button, "clicked",
                            G_CALLBACK (decipher_recognize_bar_cancel), self);
  gtk_box_append (GTK_BOX (row), self->recognize_button);
  gtk_box_append (GTK_BOX (row), self->progress_bar);
  gtk_box_append (GTK_BOX (row), self->cancel_button);
  gtk_widget_set_parent (row, widget);

  /* Translators: before a percentage and the Accept button: accept every proposal at
   * least this sure. */
  label = gtk_label_new (_("Accept all above"));
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  self->spin = gtk_spin_button_new_with_range (0, 100, 5);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->spin), 50);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Least confidence to accept, in percent"), -1);
  self->accept_button = gtk_button_new_with_mnemonic (_("_Accept"));
  gtk_widget_set_tooltip_text (self->accept_button,
                               _("Accept every proposal at least this sure, as one step "
                                 "that Undo takes back (Ctrl+Enter)"));
  g_signal_connect_swapped (self->accept_button, "clicked", G_CALLBACK (accept_clicked_cb), self);
  g_signal_connect_swapped (self->spin, "value-changed", G_CALLBACK (update_nothing_message), self);
  gtk_box_append (GTK_BOX (accept_row), label);
  gtk_box_append (GTK_BOX (accept_row), self->spin);
  gtk_box_append (GTK_BOX (accept_row), gtk_label_new ("%"));
  gtk_box_append (GTK_BOX (accept_row), self->accept_button);
  gtk_widget_set_parent (accept_row, widget);

  self->message_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->message_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->message_label), TRUE);
  gtk_widget_add_css_class (self->message_label, "caption");
  gtk_widget_add_css_class (self->message_label, "dim-label");
  gtk_widget_set_parent (self->message_label, widget);

  set_message (self, NULL);
  update_state (self);
}
