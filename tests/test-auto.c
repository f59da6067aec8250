/* test-auto.c: the automatic space and full-stop pass, on the real fixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "dc-test-fixtures.h"

typedef struct
{
  const char *name;
  /* Whether at least two paragraphs end with a full stop on a line that stops between 20%
   * and 80% of the text width. uralic-legacy and type3 end theirs on lines shorter than
   * 20% ("ненэць.", "знаком."), so the rule must find nothing there. */
  gboolean has_full_stop;
} Fixture;

static const Fixture fixtures[] = {
  { "legacy-cyrillic", TRUE },
  { "uralic-legacy", FALSE },
  { "type3", FALSE },
  /* The space at another code, kept at the end of the lines it broke: а is on more lines
   * than it, and only its lack of ink tells. */
  { "nenets-space", TRUE },
  /* Identity-H through a CIDToGIDMap, no glyph names: the space's CID is another glyph's
   * number, and only the map finds its blank glyph. */
  { "offset-cid", TRUE },
  /* The space at another code, ending some lines and beginning others, wherever the
   * typesetter broke them: only its blank, word-wide glyph tells. */
  { "space-edges", TRUE },
  /* duplicate-tounicode is read whole from its font's cmap before any guess is made:
   * test-font-tables checks it. */
};

/* What each symbol really stands for, and the words of each line, from the ground truth;
 * the document's lines follow it glyph for glyph (test-document checks that). */
typedef struct
{
  GPtrArray *values; /* per symbol, (nullable) its true text */
  GPtrArray *lines;  /* per document line, its true text */
} Truth;

static void
truth_clear (Truth *truth)
{
  g_clear_pointer (&truth->values, g_ptr_array_unref);
  g_clear_pointer (&truth->lines, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Truth, truth_clear)

static void
load_truth (DcDocument *document, const char *name, Truth *truth)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = dc_test_load_truth (name, &parser);
  JsonArray *pages = json_object_get_array_member (root, "pages");
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  truth->values = g_ptr_array_new_full (n_symbols, g_free);
  g_ptr_array_set_size (truth->values, n_symbols);
  truth->lines = g_ptr_array_new_with_free_func (g_free);

  for (guint page = 0; page < json_array_get_length (pages); page++)
    {
      JsonArray *truth_lines = json_object_get_array_member (json_array_get_object_element (pages,
                                                                                            page),
                                                             "lines");
      guint first, n;

      dc_document_get_page_lines (document, page, &first, &n);
      g_assert_cmpuint (n, ==, json_array_get_length (truth_lines));
      for (guint l = 0; l < n; l++)
        {
          JsonObject *truth_line = json_array_get_object_element (truth_lines, l);
          JsonArray *truth_glyphs = json_object_get_array_member (truth_line, "glyphs");
          const DcLine *line = &lines[first + l];

          g_ptr_array_add (truth->lines,
                           g_strdup (json_object_get_string_member (truth_line, "text")));
          g_assert_cmpuint (line->n_glyphs, ==, json_array_get_length (truth_glyphs));
          for (guint k = 0; k < line->n_glyphs; k++)
            {
              guint symbol = glyphs[order[line->first_glyph + k]].symbol;
              JsonObject *glyph = json_array_get_object_element (truth_glyphs, k);

              if (g_ptr_array_index (truth->values, symbol) == NULL)
                g_ptr_array_index (truth->values, symbol) = g_strdup (
                    json_object_get_string_member (glyph, "text"));
            }
        }
    }
}

static const char *
true_value (const Truth *truth, guint symbol)
{
  g_assert_cmpuint (symbol, <, truth->values->len);
  return g_ptr_array_index (truth->values, symbol);
}

static void
assert_tokens_are_words (DcDocument *document, const Truth *truth)
{
  guint n_lines;
  const DcLine *lines = dc_document_get_lines (document, &n_lines);

  g_assert_cmpuint (n_lines, ==, truth->lines->len);
  for (guint l = 0; l < n_lines; l++)
    {
      g_autofree char *text = g_strstrip (g_strdup (g_ptr_array_index (truth->lines, l)));
      g_auto (GStrv) words = g_strsplit (text, " ", -1);

      if (lines[l].n_tokens != g_strv_length (words))
        g_test_message ("line %u: %u tokens, truth: %s", l, lines[l].n_tokens,
                        (const char *) g_ptr_array_index (truth->lines, l));
      g_assert_cmpuint (lines[l].n_tokens, ==, g_strv_length (words));
    }
}

static const DcAutoFontReport *
only_font_report (const DcAutoReport *report)
{
  g_assert_true (report->ran);
  g_assert_nonnull (report->fonts);
  g_assert_cmpuint (report->fonts->len, ==, 1);
  return &g_array_index (report->fonts, DcAutoFontReport, 0);
}

