#!/usr/bin/env python3
# Issue 13: the real-world PDFs whose fonts carry neither names nor maps read right after
# `recognize` and one `accept all` in `decipher-cli session` (CER <= 0.05 on the README's
# known answer of ../shared/realworld-pdfs). Without the PDFs every check is skipped.
# Needs the Tesseract data of build-aux/debian-packages.txt (eng, chi_sim).
#
# Usage: test-realworld-recognize.py DECIPHER_CLI SOURCE_ROOT
# SPDX-License-Identifier: GPL-3.0-or-later
import importlib.util
import os
import sys

DONE_WHEN = ["PDFJS-7562-reduced.pdf", "issue3405r.pdf", "issue11131_reduced.pdf",
             "bug1151216.pdf", "bug1027533.pdf"]


def main():
    cli, root = sys.argv[1], sys.argv[2]
    folder = os.environ.get("REALWORLD_PDFS",
                            os.path.join(root, "..", "shared", "realworld-pdfs"))
    readme = os.path.join(folder, "README.md")
    if not os.path.exists(readme):
        print("1..0 # SKIP no real-world PDFs at %s" % folder)
        return 0
    spec = importlib.util.spec_from_file_location(
        "realworld_cer", os.path.join(root, "bench", "realworld-cer.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    answers = bench.parse_answers(readme)
    names = [n for n in DONE_WHEN if n in answers and os.path.exists(os.path.join(folder, n))]
    print("1..%d" % len(names))
    failed = 0
    for i, name in enumerate(names, 1):
        text = bench.recognized_text(cli, os.path.join(folder, name), False, 0.0)
        cer = bench.cer(answers[name], text) if text is not None else 1.0
        ok = text is not None and cer <= 0.05
        failed += not ok
        print("%s %d - %s: CER %.3f after recognize + accept all%s" % (
            "ok" if ok else "not ok", i, name, cer,
            "" if ok else (" (session failed)" if text is None else " (> 0.05)")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
