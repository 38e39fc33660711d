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
. "$root/tests/serve-lib.sh"
trap 'stop_server; rm -rf "$tmp"' EXIT

if [ ! -x /usr/bin/chromium ]; then
    echo "error: the browser tests need Debian's chromium (/usr/bin/chromium): apt-get install chromium" >&2
    exit 1
fi
if [ ! -f "$root/web/dist/manifest.json" ]; then
    echo "error: the web client is not built (make web)" >&2
    exit 1
fi

start_server "$root/web/dist"
export TTCHESS_URL="$B"
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
