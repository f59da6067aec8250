/* dc-lookalikes.c: which of a set of look-alike characters a glyph draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * OCR reads a letter it does not know as its nearest letter (Nivkh ӿ as х, Kazakh Қ as
 * К) and confuses marks that differ by a width or a stroke (– and —, 3 and 5), and it
 * does so the same way on every occurrence: agreement cannot tell. The glyph itself can:
 * its outline is in the document. It is compared with each candidate drawn in the
 * installed fonts that have them all; the design of those fonts differs from the
 * document's alike for every candidate, so only the differences between candidates in
 * the same font are weighed, summed over the fonts. A candidate wins only by a clear
 * margin, else the reading stands (and stays a proposal: see dc-recognize.c).
 */

#define G_LOG_DOMAIN "dc-lookalikes"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <string.h>

#include "dc-lookalikes-private.h"

/* How many installed fonts to compare with, and how many of the designs nearest the
 * glyph's decide. */
#define MAX_REFERENCE_FONTS 24
#define NEAREST_FONTS 2
/* The lead, in dc_shape_distance() per font, a candidate needs over the others, and over
 * what OCR read to replace it. */
#define MIN_MARGIN 0.02
#define CHANGE_MARGIN 0.06

/* Characters OCR reads one for another, and letters of minority alphabets it reads as
 * their Russian base letter. */
static const char *const groups[] = {
  "-‐–—",  "хӿҳӽ", "ХӾҲӼ", "кқӄҝ", "КҚӃҜ", "нңӈӊҥ", "НҢӇӉҤ", "гғӷҕӻ",
  "ГҒӶҔӺ", "шщ",   "ШЩ",   "35",   "Ө©",   "ьъ",    "ЬЪ",
};

/* Marks that are told apart by nothing on the page that a reader can see (hyphen-minus
 * and hyphen, the apostrophes): a reading of one is one of the set, not which. */
static const char *const indistinct[] = {
  "‑‒―−",
  "'’ʼ‘`ʹ",
  "ьҍ",
  "ЬҌ",
};

typedef struct
{
  gunichar chars[8];
  guint n_chars;
  DcShape (*shapes)[8]; /* per reference font, per character */
  guint8 (*have)[8];
  guint n_fonts;
  gboolean loaded;
} Group;

struct _DcLookalikes
{
  GMutex lock;
  Group groups[G_N_ELEMENTS (groups)];
};

static gboolean
in_set (const char *set, gunichar c)
{
  for (const char *p = set; *p != '\0'; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) == c)
      return TRUE;
  return FALSE;
}

/* The one character @value is, or 0. */
static gunichar
single_char (const char *value)
{
  if (value == NULL || value[0] == '\0' || *g_utf8_next_char (value) != '\0')
    return 0;
  return g_utf8_get_char (value);
}

gboolean
_dc_lookalikes_has (const char *value)
{
  gunichar c = single_char (value);

  if (c == 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (in_set (groups[i], c))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (indistinct); i++)
    if (in_set (indistinct[i], c))
      return TRUE;
  return FALSE;
}

/* The characters of @value's look-alike sets other than itself, in the sets' order, or
 * %NULL when it has none: what a reviewer compares the glyph with. */
char *
_dc_lookalikes_dup_others (const char *value)
{
  gunichar c = single_char (value);
  GString *others;

  if (c == 0)
    return NULL;
  others = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (groups) + G_N_ELEMENTS (indistinct); i++)
    {
      const char *set = i < G_N_ELEMENTS (groups) ? groups[i]
                                                  : indistinct[i - G_N_ELEMENTS (groups)];

      if (!in_set (set, c))
        continue;
      for (const char *p = set; *p != '\0'; p = g_utf8_next_char (p))
        if (g_utf8_get_char (p) != c)
          g_string_append_unichar (others, g_utf8_get_char (p));
    }
  if (others->len == 0)
    {
      g_string_free (others, TRUE);
      return NULL;
    }
  return g_string_free (others, FALSE);
}

DcLookalikes *
_dc_lookalikes_new (void)
{
  DcLookalikes *self = g_new0 (DcLookalikes, 1);

  g_mutex_init (&self->lock);
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    for (const char *p = groups[i]; *p != '\0'; p = g_utf8_next_char (p))
      self->groups[i].chars[self->groups[i].n_chars++] = g_utf8_get_char (p);
  return self;
}

