#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels are what they say (issue 28, DESIGN §7), through decipher-cli as a process.

Usage: test-levels.py DECIPHER_CLI FIXTURES_DIR   (TAP on stdout)

glyph-names.pdf (tests/fixtures/generate-names.py): font 0 names its glyphs with AGL
names and has no ToUnicode, font 1 has four names the AGL does not know at the codes of
a, e, o and n, font 2 has a ToUnicode that maps e to U+FFFD and o to U+0000.
ascii-legacy.pdf (generate.py): an untrusted font whose cmap repeats the PDF's lie.
"""

import json
import subprocess
import sys

cli, fixtures = sys.argv[1:3]
pdf = '%s/glyph-names.pdf' % fixtures
results = []


def check(name, ok, detail=''):
    results.append((name, ok, detail))


def run(*args):
    done = subprocess.run([cli, *args], capture_output=True, text=True)
    if done.returncode != 0:
        print('Bail out! %s: %s' % (' '.join(args), done.stderr.strip()))
        sys.exit(1)
    return done.stdout


fonts = json.loads(run('fonts', pdf, '--json'))
keys = [{k['glyph_name']: k for k in f['key']} for f in fonts]

# Font 0: every value is the font's (its glyph names), not the PDF's.
check('AGL names: trusted', fonts[0]['trusted'] is True)
check('AGL names: level font at its measured 0.99', all(
    k['status'] == 'from-pdf' and k['level'] == 'font' and k['confidence'] == 0.99
    for k in fonts[0]['key']), repr(fonts[0]['key'][:2]))
check('AGL names: values', keys[0]['uni0430']['value'] == 'а' and keys[0]['afii10066']['value'] == 'б'
      and keys[0]['u0433']['value'] == 'г' and keys[0]['f_i']['value'] == 'fi')
check('AGL names: no warning', fonts[0]['warnings'] == [])

# Font 1: unknown names give no text, and the font is not believed.
unknown = ['uniD800', 'u110000', 'g123', 'ka_ka']
check('unknown names: not trusted', fonts[1]['trusted'] is False, fonts[1].get('reason', ''))
check('unknown names: no value', all(keys[1][n]['value'] is None for n in unknown),
      repr([keys[1][n] for n in unknown]))
glyphs = [json.loads(line) for line in run('glyphs', pdf, '--json').splitlines() if line]
named = [g for g in glyphs if g['glyph_name'] in unknown]
check('unknown names: not ASCII letters', named and all(g['pdf_text'] == '' for g in named),
      repr(named[:2]))
warnings = fonts[1]['warnings']
check('unknown names: GLYPH_UNMAPPED', len(warnings) == 1 and warnings[0]['code'] == 'GLYPH_UNMAPPED'
      and {97, 101, 110, 111} <= set(warnings[0]['codes']) and warnings[0]['message'],
      repr(warnings))
text = run('text', pdf).split('\n')
check('unknown names: U+FFFD, not the codes\' letters',
      all(not any(c in line for c in 'aeon') for line in text[3:6]), repr(text[3:6]))

# Font 2: the ToUnicode's U+FFFD and U+0000 fall back to the glyph names, code by code.
check('ToUnicode U+FFFD/U+0000: still trusted', fonts[2]['trusted'] is True, fonts[2].get('reason', ''))
check('ToUnicode U+FFFD/U+0000: names decide', keys[2]['e']['value'] == 'e' and keys[2]['o']['value'] == 'o'
      and keys[2]['e']['level'] == 'font' and keys[2]['o']['confidence'] == 0.99)
check('ToUnicode: the rest is the PDF\'s', keys[2]['v']['level'] == 'pdf' and keys[2]['v']['confidence'] == 1.0)
check('ToUnicode: text', text[6:9] == ['over the hill', 'stone and iron', 'the road goes on'], repr(text[6:9]))
check('ToUnicode: no warning', fonts[2]['warnings'] == [])

# ascii-legacy.pdf (generate.py): a home-made Nenets font with its Cyrillic letters at
# ASCII codes, whose cmap and glyph names say those ASCII characters (< for а), as the
# PDF's text does (issue 31). The trust analysis rejects the font: its cmap, which only
# repeats that text, lends nothing above the threshold of what is applied by itself.
AUTOMATIC_CONFIDENCE = 0.6  # DC_KEY_AUTOMATIC_CONFIDENCE
legacy = '%s/ascii-legacy.pdf' % fixtures
legacy_fonts = json.loads(run('fonts', legacy, '--json'))
check('untrusted cmap: the font is not trusted', legacy_fonts[0]['trusted'] is False,
      repr(legacy_fonts[0].get('reason')))
replies = [json.loads(line) for line in subprocess.run(
    [cli, 'session', legacy], input='{"cmd":"symbols"}\n'
    '{"cmd":"accept","all":true,"min_confidence":%s}\n{"cmd":"symbols"}\n' % AUTOMATIC_CONFIDENCE,
    capture_output=True, text=True, check=True).stdout.splitlines() if line]
symbols = replies[0]['symbols']
from_cmap = [s for s in symbols if (s.get('provenance') or '').startswith('font: ')]
check('untrusted cmap: its values are proposals', len(from_cmap) >= 30
      and all(s['status'] == 'proposed' for s in from_cmap), repr(from_cmap[:2]))
check('untrusted cmap: below the threshold', all(s['confidence'] < AUTOMATIC_CONFIDENCE
                                                 for s in from_cmap),
      repr([s for s in from_cmap if s['confidence'] >= AUTOMATIC_CONFIDENCE][:2]))
check('untrusted cmap: the reason is given', all('trust analysis rejected' in s['provenance']
                                                 for s in from_cmap), repr(from_cmap[:1]))
check('untrusted cmap: nothing above the threshold', all(
    s['confidence'] < AUTOMATIC_CONFIDENCE for s in symbols
    if s['status'] == 'proposed' or s['level'] == 'font'), repr(symbols[:2]))
after = {s['symbol']: s for s in replies[2]['symbols']}
check('untrusted cmap: accepting all above the threshold takes none of it',
      all(after[s['symbol']]['status'] == 'proposed' for s in from_cmap), repr(replies[1]))

print('1..%d' % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print('%s %d %s%s' % ('ok' if ok else 'not ok', i, name, '' if ok else ' # ' + detail))
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
