/* dc-document.c: every drawn glyph of a PDF, its fonts, symbols, lines and tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Threads. Everything extracted from the PDF (glyphs, reading order, symbols, fonts,
 * the lines' places) is written once while loading and never again, so any thread may
 * read it for as long as it holds the document. Only the word boundaries change after
 * loading: learning that a symbol is a space (DcKey does it) splits tokens anew. The
 * tokens, the lines' token ranges and the space flags therefore live in a DcTokens
 * snapshot that is never changed once made; a space change makes a new one and drops
 * the document's reference to the old, which lives on as long as a worker holds it.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-document-cache-private.h"
#include "dc-document-private.h"
#include "dc-error.h"
#include "dc-extract-private.h"
#include "dc-font-private.h"
#include "dc-glyph-private.h"
#include "dc-ink-private.h"
#include "dc-layout-private.h"
#include "dc-memory-private.h"
#include "dc-parallel-private.h"
#include "dc-pdf-bridge-private.h"
#include "dc-script.h"
#include "dc-tsan-private.h"
#include "dc-trust-private.h"
#include "dc-clusters-private.h"
#include "dc-reshape-private.h"
#include "dc-vertical-private.h"
#include "dc-unicode-private.h"

G_DEFINE_BOXED_TYPE (DcTokens, dc_tokens, dc_tokens_ref, dc_tokens_unref)

G_DEFINE_FINAL_TYPE (DcDocument, dc_document, G_TYPE_OBJECT)

static void
clear_symbol (gpointer data)
{
  DcSymbol *symbol = data;

  g_clear_pointer (&symbol->pdf_text, g_free);
}

static void
clear_block (gpointer data)
{
  DcBlock *block = data;

  g_clear_pointer (&block->label, g_free);
}

static void
dc_document_finalize (GObject *object)
{
  DcDocument *self = DC_DOCUMENT (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->sha256, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->page_sizes, g_free);
  g_clear_pointer (&self->page_lines, g_free);
  g_clear_pointer (&self->page_blocks, g_free);
  g_clear_pointer (&self->fonts, g_ptr_array_unref);
  g_clear_pointer (&self->glyphs, g_array_unref);
  g_clear_pointer (&self->symbols, g_array_unref);
  g_clear_pointer (&self->symbol_index, g_hash_table_unref);
  g_clear_pointer (&self->symbol_is_space, g_free);
  g_clear_pointer (&self->spans, g_array_unref);
  if (self->span_texts != NULL)
    g_string_free (g_steal_pointer (&self->span_texts), TRUE);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_pointer (&self->blocks, g_array_unref);
  g_clear_pointer (&self->tokens, dc_tokens_unref);

  G_OBJECT_CLASS (dc_document_parent_class)->finalize (object);
}

static void
dc_document_class_init (DcDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dc_document_finalize;
}

static void
dc_document_init (DcDocument *self)
{
  self->fonts = g_ptr_array_new_with_free_func (g_object_unref);
  self->glyphs = g_array_new (FALSE, FALSE, sizeof (DcGlyph));
  self->symbols = g_array_new (FALSE, TRUE, sizeof (DcSymbol));
  g_array_set_clear_func (self->symbols, clear_symbol);
  self->symbol_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->spans = g_array_new (FALSE, FALSE, sizeof (ActualTextSpan));
  self->span_texts = g_string_new (NULL);
  self->order = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->lines = g_array_new (FALSE, TRUE, sizeof (DcLine));
  self->blocks = g_array_new (FALSE, TRUE, sizeof (DcBlock));
  g_array_set_clear_func (self->blocks, clear_block);
}

typedef struct
{
  DcDocument *self;
  DcPdfBridge *bridge; /* the calling thread's, for the page sizes */
  guint *page_first_glyph;
  guint n_images;
  DcProgressFunc progress;
  gpointer progress_data;
  /* Most fonts are simple: a direct table per font avoids hashing on every glyph. */
  GPtrArray *byte_tables; /* per font: guint32[256] of symbol + 1, or NULL for CID fonts */
  guint *images;          /* per page */

  /* The limits (DcDocumentLimits): reaching one cancels the extraction with @error. */
  guint64 max_glyphs;
  guint64 max_bytes;
  guint64 bytes;         /* glyph records and texts held so far */
  guint glyph_capacity;  /* how many glyphs the array has room for, as probed */
  guint glyph_populated; /* glyphs whose room was faulted in ahead (prepare_room()) */
  guint page;            /* the page being read, for the sentence */
  GCancellable *stop;    /* cancelled when a limit is reached (or the caller cancels) */
  GError *error;         /* why it stopped */
} Loader;

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

static void
loader_font (guint font_index, const DcBridgeFont *info, gpointer user_data)
{
  Loader *loader = user_data;
  DcFont *font = _dc_font_new_from_bridge (font_index, info);

  g_assert (font_index == loader->self->fonts->len);
  g_ptr_array_add (loader->self->fonts, font);
  g_ptr_array_add (loader->byte_tables, dc_font_is_cid (font) ? NULL : g_new0 (guint32, 256));
}

static gboolean
has_presentation_forms (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c >= 0xFB00 && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF))
        return TRUE;
    }
  return FALSE;
}