void
_dc_lookalikes_free (DcLookalikes *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    {
      g_free (self->groups[i].shapes);
      g_free (self->groups[i].have);
    }
  g_mutex_clear (&self->lock);
  g_free (self);
}

typedef struct
{
  Group *group;
  guint font;
} Scan;

static void
add_shape (gunichar unicode, const DcShape *shape, gpointer data)
{
  Scan *scan = data;

  for (guint c = 0; c < scan->group->n_chars; c++)
    if (scan->group->chars[c] == unicode)
      {
        scan->group->shapes[scan->font][c] = *shape;
        scan->group->have[scan->font][c] = TRUE;
      }
}

/* The group's characters drawn in the installed fonts that have them all. */
static void
load_group (Group *group)
{
  FcCharSet *charset = FcCharSetCreate ();
  FcPattern *pattern;
  FcObjectSet *objects;
  FcFontSet *set;

  group->loaded = TRUE;
  if (!FcInit ())
    {
      FcCharSetDestroy (charset);
      return;
    }
  for (guint c = 0; c < group->n_chars; c++)
    FcCharSetAddChar (charset, group->chars[c]);
  /* Upright text faces: an oblique or a bold draws every candidate away from the glyph. */
  pattern = FcPatternBuild (NULL, FC_OUTLINE, FcTypeBool, FcTrue, FC_CHARSET, FcTypeCharSet,
                            charset, FC_SLANT, FcTypeInteger, FC_SLANT_ROMAN, NULL);
  objects = FcObjectSetBuild (FC_FILE, FC_INDEX, FC_WEIGHT, FC_SPACING, NULL);
  set = FcFontList (NULL, pattern, objects);
  FcObjectSetDestroy (objects);
  FcPatternDestroy (pattern);
  FcCharSetDestroy (charset);
  if (set == NULL)
    return;
  group->shapes = g_malloc0_n (MAX_REFERENCE_FONTS, sizeof *group->shapes);
  group->have = g_malloc0_n (MAX_REFERENCE_FONTS, sizeof *group->have);
  for (int i = 0; i < set->nfont && group->n_fonts < MAX_REFERENCE_FONTS; i++)
    {
      FcChar8 *file = NULL;
      int index = 0;
      Scan scan = { group, group->n_fonts };
      gboolean all = TRUE;

      int weight = FC_WEIGHT_REGULAR, spacing = FC_PROPORTIONAL;

      FcPatternGetInteger (set->fonts[i], FC_WEIGHT, 0, &weight);
      FcPatternGetInteger (set->fonts[i], FC_SPACING, 0, &spacing);
      if (weight < FC_WEIGHT_BOOK || weight > FC_WEIGHT_MEDIUM || spacing == FC_MONO
          || FcPatternGetString (set->fonts[i], FC_FILE, 0, &file) != FcResultMatch)
        continue;
      FcPatternGetInteger (set->fonts[i], FC_INDEX, 0, &index);
      if (!dc_shapes_scan_font_chars ((const char *) file, index, group->chars, group->n_chars,
                                      add_shape, &scan, NULL))
        continue;
      for (guint c = 0; c < group->n_chars; c++)
        all &= group->have[group->n_fonts][c];
      if (all)
        group->n_fonts++;
      else
        memset (group->have[group->n_fonts], 0, sizeof group->have[0]);
    }
  FcFontSetDestroy (set);
}

/* @group's candidates, each scored by how much farther from @shape it is drawn than the
 * nearest candidate, per reference font, averaged: 0 for the nearest everywhere. */
