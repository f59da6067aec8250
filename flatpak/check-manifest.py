#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Offline sanity check of the Flatpak manifest.

Usage: check-manifest.py SOURCE_ROOT APP_ID [MANIFEST]

MANIFEST defaults to SOURCE_ROOT/flatpak/APP_ID.json; tests give others
(flatpak/test-check-manifest.py).

The real build needs the GNOME SDK and the network, which CI does not have;
this catches what can be caught without them: the manifest parses (and
flatpak-builder --show-manifest accepts it, when flatpak-builder is
installed), names the app, command and runtime we expect, grants no broad
sandbox hole (finish-args: only the few permissions a document viewer needs,
each broad one refused with its reason), pins every download with a sha256 (and every git
source with a commit), builds poppler with its core headers, builds leptonica and tesseract
and ships Tesseract's data for the scripts recognition must read (REQUIRED_TESSDATA), and
builds the app from this source tree.  Meson runs it
as the test 'flatpak-manifest' (suite 'flatpak').
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Recognition (issue 13) reads Latin, Cyrillic, Devanagari, Arabic and Han at least; the
# app looks for the data in /app/share/tessdata (src/libdecipher/evidence/dc-recognize.c).
REQUIRED_TESSDATA = ['eng', 'rus', 'hin', 'ara', 'chi_sim']

REQUIRED_FINISH_ARGS = ['--share=ipc', '--socket=fallback-x11', '--socket=wayland', '--device=dri']

# Every permission the app may have. Files come through the document portal, so no
# --filesystem is needed at all; anything new must be argued for here.
ALLOWED_FINISH_ARGS = set(REQUIRED_FINISH_ARGS)

