#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tests of the HTTP API of ttchess serve (docs/api.md) with curl: a server
# on a free local port with a fresh database, two players and a
# spectator, every error status, a stale ply, a resent action applied
# once, a non-player's move, kibitz text kept as text, kibitz switched off by
# the players (only by them) refused to spectators, SQL metacharacters
# in every field, take-back by consent, the live stream and its replay
# with Last-Event-ID, the state's last event and a stream opened after
# it, and that the database keeps everything across a
# restart; the state's parts asked for by ?legal=1, ?nodes=1 and ?what=1
# (the legal list equal to ttchess moves'), a 150-ply van Gog game's state
# under 20 KB, events that carry only the action (and a live game's the
# clocks as the state has them right after it); the client's files
# served with their types (.wasm) and revalidated with a 304; open
# challenges (seeks): posted, listed in the lobby and its live stream,
# refused in words (another's, one's own, withdrawn, over the limit),
# accepted once, and the game then among those being played.
#
# Usage: TTCHESS=path/to/ttchess tests/api-test.sh   (default build/ttchess)

set -u
TTCHESS=${TTCHESS:-build/ttchess}
tmp=$(mktemp -d)
passed=0
failed=0
. "$(dirname "$0")/serve-lib.sh"
trap 'stop_server; rm -rf "$tmp"' EXIT

# call JAR METHOD PATH [BODY]: the status in CODE, the body in $tmp/body.
# Every request carries the server's Origin, as a browser's would: a
# state-changing one without it (or an API token) is refused.
call() {
    local jar=$1 method=$2 path=$3 body=${4-}
    local args=(-s -m 10 -o "$tmp/body" -w '%{http_code}' -X "$method" -c "$tmp/$jar.jar" -b "$tmp/$jar.jar"
        -H "Origin: $B")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    CODE=$(curl "${args[@]}" "$B$path")
}

# expect WHAT CODE [TEXT]: the last call answered CODE and its body holds TEXT.
expect() {
    local what=$1 code=$2 text=${3-}
    if [ "$CODE" = "$code" ] && { [ -z "$text" ] || grep -qF -- "$text" "$tmp/body"; }; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $what: expected $code${text:+ with '$text'}, got $CODE: $(head -c 300 "$tmp/body")"
    fi
}

# field NAME: the first string or number member NAME of the last body.
field() { grep -o "\"$1\":\"\?[^\",}]*" "$tmp/body" | head -n 1 | sed 's/^"[^"]*":"\{0,1\}//'; }

# A folder of client files (the server's --static): a page, a script and
# a WebAssembly module, for the types and the revalidation below.
mkdir -p "$tmp/static"
printf '<!doctype html><title>ttchess</title>\n' >"$tmp/static/index.html"
printf 'console.log(1);\n' >"$tmp/static/app.js"
printf '\0asm\1\0\0\0' >"$tmp/static/ttchess.wasm"
start_server "$tmp/static"

# ---- Accounts ---------------------------------------------------------------
call alice POST /api/register '{"name":"alice","password":"correct horse"}'; expect "register" 201 '"alice"'
call bob POST /api/register '{"name":"bob","password":"battery staple"}'; expect "register bob" 201
call carol POST /api/register '{"name":"carol","password":"carol-pass"}'; expect "register carol" 201
call x POST /api/register '{"name":"alice","password":"another one"}'; expect "a taken name" 409 "taken"
call alice GET /api/session; expect "who is logged in" 200 '{"name":"alice"}'
call nobody GET /api/session; expect "a visitor" 200 '{"name":null}'
call x POST /api/register '{"name":"Alice","password":"another one"}'; expect "names ignore case" 409 "taken"
call x POST /api/register '{"name":"a b","password":"whatever1"}'; expect "a bad name" 400 "letters"
call x POST /api/register '{"name":"dave","password":"short"}'; expect "a short password" 400 "8 to 256"
call x POST /api/register 'not json'; expect "not JSON" 400 "JSON object"
call x POST /api/register '[1,2]'; expect "not an object" 400 "JSON object"
call x POST /api/login '{"name":"alice","password":"wrong password"}'; expect "a wrong password" 401 "wrong"
for i in 1 2 3 4; do call x POST /api/login '{"name":"alice","password":"wrong again"}'; done
call x POST /api/login '{"name":"alice","password":"correct horse"}'; expect "rate-limited logins" 429 "too many"
for i in 1 2 3 4 5 6; do call x POST /api/login '{"name":"nobody-at-all","password":"whatever1"}'; done
expect "failed logins of a name that does not exist are not counted" 401 "wrong"
call bob POST /api/login '{"name":"bob","password":"battery staple"}'; expect "login" 200
grep -q 'HttpOnly' <(curl -s -D - -o /dev/null -X POST -H "Origin: $B" "$B/api/login" -d '{"name":"carol","password":"carol-pass"}') &&
    grep -q 'SameSite=Strict' <(curl -s -D - -o /dev/null -X POST -H "Origin: $B" "$B/api/login" -d '{"name":"carol","password":"carol-pass"}') &&
    passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the session cookie is not HttpOnly; SameSite=Strict"; }
call anon GET /api/games; expect "my games, logged out" 401
call anon POST /api/games '{"variant":"chess"}'; expect "create, logged out" 401

# ---- Security headers, Origin, sizes ---------------------------------------
headers=$(curl -s -D - -o /dev/null "$B/api/variants")
echo "$headers" | grep -qi "^Content-Security-Policy: default-src 'self'; script-src 'self'" &&
    ! echo "$headers" | grep -qi "unsafe-inline" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: no strict Content-Security-Policy"; }
