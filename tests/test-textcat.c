/* test-textcat.c: the engine's language classifier answers as libexttextcat's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-textcat.c computes textcat_ClassifyFull()'s verdict another way; this compares the
 * two, count, names, scores and order, on texts made from the fixtures' true text (many
 * languages and scripts), their prefixes of many lengths, words of several fixtures mixed,
 * and words repeated (the text's own fingerprint then holds few n-grams). It also compares
 * the text's fingerprint, which dc-textcat-fingerprint.c makes again, with fp_Create()'s,
 * n-gram by n-gram, on those texts and on made-up ones that reach every corner of it.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "dc-test-fixtures.h"

#ifdef HAVE_EXTTEXTCAT
#include <constants.h>
#include <fingerprint.h>

#include "dc-textcat-private.h"

/* Every fixture's lines, one string per fixture. */
static GPtrArray *
fixture_texts (void)
{
  const char *dir = g_getenv ("FIXTURES_DIR");
  g_autoptr (GDir) listing = NULL;
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GString) text = g_string_new (NULL);
      JsonArray *pages;

      if (!g_str_has_suffix (name, ".json") || !json_parser_load_from_file (parser, path, NULL))
        continue;
      if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))
          || !json_object_has_member (json_node_get_object (json_parser_get_root (parser)),
                                      "pages"))
        continue;
      pages = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "pages");
      for (guint p = 0; p < json_array_get_length (pages); p++)
        {
          JsonObject *page = json_array_get_object_element (pages, p);
          JsonArray *lines = json_object_has_member (page, "lines")
                                 ? json_object_get_array_member (page, "lines")
                                 : NULL;

          for (guint l = 0; lines != NULL && l < json_array_get_length (lines); l++)
            {
              JsonObject *line = json_array_get_object_element (lines, l);

              if (json_object_has_member (line, "text"))
                g_string_append_printf (text, "%s\n", json_object_get_string_member (line, "text"));
            }
        }
      if (text->len > 0)
        g_ptr_array_add (texts, g_string_free (g_steal_pointer (&text), FALSE));
    }
  return texts;
}

typedef struct
{
  void *library;
  candidate_t *expected;
  DcTextcat *ours;
  candidate_t *got;
  guint compared, decided;
  GHashTable *winners;
} Check;

static void
check_text (Check *check, const char *text, gsize size)
{
  int want = textcat_ClassifyFull (check->library, text, size, check->expected);
  int got = _dc_textcat_classify (check->ours, text, size, check->got);

  g_assert_cmpint (got, ==, want);
  for (int i = 0; i < want; i++)
    {
      g_assert_cmpstr (check->got[i].name, ==, check->expected[i].name);
      g_assert_cmpint (check->got[i].score, ==, check->expected[i].score);
    }
  check->compared++;
  if (want > 0)
    {
      check->decided++;
      g_hash_table_add (check->winners, g_strdup (check->expected[0].name));
    }
}

/* Compares the two classifiers loaded from @dir; @fast: whether the engine's own table
 * answers (else it leaves all to the library). */
static void
compare_verdicts (const char *dir, gboolean fast)
{
  g_autofree char *prefix = g_strconcat (dir, "/", NULL);
  g_autofree char *conf = g_build_filename (prefix, "fpdb.conf", NULL);
  g_autoptr (GPtrArray) texts = fixture_texts ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (34);
  Check check = { 0 };

  check.library = special_textcat_Init (conf, prefix);
  g_assert_nonnull (check.library);
  check.expected = textcat_GetClassifyFullOutput (check.library);
  check.ours = _dc_textcat_new (conf, prefix);
  g_assert_nonnull (check.ours);
  /* Otherwise the library would be compared with itself. */
  g_assert_true (_dc_textcat_is_fast (check.ours) == fast);
  check.got = g_new (candidate_t, _dc_textcat_n_languages (check.ours));
  check.winners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_assert_cmpuint (texts->len, >=, 10);

  for (guint t = 0; t < texts->len; t++)
    {
      const char *text = g_ptr_array_index (texts, t);
      gsize length = strlen (text);

      /* Prefixes from a few letters (too short, or undecided) to the sample's 2048 bytes;
       * the library reads up to the NUL whatever the size, so each is its own string. */
      for (gsize size = 8; size < length + 64 && size <= 2048; size = size * 3 / 2 + 7)
        {
          g_autofree char *prefix_text = g_strndup (text, MIN (size, length));

          check_text (&check, prefix_text, strlen (prefix_text));
        }
    }
  /* Words of different fixtures mixed, and words repeated. */
  for (guint round = 0; round < 300; round++)
    {
      g_autoptr (GString) mixed = g_string_new (NULL);
      guint n_words = g_rand_int_range (rand, 5, 300);
      gboolean repeat = round % 5 == 0;
      g_auto (GStrv)
          words = g_strsplit_set (g_ptr_array_index (texts, g_rand_int_range (rand, 0,
                                                                              (gint32) texts->len)),
                                  " \n", -1);
      guint n_own = g_strv_length (words);

      for (guint w = 0; w < n_words && mixed->len < 2048; w++)
        {
          const char *word;
          g_auto (GStrv) other = NULL;

          if (repeat || g_rand_int_range (rand, 0, 4) > 0)
            word = words[repeat ? 0 : g_rand_int_range (rand, 0, (gint32) n_own)];
          else
            {
              other = g_strsplit (g_ptr_array_index (texts, g_rand_int_range (rand, 0,
                                                                              (gint32) texts->len)),
                                  " ", -1);
              word = other[g_rand_int_range (rand, 0, (gint32) g_strv_length (other))];
            }
          g_string_append_printf (mixed, "%s ", word);
        }
      check_text (&check, mixed->str, mixed->len);
    }

  /* The comparison must have met real verdicts in many languages, not only "short". */
  g_test_message ("%u texts, %u decided, %u winning languages", check.compared, check.decided,
                  g_hash_table_size (check.winners));
  g_assert_cmpuint (check.decided, >=, check.compared / 3);
  g_assert_cmpuint (g_hash_table_size (check.winners), >=, 10);

  g_hash_table_unref (check.winners);
  g_free (check.got);
  _dc_textcat_free (check.ours);
  textcat_ReleaseClassifyFullOutput (check.library, check.expected);
  textcat_Done (check.library);
}

