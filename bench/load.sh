#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The server under load (issue 12; README "The server under load"):
# bench/load plays GAMES games of random legal actions of every variant
# through the HTTP API at RATE actions/s offered, every action committed
# before its response, and reports actions/s and latency percentiles.
#
#   1. SQLite (the default), full state in each reply (what the browser
#      client asks for), offered at FULL_RATE (300/s): a van Gog state lists
#      thousands of legal actions (some 400 KB), and the load generator
#      parsing them shares the machine with the server;
#   2. SQLite, brief replies ("reply": "brief": what a program asks for);
#   3. PostgreSQL (a throwaway cluster, tests/pg-lib.sh), brief replies,
#      one server;
#   4. PostgreSQL, two servers on the one database, each game's players
#      on different servers.
#
# As the reference of the same run: the disk's synchronous writes per
# second (dd with oflag=dsync), the ceiling of any store that commits
# each action on its own.
#
# Usage: TTCHESS=build/ttchess LOAD=build/bench/load bench/load.sh [SECONDS] [GAMES] [RATE]

set -u
TTCHESS=${TTCHESS:-build/ttchess}
LOAD=${LOAD:-build/bench/load}
SECONDS_=${1:-10}
GAMES=${2:-200}
RATE=${3:-1000}
FULL_RATE=${FULL_RATE:-300}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/pg-lib.sh"
tmp=$(mktemp -d)
servers=()
cleanup() {
    for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    pg_stop
    rm -rf "$tmp"
}
trap cleanup EXIT

# serve DB: a server on a free port; its URL in URL.
serve() {
    local db=$1 port log
    for try in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 20000))
        log=$tmp/serve.$port.log
        "$TTCHESS" serve --port "$port" --db "$db" --static "$tmp" --registrations-per-hour 100000 >"$log" 2>&1 &
        local pid=$!
        for i in $(seq 100); do
            grep -q "ttchess serve: http" "$log" 2>/dev/null && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if grep -q "ttchess serve: http" "$log"; then
            servers+=("$pid")
            URL=http://127.0.0.1:$port
            return 0
        fi
    done
    echo "error: the server did not start: $(cat "$log")" >&2
    exit 1
}

stop_servers() {
    for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done
    wait "${servers[@]}" 2>/dev/null
    servers=()
}

rows=()
# run LABEL RATE ARGS...: one load run; its figures become a table row.
run() {
    local label=$1 rate=$2
    shift 2
    local out
    out=$("$LOAD" --games "$GAMES" --rate "$rate" --duration "$SECONDS_" --quiet --json "$@" | tail -n 1)
    get() { echo "$out" | grep -o "\"$1\":[0-9.]*" | head -n 1 | cut -d: -f2; }
    rows+=("| $label | $rate | $(get actions_per_s) | $(get p50_ms) | $(get p99_ms) | $(get max_ms) | $(get errors) |")
    echo "$label: $out"
}

dd_rate=$(dd if=/dev/zero of="$tmp/dsync" bs=4k count=1000 oflag=dsync 2>&1 | tail -n 1 |
    awk '{for (i = 1; i <= NF; i++) if ($i == "s,") print int(1000 / $(i - 1))}')
rm -f "$tmp/dsync"

serve "$tmp/full.db"
run "SQLite, full state" "$FULL_RATE" --url "$URL"
stop_servers
serve "$tmp/brief.db"
run "SQLite, brief reply" "$RATE" --url "$URL" --brief
stop_servers

if pg_start >/dev/null 2>&1; then
    pg_sql "CREATE DATABASE one" >/dev/null && pg_sql "CREATE DATABASE two" >/dev/null
    serve "${PG_URL%/postgres}/one"
    run "PostgreSQL, brief reply" "$RATE" --url "$URL" --brief
    stop_servers
    serve "${PG_URL%/postgres}/two"
    first=$URL
    serve "${PG_URL%/postgres}/two"
    run "PostgreSQL, 2 servers, brief" "$RATE" --url "$first" --url "$URL" --brief
    stop_servers
else
    echo "PostgreSQL is not installed (Debian package postgresql): its rows are left out"
fi

echo
echo "$GAMES games of every variant, $SECONDS_ s a row; $(nproc) cores; the disk: $dd_rate synchronous 4 KiB writes/s"
echo
echo "| store, replies | offered /s | actions/s | p50 ms | p99 ms | max ms | errors |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