/* The symbol of @font's @code, made when it is the first glyph drawn with it. */
static guint32
intern_symbol (Loader *loader, guint font, guint32 code, guint code_len, const gunichar *unicode,
               int unicode_len)
{
  DcDocument *self = loader->self;
  guint32 *table = g_ptr_array_index (loader->byte_tables, font);
  gint64 key = ((gint64) font << 32) | code;
  DcSymbol symbol = { 0 };
  gpointer found;
  gint64 *stored;

  if (table != NULL && code < 256 && table[code] != 0)
    return table[code] - 1;
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
  else if (has_presentation_forms (symbol.pdf_text))
    {
      /* A ligature or an Arabic contextual form is how a letter sequence is drawn, not
       * what it is: the text is its compatibility decomposition, as pdftotext gives it. */
      char *plain = g_utf8_normalize (symbol.pdf_text, -1, G_NORMALIZE_NFKC);

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

static void
loader_glyph (const DcBridgeGlyph *bridge_glyph, gpointer user_data)
{
  Loader *loader = user_data;
  DcGlyph glyph;

  /* A glyph's page has 24 bits: no real document has 16 million pages. */
  if (bridge_glyph->page >= DC_GLYPH_MAX_PAGES)
    return;
  if (!loader_reserve_glyph (loader) || !loader_hold (loader, sizeof (DcGlyph)))
    return;
  _dc_glyph_pack (&glyph, bridge_glyph);
  _dc_glyph_call_hook (loader->self->glyphs->len, bridge_glyph->font_size, bridge_glyph->advance,
                       bridge_glyph->x0, bridge_glyph->y0, bridge_glyph->x1, bridge_glyph->y1);
  glyph.symbol = intern_symbol (loader, bridge_glyph->font, bridge_glyph->code,
                                bridge_glyph->code_len, bridge_glyph->unicode,
                                bridge_glyph->unicode_len);
  /* loader_reserve_glyph() made the room (and the array is not zero-terminated): a store,
   * where g_array_append_val() cost a call of some ninety instructions a glyph. */
  g_array_index (loader->self->glyphs, DcGlyph, loader->self->glyphs->len) = glyph;
  loader->self->glyphs->len++;
}

/* How many more glyphs loader_glyph() would store without a word to say: room made,
 * and within the limits. */
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

/* Glyphs packed on the threads that read them (dc-extract.c): stored as loader_glyph()
 * stores them, one after the other, with the symbol of each one's code. The glyphs that
 * fit in the room made and the limits, and whose symbol is known, are copied in a
 * run; any other goes through the steps of loader_glyph(), in its order, so that the
 * symbols, and the limit reached and its sentence, are those of one thread. */
static void
loader_glyphs (const DcGlyph *glyphs, guint n_glyphs, DcExtractCode *codes, gpointer user_data)
{
  Loader *loader = user_data;
  guint i = 0;

  while (i < n_glyphs)
    {
      /* loader_reserve_glyph() may have put the glyphs in a new array. */
      GArray *array = loader->self->glyphs;
      guint fit = MIN (loader_glyphs_that_fit (loader), n_glyphs - i);
      DcGlyph *out = &g_array_index (array, DcGlyph, array->len);
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
      g_array_index (array, DcGlyph, array->len) = glyph;
      array->len++;
      i++;
    }
}

static void
loader_image (guint page, gpointer user_data)
{
  Loader *loader = user_data;

  loader->images[page]++;
}

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
static gboolean
merge_double_byte (DcDocument *self)
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
  g_array_set_clear_func (symbols, clear_symbol);
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
        }
      glyph->symbol = renumber[old];
    }

  g_array_unref (self->symbols);
  self->symbols = g_steal_pointer (&symbols);
  g_array_unref (self->glyphs);
  self->glyphs = g_steal_pointer (&glyphs);
  return TRUE;
}

