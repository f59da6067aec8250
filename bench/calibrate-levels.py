#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Calibration of the evidence levels (DESIGN §7, issue 28): what each level applies
without the user, what it proposes, and how much of it is right.

Usage:
  python3 bench/calibrate-levels.py [_build/src/cli/decipher-cli] [--docs N] [--seed S]
          [--jobs J] [--chars N] [--references PATH|none] [--library-docs N]
          [--recognize-docs N] [--keep DIR] [--offenders N]

It generates a corpus of corrupted PDFs with the project's own generator
(tests/fixtures/generate.py --kind KIND --text --font --out --truth): Debian fonts ×
layouts (corruptions) × UDHR languages read at run time from ../shared/udhr (or
$DECIPHER_UDHR; the texts are never copied into the project). The full grid is
~1,300 documents; a seeded, balanced sample of --docs (default 200) of them is made,
every font, layout and language about equally often (the run prints how much it
sampled). Each document is read as a new user reads it: a fresh, empty font library
per document ($DECIPHER_LIBRARY, a file in a temporary folder), no document cache
($DECIPHER_DOCUMENT_CACHE=0), and an index of the installed fonts built afresh once per
run ($DECIPHER_REFERENCES; --references PATH reuses one) — so the installed fonts below
are also what the identity level matches outlines against, as on a user's machine.
`--references none` reads without that index: the case of a home-made font that no
installed font shares outlines with, where the layout level has to do the work.

Two front ends are measured, one value per symbol (font × code) judged against the
generator's ground truth (the text of every glyph drawn with that code; NFC, and a
hyphen U+2010 taken as the hyphen-minus whose glyph it shares):
  text     `decipher-cli fonts PDF --json`: per font its key, the values `decipher-cli
           text` prints (library, automatic pass, installed-font references);
  session  `decipher-cli session PDF` answering {"cmd":"symbols"}: the values the
           window and the session start from (only fonts that need decoding).
Two levels need more than opening a document, and get a run of their own:
  library  --library-docs (default 30) documents read after the user decided every
           symbol of another document in the same font (another embedded layout, any
           language; `assign` in a session, with one library);
  shape    --recognize-docs (default 16) documents read by a session after
           {"cmd":"recognize"} (Tesseract; about 5 s a document).
Per level (pdf, library, font, layout, identity, shape, guess) it prints the values
applied automatically (status from-pdf/inferred) and the share right, the values proposed
and the share right, the level's stated confidence (mean, min–max) next to the measured
precision over all its values, and whether automatic values reach 99 %; then, per level
below 99 %, the worst offenders: font × layout × language × symbol, the value given
instead of the true one. A per-layout summary says how much of each corruption is decoded
at all. Figures are printed, nothing is asserted: the bench is the measuring tape.

Layouts (generator kind):
  cp-win       codepage: letters at their Windows code page bytes (cp1251, cp1253 for
               Greek, cp1250 for Latin), the font's cmap and glyph names claim the
               WinAnsi characters (à for а), WinAnsiEncoding, no ToUnicode
  cp-koi8      the same with KOI8-R (Greek ISO-8859-7, Latin ISO-8859-2)
  cp-mac       the same with MacCyrillic (Greek MacGreek, Latin MacLatin2)
  ascii        the same with a home-made layout: letters outside ASCII at shuffled ASCII
               codes (< for а), which the cmap and glyph names claim (issue 31)
  tu-lie       legacy: a home-made layout whose ToUnicode says the WinAnsi character
  tu-merge     duplicate: a ToUnicode that maps several letters to one
  names        no ToUnicode, codes shuffled, correct glyph names (AGL / uniXXXX) in the
               post table and a /Differences
  id-subset    identity: Identity-H glyph numbers of an embedded subset without cmap
               or glyph names
  id-installed installed: Identity-H glyph numbers of the installed font, not embedded
  offset       offset: Identity-H, code = code point − 29, embedded without cmap
  uralic       uralic: a fonts-uralic font embedded as is, its own legacy layout (only
               for the fonts-uralic fonts)
A language whose script a layout does not corrupt (English under a code page) is a
control: its values should simply be right.

