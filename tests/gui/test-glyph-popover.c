/* test-glyph-popover.c: values the engine refuses, given to a glyph on the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "decipher-character-picker.h"
#include "decipher-document-view.h"
#include "decipher-labels.h"
#include "gui-test-util.h"

typedef struct
{
  GtkWindow *window;
  DecipherDocumentView *view;
  DecipherSession *session;
  DecipherGlyphPopover *popover;
  GtkEditable *entry;
  guint symbol;
} Fixture;

static gboolean
drew_highlights (DecipherDocumentView *view)
{
  return decipher_document_view_get_n_drawn_highlights (view) > 0;
}

static GtkEditable *
find_entry (GtkWidget *root)
{
  if (GTK_IS_ENTRY (root))
    return GTK_EDITABLE (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkEditable *found = find_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_unknown (DcSession *session, guint symbol)
{
  return dc_session_symbol_is_unknown (session, symbol);
}

/* The popover open over the first glyph of @pdf whose symbol @pick chooses, as a click
 * on it opens it. */
static void
fixture_open_on (Fixture *f, const char *pdf, gboolean (*pick) (DcSession *, guint))
{
  g_autoptr (GFile) file = gui_test_fixture_copy (pdf);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  const DcGlyph *glyphs;
  guint n_glyphs;
  guint glyph = 0;

  f->session = gui_test_load_session (file, NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 900, 800);
  f->view = g_object_ref_sink (g_object_new (DECIPHER_TYPE_DOCUMENT_VIEW, NULL));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (f->view));
  gtk_window_set_child (f->window, scroller);
  decipher_document_view_set_session (f->view, decipher_session_get_engine (f->session),
                                      decipher_session_get_render_file (f->session),
                                      decipher_session_get_password (f->session));
  gtk_window_present (f->window);
  GUI_TEST_WAIT (drew_highlights, f->view, "the view drawn");

  glyphs = dc_document_get_glyphs (decipher_session_get_document (f->session), &n_glyphs);
  while (glyph < n_glyphs && !pick (decipher_session_get_engine (f->session), glyphs[glyph].symbol))
    glyph++;
  g_assert_cmpuint (glyph, <, n_glyphs);
  f->symbol = glyphs[glyph].symbol;
  decipher_document_view_activate_glyph (f->view, glyph);
  f->popover = decipher_document_view_get_popover (f->view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->popover)));
  f->entry = find_entry (GTK_WIDGET (f->popover));
  g_assert_nonnull (f->entry);
}

static void
fixture_open (Fixture *f)
{
  fixture_open_on (f, "legacy-cyrillic.pdf", is_unknown);
}

static void
fixture_close (Fixture *f)
{
  gui_test_pointer_away (GTK_WINDOW (f->window));
  gtk_window_destroy (f->window);
  gui_test_settle ();
  g_assert_finalize_object (f->view);
  g_assert_finalize_object (f->session);
}

/* Assign with @text: refused, with @sentence under the entry, the popover still open
 * with the text in it, and the key as it was. */
static void
assert_refused (Fixture *f, const char *text, const char *sentence)
{
  g_autofree char *before = gui_test_key_snapshot (decipher_session_get_key (f->session));
  g_autofree char *after = NULL;

  decipher_glyph_popover_set_text (f->popover, text);
  g_assert_false (decipher_glyph_popover_assign (f->popover));
  g_assert_cmpstr (decipher_glyph_popover_get_error (f->popover), ==, sentence);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->popover)));
  g_assert_cmpstr (gtk_editable_get_text (f->entry), ==, text);
  after = gui_test_key_snapshot (decipher_session_get_key (f->session));
  g_assert_cmpstr (after, ==, before);
}

static void
test_refused_values (void)
{
  Fixture f;

  fixture_open (&f);
  assert_refused (&f, "а\x01",
                  "The text contains the control character U+0001, which no glyph stands for.");
  assert_refused (&f, "\t",
                  "The text contains the control character U+0009, which no glyph "
                  "stands for.");
  assert_refused (&f, "абвгдежзийклмнопр",
                  "The text has 17 characters, but a glyph can stand for at most 16.");
  assert_refused (&f, "\xEF\xBF\xBD",
                  "The text contains U+FFFD, which Decipher shows for an "
                  "unknown glyph, so it cannot be what a glyph stands for.");
  assert_refused (&f, "a\xE2\x80\xA8",
                  "The text contains the line break U+2028; a glyph cannot "
                  "stand for one.");
  gui_test_screenshot ("glyph-popover-refused");

  /* Sixteen code points are a value (a conjunct, a ligature of many marks). */
  decipher_glyph_popover_set_text (f.popover, "абвгдежзийклмноп");
  g_assert_true (decipher_glyph_popover_assign (f.popover));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (f.session), f.symbol), ==,
                   "абвгдежзийклмноп");
  fixture_close (&f);
}