static void
loader_actual_text (guint page, const gunichar *text, int text_len, guint n_glyphs,
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

static void
finish_symbols (DcDocument *self)
{
  g_autofree guint *font_symbols = g_new0 (guint, MAX (1, self->fonts->len));
  g_autofree guint *font_glyphs = g_new0 (guint, MAX (1, self->fonts->len));
  DcSymbol *symbols = (DcSymbol *) (void *) self->symbols->data;
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;

  for (guint i = 0; i < self->glyphs->len; i++)
    symbols[glyphs[i].symbol].n_glyphs++;

  self->space_capacity = MAX (1, self->symbols->len);
  self->symbol_is_space = g_new0 (guint8, self->space_capacity);

  for (guint s = 0; s < self->symbols->len; s++)
    {
      DcSymbol *symbol = &symbols[s];
      DcFont *font = g_ptr_array_index (self->fonts, symbol->font);

      symbol->glyph_name = dc_font_get_glyph_name (font, symbol->code);
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
 * words in two and typing them would never match. A glyph named "space" stays one.
 * Returns whether any changed. */
static gboolean
unspace_inked_symbols (DcDocument *self)
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

      if (!(symbol->flags & DC_SYMBOL_PDF_SPACE) || dc_font_is_trusted (font)
          || g_strcmp0 (symbol->glyph_name, "space") == 0)
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
          GBytes *program = dc_font_get_program (font);

          tried[symbol->font] = TRUE;
          if (program != NULL && dc_font_get_font_type (font) != DC_FONT_TYPE_TYPE3)
            {
              gsize size;
              const guint8 *data = g_bytes_get_data (program, &size);

              if (FT_New_Memory_Face (library, data, (FT_Long) size, 0, &faces[symbol->font]) != 0)
                faces[symbol->font] = NULL;
            }
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

/* Whether the page's columns are read right to left: most of its letters, as the PDF
 * gives them, are in a right-to-left script, or its vertical columns are CJK's. A font whose map
 * lies may mislead this; the cost is only the order in which columns are read. */
/* What page_is_rtl() counts a symbol's glyphs as: its PDF text's first character. */
enum
{
  LETTER_NONE, /* none, or not a letter */
  LETTER_RTL,  /* of a right-to-left script */
  LETTER_OTHER,
};

/* A symbol's LETTER_* for each symbol: judged once a symbol, not once a glyph. */
static guint8 *
symbol_letter_kinds (DcDocument *self)
{
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  guint8 *kinds = g_new (guint8, MAX (1, self->symbols->len));

  for (guint s = 0; s < self->symbols->len; s++)
    {
      const char *text = symbols[s].pdf_text;
      gunichar c = text != NULL && *text ? g_utf8_get_char_validated (text, -1) : 0;

      if (c == 0 || c == (gunichar) -1 || c == (gunichar) -2 || !g_unichar_isalpha (c))
        kinds[s] = LETTER_NONE;
      else if (dc_script_is_rtl (g_unichar_get_script (c)))
        kinds[s] = LETTER_RTL;
      else
        kinds[s] = LETTER_OTHER;
    }
  return kinds;
}

static gboolean
page_is_rtl (DcDocument *self, const guint8 *letter_kinds, guint first, guint end)
{
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  const DcSymbol *symbols = (const DcSymbol *) (void *) self->symbols->data;
  guint counts[3] = { 0 };
  gboolean vertical, columns_rtl;

  /* A page of vertical writing: its columns' order is that of the vertical script. */
  columns_rtl = _dc_vertical_columns_right_to_left (glyphs, symbols, first, end, &vertical);
  if (vertical)
    return columns_rtl;

  for (guint i = first; i < end; i++)
    counts[letter_kinds[glyphs[i].symbol]]++;
  return counts[LETTER_RTL] > counts[LETTER_OTHER];
}

/**
 * dc_tokens_ref:
 *
 * May be called from any thread.
 *
 * Returns: (transfer full): @tokens
 */
DcTokens *
dc_tokens_ref (DcTokens *tokens)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  g_atomic_int_inc (&tokens->ref_count);
  return tokens;
}

/* May be called from any thread; the last reference frees the snapshot. */
void
dc_tokens_unref (DcTokens *tokens)
{
  g_return_if_fail (tokens != NULL);

  if (!g_atomic_int_dec_and_test (&tokens->ref_count))
    return;
  g_free (tokens->lines);
  g_free (tokens->tokens);
  g_free (tokens->symbol_is_space);
  g_free (tokens);
}

/* The generation of the tokens: a new snapshot has a new one. */
guint
dc_tokens_get_generation (DcTokens *tokens)
{
  g_return_val_if_fail (tokens != NULL, 0);

  return tokens->generation;
}

/**
 * dc_tokens_get_tokens:
 *
 * Returns: (transfer none): the tokens, valid as long as @tokens is held
 */
const DcToken *
dc_tokens_get_tokens (DcTokens *tokens, guint *n_tokens)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  if (n_tokens)
    *n_tokens = tokens->n_tokens;
  return tokens->tokens;
}

/**
 * dc_tokens_get_lines:
 *
 * Returns: (transfer none): the lines with the token ranges of this snapshot, valid as
 *   long as @tokens is held
 */
const DcLine *
dc_tokens_get_lines (DcTokens *tokens, guint *n_lines)
{
  g_return_val_if_fail (tokens != NULL, NULL);

  if (n_lines)
    *n_lines = tokens->n_lines;
  return tokens->lines;
}

/* Whether @symbol separated words when the snapshot was made. */
gboolean
dc_tokens_symbol_is_space (DcTokens *tokens, guint symbol)
{
  g_return_val_if_fail (tokens != NULL, FALSE);
  g_return_val_if_fail (symbol < tokens->n_symbols, FALSE);

  return tokens->symbol_is_space[symbol];
}

/* Splitting lines into tokens on several threads: parts of a few hundred lines taken in
 * turn, each storing its tokens from the place its first glyph has among the lines'
 * glyphs (a line has no more tokens than glyphs, so a part's tokens end before the next
 * part's place), then moved down in part order to follow one another. */
typedef struct
{
  const DcGlyph *glyphs;
  const guint32 *order;
  DcLine *lines;
  const guint8 *symbol_is_space;
  DcToken *tokens;
  const guint *part_lines;  /* n_parts + 1: the first line of each part */
  const guint *part_places; /* n_parts: where each part stores its tokens */
  guint *part_tokens;       /* n_parts: how many each stored */
  guint n_parts;
  guint n_places; /* the lines' glyphs */
  gint next_part; /* atomic */
} Split;

#define SPLIT_GLYPHS_PER_TOKEN 6

/* The room part @p has faulted in: a token every SPLIT_GLYPHS_PER_TOKEN glyphs (text has
 * a word every five or six). */
static guint
split_room (const Split *split, guint p)
{
  guint end = p + 1 < split->n_parts ? split->part_places[p + 1] : split->n_places;

  return (end - split->part_places[p]) / SPLIT_GLYPHS_PER_TOKEN;
}

static void
split_parts (gpointer data)
{
  Split *split = data;
  guint p;

  while ((p = (guint) g_atomic_int_add (&split->next_part, 1)) < split->n_parts)
    {
      _dc_memory_populate (&split->tokens[split->part_places[p]],
                           (gsize) split_room (split, p) * sizeof (DcToken));
      split->part_tokens[p] = dc_layout_tokens_into (split->glyphs, split->order, split->lines,
                                                     split->part_lines[p], split->part_lines[p + 1],
                                                     split->symbol_is_space, split->tokens,
                                                     split->part_places[p]);
    }
}

/* Splits @lines into @tokens (room for as many as the lines have glyphs) on @n_threads
 * threads: the same tokens, in the same places, as dc_layout_tokens(). Returns their
 * count. */
static guint
split_tokens (DcDocument *self, DcLine *lines, guint n_lines, const guint8 *symbol_is_space,
              DcToken *tokens, guint n_threads)
{
  Split split = { 0 };
  g_autofree guint *part_lines = NULL;
  g_autofree guint *part_places = NULL;
  g_autofree guint *part_tokens = NULL;
  guint n = 0, n_tokens = 0, per_part;

  if (n_threads <= 1 || n_lines < 2)
    return dc_layout_tokens_into ((const DcGlyph *) (void *) self->glyphs->data,
                                  (const guint32 *) (void *) self->order->data, lines, 0, n_lines,
                                  symbol_is_space, tokens, 0);

  /* Parts small enough that the threads finish together. */
  per_part = MAX (1, n_lines / (n_threads * 8));
  split.n_parts = (n_lines + per_part - 1) / per_part;
  part_lines = g_new (guint, split.n_parts + 1);
  part_places = g_new (guint, split.n_parts);
  part_tokens = g_new0 (guint, split.n_parts);
  for (guint p = 0, place = 0; p < split.n_parts; p++)
    {
      part_lines[p] = p * per_part;
      part_places[p] = place;
      for (guint l = p * per_part; l < MIN (n_lines, (p + 1) * per_part); l++)
        place += lines[l].n_glyphs;
    }
  part_lines[split.n_parts] = n_lines;
  for (guint l = 0; l < n_lines; l++)
    split.n_places += lines[l].n_glyphs;
  split.glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  split.order = (const guint32 *) (void *) self->order->data;
  split.lines = lines;
  split.symbol_is_space = symbol_is_space;
  split.tokens = tokens;
  split.part_lines = part_lines;
  split.part_places = part_places;
  split.part_tokens = part_tokens;
  _dc_parallel_run (MIN (n_threads, split.n_parts), split_parts, &split);

  for (guint p = 0; p < split.n_parts; p++)
    n_tokens += part_tokens[p];
  /* Room faulted in that no token took, beyond where they will all end: given back. */
  for (guint p = 0; p < split.n_parts; p++)
    {
      guint from = MAX (n_tokens, part_places[p] + part_tokens[p]);
      guint to = part_places[p] + split_room (&split, p);

      if (to > from)
        _dc_memory_release (&tokens[from], (gsize) (to - from) * sizeof (DcToken));
    }
  for (guint p = 0; p < split.n_parts; p++)
    {
      guint moved_by = part_places[p] - n;

      if (moved_by > 0)
        {
          guint end = part_places[p] + part_tokens[p];

          /* Where they go, faulted in at once rather than a page at a time by the move. */
          _dc_memory_populate (&tokens[n], (gsize) part_tokens[p] * sizeof (DcToken));
          memmove (&tokens[n], &tokens[part_places[p]], part_tokens[p] * sizeof (DcToken));
          for (guint l = part_lines[p]; l < part_lines[p + 1]; l++)
            lines[l].first_token -= moved_by;
          /* Where the tokens were, beyond where they all end now: given back at once, so
           * that the moves add nothing to what loading holds at its peak. */
          if (end > n_tokens)
            _dc_memory_release (&tokens[MAX (n_tokens, part_places[p])],
                                (end - MAX (n_tokens, part_places[p])) * sizeof (DcToken));
        }
      n += part_tokens[p];
    }
  return n;
}

/* Splits the lines into tokens at the spaces @symbol_is_space (taken over) says, into
 * a new snapshot that replaces the document's current one, on @n_threads threads. The
 * tokens go into one array with room for a token a glyph, of which only the pages the
 * tokens reach are ever touched, then cut to their number: split into an array a part,
 * the parts and the snapshot's array were held at once, two bytes a glyph more at the
 * peak of loading than the budget allows. */
static void
retokenize (DcDocument *self, guint8 *symbol_is_space, guint n_threads)
{
  DcTokens *tokens = g_new0 (DcTokens, 1), *old;
  gsize room = 0;
  DcToken *array;

  tokens->ref_count = 1;
  tokens->generation = self->tokens != NULL ? self->tokens->generation + 1 : 1;
  tokens->n_lines = self->lines->len;
  /* A book's lines are most of a megabyte, memory new to the process: faulted in at
   * once. */
  tokens->lines = g_malloc (sizeof (DcLine) * MAX (1, self->lines->len));
  _dc_memory_populate (tokens->lines, sizeof (DcLine) * MAX (1, self->lines->len));
  memcpy (tokens->lines, self->lines->data, sizeof (DcLine) * self->lines->len);
  tokens->n_symbols = self->symbols->len;
  tokens->symbol_is_space = symbol_is_space;
  for (guint l = 0; l < tokens->n_lines; l++)
    room += tokens->lines[l].n_glyphs;
  array = g_new (DcToken, MAX (1, room));
  tokens->n_tokens = split_tokens (self, tokens->lines, tokens->n_lines, symbol_is_space, array,
                                   n_threads);
  /* Exactly the size needed: a book keeps a hundred thousand tokens or more. */
  tokens->tokens = g_renew (DcToken, array, MAX (1, tokens->n_tokens));

  /* The document's own lines stay where they are (callers keep pointers to them) and
   * take the new ranges; a worker reads its snapshot's copy, never these. */
  memcpy (self->lines->data, tokens->lines, sizeof (DcLine) * tokens->n_lines);
  old = self->tokens;
  self->tokens = tokens;
  if (old != NULL)
    dc_tokens_unref (old);
}

/* The SHA-256 of the file at @path, or NULL with @error set. */
static char *
compute_sha256 (const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buffer = g_malloc (1 << 16);
  gssize n;

  stream = g_file_read (file, cancellable, error);
  if (stream == NULL)
    return NULL;
  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, 1 << 16, cancellable, error))
         > 0)
    g_checksum_update (checksum, buffer, n);
  if (n < 0)
    return NULL;
  return g_strdup (g_checksum_get_string (checksum));
}

