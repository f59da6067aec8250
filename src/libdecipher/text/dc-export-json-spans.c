/* dc-export-json-spans.c: the JSON export's spans and the runs of glyphs within them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-export-json.c. A line's spans, cut where the font, the size or the
 * script changes, each with its text in logical order, its script, direction, writing
 * mode and language, and its runs of glyphs whose values share their origin, with where
 * those values came from.
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-export-json-private.h"
#include "dc-reorder-private.h"
#include "dc-script.h"
#include "dc-unicode-private.h"

#define guess_language _dc_export_json_guess_language
#define add_bbox _dc_export_json_add_bbox
#define add_language _dc_export_json_add_language

/* What glyph @glyph reads and why: its symbol's, unless the user split it off, in which
 * case @split_origin is filled in and returned. Read for each glyph several times: a
 * pointer, not a copy. */
static inline const Origin *
origin_of (Export *e, guint glyph, Origin *split_origin)
{
  const char *split, *provenance;
  guint symbol = e->glyphs[glyph].symbol;

  /* Asking the key for each glyph costs a lookup: only a symbol with splits has any. */
  if (G_LIKELY (e->split == NULL || !e->split[symbol])
      || (split = dc_key_get_split (e->key, glyph, &provenance)) == NULL)
    return &e->origins[symbol];
  *split_origin = e->origins[symbol];
  split_origin->value = split;
  split_origin->length = strlen (split);
  split_origin->members_json = NULL;
  split_origin->plain = FALSE;
  split_origin->script_known = FALSE;
  split_origin->normalized = FALSE;
  split_origin->letters_known = FALSE;
  split_origin->first_script = _dc_export_json_first_script (split);
  split_origin->short_value = FALSE;
  split_origin->kind = G_MAXUINT;
  split_origin->status = DC_KEY_CONFIRMED;
  split_origin->level = DC_KEY_LEVEL_USER;
  split_origin->confidence = 1.0;
  split_origin->provenance = provenance;
  return split_origin;
}

static inline gboolean
same_origin (const Origin *a, const Origin *b)
{
  if (a->kind != G_MAXUINT && b->kind != G_MAXUINT)
    return a->kind == b->kind;
  return (a->value == NULL) == (b->value == NULL) && a->status == b->status && a->level == b->level
         && a->confidence == b->confidence
         /* A symbol's provenance is one pointer per string (find_origin()); a split's
          * is read. */
         && (a->provenance == b->provenance
             || ((a->members_json == NULL || b->members_json == NULL)
                 && g_strcmp0 (a->provenance, b->provenance) == 0));
}

/* The span's script, direction and writing mode, named as the line's are
 * (dc_export_add_line_metadata()). */
static void
add_script (DcJsonWriter *w, GUnicodeScript script, gboolean vertical)
{
  char code[5];

  dc_script_to_iso15924 (script, code);
  dc_json_writer_string (w, "script", code);
  dc_json_writer_string (w, "direction",
                         dc_direction_to_string (vertical ? DC_DIRECTION_TTB
                                                          : dc_text_get_direction (script, 0)));
  dc_json_writer_string (w, "writing_mode",
                         !vertical                                       ? "horizontal-tb"
                         : _dc_script_has_left_to_right_columns (script) ? "vertical-lr"
                                                                         : "vertical-rl");
}

/* What the glyph reads, at the end of @out: a few bytes, for each glyph several times,
 * copied in place while there is room. */
static inline void
append_value (GString *out, const Origin *origin)
{
  const char *text = origin->value != NULL ? origin->value : DC_UNKNOWN_TEXT;

  if (G_UNLIKELY (out->len + MAX (origin->length, sizeof origin->bytes) >= out->allocated_len))
    {
      g_string_append_len (out, text, (gssize) origin->length);
      return;
    }
  /* A fixed-size move rather than a call to memcpy() for one to three bytes. */
  if (G_LIKELY (origin->short_value))
    memcpy (out->str + out->len, origin->bytes, sizeof origin->bytes);
  else
    memcpy (out->str + out->len, text, origin->length);
  out->len += origin->length;
  out->str[out->len] = '\0';
}

