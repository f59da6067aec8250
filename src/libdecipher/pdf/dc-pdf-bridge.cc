/* dc-pdf-bridge.cc: the only file that uses poppler's core C++ API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TextOutputDev would merge, drop and reorder characters; the engine needs every drawn
 * code exactly as the content stream draws it, so this OutputDev reports each one raw.
 * Boxes are computed the way poppler's TextPage computes character boxes, so that they
 * coincide with what poppler_page_get_text_layout() returns for the same glyph.
 */

#define G_LOG_DOMAIN "dc-pdf-bridge"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#if DC_POPPLER_MAJOR >= 25
#include <span>
#endif
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <cstddef>

#include <Annot.h>
#include <Array.h>
#include <Error.h>
#include <ErrorCodes.h>
#include <Gfx.h>
#include <GfxFont.h>
#include <GfxState.h>
#include <GlobalParams.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <Page.h>
#include <Stream.h>
#include <NameToUnicodeTable.h>
#include <UTF.h>
#include <fofi/FoFiTrueType.h>
#include <fofi/FoFiType1C.h>
#include <goo/GooString.h>
#include <goo/gmem.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "dc-error.h"
#include "dc-memory-private.h"
#include "dc-name-slots.h"
#include "dc-pdf-bridge-private.h"
#include "dc-tsan-private.h"

static void quiet_error_callback (ErrorCategory category, Goffset pos, const char *msg);

/* Where inflate_whole() decodes a stream: @room bytes, of which it fills the first. */
struct InflateBuffer
{
  std::unique_ptr<char[]> data;
  gsize room = 0;
};

/* zlib's state for inflate_whole(), made once a bridge and reset for each stream: made
 * for each (through GZlibDecompressor), its 40 KB were allocated, given back to the
 * kernel and faulted in again, stream after stream. */
struct Inflater
{
  z_stream zs = {};
  bool ready = false;
  /* The stream's own bytes, in room kept from stream to stream (read_input()). */
  std::unique_ptr<unsigned char[]> input;
  gsize input_room = 0;

  Inflater () = default;
  Inflater (const Inflater &) = delete;
  Inflater &operator= (const Inflater &) = delete;
  ~Inflater ()
  {
    if (ready)
      inflateEnd (&zs);
  }

  /* Ready for a new stream, or FALSE when zlib has no memory for it. */
  bool
  begin ()
  {
    if (ready)
      return inflateReset (&zs) == Z_OK;
    zs = {};
    ready = inflateInit (&zs) == Z_OK;
    /* No Adler-32 of what is decoded: poppler's own decoder, which would read the
     * stream otherwise, never compares it, and gives the same bytes whatever it says.
     * Working it out was a fifth of zlib's time. The setting outlives inflateReset(). */
    if (ready)
      inflateValidate (&zs, 0);
    return ready;
  }
};

/* The input room kept for the next stream: what a page or a font needs is far less. */
#define KEPT_INPUT (4u << 20)

/* Reads @base's bytes, as they are in the file, into @inflater's input room; returns how
 * many. Stream::toUnsignedChars() made and zeroed a new vector for each stream (and again
 * each time it grew it): a memset() a stream, a fiftieth of reading the pages. */
static gsize
read_input (BaseStream *base, Inflater &inflater)
{
  gsize length = 0;

  base->reset ();
  for (;;)
    {
      int read;

      if (inflater.input_room - length < 16384)
        {
          gsize room = MAX ((gsize) 65536, 2 * inflater.input_room);
          std::unique_ptr<unsigned char[]> grown (new unsigned char[room]);

          if (length > 0)
            memcpy (grown.get (), inflater.input.get (), length);
          inflater.input = std::move (grown);
          inflater.input_room = room;
        }
      read = base->doGetChars ((int) MIN (inflater.input_room - length, (gsize) G_MAXINT),
                               inflater.input.get () + length);
      if (read <= 0)
        return length;
      length += (gsize) read;
    }
}

/* What announcing a font works out from its dictionary and program: its program's bytes
 * inflated, and a simple font's code → glyph index map. Every thread's bridge announces
 * each font it meets, and this was most of the work; the bridges of one loading keep it
 * for each other under the font's id (DcBridgeFont's), which names one font dictionary in
 * every bridge on the file, so the others copy what the first worked out. */
struct FontWork
{
  std::optional<std::vector<unsigned char> > program; /* set when the font embeds one */
  bool has_code_to_gid = false;
  int code_to_gid[256];
  std::vector<int> cid_map; /* a CID font's, made from its program; empty for none */
};

struct FontShare
{
  std::mutex lock;
  std::map<std::pair<int, int>, std::shared_ptr<const FontWork> > fonts;
};

/* A Gfx kept for a later page (_DcPdfBridge's gfxs). */
struct KeptGfx
{
  std::unique_ptr<Gfx> gfx;
  Page *page;   /* the page it was made for */
  guint weight; /* what its fonts may hold, in KEPT_GFX_BUDGET's units (gfx_weight()), once
                 * its first page is read */
};

/* How many Gfxs a bridge keeps: each holds the fonts of its page's resources (a few
 * kilobytes each), and a book's sets of resources that take turns are a few dozen. */
#define MAX_KEPT_GFX 64
/* And at most this much for those the page being read does not use, in units of about
 * 16 KB (gfx_weight()): about 4 MB, where one Gfx with the fonts of a Japanese page may
 * hold a megabyte and more. */
#define KEPT_GFX_BUDGET 256

struct _DcPdfBridge
{
  /* poppler's globals live while some user holds an initer; poppler-glib holds its own
   * per document, so ours must be held as long as this document (declared before doc so
   * that it outlives it). */
  GlobalParamsIniter initer{ quiet_error_callback };
  /* The file's bytes poppler reads, shared by the bridges of one loading (declared
   * before doc so that they outlive it), or NULL when it reads the file itself. */
  std::unique_ptr<GBytes, decltype (&g_bytes_unref)> contents{ nullptr, g_bytes_unref };
  std::unique_ptr<PDFDoc> doc;
  bool reconstructed = false;
  /* Fonts are identified across pages by their PDF object reference. */
  std::map<std::pair<int, int>, guint> font_ids;
  std::map<const GfxFont *, guint> anonymous_fonts;
  /* Shared with the bridges opened again from this one (dc_pdf_bridge_open_again()). */
  std::shared_ptr<FontShare> font_share;
  /* The output device and the Gfxs of the pages read last, the one used last first, each
   * kept for a later page that would make the same Gfx (reusable_gfx()): a Gfx makes every
   * font of its page's resources anew, reading the font's program and ToUnicode CMap
   * again, a tenth of reading a book whose pages all draw with the same few fonts. More
   * than the last one are kept since a book's pages may take turns with a few sets of
   * resources (a font a chapter, the chapters' languages in turn): making a Gfx again for
   * each turn was a twelfth of reading such a book. Declared after doc, so that the Gfxs
   * go first, then the device they draw on, then the document. */
  std::unique_ptr<OutputDev> out;
  std::vector<KeptGfx> gfxs;
  guint n_gfx_made = 0; /* for the tests (dc_pdf_bridge_get_n_gfx_made()) */
  /* Whether the font of each reference a page drew with is composite (gfx_weight()). */
  std::map<std::pair<int, int>, bool> composite_fonts;
  /* Where the page's content streams are decoded (page_contents()), kept for the next
   * page: a buffer new for each page was given back to the kernel when it was freed and
   * faulted in anew on the next (150 of the 5,900 page faults of `text` on a book of
   * 600 pages, each 15-40 us in a virtual machine). */
  std::vector<InflateBuffer> page_buffers;
  Inflater inflater;
  GCancellable *cancellable = nullptr; /* the page being read's, for abort_check() */
  /* How often poppler asked abort_check() on the page being read: about once per
   * drawing operation once a page is under way, in nested forms too. */
  guint64 n_checks = 0;
  bool too_much_work = false;
};

/* Forms drawing forms, two of them thirty levels deep, make a 5 KB page that draws
 * 2^30 forms: minutes of work, most of it no glyph at all, so the glyph limit did not stop
 * it (issue 33). A page is read no further than this many operations, which no real page
 * needs (a detailed map draws a few million). */
#define MAX_PAGE_OPERATIONS G_GUINT64_CONSTANT (50000000)
/* poppler asks abort_check() only in a content stream of more than ten operations, so a
 * form of a few is counted here instead; a real page draws a few thousand at most. */
#define MAX_PAGE_FORMS G_GUINT64_CONSTANT (250000)

/* Set while close_marked_content() works on this thread. */
static thread_local bool closing_marked_content = false;

static void
quiet_error_callback (ErrorCategory category, Goffset pos, const char *msg)
{
  /* poppler reports every oddity of real-world files on stderr; they are not the user's
   * concern unless the document cannot be read, which the bridge reports as a GError.
   * The EMC that finds nothing left to close is the bridge's own doing. */
  if (closing_marked_content)
    return;
  g_debug ("poppler (%lld): %s", (long long) pos, msg);
}

/* The bytes of @str, a stream of one FlateDecode filter over the file's bytes, decoded
 * by zlib into @output (@length of them); FALSE for any other stream, and for one zlib
 * does not decode whole and clean (a damaged or cut stream: poppler's own decoder then
 * reads it, and says what it says; a wrong checksum it does not look at either). Where zlib decodes
 * it whole, poppler's decoder gives the same bytes at several times the cost. */
