#!/usr/bin/env python3
# Character error rate with zero typing: `decipher-cli text FILE` next to `pdftotext`,
# on the real-world PDFs whose README says what the page actually says (DESIGN §7: text is
# never worse than pdftotext).
#
# Usage: realworld-cer.py [DECIPHER_CLI] [--dir ../shared/realworld-pdfs] [--no-auto] [--spaces]
#        [--recognize [--min-confidence X]] [--only A.pdf,B.pdf]
#
# --recognize: the text after `recognize` and one `accept all` (above --min-confidence,
# default 0) in `decipher-cli session` (issue 13: OCR consensus), instead of `text`.
#
# The answers are read at run time from the table in the folder's README.md (column "what
# the page actually says"): notes in parentheses are dropped, " / " separates pieces of the
# page, "…" ends an excerpt, and "p.1 'x'; p.2 'y'" quotes what each page says. Nothing
# is copied from there into the project.
#
# CER: a known answer is one or more short excerpts of a page (the README's " / " parts,
# which may stand anywhere on it), so each part is matched against the best place in the
# whole document's text: the edit distance (insertions, deletions, substitutions, one
# each) between the part and the substring of the text closest to it (semi-global
# alignment). The CER is the sum of those distances divided by the answer's length. Both sides are in NFC, and
# whitespace is removed from both first, so that line breaks and the spacing of CJK text
# neither help nor hurt: it measures the characters. 0 is perfect, 1 is nothing right
# (U+FFFD for every glyph gives 1). --spaces counts spaces instead: each run of white
# space is one space on both sides, so a space between two CJK characters is an error.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import re
import subprocess
import sys
import unicodedata


def parse_answers(readme):
    answers = {}
    for line in open(readme, encoding="utf-8"):
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].endswith(".pdf"):
            continue
        said = cells[3]
        if said in ("—", "-", ""):
            continue
        quoted = re.findall(r"p\.\d+ '([^']*)'", said)
        if quoted:
            pieces = quoted
        else:
            said = re.sub(r"\s*\([^)]*\)\s*$", "", said)
            pieces = [p.strip() for p in said.split(" / ")]
            pieces = [p.split("…")[0].strip() for p in pieces]
            pieces = [p for p in pieces if p]
        if pieces:
            answers[cells[0]] = pieces
    return answers


def realworld_folder(root):
    """The folder of the real-world PDFs for the checkout at root: $REALWORLD_PDFS, else
    ../shared/realworld-pdfs beside the checkout (CI lays /work/shared there), else the
    same beside the main checkout of a git worktree. None when none holds a README.md."""
    candidates = [os.environ.get("REALWORLD_PDFS"),
                  os.path.join(root, "..", "shared", "realworld-pdfs")]
    try:
        common = subprocess.run(["git", "-C", root, "rev-parse", "--path-format=absolute",
                                 "--git-common-dir"], capture_output=True, text=True,
                                timeout=30).stdout.strip()
        if common:
            candidates.append(os.path.join(os.path.dirname(common), "..", "shared",
                                           "realworld-pdfs"))
    except (OSError, subprocess.SubprocessError):
        pass
    for folder in candidates:
        if folder and os.path.exists(os.path.join(folder, "README.md")):
            return os.path.normpath(folder)
    return None


def squash(text, spaces=False):
    text = unicodedata.normalize("NFC", text)
    if spaces:
        # Counting spaces: each run of white space is one space, so that a space put
        # between two characters a script writes together (CJK) is an error.
        return re.sub(r"\s+", " ", text).strip()
    return "".join(ch for ch in text if not ch.isspace())


def cer(pieces, text, spaces=False):
    """Summed edit distance of each piece to its best-matching substring of text, per
    character of the pieces."""
    total = sum(len(squash(p, spaces)) for p in pieces)
    if total == 0:
        return 0.0
    return sum(distance(squash(p, spaces), squash(text, spaces)) for p in pieces) / total


