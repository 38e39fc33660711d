#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Perft speed through the WebAssembly build (web/dist/ttchess.wasm, in Node,
# through rules.ts as the page runs it: web/tools/ttchess-wasm.mjs) against
# the native portable build (-O2, what `make` builds), in one run, on the
# same positions: chess from the start (depth 6) and kiwipete (depth 5),
# and each time-travel game from its start.  Each side's time is the one it
# reports for the perft alone ("time S s" on standard error), without the
# start of the process or the module's load; the faster of two runs counts.
# Both must agree on every count, or the script fails.  The ratio is the
# WebAssembly build's speed over the native one's (target: at least 1/3).
#
# Usage: bench/wasm-speed.sh     (TTCHESS: the native ttchess; default: build/ttchess, made)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TTCHESS:-}" ]; then
    make -s build/ttchess web
    TTCHESS=build/ttchess
fi
WASM=(node web/tools/ttchess-wasm.mjs)

# best_of_two PROGRAM... -- PERFT ARGS: "nodes seconds" of the faster run.
best_of_two() {
    local best="" nodes="" out secs
    for _ in 1 2; do
        out=$("$@" 2>&1)
        secs=$(sed -n 's/^time \([0-9.]*\) s.*/\1/p' <<<"$out")
        nodes=$(sed -n 's/^Nodes searched: //p' <<<"$out")
        [ -n "$secs" ] && [ -n "$nodes" ] || { echo "wasm-speed: no count from $*" >&2; exit 1; }
        best=$(awk -v s="$secs" -v best="$best" 'BEGIN { print (best == "" || s < best) ? s : best }')
    done
    echo "$nodes $best"
}

kiwipete=$(grep -v '^#' tests/data/perft-standard.txt | grep -v '^[[:space:]]*$' | sed -n 2p | cut -d';' -f1 | sed 's/[[:space:]]*$//')
printf '%-22s %5s %12s %14s %14s %6s\n' "perft" "depth" "nodes" "native n/s" "wasm n/s" "ratio"
worst=""
while IFS='|' read -r name depth args; do
    read -r -a extra <<<"$args"
    [ "$name" = kiwipete ] && extra=(--fen "$kiwipete")
    read -r nn ns < <(best_of_two "$TTCHESS" perft "${extra[@]}" "$depth")
    read -r wn ws < <(best_of_two "${WASM[@]}" perft "${extra[@]}" "$depth")
    if [ "$nn" != "$wn" ]; then
        echo "wasm-speed: $name depth $depth: native counts $nn, WebAssembly $wn" >&2
        exit 1
    fi
    ratio=$(awk -v nn="$nn" -v ns="$ns" -v ws="$ws" 'BEGIN { printf "%.2f", ns / ws }')
    awk -v n="$name" -v d="$depth" -v c="$nn" -v ns="$ns" -v ws="$ws" -v r="$ratio" \
        'BEGIN { printf "%-22s %5d %12d %14.0f %14.0f %6s\n", n, d, c, c / ns, c / ws, r }'
    worst=$(awk -v r="$ratio" -v w="$worst" 'BEGIN { print (w == "" || r < w) ? r : w }')
done <<'EOF_POSITIONS'
chess start|6|
kiwipete|5|
gifford start|4|--variant gifford
vangog start|2|--variant vangog
travelers start|2|--variant travelers
chessgi start|4|--variant chessgi
EOF_POSITIONS
echo "WebAssembly over native (portable -O2), the slowest position: $worst (target: at least 0.33)"