static gboolean
popover_has_error (DecipherGlyphPopover *popover)
{
  return decipher_glyph_popover_get_error (popover) != NULL;
}

/* A megabyte pasted into the entry: refused as it arrives with the engine's sentence,
 * and the letter typed before it stays. */
static void
test_huge_paste (void)
{
  Fixture f;
  GString *huge = g_string_new (NULL);
  GtkWidget *delegate;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *sentence = NULL;

  fixture_open (&f);
  before = gui_test_key_snapshot (decipher_session_get_key (f.session));
  decipher_glyph_popover_set_text (f.popover, "ж");
  while (huge->len < 1024 * 1024)
    g_string_append_c (huge, 'x');

  delegate = GTK_WIDGET (gtk_editable_get_delegate (f.entry));
  gtk_editable_set_position (f.entry, -1);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (delegate), huge->str);
  g_signal_emit_by_name (delegate, "paste-clipboard");
  GUI_TEST_WAIT (popover_has_error, f.popover, "the paste to be refused");

  sentence = g_strdup_printf ("The text has %u characters, but a glyph can stand for at most 16.",
                              (guint) huge->len + 1);
  g_assert_cmpstr (decipher_glyph_popover_get_error (f.popover), ==, sentence);
  g_assert_cmpstr (gtk_editable_get_text (f.entry), ==, "ж");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f.popover)));
  after = gui_test_key_snapshot (decipher_session_get_key (f.session));
  g_assert_cmpstr (after, ==, before);
  gui_test_screenshot ("glyph-popover-huge-paste");

  /* What was typed before is still there to assign. */
  g_assert_true (decipher_glyph_popover_assign (f.popover));
  g_assert_cmpstr (dc_key_get_value (decipher_session_get_key (f.session), f.symbol), ==, "ж");
  g_string_free (huge, TRUE);
  fixture_close (&f);
}

/* The first GtkPicture under @root: the popover's shape. */
static GtkWidget *
find_picture (GtkWidget *root)
{
  if (GTK_IS_PICTURE (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_picture (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* How many pixel rows of @widget, as drawn on screen, carry dark ink. */
static int
ink_rows (GtkWidget *widget)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree guint8 *pixels = NULL;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget), rows = 0;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);

  g_assert_cmpint (width, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &bounds);
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guint8 *p = pixels + ((gsize) y * width + x) * 4;

        if (p[3] > 128 && p[1] < 96)
          {
            rows++;
            break;
          }
      }
  return rows;
}

static gboolean
shape_shown (DecipherGlyphPopover *popover)
{
  GtkWidget *picture = find_picture (GTK_WIDGET (popover));

  return picture != NULL && gtk_widget_get_mapped (picture)
         && gtk_picture_get_paintable (GTK_PICTURE (picture)) != NULL
         && gtk_widget_get_width (picture) > 0;
}

/* The glyph of the legacy body font drawn with @code, opened in the popover; the ink
 * height of the shape it shows. */
static int
shown_height (Fixture *f, guint32 code)
{
  DcDocument *document = decipher_session_get_document (f->session);
  guint n_glyphs;
  const DcGlyph *glyphs = dc_document_get_glyphs (document, &n_glyphs);

  for (guint i = 0; i < n_glyphs; i++)
    {
      const DcSymbol *s = dc_document_get_symbol (document, glyphs[i].symbol);

      if (dc_document_symbol_needs_decoding (document, glyphs[i].symbol) && s->code == code)
        {
          gtk_popover_popdown (GTK_POPOVER (f->popover));
          decipher_document_view_activate_glyph (f->view, i);
          GUI_TEST_WAIT (shape_shown, f->popover, "the glyph's shape in the popover");
          gui_test_wait_frame (GTK_WIDGET (f->popover));
          return ink_rows (find_picture (GTK_WIDGET (f->popover)));
        }
    }
  g_assert_not_reached ();
}

/* Issue 16.2: the popover keeps a glyph's true size against the font's em, as the page
 * and the palette do: a lowercase о is as much smaller than О as on the page (DejaVu's
 * x-height is 0.75 of its cap height), not scaled up to fill the tile. */
static void
test_true_size (void)
{
  Fixture f;
  g_autoptr (DecipherGlyphShapes) shapes = NULL;
  int small, capital;

  fixture_open (&f);
  shapes = decipher_glyph_shapes_new (decipher_session_get_engine (f.session),
                                      decipher_document_view_get_renderer (f.view));
  decipher_document_view_set_shapes (f.view, shapes);
  small = shown_height (&f, 0xEE);   /* о in the legacy layout */
  capital = shown_height (&f, 0xCE); /* О */
  gui_test_screenshot ("glyph-popover-capital");
  g_test_message ("о %d rows, О %d rows", small, capital);
  g_assert_cmpint (capital, >, 10);
  g_assert_cmpfloat ((double) small / capital, <, 0.85);
  g_assert_cmpfloat ((double) small / capital, >, 0.6);
  decipher_document_view_set_shapes (f.view, NULL);
  g_assert_finalize_object (g_steal_pointer (&shapes));
  fixture_close (&f);
}

