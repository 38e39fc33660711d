# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sourced by the bench scripts: goes to the top of the checkout, sets T to
# the ttchess to measure ($TTCHESS, else a build with -O3 -march=native in
# build-bench/), and defines now, a clock in seconds.
cd "$(dirname "$0")/.."
if [ -z "${TTCHESS:-}" ]; then
    make -s BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess
    TTCHESS=build-bench/ttchess
fi
T=$TTCHESS

now() { date +%s.%N; }
