#!/usr/bin/env python3
# How far recognition's confidence can be trusted (issue 30): legacy PDFs generated from
# UDHR texts in several scripts and fonts that are installed nowhere on the machine (Debian
# font packages fetched with `apt-get download` and unpacked into a temporary folder,
# never installed), each read by `decipher-cli session` (`recognize` only, no typing);
# every proposal the readings made is compared with the generator's ground truth.
#
# Prints the calibration curve (per confidence band: proposals, how many right, precision)
# and the precision of the proposals at or above 0.5, 0.9 and the automatic threshold;
# with --features also the precision per agreement (k of n readings) from which the
# confidence table in dc-recognize.c was made. Asserts nothing.
#
# Usage: calibrate-recognize.py [DECIPHER_CLI] [--udhr DIR] [--fonts-dir DIR] [--features]
#        [--pages N]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (Debian package, font file inside it, what it is, generator kind or None for the text's)
FONTS = (
    ("fonts-sil-charis", "CharisSIL-Regular.ttf", "serif", None),
    ("fonts-sil-andika", "Andika-Regular.ttf", "sans", None),
    ("fonts-sil-gentiumplus", "GentiumPlus-Regular.ttf", "book serif", None),
    # A real legacy font: its own 8-bit layout, no map (no Nivkh letters: left out).
    ("fonts-uralic", "schou___.ttf", "legacy hacked", "uralic"),
)
# UDHR texts, Latin and Cyrillic, majority and minority languages, with the generator's
# kind: a legacy 8-bit layout keeps ASCII at its codes, so the Latin text is set with
# glyph ids as codes (Identity-H, no map) to leave its letters to recognition.
TEXTS = (("eng", "identity"), ("rus", "legacy"), ("sah", "legacy"), ("evn", "legacy"),
         ("yrk", "legacy"), ("niv", "legacy"))
BANDS = (0.0, 0.15, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)
READ = re.compile(r"read as “(.*)” (\d+) of (\d+) times")


