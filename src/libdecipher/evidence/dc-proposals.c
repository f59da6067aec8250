/* dc-proposals.c: what the unknown symbols probably are, for the user to confirm
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Legacy fonts are rarely random: most put a whole alphabet at the places of a known
 * 8-bit code page, or shift Unicode by a constant, and a font program may name its
 * glyphs. Each of these is a layout that either explains what the user has taught so
 * far or does not. The layout that explains nearly all of it proposes values for the
 * symbols still unknown. Proposals are shown, never used as text, until the user
 * confirms them.
 */

#define G_LOG_DOMAIN "dc-proposals"

#include "config.h"

#include "dc-pdf-bridge-private.h"
#include "dc-proposals.h"
#include "dc-code-pages-private.h"
#include "dc-lookalikes-private.h"
#include "dc-proposals-private.h"
#include "dc-references-private.h"

#define MIN_AGREEING 6     /* learned values a layout must explain… */
#define MIN_AGREEMENT 0.75 /* …and the share of them, in blocks it explains fully */
#define BLOCK 32           /* codes judged together */

/* How sure a proposal is: its own figure, not its level's, which is that of the values
 * the level applies by itself. A code page or offset that explains what was learned was
 * right for 93.6 % of its proposals in bench/calibrate-levels.py (issue 28, 157 proposals,
 * "decipher-cli session" table), and, the levels before it deciding more, for 95.8 % of
 * 168 and 94.6 % of 148 since (two samples, seeds 28 and 29): 0.9 was 0.06 under the
 * first. Glyph names of an untrusted font that agree with what was learned: the corpus
 * made none; they keep the 0.9 they had. */
#define LAYOUT_PROPOSAL_CONFIDENCE 0.95
#define NAMES_PROPOSAL_CONFIDENCE 0.9

static const char *const code_pages[] = { DC_CODE_PAGE_NAMES };

typedef enum
{
  LAYOUT_NAMES,
  LAYOUT_OFFSET,
  LAYOUT_CODE_PAGE,
} LayoutKind;

typedef struct
{
  LayoutKind kind;
  gint64 offset;         /* LAYOUT_OFFSET */
  const char *code_page; /* LAYOUT_CODE_PAGE */
  gunichar table[256];   /* LAYOUT_CODE_PAGE: 0 where undefined */
} Layout;

typedef struct
{
  guint symbol;
  guint32 code;
  gunichar value;
} Pair;

/* Byte → character in each of code_pages, made through iconv when the engine was built. */
#include "dc-code-pages.h"

G_STATIC_ASSERT (G_N_ELEMENTS (code_pages) == G_N_ELEMENTS (dc_code_page_tables));

static const gunichar *
code_page_table (guint index)
{
  return dc_code_page_tables[index];
}

guint
_dc_proposals_n_code_pages (void)
{
  return G_N_ELEMENTS (code_pages);
}

/**
 * _dc_proposals_code_page:
 * @name: (out) (optional): its iconv name
 *
 * Returns: (array fixed-size=256): byte → character, 0 where the code page has none; or
 *   %NULL where this system's iconv lacks the code page
 */
const gunichar *
_dc_proposals_code_page (guint index, const char **name)
{
  const gunichar *table;

  g_return_val_if_fail (index < G_N_ELEMENTS (code_pages), NULL);

  table = code_page_table (index);
  if (name != NULL)
    *name = code_pages[index];
  return table['A'] != 0 ? table : NULL;
}

static gboolean
fill_code_page (Layout *layout, guint index)
{
  layout->kind = LAYOUT_CODE_PAGE;
  layout->code_page = code_pages[index];
  memcpy (layout->table, code_page_table (index), sizeof layout->table);
  /* A converter missing from this system's iconv defines nothing. */
  return layout->table['A'] != 0;
}

static gunichar
layout_value (const Layout *layout, const DcSymbol *symbol)
{
  gunichar u;

  switch (layout->kind)
    {
    case LAYOUT_NAMES:
      return dc_pdf_bridge_glyph_name_to_unicode (symbol->glyph_name, &u) ? u : 0;
    case LAYOUT_OFFSET:
      {
        gint64 value = (gint64) symbol->code + layout->offset;

        if (value < 0x20 || value > 0x10FFFF || !g_unichar_isprint ((gunichar) value))
          return 0;
        return (gunichar) value;
      }
    case LAYOUT_CODE_PAGE:
    default:
      return symbol->code < 256 && symbol->code_len == 1 ? layout->table[symbol->code] : 0;
    }
}

