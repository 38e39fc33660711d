#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Players' pages and the archive (docs/api.md, "Players and the
# archive"), with curl: a player's finished games as NDJSON (one JSON
# object a line, newest first) with each filter and its refusals, the
# paging by ?until=, their games in play, their counts per variant, all
# their finished games as one PGN file read back whole by 'ttchess replay',
# and the deletion of an account: the password asked again, the login
# gone, the games kept with the name shown as "deleted", the name never
# registered again.  TTCHESS_DB runs the same on PostgreSQL
# (tests/postgres-test.sh).
#
# Usage: TTCHESS=path/to/ttchess tests/players-test.sh   (default build/ttchess)

set -u
TTCHESS=${TTCHESS:-build/ttchess}
tmp=$(mktemp -d)
passed=0
failed=0
. "$(dirname "$0")/serve-lib.sh"
trap 'stop_server; rm -rf "$tmp"' EXIT

call() {
    local jar=$1 method=$2 path=$3 body=${4-}
    local args=(-s -m 20 -o "$tmp/body" -D "$tmp/head" -w '%{http_code}' -X "$method" -c "$tmp/$jar.jar"
        -b "$tmp/$jar.jar" -H "Origin: $B")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    CODE=$(curl "${args[@]}" "$B$path")
}

expect() {
    local what=$1 code=$2 text=${3-}
    if [ "$CODE" = "$code" ] && { [ -z "$text" ] || grep -qF -- "$text" "$tmp/body"; }; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $what: expected $code${text:+ with '$text'}, got $CODE: $(head -c 300 "$tmp/body")"
    fi
}

