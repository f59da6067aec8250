#!/usr/bin/env python3
# Reading order and word splitting on the generated layout pages (issue 29), against
# pdftotext on the same pages: tests/fixtures/reading.pdf, written with its truth
# (reading.json: every page's lines in reading order) by tests/fixtures/generate_layout.py.
#
# Usage: layout-accuracy.py [DECIPHER_CLI] [--pdf reading.pdf --truth reading.json]
#
# Reading order: per page, the longest common subsequence of the output's lines and the
# truth's (lines compared whole, white space runs as one space), over the truth's lines;
# a line read in the wrong place, or merged with another, counts as wrong. Word split:
# the longest common subsequence of the page's words (split at white space), over the
# truth's words; a word split in two or glued to the next counts as wrong. Printed per
# page and overall, for decipher-cli text and for pdftotext.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import re
import subprocess
import unicodedata


def norm(text):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip()


def lcs(a, b):
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, 1):
            cur = row[j]
            row[j] = prev + 1 if x == y else max(row[j], row[j - 1])
            prev = cur
    return row[-1]


def pages_of(text):
    return [[norm(l) for l in page.split("\n") if norm(l)] for page in text.split("\f")]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True,
                          env=dict(os.environ, DECIPHER_LIBRARY="")).stdout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    fixtures = os.path.join(here, "..", "tests", "fixtures")
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?",
                    default=os.path.join(here, "..", "_build", "src", "cli", "decipher-cli"))
    ap.add_argument("--pdf", default=os.path.join(fixtures, "reading.pdf"))
    ap.add_argument("--truth", default=os.path.join(fixtures, "reading.json"))
    args = ap.parse_args()

    truth = [[norm(l["text"]) for l in p["lines"]]
             for p in json.load(open(args.truth, encoding="utf-8"))["pages"]]
    outputs = {"decipher": pages_of(run([args.cli, "text", args.pdf])),
               "pdftotext": pages_of(run(["pdftotext", "-enc", "UTF-8", args.pdf, "-"]))}
    totals = {k: [0, 0, 0, 0] for k in outputs}
    print(f"{'page':>4}  {'order: decipher':>15} {'pdftotext':>9}  {'words: decipher':>15} "
          f"{'pdftotext':>9}")
    for i, want in enumerate(truth):
        words = " ".join(want).split()
        row = []
        for name, pages in outputs.items():
            got = pages[i] if i < len(pages) else []
            in_order = lcs(want, got)
            whole = lcs(words, " ".join(got).split())
            t = totals[name]
            t[0] += in_order
            t[1] += len(want)
            t[2] += whole
            t[3] += len(words)
            row.append((in_order / len(want), whole / len(words)))
        print(f"{i + 1:>4}  {row[0][0]:15.3f} {row[1][0]:9.3f}  {row[0][1]:15.3f} {row[1][1]:9.3f}")
    d, p = totals["decipher"], totals["pdftotext"]
    print(f"{'all':>4}  {d[0] / d[1]:15.3f} {p[0] / p[1]:9.3f}  {d[2] / d[3]:15.3f} {p[2] / p[3]:9.3f}")
    print(f"reading-order accuracy: decipher {d[0] / d[1]:.3f}, pdftotext {p[0] / p[1]:.3f} "
          f"({d[1]} lines); word-split accuracy: decipher {d[2] / d[3]:.3f}, "
          f"pdftotext {p[2] / p[3]:.3f} ({d[3]} words)")


if __name__ == "__main__":
    main()
