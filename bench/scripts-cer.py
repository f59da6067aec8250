#!/usr/bin/env python3
# Character error rate of `decipher-cli text` and of `pdftotext` against the logical-order
# (Unicode, NFC) text of complex-script PDFs made by tests/fixtures/generate-scripts.py.
#
# Usage: scripts-cer.py DECIPHER_CLI [TRUTH.json…]
#   with no TRUTH files: the committed script fixtures (tests/fixtures/script-*.json);
#   --udhr DIR: also typesets the first --lines lines of the UDHR texts in DIR
#   (udhr_hin.txt…) into a temporary folder and measures those.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, '..', 'tests', 'fixtures')
UDHR = {'hindi': 'hin', 'bengali': 'ben', 'tamil': 'tam', 'arabic': 'arb', 'hebrew': 'heb',
        'mongolian': 'khk_mong', 'mongolian-vertical': 'khk_mong'}


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def clean(text):
    # Lines, NFC, no bidi controls (pdftotext wraps RTL lines in them), no empty lines.
    text = ''.join(c for c in text if c not in '\u202a\u202b\u202c\u202d\u202e\u200e\u200f')
    text = unicodedata.normalize('NFC', text.replace('\f', '\n'))
    return '\n'.join(l.strip() for l in text.split('\n') if l.strip())


def cer(expected, got):
    expected, got = clean(expected), clean(got)
    return edit_distance(expected, got) / max(1, len(expected))


def measure(cli, truth_path):
    truth = json.load(open(truth_path, encoding='utf-8'))
    expected = '\n'.join(l['text'] for p in truth['pages'] for l in p['lines'])
    pdf = truth_path[:-5] + '.pdf'
    ours = subprocess.run([cli, 'text', pdf], capture_output=True, text=True).stdout
    theirs = subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True,
                            text=True).stdout
    return len(clean(expected)), cer(expected, theirs), cer(expected, ours)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cli')
    ap.add_argument('truths', nargs='*')
    ap.add_argument('--udhr')
    ap.add_argument('--lines', type=int, default=12)
    args = ap.parse_args()
    truths = args.truths or sorted(p for p in glob.glob(os.path.join(FIXTURES, 'script-*.json'))
                                   if not p.endswith('-stripped.json'))
    with tempfile.TemporaryDirectory() as tmp:
        if args.udhr:
            for script, code in UDHR.items():
                src = os.path.join(args.udhr, 'udhr_%s.txt' % code)
                out = os.path.join(tmp, 'udhr-%s.pdf' % script)
                # The first line of each UDHR file is the language's English name.
                body = os.path.join(tmp, code + '.txt')
                with open(src, encoding='utf-8') as f:
                    open(body, 'w', encoding='utf-8').write(''.join(f.readlines()[1:]))
                subprocess.run([sys.executable, os.path.join(FIXTURES, 'generate-scripts.py'),
                                '--script', script, '--text', body, '--out', out,
                                '--lines', str(args.lines)], check=True)
                truths.append(out[:-4] + '.json')
        print(f"{'file':40} {'chars':>6} {'pdftotext':>10} {'decipher':>10}")
        for truth in truths:
            n, theirs, ours = measure(args.cli, truth)
            print(f"{os.path.basename(truth)[:-5]:40} {n:6} {theirs:10.4f} {ours:10.4f}")


if __name__ == '__main__':
    main()
