#!/usr/bin/env python3
# Issue 13: the real-world PDFs whose fonts carry neither names nor maps read right after
# `recognize` and one `accept all` in `decipher-cli session` (CER <= 0.05 on the README's
# known answer of ../shared/realworld-pdfs). Without the PDFs the test fails, as
# test-realworld.py does, unless DECIPHER_SKIP_REALWORLD=1 leaves them out.
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
    spec = importlib.util.spec_from_file_location(
        "realworld_cer", os.path.join(root, "bench", "realworld-cer.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    folder = bench.realworld_folder(root)
    if folder is None:
        if os.environ.get("DECIPHER_SKIP_REALWORLD") == "1":
            print("1..0 # SKIP DECIPHER_SKIP_REALWORLD=1: the real-world PDFs are left out")
            return 0
        print("1..1")
        print("not ok 1 - no real-world PDFs at %s: lay the shared folder beside the checkout "
              "(or set REALWORLD_PDFS=DIR), or set DECIPHER_SKIP_REALWORLD=1 to leave them out"
              % os.path.normpath(os.path.join(root, "..", "shared", "realworld-pdfs")))
        return 1
    answers = bench.parse_answers(os.path.join(folder, "README.md"))
    print("1..%d" % len(DONE_WHEN))
    failed = 0
    for i, name in enumerate(DONE_WHEN, 1):
        if name not in answers or not os.path.exists(os.path.join(folder, name)):
            failed += 1
            print("not ok %d - %s: missing from %s or its README" % (i, name, folder))
            continue
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
