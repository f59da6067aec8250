#!/bin/sh
# Extraction speed against pdftotext -bbox, and memory per glyph (issue 10: on the
# 500-page, 1 M-glyph book `glyphs --json` takes at most 0.9× and `text` at most 0.6× the
# time of `pdftotext -bbox`; at most 40 bytes per glyph after loading, counted as the slope
# of peak RSS between two sizes of the book).
#
# Usage: bench/run-extract.sh [BUILD_DIR] [PAGES] [PAIRS]
#   BUILD_DIR  a release build (meson setup _build-release --buildtype=release); _build
#   PAGES      pages of the generated book (default 500); the memory slope is measured
#              between PAGES and twice PAGES
#   PAIRS      paired runs (default 7)
#
# Paired runs: each round times pdftotext -bbox, then `glyphs --json`, then `text`, one
# right after the other, so that a change of the machine's load weighs on all three alike;
# each ratio is that round's, and the median of the rounds' ratios is the figure. On a
# shared machine the load average printed beside it says how far to trust the seconds.
# The book is the UDHR in ten languages (bench/make-bench-pdf.sh with TEXT=udhr; set
# TEXT= to use the Cyrillic fixture's text instead). Needs python3-fonttools.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
pages=${2:-500}
pairs=${3:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TEXT="${TEXT-udhr}"
export DECIPHER_LIBRARY=

ninja -C "$build" src/cli/decipher-cli bench/bench-extract >/dev/null
cli=$build/src/cli/decipher-cli
sh "$top/bench/make-bench-pdf.sh" "$work/small.pdf" "$pages" >/dev/null
sh "$top/bench/make-bench-pdf.sh" "$work/large.pdf" $((pages * 2)) >/dev/null

# seconds COMMAND…: the wall-clock time of one run, its output thrown away.
seconds () {
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    echo "$e - $s" | bc -l
}

median () {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

pdf=$work/small.pdf
: > "$work/json"
: > "$work/text"
: > "$work/theirs"
i=0
while [ $i -lt "$pairs" ]; do
    theirs=$(seconds pdftotext -bbox "$pdf" "$work/out.html")
    json=$(seconds "$cli" glyphs --json "$pdf")
    text=$(seconds "$cli" text "$pdf")
    echo "$theirs" >> "$work/theirs"
    echo "$json / $theirs" | bc -l >> "$work/json"
    echo "$text / $theirs" | bc -l >> "$work/text"
    printf 'pair %d: pdftotext -bbox %.3f s, glyphs --json %.3f s, text %.3f s\n' \
        $((i + 1)) "$theirs" "$json" "$text"
    i=$((i + 1))
done

printf 'PDF: %s pages, %s bytes; load average %s\n' "$pages" "$(stat -c %s "$pdf")" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'pdftotext -bbox median %.3f s\n' "$(median < "$work/theirs")"
printf 'glyphs --json / pdftotext -bbox: median of %d pairs %.2f (target 0.90)\n' \
    "$pairs" "$(median < "$work/json")"
printf 'text / pdftotext -bbox:          median of %d pairs %.2f (target 0.60)\n' \
    "$pairs" "$(median < "$work/text")"

# Memory: peak RSS after loading at two sizes; the slope between them is what one more
# glyph costs, whatever the fixed cost of the libraries.
small=$("$build/bench/bench-extract" "$work/small.pdf")
large=$("$build/bench/bench-extract" "$work/large.pdf")
echo "$small"
echo "$large"
g1=$(echo "$small" | awk '/^pages/ { print $4 }')
g2=$(echo "$large" | awk '/^pages/ { print $4 }')
r1=$(echo "$small" | awk '/^peak RSS after loading/ { print $5 }')
r2=$(echo "$large" | awk '/^peak RSS after loading/ { print $5 }')
printf 'peak RSS: %s KiB at %s glyphs, %s KiB at %s glyphs: %.1f bytes per glyph (target 40)\n' \
    "$r1" "$g1" "$r2" "$g2" "$(echo "($r2 - $r1) * 1024 / ($g2 - $g1)" | bc -l)"
