/* dc-align.c: aligning typed characters with a run of glyphs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run fits typed words when every known symbol spells exactly its value, an unknown
 * symbol spells the same text wherever it recurs, and each glyph takes one grapheme
 * cluster, or one code point of it (a mark drawn as its own glyph, or the base it sits
 * on), or several clusters (a ligature, at a cost). The search is a depth-first walk
 * over those choices that keeps the cheapest complete reading.
 *
 * A glyph is let spell several clusters only where fonts really draw one glyph for
 * them: a ligature Unicode knows (fi, ffl, Arabic lam-alef…) or a conjunct joined by a
 * virama. Otherwise a word typed with letters more than a token has glyphs would fit it
 * by gluing any three letters onto one glyph, and teach the table nonsense.
 *
 * This file owns the typed input (normalised, in the order glyphs are drawn) and what
 * scripts let one glyph spell (ligatures, conjuncts, vowel signs, marks); the search over
 * a run's glyphs is dc-align-search.c.
 */

#define G_LOG_DOMAIN "dc-align"

#include "config.h"

#include <fribidi.h>
#include <string.h>

#include "dc-align-private.h"
#include "dc-align-search-private.h"
#include "dc-reorder-private.h"
#include "dc-script.h"
#include "dc-tsan-private.h"

GArray *
_dc_nfd_of (const char *text)
{
  g_autofree char *nfd = g_utf8_normalize (text, -1, G_NORMALIZE_NFD);
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (gunichar));

  for (const char *p = nfd; p != NULL && *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* Thai and Lao SARA AM (ำ, ຳ) is drawn as two glyphs, its nikhahit and a SARA AA,
       * the nikhahit before the tone mark typed ahead of it (น้ำ is drawn น ํ ้ า), as
       * every shaper draws it; Unicode decomposes it only for compatibility. Typed as one
       * character, สำเร็จ fitted no run of its glyphs. */
      if ((c & ~0x80u) == 0x0E33)
        {
          gunichar nikhahit = c + 0x1A, aa = c - 1;
          guint at = chars->len;

          while (at > 0 && _dc_is_thai_lao_above_mark (g_array_index (chars, gunichar, at - 1)))
            at--;
          g_array_insert_val (chars, at, nikhahit);
          g_array_append_val (chars, aa);
          continue;
        }
      g_array_append_val (chars, c);
    }
  return chars;
}

/* A value as its glyph draws it, to compare with typed input in visual order (टि as
 * ि ट, لا as ا ل). */
GArray *
_dc_nfd_visual_of (const char *text)
{
  g_autoptr (GArray) logical = _dc_nfd_of (text);
  gboolean right_to_left = FALSE;

  for (guint i = 0; i < logical->len; i++)
    {
      GUnicodeScript script = g_unichar_get_script (g_array_index (logical, gunichar, i));

      if (script != G_UNICODE_SCRIPT_COMMON && script != G_UNICODE_SCRIPT_INHERITED)
        {
          right_to_left = dc_script_is_rtl (script);
          break;
        }
    }
  return _dc_visual_order (logical, right_to_left);
}

char *
_dc_holder_key (guint font, const char *value)
{
  return g_strdup_printf ("%u\x1f%s", font, value);
}

/* Typed input, prepared for alignment with glyphs in drawing order. */
void
_dc_typed_clear (Typed *typed)
{
  g_clear_pointer (&typed->chars, g_array_unref);
  g_clear_pointer (&typed->word_end, g_array_unref);
  g_clear_pointer (&typed->cluster_end, g_array_unref);
  g_clear_pointer (&typed->n_clusters, g_array_unref);
  g_clear_pointer (&typed->lam_alef, g_array_unref);
  g_clear_pointer (&typed->ligature_memo, g_free);
}

guint
_dc_typed_n_words (const Typed *typed)
{
  return typed->word_end->len;
}