static bool
inflate_whole (const Object &str, Inflater &inflater, InflateBuffer &output, gsize &length)
{
  Stream *stream;
  BaseStream *base;
  Dict *dict;

  if (!str.isStream ())
    return false;
  stream = str.getStream ();
  base = stream->getBaseStream ();
  dict = stream->getDict ();
  /* No decryption, no other filter, no predictor between the file's bytes and poppler's. */
  if (stream->getKind () != strFlate || stream->getNextStream () != base || dict == nullptr
      || !dict->lookupNF ("DecodeParms").isNull () || !dict->lookupNF ("DP").isNull ())
    return false;

  gsize n_input = read_input (base, inflater);
  gsize wanted = MAX ((gsize) 4096, n_input * 4), read_at = 0;
  z_stream *zs = &inflater.zs;
  bool whole = false;

  if (!inflater.begin ())
    return false;
  if (output.room < wanted)
    {
      output.data.reset (new char[wanted]);
      output.room = wanted;
    }
  length = 0;
  for (;;)
    {
      uInt in = (uInt) MIN (n_input - read_at, (gsize) G_MAXUINT);
      uInt out;
      gsize bytes_read, bytes_written;
      int result;

      if (length == output.room)
        {
          std::unique_ptr<char[]> grown (new char[2 * output.room]);

          memcpy (grown.get (), output.data.get (), length);
          output.data = std::move (grown);
          output.room *= 2;
        }
      out = (uInt) MIN (output.room - length, (gsize) G_MAXUINT);
      zs->next_in = inflater.input.get () + read_at;
      zs->avail_in = in;
      zs->next_out = (Bytef *) output.data.get () + length;
      zs->avail_out = out;
      result = inflate (zs, Z_NO_FLUSH);
      bytes_read = in - zs->avail_in;
      bytes_written = out - zs->avail_out;
      read_at += bytes_read;
      length += bytes_written;
      whole = result == Z_STREAM_END;
      /* An error, or input ending before the stream does: poppler's decoder decides. */
      if (whole || (result != Z_OK && result != Z_BUF_ERROR)
          || (bytes_read == 0 && bytes_written == 0))
        break;
    }
  if (inflater.input_room > KEPT_INPUT)
    {
      inflater.input.reset ();
      inflater.input_room = 0;
    }
  return whole;
}

/* What GfxFont::readEmbFontFile() reads, the font's program: decoded by zlib where
 * inflate_whole() can (a book of sixty embedded fonts spent a thirtieth of `text` in
 * poppler's decoder here), else by poppler. */
static std::optional<std::vector<unsigned char> >
read_font_program (GfxFont *font, Ref id, XRef *xref, Inflater &inflater)
{
  Object ref (id);
  Object str = ref.fetch (xref);
  InflateBuffer output;
  gsize length = 0;

  if (inflate_whole (str, inflater, output, length))
    return std::vector<unsigned char> (output.data.get (), output.data.get () + length);
  return font->readEmbFontFile (xref);
}

namespace
{

/* poppler returned a gmalloc'd array up to 22.x and a vector since: accept both. */
[[maybe_unused]] void
copy_code_to_gid (int *map, int out[256])
{
  if (map == nullptr)
    return;
  memcpy (out, map, 256 * sizeof (int));
  gfree (map);
}

[[maybe_unused]] void
copy_code_to_gid (const std::vector<int> &map, int out[256])
{
  for (size_t i = 0; i < 256 && i < map.size (); i++)
    out[i] = map[i];
}

/* The glyphs a simple TrueType font draws, as poppler's renderers choose them: the
 * font's own cmap, the encoding and the glyph names all play a part. */
bool
truetype_code_to_gid (Gfx8BitFont *font, std::vector<unsigned char> &program, int out[256])
{
#if DC_POPPLER_MAJOR >= 25
  std::unique_ptr<FoFiTrueType> ff = FoFiTrueType::make (std::span<unsigned char> (program), 0);
#else
  std::unique_ptr<FoFiTrueType> ff = FoFiTrueType::make (program.data (), (int) program.size ());
#endif

  if (!ff)
    return false;
  for (int i = 0; i < 256; i++)
    out[i] = -1;
  copy_code_to_gid (font->getCodeToGIDMap (ff.get ()), out);
  return true;
}

/* A simple Type 1 or CFF font draws by name: poppler's font engine (SplashFTFontFile::
 * loadType1Font) looks each encoding name up in the program through FreeType, then the
 * name's alternate (GfxFont::getAlternateName). The same rule here gives the palette the
 * glyph poppler drew, not one guessed from what the name might stand for. */
bool
named_code_to_gid (Gfx8BitFont *font, std::vector<unsigned char> &program, int out[256])
{
  FT_Library library;
  FT_Face face;
  char **encoding = font->getEncoding ();

  if (FT_Init_FreeType (&library) != 0)
    return false;
  if (FT_New_Memory_Face (library, program.data (), (FT_Long) program.size (), 0, &face) != 0)
    {
      FT_Done_FreeType (library);
      return false;
    }
  for (int i = 0; i < 256; i++)
    {
      const char *name = encoding[i];

      out[i] = 0;
      if (name == nullptr)
        continue;
      out[i] = (int) FT_Get_Name_Index (face, (FT_String *) name);
      if (out[i] == 0 && (name = GfxFont::getAlternateName (name)) != nullptr)
        out[i] = (int) FT_Get_Name_Index (face, (FT_String *) name);
    }
  FT_Done_Face (face);
  FT_Done_FreeType (library);
  return true;
}

/* A CID-keyed CFF program without a CIDToGIDMap: poppler maps CIDs through the
 * program's charset (FoFiType1C::getCIDToGIDMap), as SplashOutputDev does. */
[[maybe_unused]] void
take_cid_map (int *map, int n, std::vector<int> &out)
{
  if (map == nullptr)
    return;
  out.assign (map, map + n);
  gfree (map);
}

[[maybe_unused]] void
take_cid_map (const std::vector<int> &map, int, std::vector<int> &out)
{
  out = map;
}

void
cff_cid_to_gid (GfxFontType type, std::vector<unsigned char> &program, std::vector<int> &out)
{
  int n = 0;

  if (type == fontCIDType0C)
    {
#if DC_POPPLER_MAJOR >= 25
      std::unique_ptr<FoFiType1C> ff (FoFiType1C::make (std::span<unsigned char> (program)));
#else
      std::unique_ptr<FoFiType1C> ff (FoFiType1C::make (program.data (), (int) program.size ()));
#endif
      if (ff)
        take_cid_map (ff->getCIDToGIDMap (&n), n, out);
    }
  else if (type == fontCIDType0COT)
    {
#if DC_POPPLER_MAJOR >= 25
      std::unique_ptr<FoFiTrueType> ff = FoFiTrueType::make (std::span<unsigned char> (program), 0);
#else
      std::unique_ptr<FoFiTrueType> ff = FoFiTrueType::make (program.data (),
                                                             (int) program.size ());
#endif
      if (ff && ff->isOpenTypeCFF ())
        take_cid_map (ff->getCIDToGIDMap (&n), n, out);
    }
}

/* place() stores a glyph's coordinates, and its advance, two at a time. */
static_assert (offsetof (DcBridgeGlyph, y) == offsetof (DcBridgeGlyph, x) + sizeof (double));
static_assert (offsetof (DcBridgeGlyph, dy) == offsetof (DcBridgeGlyph, dx) + sizeof (double));

class GlyphOutputDev : public OutputDev
{
public:
  GlyphOutputDev (DcPdfBridge *bridge) : bridge (bridge)
  {
  }

  /* Everything a device made for the page alone would start with. */
  void
  begin_page (guint new_page, const DcBridgeCallbacks *new_callbacks, gpointer new_user_data)
  {
    page = new_page;
    callbacks = new_callbacks;
    user_data = new_user_data;
    n_glyphs = 0;
    actual_depth = 0;
    actual_first = 0;
    actual_open = false;
    actual_text.clear ();
    type3_scale.clear ();
    closing = false;
    n_closed = 0;
    n_forms = 0;
    in_string = false;
    string.known = false;
    string.geometry_known = false;
    run.n_glyphs = 0;
    run_text_len = 0;
    run_open = false;
  }

  /* Past MAX_PAGE_FORMS, poppler hands every further form to drawForm(), which draws
   * nothing, instead of interpreting it. */
  bool
  useDrawForm () override
  {
    if (n_forms < MAX_PAGE_FORMS)
      return false;
    bridge->too_much_work = true;
    return true;
  }

  void
  beginForm (Ref id) override
  {
    n_forms++;
  }

  /* While the Gfx's marked content left open is closed (close_marked_content()): the
   * closings are counted, and say nothing to the callbacks. */
  void
  begin_closing ()
  {
    closing = true;
    n_closed = 0;
  }

  guint
  end_closing ()
  {
    closing = false;
    return n_closed;
  }

  void
  endMarkedContent (GfxState *state) override
  {
    if (closing)
      n_closed++;
  }

  bool
  upsideDown () override
  {
    return true;
  }
  bool
  useDrawChar () override
  {
    return true;
  }
  bool
  interpretType3Chars () override
  {
    return false;
  }
  bool
  needNonText () override
  {
    return true;
  }