static Group *
score_group (DcLookalikes *self, gunichar c, const DcShape *shape, double score[8])
{
  Group *group = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (groups) && group == NULL; i++)
    if (in_set (groups[i], c))
      group = &self->groups[i];
  if (group == NULL)
    return NULL;
  g_mutex_lock (&self->lock);
  if (!group->loaded)
    load_group (group);
  g_mutex_unlock (&self->lock);
  if (group->n_fonts == 0)
    return NULL;

  /* The designs nearest the glyph's speak: in them, a look-alike's stroke or hook is what
   * differs, not the design. */
  {
    double distance[MAX_REFERENCE_FONTS][8], nearest[MAX_REFERENCE_FONTS];
    guint order[MAX_REFERENCE_FONTS], n = MIN (group->n_fonts, NEAREST_FONTS);

    for (guint f = 0; f < group->n_fonts; f++)
      {
        nearest[f] = 1.0;
        order[f] = f;
        for (guint k = 0; k < group->n_chars; k++)
          {
            distance[f][k] = dc_shape_distance (shape, &group->shapes[f][k]);
            nearest[f] = MIN (nearest[f], distance[f][k]);
          }
      }
    for (guint i = 1; i < group->n_fonts; i++)
      for (guint j = i; j > 0 && nearest[order[j]] < nearest[order[j - 1]]; j--)
        {
          guint t = order[j];

          order[j] = order[j - 1];
          order[j - 1] = t;
        }
    memset (score, 0, 8 * sizeof score[0]);
    for (guint i = 0; i < n; i++)
      for (guint k = 0; k < group->n_chars; k++)
        score[k] += (distance[order[i]][k] - nearest[order[i]]) / n;
  }
  for (guint k = 0; k < group->n_chars; k++)
    g_debug ("U+%04X: U+%04X scores %.3f (%u fonts)", c, group->chars[k], score[k], group->n_fonts);
  return group;
}

/**
 * _dc_lookalikes_distance:
 *
 * Returns: how much farther from @shape @c is drawn than the nearest of its look-alikes
 *   in the installed fonts (0: nearest), or a negative number when nothing tells
 */
double
_dc_lookalikes_distance (DcLookalikes *self, gunichar c, const DcShape *shape)
{
  double score[8];
  Group *group;

  g_return_val_if_fail (self != NULL, -1);

  /* A Type 3 glyph known by its procedure only has no ink to compare. */
  if (shape == NULL || shape->no_ink || (group = score_group (self, c, shape, score)) == NULL)
    return -1;
  for (guint k = 0; k < group->n_chars; k++)
    if (group->chars[k] == c)
      return score[k];
  return -1;
}

/**
 * _dc_lookalikes_decide:
 * @read: what OCR read the glyph as
 * @shape: the glyph's own shape
 * @ruled_out: (nullable): returns TRUE for a character the glyph cannot be (another glyph
 *   of its font, of another shape, has it), @read included
 * @reason: (out) (optional) (transfer full): which fonts decided, for the provenance
 *
 * Returns: the character of @read's look-alike group @shape draws, or 0 when nothing
 *   tells (no group, no fonts, too close to call). @read stands unless it is ruled out
 *   or another candidate is drawn clearly nearer.
 */
gunichar
_dc_lookalikes_decide (DcLookalikes *self, const char *read, const DcShape *shape,
                       DcLookalikesRuledOut ruled_out, gpointer data, char **reason)
{
  gunichar c = single_char (read);
  Group *group;
  double score[8];
  guint best = G_MAXUINT, second = G_MAXUINT, own = G_MAXUINT;

  g_return_val_if_fail (self != NULL, 0);

  if (c == 0 || shape == NULL || shape->no_ink
      || (group = score_group (self, c, shape, score)) == NULL)
    return 0;
  for (guint k = 0; k < group->n_chars; k++)
    {
      if (ruled_out != NULL && ruled_out (group->chars[k], data))
        continue;
      if (group->chars[k] == c)
        own = k;
      if (best == G_MAXUINT || score[k] < score[best])
        {
          second = best;
          best = k;
        }
      else if (second == G_MAXUINT || score[k] < score[second])
        second = k;
    }
  if (best == G_MAXUINT || (second != G_MAXUINT && score[second] - score[best] < MIN_MARGIN)
      || (own != G_MAXUINT && own != best && score[own] - score[best] < CHANGE_MARGIN))
    return 0;
  if (reason != NULL)
    *reason = g_strdup_printf ("drawn nearer it than its look-alikes in %u installed fonts%s",
                               group->n_fonts,
                               own == G_MAXUINT ? ", the reading being another glyph's" : "");
  return group->chars[best];
}
