#!/usr/bin/env bash
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
# The engine plays it with the toy game's own evaluator.
"$T" analyze --variant toy --moves "e2e3 e7e6" --depth 3 >/dev/null || fail "the engine cannot search it"
"$T" moves --variant toy --moves "e2e3 e7e6 e3e2" | grep -qx e6e7 || fail "black cannot step back"
# Its own end, in its own words.
[ "$("$T" status --variant toy --moves "e2e3 e7e6 e3e2 e6e7" 2>&1)" = "1/2-1/2 pawns all home" ] ||
    fail "no end of its own: $("$T" status --variant toy --moves "e2e3 e7e6 e3e2 e6e7" 2>&1)"

# The server and the web page learn its kind of action and its end from
# the library: a game between two players through the API.
tmp=$(mktemp -d)
port=$((20000 + $$ % 20000))
"$T" serve --host 127.0.0.1 --port "$port" --db "$tmp/toy.db" --registrations-per-hour 1000 >"$tmp/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
B=http://127.0.0.1:$port
api() {   # api PLAYER METHOD PATH [BODY]: the reply's body
    curl -s -m 10 -X "$2" -c "$tmp/$1" -b "$tmp/$1" -H "Origin: $B" ${4:+-H 'Content-Type: application/json' --data-binary "$4"} "$B$3"
}
for i in $(seq 50); do curl -s -o /dev/null "$B/api/session" && break; sleep 0.1; done
api alice POST /api/register '{"name":"alice","password":"toy-password"}' >/dev/null
api bob POST /api/register '{"name":"bob","password":"toy-password"}' >/dev/null
game=$(api alice POST /api/games '{"variant":"toy","color":"white","opponent":"bob","days_per_move":2}' |
    sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
[ -n "$game" ] || fail "no toy game created: $(cat "$tmp/serve.log")"
api bob POST "/api/games/$game/accept" >/dev/null
ply=0
for action in e2e3 e7e6; do
    api "$([ $((ply % 2)) = 0 ] && echo alice || echo bob)" POST "/api/games/$game/actions" "{\"action\":\"$action\",\"ply\":$ply}" >/dev/null
    ply=$((ply + 1))
done
state=$(api alice GET "/api/games/$game?legal=1")
echo "$state" | grep -qF '"kind":"step-back"' || fail "the state lists no step back: ${state:0:300}"
echo "$state" | grep -qF '"step-back":{"words":"step back","board":true,"travel":null,"place":null,"arg":null}' ||
    fail "the state does not describe the step back"
api alice POST "/api/games/$game/actions" '{"action":"e3e2","ply":2}' >/dev/null
api bob POST "/api/games/$game/actions" '{"action":"e6e7","ply":3}' >/dev/null
state=$(api bob GET "/api/games/$game")
echo "$state" | grep -qF '"reason":"pawns all home"' || fail "the game did not end in its own words: ${state:0:300}"
echo "$state" | grep -qF '"status":"over"' || fail "the game is not over"
echo "toy-game test: passed (a fifth game from tests/toy_game, no other file changed)"
