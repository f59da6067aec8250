/* dc-export-json-blocks.c: the JSON export's pages, blocks and lines with their metadata
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-export-json.c. A page's blocks, each with its letters per script and
 * the language guessed for it (a line is often too short for the detector), and its
 * lines, each with its text and tokens in logical order, its tab-score and metadata,
 * before the spans (dc-export-json-spans.c).
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dc-export-json-private.h"
#include "dc-reorder-private.h"
#include "dc-reorder-units-private.h"
#include "dc-script.h"
#include "dc-unicode-private.h"

#define guess_language _dc_export_json_guess_language
#define add_bbox _dc_export_json_add_bbox
#define add_language _dc_export_json_add_language
#define add_spans _dc_export_json_add_spans

/* A line of more scripts than this is counted from its text. */
#define LINE_LETTER_SCRIPTS 8

/* A line's text and its tokens' in logical order (dc-reorder.c): right-to-left lines
 * reversed, Indic pre-base vowels moved after their consonant. Worked out once for the
 * block's language and for the line's own members, into one string for the page
 * (offsets into it: it grows while the lines are read), the text and then the tokens,
 * each ending in a NUL: a book has tens of thousands of lines and ten times as many
 * tokens, each of which was a string of its own. */
typedef struct
{
  gsize text, text_length;
  gsize tokens; /* the tokens' texts one after the other, each ending in a NUL */
  guint n_tokens;
  gboolean split; /* the tokens are the text cut at its spaces */
  /* Where alone_made: the texts of the tokens alone (block_token_texts()), one after the
   * other, each ending in a NUL, worked out with the line's. */
  gboolean alone_made;
  gsize alone;
  /* Whether the text has nothing to escape (dc_json_writer_is_plain()), where plain_known:
   * told from its glyphs' values (Origin.plain) by count_line_glyphs(). */
  gboolean plain_known, plain;
  DcLineMetadata metadata;
  /* The letters of the line by script (count_line_letters()), where letters_known: counted
   * by count_line_glyphs() in the same pass. */
  gboolean letters_known;
  guint n_letter_scripts;
  GUnicodeScript letter_scripts[LINE_LETTER_SCRIPTS];
  guint letter_counts[LINE_LETTER_SCRIPTS];
} LineText;

/* Whether @length bytes of @text hold @n_spaces spaces exactly. */
static gboolean
holds_spaces (const char *text, gsize length, guint n_spaces)
{
  const char *end = text + length;
  guint found = 0;

  for (const char *p = text; (p = memchr (p, ' ', (gsize) (end - p))) != NULL; p++)
    if (++found > n_spaces)
      return FALSE;
  return found == n_spaces;
}

/* Line @l's text and tokens at the end of @arena. A line that needs no reordering is its
 * glyphs' texts from the text export's table (dc-text-cache.c), as `text` writes it: its
 * tokens are what lies between the spaces, unless a glyph reads a space itself. */
