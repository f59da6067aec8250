/* dc-reorder.c: a line's text in logical (Unicode) order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lines hold their glyphs in visual order, as they stand on the page. What users search
 * and copy is Unicode's logical order, so each line is read in units — one glyph's value,
 * or the /ActualText of a run of glyphs, which producers already write in logical order —
 * and the units are put back in logical order:
 *
 * - Indic scripts: vowel signs drawn before their consonants and rephs drawn over the end
 *   of their cluster go where Unicode writes them (dc-reorder-indic.c).
 * - Right-to-left scripts: FriBidi resolves the embedding levels of the units and the
 *   runs at odd levels are reversed (rule L2 of UAX #9, which undoes itself), so Hebrew
 *   and Arabic read right to left while numbers and Latin words inside them do not
 *   (dc-reorder-bidi.c).
 */

#define G_LOG_DOMAIN "dc-reorder"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-font.h"
#include "dc-reorder-units-private.h"
#include "dc-string-private.h"
#include "dc-text-cache-private.h"

/* Whether @units lie in @pool one after the other and fill it, as add_unit() put them:
 * unless Indic reordering moved or emptied one. */
static gboolean
units_tile_pool (const GString *pool, const GArray *units)
{
  gsize at = 0;

  for (guint i = 0; i < units->len; i++)
    {
      const Unit *unit = &g_array_index (units, Unit, i);

      if (unit->start != at)
        return FALSE;
      at += unit->length;
    }
  return at == pool->len;
}

/* The texts of @unit and @next, one right after the other in @pool, swapped in place. */
static void
swap_texts (GString *pool, const Unit *unit, const Unit *next)
{
  g_autofree char *saved = g_memdup2 (unit_text (pool, unit), unit->length);

  memmove (pool->str + unit->start, unit_text (pool, next), next->length);
  memcpy (pool->str + unit->start + next->length, saved, unit->length);
}

/* A mark drawn as a glyph of its own belongs to the letter before it, and so does a
 * letter drawn over it with no advance (the alef of a lam-alef that HarfBuzz decomposes):
 * reversing a right-to-left run must not put either in front of that letter. The merged
 * units' texts go one after the other into @merged; where it is NULL, @units tile @pool
 * (units_tile_pool()), and as their merged texts would lie in the same order, the pool
 * itself becomes the merged text, spared a copy: a merged unit's text is already there,
 * a letter's put after the glyph it joins in place. */
static void
merge_marks (GString *pool, GArray *units, GString *merged)
{
  guint n = 0;

  if (merged != NULL)
    g_string_truncate (merged, 0);
  for (guint i = 0; i < units->len; i++)
    {
      Unit unit = g_array_index (units, Unit, i);
      Unit *previous = n > 0 ? &g_array_index (units, Unit, n - 1) : NULL;
      const char *text = unit_text (pool, &unit);

      const Unit *next = i + 1 < units->len ? &g_array_index (units, Unit, i + 1) : NULL;

      /* A letter drawn with no advance at the very place the next glyph starts belongs
       * to that glyph (the alef drawn before its lam). */
      if (next != NULL && (unit.flags & UNIT_NO_ADVANCE) && !(next->flags & UNIT_SPACE)
          && next->token == unit.token && unit.length > 0 && next->length > 0
          && !g_unichar_ismark (unit_get_char (text)) && fabsf (next->u - unit.u) < 0.05f * unit.em)
        {
          Unit joined = *next;

          if (merged != NULL)
            {
              joined.start = merged->len;
              _dc_string_append_len (merged, unit_text (pool, next), next->length);
              _dc_string_append_len (merged, text, unit.length);
            }
          else
            {
              joined.start = unit.start;
              swap_texts (pool, &unit, next);
            }
          joined.length = next->length + unit.length;
          joined.flags &= ~UNIT_NO_ADVANCE;
          g_array_index (units, Unit, n++) = joined;
          i++;
          continue;
        }
      /* No mark lies below U+0300, whose UTF-8 begins with 0xCC. */
      if (previous != NULL && !(unit.flags & UNIT_SPACE) && !(previous->flags & UNIT_SPACE)
          && previous->token == unit.token && unit.length > 0
          && (((guchar) text[0] >= 0xCC && g_unichar_ismark (unit_get_char (text)))
              || (unit.flags & UNIT_NO_ADVANCE)))
        {
          if (merged != NULL)
            _dc_string_append_len (merged, text, unit.length);
          previous->length += unit.length;
          continue;
        }
      if (merged != NULL)
        {
          unit.start = merged->len;
          _dc_string_append_len (merged, text, unit.length);
        }
      g_array_index (units, Unit, n++) = unit;
    }
  g_array_set_size (units, n);
}

