#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The browser tests of the web client (web/tests/*.spec.ts, Playwright in
# Debian's headless chromium) against a ttchess server of this build with
# a fresh database on a free local port.  With --screenshots, takes the
# game page of every variant into docs/images/ instead.
#
# Usage: TTCHESS=path/to/ttchess tests/web-test.sh [--screenshots] [playwright args...]

set -u
TTCHESS=${TTCHESS:-build/ttchess}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

if [ ! -x /usr/bin/chromium ]; then
    echo "error: the browser tests need Debian's chromium (/usr/bin/chromium): apt-get install chromium" >&2
    exit 1
fi
if [ ! -f "$root/web/dist/app.js" ]; then
    echo "error: the web client is not built (make web)" >&2
    exit 1
fi

# A port nobody listens on: the server refuses a taken one, so a few tries
# find one.
for try in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 20000))
    "$TTCHESS" serve --port "$port" --db "$tmp/ttchess.db" --static "$root/web/dist" >"$tmp/serve.log" 2>&1 &
    server_pid=$!
    for i in $(seq 50); do
        grep -q "ttchess serve: http" "$tmp/serve.log" 2>/dev/null && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "ttchess serve: http" "$tmp/serve.log" && kill -0 "$server_pid" 2>/dev/null && break
    wait "$server_pid" 2>/dev/null
    server_pid=
done
if [ -z "$server_pid" ]; then
    echo "FAIL: the server did not start:"; cat "$tmp/serve.log"; exit 1
fi

export TTCHESS_URL="http://127.0.0.1:$port"
cd "$root/web" || exit 1
if [ "${1-}" = "--screenshots" ]; then
    shift
    TTCHESS_SCREENSHOTS="$root/docs/images" npx --no-install playwright test tests/screenshots.spec.ts "$@"
else
    npx --no-install playwright test "$@"
fi
status=$?
if [ $status -ne 0 ]; then
    echo "--- server log ---"; tail -n 50 "$tmp/serve.log"
fi
exit $status
