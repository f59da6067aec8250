/* dc-recognize-vote.c: a line's reading fitted to its glyphs, and its votes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words Tesseract read on a line are aligned with the line's glyphs (an edit distance
 * whose costs know that OCR confuses case and word boundaries), and where the reading
 * agrees with what the key already knows, each unknown glyph's reading is one vote for
 * its symbol (dc-recognize.c, DESIGN §8).
 */

#define G_LOG_DOMAIN "dc-recognize"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-recognize-private.h"
#include "dc-tsan-private.h"

#define GAP_COST 1.0
#define UNKNOWN_COST 0.5
#define MISMATCH_COST 1.6
#define CASE_COST 0.4
#define BOUNDARY_COST 0.3

/* ---- aligning the text read with the glyphs ---------------------------------------- */

typedef struct
{
  guint symbol;
  gboolean token_start;
} Slot;

typedef struct
{
  char *text; /* NFC */
  gboolean word_start;
  gboolean sure; /* in a word Tesseract is sure of */
} Unit;

static void
unit_clear (gpointer data)
{
  g_free (((Unit *) data)->text);
}

static double
substitution_cost (DcRecognizeJob *job, const Slot *slot, const Unit *unit)
{
  const char *known = job->values[slot->symbol];
  double cost;

  if (known == NULL)
    cost = UNKNOWN_COST;
  else if (g_str_equal (known, unit->text))
    cost = 0;
  else
    {
      g_autofree char *a = g_utf8_casefold (known, -1);
      g_autofree char *b = g_utf8_casefold (unit->text, -1);

      cost = g_str_equal (a, b) ? CASE_COST : MISMATCH_COST;
    }
  if (slot->token_start != unit->word_start)
    cost += BOUNDARY_COST;
  return cost;
}

