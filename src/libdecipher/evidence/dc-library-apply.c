/* dc-library-apply.c: the font library replayed into a new document's key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/font-library.md, "In a session". What the user decided applies at the library
 * level; what was only accepted from a proposal comes back as the proposal it was (issue
 * 28). One shape may hold values of several scripts: the script a font's other letters
 * are read in chooses.
 */

#define G_LOG_DOMAIN "dc-library"

#include "config.h"

#include <string.h>

#include "dc-library-private.h"

/* The script most of @font's known values are in, else the document's. */
static const char *
font_script (guint font, GHashTable *per_font, const char **document_script)
{
  gpointer found;

  if (g_hash_table_lookup_extended (per_font, GUINT_TO_POINTER (font), NULL, &found))
    return found ? found : *document_script;
  return *document_script;
}

static void
count_scripts (DcKey *key, GHashTable *per_font, const char **document_script)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) totals = g_hash_table_new (g_str_hash, g_str_equal);
  const DcSymbol *symbols;
  guint n_symbols, best_total = 0;
  GHashTableIter iter;
  gpointer k, v;

  symbols = dc_document_get_symbols (document, &n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *script = dc_library_script_of_value (dc_key_get_value (key, s));
      char *name;
      guint n;

      if (script == NULL)
        continue;
      name = g_strdup_printf ("%u/%s", symbols[s].font, script);
      n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;
      g_hash_table_replace (counts, name, GUINT_TO_POINTER (n));
      n = GPOINTER_TO_UINT (g_hash_table_lookup (totals, script)) + 1;
      g_hash_table_replace (totals, (gpointer) script, GUINT_TO_POINTER (n));
      if (n > best_total)
        {
          best_total = n;
          *document_script = script;
        }
    }

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      const char *slash = strchr (k, '/');
      guint font = (guint) g_ascii_strtoull (k, NULL, 10);
      const char *script = g_intern_string (slash + 1);
      gpointer best;
      g_autofree char *best_name = NULL;

      if (g_hash_table_lookup_extended (per_font, GUINT_TO_POINTER (font), NULL, &best))
        {
          best_name = g_strdup_printf ("%u/%s", font, (const char *) best);
          if (GPOINTER_TO_UINT (g_hash_table_lookup (counts, best_name)) >= GPOINTER_TO_UINT (v))
            continue;
        }
      g_hash_table_replace (per_font, GUINT_TO_POINTER (font), (gpointer) script);
    }
}

static void
propose (DcKey *key, guint symbol, const char *value, DcKeyLevel level, double confidence)
{
  g_autofree char *provenance = NULL;

  if (confidence < 0)
    {
      /* What such a library claimed for every value before levels were measured. */
      confidence = 0.95;
      provenance = g_strdup ("library: the same glyph decided before, in a library that did "
                             "not record how sure");
    }
  else
    provenance = g_strdup_printf ("library: the same glyph accepted before from a proposal "
                                  "at %.0f%%",
                                  confidence * 100);
  dc_key_set_full (key, symbol, value, DC_KEY_PROPOSED, level, confidence, provenance, NULL);
}

/**
 * dc_library_apply:
 * @shapes: the shapes of @key's document
 *
 * Every symbol still unknown whose shape is in the library gets the value decided for
 * it. A value the user confirmed is applied at the library level; one accepted from a
 * proposal comes back as a proposal at its own level and confidence
 * (_dc_library_is_certain()), and a value an old library kept without saying how sure as a proposal
 * at the library level: a guess accepted once must not decode the next document by
 * itself. Call it within a change of @key to make it one undoable step.
 *
 * Returns: how many symbols it decoded
 */
guint
dc_library_apply (DcLibrary *self, DcShapes *shapes, DcKey *key)
{
  DcDocument *document;
  g_autoptr (GHashTable) per_font = g_hash_table_new (NULL, NULL);
  const char *document_script = NULL;
  const DcSymbol *symbols;
  g_autofree guint8 *absent = NULL;
  guint n_symbols, n = 0;

  g_return_val_if_fail (DC_IS_LIBRARY (self), 0);
  g_return_val_if_fail (shapes != NULL, 0);
  g_return_val_if_fail (DC_IS_KEY (key), 0);
  _dc_library_begin (self);

  document = dc_key_get_document (key);
  g_return_val_if_fail (dc_shapes_get_document (shapes) == document, 0);

  /* First the shapes the library knows in one script only; what they decode tells
   * which script each font is read in, which chooses for the shapes scripts share. */
  symbols = dc_document_get_symbols (document, &n_symbols);
  /* The shapes the library does not hold at all, as the first pass found them: the second
   * asked the library about them again (half of applying it, on a book of a few thousand
   * shapes, for nothing: the library does not change in between). */
  absent = g_new0 (guint8, MAX (1, n_symbols));
  for (guint pass = 0; pass < 2; pass++)
    {
      count_scripts (key, per_font, &document_script);
      for (guint s = 0; s < n_symbols; s++)
        {
          const DcShape *shape = dc_shapes_get_identity (shapes, s);
          g_autofree char *value = NULL;
          gboolean ambiguous = FALSE;
          DcKeyLevel level = DC_KEY_LEVEL_NONE;
          double confidence = 0;

          if (shape == NULL || absent[s] || dc_key_get_value (key, s) != NULL)
            continue;
          value = _dc_library_lookup (self, shape,
                                      font_script (symbols[s].font, per_font, &document_script),
                                      &ambiguous, &level, &confidence);
          if (value == NULL)
            absent[s] = 1;
          if (value == NULL || (ambiguous && pass == 0))
            continue;
          if (_dc_library_is_certain (level, confidence))
            {
              if (dc_key_set_full (key, s, value, DC_KEY_INFERRED, DC_KEY_LEVEL_LIBRARY, -1,
                                   "library: the same glyph decided before", NULL))
                n++;
            }
          else if (dc_key_get_status (key, s) != DC_KEY_PROPOSED)
            propose (key, s, value, level, confidence);
        }
    }
  return n;
}

