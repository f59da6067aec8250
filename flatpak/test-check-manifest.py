#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Feeds check-manifest.py the real manifest (must pass) and copies of it with one
dangerous permission added (each must fail, naming that permission). TAP output;
meson runs it as the test 'flatpak-manifest-refuses' (suite 'flatpak').

Usage: test-check-manifest.py SOURCE_ROOT APP_ID
"""

import json
import os
import subprocess
import sys
import tempfile

REQUIRED_TESSDATA = ['eng', 'rus', 'hin', 'ara', 'chi_sim']

DANGEROUS = [
    '--filesystem=/',
    '--filesystem=/:ro',
    '--filesystem=host',
    '--filesystem=home',
    '--filesystem=~/Documents',
    '--filesystem=xdg-documents',
    '--device=all',
    '--socket=session-bus',
    '--socket=system-bus',
    '--talk-name=org.freedesktop.Flatpak',
    '--system-talk-name=org.freedesktop.login1',
    '--share=network',
    '--env=LD_PRELOAD=/tmp/x.so',
]


def run(root, app_id, manifest=None):
    script = os.path.join(root, 'flatpak', 'check-manifest.py')
    args = [sys.executable, script, root, app_id] + ([manifest] if manifest else [])
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return proc.returncode, proc.stdout


def main(argv):
    root, app_id = argv[1], argv[2]
    with open(os.path.join(root, 'flatpak', app_id + '.json'), encoding='utf-8') as f:
        manifest = json.load(f)

    print('1..{}'.format(len(DANGEROUS) + 1 + len(REQUIRED_TESSDATA) + 1))
    failed = 0
    status, output = run(root, app_id)
    ok = status == 0
    failed += not ok
    print('{} 1 - the real manifest passes'.format('ok' if ok else 'not ok'))
    if not ok:
        print('# ' + output.replace('\n', '\n# '))

    with tempfile.TemporaryDirectory() as scratch:
        for number, arg in enumerate(DANGEROUS, start=2):
            bad = dict(manifest)
            bad['finish-args'] = list(manifest.get('finish-args', [])) + [arg]
            path = os.path.join(scratch, 'bad-{}.json'.format(number))
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(bad, f)
            status, output = run(root, app_id, path)
            ok = status == 1 and ('FAIL: finish-args must not contain ' + arg) in output
            failed += not ok
            print('{} {} - refuses {}'.format('ok' if ok else 'not ok', number, arg))
            if not ok:
                print('# exit {}: {}'.format(status, output.replace('\n', '\n# ')))
        # Recognition's data and libraries: each required language left out, and a git
        # source without its commit, must fail.
        number = len(DANGEROUS) + 2
        for language in REQUIRED_TESSDATA:
            bad = json.loads(json.dumps(manifest))
            for module in bad['modules']:
                module['sources'] = [s for s in module.get('sources', [])
                                     if not (isinstance(s, dict) and s.get('url', '').endswith(
                                         '/' + language + '.traineddata'))]
            path = os.path.join(scratch, 'no-{}.json'.format(language))
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(bad, f)
            status, output = run(root, app_id, path)
            ok = status == 1 and 'no {}.traineddata shipped'.format(language) in output
            failed += not ok
            print('{} {} - refuses a manifest without {}.traineddata'.format(
                'ok' if ok else 'not ok', number, language))
            number += 1
        bad = json.loads(json.dumps(manifest))
        for module in bad['modules']:
            for source in module.get('sources', []):
                if isinstance(source, dict) and source.get('type') == 'git':
                    source.pop('commit', None)
        path = os.path.join(scratch, 'unpinned.json')
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(bad, f)
        status, output = run(root, app_id, path)
        ok = status == 1 and 'a git source needs its commit' in output
        failed += not ok
        print('{} {} - refuses a git source without its commit'.format('ok' if ok else 'not ok',
                                                                     number))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
