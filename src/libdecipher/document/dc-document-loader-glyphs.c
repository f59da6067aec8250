/* dc-document-loader-glyphs.c: what the extraction reports, stored into the document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-document-loader.c. The extraction's callbacks intern each font's codes
 * into symbols, store the glyphs into the one glyph array (room made ahead, as the pages
 * read so far promise) and count what the document holds against its limits.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-document-loader-private.h"
#include "dc-error.h"
#include "dc-font-private.h"
#include "dc-glyph-pack-private.h"
#include "dc-memory-private.h"
#include "dc-unicode-private.h"

/* Stops the extraction: poppler checks @stop between operators. */
static void
loader_fail (Loader *loader, GError *error)
{
  if (loader->error == NULL)
    loader->error = error;
  else
    g_error_free (error);
  g_cancellable_cancel (loader->stop);
}

/* Counts @n bytes of what the document holds against the limit. */
static gboolean
loader_hold (Loader *loader, guint64 n)
{
  g_autofree char *display = NULL;

  if (loader->error != NULL)
    return FALSE;
  loader->bytes += n;
  if (loader->bytes <= loader->max_bytes)
    return TRUE;
  display = g_filename_display_basename (loader->self->path);
  loader_fail (loader, g_error_new (DC_ERROR, DC_ERROR_TOO_MUCH_TEXT,
                                    _("“%s” holds more glyphs and text than %" G_GUINT64_FORMAT
                                      " MB of memory can keep (the limit, reached on page %u "
                                      "of %u), which a real document of that size never "
                                      "needs."),
                                       display, loader->max_bytes >> 20, loader->page + 1,
                                       loader->self->n_pages));
  return FALSE;
}

/* The glyph array is the one large block the loader fills: 30 MB for the 500-page book.
 * Memory new to the process is faulted in a 4 KiB page at a time on first touch, and on
 * a virtual machine eleven thousand faults cost as much as reading a third of the pages
 * (a fifth of `decipher-cli text`). Linux faults a range in with one call
 * (MADV_POPULATE_WRITE, 5.14): the next 2 MiB of room are, just before the glyphs reach
 * them, so that what the document holds does not grow by more than that. */
static void
prepare_room (Loader *loader)
{
  GArray *glyphs = loader->self->glyphs;
  guint end = MIN (loader->glyph_capacity, glyphs->len + (guint) ((2 << 20) / sizeof (DcGlyph)));

  _dc_memory_populate (glyphs->data + (gsize) glyphs->len * sizeof (DcGlyph),
                       (gsize) (end - glyphs->len) * sizeof (DcGlyph));
  loader->glyph_populated = end;
}

/* How many glyphs the whole document will draw, judged from the pages read whole so far,
 * with a tenth to spare; 0 before the first page is. */
static guint64
loader_expected_glyphs (Loader *loader)
{
  guint64 read = loader->page_first_glyph[loader->page];

  if (loader->page == 0)
    return 0;
  return read * loader->self->n_pages / loader->page * 11 / 10;
}

/* What a GArray asks for to hold @n glyphs: the power of two at or above their size
 * (g_array_set_size() rounds up so), which is what must be there to be had. */
static gsize
array_bytes (guint64 n)
{
  gsize bytes = 1;

  while (bytes < n * sizeof (DcGlyph))
    bytes <<= 1;
  return bytes;
}

/* Makes room for one more glyph: for as many as the pages read so far promise, or twice
 * the room when that is more. Each growth copies the glyphs into memory new to the
 * process; a book of pages alike grew ten times, the last a copy of all but the last
 * pages, and now grows once or twice. The memory for the larger copy is asked for first
 * with g_try_malloc(), so that a document too large for this machine gets a sentence
 * rather than an abort inside g_realloc(); a promise beyond that falls back to twice. */
