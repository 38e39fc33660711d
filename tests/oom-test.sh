#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Out of memory, everywhere: runs commands of ttchess once to count their
# allocations, then once for each allocation with that allocation and all
# later ones failing (tests/oom/failmalloc.c, preloaded).  Every run must
# either finish as usual, with the same output, or print exactly one line
# "error: out of memory" and exit with status 2: never crash, hang, print a
# wrong answer, or fail silently.  "error: ... out of memory" may name
# where (e.g. "error: move 1 (e4): out of memory").  A command that fails
# anyway (a refused move) must fail the same way or run out of memory.
# Plain builds only (the sanitizers bring their own allocator).
#
# Usage: TTCHESS=build/ttchess FAILMALLOC=build/tests/failmalloc.so tests/oom-test.sh

set -u
TTCHESS=${TTCHESS:-build/ttchess}
FAILMALLOC=${FAILMALLOC:-build/tests/failmalloc.so}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Most commands allocate a few hundred times; past this many failure points
# every other one is tried.
DENSE=400

# check NAME ARGS...: standard input is $INPUT, else nothing.
check() {
    local name=$1
    shift
    LD_PRELOAD=$FAILMALLOC FAIL_COUNT_FILE=$tmp/count timeout 20 "$TTCHESS" "$@" >"$tmp/want" 2>"$tmp/want.err" <"${INPUT:-/dev/null}"
    local want_rc=$? total rc
    total=$(cat "$tmp/count" 2>/dev/null || echo 0)
    if [ "$total" -eq 0 ]; then
        echo "FAIL: $name: no allocation counted (status $want_rc)"
        failed=$((failed + 1))
        return
    fi
    local at=1 bad=0 step=1 runs=0
    while [ "$at" -le "$total" ]; do
        LD_PRELOAD=$FAILMALLOC FAIL_AT=$at timeout 20 "$TTCHESS" "$@" >"$tmp/out" 2>"$tmp/err" <"${INPUT:-/dev/null}"
        rc=$?
        runs=$((runs + 1))
        if [ "$rc" -eq "$want_rc" ] && cmp -s "$tmp/out" "$tmp/want" &&
            { [ "$rc" -eq 0 ] || cmp -s "$tmp/err" "$tmp/want.err"; }; then
            :
        elif [ "$rc" -eq 2 ]; then
            if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qE '^error: (.*: )?out of memory$' "$tmp/err"; then
                echo "FAIL: $name: allocation $at failed: $(head -c 200 "$tmp/err")"
                bad=1
            fi
        elif [ "$rc" -eq 0 ]; then
            echo "FAIL: $name: allocation $at failed and the output changed"
            bad=1
        else
            echo "FAIL: $name: allocation $at failed: exit status $rc"
            bad=1
        fi
        [ "$bad" -eq 1 ] && break
        [ "$at" -ge "$DENSE" ] && step=$(((total - DENSE) / 200 + 1))
        at=$((at + step))
    done
    if [ "$bad" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

SAMPLE=tests/data/gifford-sample.sheets
check "perft" perft --variant gifford 2
check "perft --divide" perft --variant gifford --divide 2
check "moves" moves --variant gifford --moves "e4 d5 d2>3 dxe4 P@d4 Qd5"
check "status" status --variant gifford --moves "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7"
check "bad move" status --variant gifford --moves "e4 e5 Ke2>9"
check "replay" replay --variant gifford "$SAMPLE"
check "export --pgn" export --pgn --variant gifford "$SAMPLE"
check "export --sheets" export --sheets --variant gifford "$SAMPLE"
printf 'e4\nd2>5\nmoves\nhistory\nundo\nNf3\nhelp\nresign\nquit\n' >"$tmp/play.in"
INPUT=$tmp/play.in check "play" play --variant gifford --ascii --moves "d4 e5"

echo "oom tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
