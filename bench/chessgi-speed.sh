#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Chessgi perft speed, in one run: ttchess's chessgi-classic perft 6 from
# the start beside Fairy-Stockfish's chessgi perft 6 (Debian package
# fairy-stockfish; target: faster), and Time Travel Chessgi's perft 5 from
# the start beside ttchess's standard perft 6 (target: at least half its
# nodes per second; make perft-long counts depth 4 as well).  Each program is timed from its start to its answer,
# so Fairy-Stockfish's start-up (a few milliseconds) counts against it as
# ttchess's counts against ttchess.
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
./scripts/ensure-packages fairy-stockfish:/usr/games/fairy-stockfish >&2
FSF=/usr/games/fairy-stockfish

# Fairy-Stockfish's perft, timed: "nodes seconds".
fsf_measure() {
    local t0 t1 out
    t0=$(now)
    out=$(printf 'uci\nsetoption name UCI_Variant value chessgi\nposition startpos\ngo perft %d\nquit\n' "$1" |
        "$FSF" 2>/dev/null | sed -n 's/^Nodes searched: //p')
    t1=$(now)
    echo "$out $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}

read -r cn cs < <(measure 6)
read -r gn gs < <(measure --variant chessgi-classic 6)
read -r fn fs < <(fsf_measure 6)
read -r tn ts < <(measure --variant chessgi 5)
[ "$gn" = "$fn" ] || { echo "chessgi-speed: the counts differ: ttchess $gn, Fairy-Stockfish $fn" >&2; exit 1; }
printf "%-38s %6s %12s %9s %14s %10s\n" "perft" "depth" "nodes" "seconds" "nodes/s" "ratio"
row() { awk -v name="$1" -v d="$2" -v n="$3" -v s="$4" -v r="$5" \
    'BEGIN { printf "%-38s %6d %12.0f %9.3f %14.0f %10s\n", name, d, n, s, n / s, r }'; }
row "chess, ttchess" 6 "$cn" "$cs" ""
row "chessgi-classic, Fairy-Stockfish" 6 "$fn" "$fs" ""
row "chessgi-classic, ttchess" 6 "$gn" "$gs" "$(awk -v a="$gn" -v b="$gs" -v c="$fn" -v d="$fs" 'BEGIN { printf "%.1f x FSF", (a / b) / (c / d) }')"
row "chessgi (time travel), ttchess" 5 "$tn" "$ts" "$(awk -v a="$tn" -v b="$ts" -v c="$cn" -v d="$cs" 'BEGIN { printf "%.2f chess", (a / b) / (c / d) }')"
