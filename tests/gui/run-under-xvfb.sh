#!/bin/sh
# Runs a GUI test program under its own X server. Without xvfb-run the test is
# skipped (TAP "1..0 # SKIP"), with the package to install in the message.
# SPDX-License-Identifier: GPL-3.0-or-later
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "1..0 # SKIP xvfb-run is not installed: the GUI tests need an X server (apt install xvfb xauth)"
    exit 0
fi
# A screen as large as a laptop's, 24-bit, so screenshots look as users see the app.
exec xvfb-run -a -s "-screen 0 1400x900x24" "$@"
