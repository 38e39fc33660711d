#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Compares ttchess's chessgi-classic perft with Fairy-Stockfish's chessgi
# perft (Debian package fairy-stockfish), in the same run: first the two
# counts the issue fixes, then positions from random games (random-game
# --fen), each at DEPTH.  Prints one summary line, or the first position
# where the counts differ.
#
# Usage: tests/fsf-compare.sh [--quick] TTCHESS RANDOM_GAME POSITIONS DEPTH
#   --quick   the fixed counts at lower depths (start 4, the other 2), for
#             make test; without it start 5 (4889167) and the other 3
#             (4434101)
# Exits 1 on a difference, and also when the generator or ttchess fails or
# gives nothing, or when fewer than POSITIONS positions were compared.

set -u
quick=no
if [ "${1:-}" = --quick ]; then
    quick=yes
    shift
fi
if [ $# -ne 4 ]; then
    echo "usage: $0 [--quick] TTCHESS RANDOM_GAME POSITIONS DEPTH" >&2
    exit 2
fi
ttchess=$1 random_game=$2 positions=$3 depth=$4
here=$(cd "$(dirname "$0")" && pwd)
"$here/../scripts/ensure-packages" fairy-stockfish:/usr/games/fairy-stockfish >&2 || exit 2
FSF=/usr/games/fairy-stockfish
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
POCKETS="5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48"
if [ $quick = yes ]; then
    printf '%s\t4\t197281\n%s\t2\t32816\n' "$START" "$POCKETS" >"$work/fixed"
else
    printf '%s\t5\t4889167\n%s\t3\t4434101\n' "$START" "$POCKETS" >"$work/fixed"
fi

fail() {
    echo "fsf-compare: $*" >&2
    exit 1
}
case $positions in
'' | *[!0-9]* | 0*) fail "POSITIONS must be a positive number, not '$positions'" ;;
esac

# Positions from random games of 10 to 79 actions; a game that ends
# sooner is skipped (random-game tries the next seed itself), so a
# generator that fails, or prints no FEN, fails the comparison: it would
# otherwise leave only the two fixed counts, compared and found equal.
: >"$work/fens"
for seed in $(seq 1 "$positions"); do
    plies=$((10 + (seed * 7) % 70))
    "$random_game" --fen chessgi-classic "$plies" "$seed" >"$work/fen" 2>"$work/err" || {
        status=$? why=$(head -n 3 "$work/err")
        fail "the random-game generator ($random_game) failed (exit status $status) on seed $seed${why:+: $why}"
    }
    [ "$(grep -c '[^[:space:]]' "$work/fen")" -eq 1 ] || fail "the random-game generator ($random_game) gave no single FEN on seed $seed"
    cat "$work/fen" >>"$work/fens"
done
[ "$(wc -l <"$work/fens")" -eq "$positions" ] || fail "$(wc -l <"$work/fens") positions from random games instead of $positions"
awk -v d="$depth" '{ printf "%s\t%s\t-\n", $0, d }' "$work/fens" >>"$work/fixed"
count=$(wc -l <"$work/fixed")

# ttchess, one perft per position, timed as a whole.
t0=$(date +%s.%N)
while IFS=$'\t' read -r fen d _; do
    out=$("$ttchess" perft --variant chessgi-classic --fen "$fen" "$d" 2>"$work/err") || {
        status=$? why=$(head -n 3 "$work/err")
        fail "ttchess perft failed (exit status $status) at depth $d on $fen${why:+: $why}"
    }
    out=$(tail -n 1 <<<"$out")
    case ${out##* } in
    '' | *[!0-9]*) fail "ttchess perft gave no count at depth $d on $fen: '$out'" ;;
    esac
    echo "${out##* }"
done <"$work/fixed" >"$work/ours"
t1=$(date +%s.%N)

# Fairy-Stockfish, one process for every position, timed as a whole.
{
    echo uci
    echo "setoption name UCI_Variant value chessgi"
    while IFS=$'\t' read -r fen d _; do
        echo "position fen $fen"
        echo "go perft $d"
    done <"$work/fixed"
    echo quit
} >"$work/fsf-in"
t2=$(date +%s.%N)
"$FSF" <"$work/fsf-in" 2>/dev/null | sed -n 's/^Nodes searched: //p' >"$work/theirs"
t3=$(date +%s.%N)

if [ "$count" -ne $((positions + 2)) ]; then
    fail "$count positions instead of $((positions + 2))"
fi
if [ "$(wc -l <"$work/theirs")" -ne "$count" ] || [ "$(wc -l <"$work/ours")" -ne "$count" ]; then
    fail "expected $count counts from each program, got $(wc -l <"$work/ours") and $(wc -l <"$work/theirs")"
fi
if grep -qv '^[0-9][0-9]*$' "$work/theirs"; then
    fail "Fairy-Stockfish gave a count that is not a number: $(grep -v '^[0-9][0-9]*$' "$work/theirs" | head -n 1)"
fi
paste "$work/fixed" "$work/ours" "$work/theirs" >"$work/all"
bad=$(awk -F'\t' '$4 != $5 || ($3 != "-" && $3 != $4) { print; exit }' "$work/all")
if [ -n "$bad" ]; then
    IFS=$'\t' read -r fen d want ours theirs <<<"$bad"
    echo "fsf-compare: differs at depth $d on $fen" >&2
    echo "  ttchess $ours, Fairy-Stockfish $theirs${want:+, expected $want}" >&2
    exit 1
fi
nodes=$(awk -F'\t' '{ s += $4 } END { printf "%.0f", s }' "$work/all")
awk -v n="$nodes" -v c="$count" -v d="$depth" -v a="$t0" -v b="$t1" -v x="$t2" -v y="$t3" 'BEGIN {
    printf "fsf-compare: %d positions (the two fixed counts and %d from random games at depth %d): all equal, %.0f nodes (wall time with start-ups: ttchess %.2f s, Fairy-Stockfish %.2f s; bench/chessgi-speed.sh measures speed)\n",
        c, c - 2, d, n, b - a, y - x }'
