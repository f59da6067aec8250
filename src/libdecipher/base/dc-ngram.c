/* dc-ngram.c: how much a text reads like a language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The language fingerprints libexttextcat-data ships (the detector's, dc-language.c) are
 * the 400 commonest character n-grams of each of ~170 languages with how often each was
 * seen in its training text: a small language model each. A text's n-grams (one to three
 * characters of its words, lower case, "_" at both ends of a word) are scored by their
 * log frequency in a language, and one not in its list by half the rarest listed: a
 * reading of a font that is a real language scores far above one that is code-page soup
 * (Latin-1 letters for Cyrillic, or KOI8's letters for windows-1251's), even for a
 * language that has no fingerprint of its own but shares its script's common n-grams.
 */

#define G_LOG_DOMAIN "dc-ngram"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-ngram-private.h"
#include "dc-tsan-private.h"

#define MAX_N 3
/* A character inside a word that is no letter of the language's script (¾ or ѕ's Latin
 * twin in a Cyrillic word) costs this much more than an unlisted letter: the lists are
 * too short to tell an unlisted letter of the alphabet from a stray symbol. */
#define OUT_OF_SCRIPT_COST 3.0
/* A letter no language lists at all (archaic ѳ beside Kazakh ө, drawn alike) costs this. */
#define UNKNOWN_LETTER_COST 1.5

typedef struct
{
  guint16 language;
  float weight; /* log frequency less the language's floor: > 0 */
} Entry;

typedef struct
{
  GPtrArray *names;    /* language names, as fpdb.conf gives them */
  GArray *floors;      /* double: the score of an n-gram a language does not list */
  GArray *scripts;     /* GUnicodeScript: the script of a language's commonest letter */
  GHashTable *letters; /* gunichar: every letter some language lists */
  GHashTable *ngrams;  /* UTF-8 n-gram → GArray of Entry */
} Models;

static void
read_model (Models *models, const char *path, const char *name)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  double total = 0, rarest = G_MAXDOUBLE, floor_, commonest = 0;
  GUnicodeScript script = G_UNICODE_SCRIPT_COMMON;
  guint16 language = (guint16) models->names->len;

  if (!g_file_get_contents (path, &contents, NULL, NULL) || !g_utf8_validate (contents, -1, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *tab = strchr (lines[i], '\t');
      double count;
      g_autofree char *ngram = NULL;

      if (tab == NULL || tab == lines[i] || (count = g_ascii_strtod (tab + 1, NULL)) <= 0)
        continue;
      ngram = g_utf8_strdown (lines[i], tab - lines[i]);
      if (g_utf8_strlen (ngram, -1) > MAX_N || g_hash_table_contains (counts, ngram))
        continue;
      if (g_utf8_strlen (ngram, -1) == 1 && strcmp (ngram, "_") != 0)
        {
          if (g_unichar_isalpha (g_utf8_get_char (ngram)))
            g_hash_table_add (models->letters, GUINT_TO_POINTER (g_utf8_get_char (ngram)));
          total += count;
          if (count > commonest && g_unichar_isalpha (g_utf8_get_char (ngram)))
            {
              commonest = count;
              script = g_unichar_get_script (g_utf8_get_char (ngram));
            }
        }
      rarest = MIN (rarest, count);
      g_hash_table_insert (counts, g_steal_pointer (&ngram), GINT_TO_POINTER ((gint) count));
    }
  if (total <= 0)
    return;
  floor_ = log (rarest / 2 / total);
  g_ptr_array_add (models->names, g_strdup (name));
  g_array_append_val (models->floors, floor_);
  g_array_append_val (models->scripts, script);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *entries = g_hash_table_lookup (models->ngrams, key);
      Entry entry = { language, (float) (log (GPOINTER_TO_INT (value) / total) - floor_) };

      if (entry.weight <= 0)
        continue;
      if (entries == NULL)
        {
          entries = g_array_new (FALSE, FALSE, sizeof (Entry));
          g_hash_table_insert (models->ngrams, g_strdup (key), entries);
        }
      g_array_append_val (entries, entry);
    }
}

