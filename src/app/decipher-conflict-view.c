/* decipher-conflict-view.c: the open conflicts, each shown with both contexts to judge
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A conflict is typed input that contradicts a value held. The review shows, for each,
 * the glyph's shape, the value held and where it came from, the new value and where it
 * came from, and a cut of the page around each, as large as the occurrence strip shows
 * it with the glyph boxed: a glyph of the symbol as read so far, and the glyph the new
 * input matched. The user keeps one value or takes the other; the matcher confirms it
 * and the key keeps the other evidence in its history. Taking the new input takes the
 * whole word it was typed as, not just the one letter in conflict.
 */

#define G_LOG_DOMAIN "decipher-conflict-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "decipher-conflict-view.h"
#include "decipher-labels.h"
#include "decipher-occurrence-strip.h"

struct _DecipherConflictView
{
  GtkWidget parent_instance;

  DcSession *session;
  DcMatcher *matcher;
  DecipherGlyphShapes *shapes;
  DecipherPageRenderer *renderer;

  GtkStack *stack;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (DecipherConflictView, decipher_conflict_view, GTK_TYPE_WIDGET)

enum
{
  RESOLVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- places ------------------------------------------------------------------------ */

/* The glyph of @symbol within the run the new input matched. */
static int
conflict_glyph (DecipherConflictView *self, const DcConflict *conflict)
{
  DcDocument *document = dc_session_get_document (self->session);
  const DcLine *line = &dc_document_get_lines (document, NULL)[conflict->place.line];
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);

