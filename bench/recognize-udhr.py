#!/usr/bin/env python3
# OCR consensus on minority Cyrillic languages (issue 13): Nivkh and Nenets UDHR texts
# typeset in legacy-encoded Cyrillic fonts that are not installed as references, then
# recovered by bench/simulate-user.py --policy recognize (recognize, one accept all,
# What Next?'s words, assigns for what is left). Prints each document's user actions and
# CER; exits 1 when one needs more than --max-actions or does not reach CER 0.
#
# Fonts (neither need be installed; `apt-get download fonts-uralic fonts-paratype` and
# `dpkg -x` them anywhere):
#   --uralic-font  Schoolbook Uralic (fonts-uralic: a real legacy family, its own 8-bit
#                  layout; it has no Nivkh letters, which are then left out of the text)
#   --pt-font      PT Sans (fonts-paratype), whose Nivkh and Nenets letters the
#                  generator's legacy layout puts at free codes
#
# Usage: recognize-udhr.py [DECIPHER_CLI] [--udhr ../shared/udhr] [--uralic-font F]
#        [--pt-font F] [--max-actions 10]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default=os.path.join(ROOT, "_build", "src", "cli", "decipher-cli"))
    ap.add_argument("--udhr", default=os.path.join(ROOT, "..", "shared", "udhr"))
    ap.add_argument("--uralic-font", default="/usr/share/fonts/truetype/uralic/schou___.ttf")
    ap.add_argument("--pt-font", default="/usr/share/fonts/truetype/paratype/PTS55F.ttf")
    ap.add_argument("--max-actions", type=int, default=10)
    args = ap.parse_args()

    env = dict(os.environ, DECIPHER_LIBRARY="", DECIPHER_REFERENCES="")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for lang, kind, font in (("niv", "legacy", args.pt_font), ("yrk", "legacy", args.pt_font),
                                 ("niv", "uralic", args.uralic_font),
                                 ("yrk", "uralic", args.uralic_font)):
            text = os.path.join(args.udhr, f"udhr_{lang}.txt")
            if not os.path.exists(font) or not os.path.exists(text):
                print(f"{lang} in {os.path.basename(font)}: skipped ({font if not os.path.exists(font) else text} is missing)")
                continue
            pdf = os.path.join(tmp, f"{lang}-{kind}.pdf")
            truth = os.path.join(tmp, f"{lang}-{kind}.json")
            gen = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "generate.py"),
                                  "--kind", kind, "--font", font, "--text", text, "--out", pdf,
                                  "--truth", truth], capture_output=True, text=True)
            if gen.returncode != 0:
                print(gen.stderr, file=sys.stderr)
                return 1
            run = subprocess.run([sys.executable, os.path.join(HERE, "simulate-user.py"), args.cli, pdf,
                                  truth, "--policy", "recognize", "--max-actions", str(args.max_actions)],
                                 capture_output=True, text=True, env=env)
            out = run.stdout.strip().splitlines()
            summary = out[-1] if out else run.stderr.strip()
            m = re.search(r"recognize ([\d.]+) s, (\d+) user actions, CER (\S+) = (\S+)", summary)
            size = re.search(r"\d+ pages, \d+ glyphs", gen.stdout + gen.stderr)
            print(f"{lang} ({size.group(0) if size else '?'}) in {os.path.basename(font)} "
                  f"[{kind}]: " + (f"{m.group(2)} user actions, CER {m.group(3)} = {m.group(4)}, "
                                   f"recognize {m.group(1)} s" if m else summary))
            for line in out[:-1]:
                print("   " + line.strip())
            failed += run.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
