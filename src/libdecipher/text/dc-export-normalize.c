/* dc-export-normalize.c: a span's text in the normal form the JSON export promises
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * g_utf8_normalize() decomposes and recomposes every character, which was a tenth of the
 * JSON export of a book, when nearly all of a span's text is already in the form asked
 * for. UAX #15's quick check tells such text without normalizing it: text whose
 * characters each stay as they are under the form, are starters (combining class 0) and
 * can be no character's second half under composition is in that form. Which characters
 * of the Basic Multilingual Plane pass is worked out as they are met; a text with any
 * other is normalized piece by piece, each piece starting at a character that passes
 * (_dc_export_normalize()), and a text beyond the Basic Multilingual Plane or not UTF-8
 * is left whole to g_utf8_normalize(), whose answer is the same either way.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <string.h>

#include "dc-export-private.h"

/* The starters (combining class 0) in the Basic Multilingual Plane that are the second
 * half of a canonical composition: Indic vowel parts and length marks, two Tibetan
 * subjoined letters, Hangul's vowel and final jamo. test-layout.c checks the list against every
 * composition GLib knows. */
static gboolean
is_second_half (gunichar c)
{
  static const gunichar seconds[] = { 0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE,
                                      0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57,
                                      0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35 };

  if ((c >= 0x1161 && c <= 0x1175) || (c >= 0x11A8 && c <= 0x11C2))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (seconds); i++)
    if (seconds[i] == c)
      return TRUE;
  return FALSE;
}

/* Whether @c, a character of the Basic Multilingual Plane, lets a text through
 * unchanged in the form @mode: a starter the form leaves alone, no second half. */
static gboolean
character_is_stable (gunichar c, GNormalizeMode mode)
{
  char utf8[8];
  int length;
  g_autofree char *normal = NULL;

  if (c == 0 || g_unichar_combining_class (c) != 0 || is_second_half (c))
    return FALSE;
  length = g_unichar_to_utf8 (c, utf8);
  utf8[length] = '\0';
  normal = g_utf8_normalize (utf8, length, mode);
  return normal != NULL && strcmp (normal, utf8) == 0;
}

/* Per form, per character of the Basic Multilingual Plane: 0 not asked yet, 1 stable, 2
 * not. Filled as characters are met (a book meets a few hundred), from any thread: each
 * entry is one byte that any thread would set the same. */
static guint8 stable[3][0x10000];

static G_GNUC_NO_INLINE guint8
learn_stable (gunichar c, guint form, GNormalizeMode mode)
{
  guint8 known = character_is_stable (c, mode) ? 1 : 2;

  __atomic_store_n (&stable[form][c], known, __ATOMIC_RELAXED);
  return known;
}

/* Read for each character of every span: inline, the first meeting of a character
 * aside. */
static inline gboolean
is_stable (gunichar c, guint form, GNormalizeMode mode)
{
  guint8 known = __atomic_load_n (&stable[form][c], __ATOMIC_RELAXED);

  if (G_UNLIKELY (known == 0))
    known = learn_stable (c, form, mode);
  return known == 1;
}

static guint
form_index (DcNormalization normalization, GNormalizeMode *mode)
{
  switch (normalization)
    {
    case DC_NORMALIZATION_NFKC:
      *mode = G_NORMALIZE_NFKC;
      return 1;
    case DC_NORMALIZATION_NFD:
      *mode = G_NORMALIZE_NFD;
      return 2;
    case DC_NORMALIZATION_NFC:
    default:
      *mode = G_NORMALIZE_NFC;
      return 0;
    }
}

/**
 * _dc_export_is_normalized:
 *
 * Returns: TRUE when @text is surely valid UTF-8 in @normalization, from its characters
 *   alone; FALSE when it may not be (then g_utf8_normalize() is to say)
 */
/* The character at @p when it is in the Basic Multilingual Plane and well formed UTF-8:
 * its length, else 0. */
