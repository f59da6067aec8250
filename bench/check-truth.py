#!/usr/bin/env python3
# Compares decipher-cli's glyphs with a generator ground truth (tests/fixtures/generate.py
# --truth): lines per page and the code sequence of every line. For held-out PDFs made
# from other texts, fonts and languages. Usage: check-truth.py DECIPHER_CLI FILE.pdf TRUTH.json
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import subprocess
import sys

cli, pdf, truth_path = sys.argv[1:4]
truth = json.load(open(truth_path, encoding="utf-8"))
out = subprocess.run([cli, "glyphs", pdf, "--json"], capture_output=True, text=True, check=True).stdout
lines = {}
for record in map(json.loads, out.splitlines()):
    lines.setdefault((record["page"], record["line"]), []).append(record["code"])

pages_ok = lines_ok = glyphs_ok = glyphs_total = 0
problems = []
for p, page in enumerate(truth["pages"], 1):
    ours = sorted(k[1] for k in lines if k[0] == p)
    if len(ours) == len(page["lines"]):
        pages_ok += 1
    else:
        problems.append(f"page {p}: {len(ours)} lines, truth {len(page['lines'])}")
    for i, tl in enumerate(page["lines"]):
        codes = [g["code"] for g in tl.get("glyphs", [])]
        got = lines.get((p, i), [])
        glyphs_total += len(codes)
        if got == codes:
            lines_ok += 1
            glyphs_ok += len(codes)
        elif len(problems) < 5:
            problems.append(f"page {p} line {i}: {len(got)} glyphs vs {len(codes)}: {tl['text'][:60]}")
n_lines = sum(len(pg["lines"]) for pg in truth["pages"])
print(f"{pdf}: pages with right line count {pages_ok}/{len(truth['pages'])}, "
      f"exact lines {lines_ok}/{n_lines}, glyphs in exact lines {glyphs_ok}/{glyphs_total}")
for problem in problems:
    print("  " + problem)
sys.exit(0 if lines_ok == n_lines and pages_ok == len(truth["pages"]) else 1)