Debian packages the corpus needs (apt-get install …): fonts-dejavu-core,
fonts-dejavu-extra, fonts-liberation2, fonts-freefont-ttf, fonts-noto-core,
fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-paratype, fonts-uralic; and
python3-fonttools. Fonts whose package is missing are named with the command that
installs them, and the run goes on without them. (fonts-linuxlibertine is OpenType/CFF,
which the generator does not embed.) A font × language pair is used only when the font
draws ≥ 95 % of the excerpt's letters (the rest are left out of the document and its
truth).

Languages: rus (Russian), yrk (Nenets), niv (Nivkh), sah (Yakut), evn (Evenki) in
Cyrillic, ell_monotonic (Greek), eng (English). Each document typesets an excerpt of
about --chars characters (default 1800, one page) starting at a seeded line.

Runs in about 4 minutes on two cores with the defaults (--jobs 2), longer when the
machine is shared; --docs, --library-docs and --recognize-docs trade time for figures.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

try:
    from fontTools.ttLib import TTFont
except ImportError:
    # A python3 from pyenv/venv may not see Debian's python3-fonttools.
    if (os.path.exists('/usr/bin/python3') and not os.environ.get('DECIPHER_GEN_REEXEC')
            and os.path.realpath(sys.executable) != os.path.realpath('/usr/bin/python3')):
        os.environ['DECIPHER_GEN_REEXEC'] = '1'
        os.execv('/usr/bin/python3', ['/usr/bin/python3'] + sys.argv)
    sys.exit('calibrate-levels.py: needs fontTools (Debian: apt install python3-fonttools)')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, 'tests', 'fixtures', 'generate.py')
sys.path.insert(0, os.path.dirname(GENERATOR))
import generate as gen  # noqa: E402  (WINANSI: the uralic fonts' own layout)

FONTDIR = '/usr/share/fonts/truetype'
# (label, Debian package, file)
FONTS = [
    ('DejaVuSans', 'fonts-dejavu-core', 'dejavu/DejaVuSans.ttf'),
    ('DejaVuSerif', 'fonts-dejavu-core', 'dejavu/DejaVuSerif.ttf'),
    ('DejaVuSansMono', 'fonts-dejavu-core', 'dejavu/DejaVuSansMono.ttf'),
    ('DejaVuSansCond', 'fonts-dejavu-extra', 'dejavu/DejaVuSansCondensed.ttf'),
    ('LiberationSans', 'fonts-liberation2', 'liberation2/LiberationSans-Regular.ttf'),
    ('LiberationSerif', 'fonts-liberation2', 'liberation2/LiberationSerif-Regular.ttf'),
    ('LiberationMono', 'fonts-liberation2', 'liberation2/LiberationMono-Regular.ttf'),
    ('FreeSans', 'fonts-freefont-ttf', 'freefont/FreeSans.ttf'),
    ('FreeSerif', 'fonts-freefont-ttf', 'freefont/FreeSerif.ttf'),
    ('FreeMono', 'fonts-freefont-ttf', 'freefont/FreeMono.ttf'),
    ('NotoSans', 'fonts-noto-core', 'noto/NotoSans-Regular.ttf'),
    ('NotoSerif', 'fonts-noto-core', 'noto/NotoSerif-Regular.ttf'),
    ('NotoSansBold', 'fonts-noto-core', 'noto/NotoSans-Bold.ttf'),
    ('Carlito', 'fonts-crosextra-carlito', 'crosextra/Carlito-Regular.ttf'),
    ('Caladea', 'fonts-crosextra-caladea', 'crosextra/Caladea-Regular.ttf'),
    ('PTSans', 'fonts-paratype', 'paratype/PTS55F.ttf'),
    ('PTSerif', 'fonts-paratype', 'paratype/PTF55F.ttf'),
    ('PTMono', 'fonts-paratype', 'paratype/PTM55F.ttf'),
    ('PTSansCaption', 'fonts-paratype', 'paratype/PTC55F.ttf'),
    ('RomanUralic', 'fonts-uralic', 'uralic/romau___.ttf'),
    ('SchoolbookUralic', 'fonts-uralic', 'uralic/schou___.ttf'),
    ('BookmanUralic', 'fonts-uralic', 'uralic/booku___.ttf'),
    ('PalladioUralic', 'fonts-uralic', 'uralic/pallu___.ttf'),
    ('SansUralic', 'fonts-uralic', 'uralic/sansu___.ttf'),
    ('GothicUralic', 'fonts-uralic', 'uralic/gothu___.ttf'),
]
LANGS = {'rus': 'Cyrl', 'yrk': 'Cyrl', 'niv': 'Cyrl', 'sah': 'Cyrl', 'evn': 'Cyrl',
         'ell_monotonic': 'Grek', 'eng': 'Latn'}