  for (guint t = conflict->place.token;
       t < conflict->place.token + conflict->place.n_tokens && t < line->n_tokens; t++)
    {
      const DcToken *token = &tokens[line->first_token + t];

      for (guint i = token->first_glyph; i < token->first_glyph + token->n_glyphs; i++)
        if (glyphs[order[i]].symbol == conflict->symbol)
          return (int) order[i];
    }
  return -1;
}

/* A glyph of @symbol elsewhere than @avoid: where the value held can be seen. */
static int
held_glyph (DecipherConflictView *self, guint symbol, int avoid)
{
  DcDocument *document = dc_session_get_document (self->session);
  guint n = 0;
  const guint32 *glyphs = dc_document_get_symbol_glyphs (document, symbol, &n);

  for (guint i = 0; i < n; i++)
    if ((int) glyphs[i] != avoid)
      return (int) glyphs[i];
  return n > 0 ? (int) glyphs[0] : -1;
}

/* ---- provenance --------------------------------------------------------------------- */

/* The key notes where each value came from in a terse form meant for the project file
 * and decipher-cli ("assign", "type: «слово»", "proposal: code page cp1251", nested as
 * "accepted …" or "conflict: …"); the linguist reading the review is told in words. An
 * unknown form is shown as it is rather than hidden. */
static char *describe_provenance (const char *provenance);

/* The provenance that led to another, as a sentence of its own (ending in a full stop
 * once, however deep the nesting). */
static char *
describe_before (const char *provenance)
{
  g_autofree char *before = describe_provenance (provenance);

  if (g_str_has_suffix (before, "."))
    return g_steal_pointer (&before);
  return g_strconcat (before, ".", NULL);
}

static char *
describe_provenance (const char *provenance)
{
  const char *rest;

  if (provenance == NULL || *provenance == '\0')
    return g_strdup (_("Where it came from was not recorded"));
  if (strcmp (provenance, "assign") == 0)
    return g_strdup (_("You assigned it"));
  if (strcmp (provenance, "pdf") == 0)
    return g_strdup (_("Taken from the text the PDF gives"));
  if (g_str_has_prefix (provenance, "type: «") && g_str_has_suffix (provenance, "»"))
    {
      g_autofree char *typed = NULL;

      rest = provenance + strlen ("type: «");
      typed = g_strndup (rest, strlen (rest) - strlen ("»"));
      /* Translators: where a value came from: the user typed a word that contains it. */
      return g_strdup_printf (_("Learned from typing “%s”"), typed);
    }
  if (strcmp (provenance, "auto: space") == 0)
    return g_strdup (_("Guessed to be the space from how the pages are laid out"));
  if (strcmp (provenance, "auto: full stop") == 0)
    return g_strdup (_("Guessed to be the full stop from how the pages are laid out"));
  if (g_str_has_prefix (provenance, "auto: "))
    return g_strdup (_("Guessed from how the pages are laid out"));
  if (strcmp (provenance, "proposal: glyph names") == 0)
    return g_strdup (_("Proposed from the names the font gives its glyphs"));
  if (g_str_has_prefix (provenance, "proposal: code page "))
    /* Translators: %s is a legacy code page, like cp1251. */
    return g_strdup_printf (_("Proposed from the code page %s"),
                               provenance + strlen ("proposal: code page "));
  if (g_str_has_prefix (provenance, "proposal: "))
    return g_strdup (_("Proposed from the letters learned so far, which follow the font’s codes"));
  if (g_str_has_prefix (provenance, "accepted unreviewed "))
    {
      g_autofree char *before = describe_before (provenance + strlen ("accepted unreviewed "));

      /* Translators: the second sentence (ending in a full stop) says where the
       * proposal came from. */
      return g_strdup_printf (_("You accepted it with all the others, without a look. %s"),
                                 before);
    }
  if (g_str_has_prefix (provenance, "accepted "))
    {
      g_autofree char *before = describe_before (provenance + strlen ("accepted "));

      /* Translators: the second sentence (ending in a full stop) says where the
       * proposal came from. */
      return g_strdup_printf (_("You accepted it when it was proposed. %s"), before);
    }
  if (g_str_has_prefix (provenance, "conflict: "))
    {
      g_autofree char *before = describe_before (provenance + strlen ("conflict: "));

      /* Translators: the second sentence (ending in a full stop) says where the value
       * first came from. */
      return g_strdup_printf (_("You chose it in an earlier conflict. %s"), before);
    }
  return g_strdup (provenance);
}

/* ---- rows --------------------------------------------------------------------------- */

/* The words typed, from a provenance "type: «…»"; %NULL when it was not typed. The key
 * keeps 59 characters and an ellipsis of a longer input: the whole of it is the latest
 * input of the project's history that begins so. */
static char *
typed_text (DecipherConflictView *self, const char *provenance)
{
  g_autofree char *head = NULL;
  const char *const *history;
  const char *rest;
  guint n;

  if (provenance == NULL || !g_str_has_prefix (provenance, "type: «")
      || !g_str_has_suffix (provenance, "»"))
    return NULL;
  rest = provenance + strlen ("type: «");
  if (!g_str_has_suffix (rest, "…»"))
    return g_strndup (rest, strlen (rest) - strlen ("»"));
  head = g_strndup (rest, strlen (rest) - strlen ("…»"));
  history = dc_project_get_history (dc_session_get_project (self->session), &n);
  for (guint i = n; i > 0; i--)
    if (g_str_has_prefix (history[i - 1], head) && g_utf8_strlen (history[i - 1], -1) > 60)
      return g_strdup (history[i - 1]);
  return NULL;
}

static gboolean
same_input (const DcConflict *a, const DcConflict *b)
{
  return a->place.line == b->place.line && a->place.token == b->place.token
         && a->place.n_tokens == b->place.n_tokens
         && g_strcmp0 (a->proposed_provenance, b->proposed_provenance) == 0;
}

/* Takes what the input typed says, for every symbol it contradicts at that place, then
 * types it there again so that its letters still unknown are learned too: the user said
 * the word reads so, and should not have to type it twice. Two steps to undo, as typing
 * it after settling would be: the matcher reads the key as each step leaves it. */
static gboolean
use_input (DecipherConflictView *self, const DcConflict *chosen, GError **error)
{
  DcSession *engine = self->session;
  g_autofree char *text = typed_text (self, chosen->proposed_provenance);
  g_autoptr (DcMatchResult) result = NULL;
  guint i = 0;

  while (i < dc_matcher_get_n_conflicts (self->matcher))
    {
      if (!same_input (dc_matcher_get_conflict (self->matcher, i), chosen))
        i++;
      else if (!dc_session_resolve (engine, i, TRUE, error))
        return FALSE;
    }
  if (text == NULL)
    return TRUE;
  result = dc_session_type (engine, text, (int) chosen->place.line, (int) chosen->place.token,
                            error);
  if (result == NULL)
    return FALSE;
  if (result->kind != DC_MATCH_ASSIGNED && result->kind != DC_MATCH_KNOWN)
    g_message ("“%s” no longer fits where it was typed: %s", text, result->reason);
  return TRUE;
}

static void
resolve_clicked_cb (GtkButton *button, DecipherConflictView *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "conflict"));
  gboolean take_proposed = GPOINTER_TO_UINT (
      g_object_get_data (G_OBJECT (button), "take-proposed"));
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (self->matcher == NULL || index >= dc_matcher_get_n_conflicts (self->matcher))
    return;
  if (take_proposed)
    {
      /* A copy: settling it takes it off the matcher's list. */
      DcConflict *chosen = dc_conflict_copy (dc_matcher_get_conflict (self->matcher, index));

      ok = use_input (self, chosen, &error);
      dc_conflict_free (chosen);
    }
  else
    /* The engine's session settles it, and records it, as decipher-cli's "resolve" does. */
    ok = dc_session_resolve (self->session, index, FALSE, &error);
  if (!ok)
    g_warning ("Could not resolve a conflict: %s", error->message);
  /* Settling one symbol settles every conflict about it: the list is built again. */
  decipher_conflict_view_update (self);
  g_signal_emit (self, signals[RESOLVED], 0);
}

