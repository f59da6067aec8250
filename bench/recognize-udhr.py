#!/usr/bin/env python3
# A new user decoding legacy PDFs whose fonts are installed nowhere (issues 13 and 30):
# UDHR texts in minority Cyrillic alphabets typeset by tests/fixtures/generate.py in fonts
# fetched from Debian packages with `apt-get download` and unpacked into a temporary
# folder (never installed), then recovered through `decipher-cli session` by
# bench/simulate-user.py, twice: typing only (What Next?'s words) and recognize + one
# "accept all above 50 %" + What Next?'s words + an assign for each glyph still wrong.
# Every accept-all, typed input, resolve and assign is one user action; recognize is free.
# Prints the table of the issue (document, typing only, with recognize, goal) and exits 1
# when a document needs more than --max-actions or does not reach CER 0.
#
# Documents:
#   Nivkh, serif                 Charis SIL (fonts-sil-charis), the generator's legacy
#                                8-bit layout (Russian at windows-1251 codes, the rest free)
#   Nenets, sans, space remapped Andika (fonts-sil-andika), the same layout with the space
#                                at 0x9F, left at the end or start of the lines it broke
#   Evenki, legacy hacked font   Schoolbook Uralic (fonts-uralic): a real legacy font whose
#                                own layout puts its letters at Latin-1 codes, no map
#
# Usage: recognize-udhr.py [DECIPHER_CLI] [--udhr DIR] [--fonts-dir DIR] [--max-actions 10]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (what, UDHR language, Debian package, font file, generator kind, extra generator options)
DOCUMENTS = (
    ("Nivkh, serif", "niv", "fonts-sil-charis", "CharisSIL-Regular.ttf", "legacy", []),
    ("Nenets, sans, space remapped", "yrk", "fonts-sil-andika", "Andika-Regular.ttf", "legacy",
     ["--space-code", "0x9F", "--space-at-edges"]),
    ("Evenki, legacy hacked font", "evn", "fonts-uralic", "schou___.ttf", "uralic", []),
)


def unpack_fonts(packages, into):
    debs = os.path.join(into, "debs")
    root = os.path.join(into, "root")
    os.makedirs(debs, exist_ok=True)
    os.makedirs(root, exist_ok=True)
    subprocess.run(["apt-get", "download"] + list(packages), cwd=debs, check=True,
                   stdout=subprocess.DEVNULL)
    for deb in glob.glob(os.path.join(debs, "*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    return root


def simulate(cli, pdf, truth, policy, max_actions, env):
    cmd = [sys.executable, os.path.join(HERE, "simulate-user.py"), cli, pdf, truth, "--policy", policy]
    if policy == "recognize":
        cmd += ["--max-actions", str(max_actions)]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return run.returncode, run.stdout.strip().splitlines() or [run.stderr.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default=os.path.join(ROOT, "_build", "src", "cli", "decipher-cli"))
    ap.add_argument("--udhr", default=None, help="the UDHR texts (default: shared/udhr near the checkout)")
    ap.add_argument("--fonts-dir", help="font packages already unpacked here (default: fetched anew)")
    ap.add_argument("--max-actions", type=int, default=10)
    args = ap.parse_args()
    udhr = args.udhr or next((d for d in (os.path.join(ROOT, "..", "shared", "udhr"),
                                          os.path.join(ROOT, "..", "..", "shared", "udhr"))
                              if os.path.isdir(d)), None)
    if udhr is None:
        print("no UDHR texts: pass --udhr", file=sys.stderr)
        return 1

    env = dict(os.environ, DECIPHER_LIBRARY="", DECIPHER_REFERENCES="")
    failed = 0
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        root = args.fonts_dir or unpack_fonts(sorted({d[2] for d in DOCUMENTS}), tmp)
        for what, lang, package, name, kind, extra in DOCUMENTS:
            hits = glob.glob(os.path.join(root, "**", name), recursive=True)
            text = os.path.join(udhr, f"udhr_{lang}.txt")
            if not hits or not os.path.exists(text):
                print(f"{what}: skipped ({name} or {text} missing)")
                continue
            pdf = os.path.join(tmp, f"{lang}.pdf")
            truth = os.path.join(tmp, f"{lang}.json")
            gen = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "generate.py"),
                                  "--kind", kind, "--font", hits[0], "--text", text, "--out", pdf,
                                  "--truth", truth] + extra, capture_output=True, text=True)
            if gen.returncode != 0:
                print(gen.stderr, file=sys.stderr)
                return 1
            size = re.search(r"\d+ pages, \d+ glyphs", gen.stderr)
            _, typing = simulate(args.cli, pdf, truth, "suggest", args.max_actions, env)
            m = re.search(r"(\d+) words typed in (\d+) queries.*CER (\S+) = ([\d.]+%)", typing[-1])
            typed = f"{m.group(1)} words ({m.group(2)} inputs), CER {m.group(4)}" if m else typing[-1]
            rc, out = simulate(args.cli, pdf, truth, "recognize", args.max_actions, env)
            m = re.search(r"(\d+) user actions, CER (\S+) = (\S+)", out[-1])
            recognized = f"{m.group(1)} actions, CER {m.group(3)}" if m else out[-1]
            print(f"{what} ({size.group(0) if size else '?'}, {name}): typing only {typed}; "
                  f"with recognize {recognized}")
            for line in out[:-1]:
                print("   " + line.strip())
            table.append((what, typed, recognized))
            failed += rc != 0
    print()
    print(f"| document | typing only | with Recognize + \"Accept all above 50 %\" | goal |")
    print("|---|---|---|---|")
    for what, typed, recognized in table:
        print(f"| {what} | {typed} | {recognized} | ≤ {args.max_actions} actions, CER 0 |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