/* The checksum reads the whole file, which the pages' reading need not: it runs on a
 * thread of its own meanwhile. */
typedef struct
{
  const char *path;
  GCancellable *cancellable;
  GThread *thread;
  char *sha256;
  GError *error;
} Checksum;

static gpointer
checksum_thread (gpointer data)
{
  Checksum *checksum = data;

  DC_TAKE_OVER (checksum);
  checksum->sha256 = compute_sha256 (checksum->path, checksum->cancellable, &checksum->error);
  DC_HAND_OVER (checksum);
  return NULL;
}

static void
checksum_start (Checksum *checksum, const char *path, GCancellable *cancellable)
{
  checksum->path = path;
  checksum->cancellable = cancellable;
  DC_HAND_OVER (checksum);
  checksum->thread = g_thread_try_new ("dc-sha256", checksum_thread, checksum, NULL);
  if (checksum->thread == NULL)
    checksum->sha256 = compute_sha256 (path, cancellable, &checksum->error);
}

static void
checksum_finish (Checksum *checksum)
{
  if (checksum->thread != NULL)
    {
      g_thread_join (g_steal_pointer (&checksum->thread));
      DC_TAKE_OVER (checksum);
    }
}

/* Every way out of the loader waits for the thread: it reads the path it was given. */
static void
checksum_clear (Checksum *checksum)
{
  checksum_finish (checksum);
  g_clear_pointer (&checksum->sha256, g_free);
  g_clear_error (&checksum->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Checksum, checksum_clear)

/* The glyphs and bytes @limits (or the defaults, for NULL) allow. */
void
_dc_document_resolve_limits (const DcDocumentLimits *limits, guint64 *max_glyphs,
                             guint64 *max_bytes)
{
  *max_glyphs = limits != NULL && limits->max_glyphs > 0 ? limits->max_glyphs
                                                         : DC_DOCUMENT_DEFAULT_MAX_GLYPHS;
  *max_glyphs = MIN (*max_glyphs, G_MAXUINT32 / sizeof (DcGlyph));
  *max_bytes = (limits != NULL && limits->max_megabytes > 0
                    ? MIN (limits->max_megabytes, G_MAXUINT64 >> 21)
                    : DC_DOCUMENT_DEFAULT_MAX_MEGABYTES)
               << 20;
}

/**
 * dc_document_new_from_file:
 * @path: a PDF file
 * @password: (nullable): the password, for an encrypted PDF
 * @progress: (nullable): called after each page, from the calling thread
 * @cancellable: (nullable): cancels the extraction
 *
 * dc_document_new_from_file_full() with the default limits.
 */
DcDocument *
dc_document_new_from_file (const char *path, const char *password, DcProgressFunc progress,
                           gpointer progress_data, GCancellable *cancellable, GError **error)
{
  return dc_document_new_from_file_full (path, password, NULL, progress, progress_data, cancellable,
                                         error);
}

static void
cancel_stop (GCancellable *cancellable, gpointer stop)
{
  g_cancellable_cancel (stop);
}

static void
loader_page_begin (guint page, gpointer user_data)
{
  Loader *loader = user_data;
  DcDocument *self = loader->self;

  loader->page = page;
  dc_pdf_bridge_get_page_size (loader->bridge, page, &self->page_sizes[2 * page],
                               &self->page_sizes[2 * page + 1]);
  loader->page_first_glyph[page] = self->glyphs->len;
}

static gboolean
loader_page_done (guint page, gpointer user_data)
{
  Loader *loader = user_data;

  if (loader->error != NULL)
    return FALSE;
  loader->n_images += loader->images[page];
  if (loader->progress != NULL)
    loader->progress (page + 1, loader->self->n_pages, loader->progress_data);
  return TRUE;
}

/* Laying out pages, each page on its own (dc_layout_lines()): on several threads, a part
 * of a few pages at a time. */
typedef struct
{
  GArray *lines;      /* of DcLine, the part's, in page order */
  GArray *blocks;     /* of DcBlock, the part's: their first_line counts from its first */
  guint *page_lines;  /* per page of the part: its first line in @lines */
  guint *page_blocks; /* per page of the part: its first block in @blocks */
} LayoutPart;

typedef struct
{
  DcDocument *self;
  const guint *page_first_glyph;
  const guint8 *letter_kinds;
  guint per_part;
  guint n_parts;
  LayoutPart *parts;
  gint next_part; /* atomic */
} Layout;

static void
lay_out_parts (gpointer data)
{
  Layout *layout = data;
  DcDocument *self = layout->self;
  const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
  guint32 *order = (guint32 *) (void *) self->order->data;
  guint p;

  while ((p = (guint) g_atomic_int_add (&layout->next_part, 1)) < layout->n_parts)
    {
      LayoutPart *part = &layout->parts[p];
      guint first_page = p * layout->per_part;
      guint end_page = MIN (self->n_pages, first_page + layout->per_part);

      /* The part's places in the reading order, memory new to the process: faulted in
       * at once, on the thread that fills them. */
      _dc_memory_populate (order + layout->page_first_glyph[first_page],
                           (layout->page_first_glyph[end_page]
                            - layout->page_first_glyph[first_page])
                               * sizeof (guint32));
      part->lines = g_array_new (FALSE, FALSE, sizeof (DcLine));
      part->blocks = g_array_new (FALSE, FALSE, sizeof (DcBlock));
      part->page_lines = g_new (guint, end_page - first_page);
      part->page_blocks = g_new (guint, end_page - first_page);
      for (guint page = first_page; page < end_page; page++)
        {
          guint first = layout->page_first_glyph[page];
          guint end = layout->page_first_glyph[page + 1];

          part->page_lines[page - first_page] = part->lines->len;
          part->page_blocks[page - first_page] = part->blocks->len;
          dc_layout_lines (glyphs, first, end - first, page, self->page_sizes[2 * page],
                           self->page_sizes[2 * page + 1],
                           page_is_rtl (self, layout->letter_kinds, first, end), order, part->lines,
                           part->blocks);
        }
    }
}

/* Lays out every page: the same lines and blocks whichever thread laid out which page,
 * since a page's lines depend on its glyphs alone and take the places of the reading
 * order its glyphs would take (the document's glyph range of that page). */
static void
lay_out_pages (DcDocument *self, const guint *page_first_glyph, const guint8 *letter_kinds,
               guint n_threads)
{
  Layout layout = { 0 };

  g_array_set_size (self->order, self->glyphs->len);
  _dc_memory_advise_huge (self->order->data, (gsize) self->glyphs->len * sizeof (guint32));
  layout.self = self;
  layout.page_first_glyph = page_first_glyph;
  layout.letter_kinds = letter_kinds;
  /* Parts small enough that the threads finish together, large enough that taking one
   * costs nothing; one part on one thread. */
  layout.per_part = n_threads <= 1 ? MAX (1, self->n_pages)
                                   : CLAMP (self->n_pages / (n_threads * 8), 1, 8);
  layout.n_parts = (self->n_pages + layout.per_part - 1) / layout.per_part;
  layout.parts = g_new0 (LayoutPart, layout.n_parts);
  _dc_parallel_run (MIN (n_threads, layout.n_parts), lay_out_parts, &layout);

  /* Room for every part's lines at once, faulted in at once: grown part by part, a
   * book's megabyte of lines was copied again and again into memory new to the process,
   * a page fault at a time, while the other threads waited. The document has no lines
   * before its pages are laid out. */
  {
    guint n_lines = 0;

    g_assert (self->lines->len == 0);
    for (guint p = 0; p < layout.n_parts; p++)
      n_lines += layout.parts[p].lines->len;
    g_array_unref (self->lines);
    self->lines = g_array_sized_new (FALSE, TRUE, sizeof (DcLine), n_lines);
    _dc_memory_populate (self->lines->data, (gsize) n_lines * sizeof (DcLine));
  }
  for (guint p = 0; p < layout.n_parts; p++)
    {
      LayoutPart *part = &layout.parts[p];
      guint first_page = p * layout.per_part;
      guint end_page = MIN (self->n_pages, first_page + layout.per_part);
      guint first_line = self->lines->len;

      for (guint page = first_page; page < end_page; page++)
        {
          self->page_lines[page] = first_line + part->page_lines[page - first_page];
          self->page_blocks[page] = self->blocks->len + part->page_blocks[page - first_page];
        }
      for (guint b = 0; b < part->blocks->len; b++)
        g_array_index (part->blocks, DcBlock, b).first_line += first_line;
      /* The labels go over to the document's blocks, which free them. */
      g_array_append_vals (self->lines, part->lines->data, part->lines->len);
      g_array_append_vals (self->blocks, part->blocks->data, part->blocks->len);
      g_array_unref (part->lines);
      g_array_unref (part->blocks);
      g_free (part->page_lines);
      g_free (part->page_blocks);
    }
  self->page_lines[self->n_pages] = self->lines->len;
  self->page_blocks[self->n_pages] = self->blocks->len;
  g_free (layout.parts);
}

static DcDocument *load_document (const char *path, const char *password,
                                  const DcDocumentLimits *limits, guint n_threads,
                                  const char *cache_identity, DcProgressFunc progress,
                                  gpointer progress_data, GCancellable *cancellable,
                                  GError **error);

/**
 * dc_document_new_from_file_full:
 * @path: a PDF file
 * @password: (nullable): the password, for an encrypted PDF
 * @limits: (nullable): how many glyphs, and how much memory for them and their texts,
 *   the document may take; %NULL for the defaults
 * @progress: (nullable): called after each page, from the calling thread
 * @cancellable: (nullable): cancels the extraction
 *
 * Extracts every drawn glyph, groups them into lines and tokens and judges which fonts
 * can be trusted. Runs synchronously: call it from a worker thread in a UI. A document
 * beyond @limits stops loading with %DC_ERROR_TOO_MANY_GLYPHS or %DC_ERROR_TOO_MUCH_TEXT
 * and a sentence naming the limit (the caller says how to raise it).
 *
 * What a book of 20,000 glyphs or more is made into is kept in the user's cache folder,
 * and the same file, unchanged, opens from there the next time (dc-document-cache.c;
 * DECIPHER_DOCUMENT_CACHE=0 turns that off). @progress is then called once.
 *
 * Returns: (transfer full): the document, or %NULL with @error set to a sentence the
 *   user can act on.
 */
DcDocument *
dc_document_new_from_file_full (const char *path, const char *password,
                                const DcDocumentLimits *limits, DcProgressFunc progress,
                                gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree char *identity = NULL;
  DcDocument *document;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  identity = _dc_document_cache_identity (path);
  document = _dc_document_cache_load (path, identity, limits);
  if (document != NULL)
    {
      if (progress != NULL)
        progress (document->n_pages, document->n_pages, progress_data);
      return document;
    }
  return load_document (path, password, limits, 0, identity, progress, progress_data, cancellable,
                        error);
}

/* dc_document_new_from_file_full() with the pages read by @n_threads threads, the
 * calling one included, whatever the page count; 0 chooses (extract_threads()). Tests
 * compare one thread with several: the cache is neither read nor written. */
DcDocument *
_dc_document_new_from_file_threads (const char *path, const char *password,
                                    const DcDocumentLimits *limits, guint n_threads,
                                    DcProgressFunc progress, gpointer progress_data,
                                    GCancellable *cancellable, GError **error)
{
  return load_document (path, password, limits, n_threads, NULL, progress, progress_data,
                        cancellable, error);
}

/* Reads the PDF, and writes what it made into the cache as the file of @cache_identity
 * when that is not NULL. */
static DcDocument *
load_document (const char *path, const char *password, const DcDocumentLimits *limits,
               guint n_threads, const char *cache_identity, DcProgressFunc progress,
               gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (DcDocument) self = NULL;
  g_autoptr (DcPdfBridge) bridge = NULL;
  g_autoptr (GPtrArray) byte_tables = NULL;
  g_autoptr (GCancellable) stop = g_cancellable_new ();
  g_autofree guint *images = NULL;
  g_autofree guint *page_first_glyph = NULL;
  g_autofree guint8 *letter_kinds = NULL;
  g_autofree char *display = NULL;
  DcExtractCallbacks callbacks = { loader_font, loader_glyph, loader_glyphs, loader_image,
                                   loader_actual_text };
  Loader loader = { 0 };
  g_auto (Checksum) checksum = { 0 };
  DcExtractLimits extract_limits;
  g_autoptr (GError) page_error = NULL;
  guint n_images = 0;
  gulong cancel_id = 0;
  gboolean extracted = TRUE, encrypted;
  guint64 held_glyphs;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bridge = dc_pdf_bridge_open (path, password, error);
  if (bridge == NULL)
    return NULL;

  self = g_object_new (DC_TYPE_DOCUMENT, NULL);
  self->path = g_strdup (path);
  checksum_start (&checksum, self->path, cancellable);

  self->n_pages = dc_pdf_bridge_get_n_pages (bridge);
  self->language = dc_pdf_bridge_get_language (bridge);
  /* The page count comes from the file: asked for, not demanded. */
  self->page_sizes = g_try_new0 (double, 2 * (gsize) self->n_pages);
  images = g_try_new0 (guint, self->n_pages);
  page_first_glyph = g_try_new0 (guint, (gsize) self->n_pages + 1);
  self->page_lines = g_try_new0 (guint, (gsize) self->n_pages + 1);
  self->page_blocks = g_try_new0 (guint, (gsize) self->n_pages + 1);
  if ((self->n_pages > 0 && (self->page_sizes == NULL || images == NULL))
      || page_first_glyph == NULL || self->page_lines == NULL || self->page_blocks == NULL)
    {
      display = g_filename_display_basename (path);
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("There is not enough memory to list the %u pages of “%s”."), self->n_pages,
                      display);
      return NULL;
    }
  byte_tables = g_ptr_array_new_with_free_func (g_free);

  loader.self = self;
  loader.byte_tables = byte_tables;
  loader.images = images;
  _dc_document_resolve_limits (limits, &loader.max_glyphs, &loader.max_bytes);
  loader.stop = stop;
  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_stop), stop, NULL);

  loader.bridge = bridge;
  loader.page_first_glyph = page_first_glyph;
  loader.progress = progress;
  loader.progress_data = progress_data;
  extract_limits.max_glyphs = loader.max_glyphs;
  extract_limits.max_bytes = loader.max_bytes;
  extract_limits.glyph_bytes = sizeof (DcGlyph);
  /* A test watching the glyphs as the bridge reports them has them read on one thread. */
  if (!_dc_extract_pages (bridge, path, password,
                          _dc_glyph_has_hook ()
                              ? 1
                              : (n_threads > 0 ? n_threads : _dc_parallel_threads (self->n_pages)),
                          &extract_limits, &callbacks, loader_page_begin, loader_page_done, &loader,
                          stop, &page_error))
    {
      /* The loader's own reason comes first: a limit cancels the reading too. */
      extracted = FALSE;
      if (loader.error != NULL)
        g_propagate_error (error, g_steal_pointer (&loader.error));
      else
        g_propagate_error (error, g_steal_pointer (&page_error));
    }
  n_images = loader.n_images;
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, cancel_id);
  g_clear_error (&loader.error);
  /* An unreadable file says so before anything found in its pages. */
  checksum_finish (&checksum);
  if (checksum.sha256 == NULL)
    {
      g_clear_error (error);
      g_propagate_error (error, g_steal_pointer (&checksum.error));
      return NULL;
    }
  self->sha256 = g_steal_pointer (&checksum.sha256);
  /* Every page is read: poppler's document, and the copy of the file it read, go before
   * the arrays the rest of the loading makes, rather than after. */
  encrypted = dc_pdf_bridge_is_encrypted (bridge);
  g_clear_pointer (&bridge, dc_pdf_bridge_free);
  if (!extracted)
    return NULL;
  page_first_glyph[self->n_pages] = self->glyphs->len;
  held_glyphs = self->glyphs->len;

  display = g_filename_display_basename (path);
  if (self->glyphs->len == 0)
    {
      if (n_images > 0)
        g_set_error (error, DC_ERROR, DC_ERROR_SCANNED,
                     _("“%s” contains only images of pages, as a scan does, and no text to recover. "
                       "Decipher repairs the text of PDFs made on a computer; recognising text in "
                       "images (OCR) is a job for another tool."),
                        display);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_NO_TEXT,
                     _("“%s” contains no text at all, so there is nothing to recover."), display);
      return NULL;
    }

  if (merge_double_byte (self))
    {
      /* Fewer glyphs now: each page starts where its first glyph went. */
      const DcGlyph *glyphs = (const DcGlyph *) (void *) self->glyphs->data;
      guint i = 0;

      for (guint page = 0; page <= self->n_pages; page++)
        {
          while (i < self->glyphs->len && glyphs[i].page < page)
            i++;
          page_first_glyph[page] = i;
        }
    }
  finish_symbols (self);
  _dc_clusters_infer (self);
  _dc_reshape_restore_selectors (self);
  _dc_vertical_mark_stacked ((DcGlyph *) (void *) self->glyphs->data,
                             (const DcSymbol *) (void *) self->symbols->data, self->glyphs->len);

  if (n_threads == 0)
    n_threads = _dc_parallel_threads (self->n_pages);
  letter_kinds = symbol_letter_kinds (self);
  lay_out_pages (self, page_first_glyph, letter_kinds, n_threads);
  retokenize (self, g_memdup2 (self->symbol_is_space, self->space_capacity), n_threads);

  dc_trust_analyse (self);
  if (unspace_inked_symbols (self))
    retokenize (self, g_memdup2 (self->symbol_is_space, self->space_capacity), n_threads);

  if (cache_identity != NULL && !encrypted)
    _dc_document_cache_store (self, cache_identity, held_glyphs, loader.bytes);
  return g_steal_pointer (&self);
}

