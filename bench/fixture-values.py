#!/usr/bin/env python3
# Every value decipher-cli applies or proposes with zero typing on the project's own
# fixtures, checked against their ground truth (tests/fixtures/*.json with glyphs), and
# each fixture's character error rate next to pdftotext's.
#
# Usage: fixture-values.py DECIPHER_CLI [FIXTURE_DIR] [--only a,b]
#
# Run it as a new user would: DECIPHER_LIBRARY= (no library) and DECIPHER_REFERENCES
# pointing to an index of this machine's installed fonts (built on first use).
#
# Per fixture: symbols whose value is used as text (status inferred, from the PDF's own
# trusted map, or confirmed) and how many of those are wrong, by level; proposals and how
# many of them are right; CER of `decipher-cli text` and of `pdftotext` (edit distance on
# the text with white space removed, over the truth's length). A symbol is wrong when its
# value is not the text the truth gives every glyph of that (font, code).
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import unicodedata


def squash(text):
    return "".join(unicodedata.normalize("NFC", text).split())


def distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def cer(text, truth):
    t = squash(truth)
    return distance(squash(text), t) / max(1, len(t))


def run(args):
    return subprocess.run(args, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("dir", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
    ap.add_argument("--only")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None

    totals = collections.Counter()
    by_level = collections.defaultdict(collections.Counter)
    print(f"{'fixture':24} {'applied':>7} {'wrong':>5} {'proposed':>8} {'right':>5} {'CER':>6} {'pdftotext':>9}")
    for truth_path in sorted(glob.glob(os.path.join(args.dir, "*.json"))):
        name = os.path.basename(truth_path)[:-5]
        pdf = truth_path[:-5] + ".pdf"
        if (only and name not in only) or not os.path.exists(pdf):
            continue
        truth = json.load(open(truth_path, encoding="utf-8"))
        if "fonts" not in truth or "pages" not in truth:
            continue
        expected = {}
        ambiguous = set()
        for page in truth["pages"]:
            for line in page["lines"]:
                for g in line.get("glyphs", []):
                    key = (truth["fonts"][g["font"]]["base_font"], g["code"])
                    if expected.setdefault(key, g["text"]) != g["text"]:
                        ambiguous.add(key)
        if not expected:
            continue
        fonts = json.loads(run([args.cli, "fonts", pdf, "--json"]) or "[]")
        counts = collections.Counter()
        wrong_examples = []
        for font in fonts:
            for entry in font.get("key", []):
                key = (font["name"], entry["code"])
                if key not in expected or key in ambiguous:
                    continue
                right = entry["value"] == expected[key]
                if entry["status"] in ("inferred", "from-pdf", "confirmed"):
                    counts["applied"] += 1
                    by_level[entry["level"]]["applied"] += 1
                    if not right:
                        counts["wrong"] += 1
                        by_level[entry["level"]]["wrong"] += 1
                        wrong_examples.append(f"{entry['code']}: {entry['value']!r} for {expected[key]!r} ({entry['provenance']})")
                elif entry["status"] == "proposed":
                    counts["proposed"] += 1
                    counts["proposed right"] += right
        text = run([args.cli, "text", pdf])
        reference = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
        truth_text = "\n".join(line["text"] for page in truth["pages"] for line in page["lines"])
        c, p = cer(text, truth_text), cer(reference, truth_text)
        totals.update(counts)
        print(f"{name:24} {counts['applied']:7} {counts['wrong']:5} {counts['proposed']:8} "
              f"{counts['proposed right']:5} {c:6.3f} {p:9.3f}")
        for example in wrong_examples[:5]:
            print("    wrong " + example)
    print(f"{'total':24} {totals['applied']:7} {totals['wrong']:5} {totals['proposed']:8} {totals['proposed right']:5}")
    for level, c in sorted(by_level.items()):
        print(f"  level {level:10} applied {c['applied']:5}, wrong {c['wrong']}")
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
