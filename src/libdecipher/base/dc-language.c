/* dc-language.c: which language a text is in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two pieces of evidence: the document's own /Lang (or a structure element's), which
 * producers often leave at their default, and an n-gram detector (libexttextcat, the one
 * LibreOffice uses), which needs a few dozen letters and then often hesitates between
 * close languages (Scots or English). So the detector decides where it is sure, the /Lang
 * picks among the detector's candidates where it is one of them, and stands alone, with
 * a lower confidence, where the text is too short to detect.
 */

#define G_LOG_DOMAIN "dc-language"

#include "config.h"

#include <string.h>

#include "dc-language.h"
#include "dc-tsan-private.h"
#include "dc-unicode-private.h"

#ifdef HAVE_EXTTEXTCAT
#include "dc-textcat-private.h"
#endif

#define CONFIDENCE_PRIOR_ONLY 0.5
#define CONFIDENCE_AGREE 0.95
#define CONFIDENCE_SURE 0.9

#ifdef HAVE_EXTTEXTCAT
/* Loading the 160 fingerprints takes tens of milliseconds: once per process. */
static DcTextcat *
detector (void)
{
  static gsize once = 0;
  static DcTextcat *handle = NULL;

  if (g_once_init_enter (&once))
    {
      const char *dir = g_getenv ("DECIPHER_TEXTCAT_DIR");
      g_autofree char *prefix = g_strconcat (dir != NULL ? dir : TEXTCAT_DATADIR, "/", NULL);
      g_autofree char *conf = g_build_filename (prefix, "fpdb.conf", NULL);

      if (g_file_test (conf, G_FILE_TEST_EXISTS))
        handle = _dc_textcat_new (conf, prefix);
      if (handle == NULL)
        g_debug ("no language fingerprints in %s", prefix);
      DC_ONCE_LEAVE (&once, 1);
    }
  DC_ONCE_ENTERED (&once);
  return handle;
}
#endif

gboolean
dc_language_detector_available (void)
{
#ifdef HAVE_EXTTEXTCAT
  return detector () != NULL;
#else
  return FALSE;
#endif
}

/* "en--utf8" → "en", "zh-CN-utf8" → "zh-CN". */
static void
tag_from_name (const char *name, char tag[36])
{
  gsize len = strlen (name);

  if (len >= 5 && strcmp (name + len - 5, "-utf8") == 0)
    len -= 5;
  while (len > 0 && name[len - 1] == '-')
    len--;
  len = MIN (len, 35);
  memcpy (tag, name, len);
  tag[len] = '\0';
}

static gboolean
same_language (const char *a, const char *b)
{
  gsize la = strcspn (a, "-_"), lb = strcspn (b, "-_");

  return la == lb && g_ascii_strncasecmp (a, b, la) == 0;
}

/* Whether @text holds @n letters: counted no further than that, as a block of a book's
 * export holds thousands. */
static gboolean
has_letters (const char *text, guint n)
{
  guint found = 0;

  for (const char *p = text; *p && found < n; p = g_utf8_next_char (p))
    found += g_unichar_isalpha (_dc_utf8_get_char (p));
  return found >= n;
}

/**
 * dc_language_guess:
 * @text: UTF-8 (U+FFFD for undecoded glyphs is fine: it counts for nothing)
 * @prior: (nullable): the language the document or structure element states
 *
 * Guesses the language of @text, saying which evidence it rests on and how sure it is.
 */
void
dc_language_guess (const char *text, const char *prior, DcLanguageGuess *guess)
{
  g_return_if_fail (text != NULL && guess != NULL);

  dc_language_guess_both (text, prior, guess, NULL);
}

/**
 * dc_language_guess_both:
 * @text: as for dc_language_guess()
 * @prior: (nullable): as for dc_language_guess()
 * @guess: (out): dc_language_guess() of @text and @prior
 * @alone: (out) (optional): dc_language_guess() of @text without a prior
 *
 * Both guesses from one run of the detector, which is most of their cost: a caller
 * weighing a /Lang against the text needs the detector's own best as well.
 */
