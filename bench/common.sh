# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sourced by the bench scripts: goes to the top of the checkout, sets T to
# the ttchess to measure ($TTCHESS, else a build with -O3 -march=native in
# build-bench/), and defines now, a clock in seconds, and measure, one
# perft timed ("nodes seconds").
cd "$(dirname "$0")/.."
if [ -z "${TTCHESS:-}" ]; then
    make -s BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess
    TTCHESS=build-bench/ttchess
fi
T=$TTCHESS

now() { date +%s.%N; }

# Runs one perft and prints "nodes seconds".
measure() {
    local t0 t1 out
    t0=$(now)
    out=$("$T" perft "$@" 2>/dev/null | tail -n 1)
    t1=$(now)
    echo "${out##* } $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}