/* Read once per process: ~170 small files, a few milliseconds. */
static Models *
models (void)
{
  static gsize once = 0;
  static Models *models = NULL;

  if (g_once_init_enter (&once))
    {
      Models *m = g_new0 (Models, 1);
#ifdef HAVE_EXTTEXTCAT
      const char *dir = g_getenv ("DECIPHER_TEXTCAT_DIR");
      g_autofree char *conf = g_build_filename (dir != NULL ? dir : TEXTCAT_DATADIR, "fpdb.conf",
                                                NULL);
      g_autofree char *contents = NULL;
#endif

      m->names = g_ptr_array_new_with_free_func (g_free);
      m->floors = g_array_new (FALSE, FALSE, sizeof (double));
      m->scripts = g_array_new (FALSE, FALSE, sizeof (GUnicodeScript));
      m->letters = g_hash_table_new (NULL, NULL);
      m->ngrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_array_unref);
#ifdef HAVE_EXTTEXTCAT
      if (g_file_get_contents (conf, &contents, NULL, NULL))
        {
          g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);

          for (guint i = 0; lines[i] != NULL; i++)
            {
              g_auto (GStrv) fields = NULL;
              char *comment = strchr (lines[i], '#');

              if (comment != NULL)
                *comment = '\0';
              g_strdelimit (lines[i], "\t", ' ');
              fields = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
              if (fields[0] != NULL && fields[0][0] != '\0')
                {
                  const char *name = NULL;
                  g_autofree char *path = NULL;

                  for (guint f = 1; fields[f] != NULL && name == NULL; f++)
                    if (fields[f][0] != '\0')
                      name = fields[f];
                  path = g_build_filename (dir != NULL ? dir : TEXTCAT_DATADIR, fields[0], NULL);
                  if (name != NULL && g_str_has_suffix (name, "utf8"))
                    read_model (m, path, name);
                }
            }
        }
#endif
      if (m->names->len == 0)
        g_debug ("no language models: code page layouts are proposed, never applied");
      models = m;
      DC_ONCE_LEAVE (&once, 1);
    }
  DC_ONCE_ENTERED (&once);
  return models;
}

/**
 * _dc_ngram_n_languages:
 *
 * Returns: how many language models there are (0 without libexttextcat's data)
 */
guint
_dc_ngram_n_languages (void)
{
  return models ()->names->len;
}

const char *
_dc_ngram_language_name (guint language)
{
  Models *m = models ();

  g_return_val_if_fail (language < m->names->len, NULL);
  return g_ptr_array_index (m->names, language);
}

static void
add_ngram (Models *m, const gunichar *chars, guint n, double *totals)
{
  char utf8[MAX_N * 6 + 1];
  gsize len = 0;
  GArray *entries;
  const double *floors = (const double *) (void *) m->floors->data;
  const GUnicodeScript *scripts = (const GUnicodeScript *) (void *) m->scripts->data;
  /* What the character is, asked once rather than once per language (there are ~170):
   * that was a third of the automatic pass on a book in many fonts. */
  gboolean single = n == 1 && !g_unichar_isdigit (chars[0]);
  gboolean letter = single && g_unichar_isalpha (chars[0]);
  GUnicodeScript script = letter ? g_unichar_get_script (chars[0]) : G_UNICODE_SCRIPT_COMMON;
  gboolean listed = letter && g_hash_table_contains (m->letters, GUINT_TO_POINTER (chars[0]));

  for (guint i = 0; i < n; i++)
    len += g_unichar_to_utf8 (chars[i], utf8 + len);
  utf8[len] = '\0';
  for (guint l = 0; l < m->names->len; l++)
    {
      totals[l] += floors[l];
      if (single)
        {
          if (!letter || script != scripts[l])
            totals[l] -= OUT_OF_SCRIPT_COST;
          else if (!listed)
            totals[l] -= UNKNOWN_LETTER_COST;
        }
    }
  entries = g_hash_table_lookup (m->ngrams, utf8);
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      const Entry *entry = &g_array_index (entries, Entry, i);

      totals[entry->language] += entry->weight;
    }
}

/**
 * _dc_ngram_score:
 * @text: words separated by spaces (U+0020); any other character is part of a word
 * @totals: (array): one per language; each language's log likelihood of @text is added
 *
 * Returns: how many n-grams were scored
 */
guint
_dc_ngram_score (const gunichar *text, gsize length, double *totals)
{
  Models *m = models ();
  g_autofree gunichar *word = g_new (gunichar, length + 2);
  guint n_scored = 0;
  gsize i = 0;

  g_return_val_if_fail (text != NULL || length == 0, 0);

  while (i < length)
    {
      gsize start, len = 0;

      while (i < length && text[i] == ' ')
        i++;
      start = i;
      while (i < length && text[i] != ' ')
        i++;
      if (i == start)
        break;
      word[len++] = '_';
      for (gsize k = start; k < i; k++)
        word[len++] = g_unichar_tolower (text[k]);
      word[len++] = '_';
      for (guint n = 1; n <= MAX_N; n++)
        for (gsize k = 0; k + n <= len; k++)
          if (n > 1 || word[k] != '_')
            {
              add_ngram (m, word + k, n, totals);
              n_scored++;
            }
    }
  return n_scored;
}
