/* dc-document-symbols.c: the loader's passes over symbols once every glyph is read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Double-byte legacy encodings drawn through one-byte fonts are merged into one symbol a
 * pair, each symbol's counts are taken, and codes a lying map calls spaces but whose glyphs
 * have ink are made letters again.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "dc-document-private.h"
#include "dc-font-private.h"
#include "dc-glyph-private.h"
#include "dc-ink-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-unicode-private.h"

/* ---- double-byte legacy encodings drawn through a one-byte font ---------------------- */

static gboolean
is_lead_byte (guint32 code)
{
  return code >= 0x81 && code <= 0xFE;
}

static gboolean
is_trail_byte (guint32 code)
{
  return code >= 0x40 && code <= 0xFE && code != 0x7F;
}

/* Whether glyph @i and the next one are the two bytes of one character of @charset. */
static gboolean
is_pair (DcDocument *self, guint i, const char *charset)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  const DcGlyph *a = &glyphs[i], *b = &glyphs[i + 1];
  guint32 lead = symbols[a->symbol].code, trail = symbols[b->symbol].code;
  g_autofree char *utf8 = NULL;
  char bytes[2];

  if (symbols[b->symbol].font != symbols[a->symbol].font || b->page != a->page
      || fabsf (b->y - a->y) > 0.5f * dc_glyph_get_size (a) || symbols[a->symbol].code_len != 1
      || symbols[b->symbol].code_len != 1 || !is_lead_byte (lead) || !is_trail_byte (trail))
    return FALSE;
  bytes[0] = (char) lead;
  bytes[1] = (char) trail;
  utf8 = g_convert (bytes, 2, "UTF-8", charset, NULL, NULL, NULL);
  return utf8 != NULL && g_utf8_strlen (utf8, -1) == 1
         && !g_unichar_iscntrl (g_utf8_get_char (utf8));
}

/* A font whose name hints at GBK, Big5 or Shift-JIS, drawn as a one-byte font, is read
 * as double-byte when its glyphs say so too: nearly every byte from 0x81 up comes with
 * a second byte that completes a character, and most of those second bytes are high too
 * (GB2312, Big5 and JIS characters are two high bytes; an accented Latin letter is
 * mostly followed by a plain one). */
static gboolean
font_draws_pairs (DcDocument *self, guint font, const char *charset)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  guint n_leads = 0, n_pairs = 0, n_high_pairs = 0;

  for (guint i = 0; i < self->glyphs->len; i++)
    {
      if (symbols[glyphs[i].symbol].font != font || !is_lead_byte (symbols[glyphs[i].symbol].code)
          || symbols[glyphs[i].symbol].code_len != 1)
        continue;
      n_leads++;
      if (i + 1 < self->glyphs->len && is_pair (self, i, charset))
        {
          n_pairs++;
          n_high_pairs += symbols[glyphs[i + 1].symbol].code >= 0x80;
          i++;
          n_leads++;
        }
    }
  return n_pairs >= 2 && n_pairs * 2 * 10 >= n_leads * 9 && n_high_pairs * 10 >= n_pairs * 8;
}

static guint
intern_pair (DcDocument *self, GArray *symbols, const DcSymbol *lead, const DcSymbol *trail)
{
  guint32 code = (lead->code << 8) | trail->code;
  gint64 key = ((gint64) lead->font << 32) | code;
  gpointer found = g_hash_table_lookup (self->symbol_index, &key);
  DcSymbol symbol = { 0 };
  gint64 *stored;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  symbol.font = lead->font;
  symbol.code = code;
  symbol.code_len = 2;
  symbol.pdf_text = g_strconcat (lead->pdf_text, trail->pdf_text, NULL);
  g_array_append_val (symbols, symbol);
  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (self->symbol_index, stored, GUINT_TO_POINTER (symbols->len));
  return symbols->len - 1;
}

/* Makes each pair of codes of a double-byte font one glyph of one symbol, and drops the
 * symbols no glyph draws any more. Runs before the symbols are counted and the lines
 * are built. */