static GtkWidget *
evidence_box (DecipherConflictView *self, const char *heading, const char *provenance, int glyph)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *described = describe_provenance (provenance);
  GtkWidget *title = gtk_label_new (heading);
  GtkWidget *from = gtk_label_new (described);

  gtk_widget_set_hexpand (box, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (from), 0);
  gtk_label_set_wrap (GTK_LABEL (from), TRUE);
  gtk_widget_add_css_class (from, "dim-label");
  gtk_widget_add_css_class (from, "caption");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), from);
  if (glyph >= 0)
    gtk_box_append (GTK_BOX (box),
                    decipher_occurrence_picture_new (self->session, self->renderer, (guint) glyph));
  return box;
}

static GtkWidget *
conflict_row (DecipherConflictView *self, guint index)
{
  const DcConflict *conflict = dc_matcher_get_conflict (self->matcher, index);
  DcDocument *document = dc_session_get_document (self->session);
  DecipherShapeState state = DECIPHER_SHAPE_FAILED;
  GdkTexture *shape = self->shapes != NULL
                          ? decipher_glyph_shapes_lookup (self->shapes, conflict->symbol, &state)
                          : NULL;
  int new_glyph = conflict_glyph (self, conflict);
  int old_glyph = held_glyph (self, conflict->symbol, new_glyph);
  g_autofree char *held = g_strdup_printf (_("Held: “%s”"), conflict->current);
  g_autofree char *proposed = g_strdup_printf (_("New: “%s”"), conflict->proposed);
  g_autofree char *keep_label = g_strdup_printf (_("Keep “%s”"), conflict->current);
  g_autofree char *use_label = g_strdup_printf (_("Use “%s”"), conflict->proposed);
  g_autofree char *title = decipher_labels_dup_symbol_title (document, conflict->symbol);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *tile = gtk_image_new_from_paintable (GDK_PAINTABLE (shape));
  GtkWidget *evidence = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *keep = gtk_button_new_with_label (keep_label);
  GtkWidget *use = gtk_button_new_with_label (use_label);

  /* An image, not a picture: a fixed size whatever the size the shape was drawn at. */
  gtk_image_set_pixel_size (GTK_IMAGE (tile), 64);
  gtk_widget_set_valign (tile, GTK_ALIGN_START);
  gtk_widget_add_css_class (tile, "glyph-tile");
  gtk_accessible_update_property (GTK_ACCESSIBLE (tile), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);

  gtk_box_append (GTK_BOX (evidence),
                  evidence_box (self, held, conflict->current_provenance, old_glyph));
  gtk_box_append (GTK_BOX (evidence),
                  evidence_box (self, proposed, conflict->proposed_provenance, new_glyph));

  g_object_set_data (G_OBJECT (keep), "conflict", GUINT_TO_POINTER (index));
  g_object_set_data (G_OBJECT (use), "conflict", GUINT_TO_POINTER (index));
  g_object_set_data (G_OBJECT (use), "take-proposed", GUINT_TO_POINTER (TRUE));
  gtk_widget_set_tooltip_text (use, _("Take the words as typed: their letters still unknown "
                                      "are learned too"));
  g_signal_connect_object (keep, "clicked", G_CALLBACK (resolve_clicked_cb), self, 0);
  g_signal_connect_object (use, "clicked", G_CALLBACK (resolve_clicked_cb), self, 0);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), keep);
  gtk_box_append (GTK_BOX (buttons), use);
  gtk_box_append (GTK_BOX (evidence), buttons);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), tile);
  gtk_box_append (GTK_BOX (box), evidence);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  return row;
}