/* Read for each glyph several times: the document's answer, kept per symbol. */
static inline gboolean
is_space (Export *e, guint k)
{
  return e->space[e->glyphs[e->order[k]].symbol];
}

typedef struct
{
  gsize offset;
  gboolean closed; /* written together with the word before it */
} WordStart;

/* One run: @n glyphs of the reading order in a row, spaces aside, all of one origin;
 * its text is [start, end) of the span's. */
typedef struct
{
  gsize start, end;
  guint n;
  gboolean plain; /* each of its glyphs' values is (Origin.plain) */
  /* Its origin: a symbol's (e->origins), or NULL for a split's, copied into split. */
  const Origin *origin;
  Origin split;
} Run;

static inline const Origin *
run_origin (const Run *run)
{
  return run->origin != NULL ? run->origin : &run->split;
}

typedef struct
{
  guint first, end;
  gboolean ltr; /* its words are in a left-to-right script */
} SpanRange;

/* The buffers of a page's spans, emptied for each span rather than made anew: a book
 * has a million spans and a run for every few glyphs. */
struct _SpanScratch
{
  GString *text;     /* the span's values in reading order, spaces between tokens */
  GString *logical;  /* its text in logical order */
  GString *words;    /* logical_text()'s words, each ending in a NUL */
  WordStart *starts; /* where each of them starts */
  guint n_starts, starts_size;
  Run *runs;
  guint n_runs, runs_size;
  GArray *spans;      /* SpanRange: the line's */
  GHashTable *pieces; /* _dc_export_normalize_cached()'s, for the page */
  KeptBbox bbox;      /* the line's, then each span's */
  /* The members of the last span from its font to its language as written (compact,
   * no separator before them), and what they were written of: a page's spans are most
   * often in one font, size, script and language, whose members were most of a span's
   * calls to the writer. Empty for none. */
  GString *head;
  guint head_font;
  float head_size;
  GUnicodeScript head_script;
  gboolean head_vertical, head_mixed;
  DcLanguageGuess head_language;
};

KeptBbox *
_dc_export_json_span_scratch_bbox (SpanScratch *scratch)
{
  return &scratch->bbox;
}

SpanScratch *
_dc_export_json_span_scratch_new (void)
{
  SpanScratch *scratch = g_new0 (SpanScratch, 1);

  scratch->text = g_string_new (NULL);
  scratch->logical = g_string_new (NULL);
  scratch->words = g_string_new (NULL);
  scratch->spans = g_array_new (FALSE, FALSE, sizeof (SpanRange));
  scratch->pieces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scratch->head = g_string_new (NULL);
  return scratch;
}

void
_dc_export_json_span_scratch_free (SpanScratch *scratch)
{
  g_string_free (scratch->text, TRUE);
  g_string_free (scratch->logical, TRUE);
  g_string_free (scratch->words, TRUE);
  g_free (scratch->starts);
  g_free (scratch->runs);
  g_array_unref (scratch->spans);
  g_hash_table_unref (scratch->pieces);
  g_string_free (scratch->head, TRUE);
  g_free (scratch);
}

/* A new run at the end of the span's, where the last one was (doubling the room when
 * full): no call per run. */
static inline Run *
push_run (SpanScratch *scratch)
{
  if (G_UNLIKELY (scratch->n_runs == scratch->runs_size))
    {
      scratch->runs_size = MAX (16, scratch->runs_size * 2);
      scratch->runs = g_renew (Run, scratch->runs, scratch->runs_size);
    }
  return &scratch->runs[scratch->n_runs++];
}

