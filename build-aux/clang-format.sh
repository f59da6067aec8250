#!/bin/sh
# Checks that the C and C++ sources of src/ follow .clang-format (clang-format 14, as
# Debian 12 has it); with --fix, formats them in place. Files listed in
# build-aux/clang-format-pending.txt are left out (it says why).
#
# Usage: build-aux/clang-format.sh [--fix] [FILE…]   (no FILE: all of src/)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
fix=false
if [ "${1:-}" = --fix ]; then
    fix=true
    shift
fi
cf=
for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1; then
        cf=$c
        break
    fi
done
if [ -z "$cf" ]; then
    echo "$0: clang-format is not installed (Debian: apt install clang-format-14)" >&2
    exit 1
fi

if [ $# -eq 0 ]; then
    set -- $(find src -name '*.c' -o -name '*.h' -o -name '*.cc' | LC_ALL=C sort \
        | grep -vxF -f build-aux/clang-format-pending.txt)
    $fix || pending=$(grep -c '^src/' build-aux/clang-format-pending.txt || true)
fi
if $fix; then
    "$cf" -i --style=file "$@"
    exit 0
fi
bad=0
n_files=$#
# One clang-format for every file: starting one per file took 36 s of a 1 s check. Only
# when some file is off are they checked one by one, to name them.
if "$cf" --dry-run --Werror --style=file "$@" 2>/dev/null; then
    set --
fi
for f in "$@"; do
    if ! "$cf" --dry-run --Werror --style=file "$f" 2>/dev/null; then
        echo "$f does not follow .clang-format; see the changes with: $cf $f | diff $f -" >&2
        echo "  and make them with: sh build-aux/clang-format.sh --fix $f" >&2
        bad=$((bad + 1))
    fi
done
echo "clang-format: $n_files files checked, $bad not formatted${pending:+, $pending pending (build-aux/clang-format-pending.txt)}"
[ $bad -eq 0 ]
