#!/usr/bin/env python3
# One small PDF through `decipher-cli text FILE` against `pdftotext FILE -` (issue 32: "a
# one-file `text` ≤ 1.5× pdftotext's start").
#
# Usage: one-file-start.py [DECIPHER_CLI] [--runs 40] [PDF …]
#
# On a file of a page or two, both programs spend most of their time starting: linking
# their libraries, reading configuration, opening what they need. Each round runs
# Decipher and then pdftotext once on every file, one right after the other, so the load
# of other processes falls on both alike; the figures are medians over the rounds, per
# file, in CPU time (user + system of the process, from wait4(), which other processes'
# load inflates far less than wall-clock time) and in wall-clock time.
#
# Each round also starts each program's floor: an empty program linked with the same
# libraries, in the same order (link_floor()), which does nothing but load them. What a run
# costs beyond its floor is what the program itself does; the floor is what no change to
# the program's own code can take away.
#
# Decipher runs as a new user (no font library, no document cache) unless the
# environment already says otherwise; the index of installed fonts is the user's, as it
# would be after the first run. Without PDFs, some small fixtures and real-world files.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')
DEFAULT_FILES = [
    os.path.join(ROOT, 'tests', 'fixtures', 'ascii-legacy.pdf'),
    os.path.join(ROOT, 'tests', 'fixtures', 'glyph-names.pdf'),
    os.path.join(ROOT, 'tests', 'fixtures', 'installed-font.pdf'),
    os.path.join(ROOT, 'tests', 'fixtures', 'legacy-cyrillic.pdf'),
    '/work/shared/realworld-pdfs/issue4722.pdf',
    '/work/shared/realworld-pdfs/bug1027533.pdf',
    '/work/shared/realworld-pdfs/issue13916.pdf',
]


def run(argv, env):
    """(CPU s, wall s) of one run, its output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit('%s exited with %d' % (' '.join(argv), proc.returncode))
    return usage.ru_utime + usage.ru_stime, wall


def link_floor(program, workdir):
    """An empty program linked with @program's libraries (its DT_NEEDED entries, in their
    order, none left out), built in @workdir; None without a C compiler or readelf."""
    program = shutil.which(program) or program
    cc = shutil.which('cc') or shutil.which('gcc')
    if cc is None or shutil.which('readelf') is None:
        return None
    dynamic = subprocess.run(['readelf', '-d', program], capture_output=True, text=True).stdout
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', dynamic)
    source = os.path.join(workdir, 'empty.c')
    floor = os.path.join(workdir, 'floor-' + os.path.basename(program))
    with open(source, 'w') as f:
        f.write('int main (void) { return 0; }\n')
    done = subprocess.run([cc, '-O2', '-o', floor, source, '-Wl,--no-as-needed']
                          + ['-l:' + name for name in needed], capture_output=True)
    return floor if done.returncode == 0 and needed else None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('cli', nargs='?', default=os.path.join(ROOT, '_release', 'src', 'cli',
                                                               'decipher-cli'))
    parser.add_argument('files', nargs='*')
    parser.add_argument('--runs', type=int, default=40)
    parser.add_argument('--peer', default='pdftotext')
    args = parser.parse_args()
    files = args.files or [f for f in DEFAULT_FILES if os.path.exists(f)]
    env = dict(os.environ)
    env.setdefault('DECIPHER_LIBRARY', '')
    env.setdefault('DECIPHER_DOCUMENT_CACHE', '0')

    workdir = tempfile.mkdtemp(prefix='one-file-start-')
    floors = [link_floor(args.cli, workdir), link_floor(args.peer, workdir)]
    floor_times = ([], [])

    # Once before measuring: the index of installed fonts is built on a first run, and
    # the files are read into the page cache.
    for f in files:
        run([args.cli, 'text', f], env)
        run([args.peer, f, '-'], env)

    times = {f: ([], [], [], []) for f in files}
    for _ in range(args.runs):
        for f in files:
            ours_cpu, ours_wall = run([args.cli, 'text', f], env)
            peer_cpu, peer_wall = run([args.peer, f, '-'], env)
            for series, value in zip(times[f], (ours_cpu, peer_cpu, ours_wall, peer_wall)):
                series.append(value)
        for floor, series in zip(floors, floor_times):
            if floor is not None:
                series.append(run([floor], env)[0])
    shutil.rmtree(workdir)

    print('%-26s %9s %9s %6s   %9s %9s %6s' % ('file (median of %d)' % args.runs, 'CPU ms',
                                               'peer', 'ratio', 'wall ms', 'peer', 'ratio'))
    cpu_ratios, wall_ratios = [], []
    for f in files:
        ours_cpu, peer_cpu, ours_wall, peer_wall = (statistics.median(s) for s in times[f])
        cpu_ratios.append(ours_cpu / peer_cpu)
        wall_ratios.append(ours_wall / peer_wall)
        print('%-26s %9.2f %9.2f %5.2f×   %9.2f %9.2f %5.2f×' % (
            os.path.basename(f)[:26], ours_cpu * 1e3, peer_cpu * 1e3, cpu_ratios[-1],
            ours_wall * 1e3, peer_wall * 1e3, wall_ratios[-1]))
    print('one-file text ÷ %s: %.2f× CPU, %.2f× wall (median over the files; goal ≤ 1.5×)' % (
        os.path.basename(args.peer), statistics.median(cpu_ratios),
        statistics.median(wall_ratios)))
    if all(floor_times):
        ours_floor, peer_floor = (statistics.median(series) * 1e3 for series in floor_times)
        ours_cpu = statistics.median(statistics.median(times[f][0]) for f in files) * 1e3
        peer_cpu = statistics.median(statistics.median(times[f][1]) for f in files) * 1e3
        print('floors, an empty program linked as each is: Decipher\'s %.2f ms CPU, %s\'s '
              '%.2f ms; beyond its floor (median file): text %.2f ms, %s %.2f ms' % (
                  ours_floor, os.path.basename(args.peer), peer_floor, ours_cpu - ours_floor,
                  os.path.basename(args.peer), peer_cpu - peer_floor))
    else:
        print('floors: not measured (no C compiler or readelf)')


if __name__ == '__main__':
    main()