static gboolean
span_fits_token (DcDocument *document, const guint32 *order, const DcToken *token, guint first,
                 guint n)
{
  guint inside = 0;

  for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
    if (order[k] >= first && order[k] < first + n)
      inside++;
  if (inside != n)
    return FALSE;
  /* Only a font whose map is believed is believed about its clusters. */
  for (guint g = first; g < first + n; g++)
    if (dc_document_symbol_needs_decoding (document,
                                           dc_document_get_glyphs (document, NULL)[g].symbol))
      return FALSE;
  return TRUE;
}

/* @units has room for the unit (reorder_tokens() sized it): stored in place. */
static void
add_unit_len (GArray *units, GString *pool, const char *text, guint length, guint token,
              guint flags, const DcGlyph *glyph)
{
  Unit unit = { pool->len, length, token, flags, 0, 1 };

  if (glyph != NULL)
    {
      unit.u = (glyph->rotation == 1 || glyph->rotation == 3) ? glyph->y : glyph->x;
      unit.em = MAX (dc_glyph_get_size (glyph), 0.5f);
    }

  _dc_string_append_len (pool, text, unit.length);
  g_array_index (units, Unit, units->len) = unit;
  units->len++;
}

static void
add_unit (GArray *units, GString *pool, const char *text, guint token, guint flags,
          const DcGlyph *glyph)
{
  add_unit_len (units, pool, text, (guint) strlen (text), token, flags, glyph);
}

/* Chinese and Japanese put no space between words, nor around their punctuation (UAX
 * #14's ID class): a gap between two such characters where no space is drawn is no space
 * in the text. */
static gboolean
writes_without_spaces (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_HAN:
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_BOPOMOFO:
    case G_UNICODE_SCRIPT_YI:
      return TRUE;
    default:
      /* CJK punctuation, full-width forms and the leaders of a table of contents. */
      return (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF) || c == 0x30FC
             || c == 0x2026 || c == 0x2025;
    }
}

