#!/bin/sh
# Builds Decipher and runs every test; ends with "N passed, N failed".
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Four builds, all under _build/: the normal one runs every suite (the 'style' suite
# checks the C sources against .clang-format, build-aux/clang-format.sh); _build/asan runs the
# engine and the fuzz corpora again under AddressSanitizer (with LeakSanitizer) and
# UBSan; _build/tsan runs the engine tests under ThreadSanitizer (workers on tokens
# snapshots while the main thread changes the key, tests/test-threads.c) with every core
# kept busy beside it (by the ASan suite and the fuzzing smoke test, then by busy loops);
# _build/fuzz runs each libFuzzer target briefly (DECIPHER_FUZZ_SECONDS, 25 by default,
# the targets two at a time). Any failure makes the script exit non-zero, and the last
# line counts the cases of all four.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh build-aux/install-deps.sh
if [ -f _build/build.ninja ]; then
    meson setup --reconfigure _build >/dev/null
else
    meson setup _build >/dev/null
fi
ninja -C _build
status=0

# setup_build DIR OPTIONS…: configure DIR with OPTIONS, or reconfigure it if it exists.
setup_build() {
    dir=$1
    shift
    # set -e does not apply inside an if condition: each failure returns by hand.
    if [ -f "$dir/build.ninja" ]; then
        meson setup --reconfigure "$dir" "$@" >/dev/null || return 1
    else
        meson setup "$dir" "$@" >/dev/null || return 1
    fi
    # A log left from an earlier run must not count when this one fails to build.
    rm -f "$dir/meson-logs/testlog.json" "$dir/meson-logs/testlog-loaded.json"
}

# The three other builds compile while the normal build's tests run: the GUI tests run
# one at a time (is_parallel: false in tests/gui/meson.build), which leaves a core idle
# for minutes, and the other suites end with a few long tests. Their tests run once the GUI
# suite is done. The builds' output is shown after the GUI suite's, so the log reads as
# if they had run in turn.
# They are optimised less than the normal build (-O1, which the sanitizers' authors advise)
# and keep line tables only (-g1), enough for a report's stack: each compiles in half the
# time of -O2 -g (76 against 149 s for ASan, on a quiet machine), and their tests took as
# long either way.
sanitized="-Doptimization=1 -Dc_args=-g1 -Dcpp_args=-g1 -Db_lundef=false -Dgui=false"
builds_log=$(mktemp)
(
    built=0
    # shellcheck disable=SC2086 # $sanitized is a list of options
    if setup_build _build/asan -Db_sanitize=address,undefined $sanitized &&
        ninja -C _build/asan; then
        built=$((built + 1))
    fi
    # shellcheck disable=SC2086
    if setup_build _build/tsan -Db_sanitize=thread $sanitized && ninja -C _build/tsan; then
        built=$((built + 1))
    fi
    # libFuzzer: clang only (see the root meson.build).
    export CC=clang CXX=clang++
    # shellcheck disable=SC2086
    if setup_build _build/fuzz -Dfuzzing=true $sanitized && ninja -C _build/fuzz; then
        built=$((built + 1))
    fi
    [ "$built" -eq 3 ]
) >"$builds_log" 2>&1 &
builds=$!
rm -f _build/meson-logs/testlog-gui.json
meson test -C _build --print-errorlogs --no-rebuild --num-processes 2 --no-suite gui ||
    status=$?
meson test -C _build --print-errorlogs --no-rebuild --suite gui --logbase testlog-gui ||
    status=$?
wait "$builds" || status=1
cat "$builds_log"
rm -f "$builds_log"

# Sanitizers: their builds run several times slower than the normal one (ThreadSanitizer
# most), and the two suites run beside each other, so their tests get six times the time,
# or the loaded machine times them out.
# A memory error or undefined behaviour the normal build survives by luck
# fails here. UBSan must halt, or it would only print; GSlice must step aside so that
# ASan sees every allocation (GLib < 2.76); fuzz/lsan.supp would list leaks that are
# not ours, each with its reason (none so far). A leak report whose stack stops at
# g_malloc gets whole stacks with LSAN_OPTIONS=fast_unwind_on_malloc=0 (Debian's GLib
# has no frame pointers), at ten times the cost, so only when debugging one.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
LSAN_OPTIONS=suppressions=$top/fuzz/lsan.supp:print_suppressions=0
G_SLICE=always-malloc
G_DEBUG=gc-friendly
# GIO scans its module directory at the first GFile and keeps what it found for the life
# of the process; with GSlice out of the way, LeakSanitizer finds one of those modules
# unreachable (a GIOModule and its path, 96 + 58 bytes, under g_io_module_new, on a
# stock Debian 12 with glib-networking and dconf installed). The engine needs no GIO
# module (no network, no settings backend, local files only), so these runs get an
# empty module directory rather than a suppression broad enough to match GLib's
# g_malloc.
gio_modules=$(mktemp -d)
GIO_MODULE_DIR=$gio_modules
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS G_SLICE G_DEBUG GIO_MODULE_DIR

# ThreadSanitizer: a data race between a worker and the main thread fails here, even
# when the threads did not happen to overlap in this run. GLib is not instrumented:
# build-aux/tsan.supp says how our hand-offs avoid its invisible locks and names what
# is still suppressed, and src/libdecipher/base/dc-tsan-private.h how the rest are marked.
# The suite runs on a loaded machine, where threads are preempted at other points and a
# hand-off that works only when they are not shows up (issue 27). The load is the ASan
# suite, run beside it, then the fuzzing smoke test, then, once those are done, one busy
# loop per core, as a parallel build would be. The TSan suite used to run on a quiet
# machine first as well, and the ASan suite alone before both; as TSan finds a race from
# the order of synchronisation rather than from the threads meeting, the quiet run found
# nothing the loaded one does not, and busy loops did nothing the other suites do not: a
# third of CI, spent waiting.
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$top/build-aux/tsan.supp"
export TSAN_OPTIONS
load_log=$(mktemp)
load_pids=$(mktemp)
trap 'rm -rf "$gio_modules" "$load_log" "$load_pids"' EXIT
(
    load_status=0
    # A build that failed above has no test log, which count-tests.py counts as a failure.
    if [ -f _build/asan/build.ninja ]; then
        meson test -C _build/asan --suite engine --suite fuzz --print-errorlogs \
            --num-processes 2 --timeout-multiplier 6 || load_status=$?
    fi
    # libFuzzer: the targets are built with ASan+UBSan and coverage; a crash is kept in
    # _build/fuzz/fuzz/artifacts/. Each target runs for a time, not a number of inputs,
    # so the load beside it only makes it try fewer.
    if [ -f _build/fuzz/build.ninja ]; then
        meson test -C _build/fuzz --suite fuzz-smoke --print-errorlogs --num-processes 2 \
            || load_status=$?
    fi
    # The busy loops, each stopped by timeout(1) after 30 minutes at most should this
    # script be killed, and by kill below as soon as the TSan suite is done.
    for _ in $(seq "$(nproc)"); do
        timeout 1800 sh -c 'while :; do :; done' >/dev/null 2>&1 &
        echo $! >>"$load_pids"
    done
    exit $load_status
) >"$load_log" 2>&1 &
load=$!
if [ -f _build/tsan/build.ninja ]; then
    meson test -C _build/tsan --suite engine --print-errorlogs --num-processes 2 \
        --timeout-multiplier 6 --logbase testlog-loaded || status=$?
fi
wait "$load" || status=$?
# shellcheck disable=SC2046 # one process id a line, each a word
kill $(cat "$load_pids") 2>/dev/null || true
cat "$load_log"

python3 build-aux/count-tests.py _build/meson-logs/testlog.json \
    _build/meson-logs/testlog-gui.json _build/asan/meson-logs/testlog.json \
    _build/tsan/meson-logs/testlog-loaded.json _build/fuzz/meson-logs/testlog.json
exit $status
