/* dc-references-verify.c: a font's own values checked against the installed outlines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-references.c, which keeps the index and looks outlines up in it. A value
 * a trusted ToUnicode or a cmap gave, whose outline the installed fonts draw only as
 * characters of another kind, is taken back and replaced at the identity level or
 * proposed (dc_references_verify()).
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include "dc-references-private.h"

#define prepare_outlines _dc_references_prepare_outlines
#define lookup_outline _dc_references_lookup_outline

/* What the outline check of dc_references_verify() compares of a character: a letter (or
 * a mark), a number, or anything else (punctuation, symbols). */
typedef enum
{
  KIND_LETTER,
  KIND_NUMBER,
  KIND_OTHER,
} Kind;

static Kind
kind_of (gunichar c)
{
  if (g_unichar_isalpha (c) || g_unichar_ismark (c))
    return KIND_LETTER;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
      return KIND_NUMBER;
    default:
      return KIND_OTHER;
    }
}

/* The characters the installed fonts draw with @shape's outline, lowest first. */
static GArray *
outline_characters (DcReferences *self, const DcShape *shape, char **family)
{
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (gunichar));
  g_autoptr (GPtrArray) values = NULL;
  g_autoptr (GPtrArray) families = NULL;

  lookup_outline (self, shape, &values, &families);
  for (guint i = 0; i < values->len; i++)
    {
      const char *value = g_ptr_array_index (values, i);
      gunichar c;

      if (value == NULL || g_utf8_strlen (value, -1) != 1)
        continue;
      c = g_utf8_get_char (value);
      if (chars->len == 0 || c < g_array_index (chars, gunichar, 0))
        {
          g_array_prepend_val (chars, c);
          g_free (*family);
          *family = g_strdup (g_ptr_array_index (families, i));
        }
      else
        g_array_append_val (chars, c);
    }
  return chars;
}

/* Whether one of @chars is of @kind. */
static gboolean
has_kind (GArray *chars, Kind kind)
{
  for (guint i = 0; i < chars->len; i++)
    if (kind_of (g_array_index (chars, gunichar, i)) == kind)
      return TRUE;
  return FALSE;
}

/* Whether @chars are all punctuation or symbols: a hyphen-minus, a hyphen and a minus
 * sign, which fonts draw with one outline and a text means alike where a letter was
 * claimed; the lowest, the ASCII one, stands for them (U+002D before U+2010). */
static gboolean
only_punctuation (GArray *chars)
{
  for (guint i = 0; i < chars->len; i++)
    if (kind_of (g_array_index (chars, gunichar, i)) != KIND_OTHER)
      return FALSE;
  return TRUE;
}

/* Stated for a font's own value (ToUnicode, cmap) that the outline contradicts, where no
 * installed font's outline decided it instead: the 2 bench/calibrate-levels.py met were
 * wrong (issue 28, À for ‐). */
#define CONTRADICTED_CONFIDENCE 0.05

/* A font's own value its outline contradicts. */
typedef struct
{
  guint symbol;
  char *value; /* as the font gave it */
  DcKeyLevel level;
  GArray *chars; /* what the installed fonts draw with the outline, lowest first */
  char *family;  /* of the lowest */
} Contradiction;

static void
contradiction_free (Contradiction *c)
{
  if (c == NULL) /* moved to the list kept */
    return;
  g_array_unref (c->chars);
  g_free (c->value);
  g_free (c->family);
  g_free (c);
}

/* Of a font whose outlines more than this share of its checked values contradict, the
 * outlines are what is wrong (a glyph found by another way than the PDF viewer's), not
 * the values: a ToUnicode that lies for one character is right for almost all the rest. */
#define MAX_CONTRADICTED_SHARE 0.1

/* And the outlines are only the font's glyphs where most of them are exactly the
 * character the font says (a glyph name read through another encoding than the PDF's
 * found μ's outline for "1"). */
#define MIN_AGREEING_SHARE 0.8

/* The values of levels pdf and font that their outlines contradict, in fonts where few
 * are (MAX_CONTRADICTED_SHARE) and most agree exactly (MIN_AGREEING_SHARE). */
