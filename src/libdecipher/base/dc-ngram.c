/* dc-ngram.c: how much a text reads like a language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The language fingerprints libexttextcat-data ships (the detector's, dc-language.c) are
 * the 400 commonest character n-grams of each of ~170 languages, for 41 of them with how
 * often each was seen in its training text, for the others in order only (read_model()
 * gives those the counts of their ranks): a small language model each. A text's n-grams
 * (one to three characters of its words, lower case, "_" at both ends of a word) are
 * scored by their log frequency in a language, and one not in its list by half the
 * rarest listed: a reading of a font that is a real language scores far above one that
 * is code-page soup (Latin-1 letters for Cyrillic, or KOI8's letters for windows-1251's),
 * even for a language that has no fingerprint of its own but shares its script's common
 * n-grams.
 */

#define G_LOG_DOMAIN "dc-ngram"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-ngram-look-private.h"
#include "dc-ngram-private.h"
#include "dc-tsan-private.h"

#define MAX_N DC_NGRAM_MAX_N
#define look_up_word _dc_ngram_look_up_word
#define make_terms _dc_ngram_make_terms
#define add_looked _dc_ngram_add_looked
/* A character inside a word that is no letter of the language's script (¾ or ѕ's Latin
 * twin in a Cyrillic word) costs this much more than an unlisted letter: the lists are
 * too short to tell an unlisted letter of the alphabet from a stray symbol. */
#define OUT_OF_SCRIPT_COST 3.0
/* A letter no language lists at all (archaic ѳ beside Kazakh ө, drawn alike) costs this. */
#define UNKNOWN_LETTER_COST 1.5

typedef DcNgramEntry Entry;
typedef DcNgramModels Models;

/* An n-gram of up to MAX_N characters (21 bits each, none of them 0) as one number. */
static guint64
pack (const gunichar *chars, guint n)
{
  guint64 key = 0;

  for (guint i = 0; i < n; i++)
    key = (key << 21) | (chars[i] & 0x1FFFFF);
  return key;
}

static gsize
slot_of (guint64 key, gsize mask)
{
  return (gsize) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & mask;
}

/* Moves the n-grams read into the packed table, in the order each n-gram's entries were
 * read (the languages' order, which the sums do not depend on: a language lists an
 * n-gram once). */
static void
pack_models (Models *m)
{
  GHashTableIter iter;
  gpointer key, value;
  gsize size = 64, n_entries = 0, next = 0;

  while (size < 2 * (gsize) g_hash_table_size (m->ngrams))
    size *= 2;
  m->mask = size - 1;
  m->keys = g_new0 (guint64, size);
  m->starts = g_new0 (guint32, size);
  m->counts = g_new0 (guint32, size);
  g_hash_table_iter_init (&iter, m->ngrams);
  while (g_hash_table_iter_next (&iter, &key, &value))
    n_entries += ((GArray *) value)->len;
  m->entries = g_new (Entry, MAX (1, n_entries));
  g_hash_table_iter_init (&iter, m->ngrams);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *entries = value;
      gunichar chars[MAX_N];
      guint n = 0;
      gsize slot;
      guint64 packed;

      for (const char *p = key; *p != '\0' && n < MAX_N; p = g_utf8_next_char (p))
        chars[n++] = g_utf8_get_char (p);
      packed = pack (chars, n);
      for (slot = slot_of (packed, m->mask); m->keys[slot] != 0; slot = (slot + 1) & m->mask)
        ;
      m->keys[slot] = packed;
      m->starts[slot] = (guint32) next;
      m->counts[slot] = entries->len;
      memcpy (m->entries + next, entries->data, entries->len * sizeof (Entry));
      next += entries->len;
    }
  m->n_entries = n_entries;
  g_clear_pointer (&m->ngrams, g_hash_table_unref);
}

/* The entries of the n-gram @key, or none. */
static const Entry *
lookup (const Models *m, guint64 key, guint *n)
{
  for (gsize slot = slot_of (key, m->mask); m->keys[slot] != 0; slot = (slot + 1) & m->mask)
    if (m->keys[slot] == key)
      {
        *n = m->counts[slot];
        return m->entries + m->starts[slot];
      }
  *n = 0;
  return NULL;
}

/* How the counts of the lists that give them fall with the rank: log count against log
 * rank, fitted on each of the 41 such lists of libexttextcat 3.4, from -0.98 to -0.88,
 * -0.91 the median. The count given the first rank only sets the scale, which a model's
 * weights do not depend on (each is a count over the letters' total): large enough that
 * the counts, kept whole, keep their ratios. */
