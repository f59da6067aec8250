#!/usr/bin/env python3
# Files per second of `decipher-cli text FOLDER --library L -o OUT` over a folder of
# legacy-font PDFs (issue 15: "a folder of 50 PDFs runs through text with a library").
#
# Usage: collection.py [DECIPHER_CLI] [--files 50] [--udhr ../shared/udhr]
#
# Makes FILES different PDFs with tests/fixtures/generate.py (--kind legacy: the same
# remapped font, each file its own piece of text), decodes the first one as a user would
# (a session with the library that assigns every symbol its true value), then runs the
# collection over the folder and prints: files per second, the same files one
# `decipher-cli text FILE --library L` at a time for comparison, and the share of
# characters right (letters the first volume never shows stay undecoded, and homoglyphs
# such as Latin a / Cyrillic а, one outline in the font, are told apart only by script). Texts: the UDHR translations in --udhr (read at run time,
# Cyrillic-script ones), else the legacy-cyrillic fixture's own text.
#
# Then the peer (issue 32: the collection at least 0.8 times as many files a second as
# `xargs -P2 pdftotext`): --pairs rounds, each the collection and then pdftotext over the
# same files two at a time, one right after the other; the figures are the medians of
# the rounds' ratios, in CPU time (user + system of the processes each started, which the
# load of other processes does not inflate) and in wall-clock time.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, '..', 'tests', 'fixtures', 'generate.py')
LANGUAGES = ['rus', 'sah', 'evn', 'khk', 'yrk', 'niv', 'eve', 'ykg', 'kaz', 'kir', 'bel', 'ukr']


def texts(udhr, count):
    words = []
    for lang in LANGUAGES:
        path = os.path.join(udhr, 'udhr_%s.txt' % lang)
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                words += f.read().split()
    if len(words) < 2000:
        out = subprocess.run([sys.executable, GENERATOR, '--dump-text', 'legacy-cyrillic'],
                             check=True, capture_output=True, text=True).stdout
        words = out.split() * 20
    # One page of words per file, each file starting further along.
    per_file = 350
    step = max(1, (len(words) - per_file) // count)
    for i in range(count):
        chunk = words[i * step:i * step + per_file]
        yield '\n'.join(' '.join(chunk[j:j + 12]) for j in range(0, len(chunk), 12)) + '\n'


def truth_values(truth_path):
    """(font base name, code) → text, from a generator truth file."""
    with open(truth_path, encoding='utf-8') as f:
        truth = json.load(f)
    names = [font['base_font'] for font in truth['fonts']]
    values = {}
    for page in truth['pages']:
        for line in page['lines']:
            for glyph in line['glyphs']:
                values[(names[glyph['font']], glyph['code'])] = glyph['text']
    return values


def seed_library(cli, pdf, truth_path, library):
    fonts = json.loads(subprocess.run([cli, 'fonts', pdf, '--json', '--no-auto'], check=True,
                                      capture_output=True, text=True).stdout)
    names = [font.get('name') for font in fonts]
    values = truth_values(truth_path)
    session = subprocess.Popen([cli, 'session', pdf, '--library', library, '--no-auto'],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(request):
        session.stdin.write(json.dumps(request) + '\n')
        session.stdin.flush()
        return json.loads(session.stdout.readline())

    assigned = 0
    for symbol in ask({'cmd': 'symbols'})['symbols']:
        value = values.get((names[symbol['font']], symbol['code']))
        if value is not None:
            reply = ask({'cmd': 'assign', 'symbol': symbol['symbol'], 'text': value})
            assigned += bool(reply.get('ok'))
    session.stdin.close()
    session.wait()
    return assigned


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cli', nargs='?', default=os.path.join(HERE, '..', '_build', 'src', 'cli',
                                                           'decipher-cli'))
    ap.add_argument('--files', type=int, default=50)
    ap.add_argument('--udhr', default=os.path.join(HERE, '..', '..', 'shared', 'udhr'))
    ap.add_argument('--pairs', type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ, DECIPHER_LIBRARY='')

    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, 'archive')
        os.mkdir(folder)
        truths = []
        for i, text in enumerate(texts(args.udhr, args.files)):
            text_path = os.path.join(tmp, 'text-%02d.txt' % i)
            with open(text_path, 'w', encoding='utf-8') as f:
                f.write(text)
            pdf = os.path.join(folder, 'volume-%02d.pdf' % i)
            truth = os.path.join(tmp, 'volume-%02d.json' % i)
            subprocess.run([sys.executable, GENERATOR, '--kind', 'legacy', '--text', text_path,
                            '--out', pdf, '--truth', truth], check=True, capture_output=True)
            truths.append(truth)
        library = os.path.join(tmp, 'library.sqlite')
        assigned = seed_library(args.cli, os.path.join(folder, 'volume-00.pdf'), truths[0],
                                library)

        out = os.path.join(tmp, 'out')
        start = time.monotonic()
        run = subprocess.run([args.cli, 'text', folder, '--library', library, '-o', out],
                             capture_output=True, text=True, env=env)
        collection_seconds = time.monotonic() - start

        start = time.monotonic()
        for name in sorted(os.listdir(folder)):
            subprocess.run([args.cli, 'text', os.path.join(folder, name), '--library', library],
                           capture_output=True, env=env, check=True)
        one_by_one_seconds = time.monotonic() - start

        # Characters right, line by line: decoding is glyph for glyph, so a line of the
        # right length is compared character by character; any other line counts as
        # wholly wrong.
        right = total = 0
        for i, truth in enumerate(truths):
            with open(truth, encoding='utf-8') as f:
                lines = [line['text'] for page in json.load(f)['pages'] for line in page['lines']]
            path = os.path.join(out, 'volume-%02d.txt' % i)
            got = []
            if os.path.exists(path):
                with open(path, encoding='utf-8') as f:
                    got = [line for line in f.read().replace('\f', '\n').split('\n') if line]
            for k, line in enumerate(lines):
                total += len(line)
                if k < len(got) and len(got[k]) == len(line):
                    right += sum(a == b for a, b in zip(got[k], line))

        print('files: %d, library learned from volume-00: %d symbols assigned'
              % (args.files, assigned))
        print('collection: exit %d, %s' % (run.returncode, run.stdout.strip().splitlines()[-1]))
        print('collection: %.2f s, %.2f files per second (%d cores)'
              % (collection_seconds, args.files / collection_seconds, os.cpu_count()))
        print('one process per file, one after another: %.2f s, %.2f files per second'
              % (one_by_one_seconds, args.files / one_by_one_seconds))
        print('characters right over all files: %.1f %% (%d of %d)'
              % (100.0 * right / max(1, total), right, total))
        pairs(args, folder, library, env, tmp)
        try:
            print('load average: %.2f' % os.getloadavg()[0])
        except OSError:
            pass


