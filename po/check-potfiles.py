#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that po/POTFILES.in lists every file with translatable strings.

Usage: check-potfiles.py [SOURCE_ROOT]

Scans src/ (*.c, *.h, *.cc, *.cpp, *.hh, *.hpp) and ui/ (*.ui, *.blp) for
translatable strings -- _("...), N_("...), C_(...), NC_(...), Q_("...),
ngettext(...), g_dngettext(...), and translatable="yes" in GtkBuilder XML --
and fails when such a file is missing from po/POTFILES.in, or when
POTFILES.in names a file that does not exist.  Files that deliberately carry
strings that must not be translated can be listed in po/POTFILES.skip.

Meson runs it as the test 'potfiles' (suite 'po'):
    meson test -C <builddir> --suite po
"""

import os
import re
import sys

SCAN_DIRS = {
    'src': ('.c', '.h', '.cc', '.cpp', '.hh', '.hpp'),
    'ui': ('.ui', '.blp'),
}

# C, C++ and Blueprint: gettext macros and functions with a literal argument.
CODE_PATTERNS = [
    re.compile(r'(?<![A-Za-z0-9_])(?:N|Q)?_\s*\(\s*"'),   # _("  N_("  Q_("
    re.compile(r'(?<![A-Za-z0-9_])N?C_\s*\(\s*"'),        # C_("ctx", "  NC_(
    # gettext("  ngettext("  dgettext(GETTEXT_PACKAGE, "  g_dngettext(NULL, "
    re.compile(r'(?<![A-Za-z0-9_])(?:d|g_d)?n?gettext\s*\(\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*,\s*)?"'),
    re.compile(r'(?<![A-Za-z0-9_])g_dpgettext2?\s*\(\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*,\s*)?"'),
]
# GtkBuilder XML.
UI_PATTERNS = [
    re.compile(r'''translatable\s*=\s*["'](?:yes|true|1)["']''', re.IGNORECASE),
]


def strip_c_comments(text):
    """Blank out // and /* */ comments, keeping strings and line numbers."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '/':
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def strip_xml_comments(text):
    return re.sub(r'<!--.*?-->', lambda m: re.sub(r'[^\n]', ' ', m.group(0)),
                  text, flags=re.DOTALL)


def first_translatable(path):
    """Return (line number, line text) of the first translatable string, or None."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError as e:
        sys.stderr.write('potfiles: cannot read {}: {}\n'.format(path, e))
        return None
    if path.endswith('.ui'):
        text = strip_xml_comments(text)
        patterns = UI_PATTERNS
    else:
        text = strip_c_comments(text)
        patterns = CODE_PATTERNS
    best = None
    for pattern in patterns:
        m = pattern.search(text)
        if m and (best is None or m.start() < best):
            best = m.start()
    if best is None:
        return None
    lineno = text.count('\n', 0, best) + 1
    with open(path, encoding='utf-8', errors='replace') as f:
        line = f.read().split('\n')[lineno - 1].strip()
    return lineno, line


def read_list(path):
    """Entries of a POTFILES-style list: {entry: line number}."""
    entries = {}
    if not os.path.exists(path):
        return entries
    with open(path, encoding='utf-8') as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith('#') or line.startswith('['):
                continue
            entries[line] = lineno
    return entries


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    potfiles_in = os.path.join(root, 'po', 'POTFILES.in')
    if not os.path.exists(potfiles_in):
        print('potfiles: FAIL: {} does not exist.'.format(potfiles_in))
        return 1

    listed = read_list(potfiles_in)
    skipped = read_list(os.path.join(root, 'po', 'POTFILES.skip'))

    scanned = 0
    found = {}
    for top, suffixes in SCAN_DIRS.items():
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for name in sorted(filenames):
                if not name.endswith(suffixes):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                scanned += 1
                hit = first_translatable(path)
                if hit:
                    found[rel] = hit

    missing = sorted(rel for rel in found if rel not in listed and rel not in skipped)
    absent = sorted((lineno, entry) for entry, lineno in listed.items()
                    if not os.path.isfile(os.path.join(root, entry)))

    for rel in missing:
        lineno, line = found[rel]
        print('potfiles: FAIL: {} has translatable strings but is not in po/POTFILES.in.'
              .format(rel))
        print('    first one at {}:{}: {}'.format(rel, lineno, line[:100]))
        print('    fix: add this line to po/POTFILES.in (keep the list sorted):')
        print('        {}'.format(rel))
        print('    (or, if these strings must not be translated, add it to po/POTFILES.skip)')
    for lineno, entry in absent:
        print('potfiles: FAIL: po/POTFILES.in:{} lists {}, which does not exist.'
              .format(lineno, entry))
        print('    fix: remove that line from po/POTFILES.in, or correct the path.')

    stale = sorted(entry for entry in listed
                   if entry.split('/', 1)[0] in SCAN_DIRS
                   and os.path.isfile(os.path.join(root, entry))
                   and entry not in found)
    for entry in stale:
        print('potfiles: note: {} is in po/POTFILES.in but has no translatable strings '
              '(harmless; remove it if that is permanent).'.format(entry))

    if missing:
        print()
        print('Add these lines to po/POTFILES.in:')
        for rel in missing:
            print('    {}'.format(rel))

    failed = len(missing) + len(absent)
    print('potfiles: scanned {} files under {}; {} with translatable strings; '
          '{} listed in POTFILES.in; {} problem(s).'
          .format(scanned, ' and '.join(d + '/' for d in SCAN_DIRS), len(found),
                  len(listed), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
