/* test-textcat.c: the engine's language classifier answers as libexttextcat's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dc-textcat.c computes textcat_ClassifyFull()'s verdict another way; this compares the
 * two, count, names, scores and order, on texts made from the fixtures' true text (many
 * languages and scripts), their prefixes of many lengths, words of several fixtures mixed,
 * and words repeated (the text's own fingerprint then holds few n-grams).
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "dc-test-fixtures.h"

#ifdef HAVE_EXTTEXTCAT
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

static void
test_same_verdicts (void)
{
  const char *dir = g_getenv ("DECIPHER_TEXTCAT_DIR");
  g_autofree char *prefix = g_strconcat (dir != NULL ? dir : TEXTCAT_DATADIR, "/", NULL);
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
  g_assert_true (_dc_textcat_is_fast (check.ours));
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
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#ifdef HAVE_EXTTEXTCAT
  g_test_add_func ("/textcat/same-verdicts", test_same_verdicts);
#endif
  return g_test_run ();
}
