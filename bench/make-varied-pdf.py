#!/usr/bin/env python3
# Makes the "varied" book of issue 32: the UDHR texts of ../shared/udhr, each set in
# several of the machine's fonts that cover it (each font a legacy font whose ToUnicode
# lies, as bench/make-bench-pdf.sh sets its one font), their pages merged with qpdf and
# repeated until the book has the glyphs asked for. Many fonts and scripts, where
# make-bench-pdf.sh's book has one font: what the automatic pass, the matcher's index and
# the exports see in a real multilingual collection.
#
# Usage: make-varied-pdf.py OUT.pdf [--glyphs N] [--fonts-per-text K] [--udhr DIR]
#   --glyphs          at least this many glyphs (default 1000000), in whole rounds of
#                     the texts; 9000000 for the "varied ×10" book (the same pages and
#                     fonts over again, within the default limit of 10 M glyphs a document)
#   --fonts-per-text  fonts each text is set in (default 3), chosen in file-name order
#                     among the TrueType fonts under /usr/share/fonts that draw all of it
#   --udhr            the folder of udhr_*.txt (default ../shared/udhr beside the project)
#   --truth OUT.json  also write the book's true lines, page by page, for the session
#                     benchmarks (bench-latency.py): each line's "text" and "glyph_count",
#                     without the generator's per-glyph records (which would take 80 bytes
#                     a glyph, 700 MB for the ×10 book)
#
# Deterministic for one machine's fonts; prints the fonts it used. The UDHR texts are
# read from their folder, never copied into the project. Needs python3 with fontTools
# and qpdf.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATE = os.path.join(HERE, "..", "tests", "fixtures", "generate.py")


def python_with_fonttools():
    for candidate in (sys.executable, "python3", "/usr/bin/python3"):
        if subprocess.run([candidate, "-c", "import fontTools"], capture_output=True).returncode == 0:
            return candidate
    sys.exit("make-varied-pdf.py: needs python3 with fontTools (apt install python3-fonttools)")


def font_cmaps(python):
    """Every TrueType font's characters, by path: read by a helper that has fontTools."""
    helper = r"""
import sys
from fontTools.ttLib import TTFont
for path in sys.stdin.read().split('\n'):
    if not path:
        continue
    try:
        font = TTFont(path, lazy=True, fontNumber=0)
        if 'glyf' not in font:
            continue
        cmap = font.getBestCmap() or {}
        print(path + '\t' + ''.join(chr(c) for c in cmap if c > 32 and not 0xd800 <= c < 0xe000))
    except Exception:
        pass
"""
    paths = sorted(glob.glob("/usr/share/fonts/**/*.ttf", recursive=True))
    out = subprocess.run([python, "-c", helper], input="\n".join(paths), capture_output=True,
                         text=True, encoding="utf-8", errors="surrogatepass", check=True).stdout
    cmaps = {}
    for line in out.split("\n"):
        if "\t" in line:
            path, chars = line.split("\t", 1)
            cmaps[path] = set(chars)
    return cmaps


def glyph_count(report):
    match = re.search(r"(\d+) glyphs", report)
    return int(match.group(1)) if match else 0


def slim_truth(path):
    """A chunk's pages, each line's text and glyph count only."""
    with open(path, encoding="utf-8") as f:
        pages = json.load(f)["pages"]
    return [{"lines": [{"text": line["text"], "glyph_count": len(line["glyphs"])}
                       for line in page["lines"]]} for page in pages]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--glyphs", type=int, default=1000000)
    ap.add_argument("--fonts-per-text", type=int, default=3)
    ap.add_argument("--udhr", default=os.path.join(HERE, "..", "..", "shared", "udhr"))
    ap.add_argument("--truth")
    args = ap.parse_args()

    python = python_with_fonttools()
    texts = sorted(glob.glob(os.path.join(args.udhr, "udhr_*.txt")))
    if not texts:
        sys.exit(f"make-varied-pdf.py: no udhr_*.txt in {args.udhr}; say where with --udhr")
    cmaps = font_cmaps(python)
    work = tempfile.mkdtemp(prefix="varied-")
    chunks, total, truths = [], 0, {}
    for text in texts:
        with open(text, encoding="utf-8") as f:
            needed = {c for c in f.read() if not c.isspace()}
        covering = [path for path in sorted(cmaps) if needed <= cmaps[path]]
        name = os.path.basename(text)[len("udhr_"):-len(".txt")]
        for i, font in enumerate(covering[:args.fonts_per_text]):
            out = os.path.join(work, f"{name}-{i}.pdf")
            truth = ["--truth", out[:-len(".pdf")] + ".json"] if args.truth else []
            # Arabic and Hebrew drawn as they are seen, right to left, as any producer
            # draws them: drawn in the order they are read, from the left, each line
            # showed its words backwards and read as their reverse, so that every query
            # on them found nothing.
            run = subprocess.run([python, GENERATE, "--kind", "legacy", "--text", text,
                                  "--font", font, "--visual-rtl", "--out", out, *truth],
                                 capture_output=True, text=True)
            if run.returncode != 0 or not os.path.exists(out):
                print(f"{name}: {os.path.basename(font)} failed, left out", file=sys.stderr)
                continue
            n = glyph_count(run.stdout + run.stderr)
            chunks.append(out)
            total += n
            if args.truth:
                truths[out] = slim_truth(out[:-len(".pdf")] + ".json")
            print(f"{name}: {os.path.basename(font)}, {n} glyphs")
        if not covering:
            print(f"{name}: no installed font draws all of it, left out", file=sys.stderr)
    if total == 0:
        sys.exit("make-varied-pdf.py: no text could be set")
    rounds = -(-args.glyphs // total)
    pages = [chunk for _ in range(rounds) for chunk in chunks]
    subprocess.run(["qpdf", "--empty", "--pages", *pages, "--", args.out], check=True)
    if args.truth:
        with open(args.truth, "w", encoding="utf-8") as f:
            json.dump({"glyphs": total * rounds,
                       "pages": [page for chunk in pages for page in truths[chunk]]},
                      f, ensure_ascii=False)
    print(f"{args.out}: {len(chunks)} fonts, {total * rounds} glyphs ({rounds} × {total})")


if __name__ == "__main__":
    main()