static void
read_line (Export *e, guint l, GString *arena, LineText *out)
{
  const DcLine *line = &e->lines[l];
  g_autoptr (GString) text = NULL;
  g_autoptr (GPtrArray) tokens = NULL;
  gboolean cached_plain = FALSE;

  out->text = arena->len;
  out->alone_made = FALSE;
  if (e->text_cache != NULL
      && (cached_plain = _dc_reorder_cached_tokens (e->document, line->first_token, line->n_tokens,
                                                    e->text_cache, arena)))
    {
      gsize length = arena->len - out->text;

      if (line->n_tokens > 0 && holds_spaces (arena->str + out->text, length, line->n_tokens - 1))
        {
          char *copy;

          out->text_length = length;
          /* The text's NUL, the tokens and theirs: room made first, as they are a copy. */
          g_string_set_size (arena, out->text + 2 * (length + 1));
          copy = arena->str + out->text + length + 1;
          arena->str[out->text + length] = '\0';
          memcpy (copy, arena->str + out->text, length + 1);
          for (char *p = copy; (p = memchr (p, ' ', (gsize) (copy + length - p))) != NULL; p++)
            *p = '\0';
          out->tokens = out->text + length + 1;
          out->n_tokens = line->n_tokens;
          out->split = TRUE;
          out->plain_known = FALSE;
          return;
        }
      g_string_truncate (arena, out->text);
    }
  text = g_string_new (NULL);
  /* A line the table finds not plain is reordered with the table's texts too. */
  if (e->text_cache != NULL && !cached_plain)
    {
      g_autoptr (GString) token_texts = g_string_new (NULL);
      g_autoptr (GString) alone = g_string_new (NULL);
      DcReorderTexts texts = { token_texts, 0, alone, FALSE };

      _dc_reorder_tokens_cached_texts (e->document, line->first_token, line->n_tokens,
                                       e->text_cache, e->value, e->user_data, text, &texts);
      out->text_length = text->len;
      g_string_append_len (arena, text->str, (gssize) text->len + 1);
      out->tokens = arena->len;
      out->n_tokens = texts.n_tokens;
      out->split = FALSE;
      out->plain_known = FALSE;
      g_string_append_len (arena, token_texts->str, (gssize) token_texts->len);
      if ((out->alone_made = texts.alone_made))
        {
          out->alone = arena->len;
          g_string_append_len (arena, alone->str, (gssize) alone->len);
        }
      return;
    }
  tokens = g_ptr_array_new_with_free_func (g_free);
  _dc_reorder_line (e->document, l, e->value, e->user_data, text, tokens);
  out->text_length = text->len;
  g_string_append_len (arena, text->str, (gssize) text->len + 1);
  out->tokens = arena->len;
  out->n_tokens = tokens->len;
  out->split = FALSE;
  out->plain_known = FALSE;
  for (guint t = 0; t < tokens->len; t++)
    {
      const char *token = g_ptr_array_index (tokens, t);

      g_string_append_len (arena, token, (gssize) strlen (token) + 1);
    }
}

static void
add_line (Export *e, DcJsonWriter *w, guint l, guint block_index, double tabscore,
          const char *arena, const LineText *line_text, const DcLanguageGuess *block_language,
          GUnicodeScript block_script, const DcTokenTexts *known, SpanScratch *scratch)
{
  const DcLine *line = &e->lines[l];
  const char *text = arena + line_text->text;
  const char *token = arena + line_text->tokens;
  gboolean rtl;

  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_int (w, "index", line->index);
  dc_json_writer_int (w, "block", block_index);
  _dc_export_json_add_bbox_kept (w, _dc_export_json_span_scratch_bbox (scratch), line->x0, line->y0,
                                 line->x1, line->y1);
  dc_json_writer_begin_array (w, "tokens");
  if (line_text->split
      && (line_text->plain_known ? line_text->plain : dc_json_writer_is_plain (text)))
    {
      /* Pieces of a text with nothing to escape, cut at its spaces, have none either: the
       * text is looked at once, not once more per token. */
      for (guint t = 0; t < line_text->n_tokens; t++)
        {
          gsize length = strlen (token);

          _dc_json_writer_plain_string (w, NULL, 0, token, length);
          token += length + 1;
        }
      dc_json_writer_end_array (w);
      _dc_json_writer_plain_string (w, "text", strlen ("text"), text, line_text->text_length);
    }
  else
    {
      for (guint t = 0; t < line_text->n_tokens; t++, token += strlen (token) + 1)
        dc_json_writer_string (w, NULL, token);
      dc_json_writer_end_array (w);
      dc_json_writer_string (w, "text", text);
    }
  /* Freki's iscore: a block's first line has none. */
  if (isnan (tabscore))
    dc_json_writer_null (w, "tabscore");
  else
    dc_json_writer_double (w, "tabscore", tabscore);
  rtl = _dc_export_write_line_metadata (w, &line_text->metadata, text);
  add_spans (e, w, l, rtl, line_text->split, block_language, block_script, known, scratch);
  dc_json_writer_end_object (w);
}

/* What a block (a paragraph) is written in: the unit whose language is guessed, as a
 * line is often too short for the detector. */
typedef struct
{
  GUnicodeScript script;
  DcLanguageGuess language;
  gboolean lang_conflict; /* the detector overrode the document's /Lang */
  GArray *letters;        /* ScriptLetters, most first: a block holds few scripts */
  LineText *lines;        /* per line of the block */
} BlockText;