/* The space is the symbol whose truth is " ", the full stop the one whose truth is ".",
 * both inferred with their provenance, and the reasons say so. */
static void
test_space_and_full_stop (gconstpointer data)
{
  const Fixture *fixture = data;
  g_autoptr (DcDocument) document = dc_test_load_document (fixture->name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_auto (DcAutoReport) report = { 0 };
  g_auto (Truth) truth = { 0 };
  const DcAutoFontReport *font;
  guint n_assigned;

  load_truth (document, fixture->name, &truth);
  n_assigned = dc_auto_recover (document, key, &report);
  font = only_font_report (&report);
  g_assert_false (dc_font_is_trusted (dc_document_get_font (document, font->font)));
  g_assert_cmpuint (report.n_assigned, ==, n_assigned);
  /* Besides its guesses, the pass applies the layouts the fonts' own tables back
   * (uralic-legacy's cmap in Cyrillic: test-hypotheses); only the guesses count here. */
  for (guint s = 0; s < truth.values->len; s++)
    if (dc_key_get_status (key, s) == DC_KEY_INFERRED
        && dc_key_get_level (key, s) != DC_KEY_LEVEL_GUESS)
      n_assigned--;

  g_assert_cmpuint (font->space.symbol, !=, DC_AUTO_NO_SYMBOL);
  g_assert_true (font->space.assigned);
  g_assert_cmpstr (true_value (&truth, font->space.symbol), ==, " ");
  g_assert_cmpstr (dc_key_get_value (key, font->space.symbol), ==, " ");
  g_assert_cmpint (dc_key_get_status (key, font->space.symbol), ==, DC_KEY_INFERRED);
  g_assert_cmpstr (dc_key_get_provenance (key, font->space.symbol), ==, "auto: space");
  g_assert_true (dc_document_symbol_is_space (document, font->space.symbol));
  g_assert_nonnull (font->space.reason);
  g_test_message ("%s: %s", fixture->name, font->space.reason);

  g_assert_nonnull (font->full_stop.reason);
  g_test_message ("%s: %s", fixture->name, font->full_stop.reason);
  if (fixture->has_full_stop)
    {
      g_assert_cmpuint (font->full_stop.symbol, !=, DC_AUTO_NO_SYMBOL);
      g_assert_true (font->full_stop.assigned);
      g_assert_cmpstr (true_value (&truth, font->full_stop.symbol), ==, ".");
      g_assert_cmpstr (dc_key_get_value (key, font->full_stop.symbol), ==, ".");
      g_assert_cmpint (dc_key_get_status (key, font->full_stop.symbol), ==, DC_KEY_INFERRED);
      g_assert_cmpstr (dc_key_get_provenance (key, font->full_stop.symbol), ==, "auto: full stop");
      g_assert_cmpuint (n_assigned, ==, 2);
    }
  else
    {
      g_assert_cmpuint (font->full_stop.symbol, ==, DC_AUTO_NO_SYMBOL);
      g_assert_false (font->full_stop.assigned);
      g_assert_cmpuint (n_assigned, ==, 1);
    }
}

/* The font draws no space glyph (words are apart by TJ gaps), so no space may be guessed;
 * whatever is guessed must be right, and the words still come from the gaps. */
static void
test_identity_h (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("identity-h");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_auto (DcAutoReport) report = { 0 };
  g_auto (Truth) truth = { 0 };
  const DcAutoFontReport *font;
  guint n_symbols;

  load_truth (document, "identity-h", &truth);
  dc_auto_recover (document, key, &report);
  font = only_font_report (&report);

  g_assert_cmpuint (font->space.symbol, ==, DC_AUTO_NO_SYMBOL);
  g_assert_false (font->space.assigned);
  g_assert_nonnull (font->space.reason);
  g_test_message ("identity-h: %s", font->space.reason);

  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_false (dc_document_symbol_is_space (document, s));
      if (dc_key_get_status (key, s) != DC_KEY_UNKNOWN)
        g_assert_cmpstr (dc_key_get_value (key, s), ==, true_value (&truth, s));
    }
  /* Its paragraphs end with full stops on early-ending lines, and the gaps make words. */
  g_assert_cmpuint (font->full_stop.symbol, !=, DC_AUTO_NO_SYMBOL);
  g_assert_cmpstr (true_value (&truth, font->full_stop.symbol), ==, ".");
  assert_tokens_are_words (document, &truth);
}

/* A trusted font's map is the PDF's own: the pass has nothing to guess. */
static void
test_clean (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("clean");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_auto (DcAutoReport) report = { 0 };
  const DcSymbol *symbols;
  guint n_symbols;

  g_assert_cmpuint (dc_auto_recover (document, key, &report), ==, 0);
  g_assert_true (report.ran);
  g_assert_cmpuint (report.fonts->len, ==, 0);
  g_assert_cmpuint (report.n_assigned, ==, 0);
  g_assert_false (dc_key_can_undo (key));

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_FROM_PDF);
      g_assert_cmpstr (dc_key_get_value (key, s), ==, symbols[s].pdf_text);
    }
}