# check WHAT PYTHON: the Python expression (of `lines`, the body's NDJSON
# objects, or `body`, its JSON) is true.
check() {
    if python3 - "$tmp/body" "$2" <<'PY'; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
import json, sys
text = open(sys.argv[1]).read()
try:
    lines = [json.loads(l) for l in text.split("\n") if l]
except ValueError:
    lines = []
try:
    body = json.loads(text)
except ValueError:
    body = None
ok = eval(sys.argv[2])
if not ok:
    print(text[:400], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

field() { grep -o "\"$1\":\"\?[^\",}]*" "$tmp/body" | head -n 1 | sed 's/^"[^"]*":"\{0,1\}//'; }

mkdir -p "$tmp/static"
printf '<!doctype html><title>ttchess</title>\n' >"$tmp/static/index.html"
start_server "$tmp/static"

for who in alice bob carol; do
    call $who POST /api/register "{\"name\":\"$who\",\"password\":\"$who-password\"}"; expect "register $who" 201
done

# game WHITE BLACK VARIANT: a game WHITE challenged BLACK to, accepted, in G.
game() {
    call "$1" POST /api/games "{\"variant\":\"$3\",\"color\":\"white\",\"opponent\":\"$2\",\"days_per_move\":3}"
    G=$(field id)
    call "$2" POST "/api/games/$G/accept"; expect "$2 accepts $G" 200
}
# Four finished games of alice's: won (chess), lost (gifford), drawn
# (chess), won against carol (chess); one in play; bob and carol's own.
game alice bob chess; G1=$G
call alice POST "/api/games/$G1/actions" '{"action":"e4","ply":0}'; expect "e4" 200
call bob POST "/api/games/$G1/actions" '{"action":"resign","ply":1}'; expect "bob resigns" 200 '"result":"1-0"'
game alice bob gifford; G2=$G
call alice POST "/api/games/$G2/actions" '{"action":"resign","ply":0}'; expect "alice resigns" 200 '"result":"0-1"'
game alice bob chess; G3=$G
call alice POST "/api/games/$G3/actions" '{"action":"e4","ply":0}'; expect "e4" 200
call bob POST "/api/games/$G3/actions" '{"action":"e5","ply":1}'; expect "e5" 200
call alice POST "/api/games/$G3/actions" '{"action":"offer-draw","ply":2}'; expect "offer a draw" 200
call bob POST "/api/games/$G3/actions" '{"action":"accept-draw","ply":2}'; expect "draw" 200 '1/2-1/2'
game carol alice chess; G4=$G
call carol POST "/api/games/$G4/actions" '{"action":"resign","ply":0}'; expect "carol resigns" 200 '"result":"0-1"'
game bob alice chess; G5=$G
game bob carol chess; G6=$G
call bob POST "/api/games/$G6/actions" '{"action":"resign","ply":0}'; expect "bob resigns to carol" 200

# ---- The list, as NDJSON --------------------------------------------------------
call x GET /api/users/alice/games; expect "alice's games" 200
check "the list is NDJSON, newest first, finished games only" \
    "[g['id'] for g in lines] == ['$G4', '$G3', '$G2', '$G1'] and text.endswith('\n')"
grep -qi '^content-type: application/x-ndjson' "$tmp/head" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the NDJSON type"; }
check "a game's fields, as lichess's export has them" \
    "set(lines[3]) >= {'id','variant','players','result','reason','plies','created','last_action_at','speed','status'} and lines[3]['players']['white']['name'] == 'alice' and lines[3]['plies'] == 1 and lines[3]['speed'] == 'correspondence' and lines[3]['winner'] == 'white'"
call x GET /api/users/ALICE/games; expect "a name in any case" 200 "\"id\":\"$G4\""
call x GET "/api/users/alice/games?variant=gifford"; check "by variant" "[g['id'] for g in lines] == ['$G2']"
call x GET "/api/users/alice/games?result=won"; check "won" "[g['id'] for g in lines] == ['$G4', '$G1']"
call x GET "/api/users/alice/games?result=lost"; check "lost" "[g['id'] for g in lines] == ['$G2']"
call x GET "/api/users/alice/games?result=drawn"; check "drawn" "[g['id'] for g in lines] == ['$G3']"
call x GET "/api/users/alice/games?opponent=carol"; check "by opponent" "[g['id'] for g in lines] == ['$G4']"
call x GET "/api/users/alice/games?opponent=Bob&result=won&variant=chess"; check "filters together" "[g['id'] for g in lines] == ['$G1']"
call x GET "/api/users/alice/games?max=2"; check "max" "[g['id'] for g in lines] == ['$G4', '$G3']"
until=$(python3 -c "import json; print(json.loads(open('$tmp/body').read().split('\n')[1])['created'])")
call x GET "/api/users/alice/games?max=2&until=$until"; check "the next page by until" "[g['id'] for g in lines] == ['$G2', '$G1']"
call x GET "/api/users/carol/games?result=won"; check "carol's win" "[g['id'] for g in lines] == ['$G6']"
call x GET "/api/users/dave/games"; expect "an unknown player" 404 "no such player"
call x GET "/api/users/a%20b/games"; expect "a name no player can have" 404 "no such player"
call x GET "/api/users/alice/games?variant=nosuch"; expect "a bad variant" 400 "no variant"
call x GET "/api/users/alice/games?result=win"; expect "a bad result" 400 "won, drawn or lost"
call x GET "/api/users/alice/games?max=0"; expect "max 0" 400 "1 to 500"
call x GET "/api/users/alice/games?max=501"; expect "max over the cap" 400 "1 to 500"
call x GET "/api/users/alice/games?max=1x"; expect "max not a number" 400 "1 to 500"
call x GET "/api/users/alice/games?until=-5"; expect "a bad until" 400 "milliseconds"
call x GET "/api/users/alice/games?opponent=nobody"; expect "an unknown opponent" 400 "opponent"
call x GET "/api/users/alice/games?opponent=alice"; expect "oneself as opponent" 400 "opponent"
# Rated or casual (the rated column of the ratings, issue 29): one casual
# game of carol's beside her two rated ones.
call bob POST /api/games '{"variant":"chess","color":"white","opponent":"carol","days_per_move":3,"rated":false}'
G7=$(field id)
call carol POST "/api/games/$G7/accept"; expect "carol accepts the casual $G7" 200
call bob POST "/api/games/$G7/actions" '{"action":"resign","ply":0}'; expect "bob resigns the casual game" 200
call x GET "/api/users/carol/games?rated=false"; check "casual games" "[g['id'] for g in lines] == ['$G7'] and lines[0]['rated'] is False"
call x GET "/api/users/carol/games?rated=true"; check "rated games" "[g['id'] for g in lines] == ['$G6', '$G4'] and all(g['rated'] is True for g in lines)"
call x GET "/api/users/carol/games"; check "rated and casual" "[g['id'] for g in lines] == ['$G7', '$G6', '$G4']"
call x GET "/api/users/carol/games?rated=yes"; expect "a bad rated" 400 "rated is true"
call x GET "/api/users/alice/games?variant=%27%3B%20DROP%20TABLE%20games%3B%20--"; expect "SQL in a filter" 400 "no variant"

# ---- Current games and counts ---------------------------------------------------
call x GET /api/users/alice/current; expect "alice's games in play" 200
check "the games in play, with the name and member since" \
    "body['name'] == 'alice' and body['created'] > 0 and [g['id'] for g in body['games']] == ['$G5'] and body['games'][0]['status'] == 'active'"
call x GET /api/users/alice/stats; expect "alice's counts" 200
check "the counts per variant" \
    "body == {'chess': {'played': 3, 'won': 2, 'drawn': 1, 'lost': 0}, 'gifford': {'played': 1, 'won': 0, 'drawn': 0, 'lost': 1}}"
call x GET /api/users/nobody/stats; expect "counts of nobody" 404

# ---- The PGN export ----------------------------------------------------------------
call x GET /api/users/alice/games.pgn; expect "alice's PGN" 200 '[White "alice"]'
grep -qi '^content-disposition: attachment; filename="ttchess-alice.pgn"' "$tmp/head" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: the PGN's file name"; }
[ "$(grep -c '^\[Event ' "$tmp/body")" = 4 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: 4 games in the PGN"; }
if "$TTCHESS" replay "$tmp/body" >"$tmp/replayed" 2>&1 && [ "$(grep -cE '^(1-0|0-1|1/2-1/2)' "$tmp/replayed")" = 4 ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: the PGN read back by ttchess replay:"; head -20 "$tmp/replayed"
fi
call x GET /api/users/nobody/games.pgn; expect "PGN of nobody" 404

# ---- A finished game's downloads, for a visitor ----------------------------------
call x GET "/api/games/$G3/gc"; expect "the Game Courier log" 200
if "$TTCHESS" replay --variant chess "$tmp/body" >"$tmp/replayed" 2>&1 && grep -q 'e4' "$tmp/replayed"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: the Game Courier log read back:"; cat "$tmp/body"; head -5 "$tmp/replayed"
fi
call x GET "/api/games/$G3/sheets"; expect "the score sheets" 200 'e4'
call x GET "/api/games/$G3/pgn"; expect "the PGN" 200 '[Result "1/2-1/2"]'
call x GET "/api/games/nosuch/gc"; expect "the log of no game" 404

# ---- Account deletion -----------------------------------------------------------
call x DELETE /api/account '{"password":"x"}'; expect "delete, logged out" 401
call bob DELETE /api/account '{"password":"wrong-password"}'; expect "delete with a wrong password" 403 "wrong password"
call bob DELETE /api/account '{}'; expect "delete without the password" 400 "password"
call bob POST /api/games '{"variant":"chess","opponent":"carol"}'; expect "bob challenges carol" 201
C=$(field id)
call bob DELETE /api/account '{"password":"bob-password"}'; expect "bob deletes his account" 200 '"deleted":true'
call bob GET /api/session; expect "the session is gone" 200 '"name":null'
call y POST /api/login '{"name":"bob","password":"bob-password"}'; expect "bob cannot log in" 401
call y POST /api/register '{"name":"bob","password":"new-password"}'; expect "bob's name is not free" 409 "taken"
call y POST /api/register '{"name":"BOB","password":"new-password"}'; expect "in any case" 409 "taken"
call y POST /api/register '{"name":"deleted","password":"new-password"}'; expect "nobody is 'deleted'" 409 "taken"
call x GET /api/users/bob/games; expect "bob's page is gone" 404
call x GET /api/users/alice/games; check "alice's games stay, bob shown as deleted" \
    "[g['id'] for g in lines] == ['$G4', '$G3', '$G2', '$G1'] and lines[3]['players']['black']['name'] == 'deleted' and 'bob' not in text"
call x GET "/api/games/$G1"; expect "the game stays" 200 '"deleted"'
if grep -q '"bob"' "$tmp/body"; then failed=$((failed + 1)); echo "FAIL: bob's name in a game's state"; else passed=$((passed + 1)); fi
call x GET "/api/games/$G1/pgn"; expect "the PGN names deleted" 200 '[Black "deleted"]'
call x GET "/api/games/$C"; expect "bob's open challenge is withdrawn" 200 '"status":"declined"'
call x GET /api/users/alice/stats; check "alice's counts stay" "body['chess']['played'] == 3"

echo "players-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