static gboolean
loader_reserve_glyph (Loader *loader)
{
  GArray *glyphs = loader->self->glyphs;
  g_autofree char *display = NULL;
  guint64 capacity, expected;
  gpointer probe = NULL;

  if (glyphs->len < loader->glyph_capacity)
    {
      if (glyphs->len >= loader->glyph_populated)
        prepare_room (loader);
      return TRUE;
    }
  display = g_filename_display_basename (loader->self->path);
  if (glyphs->len >= loader->max_glyphs)
    {
      loader_fail (loader, g_error_new (DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS,
                                        _("“%s” draws more than %" G_GUINT64_FORMAT
                                          " glyphs (the limit, reached on page %u of %u); a "
                                          "small file that draws so many usually repeats one "
                                          "page’s content on every page."),
                                           display, loader->max_glyphs, loader->page + 1,
                                           loader->self->n_pages));
      return FALSE;
    }
  capacity = MIN (MAX ((guint64) loader->glyph_capacity * 2, 4096), loader->max_glyphs);
  capacity = MIN (capacity, G_MAXUINT32 / sizeof (DcGlyph));
  /* A few pages make a poor guess at the whole (a title page, a table of contents): at
   * most sixteen times the room then. Sixteen pages tell: the 500-page book's room,
   * held to sixteen times what 31 pages had, came short by a tenth, and its last pages
   * cost a copy of all the others into memory new to the process. */
  expected = loader_expected_glyphs (loader);
  if (loader->page < 16)
    expected = MIN (expected, capacity * 16);
  expected = MIN (expected, MIN (loader->max_glyphs, G_MAXUINT32 / sizeof (DcGlyph)));
  if (expected > capacity && (probe = g_try_malloc (array_bytes (expected))) != NULL)
    capacity = expected;
  if (probe == NULL)
    probe = g_try_malloc (array_bytes (capacity));
  if (probe == NULL)
    {
      loader_fail (loader,
                   g_error_new (DC_ERROR, DC_ERROR_FAILED,
                                _("There is not enough memory to hold the %u glyphs "
                                          "“%s” draws by page %u of %u; close other programs "
                                          "or use a computer with more memory."),
                                   glyphs->len, display, loader->page + 1, loader->self->n_pages));
      return FALSE;
    }
  g_free (probe);
  /* A new array rather than g_array_set_size(): realloc() copies the glyphs into memory
   * new to the process a page fault at a time when it cannot move them whole (a block of
   * the heap), 4 MB of them by page 60 of the book; here they go into memory faulted
   * in at once. Nothing but the loader holds the array yet. */
  {
    GArray *grown = g_array_sized_new (FALSE, FALSE, sizeof (DcGlyph), (guint) capacity);

    _dc_memory_advise_huge (grown->data, (gsize) capacity * sizeof (DcGlyph));
    _dc_memory_populate (grown->data, (gsize) glyphs->len * sizeof (DcGlyph));
    g_array_append_vals (grown, glyphs->data, glyphs->len);
    g_array_unref (glyphs);
    loader->self->glyphs = grown;
  }
  loader->glyph_capacity = (guint) capacity;
  prepare_room (loader);
  return TRUE;
}

/* loader_reserve_glyph() and loader_hold() for one glyph, whose usual answer (room made,
 * within the limits) is told here without the two calls, which were a sixth of what the
 * loader did a glyph. */
static inline gboolean
loader_take_glyph (Loader *loader)
{
  guint len = loader->self->glyphs->len;

  if (G_LIKELY (loader->error == NULL && len < loader->glyph_capacity
                && len < loader->glyph_populated
                && loader->bytes + sizeof (DcGlyph) <= loader->max_bytes))
    {
      loader->bytes += sizeof (DcGlyph);
      return TRUE;
    }
  return loader_reserve_glyph (loader) && loader_hold (loader, sizeof (DcGlyph));
}

void
_dc_document_loader_font (guint font_index, const DcBridgeFont *info, gpointer user_data)
{
  Loader *loader = user_data;
  DcFont *font = _dc_font_new_from_bridge (font_index, info);

  g_assert (font_index == loader->self->fonts->len);
  g_ptr_array_add (loader->self->fonts, font);
  g_ptr_array_add (loader->byte_tables, dc_font_is_cid (font) ? NULL : g_new0 (guint32, 256));
}