def distance(a, t):
    if not a:
        return 0
    # Sellers: free start and end in t.
    prev = list(range(len(a) + 1))
    best = prev[len(a)]
    for ch in t:
        cur = [0] * (len(a) + 1)
        for i in range(1, len(a) + 1):
            cur[i] = min(prev[i - 1] + (a[i - 1] != ch), prev[i] + 1, cur[i - 1] + 1)
        best = min(best, cur[len(a)])
        prev = cur
    return best


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return None
    return out.stdout.decode("utf-8", "replace")


def recognized_text(cli, pdf, no_auto, min_confidence):
    """The session's text after recognize + one accept all, or None."""
    cmd = [cli, "session", pdf] + (["--no-auto"] if no_auto else [])
    lines = [json.dumps({"cmd": "recognize"}),
             json.dumps({"cmd": "accept", "all": True, "min_confidence": min_confidence}),
             json.dumps({"cmd": "text"})]
    try:
        out = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                             timeout=600)
    except subprocess.TimeoutExpired:
        return None
    # A session that ends in error (a crash, a sanitizer's report) failed, whatever it said.
    if out.returncode != 0:
        sys.stderr.write(f"{pdf}: exit status {out.returncode}: {out.stderr[-300:]}\n")
        return None
    replies = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    replies = [r for r in replies if "ok" in r]
    if len(replies) < 3 or not replies[2].get("ok"):
        sys.stderr.write(f"{pdf}: {out.stdout[-300:]} {out.stderr[-300:]}\n")
        return None
    return replies[2]["text"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default=os.path.join(here, "..", "_build", "src", "cli",
                                                           "decipher-cli"))
    ap.add_argument("--dir", default=realworld_folder(os.path.join(here, "..")) or os.path.join(
        here, "..", "..", "shared", "realworld-pdfs"))
    ap.add_argument("--no-auto", action="store_true", help="pass --no-auto to decipher-cli")
    ap.add_argument("--recognize", action="store_true",
                    help="the text after recognize + one accept all in a session")
    ap.add_argument("--min-confidence", type=float, default=0.0)
    ap.add_argument("--only", default="", help="only these files, comma-separated names")
    ap.add_argument("--spaces", action="store_true",
                    help="count spaces: white space runs are one space instead of none")
    args = ap.parse_args()
    # Every run as a new user: no font library (what the machine's own has learned would
    # decode glyphs here) and no document cache, unless the caller names them.
    os.environ.setdefault("DECIPHER_LIBRARY", "")
    os.environ.setdefault("DECIPHER_DOCUMENT_CACHE", "0")

    readme = os.path.join(args.dir, "README.md")
    if not os.path.exists(readme):
        sys.exit(f"No README.md in {args.dir}: give the folder of the real-world PDFs with --dir.")
    answers = parse_answers(readme)

    print(f"{'file':<28} {'decipher':>8} {'pdftotext':>9}  answer")
    worse = []
    totals = [0.0, 0.0]
    for name in sorted(answers):
        pdf = os.path.join(args.dir, name)
        if not os.path.exists(pdf) or (args.only and name not in args.only.split(",")):
            continue
        if args.recognize:
            ours = recognized_text(args.cli, pdf, args.no_auto, args.min_confidence)
        else:
            ours = run([args.cli, "text", pdf] + (["--no-auto"] if args.no_auto else []))
        theirs = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
        c_ours = cer(answers[name], ours, args.spaces) if ours is not None else 1.0
        c_theirs = cer(answers[name], theirs, args.spaces) if theirs is not None else 1.0
        totals[0] += c_ours
        totals[1] += c_theirs
        mark = ""
        if c_theirs <= 0.5 and c_ours > c_theirs:
            mark = "  WORSE than pdftotext"
            worse.append(name)
        if ours is None:
            mark += "  (decipher-cli failed)"
        print(f"{name:<28} {c_ours:8.3f} {c_theirs:9.3f}  {' / '.join(answers[name])[:40]}{mark}")
    n = max(1, len(answers))
    print(f"{'mean':<28} {totals[0] / n:8.3f} {totals[1] / n:9.3f}")
    print(f"files with a known answer: {len(answers)}; worse than a good pdftotext: "
          f"{len(worse)}{' (' + ', '.join(worse) + ')' if worse else ''}")


if __name__ == "__main__":
    main()