guint
_dc_typed_word_start (const Typed *typed, guint word)
{
  return word == 0 ? 0 : g_array_index (typed->word_end, guint, word - 1);
}

/**
 * _dc_align_continues_cluster:
 *
 * Whether @c belongs to the typed cluster of the character before it rather than
 * starting one: a mark (but a pre-base vowel sign, which typed input moves before its
 * consonant), or a zero-width joiner. Nothing else decides where a cluster ends.
 */
gboolean
_dc_align_continues_cluster (gunichar c)
{
  return (g_unichar_ismark (c) && !_dc_is_pre_base_vowel (c)) || c == 0x200D;
}

/* Khmer's split vowels (ើ ឿ ៀ ោ ៅ) are drawn as the pre-base vowel sign េ and a part of
 * their own after the consonant, as HarfBuzz's Khmer shaper decomposes them; Unicode has
 * no decomposition for them. Typed as one character, សៀវភៅ fitted no run of its glyphs. A
 * value read from a glyph is not split: the glyph of the part after the consonant stands
 * for the vowel (dc-reorder-indic.c leaves out the េ drawn before). */
static void
split_khmer_vowels (GArray *chars)
{
  for (guint i = 0; i < chars->len; i++)
    if (_dc_is_khmer_split_vowel (g_array_index (chars, gunichar, i)))
      {
        gunichar e = 0x17C1;

        g_array_insert_val (chars, i, e);
        i++;
      }
}

void
_dc_typed_prepare (Typed *typed, char **words, gboolean right_to_left)
{
  guint n_words = g_strv_length (words);

  typed->chars = g_array_new (FALSE, FALSE, sizeof (gunichar));
  typed->word_end = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->cluster_end = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->n_clusters = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->lam_alef = g_array_new (FALSE, TRUE, sizeof (guint8));
  typed->right_to_left = right_to_left;

  for (guint w = 0; w < n_words; w++)
    {
      /* Right-to-left text is drawn last word first, each word's clusters reversed. */
      const char *word = words[right_to_left ? n_words - 1 - w : w];
      g_autoptr (GArray) logical = _dc_nfd_of (word);
      g_autoptr (GArray) lam_alef = g_array_new (FALSE, TRUE, sizeof (guint8));
      g_autoptr (GArray) visual = NULL;
      guint start = typed->chars->len, clusters = 0;

      split_khmer_vowels (logical);
      visual = _dc_visual_order_marked (logical, right_to_left, lam_alef);

      g_array_append_vals (typed->chars, visual->data, visual->len);
      g_array_append_vals (typed->lam_alef, lam_alef->data, lam_alef->len);
      g_array_set_size (typed->cluster_end, typed->chars->len);
      for (guint j = start; j < typed->chars->len;)
        {
          guint end = j + 1;

          /* A pre-base vowel sign, moved before its consonant, belongs with it, not
           * with the letter before (ந் | ை த, not ந்ை). */
          /* A zero-width joiner selects the form of the letter before it (ত্‍ is
           * khanda ta's glyph), so it belongs to that letter's cluster. */
          while (end < typed->chars->len
                 && _dc_align_continues_cluster (g_array_index (typed->chars, gunichar, end)))
            end++;
          for (guint i = j; i < end; i++)
            g_array_index (typed->cluster_end, guint, i) = end;
          clusters++;
          j = end;
        }
      g_array_append_val (typed->word_end, typed->chars->len);
      g_array_append_val (typed->n_clusters, clusters);
    }
  /* A typed phrase is a few dozen characters; a pasted page would make the table large. */
  if (typed->chars->len <= 512)
    typed->ligature_memo = g_new0 (guint8,
                                   (gsize) (typed->chars->len + 1) * (typed->chars->len + 1));
}

gboolean
_dc_align_chars_equal (const Typed *typed, guint start, const gunichar *value, guint length)
{
  if (start + length > typed->chars->len)
    return FALSE;
  /* An empty value (a glyph that draws nothing) has no array to compare. */
  if (length == 0)
    return TRUE;
  return memcmp (&g_array_index (typed->chars, gunichar, start), value, length * sizeof (gunichar))
         == 0;
}

