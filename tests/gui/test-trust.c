/* test-trust.c: a font whose cmap lies, in the window — nothing it proposes is applied
 * without a look, the popover says why, and the status does not read as done
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ascii-legacy.pdf has letters at shuffled ASCII codes that its own cmap claims: the
 * engine proposes those claims far under DC_KEY_AUTOMATIC_CONFIDENCE (issue 31.1).
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "decipher-document-view.h"
#include "decipher-labels.h"
#include "decipher-recognize-bar.h"
#include "decipher-window-private.h"
#include "gui-test-util.h"

/* Per symbol: proposed below the automatic threshold (the lying cmap's claims). */
static gboolean *
unsure_proposals (DcKey *key, guint *n_symbols, guint *n_unsure)
{
  gboolean *unsure;

  dc_document_get_symbols (dc_key_get_document (key), n_symbols);
  unsure = g_new0 (gboolean, *n_symbols);
  *n_unsure = 0;
  for (guint s = 0; s < *n_symbols; s++)
    {
      unsure[s] = dc_key_get_status (key, s) == DC_KEY_PROPOSED
                  && dc_key_get_confidence (key, s) < DC_KEY_AUTOMATIC_CONFIDENCE;
      *n_unsure += unsure[s];
    }
  return unsure;
}

static guint
count_status (DcKey *key, DcKeyStatus status)
{
  guint n_symbols, n = 0;

  dc_document_get_symbols (dc_key_get_document (key), &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    n += dc_key_get_status (key, s) == status;
  return n;
}

/* How many of @pictures' cuts have arrived. */
static guint
count_cut (GtkWidget *pictures)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (pictures); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += GTK_IS_PICTURE (child) && gtk_picture_get_paintable (GTK_PICTURE (child)) != NULL;
  return n;
}

static guint
count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

static GtkScrolledWindow *
ancestor_scroller (GtkWidget *widget)
{
  return GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW));
}

/* Scrolls @review's list so that @widget is at its top. */
static void
scroll_to (GtkWidget *widget)
{
  GtkScrolledWindow *scroller = ancestor_scroller (widget);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  graphene_rect_t bounds;

  g_assert_true (
      gtk_widget_compute_bounds (widget, gtk_scrolled_window_get_child (scroller), &bounds));
  gtk_adjustment_set_value (adjustment, bounds.origin.y);
}

/* Issue 31: each pair shows several of its occurrences in context, cut as the strip cuts
 * them, and only the rows on screen ask for theirs: a row far down gets its cuts once it
 * is scrolled to. */
static void
check_review_pictures (DecipherReviewDialog *review, DcDocument *document)
{
  guint n_pairs = decipher_review_dialog_get_n_pairs (review), several = G_MAXUINT;
  GtkWidget *first = decipher_review_dialog_get_pictures (review, 0);
  GtkWidget *far = NULL;

  for (guint p = 0; p < n_pairs; p++)
    {
      guint n_glyphs = dc_document_get_symbol (document,
                                               decipher_review_dialog_get_symbol (review, p))
                           ->n_glyphs;

      g_assert_cmpuint (count_children (decipher_review_dialog_get_pictures (review, p)), ==,
                        MIN (n_glyphs, 3));
      if (n_glyphs > 1 && p > n_pairs / 2)
        several = p;
    }
  g_assert_cmpuint (several, !=, G_MAXUINT);
  far = decipher_review_dialog_get_pictures (review, several);
  GUI_TEST_WAIT_FOR (count_cut (first) == count_children (first), "the first pair's cuts");
  gui_test_settle ();
  g_assert_cmpuint (count_cut (far), ==, 0);
  scroll_to (far);
  GUI_TEST_WAIT_FOR (count_cut (far) == count_children (far), "a pair's cuts, scrolled to");
  g_assert_cmpuint (count_cut (far), >, 1);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (ancestor_scroller (far)), 0);
}

static AdwMessageDialog *
press_accept (DecipherRecognizeBar *bar)
{
  AdwMessageDialog *dialog;

  g_signal_emit_by_name (gui_test_find_button (GTK_WIDGET (bar), "_Accept"), "clicked");
  GUI_TEST_WAIT_FOR ((dialog = gui_test_find_dialog ()) != NULL, "the confirmation");
  g_test_message ("%s\n%s", adw_message_dialog_get_heading (dialog),
                  adw_message_dialog_get_body (dialog));
  return dialog;
}

