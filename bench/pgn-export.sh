#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The PGN export of a player's games (GET /api/users/NAME/games.pgn,
# issue 29): GAMES finished games of alice's (default 10,000; 8 plies
# each, half with a live clock, half by correspondence), written straight
# into a fresh SQLite database, then downloaded whole with curl.  Reports
# the seconds the download took and fails when it took more than LIMIT
# (default 5), or when 'ttchess replay' does not read back every game.
#
# Usage: TTCHESS=build/ttchess bench/pgn-export.sh [GAMES] [LIMIT]

set -u
TTCHESS=${TTCHESS:-build/ttchess}
GAMES=${1:-10000}
LIMIT=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
. "$here/../tests/serve-lib.sh"
trap 'stop_server; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/static"
printf '<!doctype html><title>ttchess</title>\n' >"$tmp/static/index.html"

# The schema and the two players, made by the server itself.
start_server "$tmp/static"
for who in alice bob; do
    curl -s -o /dev/null -H "Origin: $B" -X POST --data-binary "{\"name\":\"$who\",\"password\":\"$who-password\"}" \
        "$B/api/register"
done
stop_server

python3 - "$tmp/ttchess.db" "$GAMES" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
alice, bob = [r[0] for r in db.execute("SELECT id FROM users ORDER BY id")]
moves = [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3"), ("b8c6", "Nc6"),
         ("f1b5", "Bb5"), ("a7a6", "a6"), ("b5a4", "Ba4"), ("g8f6", "Nf6")]
ends = [("1-0", "black resigns"), ("0-1", "white resigns"), ("1/2-1/2", "agreed draw")]
t0 = 1_700_000_000_000
with db:
    for i in range(int(sys.argv[2])):
        gid = "b%015d" % i
        white, black = (alice, bob) if i % 2 == 0 else (bob, alice)
        live = i % 2 == 0
        result, reason = ends[i % 3]
        db.execute("INSERT INTO games(id, variant, white, black, creator, invited, base_ms, inc_ms, days_per_move,"
                   " engine_level, white_ms, black_ms, last_action_at, status, result, reason, draw_offer,"
                   " takeback_offer, kibitz, to_move, declared, created) VALUES"
                   " (?, 'chess', ?, ?, ?, 0, ?, ?, ?, 0, 300000, 300000, ?, 'over', ?, ?, 0, 0, 1, 0, ?, ?)",
                   (gid, white, black, white, 300000 if live else 0, 2000 if live else 0, 0 if live else 3,
                    t0 + i * 1000 + 500, result, reason, result + " " + reason, t0 + i * 1000))
        db.executemany("INSERT INTO actions(game_id, ply, coord, human, at) VALUES (?, ?, ?, ?, ?)",
                       [(gid, p + 1, c, h, t0 + i * 1000 + p) for p, (c, h) in enumerate(moves)])
PY

start_server "$tmp/static"
cpu0=$(awk "{print \$14+\$15}" /proc/$server_pid/stat)
start=$(date +%s.%N)
code=$(curl -s -o "$tmp/alice.pgn" -w '%{http_code}' "$B/api/users/alice/games.pgn")
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
echo "server CPU: $(( $(awk "{print \$14+\$15}" /proc/$server_pid/stat) - cpu0 )) ticks"
games=$(grep -c '^\[Event ' "$tmp/alice.pgn")
echo "pgn-export: $games games, $(wc -c <"$tmp/alice.pgn") bytes in $seconds s (HTTP $code)"
"$TTCHESS" replay "$tmp/alice.pgn" >"$tmp/replayed" 2>&1 || { echo "FAIL: ttchess replay:"; tail -3 "$tmp/replayed"; exit 1; }
read_back=$(grep -cE '^(1-0|0-1|1/2-1/2)' "$tmp/replayed")
[ "$games" = "$GAMES" ] && [ "$read_back" = "$GAMES" ] || { echo "FAIL: $games games sent, $read_back read back, of $GAMES"; exit 1; }
if [ "$(echo "$seconds > $LIMIT" | bc)" = 1 ]; then echo "FAIL: over $LIMIT s"; exit 1; fi
