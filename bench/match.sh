#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The engine's strength, measured (docs/match.md): every variant against
# a random mover and a one-ply greedy player at 100 ms a move; chess
# against Stockfish at three UCI_Elo levels and chessgi-classic against
# Fairy-Stockfish's chessgi at three Skill Levels, 10+0.1 s.  Prints one
# Markdown table, also written to build/match/results.md; each match's
# games are logged in build/match/.
#
#   bench/match.sh            the full run (100 games a pairing, 20 against
#                             each Stockfish level): about an hour on 2 cores
#   bench/match.sh --short    a few games of each (make match)
#   options: --games N  --ref-games N  --jobs K  --variants "v1 v2"
set -u
cd "$(dirname "$0")/.."

games=100 ref_games=20 jobs=$(nproc) short=no
variants="chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi"
while [ $# -gt 0 ]; do
    case $1 in
    --short) short=yes games=4 ref_games=2 ;;
    --games) games=$2; shift ;;
    --ref-games) ref_games=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --variants) variants=$2; shift ;;
    -h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "match.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

./scripts/ensure-packages stockfish:/usr/games/stockfish fairy-stockfish:/usr/games/fairy-stockfish >&2 || exit 2
make -s build/ttchess build/bench/match || exit 2

out=build/match
mkdir -p "$out"
rm -f "$out"/*.result "$out"/*.log
ENGINE="uci:$PWD/build/ttchess engine"

# One line a match: NAME|ARG|ARG|...|OPPONENT, its fields separated by
# '|' so that an argument may hold spaces ("Skill Level=5").
common="--openings|bench/openings.txt|--name1|ttchess"
{
    for v in $variants; do
        for opp in random greedy; do
            echo "$v-$opp|--variant|$v|--games|$games|--movetime|100|$common|$opp"
        done
    done
    for elo in 1350 1600 2000; do
        echo "chess-stockfish-$elo|--variant|chess|--games|$ref_games|--tc|10+0.1|$common|--name2|Stockfish Elo $elo|--option2|UCI_LimitStrength=true|--option2|UCI_Elo=$elo|uci:/usr/games/stockfish"
    done
    for skill in 0 5 10; do
        echo "chessgi-fairy-$skill|--variant|chessgi-classic|--games|$ref_games|--tc|10+0.1|$common|--name2|Fairy-Stockfish chessgi Skill $skill|--option2|UCI_Variant=chessgi|--option2|Skill Level=$skill|uci:/usr/games/fairy-stockfish"
    done
} >"$out/plan"

run_one() {
    local -a args
    IFS='|' read -ra args <<<"$1"
    local name=${args[0]} opponent=${args[-1]}
    build/bench/match "${args[@]:1:${#args[@]}-2}" --quiet --log "$out/$name.log" "$ENGINE" "$opponent" \
        >"$out/$name.out" 2>&1
    grep '^RESULT|' "$out/$name.out" >"$out/$name.result" || { echo "match $name failed:" >&2; cat "$out/$name.out" >&2; }
    tail -n 4 "$out/$name.out" | head -n 1 >&2
}
export -f run_one
export out ENGINE

start=$(date +%s)
tr '\n' '\0' <"$out/plan" | xargs -0 -P "$jobs" -I{} bash -c 'run_one "$1"' _ {}
seconds=$(($(date +%s) - start))

{
    echo "| variant | opponent | time | games | +won | -lost | =drawn | score | Elo (95 % interval) | errors | lost on time |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|"
    while IFS= read -r line; do
        name=${line%%|*}
        f="$out/$name.result"
        [ -s "$f" ] || { echo "| ${name} | (failed: see $out/$name.out) |||||||||"; continue; }
        IFS='|' read -r _ v _ opp tc n w l d both score elo lo hi errors forfeits <"$f"
        [ "$both" != 0 ] && l="$l (+$both both lost)"
        echo "| $v | $opp | $tc | $n | $w | $l | $d | $score % | $elo ($lo to $hi) | $errors | $forfeits |"
    done <"$out/plan"
} >"$out/results.md"
cat "$out/results.md"
echo "($(wc -l <"$out/plan") matches in ${seconds} s, $jobs at a time; games in $out/*.log)"
if grep -q '|' "$out"/*.result 2>/dev/null && ! awk -F'|' '$15 != 0 { bad = 1 } END { exit bad }' "$out"/*.result; then
    echo "match.sh: some engine answered with a protocol error (see $out/*.log)" >&2
    exit 1
fi