typedef struct
{
  GUnicodeScript script;
  guint letters;
} ScriptLetters;

static int
compare_script_letters (gconstpointer a, gconstpointer b)
{
  const ScriptLetters *sa = a, *sb = b;

  if (sa->letters != sb->letters)
    return sa->letters > sb->letters ? -1 : 1;
  return (int) sa->script - (int) sb->script;
}

/* Adds the letters of @o's value to its script's count among the first *@n of @scripts
 * (room for LINE_LETTER_SCRIPTS); FALSE where its script is one more that has no room. */
static inline gboolean
tally_letters (const Origin *o, GUnicodeScript *scripts, guint *counts, guint *n)
{
  guint i;

  for (i = 0; i < *n && scripts[i] != o->letter_script; i++)
    ;
  if (i == *n)
    {
      if (*n == LINE_LETTER_SCRIPTS)
        return FALSE;
      scripts[i] = o->letter_script;
      counts[i] = 0;
      (*n)++;
    }
  counts[i] += o->letters;
  return TRUE;
}

/* The metadata of line @l, whose text is its tokens' glyphs' values (LineText.split),
 * counted glyph by glyph from what each symbol's value holds (Origin.script): the same
 * characters in the same order as the line's metadata counts them in its text. FALSE,
 * with nothing made, where a value holds letters of several scripts or is no UTF-8.
 * Says too whether the text is plain (dc_json_writer_is_plain()): its values, valid
 * UTF-8 each, and spaces are, if each value is; and counts its letters by script as
 * count_line_letters() does, where it can (LineText.letters_known). */
static gboolean
count_line_glyphs (Export *e, guint l, LineText *line_text)
{
  const DcLine *line = &e->lines[l];
  g_autoptr (GArray) counts = g_array_new (FALSE, TRUE, sizeof (DcScriptCount));
  guint rtl = 0, ltr = 0;
  gboolean all_plain = TRUE;
  /* count_line_letters()'s counts, in the same pass over the glyphs. */
  gboolean letters_known = TRUE;
  guint n_letters = 0;

  for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
    {
      const DcToken *token = &e->tokens[t];

      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        {
          guint symbol = e->glyphs[e->order[k]].symbol;
          const Origin *o = &e->origins[symbol];
          guint i;

          if ((e->split != NULL && e->split[symbol]) || !o->script_known)
            return FALSE;
          all_plain &= o->plain;
          rtl += o->rtl_strong;
          ltr += o->ltr_strong;
          if (!o->letters_known)
            letters_known = FALSE;
          else if (letters_known && o->letters > 0)
            letters_known = tally_letters (o, line_text->letter_scripts, line_text->letter_counts,
                                           &n_letters);
          if (o->script_letters == 0)
            continue;
          for (i = 0;
               i < counts->len && g_array_index (counts, DcScriptCount, i).script != o->script; i++)
            ;
          if (i == counts->len)
            {
              DcScriptCount count = { o->script, 0 };

              g_array_append_val (counts, count);
            }
          g_array_index (counts, DcScriptCount, i).count += o->script_letters;
        }
    }
  _dc_export_line_metadata_counted (e->document, l, g_steal_pointer (&counts), rtl, ltr,
                                    &line_text->metadata);
  line_text->plain = all_plain;
  line_text->letters_known = letters_known;
  line_text->n_letter_scripts = n_letters;
  return TRUE;
}

/* dc_text_get_script() of the block's text, its lines' one after the other, from the
 * scripts the lines' metadata counted in the order they first occur: the same characters
 * (dc-export.c), so the same counts and the same first eight scripts. Asks the function
 * itself of a block with no letters (whose text may be U+FFFD alone) or a line of more
 * than eight scripts. */