/* The unreviewed count the progress line must show. */
static gboolean
progress_says (DecipherWindow *window, const char *what)
{
  return strstr (gtk_label_get_text (_decipher_window_get_progress_label (window)), what) != NULL;
}

/* Issue 31, done when: "a test accepts all on an untrusted-cmap fixture and nothing below
 * the trust threshold is taken without review". Accept all at every setting of the % box,
 * its lowest included: no proposal under the threshold becomes text; the confirmation
 * offers them for review instead, and only a per-pair Accept there applies one. */
static void
test_accept_all_untrusted (void)
{
  DecipherWindow *window = gui_test_open_window ("ascii-legacy.pdf", NULL, 1200, 800);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  DecipherRecognizeBar *bar = DECIPHER_RECOGNIZE_BAR (
      gui_test_find_descendant (GTK_WIDGET (_decipher_window_get_palette (window)),
                                DECIPHER_TYPE_RECOGNIZE_BAR));
  const double settings[] = { 0.5, 0.03, 0.0 };
  g_autofree gboolean *unsure = NULL;
  g_autofree char *unreviewed = NULL;
  g_autofree char *rejected_value = NULL;
  g_autofree char *autosave = g_strdup (decipher_session_get_autosave_path (session));
  g_autofree char *journal = g_strconcat (autosave, ".journal", NULL);
  DecipherReviewDialog *review;
  AdwMessageDialog *dialog;
  guint n_symbols, n_unsure, n_pairs, accepted = G_MAXUINT, rejected = G_MAXUINT;
  guint rejected_symbol = G_MAXUINT;
  double most_sure = 0;

  g_assert_nonnull (bar);
  unsure = unsure_proposals (key, &n_symbols, &n_unsure);
  g_test_message ("%u proposals below %.0f %%", n_unsure, DC_KEY_AUTOMATIC_CONFIDENCE * 100);
  /* The settings above it ask for none of them, the others for some. */
  for (guint s = 0; s < n_symbols; s++)
    if (unsure[s])
      most_sure = MAX (most_sure, dc_key_get_confidence (key, s));
  g_assert_cmpfloat (most_sure, <, settings[0]);
  g_assert_cmpfloat (most_sure, >=, settings[1]);
  g_assert_cmpuint (n_unsure, >, 10);

  /* The status does not read as done while they are left (issue 31.1). */
  unreviewed = g_strdup_printf (" · %u unreviewed", count_status (key, DC_KEY_PROPOSED));
  g_assert_true (progress_says (window, unreviewed));

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    {
      decipher_recognize_bar_set_min_confidence (bar, settings[i]);
      if (settings[i] > most_sure)
        {
          /* The box asks for none of them: they stay proposed, and it says so. */
          g_signal_emit_by_name (gui_test_find_button (GTK_WIDGET (bar), "_Accept"), "clicked");
          gui_test_settle ();
          if (gui_test_find_dialog () == NULL)
            g_assert_true (g_str_has_prefix (decipher_recognize_bar_get_message (bar),
                                             "No proposal is at least"));
          else
            g_assert_false (adw_message_dialog_has_response (gui_test_find_dialog (), "review"));
          gui_test_close_dialogs ();
          continue;
        }
      g_autofree char *body = NULL;
      gboolean can_review;

      dialog = press_accept (bar);
      body = g_strdup (adw_message_dialog_get_body (dialog));
      can_review = adw_message_dialog_has_response (dialog, "review");
      /* Whichever takes most. */
      if (adw_message_dialog_has_response (dialog, "accept"))
        adw_message_dialog_response (dialog, "accept");
      else
        adw_message_dialog_response (dialog, "cancel");
      gui_test_close_dialogs ();
      gui_test_settle ();
      for (guint s = 0; s < n_symbols; s++)
        if (unsure[s])
          g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_PROPOSED);
      /* What it did not take is offered for review, not silently left. */
      g_assert_nonnull (strstr (body, "less sure than 60 %"));
      g_assert_true (can_review);
    }
  gui_test_screenshot ("trust-after-accept-all");

  /* Review: each pair on its own, with its reason; only what is accepted there counts. */
  decipher_recognize_bar_set_min_confidence (bar, 0);
  dialog = press_accept (bar);
  adw_message_dialog_response (dialog, "review");
  gui_test_close_dialogs ();
  GUI_TEST_WAIT_FOR ((review = decipher_recognize_bar_get_review_dialog (bar)) != NULL,
                     "the review window");
  GUI_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (review)), "the review window shown");
  n_pairs = decipher_review_dialog_get_n_pairs (review);
  g_assert_cmpuint (n_pairs, >=, n_unsure);
  for (guint p = 0; p < n_pairs; p++)
    {
      guint s = decipher_review_dialog_get_symbol (review, p);

      if (unsure[s] && accepted == G_MAXUINT)
        accepted = p;
      else if (unsure[s] && rejected == G_MAXUINT)
        rejected = p;
    }
  g_assert_cmpuint (rejected, !=, G_MAXUINT);
  gui_test_wait_frame (GTK_WIDGET (review));
  check_review_pictures (review, decipher_session_get_document (session));
  gui_test_wait_frame (GTK_WIDGET (review));
  gui_test_screenshot ("trust-review");
  {
    guint s = decipher_review_dialog_get_symbol (review, accepted);
    g_autofree char *value = g_strdup (dc_key_peek_value (key, s));

    g_signal_emit_by_name (gui_test_find_button (decipher_review_dialog_get_row (review, accepted),
                                                 "_Accept"),
                           "clicked");
    g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_CONFIRMED);
    g_assert_cmpstr (dc_key_peek_value (key, s), ==, value);
    /* Reviewed: not counted as taken blindly. */
    g_assert_false (g_str_has_prefix (dc_key_get_provenance (key, s), "accepted unreviewed "));
    g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (
        gui_test_find_button (decipher_review_dialog_get_row (review, accepted), "_Accept"))));
  }
  {
    guint s = decipher_review_dialog_get_symbol (review, rejected);
    g_autofree char *value = g_strdup (dc_key_peek_value (key, s));

    g_signal_emit_by_name (gui_test_find_button (decipher_review_dialog_get_row (review, rejected),
                                                 "_Reject"),
                           "clicked");
    g_assert_cmpint (dc_key_get_status (key, s), !=, DC_KEY_CONFIRMED);
    g_assert_cmpint (dc_key_get_status (key, s), !=, DC_KEY_INFERRED);
    /* Rejected for good: the lying cmap proposes it no more, whatever is decided next. */
    g_assert_true (dc_key_is_refused (key, s, value));
    g_assert_cmpstr (dc_key_peek_value (key, s), !=, value);
    g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (
        gui_test_find_button (decipher_review_dialog_get_row (review, rejected), "_Reject"))));
    dc_font_tables_apply (key);
    dc_proposals_update (key);
    g_assert_cmpstr (dc_key_peek_value (key, s), !=, value);
    rejected_value = g_steal_pointer (&value);
    rejected_symbol = s;
  }
  /* Nothing else was taken by opening the review. */
  for (guint s = 0; s < n_symbols; s++)
    if (unsure[s] && s != decipher_review_dialog_get_symbol (review, accepted))
      g_assert_cmpint (dc_key_get_status (key, s), !=, DC_KEY_CONFIRMED);
  gtk_window_destroy (GTK_WINDOW (review));
  gui_test_close_window (window);

  /* Opened again, the window restores the work: the rejection with it. */
  window = gui_test_open_window ("ascii-legacy.pdf", NULL, 1200, 800);
  session = decipher_window_get_session (window);
  key = decipher_session_get_key (session);
  g_assert_true (dc_key_is_refused (key, rejected_symbol, rejected_value));
  g_assert_cmpstr (dc_key_peek_value (key, rejected_symbol), !=, rejected_value);
  gui_test_close_window (window);
  g_unlink (journal);
  g_unlink (autosave);
}

