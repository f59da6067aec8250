#!/bin/sh
# Builds Decipher and opens the bundled sample in the window application: a PDF set in
# a legacy font whose text map lies (data/sample.pdf), or the PDF given as argument.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build >/dev/null
ninja -C _build >/dev/null
pdf=${1:-data/sample.pdf}
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "No display to open a window on. Run this from a desktop session, or try"
    echo "the headless tool: _build/src/cli/decipher-cli text $pdf"
    exit 1
fi
# Uninstalled, the application finds its settings schema in the build tree, where
# data/meson.build compiles it.
GSETTINGS_SCHEMA_DIR="$top/_build/data" exec _build/src/app/decipher "$pdf"
