# SPDX-License-Identifier: GPL-3.0-or-later
#
# Starting and stopping a ttchess server for a test script (sourced by
# tests/api-test.sh and tests/web-test.sh).  The caller sets TTCHESS (the
# program) and tmp (a scratch folder, which holds the database and the
# server's log); start_server STATIC_DIR sets PORT, B (the base URL) and
# server_pid, keeping the database of an earlier start.  The database is
# $tmp/ttchess.db, or TTCHESS_DB when set (a postgresql:// URL: the
# same tests then run on PostgreSQL).

server_pid=

stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
        server_pid=
    fi
}

# A port nobody listens on: the server refuses to start on a taken one,
# so a few tries find one.  The tests register many players from one
# address, so the registration limit is raised (tests/abuse/ tests it).
start_server() {
    local static=$1
    for try in 1 2 3 4 5 6 7 8; do
        PORT=$((20000 + RANDOM % 20000))
        "$TTCHESS" serve --port "$PORT" --db "${TTCHESS_DB:-$tmp/ttchess.db}" --static "$static" --registrations-per-hour 100000 >"$tmp/serve.log" 2>&1 &
        server_pid=$!
        for i in $(seq 50); do
            grep -q "ttchess serve: http" "$tmp/serve.log" 2>/dev/null && break
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$server_pid" 2>/dev/null && grep -q "ttchess serve: http" "$tmp/serve.log"; then
            B=http://127.0.0.1:$PORT
            return 0
        fi
        wait "$server_pid" 2>/dev/null
        server_pid=
    done
    echo "FAIL: the server did not start:"; cat "$tmp/serve.log"; exit 1
}
