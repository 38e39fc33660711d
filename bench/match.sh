#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The engine's strength, measured (docs/engine.md, "Strength"): every variant against
# a random mover and a one-ply greedy player at 100 ms a move; chess
# against Stockfish at three UCI_Elo levels and chessgi-classic against
# Fairy-Stockfish's chessgi at three Skill Levels, 10+0.1 s.  Prints one
# Markdown table, also written to build/match/results.md; each match's
# games are logged in build/match/.  A run with --variants replaces the
# results of its own matches only, and the table shows every match that
# has a result in build/match/, so a partial run updates the full table.
#
#   bench/match.sh            the full run: 100 games a pairing (20 for van
#                             Gog's full and past modes, whose games run to
#                             the action limit), 20 against each Stockfish
#                             level: about an hour on 2 cores
#   bench/match.sh --short    a few games of each (make match)
#   options: --games N  --ref-games N  --slow-games N  --max-plies N (200)
#            --jobs K  --variants "v1 v2"
# A game still going after --max-plies actions ends as an agreed draw, to
# which the variant's rules apply (van Gog: unmet obligations lose).
set -u
cd "$(dirname "$0")/.."

games=100 ref_games=20 slow_games=20 max_plies=200 jobs=$(nproc) short=no
variants="chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi"
while [ $# -gt 0 ]; do
    case $1 in
    --short) short=yes games=4 ref_games=2 slow_games=2 ;;
    --games) games=$2; shift ;;
    --ref-games) ref_games=$2; shift ;;
    --slow-games) slow_games=$2; shift ;;
    --max-plies) max_plies=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --variants) variants=$2; shift ;;
    -h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "match.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

./scripts/ensure-packages stockfish:/usr/games/stockfish fairy-stockfish:/usr/games/fairy-stockfish >&2 || exit 2
make -s build/ttchess build/bench/match || exit 2

out=build/match
mkdir -p "$out"
ENGINE="uci:$PWD/build/ttchess engine"

# One line a match: NAME|ARG|ARG|...|OPPONENT, its fields separated by
# '|' so that an argument may hold spaces ("Skill Level=5").
common="--openings|bench/openings.txt|--name1|ttchess|--max-plies|$max_plies"
{
    for v in $variants; do
        n=$games
        case $v in vangog|vangog-past) n=$slow_games ;; esac
        for opp in random greedy; do
            echo "$v-$opp|--variant|$v|--games|$n|--movetime|100|$common|$opp"
        done
    done
    # The reference engines play only when their game is in --variants.
    case " $variants " in *" chess "*) elos="1350 1600 2000" ;; *) elos= ;; esac
    case " $variants " in *" chessgi-classic "*) skills="0 5 10" ;; *) skills= ;; esac
    for elo in $elos; do
        echo "chess-stockfish-$elo|--variant|chess|--games|$ref_games|--tc|10+0.1|$common|--name2|Stockfish Elo $elo|--option2|UCI_LimitStrength=true|--option2|UCI_Elo=$elo|uci:/usr/games/stockfish"
    done
    for skill in $skills; do
        echo "chessgi-fairy-$skill|--variant|chessgi-classic|--games|$ref_games|--tc|10+0.1|$common|--name2|Fairy-Stockfish chessgi Skill $skill|--option2|UCI_Variant=chessgi|--option2|Skill Level=$skill|uci:/usr/games/fairy-stockfish"
    done
} >"$out/plan"
while IFS= read -r line; do
    name=${line%%|*}
    rm -f "$out/$name.result" "$out/$name.log" "$out/$name.out"
done <"$out/plan"

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

# The table: every match of the full plan that has a result, in the
# plan's order (variants, then the reference engines).
order="chess gifford vangog vangog-past vangog-future travelers chessgi-classic chessgi"
{
    echo "| variant | opponent | time | games | +won | -lost | =drawn | score | Elo (95 % interval) | errors | lost on time: ttchess / opponent |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|"
    for name in $(for v in $order; do echo "$v-random $v-greedy"; done) \
        chess-stockfish-1350 chess-stockfish-1600 chess-stockfish-2000 chessgi-fairy-0 chessgi-fairy-5 chessgi-fairy-10; do
        f="$out/$name.result"
        [ -s "$f" ] || continue
        IFS='|' read -r _ v _ opp tc n w l d both score elo lo hi errors ours theirs <"$f"
        [ "$both" != 0 ] && l="$l (+$both both lost)"
        echo "| $v | $opp | $tc | $n | $w | $l | $d | $score % | $elo ($lo to $hi) | $errors | $ours / $theirs |"
    done
} >"$out/results.md"
cat "$out/results.md"
echo "($(wc -l <"$out/plan") matches in ${seconds} s, $jobs at a time; games in $out/*.log)"
if ls "$out"/*.result >/dev/null 2>&1 && ! awk -F'|' '$15 != 0 { bad = 1 } END { exit bad }' "$out"/*.result; then
    echo "match.sh: some engine answered with a protocol error (see $out/*.log)" >&2
    exit 1
fi