/* Where the unit of right-to-left text ending at @end begins, as glyphs are drawn: a
 * letter with its marks, or a lam-alef, which fonts draw as one glyph or as the lam's
 * glyph followed by a zero-width alef, in logical order either way. (Text set without
 * shaping draws the alef's glyph left of the lam's: the search reads that order too,
 * try_drawn_before() in dc-align-search.c.) */
guint
_dc_align_rtl_unit_start (const gunichar *c, guint end)
{
  guint start = end - 1;

  while (start > 0 && g_unichar_ismark (c[start]))
    start--;
  if (start > 0
      && (c[start] == 0x0627 || c[start] == 0x0622 || c[start] == 0x0623 || c[start] == 0x0625))
    {
      guint lam = start - 1;

      while (lam > 0 && g_unichar_ismark (c[lam]))
        lam--;
      if (c[lam] == 0x0644)
        start = lam;
    }
  return start;
}

/* Turns the @length characters at @c so that the first @by go last. */
static void
rotate_left (gunichar *c, guint length, guint by)
{
  g_autofree gunichar *first = g_memdup2 (c, by * sizeof (gunichar));

  memmove (c, c + by, (length - by) * sizeof (gunichar));
  memcpy (c + length - by, first, by * sizeof (gunichar));
}

/* Whether a virama joins the consonants around it into one cluster, as a pre-base vowel
 * sign sees it: Tamil's pulli is written visibly, and ெ goes before the last consonant
 * only (ஒவ்வொரு is drawn ஒ வ் ெ வ ா ரு). */
static gboolean
virama_joins (gunichar virama)
{
  return _dc_is_virama (virama) && g_unichar_get_script (virama) != G_UNICODE_SCRIPT_TAMIL;
}

/* The end of the consonant cluster starting at @i: the consonant, its nukta, and each
 * virama + consonant (+ nukta) joined to it. */
static guint
consonant_cluster_end (const gunichar *c, guint i, guint length)
{
  guint end = i + 1;

  for (;;)
    {
      while (end < length && g_unichar_combining_class (c[end]) == 7)
        end++;
      if (end + 1 < length && virama_joins (c[end]) && g_unichar_isalpha (c[end + 1]))
        end += 2;
      else
        return end;
    }
}

/* A stretch of typed input in visual order, back in logical order: what one glyph
 * spelling it stands for. A ligature of a pre-base vowel sign with its consonant (the
 * glyph ি ট of টি) or of two right-to-left letters (ا ل of لا) is learned as Unicode
 * orders it. */
static GArray *
logical_order (const Typed *typed, guint start, guint length)
{
  const gunichar *visual = &g_array_index (typed->chars, gunichar, start);
  GArray *logical = g_array_sized_new (FALSE, FALSE, sizeof (gunichar), length);
  gunichar *c;

  if (typed->right_to_left)
    for (guint end = length; end > 0;)
      {
        guint first = _dc_align_rtl_unit_start (visual, end);

        g_array_append_vals (logical, &visual[first], end - first);
        end = first;
      }
  else
    g_array_append_vals (logical, visual, length);

  c = (gunichar *) (void *) logical->data;
  for (guint i = 0; i + 1 < length; i++)
    {
      gunichar vowel = c[i];
      guint end;

      if (!_dc_is_pre_base_vowel (vowel) || !g_unichar_isalpha (c[i + 1]))
        continue;
      end = consonant_cluster_end (c, i + 1, length);
      memmove (&c[i], &c[i + 1], (end - i - 1) * sizeof (gunichar));
      c[end - 1] = vowel;
      i = end - 1;
    }

  /* Kannada and Telugu vowel signs drawn before the subscripts (a conjunct glyph with
   * its vowel: ಕ ೆ ್ ಷ of ಕ್ಷೆ) go after them. */
  for (guint i = 0; i + 1 < length; i++)
    {
      guint signs = i + 1, subscripts;

      if (!g_unichar_isalpha (c[i]) || !_dc_is_vowel_sign_before_subscripts (c[signs]))
        continue;
      while (signs < length && _dc_is_vowel_sign_before_subscripts (c[signs]))
        signs++;
      subscripts = signs;
      while (subscripts + 1 < length && _dc_is_virama (c[subscripts])
             && g_unichar_isalpha (c[subscripts + 1]))
        subscripts += 2;
      if (subscripts == signs)
        continue;
      rotate_left (&c[i + 1], subscripts - i - 1, signs - i - 1);
      i = subscripts - 1;
    }

  /* Only a reading that the glyph order explains; anything else stays as drawn. */
  {
    g_autoptr (GArray) back = _dc_visual_order (logical, typed->right_to_left);

    if (back->len != length || memcmp (back->data, visual, length * sizeof (gunichar)) != 0)
      {
        g_array_set_size (logical, 0);
        g_array_append_vals (logical, visual, length);
      }
  }
  return logical;
}

