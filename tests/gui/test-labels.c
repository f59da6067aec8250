/* test-labels.c: the window's words for a document's state, a symbol and a value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * decipher-labels.c is a function of the engine's objects alone: these drive a DcSession
 * on the fixtures, without a window, and read what the progress line, its tooltip, a
 * symbol's title and a value would say (in the C locale the suite runs in).
 */

#include "config.h"

#include <string.h>

#include "decipher-labels.h"
#include "gui-test-util.h"

static DcSession *
open_session (const char *name)
{
  g_autofree char *path = gui_test_fixture_path (name);
  g_autoptr (GError) error = NULL;
  g_autoptr (DcDocument) document = dc_document_new_from_file (path, NULL, NULL, NULL, NULL,
                                                               &error);

  g_assert_no_error (error);
  return dc_session_new (document);
}

static guint
symbol_of_code (DcDocument *document, guint32 code)
{
  guint n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].code == code)
      return s;
  g_assert_not_reached ();
}

static void
set (DcKey *key, guint symbol, const char *value, DcKeyStatus status)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (dc_key_set_full (key, symbol, value, status, DC_KEY_LEVEL_USER, 1.0, "test",
                                  &error));
  g_assert_no_error (error);
}

/* A symbol is named by its code, as wide as the code, and its font. */
static void
test_symbol_title (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic.pdf");
  DcDocument *document = dc_session_get_document (session);
  guint symbol = symbol_of_code (document, 0xEB);
  const DcSymbol *s = dc_document_get_symbol (document, symbol);
  g_autofree char *font = dc_font_dup_display_name (dc_document_get_font (document, s->font));
  g_autofree char *expected = g_strdup_printf ("Code 0xEB · %s", font);
  g_autofree char *title = decipher_labels_dup_symbol_title (document, symbol);

  g_assert_cmpuint (s->code_len, ==, 1);
  g_assert_cmpstr (title, ==, expected);
}

/* Unknown reads "?", what cannot be seen is named, a mark sits on a dotted circle. */
static void
test_value (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic.pdf");
  DcKey *key = dc_session_get_key (session);
  guint symbol = symbol_of_code (dc_session_get_document (session), 0xEB);
  static const struct
  {
    const char *value, *label;
  } cases[] = {
    { "л", "л" },
    { "", "none" },
    { " ", "space" },
    { "\u0301", "\u25CC\u0301" },
    { "ff", "ff" },
  };

  {
    g_autofree char *label = decipher_labels_dup_value (key, symbol);

    g_assert_cmpstr (label, ==, "?");
  }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = NULL;

      set (key, symbol, cases[i].value, DC_KEY_CONFIRMED);
      label = decipher_labels_dup_value (key, symbol);
      g_assert_cmpstr (label, ==, cases[i].label);
    }
}

/* The progress line counts what is decoded against what is to decode, and says what is
 * unreviewed and what reads as U+FFFD until nothing is left of either; the tooltip names
 * the fonts whose glyphs have no value. */
static void
test_progress (void)
{
  g_autoptr (DcSession) session = open_session ("legacy-cyrillic.pdf");
  DcDocument *document = dc_session_get_document (session);
  DcKey *key = dc_session_get_key (session);
  guint n_symbols, to_symbols, to_glyphs, first = G_MAXUINT;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *font = NULL;

  dc_document_get_symbols (document, &n_symbols);
  dc_key_count_to_decode (key, &to_symbols, &to_glyphs);
  g_assert_cmpuint (to_symbols, >, 1);
  expected = g_strdup_printf ("Symbols decoded: 0 of %u · glyphs: 0 of %u · ", to_symbols,
                              to_glyphs);
  text = decipher_labels_dup_progress_text (session);
  g_assert_true (g_str_has_prefix (text, expected));
  g_assert_nonnull (strstr (text, " glyphs unmapped"));
  g_assert_null (strstr (text, "unreviewed"));

  tooltip = decipher_labels_dup_unmapped_tooltip (session);
  g_assert_nonnull (tooltip);
  g_assert_true (g_str_has_prefix (tooltip, "Unmapped glyphs read as � in the text:\n"));
  for (guint s = 0; s < n_symbols && first == G_MAXUINT; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      first = s;
  font = dc_font_dup_display_name (
      dc_document_get_font (document, dc_document_get_symbol (document, first)->font));
  g_assert_nonnull (strstr (tooltip, font));
  g_assert_nonnull (strstr (tooltip, "glyphs have no value yet"));

  /* One proposal: unreviewed. */
  set (key, first, "а", DC_KEY_PROPOSED);
  g_free (text);
  text = decipher_labels_dup_progress_text (session);
  g_assert_nonnull (strstr (text, " · 1 unreviewed"));

  /* Every symbol decided: nothing unmapped, nothing unreviewed, no tooltip. */
  for (guint s = 0; s < n_symbols; s++)
    if (dc_document_symbol_needs_decoding (document, s))
      set (key, s, "x", DC_KEY_CONFIRMED);
  g_free (text);
  g_free (expected);
  text = decipher_labels_dup_progress_text (session);
  expected = g_strdup_printf ("Symbols decoded: %u of %u · glyphs: %u of %u", to_symbols,
                              to_symbols, to_glyphs, to_glyphs);
  g_assert_cmpstr (text, ==, expected);
  g_clear_pointer (&tooltip, g_free);
  g_assert_null ((tooltip = decipher_labels_dup_unmapped_tooltip (session)));
}

/* A document whose fonts all tell the truth has nothing to decode, and says so. */
static void
test_nothing_to_decode (void)
{
  g_autoptr (DcSession) session = open_session ("clean.pdf");
  g_autofree char *text = decipher_labels_dup_progress_text (session);

  g_assert_cmpstr (text, ==, "Every font of this document can be trusted: nothing to decode");
  g_assert_null (decipher_labels_dup_unmapped_tooltip (session));
}

static void
test_level_and_status (void)
{
  g_assert_cmpstr (decipher_labels_level (DC_KEY_LEVEL_USER), ==, "decided by you");
  g_assert_cmpstr (decipher_labels_level (DC_KEY_LEVEL_FONT), ==, "from the font's own tables");
  g_assert_cmpstr (decipher_labels_level (DC_KEY_LEVEL_NONE), ==, "");
  g_assert_cmpstr (decipher_labels_status (DC_KEY_PROPOSED), ==, "Proposed");
  g_assert_cmpstr (decipher_labels_status (DC_KEY_CONFIRMED), ==, "Confirmed");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/labels/symbol-title", test_symbol_title);
  g_test_add_func ("/labels/value", test_value);
  g_test_add_func ("/labels/progress", test_progress);
  g_test_add_func ("/labels/nothing-to-decode", test_nothing_to_decode);
  g_test_add_func ("/labels/level-and-status", test_level_and_status);
  return g_test_run ();
}
