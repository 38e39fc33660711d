#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Compares the rules of a variant as ttchess implements them with an
# independent implementation of the same rules file (tests/ref/), action
# list by action list and result line by result line, on random games full
# of time travel: every position of GAMES games of up to PLIES actions.
#
# Usage: tests/rules-compare.sh VARIANT GAMES PLIES EXTRA REFERENCE...
#   EXTRA         a file of further games, lines "VARIANT: actions" (only
#                 those of VARIANT are played; '#' lines are comments), or -
#   REFERENCE...  the reference's command, reading games on standard input
#                 (e.g. build/tests/vangog-ref vangog check)
# Environment: RANDOM_GAME, RULES_DUMP (defaults in build/tests/).

set -u
if [ $# -lt 5 ]; then
    echo "usage: $0 VARIANT GAMES PLIES EXTRA REFERENCE..." >&2
    exit 2
fi
variant=$1 games=$2 plies=$3 extra=$4
shift 4
RANDOM_GAME=${RANDOM_GAME:-build/tests/random-game}
RULES_DUMP=${RULES_DUMP:-build/tests/rules-dump}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Half the games last PLIES actions, half stop where they end (a mate, a
# draw, obligations unmet), so that ends are compared too.
for seed in $(seq 1 "$games"); do
    upto=
    [ $((seed % 2)) -eq 0 ] && upto=--upto
    "$RANDOM_GAME" --by-kind $upto "$variant" "$plies" "$seed" 2>/dev/null | tr '\n' ' '
    echo
done >"$work/games"
if [ "$extra" != - ]; then
    sed -n "s/^$variant: *//p" "$extra" >>"$work/games"
fi
games=$(wc -l <"$work/games")

"$RULES_DUMP" "$variant" <"$work/games" >"$work/ours" || { echo "rules-compare: $variant: rules-dump failed" >&2; exit 1; }
"$@" <"$work/games" >"$work/theirs" || { echo "rules-compare: $variant: the reference failed" >&2; exit 1; }

positions=$(grep -vc '^end$' "$work/ours")
if cmp -s "$work/ours" "$work/theirs"; then
    echo "rules-compare: $variant: $games games, $positions positions, the same actions and results"
    exit 0
fi
# Show the first difference: which game, which ply, which actions.
line=$(cmp "$work/ours" "$work/theirs" | sed -n 's/.* line \([0-9]*\).*/\1/p')
game=$(head -n "$line" "$work/ours" | grep -c '^end$')
echo "rules-compare: $variant: differs at line $line (game $((game + 1)))" >&2
echo "game: $(sed -n "$((game + 1))p" "$work/games")" >&2
ours=$(sed -n "${line}p" "$work/ours") theirs=$(sed -n "${line}p" "$work/theirs")
echo "ours:   ${ours%%:*}" >&2
echo "theirs: ${theirs%%:*}" >&2
diff <(echo "${ours#*:}" | tr ' ' '\n') <(echo "${theirs#*:}" | tr ' ' '\n') | head -20 >&2
exit 1
