/* dc-pdf-writer.cc: the only file that uses qpdf's C++ API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A repaired PDF is the original with new /ToUnicode streams in some font dictionaries,
 * and /ActualText spans around the words a map cannot put in reading order (a ToUnicode
 * gives each glyph its text, but ि is drawn before the क it follows): qpdf rewrites the
 * file keeping every other object, and the original's encryption (same passwords, same
 * permissions), so that the copy is as protected as the document it was made from.
 */

#define G_LOG_DOMAIN "dc-pdf-writer"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

/* qpdf 11 warns unless told how far off its old PointerHolder a program is: this file
 * uses std::shared_ptr only. */
#define POINTERHOLDER_TRANSITION 4

#include <qpdf/Buffer.hh>
#include <qpdf/Constants.h>
#include <qpdf/QPDF.hh>
#include <qpdf/Pl_Buffer.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>
#include <qpdf/QPDFWriter.hh>

#include "dc-error.h"
#include "dc-pdf-writer-private.h"

static std::string
hex_string (const std::string &bytes)
{
  static const char digits[] = "0123456789ABCDEF";
  std::string out = "<";

  for (unsigned char c : bytes)
    {
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  return out + ">";
}

/* /Span <</ActualText <FEFF…>>> BDC: the text as UTF-16BE with its byte order mark. */
static std::string
span_open (const char *text)
{
  glong n_units = 0;
  g_autofree gunichar2 *utf16 = g_utf8_to_utf16 (text, -1, NULL, &n_units, NULL);
  std::string bytes = "\xFE\xFF";

  for (glong i = 0; utf16 != NULL && i < n_units; i++)
    {
      bytes += (char) (utf16[i] >> 8);
      bytes += (char) (utf16[i] & 0xFF);
    }
  return "/Span <</ActualText " + hex_string (bytes) + ">> BDC\n";
}

/* One operator of a content stream with the tokens before it (operands, white space). */
struct Op
{
  std::vector<QPDFTokenizer::Token> tokens; /* the operator last, if any */
  std::string name;                         /* "" for tokens after the last operator */
  guint first_glyph = 0;
  guint n_glyphs = 0;
  /* For text-showing operators: the operands in order (strings and, in TJ, numbers),
   * and each string cut into the glyphs the engine saw. */
  std::vector<const QPDFTokenizer::Token *> items;
  std::vector<std::vector<std::string> > glyphs_of;
  std::vector<const QPDFTokenizer::Token *> numbers_before; /* the aw ac of " */
  int marked = 0; /* +1 opens marked content (BMC, BDC), -1 closes it (EMC) */

  bool
  shows () const
  {
    return name == "Tj" || name == "TJ" || name == "'" || name == "\"";
  }

  bool
  ends_text_object () const
  {
    return name == "BT" || name == "ET";
  }
};

/* Where one span opens and closes: before or after an operator, or inside a text-showing
 * one (which is then cut into several). */
struct Placement
{
  size_t open_op, close_op;
  bool open_inside, close_inside;
};

/* Puts each span's glyphs into a marked-content sequence of its own, copying the rest of
 * one page's content stream token by token. A sequence must nest with the page's own
 * (cairo wraps clusters in /Span BMC … EMC, tagged PDFs use BDC with /MCID) and may not
 * cross a text object's end, so a span widens over the marked content around its glyphs
 * where that makes it nest, and is left out where nothing does. Where the stream does not
 * draw the glyphs the engine saw (text in a form XObject), the page is left as it was. */
class SpanFilter : public QPDFObjectHandle::TokenFilter
{
public:
  SpanFilter (const DcPdfWriterPage *page) : page (page)
  {
  }

  bool
  matched () const
  {
    return matched_glyphs;
  }

  guint
  n_placed () const
  {
    return placed;
  }

  void
  handleToken (QPDFTokenizer::Token const &token) override
  {
    current.tokens.push_back (token);
    if (token.getType () != QPDFTokenizer::tt_word)
      return;
    current.name = token.getValue ();
    if (current.name == "BMC" || current.name == "BDC")
      current.marked = 1;
    else if (current.name == "EMC")
      current.marked = -1;
    else if (current.shows ())
      cut_into_glyphs (current);
    ops.push_back (std::move (current));
    current = Op ();
  }

  void
  handleEOF () override
  {
    ops.push_back (std::move (current));
    matched_glyphs = !failed && cursor == page->n_glyphs;
    if (matched_glyphs)
      place_spans ();
    for (size_t i = 0; i < ops.size (); i++)
      write_op (i);
  }

private:
  const DcPdfWriterPage *page;
  std::vector<Op> ops;
  Op current;
  guint cursor = 0; /* the page's next glyph */
  bool failed = false;
  bool matched_glyphs = false;
  guint placed = 0;
  std::vector<std::vector<guint> > opens_before, closes_after, inside;
  std::vector<Placement> placements; /* per span; open_op == SIZE_MAX when left out */

  void
  cut_into_glyphs (Op &op)
  {
    bool in_array = false;

    op.first_glyph = cursor;
    for (const auto &token : op.tokens)
      switch (token.getType ())
        {
        case QPDFTokenizer::tt_array_open:
          in_array = true;
          break;
        case QPDFTokenizer::tt_array_close:
          in_array = false;
          break;
        case QPDFTokenizer::tt_string:
          op.items.push_back (&token);
          break;
        case QPDFTokenizer::tt_integer:
        case QPDFTokenizer::tt_real:
          (in_array ? op.items : op.numbers_before).push_back (&token);
          break;
        default:
          break;
        }
    op.glyphs_of.resize (op.items.size ());
    for (size_t i = 0; i < op.items.size (); i++)
      {
        const std::string &bytes = op.items[i]->getValue ();
        size_t at = 0;

        if (op.items[i]->getType () != QPDFTokenizer::tt_string)
          continue;
        while (at < bytes.size ())
          {
            if (cursor >= page->n_glyphs || page->code_lens[cursor] == 0
                || at + page->code_lens[cursor] > bytes.size ())
              {
                failed = true;
                return;
              }
            op.glyphs_of[i].push_back (bytes.substr (at, page->code_lens[cursor]));
            at += page->code_lens[cursor];
            cursor++;
          }
      }
    op.n_glyphs = cursor - op.first_glyph;
  }

  size_t
  op_of_glyph (guint glyph) const
  {
    for (size_t i = 0; i < ops.size (); i++)
      if (ops[i].n_glyphs > 0 && glyph < ops[i].first_glyph + ops[i].n_glyphs
          && glyph >= ops[i].first_glyph)
        return i;
    return SIZE_MAX;
  }

  /* Whether the operators from @open (before it, or inside when @open_inside) to @close
   * (after it, or inside) leave marked content as they found it and stay in one text
   * object. */
  bool
  nests (size_t open, bool open_inside, size_t close, bool close_inside) const
  {
    int depth = 0;

    for (size_t i = open; i <= close; i++)
      {
        if ((i == open && open_inside) || (i == close && close_inside))
          continue;
        if (ops[i].ends_text_object ())
          return false;
        depth += ops[i].marked;
        if (depth < 0)
          return false;
      }
    return depth == 0;
  }

  void
  place_spans ()
  {
    size_t free_from = 0; /* the first operator a span may open before */

    opens_before.assign (ops.size (), {});
    closes_after.assign (ops.size (), {});
    inside.assign (ops.size (), {});
    placements.assign (page->n_spans, Placement{ SIZE_MAX, SIZE_MAX, false, false });

    for (guint s = 0; s < page->n_spans; s++)
      {
        const DcPdfWriterSpan *span = &page->spans[s];
        size_t a = op_of_glyph (span->first), b = op_of_glyph (span->first + span->n - 1);
        bool open_inside, close_inside;
        std::vector<size_t> opens, closes;
        bool done = false;

        if (span->n == 0 || a == SIZE_MAX || b == SIZE_MAX || a < free_from)
          continue;
        open_inside = span->first != ops[a].first_glyph;
        close_inside = span->first + span->n != ops[b].first_glyph + ops[b].n_glyphs;

        /* Before the span's first operator, or before marked content opened just before
         * it; after the last, or after marked content closed just after it. */
        opens.push_back (a);
        for (size_t i = a; !open_inside && i-- > free_from;)
          {
            if (ops[i].n_glyphs > 0 || ops[i].ends_text_object () || ops[i].marked < 0)
              break;
            if (ops[i].marked > 0)
              opens.push_back (i);
          }
        closes.push_back (b);
        for (size_t j = b + 1; !close_inside && j < ops.size (); j++)
          {
            if (ops[j].n_glyphs > 0 || ops[j].ends_text_object () || ops[j].marked > 0)
              break;
            if (ops[j].marked < 0)
              closes.push_back (j);
          }

        for (size_t o = 0; o < opens.size () && !done; o++)
          for (size_t c = 0; c < closes.size () && !done; c++)
            {
              bool oi = open_inside && o == 0, ci = close_inside && c == 0;

              if (!nests (opens[o], oi, closes[c], ci))
                continue;
              placements[s] = Placement{ opens[o], closes[c], oi, ci };
              (oi ? inside[opens[o]] : opens_before[opens[o]]).push_back (s);
              if (ci)
                {
                  if (!oi || opens[o] != closes[c])
                    inside[closes[c]].push_back (s);
                }
              else
                closes_after[closes[c]].push_back (s);
              free_from = ci ? closes[c] : closes[c] + 1;
              placed++;
              done = true;
            }
        if (!done)
          g_debug ("page %u: the glyphs %u–%u cross the page's own marked content: no "
                   "/ActualText for them",
                   page->page + 1, span->first, span->first + span->n - 1);
      }
  }

  void
  write_op (size_t i)
  {
    const Op &op = ops[i];

    if (matched_glyphs)
      for (guint s : opens_before[i])
        write ("\n" + span_open (page->spans[s].text));
    if (matched_glyphs && !inside[i].empty ())
      write_cut (i);
    else
      for (const auto &token : op.tokens)
        writeToken (token);
    if (matched_glyphs)
      for (size_t k = closes_after[i].size (); k-- > 0;)
        write ("\nEMC\n");
  }

  /* A text-showing operator cut where spans open or close among its glyphs. */
  void
  write_cut (size_t i)
  {
    const Op &op = ops[i];
    std::string segment;
    bool segment_has_any = false;
    guint glyph = op.first_glyph;
    auto close_segment = [&] () {
      if (segment_has_any)
        write ("[" + segment + "] TJ\n");
      segment.clear ();
      segment_has_any = false;
    };

    write ("\n");
    if (op.name == "\"" && op.numbers_before.size () == 2)
      write (op.numbers_before[0]->getRawValue () + " Tw " + op.numbers_before[1]->getRawValue ()
             + " Tc ");
    if (op.name == "'" || op.name == "\"")
      write ("T*\n");
    for (size_t k = 0; k < op.items.size (); k++)
      {
        if (op.items[k]->getType () != QPDFTokenizer::tt_string)
          {
            segment += " " + op.items[k]->getRawValue () + " ";
            segment_has_any = true;
            continue;
          }
        for (const auto &bytes : op.glyphs_of[k])
          {
            for (guint s : inside[i])
              if (placements[s].open_op == i && placements[s].open_inside
                  && page->spans[s].first == glyph)
                {
                  close_segment ();
                  write (span_open (page->spans[s].text));
                }
            segment += hex_string (bytes);
            segment_has_any = true;
            for (guint s : inside[i])
              if (placements[s].close_op == i && placements[s].close_inside
                  && page->spans[s].first + page->spans[s].n == glyph + 1)
                {
                  close_segment ();
                  write ("EMC\n");
                }
            glyph++;
          }
      }
    close_segment ();
  }
};

/* Marks the spans of each page whose content stream draws exactly the glyphs the engine
 * saw; returns how many pages were marked. */
static guint
mark_spans (QPDF &qpdf, const DcPdfWriterPage *pages, guint n_pages)
{
  std::vector<QPDFPageObjectHelper> all = QPDFPageDocumentHelper (qpdf).getAllPages ();
  guint n_marked = 0;

  for (guint i = 0; i < n_pages; i++)
    {
      if (pages[i].page >= all.size () || pages[i].n_spans == 0)
        continue;
      SpanFilter filter (&pages[i]);
      Pl_Buffer buffer ("actualtext");

      all[pages[i].page].filterContents (&filter, &buffer);
      if (!filter.matched () || filter.n_placed () == 0)
        {
          g_debug ("page %u draws other glyphs than were read: no /ActualText there",
                   pages[i].page + 1);
          continue;
        }
      std::shared_ptr<Buffer> contents = buffer.getBufferSharedPointer ();
      all[pages[i].page]
          .getObjectHandle ()
          .replaceKey ("/Contents",
                       qpdf.newStream (std::string ((const char *) contents->getBuffer (),
                                                    contents->getSize ())));
      n_marked++;
    }
  return n_marked;
}

/**
 * dc_pdf_writer_repair:
 * @pdf: the whole original file
 * @display_name: the file's name, for messages
 * @password: (nullable): the password the document was opened with
 * @fonts: the font dictionaries to change, by their object numbers
 * @pages: the pages whose words need /ActualText
 * @n_pages_marked: (out) (optional): how many of @pages got their spans
 *
 * Returns: (transfer full): the repaired PDF, or %NULL with @error set
 */
GBytes *
dc_pdf_writer_repair (GBytes *pdf, const char *display_name, const char *password,
                      const DcPdfWriterFont *fonts, guint n_fonts, const DcPdfWriterPage *pages,
                      guint n_pages, guint *n_pages_marked, GError **error)
{
  gsize size;
  const char *data;

  g_return_val_if_fail (pdf != NULL, NULL);
  g_return_val_if_fail (display_name != NULL, NULL);
  g_return_val_if_fail (fonts != NULL || n_fonts == 0, NULL);
  g_return_val_if_fail (pages != NULL || n_pages == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = static_cast<const char *> (g_bytes_get_data (pdf, &size));

  try
    {
      QPDF qpdf;

      /* Every oddity of a real-world file would otherwise go to stderr; poppler already
       * read this file, and what qpdf cannot read it reports by throwing. */
      qpdf.setSuppressWarnings (true);
      qpdf.processMemoryFile (display_name, data, size, password);

      for (guint i = 0; i < n_fonts; i++)
        {
          QPDFObjectHandle font = qpdf.getObject (fonts[i].num, fonts[i].gen);

          if (!font.isDictionary ())
            {
              g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                           _("“%s” is damaged in a way that hides where its font “%d %d R” is, "
                             "so no repaired copy was written."),
                              display_name, fonts[i].num, fonts[i].gen);
              return NULL;
            }
          /* A new stream for each font: producers share one ToUnicode between fonts,
           * and only this font's map is known to be wrong. */
          font.replaceKey ("/ToUnicode",
                           qpdf.newStream (std::string (fonts[i].cmap, fonts[i].cmap_len)));
        }

      guint n_marked = mark_spans (qpdf, pages, n_pages);
      if (n_pages_marked != NULL)
        *n_pages_marked = n_marked;

      QPDFWriter writer (qpdf);
      writer.setOutputMemory ();
      writer.setPreserveEncryption (true);
      writer.write ();

      std::shared_ptr<Buffer> out = writer.getBufferSharedPointer ();
      return g_bytes_new (out->getBuffer (), out->getSize ());
    }
  catch (const QPDFExc &e)
    {
      if (e.getErrorCode () == qpdf_e_password)
        g_set_error (error, DC_ERROR, password ? DC_ERROR_BAD_PASSWORD : DC_ERROR_ENCRYPTED,
                     _("“%s” is protected by a password, and the password given does not open "
                       "it: give the password the document was opened with."),
                        display_name);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                     _("“%s” could not be rewritten, so no repaired copy was made: %s."),
                        display_name, e.getMessageDetail ().c_str ());
      return NULL;
    }
  catch (const std::exception &e)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("“%s” could not be rewritten, so no repaired copy was made: %s."),
                      display_name, e.what ());
      return NULL;
    }
}
