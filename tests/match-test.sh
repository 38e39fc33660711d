#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The match runner (bench/match.c) works: the two built-in players play a
# whole match of every variant by the rules, the engine plays over UCI
# without a protocol error and beats the random mover, and bad command
# lines are refused with one "match:" line and status 2.
#
# Usage: TTCHESS=build/ttchess MATCH=build/bench/match tests/match-test.sh
set -u
TTCHESS=${TTCHESS:-build/ttchess}
MATCH=${MATCH:-build/bench/match}
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    tail -n 5 "$tmp/out" "$tmp/err" 2>/dev/null
}

for v in chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi; do
    if timeout 120 "$MATCH" --variant "$v" --games 2 --max-plies 60 --openings bench/openings.txt --quiet \
        --log "$tmp/log" greedy random >"$tmp/out" 2>"$tmp/err" &&
        grep -q "^RESULT|$v|greedy|random|100 ms a move|2|" "$tmp/out" && [ "$(wc -l <"$tmp/log")" -eq 2 ]; then
        passed=$((passed + 1))
    else
        fail "$v: greedy against random"
    fi
done

# The engine, at 20 ms a move, against the random mover: it must win both
# games and answer every time.
if timeout 120 "$MATCH" --variant chess --games 2 --movetime 20 --quiet "uci:$TTCHESS engine" random \
    >"$tmp/out" 2>"$tmp/err" && grep -q '^RESULT|chess|ttchess|random|20 ms a move|2|2|0|0|0|100.0|' "$tmp/out" &&
    grep -q '|0|0$' "$tmp/out"; then
    passed=$((passed + 1))
else
    fail "the engine against random over UCI"
fi

# Bad command lines.
for args in "--variant nosuch random random" "--variant chess random" "--variant chess --games 0 random random" \
    "--variant chess --tc 10x random random" "--variant chess random sometimes" "--variant chess --openings /no/such random random"; do
    # shellcheck disable=SC2086
    timeout 10 "$MATCH" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^match: ' "$tmp/err"; then
        passed=$((passed + 1))
    else
        fail "refused: $args (status $rc)"
    fi
done

echo "match tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
