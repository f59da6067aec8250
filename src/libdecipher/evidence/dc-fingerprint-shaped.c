/* dc-fingerprint-shaped.c: the glyphs of an installed font that only its shaping reaches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Brahmic script draws most of its text with glyphs no character maps to: conjuncts
 * (क्ष, स्थ), half forms (न् before द), reph (र् over the syllable it ends), a vowel sign
 * in the width of the cluster it stands before (ि), a sign and its nasal as one glyph
 * (ें). The font's GSUB picks them, and Noto's Indic fonts name them with words
 * (kassadeva, naprehalfdeva), so neither the cmap nor the names (dc-fingerprint.c) tell
 * what they stand for, and a new user typed them all: 15 words for a Hindi page.
 *
 * So each font with a Brahmic virama in its cmap shapes the script's short clusters with
 * HarfBuzz: every consonant with the virama, every pair of consonants joined by it (and,
 * where the vowel sign i goes before the cluster, with that sign after them), every
 * consonant with each vowel sign, and each vowel sign with each nasal sign (and Sinhala's
 * forms joined by a zero-width joiner). The shaper's clusters say which characters each
 * glyph comes from, so a glyph's text is its characters up to the next glyph's: the two
 * glyphs of न्द are न् and द (shape_cluster() says at which cluster level). A glyph is
 * left out where another shares its characters or the cluster has one that draws nothing
 * (a mark's placeholder), which no split can tell. A glyph that clusters give different
 * texts is indexed with each, as an outline several characters map to is: Noto draws रृ
 * as ऋ and the reph, so the reph's outline also stands for ृ, and the identity level only
 * proposes it. A glyph in the outline of one the cmap maps is left to the cmap's character:
 * Noto Sans Devanagari draws ॅ with ं as one glyph, in the very outline of ँ, which the
 * cmap gives U+0901, and ँ is by far the commoner.
 *
 * Arabic letters join: a font with Arabic letters in its cmap shapes each one that joins
 * between tatweels (ـ), in its initial, medial and final forms, and lam with each alef
 * alone and after a tatweel. Most forms are named for their presentation forms (uniFEF3)
 * and read from their names already; the ones only shaping reaches are not: Noto Naskh
 * Arabic draws the alef of لا after a joining letter with a nameless glyph, typed in
 * every word with ـلا.
 */

#define G_LOG_DOMAIN "dc-fingerprint"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dc-fingerprint-private.h"
#include "dc-harfbuzz-private.h"

/* A script's block, its virama, its consonants, whether its vowel sign i (block +
 * 0x3F) is drawn before the consonants it follows, and the consonants it joins to another
 * after a virama and a zero-width joiner (Sinhala's ශ්‍රී, ක්‍ය). */
typedef struct
{
  gunichar block;
  gunichar virama;
  gunichar first_consonant, last_consonant;
  gboolean i_before;
  gunichar joined[2];
} Script;

static const Script scripts[] = {
  { 0x0900, 0x094D, 0x0915, 0x0939, TRUE },  /* Devanagari */
  { 0x0980, 0x09CD, 0x0995, 0x09B9, TRUE },  /* Bengali */
  { 0x0A00, 0x0A4D, 0x0A15, 0x0A39, TRUE },  /* Gurmukhi */
  { 0x0A80, 0x0ACD, 0x0A95, 0x0AB9, TRUE },  /* Gujarati */
  { 0x0B00, 0x0B4D, 0x0B15, 0x0B39, FALSE }, /* Oriya */
  { 0x0B80, 0x0BCD, 0x0B95, 0x0BB9, FALSE }, /* Tamil */
  { 0x0C00, 0x0C4D, 0x0C15, 0x0C39, FALSE }, /* Telugu */
  { 0x0C80, 0x0CCD, 0x0C95, 0x0CB9, FALSE }, /* Kannada */
  { 0x0D00, 0x0D4D, 0x0D15, 0x0D3A, FALSE }, /* Malayalam */
  /* Noto Sans Sinhala draws ශී with the glyph that also starts ශ්‍රී: shaped too, the
   * second cluster tells the outline stands for either, and it is only proposed. */
  { 0x0D80, 0x0DCA, 0x0D9A, 0x0DC6, FALSE, { 0x0DBB, 0x0DBA } }, /* Sinhala */
};

/* The longest cluster shaped: two consonants, the virama, a joiner and a sign. */
#define MAX_CLUSTER 5

typedef struct
{
  const DcHarfBuzz *hb;
  hb_font_t *font;
  hb_buffer_t *buffer;
  FT_Face face;
  const guint8 *in_cmap;
  guint8 *ink;       /* per glyph: 0 not looked at, 1 draws, 2 draws nothing */
  GHashTable *texts; /* glyph → the texts its clusters gave it (GPtrArray) */
} Shaping;