static inline guint
decode_bmp (const guchar *p, gunichar *c)
{
  if (*p < 0x80)
    {
      *c = *p;
      return 1;
    }
  if ((*p & 0xe0) == 0xc0 && (p[1] & 0xc0) == 0x80)
    {
      *c = ((gunichar) (*p & 0x1f) << 6) | (p[1] & 0x3f);
      /* An overlong form is no UTF-8. */
      return *c < 0x80 ? 0 : 2;
    }
  if ((*p & 0xf0) == 0xe0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80)
    {
      *c = ((gunichar) (*p & 0x0f) << 12) | ((gunichar) (p[1] & 0x3f) << 6) | (p[2] & 0x3f);
      return *c < 0x800 || (*c >= 0xd800 && *c <= 0xdfff) ? 0 : 3;
    }
  /* Beyond the Basic Multilingual Plane, or no UTF-8. */
  return 0;
}

gboolean
_dc_export_is_normalized (const char *text, DcNormalization normalization)
{
  GNormalizeMode mode;
  guint form = form_index (normalization, &mode);

  for (const guchar *p = (const guchar *) text; *p;)
    {
      gunichar c;
      guint length = decode_bmp (p, &c);

      if (length == 0)
        return FALSE;
      p += length;
      /* ASCII is in every form. */
      if (c >= 0x80 && !is_stable (c, form, mode))
        return FALSE;
    }
  return TRUE;
}

/* The longest piece kept in a cache of pieces, in bytes. */
#define PIECE_MAX 64

/* g_utf8_normalize() of the @length bytes at @piece, from @pieces when it holds them. */
static char *
normalize_piece (const char *piece, gsize length, GNormalizeMode mode, GHashTable *pieces)
{
  char key[PIECE_MAX + 1];
  const char *known;
  char *normal;

  if (pieces == NULL || length > PIECE_MAX)
    return g_utf8_normalize (piece, (gssize) length, mode);
  memcpy (key, piece, length);
  key[length] = '\0';
  known = g_hash_table_lookup (pieces, key);
  if (known != NULL)
    return g_strdup (known);
  normal = g_utf8_normalize (piece, (gssize) length, mode);
  if (normal != NULL)
    g_hash_table_insert (pieces, g_strdup (key), g_strdup (normal));
  return normal;
}

/* A text not in the form asked for is normalized piece by piece: a character that passes
 * the quick check starts a piece, since nothing before it can change it or be changed by
 * it (UAX #15, 9.1), so only the pieces holding others are given to g_utf8_normalize(),
 * whose cost grows with the text it reads: the few combining marks of a long span. */
char *
_dc_export_normalize (const char *text, DcNormalization normalization)
{
  return _dc_export_normalize_cached (text, normalization, NULL);
}

/**
 * _dc_export_normalize_cached:
 * @pieces: (nullable): pieces normalized so far (piece → its normal form) for texts in
 *   @normalization, kept by the caller, added to: a page of Indic text repeats its few
 *   syllables with marks hundreds of times
 *
 * _dc_export_normalize() of @text.
 */
char *
_dc_export_normalize_cached (const char *text, DcNormalization normalization, GHashTable *pieces)
{
  GNormalizeMode mode;
  guint form = form_index (normalization, &mode);
  const guchar *p = (const guchar *) text, *piece = p, *copied = p;
  gboolean changes = FALSE;
  GString *out;

  if (_dc_export_is_normalized (text, normalization))
    return g_strdup (text);
  out = g_string_sized_new (strlen (text) + 16);
  for (;;)
    {
      gunichar c = 0;
      guint length = 0;

      if (*p)
        {
          length = decode_bmp (p, &c);
          if (length == 0)
            {
              /* Outside what the quick check knows: the whole text the slow way. */
              g_string_free (out, TRUE);
              return g_utf8_normalize (text, -1, mode);
            }
        }
      if (*p == '\0' || c < 0x80 || is_stable (c, form, mode))
        {
          /* The piece before @p ends here. */
          if (changes)
            {
              g_autofree char *normal = normalize_piece ((const char *) piece, (gsize) (p - piece),
                                                         mode, pieces);

              g_string_append_len (out, (const char *) copied, (gssize) (piece - copied));
              g_string_append (out, normal);
              copied = p;
            }
          piece = p;
          changes = FALSE;
          if (*p == '\0')
            break;
        }
      else
        changes = TRUE;
      p += length;
    }
  g_string_append_len (out, (const char *) copied, (gssize) (p - copied));
  return g_string_free (out, FALSE);
}