/* The document's language as its catalog states it (/Lang, a BCP 47 tag), or NULL. */
const char *
dc_document_get_language (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->language;
}

/* Valid as long as the document; never changes. */
const char *
dc_document_get_path (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->path;
}

/* The SHA-256 of the file: a project is tied to exactly this document. */
const char *
dc_document_get_sha256 (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return self->sha256;
}

guint
dc_document_get_n_pages (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->n_pages;
}

void
dc_document_get_page_size (DcDocument *self, guint page, double *width, double *height)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (width)
    *width = self->page_sizes[2 * page];
  if (height)
    *height = self->page_sizes[2 * page + 1];
}

guint
dc_document_get_n_fonts (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->fonts->len;
}

/**
 * dc_document_get_font:
 *
 * Returns: (transfer none): the font, valid as long as the document; only its counts
 *   and trust, set while loading, are read by the engine, so any thread may read it
 */
DcFont *
dc_document_get_font (DcDocument *self, guint index)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (index < self->fonts->len, NULL);

  return g_ptr_array_index (self->fonts, index);
}

/**
 * dc_document_get_glyphs:
 *
 * Returns: (transfer none): every glyph, page by page in drawing order; never changes,
 *   so any thread may read it for as long as it holds the document
 */
const DcGlyph *
dc_document_get_glyphs (DcDocument *self, guint *n_glyphs)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_glyphs)
    *n_glyphs = self->glyphs->len;
  return (const DcGlyph *) (void *) self->glyphs->data;
}