/* Learned values a layout explains and contradicts, per block of codes. Home-made
 * fonts keep a code page's alphabet and put their extra letters over some of its
 * places: a block is believed where what was learned agrees with the layout more often
 * than not, and the places where it does not are the font's own (and known already). */
typedef struct
{
  guint agreeing;
  guint contradicting;
} BlockVotes;

/* Returns: block number → BlockVotes, for the blocks anything was learned in */
static GHashTable *
count_block_votes (const Layout *layout, DcDocument *document, GArray *pairs, guint *defined)
{
  GHashTable *votes = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  *defined = 0;
  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, i);
      gunichar u = layout_value (layout, dc_document_get_symbol (document, pair->symbol));
      gpointer number = GUINT_TO_POINTER (pair->code / BLOCK);
      BlockVotes *block;

      if (u == 0)
        continue;
      block = g_hash_table_lookup (votes, number);
      if (block == NULL)
        {
          block = g_new0 (BlockVotes, 1);
          g_hash_table_insert (votes, number, block);
        }
      (*defined)++;
      if (u == pair->value)
        block->agreeing++;
      else
        block->contradicting++;
    }
  return votes;
}

static gboolean
block_is_believed (const BlockVotes *block)
{
  return block->agreeing > block->contradicting;
}

static int
compare_pair_codes (gconstpointer a, gconstpointer b)
{
  guint32 ca = ((const Pair *) a)->code, cb = ((const Pair *) b)->code;

  return ca < cb ? -1 : ca > cb;
}

/* How many learned values the layout explains, counting only the blocks where it is
 * believed: a home-made font that overwrote one block of a code page still follows it
 * everywhere else. Glyph names are judged one by one. @by_code: the pairs sorted by code
 * (compare_pair_codes()), so that a block's are together: counted block by block, as
 * count_block_votes() does, without a table of blocks for each of the ~40 layouts tried
 * per font. */
static guint
count_agreeing (const Layout *layout, DcDocument *document, GArray *by_code, guint *defined)
{
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  guint agreeing = 0;

  *defined = 0;
  for (guint i = 0; i < by_code->len;)
    {
      guint32 block = g_array_index (by_code, Pair, i).code / BLOCK;
      BlockVotes votes = { 0 };

      for (; i < by_code->len && g_array_index (by_code, Pair, i).code / BLOCK == block; i++)
        {
          const Pair *pair = &g_array_index (by_code, Pair, i);
          gunichar u = layout_value (layout, &symbols[pair->symbol]);

          if (u == 0)
            continue;
          (*defined)++;
          if (u == pair->value)
            votes.agreeing++;
          else
            votes.contradicting++;
        }
      if (layout->kind == LAYOUT_NAMES || block_is_believed (&votes))
        agreeing += votes.agreeing;
    }
  return agreeing;
}

static char *
layout_provenance (const Layout *layout)
{
  switch (layout->kind)
    {
    case LAYOUT_NAMES:
      return g_strdup ("proposal: glyph names");
    case LAYOUT_OFFSET:
      return g_strdup_printf ("proposal: Unicode = code %+" G_GINT64_FORMAT, layout->offset);
    case LAYOUT_CODE_PAGE:
    default:
      return g_strdup_printf ("proposal: code page %s", layout->code_page);
    }
}

/* The constant most learned pairs share between code and character. */
static gint64
common_offset (GArray *pairs)
{
  g_autoptr (GHashTable) counts = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GArray) offsets = g_array_sized_new (FALSE, FALSE, sizeof (gint64), pairs->len);
  gint64 best = 0;
  guint best_count = 0;

  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, i);
      gint64 offset = (gint64) pair->value - (gint64) pair->code;

      g_array_append_val (offsets, offset);
    }
  for (guint i = 0; i < offsets->len; i++)
    {
      gint64 *offset = &g_array_index (offsets, gint64, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, offset)) + 1;

      g_hash_table_insert (counts, offset, GUINT_TO_POINTER (count));
      if (count > best_count)
        {
          best_count = count;
          best = *offset;
        }
    }
  return best;
}

