/* dc-document-cache-read.c: a cache file read back into a document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every count read is held against the bytes left in the file and every byte summed, so
 * that a short or damaged file fails here, and what was read is checked
 * (dc-document-cache-check.c) before anything uses it.
 */

#define G_LOG_DOMAIN "dc-document"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dc-document-cache-format-private.h"
#include "dc-document-private.h"
#include "dc-font-private.h"
#include "dc-memory-private.h"

/* Reading ------------------------------------------------------------------------- */

static gboolean
get (Reader *reader, void *data, gsize size)
{
  if (reader->failed || (guint64) size > (guint64) reader->remaining
      || (size > 0 && fread (data, 1, size, reader->file) != size))
    {
      reader->failed = TRUE;
      memset (data, 0, size);
      return FALSE;
    }
  reader->remaining -= (goffset) size;
  sum_update (&reader->sum, data, size);
  return TRUE;
}

static guint32
get_u32 (Reader *reader)
{
  guint32 value = 0;

  get (reader, &value, sizeof value);
  return value;
}

static gint32
get_i32 (Reader *reader)
{
  gint32 value = 0;

  get (reader, &value, sizeof value);
  return value;
}

static double
get_f64 (Reader *reader)
{
  double value = 0;

  get (reader, &value, sizeof value);
  return value;
}

/* Whether @n elements of @size bytes can be in what is left of the file. */
static gboolean
fits (Reader *reader, guint64 n, gsize size)
{
  if (reader->failed || n > (guint64) reader->remaining / MAX (size, 1))
    reader->failed = TRUE;
  return !reader->failed;
}

static char *
get_string (Reader *reader)
{
  guint32 length = get_u32 (reader);
  char *string;

  if (length == G_MAXUINT32 || !fits (reader, length, 1))
    return NULL;
  string = g_malloc (length + 1);
  get (reader, string, length);
  string[length] = '\0';
  if (memchr (string, '\0', length) != NULL || !g_utf8_validate (string, length, NULL))
    reader->failed = TRUE;
  return string;
}

/* Faults in the pages of a large array in one call before read() fills it: the kernel
 * otherwise takes a fault per 4 KiB page, which in a virtual machine cost the reading
 * of a 500-page book's cache half its time. */
static void
prepare_pages (gpointer data, gsize size)
{
#ifdef HAVE_DOCUMENT_CACHE
  if (size < (1 << 20))
    return;
  _dc_memory_advise_huge (data, size);
  _dc_memory_populate (data, size);
#endif
}

/* An array of @element_size bytes each, into @array (resized), whose length is returned. */
static guint
get_garray (Reader *reader, GArray *array, gsize element_size)
{
  guint32 n = get_u32 (reader);

  g_assert (g_array_get_element_size (array) == element_size);

  if (!fits (reader, n, element_size))
    return 0;
  g_array_set_size (array, n);
  prepare_pages (array->data, (gsize) n * element_size);
  get (reader, array->data, (gsize) n * element_size);
  return n;
}

static gpointer
get_block (Reader *reader, guint32 *n_out, gsize element_size)
{
  guint32 n = get_u32 (reader);
  gpointer data;

  *n_out = 0;
  if (!fits (reader, n, element_size))
    return NULL;
  data = g_malloc ((gsize) MAX (n, 1) * element_size);
  prepare_pages (data, (gsize) n * element_size);
  get (reader, data, (gsize) n * element_size);
  *n_out = n;
  return data;
}

