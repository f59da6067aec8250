/* test-ngram-cache.c: the language models kept between runs give the scores the model
 * files give, and only while the files are as they were
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The models are read once per process, so each run is a subprocess (this test program
 * run again) with its own $DECIPHER_TEXTCAT_DIR (a copy of libexttextcat's data the test
 * may change) and $DECIPHER_NGRAM_CACHE. It scores a text in every language and writes
 * the scores to the last bit, and whether the models came from the cache.
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dc-ngram-private.h"
#include "dc-test-fixtures.h"

#ifdef HAVE_EXTTEXTCAT

/* Words of several scripts, some of them letters no language lists. */
static const char sample[] = "the quick brown fox jumps over ӈарка мя тарем ӈэва "
                             "für größere ¾ λόγος x12 a_b";

/* The cache file's header (dc-ngram-cache.c), where a hostile file is made below. */
#define OFFSET_TABLE_SIZE 36
#define OFFSET_N_ENTRIES 40
#define OFFSET_CHECKSUM 48
#define HEADER_SIZE 56

typedef struct
{
  char *dir;   /* the copy of the model files */
  char *cache; /* the cache file */
  char *out;   /* where a run writes its scores */
} Fixture;

/* In the subprocess: the scores of sample in every language, after whether the models
 * came from the cache. */
static void
write_scores (void)
{
  g_autofree gunichar *text = NULL;
  g_autofree double *totals = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  glong length;
  guint n;

  g_string_append_printf (out, "%d\n", _dc_ngram_models_from_cache ());
  n = _dc_ngram_n_languages ();
  totals = g_new0 (double, MAX (1, n));
  text = g_utf8_to_ucs4_fast (sample, -1, &length);
  _dc_ngram_score (text, (gsize) length, totals);
  for (guint l = 0; l < n; l++)
    g_string_append_printf (out, "%s %a\n", _dc_ngram_language_name (l), totals[l]);
  g_file_set_contents (g_getenv ("NGRAM_TEST_OUT"), out->str, -1, &error);
  g_assert_no_error (error);
}

/* Runs the current test again as a subprocess with @cache ("" for none). Returns the
 * scores it wrote; *from_cache says whether its models came from the cache. */
static char *
run (Fixture *f, const char *dir, const char *cache, gboolean *from_cache)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  char *scores;

  g_setenv ("DECIPHER_TEXTCAT_DIR", dir, TRUE);
  g_setenv ("DECIPHER_NGRAM_CACHE", cache, TRUE);
  g_setenv ("NGRAM_TEST_OUT", f->out, TRUE);
  g_remove (f->out);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_file_get_contents (f->out, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (contents[0] == '0' || contents[0] == '1');
  g_assert_cmpint (contents[1], ==, '\n');
  *from_cache = contents[0] == '1';
  scores = g_strdup (contents + 2);
  /* Every language scored: libexttextcat-data is a dependency of the tests. */
  g_assert_cmpuint (strlen (scores), >, 1000);
  return scores;
}

static void
copy_folder (const char *from, const char *to)
{
  g_autoptr (GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      g_autoptr (GError) error = NULL;
      gsize length;

      if (!g_file_test (source, G_FILE_TEST_IS_REGULAR))
        continue;
      g_file_get_contents (source, &contents, &length, &error);
      g_assert_no_error (error);
      g_file_set_contents (target, contents, (gssize) length, &error);
      g_assert_no_error (error);
    }
}