/* A font the trust analysis rejected lies in its letters' names (agrave for а) and
 * tells the truth in its digits and punctuation: those agreeing say nothing of its
 * letters (calibration, issue 28: 1.5 % of such proposals were right). */
#define MIN_AGREEING_NAMED_LETTERS 4

static guint
count_agreeing_letters (const Layout *layout, DcDocument *document, GArray *pairs)
{
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  guint n = 0;

  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, i);

      n += g_unichar_isalpha (pair->value)
           && layout_value (layout, &symbols[pair->symbol]) == pair->value;
    }
  return n;
}

static gboolean
choose_layout (DcDocument *document, DcFont *font, GArray *pairs, Layout *best)
{
  g_autofree Layout *candidate = g_new0 (Layout, 1);
  g_autoptr (GArray) by_code = g_array_copy (pairs);
  guint best_agreeing = 0;
  gboolean found = FALSE;

  g_array_sort (by_code, compare_pair_codes);

  /* Names from a CID font's program are the program's own words about its glyphs:
   * honest enough to propose from before anything is learned. */
  candidate->kind = LAYOUT_NAMES;
  {
    guint defined, agreeing = count_agreeing (candidate, document, by_code, &defined);

    if ((dc_font_is_cid (font) && pairs->len == 0)
        || (agreeing >= 4 && agreeing >= MIN_AGREEMENT * defined
            && count_agreeing_letters (candidate, document, pairs) >= MIN_AGREEING_NAMED_LETTERS))
      {
        *best = *candidate;
        best_agreeing = agreeing;
        found = TRUE;
      }
  }

  candidate->kind = LAYOUT_OFFSET;
  candidate->offset = common_offset (pairs);
  {
    guint defined, agreeing = count_agreeing (candidate, document, by_code, &defined);

    if (agreeing >= MIN_AGREEING && agreeing >= MIN_AGREEMENT * defined && agreeing > best_agreeing)
      {
        *best = *candidate;
        best_agreeing = agreeing;
        found = TRUE;
      }
  }

  if (!dc_font_is_cid (font))
    for (guint i = 0; i < G_N_ELEMENTS (code_pages); i++)
      {
        guint defined, agreeing;

        if (!fill_code_page (candidate, i))
          continue;
        agreeing = count_agreeing (candidate, document, by_code, &defined);
        /* Code page 1251's letters are also Unicode's less 0x350: when both explain
         * as much, the code page knows where its run of letters ends. */
        if (agreeing >= MIN_AGREEING && agreeing >= MIN_AGREEMENT * defined
            && (agreeing > best_agreeing
                || (found && agreeing == best_agreeing && best->kind == LAYOUT_OFFSET)))
          {
            *best = *candidate;
            best_agreeing = agreeing;
            found = TRUE;
          }
      }
  return found;
}

/* The script most learned letters belong to. */
static GUnicodeScript
main_script (GArray *pairs)
{
  guint counts[256] = { 0 };
  GUnicodeScript best = G_UNICODE_SCRIPT_INVALID_CODE;

  for (guint i = 0; i < pairs->len; i++)
    {
      GUnicodeScript script = g_unichar_get_script (g_array_index (pairs, Pair, i).value);

      if (script >= 0 && script < 256 && script != G_UNICODE_SCRIPT_COMMON
          && ++counts[script] > (best >= 0 ? counts[best] : 0))
        best = script;
    }
  return best;
}

/* A block nothing was learned in is still believed when the layout puts a whole
 * alphabet there — the capitals of the letters already confirmed, typically — and not
 * the mixture of symbols home-made fonts overwrite. */
static gboolean
block_is_alphabet (const Layout *layout, guint block, GUnicodeScript script)
{
  guint letters = 0;

  if (layout->kind != LAYOUT_CODE_PAGE || script < 0 || (block + 1) * BLOCK > 256)
    return FALSE;
  for (guint c = block * BLOCK; c < (block + 1) * BLOCK; c++)
    letters += layout->table[c] != 0 && g_unichar_isalpha (layout->table[c])
               && g_unichar_get_script (layout->table[c]) == script;
  return letters * 4 >= BLOCK * 3;
}