CODEPAGES = {'cp-win': {'Cyrl': 'cp1251', 'Grek': 'cp1253', 'Latn': 'cp1250'},
             'cp-koi8': {'Cyrl': 'koi8_r', 'Grek': 'iso8859_7', 'Latn': 'iso8859_2'},
             'cp-mac': {'Cyrl': 'mac_cyrillic', 'Grek': 'mac_greek', 'Latn': 'mac_latin2'},
             'ascii': {'Cyrl': 'ascii', 'Grek': 'ascii', 'Latn': 'ascii'}}
# layout -> generator kind
LAYOUTS = {'cp-win': 'codepage', 'cp-koi8': 'codepage', 'cp-mac': 'codepage', 'ascii': 'codepage',
           'tu-lie': 'legacy', 'tu-merge': 'duplicate', 'names': 'names',
           'id-subset': 'identity', 'id-installed': 'installed', 'offset': 'offset',
           'uralic': 'uralic'}
LEVELS = ['pdf', 'library', 'font', 'layout', 'identity', 'shape', 'guess']
APPLIED = ('from-pdf', 'inferred', 'confirmed')
# Characters fonts draw with one glyph, which no level can tell apart: the hyphen
# (U+2010, U+2011) is the hyphen-minus's glyph in most fonts.
SAME_GLYPH = str.maketrans({'\u2010': '-', '\u2011': '-'})


def same_text(value, want):
    norm = lambda s: unicodedata.normalize('NFC', s).translate(SAME_GLYPH)
    return norm(value) == norm(want)
COVERAGE_MIN = 0.95


def die(msg):
    sys.exit('calibrate-levels.py: ' + msg)


def find_udhr():
    cands = [os.environ.get('DECIPHER_UDHR'), os.path.join(ROOT, '..', 'shared', 'udhr'),
             os.path.join(ROOT, '..', '..', 'shared', 'udhr'), '/work/shared/udhr']
    for c in cands:
        if c and os.path.exists(os.path.join(c, 'udhr_rus.txt')):
            return os.path.realpath(c)
    die('no UDHR texts (../shared/udhr): set DECIPHER_UDHR to their folder')


def udhr_lines(folder, lang):
    with open(os.path.join(folder, 'udhr_%s.txt' % lang), encoding='utf-8') as fh:
        lines = fh.read().split('\n')[5:]        # the first five lines are a header
    return [unicodedata.normalize('NFC', ln.strip()) for ln in lines if ln.strip()]


def excerpt(lines, start, chars):
    out, n = [], 0
    i = start
    while n < chars and i < start + len(lines):
        ln = lines[i % len(lines)]
        out.append(ln)
        n += len(ln)
        i += 1
    return out


def font_coverage(path, uralic_native):
    """The characters the font can draw in the layouts: its Unicode cmap, or for the
    uralic layout only those its own legacy layout puts at a WinAnsi code."""
    font = TTFont(path, lazy=True)
    cmap = font.getBestCmap()
    if not uralic_native:
        return set(chr(u) for u in cmap)
    native = set()
    for code, ch in gen.WINANSI.items():
        g = cmap.get(ord(ch))
        if g is not None:
            native.add(g)
    return set(chr(u) for u, g in cmap.items() if g in native)


def coverage(chars, text):
    c = collections.Counter(ch for ch in text if not ch.isspace())
    total = sum(c.values())
    return sum(n for ch, n in c.items() if ch in chars) / total if total else 0.0


