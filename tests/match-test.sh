#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The match runner (bench/match.c) works: the two built-in players play a
# whole match of every variant by the rules, and so do the repaying
# players, whose rules are checked one by one, the engine plays over UCI
# without a protocol error and beats the random mover, and bad command
# lines are refused with one "match:" line and status 2.
#
# Usage: TTCHESS=build/ttchess MATCH=build/bench/match TUNE_FEATURES=build/bench/tune-features
#        tests/match-test.sh
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

# The repaying players in every variant: a whole match by the rules.
for v in chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi; do
    if timeout 120 "$MATCH" --variant "$v" --games 2 --max-plies 60 --openings bench/openings.txt --quiet \
        greedy-repay random-repay >"$tmp/out" 2>"$tmp/err" &&
        grep -q "^RESULT|$v|greedy-repay|random-repay|100 ms a move|2|" "$tmp/out"; then
        passed=$((passed + 1))
    else
        fail "$v: greedy-repay against random-repay"
    fi
done

# The repaying players' rules, each checked by --choose (each action
# chosen, with how often) in a van Gog position made for it.
choose() { # VARIANT ACTIONS PLAYER TIMES
    printf '%s|-|%s\n' "$1" "$2" >"$tmp/opening"
    timeout 60 "$MATCH" --variant "$1" --openings "$tmp/opening" --choose "$4" "$3" >"$tmp/out" 2>"$tmp/err"
}
check_choice() { # NAME, then the test of $tmp/out
    local name=$1
    shift
    if "$@"; then passed=$((passed + 1)); else fail "$name"; fi
}
only_fulfilment() { [ "$(cat "$tmp/out")" = "d1d3** 100" ]; }
# White's open obligation Qd1-d3* can be met by d1d3**: both always take it.
for p in random-repay greedy-repay; do
    choose vangog "d4 e5 Qd1-d3* Nc6 Qd3a3 a6" "$p" 100
    check_choice "$p fulfils an open obligation first" only_fulfilment
done
# Two open, none to be met now: no arrival (an action ending in one '*').
no_arrival() { [ -s "$tmp/out" ] && ! grep -q '[^*]\* ' "$tmp/out"; }
for p in random-repay greedy-repay; do
    choose vangog "Qd1-f3* Nc6 Bf1-c4* b6" "$p" 200
    check_choice "$p does not arrive with two obligations open" no_arrival
done
# One open: random-repay picks a kind first, so that its arrivals,
# ordinary moves and departures to the future are each about a third
# of 600 choices, though arrivals are most of the actions.
kinds_even() {
    awk '/[^*]\* /{ a += $2; next } /\^ /{ f += $2; next } { o += $2 }
         END { exit !(a > 150 && a < 250 && f > 150 && f < 250 && o > 150 && o < 250) }' "$tmp/out"
}
choose vangog "Qd1-f3* Nc6" random-repay 600
check_choice "random-repay picks a kind of action uniformly" kinds_even
# Without obligations greedy-repay is greedy: it takes the queen.
takes_queen() { [ "$(cat "$tmp/out")" = "g4g5 50" ]; }
choose chess "e4 e5 Qg4 Qg5" greedy-repay 50
check_choice "greedy-repay takes the most material" takes_queen

# The engine, at 20 ms a move, against the random mover: it must win both
# games and answer every time.
if timeout 120 "$MATCH" --variant chess --games 2 --movetime 20 --quiet "uci:$TTCHESS engine" random \
    >"$tmp/out" 2>"$tmp/err" && grep -q '^RESULT|chess|ttchess|random|20 ms a move|2|2|0|0|0|100.0|' "$tmp/out" &&
    grep -q '|0|0$' "$tmp/out"; then
    passed=$((passed + 1))
else
    fail "the engine against random over UCI"
fi

# A match in parts (--first-game) plays the games the whole match plays,
# the built-in players' choices included, and --merge adds the parts up to
# the whole match's RESULT line; parts of different matches are refused.
whole_ok=no
if timeout 120 "$MATCH" --variant chess --games 4 --max-plies 60 --openings bench/openings.txt --quiet \
    --log "$tmp/whole.log" greedy random >"$tmp/whole" 2>"$tmp/err" &&
    timeout 120 "$MATCH" --variant chess --games 2 --max-plies 60 --openings bench/openings.txt --quiet \
        --log "$tmp/part1.log" greedy random >"$tmp/part1" 2>"$tmp/err" &&
    timeout 120 "$MATCH" --variant chess --games 2 --first-game 3 --max-plies 60 --openings bench/openings.txt \
        --quiet --log "$tmp/part2.log" greedy random >"$tmp/part2" 2>"$tmp/err"; then
    whole_ok=yes
fi
if [ $whole_ok = yes ] && cat "$tmp/part1.log" "$tmp/part2.log" | cmp -s - "$tmp/whole.log"; then
    passed=$((passed + 1))
else
    fail "a match in two parts plays the games of the whole match"
fi
if [ $whole_ok = yes ] && cat "$tmp/part1" "$tmp/part2" | "$MATCH" --merge >"$tmp/out" 2>"$tmp/err" &&
    [ "$(grep '^RESULT|' "$tmp/out")" = "$(grep '^RESULT|' "$tmp/whole")" ]; then
    passed=$((passed + 1))
else
    fail "--merge of the two parts gives the whole match's RESULT line"
fi
sed 's/^RESULT|chess|/RESULT|gifford|/' "$tmp/part2" >"$tmp/other"
cat "$tmp/part1" "$tmp/other" >"$tmp/mixed"
for input in "$tmp/mixed" /dev/null; do
    "$MATCH" --merge <"$input" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^match: --merge' "$tmp/err"; then
        passed=$((passed + 1))
    else
        fail "--merge refuses $input (status $rc)"
    fi
done

# The terms of the chess evaluation for tuning (bench/tune-features.c):
# in the start position every term is the same for both sides but the
# tempo (weight 30), +1 with White to move, -1 with Black; a line that is
# not FEN;score is reported with its number and skipped.
TUNE_FEATURES=${TUNE_FEATURES:-build/bench/tune-features}
printf '%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;15' 'no position;3' \
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;-7' |
    "$TUNE_FEATURES" >"$tmp/out" 2>"$tmp/err"
if [ "$(cat "$tmp/out")" = "$(printf '15 24 30:1\n-7 24 30:-1')" ] && grep -q 'line 2 is not FEN;score' "$tmp/err" &&
    grep -q '2 positions, 1 skipped' "$tmp/err"; then
    passed=$((passed + 1))
else
    fail "tune-features: the start position's terms"
fi

# Bad command lines.
for args in "--variant nosuch random random" "--variant chess random" "--variant chess --games 0 random random" \
    "--variant chess --tc 10x random random" "--variant chess --choose 5 random random" "--variant chess --choose 5 uci:true" "--variant chess random sometimes" "--variant chess --openings /no/such random random"; do
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