static inline WordStart *
push_start (SpanScratch *scratch)
{
  if (G_UNLIKELY (scratch->n_starts == scratch->starts_size))
    {
      scratch->starts_size = MAX (16, scratch->starts_size * 2);
      scratch->starts = g_renew (WordStart, scratch->starts, scratch->starts_size);
    }
  return &scratch->starts[scratch->n_starts++];
}

#define RUN_TEXT "{\"text\":\""
#define RUN_GLYPHS "\",\"glyphs\":"
#define RUNS_OPEN "\"runs\":["

/* Whether @run is written raw: plain text and an origin written beforehand. */
static inline gboolean
run_is_raw (const Run *run)
{
  return run->plain && run_origin (run)->members_json != NULL;
}

/* The most bytes put_run() writes of @run. */
static inline gsize
run_raw_length (const Run *run)
{
  return strlen (RUN_TEXT) + (run->end - run->start) + strlen (RUN_GLYPHS) + 12
         + run_origin (run)->members_json_length + 2;
}

/* @run at @p as the calls of write_run() write it in a compact writer; returns its end. */
static char *
put_run (char *p, const GString *span_text, const Run *run)
{
  const Origin *origin = run_origin (run);
  gsize length = run->end - run->start;

  memcpy (p, RUN_TEXT, strlen (RUN_TEXT));
  p += strlen (RUN_TEXT);
  memcpy (p, span_text->str + run->start, length);
  p += length;
  memcpy (p, RUN_GLYPHS, strlen (RUN_GLYPHS));
  p = dc_json_writer_put_uint (p + strlen (RUN_GLYPHS), run->n);
  if (origin->members_json_length > 0)
    {
      *p++ = ',';
      memcpy (p, origin->members_json, origin->members_json_length);
      p += origin->members_json_length;
    }
  *p++ = '}';
  return p;
}

static void
write_run (DcJsonWriter *w, const GString *span_text, const Run *run)
{
  const Origin *origin = run_origin (run);

  /* Most runs: in one go. */
  if (run_is_raw (run) && dc_json_writer_is_compact (w))
    {
      char *p = dc_json_writer_begin_raw (w, run_raw_length (run));

      dc_json_writer_end_raw (w, put_run (p, span_text, run));
      return;
    }
  dc_json_writer_begin_object (w, NULL);
  if (run->plain)
    _dc_json_writer_plain_string (w, "text", strlen ("text"), span_text->str + run->start,
                                  run->end - run->start);
  else
    {
      g_autofree char *text = g_strndup (span_text->str + run->start, run->end - run->start);

      dc_json_writer_string (w, "text", text);
    }
  dc_json_writer_int (w, "glyphs", run->n);
  if (origin->members_json != NULL)
    dc_json_writer_members (w, origin->members_json, origin->members_json_length);
  else
    _dc_export_json_add_origin (w, origin);
  dc_json_writer_end_object (w);
}

/* The glyphs of a token cut by a change of font, from @k to the token's or the span's
 * end, into @word; returns the position after them. On a right-to-left span the glyphs,
 * drawn left to right, are read right to left, each with the marks drawn over it. */
static guint
partial_word (Export *e, guint k, guint end, gboolean rtl, GString *word)
{
  gsize base = word->len;
  /* Where each cluster starts in @word: needed only to turn them around. */
  g_autoptr (GArray) clusters = rtl ? g_array_new (FALSE, FALSE, sizeof (gsize)) : NULL;
  guint n_clusters = 0;

  do
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      Origin split;

      if (!is_space (e, k))
        {
          gboolean mark = n_clusters > 0
                          && fabs (dc_glyph_get_advance (glyph))
                                 < 0.1 * MAX (dc_glyph_get_size (glyph), 0.5f);

          if (!mark)
            {
              n_clusters++;
              if (clusters != NULL)
                g_array_append_val (clusters, word->len);
            }
          append_value (word, origin_of (e, e->order[k], &split));
        }
      k++;
    }
  while (k < end && !e->token_start[k]);

  if (clusters != NULL && clusters->len > 1)
    {
      gsize length = word->len - base;
      g_autofree char *drawn = g_strndup (word->str + base, length);

      g_string_truncate (word, base);
      for (guint i = clusters->len; i-- > 0;)
        {
          gsize from = g_array_index (clusters, gsize, i) - base;
          gsize to = i + 1 < clusters->len ? g_array_index (clusters, gsize, i + 1) - base : length;

          g_string_append_len (word, drawn + from, (gssize) (to - from));
        }
    }
  return k;
}