CODE=$(curl -s -o "$tmp/body" -w '%{http_code}' -X POST -H "Origin: http://evil.example" -b "$tmp/alice.jar" \
    "$B/api/games" -d '{"variant":"chess"}')
expect "a request from another site" 403 "another site"
big=$(head -c 20000 /dev/zero | tr '\0' 'a')
call bob POST /api/games "{\"variant\":\"$big\"}"; expect "a body over 16 KiB" 413
call bob GET /api/nothing; expect "an unknown API" 404
call bob PUT /api/games; expect "a method not allowed" 405

# ---- A game with an invited player ------------------------------------------
call bob POST /api/games '{"variant":"gifford","color":"white","opponent":"carol","days_per_move":2}'
expect "create a correspondence game (a challenge to carol)" 201 '"challenge":true'
G=$(field id)
call bob POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "a challenge is not played before it is accepted" 409 "not been accepted"
call alice POST "/api/games/$G/accept"; expect "a challenge accepted by another player" 403 "another player"
call carol GET /api/games; expect "carol's challenges received" 200 "\"challenges\":[{\"id\":\"$G\""
call carol POST "/api/games/$G/accept"; expect "carol accepts the challenge" 200
call carol POST "/api/games/$G/accept"; expect "a challenge accepted twice" 409 "no longer open"
call bob POST /api/games '{"variant":"nosuch"}'; expect "an unknown variant" 400 "unknown variant"
call bob POST /api/games '{"variant":"chess","opponent":"nobody"}'; expect "an unknown opponent" 400 "no player"
call bob POST /api/games '{"variant":"chess","fen":"garbage"}'; expect "a bad FEN" 400
call bob POST /api/games '{"variant":"chess","clock":{"minutes":0}}'; expect "a bad clock" 400 "live clock"
call carol GET /api/games; expect "carol's games" 200 "$G"
call carol GET "/api/games/$G"; expect "the game" 200 '"actions":[]'
expect "a game from the variant's start names no start position" 200 '"start_fen":null'
# The legal actions and the record's positions are listed only when asked
# (docs/api.md): a client with the rules computes them.
grep -qF '"legal"' "$tmp/body" || grep -qF '"nodes"' "$tmp/body" &&
    { failed=$((failed + 1)); echo "FAIL: the default state lists the legal actions or the positions"; } ||
    passed=$((passed + 1))
call carol GET "/api/games/$G?nodes=1"; expect "the positions asked for" 200 '"nodes":[{"ply":0,"parent":-1'
grep -qF '"legal"' "$tmp/body" && { failed=$((failed + 1)); echo "FAIL: ?nodes=1 lists the legal actions"; } ||
    passed=$((passed + 1))
