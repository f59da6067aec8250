#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# make-fonts-book.sh OUT.pdf OUT.json [PARTS]
#
# A book in many fonts for the window's benchmarks (bench-window-latency): PARTS parts
# (20 unless told) of 25 pages each, every part a legacy PDF of its own
# (tests/fixtures/generate.py --kind legacy) in a font and language of its own, merged
# with qpdf; the truth is the parts' truths one after the other. Each part's font is a
# remapped subset, so a 20-part book has 20 untrusted fonts and about 20 times the
# symbols of make-bench-pdf.sh's one-font book: the work a key change costs per symbol
# or per font shows.
#
# Needs python3 with fontTools, qpdf, fonts-dejavu-core and fonts-liberation2, and the
# UDHR texts (UDHR=folder, default ../shared/udhr beside the project).

set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 OUT.pdf OUT.json [PARTS]" >&2
	exit 2
fi
out=$1
truth=$2
parts=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../tests/fixtures/generate.py"
udhr=${UDHR:-$here/../../shared/udhr}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

langs="rus eng ell_monotonic sah evn yrk niv khk eve ykg"
fonts="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf
/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf
/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf
/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf
/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf
/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf
/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf
/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf
/usr/share/fonts/truetype/liberation2/LiberationSans-Italic.ttf"
n_langs=$(echo $langs | wc -w)
n_fonts=$(echo "$fonts" | wc -l)

i=0
pdfs=""
while [ $i -lt "$parts" ]; do
	lang=$(echo $langs | cut -d' ' -f$((i % n_langs + 1)))
	font=$(echo "$fonts" | sed -n "$((i % n_fonts + 1))p")
	if [ ! -f "$udhr/udhr_$lang.txt" ]; then
		echo "$0: $udhr/udhr_$lang.txt is missing; set UDHR to the folder of the UDHR texts" >&2
		exit 1
	fi
	python3 "$gen" --kind legacy --text "$udhr/udhr_$lang.txt" --font "$font" --pages-min 25 \
		--out "$tmp/part$i.pdf" --truth "$tmp/part$i.json" >/dev/null
	pdfs="$pdfs $tmp/part$i.pdf"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # one argument per part
qpdf --empty --pages $pdfs -- "$out"
python3 - "$tmp" "$parts" "$truth" <<'EOF'
import json, sys
folder, parts, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pages = []
for i in range(parts):
    pages += json.load(open(f"{folder}/part{i}.json", encoding="utf-8"))["pages"]
json.dump({"pages": pages}, open(out, "w", encoding="utf-8"), ensure_ascii=False)
EOF
echo "$out: $parts fonts, $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['pages']))" "$truth") pages"