/**
 * dc_document_get_symbols:
 *
 * Returns: (transfer none): the symbols; never change (their values live in a DcKey),
 *   so any thread may read them for as long as it holds the document
 */
const DcSymbol *
dc_document_get_symbols (DcDocument *self, guint *n_symbols)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_symbols)
    *n_symbols = self->symbols->len;
  return (const DcSymbol *) (void *) self->symbols->data;
}

/**
 * dc_document_get_symbol:
 *
 * Returns: (transfer none): one symbol, valid as long as the document (any thread)
 */
const DcSymbol *
dc_document_get_symbol (DcDocument *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (symbol < self->symbols->len, NULL);

  return &g_array_index (self->symbols, DcSymbol, symbol);
}

gboolean
dc_document_lookup_symbol (DcDocument *self, guint font, guint32 code, guint *symbol)
{
  gint64 key = ((gint64) font << 32) | code;
  gpointer found;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);

  found = g_hash_table_lookup (self->symbol_index, &key);
  if (found == NULL)
    return FALSE;
  if (symbol)
    *symbol = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

/* Whether the symbol's font map is untrusted, so that its value must be recovered. */
gboolean
dc_document_symbol_needs_decoding (DcDocument *self, guint symbol)
{
  const DcSymbol *s;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (symbol < self->symbols->len, FALSE);

  s = &g_array_index (self->symbols, DcSymbol, symbol);
  return !dc_font_is_trusted (g_ptr_array_index (self->fonts, s->font));
}

