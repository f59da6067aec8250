/* bench-poppler-pass.cc: poppler's own pass over a PDF, drawing onto a device that keeps
 * nothing: the floor under `decipher-cli text` (issue 32: text within 1.15× of it)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-poppler-pass FILE.pdf
 *
 * Every page is interpreted with the parameters the engine's bridge uses
 * (dc-pdf-bridge.cc: 72 dpi, upside down, characters one by one, Type 3 glyphs not
 * interpreted, non-text operators too) and each character only counted; it prints the
 * pages and characters. bench/run-poppler-pass.sh times it beside `text`.
 */

#include <cstdio>
#include <memory>

#include <GlobalParams.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <goo/GooString.h>

namespace
{
class CountingOutputDev : public OutputDev
{
public:
  unsigned long n_chars = 0;

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
  drawChar (GfxState *, double, double, double, double, double, double, CharCode, int,
            const Unicode *, int) override
  {
    n_chars++;
  }
};

void
quiet (ErrorCategory, Goffset, const char *)
{
}
} // namespace

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      std::fprintf (stderr, "usage: bench-poppler-pass FILE.pdf\n");
      return 2;
    }
  GlobalParamsIniter initer (quiet);
  PDFDoc doc (std::make_unique<GooString> (argv[1]));
  CountingOutputDev out;

  if (!doc.isOk ())
    {
      std::fprintf (stderr, "bench-poppler-pass: cannot open %s\n", argv[1]);
      return 1;
    }
  for (int page = 1; page <= doc.getNumPages (); page++)
    doc.displayPage (&out, page, 72.0, 72.0, 0, false, true, false);
  std::printf ("pages %d characters %lu\n", doc.getNumPages (), out.n_chars);
  return 0;
}