#define ZIPF_EXPONENT (-0.91)
#define RANKED_TOP 1000000.0

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
  gboolean ranked;
  guint rank = 0;

  if (!g_file_get_contents (path, &contents, NULL, NULL) || !g_utf8_validate (contents, -1, NULL))
    return;
  /* Most of the lists give no counts, only their n-grams commonest first (no tab on any
   * line): Hindi, Arabic, Tamil, Ukrainian, Japanese… Left out, a page in one of those
   * scripts was read in whichever Latin model cost it least, which told a Tamil letter
   * from the digit drawn like it the wrong way round. Each is given the counts its ranks
   * would have in the lists that give them, which fall as the rank to the power
   * ZIPF_EXPONENT (RANKED_TOP at the first). */
  ranked = strchr (contents, '\t') == NULL;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *tab = ranked ? lines[i] + strlen (lines[i]) : strchr (lines[i], '\t');
      double count;
      g_autofree char *ngram = NULL;
      glong length;

      if (tab == NULL || tab == lines[i])
        continue;
      count = ranked ? RANKED_TOP * pow (++rank, ZIPF_EXPONENT) : g_ascii_strtod (tab + 1, NULL);
      if (count <= 0)
        continue;
      ngram = g_utf8_strdown (lines[i], tab - lines[i]);
      length = g_utf8_strlen (ngram, -1);
      if (length > MAX_N || g_hash_table_contains (counts, ngram))
        continue;
      if (length == 1 && strcmp (ngram, "_") != 0)
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

#ifdef HAVE_EXTTEXTCAT
/* Reads the models fpdb.conf in @dir lists, recording in @stamp each file before it is
 * read. */
static void
read_models (Models *m, const char *dir, GString *stamp)
{
  g_autofree char *conf = g_build_filename (dir, "fpdb.conf", NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  _dc_ngram_stamp_add (stamp, conf);
  if (!g_file_get_contents (conf, &contents, NULL, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
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
          path = g_build_filename (dir, fields[0], NULL);
          if (name != NULL && g_str_has_suffix (name, "utf8"))
            {
              _dc_ngram_stamp_add (stamp, path);
              read_model (m, path, name);
            }
        }
    }
}
#endif

/* Read once per process: from the cache file (dc-ngram-cache.c) while the model files
 * are as they were when it was written, else from ~170 small files, some milliseconds. */
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
      /* A relative folder would be another one in another working folder. */
      g_autofree char *cache = g_path_is_absolute (dir != NULL ? dir : TEXTCAT_DATADIR)
                                   ? _dc_ngram_cache_path ()
                                   : NULL;
      g_autoptr (GString) stamp = NULL;
#endif

      m->names = g_ptr_array_new_with_free_func (g_free);
      m->floors = g_array_new (FALSE, FALSE, sizeof (double));
      m->scripts = g_array_new (FALSE, FALSE, sizeof (GUnicodeScript));
      m->letters = g_hash_table_new (NULL, NULL);
#ifdef HAVE_EXTTEXTCAT
      if (cache == NULL || !_dc_ngram_cache_load (m, cache, dir != NULL ? dir : TEXTCAT_DATADIR))
        {
          m->ngrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_array_unref);
          stamp = _dc_ngram_stamp_new (dir != NULL ? dir : TEXTCAT_DATADIR);
          read_models (m, dir != NULL ? dir : TEXTCAT_DATADIR, stamp);
          pack_models (m);
          if (cache != NULL)
            _dc_ngram_cache_save (m, cache, stamp->str);
        }
#else
      m->ngrams = g_hash_table_new (g_str_hash, g_str_equal);
      pack_models (m);
#endif
      if (m->names->len == 0)
        g_debug ("no language models: code page layouts are proposed, never applied");
      models = m;
      DC_ONCE_LEAVE (&once, 1);
    }
  DC_ONCE_ENTERED (&once);
  return models;
}

/* The models, read if no call has: for dc-ngram-words.c. */
Models *
_dc_ngram_models (void)
{
  return models ();
}

/**
 * _dc_ngram_models_from_cache:
 *
 * Reads the models if no call has.
 *
 * Returns: whether they were read from the cache file rather than the model files
 */