/* A subset font numbers its glyphs in the order of the characters it keeps, so a
 * constant offset holds only over runs of characters with none missing between them:
 * it is believed for a code between two learned codes that both follow it, with no
 * learned code between them that does not. @pairs is sorted by code. */
static gboolean
offset_is_bracketed (const Layout *layout, DcDocument *document, GArray *pairs, guint32 code)
{
  guint below = G_MAXUINT, above = G_MAXUINT;

  for (guint i = 0; i < pairs->len; i++)
    {
      guint32 learned = g_array_index (pairs, Pair, i).code;

      if (learned <= code)
        below = i;
      if (learned >= code)
        {
          above = i;
          break;
        }
    }
  if (below == G_MAXUINT || above == G_MAXUINT)
    return FALSE;
  for (guint i = below; i <= above; i++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, i);

      if (layout_value (layout, dc_document_get_symbol (document, pair->symbol)) != pair->value)
        return FALSE;
    }
  return TRUE;
}

/* Whether the layout is believed at @symbol's code (see count_block_votes). */
static gboolean
layout_is_believed_at (const Layout *layout, DcDocument *document, GArray *pairs, GHashTable *votes,
                       GUnicodeScript script, const DcSymbol *symbol)
{
  guint block = symbol->code / BLOCK;
  const BlockVotes *vote = g_hash_table_lookup (votes, GUINT_TO_POINTER (block));

  switch (layout->kind)
    {
    case LAYOUT_NAMES:
      return TRUE;
    case LAYOUT_OFFSET:
      return offset_is_bracketed (layout, document, pairs, symbol->code);
    case LAYOUT_CODE_PAGE:
    default:
      return vote != NULL ? block_is_believed (vote) : block_is_alphabet (layout, block, script);
    }
}

/* @font_symbols: the font's symbols, in order (dc_proposals_update()) */
static guint
propose_for_font (DcKey *key, DcDocument *document, DcFont *font, const guint *font_symbols,
                  guint n_font_symbols)
{
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  g_autoptr (GHashTable) held = g_hash_table_new (NULL, NULL);
  g_autofree Layout *layout = g_new0 (Layout, 1);
  g_autofree char *provenance = NULL;
  g_autoptr (GHashTable) votes = NULL;
  GUnicodeScript script;
  guint defined;
  const DcSymbol *symbols = dc_document_get_symbols (document, NULL);
  guint proposed = 0;

  for (guint i = 0; i < n_font_symbols; i++)
    {
      guint s = font_symbols[i];
      DcKeyStatus status = dc_key_get_status (key, s);
      const char *value = dc_key_get_value (key, s);
      Pair pair;

      if (value == NULL || (status != DC_KEY_INFERRED && status != DC_KEY_CONFIRMED))
        continue;
      if (g_utf8_strlen (value, -1) != 1 || g_unichar_isspace (g_utf8_get_char (value)))
        continue;
      pair.symbol = s;
      pair.code = symbols[s].code;
      pair.value = g_utf8_get_char (value);
      g_array_append_val (pairs, pair);
      g_hash_table_add (held, GUINT_TO_POINTER (pair.value));
    }

  if (!choose_layout (document, font, pairs, layout))
    return 0;
  provenance = layout_provenance (layout);
  script = main_script (pairs);

  votes = count_block_votes (layout, document, pairs, &defined);
  g_array_sort (pairs, compare_pair_codes);

  for (guint i = 0; i < n_font_symbols; i++)
    {
      guint s = font_symbols[i];
      DcKeyStatus status = dc_key_get_status (key, s);
      char text[8] = { 0 };
      gunichar u = 0;

      if (status != DC_KEY_UNKNOWN && status != DC_KEY_PROPOSED)
        continue;
      if (layout_is_believed_at (layout, document, pairs, votes, script, &symbols[s]))
        u = layout_value (layout, &symbols[s]);
      g_unichar_to_utf8 (u, text);
      /* A character no installed font draws the glyph's outline as is none either. */
      if (u != 0 && _dc_references_outline_rules_out (key, s, text))
        u = 0;
      /* A character another symbol already stands for is no proposal. */
      if (u == 0 || g_unichar_iscntrl (u) || g_hash_table_contains (held, GUINT_TO_POINTER (u)))
        {
          /* What was learned since has taken back an earlier proposal's ground; a
           * proposal from the glyph's shape (OCR), from the font library (a value
           * decided before at less than the user's word) or from the installed fonts'
           * outlines stands on other ground. */
          if (status == DC_KEY_PROPOSED && dc_key_get_level (key, s) != DC_KEY_LEVEL_SHAPE
              && dc_key_get_level (key, s) != DC_KEY_LEVEL_LIBRARY
              && dc_key_get_level (key, s) != DC_KEY_LEVEL_IDENTITY)
            {
              dc_key_forget (key, s);
              proposed++;
            }
          continue;
        }
      if (status == DC_KEY_PROPOSED && g_strcmp0 (dc_key_peek_value (key, s), text) == 0)
        continue;
      if (dc_key_set_full (key, s, text, DC_KEY_PROPOSED,
                           layout->kind == LAYOUT_NAMES ? DC_KEY_LEVEL_FONT : DC_KEY_LEVEL_LAYOUT,
                           layout->kind == LAYOUT_NAMES ? NAMES_PROPOSAL_CONFIDENCE
                                                        : LAYOUT_PROPOSAL_CONFIDENCE,
                           provenance, NULL))
        proposed++;
    }
  return proposed;
}