def timed(command, **kwargs):
    """Wall-clock and CPU seconds (its processes, children included) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, **kwargs)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def pairs(args, folder, library, env, tmp):
    names = sorted(name for name in os.listdir(folder) if name.endswith('.pdf'))
    listing = ''.join(os.path.join(folder, name) + '\0' for name in names)
    ratios = {'cpu': [], 'wall': []}
    cpu_per_file = {'collection': [], 'pdftotext': []}
    for i in range(args.pairs):
        out = os.path.join(tmp, 'pair-out')
        shutil.rmtree(out, ignore_errors=True)
        ours = timed([args.cli, 'text', folder, '--library', library, '-o', out],
                     capture_output=True, env=env)
        # pdftotext writes each text beside its PDF, where the collection looks for PDFs
        # only; removed after each round.
        theirs = timed(['xargs', '-0', '-P2', '-n1', 'pdftotext'], input=listing.encode(),
                       capture_output=True)
        for name in names:
            os.remove(os.path.join(folder, name[:-len('.pdf')] + '.txt'))
        # Files a second, ours over theirs: their time over ours.
        ratios['wall'].append(theirs[0] / ours[0])
        ratios['cpu'].append(theirs[1] / ours[1])
        cpu_per_file['collection'].append(ours[1] / len(names))
        cpu_per_file['pdftotext'].append(theirs[1] / len(names))
        print('pair %d: collection %.2f s (CPU %.2f s), xargs -P2 pdftotext %.2f s (CPU %.2f s)'
              % (i + 1, ours[0], ours[1], theirs[0], theirs[1]))
    for kind in ('cpu', 'wall'):
        print('%s time, median of %d pairs: files per second, collection / xargs -P2 pdftotext: '
              '%.2f (target 0.8)' % (kind, args.pairs, statistics.median(ratios[kind])))
    print('CPU per file, median of %d pairs: collection %.2f ms, xargs -P2 pdftotext %.2f ms'
          % (args.pairs, 1000 * statistics.median(cpu_per_file['collection']),
             1000 * statistics.median(cpu_per_file['pdftotext'])))


if __name__ == '__main__':
    main()
