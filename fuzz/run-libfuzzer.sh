#!/bin/sh
# run-libfuzzer.sh FUZZER SEEDS ARTIFACTS: fuzz for $DECIPHER_FUZZ_SECONDS (default 25)
#
# The meson test suite 'fuzz-smoke' runs this for each target under -Dfuzzing=true.
# New inputs go to a temporary folder, named first so that libFuzzer writes there: the
# seed corpus in git is only read. A crash, leak, timeout or out-of-memory input is kept
# in ARTIFACTS and makes the test fail with libFuzzer's report on stderr.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
fuzzer=$1
seeds=$2
artifacts=$3
seconds=${DECIPHER_FUZZ_SECONDS:-25}

work=$(mktemp -d "${TMPDIR:-/tmp}/decipher-fuzz-corpus-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

# -timeout: a slow input is cancelled by the target after 3 s; 20 s is a hang.
# -rss_limit_mb: a few pages of glyphs never need 2 GB; more is a memory bomb.
# -error_exitcode: libFuzzer's default, 77, means "skipped" to meson.
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -error_exitcode=1 -timeout_exitcode=1 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$seeds"
