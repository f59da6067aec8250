#!/bin/sh
# `decipher-cli text` against poppler's own pass over the same pages onto a device that
# keeps nothing (bench-poppler-pass.cc): what the engine adds to reading the PDF (issue 32:
# at most 1.15 times).
#
# Usage: bench/run-poppler-pass.sh [BUILD_DIR] [PAIRS] FILE.pdf…
#   BUILD_DIR  a release build (meson setup _build-release --buildtype=release); _build
#   PAIRS      paired runs per file (default 7)
#   CLI=PATH   time this decipher-cli (an earlier build, say) instead of BUILD_DIR's
#
# Each round runs the poppler pass, then `text`, one right after the other; the figure is
# the median of the rounds' ratios in CPU time (user + system), which the load of other
# processes does not inflate, with the load average beside it. Each round also runs
# `text --no-auto`, the same reading and writing without the decoding levels (no
# automatic guesses, no installed fonts): the line then says how much of what the engine
# adds is reading and laying out the pages, and how much is decoding them. As a new user: no
# library, no document cache. The 500-page book is bench/make-bench-pdf.sh's (TEXT=udhr),
# the varied book bench/make-varied-pdf.py's.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
pairs=7
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$1; shift; fi
case ${1:-} in ''|*[!0-9]*) ;; *) pairs=$1; shift ;; esac
if [ $# -eq 0 ]; then
    echo "usage: $0 [BUILD_DIR] [PAIRS] FILE.pdf…" >&2
    exit 2
fi
export DECIPHER_LIBRARY=
export DECIPHER_DOCUMENT_CACHE=0
ninja -C "$build" src/cli/decipher-cli bench/bench-poppler-pass >/dev/null
cli=${CLI:-$build/src/cli/decipher-cli}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu COMMAND…: its CPU seconds (user + system), its output in $work/out. From wait4(),
# to the microsecond: time(1) prints hundredths, and the 500-page book's pass takes about
# eleven of them, so its ratio moved by a tenth from one run to the next.
cpu () {
    python3 -c '
import os, subprocess, sys
with open(sys.argv[1], "wb") as out:
    child = subprocess.Popen(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
print("%.6f" % (usage.ru_utime + usage.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
' "$work/out" "$@"
}

median () {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for pdf in "$@"; do
    : > "$work/theirs"
    : > "$work/ours"
    : > "$work/ratios"
    : > "$work/bare"
    : > "$work/bare_ratios"
    i=0
    while [ $i -lt "$pairs" ]; do
        theirs=$(cpu "$build/bench/bench-poppler-pass" "$pdf")
        ours=$(cpu "$cli" text "$pdf")
        bare=$(cpu "$cli" text --no-auto "$pdf")
        echo "$theirs" >> "$work/theirs"
        echo "$ours" >> "$work/ours"
        echo "$bare" >> "$work/bare"
        echo "$ours $theirs" | awk '{ print $1 / $2 }' >> "$work/ratios"
        echo "$bare $theirs" | awk '{ print $1 / $2 }' >> "$work/bare_ratios"
        i=$((i + 1))
    done
    printf '%s: %s; CPU time, median of %d pairs: poppler pass %.4f s, text %.4f s, text / poppler pass %.3f (target 1.15); text --no-auto %.4f s, text --no-auto / poppler pass %.3f; load average %s\n' \
        "$(basename "$pdf")" "$("$build/bench/bench-poppler-pass" "$pdf")" "$pairs" \
        "$(median < "$work/theirs")" "$(median < "$work/ours")" "$(median < "$work/ratios")" \
        "$(median < "$work/bare")" "$(median < "$work/bare_ratios")" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
done
