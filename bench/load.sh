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
# Where the time goes on PostgreSQL (issue 30), after each of its rows,
# from PostgreSQL's own view (the cluster's settings: tests/pg/
# postgresql.conf): the statements by their total time with their calls
# per action (pg_stat_statements, round trips), the commits and WAL syncs
# per action and the time syncing (pg_stat_wal), and what the database's
# sessions were waiting for, sampled every 20 ms (pg_stat_activity).
#
# A slower disk: with SYNC_US=N every fsync and fdatasync of PostgreSQL and
# of the servers takes at least N microseconds (bench/slow-sync.c, loaded
# with LD_PRELOAD; `make build/bench/slow-sync.so`), as on a disk that
# syncs 1,000,000 / N writes a second.  The machines of this project's
# kind differ mostly in their disks; this shows a slow one on a fast one.
#
# Usage: TTCHESS=build/ttchess LOAD=build/bench/load [SYNC_US=N] bench/load.sh [SECONDS] [GAMES] [RATE]

set -u
TTCHESS=${TTCHESS:-build/ttchess}
LOAD=${LOAD:-build/bench/load}
SECONDS_=${1:-10}
GAMES=${2:-200}
RATE=${3:-1000}
FULL_RATE=${FULL_RATE:-300}
SYNC_US=${SYNC_US:-}
SLOW_SYNC=${SLOW_SYNC:-build/bench/slow-sync.so}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/pg-lib.sh"
tmp=$(mktemp -d)
servers=()
shim=
cleanup() {
    for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    pg_stop
    rm -rf "$tmp"
    [ -z "$shim" ] || rm -f "$shim"
}
trap cleanup EXIT

# The slower disk's library, where PostgreSQL's own user can read it (the
# cluster runs as "postgres" when this runs as root).
preload=
if [ -n "$SYNC_US" ]; then
    case $SYNC_US in
    *[!0-9]* | 0) echo "error: SYNC_US is a number of microseconds above 0, not '$SYNC_US'" >&2; exit 2 ;;
    esac
    [ -r "$SLOW_SYNC" ] || { echo "error: SYNC_US needs $SLOW_SYNC (make build/bench/slow-sync.so)" >&2; exit 2; }
    shim=$(mktemp /tmp/ttchess-slow-sync.XXXXXX)
    cp "$SLOW_SYNC" "$shim" && chmod 755 "$shim" || exit 2
    preload=$shim
fi

# serve DB: a server on a free port; its URL in URL.
serve() {
    local db=$1 port log
    for try in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 20000))
        log=$tmp/serve.$port.log
        LD_PRELOAD=$preload TTCHESS_SYNC_US=$SYNC_US \
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
out=
get() { echo "$out" | grep -o "\"$1\":[0-9.]*" | head -n 1 | cut -d: -f2; }
# run LABEL RATE ARGS...: one load run; its figures become a table row.
run() {
    local label=$1 rate=$2
    shift 2
    out=$("$LOAD" --games "$GAMES" --rate "$rate" --duration "$SECONDS_" --quiet --json "$@" | tail -n 1)
    rows+=("| $label | $rate | $(get actions_per_s) | $(get p50_ms) | $(get p99_ms) | $(get max_ms) | $(get errors) |")
    echo "$label: $out"
}