  void
  drawChar (GfxState *state, double x, double y, double dx, double dy, double origin_x,
            double origin_y, CharCode code, int n_bytes, const Unicode *u, int u_len) override
  {
    /* A glyph after the first of its string's run, with one character of text (nearly
     * every glyph), is told here without a call: where drawChar() made calls, it saved
     * and restored the registers they need for every glyph. */
    if (G_LIKELY (run_open && u_len == 1))
      {
        /* Not geometry.drawn: a run is open only after a glyph of its geometry was
         * drawn, and the geometry is worked out again only when a string begins. */
        if (!place (state, x, y, dx, dy, code, n_bytes))
          return;
        add_glyph (code, n_bytes, 1);
        run_text[run_text_len++] = u[0];
        /* Inside a string: string.known says so. */
        if (run.n_glyphs == G_N_ELEMENTS (run_glyphs))
          end_run ();
        return;
      }
    draw_glyph (state, x, y, dx, dy, code, n_bytes, u, u_len);
  }

  /* Where the glyph is on the page and its advance with the spacing taken off, with the
   * string's share of it worked out, into the run's next glyph (its x, y, dx and dy), where
   * there is always room (end_run() makes it): FALSE for a glyph that is not on any page,
   * which add_glyph() then does not count. */
  G_ALWAYS_INLINE bool
  place (GfxState *state, double x, double y, double dx, double dy, CharCode code, int n_bytes)
  {
    DcBridgeGlyph *glyph = &run_glyphs[run.n_glyphs];
    int space = code == 0x20 && n_bytes == 1;

    /* Like TextPage::addChar: the box ends where the glyph ends, not after the spacing. */
    dx -= string.dx2[space];
    dy -= string.dy2[space];
#ifdef __SSE2__
    /* GfxState::transform() and transformDelta() with both coordinates at once, and the
     * test below on all four values in two comparisons: the same products and sums, in
     * the same order, where one at a time they were a third of drawChar()'s work. */
    const double *ctm = &state->getCTM ()[0];
    const __m128d ab = _mm_loadu_pd (&ctm[0]), cd = _mm_loadu_pd (&ctm[2]);
    const __m128d at = _mm_add_pd (_mm_add_pd (_mm_mul_pd (ab, _mm_set1_pd (x)),
                                               _mm_mul_pd (cd, _mm_set1_pd (y))),
                                   _mm_loadu_pd (&ctm[4]));
    const __m128d advance = _mm_add_pd (_mm_mul_pd (ab, _mm_set1_pd (dx)),
                                        _mm_mul_pd (cd, _mm_set1_pd (dy)));
    const __m128d limit = _mm_set1_pd (1e6), sign = _mm_set1_pd (-0.0);

    _mm_storeu_pd (&glyph->x, at);
    _mm_storeu_pd (&glyph->dx, advance);
    /* A damaged or hostile matrix can place a glyph at infinity: such a glyph is not on
     * any page a reader sees, and its numbers would poison every export. One comparison
     * a value: a NaN fails it, an infinity is beyond 1e6. */
    return _mm_movemask_pd (_mm_and_pd (_mm_cmple_pd (_mm_andnot_pd (sign, at), limit),
                                        _mm_cmple_pd (_mm_andnot_pd (sign, advance), limit)))
           == 3;
#else
    state->transformDelta (dx, dy, &glyph->dx, &glyph->dy);
    state->transform (x, y, &glyph->x, &glyph->y);
    return std::fabs (glyph->x) <= 1e6 && std::fabs (glyph->y) <= 1e6
           && std::fabs (glyph->dx) <= 1e6 && std::fabs (glyph->dy) <= 1e6;
#endif
  }

  /* The glyph place() put into the run, its text (@u_len characters) to be added by the
   * caller. */
  G_ALWAYS_INLINE void
  add_glyph (CharCode code, int n_bytes, int u_len)
  {
    DcBridgeGlyph *glyph = &run_glyphs[run.n_glyphs++];

    glyph->code = code;
    glyph->code_len = (guint) n_bytes;
    /* Copied: poppler may write the next glyph's text where this one's is (an identity
     * ToUnicode map). */
    glyph->unicode_at = (guint) run_text_len;
    glyph->unicode_len = u_len > 0 ? u_len : 0;
  }

  /* drawChar() for any glyph. */
  G_NO_INLINE void
  draw_glyph (GfxState *state, double x, double y, double dx, double dy, CharCode code, int n_bytes,
              const Unicode *u, int u_len)
  {
    const std::shared_ptr<GfxFont> &font = state->getFont ();

    if (!font)
      return;
    if (!string.known || !string.geometry_known)
      begin_string (state, font.get ());
    if (!place (state, x, y, dx, dy, code, n_bytes) || !geometry.drawn)
      return;
    if (run.n_glyphs == 0)
      begin_run (state);
    add_glyph (code, n_bytes, u_len);
    if (u_len > 0)
      add_run_text (u, u_len);
    /* Outside a string nothing says the next glyph shares this one's run. */
    if (run.n_glyphs == G_N_ELEMENTS (run_glyphs) || !in_string)
      end_run ();
    else if (string.known && string.geometry_known)
      {
        /* Room for a character for each glyph the run may still take, which drawChar()
         * then adds without asking. */
        if (run_text.size () < run_text_len + G_N_ELEMENTS (run_glyphs))
          run_text.resize (
              std::max (2 * run_text.size (), run_text_len + G_N_ELEMENTS (run_glyphs)));
        run_open = true;
      }
  }

  void
  add_run_text (const Unicode *u, int u_len)
  {
    if (run_text_len + (gsize) u_len > run_text.size ())
      run_text.resize (std::max (2 * run_text.size (), run_text_len + (gsize) u_len));
    std::copy (u, u + u_len, run_text.begin () + run_text_len);
    run_text_len += u_len;
  }

  /* What drawChar() works out at the first glyph of a string for all its glyphs: its
   * font's number, the spacing's displacement and the glyph geometry. */
  void
  begin_string (GfxState *state, GfxFont *font)
  {
    if (!string.known)
      {
        string.font_index = lookup_font (font);
        state->textTransformDelta (state->getCharSpace () * state->getHorizScaling (), 0,
                                   &string.dx2[0], &string.dy2[0]);
        state->textTransformDelta ((state->getCharSpace () + state->getWordSpace ())
                                       * state->getHorizScaling (),
                                   0, &string.dx2[1], &string.dy2[1]);
        string.known = in_string;
      }
    if (!string.geometry_known)
      {
        glyph_geometry (state, font);
        string.geometry_known = in_string;
      }
  }

  /* What the glyphs of the string being drawn share, told once (DcBridgeRun): its font
   * (lookup_font()), its geometry (glyph_geometry()) and the state's render mode. */
  void
  begin_run (GfxState *state)
  {
    run.page = page;
    run.font = string.font_index;
    run.render_mode = state->getRender ();
    run.rotation = geometry.rotation;
    run.upright = FALSE;
    run.font_size = geometry.font_size;
    run.ascent = geometry.ascent;
    run.descent = geometry.descent;
    /* The font lookup_font() was asked about: its column runs along the glyph's own
     * downward axis, a quarter turn on from the direction its baseline would have. */
    if (last_vertical)
      {
        run.rotation = (run.rotation + 1) & 3;
        run.upright = TRUE;
      }
  }

  /* Hands the glyphs of the run on, before anything else is reported and at the end of
   * the string. */
  G_NO_INLINE void
  end_run ()
  {
    if (run.n_glyphs == 0)
      return;
    run.glyphs = run_glyphs;
    run.text = run_text.data ();
    callbacks->run (&run, user_data);
    n_glyphs += run.n_glyphs;
    run.n_glyphs = 0;
    run_text_len = 0;
    run_open = false;
  }

  /* Gfx::doShowText() draws a string's glyphs between these two, with one font, font
   * size, text matrix, CTM, horizontal scaling and character and word spacing: what
   * drawChar() works out from them (its font's number, the spacing's displacement, the
   * glyph geometry) is worked out at the string's first glyph, where it was at each. A
   * line is one string in many PDFs, and comparing the state with that of the glyph
   * before cost a third of drawChar(). */
  void
  beginString (GfxState *state, const GooString *s) override
  {
    end_run ();
    in_string = true;
    string.known = false;
    string.geometry_known = false;
    run_open = false;
  }

  void
  endString (GfxState *state) override
  {
    end_run ();
    in_string = false;
    string.known = false;
    string.geometry_known = false;
    run_open = false;
  }

  /* A producer that reorders or merges glyphs (Pango/cairo for Indic clusters, Word for
   * ligatures) writes the logical text of the run as /ActualText around it. Nested spans
   * say the same thing again: only the outermost counts. */
  void
  beginActualText (GfxState *state, const GooString *text) override
  {
    end_run ();
    if (actual_depth++ > 0 || text == nullptr)
      return;
    actual_first = n_glyphs;
    actual_text.assign (text->c_str (), text->getLength ());
    actual_open = true;
  }