call carol GET "/api/games/$G?legal=1"; expect "the legal actions asked for" 200 '"legal":[{"coord":'
# The kinds of its actions as the library describes them, for a client
# with no list of its own (docs/api.md, "kinds").
expect "the kinds of a Gifford game's legal actions" 200 '"send-forward":{"words":"sent forward in time","board":false,"travel":"forward","place":null,"arg":"arrives at move"}'
expect "an ordinary move's kind" 200 '"normal":{"words":"move","board":true,"travel":null,"place":null,"arg":null}'
[ "$(field ply)" = 0 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: a new game's ply is not 0"; }
call anon GET /api/games/0000000000000000; expect "no such game" 404
call carol POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "out of turn" 403 "not your turn"
call alice POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "a non-player's move" 403 "not a player"
call anon POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "a move, logged out" 401
call bob POST "/api/games/$G/actions" '{"action":"e5","ply":0}'; expect "an illegal move" 422 "pawn"
call bob POST "/api/games/$G/actions" '{"action":"e4"}'; expect "no ply" 400 "ply"
call bob POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "a move" 200 '"ply":1'
call bob POST "/api/games/$G/actions" '{"action":"e4","ply":0}'; expect "the same move resent" 409 "moved on"
call carol POST "/api/games/$G/actions" '{"action":"e5","ply":0}'; expect "a stale ply" 409 "moved on"
call carol POST "/api/games/$G/actions" '{"action":"e5","ply":1}'; expect "black's move" 200 '"ply":2'
call bob GET /api/games; expect "bob's list" 200 '"your_move":true'

# A spectator cannot move; kibitz is kept as text; SQL metacharacters are data.
call eve POST /api/register '{"name":"eve","password":"eve-password"}'
call eve POST "/api/games/$G/actions" '{"action":"Nf3","ply":2}'; expect "a non-player's move" 403 "not a player"
call eve POST "/api/games/$G/kibitz" '{"text":"<script>alert(1)</script>'"'"'; DROP TABLE games; --"}'
expect "kibitz" 201
call eve GET "/api/games/$G/kibitz"; expect "kibitz kept as text" 200 '<script>alert(1)</script>'"'"'; DROP TABLE games; --'

# Kibitzing switched off by the players (docs/api.md, "Kibitz and
# records"): only a player may switch it, and while it is off a
# spectator's comment is refused and not kept.  Alice watches (eve's
# comments are counted by the rate limit below).
call alice POST "/api/games/$G/kibitz" '{"enabled":false}'; expect "a spectator switches kibitzing" 403 "only the players may switch kibitzing"
call anon POST "/api/games/$G/kibitz" '{"enabled":false}'; expect "a visitor switches kibitzing" 401 "log in"
call alice GET "/api/games/$G"; expect "kibitzing still on after a spectator's switch" 200 '"kibitz_enabled":true'
call carol POST "/api/games/$G/kibitz" '{"enabled":false}'; expect "a player switches kibitzing off" 200 '"enabled":false'
call alice GET "/api/games/$G"; expect "the game says kibitzing is off" 200 '"kibitz_enabled":false'
call alice POST "/api/games/$G/kibitz" '{"text":"said while it is off"}'
expect "a spectator's kibitz while it is off" 403 "the players have switched kibitzing off until the game ends"
call alice GET "/api/games/$G/kibitz"
grep -qF "said while it is off" "$tmp/body" && { failed=$((failed + 1)); echo "FAIL: a refused comment was kept"; } ||
    passed=$((passed + 1))
call alice POST "/api/games/$G/kibitz" '{"enabled":true}'; expect "a spectator switches it back on" 403 "only the players"
call alice GET "/api/games/$G"; expect "still off after a spectator's switch" 200 '"kibitz_enabled":false'
call bob POST "/api/games/$G/kibitz" '{"enabled":true}'; expect "the other player switches kibitzing on" 200 '"enabled":true'
call alice POST "/api/games/$G/kibitz" '{"text":"said once it is on"}'; expect "a spectator's kibitz while it is on" 201
call alice GET "/api/games/$G/kibitz"; expect "the comment is kept" 200 '"text":"said once it is on"'
call bob POST /api/games '{"variant":"chess","options":"'"'"'; DROP TABLE users; --"}'; expect "SQL in options" 400
call bob POST /api/games '{"variant":"chess\"; DROP TABLE games; --"}'; expect "SQL in a variant" 400
call x POST /api/login '{"name":"bob'"'"' OR '"'"'1'"'"'='"'"'1","password":"x'"'"' OR 1=1 --"}'; expect "SQL in a login" 401
call bob POST "/api/games/$G/actions" '{"action":"Nf3'"'"'; DELETE FROM actions; --","ply":2}'; expect "SQL in an action" 422
call bob GET "/api/games/$G"; expect "the game survived" 200 '"ply":2'

# ---- Take-back by consent, draws, resignation ------------------------------
call bob POST "/api/games/$G/actions" '{"action":"Nf3","ply":2}'; expect "Nf3" 200
call bob POST "/api/games/$G/actions" '{"action":"accept-takeback","ply":3}'; expect "accept with no offer" 409 "not offered"
call bob POST "/api/games/$G/actions" '{"action":"offer-takeback","ply":3}'; expect "offer a take-back" 200 '"takeback_offer":"white"'
call carol POST "/api/games/$G/actions" '{"action":"accept-takeback","ply":3}'; expect "take-back accepted" 200 '"ply":2'
call bob POST "/api/games/$G/actions" '{"action":"offer-draw","ply":2}'; expect "offer a draw" 200
call carol POST "/api/games/$G/actions" '{"action":"decline","ply":2}'; expect "decline" 200 '"draw_offer":null'
call bob POST "/api/games/$G/actions" '{"action":"Bf1>5","ply":2}'; expect "a send-forward" 200 '"ply":3'
call bob POST "/api/games/$G/rematch"; expect "a rematch before the game is over" 409 "once the game is over"
call carol POST "/api/games/$G/actions" '{"action":"resign","ply":3}'; expect "resign" 200 '"result":"1-0"'
call bob POST "/api/games/$G/actions" '{"action":"Nf3","ply":3}'; expect "a move after the end" 409 "over"
call eve GET "/api/games/$G/pgn"; expect "PGN" 200 '[White "bob"]'
call eve GET "/api/games/$G/sheets"; expect "score sheets" 200 "B(f1)// to 5"

# ---- Rematch (docs/api.md, "Rematch") ----------------------------------------
# Bob offers; the offer is a challenge to carol with the colours swapped,
# the same variant and clock; carol accepts; both pages hear of it.
call eve GET "/api/games/$G/rematch"; expect "no rematch yet" 200 '{"rematch":null}'
call eve POST "/api/games/$G/rematch"; expect "a rematch offered by a spectator" 403 "not a player"
call anon POST "/api/games/$G/rematch"; expect "a rematch offered logged out" 401
call carol POST "/api/games/$G/rematch/accept"; expect "a rematch accepted before any offer" 409 "no rematch has been offered"
call bob POST "/api/games/$G/rematch"; expect "a rematch offered" 201 '"url":"/games/'
R=$(field id)
call bob POST "/api/games/$G/rematch"; expect "a rematch offered twice" 409 "offered a rematch already"
call bob POST "/api/games/$G/rematch/accept"; expect "a rematch accepted by the player who offered it" 409 "your opponent accepts it"
call eve POST "/api/games/$G/rematch/accept"; expect "a rematch accepted by a spectator" 403 "not a player"
call bob POST "/api/games/$G/rematch/nonsense"; expect "an unknown answer to a rematch" 404
call eve GET "/api/games/$G/rematch"; expect "the rematch offered" 200 "{\"rematch\":{\"id\":\"$R\",\"by\":\"white\",\"status\":\"offered\"}}"
call carol GET /api/games; expect "the rematch in carol's challenges" 200 "\"challenges\":[{\"id\":\"$R\""
call carol POST "/api/games/$G/rematch/accept"; expect "a rematch accepted" 200 "\"id\":\"$R\""
call carol GET "/api/games/$R"; expect "the rematch in play" 200 '"status":"active"'
expect "the rematch's colours swapped" 200 '"white":{"name":"carol"'
expect "the rematch's variant" 200 '"variant":"gifford"'
expect "the rematch's clock" 200 '"days_per_move":2'
call eve GET "/api/games/$G/rematch"; expect "the rematch accepted" 200 '"status":"accepted"'
call carol POST "/api/games/$G/rematch"; expect "a rematch offered once it has begun" 409 "begun already"
curl -s -N -m 1 "$B/api/games/$G/events" >"$tmp/rematch-events"
grep -q '^event: rematch-offer$' "$tmp/rematch-events" && grep -q "^data: {\"game\":\"$R\",\"ply\":3,\"type\":\"rematch\"}" "$tmp/rematch-events" &&
    passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the rematch's events:"; grep -A1 rematch "$tmp/rematch-events"; }
# Declined: the rematch of the rematch, offered by carol, declined by bob.
call bob POST "/api/games/$R/actions" '{"action":"resign","ply":0}'; expect "the rematch resigned" 200 '"result":"1-0"'
call carol POST "/api/games/$R/rematch"; expect "a second rematch offered" 201
call bob POST "/api/games/$R/rematch/decline"; expect "a rematch declined" 200
call bob GET "/api/games/$R/rematch"; expect "the rematch declined" 200 '"status":"declined"'
call carol POST "/api/games/$R/rematch"; expect "a rematch offered again once declined" 409 "was declined"

# ---- Diagrams --------------------------------------------------------------
call eve GET "/api/games/$G/diagram.svg?ply=2&orientation=black&set=letters&colors=green"
expect "a diagram" 200 '<svg'
call eve GET "/api/games/$G/diagram.svg"; expect "the present position's diagram" 200 'ply 3'
# The page's own piece sets, cburnett (its default) and glyphs, as the page's link asks for them.
call eve GET "/api/games/$G/diagram.svg?ply=2&orientation=white&set=cburnett&colors=brown"
expect "a diagram with the page's default pieces" 200 'viewBox="0 0 45 45"'
call eve GET "/api/games/$G/diagram.svg?set=glyphs"; expect "a diagram with glyphs" 200 '<svg'
call eve GET "/api/games/$G/diagram.svg?set=pictures"; expect "a bad piece set" 400 "glyphs, letters or cburnett"
call eve GET "/api/games/$G/diagram.svg?colors=pink"; expect "bad colours" 400 "brown, green, blue or grey"
call eve GET "/api/games/$G/diagram.svg?ply=99"; expect "a ply beyond the game" 400 "from 0 to 3"
call eve GET "/api/games/$G/diagram.svg?ply=1x"; expect "a ply that is no number" 400 "whole number"
call eve GET "/api/games/0000000000000000/diagram.svg"; expect "no game's diagram" 404

# ---- Against the engine -----------------------------------------------------
# The engine takes White and answers each action; a take-back goes back to
# the player's own turn.
call eve POST /api/games '{"variant":"gifford","color":"black","level":1}'; expect "a game against the engine" 201
E=$(field id)
wait_ply() {   # wait_ply JAR GAME PLY: until the game reaches PLY (10 s at most)
    for i in $(seq 100); do
        call "$1" GET "/api/games/$2"
        [ "$(field ply)" = "$3" ] && return 0
        sleep 0.1
    done
    return 1
}
wait_ply eve "$E" 1 && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the engine did not open the game"; }
expect "the engine's seat" 200 '"engine":true'
call eve POST "/api/games/$E/actions" '{"action":"e5","ply":1}'; expect "a move against the engine" 200
wait_ply eve "$E" 3 && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the engine did not answer"; }
call eve POST "/api/games/$E/actions" '{"action":"offer-takeback","ply":3}'; expect "a take-back asked of the engine" 200
wait_ply eve "$E" 1 && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the engine did not take back to eve's turn"; }
expect "eve's turn again" 200 '"to_move":"black"'
call eve POST "/api/games/$E/actions" '{"action":"offer-draw","ply":1}'; expect "a draw offered to the engine" 200
for i in $(seq 50); do call eve GET "/api/games/$E"; grep -q '"draw_offer":null' "$tmp/body" && break; sleep 0.1; done
expect "the engine declines draws" 200 '"status":"active"'
call eve GET /api/games; expect "the engine named in the list" 200 '"white":"ttchess engine"'

# ---- Open invitation and the live stream -----------------------------------
# White's clock runs from the second move to the restart at the end, past
# the 150-ply van Gog game: 30 minutes outlast it on a loaded machine.
call carol POST /api/games '{"variant":"chess","color":"black","clock":{"minutes":30,"increment":3}}'
expect "a game for anyone with the link" 201 "invite="
L=$(field id); INV=$(field invite_url | sed 's/.*invite=//')
call eve POST "/api/games/$L/join" '{"invite":"0123"}'; expect "a wrong invitation" 403 "not valid"
call eve POST "/api/games/$L/join" "{\"invite\":\"$INV\"}"; expect "join by the link" 200
call bob POST "/api/games/$L/join" "{\"invite\":\"$INV\"}"; expect "the seat is taken" 403
curl -s -N -m 4 "$B/api/games/$L/events" >"$tmp/stream" &
stream_pid=$!
sleep 0.5
call eve POST "/api/games/$L/actions" '{"action":"d4","ply":0}'; expect "a live move" 200
call carol POST "/api/games/$L/actions" '{"action":"d5","ply":1}'; expect "the reply" 200 '"running":"white"'
reply_event=$(field event)
cp "$tmp/body" "$tmp/after-d5"
wait "$stream_pid"
grep -q '"coord":"d2d4"' "$tmp/stream" && grep -q '"coord":"d7d5"' "$tmp/stream" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: the stream did not carry both actions:"; cat "$tmp/stream"; }
first=$(awk '/^id: / { id = $2 } /"coord":"d2d4"/ { print id; exit }' "$tmp/stream")
curl -s -N -m 2 -H "Last-Event-ID: $first" "$B/api/games/$L/events" >"$tmp/replay"
! grep -q '"coord":"d2d4"' "$tmp/replay" && grep -q '"coord":"d7d5"' "$tmp/replay" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: Last-Event-ID did not replay only what was missed:"; cat "$tmp/replay"; }

# The state names the last event it includes (the reply to an action
# too): a stream opened after it sends what came later, not the history.
last=$(awk '/^id: / { id = $2 } END { print id }' "$tmp/stream")
call bob GET "/api/games/$L"; expect "the state after the stream" 200
state_event=$(field event)
[ -n "$last" ] && [ "$state_event" = "$last" ] && [ "$reply_event" = "$last" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: the state names event '$state_event', the action's reply '$reply_event', the stream's last is '$last'"; }
curl -s -N -m 2 "$B/api/games/$L/events?last_event_id=$state_event" >"$tmp/after" &
stream_pid=$!
sleep 0.5
call bob POST "/api/games/$L/kibitz" '{"text":"after the state"}'; expect "a comment after the state" 201
wait "$stream_pid"
[ "$(grep -c '^id: ' "$tmp/after")" = 1 ] && [ "$(awk '/^id: / { print $2 }' "$tmp/after")" -gt "$last" ] &&
    grep -q '"text":"after the state"' "$tmp/after" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: the stream opened after the state's event sent more (or less):"; cat "$tmp/after"; }

# An action's event carries the action and, in a game with a live clock,
# the clocks as the action left them and the moment it was committed:
# spectators and the opponent apply it with their own rules and set their
# clocks from it, with no state read.  Black's d5 event has the clocks of
# the state that answered it (the same instant's, White's time running
# from then on: the state, read a moment later, has the same or a few ms
# less), and no more.
# clock_of FILE: "kind base inc white black running" of the first clock in FILE.
clock_of() {
    grep -o '"clock":{[^}]*}' "$1" | head -n 1 |
        sed 's/.*"kind":"\([^"]*\)".*"base_ms":\([0-9]*\).*"inc_ms":\([0-9]*\).*"white_ms":\([0-9]*\).*"black_ms":\([0-9]*\).*"running":"\([a-z]*\)".*/\1 \2 \3 \4 \5 \6/'
}
grep '"coord":"d7d5"' "$tmp/stream" >"$tmp/d5-event"
read -r ekind ebase einc ewhite eblack erunning < <(clock_of "$tmp/d5-event")
read -r skind sbase sinc swhite sblack srunning < <(clock_of "$tmp/after-d5")
at=$(grep -o '"at":[0-9]*' "$tmp/d5-event" | cut -d: -f2)
[ "$ekind $ebase $einc $eblack $erunning" = "live 1800000 3000 $sblack white" ] && [ "$skind $sbase $sinc $srunning" = "live 1800000 3000 white" ] &&
    [ -n "$at" ] && [ "$swhite" -le "$ewhite" ] && [ "$((ewhite - swhite))" -lt 2000 ] &&
    grep -qxE 'data: \{"coord":"d7d5","human":"d5","clock":\{[^}]*\},"at":[0-9]+,"ply":2,"type":"action"\}' "$tmp/d5-event" &&
    passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: an action's event does not carry the clocks of the state right after it:"; cat "$tmp/d5-event" "$tmp/after-d5"; echo; }

# The PGN download: a file named ttchess-ID.pgn, the tags a site writes, and
# each action's mover's clock after it ("[%clk H:MM:SS]") in a live game.
curl -s -m 10 -D "$tmp/pgn-head" -o "$tmp/live.pgn" "$B/api/games/$L/pgn"
grep -qi "^Content-Disposition: attachment; filename=\"ttchess-$L.pgn\"" "$tmp/pgn-head" &&
    grep -qE '^\[Date "[0-9]{4}\.[0-9]{2}\.[0-9]{2}"\]' "$tmp/live.pgn" &&
    grep -qF "[Site \"$B/games/$L\"]" "$tmp/live.pgn" && grep -qF '[White "eve"]' "$tmp/live.pgn" &&
    grep -qF '[Black "carol"]' "$tmp/live.pgn" && grep -qF '[Variant "Standard"]' "$tmp/live.pgn" &&
    grep -qF '[TimeControl "1800+3"]' "$tmp/live.pgn" &&
    grep -qE '^1\. d4 \{\[%clk 0:(30|29):[0-9]{2}\]\} 1\.\.\. d5 \{\[%clk 0:(30|29):[0-9]{2}\]\}' "$tmp/live.pgn" &&
    passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: the live game's PGN download:"; cat "$tmp/pgn-head" "$tmp/live.pgn"; }
call eve GET "/api/games/$G/pgn"; expect "a correspondence game's PGN: no clock, no time control" 200 '[TimeControl "-"]'
grep -q '%clk' "$tmp/body" && { failed=$((failed + 1)); echo "FAIL: %clk in a game without a live clock"; } || passed=$((passed + 1))

# API replies are gzip-compressed for a client that accepts it, above 1 KiB
# (a game's state), and say so; a short one, or a client that does not
# accept gzip, gets the plain bytes.
curl -s -m 10 -H 'Accept-Encoding: gzip' -D "$tmp/gz-head" -o "$tmp/state.gz" "$B/api/games/$L?legal=1&what=1"
curl -s -m 10 -o "$tmp/state.json" "$B/api/games/$L?legal=1&what=1"
grep -qi '^Content-Encoding: gzip' "$tmp/gz-head" && grep -qi '^Vary: Accept-Encoding' "$tmp/gz-head" &&
    gzip -dc "$tmp/state.gz" | grep -q "\"id\":\"$L\"" &&
    [ "$(stat -c %s "$tmp/state.gz")" -lt "$(stat -c %s "$tmp/state.json")" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: the state is not sent gzip-compressed:"; cat "$tmp/gz-head"; }
curl -s -m 10 -D "$tmp/plain-head" -o /dev/null "$B/api/games/$L"
curl -s -m 10 -H 'Accept-Encoding: gzip' -D "$tmp/small-head" -o /dev/null "$B/api/games/0000000000000000"
! grep -qi '^Content-Encoding' "$tmp/plain-head" && ! grep -qi '^Content-Encoding' "$tmp/small-head" &&
    passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: a plain client or a short reply got gzip"; }

# ---- Limits (docs/api.md) ---------------------------------------------------
for i in 2 3 4 5; do call eve POST "/api/games/$G/kibitz" "{\"text\":\"comment $i\"}"; done
expect "five comments in 30 s" 201
call eve POST "/api/games/$G/kibitz" '{"text":"a sixth"}'; expect "a sixth comment in 30 s" 429 "at most 5 comments"
call gina POST /api/register '{"name":"gina","password":"gina-password"}'
for i in $(seq 100); do call gina POST /api/games '{"variant":"chess"}'; [ "$CODE" = 201 ] || break; done
expect "a hundred games waiting" 201
call gina POST /api/games '{"variant":"chess"}'; expect "a hundred and first" 429 "100 games waiting or in play"
streams=()
for i in $(seq 32); do curl -s -N -m 4 "$B/api/games/$G/events" >/dev/null & streams+=($!); done
sleep 1
# The 33rd meets two limits of 32 at once, the live streams of an address
# and its connections (the gate's, which answers first).
CODE=$(curl -s -m 4 -o "$tmp/body" -w '%{http_code}' "$B/api/games/$G/events"); expect "a 33rd live stream" 429 "at most 32"
wait "${streams[@]}"
# A closed stream is noticed within a second or so (the server looks at
# the socket while it waits), and its place is free again.
for i in $(seq 5); do
    CODE=$(curl -s -m 1 -o "$tmp/body" -w '%{http_code}' "$B/api/games/$G/events")
    [ "$CODE" = 200 ] && break
    sleep 1
done
expect "a stream once the others closed" 200

# ---- Tokens and the block list (on either database) ------------------------
call eve POST /api/tokens '{"label":"my bot"}'; expect "make an API token" 201 '"token":"'
TOKEN=$(field token)
TOKEN_ID=$(grep -o '"id":[0-9]*' "$tmp/body" | cut -d: -f2)
call eve GET /api/tokens; expect "the token is listed without its secret" 200 '"label":"my bot"'
grep -q "$TOKEN" "$tmp/body" && { failed=$((failed + 1)); echo "FAIL: the token list shows the token"; } || passed=$((passed + 1))
CODE=$(curl -s -m 10 -o "$tmp/body" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$B/api/session")
expect "a request with the token is eve's" 200 '"eve"'
call eve DELETE "/api/tokens/$TOKEN_ID"; expect "revoke the token" 200
call eve DELETE "/api/tokens/$TOKEN_ID"; expect "revoke it again" 404
call carol POST /api/blocks '{"name":"eve"}'; expect "carol blocks eve" 201
call carol GET /api/blocks; expect "carol's block list" 200 '["eve"]'
call eve POST /api/games '{"variant":"chess","opponent":"carol"}'; expect "a blocked challenge" 403 "does not accept challenges"
call carol DELETE /api/blocks/eve; expect "carol unblocks eve" 200

# ---- Open challenges (seeks) and the lobby ---------------------------------
# A seek is posted by one player, listed in every lobby (GET /api/lobby and
# the lobby's live stream), and accepted by the first other player, who
# takes the open seat: the game starts.  Three open at most per player.
call eve POST /api/seeks '{"variant":"gifford","color":"white","clock":{"minutes":5,"increment":3}}'
expect "post an open challenge" 201 '"url":"/games/'
S=$(field id)
call nobody GET /api/lobby; expect "a visitor sees the open challenge" 200 "\"seeks\":[{\"id\":\"$S\",\"variant\":\"gifford\",\"title\":"
expect "with who posted it, the colour the accepter plays and the clock" 200 '"from":"eve","color":"black","time":"5+3","kind":"live"'
expect "and the games being played" 200 '"playing":['
curl -s -N -m 1 "$B/api/lobby/events" >"$tmp/lobby-events"
grep -q "^event: lobby$" "$tmp/lobby-events" && grep -q "^data: {\"seeks\":\[{\"id\":\"$S\"" "$tmp/lobby-events" &&
    passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the lobby's stream: $(head -c 300 "$tmp/lobby-events")"; }
call eve POST /api/seeks '{"variant":"chess","opponent":"carol"}'; expect "an open challenge names nobody" 400 "no opponent"
call eve POST /api/seeks '{"variant":"nochess"}'; expect "an open challenge of no variant" 400 "unknown variant"
call eve POST /api/seeks '{"variant":"chess","days_per_move":99}'; expect "an open challenge's clock is checked" 400 "days_per_move"
call anon POST /api/seeks '{"variant":"chess"}'; expect "an open challenge, logged out" 401 "log in"
call eve POST /api/seeks '{"variant":"chess"}'; expect "a second open challenge" 201
S2=$(field id)
call eve POST /api/seeks '{"variant":"vangog"}'; expect "a third open challenge" 201
call eve POST /api/seeks '{"variant":"chessgi"}'; expect "a fourth open challenge" 429 "3 open challenges"
call eve POST "/api/seeks/$S/accept"; expect "accepting one's own open challenge" 409 "your own"
call eve POST "/api/games/$S/actions" '{"action":"e4","ply":0}'; expect "an open challenge is not played" 409 "waits for an opponent"
call carol DELETE "/api/seeks/$S2"; expect "withdrawing another's open challenge" 403 "not yours"
call eve DELETE "/api/seeks/$S2"; expect "withdraw an open challenge" 200
call carol POST "/api/seeks/$S2/accept"; expect "accepting a withdrawn open challenge" 409 "withdrawn"
call carol POST "/api/seeks/$S/accept"; expect "carol accepts eve's open challenge" 200 "\"id\":\"$S\""
call alice POST "/api/seeks/$S/accept"; expect "an open challenge accepted twice" 409 "already been accepted"
call carol GET "/api/games/$S"; expect "the accepted open challenge is a game in play" 200 '"status":"active"'
expect "carol plays black" 200 '"you":"black"'
call nobody GET /api/lobby
sed 's/.*"playing"//' "$tmp/body" | grep -qF "\"id\":\"$S\",\"variant\":\"gifford\"" && ! grep -qF "\"seeks\":[{\"id\":\"$S\"" "$tmp/body" &&
    passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the accepted seek is not among the games played: $(head -c 300 "$tmp/body")"; }
call nobody GET "/api/seeks/$S/accept"; expect "GET on a seek" 404

# ---- A long van Gog game: the state's size, the switches ------------------
# 150 plies of pseudo-random legal actions (ttchess moves picks among them;
# a third of them at least leave the board or arrive from another time),
# played through the API by bob and carol.  The state without the
# switches stays under 20 KB: each action is its ply, coordinate and human
# forms, what it does only with ?what=1 (with it the state weighs some
# 28 KB; a van Gog position has some 3,400 legal actions: with them, over
# 400 KB); the kinds of the actions played are described either way.
# ?legal=1 lists exactly the actions ttchess moves prints for the position.
call bob POST /api/games '{"variant":"vangog","color":"white","opponent":"carol","days_per_move":3}'
V=$(field id)
call carol POST "/api/games/$V/accept"; expect "a van Gog game" 200
RANDOM=26
vmoves=""
for ply in $(seq 0 149); do
    mapfile -t vlegal < <("$TTCHESS" moves --variant vangog --moves "$vmoves")
    mapfile -t vtravel < <(printf '%s\n' "${vlegal[@]}" | grep -v '^[a-h][1-8][a-h][1-8]$')
    [ "${#vlegal[@]}" -gt 0 ] || break
    if [ "${#vtravel[@]}" -gt 0 ] && [ $((RANDOM % 3)) = 0 ]; then a=${vtravel[RANDOM % ${#vtravel[@]}]}
    else a=${vlegal[RANDOM % ${#vlegal[@]}]}; fi
    call "$([ $((ply % 2)) = 0 ] && echo bob || echo carol)" POST "/api/games/$V/actions" "{\"action\":\"$a\",\"ply\":$ply}"
    [ "$CODE" = 200 ] || break
    vmoves="$vmoves $a"
done
expect "150 plies of van Gog through the API" 200 '"ply":150'
grep -qF '"legal"' "$tmp/body" || grep -qF '"nodes"' "$tmp/body" || grep -qF '"at_node"' "$tmp/body" &&
    { failed=$((failed + 1)); echo "FAIL: the actions reply lists the legal actions, the positions or what the actions do"; } ||
    passed=$((passed + 1))
# Without a live clock an action's event is the action and nothing more.
curl -s -N -m 1 "$B/api/games/$V/events" >"$tmp/vevents"
n=$(grep -cxE 'data: \{"coord":"[^"]*","human":"[^"]*","ply":[0-9]+,"type":"action"\}' "$tmp/vevents")
[ "$n" = 150 ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: $n of the van Gog game's 150 action events are the action alone:"; grep -m 3 '"action"' "$tmp/vevents"; }
call eve GET "/api/games/$V"; expect "the long van Gog game" 200 '"ply":150'
expect "its actions are their ply and forms" 200 '"actions":[{"ply":1,"coord":"'
expect "the kinds of the actions played, without what they do" 200 '"arrival":{"words":'
grep -qF '"at_node"' "$tmp/body" && { failed=$((failed + 1)); echo "FAIL: the default state says what each action does"; } ||
    passed=$((passed + 1))
size=$(wc -c <"$tmp/body")
call eve GET "/api/games/$V?what=1"
what_size=$(wc -c <"$tmp/body")
expect "what each action does asked for" 200 '"actions":[{"ply":1,"coord":"'
[ "$(grep -o '"at_node":' "$tmp/body" | wc -l)" = 150 ] && grep -qF ',"kind":"arrival","from":"' "$tmp/body" &&
    ! grep -qF '"legal"' "$tmp/body" && ! grep -qF '"nodes"' "$tmp/body" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: ?what=1 does not say what each of the 150 actions does, or lists more: $(head -c 300 "$tmp/body")"; }
call eve GET "/api/games/$V?legal=1&nodes=1&what=1"
echo "api-test: a van Gog game at ply 150: state $size bytes; with ?what=1 $what_size bytes; with ?legal=1&nodes=1&what=1 $(wc -c <"$tmp/body") bytes"
[ "$size" -lt 20480 ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: a van Gog game's state weighs $size bytes, over 20 KB"; }
call eve GET "/api/games/$V?legal=1"
sed 's/.*"legal":\[//' "$tmp/body" | grep -o '{"coord":"[^"]*"' | sed 's/.*"coord":"//; s/"$//' | sort >"$tmp/legal.api"
"$TTCHESS" moves --variant vangog --moves "$vmoves" | sort >"$tmp/legal.cli"
[ -s "$tmp/legal.cli" ] && cmp -s "$tmp/legal.api" "$tmp/legal.cli" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: ?legal=1 lists $(wc -l <"$tmp/legal.api") actions, ttchess moves $(wc -l <"$tmp/legal.cli"):"; diff "$tmp/legal.api" "$tmp/legal.cli" | head -5; }
grep -qF '"at_node"' <(sed 's/"legal":.*//' "$tmp/body") &&
    { failed=$((failed + 1)); echo "FAIL: ?legal=1 says what each played action does"; } || passed=$((passed + 1))

# ---- The client's files ------------------------------------------------------
# Served with their types, and kept by the browser: revalidated at each use
# with the file's tag, an unchanged file costs a 304 with no body, a
# changed one comes whole again.
static_get() {   # static_get PATH [HEADER]: the status in CODE, the headers in $tmp/headers
    rm -f "$tmp/body"   # curl writes no file for a reply with no body
    CODE=$(curl -s -m 10 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' ${2:+-H "$2"} "$B$1")
}
header() { grep -i "^$1:" "$tmp/headers" | head -n 1 | sed 's/^[^:]*: *//' | tr -d '\r'; }
static_get /ttchess.wasm; expect "the WebAssembly module" 200
[ "$(header Content-Type)" = application/wasm ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: .wasm is served as '$(header Content-Type)', not application/wasm"; }
static_get /app.js; expect "the script" 200 'console.log(1);'
tag=$(header ETag)
[ -n "$tag" ] && [ "$(header Cache-Control)" = no-cache ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: app.js has no tag ('$tag') or is not revalidated ($(header Cache-Control))"; }
static_get /app.js "If-None-Match: $tag"
[ "$CODE" = 304 ] && [ ! -s "$tmp/body" ] && [ "$(header ETag)" = "$tag" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: an unchanged app.js revalidated: $CODE, $(wc -c <"$tmp/body") bytes"; }
printf 'console.log(2);\n' >"$tmp/static/app.js"
static_get /app.js "If-None-Match: $tag"; expect "a changed app.js revalidated" 200 'console.log(2);'
# A file's gzip-compressed copy beside it (the build makes app.js.gz,
# ttchess.wasm.gz, ...) goes to a browser that accepts gzip, never to one
# that refuses it (q=0), and never when it is older than the file.
printf 'console.log(3);\n' | gzip -n >"$tmp/static/app.js.gz"
static_get /app.js "Accept-Encoding: gzip, deflate, br"
[ "$CODE" = 200 ] && [ "$(header Content-Encoding)" = gzip ] && [ "$(header Vary)" = Accept-Encoding ] &&
    [ "$(gzip -dc "$tmp/body")" = 'console.log(3);' ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: app.js asked with gzip: $CODE, encoding '$(header Content-Encoding)', vary '$(header Vary)'"; }
static_get /app.js "Accept-Encoding: deflate, gzip;q=0"
[ -z "$(header Content-Encoding)" ] && grep -q 'console.log(2);' "$tmp/body" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: app.js sent as '$(header Content-Encoding)' to a client refusing gzip"; }
touch -d '2001-01-01' "$tmp/static/app.js.gz"
static_get /app.js "Accept-Encoding: gzip"
[ -z "$(header Content-Encoding)" ] && grep -q 'console.log(2);' "$tmp/body" && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: a compressed copy older than app.js was sent"; }
static_get /games/abc; expect "a page of the client" 200 '<title>ttchess</title>'
[ "$(header Cache-Control)" = no-cache ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: index.html may be kept unrevalidated ($(header Cache-Control))"; }
# A file named after its content (web/build.mjs: app.HASH.js) is kept for
# a year, never asked for again; index.html, which names it, is revalidated.
printf 'console.log(4);\n' >"$tmp/static/app.0123456789.js"
static_get /app.0123456789.js; expect "a hashed script" 200 'console.log(4);'
[ "$(header Cache-Control)" = "public, max-age=31536000, immutable" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: a hashed file is not immutable ($(header Cache-Control))"; }
static_get /app.0123456789.js "If-None-Match: $(header ETag)"
[ "$CODE" = 304 ] && [ "$(header Cache-Control)" = "public, max-age=31536000, immutable" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: a hashed file revalidated: $CODE, $(header Cache-Control)"; }
static_get /app.0123456789x.js; [ "$(header Cache-Control)" = no-cache ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: a page path that looks hashed is immutable ($(header Cache-Control))"; }
static_get /api/variants; [ "$(header Cache-Control)" = no-store ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: an API reply may be stored ($(header Cache-Control))"; }

# ---- A restart keeps everything --------------------------------------------
stop_server
start_server "$tmp/none"
call eve GET "/api/games/$L"; expect "the game after a restart" 200 '"ply":2'
call eve POST "/api/games/$L/actions" '{"action":"P c2-c4","ply":2}'; expect "a Game Courier move, after a restart" 200 '"human":"c4"'

echo "api-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
