#!/bin/sh
# Builds Decipher and opens the bundled sample: a PDF set in a legacy font whose text
# map lies. Until the window application lands, this shows what the engine sees.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build >/dev/null
ninja -C _build >/dev/null
pdf=${1:-data/sample.pdf}
echo "== Fonts of $pdf, and whether their text can be trusted"
_build/src/cli/decipher-cli fonts "$pdf"
echo
echo "== Its text as far as it is known (U+FFFD marks what is still to recover)"
_build/src/cli/decipher-cli text "$pdf"
echo
echo "== What copy/paste gives today (pdftotext)"
pdftotext -enc UTF-8 "$pdf" - | head -n 5
