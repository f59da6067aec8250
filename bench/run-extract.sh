#!/bin/sh
# Extraction speed against pdftotext -bbox on a generated ≥300-page corrupted PDF
# (DESIGN §6: within 1.5×, goal 1.2×), and memory per glyph (≤ 64 bytes).
# Usage: bench/run-extract.sh [BUILD_DIR] [PAGES]
# Needs python3-fonttools to generate the PDF (bench/make-bench-pdf.sh).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
pages=${2:-320}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pdf=$work/bench.pdf

sh "$top/bench/make-bench-pdf.sh" "$pdf" "$pages" >/dev/null
ninja -C "$build" src/cli/decipher-cli bench/bench-extract >/dev/null

best_of () {
    # best of 5 wall-clock runs, in seconds
    best=""
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        t=$(echo "$e - $s" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

ours=$(best_of "$build/src/cli/decipher-cli" glyphs "$pdf")
theirs=$(best_of pdftotext -bbox "$pdf" "$work/out.html")
printf 'PDF: %s pages, %s bytes\n' "$pages" "$(stat -c %s "$pdf")"
"$build/bench/bench-extract" "$pdf"
printf 'decipher-cli glyphs: %.3f s\n' "$ours"
printf 'pdftotext -bbox:     %.3f s\n' "$theirs"
printf 'ratio: %.2f (budget 1.50, goal 1.20)\n' "$(echo "$ours / $theirs" | bc -l)"