def plan(fonts, udhr, args, rnd):
    """Every usable (font, layout, language) combination, then a balanced sample."""
    texts = {lang: udhr_lines(udhr, lang) for lang in LANGS}
    cov_cache = {}
    combos, dropped = [], collections.Counter()
    for label, pkg, path in fonts:
        uralic_font = pkg == 'fonts-uralic'
        for layout in LAYOUTS:
            if layout == 'uralic' and not uralic_font:
                continue
            native = layout == 'uralic'
            if (label, native) not in cov_cache:
                cov_cache[(label, native)] = font_coverage(path, native)
            chars = cov_cache[(label, native)]
            for lang in LANGS:
                if coverage(chars, '\n'.join(texts[lang])) < COVERAGE_MIN:
                    dropped[(label, lang)] += 1
                    continue
                combos.append((label, layout, lang))
    rnd.shuffle(combos)
    n = min(args.docs, len(combos))
    # Greedy balance: take the combination whose font, layout and language have been
    # drawn least so far (ties in the shuffled order).
    seen = {'f': collections.Counter(), 'l': collections.Counter(), 'g': collections.Counter()}
    chosen, left = [], list(combos)
    while len(chosen) < n:
        best = min(range(len(left)), key=lambda i: (seen['f'][left[i][0]] + seen['l'][left[i][1]]
                                                     + seen['g'][left[i][2]], i))
        f, l, g = left.pop(best)
        seen['f'][f] += 1
        seen['l'][l] += 1
        seen['g'][g] += 1
        chosen.append((f, l, g))
    docs = []
    for i, (f, l, g) in enumerate(chosen):
        lines = texts[g]
        docs.append({'id': i, 'font': f, 'layout': l, 'lang': g,
                     'excerpt': excerpt(lines, rnd.randrange(len(lines)), args.chars)})
    return combos, dropped, docs, texts


# Layouts that embed the font's outlines, which the library recognises.
EMBEDDED = [l for l in LAYOUTS if l != 'id-installed']


def plan_library(combos, texts, docs, n, rnd, args):
    """@n documents read after the user decided every symbol of another document in the
    same font (another embedded layout, any language the font draws), with one library."""
    usable = collections.defaultdict(list)
    for f, l, g in combos:
        if l in EMBEDDED:
            usable[f].append((l, g))
    out = []
    for i in range(n):
        f = docs[i % len(docs)]['font']
        pairs = usable.get(f)
        if not pairs or len(set(l for l, _ in pairs)) < 2:
            continue
        l, g = rnd.choice(pairs)
        tl, tg = rnd.choice([p for p in pairs if p[0] != l])
        mk = lambda layout, lang: {'font': f, 'layout': layout, 'lang': lang, 'excerpt': excerpt(
            texts[lang], rnd.randrange(len(texts[lang])), args.chars)}
        out.append(dict(mk(l, g), id=1000 + i, teacher=mk(tl, tg)))
    return out


def run_all(jobs, docs, *a, **kw):
    results = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(process, d, *a, **kw) for d in docs]
        for fu in concurrent.futures.as_completed(futs):
            results.append(fu.result())
    results.sort(key=lambda r: r['id'])
    for r in results:
        if 'error' in r:
            print('error: %s × %s × %s: %s' % (r['font'], r['layout'], r['lang'], r['error']))
    return results


