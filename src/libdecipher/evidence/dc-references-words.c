/* dc-references-words.c: the script of the words a shared outline stands in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-references-apply.c. A legacy Cyrillic font keeps the Latin letters at their
 * ASCII codes, for a language's name, a quotation or a reference, and DejaVu Sans and
 * Liberation Sans draw Latin i, l, h, C and Cyrillic і, ӏ, һ, С alike. The font's script
 * chose the Cyrillic character for all of them: the heading "Mongolian, Halh (Cyrillic)"
 * of a Mongolian text was applied as "…ӏіan, Haӏһ (Сyrіӏӏіc)", whose words no search finds,
 * and typing it as read was refused. The words a symbol stands in tell its script better
 * than its font: their other letters whose values can be trusted are counted by script,
 * once for all of a font's open symbols, in one look at the font's lines, the first time a
 * shared outline of the font asks.
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include "dc-document-private.h"
#include "dc-library.h"
#include "dc-references-private.h"

/* Letters of one script at least, and their share of the letters counted: fewer tell
 * nothing for sure. */
#define MIN_LETTERS 2
#define MIN_SHARE 0.75
/* Scripts counted a symbol: a word of more is no word of one language. */
#define MAX_SCRIPTS 3
/* The glyphs of a font's lines looked at, from its first: as for the readings' text
 * (dc-readings.c), enough for the words of its letters, and a book in one font is not
 * read whole. Counting the varied book's 97 fonts, each shorter, costs 2 % of its
 * session's first reply. */
#define MAX_GLYPHS 40000

typedef struct
{
  const char *scripts[MAX_SCRIPTS]; /* dc_library_script_of_value()'s, interned */
  guint counts[MAX_SCRIPTS];
} Tally;

struct _DcWordScripts
{
  DcKey *key;
  GArray *tallies;            /* Tally */
  guint *tally_of;            /* symbol → its tally's index + 1, 0: none (not open) */
  guint *last_token;          /* symbol → the token + 1 it was last counted in */
  gboolean *counted;          /* font → whether its open symbols' words are counted */
  const char **letter_of;     /* symbol → script of its trustworthy letter, or NULL */
  gboolean *letter_looked_at; /* symbol → whether letter_of is known */
};

static void
tally_add (Tally *tally, const char *script, guint n)
{
  for (guint i = 0; i < MAX_SCRIPTS; i++)
    if (tally->scripts[i] == script || tally->scripts[i] == NULL)
      {
        tally->scripts[i] = script;
        tally->counts[i] += n;
        return;
      }
}

/* The script of @symbol's value where it is a letter (of a script) the level can trust. */
static const char *
letter_script (DcWordScripts *self, guint symbol)
{
  DcKey *key = self->key;

  if (!self->letter_looked_at[symbol])
    {
      self->letter_looked_at[symbol] = TRUE;
      self->letter_of[symbol] = _dc_references_value_is_trustworthy (key, symbol)
                                    ? dc_library_script_of_value (dc_key_get_value (key, symbol))
                                    : NULL;
    }
  return self->letter_of[symbol];
}

/**
 * _dc_word_scripts_new:
 * @key: the key as the shared outlines start to be decided; not a reference
 *
 * Returns: the counts of the words of each font's open symbols, none counted yet
 */
DcWordScripts *
_dc_word_scripts_new (DcKey *key)
{
  DcDocument *document = dc_key_get_document (key);
  DcWordScripts *self = g_new0 (DcWordScripts, 1);
  guint n_symbols;

  dc_document_get_symbols (document, &n_symbols);
  self->key = key;
  self->tallies = g_array_new (FALSE, TRUE, sizeof (Tally));
  self->tally_of = g_new0 (guint, MAX (1, n_symbols));
  self->last_token = g_new0 (guint, MAX (1, n_symbols));
  self->counted = g_new0 (gboolean, MAX (1, dc_document_get_n_fonts (document)));
  self->letter_of = g_new0 (const char *, MAX (1, n_symbols));
  self->letter_looked_at = g_new0 (gboolean, MAX (1, n_symbols));
  return self;
}

/* Counts, for each symbol of @font the key has no value for, the letters of each script
 * among the other glyphs of the words it stands in: the letters whose values the level
 * trusts (_dc_references_value_is_trustworthy()), as the key holds them now. */