static DcFont *
get_font (Reader *reader, guint index)
{
  g_autofree char *name = get_string (reader);
  g_autofree char *encoding = get_string (reader);
  g_autofree char *program_kind = get_string (reader);
  g_autofree guint8 *program = NULL;
  g_autoptr (GPtrArray) glyph_names = NULL;
  g_autofree int *cid_to_gid = NULL;
  g_autofree int *code_to_gid = NULL;
  g_autofree guint8 *type3_digests = NULL;
  g_autofree char *trust_reason = NULL;
  g_autofree char *double_byte = NULL;
  DcBridgeFont info = { 0 };
  guint32 program_len = get_u32 (reader);
  guint32 n_cids;
  DcFont *font;
  gboolean trusted;
  guint n_symbols, n_glyphs;

  if (program_len != G_MAXUINT32 && fits (reader, program_len, 1))
    {
      program = g_malloc (MAX (program_len, 1));
      get (reader, program, program_len);
    }
  if (get_u32 (reader))
    {
      glyph_names = g_ptr_array_new_full (256, g_free);
      for (guint i = 0; i < 256; i++)
        g_ptr_array_add (glyph_names, get_string (reader));
    }
  cid_to_gid = get_block (reader, &n_cids, sizeof (int));
  if (get_u32 (reader))
    {
      code_to_gid = g_new0 (int, 256);
      get (reader, code_to_gid, 256 * sizeof (int));
    }
  if (get_u32 (reader))
    {
      type3_digests = g_new0 (guint8, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
      get (reader, type3_digests, 256 * DC_BRIDGE_TYPE3_DIGEST_LEN);
    }
  info.type = (DcBridgeFontType) get_u32 (reader);
  info.has_to_unicode = get_u32 (reader) != 0;
  info.writing_mode = get_i32 (reader);
  info.has_ref = get_u32 (reader) != 0;
  info.ref_num = get_i32 (reader);
  info.ref_gen = get_i32 (reader);
  info.ascent = get_f64 (reader);
  info.descent = get_f64 (reader);
  trusted = get_u32 (reader) != 0;
  trust_reason = get_string (reader);
  double_byte = get_string (reader);
  n_symbols = get_u32 (reader);
  n_glyphs = get_u32 (reader);
  if (reader->failed || info.type > DC_BRIDGE_FONT_CID_TYPE2)
    {
      reader->failed = TRUE;
      return NULL;
    }

  info.name = name;
  info.encoding = encoding;
  info.program_kind = program_kind;
  info.embedded = program != NULL;
  info.program = program;
  info.program_len = program != NULL ? program_len : 0;
  info.glyph_names = glyph_names != NULL ? (const char *const *) glyph_names->pdata : NULL;
  info.cid_to_gid = n_cids > 0 ? cid_to_gid : NULL;
  info.cid_to_gid_len = n_cids;
  info.code_to_gid = code_to_gid;
  info.type3_digests = type3_digests;
  font = _dc_font_new_from_bridge (index, &info);
  _dc_font_set_counts (font, n_symbols, n_glyphs);
  _dc_font_set_trust (font, trusted, trust_reason);
  if (double_byte != NULL)
    {
      /* The loader takes the charset the font's name hints at; nothing else can be. */
      const char *hint = _dc_font_get_double_byte_hint (font);

      if (g_strcmp0 (hint, double_byte) != 0)
        reader->failed = TRUE;
      else
        _dc_font_set_double_byte (font, hint);
    }
  return font;
}

/* The symbols, each indexed by its font and code as the loader indexes them. */
static gboolean
get_symbols (Reader *reader, DcDocument *document, guint32 n_symbols)
{
  if (!fits (reader, n_symbols, 24))
    return FALSE;
  g_array_set_size (document->symbols, n_symbols);
  for (guint s = 0; s < n_symbols && !reader->failed; s++)
    {
      DcSymbol *symbol = &g_array_index (document->symbols, DcSymbol, s);
      gint64 *key;

      symbol->pdf_text = get_string (reader);
      symbol->code = get_u32 (reader);
      symbol->n_glyphs = get_u32 (reader);
      symbol->font = (guint16) get_u32 (reader);
      symbol->code_len = (guint8) get_u32 (reader);
      symbol->flags = (guint8) get_u32 (reader);
      if (symbol->pdf_text == NULL || symbol->font >= document->fonts->len)
        return FALSE;
      symbol->glyph_name = dc_font_get_glyph_name (g_ptr_array_index (document->fonts,
                                                                      symbol->font),
                                                   symbol->code);
      key = g_new (gint64, 1);
      *key = ((gint64) symbol->font << 32) | symbol->code;
      g_hash_table_insert (document->symbol_index, key, GUINT_TO_POINTER (s + 1));
    }
  return TRUE;
}

static gboolean
get_blocks (Reader *reader, DcDocument *document)
{
  guint32 n_blocks = get_u32 (reader);

  if (!fits (reader, n_blocks, 6 * sizeof (guint32)))
    return FALSE;
  g_array_set_size (document->blocks, n_blocks);
  for (guint b = 0; b < n_blocks && !reader->failed; b++)
    {
      DcBlock *block = &g_array_index (document->blocks, DcBlock, b);

      get (reader, &block->x0, 4 * sizeof (float));
      block->page = get_u32 (reader);
      block->index = get_u32 (reader);
      block->first_line = get_u32 (reader);
      block->n_lines = get_u32 (reader);
      block->label = get_string (reader);
      if (block->label == NULL)
        return FALSE;
      block->table = get_u32 (reader) != 0;
    }
  return TRUE;
}

DcDocument *
_dc_document_cache_read_document (Reader *reader, const char *identity, guint64 *held_glyphs,
                                  guint64 *held_bytes)
{
  g_autoptr (DcDocument) document = g_object_new (DC_TYPE_DOCUMENT, NULL);
  g_autofree char *stored_identity = NULL;
  g_autofree DcTokens *tokens = g_new0 (DcTokens, 1);
  g_autofree DcLine *lines = NULL;
  g_autofree DcToken *token_array = NULL;
  char magic[sizeof CACHE_MAGIC - 1], end[sizeof CACHE_END - 1];
  guint32 n_fonts, n_symbols, n_lines, n_tokens, n_texts;
  guint64 checksum = 0, expected;

  get (reader, magic, sizeof magic);
  if (memcmp (magic, CACHE_MAGIC, sizeof magic) != 0 || get_u32 (reader) != CACHE_FORMAT
      || get_u32 (reader) != 0x01020304 || get_u32 (reader) != sizeof (DcGlyph)
      || get_u32 (reader) != sizeof (DcLine) || get_u32 (reader) != sizeof (DcToken)
      || get_u32 (reader) != sizeof (ActualTextSpan))
    return NULL;
  stored_identity = get_string (reader);
  if (g_strcmp0 (stored_identity, identity) != 0)
    return NULL;
  get (reader, held_glyphs, sizeof *held_glyphs);
  get (reader, held_bytes, sizeof *held_bytes);

  document->sha256 = get_string (reader);
  document->language = get_string (reader);
  document->n_pages = get_u32 (reader);
  if (document->sha256 == NULL || document->n_pages == 0
      || !fits (reader, (guint64) document->n_pages, 2 * sizeof (double) + 2 * sizeof (guint)))
    return NULL;
  document->page_sizes = g_new (double, 2 * (gsize) document->n_pages);
  document->page_lines = g_new (guint, (gsize) document->n_pages + 1);
  document->page_blocks = g_new (guint, (gsize) document->n_pages + 1);
  get (reader, document->page_sizes, 2 * sizeof (double) * document->n_pages);
  get (reader, document->page_lines, sizeof (guint) * (document->n_pages + 1));
  get (reader, document->page_blocks, sizeof (guint) * (document->n_pages + 1));

  n_fonts = get_u32 (reader);
  for (guint f = 0; f < n_fonts && !reader->failed; f++)
    {
      DcFont *font = get_font (reader, f);

      if (font != NULL)
        g_ptr_array_add (document->fonts, font);
    }

  get_garray (reader, document->glyphs, sizeof (DcGlyph));
  n_symbols = get_u32 (reader);
  if (!get_symbols (reader, document, n_symbols))
    return NULL;
  document->symbol_is_space = get_block (reader, &document->space_capacity, 1);
  get_garray (reader, document->spans, sizeof (ActualTextSpan));
  n_texts = get_u32 (reader);
  if (fits (reader, n_texts, 1))
    {
      g_string_set_size (document->span_texts, n_texts);
      get (reader, document->span_texts->str, n_texts);
    }
  get_garray (reader, document->order, sizeof (guint32));
  lines = get_block (reader, &n_lines, sizeof (DcLine));
  if (!get_blocks (reader, document))
    return NULL;
  token_array = get_block (reader, &n_tokens, sizeof (DcToken));
  get (reader, end, sizeof end);
  expected = sum_finish (&reader->sum);
  get (reader, &checksum, sizeof checksum);
  if (reader->failed || reader->remaining != 0 || memcmp (end, CACHE_END, sizeof end) != 0
      || checksum != expected || document->symbol_is_space == NULL || lines == NULL
      || token_array == NULL)
    return NULL;

  g_array_append_vals (document->lines, lines, n_lines);
  tokens->ref_count = 1;
  tokens->generation = 1;
  tokens->lines = g_steal_pointer (&lines);
  tokens->n_lines = n_lines;
  tokens->tokens = g_steal_pointer (&token_array);
  tokens->n_tokens = n_tokens;
  tokens->n_symbols = n_symbols;
  tokens->symbol_is_space = g_memdup2 (document->symbol_is_space, document->space_capacity);
  document->tokens = g_steal_pointer (&tokens);
  if (!_dc_document_cache_check_document (document, document->tokens))
    return NULL;
  return g_steal_pointer (&document);
}