static gboolean
draws (Shaping *s, guint gid)
{
  if (gid >= (guint) s->face->num_glyphs)
    return FALSE;
  if (s->ink[gid] == 0)
    s->ink[gid] = FT_Load_Glyph (s->face, gid,
                                 FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
                              == 0
                          && s->face->glyph->format == FT_GLYPH_FORMAT_OUTLINE
                          && s->face->glyph->outline.n_points > 0
                      ? 1
                      : 2;
  return s->ink[gid] == 1;
}

/* Whether glyph @gid's name states its characters: dc-fingerprint.c reads those. */
static gboolean
named (Shaping *s, guint gid)
{
  char name[64];

  return FT_HAS_GLYPH_NAMES (s->face) && FT_Get_Glyph_Name (s->face, gid, name, sizeof name) == 0
         && _dc_glyph_name_states_code_points (name);
}

static void
keep (Shaping *s, guint gid, const gunichar *chars, guint n_chars)
{
  g_autofree char *text = g_ucs4_to_utf8 (chars, n_chars, NULL, NULL, NULL);
  g_autofree char *composed = text != NULL ? g_utf8_normalize (text, -1, G_NORMALIZE_NFC) : NULL;
  GPtrArray *texts;

  if (composed == NULL || !_dc_is_glyph_text (composed))
    return;
  if ((texts = g_hash_table_lookup (s->texts, GUINT_TO_POINTER (gid))) == NULL)
    {
      texts = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (s->texts, GUINT_TO_POINTER (gid), texts);
    }
  for (guint i = 0; i < texts->len; i++)
    if (strcmp (g_ptr_array_index (texts, i), composed) == 0)
      return;
  g_ptr_array_add (texts, g_steal_pointer (&composed));
}

static int
compare_glyphs (gconstpointer a, gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (*(gconstpointer const *) a);
  guint y = GPOINTER_TO_UINT (*(gconstpointer const *) b);

  return x < y ? -1 : x > y;
}

/* Glyph @i's characters at the cluster values @clusters: from its own to the next
 * glyph's, as [*start, *end). FALSE where another glyph has the same value (the split is
 * not told) or characters before the first value belong to no glyph. */
static gboolean
glyph_chars (const guint *clusters, guint n_glyphs, guint i, guint n_chars, guint *start,
             guint *end)
{
  guint first = G_MAXUINT;

  *start = clusters[i];
  *end = n_chars;
  for (guint j = 0; j < n_glyphs; j++)
    {
      first = MIN (first, clusters[j]);
      if (j != i && clusters[j] == *start)
        return FALSE;
      if (clusters[j] > *start && clusters[j] < *end)
        *end = clusters[j];
    }
  return first == 0 && *start < n_chars;
}

/* Shapes @chars at @level into @gids and @clusters (MAX_CLUSTER each, as many glyphs as
 * returned, 0 when a glyph is missing, draws nothing (a placeholder the shaper left for a
 * mark another glyph shows) or there are too many: the split is then in doubt). */
static guint
shape_at (Shaping *s, const gunichar *chars, guint n_chars, hb_buffer_cluster_level_t level,
          guint *gids, guint *clusters)
{
  const DcHarfBuzz *hb = s->hb;
  hb_glyph_info_t *infos;
  unsigned int n_glyphs;

  hb->buffer_clear_contents (s->buffer);
  hb->buffer_set_cluster_level (s->buffer, level);
  hb->buffer_add_utf32 (s->buffer, chars, (int) n_chars, 0, (int) n_chars);
  hb->buffer_guess_segment_properties (s->buffer);
  hb->shape (s->font, s->buffer, NULL, 0);
  infos = hb->buffer_get_glyph_infos (s->buffer, &n_glyphs);
  if (n_glyphs > MAX_CLUSTER)
    return 0;
  for (unsigned int i = 0; i < n_glyphs; i++)
    {
      if (infos[i].codepoint == 0 || !draws (s, infos[i].codepoint))
        return 0;
      gids[i] = infos[i].codepoint;
      clusters[i] = infos[i].cluster;
    }
  return n_glyphs;
}

/* Shapes @chars and keeps the text of each glyph the cmap does not reach. At the
 * monotone level a glyph alone in its cluster has exactly its characters, a ligature
 * too (টি drawn as one glyph). Where the shaper moved a glyph (the reph to the end, the
 * vowel sign i to the front) it merges the clusters at that level, and the level of
 * characters, which keeps each glyph's own first character, tells the split. */
static void
shape_cluster (Shaping *s, const gunichar *chars, guint n_chars)
{
  guint gids[MAX_CLUSTER], clusters[MAX_CLUSTER], own_gids[MAX_CLUSTER], own[MAX_CLUSTER];
  guint n_glyphs, start, end;
  gboolean wanted[MAX_CLUSTER], merged = FALSE;

  if ((n_glyphs = shape_at (s, chars, n_chars, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS, gids,
                            clusters))
      == 0)
    return;
  for (guint i = 0; i < n_glyphs; i++)
    {
      wanted[i] = (s->in_cmap[gids[i] / 8] & (1u << (gids[i] % 8))) == 0 && !named (s, gids[i]);
      if (wanted[i] && glyph_chars (clusters, n_glyphs, i, n_chars, &start, &end))
        keep (s, gids[i], chars + start, end - start);
      else
        merged |= wanted[i];
    }
  /* Only where a wanted glyph was moved is the cluster shaped again, at the other level. */
  if (!merged
      || shape_at (s, chars, n_chars, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS, own_gids, own) != n_glyphs
      || memcmp (gids, own_gids, n_glyphs * sizeof (guint)) != 0)
    return;
  for (guint i = 0; i < n_glyphs; i++)
    if (wanted[i] && !glyph_chars (clusters, n_glyphs, i, n_chars, &start, &end)
        && glyph_chars (own, n_glyphs, i, n_chars, &start, &end))
      keep (s, gids[i], chars + start, end - start);
}

static gboolean
mapped (FT_Face face, gunichar c)
{
  return FT_Get_Char_Index (face, c) != 0;
}

static void
shape_script (Shaping *s, const Script *script)
{
  g_autoptr (GArray) consonants = g_array_new (FALSE, FALSE, sizeof (gunichar));
  g_autoptr (GArray) signs = g_array_new (FALSE, FALSE, sizeof (gunichar));
  gunichar cluster[MAX_CLUSTER], v = script->virama, i_sign = script->block + 0x3F;

  for (gunichar c = script->block; c < script->block + 0x80; c++)
    {
      GUnicodeType type = g_unichar_type (c);

      if (!mapped (s->face, c))
        continue;
      /* With the letters that take a nukta, made one (क़), where the block has them. */
      if (type == G_UNICODE_OTHER_LETTER
          && ((c >= script->first_consonant && c <= script->last_consonant)
              || (c >= script->block + 0x58 && c <= script->block + 0x5F)))
        g_array_append_val (consonants, c);
      else if ((type == G_UNICODE_NON_SPACING_MARK || type == G_UNICODE_SPACING_MARK) && c != v)
        g_array_append_val (signs, c);
    }
  if (consonants->len == 0)
    return;

  for (guint a = 0; a < consonants->len; a++)
    {
      cluster[0] = g_array_index (consonants, gunichar, a);
      cluster[1] = v;
      shape_cluster (s, cluster, 2);
      for (guint m = 0; m < signs->len; m++)
        {
          cluster[1] = g_array_index (signs, gunichar, m);
          shape_cluster (s, cluster, 2);
        }
      cluster[1] = v;
      for (guint b = 0; b < consonants->len; b++)
        {
          cluster[2] = g_array_index (consonants, gunichar, b);
          shape_cluster (s, cluster, 3);
          if (script->i_before && mapped (s->face, i_sign))
            {
              cluster[3] = i_sign;
              shape_cluster (s, cluster, 4);
            }
        }
    }
  for (guint a = 0; a < consonants->len; a++)
    for (guint j = 0; j < G_N_ELEMENTS (script->joined) && script->joined[j] != 0; j++)
      {
        cluster[0] = g_array_index (consonants, gunichar, a);
        cluster[1] = v;
        cluster[2] = 0x200D;
        cluster[3] = script->joined[j];
        shape_cluster (s, cluster, 4);
        for (guint m = 0; m < signs->len; m++)
          {
            cluster[4] = g_array_index (signs, gunichar, m);
            shape_cluster (s, cluster, 5);
          }
      }
  /* A sign with the nasal or visarga after it (े + ं drawn as one), on one consonant:
   * the glyph is the signs', whichever consonant they follow. */
  cluster[0] = g_array_index (consonants, gunichar, 0);
  for (guint m = 0; m < signs->len; m++)
    for (gunichar nasal = script->block + 0x01; nasal <= script->block + 0x03; nasal++)
      {
        cluster[1] = g_array_index (signs, gunichar, m);
        cluster[2] = nasal;
        if (cluster[1] != nasal && mapped (s->face, nasal))
          shape_cluster (s, cluster, 3);
      }
}

#define TATWEEL 0x0640
#define LAM 0x0644

/* The Arabic letters of the basic block and its extensions: Arabic (U+0620–U+06FF) and
 * Arabic Supplement (U+0750–U+077F). */
static gboolean
is_arabic_letter (gunichar c)
{
  return ((c >= 0x0620 && c <= 0x06FF) || (c >= 0x0750 && c <= 0x077F))
         && g_unichar_type (c) == G_UNICODE_OTHER_LETTER && c != TATWEEL;
}

/* Whether @face has Arabic letters that join (a lam and a tatweel in its cmap). */
static gboolean
has_arabic (FT_Face face)
{
  return mapped (face, LAM) && mapped (face, TATWEEL);
}

static void
shape_arabic (Shaping *s)
{
  static const gunichar alefs[] = { 0x0622, 0x0623, 0x0625, 0x0627 };
  gunichar cluster[MAX_CLUSTER];

  for (gunichar c = 0x0620; c <= 0x077F; c++)
    {
      if (!is_arabic_letter (c) || !mapped (s->face, c))
        continue;
      /* Initial, medial and final: a letter that does not join forward shapes as the
       * isolated or final form, which the cmap or the forms before give already. */
      cluster[0] = c, cluster[1] = TATWEEL;
      shape_cluster (s, cluster, 2);
      cluster[0] = TATWEEL, cluster[1] = c, cluster[2] = TATWEEL;
      shape_cluster (s, cluster, 3);
      cluster[0] = TATWEEL, cluster[1] = c;
      shape_cluster (s, cluster, 2);
    }
  for (guint a = 0; a < G_N_ELEMENTS (alefs); a++)
    {
      if (!mapped (s->face, alefs[a]))
        continue;
      cluster[0] = LAM, cluster[1] = alefs[a];
      shape_cluster (s, cluster, 2);
      cluster[0] = TATWEEL, cluster[1] = LAM, cluster[2] = alefs[a];
      shape_cluster (s, cluster, 3);
    }
}

/**
 * _dc_fingerprint_shapes:
 *
 * Returns: whether @face has a script to shape: a Brahmic one (a virama in its cmap) or
 *   Arabic letters that join
 */
gboolean
_dc_fingerprint_shapes (FT_Face face)
{
  for (guint i = 0; i < G_N_ELEMENTS (scripts); i++)
    if (mapped (face, scripts[i].virama))
      return TRUE;
  return has_arabic (face);
}

void
_dc_fingerprint_scan_shaped (FT_Library library, FT_Face face, const char *path, int face_index,
                             const guint8 *in_cmap, GHashTable *cmap_outlines, DcShapeTextFunc func,
                             gpointer user_data)
{
  Shaping s = { 0 };
  hb_blob_t *blob;
  hb_face_t *hb_face;
  g_autofree gpointer *glyphs = NULL;
  guint n_glyphs;

  if ((s.hb = _dc_harfbuzz ()) == NULL)
    return;

  blob = s.hb->blob_create_from_file (path);
  hb_face = s.hb->face_create (blob, (unsigned int) face_index);
  s.hb->blob_destroy (blob);
  s.font = s.hb->font_create (hb_face);
  s.hb->face_destroy (hb_face);
  s.buffer = s.hb->buffer_create ();
  s.face = face;
  s.in_cmap = in_cmap;
  s.ink = g_new0 (guint8, face->num_glyphs);
  s.texts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < G_N_ELEMENTS (scripts); i++)
    if (mapped (face, scripts[i].virama))
      shape_script (&s, &scripts[i]);
  if (has_arabic (face))
    shape_arabic (&s);

  /* In glyph order: the index gets the same rows in the same order at every build. */
  glyphs = g_hash_table_get_keys_as_array (s.texts, &n_glyphs);
  qsort (glyphs, n_glyphs, sizeof (gpointer), compare_glyphs);
  for (guint i = 0; i < n_glyphs; i++)
    {
      GPtrArray *texts = g_hash_table_lookup (s.texts, glyphs[i]);
      DcShape shape;

      if (!_dc_shape_from_face (library, face, GPOINTER_TO_UINT (glyphs[i]), &shape, FALSE)
          || g_hash_table_contains (cmap_outlines, shape.fingerprint))
        continue;
      for (guint t = 0; t < texts->len; t++)
        func (g_ptr_array_index (texts, t), &shape, user_data);
    }
  g_hash_table_unref (s.texts);
  g_free (s.ink);
  s.hb->buffer_destroy (s.buffer);
  s.hb->font_destroy (s.font);
}