static void
count_font (DcWordScripts *self, guint font)
{
  DcKey *key = self->key;
  DcDocument *document = dc_key_get_document (key);
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  const DcLine *lines = dc_document_get_lines (document, NULL);
  const DcToken *tokens = dc_document_get_tokens (document, NULL);
  const guint32 *order = dc_document_get_reading_order (document, NULL);
  const DcGlyph *glyphs = dc_document_get_glyphs (document, NULL);
  const guint *starts, *symbol_starts;
  const guint32 *font_lines = _dc_document_get_font_lines (document, &starts);
  const guint32 *font_symbols = _dc_document_get_font_symbols (document, &symbol_starts);
  gboolean any_open = FALSE;
  guint n_looked = 0;

  self->counted[font] = TRUE;
  for (guint i = symbol_starts[font]; i < symbol_starts[font + 1]; i++)
    if (dc_key_get_value (key, font_symbols[i]) == NULL)
      {
        g_array_set_size (self->tallies, self->tallies->len + 1);
        self->tally_of[font_symbols[i]] = self->tallies->len;
        any_open = TRUE;
      }
  for (guint i = starts[font]; any_open && i < starts[font + 1] && n_looked < MAX_GLYPHS; i++)
    {
      const DcLine *line = &lines[font_lines[i]];

      n_looked += line->n_glyphs;
      for (guint t = line->first_token; t < line->first_token + line->n_tokens; t++)
        {
          const DcToken *token = &tokens[t];
          Tally word = { { NULL }, { 0 } };
          gboolean has_open = FALSE;

          /* Most words hold no open symbol: those are passed over first. */
          for (guint p = token->first_glyph; p < token->first_glyph + token->n_glyphs && !has_open;
               p++)
            {
              guint symbol = glyphs[order[p]].symbol;

              has_open = self->tally_of[symbol] != 0 && symbols[symbol].font == font;
            }
          if (!has_open)
            continue;
          for (guint p = token->first_glyph; p < token->first_glyph + token->n_glyphs; p++)
            {
              const char *script = letter_script (self, glyphs[order[p]].symbol);

              if (script != NULL)
                tally_add (&word, script, 1);
            }
          if (word.scripts[0] == NULL)
            continue;
          /* An open symbol's own glyphs are no letter it could be told by: the word's
           * counts go to it whole, once however often it stands in the word. */
          for (guint p = token->first_glyph; p < token->first_glyph + token->n_glyphs; p++)
            {
              guint symbol = glyphs[order[p]].symbol;
              Tally *tally;

              if (self->tally_of[symbol] == 0 || symbols[symbol].font != font
                  || self->last_token[symbol] == t + 1)
                continue;
              self->last_token[symbol] = t + 1;
              tally = &g_array_index (self->tallies, Tally, self->tally_of[symbol] - 1);
              for (guint k = 0; k < MAX_SCRIPTS && word.scripts[k] != NULL; k++)
                tally_add (tally, word.scripts[k], word.counts[k]);
            }
        }
    }
}

void
_dc_word_scripts_free (DcWordScripts *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->tallies);
  g_free (self->tally_of);
  g_free (self->last_token);
  g_free (self->counted);
  g_free (self->letter_of);
  g_free (self->letter_looked_at);
  g_free (self);
}

/**
 * _dc_word_scripts_get:
 * @font: a font of the document
 * @symbol: a symbol of @font the key had no value for when the font was first asked about
 * @font_script: the script of the font's trustworthy values
 * @disputed: (out): whether the words hold letters of another script than @font_script
 *   without saying clearly which script they are in
 *
 * Returns: (nullable): the script of @symbol's words where they say so clearly: MIN_LETTERS
 *   letters of it at least, and MIN_SHARE of the letters counted; else %NULL
 */
const char *
_dc_word_scripts_get (DcWordScripts *self, guint font, guint symbol, const char *font_script,
                      gboolean *disputed)
{
  const Tally *tally;
  guint total = 0, best = 0;

  *disputed = FALSE;
  if (!self->counted[font])
    count_font (self, font);
  if (self->tally_of[symbol] == 0)
    return NULL;
  tally = &g_array_index (self->tallies, Tally, self->tally_of[symbol] - 1);
  if (tally->scripts[0] == NULL)
    return NULL;
  for (guint k = 0; k < MAX_SCRIPTS && tally->scripts[k] != NULL; k++)
    {
      total += tally->counts[k];
      if (tally->counts[k] > tally->counts[best])
        best = k;
      *disputed |= g_strcmp0 (tally->scripts[k], font_script) != 0;
    }
  if (tally->counts[best] >= MIN_LETTERS && tally->counts[best] >= MIN_SHARE * total)
    {
      *disputed = FALSE;
      return tally->scripts[best];
    }
  return NULL;
}