static GUnicodeScript
block_script (const BlockText *out, guint n_lines, const char *text)
{
  GUnicodeScript scripts[DC_LINE_FIRST_SCRIPTS];
  guint counts[DC_LINE_FIRST_SCRIPTS], n = 0, best = 0;

  for (guint i = 0; i < n_lines; i++)
    {
      const DcLineMetadata *metadata = &out->lines[i].metadata;

      if (metadata->n_first_seen == G_MAXUINT)
        return dc_text_get_script (text, NULL);
      for (guint j = 0; j < metadata->n_first_seen; j++)
        {
          const DcScriptCount *count = &metadata->first_seen[j];
          guint k;

          for (k = 0; k < n && scripts[k] != count->script; k++)
            ;
          if (k == n)
            {
              if (n == DC_LINE_FIRST_SCRIPTS)
                continue;
              scripts[n] = count->script;
              counts[n++] = 0;
            }
          counts[k] += count->count;
        }
    }
  if (n == 0)
    return dc_text_get_script (text, NULL);
  for (guint k = 1; k < n; k++)
    if (counts[k] > counts[best])
      best = k;
  return scripts[best];
}

/* Adds @n letters of @script to @letters. */
static void
add_letters (GArray *letters, GUnicodeScript script, guint n)
{
  guint i;

  for (i = 0; i < letters->len; i++)
    if (g_array_index (letters, ScriptLetters, i).script == script)
      break;
  if (i == letters->len)
    {
      ScriptLetters first = { script, 0 };

      g_array_append_val (letters, first);
    }
  g_array_index (letters, ScriptLetters, i).letters += n;
}

/* The letters of @text, valid UTF-8, by script. */
static void
count_text_letters (const char *text, GArray *letters)
{
  for (const char *c = text; *c; c = g_utf8_next_char (c))
    {
      GUnicodeScript script;

      /* ASCII without a call. */
      if ((guchar) *c < 0x80 && !g_ascii_isalpha (*c))
        continue;
      if (_dc_export_json_letter_script (_dc_utf8_get_char (c), &script))
        add_letters (letters, script, 1);
    }
}

/* The letters of line @l, whose text is its tokens' glyphs' values (LineText.split), by
 * script, from what each symbol's value holds (Origin.letters); FALSE, with @letters as
 * it was, where a value holds letters of several scripts or is no UTF-8. */
static gboolean
count_line_letters (Export *e, guint l, GArray *letters)
{
  const DcLine *line = &e->lines[l];
  guint n = 0, counts[LINE_LETTER_SCRIPTS];
  GUnicodeScript scripts[LINE_LETTER_SCRIPTS];

  for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
    {
      const DcToken *token = &e->tokens[t];

      for (guint k = token->first_glyph; k < token->first_glyph + token->n_glyphs; k++)
        {
          guint symbol = e->glyphs[e->order[k]].symbol;
          const Origin *o = &e->origins[symbol];

          if ((e->split != NULL && e->split[symbol]) || !o->letters_known)
            return FALSE;
          if (o->letters > 0 && !tally_letters (o, scripts, counts, &n))
            return FALSE;
        }
    }
  for (guint i = 0; i < n; i++)
    add_letters (letters, scripts[i], counts[i]);
  return TRUE;
}

static void
block_text (Export *e, const DcBlock *block, GString *arena, BlockText *out)
{
  g_autoptr (GString) text = g_string_new (NULL);

  out->lines = g_new (LineText, MAX (1, block->n_lines));
  for (guint i = 0; i < block->n_lines; i++)
    {
      LineText *line = &out->lines[i];

      read_line (e, block->first_line + i, arena, line);
      line->letters_known = FALSE;
      if (line->split && count_line_glyphs (e, block->first_line + i, line))
        line->plain_known = TRUE;
      else
        _dc_export_line_metadata (e->document, block->first_line + i, arena->str + line->text,
                                  &line->metadata);
      g_string_append_len (text, arena->str + line->text, (gssize) line->text_length);
      g_string_append_c (text, '\n');
    }
  out->script = block_script (out, block->n_lines, text->str);
  out->lang_conflict = guess_language (e, text->str, dc_document_get_language (e->document),
                                       &out->language);
  out->letters = g_array_new (FALSE, FALSE, sizeof (ScriptLetters));
  /* Counted line by line, a plain line from its glyphs' symbols: the same characters
   * as the block's text, when each line's text is UTF-8 and none runs into the next. */
  for (guint i = 0; i < block->n_lines; i++)
    {
      const LineText *line = &out->lines[i];
      const char *line_text = arena->str + line->text;

      if (line->split && line->letters_known)
        {
          for (guint j = 0; j < line->n_letter_scripts; j++)
            add_letters (out->letters, line->letter_scripts[j], line->letter_counts[j]);
          continue;
        }
      if (line->split && count_line_letters (e, block->first_line + i, out->letters))
        continue;
      if (!g_utf8_validate (line_text, (gssize) line->text_length, NULL)
          || strlen (line_text) != line->text_length)
        {
          g_array_set_size (out->letters, 0);
          count_text_letters (text->str, out->letters);
          break;
        }
      count_text_letters (line_text, out->letters);
    }
  g_array_sort (out->letters, compare_script_letters);
}

