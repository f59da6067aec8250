#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels are what they say (issue 28, DESIGN §7), through decipher-cli as a process.

Usage: test-levels.py DECIPHER_CLI FIXTURES_DIR   (TAP on stdout)

glyph-names.pdf (tests/fixtures/generate-names.py): font 0 names its glyphs with AGL
names and has no ToUnicode, font 1 has four names the AGL does not know at the codes of
a, e, o and n, font 2 has a ToUnicode that maps e to U+FFFD and o to U+0000.
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
check('AGL names: level font at 0.9', all(
    k['status'] == 'from-pdf' and k['level'] == 'font' and k['confidence'] == 0.9
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
      and keys[2]['e']['level'] == 'font' and keys[2]['o']['confidence'] == 0.9)
check('ToUnicode: the rest is the PDF\'s', keys[2]['v']['level'] == 'pdf' and keys[2]['v']['confidence'] == 1.0)
check('ToUnicode: text', text[6:9] == ['over the hill', 'stone and iron', 'the road goes on'], repr(text[6:9]))
check('ToUnicode: no warning', fonts[2]['warnings'] == [])

print('1..%d' % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print('%s %d %s%s' % ('ok' if ok else 'not ok', i, name, '' if ok else ' # ' + detail))
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
