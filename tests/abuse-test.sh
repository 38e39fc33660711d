#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The server under abuse (issue 24, docs/api.md "Security and limits"):
# each script of tests/abuse/ starts a server of the build with a fresh
# database, attacks it as a client would (floods of connections, slow
# headers, path traversal, parallel requests racing a limit, a flagged
# clock, engine games by the hundred) and checks, with a second and
# honest client, that every limit holds.  Only loopback addresses are
# used (127.0.0.2 and 127.0.0.3 are separate clients).
#
# Usage: TTCHESS=path/to/ttchess tests/abuse-test.sh [script ...]

set -u
TTCHESS=${TTCHESS:-build/ttchess}
export TTCHESS
here=$(cd "$(dirname "$0")" && pwd)
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
scripts=("$@")
[ ${#scripts[@]} -eq 0 ] && scripts=("$here"/abuse/test_*.py)
failed=0
passed=0
for s in "${scripts[@]}"; do
    if timeout 300 python3 "$s"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $s"; fi
done
# The build with an absolute build folder (make BUILD=/abs/path once
# failed running its generated-tables program as ./$(BUILD)/...): the
# step that failed, in a scratch folder.
if [ $# -eq 0 ]; then
    abs=$(mktemp -d)
    if make -s -C "$here/.." --no-print-directory BUILD="$abs/build" "$abs/build/obj/tables.o" >"$abs/log" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL: make BUILD=$abs/build (an absolute path):"; tail -n 5 "$abs/log"
    fi
    rm -rf "$abs"
fi
echo "abuse: $passed passed, $failed failed"
[ $failed -eq 0 ]