/* Issue 31.1/31.4: values taken in bulk without a look at a level that would not have
 * applied them (decipher-cli's session can) keep the status from reading as done: the
 * progress line counts them and the bar does not fill. */
static void
test_status_not_done (void)
{
  DecipherWindow *window = gui_test_open_window ("ascii-legacy.pdf", NULL, 1200, 800);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  g_autofree gboolean *unsure = NULL;
  g_autofree char *unreviewed = NULL;
  guint n_symbols, n_unsure, n_decoded, n_to_decode, n_glyphs, to_glyphs, n_accepted;

  unsure = unsure_proposals (key, &n_symbols, &n_unsure);
  g_assert_true (
      dc_session_accept_all (decipher_session_get_engine (session), 0, &n_accepted, NULL));
  g_assert_cmpuint (n_accepted, >=, n_unsure);
  dc_key_count_decoded (key, &n_decoded, &n_glyphs);
  dc_key_count_to_decode (key, &n_to_decode, &to_glyphs);
  unreviewed = g_strdup_printf (" · %u unreviewed",
                                dc_session_count_unreviewed (decipher_session_get_engine (session),
                                                             NULL));
  GUI_TEST_WAIT_FOR (progress_says (window, unreviewed), "the status to count them");
  g_test_message ("%s", gtk_label_get_text (_decipher_window_get_progress_label (window)));
  g_assert_cmpuint (dc_session_count_unreviewed (decipher_session_get_engine (session), NULL), >=,
                    n_unsure);
  /* The short line a narrow window shows does not read as done either. */
  g_assert_nonnull (strstr (gtk_label_get_text (window->progress_short_label), "unreviewed"));
  g_assert_cmpfloat (gtk_level_bar_get_value (window->progress_level), <,
                     (double) n_glyphs / to_glyphs);
  g_assert_cmpfloat (gtk_level_bar_get_value (window->progress_level), <, 1.0);
  for (guint s = 0; s < n_symbols; s++)
    if (unsure[s])
      g_assert_true (g_str_has_prefix (dc_key_get_provenance (key, s), "accepted unreviewed "));
  gui_test_screenshot ("trust-status");

  /* Undone, they are proposals again, still counted. */
  dc_session_undo (decipher_session_get_engine (session), NULL);
  g_free (unreviewed);
  unreviewed = g_strdup_printf (" · %u unreviewed", count_status (key, DC_KEY_PROPOSED));
  GUI_TEST_WAIT_FOR (progress_says (window, unreviewed), "the status after undo");
  gui_test_close_window (window);
}