/* The block's totals: its letters per script, most first, and its language. */
static void
add_block_totals (DcJsonWriter *w, const BlockText *totals)
{
  dc_json_writer_begin_array (w, "scripts");
  for (guint i = 0; i < totals->letters->len; i++)
    {
      const ScriptLetters *s = &g_array_index (totals->letters, ScriptLetters, i);
      char code[5];

      dc_script_to_iso15924 (s->script, code);
      dc_json_writer_begin_object (w, NULL);
      dc_json_writer_string (w, "script", code);
      dc_json_writer_int (w, "letters", s->letters);
      dc_json_writer_end_object (w);
    }
  dc_json_writer_end_array (w);
  dc_json_writer_boolean (w, "mixed_script", totals->letters->len > 1);
  add_language (w, &totals->language);
  /* The document states a language its text is surely not in: a /Lang left over from a
   * template, or a paragraph in another language. */
  dc_json_writer_boolean (w, "lang_conflict", totals->lang_conflict);
}

/* Whether @text, a line's text in logical order, holds no letter or mark that could be
 * right to left: dc-reorder.c's test of a line's glyphs (may_hold_rtl()), here on what
 * they read, which holds the same characters. */
static gboolean
surely_left_to_right (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      gunichar c;

      if (*p < 0xD6)
        continue;
      if (*p < 0xE0 || *p >= 0xF0 || p[1] == '\0' || p[2] == '\0')
        return FALSE;
      c = ((gunichar) (p[0] & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      if (c <= 0x08FF || c == 0x200F || c == 0x202B || c == 0x202E || c == 0x2067
          || (c >= 0xFB1D && c <= 0xFEFF))
        return FALSE;
      p += 2;
    }
  return TRUE;
}

/* The texts of the block's tokens, which the tab-scores and the spans both read. A line
 * read left to right throughout (most lines) already gave each of its tokens' texts, in
 * order (block_text()): dc-reorder.c reorders the glyphs of a token among themselves
 * only, and moves tokens only for right-to-left text, so they are what the token alone
 * gives (tests/test-json.c checks it on every fixture); the others' tokens are worked
 * out alone. Sets @owned[i] where known->texts[i] is a copy of its own. */
static void
block_token_texts (Export *e, const DcBlock *block, const char *arena, const BlockText *text,
                   DcTokenTexts *known, guint8 **owned)
{
  guint first = G_MAXUINT, end = 0;

  for (guint l = block->first_line; l < block->first_line + block->n_lines; l++)
    {
      first = MIN (first, e->lines[l].first_token);
      end = MAX (end, e->lines[l].first_token + e->lines[l].n_tokens);
    }
  known->first = first;
  known->n = end > first ? end - first : 0;
  known->texts = g_new0 (char *, MAX (1, known->n));
  *owned = g_new0 (guint8, MAX (1, known->n));
  for (guint i = 0; i < block->n_lines; i++)
    {
      const DcLine *line = &e->lines[block->first_line + i];
      const LineText *line_text = &text->lines[i];
      const char *token = arena + line_text->tokens;

      if (line_text->alone_made)
        {
          token = arena + line_text->alone;
          for (guint t = 0; t < line->n_tokens; t++, token += strlen (token) + 1)
            known->texts[line->first_token + t - first] = (char *) token;
          continue;
        }
      /* A line read glyph by glyph (LineText.split) gave each token its glyphs' values,
       * which is what the token alone reads too (dc-reorder-plain.c): no need to look
       * at its text for right-to-left letters. */
      if (line->n_tokens == 0 || line_text->n_tokens != line->n_tokens
          || (!line_text->split && !surely_left_to_right (arena + line_text->text)))
        continue;
      for (guint t = 0; t < line->n_tokens; t++, token += strlen (token) + 1)
        known->texts[line->first_token + t - first] = (char *) token;
    }
  for (guint i = 0; i < known->n; i++)
    if (known->texts[i] == NULL)
      {
        GString *token_text = g_string_new (NULL);

        /* A token of its glyphs' values alone, as a line of them is (read_line()). */
        if (e->text_cache == NULL)
          _dc_reorder_token (e->document, first + i, e->value, e->user_data, token_text);
        else if (!_dc_reorder_cached_tokens (e->document, first + i, 1, e->text_cache, token_text))
          _dc_reorder_tokens_cached (e->document, first + i, 1, e->text_cache, e->value,
                                     e->user_data, token_text, NULL);
        known->texts[i] = g_string_free (token_text, FALSE);
        (*owned)[i] = 1;
      }
}

static void
block_text_clear (BlockText *text, guint n_lines)
{
  for (guint i = 0; i < n_lines; i++)
    _dc_export_line_metadata_clear (&text->lines[i].metadata);
  g_free (text->lines);
  g_array_unref (text->letters);
}

void
_dc_export_json_add_page (Export *e, DcJsonWriter *w, guint page)
{
  const DcBlock *blocks = dc_document_get_blocks (e->document, NULL);
  double width, height;
  guint first, n;
  g_autofree BlockText *texts = NULL;
  SpanScratch *scratch = _dc_export_json_span_scratch_new ();
  g_autoptr (GString) arena = g_string_sized_new (1 << 16);

  dc_document_get_page_size (e->document, page, &width, &height);
  dc_document_get_page_blocks (e->document, page, &first, &n);
  texts = g_new0 (BlockText, MAX (1, n));
  for (guint b = 0; b < n; b++)
    block_text (e, &blocks[first + b], arena, &texts[b]);

  dc_json_writer_begin_object (w, NULL);
  dc_json_writer_int (w, "page", page + 1);
  dc_json_writer_double (w, "width", width);
  dc_json_writer_double (w, "height", height);

  dc_json_writer_begin_array (w, "blocks");
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];

      dc_json_writer_begin_object (w, NULL);
      dc_json_writer_int (w, "index", block->index);
      dc_json_writer_string (w, "label", block->label);
      /* pdftract's block kind; of its kinds, only tables are told apart yet. */
      dc_json_writer_string (w, "kind", block->table ? "table" : NULL);
      add_bbox (w, block->x0, block->y0, block->x1, block->y1);
      dc_json_writer_int (w, "first_line", e->lines[block->first_line].index);
      dc_json_writer_int (w, "n_lines", block->n_lines);
      add_block_totals (w, &texts[b - first]);
      dc_json_writer_end_object (w);
    }
  dc_json_writer_end_array (w);

  dc_json_writer_begin_array (w, "lines");
  for (guint b = first; b < first + n; b++)
    {
      const DcBlock *block = &blocks[b];
      g_autofree double *tabscores = NULL;
      const BlockText *text = &texts[b - first];
      DcTokenTexts known;
      g_autofree guint8 *owned = NULL;

      block_token_texts (e, block, arena->str, text, &known, &owned);
      tabscores = _dc_export_block_tabscores (e->document, block, e->left_margin, e->value,
                                              e->user_data, &known);
      for (guint i = 0; i < block->n_lines; i++)
        add_line (e, w, block->first_line + i, block->index, tabscores[i], arena->str,
                  &text->lines[i], &text->language, text->script, &known, scratch);
      for (guint i = 0; i < known.n; i++)
        if (owned[i])
          g_free (known.texts[i]);
      g_free (known.texts);
    }
  dc_json_writer_end_array (w);
  dc_json_writer_end_object (w);
  _dc_export_json_span_scratch_free (scratch);
  for (guint b = 0; b < n; b++)
    block_text_clear (&texts[b], blocks[first + b].n_lines);
}