static void
test_same_verdicts (void)
{
  const char *dir = g_getenv ("DECIPHER_TEXTCAT_DIR");

  compare_verdicts (dir != NULL ? dir : TEXTCAT_DATADIR, TRUE);
}

/* fp_Create()'s fingerprint of @text read through fp_Print(), one n-gram a line; NULL when
 * it refuses the text. */
static char *
library_fingerprint (const char *text, gsize size)
{
  void *fp = fp_Init (NULL);
  char *printed = NULL;
  size_t length = 0;

  fp_SetProperty (fp, TCPROP_UTF8AWARE, TC_TRUE);
  fp_SetProperty (fp, TCPROP_MINIMUM_DOCUMENT_SIZE, MINDOCSIZE);
  if (fp_Create (fp, text, (uint4) size, MAXNGRAMS) != 0)
    {
      FILE *stream = open_memstream (&printed, &length);

      g_assert_nonnull (stream);
      fp_Print (fp, stream);
      fclose (stream);
    }
  fp_Done (fp);
  return printed;
}

typedef struct
{
  guint compared, replayed, full;
} FingerprintCheck;

/* Ours, when made, is fp_Create()'s, n-gram for n-gram in rank order; the hash counted
 * with each, by which the classifier finds it among the languages', is that of its text. */
static void
check_fingerprint (FingerprintCheck *check, const char *text, gsize size)
{
  g_autoptr (GPtrArray) ngrams = g_ptr_array_new ();
  g_autoptr (GArray) hashes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GString) ours = g_string_new (NULL);
  g_autofree char *theirs = library_fingerprint (text, size);
  gboolean replayed;
  g_autofree char *storage =
      _dc_textcat_fingerprint_hashed (text, size, ngrams, hashes, &replayed);

  check->compared++;
  if (!replayed)
    {
      g_assert_cmpuint (ngrams->len, ==, 0);
      return;
    }
  check->replayed++;
  check->full += ngrams->len == MAXNGRAMS;
  g_assert_cmpuint (hashes->len, ==, ngrams->len);
  for (guint i = 0; i < ngrams->len; i++)
    {
      g_string_append_printf (ours, "%s\n", (const char *) g_ptr_array_index (ngrams, i));
      g_assert_cmpuint (g_array_index (hashes, guint32, i), ==,
                        _dc_textcat_hash (g_ptr_array_index (ngrams, i)));
    }
  if (theirs == NULL)
    g_assert_cmpuint (ngrams->len, ==, 0);
  else
    g_assert_cmpstr (ours->str, ==, theirs);
}

static gboolean
valid_to_nul (const char *text)
{
  return g_utf8_validate (text, -1, NULL);
}

