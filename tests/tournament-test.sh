#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tournaments through the HTTP API (docs/api.md, "Tournaments"), driven
# by a script as six players would play them:
#
#   - an arena of 6 players, one minute long (a minute of the server's
#     --arena-minute-ms, 20 s here): the server pairs the players as they
#     finish, never the same two twice in a row; the script ends each game
#     at once by a rule (p1 wins every game it plays, so it is on fire;
#     some games are agreed draws, the others won by Black), at least 20
#     games, and checks the standings against its own count, made by hand
#     from lichess's rules: 2 a win, 1 a draw, doubled after two wins in a
#     row until a game that is not a win;
#   - when its time is up nothing is paired any more, and the games still
#     in play count when they end;
#   - a game whose first move does not come within half an arena minute
#     is lost by White on time;
#   - its live stream (GET .../events) sends the standings;
#   - a round-robin: invited players accept, every pair plays twice, the
#     standings give 1, 1/2, 0 and the Sonneborn-Berger tie-break, and the
#     round-robin ends with its last game;
#   - the requests refused: bad bodies (400), a visitor (401), joining a
#     round-robin uninvited (409), a fourth open tournament (429).
#
# TTCHESS names the program; TTCHESS_DB a database (a postgresql:// URL)
# instead of a fresh SQLite file.
set -u
TTCHESS=${TTCHESS:-build/ttchess}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
MINUTE_MS=${MINUTE_MS:-20000}
for try in 1 2 3 4 5 6 7 8; do
    PORT=$((20000 + RANDOM % 20000))
    "$TTCHESS" serve --port "$PORT" --db "${TTCHESS_DB:-$tmp/ttchess.db}" --static "$tmp/none" \
        --registrations-per-hour 100000 --arena-minute-ms "$MINUTE_MS" >"$tmp/serve.log" 2>&1 &
    pid=$!
    for i in $(seq 50); do
        grep -q "ttchess serve: http" "$tmp/serve.log" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "ttchess serve: http" "$tmp/serve.log" && break
    wait "$pid" 2>/dev/null
    pid=
done
[ -n "$pid" ] || { echo "FAIL: the server did not start:"; cat "$tmp/serve.log"; exit 1; }
python3 "$(dirname "$0")/tournament_drive.py" "http://127.0.0.1:$PORT" "$MINUTE_MS"