gboolean
_dc_document_merge_double_byte (DcDocument *self)
{
  g_autoptr (GArray) glyphs = NULL;
  g_autoptr (GArray) symbols = NULL;
  g_autofree guint *renumber = NULL;
  g_autofree char **charsets = NULL;
  const DcGlyph *old_glyphs;
  DcSymbol *old_symbols;
  gboolean any = FALSE;

  charsets = g_new0 (char *, MAX (1, self->fonts->len));
  for (guint f = 0; f < self->fonts->len; f++)
    {
      DcFont *font = g_ptr_array_index (self->fonts, f);
      const char *hint = _dc_font_get_double_byte_hint (font);

      if (hint != NULL && font_draws_pairs (self, f, hint))
        {
          charsets[f] = (char *) hint;
          _dc_font_set_double_byte (font, hint);
          any = TRUE;
        }
    }
  if (!any)
    return FALSE;

  /* Pairs get new symbols appended to the old table; then every symbol still drawn is
   * renumbered in order, so the table holds only what the page shows. */
  old_glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  glyphs = g_array_sized_new (FALSE, FALSE, sizeof (DcGlyph), self->glyphs->len);
  for (guint i = 0; i < self->glyphs->len; i++)
    {
      DcGlyph glyph = old_glyphs[i];
      const char *charset = charsets[g_array_index (self->symbols, DcSymbol, glyph.symbol).font];

      if (charset != NULL && i + 1 < self->glyphs->len && is_pair (self, i, charset))
        {
          const DcGlyph *next = &old_glyphs[i + 1];
          DcSymbol lead = g_array_index (self->symbols, DcSymbol, glyph.symbol);
          DcSymbol trail = g_array_index (self->symbols, DcSymbol, next->symbol);

          DcGlyphBox box = dc_glyph_get_box (&glyph), next_box = dc_glyph_get_box (next);
          float advance = dc_glyph_get_advance (&glyph) + dc_glyph_get_advance (next);

          glyph.symbol = intern_pair (self, self->symbols, &lead, &trail);
          box.x0 = MIN (box.x0, next_box.x0);
          box.y0 = MIN (box.y0, next_box.y0);
          box.x1 = MAX (box.x1, next_box.x1);
          box.y1 = MAX (box.y1, next_box.y1);
          /* The fallback font's two glyphs are narrower than the character they stand for:
           * the character fills its advance, so that a line of them is not read as words
           * of one character each. */
          if (glyph.rotation == 0)
            box.x1 = MAX (box.x1, glyph.x + advance);
          _dc_glyph_set_metrics (&glyph, dc_glyph_get_size (&glyph), advance, box.x0, box.y0,
                                 box.x1, box.y1);
          i++;
        }
      g_array_append_val (glyphs, glyph);
    }

  old_symbols = (DcSymbol *) (void *) self->symbols->data;
  renumber = g_new (guint, self->symbols->len);
  for (guint s = 0; s < self->symbols->len; s++)
    renumber[s] = G_MAXUINT;
  symbols = g_array_new (FALSE, TRUE, sizeof (DcSymbol));
  g_array_set_clear_func (symbols, _dc_document_clear_symbol);
  g_hash_table_remove_all (self->symbol_index);
  for (guint i = 0; i < glyphs->len; i++)
    {
      DcGlyph *glyph = &g_array_index (glyphs, DcGlyph, i);
      guint old = glyph->symbol;

      if (renumber[old] == G_MAXUINT)
        {
          gint64 *key = g_new (gint64, 1);

          *key = ((gint64) old_symbols[old].font << 32) | old_symbols[old].code;
          g_array_append_val (symbols, old_symbols[old]);
          old_symbols[old].pdf_text = NULL; /* moved */
          renumber[old] = symbols->len - 1;
          g_hash_table_insert (self->symbol_index, key, GUINT_TO_POINTER (symbols->len));
          /* The loader's count was of the glyphs before the pairs merged. */
          g_array_index (symbols, DcSymbol, renumber[old]).n_glyphs = 0;
        }
      glyph->symbol = renumber[old];
      g_array_index (symbols, DcSymbol, glyph->symbol).n_glyphs++;
    }

  g_array_unref (self->symbols);
  self->symbols = g_steal_pointer (&symbols);
  g_array_unref (self->glyphs);
  self->glyphs = g_steal_pointer (&glyphs);
  return TRUE;
}

/* ---- what a simple font's glyph names say ------------------------------------------- */

/* The text a glyph name stands for through the AGL: "a", "uni0430", "u1F600", "a.sc", and
 * ligatures of such names ("f_f_i"); NULL for a name that says nothing ("g123", "uniD800",
 * "u110000", "ka_ka", ".notdef"). */
static char *
name_text (const char *name)
{
  g_auto (GStrv) parts = NULL;
  g_autoptr (GString) text = NULL;
  g_autofree char *base = NULL;
  char *dot;
  gunichar c;

  if (name == NULL || name[0] == '\0' || name[0] == '.')
    return NULL;
  if (strchr (name, '_') == NULL)
    {
      char utf8[8] = { 0 };

      if (!dc_pdf_bridge_glyph_name_to_unicode (name, &c))
        return NULL;
      g_unichar_to_utf8 (c, utf8);
      return g_strdup (utf8);
    }
  base = g_strdup (name);
  if ((dot = strchr (base, '.')) != NULL)
    *dot = '\0';
  parts = g_strsplit (base, "_", -1);
  text = g_string_new (NULL);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (!dc_pdf_bridge_glyph_name_to_unicode (parts[i], &c))
        return NULL;
      g_string_append_unichar (text, c);
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static gboolean
is_replacement_only (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) != 0xFFFD)
      return FALSE;
  return TRUE;
}

/* DESIGN §7 and issue 28. Without a ToUnicode a simple font's text is what its encoding's
 * glyph names say through the AGL (or, without names, its own tables): the font level. A
 * name the AGL does not know says nothing: poppler then falls back on the code itself and
 * "g123" or "uniD800" would read as an ASCII letter and keep a lying font trusted, so such
 * a code has no text. With a ToUnicode that maps a code to nothing, U+0000 or U+FFFD, the
 * name is the next evidence for that code, rather than the whole font becoming unknown. */