/* The span's text in logical order: its whole tokens as dc-reorder.c gives them (Indic
 * pre-base vowels after their consonant), in reverse on a right-to-left span, as are the
 * glyphs of a token cut by a change of font. */
static void
logical_text (Export *e, guint first, guint end, gboolean rtl, const DcTokenTexts *known,
              SpanScratch *scratch)
{
  /* The words one after the other, each ending in a NUL; where each starts and whether
   * it is written together with the word before it. */
  GString *words = scratch->words, *out = scratch->logical;
  const DcToken *previous = NULL;

  g_string_truncate (words, 0);
  scratch->n_starts = 0;

  for (guint k = first; k < end;)
    {
      WordStart word = { words->len, FALSE };

      if (is_space (e, k))
        {
          k++;
          continue;
        }
      if (e->token_start[k]
          && e->tokens[e->token_at[k]].first_glyph + e->tokens[e->token_at[k]].n_glyphs <= end)
        {
          const DcToken *token = &e->tokens[e->token_at[k]];
          const char *token_text = _dc_token_texts_get (known, e->token_at[k]);

          if (token_text != NULL)
            g_string_append (words, token_text);
          else
            _dc_reorder_token (e->document, e->token_at[k], e->value, e->user_data, words);
          /* Words of CJK or Thai written together, as in the line's text. */
          word.closed =
              previous != NULL && previous + 1 == token
              && _dc_reorder_tokens_close_up (e->document, previous, token,
                                              words->str
                                                  + scratch->starts[scratch->n_starts - 1].offset,
                                              words->str + word.offset, e->value, e->user_data);
          previous = token;
          k = token->first_glyph + token->n_glyphs;
        }
      else
        {
          k = partial_word (e, k, end, rtl, words);
          previous = NULL;
        }
      g_string_append_c (words, '\0');
      *push_start (scratch) = word;
    }
  g_string_truncate (out, 0);
  for (guint i = 0; i < scratch->n_starts; i++)
    {
      guint w = rtl ? scratch->n_starts - 1 - i : i;

      /* A closed gap lies before the later word of the two in drawing order. */
      if (i > 0 && !scratch->starts[rtl ? w + 1 : w].closed)
        g_string_append_c (out, ' ');
      g_string_append (out, words->str + scratch->starts[w].offset);
    }
}

/* The span's glyphs in runs of one origin (level, status, provenance): an array. A span
 * has a run for every few glyphs where a font is partly decoded: when all are written
 * raw, the array is one raw member, as a compact writer lays out its calls. */
static void
add_runs (DcJsonWriter *w, const SpanScratch *scratch)
{
  gsize total = strlen (RUNS_OPEN) + 1;
  gboolean raw = scratch->n_runs > 0 && dc_json_writer_is_compact (w);

  for (guint r = 0; raw && r < scratch->n_runs; r++)
    {
      raw = run_is_raw (&scratch->runs[r]);
      total += run_raw_length (&scratch->runs[r]) + 1;
    }
  if (raw)
    {
      char *p = dc_json_writer_begin_raw (w, total);

      memcpy (p, RUNS_OPEN, strlen (RUNS_OPEN));
      p += strlen (RUNS_OPEN);
      for (guint r = 0; r < scratch->n_runs; r++)
        {
          if (r > 0)
            *p++ = ',';
          p = put_run (p, scratch->text, &scratch->runs[r]);
        }
      *p++ = ']';
      dc_json_writer_end_raw (w, p);
      return;
    }
  dc_json_writer_begin_array (w, "runs");
  for (guint r = 0; r < scratch->n_runs; r++)
    write_run (w, scratch->text, &scratch->runs[r]);
  dc_json_writer_end_array (w);
}