  void
  endActualText (GfxState *state) override
  {
    Unicode *ucs4 = nullptr;
    int len;

    end_run ();
    if (closing)
      return;
    if (actual_depth == 0 || --actual_depth > 0 || !actual_open)
      return;
    actual_open = false;
    if (callbacks->actual_text == nullptr || n_glyphs == actual_first)
      return;
    len = TextStringToUCS4 (actual_text, &ucs4);
    if (len >= 0)
      callbacks->actual_text (page, ucs4, len, n_glyphs - actual_first, user_data);
    gfree (ucs4);
  }

  void
  drawImage (GfxState *state, Object *ref, Stream *str, int width, int height,
             GfxImageColorMap *color_map, bool interpolate, const int *mask_colors,
             bool inline_img) override
  {
    note_image ();
    /* The base class skips the data of inline images so the content parser stays in step. */
    OutputDev::drawImage (state, ref, str, width, height, color_map, interpolate, mask_colors,
                          inline_img);
  }

  void
  drawImageMask (GfxState *state, Object *ref, Stream *str, int width, int height, bool invert,
                 bool interpolate, bool inline_img) override
  {
    note_image ();
    OutputDev::drawImageMask (state, ref, str, width, height, invert, interpolate, inline_img);
  }

  void
  drawMaskedImage (GfxState *state, Object *ref, Stream *str, int width, int height,
                   GfxImageColorMap *color_map, bool interpolate, Stream *mask_str, int mask_width,
                   int mask_height, bool mask_invert, bool mask_interpolate) override
  {
    note_image ();
    OutputDev::drawMaskedImage (state, ref, str, width, height, color_map, interpolate, mask_str,
                                mask_width, mask_height, mask_invert, mask_interpolate);
  }

  void
  drawSoftMaskedImage (GfxState *state, Object *ref, Stream *str, int width, int height,
                       GfxImageColorMap *color_map, bool interpolate, Stream *mask_str,
                       int mask_width, int mask_height, GfxImageColorMap *mask_color_map,
                       bool mask_interpolate) override
  {
    note_image ();
    OutputDev::drawSoftMaskedImage (state, ref, str, width, height, color_map, interpolate,
                                    mask_str, mask_width, mask_height, mask_color_map,
                                    mask_interpolate);
  }

private:
  DcPdfBridge *bridge;
  guint page = 0;
  const DcBridgeCallbacks *callbacks = nullptr;
  gpointer user_data = nullptr;
  bool closing = false;
  guint n_closed = 0;
  guint64 n_forms = 0; /* forms begun on the page */
  /* The glyphs of the page handed on (end_run()): counted a run at a time, where counting
   * each as it is drawn was an instruction of drawChar()'s few. What is counted with it,
   * the glyphs of an actual text, is counted after end_run(). */
  guint n_glyphs = 0;
  guint actual_depth = 0;
  guint actual_first = 0;
  bool actual_open = false;
  std::string actual_text;
  /* lookup_font()'s last answer; no font before the first. */
  const GfxFont *last_font = nullptr;
  Ref last_ref = { -1, -1 };
  guint last_index = 0;
  /* That font's writing mode: asking the font is a virtual call a glyph. */
  bool last_vertical = false;
  /* glyph_geometry()'s last answer and what it was worked out from. */
  struct
  {
    const GfxFont *font = nullptr;
    double from[10] = {};
    int rotation = 0;
    double font_size = 0;
    bool drawn = false; /* a finite size, at most 1e6: else no glyph is reported */
    double ascent = 0;  /* of the box, in page units; ascent != descent */
    double descent = 0;
  } geometry;
  /* Inside a string (beginString()); what drawChar() worked out for it, once known. */
  bool in_string = false;
  struct
  {
    bool known = false;          /* font_index, dx2, dy2 */
    bool geometry_known = false; /* glyph_geometry() was asked */
    guint font_index = 0;
    double dx2[2] = {}, dy2[2] = {}; /* the spacing's displacement: [1] for a space */
  } string;
  /* The glyphs drawn since the last run was handed on (end_run()). A line is one string
   * in many PDFs: handing its glyphs on one by one, each with what they share, cost a
   * third of what reading a glyph cost the bridge and the loader. */
  DcBridgeRun run = {};
  DcBridgeGlyph run_glyphs[256];
  /* A run of the string being drawn is under way, what it shares known (string.known and
   * string.geometry_known), with room in run_text for a character a glyph it may still
   * take: drawChar() adds a glyph of one character without a call. One flag, where
   * drawChar() asked each of these, and the room, at every glyph. */
  bool run_open = false;
  std::vector<gunichar> run_text = std::vector<gunichar> (1024); /* their texts */
  gsize run_text_len = 0;
  /* TextPage's Type 3 size guess scans 256 codes; do it once per font, not per glyph. */
  std::map<const GfxFont *, double> type3_scale;

  void
  note_image ()
  {
    end_run ();
    if (callbacks->image)
      callbacks->image (page, user_data);
  }

  static int
  rotation_of (GfxState *state, GfxFont *font)
  {
    double m[4];
    int rot;

    state->getFontTransMat (&m[0], &m[1], &m[2], &m[3]);
    if (font->getType () == fontType3)
      {
        const double *fm = font->getFontMatrix ();
        double m2[4] = {
          fm[0] * m[0] + fm[1] * m[2],
          fm[0] * m[1] + fm[1] * m[3],
          fm[2] * m[0] + fm[3] * m[2],
          fm[2] * m[1] + fm[3] * m[3],
        };
        memcpy (m, m2, sizeof m);
      }
    if (std::fabs (m[0] * m[3]) > std::fabs (m[1] * m[2]))
      rot = (m[0] > 0 || m[3] < 0) ? 0 : 2;
    else
      rot = (m[2] > 0) ? 1 : 3;
    return rot;
  }

  /* rotation_of() and font_size_of() for the glyph, and the box's ascent and descent
   * at that size. They depend on the font and on the linear parts of the text matrix and
   * the CTM and on the font size alone (GfxState::getFontTransMat(),
   * getTransformedFontSize(), the font's own ascent and descent), which stay the same
   * along a run of text: worked out again only when one of them (or the horizontal
   * scaling, to be safe) changes, where each glyph cost two calls into poppler and their
   * products. A NaN never compares equal, and is worked out again. Compared where they
   * are, and copied only when they changed: copying them first cost ten instructions a
   * glyph (and comparing them bit for bit with memcmp() four more than this loop). */
  void
  glyph_geometry (GfxState *state, GfxFont *font)
  {
    const auto &text_mat = state->getTextMat ();
    const auto &ctm = state->getCTM ();
    bool same = geometry.font == font && state->getFontSize () == geometry.from[8]
                && state->getHorizScaling () == geometry.from[9];

    for (guint i = 0; same && i < 4; i++)
      same = text_mat[i] == geometry.from[i] && ctm[i] == geometry.from[4 + i];
    if (!same)
      {
        geometry.font = font;
        for (guint i = 0; i < 4; i++)
          {
            geometry.from[i] = text_mat[i];
            geometry.from[4 + i] = ctm[i];
          }
        geometry.from[8] = state->getFontSize ();
        geometry.from[9] = state->getHorizScaling ();
        geometry.rotation = rotation_of (state, font);
        geometry.font_size = font_size_of (state, font);
        geometry.drawn = std::isfinite (geometry.font_size) && geometry.font_size <= 1e6;
        geometry.ascent = font->getAscent () * geometry.font_size;
        geometry.descent = font->getDescent () * geometry.font_size;
        if (!std::isfinite (geometry.ascent) || !std::isfinite (geometry.descent))
          geometry.ascent = geometry.font_size, geometry.descent = 0;
        if (geometry.ascent == geometry.descent)
          geometry.ascent = geometry.descent + 1;
      }
  }

  double
  font_size_of (GfxState *state, GfxFont *font)
  {
    double size = state->getTransformedFontSize ();

    if (font->getType () != fontType3)
      return size;

    auto it = type3_scale.find (font);
    if (it == type3_scale.end ())
      it = type3_scale.emplace (font, guess_type3_scale (static_cast<Gfx8BitFont *> (font))).first;
    return size * it->second;
  }

  /* A glyph procedure's content tokens, white space made one space: the same procedure
   * written by another producer's stream writer (other line breaks) is the same glyph.
   * From an inline image's data on (ID), the bytes are kept as they are: a bitmap's
   * bytes may look like white space. Empty when it paints nothing of its own: only
   * d0/d1 (a blank glyph) or an XObject (Do), whose bytes live elsewhere. */
  static std::string
  normalise_char_proc (Object &proc)
  {
    std::string raw, out;
    bool paints = false;
    size_t i = 0;
    int c;

    if (!proc.isStream ())
      return out;
    proc.streamReset ();
    while ((c = proc.streamGetChar ()) != EOF)
      raw.push_back ((char) c);
    proc.streamClose ();

    while (i < raw.size ())
      {
        size_t end = i;
        std::string token;

        if (strchr (" \t\r\n\f", raw[i]) != nullptr || raw[i] == '\0')
          {
            i++;
            continue;
          }
        while (end < raw.size () && strchr (" \t\r\n\f", raw[end]) == nullptr && raw[end] != '\0')
          end++;
        token = raw.substr (i, end - i);
        if (!out.empty ())
          out.push_back (' ');
        out += token;
        i = end;
        if (token == "Do")
          return std::string ();
        if (token == "f" || token == "F" || token == "f*" || token == "B" || token == "B*"
            || token == "b" || token == "b*" || token == "S" || token == "s" || token == "BI"
            || token == "sh")
          paints = true;
        if (token == "ID")
          {
            out.append (raw, i, std::string::npos);
            break;
          }
      }
    return paints ? out : std::string ();
  }