char *
_dc_chars_to_nfc (const Typed *typed, guint start, guint length)
{
  g_autoptr (GArray) logical = logical_order (typed, start, length);
  g_autofree char *utf8 = g_ucs4_to_utf8 ((const gunichar *) (void *) logical->data, length, NULL,
                                          NULL, NULL);

  return utf8 ? g_utf8_normalize (utf8, -1, G_NORMALIZE_NFC) : g_strdup ("");
}

/* The letter sequences that Unicode's compatibility ligatures stand for (U+FB01 → "fi"),
 * decomposed as typed input is. */
static GHashTable *
known_ligatures (void)
{
  static const gunichar ranges[][2] = {
    { 0x0132, 0x0133 }, /* IJ ij */
    { 0x01C4, 0x01CC }, /* DŽ LJ NJ */
    { 0x01F1, 0x01F3 }, /* DZ */
    { 0xFB00, 0xFB4F }, /* Latin, Armenian, Hebrew presentation forms */
    { 0xFB50, 0xFDFF }, /* Arabic presentation forms A */
    { 0xFE70, 0xFEFF }, /* Arabic presentation forms B */
  };
  static GHashTable *ligatures;
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      ligatures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        for (gunichar c = ranges[r][0]; c <= ranges[r][1]; c++)
          {
            gunichar decomposed[G_UNICHAR_MAX_DECOMPOSITION_LENGTH];
            gsize length = g_unichar_fully_decompose (c, TRUE, decomposed,
                                                      G_N_ELEMENTS (decomposed));
            guint letters = 0, spaces = 0;

            for (gsize i = 0; i < length; i++)
              {
                letters += !g_unichar_ismark (decomposed[i]);
                spaces += g_unichar_isspace (decomposed[i]);
              }
            /* Whole phrases in one glyph (U+FDFA) are no word's letters. */
            if (letters >= 2 && spaces == 0)
              g_hash_table_add (ligatures,
                                g_ucs4_to_utf8 (decomposed, (glong) length, NULL, NULL, NULL));
          }
      /* Armenian's digraph for /u/, which Unicode has no ligature for: Noto Sans and Serif
       * Armenian draw ու and ՈՒ as one glyph, and a new user's first word on a UDHR page
       * (կազմակերպությունը, 17 letters in 15 glyphs) fitted nowhere. */
      g_hash_table_add (ligatures, g_strdup ("\u0578\u0582"));
      g_hash_table_add (ligatures, g_strdup ("\u0548\u0552"));
      /* A SARA AM drawn as one glyph, as older Thai and Lao fonts have it (_dc_nfd_of()). */
      g_hash_table_add (ligatures, g_strdup ("\u0E4D\u0E32"));
      g_hash_table_add (ligatures, g_strdup ("\u0ECD\u0EB2"));
      DC_ONCE_LEAVE (&initialized, 1);
    }
  DC_ONCE_ENTERED (&initialized);
  return ligatures;
}