gboolean
_dc_ngram_models_from_cache (void)
{
  return models ()->from_cache;
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

/* The script of @language's commonest letter: the letters its model knows. */
GUnicodeScript
_dc_ngram_language_script (guint language)
{
  Models *m = models ();

  g_return_val_if_fail (language < m->scripts->len, G_UNICODE_SCRIPT_INVALID_CODE);
  return g_array_index (m->scripts, GUnicodeScript, language);
}

static void
add_ngram (Models *m, const gunichar *chars, guint n, double *totals)
{
  const Entry *entries;
  guint n_entries;
  const double *floors = (const double *) (void *) m->floors->data;
  const GUnicodeScript *scripts = (const GUnicodeScript *) (void *) m->scripts->data;
  /* What the character is, asked once rather than once per language (there are ~170):
   * that was a third of the automatic pass on a book in many fonts. */
  gboolean single = n == 1 && !g_unichar_isdigit (chars[0]);
  gboolean letter = single && g_unichar_isalpha (chars[0]);
  GUnicodeScript script = letter ? g_unichar_get_script (chars[0]) : G_UNICODE_SCRIPT_COMMON;
  gboolean listed = letter && g_hash_table_contains (m->letters, GUINT_TO_POINTER (chars[0]));

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
  entries = lookup (m, pack (chars, n), &n_entries);
  for (guint i = 0; i < n_entries; i++)
    totals[entries[i].language] += entries[i].weight;
}

/* The entries of the n-gram @key, or none. */
static Run
lookup_run (const Models *m, guint64 key)
{
  for (gsize slot = slot_of (key, m->mask); m->keys[slot] != 0; slot = (slot + 1) & m->mask)
    if (m->keys[slot] == key)
      return (Run){ m->starts[slot], m->counts[slot] };
  return (Run){ 0, 0 };
}

/* What look_up_word() asks of a character: its lower case, and of that whether it is a
 * digit, a letter, listed by a language (m->letters), its script, and its entries as an
 * n-gram alone. */
typedef struct
{
  gunichar lower;
  guint16 script;
  guint8 flags;
  Run single;
} CharInfo;

enum
{
  CHAR_DIGIT = 1 << 0,
  CHAR_ALPHA = 1 << 1,
  CHAR_LISTED = 1 << 2,
};

static CharInfo
char_info_new (Models *m, gunichar c)
{
  gunichar u = g_unichar_tolower (c);
  gboolean alpha = g_unichar_isalpha (u);
  CharInfo info = {
    u,
    alpha ? (guint16) g_unichar_get_script (u) : 0,
    (g_unichar_isdigit (u) ? CHAR_DIGIT : 0) | (alpha ? CHAR_ALPHA : 0)
        | (alpha && g_hash_table_contains (m->letters, GUINT_TO_POINTER (u)) ? CHAR_LISTED : 0),
    { 0, 0 },
  };

  info.single = lookup_run (m, pack (&u, 1));
  return info;
}

/* @c's CharInfo: four calls and a hash lookup a character were two thirds of looking a
 * word up. Made a block of 256 at a time, from any thread. */
static CharInfo
char_info (Models *m, gunichar c)
{
  CharInfo *block;

  if (c >= 0x10000)
    return char_info_new (m, c);
  block = g_atomic_pointer_get (&m->char_blocks[c >> 8]);
  if (G_UNLIKELY (block == NULL))
    {
      block = g_new (CharInfo, 256);
      for (guint i = 0; i < 256; i++)
        block[i] = char_info_new (m, (c & ~0xFFu) | i);
      if (!g_atomic_pointer_compare_and_exchange (&m->char_blocks[c >> 8], NULL, block))
        {
          g_free (block);
          block = g_atomic_pointer_get (&m->char_blocks[c >> 8]);
        }
    }
  return block[c & 0xFF];
}

/* Looks up @word's n-grams into @runs (room for MAX_N * (length + 2)) and counts its lone
 * characters into @counts (room for @length). */
void
look_up_word (Models *m, const gunichar *word, gsize length, gunichar *chars, Run *runs,
              ScriptCount *counts, Looked *looked)
{
  guint n_counts = 0, n_singles = 0, n_ngrams = 0, n_runs = 0;
  gsize len = 0;

  chars[len++] = '_';
  for (gsize k = 0; k < length; k++)
    {
      CharInfo info = char_info (m, word[k]);
      gunichar u = info.lower;
      GUnicodeScript script;
      guint c;

      chars[len++] = u;
      /* The n-grams of one character first, in the order they stand; a "_" is none: it
       * stands for a word's edge. */
      if (u != '_')
        {
          runs[n_runs] = info.single;
          n_runs += info.single.n_entries > 0;
          n_ngrams++;
        }
      if (u == '_' || (info.flags & CHAR_DIGIT))
        continue;
      n_singles++;
      if (!(info.flags & CHAR_ALPHA))
        continue;
      script = (GUnicodeScript) info.script;
      for (c = 0; c < n_counts && counts[c].script != script; c++)
        ;
      if (c == n_counts)
        counts[n_counts++] = (ScriptCount){ script, 0, 0 };
      counts[c].letters++;
      counts[c].unlisted += !(info.flags & CHAR_LISTED);
    }
  chars[len++] = '_';
  for (guint n = 2; n <= MAX_N; n++)
    for (gsize k = 0; k + n <= len; k++)
      {
        runs[n_runs] = lookup_run (m, pack (chars + k, n));
        n_runs += runs[n_runs].n_entries > 0;
        n_ngrams++;
      }
  *looked = (Looked){ runs, n_runs, counts, n_counts, n_ngrams, n_singles };
}

/* Adds @weight times what the word @looked up adds to each language. Every word's sums go
 * through this one function, so a word looked up once and added again later
 * (_dc_ngram_words_score()) adds exactly what scoring it again would, in the same order,
 * bit for bit: the readings compare sums that differ in their last bits. */
/* What a word of one script or none adds to each language per time it stands, beyond its
 * listed n-grams' weights: every n-gram's floor, and each lone character's cost, out of
 * its script (or no letter) or a letter no language lists; there each language's cost is
 * one of two numbers. Into @terms, one per language. */
void
make_terms (Models *m, const Looked *looked, double *terms)
{
  const double *floors = (const double *) (void *) m->floors->data;
  const GUnicodeScript *scripts = (const GUnicodeScript *) (void *) m->scripts->data;
  const ScriptCount *counts = looked->counts;
  double n_ngrams = looked->n_ngrams;
  double cost = OUT_OF_SCRIPT_COST * looked->n_singles;
  double own = cost;
  GUnicodeScript script = looked->n_counts == 1 ? counts[0].script : G_UNICODE_SCRIPT_INVALID_CODE;

  g_assert (looked->n_counts <= 1);
  if (looked->n_counts == 1)
    own -= OUT_OF_SCRIPT_COST * counts[0].letters - UNKNOWN_LETTER_COST * counts[0].unlisted;
  for (guint l = 0; l < m->names->len; l++)
    terms[l] = n_ngrams * floors[l] - (scripts[l] == script ? own : cost);
}

G_GNUC_NO_INLINE void
add_looked (Models *m, const Looked *looked, const double *terms, double weight, double *totals)
{
  const double *floors = (const double *) (void *) m->floors->data;
  const GUnicodeScript *scripts = (const GUnicodeScript *) (void *) m->scripts->data;
  const ScriptCount *counts = looked->counts;

  /* The n-grams' listed weights first, in the order they stand. */
  for (guint r = 0; r < looked->n_runs; r++)
    {
      const Entry *entries = m->entries + looked->runs[r].first;

      for (guint i = 0; i < looked->runs[r].n_entries; i++)
        totals[entries[i].language] += weight * entries[i].weight;
    }
  /* Then every n-gram's floor and each lone character's cost in each language. A word's
   * letters are mostly of one script or none: there each language's cost is one of two
   * numbers, told without the loop over scripts, or @terms has them made (make_terms(),
   * the same operations on the same numbers, so the same sums). */
  if (terms != NULL)
    {
      for (guint l = 0; l < m->names->len; l++)
        totals[l] += weight * terms[l];
      return;
    }
  if (looked->n_counts <= 1)
    {
      double n_ngrams = looked->n_ngrams;
      double cost = OUT_OF_SCRIPT_COST * looked->n_singles;
      double own = cost;
      GUnicodeScript script = looked->n_counts == 1 ? counts[0].script
                                                    : G_UNICODE_SCRIPT_INVALID_CODE;

      if (looked->n_counts == 1)
        own -= OUT_OF_SCRIPT_COST * counts[0].letters - UNKNOWN_LETTER_COST * counts[0].unlisted;
      for (guint l = 0; l < m->names->len; l++)
        totals[l] += weight * (n_ngrams * floors[l] - (scripts[l] == script ? own : cost));
      return;
    }
  for (guint l = 0; l < m->names->len; l++)
    {
      double cost = OUT_OF_SCRIPT_COST * looked->n_singles;

      for (guint c = 0; c < looked->n_counts; c++)
        if (counts[c].script == scripts[l])
          cost -= OUT_OF_SCRIPT_COST * counts[c].letters - UNKNOWN_LETTER_COST * counts[c].unlisted;
      totals[l] += weight * (looked->n_ngrams * floors[l] - cost);
    }
}

/**
 * _dc_ngram_score_word:
 * @word: (array length=length): a word's characters, no U+0020 among them
 * @weight: how many times the word stands in the text
 * @totals: (array): one per language; @weight times each language's log likelihood of
 *   @word is added
 *
 * What _dc_ngram_score() adds for the word, @weight times over: a text that repeats its
 * words (every text does) is scored in the time of its distinct words. Every n-gram costs
 * the floor, so the floors are one product, and the characters' costs one count per
 * script.
 *
 * Returns: how many n-grams the word has (once, not @weight times)
 */
guint
_dc_ngram_score_word (const gunichar *word, gsize length, double weight, double *totals)
{
  Models *m = models ();
  LookRoom room;
  Looked looked;

  g_return_val_if_fail (word != NULL || length == 0, 0);

  if (length == 0)
    return 0;
  look_room_init (&room, length);
  look_up_word (m, word, length, room.chars, room.runs, room.counts, &looked);
  add_looked (m, &looked, NULL, weight, totals);
  look_room_clear (&room);
  return looked.n_ngrams;
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