def run(cmd, env, stdin=None, timeout=120):
    p = subprocess.run(cmd, input=stdin, capture_output=True, env=env, timeout=timeout,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def truth_map(path):
    """(font, code) -> the text drawn with that code (NFC)."""
    with open(path, encoding='utf-8') as fh:
        t = json.load(fh)
    out = {}
    for page in t['pages']:
        for ln in page['lines']:
            for g in ln['glyphs']:
                out.setdefault((g['font'], g['code']), collections.Counter())[g['text']] += 1
    return {k: unicodedata.normalize('NFC', c.most_common(1)[0][0]) for k, c in out.items()}


def generate(doc, fonts_by_label, d, name):
    """The document's PDF and truth in folder @d; None and a sentence when it failed."""
    txt, pdf, truth = (os.path.join(d, name + ext) for ext in ('.txt', '.pdf', '.json'))
    with open(txt, 'w', encoding='utf-8') as fh:
        fh.write('\n'.join(doc['excerpt']) + '\n')
    kind = LAYOUTS[doc['layout']]
    cmd = [sys.executable, GENERATOR, '--kind', kind, '--text', txt,
           '--font', fonts_by_label[doc['font']], '--out', pdf, '--truth', truth]
    if kind == 'codepage':
        cmd += ['--codepage', CODEPAGES[doc['layout']][LANGS[doc['lang']]]]
    rc, _, err = run(cmd, os.environ)
    if rc != 0:
        return None, 'generator: ' + (err.strip().splitlines()[-1] if err.strip() else 'failed')
    return (pdf, truth_map(truth)), None


def symbols_of(reply):
    return [(s['font'], s['code'], s['value'], s['status'], s['level'], s['confidence'],
             s['provenance'], s['count']) for s in reply['symbols']]


def session(cli, pdf, env, commands):
    """The replies of a session fed @commands, one per line."""
    rc, out, err = run([cli, 'session', pdf], env,
                       stdin=''.join(json.dumps(c, ensure_ascii=False) + '\n' for c in commands),
                       timeout=600)
    replies = [json.loads(ln) for ln in out.splitlines() if ln.strip()]
    replies = [r for r in replies if 'progress' not in r]      # recognize reports as it goes
    if rc != 0 or len(replies) != len(commands) or not all(r.get('ok') for r in replies):
        bad = [r for r in replies if not r.get('ok')]
        raise RuntimeError('session: ' + (err.strip() or json.dumps(bad[:1]) or out.strip()))
    return replies


def process(doc, fonts_by_label, cli, tmp, refs, recognize=False):
    """Reads one document as a new user: `fonts --json` and a session's symbols (after
    `recognize` when asked). With doc['teacher'], the user first decided every symbol
    of another document in the same font, with the same library."""
    d = os.path.join(tmp, 'doc%03d' % doc['id'])
    os.makedirs(d)
    made, error = generate(doc, fonts_by_label, d, 'doc')
    if error:
        return dict(doc, error=error)
    pdf, truth = made
    env = dict(os.environ, DECIPHER_LIBRARY=os.path.join(d, 'library.sqlite'),
               DECIPHER_DOCUMENT_CACHE='0', DECIPHER_REFERENCES=refs)
    res = dict(doc, truth=truth)
    try:
        if doc.get('teacher'):
            made, error = generate(doc['teacher'], fonts_by_label, d, 'teacher')
            if error:
                return dict(doc, error='teacher ' + error)
            tpdf, ttruth = made
            (reply,) = session(cli, tpdf, env, [{'cmd': 'symbols'}])
            assigns = [{'cmd': 'assign', 'symbol': s['symbol'], 'text': ttruth[(s['font'], s['code'])]}
                       for s in reply['symbols'] if (s['font'], s['code']) in ttruth]
            session(cli, tpdf, env, assigns)
            res['taught'] = len(assigns)
        rc, out, err = run([cli, 'fonts', pdf, '--json'], env)
        if rc != 0:
            return dict(res, error='fonts --json: ' + err.strip())
        res['text'] = [(f['index'], e['code'], e.get('value'), e['status'], e['level'],
                        e['confidence'], e.get('provenance'), e['count'])
                       for f in json.loads(out) for e in f.get('key', [])]
        commands = ([{'cmd': 'recognize'}] if recognize else []) + [{'cmd': 'symbols'}]
        res['session'] = symbols_of(session(cli, pdf, env, commands)[-1])
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        return dict(res, error=str(e))
    shutil.rmtree(d, ignore_errors=True)
    return res


def new_stats():
    return {'applied': 0, 'applied_ok': 0, 'proposed': 0, 'proposed_ok': 0,
            'glyphs': 0, 'glyphs_ok': 0, 'conf': [], 'conf_applied': [], 'conf_proposed': []}


def judge(results, front):
    """Per level: applied/proposed values, right or wrong, with what was wrong."""
    stats = {lv: new_stats() for lv in LEVELS + ['user']}
    wrong = collections.defaultdict(list)
    per_layout = collections.defaultdict(lambda: collections.Counter())
    for r in results:
        if 'error' in r or front not in r:
            continue
        truth = r['truth']
        for font, code, value, status, level, conf, prov, count in r[front]:
            want = truth.get((font, code))
            pl = per_layout[r['layout']]
            if want is None:
                pl['no-truth'] += 1
                continue
            pl['symbols'] += 1
            pl['glyphs'] += count
            if value is None or level == 'none':
                pl['unknown'] += count
                continue
            pl['level:' + level] += count
            if level not in stats:
                stats[level] = new_stats()
            st = stats[level]
            ok = same_text(value, want)
            st['conf'].append(conf)
            st['conf_applied' if status in APPLIED else 'conf_proposed'].append((conf, ok))
            if status in APPLIED:
                st['applied'] += 1
                st['applied_ok'] += ok
                st['glyphs'] += count
                st['glyphs_ok'] += count if ok else 0
                pl['applied_ok' if ok else 'applied_wrong'] += count
            else:
                st['proposed'] += 1
                st['proposed_ok'] += ok
                pl['proposed'] += count
            if not ok:
                wrong[level].append((r['font'], r['layout'], r['lang'], code, value, want, count,
                                     status in APPLIED, prov))
    return stats, wrong, per_layout


def pct(a, b):
    return '%5.1f%%' % (100.0 * a / b) if b else '    —'


def show(s):
    return ''.join(c if c.isprintable() and not unicodedata.combining(c) else
                   '\\u%04x' % ord(c) for c in s) if s else repr(s)


def calibration_row(label, pairs):
    n = len(pairs)
    right = sum(ok for _, ok in pairs)
    stated = sum(c for c, _ in pairs) / n
    print('  %-17s %6d values %7s right  stated %.2f  measured %.3f  Δ %+5.2f  %s' % (
        label, n, pct(right, n), stated, right / n, right / n - stated,
        'ok' if abs(right / n - stated) <= 0.05 else 'off by more than 0.05'))


def calibration_rows(st):
    """Applied values and proposals, each against its own stated confidence: a level's
    proposals are stated lower than what it applies, and by kind of evidence."""
    if st['conf_applied'] and st['conf_proposed']:
        calibration_row('· applied', st['conf_applied'])
    if not st['conf_proposed']:
        return
    calibration_row('· proposed', st['conf_proposed'])
    by_conf = collections.defaultdict(list)
    for c, ok in st['conf_proposed']:
        by_conf[round(c, 2)].append((c, ok))
    if len(by_conf) > 1:
        for c in sorted(by_conf, reverse=True):
            calibration_row('  · proposed @%.2f' % c, by_conf[c])


def report(results, front, title, n_offenders):
    stats, wrong, per_layout = judge(results, front)
    print('\n== %s ==' % title)
    print('%-9s %8s %7s %8s %7s %8s %7s  %-16s %8s %6s  %s' % (
        'level', 'applied', 'right', 'glyphs', 'right', 'proposed', 'right',
        'stated conf', 'measured', 'Δ', 'auto ≥ 99 %'))
    for lv in LEVELS + [k for k in stats if k not in LEVELS]:
        st = stats[lv]
        n = st['applied'] + st['proposed']
        if lv == 'user' and not n:
            continue
        conf = st['conf']
        stated = ('%.2f (%.2f–%.2f)' % (sum(conf) / len(conf), min(conf), max(conf))
                  if conf else '—')
        verdict = ('—' if not st['applied'] else
                   'yes' if st['applied_ok'] >= 0.99 * st['applied'] else 'NO')
        delta = ('%+6.2f' % ((st['applied_ok'] + st['proposed_ok']) / n - sum(conf) / len(conf))
                 if n else '     —')
        print('%-9s %8d %7s %8d %7s %8d %7s  %-16s %8s %6s  %s' % (
            lv, st['applied'], pct(st['applied_ok'], st['applied']), st['glyphs'],
            pct(st['glyphs_ok'], st['glyphs']), st['proposed'],
            pct(st['proposed_ok'], st['proposed']), stated,
            pct(st['applied_ok'] + st['proposed_ok'], n), delta, verdict))
        calibration_rows(st)
    print('(values are symbols: one font × code; "glyphs" weighs applied values by their '
          'occurrences; measured = right share of all the level\'s values; Δ = measured − '
          'stated, the goal |Δ| ≤ 0.05; the rows "· applied" and "· proposed" below a level '
          'compare each kind of value with its own stated confidence, proposals per stated '
          'confidence)')
    print('\nper layout (glyphs): decoded right automatically / wrong automatically / '
          'proposed / unknown')
    for layout in LAYOUTS:
        pl = per_layout.get(layout)
        if not pl:
            continue
        g = pl['glyphs'] or 1
        levels = sorted(((k[6:], v) for k, v in pl.items() if k.startswith('level:')),
                        key=lambda kv: -kv[1])
        print('  %-13s %6d glyphs  right %s  wrong %s  proposed %s  unknown %s   %s' % (
            layout, pl['glyphs'], pct(pl['applied_ok'], g), pct(pl['applied_wrong'], g),
            pct(pl['proposed'], g), pct(pl['unknown'], g),
            ' '.join('%s %.0f%%' % (k, 100.0 * v / g) for k, v in levels)))
    for lv in LEVELS + [k for k in stats if k not in LEVELS]:
        st = stats[lv]
        n = st['applied'] + st['proposed']
        ws = wrong[lv]
        if not ws:
            continue
        print('\n%s, level %s (%d wrong values of %d):' % (
            'worst offenders' if len(ws) > 0.01 * n else 'wrong values (level at ≥ 99 %)',
            lv, len(ws), n))
        by_doc = collections.Counter()
        for f, l, g, *_ in ws:
            by_doc[(f, l, g)] += 1
        by_layout = collections.Counter(l for _, l, *_ in ws)
        print('  by layout: ' + ', '.join('%s %d' % kv for kv in by_layout.most_common()))
        by_font = collections.Counter(f for f, *_ in ws)
        print('  by font:   ' + ', '.join('%s %d' % kv for kv in by_font.most_common(8)))
        for (f, l, g), k in by_doc.most_common(n_offenders):
            ex = sorted((w for w in ws if w[:3] == (f, l, g)), key=lambda w: -w[6])[:4]
            print('  %-16s %-12s %-13s %3d wrong: %s' % (
                f, l, g, k, '; '.join('0x%X %s for %s ×%d%s' % (
                    w[3], show(w[4]), show(w[5]), w[6], '' if w[7] else ' (proposed)')
                    for w in ex)))
        provs = collections.Counter((w[8] or '')[:70] for w in ws)
        print('  provenances: ' + '; '.join('“%s” %d' % kv for kv in provs.most_common(4)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('cli', nargs='?', default=os.path.join(ROOT, '_build', 'src', 'cli', 'decipher-cli'))
    ap.add_argument('--docs', type=int, default=200, help='documents to sample (default 200)')
    ap.add_argument('--seed', type=int, default=28)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--chars', type=int, default=1800, help='characters of text per document')
    ap.add_argument('--references', help='an index of installed fonts to reuse (default: '
                    'built afresh in the temporary folder); "none": no index, as for fonts '
                    'no installed font shares outlines with')
    ap.add_argument('--keep', metavar='DIR', help='keep the raw results (JSON) in DIR')
    ap.add_argument('--library-docs', type=int, default=30, help='documents read after the '
                    'user decided another in the same font, for the library level (default 30)')
    ap.add_argument('--recognize-docs', type=int, default=16, help='documents read by a '
                    'session after recognize (Tesseract), for the shape level (default 16)')
    ap.add_argument('--offenders', type=int, default=8, help='offenders listed per level')
    args = ap.parse_args()
    cli = os.path.abspath(args.cli)
    if not os.access(cli, os.X_OK):
        die('%s is not an executable decipher-cli (build with ninja -C _build)' % cli)
    udhr = find_udhr()
    fonts, missing = [], collections.OrderedDict()
    for label, pkg, rel in FONTS:
        path = os.path.join(FONTDIR, rel)
        if os.path.exists(path):
            fonts.append((label, pkg, path))
        else:
            missing.setdefault(pkg, []).append(label)
    if missing:
        print('missing fonts (apt-get install %s): %s' % (
            ' '.join(missing), ', '.join(l for ls in missing.values() for l in ls)))
    if not fonts:
        die('none of the corpus fonts is installed')
    print('fonts: %d of %d installed%s' % (len(fonts), len(FONTS),
                                           '' if len(fonts) >= 20 else ' (fewer than 20!)'))
    rnd = random.Random(args.seed)
    t0 = time.monotonic()
    combos, dropped, docs, texts = plan(fonts, udhr, args, rnd)
    lib_docs = plan_library(combos, texts, docs, args.library_docs, rnd, args)
    ocr_docs = [dict(d, id=2000 + d['id']) for d in docs[:args.recognize_docs]]
    print('corpus: %d fonts × %d layouts × %d languages (%s) = %d usable combinations; '
          'sampled %d documents (seed %d, %d characters each)' % (
              len(fonts), len(LAYOUTS), len(LANGS), ', '.join(LANGS), len(combos), len(docs),
              args.seed, args.chars))
    if dropped:
        pairs = sorted(set(dropped))
        print('font × language pairs left out (font draws < %d %% of the letters): %s' % (
            COVERAGE_MIN * 100, ', '.join('%s×%s' % p for p in pairs)))
    tmp = tempfile.mkdtemp(prefix='calibrate-levels-')
    try:
        refs = args.references or os.path.join(tmp, 'references.sqlite')
        if refs == 'none':
            refs = ''
            print('no index of installed fonts ($DECIPHER_REFERENCES="")')
        elif not args.references:
            # Build the index once, before the workers share it.
            t = time.monotonic()
            first = docs[0]
            warm = dict(first, id=999)
            process(warm, {f[0]: f[2] for f in fonts}, cli, tmp, refs)
            print('index of installed fonts built in %.1f s' % (time.monotonic() - t))
        fonts_by_label = {f[0]: f[2] for f in fonts}
        results = run_all(args.jobs, docs, fonts_by_label, cli, tmp, refs)
        errors = [r for r in results if 'error' in r]
        nsym = sum(len(r['truth']) for r in results if 'truth' in r)
        print('%d documents read (%d failed), %d symbols with a truth, in %.0f s' % (
            len(results) - len(errors), len(errors), nsym, time.monotonic() - t0))
        t = time.monotonic()
        lib_results = run_all(args.jobs, lib_docs, fonts_by_label, cli, tmp, refs)
        if lib_docs:
            print('library: %d documents read after the user decided every symbol of another '
                  'document in the same font (%d decisions), in %.0f s' % (
                      len(lib_results), sum(r.get('taught', 0) for r in lib_results),
                      time.monotonic() - t))
        t = time.monotonic()
        ocr_results = run_all(args.jobs, ocr_docs, fonts_by_label, cli, tmp, refs, recognize=True)
        if ocr_docs:
            print('recognize: %d documents read by a session after {"cmd":"recognize"}, in %.0f s'
                  % (len(ocr_results), time.monotonic() - t))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        with open(os.path.join(args.keep, 'calibrate-levels.json'), 'w', encoding='utf-8') as fh:
            json.dump([dict(r, truth={'%d:%d' % k: v for k, v in r.get('truth', {}).items()})
                       for r in results + lib_results + ocr_results], fh, ensure_ascii=False)
    report(results, 'text', 'decipher-cli text (fonts --json key), every font', args.offenders)
    report(results, 'session', 'decipher-cli session (symbols), fonts that need decoding',
           args.offenders)
    if lib_results:
        report(lib_results, 'text', 'library: decipher-cli text after the user decided '
               'another document in the same font', args.offenders)
    if ocr_results:
        report(ocr_results, 'session', 'shape: decipher-cli session after recognize',
               args.offenders)


if __name__ == '__main__':
    main()