static gboolean
is_mongolian_bow (gunichar c)
{
  switch (c)
    {
    case 0x182A: /* BA */
    case 0x182B: /* PA */
    case 0x182C: /* QA */
    case 0x182D: /* GA */
    case 0x1839: /* FA */
    case 0x183A: /* KA */
    case 0x183B: /* KHA */
      return TRUE;
    default:
      return FALSE;
    }
}

/* Whether each cluster of the stretch but the last ends in a virama (or a zero-width
 * joiner): a conjunct. */
gboolean
_dc_align_is_conjunct (const Typed *typed, guint start, guint end)
{
  for (guint at = g_array_index (typed->cluster_end, guint, start); at < end;
       at = g_array_index (typed->cluster_end, guint, at))
    {
      gunichar last = g_array_index (typed->chars, gunichar, at - 1);

      if (!_dc_is_virama (last) && last != 0x200D)
        return FALSE;
    }
  return TRUE;
}

static gboolean is_plausible_ligature_uncached (const Typed *typed, guint start, guint end);

gboolean
_dc_align_is_plausible_ligature (const Typed *typed, guint start, guint end)
{
  guint8 *known;

  g_assert (start < end && end <= typed->chars->len);

  if (typed->ligature_memo == NULL)
    return is_plausible_ligature_uncached (typed, start, end);
  known = &typed->ligature_memo[(gsize) start * (typed->chars->len + 1) + end];
  if (*known == 0)
    *known = is_plausible_ligature_uncached (typed, start, end) ? 2 : 1;
  return *known == 2;
}

/* Whether right-to-left typed chars [@start, @end), in drawing order, can be one glyph
 * as far as joining goes: a glyph never spans a letter that does not join the one after
 * it (alef, dal, reh, waw, hamza). Drawn in order, ل ا is a lam-alef only where its alef
 * is marked as one (_dc_visual_order_marked()); else it is the ا and ل of قال or ال
 * reversed, two glyphs in every font. */
static gboolean
may_join_into_one_glyph (const Typed *typed, guint start, guint end)
{
  const gunichar *c = (const gunichar *) (void *) typed->chars->data;
  guint previous = G_MAXUINT;

  for (guint i = start; i < end; i++)
    {
      FriBidiJoiningType type = fribidi_get_joining_type (c[i]);
      gboolean lam_alef;
      gunichar earlier;

      if (FRIBIDI_IS_JOIN_SKIPPED (type))
        continue;
      if (previous != G_MAXUINT)
        {
          /* Drawing order reverses the logical one, except within a lam-alef. */
          lam_alef = typed->lam_alef != NULL && i < typed->lam_alef->len
                     && g_array_index (typed->lam_alef, guint8, i);
          earlier = lam_alef ? c[previous] : c[i];
          if (dc_script_is_joining (g_unichar_get_script (earlier))
              && !FRIBIDI_JOINS_LEFT (fribidi_get_joining_type (earlier)))
            return FALSE;
        }
      previous = i;
    }
  return TRUE;
}

/* The tone letters (˥ ˦ ˧ ˨ ˩ and their left-stemmed forms ꜒ … ꜖, ꜈ … ꜑). */
static gboolean
is_tone_letter (gunichar c)
{
  return (c >= 0x02E5 && c <= 0x02E9) || (c >= 0xA708 && c <= 0xA716);
}

