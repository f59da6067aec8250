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
#   BOOK=FILE.pdf BOOK2=FILE.pdf: use these (the book, and twice the book) instead of
#              making them
#   CLI=PATH   time this decipher-cli (an earlier build, say) instead of BUILD_DIR's
#
# Paired runs: each round times pdftotext -bbox, then `glyphs --json`, then `text`, then
# `text --format json` (issue 32: at most 1.0× pdftotext -bbox, its memory flat in
# pages: the peak RSS of that run is printed beside its output's size), one right after
# the other, so that a change of the machine's load weighs on all three alike;
# each ratio is that round's, and the median of the rounds' ratios is the figure, in CPU
# time (user + system) and in wall-clock time. On a shared machine the load average
# printed beside them says how far to trust the wall clock.
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
# What is measured is reading the PDF: never a document opened again from the cache
# (dc-document-cache.c), which every round after the first would otherwise be.
export DECIPHER_DOCUMENT_CACHE=0

ninja -C "$build" src/cli/decipher-cli bench/bench-extract >/dev/null
# CLI=PATH: time that decipher-cli instead (an earlier build, to compare before and after).
cli=${CLI:-$build/src/cli/decipher-cli}
# BOOK and BOOK2 (the same book at twice the pages) may be given, made beforehand.
if [ -n "${BOOK:-}" ] && [ -n "${BOOK2:-}" ]; then
    ln -s "$(realpath "$BOOK")" "$work/small.pdf"
    ln -s "$(realpath "$BOOK2")" "$work/large.pdf"
else
    sh "$top/bench/make-bench-pdf.sh" "$work/small.pdf" "$pages" >/dev/null
    sh "$top/bench/make-bench-pdf.sh" "$work/large.pdf" $((pages * 2)) >/dev/null
fi

# run NAME OUT COMMAND…: runs COMMAND with its output in OUT, and appends its wall-clock
# and CPU (user + system) seconds to $work/NAME.wall and $work/NAME.cpu. CPU time is what
# to go by on a loaded machine: waiting for a core counts in the wall clock only.
run () {
    name=$1
    out=$2
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$out" 2>/dev/null
    awk '{ print $1 }' "$work/time" >> "$work/$name.wall"
    awk '{ print $2 + $3 }' "$work/time" >> "$work/$name.cpu"
    awk '{ print $4 }' "$work/time" >> "$work/$name.rss"
}

median () {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratios NAME KIND: each round's NAME time over pdftotext's, one a line.
ratios () {
    paste "$work/$1.$2" "$work/theirs.$2" | awk '{ print $1 / $2 }'
}

pdf=$work/small.pdf
i=0
while [ $i -lt "$pairs" ]; do
    # pdftotext writes its own file; ours write theirs to a file too, not to /dev/null.
    run theirs /dev/null pdftotext -bbox "$pdf" "$work/out.html"
    run json "$work/out.json" "$cli" glyphs --json "$pdf"
    run text "$work/out.txt" "$cli" text "$pdf"
    run textjson "$work/out-text.json" "$cli" text --format json "$pdf"
    i=$((i + 1))
    printf 'pair %d: pdftotext -bbox %s s, glyphs --json %s s, text %s s, text --format json %s s (CPU: %s, %s, %s, %s)\n' $i \
        "$(tail -n1 "$work/theirs.wall")" "$(tail -n1 "$work/json.wall")" \
        "$(tail -n1 "$work/text.wall")" "$(tail -n1 "$work/textjson.wall")" \
        "$(tail -n1 "$work/theirs.cpu")" "$(tail -n1 "$work/json.cpu")" \
        "$(tail -n1 "$work/text.cpu")" "$(tail -n1 "$work/textjson.cpu")"
done

printf 'PDF: %s pages, %s bytes; load average %s\n' "$pages" "$(stat -L -c %s "$pdf")" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
for kind in cpu wall; do
    printf '%s time, median of %d pairs: pdftotext -bbox %.3f s; glyphs --json / pdftotext %.2f (target 0.90); text / pdftotext %.2f (target 0.60); text --format json / pdftotext %.2f (target 1.0)\n' \
        "$kind" "$pairs" "$(median < "$work/theirs.$kind")" "$(ratios json $kind | median)" \
        "$(ratios text $kind | median)" "$(ratios textjson $kind | median)"
done
printf 'CPU medians: glyphs --json %.3f s, text %.3f s, text --format json %.3f s\n' \
    "$(median < "$work/json.cpu")" "$(median < "$work/text.cpu")" "$(median < "$work/textjson.cpu")"
printf 'text --format json: %s bytes written, peak RSS %s KiB (median), pdftotext -bbox %s KiB\n' \
    "$(stat -c %s "$work/out-text.json")" "$(median < "$work/textjson.rss")" \
    "$(median < "$work/theirs.rss")"

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