static GPtrArray *
find_contradicted (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GPtrArray)
      found = g_ptr_array_new_with_free_func ((GDestroyNotify) contradiction_free);
  GPtrArray *kept = g_ptr_array_new_with_free_func ((GDestroyNotify) contradiction_free);
  g_autoptr (DcShapes) trusted = NULL;
  guint n_fonts = dc_document_get_n_fonts (document), n_symbols;
  g_autofree guint *checked = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *contradicted = g_new0 (guint, MAX (n_fonts, 1));
  g_autofree guint *agreeing = g_new0 (guint, MAX (n_fonts, 1));
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    {
      const DcShape *shape = dc_shapes_get_identity (shapes, s);
      const char *value = dc_key_get_value (key, s);
      DcKeyLevel level = dc_key_get_level (key, s);
      g_autoptr (GArray) chars = NULL;
      g_autofree char *family = NULL;
      Contradiction *c;

      if (value == NULL || g_utf8_strlen (value, -1) != 1 || symbols[s].font >= n_fonts
          || (level != DC_KEY_LEVEL_PDF && level != DC_KEY_LEVEL_FONT)
          || dc_key_get_status (key, s) == DC_KEY_CONFIRMED)
        continue;
      /* A trusted font's glyph names stand without its ToUnicode: the glyph they name
       * is found by them, where this check would look up another (μ's for "one"). */
      if (level == DC_KEY_LEVEL_FONT && !dc_document_symbol_needs_decoding (document, s))
        continue;
      /* The PDF's own text has no shapes made for it until it is checked. */
      if (shape == NULL && !dc_document_symbol_needs_decoding (document, s))
        {
          if (trusted == NULL)
            trusted = dc_shapes_new_trusted (document);
          shape = dc_shapes_get_identity (trusted, s);
        }
      if (shape == NULL || (chars = outline_characters (self, shape, &family))->len == 0)
        continue;
      checked[symbols[s].font]++;
      for (guint i = 0; i < chars->len; i++)
        if (g_array_index (chars, gunichar, i) == g_utf8_get_char (value))
          {
            agreeing[symbols[s].font]++;
            break;
          }
      if (has_kind (chars, kind_of (g_utf8_get_char (value))))
        continue;
      contradicted[symbols[s].font]++;
      c = g_new0 (Contradiction, 1);
      c->symbol = s;
      c->value = g_strdup (value);
      c->level = level;
      c->chars = g_steal_pointer (&chars);
      c->family = g_steal_pointer (&family);
      g_ptr_array_add (found, c);
    }
  for (guint i = 0; i < found->len; i++)
    {
      Contradiction *c = g_ptr_array_index (found, i);
      guint f = symbols[c->symbol].font;

      g_debug ("“%s” at symbol %u: its outline is U+%04X's (of %u, %u contradicted, %u agree)",
               c->value, c->symbol, g_array_index (c->chars, gunichar, 0), checked[f],
               contradicted[f], agreeing[f]);
      if (contradicted[f] <= MAX_CONTRADICTED_SHARE * checked[f]
          && agreeing[f] >= MIN_AGREEING_SHARE * checked[f])
        g_ptr_array_add (kept, g_steal_pointer (&found->pdata[i]));
    }
  return kept;
}

/**
 * dc_references_verify:
 * @shapes: the shapes of @key's document
 *
 * Checks every value a font's own evidence applied (a trusted ToUnicode, a cmap: levels
 * pdf and font) against the installed fonts: where the symbol's outline is an installed
 * font's glyph, and each character the installed fonts draw with it is of another kind
 * (a hyphen's outline, which the PDF calls À), the value is taken back. A ToUnicode right
 * for every character but one is still trusted as a whole; the one is not (issue 28); a
 * font most of whose outlines disagree is left as it is (find_contradicted()). The
 * outline's own character takes its place at the identity level when the installed fonts
 * agree on it (dc_references_apply() on the fonts values were taken back from, or
 * punctuation only: its lowest); failing that the value taken back is only proposed.
 * Call it within a change of @key, after dc_references_apply().
 *
 * Returns: how many symbols the identity level decoded in place of a value taken back
 */
guint
dc_references_verify (DcReferences *self, DcShapes *shapes, DcKey *key)
{
  g_autoptr (GPtrArray) contradicted = NULL;
  g_autofree gboolean *fonts = NULL;
  const DcSymbol *symbols;
  guint n = 0;

  g_return_val_if_fail (DC_IS_REFERENCES (self), 0);
  g_return_val_if_fail (shapes != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);

  if (!prepare_outlines (self))
    return 0;
  _dc_references_begin_reading (self);
  contradicted = find_contradicted (self, shapes, key);
  _dc_references_end_reading (self);
  if (contradicted->len == 0)
    return 0;
  symbols = dc_document_get_symbols (dc_key_get_document (key), NULL);
  fonts = g_new0 (gboolean, MAX (1, dc_document_get_n_fonts (dc_key_get_document (key))));
  for (guint i = 0; i < contradicted->len; i++)
    {
      const Contradiction *c = g_ptr_array_index (contradicted, i);
      g_autofree char *provenance = NULL;
      char own[8];

      fonts[symbols[c->symbol].font] = TRUE;
      dc_key_take_back (key, c->symbol);
      if (!only_punctuation (c->chars))
        continue;
      own[g_unichar_to_utf8 (g_array_index (c->chars, gunichar, 0), own)] = '\0';
      provenance = g_strdup_printf ("identity: the same outline as in the installed font %s, "
                                    "not the PDF's “%s”",
                                    c->family != NULL ? c->family : "?", c->value);
      if (dc_key_set_full (key, c->symbol, own, DC_KEY_INFERRED, DC_KEY_LEVEL_IDENTITY, -1,
                           provenance, NULL))
        n++;
    }
  n += _dc_references_apply_to_fonts (self, shapes, key, fonts);
  for (guint i = 0; i < contradicted->len; i++)
    {
      const Contradiction *c = g_ptr_array_index (contradicted, i);
      g_autofree char *provenance = NULL;

      if (dc_key_get_status (key, c->symbol) != DC_KEY_UNKNOWN)
        continue;
      provenance = g_strdup_printf ("%s: “%s”, which no installed font with this outline draws",
                                    c->level == DC_KEY_LEVEL_PDF ? "pdf" : "font", c->value);
      dc_key_set_full (key, c->symbol, c->value, DC_KEY_PROPOSED, c->level, CONTRADICTED_CONFIDENCE,
                       provenance, NULL);
    }
  return n;
}