static void
symbol_read_names (DcFont *font, DcSymbol *symbol)
{
  g_autofree char *named = NULL;

  if (dc_font_is_cid (font))
    return;
  named = name_text (symbol->glyph_name);
  if (!dc_font_has_to_unicode (font))
    {
      if (named == NULL && symbol->glyph_name != NULL && symbol->glyph_name[0] != '.')
        {
          g_free (symbol->pdf_text);
          symbol->pdf_text = g_strdup ("");
        }
      if (symbol->pdf_text[0] != '\0')
        symbol->flags |= DC_SYMBOL_FROM_FONT;
      return;
    }
  if (named != NULL && is_replacement_only (symbol->pdf_text))
    {
      g_free (symbol->pdf_text);
      symbol->pdf_text = g_steal_pointer (&named);
      symbol->flags |= DC_SYMBOL_FROM_FONT;
    }
}

void
_dc_document_finish_symbols (DcDocument *self)
{
  g_autofree guint *font_symbols = g_new0 (guint, MAX (1, self->fonts->len));
  g_autofree guint *font_glyphs = g_new0 (guint, MAX (1, self->fonts->len));
  DcSymbol *symbols = (DcSymbol *) (void *) self->symbols->data;

  /* Each symbol's glyphs were counted as the loader stored them (dc-document-loader-glyphs.c)
   * and again where the double-byte pairs merged. */
  self->space_capacity = MAX (1, self->symbols->len);
  self->symbol_is_space = g_new0 (guint8, self->space_capacity);

  for (guint s = 0; s < self->symbols->len; s++)
    {
      DcSymbol *symbol = &symbols[s];
      DcFont *font = g_ptr_array_index (self->fonts, symbol->font);

      symbol->glyph_name = dc_font_get_glyph_name (font, symbol->code);
      symbol_read_names (font, symbol);
      /* Without a ToUnicode map poppler reads a CID as a code point, and CID 32 is then
       * "a space" that is really any letter: only a map or a glyph name can say space. */
      if ((_dc_text_is_space (symbol->pdf_text)
           && (!dc_font_is_cid (font) || dc_font_has_to_unicode (font)))
          || g_strcmp0 (symbol->glyph_name, "space") == 0)
        symbol->flags |= DC_SYMBOL_PDF_SPACE;
      self->symbol_is_space[s] = (symbol->flags & DC_SYMBOL_PDF_SPACE) != 0;
      font_symbols[symbol->font]++;
      font_glyphs[symbol->font] += symbol->n_glyphs;
    }

  for (guint f = 0; f < self->fonts->len; f++)
    _dc_font_set_counts (g_ptr_array_index (self->fonts, f), font_symbols[f], font_glyphs[f]);
}

/* In a font whose map is not believed, a code the map calls a space (or a tab, a line
 * or form feed, a carriage return) is a letter when its glyph has ink: code 14 is the
 * "e" of font_ascent_descent's font, drawn as "\r" to a reader. Such codes would cut its
 * words in two and typing them would never match. So is a code whose encoding names it
 * "space": ReportLab numbers a font's characters from 128 on, so a letter lands at WinAnsi's
 * 0xA0, which the encoding calls "space", and that letter would vanish from every word.
 * Returns whether any changed. */
gboolean
_dc_document_unspace_inked_symbols (DcDocument *self)
{
  DcSymbol *symbols = (DcSymbol *) (void *) self->symbols->data;
  FT_Library library = NULL;
  g_autofree FT_Face *faces = NULL;
  g_autofree gboolean *tried = NULL;
  gboolean changed = FALSE;

  for (guint s = 0; s < self->symbols->len; s++)
    {
      DcSymbol *symbol = &symbols[s];
      DcFont *font = g_ptr_array_index (self->fonts, symbol->font);

      if (!(symbol->flags & DC_SYMBOL_PDF_SPACE) || dc_font_is_trusted (font))
        continue;
      if (faces == NULL)
        {
          if (FT_Init_FreeType (&library) != 0)
            return FALSE;
          faces = g_new0 (FT_Face, self->fonts->len);
          tried = g_new0 (gboolean, self->fonts->len);
        }
      if (!tried[symbol->font])
        {
          tried[symbol->font] = TRUE;
          faces[symbol->font] = _dc_font_open_face (font, library);
        }
      if (_dc_symbol_ink (font, faces[symbol->font], symbol) == DC_INK_SOME)
        {
          symbol->flags &= ~DC_SYMBOL_PDF_SPACE;
          self->symbol_is_space[s] = FALSE;
          changed = TRUE;
        }
    }
  if (faces != NULL)
    {
      for (guint f = 0; f < self->fonts->len; f++)
        if (faces[f] != NULL)
          FT_Done_Face (faces[f]);
      FT_Done_FreeType (library);
    }
  return changed;
}