# Why the dangerous ones are refused, so the failure says it (checked first).
REFUSED_FINISH_ARGS = [
    (r'--filesystem=(/|host|host-os|host-etc|home|~)([/:].*)?$',
     'gives the app the user\'s files or the whole system; files come through the portal'),
    (r'--filesystem=.*', 'grants file access; files come through the document portal'),
    (r'--device=(all|kvm|shm)$', 'opens devices beyond the GPU (--device=dri)'),
    (r'--socket=(session-bus|system-bus)$', 'gives the whole D-Bus, around every portal'),
    (r'--socket=(ssh-auth|gpg-agent|pcsc|cups|pulseaudio|x11)$',
     'opens a service Decipher does not use'),
    (r'--talk-name=org\.freedesktop\.Flatpak$',
     'lets the app run commands outside the sandbox (flatpak-spawn --host)'),
    (r'--(system-)?talk-name=.*', 'talks to a D-Bus service Decipher does not use'),
    (r'--(system-)?own-name=.*', 'owns a D-Bus name Decipher does not need'),
    (r'--share=network$', 'opens the network, and Decipher works offline'),
    (r'--allow=.*', 'lifts a sandbox restriction'),
]


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__)
        return 2
    root, app_id = argv[1], argv[2]
    path = argv[3] if len(argv) == 4 else os.path.join(root, 'flatpak', app_id + '.json')
    problems = []

    def check(ok, message):
        if not ok:
            problems.append(message)

    try:
        with open(path, encoding='utf-8') as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        print('flatpak-manifest: FAIL: cannot read {}: {}'.format(path, e))
        return 1

    check(manifest.get('id', manifest.get('app-id')) == app_id,
          'id is {!r}, expected {!r}'.format(manifest.get('id'), app_id))
    check(manifest.get('command') == 'decipher', 'command must be "decipher"')
    check(manifest.get('runtime') == 'org.gnome.Platform', 'runtime must be org.gnome.Platform')
    check(manifest.get('sdk') == 'org.gnome.Sdk', 'sdk must be org.gnome.Sdk')
    check(re.fullmatch(r'\d+', str(manifest.get('runtime-version', ''))) is not None,
          'runtime-version must be a stable GNOME release number, not {!r}'
          .format(manifest.get('runtime-version')))

    finish_args = manifest.get('finish-args', [])
    for arg in REQUIRED_FINISH_ARGS:
        check(arg in finish_args, 'finish-args lacks ' + arg)
    if not isinstance(finish_args, list) or not all(isinstance(a, str) for a in finish_args):
        check(False, 'finish-args must be a list of strings')
        finish_args = []
    for arg in finish_args:
        reason = next((why for pattern, why in REFUSED_FINISH_ARGS
                       if re.match(pattern, arg.strip())), None)
        if reason:
            check(False, 'finish-args must not contain {}: it {}'.format(arg, reason))
        else:
            check(arg in ALLOWED_FINISH_ARGS,
                  'finish-args must not contain {}: Decipher needs only {}; argue for a new '
                  'permission in ALLOWED_FINISH_ARGS'.format(arg, ', '.join(REQUIRED_FINISH_ARGS)))

    modules = manifest.get('modules', [])
    names = [m.get('name') if isinstance(m, dict) else m for m in modules]
    for module in modules:
        if not isinstance(module, dict):
            continue
        for source in module.get('sources', []):
            if not isinstance(source, dict):
                continue
            if source.get('type') in ('archive', 'file'):
                url = source.get('url', '')
                check(url.startswith('https://'),
                      'module {}: source url must be https: {!r}'.format(module['name'], url))
                check(re.fullmatch(r'[0-9a-f]{64}', source.get('sha256', '')) is not None,
                      'module {}: {} needs a real sha256'.format(module['name'], url))
            if source.get('type') == 'git':
                check(source.get('url', '').startswith('https://'),
                      'module {}: git url must be https'.format(module['name']))
                check(re.fullmatch(r'[0-9a-f]{40}', source.get('commit', '')) is not None,
                      'module {}: a git source needs its commit'.format(module['name']))

    poppler = next((m for m in modules if isinstance(m, dict) and m.get('name') == 'poppler'), None)
    check(poppler is not None, 'no "poppler" module')
    if poppler:
        check('-DENABLE_UNSTABLE_API_ABI_HEADERS=ON' in poppler.get('config-opts', []),
              'poppler must be built with -DENABLE_UNSTABLE_API_ABI_HEADERS=ON '
              '(the engine uses its core headers)')
    check('poppler-data' in names, 'no "poppler-data" module (CJK and legacy encodings)')
    for name in ('leptonica', 'tesseract'):
        check(name in names, 'no "{}" module (recognition links libtesseract)'.format(name))
    shipped = set()
    for module in modules:
        if not isinstance(module, dict):
            continue
        for source in module.get('sources', []):
            if isinstance(source, dict) and source.get('type') == 'file':
                base = os.path.basename(source.get('dest-filename') or source.get('url', ''))
                if base.endswith('.traineddata'):
                    shipped.add(base[:-len('.traineddata')])
                    check(any('share/tessdata' in c for c in module.get('build-commands', [])),
                          'module {}: traineddata must go to ${{FLATPAK_DEST}}/share/tessdata'
                          .format(module['name']))
    for language in REQUIRED_TESSDATA:
        check(language in shipped, 'no {}.traineddata shipped (recognition reads it)'.format(language))

    app = modules[-1] if modules and isinstance(modules[-1], dict) else {}
    check(app.get('buildsystem') == 'meson', 'the last module must be the app, built with meson')
    check(any(isinstance(s, dict) and s.get('type') == 'dir' and s.get('path') == '..'
              for s in app.get('sources', [])),
          'the app module must build this tree: {"type": "dir", "path": ".."}')

    # What flatpak-builder exports must exist under the app id.
    for rel in ['data/{}.desktop.in', 'data/{}.metainfo.xml.in',
                'data/icons/hicolor/scalable/apps/{}.svg']:
        rel = rel.format(app_id)
        check(os.path.isfile(os.path.join(root, rel)), 'missing ' + rel)

    builder = shutil.which('flatpak-builder')
    if builder:
        # flatpak-builder leaves a .flatpak-builder/ state folder in its
        # working directory: keep that out of the source and build trees.
        with tempfile.TemporaryDirectory() as scratch:
            proc = subprocess.run([builder, '--show-manifest', os.path.abspath(path)],
                                  cwd=scratch, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, universal_newlines=True)
        check(proc.returncode == 0,
              'flatpak-builder --show-manifest rejects it: ' + proc.stderr.strip())
    else:
        print('flatpak-manifest: note: flatpak-builder not installed, '
              'skipping flatpak-builder --show-manifest')

    for p in problems:
        print('flatpak-manifest: FAIL: ' + p)
    print('flatpak-manifest: {} modules ({}); {} problem(s).'
          .format(len(modules), ', '.join(str(n) for n in names), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