static gboolean
is_plausible_ligature_uncached (const Typed *typed, guint start, guint end)
{
  g_autofree char *letters = NULL;

  if (typed->right_to_left && !may_join_into_one_glyph (typed, start, end))
    return FALSE;
  if (_dc_align_is_conjunct (typed, start, end))
    return TRUE;
  /* A pre-base vowel sign drawn in one glyph with the consonant it precedes (ি ট for টি
   * in Noto Sans Bengali). */
  if (_dc_is_pre_base_vowel (g_array_index (typed->chars, gunichar, start)) && start + 1 < end
      && g_unichar_isalpha (g_array_index (typed->chars, gunichar, start + 1))
      && consonant_cluster_end ((const gunichar *) (void *) typed->chars->data, start + 1,
                                typed->chars->len)
             == end)
    return TRUE;
  /* Mongolian fonts join a "bow" consonant (BA, PA, FA, KA, KHA, QA, GA) and the vowel
   * after it into one glyph (ᠬᠦ, ᠪᠠ) that Unicode has no ligature character for; ᠴᠢ
   * stays two glyphs. */
  if (end - start == 2 && is_mongolian_bow (g_array_index (typed->chars, gunichar, start))
      && g_array_index (typed->chars, gunichar, start + 1) >= 0x1820
      && g_array_index (typed->chars, gunichar, start + 1) <= 0x1827)
    return TRUE;
  /* A contour tone written with tone letters (˥˩) is one glyph in the fonts that draw
   * phonetic text (Noto Sans, Charis SIL, Doulos SIL): Unicode has no character for it. */
  if (end - start >= 2 && end - start <= 3)
    {
      gboolean tones = TRUE;

      for (guint i = start; i < end && tones; i++)
        tones = is_tone_letter (g_array_index (typed->chars, gunichar, i));
      if (tones)
        return TRUE;
    }
  letters = g_ucs4_to_utf8 (&g_array_index (typed->chars, gunichar, start), end - start, NULL, NULL,
                            NULL);
  return letters != NULL && g_hash_table_contains (known_ligatures (), letters);
}

/* Fonts draw a conjunct's vowel sign as a glyph of its own far more often than inside
 * the conjunct's glyph (रु, हृ are the exceptions), so a ligature taking one costs more. */
