#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Two ttchess serve instances on one PostgreSQL database (docs/api.md,
# "Several servers"): a session made on one is good on the other; an
# action posted to one reaches a spectator's live stream on the other
# within 100 ms (LISTEN/NOTIFY); the same action for the same ply sent to
# both at the same moment is applied once, the other answered 409.
#
# Usage: TTCHESS=build/ttchess TTCHESS_DB=postgresql://... tests/multi-test.sh
# (make test-postgres starts the database and runs this).

set -u
TTCHESS=${TTCHESS:-build/ttchess}
: "${TTCHESS_DB:?set TTCHESS_DB to a postgresql:// URL}"
tmp=$(mktemp -d)
passed=0
failed=0
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# launch NAME: a server on a random free-looking port; ready NAME waits
# for it and sets the variable NAME to its base URL.
launch() {
    local name=$1 port=$((20000 + RANDOM % 20000))
    "$TTCHESS" serve --port "$port" --db "$TTCHESS_DB" --static "$tmp/none" --registrations-per-hour 100000 >"$tmp/$name.log" 2>&1 &
    pids+=($!)
    printf -v "$name" '%s' "http://127.0.0.1:$port"
    printf -v "${name}_pid" '%s' "$!"
}
ready() {
    local name=$1 pid_var=${1}_pid
    for i in $(seq 100); do
        grep -q "ttchess serve: http" "$tmp/$name.log" 2>/dev/null && return 0
        kill -0 "${!pid_var}" 2>/dev/null || break
        sleep 0.1
    done
    echo "FAIL: server $name did not start:"; cat "$tmp/$name.log"; exit 1
}

# call JAR URL METHOD PATH [BODY]: the status in CODE, the body in $tmp/body.
call() {
    local jar=$1 base=$2 method=$3 path=$4 body=${5-}
    local args=(-s -m 10 -o "$tmp/body" -w '%{http_code}' -X "$method" -c "$tmp/$jar.jar" -b "$tmp/$jar.jar"
        -H "Origin: $base")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    CODE=$(curl "${args[@]}" "$base$path")
}
field() { grep -o "\"$1\":\"\?[^\",}]*" "$tmp/body" | head -n 1 | sed 's/^"[^"]*":"\{0,1\}//'; }
# Milliseconds, from bash's own clock (no process started to read it).
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# Both start at once: the schema's migrations are run by one of them while
# the other waits (an advisory lock), and both come up.
launch A
launch B
ready A
ready B
grep -q "postgresql database" "$tmp/A.log" && ok || fail "instance A does not say it uses PostgreSQL: $(cat "$tmp/A.log")"

call alice "$A" POST /api/register '{"name":"alice","password":"alice-password"}'
[ "$CODE" = 201 ] && ok || fail "register on A: $CODE"
call bob "$B" POST /api/register '{"name":"bob","password":"bob-password"}'
[ "$CODE" = 201 ] && ok || fail "register on B: $CODE"
call alice "$B" GET /api/session
grep -q '"alice"' "$tmp/body" && ok || fail "alice's session from A is not known to B: $(cat "$tmp/body")"
# new_game: alice (White, on A) invites bob; the game's id in G.
new_game() {
    call alice "$A" POST /api/games '{"variant":"gifford","color":"white","opponent":"bob","days_per_move":3}'
    G=$(field id)
    local created=$CODE
    # Naming bob challenges him: he accepts on B.
    call bob "$B" POST "/api/games/$G/accept"
    [ "$CODE" = 200 ] && CODE=$created
}
new_game
[ "$CODE" = 201 ] && [ -n "$G" ] && ok || fail "create on A: $CODE $(cat "$tmp/body")"
call bob "$B" GET "/api/games/$G"
[ "$CODE" = 200 ] && ok || fail "the game made on A is not on B: $CODE"

# A spectator's stream on B; actions posted alternately to A and B (White
# posts to A, Black to B), each line of the stream stamped on arrival.
curl -s -N -m 30 "$B/api/games/$G/events" | while IFS= read -r line; do
    case $line in data:*) t=${EPOCHREALTIME/[.,]/}; echo "$((t / 1000)) $line" ;; esac
