/* decipher-labels.c: how the window words a document's state, a symbol and a value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sentences and short labels several widgets show the same way: the progress line
 * and its tooltip, a symbol's title, a value as it reads on screen, a status and what a
 * value rests on. Each is a function of the engine's objects alone, translated, so that
 * every widget words a thing alike and a test can read them without a window
 * (tests/gui/test-labels.c).
 */

#define G_LOG_DOMAIN "decipher-labels"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-labels.h"

/**
 * decipher_labels_dup_progress_text:
 *
 * Returns: (transfer full): the line that stays visible at the bottom of the window: how
 *   much is decoded, what no one has reviewed and what no level decodes
 */
char *
decipher_labels_dup_progress_text (DcSession *session)
{
  DcDocument *document;
  DcKey *key;
  guint n_symbols, n_glyphs, to_symbols, to_glyphs, unmapped_glyphs, unreviewed;
  GString *text;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);

  document = dc_session_get_document (session);
  key = dc_session_get_key (session);
  dc_key_count_decoded (key, &n_symbols, &n_glyphs);
  dc_key_count_to_decode (key, &to_symbols, &to_glyphs);
  if (to_symbols == 0)
    return g_strdup (_("Every font of this document can be trusted: nothing to decode"));
  text = g_string_new (NULL);
  /* Translators: the always-visible progress line. */
  g_string_printf (text, _("Symbols decoded: %u of %u · glyphs: %u of %u"), n_symbols, to_symbols,
                            n_glyphs, to_glyphs);
  /* Issue 31.1: "76 of 76" read as done while every value was a lying cmap's. */
  unreviewed = dc_session_count_unreviewed (session, NULL);
  if (unreviewed > 0)
    g_string_append_printf (text,
                            /* Translators: appended to the progress line: proposals
                             * left, and values accepted in bulk that no level would
                             * have applied by itself. */
                            ngettext (" · %u unreviewed", " · %u unreviewed", unreviewed),
                            unreviewed);
  /* What no level decodes reads as U+FFFD in every text Decipher gives (GLYPH_UNMAPPED in
   * decipher-cli's JSON): said, so that a copied text is not taken for complete. */
  dc_export_count_unmapped (document, -1, dc_key_value_func, key, NULL, &unmapped_glyphs);
  if (unmapped_glyphs > 0)
    g_string_append_printf (text,
                            /* Translators: appended to the progress line. */
                            ngettext (" · %u glyph unmapped", " · %u glyphs unmapped",
                                      unmapped_glyphs),
                            unmapped_glyphs);
  return g_string_free (text, FALSE);
}

/**
 * decipher_labels_dup_unmapped_tooltip:
 *
 * Returns: (transfer full) (nullable): a heading, then per font how many glyphs no level
 *   decodes, one line each; %NULL when there are none
 */