gboolean
_dc_align_has_vowel_sign (const Typed *typed, guint start, guint end)
{
  for (guint i = start; i < end; i++)
    {
      gunichar c = g_array_index (typed->chars, gunichar, i);

      if (g_unichar_ismark (c) && g_unichar_combining_class (c) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether the typed virama at @i is followed by a consonant drawn in a below- or
 * post-base form, whose glyph then spells the virama too. */
gboolean
_dc_align_post_base_form_at (const Typed *typed, guint i)
{
  return i + 1 < typed->chars->len && _dc_is_virama (g_array_index (typed->chars, gunichar, i))
         && _dc_takes_post_base_form (g_array_index (typed->chars, gunichar, i + 1));
}

/* Whether the typed virama at @i is followed by a RA that Devanagari, Bengali and
 * Gujarati draw below the consonant before it: that consonant, the virama and the RA
 * are one glyph in their fonts (क्र, त्र, ক্র, ક્ર in Noto, as HarfBuzz shapes them), where
 * Bengali's ya-phala (ক + ্য) is a glyph of its own. */
gboolean
_dc_align_below_base_ra_at (const Typed *typed, guint i)
{
  if (i + 1 >= typed->chars->len || !_dc_is_virama (g_array_index (typed->chars, gunichar, i)))
    return FALSE;
  switch (g_array_index (typed->chars, gunichar, i + 1))
    {
    case 0x0930: /* Devanagari RA */
    case 0x09B0: /* Bengali RA */
    case 0x09F0: /* Assamese RA */
    case 0x0AB0: /* Gujarati RA */
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
_dc_align_is_fused_tamil_sign (gunichar c)
{
  return c == 0x0BC1 || c == 0x0BC2;
}

/* Whether the stretch is a letter with a spacing vowel sign (யி, কা, की), which fonts
 * draw as two glyphs far more often than as one — Tamil's u and uu signs (கு, மூ) aside,
 * which always fuse with their consonant. Several glyphs for one sign (the three ி of
 * Noto Sans Tamil) must not make the fused reading the cheaper one. */
gboolean
_dc_align_draws_spacing_sign (const Typed *typed, guint start, guint end)
{
  if (end - start < 2 || g_unichar_ismark (g_array_index (typed->chars, gunichar, start)))
    return FALSE;
  for (guint i = start + 1; i < end; i++)
    {
      gunichar c = g_array_index (typed->chars, gunichar, i);

      if (g_unichar_type (c) == G_UNICODE_SPACING_MARK && !_dc_align_is_fused_tamil_sign (c))
        return TRUE;
    }
  return FALSE;
}

/* Whether fonts of @base's script draw it and a spacing vowel sign after it as one glyph
 * often enough for that to be a likely reading. Devanagari, Bengali, Gurmukhi and
 * Gujarati fonts hardly ever do: their ligatures join consonants (च्च, ক্ত) or take a
 * sign drawn under one (रु, রু), and their spacing signs after the consonant (ा ी ो,
 * া ী) are glyphs of their own, so the glyph after a conjunct reads ों, not चों with a
 * half form before it. The fused reading stays possible there, at a ligature's price.
 * Tamil (டி), Kannada, Telugu and Malayalam fonts often fuse them. */
gboolean
_dc_align_may_fuse_spacing_sign (gunichar base)
{
  switch (g_unichar_get_script (base))
    {
    case G_UNICODE_SCRIPT_DEVANAGARI:
    case G_UNICODE_SCRIPT_BENGALI:
    case G_UNICODE_SCRIPT_GURMUKHI:
    case G_UNICODE_SCRIPT_GUJARATI:
      return FALSE;
    default:
      return TRUE;
    }
}

gboolean
_dc_align_is_invisible_format (gunichar c)
{
  return g_unichar_type (c) == G_UNICODE_FORMAT;
}

GArray *
_dc_visual_order (const GArray *logical, gboolean right_to_left)
{
  return _dc_visual_order_marked (logical, right_to_left, NULL);
}

/**
 * _dc_visual_order_marked:
 * @lam_alef: (nullable): set to a flag per character of the result: whether it is the
 *   alef of a lam-alef, which right-to-left order keeps after its lam
 *
 * Like _dc_visual_order().
 */
GArray *
_dc_visual_order_marked (const GArray *logical, gboolean right_to_left, GArray *lam_alef)
{
  GArray *visual = g_array_copy ((GArray *) logical);
  gunichar *c = (gunichar *) (void *) visual->data;

  /* The user types a pre-base vowel sign after its consonant cluster, as Unicode
   * orders it; the font draws it first. */
  for (guint i = 1; i < visual->len; i++)
    {
      guint start;
      gunichar vowel = c[i];

      if (!_dc_is_pre_base_vowel (vowel))
        continue;
      start = i - 1;
      while (start > 0 && g_unichar_ismark (c[start]) && !_dc_is_virama (c[start]))
        start--; /* a nukta on the consonant */
      while (start >= 2 && virama_joins (c[start - 1]))
        start -= 2;
      memmove (&c[start + 1], &c[start], (i - start) * sizeof (gunichar));
      c[start] = vowel;
    }

  /* Khmer's coeng RO and Myanmar's medial RA are drawn before the consonant they follow,
   * after a pre-base vowel sign moved there (ែ ្ រ ក for ក្រែ, ေ ြ က for ကြေ), as
   * HarfBuzz's Khmer and Myanmar shapers order them. */
  for (guint i = 1; i < visual->len; i++)
    {
      guint start, length = _dc_pre_base_consonant_length (c + i, visual->len - i);
      gunichar form[2];

      if (length == 0)
        continue;
      start = i - 1;
      while (start > 0 && g_unichar_ismark (c[start]) && !_dc_is_virama (c[start]))
        start--; /* a medial YA before it */
      while (start >= 2 && virama_joins (c[start - 1]))
        start -= 2; /* subscripts before it (ស្ត្រី) */
      memcpy (form, &c[i], length * sizeof (gunichar));
      memmove (&c[start + length], &c[start], (i - start) * sizeof (gunichar));
      memcpy (&c[start], form, length * sizeof (gunichar));
      i += length - 1;
    }

  /* Kannada and Telugu draw a conjunct's vowel signs on its first consonant, before the
   * subscripts (_dc_is_vowel_sign_before_subscripts()); a Kannada reph is left to the
   * pass below. */
  for (guint i = 0; i + 3 < visual->len; i++)
    {
      GUnicodeScript script = g_unichar_get_script (c[i]);
      guint subscripts = i + 1, signs;

      if ((script != G_UNICODE_SCRIPT_KANNADA && script != G_UNICODE_SCRIPT_TELUGU)
          || !g_unichar_isalpha (c[i])
          || (_dc_is_reph_ra (c[i]) && (i == 0 || !_dc_is_virama (c[i - 1]))))
        continue;
      while (subscripts + 1 < visual->len && _dc_is_virama (c[subscripts])
             && g_unichar_isalpha (c[subscripts + 1]))
        subscripts += 2;
      signs = subscripts;
      while (signs < visual->len && _dc_is_vowel_sign_before_subscripts (c[signs]))
        signs++;
      if (subscripts == i + 1 || signs == subscripts)
        continue;
      rotate_left (&c[i + 1], signs - i - 1, subscripts - i - 1);
      i = signs - 1;
    }

  /* Myanmar's kinzi (င်္ before a consonant) is drawn after that consonant. */
  for (guint i = 0; i + 3 < visual->len; i++)
    if (c[i] == 0x1004 && c[i + 1] == 0x103A && c[i + 2] == 0x1039 && g_unichar_isalpha (c[i + 3]))
      {
        gunichar base = c[i + 3];

        memmove (&c[i + 1], &c[i], 3 * sizeof (gunichar));
        c[i] = base;
        i += 3;
      }

  /* A reph (र् before a consonant) is drawn over the end of the consonant cluster it
   * begins. */
  for (guint i = 0; i + 2 < visual->len; i++)
    {
      guint end;
      gunichar ra = c[i], virama = c[i + 1];

      if (!_dc_is_reph_ra (ra) || !_dc_is_virama (virama) || !g_unichar_isalpha (c[i + 2])
          || (i > 0 && _dc_is_virama (c[i - 1])))
        continue;
      end = i + 3;
      while (end < visual->len && g_unichar_combining_class (c[end]) == 7)
        end++; /* nukta */
      while (end + 1 < visual->len && _dc_is_virama (c[end]) && g_unichar_isalpha (c[end + 1]))
        end += 2;
      memmove (&c[i], &c[i + 2], (end - i - 2) * sizeof (gunichar));
      c[end - 2] = ra;
      c[end - 1] = virama;
      i = end - 1;
    }

  if (right_to_left)
    {
      g_autoptr (GArray)
          reversed = g_array_sized_new (FALSE, FALSE, sizeof (gunichar), visual->len);
      guint end = visual->len;

      if (lam_alef != NULL)
        g_array_set_size (lam_alef, visual->len);
      while (end > 0)
        {
          guint start = _dc_align_rtl_unit_start (c, end);
          guint alef = end - 1;

          while (alef > start && g_unichar_ismark (c[alef]))
            alef--;
          /* A unit that begins before its letter is a lam-alef (the lam, its marks). */
          if (lam_alef != NULL && alef > start)
            g_array_index (lam_alef, guint8, reversed->len + (alef - start)) = TRUE;
          g_array_append_vals (reversed, &c[start], end - start);
          end = start;
        }
      g_array_set_size (visual, 0);
      g_array_append_vals (visual, reversed->data, reversed->len);
    }
  else if (lam_alef != NULL)
    g_array_set_size (lam_alef, visual->len);
  return visual;
}
