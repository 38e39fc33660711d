#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Move generation speed of ttchess against Stockfish, both single-threaded:
# perft 6 of the start position and perft 5 of "kiwipete" (the second
# position of tests/data/perft-standard.txt).  Each program is timed by the
# wall clock around its whole process, start-up included, since that is
# what a user waits for.  Stockfish's start-up (its hash table allocated,
# about 0.3 s) is not move generation, so its time is also given less its
# start-up: the time of a whole process that counts "go perft 1" of the
# same position, measured in the same run, is subtracted.  Each run is
# made twice and the faster one counts, to damp the noise of a busy
# machine.  Both programs must agree on every node count, or the script
# fails.
#
# Usage: bench/perft-speed.sh     (TTCHESS and STOCKFISH may be set)

# The runners are called through best_of_two's "$runner", which shellcheck
# cannot follow.
# shellcheck disable=SC2317

set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

./scripts/ensure-packages stockfish:/usr/games/stockfish
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}

# Build ttchess (with -march=native, as make bench does) unless the caller
# named a binary of its own.
if [ -z "${TTCHESS:-}" ]; then
    make -s BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess
    TTCHESS=$root/build-bench/ttchess
fi

SUITE=$root/tests/data/perft-standard.txt
START_FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# The second position of the suite ("kiwipete").
KIWIPETE=$(grep -v '^#' "$SUITE" | grep -v '^[[:space:]]*$' | sed -n 2p | cut -d';' -f1 | sed 's/[[:space:]]*$//')

# Seconds since the epoch, with microseconds.
now() {
    echo "$EPOCHREALTIME"
}

# elapsed T0 T1: the difference in seconds.
elapsed() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'
}

# The node count from a program's perft output.
nodes_of() {
    { grep -E '^Nodes searched: [0-9]+$' || true; } | tail -n 1 | sed 's/^Nodes searched: //'
}

# run_ttchess FEN DEPTH: sets NODES and SECS for one timed run.
run_ttchess() {
    local t0 t1 out
    t0=$(now)
    # A failing run must reach best_of_two's error message, not stop set -e.
    out=$("$TTCHESS" perft --fen "$1" "$2" 2>/dev/null) || true
    t1=$(now)
    NODES=$(printf '%s\n' "$out" | nodes_of)
    SECS=$(elapsed "$t0" "$t1")
}

# run_stockfish FEN DEPTH: the same with Stockfish's "go perft", on one
# thread (perft does not use more, but the setting makes sure).
run_stockfish() {
    local t0 t1 out position
    if [ "$1" = "$START_FEN" ]; then position="position startpos"; else position="position fen $1"; fi
    t0=$(now)
    out=$(printf 'setoption name Threads value 1\n%s\ngo perft %s\nquit\n' "$position" "$2" | "$STOCKFISH" 2>/dev/null) || true
    t1=$(now)
    NODES=$(printf '%s\n' "$out" | nodes_of)
    SECS=$(elapsed "$t0" "$t1")
}

# best_of_two RUNNER FEN DEPTH: runs twice; sets BEST_NODES and BEST_SECS.
# A count that differs between the two runs is an error in itself.
best_of_two() {
    local runner=$1 fen=$2 depth=$3 first_nodes first_secs
    "$runner" "$fen" "$depth"
    first_nodes=$NODES
    first_secs=$SECS
    "$runner" "$fen" "$depth"
    if [ -z "$NODES" ] || [ "$NODES" != "$first_nodes" ]; then
        echo "error: $runner gave no count or two different counts ($first_nodes, $NODES) for depth $depth of $fen" >&2
        exit 1
    fi
    BEST_NODES=$NODES
    BEST_SECS=$(awk -v a="$first_secs" -v b="$SECS" 'BEGIN { print (a < b ? a : b) }')
}

status=0
rows=()

# bench NAME FEN DEPTH: times both programs and adds a row to the table.
bench() {
    local name=$1 fen=$2 depth=$3 tt_nodes tt_secs sf_nodes sf_secs sf_start
    best_of_two run_ttchess "$fen" "$depth"
    tt_nodes=$BEST_NODES
    tt_secs=$BEST_SECS
    best_of_two run_stockfish "$fen" "$depth"
    sf_nodes=$BEST_NODES
    sf_secs=$BEST_SECS
    best_of_two run_stockfish "$fen" 1
    sf_start=$BEST_SECS
    if [ "$tt_nodes" != "$sf_nodes" ]; then
        echo "error: $name depth $depth: ttchess counts $tt_nodes, Stockfish $sf_nodes" >&2
        status=1
    fi
    rows+=("$(awk -v name="$name" -v d="$depth" -v n="$tt_nodes" -v ts="$tt_secs" -v ss="$sf_secs" -v s0="$sf_start" 'BEGIN {
        tr = n / ts; sr = n / ss; sc = ss - s0; if (sc < 0.001) sc = 0.001; sq = n / sc
        printf "%-10s %5d %12d %8.3f %8.3f %8.3f %14.0f %14.0f %14.0f %8.3f %8.3f", name, d, n, ts, ss, s0, tr, sr, sq, tr / sr, tr / sq }')")
}

bench start "$START_FEN" 6
bench kiwipete "$KIWIPETE" 5

printf '%-10s %5s %12s %8s %8s %8s %14s %14s %14s %8s %8s\n' position depth nodes "tt s" "SF s" "SF 0 s" \
    "ttchess n/s" "SF n/s" "SF-start n/s" ratio "ratio-s"
printf '%s\n' "${rows[@]}"
echo "(one thread, best of two runs; tt s, SF s: wall clock around each whole process, start-up"
echo " included; SF 0 s: Stockfish's start-up, a whole process counting go perft 1 of the position;"
echo " SF-start n/s: nodes / (SF s - SF 0 s), Stockfish less its start-up;"
echo " ratio = ttchess n/s / SF n/s (whole processes); ratio-s = ttchess n/s / SF-start n/s)"
exit "$status"