/* ---- verified against the document ---------------------------------------------------- */

/* Fewer letters than this from evidence other than the library tell no script. */
#define VERIFY_MIN_LETTERS 5

/* A script with less than this share of those letters is not the one being read. */
#define VERIFY_MIN_SHARE 0.1

/* Whether @symbol's value is evidence of the script its font is read in, other than the
 * library's: the user's word, or a level applied by itself on the document's own
 * evidence (an untrusted font's PDF text never is: it is not in the key). */
static gboolean
tells_script (DcKey *key, guint symbol)
{
  switch (dc_key_get_status (key, symbol))
    {
    case DC_KEY_CONFIRMED:
      return TRUE;
    case DC_KEY_FROM_PDF:
    case DC_KEY_INFERRED:
      break;
    case DC_KEY_UNKNOWN:
    case DC_KEY_PROPOSED:
    default:
      return FALSE;
    }
  switch (dc_key_get_level (key, symbol))
    {
    case DC_KEY_LEVEL_USER:
    case DC_KEY_LEVEL_PDF:
    case DC_KEY_LEVEL_FONT:
    case DC_KEY_LEVEL_LAYOUT:
    case DC_KEY_LEVEL_IDENTITY:
      return TRUE;
    case DC_KEY_LEVEL_NONE:
    case DC_KEY_LEVEL_GUESS:
    case DC_KEY_LEVEL_SHAPE:
    case DC_KEY_LEVEL_LIBRARY:
    default:
      return FALSE;
    }
}

/* Per font (and at index n_fonts, the whole document): script → letters telling it. */
static GPtrArray *
count_telling_scripts (DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_fonts = dc_document_get_n_fonts (document), n_symbols;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);
  GPtrArray *counts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);

  for (guint f = 0; f <= n_fonts; f++)
    g_ptr_array_add (counts, g_hash_table_new (NULL, NULL));
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *script;
      GHashTable *tables[2];

      if (!tells_script (key, s)
          || (script = dc_library_script_of_value (dc_key_get_value (key, s))) == NULL)
        continue;
      tables[0] = g_ptr_array_index (counts, symbols[s].font);
      tables[1] = g_ptr_array_index (counts, n_fonts);
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (tables[i], script));

          g_hash_table_replace (tables[i], (gpointer) script, GUINT_TO_POINTER (n + 1));
        }
    }
  return counts;
}

static guint
sum_counts (GHashTable *counts)
{
  GHashTableIter iter;
  gpointer n;
  guint total = 0;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, NULL, &n))
    total += GPOINTER_TO_UINT (n);
  return total;
}

/* So many look-alikes and no other letter is the pattern of another script's document
 * (a letter or two the user taught in one of the same script is not). */
#define ONLY_LOOKALIKES_MIN 3

/* Letters that fonts often draw with one outline across Latin, Greek and Cyrillic. */
static const char homoglyphs[] = "ABCEHIJKMNOPSTXYZacehijkopsxy"
                                 "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧικνορτυχ"
                                 "АВЕЅІЈКМНОРСТУХаеѕіјкорсух";

static gboolean
is_homoglyph (const char *value)
{
  gunichar c = g_utf8_get_char (value);

  return value[0] != '\0' && *g_utf8_next_char (value) == '\0'
         && g_utf8_strchr (homoglyphs, -1, c) != NULL;
}

/* Whether, with nothing else telling @font's script, what the library gave it is only
 * look-alikes of other scripts' letters, several, fewer than the symbols left unknown: a document
 * in another script than the one they were decided in (issue 28: an English document's
 * a, p, o, x given to a Yakut one whose other letters nothing decodes). */