static DecipherCharacterPicker *
find_picker (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (DECIPHER_IS_CHARACTER_PICKER (window))
        return DECIPHER_CHARACTER_PICKER (window);
    }
  return NULL;
}

static gboolean
picker_ready (gpointer data)
{
  DecipherCharacterPicker *picker = find_picker ();

  return picker != NULL && decipher_character_picker_wait_names (picker);
}

static gboolean
entry_says (gpointer data)
{
  gpointer *args = data;

  return g_str_equal (gtk_editable_get_text (args[0]), args[1]);
}

/* Issue 16.4: the popover comes back from the character picker with the caret after the
 * inserted letter and nothing selected; the next key typed goes on with the word. */
static void
test_picker_keeps_word (void)
{
  Fixture f;
  DecipherCharacterPicker *picker;
  gpointer after[] = { NULL, (gpointer) "wordҢs" };
  int start, end;

  fixture_open (&f);
  after[0] = f.entry;
  gtk_editable_set_text (f.entry, "word");
  gtk_editable_set_position (f.entry, -1);
  g_signal_emit_by_name (f.entry, "icon-press", GTK_ENTRY_ICON_SECONDARY);
  GUI_TEST_WAIT (picker_ready, NULL, "the character picker");
  picker = find_picker ();
  decipher_character_picker_search (picker, "U+04A2");
  {
    GtkFlowBoxChild *child =
        gtk_flow_box_get_child_at_index (decipher_character_picker_get_results (picker), 0);

    g_signal_emit_by_name (gtk_flow_box_child_get_child (child), "clicked");
  }
  decipher_character_picker_insert (picker);
  GUI_TEST_WAIT_FOR (g_strcmp0 (gtk_editable_get_text (f.entry), "wordҢ") == 0,
                     "the picked character in the popover's entry");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f.popover)));
  g_assert_false (gtk_editable_get_selection_bounds (f.entry, &start, &end));

  gui_test_focus_window (f.window);
  gui_test_type (f.window, "s");
  GUI_TEST_WAIT (entry_says, after, "the next letter after the inserted one");
  fixture_close (&f);
}

static gboolean
is_proposed (DcSession *session, guint symbol)
{
  return dc_key_get_status (dc_session_get_key (session), symbol) == DC_KEY_PROPOSED;
}

/* A value the evidence gave is rejected, not merely forgotten (it would come straight back
 * from the same evidence); the user's own value is forgotten. */
static void
test_reject_or_forget (void)
{
  Fixture f;
  DcSession *engine;
  DcKey *key;
  g_autofree char *proposed = NULL;
  GtkButton *button;

  fixture_open_on (&f, "ascii-legacy.pdf", is_proposed);
  engine = decipher_session_get_engine (f.session);
  key = dc_session_get_key (engine);
  proposed = g_strdup (dc_key_peek_value (key, f.symbol));
  g_assert_null (gui_test_find_button (GTK_WIDGET (f.popover), "_Forget"));
  button = gui_test_find_button (GTK_WIDGET (f.popover), "_Reject");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");

  g_assert_true (dc_key_is_refused (key, f.symbol, proposed));
  g_assert_cmpstr (dc_key_peek_value (key, f.symbol), !=, proposed);
  /* Weighed again, the evidence does not bring it back. */
  dc_proposals_update (key);
  g_assert_cmpstr (dc_key_peek_value (key, f.symbol), !=, proposed);

  /* The user's own word: forgotten, not refused. */
  g_assert_true (dc_session_assign (engine, f.symbol, proposed, NULL));
  decipher_glyph_popover_set_symbol (f.popover, f.symbol);
  gui_test_settle ();
  g_assert_null (gui_test_find_button (GTK_WIDGET (f.popover), "_Reject"));
  button = gui_test_find_button (GTK_WIDGET (f.popover), "_Forget");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (dc_key_get_status (key, f.symbol), !=, DC_KEY_CONFIRMED);
  g_assert_false (dc_key_is_refused (key, f.symbol, proposed));
  fixture_close (&f);
}

/* Opened on an occurrence split off its symbol, the popover says what that occurrence
 * reads (not only its symbol's value), tells a screen reader so, and reads it as its
 * symbol again on request; its symbol's other occurrences show no such sentence. */
