/* dc-clusters.c: what /ActualText spans say about the glyphs inside them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Producers that shape complex scripts (Pango/cairo, LibreOffice, Word) map a glyph that
 * only occurs inside a cluster to U+FFFD or to nothing in the ToUnicode map, and write
 * the cluster's real text as /ActualText around its glyphs: कि around the glyphs drawn
 * ि क. Where the span's text, less what its other glyphs are known to say, leaves exactly
 * one glyph and one piece of text, that piece is the glyph's text. A glyph whose spans
 * disagree keeps what the PDF says.
 */

#define G_LOG_DOMAIN "dc-clusters"

#include "config.h"

#include <string.h>

#include "dc-clusters-private.h"
#include "dc-reorder-private.h"

static gboolean
text_is_unknown (const char *text)
{
  if (text == NULL || text[0] == '\0')
    return TRUE;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);

      if (c == 0xFFFD || type == G_UNICODE_PRIVATE_USE || type == G_UNICODE_UNASSIGNED
          || (type == G_UNICODE_CONTROL && !g_unichar_isspace (c)))
        return TRUE;
    }
  return FALSE;
}

/* Removes the first occurrence of @part from @rest; FALSE when it is not there. */
static gboolean
remove_part (GString *rest, const char *part)
{
  const char *found = strstr (rest->str, part);

  if (found == NULL || part[0] == '\0')
    return part[0] == '\0';
  g_string_erase (rest, found - rest->str, (gssize) strlen (part));
  return TRUE;
}

static void
record (char **inferred, guint symbol, const char *text)
{
  g_autofree char *here = g_utf8_normalize (text, -1, G_NORMALIZE_NFC);

  if (inferred[symbol] == NULL)
    inferred[symbol] = g_steal_pointer (&here);
  else if (strcmp (inferred[symbol], "") != 0 && g_strcmp0 (here, inferred[symbol]) != 0)
    g_free (inferred[symbol]), inferred[symbol] = g_strdup ("");
}

/* One pass over every span; returns how many symbols it newly explained. */
static guint
infer_pass (DcDocument *document)
{
  const DcGlyph *glyphs;
  guint n_glyphs, n_symbols, explained_symbols = 0;
  g_autofree char *
      *inferred = NULL; /* per symbol: its one text so far, or "" once spans disagree */
  g_autoptr (GString) rest = g_string_new (NULL);

  glyphs = dc_document_get_glyphs (document, &n_glyphs);
  dc_document_get_symbols (document, &n_symbols);
  inferred = g_new0 (char *, n_symbols);

  for (guint g = 0; g < n_glyphs;)
    {
      guint first, n, unknown[2] = { G_MAXUINT, G_MAXUINT }, n_unknown = 0;
      const char *span = dc_document_get_actual_text (document, g, &first, &n);
      g_autofree char *nfd = NULL;
      gboolean explained = TRUE;
      const char *last;

      if (span == NULL)
        {
          g++;
          continue;
        }
      g = first + n;

      /* A span around a lone glyph the map cannot read is that glyph's text. (Where the
       * map reads it, the map may be cluster-wise — cairo maps the glyph ா to ோ after
       * drawing போ, and spans its lone uses — and the rest of its uses need that.) */
      if (n == 1)
        {
          if (text_is_unknown (dc_document_get_symbol (document, glyphs[first].symbol)->pdf_text))
            record (inferred, glyphs[first].symbol, span);
          continue;
        }

      nfd = g_utf8_normalize (span, -1, G_NORMALIZE_NFD);
      g_string_assign (rest, nfd ? nfd : "");
      for (guint k = first; k < first + n && explained; k++)
        {
          const char *text = dc_document_get_symbol (document, glyphs[k].symbol)->pdf_text;
          g_autofree char *part = NULL;

          if (text_is_unknown (text))
            {
              if (n_unknown == 0 || (unknown[n_unknown - 1] != glyphs[k].symbol && n_unknown < 2))
                unknown[n_unknown++] = glyphs[k].symbol;
              else if (unknown[n_unknown - 1] != glyphs[k].symbol)
                explained = FALSE; /* three unknowns: nothing to tell them apart */
              continue;
            }
          part = g_utf8_normalize (text, -1, G_NORMALIZE_NFD);
          explained = part != NULL && remove_part (rest, part);
        }
      if (!explained || n_unknown == 0 || rest->len == 0)
        continue;

      if (n_unknown == 2)
        {
          /* A pre-base vowel sign is drawn first and written last: ि क् त for क्ति. */
          last = g_utf8_prev_char (rest->str + rest->len);
          if (text_is_unknown (dc_document_get_symbol (document, glyphs[first].symbol)->pdf_text)
              && glyphs[first].symbol == unknown[0] && last > rest->str
              && _dc_is_pre_base_vowel (g_utf8_get_char (last)))
            {
              record (inferred, unknown[0], last);
              g_string_truncate (rest, last - rest->str);
              record (inferred, unknown[1], rest->str);
            }
          continue;
        }
      record (inferred, unknown[0], rest->str);
    }

  for (guint s = 0; s < n_symbols; s++)
    {
      if (inferred[s] != NULL && inferred[s][0] != '\0')
        {
          g_debug ("symbol %u reads “%s” inside its clusters", s, inferred[s]);
          _dc_document_set_symbol_pdf_text (document, s, inferred[s]);
          explained_symbols++;
        }
      g_free (inferred[s]);
    }
  return explained_symbols;
}

void
_dc_clusters_infer (DcDocument *document)
{
  g_assert (DC_IS_DOCUMENT (document));

  /* What one span explains can leave a single unknown in another. */
  for (guint pass = 0; pass < 4 && dc_document_get_n_actual_texts (document) > 0; pass++)
    if (infer_pass (document) == 0)
      break;
}
