#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# van Gog perft speed beside standard perft's, in one run: each mode from
# the start position at depth 3 (vangog-future, whose tree is small, at
# depth 5), standard chess from the start at depth 6.  Both are ttchess's
# own generic perft through the variant interface, bulk-counting the last
# ply; the ratio says what the time-travel actions cost (target: at least
# 0.5).  The full and past modes count 34-35 thousand million leaves: about
# a minute each.
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"


read -r cn cs < <(measure 6)
printf "%-28s %6s %14s %16s %8s\n" "perft" "depth" "nodes" "nodes/s" "÷ chess"
awk -v n="$cn" -v s="$cs" 'BEGIN { printf "%-28s %6d %14.0f %16.0f\n", "chess start position", 6, n, n / s }'
for spec in "vangog 3" "vangog-past 3" "vangog-future 5"; do
    set -- $spec
    read -r vn vs < <(measure --variant "$1" "$2")
    awk -v name="$1 start position" -v d="$2" -v n="$vn" -v s="$vs" -v cn="$cn" -v cs="$cs" \
        'BEGIN { printf "%-28s %6d %14.0f %16.0f %8.2f\n", name, d, n, n / s, (n / s) / (cn / cs) }'
done