/* The span's font (that of its first glyph: index, name, size), script, direction,
 * writing mode and language, written again as for the span before when all of them are
 * the same. */
static void
add_span_head (Export *e, DcJsonWriter *w, const DcGlyph *head, GUnicodeScript script,
               gboolean vertical, gboolean mixed, const DcLanguageGuess *language,
               SpanScratch *scratch)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  guint font = dc_glyph_get_font (head, symbols);
  float size = dc_glyph_get_size (head);
  gboolean compact = dc_json_writer_is_compact (w);
  gsize start = w->out->len;

  if (compact && scratch->head->len > 0 && font == scratch->head_font
      && memcmp (&size, &scratch->head_size, sizeof size) == 0 && script == scratch->head_script
      && vertical == scratch->head_vertical && mixed == scratch->head_mixed
      && language->confidence == scratch->head_language.confidence
      && g_strcmp0 (language->source, scratch->head_language.source) == 0
      && strcmp (language->tag, scratch->head_language.tag) == 0)
    {
      dc_json_writer_members (w, scratch->head->str, scratch->head->len);
      return;
    }

  dc_json_writer_begin_object (w, "font");
  dc_json_writer_int (w, "index", font);
  dc_json_writer_string (w, "name", dc_font_get_name (dc_document_get_font (e->document, font)));
  dc_json_writer_double (w, "size", size);
  dc_json_writer_end_object (w);
  add_script (w, script, vertical);
  dc_json_writer_boolean (w, "mixed_script", mixed);
  add_language (w, language);

  g_string_truncate (scratch->head, 0);
  /* What was written: the separator from the members before, then the members. */
  if (!compact || w->out->str[start] != ',' || isnan (language->confidence))
    return;
  g_string_append_len (scratch->head, w->out->str + start + 1, (gssize) (w->out->len - start - 1));
  scratch->head_font = font;
  scratch->head_size = size;
  scratch->head_script = script;
  scratch->head_vertical = vertical;
  scratch->head_mixed = mixed;
  scratch->head_language = *language;
}

/* dc_text_get_script() of a span's text, its glyphs' values and spaces, counted glyph by
 * glyph from what each symbol's holds (Origin.script), in the same order: the glyphs'
 * values are valid UTF-8, so the characters are the same one by one. */
typedef struct
{
  gboolean known;
  GUnicodeScript scripts[8];
  guint counts[8], n, unknown;
} SpanScript;

static inline void
span_script_add (SpanScript *s, const Origin *o)
{
  guint k;

  if (!o->script_known)
    {
      s->known = FALSE;
      return;
    }
  s->unknown += o->unknowns;
  if (o->script_letters == 0)
    return;
  for (k = 0; k < s->n && s->scripts[k] != o->script; k++)
    ;
  if (k == s->n)
    {
      /* dc_text_get_script() keeps eight scripts, the first it meets. */
      if (s->n == G_N_ELEMENTS (s->scripts))
        return;
      s->scripts[s->n] = o->script;
      s->counts[s->n++] = 0;
    }
  s->counts[k] += o->script_letters;
}

static GUnicodeScript
span_script_get (const SpanScript *s, const char *text, gboolean *mixed)
{
  guint best = 0;

  if (!s->known)
    return dc_text_get_script (text, mixed);
  *mixed = s->n > 1;
  if (s->n == 0)
    return s->unknown > 0 ? G_UNICODE_SCRIPT_UNKNOWN : G_UNICODE_SCRIPT_COMMON;
  for (guint k = 1; k < s->n; k++)
    if (s->counts[k] > s->counts[best])
      best = k;
  return s->scripts[best];
}