  static bool
  digest_char_procs (Gfx8BitFont *font, std::vector<guint8> &digests)
  {
    bool any = false;

    if (font->getCharProcs () == nullptr)
      return false;
    digests.assign (256 * DC_BRIDGE_TYPE3_DIGEST_LEN, 0);
    for (int code = 0; code < 256; code++)
      {
        Object proc = font->getCharProc (code);
        std::string text = normalise_char_proc (proc);
        guint8 digest[32];
        gsize digest_len = sizeof digest;

        if (text.empty ())
          continue;
        GChecksum *checksum = g_checksum_new (G_CHECKSUM_SHA256);
        g_checksum_update (checksum, (const guchar *) text.data (), (gssize) text.size ());
        g_checksum_get_digest (checksum, digest, &digest_len);
        g_checksum_free (checksum);
        memcpy (&digests[code * DC_BRIDGE_TYPE3_DIGEST_LEN], digest, DC_BRIDGE_TYPE3_DIGEST_LEN);
        any = true;
      }
    return any;
  }

  /* The same guess poppler's TextPage makes, so boxes agree with poppler-glib's. */
  static double
  guess_type3_scale (Gfx8BitFont *font)
  {
    int m_code = -1, letter_code = -1;
    double w;

    for (int code = 0; code < 256; code++)
      {
        const char *name = font->getCharName (code);

        if (name == nullptr || name[0] == '\0' || name[1] != '\0')
          continue;
        if (name[0] == 'm')
          m_code = code;
        if (letter_code < 0 && g_ascii_isalpha (name[0]))
          letter_code = code;
      }
    if (m_code >= 0 && (w = font->getWidth (m_code)) > 0)
      return w / 0.6;
    if (letter_code >= 0 && (w = font->getWidth (letter_code)) > 0)
      return w / 0.5;
    return 1.0;
  }

  guint
  lookup_font (GfxFont *font)
  {
    const Ref *ref = font->getID ();
    guint index;

    /* The font of the glyph before, as a page draws run after run of one font: the maps
     * below give the same number for the same object and reference, and a lookup in
     * them cost more than the rest of drawChar's own work. */
    if (font == last_font && ref->num == last_ref.num && ref->gen == last_ref.gen)
      return last_index;
    index = find_font (font, ref);
    last_font = font;
    last_ref = *ref;
    last_index = index;
    last_vertical = font->getWMode () != 0;
    geometry.font = nullptr;
    return index;
  }

  guint
  find_font (GfxFont *font, const Ref *ref)
  {
    guint index;

    if (ref->num >= 0)
      {
        auto key = std::make_pair (ref->num, ref->gen);
        auto it = bridge->font_ids.find (key);
        if (it != bridge->font_ids.end ())
          return it->second;
        index = bridge->font_ids.size () + bridge->anonymous_fonts.size ();
        bridge->font_ids.emplace (key, index);
        bridge->composite_fonts.emplace (key, font->isCIDFont ());
      }
    else
      {
        auto it = bridge->anonymous_fonts.find (font);
        if (it != bridge->anonymous_fonts.end ())
          return it->second;
        index = bridge->font_ids.size () + bridge->anonymous_fonts.size ();
        bridge->anonymous_fonts.emplace (font, index);
      }

    announce_font (index, font);
    return index;
  }

  /* The font's program and glyph maps (FontWork), as @info's type says to read them. */
  static std::shared_ptr<const FontWork>
  work_out_font (GfxFont *font, const DcBridgeFont &info, XRef *xref, Inflater &inflater)
  {
    auto work = std::make_shared<FontWork> ();
    Ref embedded_id;

    if (font->getEmbeddedFontID (&embedded_id))
      {
        work->program = read_font_program (font, embedded_id, xref, inflater);
        if (work->program && work->program->empty ())
          work->program.reset ();
      }
    if (!work->program)
      return work;
    if (font->isCIDFont ())
      {
        if (static_cast<GfxCIDFont *> (font)->getCIDToGID () == nullptr)
          cff_cid_to_gid (font->getType (), *work->program, work->cid_map);
      }
    else if (info.type == DC_BRIDGE_FONT_TRUETYPE)
      work->has_code_to_gid = truetype_code_to_gid (static_cast<Gfx8BitFont *> (font),
                                                    *work->program, work->code_to_gid);
    else if (info.type == DC_BRIDGE_FONT_TYPE1)
      work->has_code_to_gid = named_code_to_gid (static_cast<Gfx8BitFont *> (font), *work->program,
                                                 work->code_to_gid);
    return work;
  }

  /* work_out_font()'s answer, as the first bridge of the loading to meet the font worked it
   * out. Two bridges meeting it at once both work it out, and keep the first. */
  std::shared_ptr<const FontWork>
  shared_font_work (GfxFont *font, const DcBridgeFont &info)
  {
    FontShare &share = *bridge->font_share;
    auto key = std::make_pair (info.id_num, info.id_gen);
    std::shared_ptr<const FontWork> work;

    if (info.has_id)
      {
        std::lock_guard<std::mutex> hold (share.lock);
        auto it = share.fonts.find (key);
        if (it != share.fonts.end ())
          return it->second;
      }
    work = work_out_font (font, info, bridge->doc->getXRef (), bridge->inflater);
    if (info.has_id)
      {
        std::lock_guard<std::mutex> hold (share.lock);
        return share.fonts.emplace (key, work).first->second;
      }
    return work;
  }

  void
  announce_font (guint index, GfxFont *font)
  {
    DcBridgeFont info = {};
    std::shared_ptr<const FontWork> work;
    const char *names[256];
    std::vector<guint8> type3_digests;

    end_run ();
    /* poppler invents a reference for an inline font dictionary, with a generation
     * number above the five digits a real object can have. */
    const Ref *ref = font->getID ();
    if (ref->num > 0 && ref->gen >= 0 && ref->gen <= 65535)
      {
        info.has_ref = TRUE;
        info.ref_num = ref->num;
        info.ref_gen = ref->gen;
      }
    /* The key lookup_font() files the font under. */
    info.has_id = ref->num >= 0;
    info.id_num = ref->num;
    info.id_gen = ref->gen;

    info.name = font->getName () ? font->getName ()->c_str () : nullptr;
    info.encoding = font->getEncodingName ().c_str ();
    info.has_to_unicode = font->hasToUnicodeCMap ();
    info.writing_mode = font->getWMode ();
    info.ascent = font->getAscent ();
    info.descent = font->getDescent ();

    switch (font->getType ())
      {
      case fontType1:
        info.type = DC_BRIDGE_FONT_TYPE1;
        info.program_kind = "Type1";
        break;
      case fontType1C:
        info.type = DC_BRIDGE_FONT_TYPE1;
        info.program_kind = "CFF";
        break;
      case fontType1COT:
        info.type = DC_BRIDGE_FONT_TYPE1;
        info.program_kind = "OpenType";
        break;
      case fontType3:
        info.type = DC_BRIDGE_FONT_TYPE3;
        break;
      case fontTrueType:
        info.type = DC_BRIDGE_FONT_TRUETYPE;
        info.program_kind = "TrueType";
        break;
      case fontTrueTypeOT:
        info.type = DC_BRIDGE_FONT_TRUETYPE;
        info.program_kind = "OpenType";
        break;
      case fontCIDType0:
        info.type = DC_BRIDGE_FONT_CID_TYPE0;
        info.program_kind = "Type1";
        break;
      case fontCIDType0C:
        info.type = DC_BRIDGE_FONT_CID_TYPE0;
        info.program_kind = "CFF";
        break;
      case fontCIDType0COT:
        info.type = DC_BRIDGE_FONT_CID_TYPE0;
        info.program_kind = "OpenType";
        break;
      case fontCIDType2:
        info.type = DC_BRIDGE_FONT_CID_TYPE2;
        info.program_kind = "TrueType";
        break;
      case fontCIDType2OT:
        info.type = DC_BRIDGE_FONT_CID_TYPE2;
        info.program_kind = "OpenType";
        break;
      default:
        info.type = DC_BRIDGE_FONT_UNKNOWN;
        break;
      }

    work = shared_font_work (font, info);
    if (work->program)
      {
        info.embedded = TRUE;
        info.program = work->program->data ();
        info.program_len = work->program->size ();
      }
    else
      info.program_kind = nullptr;

    if (font->isCIDFont ())
      {
        GfxCIDFont *cid = static_cast<GfxCIDFont *> (font);

        info.cid_to_gid = cid->getCIDToGID ();
        info.cid_to_gid_len = cid->getCIDToGIDLen ();
        if (info.cid_to_gid == nullptr && !work->cid_map.empty ())
          {
            info.cid_to_gid = work->cid_map.data ();
            info.cid_to_gid_len = work->cid_map.size ();
          }
      }
    else
      {
        Gfx8BitFont *simple = static_cast<Gfx8BitFont *> (font);

        for (int code = 0; code < 256; code++)
          names[code] = simple->getCharName (code);
        info.glyph_names = names;
        if (work->has_code_to_gid)
          info.code_to_gid = work->code_to_gid;
        if (info.type == DC_BRIDGE_FONT_TYPE3 && digest_char_procs (simple, type3_digests))
          info.type3_digests = type3_digests.data ();
      }

    callbacks->font (index, &info, user_data);
  }
};

} // namespace