# pg_run LABEL ARGS...: a PostgreSQL row, with the database's own view of
# it: statistics reset before, wait events sampled during, read after.
pg_run() {
    local label=$1 db=$2
    shift 2
    pg_sql "SELECT pg_stat_statements_reset(); SELECT pg_stat_reset_shared('wal');" >/dev/null
    local samples=$((SECONDS_ * 50 + 100)) i
    for ((i = 0; i < samples; i++)); do
        echo "SELECT coalesce(wait_event_type || ':' || wait_event, 'on CPU') FROM pg_stat_activity"
        echo "  WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid();"
        echo "SELECT pg_sleep(0.02);"
    done >"$tmp/sample.sql"
    pg_as_owner "$PG_BIN/psql" -X -q -A -t -h "$PG_DIR" -p "$PG_PORT" -U ttchess -d postgres -f - \
        <"$tmp/sample.sql" >"$tmp/waits" 2>/dev/null &
    local sampler=$!
    local servers_before pg_before
    servers_before=$(cpu_seconds "${servers[@]}")
    pg_before=$(cpu_seconds $(postgres_pids))
    local TIMEFORMAT=%U+%S
    { time run "$label" "$RATE" "$@" >"$tmp/run.out"; } 2>"$tmp/load.cpu"
    cat "$tmp/run.out"
    local servers_cpu pg_cpu load_cpu
    servers_cpu=$(awk -v a="$(cpu_seconds "${servers[@]}")" -v b="$servers_before" 'BEGIN { printf "%.2f", a - b }')
    pg_cpu=$(awk -v a="$(cpu_seconds $(postgres_pids))" -v b="$pg_before" 'BEGIN { printf "%.2f", a - b }')
    load_cpu=$(awk -F+ '{ printf "%.2f", $1 + $2 }' "$tmp/load.cpu")
    kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
    local actions
    actions=$(get actions)
    [ "${actions:-0}" -gt 0 ] || actions=1
    echo "  where the time goes ($actions actions):"
    pg_as_owner "$PG_BIN/psql" -X -q -h "$PG_DIR" -p "$PG_PORT" -U ttchess -d postgres -P pager=off -c "
        SELECT round(calls::numeric / $actions, 2) AS per_action, calls, round(total_exec_time::numeric, 0) AS total_ms,
               round(mean_exec_time::numeric, 3) AS mean_ms, left(regexp_replace(query, '\s+', ' ', 'g'), 70) AS statement
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$db')
        ORDER BY total_exec_time DESC LIMIT 12;
        SELECT round(sum(calls)::numeric / $actions, 1) AS statements_per_action FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$db');
        SELECT wal_records, round(wal_sync::numeric / $actions, 3) AS syncs_per_action, wal_sync,
               round(wal_sync_time::numeric, 0) AS sync_ms, round(wal_write_time::numeric, 0) AS write_ms,
               round((wal_sync_time / greatest(wal_sync, 1) * 1000)::numeric, 0) AS us_a_sync FROM pg_stat_wal;" |
        sed 's/^/  /'
    echo "  sessions sampled every 20 ms while active, by what they waited for:"
    grep -v '^$' "$tmp/waits" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/  /'
    echo "  CPU seconds in the $SECONDS_ s (the machine has $(nproc) cores): servers $servers_cpu, PostgreSQL $pg_cpu," \
        "load generator $load_cpu"
}

# The user and system CPU seconds the processes PIDS have used so far.
cpu_seconds() {
    local ticks=0 pid t
    for pid in "$@"; do
        t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) && ticks=$((ticks + t))
    done
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}

# The cluster's processes: the postmaster and its children.
postgres_pids() {
    local main
    main=$(head -n 1 "$PG_DIR/data/postmaster.pid" 2>/dev/null) || return 0
    echo "$main" $(pgrep -P "$main")
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

if LD_PRELOAD=$preload TTCHESS_SYNC_US=$SYNC_US pg_start >/dev/null 2>&1; then
    pg_sql "CREATE DATABASE one" >/dev/null && pg_sql "CREATE DATABASE two" >/dev/null
    pg_sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    serve "${PG_URL%/postgres}/one"
    pg_run "PostgreSQL, brief reply" one --url "$URL" --brief
    stop_servers
    serve "${PG_URL%/postgres}/two"
    first=$URL
    serve "${PG_URL%/postgres}/two"
    pg_run "PostgreSQL, 2 servers, brief" two --url "$first" --url "$URL" --brief
    stop_servers
else
    echo "PostgreSQL is not installed (Debian package postgresql): its rows are left out"
fi

echo
disk="the disk: $dd_rate synchronous 4 KiB writes/s"
if [ -n "$SYNC_US" ]; then
    disk="$disk, slowed for the servers and PostgreSQL to at least $SYNC_US µs a sync (at most $((1000000 / SYNC_US))/s)"
fi
echo "$GAMES games of every variant, $SECONDS_ s a row; $(nproc) cores; $disk"
echo
echo "| store, replies | offered /s | actions/s | p50 ms | p99 ms | max ms | errors |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
