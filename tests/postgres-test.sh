#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The server's tests on PostgreSQL (make test-postgres): a throwaway
# cluster of Debian's postgresql package (tests/pg-lib.sh: initdb and
# pg_ctl in a temporary folder, a free local port), then
#   - the whole API suite (tests/api-test.sh) on a database of its own,
#     and players' pages and the archive (tests/players-test.sh) on another;
#   - the store's own tests (schema migrations from an older version) on
#     another (STORE_TEST: build/tests/test-store);
#   - two server instances on a third (tests/multi-test.sh): sessions
#     shared, live updates across instances within 100 ms, one action
#     for one ply applied once;
#   - the ratings (tests/ratings-test.sh) on a fourth, with a second
#     server taking half of 50 racing resignations;
#   - the tournaments (tests/tournament-test.sh) on a fourth, and two
#     servers sharing a tournament's live standings on a fifth
#     (tests/tournament-multi-test.sh);
#   - the correspondence mails (tests/mail-test.sh), whose queue is
#     claimed with FOR UPDATE SKIP LOCKED there;
# and everything started is stopped.
#
# Usage: TTCHESS=build/ttchess STORE_TEST=build/tests/test-store tests/postgres-test.sh

set -u
here=$(dirname "$0")
. "$here/pg-lib.sh"
trap pg_stop EXIT
pg_start || exit 1
for db in api players store multi ratings tournament tmulti mail; do pg_sql "CREATE DATABASE $db" || exit 1; done
base=${PG_URL%/postgres}
status=0
echo "PostgreSQL test cluster on port $PG_PORT"
TTCHESS_DB=$base/api "$here/api-test.sh" || status=1
TTCHESS_DB=$base/players "$here/players-test.sh" || status=1
if [ -n "${STORE_TEST:-}" ]; then TTCHESS_TEST_PG=$base/store "$STORE_TEST" || status=1; fi
TTCHESS_DB=$base/multi "$here/multi-test.sh" || status=1
TTCHESS_DB=$base/ratings "$here/ratings-test.sh" || status=1
TTCHESS_DB=$base/tournament "$here/tournament-test.sh" || status=1
TTCHESS_DB=$base/tmulti "$here/tournament-multi-test.sh" || status=1
TTCHESS_DB=$base/mail "$here/mail-test.sh" || status=1
exit $status