/* looks_like_pdf() for a regular file that can be read, without GIO: the first GFile of a
 * process loads GIO's modules, milliseconds that the SHA-256 thread, which reads the file
 * through GIO anyway, spends meanwhile. FALSE for anything else, which looks_like_pdf()
 * then reads through GIO, for the sentence it has for it. */
static gboolean
read_ends (const char *path, char *head, gsize head_size, gssize *head_length, char *tail,
           gsize tail_size, gssize *tail_length)
{
  GStatBuf info;
  off_t size;
  int fd;

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &info) != 0 || !S_ISREG (info.st_mode))
    {
      g_close (fd, NULL);
      return FALSE;
    }
  do
    *head_length = read (fd, head, head_size);
  while (*head_length < 0 && errno == EINTR);
  size = lseek (fd, 0, SEEK_END);
  *tail_length = -1;
  if (*head_length >= 0 && size >= 0)
    do
      *tail_length = pread (fd, tail, tail_size, MAX (0, size - (off_t) tail_size));
    while (*tail_length < 0 && errno == EINTR);
  g_close (fd, NULL);
  return *head_length >= 0;
}

static gboolean
looks_like_pdf (const char *path, gboolean *has_eof_marker, GError **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *display = g_filename_display_basename (path);
  char head[1024];
  char tail[2048];
  gssize n, n_tail;
  goffset size;

  if (read_ends (path, head, sizeof head - 1, &n, tail, sizeof tail, &n_tail))
    {
      head[n] = '\0';
      if (n < 5 || memmem (head, n, "%PDF-", 5) == NULL)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_NOT_PDF,
                       _("“%s” is not a PDF file. Choose a PDF document to open."), display);
          return FALSE;
        }
      *has_eof_marker = n_tail > 0 && memmem (tail, n_tail, "%%EOF", 5) != NULL;
      return TRUE;
    }

  file = g_file_new_for_path (path);
  stream = g_file_read (file, NULL, &local_error);
  if (stream == NULL)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                   _("“%s” could not be opened: %s."), display, local_error->message);
      return FALSE;
    }

  n = g_input_stream_read (G_INPUT_STREAM (stream), head, sizeof head - 1, NULL, &local_error);
  if (n < 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND,
                   _("“%s” could not be read: %s."), display, local_error->message);
      return FALSE;
    }
  head[n] = '\0';
  if (n < 5 || memmem (head, n, "%PDF-", 5) == NULL)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_PDF,
                   _("“%s” is not a PDF file. Choose a PDF document to open."), display);
      return FALSE;
    }

  *has_eof_marker = FALSE;
  if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_END, NULL, NULL))
    return TRUE;
  size = g_seekable_tell (G_SEEKABLE (stream));
  if (!g_seekable_seek (G_SEEKABLE (stream), MAX (0, size - (goffset) sizeof tail), G_SEEK_SET,
                        NULL, NULL))
    return TRUE;
  n = g_input_stream_read (G_INPUT_STREAM (stream), tail, sizeof tail, NULL, NULL);
  if (n > 0 && memmem (tail, n, "%%EOF", 5) != NULL)
    *has_eof_marker = TRUE;
  return TRUE;
}

/* Files up to this size are read into memory whole (read_contents()). */
#define MAX_CONTENTS (64 << 20)

/* The whole file, for poppler to read from memory; NULL for a file too large, or that
 * could not be read so (poppler then reads it itself, and says what is wrong). Through
 * a FileStream poppler asks the kernel for 256 bytes at a time (fileStreamBufSize): a
 * 500-page book took thirteen thousand pread() calls, a thirtieth of reading it, each
 * bridge of a loading its own. */
static GBytes *
read_contents (const char *path)
{
  g_autofree char *data = NULL;
  GStatBuf info;
  gsize size, done = 0;
  int fd;

  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &info) != 0 || !S_ISREG (info.st_mode) || info.st_size <= 0
      || info.st_size > MAX_CONTENTS)
    {
      g_close (fd, NULL);
      return NULL;
    }
  size = (gsize) info.st_size;
  data = (char *) g_malloc (size);
  _dc_memory_populate (data, size);
  while (done < size)
    {
      gssize n = read (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (gsize) n;
    }
  g_close (fd, NULL);
  /* Changed while being read: poppler reads it as it is then. */
  if (done != size)
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&data), size);
}

/* A file up to this size is read before poppler's globals are made, not meanwhile. */
#define SMALL_FILE (256 * 1024)

static gpointer
make_globals (gpointer data)
{
  return new GlobalParamsIniter (quiet_error_callback);
}

/* poppler's globals, once made, are kept for the rest of the process: made again for
 * each document, they were a fifth of reading a small file in a collection (the
 * collection's readers read one file after another). */
static GlobalParamsIniter *kept_globals;

/* Keeps @initer's hold on the globals for the process, or lets it go when one is
 * kept already. */
static void
keep_globals (GlobalParamsIniter *initer)
{
  if (!g_atomic_pointer_compare_and_exchange (&kept_globals, NULL, initer))
    delete initer;
}

/* GfxState's colour profiles (sRGB, XYZ) are static members poppler makes, unguarded, in
 * the first GfxState: two threads starting their first page at once (the extractor
 * threads of one document, a collection's readers) raced on them (ThreadSanitizer, in
 * test-hostile). One GfxState made here, before any page is read, makes them for the
 * process. */
static void
make_colour_profiles (void)
{
  static gsize made = 0;

  if (g_once_init_enter (&made))
    {
      PDFRectangle box (0, 0, 1, 1);

      {
        GfxState state (72.0, 72.0, &box, 0, true);
      }
      DC_ONCE_LEAVE (&made, 1);
    }
  DC_ONCE_ENTERED (&made);
}

/* A file cut short: its sentence, for a PDF poppler could not open and for one it
 * rebuilt in part alike. */
static void
set_incomplete_error (const char *display, GError **error)
{
  g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
               _("“%s” is incomplete: the file stops before the end of the PDF, as if a "
                 "download or copy was cut short. Open a complete copy of it."),
                  display);
}

/* Why poppler could not open the document, in the user's terms. */
static void
set_open_error (int code, const char *display, gboolean password_given, gboolean has_eof_marker,
                GError **error)
{
  switch (code)
    {
    case errEncrypted:
      if (!password_given)
        g_set_error (error, DC_ERROR, DC_ERROR_ENCRYPTED,
                     _("“%s” is protected by a password. Give its password to open it."), display);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_BAD_PASSWORD,
                     _("The password given for “%s” is not correct. Check it and try again."),
                        display);
      break;
    case errOpenFile:
      g_set_error (error, DC_ERROR, DC_ERROR_NOT_FOUND, _("“%s” could not be opened."), display);
      break;
    default:
      if (!has_eof_marker)
        set_incomplete_error (display, error);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                     _("“%s” is a damaged PDF that cannot be read. Try saving a new copy of it "
                       "from another PDF viewer."),
                        display);
      break;
    }
}

/* Opens a bridge on @path, reading the bytes @contents (another bridge's) or the file's.
 * poppler's globals take milliseconds to make (tables of glyph and character names): the
 * first bridge has them made on a thread of its own while it checks and reads the file,
 * and they are kept for the bridges after it (keep_globals()). */
static DcPdfBridge *
open_bridge (const char *path, GBytes *contents, std::shared_ptr<FontShare> font_share,
             const char *password, GError **error)
{
  g_autofree char *display = NULL;
  std::optional<GooString> owner_password, user_password;
  std::unique_ptr<DcPdfBridge> bridge;
  gboolean has_eof_marker = TRUE;
  GThread *globals = NULL;
  GBytes *bytes;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (contents == NULL && g_atomic_pointer_get (&kept_globals) == NULL)
    {
      GStatBuf info;

      /* A small file is read sooner than a thread starts (issue 32: a one-page `text`
       * paid for three). */
      if (g_stat (path, &info) != 0 || info.st_size > SMALL_FILE)
        globals = g_thread_try_new ("dc-poppler-globals", make_globals, NULL, NULL);
      if (globals == NULL)
        keep_globals ((GlobalParamsIniter *) make_globals (NULL));
    }
  if (!looks_like_pdf (path, &has_eof_marker, error))
    {
      if (globals != NULL)
        keep_globals ((GlobalParamsIniter *) g_thread_join (globals));
      return NULL;
    }
  bytes = contents != NULL ? g_bytes_ref (contents) : read_contents (path);

  display = g_filename_display_basename (path);
  bridge = std::make_unique<DcPdfBridge> ();
  if (globals != NULL)
    keep_globals ((GlobalParamsIniter *) g_thread_join (globals));
  make_colour_profiles ();

  if (password != NULL)
    {
      owner_password.emplace (password);
      user_password.emplace (password);
    }

  DcPdfBridge *raw = bridge.get ();
  bridge->font_share = font_share != nullptr ? std::move (font_share)
                                             : std::make_shared<FontShare> ();
  bridge->contents.reset (bytes);
  if (bridge->contents != nullptr)
    {
      gsize size;
      const char *data = (const char *) g_bytes_get_data (bridge->contents.get (), &size);

      /* PDFDoc takes the stream over; the bytes stay the bridge's. */
      bridge->doc = std::make_unique<PDFDoc> (new MemStream (data, 0, (Goffset) size,
                                                             Object (objNull)),
                                              owner_password, user_password, nullptr,
                                              [raw] () { raw->reconstructed = true; });
    }
  else
    bridge->doc = std::make_unique<PDFDoc> (std::make_unique<GooString> (path), owner_password,
                                            user_password, nullptr,
                                            [raw] () { raw->reconstructed = true; });

  if (!bridge->doc->isOk ())
    {
      set_open_error (bridge->doc->getErrorCode (), display, password != NULL, has_eof_marker,
                      error);
      return NULL;
    }

  /* poppler can often rebuild a cut-off file's index and show the first pages; silently
   * working on part of a document would lose the rest of the user's text, so say so. */
  if (!has_eof_marker && bridge->reconstructed)
    {
      set_incomplete_error (display, error);
      return NULL;
    }

  if (bridge->doc->getNumPages () <= 0)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                   _("“%s” has no pages that can be read. It may be damaged."), display);
      return NULL;
    }

  return bridge.release ();
}