/* After the pass every line has as many tokens as the reader sees words: for type3, whose
 * space glyph the PDF does not call a space, only the guessed space can do that. */
static void
test_tokens (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_auto (Truth) truth = { 0 };

  load_truth (document, name, &truth);
  dc_auto_recover (document, key, NULL);
  assert_tokens_are_words (document, &truth);
}

static guint *
copy_token_counts (DcDocument *document)
{
  guint n_lines;
  const DcLine *lines = dc_document_get_lines (document, &n_lines);
  guint *counts = g_new (guint, n_lines);

  for (guint l = 0; l < n_lines; l++)
    counts[l] = lines[l].n_tokens;
  return counts;
}

/* One undo reverts every guess, and the words with them. */
static void
test_undo (gconstpointer data)
{
  const char *name = data;
  g_autoptr (DcDocument) document = dc_test_load_document (name);
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autofree guint *before = copy_token_counts (document);
  g_autofree guint *after = NULL;
  const DcLine *lines;
  guint n_symbols, n_lines, n_decoded;

  g_assert_cmpuint (dc_auto_recover (document, key, NULL), >, 0);
  dc_key_count_decoded (key, &n_decoded, NULL);
  g_assert_cmpuint (n_decoded, >, 0);
  g_assert_true (dc_key_can_undo (key));
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "Automatic guesses");
  after = copy_token_counts (document);

  g_assert_true (dc_key_undo (key));
  g_assert_false (dc_key_can_undo (key));
  dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      g_assert_cmpint (dc_key_get_status (key, s), ==, DC_KEY_UNKNOWN);
  dc_key_count_decoded (key, &n_decoded, NULL);
  g_assert_cmpuint (n_decoded, ==, 0);
  lines = dc_document_get_lines (document, &n_lines);
  for (guint l = 0; l < n_lines; l++)
    g_assert_cmpuint (lines[l].n_tokens, ==, before[l]);

  /* And redo brings them back. */
  g_assert_true (dc_key_redo (key));
  for (guint l = 0; l < n_lines; l++)
    g_assert_cmpuint (lines[l].n_tokens, ==, after[l]);
}

static guint
find_symbol (DcDocument *document, const Truth *truth, const char *value)
{
  for (guint s = 0; s < truth->values->len; s++)
    if (dc_document_symbol_needs_decoding (document, s)
        && g_strcmp0 (true_value (truth, s), value) == 0)
      return s;
  g_assert_not_reached ();
}

/* What the user confirmed, or a match inferred, is never touched: a known space or full
 * stop is reported as known, and a symbol holding another value is not a candidate. */
static void
test_keeps_decided (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_autoptr (GError) error = NULL;
  g_auto (DcAutoReport) report = { 0 };
  g_auto (Truth) truth = { 0 };
  const DcAutoFontReport *font;
  guint space, full_stop;

  load_truth (document, "legacy-cyrillic", &truth);
  space = find_symbol (document, &truth, " ");
  full_stop = find_symbol (document, &truth, ".");

  g_assert_true (dc_key_set (key, space, " ", DC_KEY_CONFIRMED, "user", &error));
  g_assert_no_error (error);
  /* A wrong value, as a user might set it: still theirs to change, not the pass's. */
  g_assert_true (dc_key_set (key, full_stop, "!", DC_KEY_INFERRED, "type: «!»", &error));
  g_assert_no_error (error);

  g_assert_cmpuint (dc_auto_recover (document, key, &report), ==, 0);
  font = only_font_report (&report);

  g_assert_cmpuint (font->space.symbol, ==, space);
  g_assert_false (font->space.assigned);
  g_assert_cmpint (dc_key_get_status (key, space), ==, DC_KEY_CONFIRMED);
  g_assert_cmpstr (dc_key_get_provenance (key, space), ==, "user");

  g_assert_cmpuint (font->full_stop.symbol, ==, DC_AUTO_NO_SYMBOL);
  g_assert_cmpstr (dc_key_get_value (key, full_stop), ==, "!");
  g_assert_cmpstr (dc_key_get_provenance (key, full_stop), ==, "type: «!»");
  g_assert_cmpstr (dc_key_get_undo_label (key), ==, "type: «!»");
}