/* Thai, Lao, Khmer and Myanmar write words together too, and part phrases with a space. */
static gboolean
writes_phrases_apart (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_THAI:
    case G_UNICODE_SCRIPT_LAO:
    case G_UNICODE_SCRIPT_KHMER:
    case G_UNICODE_SCRIPT_MYANMAR:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Whether a word space is drawn between two tokens of a line: a space glyph, and room
 * for it. Producers may draw a space after every character, each overdrawn by the next,
 * and ideographic spaces letter-space CJK headings: neither leaves room for a word space.
 * The room is a quarter of an em, or half the space drawn where that is narrower: Noto
 * Sans Thai's space is 0.26 em, and a kern before it leaves less than a quarter. */
static gboolean
space_drawn (const DcGlyph *glyphs, const guint32 *order, const DcToken *before,
             const DcToken *after, DcValueFunc value, gpointer user_data)
{
  const DcGlyph *last = &glyphs[order[before->first_glyph + before->n_glyphs - 1]];
  const DcGlyph *next = &glyphs[order[after->first_glyph]];
  double room, space = 0;

  if (after->first_glyph == before->first_glyph + before->n_glyphs)
    return FALSE;
  if (last->rotation != 0 || next->rotation != 0)
    return TRUE;
  room = next->x - (last->x + dc_glyph_get_advance (last));
  for (guint k = before->first_glyph + before->n_glyphs; k < after->first_glyph; k++)
    if (g_strcmp0 (dc_value_for_glyph (value, user_data, order[k], glyphs[order[k]].symbol),
                   "\xE3\x80\x80")
        == 0)
      room -= dc_glyph_get_advance (&glyphs[order[k]]);
    else
      space = MAX (space, dc_glyph_get_advance (&glyphs[order[k]]));
  return room >= 0.25 * MAX (dc_glyph_get_size (next), 0.5f) || (space > 0 && room >= 0.5 * space);
}

/* Whether the characters on either side of a space are both of scripts written without
 * spaces between words: only then may the space be none in the text. */
static gboolean
may_close_up (gunichar before, gunichar after)
{
  if (before < 0x0E00 || after < 0x0E00)
    return FALSE;
  return (writes_without_spaces (before) && writes_without_spaces (after))
         || (writes_phrases_apart (before) && writes_phrases_apart (after));
}

gboolean
_dc_reorder_tokens_close_up (DcDocument *document, const DcToken *before, const DcToken *after,
                             const char *before_text, const char *after_text, DcValueFunc value,
                             gpointer user_data)
{
  g_return_val_if_fail (before != NULL && after != NULL, FALSE);

  if (before_text == NULL || after_text == NULL || *before_text == '\0' || *after_text == '\0')
    return FALSE;
  /* A word that starts below U+0800 (or with no UTF-8) closes up with none (may_close_up()),
   * whatever ends the one before: most words, which spares finding that end. */
  if ((guchar) *after_text < 0xE0)
    return FALSE;
  return may_close_up (g_utf8_get_char (g_utf8_prev_char (before_text + strlen (before_text))),
                       g_utf8_get_char (after_text))
         && !space_drawn (dc_document_get_glyphs (document, NULL),
                          dc_document_get_reading_order (document, NULL), before, after, value,
                          user_data);
}

/* The unit of glyph @index, its text from @cache when not NULL, else asked of @value. */
static void
add_glyph_unit (GArray *units, GString *pool, const DcGlyph *glyph, guint index, guint token,
                const DcTextCache *cache, DcValueFunc value, gpointer user_data)
{
  guint flags = glyph_has_no_advance (glyph) ? UNIT_NO_ADVANCE : 0;
  const char *text;

  if (cache != NULL)
    {
      const DcTextCacheEntry *entry = &cache->entries[glyph->symbol];

      add_unit_len (units, pool, entry->text, entry->length, token, flags, glyph);
      return;
    }
  text = dc_value_for_glyph (value, user_data, index, glyph->symbol);
  add_unit (units, pool, text != NULL ? text : "\xEF\xBF\xBD", token, flags, glyph);
}

/* What may_change_under_nfc() asks GLib of a character: its combining class, and whether
 * it has a canonical decomposition (a binary search of GLib's tables, a few hundred
 * instructions). The reordered tokens of a script draw the same few dozen characters over
 * and over: the answers are kept per thread, one slot a character's low byte. */
typedef struct
{
  gunichar c; /* + 1; 0 for an empty slot */
  gint16 class;
  gboolean decomposes;
} NfcMemo;

static _Thread_local NfcMemo nfc_memo[256];

static inline const NfcMemo *
nfc_facts (gunichar c)
{
  NfcMemo *slot = &nfc_memo[c & 0xFF];

  if (slot->c != c + 1)
    {
      gunichar a, b;

      slot->c = c + 1;
      slot->class = (gint16) g_unichar_combining_class (c);
      slot->decomposes = g_unichar_decompose (c, &a, &b);
    }
  return slot;
}

/* Whether NFC may change @text, asked the way g_utf8_normalize() composes: a character
 * with a canonical decomposition, a mark out of canonical order, or one that composes with
 * the last starter before it. Most reordered tokens have none, and normalizing one costs
 * two allocations and four passes over it. */
static gboolean
may_change_under_nfc (const char *text, gsize length)
{
  const char *end = text + length;
  gunichar starter = 0;
  gboolean after_starter = FALSE;
  int last_class = 0;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, end - p), a;
      const NfcMemo *facts;
      int class;

      if (c >= 0x110000) /* not UTF-8: left to g_utf8_normalize() */
        return TRUE;
      /* Nothing below U+00C0 decomposes or composes with what stands before it. */
      if (c < 0xC0)
        {
          starter = c, after_starter = TRUE, last_class = 0;
          continue;
        }
      facts = nfc_facts (c);
      class = facts->class;
      if ((class != 0 && last_class > class) || facts->decomposes
          || (after_starter && g_unichar_compose (starter, c, &a)))
        return TRUE;
      if (class == 0)
        starter = c, after_starter = TRUE;
      last_class = class;
    }
  return FALSE;
}