/* The span's text in logical order (@reading: its text in reading order, scratch->text,
 * is that; @stable: each of its values passes _dc_export_is_normalized()), in the
 * normal form asked for: values hold what the glyphs draw, one by one; a reader comparing
 * or searching text wants one spelling of each letter. Most spans are already in that
 * form: no copy of them, else the copy, also in @copy. */
static const char *
normal_text (Export *e, guint first, guint end, gboolean rtl, gboolean reading, gboolean stable,
             const DcTokenTexts *known, SpanScratch *scratch, char **copy)
{
  const char *logical = scratch->text->str;

  if (!reading)
    {
      logical_text (e, first, end, rtl, known, scratch);
      logical = scratch->logical->str;
      stable = FALSE;
    }
  if (stable || _dc_export_is_normalized (logical, e->normalization))
    return logical;
  return *copy = _dc_export_normalize_cached (logical, e->normalization, scratch->pieces);
}

/* One span: the non-space glyphs of [first, end) of the reading order. A span of
 * punctuation or digits alone (a comma in a font of its own) is in the script of its
 * neighbours, @neighbours. On a @plain line (_dc_export_json_add_spans()) a left-to-right
 * span's text in logical order is its text in reading order: its tokens are their glyphs'
 * values, none moved, none written together (dc-reorder-plain.c), as logical_text()
 * finds them, given that no value is empty (a word of none still takes a space there). */
static void
add_span (Export *e, DcJsonWriter *w, gboolean vertical, gboolean plain, guint first, guint end,
          const DcLanguageGuess *block_language, GUnicodeScript block_script,
          const DcTokenTexts *known, GUnicodeScript *neighbours, SpanScratch *scratch)
{
  GString *text = scratch->text;
  g_autofree char *normalized_copy = NULL;
  const char *normalized;
  GUnicodeScript script;
  gboolean mixed;
  float x0 = G_MAXFLOAT, y0 = G_MAXFLOAT, x1 = -G_MAXFLOAT, y1 = -G_MAXFLOAT;
  guint undecoded = 0, n_glyphs = 0;
  DcLanguageGuess language;
  Run *run = NULL;
  SpanScript counted = { TRUE, { 0 }, { 0 }, 0, 0 };
  gboolean stable = TRUE, all_plain = TRUE, rtl;

  /* One pass over the glyphs for the span's text, box and runs: a run's text is the
   * span's from where it starts, less the space before it. */
  g_string_truncate (text, 0);
  scratch->n_runs = 0;
  for (guint k = first; k < end; k++)
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      Origin split;
      const Origin *o;

      if (is_space (e, k))
        continue;
      o = origin_of (e, e->order[k], &split);
      if (run != NULL && !same_origin (o, run_origin (run)))
        {
          run->end = text->len;
          run = NULL;
        }
      if (e->token_start[k] && text->len > 0)
        g_string_append_c (text, ' ');
      if (run == NULL)
        {
          run = push_run (scratch);
          run->start = text->len;
          run->n = 0;
          run->plain = TRUE;
          run->origin = o != &split ? o : NULL;
          if (o == &split)
            run->split = split;
        }
      append_value (text, o);
      span_script_add (&counted, o);
      run->n++;
      run->plain &= o->plain;
      stable &= o->normalized;
      all_plain &= o->plain;
      plain &= o->length > 0;
      undecoded += o->value == NULL;
      n_glyphs++;
      x0 = MIN (x0, dc_glyph_get_box (glyph).x0);
      y0 = MIN (y0, dc_glyph_get_box (glyph).y0);
      x1 = MAX (x1, dc_glyph_get_box (glyph).x1);
      y1 = MAX (y1, dc_glyph_get_box (glyph).y1);
    }
  if (run != NULL)
    run->end = text->len;
  script = span_script_get (&counted, text->str, &mixed);
  if (script == G_UNICODE_SCRIPT_COMMON)
    script = *neighbours;
  else if (script != G_UNICODE_SCRIPT_UNKNOWN)
    *neighbours = script;
  rtl = dc_script_is_rtl (script) && !vertical;
  normalized = normal_text (e, first, end, rtl, plain && !rtl, stable, known, scratch,
                            &normalized_copy);
  if (script == block_script || script == G_UNICODE_SCRIPT_COMMON
      || script == G_UNICODE_SCRIPT_UNKNOWN)
    language = *block_language;
  else
    /* A word in another script than its paragraph is in another language, whatever the
     * paragraph's; it is guessed alone, or left unknown when too short. */
    guess_language (e, normalized, NULL, &language);

  dc_json_writer_begin_object (w, NULL);
  /* Plain values and spaces are plain together: the span's text is not looked at again. */
  if (normalized == text->str && all_plain)
    _dc_json_writer_plain_string (w, "text", strlen ("text"), text->str, text->len);
  else
    dc_json_writer_string (w, "text", normalized);
  {
    /* A name of the form, which has nothing to escape. */
    const char *form = e->normalization == DC_NORMALIZATION_NFKC  ? "NFKC"
                       : e->normalization == DC_NORMALIZATION_NFD ? "NFD"
                                                                  : "NFC";

    _dc_json_writer_plain_string (w, "normalization", strlen ("normalization"), form,
                                  strlen (form));
  }
  _dc_export_json_add_bbox_kept (w, &scratch->bbox, x0, y0, x1, y1);
  add_span_head (e, w, &e->glyphs[e->order[first]], script, vertical, mixed, &language, scratch);
  dc_json_writer_int (w, "glyphs", n_glyphs);
  dc_json_writer_int (w, "undecoded_glyphs", undecoded);

  add_runs (w, scratch);
  dc_json_writer_end_object (w);
}