/* A second run finds both already known and changes nothing. */
static void
test_run_twice (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("legacy-cyrillic");
  g_autoptr (DcKey) key = dc_key_new (document);
  g_auto (DcAutoReport) first = { 0 };
  g_auto (DcAutoReport) second = { 0 };
  const DcAutoFontReport *before, *after;

  g_assert_cmpuint (dc_auto_recover (document, key, &first), ==, 2);
  g_assert_cmpuint (dc_auto_recover (document, key, &second), ==, 0);
  before = only_font_report (&first);
  after = only_font_report (&second);
  g_assert_cmpuint (after->space.symbol, ==, before->space.symbol);
  g_assert_cmpuint (after->full_stop.symbol, ==, before->full_stop.symbol);
  g_assert_false (after->space.assigned);
  g_assert_false (after->full_stop.assigned);

  g_assert_true (dc_key_undo (key));
  g_assert_false (dc_key_can_undo (key));
}

/* A report that was never filled says so, for a caller that honours --no-auto; clearing
 * it twice is harmless. */
static void
test_report_lifecycle (void)
{
  g_autoptr (DcDocument) document = dc_test_load_document ("type3");
  g_autoptr (DcKey) key = dc_key_new (document);
  DcAutoReport report;

  dc_auto_report_init (&report);
  g_assert_false (report.ran);
  g_assert_cmpuint (report.fonts->len, ==, 0);

  /* Filling an initialised report replaces what it held. */
  dc_auto_recover (document, key, &report);
  g_assert_true (report.ran);
  g_assert_cmpuint (report.fonts->len, ==, 1);

  dc_auto_report_clear (&report);
  g_assert_false (report.ran);
  g_assert_null (report.fonts);
  dc_auto_report_clear (&report);
}

/* The pass looks at a book's body font on two threads (its lines in two parts, whose
 * counts are added up): the same guesses, reasons (which quote the counts) and values as
 * on one. DECIPHER_EXTRACT_THREADS sets how many, whatever the page count. */
static void
test_same_on_two_threads (gconstpointer data)
{
  const Fixture *fixture = data;
  g_autoptr (DcDocument) one_document = dc_test_load_document (fixture->name);
  g_autoptr (DcDocument) two_document = dc_test_load_document (fixture->name);
  g_autoptr (DcKey) one_key = dc_key_new (one_document);
  g_autoptr (DcKey) two_key = dc_key_new (two_document);
  g_auto (DcAutoReport) one = { 0 };
  g_auto (DcAutoReport) two = { 0 };
  guint n_symbols;

  g_setenv ("DECIPHER_EXTRACT_THREADS", "1", TRUE);
  g_assert_cmpuint (dc_auto_recover (one_document, one_key, &one), ==, one.n_assigned);
  g_setenv ("DECIPHER_EXTRACT_THREADS", "2", TRUE);
  g_assert_cmpuint (dc_auto_recover (two_document, two_key, &two), ==, one.n_assigned);
  g_unsetenv ("DECIPHER_EXTRACT_THREADS");

  g_assert_cmpuint (two.fonts->len, ==, one.fonts->len);
  for (guint f = 0; f < one.fonts->len; f++)
    {
      const DcAutoFontReport *a = &g_array_index (one.fonts, DcAutoFontReport, f);
      const DcAutoFontReport *b = &g_array_index (two.fonts, DcAutoFontReport, f);

      g_assert_cmpuint (b->font, ==, a->font);
      g_assert_cmpuint (b->space.symbol, ==, a->space.symbol);
      g_assert_cmpstr (b->space.reason, ==, a->space.reason);
      g_assert_cmpuint (b->full_stop.symbol, ==, a->full_stop.symbol);
      g_assert_cmpstr (b->full_stop.reason, ==, a->full_stop.reason);
    }
  dc_document_get_symbols (one_document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    g_assert_cmpstr (dc_key_get_value (two_key, s), ==, dc_key_get_value (one_key, s));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = g_strdup_printf ("/auto/space-and-full-stop/%s", fixtures[i].name);

      g_test_add_data_func (path, &fixtures[i], test_space_and_full_stop);
    }
  g_test_add_func ("/auto/identity-h", test_identity_h);
  g_test_add_func ("/auto/clean", test_clean);
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *tokens = g_strdup_printf ("/auto/tokens/%s", fixtures[i].name);
      g_autofree char *undo = g_strdup_printf ("/auto/undo/%s", fixtures[i].name);

      g_test_add_data_func (tokens, fixtures[i].name, test_tokens);
      g_test_add_data_func (undo, fixtures[i].name, test_undo);
    }
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = g_strdup_printf ("/auto/same-on-two-threads/%s", fixtures[i].name);

      g_test_add_data_func (path, &fixtures[i], test_same_on_two_threads);
    }
  g_test_add_func ("/auto/keeps-decided", test_keeps_decided);
  g_test_add_func ("/auto/run-twice", test_run_twice);
  g_test_add_func ("/auto/report-lifecycle", test_report_lifecycle);

  return g_test_run ();
}