/* Issue 31.1: the glyph popover says what a proposal rests on and why, as the palette
 * cell's tooltip does. */
static void
test_popover_reason (void)
{
  DecipherWindow *window = gui_test_open_window ("ascii-legacy.pdf", NULL, 1200, 800);
  DecipherSession *session = decipher_window_get_session (window);
  DcKey *key = decipher_session_get_key (session);
  DecipherDocumentView *view = _decipher_window_get_document_view (window);
  g_autofree gboolean *unsure = NULL;
  guint n_symbols, n_unsure, symbol = G_MAXUINT, n_occurrences;
  const guint *occurrences;
  DecipherGlyphPopover *popover;
  g_autofree char *why = NULL;
  const char *shown;

  unsure = unsure_proposals (key, &n_symbols, &n_unsure);
  for (guint s = 0; s < n_symbols && symbol == G_MAXUINT; s++)
    if (unsure[s])
      symbol = s;
  g_assert_cmpuint (symbol, !=, G_MAXUINT);
  occurrences = dc_document_get_symbol_glyphs (decipher_session_get_document (session), symbol,
                                               &n_occurrences);
  g_assert_cmpuint (n_occurrences, >, 0);
  decipher_document_view_activate_glyph (view, occurrences[0]);
  popover = decipher_document_view_get_popover (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  shown = decipher_glyph_popover_get_why (popover);
  g_assert_nonnull (shown);
  g_test_message ("%s", shown);
  g_assert_nonnull (strstr (shown, decipher_labels_level (dc_key_get_level (key, symbol))));
  why = g_strdup_printf ("Why: %s", dc_key_get_provenance (key, symbol));
  g_assert_nonnull (strstr (shown, why));
  gui_test_screenshot ("trust-popover");
  gtk_popover_popdown (GTK_POPOVER (popover));
  gui_test_close_window (window);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);

  g_test_add_func ("/trust/accept-all-untrusted", test_accept_all_untrusted);
  g_test_add_func ("/trust/status-not-done", test_status_not_done);
  g_test_add_func ("/trust/popover-reason", test_popover_reason);
  return g_test_run ();
}