/* What reorder_units() builds a line in, kept per thread from line to line: a book's
 * lines that need it took six allocations each, a tenth of their reordering. */
typedef struct
{
  gboolean busy; /* a value func that reorders again gets a scratch of its own */
  GArray *units;
  GString *pool, *merged, *token_text;
  gboolean *reordered;
  guint reordered_room;
  DcReorderBidi *bidi; /* _dc_reorder_bidi_units()'s memos and room */
} Scratch;

static Scratch *
scratch_new (void)
{
  Scratch *scratch = g_new0 (Scratch, 1);

  scratch->units = g_array_new (FALSE, FALSE, sizeof (Unit));
  scratch->pool = g_string_sized_new (64);
  scratch->merged = g_string_sized_new (64);
  scratch->token_text = g_string_sized_new (64);
  scratch->bidi = _dc_reorder_bidi_new ();
  return scratch;
}

static void
scratch_free (gpointer data)
{
  Scratch *scratch = data;

  g_array_unref (scratch->units);
  g_string_free (scratch->pool, TRUE);
  g_string_free (scratch->merged, TRUE);
  g_string_free (scratch->token_text, TRUE);
  g_free (scratch->reordered);
  _dc_reorder_bidi_free (scratch->bidi);
  g_free (scratch);
}

static GPrivate thread_scratch = G_PRIVATE_INIT (scratch_free);

/* The thread's scratch, emptied, with room for @n_units units and @n_tokens tokens: to
 * give back with scratch_release(). */
static Scratch *
scratch_take (guint n_units, guint n_tokens)
{
  Scratch *scratch = g_private_get (&thread_scratch);

  if (scratch == NULL)
    {
      scratch = scratch_new ();
      g_private_set (&thread_scratch, scratch);
    }
  if (scratch->busy)
    scratch = scratch_new ();
  scratch->busy = TRUE;
  g_array_set_size (scratch->units, n_units);
  g_array_set_size (scratch->units, 0);
  g_string_truncate (scratch->pool, 0);
  g_string_truncate (scratch->token_text, 0);
  if (MAX (1, n_tokens) > scratch->reordered_room)
    {
      scratch->reordered_room = MAX (MAX (1, n_tokens), 2 * scratch->reordered_room);
      scratch->reordered = g_renew (gboolean, scratch->reordered, scratch->reordered_room);
    }
  memset (scratch->reordered, 0, MAX (1, n_tokens) * sizeof (gboolean));
  return scratch;
}

static void
scratch_release (Scratch *scratch)
{
  if (scratch != g_private_get (&thread_scratch))
    scratch_free (scratch);
  else
    scratch->busy = FALSE;
}

/* What reorder_units() makes of each of the line's tokens alone, from the line's units
 * merged (@pool, @units) before their bidi reordering: a token's units are built, their
 * Indic vowels moved and their marks merged within the token, as they are when it is
 * reordered alone, and the direction of a token alone is its own. Each text ends in a NUL,
 * at the end of @alone. FALSE, with @alone as it was, where a token has no unit. */