/* The line's visible glyphs in reading order, each marked where a token starts. */
static GArray *
line_slots (DcRecognizeJob *job, const DcLine *line)
{
  const guint32 *order = dc_document_get_reading_order (job->document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (job->document, NULL);
  const DcToken *tokens = dc_document_get_tokens (job->document, NULL);
  GArray *slots = g_array_new (FALSE, FALSE, sizeof (Slot));

  for (guint t = 0; t < line->n_tokens; t++)
    {
      const DcToken *token = &tokens[line->first_token + t];

      for (guint i = 0; i < token->n_glyphs; i++)
        {
          const DcGlyph *glyph = &glyphs[order[token->first_glyph + i]];
          Slot slot = { glyph->symbol, i == 0 };

          if (glyph->flags & DC_GLYPH_INVISIBLE)
            continue;
          g_array_append_val (slots, slot);
        }
    }
  return slots;
}

/* The words read, one Unit a grapheme cluster. */
static GArray *
reading_units (char **words, const float *confidences)
{
  GArray *units = g_array_new (FALSE, FALSE, sizeof (Unit));
  g_auto (Typed) typed = { 0 };

  g_array_set_clear_func (units, unit_clear);
  _dc_typed_prepare (&typed, words, FALSE);
  for (guint w = 0; w < _dc_typed_n_words (&typed); w++)
    {
      guint end = g_array_index (typed.word_end, guint, w);

      for (guint c = _dc_typed_word_start (&typed, w); c < end;)
        {
          guint cluster_end = g_array_index (typed.cluster_end, guint, c);
          Unit unit = { _dc_chars_to_nfc (&typed, c, cluster_end - c),
                        c == _dc_typed_word_start (&typed, w), confidences[w] >= SURE_WORD };

          g_array_append_val (units, unit);
          c = cluster_end;
        }
    }
  return units;
}

/* An edit distance in which known values must agree and unknown glyphs take any
 * character. Returns per slot the unit it reads as + 1, or 0 for none. */
static guint *
align_reading (DcRecognizeJob *job, GArray *slots, GArray *units)
{
  guint n = slots->len, m = units->len;
  g_autofree double *cost = g_new (double, (gsize) (n + 1) * (m + 1));
  g_autofree guint8 *move = g_new (guint8, (gsize) (n + 1) * (m + 1));
  guint *reading = g_new0 (guint, n);

#define AT(i, j) ((gsize) (i) * (m + 1) + (j))
  cost[AT (0, 0)] = 0;
  move[AT (0, 0)] = 0;
  for (guint i = 0; i <= n; i++)
    for (guint j = i == 0 ? 1 : 0; j <= m; j++)
      {
        double best = G_MAXDOUBLE;
        guint8 how = 0;

        if (i > 0 && j > 0)
          {
            best = cost[AT (i - 1, j - 1)]
                   + substitution_cost (job, &g_array_index (slots, Slot, i - 1),
                                        &g_array_index (units, Unit, j - 1));
            how = 1;
          }
        if (i > 0 && cost[AT (i - 1, j)] + GAP_COST < best)
          {
            best = cost[AT (i - 1, j)] + GAP_COST;
            how = 2;
          }
        if (j > 0 && cost[AT (i, j - 1)] + GAP_COST < best)
          {
            best = cost[AT (i, j - 1)] + GAP_COST;
            how = 3;
          }
        cost[AT (i, j)] = best;
        move[AT (i, j)] = how;
      }

  for (guint i = n, j = m; i > 0 || j > 0;)
    {
      switch (move[AT (i, j)])
        {
        case 1:
          reading[i - 1] = j;
          i--, j--;
          break;
        case 2:
          i--;
          break;
        default:
          j--;
          break;
        }
    }
#undef AT
  return reading;
}

/* A line whose known glyphs the reading mostly contradicts was misread (or is not the
 * text the glyphs draw): it does not vote. */
static gboolean
reading_agrees (DcRecognizeJob *job, GArray *slots, GArray *units, const guint *reading)
{
  guint n_known = 0, n_agree = 0;

  for (guint i = 0; i < slots->len; i++)
    {
      const Slot *slot = &g_array_index (slots, Slot, i);
      const char *known = job->values[slot->symbol];

      if (known == NULL || known[0] == '\0')
        continue;
      n_known++;
      if (reading[i] != 0 && g_str_equal (known, g_array_index (units, Unit, reading[i] - 1).text))
        n_agree++;
    }
  return n_known < 3 || n_agree * 2 >= n_known;
}

static void
count_vote (GHashTable **table, const char *value)
{
  if (*table == NULL)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_replace (*table, g_strdup (value),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (*table, value))
                                          + 1));
}

/* Each unknown glyph's reading becomes its symbol's vote (and a sure vote when
 * Tesseract was sure of the word). */
static void
record_votes (DcRecognizeJob *job, GArray *slots, GArray *units, const guint *reading)
{
  DC_MUTEX_LOCK (&job->lock);
  for (guint i = 0; i < slots->len; i++)
    {
      const Slot *slot = &g_array_index (slots, Slot, i);
      const Unit *unit;

      if (!job->unknown[slot->symbol])
        continue;
      job->n_read[slot->symbol]++;
      if (!slot->token_start)
        job->n_inside[slot->symbol]++;
      if (reading[i] == 0)
        continue;
      unit = &g_array_index (units, Unit, reading[i] - 1);
      if (unit->sure)
        count_vote (&job->sure[slot->symbol], unit->text);
      count_vote (&job->votes[slot->symbol], unit->text);
    }
  job->n_lines_read++;
  DC_MUTEX_UNLOCK (&job->lock);
}

/* Aligns the words read with @line's glyphs and records each unknown glyph's reading.
 * Returns FALSE when the line does not vote. */
gboolean
_dc_recognize_vote_line (DcRecognizeJob *job, const DcLine *line, char **words,
                         const float *confidences)
{
  g_autoptr (GArray) slots = line_slots (job, line);
  g_autoptr (GArray) units = reading_units (words, confidences);
  g_autofree guint *reading = NULL;
  guint n = slots->len, m = units->len;

  if (n == 0 || m == 0 || m * 2 < n || m > n * 2)
    return FALSE;
  reading = align_reading (job, slots, units);
  if (!reading_agrees (job, slots, units, reading))
    return FALSE;
  record_votes (job, slots, units, reading);
  return TRUE;
}