/* Han, kana, bopomofo and hangul are written together (ISO 15924 Jpan, Kore, Hanb): a
 * change between them cuts no span. */
static GUnicodeScript
script_family (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_BOPOMOFO:
    case G_UNICODE_SCRIPT_HANGUL:
      return G_UNICODE_SCRIPT_HAN;
    default:
      return script;
    }
}

/* The script of the first character of @value (nullable) of a script of its own (UAX
 * #24: Common and Inherited ones have none), COMMON when it has none. */
GUnicodeScript
_dc_export_json_first_script (const char *value)
{
  for (const char *c = value; c != NULL && *c; c = g_utf8_next_char (c))
    {
      GUnicodeScript script = g_unichar_get_script (_dc_utf8_get_char (c));

      if (script != G_UNICODE_SCRIPT_COMMON && script != G_UNICODE_SCRIPT_INHERITED
          && script != G_UNICODE_SCRIPT_UNKNOWN)
        return script_family (script);
    }
  return G_UNICODE_SCRIPT_COMMON;
}

/* The script of the token starting at reading-order position @k: that of its first
 * character of a script of its own, from what each glyph reads (Origin.first_script);
 * COMMON when it has none. */
static GUnicodeScript
token_script (Export *e, guint k)
{
  const DcToken *token = &e->tokens[e->token_at[k]];

  for (guint i = token->first_glyph; i < token->first_glyph + token->n_glyphs; i++)
    {
      Origin split;
      GUnicodeScript script = origin_of (e, e->order[i], &split)->first_script;

      if (script != G_UNICODE_SCRIPT_COMMON)
        return script;
    }
  return G_UNICODE_SCRIPT_COMMON;
}

/* The order a right-to-left line's spans are read in: the line's runs from right to left,
 * but a run of left-to-right spans inside it (a Latin name in Hebrew) left to right. */