def unpack_fonts(packages, into):
    """Fetches the packages' .deb files and unpacks them under @into; returns the folder."""
    debs = os.path.join(into, "debs")
    root = os.path.join(into, "root")
    os.makedirs(debs, exist_ok=True)
    os.makedirs(root, exist_ok=True)
    subprocess.run(["apt-get", "download"] + list(packages), cwd=debs, check=True,
                   stdout=subprocess.DEVNULL)
    for deb in glob.glob(os.path.join(debs, "*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    return root


def find_font(root, name):
    hits = glob.glob(os.path.join(root, "**", name), recursive=True)
    return hits[0] if hits else None


def proposals(cli, pdf, truth_path, env):
    """(confidence, right, k, n, provenance) for each proposal recognition made."""
    truth = json.load(open(truth_path, encoding="utf-8"))
    untrusted = {i for i, f in enumerate(truth["fonts"]) if not f["trusted"]}
    seen = {g["code"]: g["text"] for p in truth["pages"] for ln in p["lines"]
            for g in ln.get("glyphs", []) if g["font"] in untrusted}
    proc = subprocess.Popen([cli, "session", pdf], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, encoding="utf-8", env=env)

    def ask(**request):
        proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        while "ok" not in reply:
            reply = json.loads(proc.stdout.readline())
        return reply

    ask(cmd="recognize")
    out = []
    for s in ask(cmd="symbols")["symbols"]:
        if s["level"] != "shape" or s["value"] is None or s["code"] not in seen:
            continue
        m = READ.search(s["provenance"] or "")
        k, n = (int(m.group(2)), int(m.group(3))) if m else (0, 0)
        out.append((s["confidence"], s["value"] == seen[s["code"]], k, n, s["provenance"],
                    s["value"], seen[s["code"]]))
    proc.stdin.close()
    proc.wait()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default=os.path.join(ROOT, "_build", "src", "cli", "decipher-cli"))
    ap.add_argument("--udhr", default=os.path.join(ROOT, "..", "..", "shared", "udhr"))
    ap.add_argument("--fonts-dir", help="unpacked font packages (default: fetched anew)")
    ap.add_argument("--features", action="store_true", help="print precision per k of n")
    ap.add_argument("--wrong", action="store_true", help="print every wrong proposal at >= 0.5")
    ap.add_argument("--rows", help="read the proposals from this file if it exists, else save them there")
    ap.add_argument("--automatic", type=float, default=0.99,
                    help="the threshold at which readings are applied without the user")
    args = ap.parse_args()
    if not os.path.isdir(args.udhr):
        args.udhr = os.path.join(ROOT, "..", "shared", "udhr")
    env = dict(os.environ, DECIPHER_LIBRARY="", DECIPHER_REFERENCES="")
    rows = []
    if args.rows and os.path.exists(args.rows):
        rows = [tuple(r) for r in json.load(open(args.rows, encoding="utf-8"))]
    with tempfile.TemporaryDirectory() as tmp:
        if rows:
            fonts_run = ()
        else:
            fonts_run = FONTS
        root = (args.fonts_dir or unpack_fonts([f[0] for f in FONTS], tmp)) if fonts_run else None
        for package, name, kind, font_kind in fonts_run:
            font = find_font(root, name)
            if font is None:
                print(f"{name} ({package}): not found, skipped")
                continue
            for lang, text_kind in TEXTS:
                text = os.path.join(args.udhr, f"udhr_{lang}.txt")
                if not os.path.exists(text):
                    print(f"{lang}: {text} missing, skipped")
                    continue
                pdf = os.path.join(tmp, f"{lang}-{name}.pdf")
                truth = os.path.join(tmp, f"{lang}-{name}.json")
                gen = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "generate.py"),
                                      "--kind", font_kind or text_kind, "--font", font, "--text", text,
                                      "--out", pdf, "--truth", truth], capture_output=True, text=True)
                if gen.returncode != 0:
                    print(f"{lang} in {name}: {gen.stderr.strip()}")
                    continue
                got = proposals(args.cli, pdf, truth, env)
                right = sum(r[1] for r in got)
                print(f"{lang} in {name} ({kind}): {len(got)} proposals, {right} right")
                rows += [(lang, name) + r for r in got]
    if args.rows and not os.path.exists(args.rows):
        json.dump(rows, open(args.rows, "w", encoding="utf-8"), ensure_ascii=False)
    print()
    print("calibration curve (confidence band: proposals, right, precision)")
    for lo, hi in zip(BANDS, BANDS[1:]):
        band = [r for r in rows if lo <= r[2] < hi]
        if band:
            right = sum(r[3] for r in band)
            print(f"  [{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}: {len(band):4d} "
                  f"proposals, {right:4d} right, precision {right / len(band):6.1%}")
    for threshold in (0.5, 0.9, args.automatic):
        above = [r for r in rows if r[2] >= threshold]
        right = sum(r[3] for r in above)
        share = right / len(above) if above else float("nan")
        print(f"at >= {threshold:.2f}: {len(above)} proposals, {right} right, precision {share:.1%}")
    shaped = [r for r in rows if "; shape: " in (r[6] or "")]
    print(f"look-alikes decided by their shape: {len(shaped)}, {sum(r[3] for r in shaped)} right")
    if args.features:
        print()
        print("precision per agreement (k of n readings agree): proposals, right")
        table = collections.defaultdict(lambda: [0, 0])
        for r in rows:
            k, n = r[4], r[5]
            key = (min(k, 8), min(n, 8), "unanimous" if k == n else "split")
            table[key][0] += 1
            table[key][1] += r[3]
        for key in sorted(table):
            total, right = table[key]
            print(f"  k={key[0]} n={key[1]} {key[2]}: {total} proposals, {right} right")
    if args.wrong:
        print()
        for r in rows:
            if not r[3] and r[2] >= 0.5:
                print(f"  {r[0]} in {r[1]}: {r[7]!r} for {r[8]!r} at {r[2]:.2f}: {r[6]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