DcPdfBridge *
dc_pdf_bridge_open (const char *path, const char *password, GError **error)
{
  return open_bridge (path, NULL, nullptr, password, error);
}

/* Another bridge on the file @bridge was opened on, for another thread: it reads the
 * bytes @bridge read into memory, if it did, rather than the file again. May be called on
 * any thread while @bridge is open: the bytes are never changed. */
DcPdfBridge *
dc_pdf_bridge_open_again (DcPdfBridge *bridge, const char *path, const char *password,
                          GError **error)
{
  g_return_val_if_fail (bridge != NULL, NULL);

  return open_bridge (path, bridge->contents.get (), bridge->font_share, password, error);
}

void
dc_pdf_bridge_free (DcPdfBridge *bridge)
{
  delete bridge;
}

guint
dc_pdf_bridge_get_n_pages (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, 0);

  return (guint) MAX (0, bridge->doc->getNumPages ());
}

/* Whether the file is encrypted, even with an empty password: what is read from it must
 * then not be written anywhere unencrypted. */
gboolean
dc_pdf_bridge_is_encrypted (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, FALSE);

  return bridge->doc->isEncrypted ();
}

/* The catalog's /Lang (a BCP 47 tag such as "en-GB"), or NULL. A text string may be
 * UTF-16BE with a byte order mark; tags are ASCII, so anything else is no tag. */
char *
dc_pdf_bridge_get_language (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, NULL);

  Object catalog = bridge->doc->getXRef ()->getCatalog ();
  if (!catalog.isDict ())
    return NULL;
  Object lang = catalog.dictLookup ("Lang");
  if (!lang.isString ())
    return NULL;

  const std::string &raw = lang.getString ()->toStr ();
  std::string tag;
  size_t start = 0, step = 1;
  if (raw.size () >= 2 && (guchar) raw[0] == 0xFE && (guchar) raw[1] == 0xFF)
    start = 3, step = 2;
  for (size_t i = start; i < raw.size (); i += step)
    {
      if (step == 2 && raw[i - 1] != '\0')
        return NULL;
      if (!g_ascii_isalnum (raw[i]) && raw[i] != '-' && raw[i] != '_')
        return NULL;
      tag += raw[i] == '_' ? '-' : raw[i];
    }
  if (tag.empty () || tag.size () > 35)
    return NULL;
  return g_strdup (tag.c_str ());
}

gboolean
dc_pdf_bridge_was_reconstructed (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, FALSE);

  return bridge->reconstructed;
}

/* The file's bytes as poppler reads them, read once when the bridge opened; NULL where
 * poppler reads the file itself (one too large, or one that changed while being read). */
GBytes *
dc_pdf_bridge_get_contents (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, NULL);

  return bridge->contents.get ();
}

void
dc_pdf_bridge_get_page_size (DcPdfBridge *bridge, guint page, double *width, double *height)
{
  double w, h;
  int rotate;

  g_return_if_fail (bridge != NULL);

  w = bridge->doc->getPageCropWidth ((int) page + 1);
  h = bridge->doc->getPageCropHeight ((int) page + 1);
  rotate = bridge->doc->getPageRotate ((int) page + 1);
  if (rotate == 90 || rotate == 270)
    std::swap (w, h);
  if (width)
    *width = w;
  if (height)
    *height = h;
}

guint
dc_pdf_bridge_get_n_gfx_made (DcPdfBridge *bridge)
{
  g_return_val_if_fail (bridge != NULL, 0);

  return bridge->n_gfx_made;
}

static bool
abort_check (void *data)
{
  DcPdfBridge *bridge = (DcPdfBridge *) data;

  if (++bridge->n_checks > MAX_PAGE_OPERATIONS)
    bridge->too_much_work = true;
  return bridge->too_much_work
         || (bridge->cancellable != NULL && g_cancellable_is_cancelled (bridge->cancellable));
}

/* Whether two objects of resource dictionaries say the same: the same values, the same
 * references, in the same order. Anything but plain values (a stream, an error) is not
 * compared, and counts as different. */
static bool
same_object (const Object &a, const Object &b, int depth)
{
  if (a.getType () != b.getType () || depth > 16)
    return false;
  switch (a.getType ())
    {
    case objBool:
      return a.getBool () == b.getBool ();
    case objInt:
      return a.getInt () == b.getInt ();
    case objInt64:
      return a.getInt64 () == b.getInt64 ();
    case objReal:
      {
        double x = a.getReal (), y = b.getReal ();

        return memcmp (&x, &y, sizeof x) == 0;
      }
    case objString:
      return a.getString ()->cmp (b.getString ()) == 0;
    case objName:
      return strcmp (a.getName (), b.getName ()) == 0;
    case objNull:
      return true;
    case objRef:
      return a.getRef () == b.getRef ();
    case objArray:
      {
        Array *x = a.getArray (), *y = b.getArray ();

        if (x->getLength () != y->getLength ())
          return false;
        for (int i = 0; i < x->getLength (); i++)
          if (!same_object (x->getNF (i), y->getNF (i), depth + 1))
            return false;
        return true;
      }
    case objDict:
      {
        Dict *x = a.getDict (), *y = b.getDict ();

        if (x->getLength () != y->getLength ())
          return false;
        for (int i = 0; i < x->getLength (); i++)
          if (strcmp (x->getKey (i), y->getKey (i)) != 0
              || !same_object (x->getValNF (i), y->getValNF (i), depth + 1))
            return false;
        return true;
      }
    default:
      return false;
    }
}

static bool
same_box (const PDFRectangle *a, const PDFRectangle *b)
{
  return a->x1 == b->x1 && a->y1 == b->y1 && a->x2 == b->x2 && a->y2 == b->y2;
}

/* Whether the Gfx made for @last would be made again for @page: the same boxes and
 * rotation (its graphics state), and resources that say the same (its fonts, XObjects,
 * colour spaces, graphics states). */
static bool
reusable_gfx (Page *last, Page *page)
{
  if (last == page)
    return true;
  return last->getRotate () == page->getRotate ()
         && same_box (last->getMediaBox (), page->getMediaBox ())
         && same_box (last->getCropBox (), page->getCropBox ())
         && same_object (*last->getResourceDictObject (), *page->getResourceDictObject (), 0);
}

/* What a Gfx made for @page holds, roughly, in units of about 16 KB: one for itself and
 * each simple font of its resources, sixteen for each composite (Type 0) font, whose
 * width, CID → glyph and ToUnicode maps may run to 64K entries each. A font is told by
 * what the device learnt of it when a page drew with it (its dictionary is not read
 * again: reading them cost a seventh of what the Gfxs kept saved); one no page drew
 * with yet counts as composite. */
static guint
gfx_weight (DcPdfBridge *bridge, Page *page)
{
  Dict *resources = page->getResourceDict ();
  guint weight = 1;

  if (resources == nullptr)
    return weight;
  Object fonts = resources->lookup ("Font");
  if (!fonts.isDict ())
    return weight;
  for (int i = 0; i < fonts.dictGetLength (); i++)
    {
      const Object &font = fonts.dictGetValNF (i);
      bool composite = true;

      if (font.isRef ())
        {
          auto it = bridge->composite_fonts.find (
              std::make_pair (font.getRef ().num, font.getRef ().gen));
          composite = it == bridge->composite_fonts.end () || it->second;
        }
      else if (font.isDict ())
        composite = font.dictLookupNF ("Subtype").isName ("Type0");
      weight += composite ? 16 : 1;
    }
  return weight;
}

/* The Gfx to read @page with, moved to the front of the bridge's: a kept one that would be
 * made the same (reusable_gfx()), else a new one, the one used longest ago going when too
 * many are kept. A font without a reference of its own is told apart by its GfxFont
 * (lookup_font()), a new one for each Gfx: once the bridge has met one, no Gfx is kept. */