done >"$tmp/stream" &
pids+=($!)
sleep 0.5
moves=(e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+)
worst=0
ply=0
for mv in "${moves[@]}"; do
    if [ $((ply % 2)) = 0 ]; then who=alice; base=$A; else who=bob; base=$B; fi
    sent=$(now_ms)
    call "$who" "$base" POST "/api/games/$G/actions" "{\"action\":\"$mv\",\"ply\":$ply}"
    [ "$CODE" = 200 ] || fail "$mv at ply $ply on $base: $CODE $(cat "$tmp/body")"
    ply=$((ply + 1))
    arrived=
    for i in $(seq 100); do
        arrived=$(grep "\"ply\":$ply[,}]" "$tmp/stream" | head -n 1 | cut -d' ' -f1)
        [ -n "$arrived" ] && break
        sleep 0.01
    done
    if [ -z "$arrived" ]; then
        fail "the stream on B never showed ply $ply"
    else
        delay=$((arrived - sent))
        [ "$delay" -gt "$worst" ] && worst=$delay
    fi
done
[ "$worst" -lt 100 ] && ok || fail "an action took $worst ms to reach the other instance's stream (limit 100)"
echo "multi-test: the slowest action reached B's stream $worst ms after it was sent (A and B alike)"

# The same action for the same ply, sent to both at the same moment.
twice=0
for round in $(seq 20); do
    if [ $((ply % 2)) = 0 ]; then who=alice; else who=bob; fi
    call "$who" "$A" GET "/api/games/$G?legal=1"
    move=$(sed 's/.*"legal":\[//' "$tmp/body" | grep -o '{"coord":"[^"]*"' | sed 's/.*"coord":"//; s/"$//' | shuf -n 1)
    [ -n "$move" ] || { fail "no legal action at ply $ply"; break; }
    body="{\"action\":\"$move\",\"ply\":$ply}"
    for side in A B; do
        base=$A; [ $side = B ] && base=$B
        curl -s -m 10 -o /dev/null -w '%{http_code}\n' -X POST -b "$tmp/$who.jar" -H 'Content-Type: application/json' \
            -H "Origin: $base" --data-binary "$body" "$base/api/games/$G/actions" >"$tmp/race.$side" &
    done
    wait_for=$(jobs -p | tail -n 2)
    wait $wait_for 2>/dev/null
    codes=$(sort "$tmp/race.A" "$tmp/race.B" | tr '\n' ' ')
    call "$who" "$B" GET "/api/games/$G"
    now=$(field ply)
    if [ "$codes" = "200 409 " ] && [ "$now" = $((ply + 1)) ]; then
        ok
    else
        fail "round $round: the same action sent to both answered '$codes', and the ply went from $ply to $now"
        twice=$((twice + 1))
    fi
    ply=$now
    st=$(grep -o "\"status\":\"[a-z]*\"" "$tmp/body" | head -n 1)
    if [ "$st" != "\"status\":\"active\"" ]; then
        new_game
        ply=0
    fi
done

# A server's cached game is brought up to date with the actions the
# other server added (server/play.c, play_restore), never across a
# take-back: B keeps the game after 1. e4 e5; on A, e5 is taken back and
# 1... d5 2. Nf3 played.  The ply moved on by one, and 2. Nf3 is legal
# after 1... e5 too, so a server that only counted plies would show B the
# position after 1. e4 e5 2. Nf3.
new_game
call alice "$A" POST "/api/games/$G/actions" '{"action":"e4","ply":0}'
call bob "$B" POST "/api/games/$G/actions" '{"action":"e5","ply":1}'
call bob "$B" GET "/api/games/$G"
call bob "$A" POST "/api/games/$G/actions" '{"action":"offer-takeback","ply":2}'
call alice "$A" POST "/api/games/$G/actions" '{"action":"accept-takeback","ply":2}'
call bob "$A" POST "/api/games/$G/actions" '{"action":"d5","ply":1}'
call alice "$A" POST "/api/games/$G/actions" '{"action":"Nf3","ply":2}'
fen_a=$(field fen)
call bob "$B" GET "/api/games/$G"
fen_b=$(field fen)
[ -n "$fen_a" ] && [ "$fen_a" = "$fen_b" ] && ok ||
    fail "after a take-back on A, B shows '$fen_b' where A shows '$fen_a'"
# And actions added on the other server alone are caught up: B's position
# after 2... Nc6 3. Bb5 played on A is A's.
call bob "$A" POST "/api/games/$G/actions" '{"action":"Nc6","ply":3}'
call alice "$A" POST "/api/games/$G/actions" '{"action":"Bb5","ply":4}'
fen_a=$(field fen)
call bob "$B" GET "/api/games/$G"
fen_b=$(field fen)
[ -n "$fen_a" ] && [ "$fen_a" = "$fen_b" ] && ok || fail "after two actions on A, B shows '$fen_b' where A shows '$fen_a'"

echo "multi-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