/* Builds the list again from the matcher's open conflicts. */
void
decipher_conflict_view_update (DecipherConflictView *self)
{
  GtkWidget *child;
  guint n;

  g_return_if_fail (DECIPHER_IS_CONFLICT_VIEW (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  n = self->matcher != NULL ? dc_matcher_get_n_conflicts (self->matcher) : 0;
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->list, conflict_row (self, i));
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "conflicts" : "empty");
}

/* ---- object ------------------------------------------------------------------------- */

void
decipher_conflict_view_set_session (DecipherConflictView *self, DcSession *session,
                                    DecipherGlyphShapes *shapes, DecipherPageRenderer *renderer)
{
  DcMatcher *matcher = session != NULL ? dc_session_get_matcher (session) : NULL;

  g_return_if_fail (DECIPHER_IS_CONFLICT_VIEW (self));

  g_set_object (&self->session, session);
  g_set_object (&self->matcher, matcher);
  g_set_object (&self->shapes, shapes);
  g_set_object (&self->renderer, renderer);
  decipher_conflict_view_update (self);
}

GtkListBox *
decipher_conflict_view_get_list (DecipherConflictView *self)
{
  return self->list;
}

static void
decipher_conflict_view_dispose (GObject *object)
{
  DecipherConflictView *self = DECIPHER_CONFLICT_VIEW (object);

  g_clear_object (&self->session);
  g_clear_object (&self->matcher);
  g_clear_object (&self->shapes);
  g_clear_object (&self->renderer);
  gtk_widget_dispose_template (GTK_WIDGET (self), DECIPHER_TYPE_CONFLICT_VIEW);

  G_OBJECT_CLASS (decipher_conflict_view_parent_class)->dispose (object);
}

static void
decipher_conflict_view_class_init (DecipherConflictViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = decipher_conflict_view_dispose;

  /* A conflict was settled: the key changed and the count of open ones went down. */
  signals[RESOLVED] = g_signal_new ("resolved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/decipherpdf/Decipher/"
                                                             "decipher-conflict-view.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DecipherConflictView, stack);
  gtk_widget_class_bind_template_child (widget_class, DecipherConflictView, list);
}

static void
decipher_conflict_view_init (DecipherConflictView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
decipher_conflict_view_new (void)
{
  return g_object_new (DECIPHER_TYPE_CONFLICT_VIEW, NULL);
}