/* The symbol of @font's @code, made when it is the first glyph drawn with it. */
G_NO_INLINE static guint32
make_symbol (Loader *loader, guint font, guint32 code, guint code_len, const gunichar *unicode,
             int unicode_len)
{
  DcDocument *self = loader->self;
  guint32 *table = g_ptr_array_index (loader->byte_tables, font);
  gint64 key = ((gint64) font << 32) | code;
  DcSymbol symbol = { 0 };
  gpointer found;
  gint64 *stored;

  if (table == NULL && (found = g_hash_table_lookup (self->symbol_index, &key)) != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  symbol.font = font;
  symbol.code = code;
  symbol.code_len = (guint8) CLAMP (code_len, 1, 4);
  if (unicode_len > 0)
    {
      /* A ToUnicode map may name surrogates or numbers beyond Unicode: they read as
       * U+FFFD, so that every text the engine hands out is valid UTF-8. */
      g_autofree gunichar *clean = g_try_new (gunichar, unicode_len);

      for (int i = 0; clean != NULL && i < unicode_len; i++)
        clean[i] = g_unichar_validate (unicode[i]) ? unicode[i] : 0xFFFD;
      if (clean != NULL)
        symbol.pdf_text = g_ucs4_to_utf8 (clean, unicode_len, NULL, NULL, NULL);
    }
  if (symbol.pdf_text == NULL)
    symbol.pdf_text = g_strdup ("");
  else
    {
      char *plain = _dc_text_without_presentation_forms (symbol.pdf_text);

      if (plain != NULL)
        {
          g_free (symbol.pdf_text);
          symbol.pdf_text = plain;
        }
    }
  /* Held whatever the limit says: the glyph that needs it is dropped if it is reached. */
  loader_hold (loader, sizeof (DcSymbol) + strlen (symbol.pdf_text) + 1);
  g_array_append_val (self->symbols, symbol);

  if (table != NULL && code < 256)
    table[code] = self->symbols->len;
  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (self->symbol_index, stored, GUINT_TO_POINTER (self->symbols->len));
  return self->symbols->len - 1;
}

/* make_symbol() for a code met before in a simple font, told here from the font's table:
 * the call, with its setting up, cost more than the look-up. */
static inline guint32
intern_symbol (Loader *loader, guint font, guint32 code, guint code_len, const gunichar *unicode,
               int unicode_len)
{
  const guint32 *table = g_ptr_array_index (loader->byte_tables, font);

  if (table != NULL && code < 256 && table[code] != 0)
    return table[code] - 1;
  return make_symbol (loader, font, code, code_len, unicode, unicode_len);
}

/* What the bridge reported of the glyph stored at @index, for a test watching
 * (_dc_glyph_set_hook()). */
G_NO_INLINE static void
call_hook (guint index, const DcBridgeRun *run, const DcBridgeGlyph *bridge_glyph)
{
  double advance, box[4];

  dc_bridge_glyph_box (run, bridge_glyph, &advance, box);
  _dc_glyph_call_hook (index, run->font_size, advance, box[0], box[1], box[2], box[3]);
}

/* Counts a glyph stored with @symbol (#DcSymbol.n_glyphs) while it is in the cache: counted
 * after loading, the glyphs were read again from memory, the whole book, for the count. */
static inline void
count_glyph (Loader *loader, guint32 symbol)
{
  g_array_index (loader->self->symbols, DcSymbol, symbol).n_glyphs++;
}

/* Stores @bridge_glyph of @run with the symbol of its code, when it fits. */
static void
store_glyph (Loader *loader, const DcBridgeRun *run, const DcBridgeGlyph *bridge_glyph)
{
  GArray *array;
  DcGlyph *glyph;

  if (!loader_take_glyph (loader))
    return;
  array = loader->self->glyphs;
  glyph = &g_array_index (array, DcGlyph, array->len);
  _dc_glyph_pack_inline (glyph, run, bridge_glyph);
  if (G_UNLIKELY (loader->hooked))
    call_hook (array->len, run, bridge_glyph);
  glyph->symbol = intern_symbol (loader, run->font, bridge_glyph->code, bridge_glyph->code_len,
                                 bridge_glyph->unicode_len > 0
                                     ? run->text + bridge_glyph->unicode_at
                                     : NULL,
                                 bridge_glyph->unicode_len);
  count_glyph (loader, glyph->symbol);
  array->len++;
}

/* How many more glyphs store_glyph() would store without a word to say: room made, and
 * within the limits. */
static guint
loader_glyphs_that_fit (Loader *loader)
{
  guint len = loader->self->glyphs->len;
  guint room = MIN (loader->glyph_capacity, loader->glyph_populated);

  if (loader->error != NULL || len >= room || loader->bytes >= loader->max_bytes)
    return 0;
  return (guint) MIN ((guint64) (room - len),
                      (loader->max_bytes - loader->bytes) / sizeof (DcGlyph));
}

/* The glyphs of @run from @first on, at most @fit of them, packed into @out as
 * store_glyph() packs them while their codes have their symbols in @table; returns how
 * many. @fast is @packer's and @hooked the loader's, constants where inlined: the loop
 * for a run along a baseline of rotation 0 tests neither. */
G_ALWAYS_INLINE static inline guint
store_known (DcGlyphPacker *packer, gboolean fast, gboolean hooked, const DcBridgeRun *run,
             guint first, guint fit, const guint32 *table, DcGlyph *out, DcSymbol *symbols,
             guint index)
{
  const DcBridgeGlyph *bridge_glyph = &run->glyphs[first];
  guint stored;

  for (stored = 0; stored < fit; stored++, bridge_glyph++)
    {
      guint32 symbol;

      if (bridge_glyph->code >= 256 || table[bridge_glyph->code] == 0)
        break;
      symbol = table[bridge_glyph->code] - 1;
      _dc_glyph_packer_pack (packer, fast, &out[stored], bridge_glyph);
      out[stored].symbol = symbol;
      if (hooked)
        call_hook (index + stored, run, bridge_glyph);
      symbols[symbol].n_glyphs++;
    }
  return stored;
}

/* The glyphs of @run, stored one after the other as store_glyph() stores each: those that
 * fit in the room made and the limits, and whose code has its symbol, in a loop that
 * looks up what the run shares once; any other glyph through store_glyph(), in its order,
 * so that the symbols, and the limit reached and its sentence, are the same. */
void
_dc_document_loader_run (const DcBridgeRun *run, gpointer user_data)
{
  Loader *loader = user_data;
  const gboolean hooked = loader->hooked;
  DcGlyphPacker packer;
  guint i = 0;

  /* A glyph's page has 24 bits: no real document has 16 million pages. */
  if (run->page >= DC_GLYPH_MAX_PAGES)
    return;
  _dc_glyph_packer_init (&packer, run);
  while (i < run->n_glyphs)
    {
      /* loader_reserve_glyph() may have put the glyphs in a new array, make_symbol() the
       * symbols. */
      GArray *array = loader->self->glyphs;
      guint fit = MIN (loader_glyphs_that_fit (loader), run->n_glyphs - i);
      /* An array with no room yet has no data: no place to point at (UBSan, fuzz-pdf). */
      DcGlyph *out = fit > 0 ? &g_array_index (array, DcGlyph, array->len) : NULL;
      DcSymbol *symbols = (DcSymbol *) (void *) loader->self->symbols->data;
      const guint32 *table = g_ptr_array_index (loader->byte_tables, run->font);
      guint stored = 0;

      if (table == NULL || fit == 0)
        stored = 0;
      else if (packer.fast && !hooked)
        stored = store_known (&packer, TRUE, FALSE, run, i, fit, table, out, symbols, array->len);
      else
        stored = store_known (&packer, packer.fast, hooked, run, i, fit, table, out, symbols,
                              array->len);
      array->len += stored;
      loader->bytes += (guint64) stored * sizeof (DcGlyph);
      i += stored;
      if (i == run->n_glyphs)
        break;

      /* The next one makes room, reaches a limit, is the first of its symbol or of a
       * double-byte font. */
      store_glyph (loader, run, &run->glyphs[i]);
      i++;
    }
}

/* Glyphs packed on the threads that read them (dc-extract.c): stored as store_glyph()
 * stores them, one after the other, with the symbol of each one's code. The glyphs that
 * fit in the room made and the limits, and whose symbol is known, are copied in a
 * run; any other goes through the steps of store_glyph(), in its order, so that the
 * symbols, and the limit reached and its sentence, are those of one thread. */
void
_dc_document_loader_glyphs (const DcGlyph *glyphs, guint n_glyphs, DcExtractCode *codes,
                            gpointer user_data)
{
  Loader *loader = user_data;
  guint i = 0;

  while (i < n_glyphs)
    {
      /* loader_reserve_glyph() may have put the glyphs in a new array. */
      GArray *array = loader->self->glyphs;
      guint fit = MIN (loader_glyphs_that_fit (loader), n_glyphs - i);
      /* An array with no room yet has no data: no place to point at (UBSan, fuzz-pdf). */
      DcGlyph *out = fit > 0 ? &g_array_index (array, DcGlyph, array->len) : NULL;
      /* No symbol is made in the run: the table stays where it is. */
      DcSymbol *symbols = (DcSymbol *) (void *) loader->self->symbols->data;
      guint copied = 0;
      DcExtractCode *code;
      DcGlyph glyph;

      for (; copied < fit; copied++)
        {
          code = &codes[glyphs[i + copied].symbol];
          if (G_UNLIKELY (code->symbol == 0))
            break;
          out[copied] = glyphs[i + copied];
          out[copied].symbol = code->symbol - 1;
          symbols[code->symbol - 1].n_glyphs++;
        }
      array->len += copied;
      loader->bytes += (guint64) copied * sizeof (DcGlyph);
      i += copied;
      if (i == n_glyphs)
        break;

      /* The next one makes room, reaches a limit, or is the first of its symbol. */
      if (!loader_reserve_glyph (loader) || !loader_hold (loader, sizeof (DcGlyph)))
        return;
      array = loader->self->glyphs;
      code = &codes[glyphs[i].symbol];
      glyph = glyphs[i];
      if (code->symbol == 0)
        code->symbol = intern_symbol (loader, code->font, code->code, code->code_len, code->unicode,
                                      code->unicode_len)
                       + 1;
      glyph.symbol = code->symbol - 1;
      count_glyph (loader, glyph.symbol);
      g_array_index (array, DcGlyph, array->len) = glyph;
      array->len++;
      i++;
    }
}

void
_dc_document_loader_image (guint page, gpointer user_data)
{
  Loader *loader = user_data;

  loader->images[page]++;
}

void
_dc_document_loader_actual_text (guint page, const gunichar *text, int text_len, guint n_glyphs,
                                 gpointer user_data)
{
  Loader *loader = user_data;
  DcDocument *self = loader->self;
  DcGlyph *glyphs = (DcGlyph *) (void *) self->glyphs->data;
  ActualTextSpan span;
  g_autofree gunichar *clean = NULL;
  g_autofree char *utf8 = NULL;

  if (loader->error != NULL)
    return; /* stopped at a limit: the glyphs it counts may not all be there */
  g_assert (n_glyphs <= self->glyphs->len);

  /* Same rule as for ToUnicode: invalid code points read as U+FFFD. An empty ActualText
   * says the glyphs are decoration; the engine keeps reading them by their codes. */
  if (text_len <= 0 || loader->error != NULL
      || !loader_hold (loader, sizeof span + (guint64) text_len * 4 + 1)
      || (clean = g_try_new (gunichar, text_len)) == NULL)
    return;
  for (int i = 0; i < text_len; i++)
    clean[i] = g_unichar_validate (text[i]) ? text[i] : 0xFFFD;
  utf8 = g_ucs4_to_utf8 (clean, text_len, NULL, NULL, NULL);
  if (utf8 == NULL)
    return;

  span.first_glyph = self->glyphs->len - n_glyphs;
  span.n_glyphs = n_glyphs;
  span.text = self->span_texts->len;
  g_string_append_len (self->span_texts, utf8, (gssize) strlen (utf8) + 1);
  g_array_append_val (self->spans, span);
  for (guint g = span.first_glyph; g < self->glyphs->len; g++)
    glyphs[g].flags |= DC_GLYPH_ACTUAL_TEXT;
}