static void
test_same_fingerprints (void)
{
  g_autoptr (GPtrArray) texts = fixture_texts ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (38);
  /* Spaces, digits, underscores and tabs in runs, which the cleaning folds. */
  static const char *const pieces[] = { " ",  "  ",  "\t",       "\n",        "7", "42 ", "_",
                                        "__", "a_b", "x",        "the ",      "é", "ſ",   "ß",
                                        "Ω",  "ж",   "ש",        "ب",         "क्", "ไ",   "中",
                                        "語", "😀",   "\xc2\xa0", "e\xcc\x81", "-", "'" };
  FingerprintCheck check = { 0 };

  g_assert_cmpuint (texts->len, >=, 10);
  for (guint t = 0; t < texts->len; t++)
    {
      const char *text = g_ptr_array_index (texts, t);
      gsize length = strlen (text);

      /* Every size up to the sample's and past it: the size cuts characters in two, and
       * the library reads past it (up to the NUL) where the cleaning folds runs. */
      for (gsize size = 1; size <= MIN (length, 2100); size += size < 64 ? 1 : 7)
        {
          g_autofree char *prefix = g_strndup (text, size);

          check_fingerprint (&check, text, size);
          if (valid_to_nul (prefix))
            check_fingerprint (&check, prefix, size);
        }
      check_fingerprint (&check, text, length);
    }
  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr (GString) made = g_string_new (NULL);
      guint n_pieces = g_rand_int_range (rand, 1, round % 10 == 0 ? 2000 : 300);
      /* Few pieces repeated make many n-grams of one count: which of them the heap keeps,
       * and in which order, is the library's order of buckets and moves. */
      guint n_kinds = g_rand_int_range (rand, 1, G_N_ELEMENTS (pieces) + 1);

      for (guint i = 0; i < n_pieces; i++)
        {
          if (g_rand_int_range (rand, 0, 3) == 0)
            {
              /* A made-up word from letters of several scripts. */
              guint n = g_rand_int_range (rand, 1, 9);

              for (guint c = 0; c < n; c++)
                g_string_append (made, pieces[g_rand_int_range (rand, 9, (gint32) n_kinds + 9)
                                              % G_N_ELEMENTS (pieces)]);
            }
          else
            g_string_append (made, pieces[g_rand_int_range (rand, 0, (gint32) n_kinds)]);
        }
      check_fingerprint (&check, made->str, made->len);
      check_fingerprint (&check, made->str, MIN (made->len, 2048));
      check_fingerprint (&check, made->str, g_rand_int_range (rand, 1, (gint32) made->len + 1));
    }
  /* Not UTF-8: bytes of any value. Where a character is cut by the end, ours declines. */
  for (guint round = 0; round < 3000; round++)
    {
      char bytes[64];
      guint n = g_rand_int_range (rand, 1, sizeof bytes);

      for (guint i = 0; i < n; i++)
        bytes[i] = (char) g_rand_int_range (rand, 1, 256);
      bytes[n] = '\0';
      check_fingerprint (&check, bytes, n);
    }
  g_test_message ("%u fingerprints compared, %u made, %u of them full (%u n-grams)", check.compared,
                  check.replayed, check.full, MAXNGRAMS);
  g_assert_cmpuint (check.replayed, >=, check.compared * 9 / 10);
  g_assert_cmpuint (check.full, >=, 100);
}

/* A copy of the installed models in a new folder, fpdb.conf's lines passed to @edit. */
static char *
copy_models (char *(*edit) (const char *line, const char *dir))
{
  g_autofree char *conf_text = NULL;
  g_autoptr (GString) conf = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-textcat-XXXXXX", &error);

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (TEXTCAT_DATADIR "/fpdb.conf", &conf_text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (conf_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", 2);
      g_autofree char *from = NULL, *to = NULL, *edited = NULL;

      if (fields[0] != NULL && g_str_has_suffix (fields[0], ".lm"))
        {
          from = g_build_filename (TEXTCAT_DATADIR, fields[0], NULL);
          to = g_build_filename (dir, fields[0], NULL);
          g_assert_cmpint (symlink (from, to), ==, 0);
        }
      edited = edit (lines[i], dir);
      g_string_append_printf (conf, "%s\n", edited);
    }
  g_autofree char *path = g_build_filename (dir, "fpdb.conf", NULL);
  g_assert_true (g_file_set_contents (path, conf->str, -1, &error));
  g_assert_no_error (error);
  return dir;
}

static void
remove_copy (const char *dir)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* English's file name in wg_split()'s quotes, which only the library reads. */
static char *
quote_english (const char *line, const char *dir)
{
  if (g_str_has_prefix (line, "en.lm"))
    return g_strdup_printf ("'en.lm'%s", line + strlen ("en.lm"));
  return g_strdup (line);
}

/* English's model with its first n-gram again on its second line. */
static char *
repeat_in_english (const char *line, const char *dir)
{
  if (g_str_has_prefix (line, "en.lm"))
    {
      g_autofree char *model = NULL;
      g_autofree char *path = g_build_filename (dir, "en-repeat.lm", NULL);
      g_autoptr (GError) error = NULL;
      const char *newline;
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (TEXTCAT_DATADIR "/en.lm", &model, NULL, &error));
      newline = strchr (model, '\n');
      g_assert_nonnull (newline);
      text = g_strdup_printf ("%.*s%s", (int) (newline - model + 1), model, model);
      g_assert_true (g_file_set_contents (path, text, -1, &error));
      return g_strdup_printf ("en-repeat.lm%s", line + strlen ("en.lm"));
    }
  return g_strdup (line);
}

static void
test_left_to_library (void)
{
  char *(*edits[]) (const char *, const char *) = { quote_english, repeat_in_english };

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autofree char *dir = copy_models (edits[i]);

      compare_verdicts (dir, FALSE);
      remove_copy (dir);
    }
}
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#ifdef HAVE_EXTTEXTCAT
  g_test_add_func ("/textcat/same-verdicts", test_same_verdicts);
  g_test_add_func ("/textcat/same-fingerprints", test_same_fingerprints);
  g_test_add_func ("/textcat/left-to-library", test_left_to_library);
#endif
  return g_test_run ();
}
