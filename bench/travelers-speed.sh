#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Time Traveler's Chess perft speed beside standard perft's, in one run:
# the start position at depths 2 and 3 (targets: under 1 s and under 2
# minutes, one thread), standard chess from the start at depth 6.  Both
# are ttchess's own generic perft through the variant interface,
# bulk-counting the last ply.  Nearly all of the time goes to the support
# search (three moves of the side's own pieces for every explosion square)
# that each position needs once.
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"


read -r cn cs < <(measure 6)
printf "%-28s %6s %14s %10s %14s %8s\n" "perft" "depth" "nodes" "seconds" "nodes/s" "÷ chess"
awk -v n="$cn" -v s="$cs" 'BEGIN { printf "%-28s %6d %14.0f %10.2f %14.0f\n", "chess start position", 6, n, s, n / s }'
for depth in 2 3; do
    read -r vn vs < <(measure --variant travelers "$depth")
    awk -v d="$depth" -v n="$vn" -v s="$vs" -v cn="$cn" -v cs="$cs" \
        'BEGIN { printf "%-28s %6d %14.0f %10.2f %14.0f %8.4f\n", "travelers start position", d, n, s, n / s, (n / s) / (cn / cs) }'
done