static Gfx *
gfx_for_page (DcPdfBridge *bridge, Page *page, OutputDev *out)
{
  std::vector<KeptGfx> &gfxs = bridge->gfxs;
  size_t found;

  if (!bridge->anonymous_fonts.empty ())
    gfxs.clear ();
  found = gfxs.size ();
  for (size_t i = 0; i < gfxs.size () && found == gfxs.size (); i++)
    if (reusable_gfx (gfxs[i].page, page))
      found = i;
  if (found == gfxs.size ())
    {
      guint kept = 0;

      /* The ones used longest ago go first: room for the new one, and the others within
       * the budget. */
      for (const KeptGfx &gfx : gfxs)
        kept += gfx.weight;
      while (!gfxs.empty () && (gfxs.size () >= MAX_KEPT_GFX || kept > KEPT_GFX_BUDGET))
        {
          kept -= gfxs.back ().weight;
          gfxs.pop_back ();
        }
      gfxs.push_back (
          KeptGfx{ std::unique_ptr<Gfx> (page->createGfx (out, 72.0, 72.0, 0, false, true, -1, -1,
                                                          -1, -1, false, abort_check, bridge)),
                   page, 0 });
      bridge->n_gfx_made++;
      found = gfxs.size () - 1;
    }
  if (found > 0)
    std::rotate (gfxs.begin (), gfxs.begin () + found, gfxs.begin () + found + 1);
  return gfxs.front ().gfx.get ();
}

/* A content stream decoded by zlib (inflate_whole()) into a stream poppler reads from
 * memory, in the bridge's page buffer @n_used, which it then counts; a null object where
 * inflate_whole() leaves the stream to poppler's own decoder. poppler decodes Flate with a
 * decoder of its own, a byte at a time, and the Lexer asks the stream for each character
 * through it: two thirds of what reading a page's content cost beside drawing it. */
static Object
inflated (DcPdfBridge *bridge, const Object &str, guint &n_used)
{
  gsize length = 0;

  if (n_used == bridge->page_buffers.size ())
    bridge->page_buffers.emplace_back ();
  if (!inflate_whole (str, bridge->inflater, bridge->page_buffers[n_used], length))
    return Object (objNull);
  return Object (static_cast<Stream *> (
      new MemStream (bridge->page_buffers[n_used++].data.get (), 0, (Goffset) length,
                     Object (new Dict (bridge->doc->getXRef ())))));
}

/* The page's contents as poppler would read them, with each Flate stream decoded by
 * zlib (inflated()) into the bridge's page buffers, which hold them until the next page. */
static Object
page_contents (DcPdfBridge *bridge, Page *page)
{
  Object contents = page->getContents ();
  guint n_used = 0;

  if (contents.isStream ())
    {
      Object decoded = inflated (bridge, contents, n_used);

      return decoded.isNull () ? std::move (contents) : std::move (decoded);
    }
  if (contents.isArray ())
    {
      Array *streams = contents.getArray ();
      Array *copy = new Array (bridge->doc->getXRef ());
      bool any = false;

      for (int i = 0; i < streams->getLength (); i++)
        {
          Object element = streams->get (i);
          Object decoded = inflated (bridge, element, n_used);

          any = any || !decoded.isNull ();
          copy->add (decoded.isNull () ? std::move (element) : std::move (decoded));
        }
      Object result (copy);
      if (any)
        return result;
    }
  return contents;
}

/* The page buffers a page as large as this one left are not kept for the next: what a
 * page of text needs is a few hundred kilobytes. */
#define KEPT_PAGE_BUFFER (4u << 20)

static void
trim_page_buffers (DcPdfBridge *bridge)
{
  for (auto &buffer : bridge->page_buffers)
    if (buffer.room > KEPT_PAGE_BUFFER)
      {
        buffer.data.reset ();
        buffer.room = 0;
      }
}

/* A page may leave marked content open (BDC without its EMC), which would hide or tag
 * what the next page draws with the same Gfx: closed here, one EMC at a time until one
 * closes nothing, each counted by the device while the stack holds one. Poppler reports
 * that last EMC as mismatched: one report a page rather than one per EMC sent, and not
 * passed on (see quiet_error_callback()). Returns FALSE when more may be open than
 * @most: the Gfx is then not used again. */
static bool
close_marked_content (DcPdfBridge *bridge, Gfx *gfx, GlyphOutputDev *out)
{
  static const char closing[] = "EMC\n";
  const guint most = 8;
  bool closed_all = false;

  closing_marked_content = true;
  for (guint n = 0; n < most && !closed_all; n++)
    {
      Object stream (
          static_cast<Stream *> (new MemStream (closing, 0, (Goffset) sizeof closing - 1,
                                                Object (new Dict (bridge->doc->getXRef ())))));

      out->begin_closing ();
      gfx->display (&stream);
      closed_all = out->end_closing () == 0;
    }
  closing_marked_content = false;
  return closed_all;
}

gboolean
dc_pdf_bridge_extract_page (DcPdfBridge *bridge, guint page, const DcBridgeCallbacks *callbacks,
                            gpointer user_data, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (bridge != NULL, FALSE);
  g_return_val_if_fail (callbacks != NULL && callbacks->font != NULL, FALSE);
  g_return_val_if_fail (callbacks->run != NULL, FALSE);
  g_return_val_if_fail (page < dc_pdf_bridge_get_n_pages (bridge), FALSE);

  Page *pdf_page = bridge->doc->getPage ((int) page + 1);
  GlyphOutputDev *out;

  if (!bridge->out)
    bridge->out = std::make_unique<GlyphOutputDev> (bridge);
  out = static_cast<GlyphOutputDev *> (bridge->out.get ());
  out->begin_page (page, callbacks, user_data);
  bridge->cancellable = cancellable;
  bridge->n_checks = 0;
  bridge->too_much_work = false;
  if (pdf_page == nullptr)
    {
      /* What PDFDoc::displayPage() does with a page it cannot find: nothing. */
    }
  else
    {
      /* What Page::displaySlice() does, with the Gfx of a page before when it would be
       * the same: the same parameters poppler-glib uses for its text layout, so that
       * coordinates agree. */
      Gfx *gfx = gfx_for_page (bridge, pdf_page, out);

      {
        Object contents = page_contents (bridge, pdf_page);

        if (!contents.isNull ())
          {
            gfx->saveState ();
            gfx->display (&contents);
            gfx->restoreState ();
          }
        else
          out->dump ();
      }
      out->end_run ();
      trim_page_buffers (bridge);
      Annots *annots = pdf_page->getAnnots ();
      if (!annots->getAnnots ().empty ())
        {
          for (const auto &annot : annots->getAnnots ())
            annot->draw (gfx, false);
          out->end_run ();
          out->dump ();
        }
      /* A page cut short leaves the Gfx as it stopped. */
      if (g_cancellable_is_cancelled (cancellable) || bridge->too_much_work
          || !close_marked_content (bridge, gfx, out) || gfx->getState ()->hasSaves ())
        bridge->gfxs.erase (bridge->gfxs.begin ());
      else
        bridge->gfxs.front ().weight = gfx_weight (bridge, pdf_page);
    }
  bridge->cancellable = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (bridge->too_much_work)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                   _("Page %u asks for far more drawing work than any real page (more than "
                     "%" G_GUINT64_FORMAT " forms, or %" G_GUINT64_FORMAT " million operations: "
                     "forms drawn inside forms); Decipher does not read it."),
                      page + 1, MAX_PAGE_FORMS, MAX_PAGE_OPERATIONS / 1000000);
      return FALSE;
    }
  return TRUE;
}

/* The slot of poppler's Adobe Glyph List (name_slots, made when the engine is built:
 * dc-name-slots-gen.cc) holding @name, or the empty one where it would go. */
static guint
name_slot (const char *name)
{
  guint slot = dc_name_hash (name) & (DC_NAME_SLOTS - 1);

  while (name_slots[slot] != 0
         && strcmp (nameToUnicodeTextTab[name_slots[slot] - 1].name, name) != 0)
    slot = (slot + 1) & (DC_NAME_SLOTS - 1);
  return slot;
}

/* Adobe Glyph List names (poppler's table), uniXXXX and uXXXX[XX]; a suffix such as
 * ".sc" or ".alt" names a variant of the same character. Ligature names (f_i) and
 * meaningless names (g12, cid42) give nothing. */
gboolean
dc_pdf_bridge_glyph_name_to_unicode (const char *name, gunichar *out)
{
  g_autofree char *base = NULL;
  char *dot;
  guint slot;

  g_return_val_if_fail (out != NULL, FALSE);

  if (name == NULL || name[0] == '\0' || name[0] == '.')
    return FALSE;

  base = g_strdup (name);
  if ((dot = strchr (base, '.')) != NULL)
    *dot = '\0';
  if (strchr (base, '_') != NULL)
    return FALSE;

  slot = name_slot (base);
  if (name_slots[slot] != 0)
    {
      *out = nameToUnicodeTextTab[name_slots[slot] - 1].u;
      return TRUE;
    }
  if ((g_str_has_prefix (base, "uni") && strlen (base) == 7)
      || (base[0] == 'u' && (strlen (base) == 5 || strlen (base) == 6 || strlen (base) == 7)))
    {
      const char *digits = base[1] == 'n' ? base + 3 : base + 1;
      char *end = NULL;
      guint64 value = g_ascii_strtoull (digits, &end, 16);

      if (end != NULL && *end == '\0' && g_unichar_validate ((gunichar) value) && value >= 0x20)
        {
          *out = (gunichar) value;
          return TRUE;
        }
    }
  return FALSE;
}