/**
 * dc_proposals_update:
 * @key: the table
 *
 * For each font whose map is not trusted, finds the layout (glyph names, a constant
 * Unicode offset, or a known code page) that explains nearly every value learned so
 * far, and proposes what it says for the symbols still unknown.
 *
 * Returns: the number of proposals made or changed
 */
guint
dc_proposals_update (DcKey *key)
{
  DcDocument *document;
  const DcSymbol *symbols;
  guint n_fonts, n_symbols, proposed = 0;
  g_autofree guint *starts = NULL, *next = NULL, *font_symbols = NULL;

  g_return_val_if_fail (DC_IS_KEY (key), 0);

  document = dc_key_get_document (key);
  n_fonts = dc_document_get_n_fonts (document);
  symbols = dc_document_get_symbols (document, &n_symbols);
  /* The symbols filed font by font, each font's in order: going through every symbol for
   * each untrusted font was fonts × symbols (60 × 4,783 on a book of many fonts). */
  starts = g_new0 (guint, n_fonts + 1);
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font < n_fonts)
      starts[symbols[s].font + 1]++;
  for (guint f = 0; f < n_fonts; f++)
    starts[f + 1] += starts[f];
  next = g_memdup2 (starts, sizeof (guint) * (n_fonts + 1));
  font_symbols = g_new (guint, MAX (1, starts[n_fonts]));
  for (guint s = 0; s < n_symbols; s++)
    if (symbols[s].font < n_fonts)
      font_symbols[next[symbols[s].font]++] = s;
  for (guint f = 0; f < n_fonts; f++)
    {
      DcFont *font = dc_document_get_font (document, f);

      if (!dc_font_is_trusted (font))
        proposed += propose_for_font (key, document, font, font_symbols + starts[f],
                                      starts[f + 1] - starts[f]);
    }
  return proposed;
}

/**
 * dc_value_is_lookalike:
 * @value: (nullable): a value of the key
 *
 * Whether @value is one character that OCR and eyes take for another (х and ӿ, н and ӊ,
 * the apostrophes): a proposal of it deserves a look before it is accepted in bulk.
 */
gboolean
dc_value_is_lookalike (const char *value)
{
  return _dc_lookalikes_has (value);
}

/**
 * dc_value_dup_lookalikes:
 * @value: (nullable): a value of the key
 *
 * Returns: (transfer full) (nullable): the characters taken for @value (for х: ӿҳӽ), to
 *   be shown beside the glyph when the user reviews it; %NULL when it is no look-alike
 */
char *
dc_value_dup_lookalikes (const char *value)
{
  return _dc_lookalikes_dup_others (value);
}
