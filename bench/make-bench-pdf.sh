#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# make-bench-pdf.sh OUT.pdf [PAGES]
#
# Makes a long legacy-kind PDF (default 320 pages, at least 300 is what the
# budgets in DESIGN.md section 6 talk about) for the benchmarks: the text of
# the legacy-cyrillic fixture, repeated, set in the remapped DejaVu copy whose
# ToUnicode lies, one font, space glyphs drawn.  Deterministic: same inputs,
# same bytes.
#
# Needs python3 with fontTools (Debian: python3-fonttools) and the DejaVu Sans
# font (fonts-dejavu-core).  Set TRUTH=OUT.json to also write the ground truth
# (large: about 80 bytes per glyph).

set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 OUT.pdf [PAGES]" >&2
	exit 2
fi
out=$1
pages=${2:-320}
case $pages in
	''|*[!0-9]*) echo "$0: PAGES must be a number" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../tests/fixtures/generate.py"

# A python3 that can import fontTools (a pyenv/venv python3 first on PATH may not).
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import fontTools' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "$0: needs python3 with fontTools (apt install python3-fonttools)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
case ${TEXT:-} in
	'') "$py" "$gen" --dump-text legacy-cyrillic > "$tmp/text.txt" ;;
	udhr)
		udhr=${UDHR:-$here/../../shared/udhr}
		for lang in rus eng sah ell_monotonic evn khk yrk niv eve ykg; do
			if [ ! -f "$udhr/udhr_$lang.txt" ]; then
				echo "$0: $udhr/udhr_$lang.txt is missing; set UDHR to the folder of the UDHR texts" >&2
				exit 1
			fi
			cat "$udhr/udhr_$lang.txt"
		done > "$tmp/text.txt" ;;
	*) cp "$TEXT" "$tmp/text.txt" ;;
esac

set -- --kind legacy --text "$tmp/text.txt" --pages-min "$pages" --out "$out"
if [ -n "${TRUTH:-}" ]; then
	set -- "$@" --truth "$TRUTH"
fi
"$py" "$gen" "$@"
