#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Two ttchess serve instances on one PostgreSQL database share a
# tournament's live standings: an arena created on server A, joined
# through both, its game ended through A, shows the result in B's
# standings and in B's live stream (LISTEN/NOTIFY) within a second.
#
# Usage: TTCHESS=build/ttchess TTCHESS_DB=postgresql://... tests/tournament-multi-test.sh
# (make test-postgres starts the database and runs this).
set -u
TTCHESS=${TTCHESS:-build/ttchess}
: "${TTCHESS_DB:?set TTCHESS_DB to a postgresql:// URL}"
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
bases=()
for name in A B; do
    for try in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 20000))
        "$TTCHESS" serve --port "$port" --db "$TTCHESS_DB" --static "$tmp/none" --registrations-per-hour 100000 \
            --arena-minute-ms 20000 >"$tmp/$name.log" 2>&1 &
        pid=$!
        for i in $(seq 100); do
            grep -q "ttchess serve: http" "$tmp/$name.log" 2>/dev/null && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if grep -q "ttchess serve: http" "$tmp/$name.log"; then
            pids+=("$pid")
            bases+=("http://127.0.0.1:$port")
            break
        fi
        wait "$pid" 2>/dev/null
    done
done
[ ${#bases[@]} = 2 ] || { echo "FAIL: the servers did not start"; cat "$tmp"/*.log; exit 1; }
python3 "$(dirname "$0")/tournament_multi.py" "${bases[0]}" "${bases[1]}"
