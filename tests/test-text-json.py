#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""decipher-cli text --format json: valid against docs/text-json.schema.json, and right
about scripts, directions and languages on the multi-script fixture.

Usage: test-text-json.py DECIPHER_CLI SCHEMA FIXTURES_DIR   (TAP on stdout)
"""

import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print('Bail out! needs python3-jsonschema (see build-aux/debian-packages.txt)')
    sys.exit(1)

cli, schema_path, fixtures = sys.argv[1:4]
with open(schema_path, encoding='utf-8') as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
results = []


def check(name, ok, detail=''):
    results.append((name, ok, detail))


def export(pdf, *extra):
    run = subprocess.run([cli, 'text', '%s/%s' % (fixtures, pdf), '--format', 'json', *extra],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit('Bail out! %s: %s' % (pdf, run.stderr))
    return json.loads(run.stdout)


# Valid on every kind of fixture: decoded, undecoded (no automatic pass), vertical-free
# two columns, interlinear text, several scripts.
for pdf, extra in (('multiscript.pdf', ()), ('igt.pdf', ()), ('two-columns.pdf', ()),
                   ('legacy-cyrillic.pdf', ()), ('legacy-cyrillic.pdf', ('--no-auto',)),
                   ('rotated.pdf', ()), ('identity-h.pdf', ()), ('reading.pdf', ()),
                   ('glyph-names.pdf', ())):
    doc = export(pdf, *extra)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    check('schema %s %s' % (pdf, ' '.join(extra)), not errors,
          errors[0].message + ' at ' + '/'.join(map(str, errors[0].path)) if errors else '')

# Spans are cut where the script changes, punctuation with its neighbours (issue 29).
with open('%s/reading.json' % fixtures, encoding='utf-8') as f:
    reading = json.load(f)
doc = export('reading.pdf')
want = reading['spans']
got = [(s['script'], s['text'].strip()) for l in doc['pages'][want[0]['page'] - 1]['lines']
       for s in l['spans']]
check('spans cut at script changes', got == [(s['script'], s['text']) for s in want], str(got))
check('spans of one script each', all(not s['mixed_script'] for l in doc['pages'][want[0]['page'] - 1]['lines']
                                      for s in l['spans']))
blocks = doc['pages'][want[0]['page'] - 1]['blocks']
page_lines = doc['pages'][want[0]['page'] - 1]['lines']
check('unknown language is und', all(s['language']['tag'] == 'und' and s['language']['source'] == 'none'
                                     for s in page_lines[0]['spans']),
      str([s['language'] for s in page_lines[0]['spans']]))
check('block totals per script', len(blocks) == 2 and blocks[0]['mixed_script']
      and blocks[0]['scripts'][0]['script'] == 'Latn'
      and sorted(s['script'] for s in blocks[0]['scripts']) == ['Cyrl', 'Grek', 'Latn']
      and [s['letters'] for s in blocks[0]['scripts'] if s['script'] == 'Cyrl'] == [4],
      str(blocks))
# The Hebrew line in two fonts: right to left, its spans in logical order, one per font
# run, the bold word's its own; no /Lang, so the detector's word alone (or und).
hebrew = page_lines[1]
check('Hebrew line right to left', hebrew['direction'] == 'rtl' and all(
    s['direction'] == 'rtl' for s in hebrew['spans']), str(hebrew['direction']))
check('Hebrew spans cut at the font change', len(hebrew['spans']) == 3
      and hebrew['spans'][0]['font']['name'] == hebrew['spans'][2]['font']['name']
      != hebrew['spans'][1]['font']['name'] and 'Bold' in hebrew['spans'][1]['font']['name'],
      str([s['font']['name'] for s in hebrew['spans']]))
check('Hebrew spans make the line', ' '.join(s['text'].strip() for s in hebrew['spans'])
      == hebrew['text'], hebrew['text'])
if doc['language_detector']:
    check('Hebrew without /Lang: he from the detector', blocks[1]['language']['tag'] == 'he'
          and blocks[1]['language']['source'] == 'detector'
          and blocks[1]['language']['confidence'] >= 0.6 and not blocks[1]['lang_conflict'],
          str(blocks[1]))
# Tables are blocks of pdftract's kind "table", their rows their lines (reading.pdf: page
# 8 a table between two paragraphs, page 9 a table alone); no other block is one.
doc = export('reading.pdf')
kinds = [[(b['kind'], b['n_lines']) for b in p['blocks']] for p in doc['pages']]
check('table kind on the tables alone', kinds[7] == [(None, 2), ('table', 4), (None, 2)]
      and kinds[8] == [('table', 4)]
      and all(k is None for i, page in enumerate(kinds) if i not in (7, 8) for k, _ in page),
      str(kinds))
doc = export('igt.pdf')
check('no span of punctuation alone in Zyyy', all(s['script'] != 'Zyyy' for p in doc['pages']
                                                  for l in p['lines'] for s in l['spans']))

# A right-to-left line cut into spans by a full stop in another font: each span's text
# is in logical order, a piece of the line's.
for pdf in ('script-hebrew.pdf', 'script-arabic.pdf', 'script-arabic-lamalef.pdf'):
    doc = export(pdf)
    pieces = [(s['text'].strip(), l['text']) for p in doc['pages'] for l in p['lines']
              for s in l['spans']]
    check('%s spans in logical order' % pdf, pieces and all(t in line for t, line in pieces),
          str([t for t, line in pieces if t not in line][:3]))

# --normalize: each span's text in the form asked for, and the form recorded; the text
# formats normalized as a whole.
import unicodedata
for form in ('nfc', 'nfkc', 'nfd'):
    doc = export('reading.pdf', '--normalize', form)
    spans = [s for p in doc['pages'] for l in p['lines'] for s in l['spans']]
    check('--normalize %s recorded' % form, spans and all(s['normalization'] == form.upper() for s in spans))
    check('--normalize %s applied' % form, all(
        s['text'] == unicodedata.normalize(form.upper(), s['text']) for s in spans))
doc = export('reading.pdf', '--normalize', 'nfkc')
check('--normalize nfkc folds full-width forms', any(
    '(1937年)' in s['text'] for p in doc['pages'] for l in p['lines'] for s in l['spans']))
cjk = [s['text'] for p in doc['pages'] for l in p['lines'] for s in l['spans']
       if s['script'] in ('Hani', 'Hira', 'Kana')]
check('CJK spans written together', len(cjk) == 3 and all(' ' not in t for t in cjk), str(cjk))
doc = export('multiscript.pdf', '--normalize', 'nfd')
greek = [s['text'] for p in doc['pages'] for l in p['lines'] for s in l['spans'] if s['script'] == 'Grek']
check('--normalize nfd decomposes', greek and any('\u0301' in t for t in greek))
run = subprocess.run([cli, 'text', '%s/reading.pdf' % fixtures, '--normalize', 'nfkc'],
                     capture_output=True, text=True)
check('txt --normalize nfkc', run.returncode == 0 and '(1937年)' in run.stdout
      and '（１９３７年）' not in run.stdout)
run = subprocess.run([cli, 'text', '%s/reading.pdf' % fixtures, '--normalize', 'nfx'],
                     capture_output=True, text=True)
check('--normalize refuses an unknown form in one sentence', run.returncode == 2
      and 'nfkc' in run.stderr and run.stderr.count('\n') == 1, run.stderr)

# Undecoded glyphs are flagged, run by run, and counted per span.
doc = export('legacy-cyrillic.pdf', '--no-auto')
spans = [s for p in doc['pages'] for l in p['lines'] for s in l['spans']]
undecoded = [r for s in spans for r in s['runs'] if r['undecoded']]
check('undecoded runs flagged', len(undecoded) > 0 and all(
    r['level'] == 'none' and r['text'].strip('\ufffd ') == '' for r in undecoded))
check('undecoded glyphs counted', sum(s['undecoded_glyphs'] for s in spans) > 1000)
decoded = [r for s in spans for r in s['runs'] if not r['undecoded']]
check('decoded header is the PDF\'s', decoded and all(r['level'] == 'pdf' and r['confidence'] == 1.0
                                                       for r in decoded))

# Glyphs left unmapped are warned about, per font (GLYPH_UNMAPPED, issue 28); a document
# with every glyph decoded has none.
warnings = doc['warnings']
check('unmapped warned', len(warnings) > 0 and all(
    w['code'] == 'GLYPH_UNMAPPED' and w['glyphs'] > 0 for w in warnings)
    and sum(w['glyphs'] for w in warnings) == sum(s['undecoded_glyphs'] for s in spans),
    repr(warnings)[:200])
check('nothing unmapped, no warning', export('two-columns.pdf')['warnings'] == [])
names = export('glyph-names.pdf')
check('glyph names are the font level', all(
    r['level'] == 'font' and r['confidence'] == 0.99
    for l in names['pages'][0]['lines'][:3] for s in l['spans'] for r in s['runs']))
check('unknown glyph names warned', [w['font'] for w in names['warnings']] == [1]
      and set([97, 101, 110, 111]) <= set(names['warnings'][0]['codes']), repr(names['warnings']))

# Scripts, directions and languages, paragraph by paragraph.
with open('%s/multiscript.json' % fixtures, encoding='utf-8') as f:
    truth = json.load(f)
doc = export('multiscript.pdf')
check('document /Lang', doc['language'] == truth['lang'], repr(doc['language']))
lines = doc['pages'][0]['lines']
blocks = doc['pages'][0]['blocks']
check('one block per paragraph', len(blocks) == len(truth['paragraphs']), str(len(blocks)))
for i, para in enumerate(truth['paragraphs']):
    mine = [l for l in lines if l['block'] == i]
    spans = [s for l in mine for s in l['spans']]
    name = para['script']
    check('%s lines script' % name, mine and all(l['scripts'] == [para['script']] for l in mine),
          str([l['scripts'] for l in mine]))
    check('%s spans script' % name, spans and all(s['script'] == para['script'] and not s['mixed_script']
                                                  for s in spans))
    check('%s direction' % name, all(s['direction'] == para['direction'] and l['direction'] == para['direction']
                                     for l in mine for s in l['spans']))
    check('%s writing mode' % name, all(s['writing_mode'] == 'horizontal-tb' for s in spans))
    # Text in logical order: the paragraph's own first words begin its first span.
    check('%s logical order' % name, mine[0]['spans'][0]['text'].startswith(para['first_line'][:12]),
          mine[0]['spans'][0]['text'][:20])
    if doc['language_detector']:
        langs = {(s['language']['tag'], s['language']['source']) for s in spans}
        want = 'document+detector' if para['language'] == truth['lang'] else 'detector'
        check('%s language' % name, langs == {(para['language'], want)}, str(langs))
        check('%s confidence' % name, all(s['language']['confidence'] >= 0.9 for s in spans))
        # /Lang en over a Russian, Greek or Hebrew paragraph: a conflict, flagged.
        check('%s lang_conflict' % name, blocks[i]['lang_conflict'] == (para['language'] != truth['lang']),
              str(blocks[i]['lang_conflict']))
    else:
        check('%s language from /Lang' % name, all(s['language']['tag'] == truth['lang'] and
                                                   s['language']['source'] == 'document' for s in spans))

# With the automatic pass, the guessed space and full stop say so.
doc = export('legacy-cyrillic.pdf')
check('text runs carry levels', any(r['level'] == 'guess' for p in doc['pages'] for l in p['lines']
                                    for s in l['spans'] for r in s['runs']))

print('1..%d' % len(results))
for n, (name, ok, detail) in enumerate(results, 1):
    print('%s %d - %s%s' % ('ok' if ok else 'not ok', n, name, (' # ' + detail) if detail and not ok else ''))
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
