# SPDX-License-Identifier: GPL-3.0-or-later
#
# A throwaway PostgreSQL cluster for a test script (sourced by
# tests/api-test.sh, tests/crash.sh and the Makefile's test-postgres).
# Debian's postgresql package gives initdb and pg_ctl; the cluster lives in
# a temporary folder, listens on a free local port and on a socket in that
# folder, and is removed by pg_stop.  PostgreSQL refuses to run as root, so
# as root the cluster runs as the package's "postgres" user.
#
#   pg_start          sets PG_DIR, PG_PORT and PG_URL (postgresql://...)
#   pg_restart        an immediate stop (as a crash) and a start again
#   pg_stop           stops the cluster and removes its folder
#
# A caller that starts a cluster should `trap pg_stop EXIT` (or call it
# from its own trap), so that nothing it started outlives it.
#
# The cluster's settings are those of tests/pg/postgresql.conf, copied into
# the cluster and included from its postgresql.conf; only the port (found
# free at start) and the socket folder are given on the command line.

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
PG_CONF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/pg/postgresql.conf
PG_DIR=
PG_PORT=
PG_URL=

pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_start() {
    if [ ! -x "$PG_BIN/initdb" ]; then
        echo "FAIL: PostgreSQL's initdb is not installed (Debian package postgresql)" >&2
        return 1
    fi
    PG_DIR=$(mktemp -d /tmp/ttchess-pg.XXXXXX)
    chmod 755 "$PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR"
    pg_as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U ttchess --auth=trust -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 || {
        echo "FAIL: initdb:" >&2; cat "$PG_DIR/initdb.log" >&2; return 1
    }
    # Copied, not referred to: the cluster may run as another user than
    # the one who owns the checkout (root writes in the cluster's folder).
    cp "$PG_CONF" "$PG_DIR/data/ttchess.conf" && echo "include 'ttchess.conf'" >>"$PG_DIR/data/postgresql.conf" || {
        echo "FAIL: cannot add $PG_CONF to the cluster's settings" >&2; return 1
    }
    [ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR/data/ttchess.conf"
    local try
    for try in 1 2 3 4 5 6 7 8; do
        PG_PORT=$((20000 + RANDOM % 20000))
        if pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
            -o "-p $PG_PORT -k $PG_DIR" \
            start >/dev/null 2>&1; then
            PG_URL="postgresql://ttchess@127.0.0.1:$PG_PORT/postgres"
            return 0
        fi
    done
    echo "FAIL: PostgreSQL did not start:" >&2; cat "$PG_DIR/server.log" >&2
    return 1
}

pg_restart() {
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
        -o "-p $PG_PORT -k $PG_DIR" \
        start >/dev/null 2>&1
}

# Runs SQL in the cluster's database as its superuser (for the tests that
# make the database read-only).
pg_sql() {
    pg_as_owner "$PG_BIN/psql" -X -q -h "$PG_DIR" -p "$PG_PORT" -U ttchess -d postgres -v ON_ERROR_STOP=1 -c "$1"
}

pg_stop() {
    [ -n "$PG_DIR" ] || return 0
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
    rm -rf "$PG_DIR"
    PG_DIR=
}