static gboolean
tokens_alone (const GString *pool, const GArray *units, const gboolean *reordered, guint n_tokens,
              DcReorderBidi *bidi, GString *token_text, GString *alone)
{
  const Unit *all = (const Unit *) (const void *) units->data;
  g_autofree Unit *copy = g_new (Unit, MAX (1, units->len));
  gsize alone_start = alone->len;
  guint made = 0;

  for (guint i = 0; i < units->len;)
    {
      guint start = i, t = all[i].token;

      if (all[i].flags & UNIT_SPACE)
        {
          i++;
          continue;
        }
      while (i < units->len && !(all[i].flags & UNIT_SPACE))
        i++;
      if (t != made)
        break;
      memcpy (copy, all + start, (i - start) * sizeof (Unit));
      /* The line's pool may hold right-to-left text (reorder_units()): so may the token's,
       * unless its units' types say otherwise. */
      _dc_reorder_bidi_units (bidi, pool, copy, i - start, TRUE);
      g_string_truncate (token_text, 0);
      for (guint u = 0; u < i - start; u++)
        _dc_string_append_len (token_text, unit_text (pool, &copy[u]), copy[u].length);
      /* As reorder_units() writes a token. */
      if (reordered[t] && may_change_under_nfc (token_text->str, token_text->len))
        {
          g_autofree char *nfc = g_utf8_normalize (token_text->str, -1, G_NORMALIZE_NFC);

          if (nfc != NULL)
            g_string_truncate (token_text, 0), g_string_append (token_text, nfc);
        }
      g_string_append_len (alone, token_text->str, (gssize) token_text->len + 1);
      made++;
    }
  g_string_truncate (token_text, 0);
  if (made == n_tokens)
    return TRUE;
  g_string_truncate (alone, alone_start);
  return FALSE;
}

/* The token written from @start to the end of @out, given to those of @tokens, @texts and
 * @token_indices (its index @index) not NULL, then a space after it if @space. Split vowels
 * and nukta forms of a @reordered token come together again under NFC. */
static void
end_token (GString *out, gsize start, gboolean reordered, gboolean space, GPtrArray *tokens,
           DcReorderTexts *texts, GArray *token_indices, guint32 index)
{
  if (reordered && may_change_under_nfc (out->str + start, out->len - start))
    {
      g_autofree char *nfc = g_utf8_normalize (out->str + start, -1, G_NORMALIZE_NFC);

      if (nfc != NULL)
        {
          g_string_truncate (out, start);
          g_string_append (out, nfc);
        }
    }
  /* Each up to its first NUL, as the token's text reads. */
  if (tokens != NULL)
    g_ptr_array_add (tokens, g_strdup (out->str + start));
  if (texts != NULL)
    {
      g_string_append_len (texts->tokens, out->str + start, (gssize) (out->len - start) + 1);
      texts->n_tokens++;
    }
  if (token_indices != NULL)
    g_array_append_val (token_indices, index);
  if (space)
    g_string_append_c (out, ' ');
}

/* reorder_tokens() unit by unit, for any line; the glyphs' texts from @cache when not NULL
 * (_dc_reorder_line_cached()). */
