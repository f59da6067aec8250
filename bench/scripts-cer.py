#!/usr/bin/env python3
# Character error rate of `decipher-cli text` and of `pdftotext` against the logical-order
# (Unicode, NFC) text of complex-script PDFs made by tests/fixtures/generate-scripts.py.
#
# Usage: scripts-cer.py DECIPHER_CLI [TRUTH.json…]
#   with no TRUTH files: the committed script fixtures (tests/fixtures/script-*.json);
#   --udhr DIR: also typesets the first --lines lines of the UDHR texts in DIR
#   (udhr_hin.txt…) into a temporary folder and measures those; --scripts thai,vai…
#   only those pages, and no fixtures.
#   --words: also typesets common words of scripts and orthographies that have no fixture
#   (WORDS below, written for this benchmark) and measures those.
#   --typing: also recovers each stripped twin (no ToUnicode, no /ActualText) by typing
#   what suggest asks, as bench/simulate-user.py does, and prints the words typed and
#   the CER reached: with no font library and no installed-font references, so that
#   nothing but the typing decodes ("typed"), and as a new user, whose installed fonts
#   decode what they can before the typing starts ("new user": what the identity level
#   gives must not stand in the typing's way).
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
        'mongolian': 'khk_mong', 'mongolian-vertical': 'khk_mong', 'thai': 'tha',
        'ethiopic': 'amh', 'georgian': 'kat', 'armenian': 'hye', 'cherokee': 'chr_cased',
        'syllabics': 'ike', 'vai': 'vai', 'greek-polytonic': 'ell_polytonic'}


# Common words, no corpus text: greetings, book, house, thanks, the languages' names.
WORDS = {
    'malayalam': ['മലയാളം നമസ്കാരം പുസ്തകം', 'വീട് നന്ദി മലയാളം', 'പുസ്തകം വീട് നമസ്കാരം'],
    'gujarati': ['ગુજરાતી નમસ્તે પુસ્તક', 'ઘર આભાર ગુજરાતી', 'પુસ્તક ઘર નમસ્તે'],
    'gurmukhi': ['ਪੰਜਾਬੀ ਸਤ ਸ੍ਰੀ ਅਕਾਲ', 'ਕਿਤਾਬ ਘਰ ਧੰਨਵਾਦ', 'ਪੰਜਾਬੀ ਕਿਤਾਬ ਘਰ'],
    'olchiki': ['ᱥᱟᱱᱛᱟᱲᱤ ᱚᱞ ᱪᱤᱠᱤ', 'ᱚᱞ ᱥᱟᱱᱛᱟᱲᱤ ᱪᱤᱠᱤ', 'ᱪᱤᱠᱤ ᱚᱞ ᱥᱟᱱᱛᱟᱲᱤ'],
    'nko': ['ߒߞߏ ߞߊ߲ ߓߟߏߞߊ߲', 'ߞߊ߲ ߒߞߏ', 'ߓߟߏߞߊ߲ ߒߞߏ ߞߊ߲'],
    'adlam': ['𞤀𞤣𞤤𞤢𞤥 𞤆𞤵𞤤𞤢𞤪', '𞤆𞤵𞤤𞤢𞤪 𞤀𞤣𞤤𞤢𞤥', '𞤀𞤣𞤤𞤢𞤥 𞤀𞤣𞤤𞤢𞤥 𞤆𞤵𞤤𞤢𞤪'],
    'tifinagh': ['ⵜⴰⵎⴰⵣⵉⵖⵜ ⴰⵣⵓⵍ', 'ⴰⵣⵓⵍ ⵜⴰⵎⴰⵣⵉⵖⵜ ⴰⵣⵓⵍ', 'ⵜⴰⵎⴰⵣⵉⵖⵜ ⵜⴰⵎⴰⵣⵉⵖⵜ'],
    'thaana': ['ދިވެހި ބަސް', 'ބަސް ދިވެހި ބަސް', 'ދިވެހި ދިވެހި'],
    'latin:vietnamese': ['Tiếng Việt có sáu thanh điệu khác nhau.', 'Người ở quê tôi trồng lúa và nuôi cá.'],
    'latin-serif:czech': ['Čeština má háčky a čárky nad písmeny.', 'Řeka teče pod mostem k moři.'],
    'latin:lithuanian': ['Lietuvių kalba turi daug senų žodžių.', 'Ąžuolas auga šalia upės kranto.'],
    'latin-serif:hausa': ['Ƙasar Hausa tana da ɗumbin tarihi.', 'Yara suna ɓoye a ƙarƙashin itace.',
                          'Ƴan kasuwa suna sayar da ƙwai.'],
}


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
    # Khanda ta: the older ত + virama + ZWJ and ৎ are one letter (bench/simulate-user.py).
    text = text.replace('\u09a4\u09cd\u200d', '\u09ce')
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