/**
 * dc_document_get_reading_order:
 *
 * Returns: (transfer none): glyph indices in reading order, line after line; never
 *   changes, so any thread may read it for as long as it holds the document
 */
const guint32 *
dc_document_get_reading_order (DcDocument *self, guint *n_glyphs)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_glyphs)
    *n_glyphs = self->order->len;
  return (const guint32 *) (void *) self->order->data;
}

/**
 * dc_document_get_lines:
 *
 * The lines. Their places never change; their token ranges (first_token, n_tokens) are
 * those of the current snapshot and change, in place, when a space is learned or
 * forgotten (dc_document_set_symbol_is_space(), which DcKey calls when a change, undo
 * or redo touches a space). So only the thread that owns the document may read the
 * token ranges here; a worker reads dc_tokens_get_lines() of a snapshot it holds.
 *
 * Returns: (transfer none): the lines, valid as long as the document
 */
const DcLine *
dc_document_get_lines (DcDocument *self, guint *n_lines)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_lines)
    *n_lines = self->lines->len;
  return (const DcLine *) (void *) self->lines->data;
}

/**
 * dc_document_get_tokens:
 *
 * The tokens of the current snapshot, for use on the thread that owns the document.
 *
 * Returns: (transfer none): the tokens, valid until the next space change (see
 *   dc_document_get_lines()): do not keep the pointer across a key change. A worker
 *   holds a snapshot from dc_document_ref_tokens() instead.
 */