/* Only the parent makes the folder: a subprocess is told its files by the environment. */
static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *tmp = NULL;

  if (g_test_subprocess ())
    return;
  tmp = g_dir_make_tmp ("test-ngram-cache-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  f->dir = g_build_filename (tmp, "models", NULL);
  f->cache = g_build_filename (tmp, "cache", "language-models", NULL);
  f->out = g_build_filename (tmp, "scores", NULL);
  copy_folder (TEXTCAT_DATADIR, f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autofree char *tmp = NULL;

  if (g_test_subprocess ())
    return;
  tmp = g_path_get_dirname (f->dir);
  dc_test_remove_tree (tmp);
  g_free (f->dir);
  g_free (f->cache);
  g_free (f->out);
}

/* The scores with no cache, after checking that a cold cache is written by the run that
 * reads the model files and read by the next. */
static char *
warm_up (Fixture *f)
{
  g_autofree char *uncached = NULL;
  g_autofree char *cold = NULL;
  char *warm;
  gboolean from_cache;

  uncached = run (f, f->dir, "", &from_cache);
  g_assert_false (from_cache);
  g_assert_false (g_file_test (f->cache, G_FILE_TEST_EXISTS));
  cold = run (f, f->dir, f->cache, &from_cache);
  g_assert_false (from_cache);
  g_assert_true (g_file_test (f->cache, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (cold, ==, uncached);
  warm = run (f, f->dir, f->cache, &from_cache);
  g_assert_true (from_cache);
  g_assert_cmpstr (warm, ==, uncached);
  return warm;
}

static void
test_cold_warm (Fixture *f, gconstpointer data)
{
  g_autofree char *scores = NULL;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  scores = warm_up (f);
}

/* The first line of en.lm with a count of a letter alone, its first digit changed: the
 * file keeps its size, and English's total and so every English weight change. */
static void
change_english (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "en.lm", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  struct stat before;
  struct timespec times[2];
  gsize length;
  char *line;

  g_assert_cmpint (g_stat (path, &before), ==, 0);
  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  for (line = contents; line != NULL; line = strchr (line, '\n'), line = line ? line + 1 : NULL)
    {
      char *tab = strchr (line, '\t'), *count = tab;

      while (count != NULL && (*count == '\t' || *count == ' '))
        count++;
      if (tab != NULL && tab == g_utf8_next_char (line) && g_ascii_isalpha (line[0])
          && g_ascii_isdigit (*count))
        {
          *count = *count == '1' ? '2' : '1';
          break;
        }
    }
  g_assert_nonnull (line);
  g_file_set_contents (path, contents, (gssize) length, &error);
  g_assert_no_error (error);
  /* Back to the time it had: only the cache's stamp could tell the change now. */
  times[0] = before.st_atim;
  times[1] = before.st_mtim;
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

static void
touch_english (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "en.lm", NULL);
  struct stat before;
  struct timespec times[2];

  g_assert_cmpint (g_stat (path, &before), ==, 0);
  times[0] = before.st_atim;
  times[1] = before.st_mtim;
  times[1].tv_nsec = (times[1].tv_nsec + 1) % 1000000000;
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

/* The warm run uses the cache's tables, not the files: with a model changed behind the
 * stamp's back it still gives the old scores. Once the file's time tells the change, the
 * cache is stale: the models are read again and the cache replaced. */
static void
test_used_and_stale (Fixture *f, gconstpointer data)
{
  g_autofree char *scores = NULL;
  g_autofree char *hidden = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *stale = NULL;
  g_autofree char *rewritten = NULL;
  gboolean from_cache;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  scores = warm_up (f);
  change_english (f->dir);
  changed = run (f, f->dir, "", &from_cache);
  g_assert_cmpstr (changed, !=, scores);
  hidden = run (f, f->dir, f->cache, &from_cache);
  g_assert_true (from_cache);
  g_assert_cmpstr (hidden, ==, scores);

  touch_english (f->dir);
  stale = run (f, f->dir, f->cache, &from_cache);
  g_assert_false (from_cache);
  g_assert_cmpstr (stale, ==, changed);
  rewritten = run (f, f->dir, f->cache, &from_cache);
  g_assert_true (from_cache);
  g_assert_cmpstr (rewritten, ==, changed);
}

/* Until a file made now gets a later time than @folder has: the kernel's file times move
 * in ticks of some milliseconds, and a change within the tick a stamp was taken in would
 * leave the folder's time as the stamp recorded it. */
static void
wait_past (const char *folder)
{
  g_autofree char *parent = g_path_get_dirname (folder);
  g_autofree char *probe = g_build_filename (parent, "probe", NULL);
  struct stat dir, made;

  g_assert_cmpint (g_stat (folder, &dir), ==, 0);
  do
    {
      g_assert_true (g_file_set_contents (probe, "", 0, NULL));
      g_assert_cmpint (g_stat (probe, &made), ==, 0);
    }
  while (made.st_mtim.tv_sec == dir.st_mtim.tv_sec && made.st_mtim.tv_nsec == dir.st_mtim.tv_nsec);
  g_remove (probe);
}

/* en.lm rewritten in place with @contents, keeping its time, or, as dpkg upgrades a file,
 * written as en.lm.dpkg-new with the old file's time and renamed over it. */
static void
replace_english (const char *dir, const char *contents, gboolean in_place)
{
  g_autofree char *path = g_build_filename (dir, "en.lm", NULL);
  g_autofree char *fresh = g_strconcat (path, ".dpkg-new", NULL);
  struct stat before;
  struct timespec times[2];
  FILE *file;

  g_assert_cmpint (g_stat (path, &before), ==, 0);
  wait_past (dir);
  file = fopen (in_place ? path : fresh, in_place ? "r+" : "w");
  g_assert_nonnull (file);
  g_assert_cmpint (ftruncate (fileno (file), 0), ==, 0);
  g_assert_cmpuint (fwrite (contents, 1, strlen (contents), file), ==, strlen (contents));
  g_assert_cmpint (fclose (file), ==, 0);
  times[0] = before.st_atim;
  times[1] = before.st_mtim;
  g_assert_cmpint (utimensat (AT_FDCWD, in_place ? path : fresh, times, 0), ==, 0);
  if (!in_place)
    g_assert_cmpint (g_rename (fresh, path), ==, 0);
}

/* Models the package manager installs (here: $DECIPHER_PACKAGED_DIRS names their
 * folder) are stamped by their folder alone (base/dc-packaged.c). A model replaced as
 * dpkg replaces it, even with the same size and time as the old one, changes the folder's
 * time: the models are read again. One rewritten in place keeps the folder's time, and
 * the cache stays in use: that is not how packaged files change. */
static void
test_packaged (Fixture *f, gconstpointer data)
{
  g_autofree char *scores = NULL;
  g_autofree char *original = NULL;
  g_autofree char *changed_text = NULL;
  g_autofree char *english = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *hidden = NULL;
  g_autofree char *stale = NULL;
  g_autofree char *again = NULL;
  gboolean from_cache;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  g_setenv ("DECIPHER_PACKAGED_DIRS", f->dir, TRUE);
  scores = warm_up (f);
  english = g_build_filename (f->dir, "en.lm", NULL);
  g_assert_true (g_file_get_contents (english, &original, NULL, NULL));
  change_english (f->dir);
  g_assert_true (g_file_get_contents (english, &changed_text, NULL, NULL));
  changed = run (f, f->dir, "", &from_cache);
  g_assert_cmpstr (changed, !=, scores);
  /* change_english() renamed a new file over it: back to the first text, the folder's
   * time now recorded anew. */
  replace_english (f->dir, original, FALSE);
  g_free (run (f, f->dir, f->cache, &from_cache));
  g_assert_false (from_cache);
  g_free (run (f, f->dir, f->cache, &from_cache));
  g_assert_true (from_cache);

  replace_english (f->dir, changed_text, TRUE);
  hidden = run (f, f->dir, f->cache, &from_cache);
  g_assert_true (from_cache);
  g_assert_cmpstr (hidden, ==, scores);

  replace_english (f->dir, changed_text, FALSE);
  stale = run (f, f->dir, f->cache, &from_cache);
  g_assert_false (from_cache);
  g_assert_cmpstr (stale, ==, changed);
  again = run (f, f->dir, f->cache, &from_cache);
  g_assert_true (from_cache);
  g_assert_cmpstr (again, ==, changed);
  g_unsetenv ("DECIPHER_PACKAGED_DIRS");
}

/* The same files in another folder are other files: the cache names the folder. */
static void
test_other_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *scores = NULL;
  g_autofree char *other = NULL;
  g_autofree char *elsewhere = NULL;
  gboolean from_cache;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  scores = warm_up (f);
  other = g_strconcat (f->dir, "-other", NULL);
  copy_folder (f->dir, other);
  elsewhere = run (f, other, f->cache, &from_cache);
  g_assert_false (from_cache);
  g_assert_cmpstr (elsewhere, ==, scores);
}

/* dc-ngram-cache.c's, on bytes that need not be aligned. */
static guint64
checksum (const char *data, gsize length)
{
  guint64 first[4] = { 0 }, second[4] = { 0 }, sum = length;
  gsize n = length / 8;

  for (gsize i = 0; i < n; i++)
    {
      /* Whole groups of four words take lanes 0–3 in turn; the rest all go to lane 0. */
      guint lane = i < n / 4 * 4 ? i % 4 : 0;
      guint64 word;

      memcpy (&word, data + 8 * i, 8);
      first[lane] += word;
      second[lane] += first[lane];
    }
  for (guint k = 0; k < 8; k++)
    {
      sum = (sum ^ (k < 4 ? first[k] : second[k - 4])) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
      sum ^= sum >> 29;
    }
  return sum;
}

typedef enum
{
  HALF,
  HEADER_ONLY,
  EMPTY,
  BYTE_FLIPPED,
  LAST_BYTE_FLIPPED,
  TABLE_CLAIMED_LARGER,
  /* Consistent to its checksum, yet leading out of bounds: */
  ENTRY_OF_NO_LANGUAGE,
  NO_EMPTY_SLOT,
  N_DAMAGES
} Damage;

static guint32
read_u32 (const char *data, gsize offset)
{
  guint32 value;

  memcpy (&value, data + offset, 4);
  return value;
}

static void
damage_cache (const char *path, Damage damage)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  gsize length, entries, keys;
  guint32 table_size, n_entries, larger;
  guint64 sum;

  g_file_get_contents (path, &data, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, HEADER_SIZE);
  table_size = read_u32 (data, OFFSET_TABLE_SIZE);
  n_entries = read_u32 (data, OFFSET_N_ENTRIES);
  entries = length - (gsize) n_entries * 8;
  keys = entries - 2 * (((gsize) table_size * 4 + 7) & ~(gsize) 7) - (gsize) table_size * 8;
  switch (damage)
    {
    case HALF:
      length /= 2;
      break;
    case HEADER_ONLY:
      length = HEADER_SIZE;
      break;
    case EMPTY:
      length = 0;
      break;
    case BYTE_FLIPPED:
      data[length / 2] ^= 0x10;
      break;
    case LAST_BYTE_FLIPPED:
      data[length - 1] ^= 0x01;
      break;
    case TABLE_CLAIMED_LARGER:
      larger = table_size * 2;
      memcpy (data + OFFSET_TABLE_SIZE, &larger, 4);
      break;
    case ENTRY_OF_NO_LANGUAGE:
      memset (data + entries, 0xFF, 2);
      break;
    case NO_EMPTY_SLOT:
      for (gsize i = 0; i < table_size; i++)
        if (memcmp (data + keys + 8 * i, "\0\0\0\0\0\0\0\0", 8) == 0)
          data[keys + 8 * i] = 1;
      break;
    case N_DAMAGES:
      g_assert_not_reached ();
    }
  if (damage >= ENTRY_OF_NO_LANGUAGE)
    {
      sum = checksum (data + HEADER_SIZE, length - HEADER_SIZE);
      memcpy (data + OFFSET_CHECKSUM, &sum, 8);
    }
  g_file_set_contents (path, data, (gssize) length, &error);
  g_assert_no_error (error);
}

/* A damaged or hostile cache is not used, whatever it says: the models are read from
 * their files, scored alike, and the cache replaced by a sound one. */
static void
test_damaged (Fixture *f, gconstpointer data)
{
  g_autofree char *scores = NULL;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  scores = warm_up (f);
  for (Damage damage = 0; damage < N_DAMAGES; damage++)
    {
      g_autofree char *damaged = NULL;
      g_autofree char *repaired = NULL;
      gboolean from_cache;

      g_test_message ("damage %d", damage);
      damage_cache (f->cache, damage);
      damaged = run (f, f->dir, f->cache, &from_cache);
      g_assert_false (from_cache);
      g_assert_cmpstr (damaged, ==, scores);
      repaired = run (f, f->dir, f->cache, &from_cache);
      g_assert_true (from_cache);
      g_assert_cmpstr (repaired, ==, scores);
    }
}

/* A cache that cannot be written (here a folder where the file is meant) changes no
 * score, and the run says that the models were not kept, naming what went wrong: it
 * was silent, and every run read the models again. */
static void
test_unwritable (Fixture *f, gconstpointer data)
{
  g_autofree char *uncached = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gboolean from_cache;

  if (g_test_subprocess ())
    {
      write_scores ();
      return;
    }
  uncached = run (f, f->dir, "", &from_cache);
  g_assert_cmpint (g_mkdir_with_parents (f->cache, 0700), ==, 0);
  g_setenv ("DECIPHER_NGRAM_CACHE", f->cache, TRUE);
  g_remove (f->out);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*language models could not be kept*language-models*");
  g_file_get_contents (f->out, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (contents, "0\n"));
  g_assert_cmpstr (contents + 2, ==, uncached);
  g_assert_true (g_file_test (f->cache, G_FILE_TEST_IS_DIR));
}

#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#ifdef HAVE_EXTTEXTCAT

  g_test_add ("/ngram-cache/cold-warm", Fixture, NULL, fixture_set_up, test_cold_warm,
              fixture_tear_down);
  g_test_add ("/ngram-cache/used-and-stale", Fixture, NULL, fixture_set_up, test_used_and_stale,
              fixture_tear_down);
  g_test_add ("/ngram-cache/other-folder", Fixture, NULL, fixture_set_up, test_other_folder,
              fixture_tear_down);
  g_test_add ("/ngram-cache/damaged", Fixture, NULL, fixture_set_up, test_damaged,
              fixture_tear_down);
  g_test_add ("/ngram-cache/packaged", Fixture, NULL, fixture_set_up, test_packaged,
              fixture_tear_down);
  g_test_add ("/ngram-cache/unwritable", Fixture, NULL, fixture_set_up, test_unwritable,
              fixture_tear_down);
#endif
  return g_test_run ();
}
