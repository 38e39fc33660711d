#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The deep perft counts: every count of tests/data/perft-standard.txt above
# five million leaves (the smaller ones run in tests/test_movegen.c, which
# uses the same limit), up to 706045033.  Each count is compared exactly.
# It takes seconds with an optimised build but minutes under the
# sanitizers, so it is not part of "make test".
#
# Usage: tests/perft-long.sh path/to/ttchess

set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 path/to/ttchess" >&2
    exit 2
fi
TTCHESS=$1
if [ ! -x "$TTCHESS" ]; then
    echo "error: $TTCHESS is not an executable" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
SUITE=$here/data/perft-standard.txt
if [ ! -r "$SUITE" ]; then
    echo "error: cannot read $SUITE" >&2
    exit 2
fi

# Counts at most this large are the fast tests' business.
FAST_LIMIT=5000000

passed=0
failed=0

# check NAME VARIANT FEN DEPTH EXPECTED: runs one perft and compares the
# count.  An empty FEN means the variant's start position.
check() {
    local name=$1 variant=$2 fen=$3 depth=$4 expected=$5
    local args=(perft --variant "$variant")
    [ -n "$fen" ] && args+=(--fen "$fen")
    local t0 t1 last got
    t0=$EPOCHREALTIME
    last=$("$TTCHESS" "${args[@]}" "$depth" 2>/dev/null | tail -n 1)
    t1=$EPOCHREALTIME
    got=${last#Nodes searched: }
    local secs
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    if [ "$last" = "Nodes searched: $expected" ]; then
        passed=$((passed + 1))
        printf 'ok    %-22s depth %d: %12s  (%5s s)\n' "$name" "$depth" "$expected" "$secs"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-22s depth %d: expected %s, got %s\n' "$name" "$depth" "$expected" "${got:-nothing}"
    fi
}

# One line of the suite: "FEN ;d1 ;d2 ;...".  Checks the depths whose
# counts are above the fast limit.
check_suite_line() {
    local number=$1 line=$2
    local fen=${line%%;*}
    fen=${fen%"${fen##*[! ]}"}
    local counts=${line#*;}
    local depth=0 count
    IFS=';' read -ra fields <<<"$counts"
    for count in "${fields[@]}"; do
        count=${count//[[:space:]]/}
        [ -z "$count" ] && continue
        depth=$((depth + 1))
        if [ "$count" -gt "$FAST_LIMIT" ]; then
            check "position $number" chess "$fen" "$depth" "$count"
        fi
    done
}

number=0
while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    case $line in
    '' | '#'*) continue ;;
    esac
    number=$((number + 1))
    check_suite_line "$number" "$line"
done <"$SUITE"

if [ "$number" -eq 0 ]; then
    echo "error: no positions in $SUITE" >&2
    exit 2
fi

# ---------------------------------------------------------------------------
# Gifford perft (time-travel chess) from the start position.  Depths 1-3 are
# in tests/test_gifford.c, where depth 3 is also counted by a second, plain
# implementation of the rules; depth 4 includes kings travelling back to
# move 1 from move 2.
# ---------------------------------------------------------------------------
check "gifford start" gifford "" 4 42442215

# ---------------------------------------------------------------------------
# van Gog perft from the start position at depth 3, each mode, and
# vangog-future's small tree at depth 5 (depths 1-2 and vangog-future's 3
# are in tests/test_vangog.c).  vangog-future's 5 was counted alike by the
# independent implementation tests/ref/vangog_ref.c.  The full and past
# modes count some 34-35 thousand million leaves: about a minute each.
# ---------------------------------------------------------------------------
check "vangog start" vangog "" 3 35078858974
check "vangog-past start" vangog-past "" 3 33916336482
check "vangog-future start" vangog-future "" 5 593713224

# ---------------------------------------------------------------------------
# Time Traveler's Chess from the start at depth 3 (depths 1-2 are in
# tests/test_travelers.c); the independent implementation
# tests/ref/travelers_ref.c counts the same.  About 40 seconds.
# ---------------------------------------------------------------------------
check "travelers start" travelers "" 3 423570263

# ---------------------------------------------------------------------------
# Chessgi: the base game's counts, which Fairy-Stockfish's chessgi counts
# alike (tests/fsf-compare.sh below compares the two programs in the same
# run on 100 more positions from random games), and Time Travel Chessgi
# from the start at depths 4 and 5 (depths 1-3 are in tests/test_chessgi_rules.c),
# with nodes per second beside standard chess's.
# ---------------------------------------------------------------------------
POCKETS="5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48"
check "chessgi-classic start" chessgi-classic "" 5 4889167
check "chessgi-classic start" chessgi-classic "" 6 120835923
check "chessgi-classic pockets" chessgi-classic "$POCKETS" 3 4434101
check "chessgi start" chessgi "" 4 6382543
check "chessgi start" chessgi "" 5 195835175
speed() {
    "$TTCHESS" perft "$@" 2>&1 >/dev/null | sed -n 's/.*, \([0-9]*\) nodes\/s/\1/p'
}
chess_nps=$(speed 6) chessgi_nps=$(speed --variant chessgi 5)
awk -v c="$chess_nps" -v g="$chessgi_nps" 'BEGIN {
    printf "      speed: chessgi perft 5 %.0f M nodes/s, standard perft 6 %.0f M nodes/s (%.2f of it)\n", g / 1e6, c / 1e6, g / c }'

# ---------------------------------------------------------------------------
# The rules compared with the independent implementation on many more
# random games than make test plays (tests/rules-compare.sh).
# ---------------------------------------------------------------------------
BUILD_DIR=$(dirname "$TTCHESS")

# compare_rules VARIANT GAMES EXTRA REFERENCE...: one rules-compare.sh run.
compare_rules() {
    local variant=$1 games=$2 extra=$3
    shift 3
    if RANDOM_GAME=$BUILD_DIR/tests/random-game RULES_DUMP=$BUILD_DIR/tests/rules-dump \
        "$here/rules-compare.sh" "$variant" "$games" 150 "$extra" "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}

for mode in vangog vangog-past vangog-future; do
    compare_rules "$mode" 200 "$here/data/vangog-games.txt" "$BUILD_DIR/tests/vangog-ref" "$mode" check
done
compare_rules travelers 400 "$here/data/travelers-games.txt" "$BUILD_DIR/tests/travelers-ref" check
for v in chessgi-classic chessgi; do
    compare_rules "$v" 400 "$here/data/chessgi-games.txt" "$BUILD_DIR/tests/chessgi-ref" "$v" check
done

if "$here/fsf-compare.sh" "$TTCHESS" "$BUILD_DIR/tests/random-game" 100 3; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi

echo "perft-long: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