static DcDirection
reorder_units (DcDocument *document, guint first_token, guint n_tokens, DcValueFunc value,
               gpointer user_data, const DcTextCache *cache, GString *out, GPtrArray *tokens,
               GArray *token_indices, DcReorderTexts *texts)
{
  const DcToken *all_tokens = dc_document_get_tokens (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  Scratch *scratch;
  GArray *units;
  GString *pool, *token_text;
  gboolean *reordered;
  DcDirection direction;
  guint token_start = 0, n_units = n_tokens;
  gsize token_at;
  gboolean rtl_possible;

  /* A unit a glyph at most, and a space between two tokens: add_unit() needs no more. */
  for (guint t = 0; t < n_tokens; t++)
    n_units += all_tokens[first_token + t].n_glyphs;
  scratch = scratch_take (n_units, n_tokens);
  units = scratch->units;
  pool = scratch->pool;
  token_text = scratch->token_text;
  reordered = scratch->reordered;

  for (guint t = 0; t < n_tokens; t++)
    {
      const DcToken *token = &all_tokens[first_token + t];
      guint last_span = G_MAXUINT;

      if (t > 0)
        add_unit (units, pool, " ", t, UNIT_SPACE, NULL);
      token_start = units->len;
      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        {
          const DcGlyph *glyph = &glyphs[order[k]];
          const char *text;
          guint first, n;

          if ((glyph->flags & DC_GLYPH_ACTUAL_TEXT)
              && (text = dc_document_get_actual_text (document, order[k], &first, &n)) != NULL
              && span_fits_token (document, order, token, first, n))
            {
              if (first != last_span)
                add_unit (units, pool, text, t, UNIT_FROM_SPAN, glyph);
              last_span = first;
              continue;
            }
          add_glyph_unit (units, pool, glyph, order[k], t, cache, value, user_data);
        }
      reordered[t] = _dc_reorder_indic (pool, (Unit *) (void *) units->data, token_start,
                                        units->len);
      if (t > 0 && token_start >= 2 && units->len > token_start)
        {
          Unit *space = &g_array_index (units, Unit, token_start - 1);
          const DcToken *before = token - 1;

          if (may_close_up (unit_last (pool, space - 1), unit_first (pool, space + 1))
              && !space_drawn (glyphs, order, before, token, value, user_data))
            space->flags |= UNIT_CLOSED;
        }
    }

  if (units_tile_pool (pool, units))
    merge_marks (pool, units, NULL);
  else
    {
      merge_marks (pool, units, scratch->merged);
      /* The merged text is the pool from here on; the old one is the next line's merge. */
      pool = scratch->merged;
      scratch->merged = scratch->pool;
      scratch->pool = pool;
    }
  rtl_possible = units->len > 0 && _dc_reorder_may_hold_rtl (pool);
  if (texts != NULL)
    {
      texts->n_tokens = 0;
      texts->alone_made = rtl_possible
                          && tokens_alone (pool, units, reordered, n_tokens, scratch->bidi,
                                           token_text, texts->alone);
    }
  direction = rtl_possible
                  ? _dc_reorder_bidi_units (scratch->bidi, pool, (Unit *) (void *) units->data,
                                            units->len, FALSE)
                  : DC_DIRECTION_LTR;

  /* Each token written straight into @out, put right there if it needs NFC. */
  token_at = out->len;
  for (guint i = 0; i <= units->len; i++)
    {
      const Unit *unit = i < units->len ? &g_array_index (units, Unit, i) : NULL;

      if (unit == NULL || (unit->flags & UNIT_SPACE))
        {
          guint t = i > 0 ? g_array_index (units, Unit, i - 1).token : 0;

          end_token (out, token_at, i > 0 && reordered[t],
                     unit != NULL && !(unit->flags & UNIT_CLOSED), n_tokens > 0 ? tokens : NULL,
                     n_tokens > 0 ? texts : NULL, n_tokens > 0 ? token_indices : NULL,
                     first_token + t);
          token_at = out->len;
          continue;
        }
      _dc_string_append_len (out, unit_text (pool, unit), unit->length);
    }
  scratch_release (scratch);
  return direction;
}

/* The text of the tokens [first_token, first_token + n_tokens) of one line. */
static DcDirection
reorder_tokens (DcDocument *document, guint first_token, guint n_tokens, DcValueFunc value,
                gpointer user_data, GString *out, GPtrArray *tokens, GArray *token_indices)
{
  if (_dc_reorder_plain_tokens (document, first_token, n_tokens, value, user_data, out, tokens,
                                token_indices))
    return DC_DIRECTION_LTR;
  return reorder_units (document, first_token, n_tokens, value, user_data, NULL, out, tokens,
                        token_indices, NULL);
}

/**
 * _dc_reorder_line:
 * @tokens: (nullable): receives the text of each token, in logical order
 *
 * The text of @line in logical order: its tokens joined by single spaces, undecoded glyphs
 * as U+FFFD. Returns the line's direction.
 */
DcDirection
_dc_reorder_line (DcDocument *document, guint line, DcValueFunc value, gpointer user_data,
                  GString *out, GPtrArray *tokens)
{
  const DcLine *l = &dc_document_get_lines (document, NULL)[line];

  return reorder_tokens (document, l->first_token, l->n_tokens, value, user_data, out, tokens,
                         NULL);
}

/* _dc_reorder_line() with the symbols' texts from @cache, when not NULL: made by
 * _dc_text_cache_new() for @value and @user_data, as the text export does once. */
void
_dc_reorder_line_cached (DcDocument *document, guint line, const DcTextCache *cache,
                         DcValueFunc value, gpointer user_data, GString *out)
{
  const DcLine *l = cache != NULL ? &cache->lines[line]
                                  : &dc_document_get_lines (document, NULL)[line];

  /* A line the cache finds not plain is not plain glyph by glyph either. */
  if (cache == NULL)
    reorder_tokens (document, l->first_token, l->n_tokens, value, user_data, out, NULL, NULL);
  else if (!_dc_reorder_cached_tokens (document, l->first_token, l->n_tokens, cache, out))
    reorder_units (document, l->first_token, l->n_tokens, value, user_data, cache, out, NULL, NULL,
                   NULL);
}

DcDirection
_dc_reorder_tokens_cached (DcDocument *document, guint first_token, guint n_tokens,
                           const DcTextCache *cache, DcValueFunc value, gpointer user_data,
                           GString *out, GPtrArray *tokens)
{
  g_return_val_if_fail (cache != NULL, DC_DIRECTION_LTR);

  /* Not plain from the cache, so not glyph by glyph either (_dc_reorder_line_cached()). */
  return reorder_units (document, first_token, n_tokens, value, user_data, cache, out, tokens, NULL,
                        NULL);
}

/* _dc_reorder_tokens_cached() with the tokens' texts in one string, and where the line may
 * be read right to left, each token's text alone from the same units: the JSON export
 * needs both, and a line's tokens were built twice, the second time one by one. */
DcDirection
_dc_reorder_tokens_cached_texts (DcDocument *document, guint first_token, guint n_tokens,
                                 const DcTextCache *cache, DcValueFunc value, gpointer user_data,
                                 GString *out, DcReorderTexts *texts)
{
  g_return_val_if_fail (cache != NULL && texts != NULL, DC_DIRECTION_LTR);

  return reorder_units (document, first_token, n_tokens, value, user_data, cache, out, NULL, NULL,
                        texts);
}

/**
 * _dc_reorder_line_tokens:
 * @tokens: receives the text of each token, in logical order
 * @token_indices: receives, for each, its index among the document's tokens
 *
 * What a search needs: where in the drawn tokens each word of the logical text lies.
 */
void
_dc_reorder_line_tokens (DcDocument *document, guint line, DcValueFunc value, gpointer user_data,
                         GPtrArray *tokens, GArray *token_indices)
{
  const DcLine *l = &dc_document_get_lines (document, NULL)[line];
  g_autoptr (GString) out = g_string_new (NULL);

  reorder_tokens (document, l->first_token, l->n_tokens, value, user_data, out, tokens,
                  token_indices);
}

/* One token's text in logical order. */
void
_dc_reorder_token (DcDocument *document, guint token, DcValueFunc value, gpointer user_data,
                   GString *out)
{
  reorder_tokens (document, token, 1, value, user_data, out, NULL, NULL);
}

/* A line runs down the page: its baseline is turned a quarter (rotated text), or its font
 * writes vertically (WMode 1). */
gboolean
_dc_line_is_vertical (DcDocument *document, guint line)
{
  const DcLine *l = &dc_document_get_lines (document, NULL)[line];
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);

  if (l->rotation == 1 || l->rotation == 3)
    return TRUE;
  if (l->n_glyphs == 0)
    return FALSE;
  return dc_font_get_writing_mode (
             dc_document_get_font (document,
                                   dc_glyph_get_font (&glyphs[order[l->first_glyph]], symbols)))
         == 1;
}

/* Mongolian and the scripts written like it put their columns from left to right; CJK
 * and every other vertical writing from right to left. */
gboolean
_dc_script_has_left_to_right_columns (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_MONGOLIAN:
    case G_UNICODE_SCRIPT_PHAGS_PA:
      return TRUE;
    default:
      return FALSE;
    }
}
