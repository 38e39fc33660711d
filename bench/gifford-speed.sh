#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Gifford perft speed beside standard perft's, in one run: Gifford from the
# start position at depth 4, standard chess from the start at depth 6.  Both
# are ttchess's own generic perft through the variant interface; the ratio
# says what the time-travel actions cost (target: at least 0.5).
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

# Runs a perft twice and prints "nodes seconds" for the faster run.
measure() {
    local best="" nodes=""
    for _ in 1 2; do
        local t0 t1 out
        t0=$(now)
        out=$("$T" perft "$@" 2>/dev/null | tail -n 1)
        t1=$(now)
        nodes=${out##* }
        best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN { s = b - a; print (best == "" || s < best) ? s : best }')
    done
    echo "$nodes $best"
}

read -r gn gs < <(measure --variant gifford 4)
read -r cn cs < <(measure 6)
awk -v gn="$gn" -v gs="$gs" -v cn="$cn" -v cs="$cs" 'BEGIN {
    printf "%-26s %6s %14s %16s\n", "perft", "depth", "nodes", "nodes/s"
    printf "%-26s %6d %14d %16.0f\n", "gifford start position", 4, gn, gn / gs
    printf "%-26s %6d %14d %16.0f\n", "chess start position", 6, cn, cn / cs
    printf "ratio gifford / chess: %.3f\n", (gn / gs) / (cn / cs)
}'