def simulate_typing(cli, stripped, installed_fonts=False):
    """Words typed and CER when bench/simulate-user.py recovers the stripped twin, with
    the user's index of installed fonts or without any."""
    if not os.path.exists(stripped + '.pdf'):
        return '-', '-'
    env = dict(os.environ, DECIPHER_LIBRARY='')
    if not installed_fonts:
        env['DECIPHER_REFERENCES'] = ''
    run = subprocess.run([sys.executable, os.path.join(HERE, 'simulate-user.py'), cli,
                          stripped + '.pdf', stripped + '.json'],
                         capture_output=True, text=True, env=env)
    last = (run.stdout.strip().split('\n') or [''])[-1]
    words = last.split(': policy suggest: ')[-1].split(' words typed')[0]
    cer = last.split('CER ')[-1].split(';')[0].split(' = ')[-1] if 'CER ' in last else '?'
    return words, cer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cli')
    ap.add_argument('truths', nargs='*')
    ap.add_argument('--udhr')
    ap.add_argument('--lines', type=int, default=12)
    ap.add_argument('--typing', action='store_true')
    ap.add_argument('--words', action='store_true')
    ap.add_argument('--scripts', help='with --udhr or --words: only these pages (thai,vai…); '
                    'with no TRUTH files given, then no fixtures either')
    args = ap.parse_args()
    only = args.scripts.split(',') if args.scripts else None
    truths = list(args.truths)
    if not truths and only is None:
        truths = sorted(p for p in glob.glob(os.path.join(FIXTURES, 'script-*.json'))
                        if not p.endswith('-stripped.json'))
    with tempfile.TemporaryDirectory() as tmp:
        if args.udhr:
            for script, code in UDHR.items():
                if only is not None and script not in only:
                    continue
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
        if args.words:
            for key, lines in WORDS.items():
                script, _, name = key.partition(':')
                name = name or script
                if only is not None and name not in only:
                    continue
                body = os.path.join(tmp, name + '.txt')
                out = os.path.join(tmp, 'words-%s.pdf' % name)
                open(body, 'w', encoding='utf-8').write('\n'.join(lines) + '\n')
                subprocess.run([sys.executable, os.path.join(FIXTURES, 'generate-scripts.py'),
                                '--script', script, '--text', body, '--out', out], check=True)
                truths.append(out[:-4] + '.json')
        print(f"{'file':40} {'chars':>6} {'pdftotext':>10} {'decipher':>10}"
              + (f" {'typed':>6} {'typed CER':>10} {'new user':>8} {'CER':>10}" if args.typing
                 else ''))
        for truth in truths:
            n, theirs, ours = measure(args.cli, truth)
            row = f"{os.path.basename(truth)[:-5]:40} {n:6} {theirs:10.4f} {ours:10.4f}"
            if args.typing:
                words, typed_cer = simulate_typing(args.cli, truth[:-5] + '-stripped')
                row += f" {words:>6} {typed_cer:>10}"
                words, typed_cer = simulate_typing(args.cli, truth[:-5] + '-stripped', True)
                row += f" {words:>8} {typed_cer:>10}"
            print(row)


if __name__ == '__main__':
    main()
