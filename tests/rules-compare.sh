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
# Exits 1 on a difference, and also when the generator fails or gives an
# empty game, when either side does not play every game through, or when
# no position is compared: a comparison of nothing must not pass.

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

fail() {
    echo "rules-compare: $variant: $*" >&2
    exit 1
}
case $games in
'' | *[!0-9]* | 0*) fail "GAMES must be a positive number, not '$games'" ;;
esac

# Half the games last PLIES actions, half stop where they end (a mate, a
# draw, obligations unmet), so that ends are compared too.  A generator
# that fails, or prints no action, fails the comparison: it would
# otherwise leave empty games, compared and found equal.
for seed in $(seq 1 "$games"); do
    upto=
    [ $((seed % 2)) -eq 0 ] && upto=--upto
    "$RANDOM_GAME" --by-kind $upto "$variant" "$plies" "$seed" >"$work/game" 2>"$work/err" || {
        status=$? why=$(head -n 3 "$work/err")
        fail "the random-game generator ($RANDOM_GAME) failed (exit status $status) on seed $seed${why:+: $why}"
    }
    [ -s "$work/game" ] || fail "the random-game generator ($RANDOM_GAME) gave no action on seed $seed"
    tr '\n' ' ' <"$work/game"
    echo
done >"$work/games"
random_games=$(grep -c '[^ ]' "$work/games")
[ "$random_games" -eq "$games" ] || fail "$random_games random games instead of $games"
if [ "$extra" != - ]; then
    [ -r "$extra" ] || fail "cannot read $extra"
    sed -n "s/^$variant: *//p" "$extra" >>"$work/games"
fi
games=$(wc -l <"$work/games")

"$RULES_DUMP" "$variant" <"$work/games" >"$work/ours" || fail "rules-dump failed"
"$@" <"$work/games" >"$work/theirs" || fail "the reference failed"

# Every game must have been played through by both to its end line, and
# there must be positions to compare.
for side in ours theirs; do
    ended=$(grep -c '^end$' "$work/$side")
    [ "$ended" -eq "$games" ] || fail "$side: $ended games played through instead of $games"
done
positions=$(grep -vc '^end$' "$work/ours")
[ "$positions" -gt 0 ] || fail "no position compared"
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
