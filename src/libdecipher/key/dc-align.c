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
 */

#define G_LOG_DOMAIN "dc-align"

#include "config.h"

#include <string.h>

#include "dc-align-private.h"
#include "dc-reorder-private.h"
#include "dc-tsan-private.h"

#define LIGATURE_COST 3   /* per extra cluster a single glyph stands for */
#define RESEGMENT_COST 2  /* per token end that falls inside a typed word (free_words) */
#define CONJUNCT_COST 2   /* the same, for clusters a virama joins */
#define HELD_VALUE_COST 2 /* a value another symbol already has */
#define MAX_SEARCH_STEPS 20000
#define HELD_CACHE_LENGTH 8 /* typed code points a cached answer may cover */
#define OMITTED_COST 4      /* a punctuation glyph read without being typed */
#define MONGOLIAN_VOWEL_SEPARATOR 0x180E

GArray *
_dc_nfd_of (const char *text)
{
  g_autofree char *nfd = g_utf8_normalize (text, -1, G_NORMALIZE_NFD);
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (gunichar));

  for (const char *p = nfd; p != NULL && *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
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

void
_dc_typed_prepare (Typed *typed, char **words, gboolean right_to_left)
{
  guint n_words = g_strv_length (words);

  typed->chars = g_array_new (FALSE, FALSE, sizeof (gunichar));
  typed->word_end = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->cluster_end = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->n_clusters = g_array_new (FALSE, FALSE, sizeof (guint));
  typed->right_to_left = right_to_left;

  for (guint w = 0; w < n_words; w++)
    {
      /* Right-to-left text is drawn last word first, each word's clusters reversed. */
      const char *word = words[right_to_left ? n_words - 1 - w : w];
      g_autoptr (GArray) logical = _dc_nfd_of (word);
      g_autoptr (GArray) visual = _dc_visual_order (logical, right_to_left);
      guint start = typed->chars->len, clusters = 0;

      g_array_append_vals (typed->chars, visual->data, visual->len);
      g_array_set_size (typed->cluster_end, typed->chars->len);
      for (guint j = start; j < typed->chars->len;)
        {
          guint end = j + 1;

          /* A pre-base vowel sign, moved before its consonant, belongs with it, not
           * with the letter before (ந் | ை த, not ந்ை). */
          /* A zero-width joiner selects the form of the letter before it (ত্‍ is
           * khanda ta's glyph), so it belongs to that letter's cluster. */
          while (end < typed->chars->len
                 && ((g_unichar_ismark (g_array_index (typed->chars, gunichar, end))
                      && !_dc_is_pre_base_vowel (g_array_index (typed->chars, gunichar, end)))
                     || g_array_index (typed->chars, gunichar, end) == 0x200D))
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

static gboolean
chars_equal (const Typed *typed, guint start, const gunichar *value, guint length)
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
 * glyph followed by a zero-width alef, in logical order either way. */
static guint
rtl_unit_start (const gunichar *c, guint end)
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
        guint first = rtl_unit_start (visual, end);

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
static gboolean
is_conjunct (const Typed *typed, guint start, guint end)
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

static gboolean
is_plausible_ligature (const Typed *typed, guint start, guint end)
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

static gboolean
is_plausible_ligature_uncached (const Typed *typed, guint start, guint end)
{
  g_autofree char *letters = NULL;

  if (is_conjunct (typed, start, end))
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
  letters = g_ucs4_to_utf8 (&g_array_index (typed->chars, gunichar, start), end - start, NULL, NULL,
                            NULL);
  return letters != NULL && g_hash_table_contains (known_ligatures (), letters);
}

/* Fonts draw a conjunct's vowel sign as a glyph of its own far more often than inside
 * the conjunct's glyph (रु, हृ are the exceptions), so a ligature taking one costs more. */
static gboolean
has_vowel_sign (const Typed *typed, guint start, guint end)
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
static gboolean
post_base_form_at (const Typed *typed, guint i)
{
  return i + 1 < typed->chars->len && _dc_is_virama (g_array_index (typed->chars, gunichar, i))
         && _dc_takes_post_base_form (g_array_index (typed->chars, gunichar, i + 1));
}

static gboolean
is_fused_tamil_sign (gunichar c)
{
  return c == 0x0BC1 || c == 0x0BC2;
}

/* Whether the stretch is a letter with a spacing vowel sign (யி, কা, की), which fonts
 * draw as two glyphs far more often than as one — Tamil's u and uu signs (கு, மூ) aside,
 * which always fuse with their consonant. Several glyphs for one sign (the three ி of
 * Noto Sans Tamil) must not make the fused reading the cheaper one. */
static gboolean
draws_spacing_sign (const Typed *typed, guint start, guint end)
{
  if (end - start < 2 || g_unichar_ismark (g_array_index (typed->chars, gunichar, start)))
    return FALSE;
  for (guint i = start + 1; i < end; i++)
    {
      gunichar c = g_array_index (typed->chars, gunichar, i);

      if (g_unichar_type (c) == G_UNICODE_SPACING_MARK && !is_fused_tamil_sign (c))
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_invisible_format (gunichar c)
{
  return g_unichar_type (c) == G_UNICODE_FORMAT;
}

static const Binding *
find_binding (const Search *s, guint symbol)
{
  for (guint i = 0; i < s->bindings->len; i++)
    {
      const Binding *b = &g_array_index (s->bindings, Binding, i);

      if (b->symbol == symbol)
        return b;
    }
  return NULL;
}

/**
 * _dc_held_cache_new:
 *
 * Whether a font's symbol holds a stretch of the typed text is asked at every step of
 * every run's search, and each answer costs a normalisation and a formatted key: a
 * query asks it once per (font, stretch) and keeps the answer here. The holders must
 * not change while it is used (they change only when the key does, between queries).
 *
 * Returns: (transfer full): an empty cache for searches of @typed
 */
guint32 *
_dc_held_cache_new (const Typed *typed)
{
  return g_new0 (guint32, MAX (1, typed->chars->len) * (HELD_CACHE_LENGTH + 1));
}

/* Whether another symbol of @font holds the typed stretch as its value. */
static gboolean
value_is_held_by_font (const Search *s, guint font, guint start, guint length)
{
  guint32 *cached = NULL;
  gboolean held;

  if (s->held_cache != NULL && length <= HELD_CACHE_LENGTH)
    {
      /* An entry is (font + 1) << 1 | held, 0 when not asked yet. */
      cached = &s->held_cache[start * (HELD_CACHE_LENGTH + 1) + length];
      if (*cached >> 1 == font + 1)
        return *cached & 1;
    }
  {
    g_autofree char *value = _dc_chars_to_nfc (s->typed, start, length);
    g_autofree char *key = _dc_holder_key (font, value);

    held = g_hash_table_contains (s->holders, key);
  }
  if (cached != NULL)
    *cached = (font + 1) << 1 | held;
  return held;
}

static gboolean
value_is_held (const Search *s, guint symbol, guint start, guint length)
{
  const DcSymbol *info = dc_document_get_symbol (s->document, symbol);

  if (value_is_held_by_font (s, info->font, start, length))
    return TRUE;
  /* Two unknown symbols of one run taking one value is as suspicious. */
  for (guint i = 0; i < s->bindings->len; i++)
    {
      const Binding *b = &g_array_index (s->bindings, Binding, i);

      if (b->length == length && !b->contradicts
          && memcmp (&g_array_index (s->typed->chars, gunichar, b->start),
                     &g_array_index (s->typed->chars, gunichar, start), length * sizeof (gunichar))
                 == 0)
        return TRUE;
    }
  return FALSE;
}

static void search_from (Search *s, guint glyph, guint at, guint word);

/* Glyphs from @glyph to the end of its word known to spell nothing. */
static guint
silent_glyphs (const Search *s, guint glyph, guint word)
{
  guint silent = 0;

  for (guint g = glyph; g < s->token_end[word]; g++)
    {
      const GArray *known = g_ptr_array_index (s->nfd_values, s->symbols[g]);

      silent += known != NULL && known->len == 0;
    }
  return silent;
}

/* A glyph drawn over its neighbour with no advance is a mark (or a reph), not a letter
 * of its own: ों after च्च, not चों. */
static gboolean
is_unlikely_for_glyph (const Search *s, guint glyph, guint at, guint length)
{
  gunichar first;

  if (s->no_advance == NULL || !s->no_advance[glyph] || length == 0)
    return FALSE;
  first = g_array_index (s->typed->chars, gunichar, at);
  if (g_unichar_ismark (first))
    return FALSE;
  /* The alef of a lam-alef, drawn with no advance over its lam's glyph. */
  if (at > 0
      && rtl_unit_start ((const gunichar *) (void *) s->typed->chars->data,
                         g_array_index (s->typed->cluster_end, guint, at))
             < at)
    return FALSE;
  return !(length == 2 && _dc_is_reph_ra (first)
           && _dc_is_virama (g_array_index (s->typed->chars, gunichar, at + 1)));
}

/* And the other way round: a glyph with an advance of its own spelling only marks that
 * Unicode draws over or under their base (், ँ), not beside it. */
static gboolean
is_unlikely_for_spacing_glyph (const Search *s, guint glyph, guint at, guint length)
{
  /* Tamil's u and uu signs have no glyph of their own: டு, மூ are each one glyph. */
  if (length == 1 && is_fused_tamil_sign (g_array_index (s->typed->chars, gunichar, at)))
    return TRUE;
  if (s->no_advance == NULL || s->no_advance[glyph] || length == 0)
    return FALSE;
  for (guint i = at; i < at + length; i++)
    if (g_unichar_type (g_array_index (s->typed->chars, gunichar, i)) != G_UNICODE_NON_SPACING_MARK)
      return FALSE;
  return TRUE;
}

static gboolean
crosses_swapped_mark (const Search *s, guint at, guint length)
{
  return s->swapped_end > 0 && at < s->swapped_end && s->swapped_start < at + length;
}

/* Whether what is typed at @at is drawn in two glyphs in the other order, the later
 * stretch [@later, @later_end) first: a vowel sign with an above mark (া ঁ), or a lam
 * (with its marks) and its alef (with its own). */
static gboolean
drawn_before (const Typed *typed, guint at, guint word_end, guint *later, guint *later_end)
{
  const gunichar *c = (const gunichar *) (void *) typed->chars->data;
  guint cluster_end = g_array_index (typed->cluster_end, guint, at);

  if (at + 1 < word_end && cluster_end == at + 2 && _dc_is_spacing_vowel_sign (c[at])
      && g_unichar_type (c[at + 1]) == G_UNICODE_NON_SPACING_MARK
      && g_unichar_combining_class (c[at + 1]) == 0)
    {
      *later = at + 1;
      *later_end = at + 2;
      return TRUE;
    }
  if (c[at] == 0x0644 && cluster_end < word_end
      && (c[cluster_end] == 0x0627 || c[cluster_end] == 0x0622 || c[cluster_end] == 0x0623
          || c[cluster_end] == 0x0625))
    {
      *later = cluster_end;
      *later_end = g_array_index (typed->cluster_end, guint, cluster_end);
      return TRUE;
    }
  return FALSE;
}

/* Whether a typed word ends strictly inside chars [at, at + length): with free word
 * breaks, a glyph never spells across a typed space. */
static gboolean
crosses_typed_break (const Search *s, guint at, guint length)
{
  const GArray *word_end = s->typed->word_end;

  if (!s->free_words)
    return FALSE;
  for (guint w = 0; w < word_end->len; w++)
    {
      guint end = g_array_index (word_end, guint, w);

      if (end > at && end < at + length)
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_typed_word_end (const Typed *typed, guint at)
{
  for (guint w = 0; w < typed->word_end->len; w++)
    if (g_array_index (typed->word_end, guint, w) == at)
      return TRUE;
  return FALSE;
}

static void
try_binding (Search *s, guint glyph, guint at, guint word, guint symbol, guint length, int cost,
             gboolean contradicts)
{
  Binding binding = { symbol, at, length, contradicts };

  if (crosses_swapped_mark (s, at, length) || crosses_typed_break (s, at, length))
    return;
  if (!contradicts
      && (is_unlikely_for_glyph (s, glyph, at, length)
          || is_unlikely_for_spacing_glyph (s, glyph, at, length)))
    cost += LIGATURE_COST;
  /* A nukta is drawn in its consonant's glyph (फ़), or alone over it: not at the head of
   * the next glyph's value (फ + ़ै). */
  if (!contradicts && length > 1
      && g_unichar_combining_class (g_array_index (s->typed->chars, gunichar, at)) == 7)
    cost += 1;

  g_array_append_val (s->bindings, binding);
  s->cost += cost;
  s->contradictions += contradicts;
  search_from (s, glyph + 1, at + length, word);
  s->contradictions -= contradicts;
  s->cost -= cost;
  g_array_set_size (s->bindings, s->bindings->len - 1);
}

static gboolean
worse_than_best (const Search *s)
{
  guint disagreements = s->contradictions + s->inconsistencies;

  return s->found
         && (disagreements > s->best_contradictions
             || (disagreements == s->best_contradictions && s->cost >= s->best_cost));
}

static void
record_solution (Search *s)
{
  if (worse_than_best (s))
    return;
  s->found = TRUE;
  s->best_cost = s->cost;
  s->best_contradictions = s->contradictions + s->inconsistencies;
  s->best_inconsistencies = s->inconsistencies;
  g_array_set_size (s->best, 0);
  g_array_append_vals (s->best, s->bindings->data, s->bindings->len);
}

/* Where search_from() stands: the glyph it reads, the character typed there, the word
 * both are in, and what is known of the glyph's symbol. */
typedef struct
{
  guint glyph;
  guint at;
  guint word;
  guint word_end;
  guint symbol;
  const GArray *known;  /* the key's value in NFD, or NULL while unknown */
  const Binding *bound; /* what this reading already made the symbol spell, or NULL */
} Step;

/* Moves on to the next word at the end of a token and rules out what cannot spell the
 * rest. Returns FALSE when the search ends here (a whole reading is recorded then). */
static gboolean
begin_step (Search *s, guint glyph, guint at, guint word, Step *step)
{
  const Typed *typed = s->typed;
  guint glyphs_left, chars_left;

  /* With free word breaks the whole input is one stretch: search_from() moves on from
   * token to token. */
  step->word_end = s->free_words ? typed->chars->len : g_array_index (typed->word_end, guint, word);
  if (glyph == s->token_end[word] && !s->free_words)
    {
      if (at != step->word_end)
        return FALSE;
      if (++word == _dc_typed_n_words (typed) || word == s->n_words_only)
        {
          record_solution (s);
          return FALSE;
        }
      step->word_end = g_array_index (typed->word_end, guint, word);
    }
  step->glyph = glyph;
  step->at = at;
  step->word = word;

  glyphs_left = s->token_end[word] - glyph;
  chars_left = step->word_end - at;
  step->symbol = s->symbols[glyph];
  step->known = g_ptr_array_index (s->nfd_values, step->symbol);

  /* A glyph spells at least one character, unless it is known to spell nothing. */
  if (chars_left == 0 && (step->known == NULL || step->known->len > 0))
    return FALSE;
  if (glyphs_left > chars_left && glyphs_left - silent_glyphs (s, glyph, word) > chars_left)
    return FALSE;

  step->bound = find_binding (s, step->symbol);
  return TRUE;
}

/* The punctuation the user left out: a glyph that spells nothing typed elsewhere in the
 * run and that the table knows as punctuation, nothing, or not at all. */
static void
pass_omitted_punctuation (Search *s, const Step *step)
{
  gboolean punctuation = step->bound == NULL;

  for (guint i = 0; punctuation && step->known != NULL && i < step->known->len; i++)
    punctuation = g_unichar_ispunct (g_array_index (step->known, gunichar, i));
  if (punctuation)
    {
      s->cost += OMITTED_COST;
      search_from (s, step->glyph + 1, step->at + 1, step->word);
      s->cost -= OMITTED_COST;
    }
}

/* A zero-advance glyph drawn before the glyph of what it follows: the candrabindu of
 * তাঁ before its া (Noto Sans Bengali), the alef of a lam-alef before its lam (HarfBuzz
 * decomposing the ligature). This glyph spells the later stretch, the next glyph the
 * earlier one. */
static void
try_drawn_before (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  guint later, later_end, length;
  gboolean spells;

  if (s->swapped_end != 0 || s->no_advance == NULL || !s->no_advance[step->glyph]
      || !drawn_before (typed, step->at, step->word_end, &later, &later_end))
    return;

  length = later_end - later;
  if (bound != NULL)
    spells = bound->length == length
             && chars_equal (typed, later, &g_array_index (typed->chars, gunichar, bound->start),
                             length);
  else if (known != NULL)
    spells = known->len == length
             && chars_equal (typed, later, (const gunichar *) (void *) known->data, length);
  else
    spells = TRUE;

  if (spells)
    {
      Binding binding = { step->symbol, later, length, FALSE };
      gboolean bind = bound == NULL && known == NULL;

      if (bind)
        g_array_append_val (s->bindings, binding);
      s->swapped_start = later;
      s->swapped_end = later_end;
      s->cost += 1;
      search_from (s, step->glyph + 1, step->at, step->word);
      s->cost -= 1;
      s->swapped_end = 0;
      if (bind)
        g_array_set_size (s->bindings, s->bindings->len - 1);
    }
}

/* A format character typed (ZWNJ, ZWJ, the Mongolian vowel separator) draws no glyph of
 * its own: it is passed over, or, for the vowel separator, spelled with the letter after
 * it, whose glyph is the form it selects (ᠷ᠎ᠡ). Returns whether the step is taken care
 * of: FALSE when the glyph spells the format character itself. */
static gboolean
pass_invisible_format (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  gunichar format = g_array_index (typed->chars, gunichar, step->at);
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  gboolean spelled = (bound != NULL && bound->length > 0
                      && g_array_index (typed->chars, gunichar, bound->start) == format)
                     || (bound == NULL && known != NULL && known->len > 0
                         && g_array_index (known, gunichar, 0) == format);
  int cost = format == MONGOLIAN_VOWEL_SEPARATOR ? 1 : 0;

  if (spelled)
    return FALSE;
  if (bound == NULL && known == NULL && format == MONGOLIAN_VOWEL_SEPARATOR
      && step->at + 1 < step->word_end)
    {
      guint length = g_array_index (typed->cluster_end, guint, step->at + 1) - step->at;

      try_binding (s, step->glyph, step->at, step->word, step->symbol, length,
                   value_is_held (s, step->symbol, step->at, length) ? HELD_VALUE_COST : 0, FALSE);
    }
  s->cost += cost;
  search_from (s, step->glyph, step->at + 1, step->word);
  s->cost -= cost;
  return TRUE;
}

/* A symbol this reading already bound: it must spell the same again. */
static void
follow_binding (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  const Binding *bound = step->bound;
  const GArray *known = step->known;
  guint at = step->at;

  if (at + bound->length <= step->word_end && !crosses_swapped_mark (s, at, bound->length)
      && chars_equal (typed, at, &g_array_index (typed->chars, gunichar, bound->start),
                      bound->length))
    search_from (s, step->glyph + 1, at + bound->length, step->word);
  /* Typed once against the table and once with it: more likely a slip of the keyboard
   * than a wrong table, which tells the user where to look. */
  else if (bound->contradicts && known != NULL && at + known->len <= step->word_end
           && chars_equal (typed, at, (const gunichar *) (void *) known->data, known->len))
    {
      s->inconsistencies++;
      search_from (s, step->glyph + 1, at + known->len, step->word);
      s->inconsistencies--;
    }
}

/* A symbol the table knows: it spells its value, or, when the search may relax, what the
 * user typed against the table. */
static void
follow_known (Search *s, const Step *step)
{
  const GArray *known = step->known;
  DcKeyStatus status;

  if (step->at + known->len <= step->word_end && !crosses_swapped_mark (s, step->at, known->len)
      && chars_equal (s->typed, step->at, (const gunichar *) (void *) known->data, known->len))
    {
      search_from (s, step->glyph + 1, step->at + known->len, step->word);
      return;
    }
  status = dc_key_get_status (s->key, step->symbol);
  if (!s->relaxed || (status == DC_KEY_FROM_PDF && !s->relax_all))
    return;
  try_binding (s, step->glyph, step->at, step->word, step->symbol,
               g_array_index (s->typed->cluster_end, guint, step->at) - step->at, 0, TRUE);
}

/* What it costs to read clusters [@at, @previous + 1) as one glyph, @clusters of them. */
static int
joined_cost (const Typed *typed, guint at, guint previous, guint clusters)
{
  /* A below- or post-base form (্য, ্র) is one glyph for the virama and the consonant
   * after it: no ligature. */
  if (clusters == 2 && previous == at + 1 && post_base_form_at (typed, at))
    return 0;
  /* Most conjuncts are one glyph in Bengali fonts (ন্ধ, ক্ত): a little cheaper than a
   * mark's glyph spelling the letter before it (ন্ + ধু) — unless the conjunct ends in a
   * below- or post-base form, which has a glyph of its own (ক্ষ + ্য, not ক্ + ষ্য). */
  if (is_conjunct (typed, at, previous + 1)
      && !(previous >= at + 2 && post_base_form_at (typed, previous - 1)))
    return (int) (clusters - 1) * CONJUNCT_COST;
  return (int) (clusters - 1) * LIGATURE_COST;
}

/* An unknown symbol: a whole cluster, a single code point of it (a mark drawn as its own
 * glyph, or the base it sits on), or a ligature of two or three clusters. */
static void
try_unknown (Search *s, const Step *step)
{
  const Typed *typed = s->typed;
  guint glyph = step->glyph, at = step->at, word = step->word, symbol = step->symbol;
  guint cluster = g_array_index (typed->cluster_end, guint, at) - at;
  guint end = at;

  for (guint clusters = 1; clusters <= 3 && end < step->word_end; clusters++)
    {
      guint length, previous = end;
      int joined;

      end = g_array_index (typed->cluster_end, guint, end);
      length = end - at;
      joined = joined_cost (typed, at, previous, clusters);
      /* A conjunct glyph followed by the glyph of its vowel sign (स्थ + ा for स्था): the
       * conjunct takes the last cluster's consonant, not its marks. */
      if (clusters > 1 && end - previous > 1 && is_plausible_ligature (typed, at, previous + 1))
        try_binding (s, glyph, at, word, symbol, previous + 1 - at,
                     joined
                         + (value_is_held (s, symbol, at, previous + 1 - at) ? HELD_VALUE_COST : 0),
                     FALSE);
      if (clusters > 1 && !is_plausible_ligature (typed, at, end))
        continue;
      try_binding (s, glyph, at, word, symbol, length,
                   joined
                       /* দ্ + য: the virama belongs to the য-phala's glyph. */
                       + (length > 1 && post_base_form_at (typed, end - 1) ? 1 : 0)
                       + (clusters == 1 && draws_spacing_sign (typed, at, end) ? 1 : 0)
                       + (clusters > 1 && end - previous > 1
                                  && has_vowel_sign (typed, previous + 1, end)
                              ? LIGATURE_COST
                              : 0)
                       + (value_is_held (s, symbol, at, length) ? HELD_VALUE_COST : 0),
                   FALSE);
    }
  /* The base alone, or with some of its marks, the rest drawn by the glyphs after: ज़ + ा
   * (a nukta form before its vowel sign), हू + ँ (a consonant-vowel ligature before the
   * candrabindu). */
  for (guint prefix = 1; prefix < cluster; prefix++)
    try_binding (s, glyph, at, word, symbol, prefix,
                 value_is_held (s, symbol, at, prefix) ? HELD_VALUE_COST : 0, FALSE);
}

/* The aligner's search: glyph @glyph against character @at of word @word, each way a
 * glyph can spell what is typed tried in turn (try_binding() recurses back here). */
static void
search_from (Search *s, guint glyph, guint at, guint word)
{
  Step step;

  if (++s->steps > MAX_SEARCH_STEPS)
    {
      s->gave_up = TRUE;
      return;
    }
  if (worse_than_best (s))
    return;

  /* The stretch a swapped glyph already spelled is passed over. */
  if (s->swapped_end > 0 && at == s->swapped_start)
    {
      guint swapped_end = s->swapped_end;

      s->swapped_end = 0;
      search_from (s, glyph, swapped_end, word);
      s->swapped_end = swapped_end;
      return;
    }

  if (s->free_words && glyph == s->token_end[word])
    {
      const Typed *typed = s->typed;
      int cost;

      /* A token ends at a cluster boundary; where no typed space is, that costs. */
      if (at > 0 && at < typed->chars->len
          && g_array_index (typed->cluster_end, guint, at - 1) != at)
        return;
      if (word + 1 == s->n_tokens)
        {
          if (at == typed->chars->len)
            record_solution (s);
          return;
        }
      cost = is_typed_word_end (typed, at) ? 0 : RESEGMENT_COST;
      s->cost += cost;
      search_from (s, glyph, at, word + 1);
      s->cost -= cost;
      return;
    }
  if (!begin_step (s, glyph, at, word, &step))
    return;

  if (step.at < step.word_end
      && g_array_index (s->typed->chars, gunichar, step.at) == DC_TYPED_OMITTED_PUNCTUATION)
    {
      pass_omitted_punctuation (s, &step);
      return;
    }
  try_drawn_before (s, &step);
  if (step.at < step.word_end
      && is_invisible_format (g_array_index (s->typed->chars, gunichar, step.at))
      && pass_invisible_format (s, &step))
    return;
  if (step.bound != NULL)
    follow_binding (s, &step);
  else if (step.known != NULL)
    follow_known (s, &step);
  else
    try_unknown (s, &step);
}

/* Aligns the typed words with the run; on return s->found says whether a reading
 * exists and s->best holds the cheapest one. s->bindings, the search's scratch, may be
 * given (the caller's, emptied here and left to it) or left NULL.
 *
 * With s->n_words_only, the search ends where those first words are read: until a
 * whole reading is found, the search of a run goes through exactly the readings of its
 * first words that this one goes through, so when this one finds none and has not
 * given up, neither does the search of any run that starts with the same glyphs. */
void
_dc_search_run (Search *s)
{
  gboolean own_bindings = s->bindings == NULL;

  g_assert (s->typed != NULL && s->symbols != NULL && s->token_end != NULL);
  g_assert (!s->free_words || s->n_tokens > 0);

  if (own_bindings)
    s->bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  g_array_set_size (s->bindings, 0);
  s->best = g_array_new (FALSE, FALSE, sizeof (Binding));
  search_from (s, 0, 0, 0);
  if (own_bindings)
    g_clear_pointer (&s->bindings, g_array_unref);
  else
    s->bindings = NULL;
}
GArray *
_dc_visual_order (const GArray *logical, gboolean right_to_left)
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

      while (end > 0)
        {
          guint start = rtl_unit_start (c, end);

          g_array_append_vals (reversed, &c[start], end - start);
          end = start;
        }
      g_array_set_size (visual, 0);
      g_array_append_vals (visual, reversed->data, reversed->len);
    }
  return visual;
}