static void
test_split_occurrence (void)
{
  Fixture f;
  DcSession *engine;
  DcKey *key;
  const guint32 *occurrences;
  guint n, glyph, other;
  g_autofree char *expected = NULL;
  g_autofree char *described = NULL;
  g_autofree char *title = NULL;
  g_autofree char *progress = NULL;
  g_autofree char *expected_progress = NULL;
  guint symbols_before, glyphs_before, symbols_after, glyphs_after, unmapped_before;
  guint to_symbols, to_glyphs;
  GtkButton *button;

  fixture_open (&f);
  engine = decipher_session_get_engine (f.session);
  key = dc_session_get_key (engine);
  occurrences = dc_document_get_symbol_glyphs (dc_session_get_document (engine), f.symbol, &n);
  g_assert_cmpuint (n, >=, 2);
  glyph = occurrences[0];
  other = occurrences[1];
  g_assert_null (decipher_glyph_popover_get_split (f.popover));
  button = gui_test_find_button (GTK_WIDGET (f.popover), "Read as Sy_mbol");
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (button)));

  dc_key_count_decoded (key, &symbols_before, &glyphs_before);
  dc_export_count_unmapped (dc_session_get_document (engine), -1, dc_key_value_func, key, NULL,
                            &unmapped_before);
  g_assert_true (dc_session_split (engine, &glyph, 1, "a", NULL));
  /* The status line counts glyphs by what each reads: the split one is decoded, no longer
   * unmapped; its symbol, still unknown elsewhere, is not. */
  dc_key_count_decoded (key, &symbols_after, &glyphs_after);
  g_assert_cmpuint (symbols_after, ==, symbols_before);
  g_assert_cmpuint (glyphs_after, ==, glyphs_before + 1);
  progress = decipher_labels_dup_progress_text (engine);
  dc_key_count_to_decode (key, &to_symbols, &to_glyphs);
  expected_progress = g_strdup_printf ("Symbols decoded: %u of %u · glyphs: %u of %u",
                                       symbols_after, to_symbols, glyphs_after, to_glyphs);
  g_assert_true (g_str_has_prefix (progress, expected_progress));
  g_clear_pointer (&expected_progress, g_free);
  expected_progress = g_strdup_printf (" · %u glyphs unmapped", unmapped_before - 1);
  g_assert_true (g_str_has_suffix (progress, expected_progress));
  gtk_popover_popdown (GTK_POPOVER (f.popover));
  decipher_document_view_activate_glyph (f.view, glyph);
  gui_test_settle ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f.popover)));
  expected = g_strdup ("This occurrence reads “a”: it is split off its symbol, which reads “?”.");
  g_assert_cmpstr (decipher_glyph_popover_get_split (f.popover), ==, expected);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (f.popover),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
  /* The page's cursor, on that glyph, says the same to a screen reader. */
  title = decipher_labels_dup_symbol_title (dc_session_get_document (engine), f.symbol);
  described = g_strdup_printf ("%s · %s", expected, title);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (f.view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       described);

  /* The symbol's value changes: the sentence follows, the occurrence still reads a. */
  g_assert_true (dc_session_assign (engine, f.symbol, "б", NULL));
  gui_test_settle ();
  g_assert_cmpstr (decipher_glyph_popover_get_split (f.popover), ==,
                   "This occurrence reads “a”: it is split off its symbol, which reads “б”.");

  /* Another occurrence of the symbol reads as the symbol: nothing said. */
  gtk_popover_popdown (GTK_POPOVER (f.popover));
  decipher_document_view_activate_glyph (f.view, other);
  gui_test_settle ();
  g_assert_null (decipher_glyph_popover_get_split (f.popover));
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (f.popover),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));

  /* Back on the split one, its button reads it as its symbol again, as one undoable step. */
  gtk_popover_popdown (GTK_POPOVER (f.popover));
  decipher_document_view_activate_glyph (f.view, glyph);
  gui_test_settle ();
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
  gui_test_settle ();
  g_assert_null (dc_key_get_split (key, glyph, NULL));
  g_assert_cmpstr (dc_key_get_glyph_value (key, glyph), ==, "б");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (f.popover)));
  g_assert_true (dc_session_undo (engine, NULL));
  g_assert_cmpstr (dc_key_get_split (key, glyph, NULL), ==, "a");
  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  gui_test_init (&argc, &argv);
  /* GTK's own test context (read as the first widget is made), so that a test can read
   * what a screen reader would be told. */
  g_setenv ("GTK_A11Y", "test", TRUE);

  g_test_add_func ("/glyph-popover/refused-values", test_refused_values);
  g_test_add_func ("/glyph-popover/huge-paste", test_huge_paste);
  g_test_add_func ("/glyph-popover/true-size", test_true_size);
  g_test_add_func ("/glyph-popover/picker-keeps-word", test_picker_keeps_word);
  g_test_add_func ("/glyph-popover/reject-or-forget", test_reject_or_forget);
  g_test_add_func ("/glyph-popover/split-occurrence", test_split_occurrence);
  return g_test_run ();
}
