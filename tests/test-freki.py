#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""decipher-cli text --format freki on igt.pdf, byte for byte against the text Freki's
own rules (its freki/main.py and freki/serialize.py, v0.3.0) give for the words the
generator drew.

The words' boxes across the line, fonts and sizes come from the generator
(igt.json, "layout"/"words"), as Freki's reader gets them from TET; the respacing,
interlinear scores, font lists, preamble padding, numbering and doc_id are worked out
here from those alone. Only what Freki takes from its own page analysis is read from
Decipher's JSON export: which lines form a block, the block's label (its XY-cut path)
and the boxes' heights; the boxes' x are checked against the generator's.

Usage: test-freki.py DECIPHER_CLI FIXTURES_DIR   (TAP on stdout)
"""

import json
import subprocess
import sys

cli, fixtures = sys.argv[1:3]
results = []

INTERLINEAR_THRESHOLD = 0.6


def check(name, ok, detail=''):
    results.append((name, ok, detail))


def run(*args):
    out = subprocess.run([cli, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit('Bail out! %s: %s' % (' '.join(args), out.stderr))
    return out.stdout


def number(v):
    """A coordinate as Freki prints TET's: at most two decimals, at least one."""
    s = '%.2f' % v
    if s.endswith('0'):
        s = s[:-1]
    return '0.0' if s == '-0.0' else s


def bbox(box, height):
    x0, y0, x1, y1 = box
    return ','.join(number(v) for v in (x0, height - y1, x1, height - y0))


def columnize(words, char_dx, left):
    """Freki's projection: a word nearer the one before than a third of a column is glued
    to it, the others go to the column their left edge rounds to."""
    cols, last_x = [], 0
    for w in words:
        if not cols or (char_dx > 0 and w['x0'] - last_x >= char_dx / 3):
            cols.append([int((w['x0'] - left) / char_dx + 0.5), w['text']])
        else:
            cols[-1][1] += w['text']
        last_x = w['x1']
    return cols


def iscore(cols, above):
    mine = [c for c, _ in cols]
    theirs = set(c for c, _ in above if c >= min(mine))
    if len(mine) > len(theirs):
        mine, theirs = theirs, mine
    return sum(1 for c in mine if c in theirs) / float(len(theirs))


def respace(lines, left):
    words = [w for l in lines for w in l]
    char_dx = sum(w['x1'] - w['x0'] for w in words) / sum(len(w['text']) for w in words)
    groups, prev = [], None
    for l in lines:
        cols = columnize(l, char_dx, left)
        score = iscore(cols, prev) if prev else None
        if score is None or score < INTERLINEAR_THRESHOLD:
            groups.append([(cols, score)])
        else:
            groups[-1].append((cols, score))
        prev = cols
    out = []
    for group in groups:
        at = {}
        for i, (cols, _) in enumerate(group):
            for c, _ in cols:
                at.setdefault(c, []).append(i)
        index = [0] * len(group)
        after = [0] * len(group)
        for c in sorted(at):
            start = max([c] + [after[i] for i in at[c]])
            for i in at[c]:
                cell = group[i][0][index[i]]
                cell[0] = start
                after[i] = start + len(cell[1]) + 1
                index[i] += 1
        for cols, score in group:
            text, last = '', 0
            for c, t in cols:
                text += ' ' * (c - last) + t
                last = c + len(t)
            out.append((text, score))
    return out


with open('%s/igt.json' % fixtures, encoding='utf-8') as f:
    truth = json.load(f)
page_words = truth['layout']['words']
doc = json.loads(run('text', '%s/igt.pdf' % fixtures, '--format', 'json'))
got = run('text', '%s/igt.pdf' % fixtures, '--format', 'freki')

page = doc['pages'][0]
height = page['height']
lines = page['lines']
check('one JSON line per drawn line', len(lines) == len(page_words),
      '%d, not %d' % (len(lines), len(page_words)))
check('the lines in the generator\'s order',
      [l['text'] for l in lines] == [l['text'] for l in truth['pages'][0]['lines']])
check('line boxes across as drawn',
      all(abs(l['bbox'][0] - min(w['x0'] for w in ws)) < 0.01
          and abs(l['bbox'][2] - max(w['x1'] for w in ws)) < 0.01
          for l, ws in zip(lines, page_words)))

left = min(w['x0'] for ws in page_words for w in ws)
blocks, number_ = [], 1
for b, block in enumerate(page['blocks']):
    first, n = block['first_line'], block['n_lines']
    words = [sorted(page_words[i], key=lambda w: w['x0']) for i in range(first, first + n)]
    texts = respace(words, left)
    preambles = []
    for i, (ws, (_, score)) in enumerate(zip(words, texts)):
        fonts = ','.join(sorted(set('%s-%s' % (w['font'], round(float(w['size']), 1)) for w in ws)))
        pre = 'line=%d fonts=%s' % (number_ + i, fonts)
        if score is not None:
            pre += ' iscore=%.2f' % score
        pre += ' bbox=' + bbox(lines[first + i]['bbox'], height)
        preambles.append(pre)
    width = max(len(p) for p in preambles)
    head = 'doc_id=igt page=1 block_id=1-%d bbox=%s label=%s %d %d' % (
        b + 1, bbox(block['bbox'], height), block['label'], number_, number_ + n - 1)
    blocks.append('\n'.join([head] + ['{:<{}}:{}'.format(p, width, t)
                                      for p, (t, _) in zip(preambles, texts)]))
    number_ += n
want = '\n\n'.join(blocks) + '\n'
detail = ''
if got != want:
    for a, b in zip(got.split('\n'), want.split('\n')):
        if a != b:
            detail = 'got  %r\nwant %r' % (a, b)
            break
    else:
        detail = 'lengths %d and %d' % (len(got), len(want))
check('freki text as Freki writes it', got == want, detail)
check('an example\'s gloss line is in its language line\'s group',
      ' iscore=1.00 ' in got)

print('1..%d' % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok and detail:
        for line in detail.split('\n'):
            print('# ' + line)
