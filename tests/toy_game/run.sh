#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A game is one folder (issue 25): builds ttchess with the toy game of this
# folder (chess in which a pawn may step back to its home rank) in a build
# folder of its own, make GAME_DIR_EXTRA=tests/toy_game, changing no other
# file; then checks that the registry has it, after the other games, with
# its evaluator, and that it plays by its own rules.
#
# Usage: [CC=clang] tests/toy_game/run.sh   (BUILD: build-toy, or build-toy-clang)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-toy${CC:+-$(basename "$CC")}}
T=$BUILD/ttchess
fail() { echo "toy-game test: $*" >&2; exit 1; }

make --no-print-directory -j2 BUILD="$BUILD" GAME_DIR_EXTRA=tests/toy_game "$T" "$BUILD/tests/test_variants" >/dev/null
# Every registered variant, the toy one included, is complete and names its
# evaluator; the games of src/variants keep their order.
"$BUILD/tests/test_variants" >/dev/null 2>&1 || fail "test_variants failed with the toy game"

last=$("$T" variants | grep -v '^ ' | grep . | tail -n 1)
[ "${last%% *}" = toy ] || fail "the toy game is not listed last: $last"

# Chess's counts, plus the steps back: after each of the eight single
# pawn pushes and each of Black's 20 replies White has one move more.
[ "$("$T" perft --variant chess 3 2>/dev/null | tail -n 1)" = "Nodes searched: 8902" ] || fail "chess perft 3 changed"
[ "$("$T" perft --variant toy 3 2>/dev/null | tail -n 1)" = "Nodes searched: 9062" ] || fail "toy perft 3 is not 9062"
"$T" moves --variant toy --moves "e2e3 e7e6 e3e2" | grep -qx e6e7 || fail "black cannot step back"
# The engine plays it with the toy game's own evaluator.
"$T" analyze --variant toy --moves "e2e3 e7e6" --depth 3 >/dev/null || fail "the engine cannot search it"
echo "toy-game test: passed (a fifth game from tests/toy_game, no other file changed)"