void
dc_language_guess_both (const char *text, const char *prior, DcLanguageGuess *guess,
                        DcLanguageGuess *alone)
{
  g_return_if_fail (text != NULL && guess != NULL);

  if (alone != NULL)
    {
      memset (alone, 0, sizeof *alone);
      alone->source = "none";
    }
  memset (guess, 0, sizeof *guess);
  guess->source = "none";
  if (prior != NULL && *prior != '\0')
    {
      g_strlcpy (guess->tag, prior, sizeof guess->tag);
      guess->source = "document";
      guess->confidence = CONFIDENCE_PRIOR_ONLY;
    }

#ifdef HAVE_EXTTEXTCAT
  if (has_letters (text, DC_LANGUAGE_MIN_LETTERS) && detector () != NULL)
    {
      DcTextcat *handle = detector ();
      g_autofree candidate_t *candidates = g_new (candidate_t, _dc_textcat_n_languages (handle));
      int n;

      /* A few hundred bytes are enough, and the cost grows with the length. */
      n = _dc_textcat_classify (handle, text, MIN (strlen (text), DC_LANGUAGE_SAMPLE_BYTES),
                                candidates);
      if (n > 0)
        {
          int chosen = 0;
          gboolean agree = FALSE;

          for (int i = 0; i < n && prior != NULL && !agree; i++)
            {
              char tag[36];

              tag_from_name (candidates[i].name, tag);
              if (same_language (tag, prior))
                {
                  chosen = i;
                  agree = TRUE;
                }
            }
          if (agree)
            {
              guess->source = "document+detector";
              guess->confidence = CONFIDENCE_AGREE;
            }
          else
            {
              tag_from_name (candidates[chosen].name, guess->tag);
              guess->source = "detector";
              /* The candidates it returns all lie within a few percent of the best. */
              guess->confidence = n == 1 ? CONFIDENCE_SURE : 1.0 / n;
            }
          /* Without a prior the first candidate is chosen, as above. */
          if (alone != NULL)
            {
              tag_from_name (candidates[0].name, alone->tag);
              alone->source = "detector";
              alone->confidence = n == 1 ? CONFIDENCE_SURE : 1.0 / n;
            }
        }
    }
#endif
}

/* The bytes of @text the detector's verdict depends on: its sample, and past it as far as
 * the fingerprint's cleaning reads to fill the sample's room. */
static gsize
sample_bytes_read (const char *text)
{
  gsize length = strnlen (text, DC_LANGUAGE_SAMPLE_BYTES + 1);

  if (length <= DC_LANGUAGE_SAMPLE_BYTES)
    return length;
#ifdef HAVE_EXTTEXTCAT
  return _dc_textcat_bytes_read (text, DC_LANGUAGE_SAMPLE_BYTES);
#else
  return DC_LANGUAGE_SAMPLE_BYTES;
#endif
}

/**
 * dc_language_guess_key:
 * @text: UTF-8
 * @prior: (nullable): as for dc_language_guess()
 *
 * What dc_language_guess() reads of @text and @prior: the prior, whether the text holds
 * enough letters to detect, and the bytes the detector reads. Two calls whose keys are
 * equal get the same guess, so a caller can keep guesses by key: the key of a long text
 * is no longer than its sample.
 *
 * Returns: (transfer full): the key
 */
char *
dc_language_guess_key (const char *text, const char *prior)
{
  GString *key;
  gsize prior_length = prior != NULL ? strlen (prior) : 0;

  g_return_val_if_fail (text != NULL, NULL);

  key = g_string_sized_new (prior_length + DC_LANGUAGE_SAMPLE_BYTES + 24);
  /* The prior's length first: no prior and a text can read as another prior. */
  g_string_append_printf (key, "%c%c%" G_GSIZE_FORMAT ":",
                          has_letters (text, DC_LANGUAGE_MIN_LETTERS) ? 'L' : 'S',
                          prior != NULL ? 'P' : 'N', prior_length);
  if (prior != NULL)
    g_string_append_len (key, prior, (gssize) prior_length);
  g_string_append_len (key, text, (gssize) sample_bytes_read (text));
  return g_string_free (key, FALSE);
}