const DcToken *
dc_document_get_tokens (DcDocument *self, guint *n_tokens)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return dc_tokens_get_tokens (self->tokens, n_tokens);
}

/**
 * dc_document_ref_tokens:
 *
 * The current snapshot of the tokens, the lines' token ranges and the space flags.
 * Nothing in it ever changes: a space change gives the document a new snapshot and
 * leaves this one as it is. Take it on the thread that owns the document (the one that
 * changes the key), then hand it to a worker: a worker asking for the current one could
 * get it while the owner replaces it.
 *
 * Returns: (transfer full): the snapshot, to release with dc_tokens_unref()
 */
DcTokens *
dc_document_ref_tokens (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  return dc_tokens_ref (self->tokens);
}

void
dc_document_get_page_lines (DcDocument *self, guint page, guint *first_line, guint *n_lines)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (first_line)
    *first_line = self->page_lines[page];
  if (n_lines)
    *n_lines = self->page_lines[page + 1] - self->page_lines[page];
}

/**
 * dc_document_locate_glyph:
 * @glyph: an index into dc_document_get_glyphs()
 * @position: (out) (optional): where @glyph is in dc_document_get_reading_order()
 * @line: (out) (optional): the line holding it
 *
 * Where a glyph clicked or found on the page is in the text. There is no index from glyph
 * to position (it would cost 4 bytes a glyph for a lookup made once a click): the lines of
 * the glyph's page, a few thousand glyphs, are looked through.
 *
 * Returns: %FALSE for a glyph on no line
 */
gboolean
dc_document_locate_glyph (DcDocument *self, guint glyph, guint *position, guint *line)
{
  const DcLine *lines;
  const guint32 *order;
  guint page;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (glyph < self->glyphs->len, FALSE);

  lines = (const DcLine *) (void *) self->lines->data;
  order = (const guint32 *) (void *) self->order->data;
  page = g_array_index (self->glyphs, DcGlyph, glyph).page;
  for (guint l = self->page_lines[page]; l < self->page_lines[page + 1]; l++)
    for (guint p = lines[l].first_glyph; p < lines[l].first_glyph + lines[l].n_glyphs; p++)
      if (order[p] == glyph)
        {
          if (position)
            *position = p;
          if (line)
            *line = l;
          return TRUE;
        }
  return FALSE;
}

/**
 * dc_document_get_blocks:
 * @n_blocks: (out) (optional): the number of blocks
 *
 * The blocks of every page (paragraphs, headings, examples…), page by page in reading
 * order; their lines are consecutive ranges of dc_document_get_lines().
 */
const DcBlock *
dc_document_get_blocks (DcDocument *self, guint *n_blocks)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);

  if (n_blocks)
    *n_blocks = self->blocks->len;
  return (const DcBlock *) (void *) self->blocks->data;
}

void
dc_document_get_page_blocks (DcDocument *self, guint page, guint *first_block, guint *n_blocks)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (page < self->n_pages);

  if (first_block)
    *first_block = self->page_blocks[page];
  if (n_blocks)
    *n_blocks = self->page_blocks[page + 1] - self->page_blocks[page];
}

/* Whether @symbol separates words now; for the thread that owns the document (a worker
 * asks its snapshot, dc_tokens_symbol_is_space()). */
gboolean
dc_document_symbol_is_space (DcDocument *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (symbol < self->symbols->len, FALSE);

  return self->symbol_is_space[symbol];
}

/* Marks a symbol as a word separator (or not) and recomputes the tokens into a new
 * snapshot; on the thread that owns the document only. */
void
dc_document_set_symbol_is_space (DcDocument *self, guint symbol, gboolean is_space)
{
  g_return_if_fail (DC_IS_DOCUMENT (self));
  g_return_if_fail (symbol < self->symbols->len);

  if (self->symbol_is_space[symbol] == !!is_space)
    return;
  self->symbol_is_space[symbol] = !!is_space;
  retokenize (self, g_memdup2 (self->symbol_is_space, self->space_capacity),
              _dc_parallel_threads (self->n_pages));
}

/* Changes whenever the tokens are recomputed, so indexes over them know to rebuild;
 * for the owning thread (a snapshot knows its own, dc_tokens_get_generation()). */
guint
dc_document_get_tokens_generation (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->tokens->generation;
}

static int
compare_span (const void *key, const void *element)
{
  guint glyph = *(const guint *) key;
  const ActualTextSpan *span = element;

  if (glyph < span->first_glyph)
    return -1;
  if (glyph >= span->first_glyph + span->n_glyphs)
    return 1;
  return 0;
}

/**
 * dc_document_get_actual_text:
 * @glyph: a glyph index (content-stream order, as dc_document_get_glyphs())
 * @first_glyph: (out) (optional): the span's first glyph
 * @n_glyphs: (out) (optional): how many glyphs it covers
 *
 * The /ActualText the PDF gives for a run of glyphs that includes @glyph: the text the run
 * stands for together, in logical order.
 *
 * Returns: (nullable): the text, or %NULL when @glyph is in no such span
 */
const char *
dc_document_get_actual_text (DcDocument *self, guint glyph, guint *first_glyph, guint *n_glyphs)
{
  const ActualTextSpan *span;

  g_return_val_if_fail (DC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (glyph < self->glyphs->len, NULL);

  /* A flag without spans only comes from a damaged cache file, which must not make
   * bsearch() read from no array. */
  if (!(g_array_index (self->glyphs, DcGlyph, glyph).flags & DC_GLYPH_ACTUAL_TEXT)
      || self->spans->len == 0)
    return NULL;
  span = bsearch (&glyph, self->spans->data, self->spans->len, sizeof (ActualTextSpan),
                  compare_span);
  if (span == NULL)
    return NULL;
  if (first_glyph)
    *first_glyph = span->first_glyph;
  if (n_glyphs)
    *n_glyphs = span->n_glyphs;
  return self->span_texts->str + span->text;
}

guint
dc_document_get_n_actual_texts (DcDocument *self)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (self), 0);

  return self->spans->len;
}

/* Lets the cluster analysis replace a symbol's PDF text with what the document's
 * /ActualText spans show it stands for. */
void
_dc_document_set_symbol_pdf_text (DcDocument *self, guint symbol, const char *text)
{
  DcSymbol *s;

  g_assert (DC_IS_DOCUMENT (self));
  g_assert (symbol < self->symbols->len);

  s = &g_array_index (self->symbols, DcSymbol, symbol);
  g_free (s->pdf_text);
  s->pdf_text = g_strdup (text);
}