static void
order_spans_rtl (SpanRange *spans, guint n)
{
  for (guint i = 0; i < n / 2; i++)
    {
      SpanRange swap = spans[i];

      spans[i] = spans[n - 1 - i];
      spans[n - 1 - i] = swap;
    }
  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j < n && spans[j].ltr)
        j++;
      for (guint a = i, b = j; b > a + 1; a++, b--)
        {
          SpanRange swap = spans[a];

          spans[a] = spans[b - 1];
          spans[b - 1] = swap;
        }
      i = MAX (j, i + 1);
    }
}

/* Spans, as pdftract cuts them: wherever the font or size changes, and where a word in
 * another script begins (and with it, maybe, another direction); punctuation, digits and
 * marks (Common, Inherited) stay with the words around them. Spaces go with the span
 * they are in, whatever font draws them. A right-to-left line's spans come in logical
 * order, as its text does. */
void
_dc_export_json_add_spans (Export *e, DcJsonWriter *w, guint l, gboolean rtl, gboolean plain,
                           const DcLanguageGuess *block_language, GUnicodeScript block_script,
                           const DcTokenTexts *known, SpanScratch *scratch)
{
  const DcSymbol *symbols = dc_document_get_symbols (e->document, NULL);
  const DcLine *line = &e->lines[l];
  gboolean vertical = _dc_line_is_vertical (e->document, l);
  guint end = line->first_glyph + line->n_glyphs;
  const DcGlyph *head = NULL;
  guint head_font = 0;
  float head_size = 0;
  GUnicodeScript span_script = G_UNICODE_SCRIPT_COMMON, neighbours = G_UNICODE_SCRIPT_COMMON;
  GArray *spans = scratch->spans;
  SpanRange span = { line->first_glyph, 0, FALSE };

  g_array_set_size (spans, 0);

  for (guint k = line->first_glyph; k < end; k++)
    {
      const DcGlyph *glyph = &e->glyphs[e->order[k]];
      GUnicodeScript script = G_UNICODE_SCRIPT_COMMON;
      guint font;
      float size;

      if (is_space (e, k))
        continue;
      if (e->token_start[k])
        script = token_script (e, k);
      /* The head's font and size kept, not read again for each glyph. */
      font = dc_glyph_get_font (glyph, symbols);
      size = dc_glyph_get_size (glyph);
      if (head != NULL
          && (font != head_font || size != head_size
              || (script != G_UNICODE_SCRIPT_COMMON && span_script != G_UNICODE_SCRIPT_COMMON
                  && script != span_script)))
        {
          span.end = k;
          span.ltr = span_script != G_UNICODE_SCRIPT_COMMON && !dc_script_is_rtl (span_script);
          g_array_append_val (spans, span);
          span.first = k;
          span_script = G_UNICODE_SCRIPT_COMMON;
        }
      if (script != G_UNICODE_SCRIPT_COMMON)
        span_script = script;
      head = glyph;
      head_font = font;
      head_size = size;
    }
  if (head != NULL)
    {
      span.end = end;
      span.ltr = span_script != G_UNICODE_SCRIPT_COMMON && !dc_script_is_rtl (span_script);
      g_array_append_val (spans, span);
    }
  if (rtl && !vertical)
    order_spans_rtl ((SpanRange *) (void *) spans->data, spans->len);

  /* A first span of punctuation alone takes the script of the words after it. */
  for (guint s = 0; s < spans->len && neighbours == G_UNICODE_SCRIPT_COMMON; s++)
    {
      const SpanRange *range = &g_array_index (spans, SpanRange, s);

      for (guint k = range->first; k < range->end && neighbours == G_UNICODE_SCRIPT_COMMON; k++)
        if (e->token_start[k])
          neighbours = token_script (e, k);
    }

  dc_json_writer_begin_array (w, "spans");
  for (guint s = 0; s < spans->len; s++)
    {
      const SpanRange *range = &g_array_index (spans, SpanRange, s);

      add_span (e, w, vertical, plain, range->first, range->end, block_language, block_script,
                known, &neighbours, scratch);
    }
  dc_json_writer_end_array (w);
}