static gboolean
only_lookalikes (DcKey *key, guint font)
{
  DcDocument *document = dc_key_get_document (key);
  guint n_symbols, n_letters = 0, n_open = 0;
  const DcSymbol *symbols = dc_document_get_symbols (document, &n_symbols);

  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);

      if (symbols[s].font != font || !dc_document_symbol_needs_decoding (document, s))
        continue;
      if (value == NULL)
        n_open++;
      else if (dc_key_get_level (key, s) == DC_KEY_LEVEL_LIBRARY
               && dc_library_script_of_value (value) != NULL)
        {
          if (!is_homoglyph (value))
            return FALSE;
          n_letters++;
        }
    }
  return n_letters >= ONLY_LOOKALIKES_MIN && n_letters < n_open;
}

/* Whether the letters that tell @font's script (else the document's) say it is not
 * @script; %FALSE when too few tell. */
static gboolean
script_is_foreign (GPtrArray *counts, guint font, const char *script)
{
  GHashTable *telling = g_ptr_array_index (counts, font);
  guint total = sum_counts (telling);

  if (total < VERIFY_MIN_LETTERS)
    {
      telling = g_ptr_array_index (counts, counts->len - 1);
      total = sum_counts (telling);
    }
  if (total < VERIFY_MIN_LETTERS)
    return FALSE;
  return GPOINTER_TO_UINT (g_hash_table_lookup (telling, script)) < VERIFY_MIN_SHARE * total;
}

/**
 * dc_library_verify:
 * @key: a key the library, and then the document's own levels, were applied to
 *
 * A shape is the same in every script a font draws it for: its Greek Α, Latin A and
 * Cyrillic А are often one outline, and a value decided in a Greek document comes back
 * in a Cyrillic one in the same font (issue 28: the library level was right for 97.5 %
 * of its values). So after the other levels, each value the library applied in a script
 * the document's own evidence does not read is taken back: the letters the user, the PDF,
 * the font's tables, a layout or the installed fonts gave, the font's, else the whole
 * document's, count. Where nothing tells, a font given only look-alikes by the library
 * is not believed either (only_lookalikes()). dc_library_propose_demoted() proposes it once the
 * other levels had their chance at the symbol.
 *
 * Returns: (transfer full): symbol → the value taken back (for
 *   dc_library_propose_demoted())
 */
GHashTable *
dc_library_verify (DcKey *key)
{
  DcDocument *document;
  g_autoptr (GPtrArray) counts = NULL;
  g_autoptr (GHashTable) untold = NULL;
  GHashTable *demoted = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const DcSymbol *symbols;
  guint n_symbols;

  g_return_val_if_fail (DC_IS_KEY (key), demoted);

  document = dc_key_get_document (key);
  symbols = dc_document_get_symbols (document, &n_symbols);
  counts = count_telling_scripts (key);
  untold = g_hash_table_new (NULL, NULL);
  for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
    if (sum_counts (g_ptr_array_index (counts, f)) < VERIFY_MIN_LETTERS && only_lookalikes (key, f))
      g_hash_table_add (untold, GUINT_TO_POINTER (f));
  for (guint s = 0; s < n_symbols; s++)
    {
      const char *value = dc_key_get_value (key, s);
      const char *script;

      if (dc_key_get_status (key, s) != DC_KEY_INFERRED
          || dc_key_get_level (key, s) != DC_KEY_LEVEL_LIBRARY
          || (script = dc_library_script_of_value (value)) == NULL)
        continue;
      if (!script_is_foreign (counts, symbols[s].font, script)
          && !g_hash_table_contains (untold, GUINT_TO_POINTER (symbols[s].font)))
        continue;
      g_hash_table_insert (demoted, GUINT_TO_POINTER (s), g_strdup (value));
      dc_key_forget (key, s);
    }
  return demoted;
}

/**
 * dc_library_propose_demoted:
 * @demoted: what dc_library_verify() took back
 *
 * Proposes each value taken back where no level decoded the symbol since.
 */
void
dc_library_propose_demoted (DcKey *key, GHashTable *demoted)
{
  GHashTableIter iter;
  gpointer symbol, value;

  g_return_if_fail (DC_IS_KEY (key));
  g_return_if_fail (demoted != NULL);

  g_hash_table_iter_init (&iter, demoted);
  while (g_hash_table_iter_next (&iter, &symbol, &value))
    {
      guint s = GPOINTER_TO_UINT (symbol);
      g_autofree char *provenance = NULL;

      if (dc_key_get_status (key, s) != DC_KEY_UNKNOWN)
        continue;
      provenance = g_strdup_printf ("library: the same glyph decided before, as a letter of "
                                    "script %s, which this document's own evidence does not "
                                    "read",
                                    dc_library_script_of_value (value));
      dc_key_set_full (key, s, value, DC_KEY_PROPOSED, DC_KEY_LEVEL_LIBRARY,
                       DC_LIBRARY_DEMOTED_CONFIDENCE, provenance, NULL);
    }
}
