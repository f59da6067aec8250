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
      confidence = dc_key_level_get_default_confidence (DC_KEY_LEVEL_LIBRARY);
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
 * it. A value the user confirmed is applied at the library level (DESIGN §7: 0.95); one
 * accepted from a proposal less sure than that comes back as a proposal at its own level
 * and confidence, and a value an old library kept without saying how sure as a proposal
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
  for (guint pass = 0; pass < 2; pass++)
    {
      count_scripts (key, per_font, &document_script);
      for (guint s = 0; s < n_symbols; s++)
        {
          const DcShape *shape = dc_shapes_get (shapes, s);
          g_autofree char *value = NULL;
          gboolean ambiguous = FALSE;
          DcKeyLevel level = DC_KEY_LEVEL_NONE;
          double confidence = 0;

          if (shape == NULL || dc_key_get_value (key, s) != NULL)
            continue;
          value = _dc_library_lookup (self, shape,
                                      font_script (symbols[s].font, per_font, &document_script),
                                      &ambiguous, &level, &confidence);
          if (value == NULL || (ambiguous && pass == 0))
            continue;
          if (confidence >= DC_LIBRARY_CERTAIN)
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
