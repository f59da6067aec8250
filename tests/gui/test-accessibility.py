#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-accessibility.py: the window as a screen reader finds it (issue 31.9)

Runs the real application with GTK's AT-SPI backend on its own session bus (the meson
test wraps it in xvfb-run and dbus-run-session) and reads the accessibility tree as Orca
would, through libatspi:

- every control has a name a person can understand: not GTK's type name ("GtkImage",
  "GtkMenuButton", "GtkListItemWidget"), not a mnemonic ("_Open Open"), not empty;
- the glyph cursor on the page says the glyph's value as well as its code and font.

Usage: test-accessibility.py DECIPHER FIXTURES_DIR   (TAP on stdout)
"""

import os
import re
import subprocess
import sys
import time

# The TAP stream: file descriptor 3 when the meson test gives one, since the bus's
# daemons write their own notes to the standard output they inherit.
try:
    tap = os.fdopen(3, 'w')
except OSError:
    tap = sys.stdout

try:
    import gi

    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, GLib
except (ImportError, ValueError) as error:
    print(f'Bail out! libatspi for Python is missing ({error}): '
          'apt install python3-gi gir1.2-atspi-2.0', file=tap)
    sys.exit(1)

TIMEOUT = 60

# The roles of what a user operates: each needs a name.
CONTROL_ROLES = {
    Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON, Atspi.Role.CHECK_BOX,
    Atspi.Role.RADIO_BUTTON, Atspi.Role.COMBO_BOX, Atspi.Role.SPIN_BUTTON,
    Atspi.Role.ENTRY, Atspi.Role.PASSWORD_TEXT, Atspi.Role.SLIDER, Atspi.Role.TABLE_CELL,
    Atspi.Role.LIST_ITEM, Atspi.Role.MENU_ITEM, Atspi.Role.LINK, Atspi.Role.PAGE_TAB,
    Atspi.Role.TABLE, Atspi.Role.LIST, Atspi.Role.TREE, Atspi.Role.LEVEL_BAR,
    Atspi.Role.PROGRESS_BAR,
}
# Roles whose insides the focus never enters: the control is named, not its parts.
OPAQUE_ROLES = {Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON, Atspi.Role.COMBO_BOX,
                Atspi.Role.CHECK_BOX, Atspi.Role.RADIO_BUTTON}
TYPE_NAME = re.compile(r'^(Gtk|Adw|Decipher)[A-Z][A-Za-z]*$')
MNEMONIC = re.compile(r'(^|\s)_[^\s_]')

results = []


def report(ok, name, detail=''):
    results.append(ok)
    print(f'{"ok" if ok else "not ok"} {len(results)} {name}', file=tap)
    for line in detail.splitlines():
        print(f'# {line}', file=tap)
    tap.flush()


def wait_for(condition, what):
    """The first true value of @condition. A node that goes away while it is read (the
    tree is still being built or a list row recycled: libatspi then says "The application
    no longer exists") is not an answer: the tree is read again, from the application's
    current root, until TIMEOUT."""
    end = time.monotonic() + TIMEOUT
    last_error = None
    while time.monotonic() < end:
        try:
            value = condition()
        except GLib.Error as error:
            last_error, value = error, None
        if value:
            return value
        time.sleep(0.2)
    raise TimeoutError(f'timed out waiting for {what}'
                       + (f' (last error: {last_error.message})' if last_error else ''))


def application_of(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        child = desktop.get_child_at_index(i)
        if child is not None and child.get_process_id() == pid and child.get_child_count() > 0:
            return child
    return None


def children(node):
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        if child is not None:
            yield child


def walk(node, path=()):
    """Every node under @node (itself included) with the names of its ancestors."""
    yield node, path
    here = path + (f'{node.get_role_name()} {node.get_name()!r}',)
    for child in children(node):
        yield from walk(child, here)


def find(root, role, name):
    if root is None:
        return None
    for node, _ in walk(root):
        if node.get_role() == role and node.get_name() == name:
            return node
    return None


def is_control(node):
    role = node.get_role()
    if role in CONTROL_ROLES:
        return True
    return (node.get_state_set().contains(Atspi.StateType.FOCUSABLE)
            and role not in (Atspi.Role.SCROLL_PANE, Atspi.Role.FILLER))


def unnamed_controls(root):
    problems = []
    checked = 0

    def visit(node, path, inside_control):
        nonlocal checked
        control = not inside_control and is_control(node)
        if control:
            checked += 1
            name = node.get_name() or ''
            why = None
            if not name.strip():
                why = 'no name'
            elif TYPE_NAME.match(name):
                why = 'named by its type'
            elif MNEMONIC.search(name):
                why = 'named with a mnemonic underscore'
            if why:
                problems.append(f'{node.get_role_name()} {name!r}: {why}, under '
                                + ' > '.join(path[-3:]))
        here = path + (f'{node.get_role_name()} {node.get_name()!r}',)
        opaque = inside_control or (control and node.get_role() in OPAQUE_ROLES)
        for child in children(node):
            visit(child, here, opaque)

    visit(root, (), False)
    return checked, problems


def press(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def main():
    decipher, fixtures = sys.argv[1:3]
    env = dict(os.environ, GTK_A11Y='atspi')
    command = [decipher, os.path.join(fixtures, 'legacy-cyrillic.pdf')]
    # The accessibility bus first: its launcher starting while the application opened
    # the display made the application's connection fail ("cannot open display").
    Atspi.get_desktop(0).get_child_count()
    app = subprocess.Popen(command, env=env)
    print('1..3', file=tap)
    try:
        def root():
            if app.poll() is not None:
                raise TimeoutError(f'the application exited with status {app.returncode}')
            return application_of(app.pid)

        def palette():
            return find(root(), Atspi.Role.TABLE, 'Glyph palette')

        wait_for(root, 'the application on the AT-SPI bus')
        wait_for(lambda: palette() and palette().get_child_count() > 2, "the palette's cells")

        checked, problems = wait_for(lambda: root() and (unnamed_controls(root()),),
                                     'a whole walk')[0]
        report(not problems and checked >= 30,
               'every control has a name',
               f'{checked} controls checked\n' + '\n'.join(problems))

        def cell_names():
            table = palette()
            return table and ([c.get_name() or '' for c in children(table)
                               if c.get_role() == Atspi.Role.TABLE_CELL],)

        names = wait_for(cell_names, "the palette's cells, read whole")[0]
        report(bool(names) and all('Value:' in name for name in names),
               "the palette's cells say their symbol and value",
               '\n'.join(repr(name) for name in names[:3]))

        page = wait_for(lambda: (find(root(), Atspi.Role.PANEL, 'Pages of the document'),),
                        'the page, read whole')[0]
        described = ''
        if page is not None:
            # The window gives the page the focus once the document is shown.
            wait_for(lambda: page.get_state_set().contains(Atspi.StateType.FOCUSED),
                     'the page to have the focus')
            press(0xff53)  # Right: the glyph cursor comes out on the first glyph on screen
            try:
                described = wait_for(
                    lambda: (page.get_description() or '').startswith('Value:')
                    and page.get_description(), 'the cursor to be described')
            except TimeoutError:
                described = page.get_description() or ''
        report(described.startswith('Value:') and 'Code 0x' in described
               and 'DecipherTestSans' in described,
               'the glyph cursor says value, code and font', f'description: {described!r}')
    except TimeoutError as error:
        print(f'Bail out! {error}', file=tap)
        return 1
    finally:
        app.terminate()
        try:
            app.wait(timeout=30)
        except subprocess.TimeoutExpired:
            app.kill()
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
