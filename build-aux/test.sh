#!/bin/sh
# Builds Decipher and runs every test; ends with "N passed, N failed".
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh build-aux/install-deps.sh
if [ -f _build/build.ninja ]; then
    meson setup --reconfigure _build >/dev/null
else
    meson setup _build >/dev/null
fi
ninja -C _build
status=0
meson test -C _build --print-errorlogs --num-processes 2 || status=$?
python3 build-aux/count-tests.py _build/meson-logs/testlog.json
exit $status