char *
decipher_labels_dup_unmapped_tooltip (DcSession *session)
{
  g_autoptr (GString) text = g_string_new (NULL);
  DcDocument *document;
  DcKey *key;
  guint n_fonts;

  g_return_val_if_fail (DC_IS_SESSION (session), NULL);

  document = dc_session_get_document (session);
  key = dc_session_get_key (session);
  n_fonts = dc_document_get_n_fonts (document);
  for (guint f = 0; f < n_fonts; f++)
    {
      g_autofree char *name = NULL;
      guint n_symbols, n_glyphs;

      dc_export_count_unmapped (document, (int) f, dc_key_value_func, key, &n_symbols, &n_glyphs);
      if (n_glyphs == 0)
        continue;
      name = dc_font_dup_display_name (dc_document_get_font (document, f));
      if (text->len == 0)
        /* Translators: the first line of the progress line's tooltip; � is U+FFFD. */
        g_string_append (text, _("Unmapped glyphs read as � in the text:"));
      g_string_append_c (text, '\n');
      /* Translators: a tooltip line: a font's name, then how many of its glyphs and distinct
       * codes no evidence decodes yet. */
      g_string_append_printf (text,
                              ngettext ("%s: %u glyph has no value yet (%u code)",
                                        "%s: %u glyphs have no value yet (%u codes)", n_glyphs),
                              name, n_glyphs, n_symbols);
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

/* "Code 0xC0 · FontName": how a symbol is named in tooltips, popovers and cells. */
char *
decipher_labels_dup_symbol_title (DcDocument *document, guint symbol)
{
  const DcSymbol *s;
  g_autofree char *name = NULL;

  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  s = dc_document_get_symbol (document, symbol);
  g_return_val_if_fail (s != NULL, NULL);
  name = dc_font_dup_display_name (dc_document_get_font (document, s->font));
  /* Translators: a glyph's character code in hexadecimal, then its font's name. */
  return g_strdup_printf (_("Code 0x%0*X · %s"), (int) s->code_len * 2, s->code, name);
}

/* The value as it reads on screen: marks on a dotted circle, spaces and empty values
 * named, since neither is visible. Unknown is "?". */
char *
decipher_labels_dup_value (DcKey *key, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (key), NULL);

  return decipher_labels_dup_text (dc_key_peek_value (key, symbol));
}

/**
 * decipher_labels_dup_split:
 *
 * Returns: (transfer full) (nullable): a sentence saying that the occurrence @glyph reads
 *   otherwise than its symbol and what each reads, or %NULL when it reads as its symbol
 */
char *
decipher_labels_dup_split (DcKey *key, guint glyph)
{
  const char *split;
  guint symbol;
  g_autofree char *own = NULL;
  g_autofree char *symbol_value = NULL;

  g_return_val_if_fail (DC_IS_KEY (key), NULL);

  split = dc_key_get_split (key, glyph, NULL);
  if (split == NULL)
    return NULL;
  symbol = dc_document_get_glyphs (dc_key_get_document (key), NULL)[glyph].symbol;
  own = decipher_labels_dup_text (split);
  symbol_value = decipher_labels_dup_value (key, symbol);
  /* Translators: in the glyph popover and for a screen reader, of one occurrence the user
   * split off its symbol: what it reads, then what its symbol reads ("?" while unknown). */
  return g_strdup_printf (_("This occurrence reads “%s”: it is split off its symbol, which "
                            "reads “%s”."),
                             own, symbol_value);
}

/* A value as a label shows it: "?" while unknown, "none", "space", a mark on a circle. */
char *
decipher_labels_dup_text (const char *value)
{
  gunichar c;

  if (value == NULL)
    return g_strdup ("?");
  if (*value == '\0')
    /* Translators: the value of a glyph that is ignored in the text. */
    return g_strdup (_("none"));
  c = g_utf8_get_char (value);
  if (g_unichar_isspace (c) && value[g_unichar_to_utf8 (c, NULL)] == '\0')
    /* Translators: the value of a space glyph. */
    return g_strdup (_("space"));
  if (g_unichar_ismark (c))
    return g_strconcat ("\u25CC", value, NULL);
  return g_strdup (value);
}

/* What a value rests on (DESIGN §7), for a tooltip: "Inferred, from the font's own tables". */
const char *
decipher_labels_level (DcKeyLevel level)
{
  switch (level)
    {
    case DC_KEY_LEVEL_GUESS:
      return _("guessed from the layout of the pages");
    case DC_KEY_LEVEL_SHAPE:
      return _("read from the glyph's shape");
    case DC_KEY_LEVEL_IDENTITY:
      return _("the same outline in an installed font");
    case DC_KEY_LEVEL_LAYOUT:
      return _("from a standard layout of the font's codes");
    case DC_KEY_LEVEL_FONT:
      return _("from the font's own tables");
    case DC_KEY_LEVEL_LIBRARY:
      return _("from your font library");
    case DC_KEY_LEVEL_PDF:
      return _("from the PDF's text map");
    case DC_KEY_LEVEL_USER:
      return _("decided by you");
    case DC_KEY_LEVEL_NONE:
    default:
      return "";
    }
}

/* A value's status as a word, for cells, popovers and the strip. */
const char *
decipher_labels_status (DcKeyStatus status)
{
  switch (status)
    {
    case DC_KEY_UNKNOWN:
      return _("Unknown");
    case DC_KEY_FROM_PDF:
      return _("From the PDF");
    case DC_KEY_PROPOSED:
      return _("Proposed");
    case DC_KEY_INFERRED:
      return _("Inferred");
    case DC_KEY_CONFIRMED:
      return _("Confirmed");
    default:
      return "";
    }
}
